"""Style and warning checks: checkpatch, kernel-doc, W=1, the wrapper's tests and types."""

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

from . import buildstamp, catalogue, gitutil, kunitrun, resultcache, srcdirs
from .profiles import Target
from .tree import BASE_TAG, TreeConfig, stale_copies, state_path

Say = Callable[[str], None]
CHECKPATCH_TOTAL = re.compile(r'total: (\d+) errors, (\d+) warnings, (\d+) checks')
COMPILER_DIAG = re.compile(r'(^|\s)(warning|error): ')
COMPILER_CONTEXT = re.compile(r'^\s*\d*\s*\|| note: |: In function |^In file included from ')
MYPY_SUMMARY = re.compile(r'^(Success: no issues found in (\d+) source files?'
                          r'|Found \d+ errors? in \d+ files? \(checked (\d+) source files?\))$')


@dataclass
class CheckResult:
    name: str
    ok: bool
    problems: List[str] = field(default_factory=list)


def _run(cmd: Sequence[str], cwd: Path) -> 'subprocess.CompletedProcess[str]':
    return subprocess.run(list(cmd), cwd=cwd, capture_output=True, text=True, errors='replace',
                          env=_system_python_env())


def _system_python_env() -> Dict[str, str]:
    """checkpatch runs scripts/spdxcheck.py with `python3` from PATH: it needs the
    Debian python3 that sees python3-ply and python3-git, not a private one."""
    env = dict(os.environ)
    env['PATH'] = '/usr/bin:/bin:' + env.get('PATH', '')
    return env


# The standalone series for the tracing list, whose head push fix and hook
# patch open the bench's series (kernel-patch/upstream-6.12/0002 and 0003,
# the hooks as they apply without the reader-page fix): the bench's copies
# are those patches, whose Signed-off-by is left to whoever submits them
STANDALONE_DIR = 'kernel-patch/upstream-6.12'
STANDALONE_IGNORED = {
    'MISSING_SIGN_OFF': "the standalone series' Signed-off-by is left to whoever submits it",
    'FILE_PATH_CHANGES': "MAINTAINERS' TRACING entry covers kernel/trace/",
}
# A patch with a Fixes: tag: the tree is Debian's source, with no history
FIXES_IGNORED = {
    'UNKNOWN_COMMIT_ID': 'the tree has no history to look the Fixes: ids up in',
}
FIXES_TAG = re.compile(r'^Fixes: [0-9a-f]{12,} ', re.M)
# A source that includes asm/nmi.h: x86's register_nmi_handler() is there,
# and linux/nmi.h includes it only with ACPI APEI or an arch watchdog, which
# the lean builds have not (drivers/watchdog/hpwdt.c includes it the same way)
ASM_NMI_IGNORED = {
    'INCLUDE_LINUX': 'asm/nmi.h: linux/nmi.h includes it only with ACPI APEI or an arch '
                     "watchdog, and x86's register_nmi_handler() is declared there",
}
ASM_NMI = re.compile(r'^\+?#include <asm/nmi\.h>', re.M)


def asm_nmi_ignored(files: List[Path]) -> Dict[Path, Dict[str, str]]:
    """The files (sources or patches) that include asm/nmi.h, with
    ASM_NMI_IGNORED."""
    return {p: dict(ASM_NMI_IGNORED) for p in files
            if ASM_NMI.search(p.read_text(errors='replace'))}


def series_ignored(patches: List[Path], copies: Dict[Path, Path]) -> Dict[Path, Dict[str, str]]:
    """The checkpatch types each patch of the bench's series may ignore, with
    why: the standalone copies' (STANDALONE_IGNORED), a fix's Fixes: id."""
    ignored: Dict[Path, Dict[str, str]] = {}
    for path in patches:
        types: Dict[str, str] = {}
        if path in copies:
            types.update(STANDALONE_IGNORED)
        if FIXES_TAG.search(path.read_text(errors='replace')):
            types.update(FIXES_IGNORED)
        types.update(asm_nmi_ignored([path]).get(path, {}))
        if types:
            ignored[path] = types
    return ignored


