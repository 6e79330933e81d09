"""The kernel tree step: pristine base, patch series as commits, export.

State lives in <tree>/.git/lrb-state (JSON): the base commit, the series
(patch names and sha256), the commits `git am` produced, and the manifests
of the copies of kunit/ and bench/ (srcdirs.py). A run with nothing changed
rewrites no file.

The series carries those directories in patches of their own, which `make
export` writes from the repository (testpatch.py). The tree step copies them
over what the series put there, so that the tree builds what the
repository holds; their files in the tree differ from the commits until the
next export, and are watched through the manifests, not through git.
"""

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import dirsync, gitutil, testpatch
from .errors import HarnessError
from .paths import PACKAGE
from .srcdirs import SOURCE_DIRS

BASE_TAG = 'lrb-base'
STATE_FILE = 'lrb-state'
NOT_FROM_DPKG = 'unknown (not from dpkg)'
FORMAT_PATCH_OPTS = ['format-patch', '--no-signature', '--zero-commit',
                     '--full-index', '--no-cover-letter', '--no-thread',
                     '--no-notes', '--no-numbered', '--subject-prefix=PATCH']
AM_OPTS = ['am', '--committer-date-is-author-date', '--no-3way', '--quiet']
KEEP_HINT = ('`make export` keeps them (commit uncommitted changes in the tree '
             'first), `FORCE=1` discards them')


def dpkg_version(package: str = PACKAGE) -> str:
    try:
        proc = subprocess.run(['dpkg-query', '-W', '-f=${Version}', package],
                              capture_output=True, text=True, check=False)
    except OSError:
        return 'unknown'
    return proc.stdout.strip() if proc.returncode == 0 and proc.stdout.strip() else 'unknown'


@dataclass
class TreeConfig:
    repo: Path
    tree: Path
    tarball: Path
    from_kernel_src: bool = False
    force: bool = False
    version_fn: Callable[[], str] = dpkg_version
    log: Callable[[str], None] = print

    @property
    def patch_dir(self) -> Path:
        return self.repo / 'kernel-patch'


@dataclass
class Patch:
    name: str
    path: Path
    sha256: str

    def entry(self) -> Dict[str, str]:
        return {'name': self.name, 'sha256': self.sha256}


@dataclass
class State:
    base: str = ''
    pkg_version: str = ''
    series: List[Dict[str, str]] = field(default_factory=list)
    commits: List[str] = field(default_factory=list)
    manifests: Dict[str, dirsync.Manifest] = field(default_factory=dict)  # by tree dir

    def manifest(self, where: str) -> dirsync.Manifest:
        return self.manifests.get(where, {})

    def to_json(self) -> str:
        return json.dumps(self.__dict__, indent=1, sort_keys=True) + '\n'

    @classmethod
    def from_json(cls, text: str) -> 'State':
        data: Dict[str, Any] = json.loads(text)
        if 'kunit_manifest' in data and 'manifests' not in data:
            # the state of a tree step that copied kunit/ alone
            data['manifests'] = {'lib/lrb_kunit': data['kunit_manifest']}
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)


# -- series ---------------------------------------------------------------

def series_names(patch_dir: Path) -> List[str]:
    series = patch_dir / 'series'
    if not series.is_file():
        return []
    names = []
    for line in series.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith('#'):
            names.append(line)
    return names


def read_series(patch_dir: Path) -> List[Patch]:
    patches = []
    for name in series_names(patch_dir):
        path = patch_dir / name
        if not path.is_file():
            raise HarnessError(f'kernel-patch/series lists {name}, which does not exist')
        patches.append(Patch(name, path, hashlib.sha256(path.read_bytes()).hexdigest()))
    return patches


# -- state ----------------------------------------------------------------

def state_path(tree: Path) -> Path:
    return tree / '.git' / STATE_FILE


def load_state(tree: Path) -> Optional[State]:
    path = state_path(tree)
    if not path.is_file():
        return None
    try:
        return State.from_json(path.read_text())
    except (ValueError, TypeError):
        return None


def save_state(tree: Path, state: State) -> None:
    path = state_path(tree)
    text = state.to_json()
    if path.is_file() and path.read_text() == text:
        return
    tmp = path.with_suffix('.tmp')
    tmp.write_text(text)
    os.replace(tmp, path)


# -- base -----------------------------------------------------------------

