"""`make upstream`: the standalone series for the tracing list, per base.

kernel-patch/upstream-<base>/ (base 6.12 or 6.1) holds a series against
Debian's pristine linux-source-<base>: the fix of the reader-page race,
the test hooks, the KUnit test (kernel/trace/ring_buffer_kunit.c), with
its `series` file and cover-letter.txt, and the fix of the head push a
reader takes from under its writer (HEAD_FIX, patch 2) with a last patch
that adds its hook point and KUnit case (HEAD_CASE). Per base, `make
upstream`:

- prepares a kernel tree of its own, <cache>/upstream/linux-<base>: the
  tarball unpacked and committed as the pristine base (tag upstream-base),
  then one branch per variant:
    fixed          the series, `git am` onto the base
    unfixed        the series without its first patch: the others
                   cherry-picked onto the base
    iter-unfixed   the fix without its rb_advance_iter() part, then the
                   others
    head-unfixed   the series without HEAD_FIX: the others cherry-picked
                   onto the base; only for a series that has HEAD_FIX
                   (both have it), skipped for one that has not
  The branches are made in a scratch worktree (linux-<base>-scratch). The
  tree itself goes from one variant to the next for its builds, which
  changes kernel/trace/ring_buffer.c alone, and gives the files it changes
  the time of the variant's commit: a build directory whose objects are
  newer than that commit rebuilds nothing, and every build directory sees
  a new series as new. Nothing changed since the last run (same patches,
  the tree at one of their commits): nothing is done. A run ends with the
  tree at the fixed variant, the whole series applied;
- checks the patches: checkpatch --strict, subjects, no author and no
  Signed-off-by in them, the new files covered by MAINTAINERS;
- writes the series as it goes to the list, with its cover letter, into
  results/upstream/<stamp>/<base>/;
- per arch (x86_64, arm64) and variant: builds with stock kunit.py
  (`kunit.py run --kunitconfig=kernel/trace`, build directory
  <cache>/build/upstream-<base>-<arch>[-<variant>]), then boots it RUNS
  times; each boot must fail exactly the cases the variant lacks the fix
  for (none for fixed), and the kernel must report exactly the WARNINGs
  the variant expects (head-unfixed: one, RB_WARN_ON() in ring_buffer.c,
  in HEAD_CASE; the others: none) and nothing else (no BUG, Oops, ...);
- compares the code of kernel/trace/ring_buffer.o compiled from the fixes
  alone (the patches before the hooks patch) and from the whole series,
  the option off (elfcmp.py).

The patches carry no author and no Signed-off-by: whoever submits them adds
both. `git am` needs an author, so the harness gives its own identity
(AM_AUTHOR) to the commits of its cache tree, which never leave it.
"""

import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from . import buildstamp, elfcmp, gitutil, kunitrun, ktap, logscan, paths, series
from .checks import CheckResult, patch_subject
from .errors import HarnessError

Say = Callable[[str], None]

BASE_TAG = 'upstream-base'
STATE_FILE = 'lrb-upstream.json'
AM_AUTHOR = 'lrb harness <lrb@localhost>'
SUITE = 'ring_buffer'
READER_CASE = 'reader_outer_commit_between_checks'
ITER_CASE = 'iter_outer_commit_between_checks'
HEAD_CASE = 'reader_takes_outer_writers_new_head'
# The second fix (6.12's patch 2): a variant leaves it out by its subject
HEAD_FIX = 'ring-buffer: Do not warn when a reader took the head an interrupt set'
KUNITCONFIG = 'kernel/trace'
TEST_OPTION = 'CONFIG_RING_BUFFER_KUNIT_TEST'
HOOKS_OPTION = 'CONFIG_RING_BUFFER_TEST_HOOKS'
SOURCE = 'kernel/trace/ring_buffer.c'
PRIVATE_HEADER = 'kernel/trace/ring_buffer_test.h'
ITER_FUNCTION = 'rb_advance_iter'
MAINTAINER = 'Steven Rostedt'
# checkpatch --strict runs with these off, each for a reason the run prints
CHECKPATCH_IGNORED = {
    'MISSING_SIGN_OFF': 'the Signed-off-by is left to whoever submits the series',
    'UNKNOWN_COMMIT_ID': 'the tree has no history to look the Fixes: ids up in',
    'FILE_PATH_CHANGES': 'MAINTAINERS covers the new files (checked below)',
}
DEFAULT_RUNS = 10
# What the harness's own builds leave out (ACPI, EFI, BLOCK, ...: its header)
LEAN_FRAGMENT = paths.repo_root() / 'tools' / 'qemu_configs' / 'lean.config'
NICE = ['nice', '-n', '19']


@dataclass(frozen=True)
class Base:
    name: str                 # 6.12
    tarball_dir: str = '/usr/src'

    @property
    def package(self) -> str:
        return f'linux-source-{self.name}'

    @property
    def tarball(self) -> Path:
        return Path(self.tarball_dir) / f'linux-source-{self.name}.tar.xz'

    def series_dir(self, repo: Path) -> Path:
        return repo / 'kernel-patch' / f'upstream-{self.name}'

    def tree(self, cache: Path) -> Path:
        return cache / 'upstream' / f'linux-{self.name}'


@dataclass(frozen=True)
class Arch:
    name: str                 # x86_64, arm64: kunit.py's --arch
    cross_compile: Optional[str] = None
    # built with LEAN_FRAGMENT besides kernel/trace/.kunitconfig (make
    # test's pass), in build directories of their own; make upstream
    # builds the maintainers' way, Kconfig defaults
    lean: bool = False

    def lean_kernel_args(self) -> List[str]:
        """An x86 lean boot has no ACPI timer to calibrate its TSC against:
        the harness's own x86 lean boots take the same arguments
        (kunitrun.tsc_args)."""
        if not self.lean or self.name != 'x86_64':
            return []
        return [f'tsc_early_khz={kunitrun.host_tsc_khz()}', 'tsc=reliable']


@dataclass(frozen=True)
class Variant:
    name: str
    red: Tuple[str, ...]      # the cases that must fail, suite.case
    # the cases in which the kernel must report a WARNING in SOURCE, one
    # each (RB_WARN_ON()); any other report of the kernel fails a boot
    warns: Tuple[str, ...] = ()
    # the subject of the patch the variant leaves out: a series without it
    # has no such variant
    without: str = ''

    def suffix(self) -> str:
        return '' if self.name == 'unfixed' else f'-{self.name}'

    def applies(self, subjects: Sequence[str]) -> bool:
        """Whether a series of these patch subjects has this variant."""
        return not self.without or self.without in subjects


BASES = [Base('6.12'), Base('6.1')]
ARCHES = [Arch('x86_64'), Arch('arm64', 'aarch64-linux-gnu-')]
FIXED = Variant('fixed', ())
UNFIXED = Variant('unfixed', (f'{SUITE}.{READER_CASE}', f'{SUITE}.{ITER_CASE}'))
ITER_UNFIXED = Variant('iter-unfixed', (f'{SUITE}.{ITER_CASE}',))
# The series without the fix of the head push: its case fails, and the
# writer's RB_WARN_ON() fires in it (and recording stops on its buffer)
HEAD_UNFIXED = Variant('head-unfixed', (f'{SUITE}.{HEAD_CASE}',),
                       warns=(f'{SUITE}.{HEAD_CASE}',), without=HEAD_FIX)