SUBJECT = re.compile(r'^Subject: (?:\[[^]]*\] )?(.*(?:\n .*)*)', re.M)


def patch_subject(text: str) -> str:
    """A format-patch file's subject, without its [PATCH] prefix, unfolded."""
    match = SUBJECT.search(text.split('\n\n', 1)[0])
    return ' '.join(match.group(1).split()) if match else ''


def standalone_copies(patches: List[Path], standalone: Path) -> Dict[Path, Path]:
    """The bench's patches that copy a patch of the standalone series (same
    subject), each with that patch."""
    theirs = {patch_subject(p.read_text()): p for p in sorted(standalone.glob('*.patch'))}
    found = {}
    for path in patches:
        subject = patch_subject(path.read_text())
        if subject and subject in theirs:
            found[path] = theirs[subject]
    return found


def _message_and_changes(text: str) -> 'tuple[str, List[str]]':
    """A patch's message (after its mail header, up to ---) and the lines it
    adds and removes: what stays the same when it is rebased."""
    head, _, rest = text.partition('\n\n')
    message, _, diff = rest.partition('\n---\n')
    message = '\n'.join(line for line in message.split('\n')
                         if not line.startswith('Signed-off-by:')).strip()
    changes = [line for line in diff.split('\n') if line.startswith(('+', '-')) and
               not line.startswith(('+++ ', '--- '))]
    return message, changes


def same_as_standalone(copies: Dict[Path, Path]) -> CheckResult:
    """One set of kernel hooks: the bench's copy of the standalone series'
    hook patch has that patch's message and changes (its context may differ:
    the bench applies it without the fix)."""
    result = CheckResult('one set of kernel hooks: ' + (', '.join(
        f'{mine.name} is {theirs.parent.name}/{theirs.name[:4]}'
        for mine, theirs in sorted(copies.items())) or f'no copy of {STANDALONE_DIR}/'),
        bool(copies))
    if not copies:
        result.problems.append(f'kernel-patch/ has no patch with the subject of a patch of '
                               f'{STANDALONE_DIR}/ (its hook patch opens the series)')
    for mine, theirs in sorted(copies.items()):
        my_msg, my_changes = _message_and_changes(mine.read_text())
        their_msg, their_changes = _message_and_changes(theirs.read_text())
        if my_msg != their_msg:
            result.ok = False
            result.problems.append(f'{mine.name}: its message differs from {theirs.name}\'s')
        if my_changes != their_changes:
            result.ok = False
            diff = [f'-{a}' for a in their_changes if a not in my_changes][:3] + \
                [f'+{a}' for a in my_changes if a not in their_changes][:3]
            result.problems.append(f'{mine.name}: changes other lines than {theirs.name}: '
                                   + ' | '.join(diff))
    return result


def checkpatch(tree: Path, files: List[Path], as_files: bool,
               ignored: Optional[Dict[Path, Dict[str, str]]] = None) -> CheckResult:
    """checkpatch --strict on each file; `ignored` gives some files types to
    ignore, each with its reason (named in the check's name)."""
    name = 'checkpatch --strict' + (' -f' if as_files else '')
    result = CheckResult(name, True)
    script = tree / 'scripts' / 'checkpatch.pl'
    for path, types in sorted((ignored or {}).items()):
        result.name += (f' ({path.name[:4]} ignoring ' +
                        '; '.join(f'{k}: {v}' for k, v in sorted(types.items())) + ')')
    for path in files:
        cmd = ['perl', str(script), '--strict', '--color=never', '--show-types']
        if as_files:
            cmd.append('-f')
        if ignored and path in ignored:
            cmd += ['--ignore', ','.join(sorted(ignored[path]))]
        proc = _run(cmd + [str(path)], tree)
        total = CHECKPATCH_TOTAL.search(proc.stdout)
        clean = total is not None and total.groups() == ('0', '0', '0') and proc.returncode == 0
        if not clean:
            result.ok = False
            result.problems.append(f'{path.name}: ' + (total.group(0) if total else
                                                        f'checkpatch exited {proc.returncode}'))
            result.problems += ['    ' + line for line in
                                (proc.stdout + proc.stderr).rstrip().splitlines()]
    return result