def _unpack(tarball: Path, dest: Path, log: Callable[[str], None]) -> None:
    if not tarball.is_file():
        raise HarnessError(f'{tarball} not found: install {PACKAGE} (make deps) '
                           'or point KERNEL_SRC= at a kernel tree')
    dest.parent.mkdir(parents=True, exist_ok=True)
    log(f'unpacking {tarball} into {dest} ...')
    tmp = Path(tempfile.mkdtemp(prefix='.lrb-unpack-', dir=dest.parent))
    try:
        subprocess.run(['tar', '-xf', str(tarball), '-C', str(tmp)], check=True)
        tops = list(tmp.iterdir())
        top = tops[0] if len(tops) == 1 and tops[0].is_dir() else tmp
        if dest.exists():
            dest.rmdir()  # only an empty directory gets here
        os.rename(top, dest)
    except subprocess.CalledProcessError as exc:
        raise HarnessError(f'unpacking {tarball} failed: {exc}') from exc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _commit_base(cfg: TreeConfig, version: str, origin: str) -> str:
    """Record the tree as the base commit and tag it.

    Everything is added with -f: Debian's .gitignore ignores the whole top
    level (`/*`), and the base is the tarball's content exactly. New files a
    developer creates in the tree need `git add -f` for the same reason.
    """
    tree = cfg.tree
    log = cfg.log
    if not gitutil.is_repo(tree) or gitutil.rev(tree, 'HEAD') is None:
        if (tree / '.config').exists() or (tree / 'include' / 'config').exists():
            raise HarnessError(f'{tree} has been configured or built in the source '
                               'directory: run `make mrproper` there first')
        log(f'recording {tree} as the pristine base commit (git add of the whole tree) ...')
        gitutil.run(tree, ['init', '-q', '-b', 'lrb'])
        for key, value in (('gc.auto', '0'), ('index.version', '4'),
                           ('core.untrackedCache', 'true'), ('lrb.pkgversion', version)):
            gitutil.run(tree, ['config', key, value])
        gitutil.run(tree, ['-c', 'core.looseCompression=1', 'add', '-f', '-A'])
        gitutil.run(tree, ['commit', '-q', '--no-verify', '-m',
                           f'{PACKAGE} {version}: pristine base\n\n'
                           f'{origin}\nRecorded by tools/kunit-wrapper.py prepare.'])
    else:
        if gitutil.lines(tree, ['status', '--porcelain', '-uno']):
            raise HarnessError(f'{tree} is a git tree with uncommitted changes and no '
                               f'{BASE_TAG} tag: commit or clean them, then run again')
        gitutil.run(tree, ['config', 'lrb.pkgversion', version])
        log(f'using HEAD of the existing git tree {tree} as the base')
    gitutil.run(tree, ['tag', BASE_TAG])
    base = gitutil.rev(tree, BASE_TAG)
    assert base is not None
    return base


def ensure_base(cfg: TreeConfig) -> Tuple[str, str]:
    """Returns (base commit, package version), creating the base if needed."""
    tree = cfg.tree
    unpacked = False
    if not tree.exists() or (tree.is_dir() and not any(tree.iterdir())):
        _unpack(cfg.tarball, tree, cfg.log)
        unpacked = True
    elif not tree.is_dir():
        raise HarnessError(f'{tree} is not a directory')
    base = gitutil.rev(tree, BASE_TAG) if gitutil.is_repo(tree) else None
    if base is None:
        if unpacked or not cfg.from_kernel_src:
            version = cfg.version_fn()
            origin = f'Unpacked from {cfg.tarball} (dpkg version {version}).'
        else:
            version = NOT_FROM_DPKG
            origin = f'Existing tree given as KERNEL_SRC={tree}.'
        base = _commit_base(cfg, version, origin)
    proc = gitutil.run(tree, ['config', 'lrb.pkgversion'], check=False)
    return base, (proc.stdout.strip() or NOT_FROM_DPKG)


# -- safety ---------------------------------------------------------------

def _dirty_paths(tree: Path) -> List[str]:
    """Uncommitted changes to tracked files, the copied directories aside."""
    text = gitutil.run(tree, ['status', '--porcelain', '-uno', '-z']).stdout
    paths = [entry[3:] for entry in text.split('\0') if len(entry) > 3]
    return [p for p in paths if not any(p.startswith(d.tree + '/') for d in SOURCE_DIRS)]


def _am_in_progress(tree: Path) -> bool:
    return (gitutil.git_dir(tree) / 'rebase-apply').exists()


def _commits_after(tree: Path, base: str) -> Optional[List[str]]:
    """Commits base..HEAD oldest first, or None if HEAD is not based on base."""
    if gitutil.run(tree, ['merge-base', '--is-ancestor', base, 'HEAD'], check=False).returncode:
        return None
    return gitutil.lines(tree, ['rev-list', '--reverse', base + '..HEAD'])