VARIANTS = [FIXED, UNFIXED, ITER_UNFIXED, HEAD_UNFIXED]


def pick(names: Optional[Sequence[str]], known: Sequence[str], what: str) -> List[str]:
    """Comma-separated, repeatable choices, in the order of `known`."""
    if not names:
        return list(known)
    wanted = {n.strip() for spec in names for n in spec.split(',') if n.strip()}
    unknown = sorted(wanted - set(known))
    if unknown:
        raise HarnessError(f'unknown {what} {", ".join(unknown)}: {", ".join(known)}')
    return [k for k in known if k in wanted]


# -- the series files ------------------------------------------------------------------

@dataclass
class Patch:
    name: str
    path: Path
    sha256: str


def read_series(series_dir: Path) -> List[Patch]:
    listing = series_dir / 'series'
    if not listing.is_file():
        raise HarnessError(f'{listing} is missing')
    out = []
    for line in listing.read_text().splitlines():
        name = line.strip()
        if not name or name.startswith('#'):
            continue
        path = series_dir / name
        if not path.is_file():
            raise HarnessError(f'{listing} lists {name}, which does not exist')
        out.append(Patch(name, path, hashlib.sha256(path.read_bytes()).hexdigest()))
    if len(out) < 2:
        raise HarnessError(f'{listing}: a fix and its test, at least two patches')
    return out


def subjects(patches: List[Patch]) -> List[str]:
    return [patch_subject(p.path.read_text()) for p in patches]


def applicable(variants: Sequence[Variant], patches: List[Patch]) -> List[Variant]:
    """The variants the series has (head-unfixed needs HEAD_FIX in it)."""
    names = subjects(patches)
    return [v for v in variants if v.applies(names)]


NEW_HEADER = re.compile(r'^diff --git a/\S+ b/' + re.escape(PRIVATE_HEADER) + r'\nnew file mode',
                        re.M)


def hooks_patch(patches: List[Patch]) -> int:
    """The index of the hooks patch, the one that adds PRIVATE_HEADER: the
    patches before it are the fixes, those after it add no code to
    ring_buffer.o but under the hooks' option."""
    for index, patch in enumerate(patches):
        if NEW_HEADER.search(patch.path.read_text()):
            if index == 0:
                raise HarnessError(f'{patch.name} adds {PRIVATE_HEADER}: no fix before it')
            return index
    raise HarnessError(f'no patch of the series adds {PRIVATE_HEADER}')


HEADER_END = re.compile(r'^$', re.M)


def header(text: str) -> str:
    """The mail header of a format-patch file: up to its first empty line."""
    match = HEADER_END.search(text)
    return text[:match.start()] if match else text


def with_author(text: str, author: str = AM_AUTHOR) -> str:
    """The patch with a From: header, which `git am` needs."""
    first, sep, rest = text.partition('\n')
    if not first.startswith('From '):
        return f'From: {author}\n' + text
    return f'{first}{sep}From: {author}\n{rest}'


def without_identity(text: str) -> str:
    """A format-patch file without its author and date: what the series
    directory keeps (and git format-patch's cover letter the same way)."""
    head = header(text)
    kept = [line for line in head.split('\n') if not line.startswith(('From: ', 'Date: '))]
    return '\n'.join(kept) + text[len(head):]


def identity_problems(name: str, text: str) -> List[str]:
    out = []
    if AM_AUTHOR.split(' <')[0] in text:
        out.append(f'{name}: names the harness ({AM_AUTHOR}), the author of its commits')
    if any(line.startswith('From: ') for line in header(text).split('\n')):
        out.append(f'{name}: has a From: header (the submitter is the author)')
    if re.search(r'^Signed-off-by:', text, re.M):
        out.append(f'{name}: has a Signed-off-by: (left to whoever submits it)')
    return out


# -- hunks of a function ------------------------------------------------------------------

HUNK = re.compile(r'^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@')


def function_range(lines: List[str], func: str) -> Tuple[int, int]:
    """1-based first and last line of a C function's definition: from the
    line that names it at the start of a line (or after `static ... `) to
    the first `}` at the start of a line after it."""
    start_re = re.compile(r'^(?:[A-Za-z_][\w\s\*]*\s\**)?' + re.escape(func) + r'\(')
    for i, line in enumerate(lines):
        if start_re.match(line) and not line.rstrip().endswith(';'):
            for j in range(i + 1, len(lines)):
                if lines[j].startswith('}'):
                    return i + 1, j + 1
    raise HarnessError(f'no definition of {func}() found')


def file_diff(patch_text: str, path: str) -> Tuple[List[str], List[List[str]]]:
    """The diff of one file in a patch: its header lines and its hunks."""
    head: List[str] = []
    hunks: List[List[str]] = []
    inside = False
    for line in patch_text.split('\n'):
        if line.startswith('diff --git '):
            inside = line.endswith(f' b/{path}')
            if inside:
                head = [line]
            continue
        if not inside:
            continue
        if line.startswith('@@'):
            hunks.append([line])
        elif hunks:
            if line.startswith(('+', '-', ' ', '\\')) or line == '':
                hunks[-1].append(line)
            else:
                inside = False
        else:
            head.append(line)
    for hunk in hunks:   # the empty line that ends the diff is not context
        while hunk and hunk[-1] == '':
            hunk.pop()
    return head, hunks


def hunks_in_function(patch_text: str, path: str, post_image: str, func: str) -> str:
    """The part of a patch's diff of `path` that changes lines of `func`
    (lines as numbered in the file after the patch): a patch of its own."""
    first, last = function_range(post_image.split('\n'), func)
    head, hunks = file_diff(patch_text, path)
    chosen = []
    for hunk in hunks:
        match = HUNK.match(hunk[0])
        assert match
        new_line = int(match.group(3))
        touches = False
        for line in hunk[1:]:
            if line.startswith('+'):
                touches |= first <= new_line <= last
                new_line += 1
            elif line.startswith('-'):
                touches |= first <= new_line <= last
            elif not line.startswith('\\'):
                new_line += 1
        if touches:
            chosen.append(hunk)
    if not chosen:
        raise HarnessError(f'the patch does not change {func}()')
    keep = [line for line in head if line.startswith(('diff --git', '--- ', '+++ '))]
    return '\n'.join(keep + [line for hunk in chosen for line in hunk]) + '\n'


# -- the tree ------------------------------------------------------------------------------

@dataclass
class State:
    base: str = ''
    series: List[Dict[str, str]] = field(default_factory=list)
    commits: Dict[str, str] = field(default_factory=dict)     # variant -> its HEAD
    patch_commits: List[str] = field(default_factory=list)     # the fixed branch, per patch