def series_sources(tree: Path) -> List[str]:
    """.c/.h files under include/ and lib/ that the series adds or changes."""
    names = gitutil.lines(tree, ['diff', '--no-renames', '--diff-filter=d', '--name-only',
                                 BASE_TAG, 'HEAD'])
    return [n for n in names if n.endswith(('.c', '.h')) and n.startswith(('include/', 'lib/'))]


def doc_sources(tree: Path) -> List[str]:
    """What kernel-doc checks: series_sources() and the .c/.h files the
    series adds or changes under kernel/ (the hooks' header and
    ring_buffer.c, whose pristine kernel-doc is clean)."""
    names = gitutil.lines(tree, ['diff', '--no-renames', '--diff-filter=d', '--name-only',
                                 BASE_TAG, 'HEAD'])
    return series_sources(tree) + [n for n in names if n.endswith(('.c', '.h')) and
                                   n.startswith('kernel/')]


def kernel_doc(tree: Path, files: List[Path]) -> CheckResult:
    result = CheckResult('kernel-doc -none', True)
    if not files:
        return result
    proc = _run(['perl', str(tree / 'scripts' / 'kernel-doc'), '-none'] +
                [str(f) for f in files], tree)
    output = (proc.stdout + proc.stderr).rstrip()
    if output or proc.returncode != 0:
        result.ok = False
        result.problems = output.splitlines() or [f'kernel-doc exited {proc.returncode}']
    return result


def unit_tests(repo: Path) -> CheckResult:
    proc = subprocess.run([sys.executable, '-m', 'unittest', 'discover', '-s', 'tools/tests',
                           '-t', 'tools'], cwd=repo, capture_output=True, text=True,
                          errors='replace')
    lines = (proc.stdout + proc.stderr).rstrip().splitlines()
    summary = [line for line in lines if line.startswith(('Ran ', 'OK', 'FAILED'))]
    result = CheckResult('wrapper unit tests (' + ', '.join(summary) + ')', proc.returncode == 0)
    if not result.ok:
        result.problems = lines[-80:]
    return result


def copies_match(cfg: TreeConfig) -> CheckResult:
    """kunit/ and bench/ against their patches in the series (after the
    tree step): any difference means `make export` was not run."""
    stale = stale_copies(cfg)
    result = CheckResult('kunit/ and bench/ = their patches in kernel-patch/', not stale)
    if stale:
        result.problems = stale + ['run `make export` to write them into the series']
    return result


def mypy_command() -> List[str]:
    """Debian's python3 runs mypy (python3-mypy installs a module, not a
    command); _system_python_env() puts it first on PATH."""
    return ['python3', '-m', 'mypy', '--config-file', 'mypy.ini']


def mypy_result(returncode: int, output: str) -> CheckResult:
    """mypy's verdict: its last line counts the files; anything but
    `Success` (or no summary at all: mypy missing, a crash) fails."""
    lines = output.rstrip().splitlines()
    summary = MYPY_SUMMARY.match(lines[-1]) if lines else None
    files = (summary.group(2) or summary.group(3)) if summary else '?'
    result = CheckResult(f'mypy --strict ({files} files)', returncode == 0 and
                         summary is not None and lines[-1].startswith('Success'))
    if not result.ok:
        result.problems = lines[-60:] or [f'mypy exited {returncode}']
        if 'No module named mypy' in output:
            result.problems.append('install python3-mypy: run `make deps`')
    return result