def _describe(tree: Path, commit: str) -> str:
    return gitutil.out(tree, ['log', '-1', '--format=%h %s', commit])


def _listing(items: List[str], limit: int = 20) -> str:
    shown = [f'  {item}' for item in items[:limit]]
    if len(items) > limit:
        shown.append(f'  ... and {len(items) - limit} more')
    return '\n'.join(shown)


def find_problems(cfg: TreeConfig, state: State, base: str,
                  dirty: List[str], commits: Optional[List[str]]) -> List[str]:
    """Work in the tree that the tree step would destroy."""
    tree = cfg.tree
    problems = []
    if _am_in_progress(tree):
        problems.append('a `git am` is in progress in the tree (.git/rebase-apply)')
    if dirty:
        problems.append('uncommitted changes to tracked files:\n' + _listing(dirty))
    if commits is None:
        problems.append(f'HEAD is not based on {BASE_TAG} ({_describe(tree, "HEAD")})')
    else:
        extra = [c for c in commits if c not in state.commits]
        if extra:
            problems.append('commits after the base that are not the kernel-patch/series '
                            'commits:\n' + _listing([_describe(tree, c) for c in extra]))
        elif commits != state.commits[:len(commits)]:
            problems.append('the series commits in the tree were reordered or removed')
    edits = copy_edits(cfg, state)
    if edits:
        problems.append('edited test files in the tree:\n' + _listing([str(e) for e in edits]))
    return problems


def copy_edits(cfg: TreeConfig, state: State) -> List[dirsync.Edit]:
    """A developer's edits of the copied directories, made in the tree."""
    return [edit for sdir in SOURCE_DIRS for edit in
            dirsync.tree_edits(sdir.dest(cfg.tree), state.manifest(sdir.tree), sdir.tree)]


# -- applying the series --------------------------------------------------

Snapshot = Dict[str, Tuple[str, int, int]]


def _copied_paths(state: State) -> List[str]:
    return [f'{where}/{rel}' for where, manifest in state.manifests.items() for rel in manifest]


def _snapshot(tree: Path, base: str, also: List[str]) -> Snapshot:
    """Content hash and times of every file the current HEAD changes from
    base, and of the files in also."""
    snap = {}
    changed = gitutil.lines(tree, ['diff', '--no-renames', '--name-only', base, 'HEAD'])
    for rel in changed + also:
        path = tree / rel
        if path.is_file() and not path.is_symlink():
            st = path.stat()
            snap[rel] = (dirsync.file_hash(path), st.st_atime_ns, st.st_mtime_ns)
    return snap


def _restore_times(tree: Path, snap: Snapshot) -> int:
    """Give files whose content came back unchanged their old times (no rebuild)."""
    restored = 0
    for rel, (digest, atime, mtime) in snap.items():
        path = tree / rel
        if path.is_file() and not path.is_symlink() and dirsync.file_hash(path) == digest:
            os.utime(path, ns=(atime, mtime))
            restored += 1
    if restored:
        gitutil.run(tree, ['update-index', '-q', '--refresh'], check=False)
    return restored


def _apply_failure(patch: Patch, version: str, proc: 'subprocess.CompletedProcess[str]') -> str:
    reason = '\n'.join(line for line in (proc.stderr + proc.stdout).splitlines()
                       if line.strip() and not line.startswith('hint:'))
    return (f'patch kernel-patch/{patch.name} does not apply\n'
            f'  tree: {PACKAGE} {version}\n'
            f'  git am says:\n' + '\n'.join('    ' + l for l in reason.splitlines()))


def _remove_copies(tree: Path, state: State) -> None:
    """The copies go before `git am`, which refuses to create a file that
    is there untracked (the series' test patches create these files)."""
    for rel in _copied_paths(state):
        path = tree / rel
        if path.is_file() or path.is_symlink():
            path.unlink()


def apply_series(cfg: TreeConfig, state: State, base: str, version: str,
                 patches: List[Patch]) -> Snapshot:
    """Reset to the base and `git am` the series. Returns the snapshot of the
    files before, whose times the caller restores once the copies are in."""
    tree = cfg.tree
    snap = _snapshot(tree, base, _copied_paths(state))
    if _am_in_progress(tree):
        gitutil.run(tree, ['am', '--abort'], check=False)
    gitutil.run(tree, ['reset', '-q', '--hard', base])
    _remove_copies(tree, state)
    for index, patch in enumerate(patches, 1):
        cfg.log(f'applying [{index}/{len(patches)}] {patch.name}')
        proc = gitutil.run(tree, AM_OPTS + [str(patch.path)], check=False)
        if proc.returncode != 0:
            gitutil.run(tree, ['am', '--abort'], check=False)
            gitutil.run(tree, ['reset', '-q', '--hard', base])
            sync_copies(cfg, state)
            _restore_times(tree, snap)
            state.series, state.commits = [], []
            save_state(tree, state)
            raise HarnessError(_apply_failure(patch, version, proc)
                               + '\n  the tree is back at the base; fix the patch and run again')
    state.series = [p.entry() for p in patches]
    state.commits = gitutil.lines(tree, ['rev-list', '--reverse', base + '..HEAD'])
    return snap


