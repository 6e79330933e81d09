"""Build and run one SPIN verification of model/lrb.pml, and read pan's report."""

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import List, Mapping, Optional, Sequence

# Debian package of each program a verification runs
TOOLS = {'spin': 'spin', 'gcc': 'gcc'}

# pan's compile flags: exhaustive (never -DBITSTATE), compressed states,
# bounded memory; safety runs check assertions and invalid end states
MEMLIM_MB = 6144
PAN_CFLAGS = ['-O2', '-w', '-DCOLLAPSE', f'-DMEMLIM={MEMLIM_MB}']
SAFETY_CFLAGS = ['-DSAFETY']
# liveness runs: the LTL claim, acceptance cycles under weak fairness
LIVENESS_CFLAGS = ['-DNFAIR=3']
LIVENESS_ARGS = ['-a', '-f']
# pan's run flags: a DFS stack deep enough for every configuration, no
# listing of unreached code, stop at the first error
PAN_ARGS = ['-m2000000', '-n']

# Mutations: the shortest counterexample (-i needs -DREACH to be exact)
SHORTEST_CFLAGS = ['-DREACH']
SHORTEST_ARGS = ['-i']

INCOMPLETE = ('Search not completed', 'reached -DMEMLIM bound', 'max search depth too small',
              'out of memory')


class ModelError(Exception):
    """A verification that could not run: a missing tool, a model that does not build."""


@dataclass
class PanResult:
    states: int = 0
    transitions: int = 0
    memory_mb: float = 0.0
    depth: int = 0
    errors: int = 0
    complete: bool = False
    seconds: float = 0.0
    violation: str = ''
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        return self.complete and not self.errors and not self.timed_out


def missing_tools() -> List[str]:
    """'program (Debian package)' for each program not on PATH."""
    return [f'{prog} (Debian package {pkg})' for prog, pkg in TOOLS.items()
            if shutil.which(prog) is None]


def define_args(defines: Mapping[str, int]) -> List[str]:
    return [f'-D{k}={v}' for k, v in sorted(defines.items())]


def _int(pattern: str, text: str) -> int:
    m = re.search(pattern, text, re.M)
    return int(float(m.group(1))) if m else 0


def parse(text: str) -> PanResult:
    """The figures of pan's closing report."""
    res = PanResult()
    res.states = _int(r'^\s*([\d.e+]+) states, stored', text)
    res.transitions = _int(r'^\s*([\d.e+]+) transitions', text)
    res.depth = _int(r'depth reached (\d+)', text)
    res.errors = _int(r'errors: (\d+)', text)
    mem = re.search(r'^\s*([\d.]+)\s+total actual memory usage', text, re.M)
    res.memory_mb = float(mem.group(1)) if mem else 0.0
    secs = re.search(r'^pan: elapsed time ([\d.e+]+) seconds', text, re.M)
    res.seconds = float(secs.group(1)) if secs else 0.0
    # pan -i reports each shorter counterexample it finds: the last is the trail
    viols = re.findall(r'^pan:\d+: (.*?)(?: \(at depth \d+\))?$', text, re.M)
    res.violation = viols[-1] if viols else ''
    res.complete = 'State-vector' in text and not any(s in text for s in INCOMPLETE)
    return res


def build(model: Path, workdir: Path, defines: Mapping[str, int],
          cflags: Sequence[str] = ()) -> Path:
    """spin -a and gcc in workdir; returns the pan binary."""
    workdir.mkdir(parents=True, exist_ok=True)
    local = workdir / model.name
    shutil.copyfile(model, local)
    _must(['spin', '-a'] + define_args(defines) + [local.name], workdir, 'spin -a')
    _must(['gcc'] + PAN_CFLAGS + list(cflags) + ['-o', 'pan', 'pan.c'], workdir, 'gcc pan.c')
    return workdir / 'pan'


def _must(cmd: Sequence[str], cwd: Path, what: str) -> None:
    proc = subprocess.run(list(cmd), cwd=cwd, capture_output=True, text=True, errors='replace')
    if proc.returncode != 0:
        raise ModelError(f'{what} failed in {cwd}:\n{(proc.stdout + proc.stderr).strip()}')


def run(pan: Path, timeout_s: int, extra: Optional[Sequence[str]] = None) -> PanResult:
    """pan at low priority, bounded in time; its report is kept beside it."""
    cmd = ['nice', '-n', '10', 'timeout', str(timeout_s), './pan'] + PAN_ARGS + list(extra or [])
    proc = subprocess.run(cmd, cwd=pan.parent, capture_output=True, text=True, errors='replace')
    text = proc.stdout + proc.stderr
    (pan.parent / 'pan.out').write_text(text)
    res = parse(text)
    res.timed_out = proc.returncode == 124
    return res


def figures(res: PanResult) -> str:
    """One line: what `make model` prints per configuration."""
    state = 'complete' if res.complete else 'NOT exhaustive (search incomplete)'
    if res.timed_out:
        state = 'NOT exhaustive (time limit)'
    return (f'states {res.states:,} transitions {res.transitions:,} memory {res.memory_mb:.0f} MB '
            f'depth {res.depth:,} errors {res.errors} {res.seconds:.1f}s {state}')