def mypy(repo: Path) -> CheckResult:
    """mypy --strict on tools/, as mypy.ini says."""
    proc = _run(mypy_command(), repo)
    return mypy_result(proc.returncode, proc.stdout + proc.stderr)


def compiler_diagnostics(output: str) -> List[str]:
    """gcc's warnings and errors with their context lines; make's progress dropped."""
    return [line for line in output.splitlines()
            if COMPILER_DIAG.search(line) or COMPILER_CONTEXT.search(line)]


def w1_targets(tree: Path) -> List[str]:
    """The series' objects, and the test directories whole (the objects
    their Makefiles build depend on the configuration)."""
    objs = [n[:-2] + '.o' for n in series_sources(tree)
            if n.endswith('.c') and srcdirs.owner(n) is None]
    return objs + [d.tree + '/' for d in srcdirs.SOURCE_DIRS]


def w1(tree: Path, tgt: Target, build_dir: Path, jobs: int, say: Say,
       env: Dict[str, str]) -> CheckResult:
    """Compile the series' objects and the test directories with W=1 in a sibling dir.

    A separate O= dir (<build dir>-w1, same .config and CC) keeps the main
    build's objects and command lines untouched, so the next kunit.py build
    neither recompiles nor relinks. `make W=1 prepare` runs first (its own
    warnings, from the kernel's asm-offsets and the like, are not ours); then
    our objects are removed and rebuilt, so every warning printed by that
    second make is the series' or the tests' (ccache replays warnings).
    """
    result = CheckResult(f'W=1 {tgt.build}', True)
    config = build_dir / '.config'
    if not config.is_file():
        result.ok = False
        result.problems = [f'{build_dir} has no .config: run the {tgt.build} build first']
        return result
    w1_dir = build_dir.with_name(build_dir.name + '-w1')
    step_key = w1_key(tree, tgt, config)
    when = resultcache.passed(f'w1-{tgt.build}', step_key, env)
    if when is not None:
        say(f'[{tgt.build}] W=1: the same tree, .config and compiler passed on {when}: '
            f'not compiled again ({resultcache.DISABLE}=1 compiles)')
        return CheckResult(f'{result.name}: as passed on {when}, same inputs', True)
    with kunitrun.build_lock(w1_dir, say):
        result = _w1_build(tree, tgt, config, w1_dir, jobs, say, env, result)
    if result.ok:
        resultcache.record(f'w1-{tgt.build}', step_key, env)
    return result


def w1_key(tree: Path, tgt: Target, config: Path) -> str:
    """What W=1's outcome is a function of: the tree, the build's .config,
    the objects, the compiler and its options."""
    return resultcache.key_of(
        [buildstamp.tree_digest(tree, state_path(tree)), tgt.linux_arch,
         *kunitrun.make_options(tgt), *w1_targets(tree)],
        [config], [[kunitrun.compiler(tgt), '--version']])


def _make(cmd: List[str], env: Dict[str, str]) -> 'subprocess.CompletedProcess[str]':
    return subprocess.run(cmd, capture_output=True, text=True, errors='replace', env=env)