def _ensure_excluded(tree: Path) -> None:
    """Files of kunit/ or bench/ that the series does not have yet stay out
    of `git status`, as do build artefacts of an in-tree build there."""
    exclude = tree / '.git' / 'info' / 'exclude'
    text = exclude.read_text() if exclude.is_file() else ''
    missing = [f'/{d.tree}/' for d in SOURCE_DIRS if f'/{d.tree}/' not in text.splitlines()]
    if missing:
        exclude.parent.mkdir(parents=True, exist_ok=True)
        exclude.write_text(text + ('' if not text or text.endswith('\n') else '\n')
                           + ''.join(line + '\n' for line in missing))


def sync_copies(cfg: TreeConfig, state: State) -> Tuple[List[str], List[str]]:
    """Copy kunit/ and bench/ over the tree; returns the tree paths written
    and removed."""
    written: List[str] = []
    removed: List[str] = []
    for sdir in SOURCE_DIRS:
        manifest, wrote, gone = dirsync.sync(sdir.src(cfg.repo), sdir.dest(cfg.tree))
        state.manifests[sdir.tree] = manifest
        written += [f'{sdir.tree}/{rel}' for rel in wrote]
        removed += [f'{sdir.tree}/{rel}' for rel in gone]
    return written, removed


# -- entry points -----------------------------------------------------------

@dataclass
class Prepared:
    tree: Path
    base: str
    version: str
    applied: bool
    copied: List[str]      # tree paths written from kunit/ and bench/
    uncopied: List[str]    # tree paths removed because they are not there


def prepare(cfg: TreeConfig) -> Prepared:
    base, version = ensure_base(cfg)
    tree = cfg.tree
    state = load_state(tree) or State(base=base, pkg_version=version)
    if state.base != base:
        state = State(base=base, pkg_version=version)
    state.pkg_version = version
    _ensure_excluded(tree)
    patches = read_series(cfg.patch_dir)
    dirty = _dirty_paths(tree)
    commits = _commits_after(tree, base)
    problems = find_problems(cfg, state, base, dirty, commits)
    if problems and not cfg.force:
        raise HarnessError(f'the kernel tree {tree} has work that the tree step would destroy:\n'
                           + '\n'.join('- ' + p for p in problems) + f'\n{KEEP_HINT}.')
    for problem in problems:
        cfg.log('FORCE=1: discarding ' + problem.splitlines()[0])
    up_to_date = (not dirty and commits == state.commits and not _am_in_progress(tree)
                  and state.series == [p.entry() for p in patches])
    snap = None if up_to_date else apply_series(cfg, state, base, version, patches)
    written, removed = sync_copies(cfg, state)
    if snap is not None:
        _restore_times(tree, snap)
    save_state(tree, state)
    return Prepared(tree, base, version, not up_to_date, written, removed)


def _series_header(patch_dir: Path) -> List[str]:
    series = patch_dir / 'series'
    header: List[str] = []
    if series.is_file():
        for line in series.read_text().splitlines():
            if line.strip() and not line.lstrip().startswith('#'):
                break
            header.append(line)
    return header or ['# Patches applied in order onto linux-source-6.12 by the tree step;',
                      '# written by `make export`.']


def _write_if_different(path: Path, data: bytes) -> bool:
    if path.is_file() and path.read_bytes() == data:
        return False
    path.write_bytes(data)
    return True


@dataclass
class Exported:
    patches: List[str]
    written: List[str]
    removed: List[str]
    copied_back: List[str]   # repository paths written from edits made in the tree


