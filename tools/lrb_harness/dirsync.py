"""Copy a repository directory (kunit/, bench/) over its directory in the
tree, writing only what differs.

A manifest (relative path -> sha256 of what was copied) is kept in the tree
state. A tree file that differs from the manifest, a new file, or a deleted
one is a developer's edit: the tree step refuses to overwrite it (unless
forced), and `export` copies it back into the repository.
"""

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Tuple

Manifest = Dict[str, str]

_ARTIFACT_SUFFIXES = ('.o', '.ko', '.mod', '.mod.c', '.a', '.order', '.symvers',
                      '.cmd', '.d', '.tmp', '.su', '.gcno', '.dwo', '.lst')


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def is_artifact(rel: str) -> bool:
    name = os.path.basename(rel)
    return name.endswith(_ARTIFACT_SUFFIXES) or name == 'modules.order' or \
        (name.startswith('.') and name.endswith('.cmd'))


def scan(root: Path, skip_artifacts: bool = False) -> Manifest:
    """Relative path -> content hash of every regular file under root."""
    found: Manifest = {}
    if not root.is_dir():
        return found
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if skip_artifacts and is_artifact(rel):
                continue
            if path.is_file() and not path.is_symlink():
                found[rel] = file_hash(path)
    return found


@dataclass
class Edit:
    where: str  # the directory in the tree
    rel: str
    kind: str  # 'modified', 'added' or 'deleted'

    def __str__(self) -> str:
        return f'{self.where}/{self.rel} ({self.kind} in the tree)'


def tree_edits(dest: Path, manifest: Manifest, where: str) -> List[Edit]:
    """Files in dest that are not what the manifest says was copied."""
    current = scan(dest, skip_artifacts=True)
    edits: List[Edit] = []
    for rel, digest in sorted(current.items()):
        if rel not in manifest:
            edits.append(Edit(where, rel, 'added'))
        elif manifest[rel] != digest:
            edits.append(Edit(where, rel, 'modified'))
    for rel in sorted(manifest):
        if rel not in current:
            edits.append(Edit(where, rel, 'deleted'))
    return edits


def _write_if_different(src: Path, dst: Path) -> bool:
    data = src.read_bytes()
    mode = src.stat().st_mode & 0o777
    if dst.is_file() and not dst.is_symlink() and dst.read_bytes() == data:
        if dst.stat().st_mode & 0o777 != mode:
            os.chmod(dst, mode)
        return False
    dst.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=dst.parent, prefix='.lrb-tmp-')
    with os.fdopen(fd, 'wb') as handle:
        handle.write(data)
    os.chmod(tmp, mode)
    os.replace(tmp, dst)
    return True


def _prune_empty_dirs(root: Path) -> None:
    if not root.is_dir():
        return
    for dirpath, _dirs, _files in sorted(os.walk(root), key=lambda t: -len(t[0])):
        path = Path(dirpath)
        if path != root and not any(path.iterdir()):
            path.rmdir()


def sync(src: Path, dest: Path) -> Tuple[Manifest, List[str], List[str]]:
    """Make dest mirror src. Returns (new manifest, written, removed).

    Every file of dest that src does not have is removed, build artefacts
    aside: an earlier copy, or a file of the series' patch that src has
    dropped since. The caller has checked dest for a developer's edits
    first (tree_edits), and refused or been forced.
    """
    wanted = scan(src)
    written = [rel for rel in sorted(wanted)
               if _write_if_different(src / rel, dest / rel)]
    removed = sorted(set(scan(dest, skip_artifacts=True)) - set(wanted))
    for rel in removed:
        (dest / rel).unlink()
    _prune_empty_dirs(dest)
    return wanted, written, removed


def conflicts(dest: Path, src: Path, manifest: Manifest) -> List[str]:
    """Files edited both in the tree and in src since the copy."""
    repo_now = scan(src)
    return [e.rel for e in tree_edits(dest, manifest, '')
            if repo_now.get(e.rel) != manifest.get(e.rel)
            and not (e.kind != 'deleted' and repo_now.get(e.rel) == file_hash(dest / e.rel))]


def export_back(dest: Path, src: Path, manifest: Manifest) -> List[str]:
    """Copy tree edits back to src (the tree's version wins a conflict);
    returns the paths changed in src and brings manifest up to date."""
    changed: List[str] = []
    for edit in tree_edits(dest, manifest, ''):
        target = src / edit.rel
        if edit.kind == 'deleted':
            manifest.pop(edit.rel, None)
            if target.exists():
                target.unlink()
                changed.append(edit.rel)
            continue
        manifest[edit.rel] = file_hash(dest / edit.rel)
        if _write_if_different(dest / edit.rel, target):
            changed.append(edit.rel)
    return changed