@dataclass
class Prepared:
    base: Base
    tree: Path
    commits: Dict[str, str]              # variant -> its commit
    patch_commits: List[str]
    base_commit: str
    changed: bool


def scratch_path(tree: Path) -> Path:
    """Where the branches are made, so that no build's checkout is touched
    but for the files that end up different."""
    return tree.with_name(f'{tree.name}-scratch')


def _load_state(tree: Path) -> State:
    path = tree / '.git' / STATE_FILE
    try:
        data = json.loads(path.read_text())
        return State(**{k: v for k, v in data.items() if k in State.__dataclass_fields__})
    except (OSError, ValueError, TypeError):
        return State()


def _save_state(tree: Path, state: State) -> None:
    path = tree / '.git' / STATE_FILE
    text = json.dumps(asdict(state), indent=1, sort_keys=True) + '\n'
    if not path.is_file() or path.read_text() != text:
        path.write_text(text)


def _unpack(base: Base, tree: Path, say: Say) -> None:
    if not base.tarball.is_file():
        raise HarnessError(f'{base.tarball} not found: install {base.package} (make deps)')
    tree.parent.mkdir(parents=True, exist_ok=True)
    say(f'upstream {base.name}: unpacking {base.tarball} into {tree} ...')
    tmp = Path(tempfile.mkdtemp(prefix='.unpack-', dir=tree.parent))
    try:
        subprocess.run(NICE + ['tar', '-xf', str(base.tarball), '-C', str(tmp)], check=True)
        tops = list(tmp.iterdir())
        top = tops[0] if len(tops) == 1 and tops[0].is_dir() else tmp
        os.rename(top, tree)
    except subprocess.CalledProcessError as exc:
        raise HarnessError(f'unpacking {base.tarball} failed: {exc}') from exc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    say(f'upstream {base.name}: recording the pristine base (git add of the whole tree) ...')
    gitutil.run(tree, ['init', '-q', '-b', 'pristine'])
    for key, value in (('gc.auto', '0'), ('index.version', '4'),
                       ('core.untrackedCache', 'true')):
        gitutil.run(tree, ['config', key, value])
    gitutil.run(tree, ['-c', 'core.looseCompression=1', 'add', '-f', '-A'])
    gitutil.run(tree, ['commit', '-q', '--no-verify', '-m',
                       f'{base.package}: pristine base\n\nFrom {base.tarball}, '
                       'recorded by make upstream.'])
    gitutil.run(tree, ['tag', BASE_TAG])


def _am(tree: Path, patches: List[Patch]) -> None:
    with tempfile.TemporaryDirectory(prefix='lrb-am-') as tmp:
        files = []
        for patch in patches:
            copy = Path(tmp) / patch.name
            copy.write_text(with_author(patch.path.read_text()))
            files.append(str(copy))
        proc = gitutil.run(tree, ['am', '--quiet', '--no-3way'] + files, check=False)
        if proc.returncode:
            gitutil.run(tree, ['am', '--abort'], check=False)
            raise HarnessError(f'git am onto {BASE_TAG} failed in {tree}:\n'
                               + (proc.stdout + proc.stderr).strip())


def _cherry_pick(tree: Path, commits: List[str]) -> None:
    proc = gitutil.run(tree, ['cherry-pick', '--allow-empty'] + commits, check=False)
    if proc.returncode:
        gitutil.run(tree, ['cherry-pick', '--abort'], check=False)
        raise HarnessError(f'cherry-pick onto the base failed in {tree}:\n'
                           + (proc.stdout + proc.stderr).strip())


def _left_out(tree: Path, patch_commits: List[str], subject: str) -> int:
    """The index of the commit of that subject."""
    for index, commit in enumerate(patch_commits):
        if gitutil.out(tree, ['show', '-s', '--format=%s', commit]) == subject:
            return index
    raise HarnessError(f'no patch of the series has the subject "{subject}"')


def _commit_variant(tree: Path, variant: Variant, patch_commits: List[str]) -> str:
    """The variant's branch, made in the scratch worktree `tree`; returns
    its HEAD."""
    branch = f'upstream/{variant.name}'
    gitutil.run(tree, ['checkout', '-q', '-f', '-B', branch, BASE_TAG])
    if variant is UNFIXED:
        _cherry_pick(tree, patch_commits[1:])
    elif variant.without:
        index = _left_out(tree, patch_commits, variant.without)
        _cherry_pick(tree, patch_commits[:index] + patch_commits[index + 1:])
    elif variant is ITER_UNFIXED:
        _cherry_pick(tree, patch_commits[:1])
        fix = gitutil.run(tree, ['show', '--format=', patch_commits[0]]).stdout
        post = gitutil.run(tree, ['show', f'{patch_commits[0]}:{SOURCE}']).stdout
        part = hunks_in_function(fix, SOURCE, post, ITER_FUNCTION)
        proc = gitutil.run(tree, ['apply', '-R', '-'], input_text=part, check=False)
        if proc.returncode:
            raise HarnessError(f'taking the {ITER_FUNCTION}() part out of the fix failed:\n'
                               + proc.stderr.strip())
        gitutil.run(tree, ['commit', '-q', '-a', '-m',
                           f'test variant: the fix without its {ITER_FUNCTION}() part'])
        _cherry_pick(tree, patch_commits[1:])
    return gitutil.out(tree, ['rev-parse', 'HEAD'])


def _checkout(tree: Path, where: Path, commit: str) -> None:
    """`commit` checked out at `where` (a worktree of `tree`, or the tree),
    touching only the files that differ."""
    if where == tree:
        gitutil.run(tree, ['checkout', '-q', '-f', '--detach', commit])
        return
    if not (where / '.git').exists():
        gitutil.run(tree, ['worktree', 'prune'])
        gitutil.run(tree, ['worktree', 'add', '-q', '-f', '--detach', str(where), commit])
        return
    gitutil.run(where, ['checkout', '-q', '-f', '--detach', commit])


def _clean(where: Path) -> bool:
    return (where / '.git').exists() and not gitutil.lines(where, ['status', '--porcelain',
                                                                   '-uno'])


def select(prep: Prepared, variant: Variant) -> None:
    """The tree at the variant's commit; the files that change get that
    commit's time (see the module's docstring)."""
    commit = prep.commits[variant.name]
    head = gitutil.rev(prep.tree, 'HEAD')
    if head == commit:
        return
    changed = gitutil.lines(prep.tree, ['diff', '--name-only', str(head), commit])
    gitutil.run(prep.tree, ['checkout', '-q', '-f', '--detach', commit])
    when = int(gitutil.out(prep.tree, ['show', '-s', '--format=%ct', commit]))
    for rel in changed:
        path = prep.tree / rel
        if path.is_file():
            os.utime(path, (when, when))