def _w1_build(tree: Path, tgt: Target, config: Path, w1_dir: Path, jobs: int, say: Say,
              env: Dict[str, str], result: CheckResult) -> CheckResult:
    base = ['make', '-C', str(tree), f'O={w1_dir}', f'ARCH={tgt.linux_arch}']
    if tgt.cross_compile:
        base.append(f'CROSS_COMPILE={tgt.cross_compile}')
    base += kunitrun.make_options(tgt) + ['W=1', f'-j{jobs}']
    copied = w1_dir / '.config.lrb-source'   # the main build's .config last copied
    if not copied.is_file() or copied.read_bytes() != config.read_bytes():
        shutil.copyfile(config, w1_dir / '.config')
        shutil.copyfile(config, copied)
        proc = _make(base + ['olddefconfig'], env)
        if proc.returncode:
            return CheckResult(result.name, False, proc.stderr.splitlines()[-20:])
    proc = _make(base + ['prepare'], env)
    if proc.returncode:
        return CheckResult(result.name, False, ['make prepare failed:'] +
                           proc.stderr.splitlines()[-30:])
    targets = w1_targets(tree)
    for target in targets:
        path = w1_dir / target
        victims = path.glob('**/*.o') if target.endswith('/') else [path]
        for obj in victims:
            if obj.is_file():
                obj.unlink()
    say(f'[{tgt.build}] W=1: {" ".join(targets)}')
    proc = _make(base + targets, env)
    diags = compiler_diagnostics(proc.stderr + proc.stdout)
    if proc.returncode or any(COMPILER_DIAG.search(d) for d in diags):
        result.ok = False
        result.problems = diags or (proc.stderr.splitlines()[-30:])
    return result


def kbuffer_check(repo: Path, out_dir: Path, logs: List[Path], say: Say) -> CheckResult:
    """Build tools/kbuffer-check against libtraceevent and let it decode the
    pages that lrb_api.read_page_hexdump_for_kbuffer printed in each log."""
    result = CheckResult(f'kbuffer-check: libtraceevent decodes lrb pages ({len(logs)} logs)',
                         True)
    src = repo / 'tools' / 'kbuffer-check' / 'kbuffer_check.c'
    binary = out_dir / 'kbuffer-check'
    flags = _run(['pkg-config', '--cflags', '--libs', 'libtraceevent'], repo)
    if flags.returncode != 0:
        result.ok = False
        result.problems.append('pkg-config finds no libtraceevent: run `make deps` '
                               '(libtraceevent-dev, pkg-config)')
        return result
    say('kbuffer-check: building against libtraceevent, decoding the dumped pages')
    cc = _run(['cc', '-O2', '-Wall', '-Wextra', '-Werror', '-o', str(binary), str(src)]
              + flags.stdout.split(), repo)
    if cc.returncode != 0:
        result.ok = False
        result.problems += ['cc failed:'] + cc.stderr.rstrip().splitlines()
        return result
    if not logs:
        result.ok = False
        result.problems.append('no kernel log to check (no boot ran lrb_api)')
    for log in logs:
        proc = _run([str(binary), str(log)], repo)
        lines = (proc.stdout + proc.stderr).rstrip().splitlines()
        if proc.returncode != 0:
            result.ok = False
            result.problems += lines[:25]
        else:
            result.problems += lines
    return result


def scenarios_current(repo: Path, out_dir: Path, log: Path) -> CheckResult:
    """docs/scenarios.md against the catalogue of this run's x86_64 lrb_design
    and lrb_design_kernel cases, written to out_dir/scenarios.md: a committed
    catalogue that no longer says what the cases draw and check fails, and so
    does a log without one of the two suites."""
    result = CheckResult('docs/scenarios.md is what lrb_design draws (x86_64)', True)
    scenarios = catalogue.parse(log.read_text(errors='replace')) if log.is_file() else []
    missing = catalogue.missing_impls(scenarios) if scenarios else ['lrb_design']
    if missing:
        result.ok = False
        result.problems.append(f'no {" or ".join(missing)} scenario in {log}')
        return result
    generated = catalogue.render(scenarios)
    (out_dir / 'scenarios.md').write_text(generated)
    committed = repo / 'docs' / 'scenarios.md'
    current = committed.read_text() if committed.is_file() else ''
    diff = catalogue.differences(current, generated)
    if diff:
        result.ok = False
        result.problems.append(f'{committed} differs from {out_dir / "scenarios.md"}; '
                               'if the run is right: make scenarios-doc, then commit it')
        result.problems += diff
    else:
        result.problems.append(f'{len(scenarios)} scenarios, '
                               f'{sum(len(s.steps) for s in scenarios)} drawn steps')
    return result
