"""The kernel tree step: pristine base, patch series as commits, export.

State lives in <tree>/.git/lrb-state (JSON): the base commit, the series
(patch names and sha256), the commits `git am` produced, and the manifest of
the kunit/ copy. A run with nothing changed rewrites no file.
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

from . import gitutil, kunitsync
from .errors import HarnessError
from .paths import PACKAGE

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

    @property
    def kunit_src(self) -> Path:
        return self.repo / 'kunit'

    @property
    def kunit_dest(self) -> Path:
        return self.tree / kunitsync.IN_TREE_DIR


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
    kunit_manifest: Dict[str, str] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(self.__dict__, indent=1, sort_keys=True) + '\n'

    @classmethod
    def from_json(cls, text: str) -> 'State':
        data: Dict[str, Any] = json.loads(text)
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
    text = gitutil.run(tree, ['status', '--porcelain', '-uno', '-z']).stdout
    return [entry[3:] for entry in text.split('\0') if len(entry) > 3]


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
    edits = kunitsync.tree_edits(cfg.kunit_dest, state.kunit_manifest)
    if edits:
        problems.append('edited test files in the tree:\n' + _listing([str(e) for e in edits]))
    return problems


# -- applying the series --------------------------------------------------

def _snapshot(tree: Path, base: str) -> Dict[str, Tuple[str, int, int]]:
    """Content hash and times of every file the current HEAD changes from base."""
    snap = {}
    for rel in gitutil.lines(tree, ['diff', '--no-renames', '--name-only', base, 'HEAD']):
        path = tree / rel
        if path.is_file() and not path.is_symlink():
            st = path.stat()
            snap[rel] = (kunitsync.file_hash(path), st.st_atime_ns, st.st_mtime_ns)
    return snap


def _restore_times(tree: Path, snap: Dict[str, Tuple[str, int, int]]) -> int:
    """Give files whose content came back unchanged their old times (no rebuild)."""
    restored = 0
    for rel, (digest, atime, mtime) in snap.items():
        path = tree / rel
        if path.is_file() and not path.is_symlink() and kunitsync.file_hash(path) == digest:
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


def apply_series(cfg: TreeConfig, state: State, base: str, version: str,
                 patches: List[Patch]) -> None:
    tree = cfg.tree
    snap = _snapshot(tree, base)
    if _am_in_progress(tree):
        gitutil.run(tree, ['am', '--abort'], check=False)
    gitutil.run(tree, ['reset', '-q', '--hard', base])
    for index, patch in enumerate(patches, 1):
        cfg.log(f'applying [{index}/{len(patches)}] {patch.name}')
        proc = gitutil.run(tree, AM_OPTS + [str(patch.path)], check=False)
        if proc.returncode != 0:
            gitutil.run(tree, ['am', '--abort'], check=False)
            gitutil.run(tree, ['reset', '-q', '--hard', base])
            _restore_times(tree, snap)
            state.series, state.commits = [], []
            save_state(tree, state)
            raise HarnessError(_apply_failure(patch, version, proc)
                               + '\n  the tree is back at the base; fix the patch and run again')
    state.series = [p.entry() for p in patches]
    state.commits = gitutil.lines(tree, ['rev-list', '--reverse', base + '..HEAD'])
    _restore_times(tree, snap)


def _ensure_excluded(tree: Path) -> None:
    exclude = tree / '.git' / 'info' / 'exclude'
    line = '/' + kunitsync.IN_TREE_DIR + '/'
    text = exclude.read_text() if exclude.is_file() else ''
    if line not in text.splitlines():
        exclude.parent.mkdir(parents=True, exist_ok=True)
        exclude.write_text(text + ('' if not text or text.endswith('\n') else '\n') + line + '\n')


# -- entry points -----------------------------------------------------------

@dataclass
class Prepared:
    tree: Path
    base: str
    version: str
    applied: bool
    kunit_written: List[str]
    kunit_removed: List[str]


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
    if not up_to_date:
        apply_series(cfg, state, base, version, patches)
    edits = kunitsync.tree_edits(cfg.kunit_dest, state.kunit_manifest)
    if edits:  # only reached with FORCE
        kunitsync.discard_edits(cfg.kunit_dest, edits)
    manifest, written, removed = kunitsync.sync(cfg.kunit_src, cfg.kunit_dest,
                                                state.kunit_manifest)
    state.kunit_manifest = manifest
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
    kunit_changed: List[str]


def export(cfg: TreeConfig) -> Exported:
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
    manifest = dict(state.kunit_manifest)
    edits = kunitsync.tree_edits(cfg.kunit_dest, manifest)
    kunit_changed, conflicts = kunitsync.export_back(cfg.kunit_dest, cfg.kunit_src,
                                                     manifest, cfg.force)
    if conflicts:
        raise HarnessError('these test files changed both in the tree and in kunit/ since '
                           'the last copy; FORCE=1 exports the tree version:\n'
                           + _listing(conflicts))
    with tempfile.TemporaryDirectory(prefix='lrb-export-') as tmp:
        gitutil.run(tree, FORMAT_PATCH_OPTS + ['-q', '-o', tmp, base + '..HEAD'])
        new = {p.name: p.read_bytes() for p in sorted(Path(tmp).iterdir())}
    patch_dir = cfg.patch_dir
    patch_dir.mkdir(parents=True, exist_ok=True)
    old = set(series_names(patch_dir)) | {p.name for p in patch_dir.glob('*.patch')}
    removed = sorted(name for name in old - set(new) if (patch_dir / name).is_file())
    for name in removed:
        (patch_dir / name).unlink()
    written = [name for name, data in new.items() if _write_if_different(patch_dir / name, data)]
    series_text = '\n'.join(_series_header(patch_dir) + list(new)) + '\n'
    _write_if_different(patch_dir / 'series', series_text.encode())
    for edit in edits:
        if edit.kind == 'deleted':
            manifest.pop(edit.rel, None)
        else:
            manifest[edit.rel] = kunitsync.file_hash(cfg.kunit_dest / edit.rel)
    state.base = base
    state.series = [p.entry() for p in read_series(patch_dir)]
    state.commits = gitutil.lines(tree, ['rev-list', '--reverse', base + '..HEAD'])
    state.kunit_manifest = manifest
    save_state(tree, state)
    return Exported(list(new), written, removed, kunit_changed)


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