def prepare(base: Base, repo: Path, cache: Path, variants: List[Variant], say: Say,
            force: bool = False) -> Prepared:
    """The tree with a branch per variant, at the fixed one; a no-op (a few
    git queries) when the patches are as last time and the tree at one of
    their commits."""
    tree = base.tree(cache)
    patches = read_series(base.series_dir(repo))
    missing = [v.name for v in variants if v not in applicable(variants, patches)]
    if missing:
        raise HarnessError(f'{base.series_dir(repo).relative_to(repo)} has no variant '
                           f'{", ".join(missing)}: the patch it leaves out is not in it')
    if not (tree / '.git').exists():
        if tree.exists() and any(tree.iterdir()):
            raise HarnessError(f'{tree} exists and is not a git tree: remove it')
        if tree.exists():
            tree.rmdir()
        _unpack(base, tree, say)
    base_commit = gitutil.rev(tree, BASE_TAG)
    if base_commit is None:
        raise HarnessError(f'{tree} has no {BASE_TAG} tag: remove the tree to start again')
    state = _load_state(tree)
    entries = [{'name': p.name, 'sha256': p.sha256} for p in patches]
    head = gitutil.rev(tree, 'HEAD')
    same = (state.base == base_commit and state.series == entries and
            len(state.patch_commits) == len(patches) and
            all(v.name in state.commits for v in variants) and
            head in state.commits.values() and _clean(tree))
    if same:
        return Prepared(base, tree, state.commits, state.patch_commits, base_commit, False)
    if state.commits and not force:
        if head not in list(state.commits.values()) + [base_commit]:
            raise HarnessError(f'{tree} has commits of its own on top of the series '
                               f'(HEAD {head}): `tools/upstream.py export {base.name}` '
                               'writes them to the series directory, FORCE=1 discards them')
    say(f'upstream {base.name}: applying {len(patches)} patches of '
        f'{base.series_dir(repo).relative_to(repo)} onto {BASE_TAG} ...')
    scratch = scratch_path(tree)
    _checkout(tree, scratch, BASE_TAG)
    gitutil.run(scratch, ['am', '--abort'], check=False)
    gitutil.run(scratch, ['cherry-pick', '--abort'], check=False)
    gitutil.run(scratch, ['checkout', '-q', '-f', '-B', f'upstream/{FIXED.name}', BASE_TAG])
    _am(scratch, patches)
    patch_commits = gitutil.lines(scratch, ['rev-list', '--reverse', f'{BASE_TAG}..HEAD'])
    commits = {FIXED.name: patch_commits[-1]}
    for variant in variants:
        if variant is not FIXED:
            commits[variant.name] = _commit_variant(scratch, variant, patch_commits)
    gitutil.run(scratch, ['checkout', '-q', '--detach'])
    for variant in variants:
        say(f'  {variant.name}: {commits[variant.name][:12]}')
    prep = Prepared(base, tree, commits, patch_commits, base_commit, True)
    select(prep, FIXED if FIXED.name in commits else variants[0])
    _save_state(tree, State(base_commit, entries, commits, patch_commits))
    return prep


# -- export (the developer's way back from the tree to the series directory) ----------------

def export(base: Base, repo: Path, cache: Path, say: Say) -> List[str]:
    """The commits on top of upstream-base in the tree (HEAD of its main
    checkout) written to the series directory, without author and date;
    the series file and stale patch files follow. Returns the names."""
    tree = base.tree(cache)
    out = base.series_dir(repo)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix='lrb-export-') as tmp:
        gitutil.run(tree, ['format-patch', '--no-signature', '--zero-commit', '--full-index',
                           '--no-cover-letter', '--no-numbered', '--no-thread',
                           '--subject-prefix=PATCH', '-q', '-o', tmp, f'{BASE_TAG}..HEAD'])
        names = sorted(p.name for p in Path(tmp).glob('*.patch'))
        for name in names:
            text = without_identity((Path(tmp) / name).read_text())
            target = out / name
            if not target.is_file() or target.read_text() != text:
                target.write_text(text)
                say(f'  wrote {target.relative_to(repo)}')
    for old in out.glob('[0-9][0-9][0-9][0-9]-*.patch'):
        if old.name not in names:
            old.unlink()
            say(f'  removed {old.relative_to(repo)}')
    listing = '\n'.join(names) + '\n'
    if not (out / 'series').is_file() or (out / 'series').read_text() != listing:
        (out / 'series').write_text(listing)
    return names


# -- checks --------------------------------------------------------------------------------

def system_python_env() -> Dict[str, str]:
    """checkpatch's SPDX check runs `python3` from PATH: Debian's, which has
    python3-ply (as checks.py does for the bench's series)."""
    env = dict(os.environ)
    env['PATH'] = '/usr/bin:/bin:' + env.get('PATH', '')
    return env


def checkpatch(tree: Path, patches: List[Patch]) -> CheckResult:
    """checkpatch --strict of the tree on each patch: nothing to say, and
    nothing on stderr either (its SPDX check needs Debian's python3)."""
    ignored = ','.join(sorted(CHECKPATCH_IGNORED))
    result = CheckResult(f'checkpatch --strict ({len(patches)} patches; ignored: '
                         + '; '.join(f'{k}: {v}' for k, v in sorted(CHECKPATCH_IGNORED.items()))
                         + ')', True)
    for patch in patches:
        cmd = ['perl', str(tree / 'scripts' / 'checkpatch.pl'), '--strict', '--no-summary',
               '--terse', '--color=never', '--show-types', '--ignore', ignored,
               str(patch.path)]
        proc = subprocess.run(cmd, cwd=tree, capture_output=True, text=True, errors='replace',
                              env=system_python_env())
        if proc.returncode or proc.stdout.strip() or proc.stderr.strip():
            result.ok = False
            result.problems += [f'{patch.name}: exit {proc.returncode}'] + [
                '    ' + line for line in (proc.stdout + proc.stderr).strip().splitlines()[-20:]]
    return result


NEW_FILE = re.compile(r'^diff --git a/\S+ b/(\S+)\nnew file mode', re.M)


def maintained(tree: Path, patches: List[Patch]) -> CheckResult:
    """Each new file is covered by MAINTAINERS' tracing entry."""
    files = sorted({m.group(1) for p in patches for m in NEW_FILE.finditer(p.path.read_text())})
    result = CheckResult(f'MAINTAINERS covers the new files ({", ".join(files) or "none"})',
                         True)
    for name in files:
        proc = subprocess.run(['perl', str(tree / 'scripts' / 'get_maintainer.pl'), '--no-git',
                               '--no-git-fallback', '-f', name], cwd=tree,
                              capture_output=True, text=True, errors='replace')
        if MAINTAINER not in proc.stdout:
            result.ok = False
            result.problems.append(f'{name}: get_maintainer.pl names no {MAINTAINER}: '
                                   + ' '.join(proc.stdout.split())[:200])
    return result


def identity(patches: List[Patch], letter: Path) -> CheckResult:
    result = CheckResult('no author, no Signed-off-by in the patches and the cover letter '
                         '(left to whoever submits them)', True)
    for path in [p.path for p in patches] + [letter]:
        result.problems += identity_problems(path.name, path.read_text())
    result.ok = not result.problems
    return result


