"""Build and run one SPIN verification of model/lrb.pml, and read pan's report:
its figures, the property a violation breaks, and the model code it left
unreached."""

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, FrozenSet, List, Mapping, Optional, Sequence, Set, Tuple

# Debian package of each program a verification runs
TOOLS = {'spin': 'spin', 'gcc': 'gcc'}

# pan's compile flags: exhaustive (never -DBITSTATE), compressed states,
# bounded memory; safety runs check assertions and invalid end states
MEMLIM_MB = 6144
PAN_CFLAGS = ['-w', '-DCOLLAPSE', f'-DMEMLIM={MEMLIM_MB}']
# gcc -O2 costs about 5 s per build on the 2-core machine and saves a third
# of the search time: worth it from a few million states on
OPT_BIG = '-O2'
OPT_SMALL = '-O0'
SAFETY_CFLAGS = ['-DSAFETY']
# liveness runs: the LTL claim, acceptance cycles under weak fairness
LIVENESS_CFLAGS = ['-DNFAIR=3']
LIVENESS_ARGS = ['-a', '-f']
# pan's run flags: a DFS stack deep enough for every configuration, stop at
# the first error; unreached code is listed (no -n) and checked by model.py
PAN_ARGS = ['-m3000000']
# every search runs at the lowest priority: the machine has 2 cores and
# kernel builds may run beside it
NICE = ['nice', '-n', '19']

# Mutations: the shortest counterexample (-i needs -DREACH to be exact)
SHORTEST_CFLAGS = ['-DREACH']
SHORTEST_ARGS = ['-i']

INCOMPLETE = ('Search not completed', 'reached -DMEMLIM bound', 'max search depth too small',
              'out of memory')

# A statement of the model as pan names it: proctype, line, text
Statement = Tuple[str, int, str]
# ... and where it is in one pan binary: proctype, state number
Place = Tuple[str, int]


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
    unreached: FrozenSet[Place] = field(default_factory=frozenset)

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


UNREACHED_HEAD = re.compile(r'^unreached in (?:proctype|init|claim) ?(\S*)', re.M)
UNREACHED_LINE = re.compile(r'^\s+\S+?:\d+, state (\d+), ".*"$')


def parse_unreached(text: str) -> FrozenSet[Place]:
    """The states pan lists as unreached, per proctype."""
    found: Set[Place] = set()
    proc = ''
    for line in text.splitlines():
        head = UNREACHED_HEAD.match(line)
        if head:
            proc = head.group(1) or 'init'
            continue
        m = UNREACHED_LINE.match(line)
        if m and proc:
            found.add((proc, int(m.group(1))))
        elif not line.startswith('\t'):
            proc = ''
    return frozenset(found)


STATEMENT = re.compile(r'^\s*state\s+(\d+) -\(tr\s*\d+\)->.*?\S+?:(\d+) => (.*)$')


def parse_statements(text: str) -> Dict[Place, Tuple[int, str]]:
    """Every statement of pan -d's listing: its place (the state it leaves),
    its line and its text."""
    found: Dict[Place, Tuple[int, str]] = {}
    proc = ''
    for line in text.splitlines():
        if line.startswith('proctype ') or line.startswith('claim '):
            proc = line.split()[1]
            continue
        if line.startswith('init'):
            proc = 'init'
            continue
        m = STATEMENT.match(line)
        if m and proc:
            found[(proc, int(m.group(1)))] = (int(m.group(2)), m.group(3).strip())
    return found


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
    res.unreached = parse_unreached(text)
    return res


def compiler(workdir: Path) -> Tuple[List[str], Dict[str, str]]:
    """gcc, through ccache when there is one, with a cache of its own beside
    the work directories (never the kernel builds' one): an unchanged model
    and configuration is not compiled again."""
    env = dict(os.environ)
    if shutil.which('ccache'):
        env['CCACHE_DIR'] = str(workdir.parent / 'ccache')
        return ['ccache', 'gcc'], env
    return ['gcc'], env


def build(model: Path, workdir: Path, defines: Mapping[str, int],
          cflags: Sequence[str] = (), opt: str = OPT_BIG) -> Path:
    """spin -a and gcc in workdir; returns the pan binary."""
    workdir.mkdir(parents=True, exist_ok=True)
    local = workdir / model.name
    shutil.copyfile(model, local)
    _must(['spin', '-a'] + define_args(defines) + [local.name], workdir, 'spin -a')
    cc, env = compiler(workdir)
    # compiled and linked apart: ccache caches compilations only
    _must(NICE + cc + [opt] + PAN_CFLAGS + list(cflags) + ['-c', '-o', 'pan.o', 'pan.c'],
          workdir, 'gcc pan.c', env)
    _must(['gcc', '-o', 'pan', 'pan.o'], workdir, 'gcc -o pan')
    return workdir / 'pan'


def _must(cmd: Sequence[str], cwd: Path, what: str,
          env: Optional[Mapping[str, str]] = None) -> None:
    proc = subprocess.run(list(cmd), cwd=cwd, capture_output=True, text=True, errors='replace',
                          env=dict(env) if env is not None else None)
    if proc.returncode != 0:
        raise ModelError(f'{what} failed in {cwd}:\n{(proc.stdout + proc.stderr).strip()}')


def run(pan: Path, timeout_s: int, extra: Optional[Sequence[str]] = None) -> PanResult:
    """pan at the lowest priority, bounded in time; its report is kept beside it."""
    cmd = NICE + ['timeout', str(timeout_s), './pan'] + PAN_ARGS + list(extra or [])
    proc = subprocess.run(cmd, cwd=pan.parent, capture_output=True, text=True, errors='replace')
    text = proc.stdout + proc.stderr
    (pan.parent / 'pan.out').write_text(text)
    res = parse(text)
    res.timed_out = proc.returncode == 124
    return res


def statements(pan: Path) -> Dict[Place, Tuple[int, str]]:
    """Every statement of the model as this pan binary has it (pan -d)."""
    proc = subprocess.run(['./pan', '-d'], cwd=pan.parent, capture_output=True, text=True,
                          errors='replace')
    return parse_statements(proc.stdout)


def figures(res: PanResult) -> str:
    """One line: what `make model` prints per configuration."""
    state = 'complete' if res.complete else 'NOT exhaustive (search incomplete)'
    if res.timed_out:
        state = 'NOT exhaustive (time limit)'
    return (f'states {res.states:,} transitions {res.transitions:,} memory {res.memory_mb:.0f} MB '
            f'depth {res.depth:,} errors {res.errors} {res.seconds:.1f}s {state}')
