"""Sparse, the kernel's checker, on the series' objects and the test directories.

Each arch has a build directory of its own (<cache>/lrb/build/<arch>-sparse),
configured from .kunitconfig by kunit.py, so that `make check` needs no
earlier build, and prepared once. Our objects are compiled first, so that the
second make, with C=2 (sparse on every source of the targets, compiled or
not), prints nothing but sparse's diagnostics.

Sparse reports a diagnostic where the code is: in the source it checks, or
in a header that source includes. One in a file of the series (a .c or .h
file it adds or changes under include/ and lib/, or a file of a directory
the series writes from this repository) fails the check; one in any other
file is the kernel's own, counted and shown, never failing.
"""

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Sequence, Tuple

from . import buildstamp, checks, kunitrun, paths, resultcache, srcdirs
from .checks import CheckResult
from .profiles import Target, parse_arches
from .tree import state_path

Say = Callable[[str], None]
DIAG = re.compile(r'^(?P<path>[^\s:]+):(?P<line>\d+):(?P<col>\d+): '
                  r'(?P<kind>warning|error): (?P<text>.*)$')
MORE = re.compile(r'^(?P<path>[^\s:]+):(?P<line>\d+):(?P<col>\d+):\s{2,}(?P<text>\S.*)$')
SHOWN_NOT_OURS = 10
BUILD_NAME = 'sparse'   # <cache>/lrb/build/<arch>-sparse


@dataclass(frozen=True)
class Diagnostic:
    path: str    # relative to the kernel tree when it is in it
    line: int
    col: int
    kind: str    # warning or error
    text: str    # the message, with sparse's continuation lines after ' / '

    def __str__(self) -> str:
        return f'{self.path}:{self.line}:{self.col}: {self.kind}: {self.text}'


def tree_relative(path: str, tree: Path) -> str:
    """Sparse names files as make passed them: absolute under the tree, or
    relative to the build directory (generated headers)."""
    prefix = str(tree).rstrip('/') + '/'
    if path.startswith(prefix):
        path = path[len(prefix):]
    while path.startswith('./'):
        path = path[2:]
    return path


def parse(output: str, tree: Path) -> List[Diagnostic]:
    """Every diagnostic once, in order: a header's warning comes once per
    source that includes it."""
    found: Dict[Tuple[str, int, int, str], List[str]] = {}
    kinds: Dict[Tuple[str, int, int, str], str] = {}
    last: Tuple[str, int, int, str] = ('', 0, 0, '')
    for line in output.splitlines():
        diag = DIAG.match(line)
        if diag:
            path = tree_relative(diag['path'], tree)
            last = (path, int(diag['line']), int(diag['col']), diag['text'])
            kinds.setdefault(last, diag['kind'])
            found.setdefault(last, [diag['text']])
            continue
        more = MORE.match(line)
        if more and last[0] and tree_relative(more['path'], tree) == last[0] \
                and int(more['line']) == last[1] and more['text'] not in found[last]:
            found[last].append(more['text'])
    return [Diagnostic(key[0], key[1], key[2], kinds[key], ' / '.join(texts))
            for key, texts in found.items()]


def is_ours(path: str, own_files: Sequence[str]) -> bool:
    return path in own_files or any(path.startswith(d.tree + '/') for d in srcdirs.SOURCE_DIRS)


def verdict(name: str, diags: List[Diagnostic], own_files: Sequence[str]) -> CheckResult:
    """Fails on any diagnostic in our files; the kernel's are listed after."""
    ours = [d for d in diags if is_ours(d.path, own_files)]
    theirs = [d for d in diags if not is_ours(d.path, own_files)]
    result = CheckResult(f'{name}: {len(ours)} in the series and the tests, '
                         f'{len(theirs)} in kernel files (not ours)', not ours)
    result.problems = [str(d) for d in ours]
    shown = theirs[:SHOWN_NOT_OURS]
    result.problems += [f'not ours: {d}' for d in shown]
    if len(theirs) > len(shown):
        result.problems.append(f'not ours: ... and {len(theirs) - len(shown)} more')
    return result


def targets(tree: Path) -> List[str]:
    """The series' objects and the test directories (the W=1 set)."""
    return checks.w1_targets(tree)


def _make(cmd: List[str], env: Dict[str, str]) -> 'subprocess.CompletedProcess[str]':
    return subprocess.run(cmd, capture_output=True, text=True, errors='replace', env=env)