def cover_letter(prep: Prepared, repo: Path, out: Path, patches: List[Patch],
                 results: List[str]) -> Path:
    """out/0000-cover-letter.patch (git format-patch's, filled from
    cover-letter.txt) and copies of the patches: the series for the list."""
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob('[0-9][0-9][0-9][0-9]-*.patch'):
        old.unlink()
    fixed = prep.tree
    head = prep.commits.get(FIXED.name, 'HEAD')
    gitutil.run(prep.tree, ['format-patch', '--cover-letter', '--numbered', '--no-signature',
                            '--zero-commit', '--subject-prefix=PATCH', '-q', '-o', str(out),
                            f'{BASE_TAG}..{head}'])
    made = sorted(out.glob('[0-9][0-9][0-9][0-9]-*.patch'))
    letter = made[0]
    for made_patch in made[1:]:
        made_patch.write_text(without_identity(made_patch.read_text()))
    template = prep.base.series_dir(repo) / 'cover-letter.txt'
    if not template.is_file():
        raise HarnessError(f'{template} is missing')
    subject, _, body = template.read_text().partition('\n')
    body = body.lstrip('\n').replace('@KERNEL@', f'Linux {series.kernel_version(fixed)} '
                                                 f"(Debian's {prep.base.package})")
    body = body.replace('@RESULTS@', '\n'.join(results))
    text = letter.read_text()
    if '*** SUBJECT HERE ***' not in text or '*** BLURB HERE ***' not in text:
        raise HarnessError('git format-patch wrote a cover letter without its placeholders')
    text = text.replace('*** SUBJECT HERE ***', subject.strip())
    text = text.replace('*** BLURB HERE ***', body.rstrip('\n'))
    # The shortlog's "Author (N):" is the harness, which the letter must not name
    text = re.sub(r'^' + re.escape(AM_AUTHOR.split(' <')[0]) + r' \((\d+)\):$',
                  r'Patches (\1):', text, flags=re.M)
    letter.write_text(without_identity(text))
    unfixed = prep.commits.get(UNFIXED.name)
    if unfixed is not None:
        # Patches 2.. as they apply without patch 1: a series that wants the
        # hooks and the test on an unfixed kernel takes these
        udir = out / 'unfixed'
        if udir.exists():
            shutil.rmtree(udir)
        gitutil.run(prep.tree, ['format-patch', '--no-signature', '--zero-commit',
                                '--subject-prefix=PATCH', '-q', '-o', str(udir),
                                f'{BASE_TAG}..{unfixed}'])
        for made_patch in udir.glob('*.patch'):
            made_patch.write_text(without_identity(made_patch.read_text()))
    return letter


# -- runs ------------------------------------------------------------------------------------

ELAPSED = re.compile(r'Elapsed time: ([0-9.]+)s total, ([0-9.]+)s configuring, '
                     r'([0-9.]+)s building, ([0-9.]+)s running')


@dataclass
class Boot:
    statuses: Dict[str, str]          # suite.case -> PASS, FAIL, ...
    returncode: int
    seconds: float                    # kunit.py's running time (the wall time without it)
    log: str
    # the kernel's reports (WARNING, BUG, Oops, ...: logscan), one per
    # burst: (the case that was running, suite.case or '', the report)
    reports: List[Tuple[str, str]] = field(default_factory=list)

    def failed(self) -> List[str]:
        return sorted(k for k, v in self.statuses.items() if v != ktap.PASS)


@dataclass
class VariantRun:
    base: str
    arch: str
    variant: str
    red: List[str]
    build_s: float = 0.0              # kunit.py's building time of the run that built it
    run_s: float = 0.0                # the whole kunit.py run (config, build, first boot)
    boots: List[Boot] = field(default_factory=list)
    error: str = ''
    warns: List[str] = field(default_factory=list)   # Variant.warns

    def as_expected(self, boot: Boot) -> bool:
        return (bool(boot.statuses) and boot.failed() == sorted(self.red) and
                not self.report_problems(boot))

    def warned(self, boot: Boot, case: str) -> bool:
        """The kernel reported a WARNING in SOURCE while the case ran."""
        return any(where == case and is_rb_warning(text) for where, text in boot.reports)

    def report_problems(self, boot: Boot) -> List[str]:
        """The kernel's reports in a boot against the variant's: a WARNING
        in SOURCE once in each case of `warns`, nothing else anywhere."""
        wanted = list(self.warns)
        problems = []
        for where, text in boot.reports:
            if where in wanted and is_rb_warning(text):
                wanted.remove(where)
            else:
                problems.append(f'{where or "outside the cases"}: {text}, unexpected')
        problems += [f'{case}: no WARNING in {SOURCE}, expected (RB_WARN_ON() without the fix)'
                     for case in wanted]
        return problems

    def matched(self) -> int:
        return sum(self.as_expected(b) for b in self.boots)

    def count(self, case: str, status: str) -> int:
        return sum(b.statuses.get(case) == status for b in self.boots)


def build_dir(cache: Path, base: Base, arch: Arch, variant: Variant) -> Path:
    lean = '-lean' if arch.lean else ''
    return cache / 'build' / f'upstream-{base.name}-{arch.name}{lean}{variant.suffix()}'


def kunit_command(tree: Path, subcommand: str, arch: Arch, bdir: Path, jobs: int) -> List[str]:
    """Stock kunit.py, as the README gives it (ccache comes through PATH);
    a lean arch adds LEAN_FRAGMENT and its kernel arguments."""
    cmd = [sys.executable, str(kunitrun.kunit_py(tree)), subcommand]
    if subcommand == 'run':
        cmd.append(f'--kunitconfig={KUNITCONFIG}')
        if arch.lean:
            cmd.append(f'--kunitconfig={LEAN_FRAGMENT}')
    cmd += [f'--kernel_args={arg}' for arg in arch.lean_kernel_args()]
    cmd.append(f'--arch={arch.name}')
    if arch.cross_compile:
        cmd.append(f'--cross_compile={arch.cross_compile}')
    cmd.append(f'--build_dir={bdir}')
    if subcommand == 'run':
        cmd.append(f'--jobs={jobs}')
    return cmd


def statuses(log_lines: List[str]) -> Dict[str, str]:
    return {f'{leaf.suite}.{leaf.case}': leaf.test.status
            for leaf in ktap.leaves(ktap.parse(log_lines))}


def is_rb_warning(report: str) -> bool:
    """A report of kernel_reports(): a WARNING raised in SOURCE."""
    return report.startswith('warning: ') and f' at {SOURCE}:' in report


TRACE_BOUNDARY = re.compile(r'---\[ end |\[ cut here \]')
BURST_LINES = 60


def bursts(log_lines: List[str]) -> List[logscan.Report]:
    """logscan's reports, one per burst: the lines of a report's trace, up
    to its `---[ end trace` or the `[ cut here ]` of the next one (at most
    BURST_LINES), are not new reports, so that two WARNINGs are two."""
    kept: List[logscan.Report] = []
    end = 0
    for rep in logscan.find_reports(log_lines):
        if rep.line <= end:
            continue
        kept.append(rep)
        end = min(len(log_lines), rep.line + BURST_LINES)
        for num in range(rep.line + 1, end + 1):
            if TRACE_BOUNDARY.search(log_lines[num - 1]):
                end = num
                break
    return kept