def _export_copy_edits(cfg: TreeConfig, state: State) -> List[str]:
    """Edits of the copies made in the tree go back to kunit/ and bench/."""
    clashes = [f'{s.repo}/{rel}' for s in SOURCE_DIRS for rel in
               dirsync.conflicts(s.dest(cfg.tree), s.src(cfg.repo), state.manifest(s.tree))]
    if clashes and not cfg.force:
        raise HarnessError('these files changed both in the tree and in the repository since '
                           'the last copy; FORCE=1 exports the tree version:\n'
                           + _listing(clashes))
    changed = []
    for sdir in SOURCE_DIRS:
        manifest = dict(state.manifest(sdir.tree))
        changed += [f'{sdir.repo}/{rel}' for rel in
                    dirsync.export_back(sdir.dest(cfg.tree), sdir.src(cfg.repo), manifest)]
        state.manifests[sdir.tree] = manifest
    return changed


def _write_patches(patch_dir: Path, new: Dict[str, bytes]) -> Tuple[List[str], List[str]]:
    """kernel-patch/ and its series made to hold exactly new; returns the
    names written and removed."""
    patch_dir.mkdir(parents=True, exist_ok=True)
    old = set(series_names(patch_dir)) | {p.name for p in patch_dir.glob('*.patch')}
    removed = sorted(name for name in old - set(new) if (patch_dir / name).is_file())
    for name in removed:
        (patch_dir / name).unlink()
    written = [name for name, data in new.items() if _write_if_different(patch_dir / name, data)]
    series_text = '\n'.join(_series_header(patch_dir) + list(new)) + '\n'
    _write_if_different(patch_dir / 'series', series_text.encode())
    return written, removed


def export(cfg: TreeConfig) -> Exported:
    """The tree's commits to kernel-patch/, the patches of kunit/ and bench/
    written from the repository (testpatch.py); the tree's HEAD moves to
    the commits written, and the copies of kunit/ and bench/ in the tree
    are brought to what those commits hold."""
    tree = cfg.tree
    base = gitutil.rev(tree, BASE_TAG) if gitutil.is_repo(tree) else None
    if base is None:
        raise HarnessError(f'no prepared tree at {tree}: run `make tree` first')
    state = load_state(tree) or State(base=base)
    if _am_in_progress(tree):
        raise HarnessError('a `git am` is in progress in the tree: finish or abort it first')
    dirty = _dirty_paths(tree)
    if dirty:
        raise HarnessError('uncommitted changes in the tree are not exported; commit them '
                           f'first (git -C {tree} commit -a):\n' + _listing(dirty))
    if _commits_after(tree, base) is None:
        raise HarnessError(f'HEAD of {tree} is not based on {BASE_TAG}')
    copied_back = _export_copy_edits(cfg, state)
    with tempfile.TemporaryDirectory(prefix='lrb-export-') as tmp:
        head = testpatch.rewrite(tree, base, cfg.repo, Path(tmp) / 'index')
        out = Path(tmp) / 'patches'
        gitutil.run(tree, FORMAT_PATCH_OPTS + ['-q', '-o', str(out), f'{base}..{head}'])
        new = {p.name: p.read_bytes() for p in sorted(out.iterdir())} if out.is_dir() else {}
    written, removed = _write_patches(cfg.patch_dir, new)
    if head != gitutil.rev(tree, 'HEAD'):
        gitutil.run(tree, ['reset', '-q', head])
    # The commits hold kunit/ and bench/ as the repository has them: so do
    # the copies, or the next rebase in the tree meets "unstaged changes"
    for sdir in SOURCE_DIRS:
        state.manifests[sdir.tree], _, _ = dirsync.sync(sdir.src(cfg.repo), sdir.dest(tree))
    state.base = base
    state.series = [p.entry() for p in read_series(cfg.patch_dir)]
    state.commits = gitutil.lines(tree, ['rev-list', '--reverse', base + '..HEAD'])
    save_state(tree, state)
    return Exported(list(new), written, removed, copied_back)


def stale_copies(cfg: TreeConfig) -> List[str]:
    """How kunit/ and bench/ differ from their patches in the applied series
    (run after the tree step)."""
    tree = cfg.tree
    base = gitutil.rev(tree, BASE_TAG)
    state = load_state(tree)
    if base is None or state is None:
        raise HarnessError(f'no prepared tree at {tree}: run `make tree` first')
    names = dict(zip(state.commits, (entry['name'] for entry in state.series)))
    head = state.commits[-1] if state.commits else base
    return testpatch.differences(tree, cfg.repo, head, base, names)


def pending_work(cfg: TreeConfig) -> List[str]:
    """What the tree step would refuse to destroy, without changing anything."""
    tree = cfg.tree
    if not gitutil.is_repo(tree):
        return []
    base = gitutil.rev(tree, BASE_TAG)
    if base is None:
        return []
    state = load_state(tree) or State(base=base)
    return find_problems(cfg, state, base, _dirty_paths(tree), _commits_after(tree, base))