def configure_command(repo: Path, tree: Path, tgt: Target, build_dir: Path) -> List[str]:
    """kunit.py config with the options of the target's test build."""
    cmd = [sys.executable, str(kunitrun.kunit_py(tree)), 'config',
           f'--build_dir={build_dir}', f'--kunitconfig={repo / ".kunitconfig"}',
           f'--arch={tgt.linux_arch}',
           f'--qemu_config={repo / "tools" / "qemu_configs" / tgt.qemu_config}']
    if tgt.cross_compile:
        cmd.append(f'--cross_compile={tgt.cross_compile}')
    return cmd + [f'--make_options={opt}' for opt in kunitrun.make_options(tgt)]


def make_command(tree: Path, tgt: Target, build_dir: Path, jobs: int) -> List[str]:
    cmd = ['make', '-C', str(tree), f'O={build_dir}', f'ARCH={tgt.linux_arch}']
    if tgt.cross_compile:
        cmd.append(f'CROSS_COMPILE={tgt.cross_compile}')
    return cmd + kunitrun.make_options(tgt) + [f'-j{jobs}']


def _failed(name: str, what: str, proc: 'subprocess.CompletedProcess[str]') -> CheckResult:
    output = proc.stderr + proc.stdout
    lines = checks.compiler_diagnostics(output) or output.rstrip().splitlines()[-30:]
    return CheckResult(name, False, [f'{what} failed:'] + lines)


def run(repo: Path, tree: Path, tgt: Target, build_dir: Path, jobs: int, say: Say,
        env: Dict[str, str]) -> CheckResult:
    """Configure and prepare build_dir if needed, then sparse on our sources."""
    name = f'sparse {tgt.build}'
    with kunitrun.build_lock(build_dir, say):
        proc = _make(configure_command(repo, tree, tgt, build_dir), env)
        if proc.returncode:
            return _failed(name, 'kunit.py config', proc)
        base = make_command(tree, tgt, build_dir, jobs)
        objs = targets(tree)
        say(f'[{tgt.build}] sparse: {" ".join(objs)}')
        for step, args in (('make prepare', ['prepare']), ('make', objs)):
            proc = _make(base + args, env)
            if proc.returncode:
                return _failed(name, step, proc)
        proc = _make(base + ['C=2'] + objs, env)
    result = verdict(name, parse(proc.stderr + proc.stdout, tree), checks.series_sources(tree))
    if proc.returncode:  # sparse exits non-zero on some errors
        result.ok = False
        result.problems.append(f'make C=2 exited {proc.returncode}')
    return result


def check_arches(repo: Path, tree: Path, env: Dict[str, str], say: Say) -> List[CheckResult]:
    """Sparse on x86_64 and arm64, each in its own build directory."""
    found = []
    jobs = len(os.sched_getaffinity(0))
    kenv = kunitrun.kunit_env(paths.ccache_dir(env), env)
    for build in ('x86_64', 'arm64'):
        tgt = next(t for t in parse_arches([build]) if t.build == build)
        bdir = paths.build_dir(build, BUILD_NAME, env)
        step_key = sparse_key(repo, tree, tgt, bdir)
        when = resultcache.passed(f'sparse-{build}', step_key, env)
        if when is not None:
            say(f'[{build}] sparse: the same tree, configuration and tools passed on {when}: '
                f'not checked again ({resultcache.DISABLE}=1 checks)')
            found.append(CheckResult(f'sparse {build}: as passed on {when}, same inputs', True))
            continue
        found.append(run(repo, tree, tgt, bdir, jobs, say, kenv))
        if found[-1].ok:
            resultcache.record(f'sparse-{build}', step_key, env)
    return found


def sparse_key(repo: Path, tree: Path, tgt: Target, build_dir: Path) -> str:
    """What sparse's outcome is a function of: the tree, the configuration's
    inputs (.kunitconfig, the QEMU config, the Kconfig files of the tree),
    the sources checked, sparse and the compiler."""
    # by contents and repository-relative names: the same in every clone
    configs = [repo / '.kunitconfig', repo / 'tools' / 'qemu_configs' / tgt.qemu_config]
    return resultcache.key_of(
        [buildstamp.tree_digest(tree, state_path(tree)),
         *(arg.replace(str(repo), '<repo>')
           for arg in configure_command(repo, tree, tgt, build_dir)),
         *targets(tree), *(p.read_text(errors='replace') for p in configs)],
        [], [['sparse', '--version'], [kunitrun.compiler(tgt), '--version']])