def kernel_reports(log_lines: List[str]) -> List[Tuple[str, str]]:
    """The kernel's reports in a boot's log (logscan's: WARNING, BUG, Oops,
    sanitizers, ..., one per burst), each with the case that was running
    (suite.case; '' before the first case or after the last)."""
    leaves = ktap.leaves(ktap.parse(log_lines))
    found = []
    for rep in bursts(log_lines):
        where = ''
        for leaf in leaves:
            last = leaf.test.last_line if leaf.test.last_line is not None else len(log_lines)
            if leaf.test.first_line <= rep.line <= last:
                where = f'{leaf.suite}.{leaf.case}'
                break
        found.append((where, f'{rep.kind}: {rep.text}'))
    return found


def _kunit(cmd: List[str], cwd: Path, env: Dict[str, str], out: Path) -> Tuple[int, str, float]:
    t0 = time.monotonic()
    with open(out, 'w') as handle:
        handle.write('$ ' + shlex.join(cmd) + '\n')
        handle.flush()
        proc = subprocess.run(NICE + cmd, cwd=cwd, env=env, stdout=handle,
                              stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    return proc.returncode, out.read_text(errors='replace'), time.monotonic() - t0


def run_variant(prep: Prepared, arch: Arch, variant: Variant, runs: int, jobs: int,
                cache: Path, env: Dict[str, str], out_dir: Path, say: Say) -> VariantRun:
    where = prep.tree
    select(prep, variant)
    bdir = build_dir(cache, prep.base, arch, variant)
    result = VariantRun(prep.base.name, arch.name, variant.name, list(variant.red),
                        warns=list(variant.warns))
    tag = f'[{prep.base.name} {arch.name} {variant.name}]'
    stamp = buildstamp.inputs(kunit_command(where, 'run', arch, bdir, jobs), where,
                              where / '.git' / STATE_FILE, (arch.cross_compile or '') + 'gcc')
    with kunitrun.build_lock(bdir, say):
        built = buildstamp.matches(bdir, stamp, env)
        if built:
            say(f'  {tag} up to date ({buildstamp.STAMP_FILE}): booting the kernel there')
        else:
            buildstamp.clear(bdir)
        for index in range(runs):
            sub = 'run' if index == 0 and not built else 'exec'
            log = bdir / 'test.log'
            if log.exists():
                log.unlink()
            stem = f'{prep.base.name}-{arch.name}-{variant.name}-{index + 1}'
            kunit_out, saved_log = out_dir / f'{stem}.kunit.txt', out_dir / f'{stem}.log'
            code, output, seconds = _kunit(kunit_command(where, sub, arch, bdir, jobs), where,
                                           env, kunit_out)
            if sub == 'run':
                result.run_s = seconds
                match = ELAPSED.search(output)
                result.build_s = float(match.group(3)) if match else 0.0
                if not log.is_file():
                    result.error = f'kunit.py run failed before booting (exit {code})'
                    say(f'  {tag} {result.error}: {kunit_out}')
                    return result
                buildstamp.record(bdir, stamp)
            lines = log.read_text(errors='replace').splitlines() if log.is_file() else []
            if lines:
                shutil.copyfile(log, saved_log)
            match = ELAPSED.search(output)
            boot = Boot(statuses(lines), code, float(match.group(4)) if match else seconds,
                        str(saved_log), kernel_reports(lines))
            result.boots.append(boot)
            reports = '; '.join(f'{where or "outside the cases"}: {text}'
                                for where, text in boot.reports)
            say(f'  {tag} boot {index + 1}/{runs}: {len(boot.statuses)} cases, failed: '
                f'{", ".join(boot.failed()) or "none"}, kernel reports: {reports or "none"} '
                f'({"as expected" if result.as_expected(boot) else "NOT AS EXPECTED"}, '
                f'{seconds:.0f} s)')
    return result


# -- the code with the hooks off ---------------------------------------------------------------

@dataclass
class TextCheck:
    base: str
    arch: str
    ok: bool
    detail: str
    seconds: float = 0.0


CMD_LINE = re.compile(r'^(?:saved)?cmd_kernel/trace/ring_buffer\.o := (.*)$', re.M)


def _compile_command(cmd_file: Path) -> List[str]:
    match = CMD_LINE.search(cmd_file.read_text())
    if not match:
        raise HarnessError(f'{cmd_file}: no command line')
    for part in match.group(1).split(' ; '):
        words = shlex.split(part)
        if '-c' in words and '-o' in words:
            return words
    raise HarnessError(f'{cmd_file}: no compiler command')


def _recompile(words: List[str], bdir: Path, source_dir: Path, obj: Path, env: Dict[str, str],
               tree: Path) -> None:
    cmd = []
    for word in words:
        if word.endswith(SOURCE) and not word.startswith('-'):
            word = str(source_dir / 'ring_buffer.c')
        elif word.startswith('-Wp,-MMD,'):
            word = f'-Wp,-MMD,{obj.with_suffix(".d")}'
        cmd.append(word)
    cmd[cmd.index('-o') + 1] = str(obj)
    cmd += ['-iquote', str(tree / 'kernel' / 'trace')]
    proc = subprocess.run(NICE + cmd, cwd=bdir, env=env, capture_output=True, text=True,
                          errors='replace')
    if proc.returncode:
        raise HarnessError(f'compiling {source_dir}/ring_buffer.c failed:\n'
                           + (proc.stderr or proc.stdout).strip()[-2000:])


def text_check(prep: Prepared, arch: Arch, cache: Path, jobs: int, env: Dict[str, str],
               say: Say, hooks: int = 1) -> TextCheck:
    """ring_buffer.o from the fixes alone (the patches before the hooks
    patch, index `hooks`: hooks_patch()) and from the whole series (the
    hooks patch and the hook points added after it), the hooks' option off,
    in one configuration (the fixed build's, the test off): the same
    code."""
    t0 = time.monotonic()
    select(prep, FIXED)
    tree = prep.tree
    kunit_dir = build_dir(cache, prep.base, arch, FIXED)
    tdir = cache / 'build' / f'upstream-{prep.base.name}-{arch.name}-text'
    config = kunit_dir / '.config'
    if not config.is_file():
        return TextCheck(prep.base.name, arch.name, False, f'{config} missing: no fixed build')
    tdir.mkdir(parents=True, exist_ok=True)
    text = re.sub(rf'^{TEST_OPTION}=.*$', f'# {TEST_OPTION} is not set',
                  config.read_text(), flags=re.M)
    if not (tdir / '.config').is_file() or (tdir / '.config').read_text() != text:
        (tdir / '.config').write_text(text)
    make = ['make', f'O={tdir}', f'ARCH={arch.name}', f'-j{jobs}']
    if arch.cross_compile:
        make.append(f'CROSS_COMPILE={arch.cross_compile}')
    with kunitrun.build_lock(tdir, say):
        for goal in (['olddefconfig'], ['kernel/trace/ring_buffer.o']):
            proc = subprocess.run(NICE + make + goal, cwd=tree, env=env, capture_output=True,
                                  text=True, errors='replace')
            if proc.returncode:
                return TextCheck(prep.base.name, arch.name, False,
                                 f'make {" ".join(goal)} failed: '
                                 + (proc.stderr or proc.stdout).strip()[-500:])
        if re.search(rf'^{HOOKS_OPTION}=y', (tdir / '.config').read_text(), re.M):
            return TextCheck(prep.base.name, arch.name, False, f'{HOOKS_OPTION} is on')
        words = _compile_command(tdir / 'kernel' / 'trace' / '.ring_buffer.o.cmd')
        objs = {}
        with tempfile.TemporaryDirectory(prefix='lrb-text-') as tmp:
            for label, commit in (('fixes', prep.patch_commits[hooks - 1]),
                                  ('series', prep.patch_commits[-1])):
                src = Path(tmp) / label
                src.mkdir()
                for rel in (SOURCE, PRIVATE_HEADER):
                    show = gitutil.run(prep.tree, ['show', f'{commit}:{rel}'], check=False)
                    if show.returncode == 0:
                        (src / Path(rel).name).write_text(show.stdout)
                obj = Path(tmp) / f'{label}.o'
                _recompile(words, tdir, src, obj, env, tree)
                objs[label] = elfcmp.read(obj)
    diff = elfcmp.differences(objs['fixes'], objs['series'])
    seconds = time.monotonic() - t0
    if diff:
        return TextCheck(prep.base.name, arch.name, False, '; '.join(diff), seconds)
    return TextCheck(prep.base.name, arch.name, True,
                     'identical: ' + elfcmp.summary(objs['fixes']), seconds)


# -- the whole run ----------------------------------------------------------------------------

@dataclass
class BaseResult:
    base: str
    checks: List[CheckResult] = field(default_factory=list)
    runs: List[VariantRun] = field(default_factory=list)
    texts: List[TextCheck] = field(default_factory=list)
    letter: str = ''
    prepare_s: float = 0.0


def figures(runs: List[VariantRun]) -> List[str]:
    """The table of the runs: per base, arch and variant, the boots that
    failed exactly the expected cases, and each race case's results."""
    rows = [['base', 'arch', 'variant', 'as expected', 'reader case', 'iterator case',
             'head case', 'build', 'boot']]
    for run in runs:
        n = len(run.boots)

        def cell(case: str) -> str:
            """red/green and the boots that had it so; '-' where no boot
            ran the case (a series without the head case); the boots with the
            expected WARNING"""
            full = f'{SUITE}.{case}'
            if n and not any(full in b.statuses for b in run.boots):
                return '-'
            red = full in run.red
            got = run.count(full, ktap.FAIL if red else ktap.PASS)
            text = f'{"red" if red else "green"} {got}/{n}'
            if full in run.warns:
                text += f', WARNING {sum(run.warned(b, full) for b in run.boots)}/{n}'
            return text
        boot_s = sum(b.seconds for b in run.boots) / max(1, n)
        rows.append([run.base, run.arch, run.variant,
                     f'{run.matched()}/{n}' if not run.error else run.error,
                     cell(READER_CASE), cell(ITER_CASE), cell(HEAD_CASE),
                     f'{run.build_s:.0f} s', f'{boot_s:.1f} s'])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ['  '.join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]


def base_ok(res: BaseResult) -> bool:
    return (all(c.ok for c in res.checks) and all(t.ok for t in res.texts) and
            all(not r.error and r.boots and r.matched() == len(r.boots) for r in res.runs))


def run(repo: Path, env: Mapping[str, str], bases: List[Base], arches: List[Arch],
        variants: List[Variant], runs: int, jobs: int, text: bool, force: bool,
        say: Say) -> Tuple[List[BaseResult], Path]:
    cache = paths.cache_root(env)
    stamp = time.strftime('%Y%m%d-%H%M%S')
    out_dir = repo / 'results' / 'upstream' / stamp
    out_dir.mkdir(parents=True, exist_ok=True)
    latest = out_dir.parent / 'latest'
    if latest.is_symlink() or latest.exists():
        latest.unlink()
    latest.symlink_to(out_dir.name)
    kenv = series.build_env(dict(env))
    done = []
    for base in bases:
        with kunitrun.build_lock(cache / 'upstream' / f'.lock-{base.name}', say):
            done.append(run_base(repo, cache, base, arches, variants, runs, jobs, text, force,
                                 kenv, out_dir, say))
    write_summary(out_dir / 'summary.json', done)
    return done, out_dir


def run_base(repo: Path, cache: Path, base: Base, arches: List[Arch], variants: List[Variant],
             runs: int, jobs: int, text: bool, force: bool, kenv: Dict[str, str],
             out_dir: Path, say: Say) -> BaseResult:
    """One base: prepare, check, build and boot, compare, write the series."""
    res = BaseResult(base.name)
    t0 = time.monotonic()
    patches = read_series(base.series_dir(repo))
    skipped = [v.name for v in variants if v not in applicable(variants, patches)]
    if skipped:
        say(f'upstream {base.name}: no {", ".join(skipped)} variant: its series has no '
            + ', '.join(f'"{v.without}"' for v in variants if v.name in skipped))
    variants = applicable(variants, patches)
    prep = prepare(base, repo, cache, variants, say, force)
    res.prepare_s = time.monotonic() - t0
    say(f'upstream {base.name}: tree {prep.tree} '
        f'({"prepared" if prep.changed else "unchanged"}, {res.prepare_s:.1f} s)')
    res.checks += [series.subject_check([p.path for p in patches]),
                   checkpatch(prep.tree, patches), maintained(prep.tree, patches)]
    for arch in arches:
        for variant in variants:
            res.runs.append(run_variant(prep, arch, variant, runs, jobs, cache, kenv,
                                        out_dir, say))
        if text and FIXED in variants:
            hooks = hooks_patch(patches)
            say(f'[{base.name} {arch.name}] ring_buffer.o with the hooks off: the fixes '
                f'alone (patches 1-{hooks}) against the whole series')
            res.texts.append(text_check(prep, arch, cache, jobs, kenv, say, hooks))
            say(f'  {"ok" if res.texts[-1].ok else "FAIL"}: {res.texts[-1].detail}')
    results = ['  ' + line for line in figures(res.runs)] + [''] + [
        f'{t.arch}: ring_buffer.o with the hooks off, {t.detail}' for t in res.texts] + [
        f'{a.name}: built with lean.config of the test bench besides kernel/trace/.kunitconfig '
        '(ACPI, EFI, BLOCK, ... off), not Kconfig defaults' for a in arches if a.lean]
    if FIXED in variants:
        select(prep, FIXED)
    letter = cover_letter(prep, repo, out_dir / base.name, patches, results)
    res.letter = str(letter)
    res.checks.append(identity(patches, letter))
    return res


def write_summary(path: Path, done: List[BaseResult]) -> None:
    data = [{'base': r.base, 'prepare_s': round(r.prepare_s, 1), 'letter': r.letter,
             'checks': [{'name': c.name, 'ok': c.ok, 'problems': c.problems} for c in r.checks],
             'texts': [asdict(t) for t in r.texts],
             'runs': [{'arch': v.arch, 'variant': v.variant, 'red': v.red,
                       'build_s': round(v.build_s, 1), 'run_s': round(v.run_s, 1),
                       'error': v.error, 'matched': v.matched(),
                       'warns': v.warns,
                       'boots': [{'seconds': round(b.seconds, 1), 'returncode': b.returncode,
                                  'failed': b.failed(), 'cases': len(b.statuses),
                                  'reports': [list(r) for r in b.reports],
                                  'log': b.log} for b in v.boots]}
                      for v in r.runs]} for r in done]
    path.write_text(json.dumps(data, indent=1) + '\n')


# make test's pass (cli.UPSTREAM_IN_TEST): the fix's suite fixed (green),
# unfixed (its two race cases red) and head-unfixed (its head case red,
# with the writer's WARNING), one boot each, without the .text comparison;
# `make upstream` runs every variant RUNS times with it. head-unfixed costs
# make test one more build directory (upstream-6.12-x86_64-lean-head-unfixed):
# warm, kbuild's pass that finds nothing to do and a boot, about a minute.
# The pass builds lean (Arch.lean): cold, Kconfig defaults took 5 minutes of
# make test's 45 (docs/upstream/README.md, "In make test")
CI_VARIANTS = [FIXED, UNFIXED, HEAD_UNFIXED]
CI_RUNS = 1
CI_LEAN = True


@dataclass
class CiPass:
    """One (base, arch) of make test: the series' checks, and the boots
    counted case by case for make test's closing line."""
    base: str
    arch: str
    checks: List[CheckResult] = field(default_factory=list)
    runs: List[VariantRun] = field(default_factory=list)
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    problems: List[str] = field(default_factory=list)   # one line per failure
    seconds: float = 0.0
    out_dir: str = ''

    @property
    def name(self) -> str:
        return f'upstream {self.base} {self.arch}'

    def ok(self) -> bool:
        return (not self.failed and self.passed > 0 and
                all(c.ok for c in self.checks))


def count_run(run: VariantRun) -> Tuple[int, int, int, List[str]]:
    """A variant's boots case by case: a case with the status its variant
    expects (FAIL for the race cases the variant lacks the fix for, PASS
    for the others) passes, a skipped one that should pass is skipped,
    anything else fails, and so does each red case a boot did not run. A
    build that failed or a boot without results counts one failure, and
    so does each of a boot's report problems (VariantRun.report_problems():
    an expected WARNING missing, any other report of the kernel)."""
    passed = failed = skipped = 0
    problems = []
    where = f'{run.base} {run.arch} {run.variant}'
    if run.error:
        return 0, 1, 0, [f'{where}: {run.error}']
    if not run.boots:
        return 0, 1, 0, [f'{where}: not booted']
    for index, boot in enumerate(run.boots, 1):
        tag = f'{where}' + (f' boot {index}' if len(run.boots) > 1 else '')
        if not boot.statuses:
            failed += 1
            problems.append(f'{tag}: no KTAP results (kunit.py exit {boot.returncode}; '
                            f'{boot.log or "no kernel log"})')
            continue
        for case, status in sorted(boot.statuses.items()):
            want = ktap.FAIL if case in run.red else ktap.PASS
            if status == want:
                passed += 1
            elif status == ktap.SKIP and want == ktap.PASS:
                skipped += 1
            else:
                failed += 1
                problems.append(f'{tag} {case}: {status}, expected {want}'
                                + (' (red without the fix)' if want == ktap.FAIL else ''))
        for case in sorted(set(run.red) - set(boot.statuses)):
            failed += 1
            problems.append(f'{tag} {case}: not run, expected {ktap.FAIL}')
        for problem in run.report_problems(boot):
            failed += 1
            problems.append(f'{tag} kernel report: {problem}')
    return passed, failed, skipped, problems


def ci_pass(res: BaseResult, arch: str, seconds: float, out_dir: Path) -> CiPass:
    found = CiPass(res.base, arch, seconds=seconds, out_dir=str(out_dir))
    found.checks = [CheckResult(f'upstream {res.base}: {c.name}', c.ok, c.problems)
                    for c in res.checks]
    found.runs = res.runs
    for run in res.runs:
        passed, failed, skipped, problems = count_run(run)
        found.passed += passed
        found.failed += failed
        found.skipped += skipped
        found.problems += problems
    return found


def ci_passes(repo: Path, env: Mapping[str, str], passes: List[Tuple[str, str]], jobs: int,
              say: Say) -> List[CiPass]:
    """make test's opt-in (cli.UPSTREAM_IN_TEST): per (base, arch), the
    variants of CI_VARIANTS built and booted CI_RUNS times each, with the
    series' checks and its cover letter."""
    found = []
    for base_name, arch_name in passes:
        base = next(b for b in BASES if b.name == base_name)
        arch = replace(next(a for a in ARCHES if a.name == arch_name), lean=CI_LEAN)
        say(f'== upstream {base_name} on {arch_name}: {base.series_dir(repo).name}, '
            f'{" and ".join(v.name for v in CI_VARIANTS)}, {CI_RUNS} boot each'
            f'{", lean build (" + LEAN_FRAGMENT.name + ")" if arch.lean else ""} ==')
        t0 = time.monotonic()
        try:
            done, out_dir = run(repo, env, [base], [arch], CI_VARIANTS, CI_RUNS, jobs, False,
                                False, say)
        except HarnessError as exc:
            failed = CiPass(base_name, arch_name, seconds=time.monotonic() - t0)
            failed.failed = 1
            failed.problems = [f'{base_name} {arch_name}: {exc.message}']
            found.append(failed)
            continue
        found.append(ci_pass(done[0], arch_name, time.monotonic() - t0, out_dir))
    return found


def ci_lines(found: CiPass) -> List[str]:
    """What make test prints of a pass: the figures, its checks, its counts."""
    lines = [f'== {found.name} ({found.seconds:.0f} s; {found.out_dir or "no results"}) ==']
    lines += ['  ' + line for line in figures(found.runs)] if found.runs else []
    for check in found.checks:
        lines.append(f'  {"ok  " if check.ok else "FAIL"} {check.name}')
        lines += [f'       {p}' for p in check.problems]
    lines += [f'  FAIL {p}' for p in found.problems]
    lines.append(f'  {found.name}: {found.passed} passed, {found.failed} failed, '
                 f'{found.skipped} skipped' + ('' if found.ok() else ': FAILED'))
    return lines


def ci_summary(found: CiPass) -> Dict[str, object]:
    """The pass in make test's record (summary.json)."""
    return {'name': found.name, 'ok': found.ok(), 'passed': found.passed,
            'failed': found.failed, 'skipped': found.skipped,
            'seconds': round(found.seconds), 'results': found.out_dir,
            'variants': [r.variant for r in found.runs], 'problems': found.problems}
