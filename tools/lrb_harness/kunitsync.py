"""Copy kunit/ to lib/lrb_kunit/ in the tree, writing only what differs.

A manifest (relative path -> sha256 of what was copied) is kept in the tree
state. A tree file that differs from the manifest, a new file, or a deleted
one is a developer's edit: the tree step refuses to overwrite it (unless
forced), and `export` copies it back into kunit/.
"""

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Tuple

Manifest = Dict[str, str]

IN_TREE_DIR = 'lib/lrb_kunit'
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
    rel: str
    kind: str  # 'modified', 'added' or 'deleted'

    def __str__(self) -> str:
        return f'{IN_TREE_DIR}/{self.rel} ({self.kind} in the tree)'


def tree_edits(dest: Path, manifest: Manifest) -> List[Edit]:
    """Files in dest that are not what the manifest says was copied."""
    current = scan(dest, skip_artifacts=True)
    edits: List[Edit] = []
    for rel, digest in sorted(current.items()):
        if rel not in manifest:
            edits.append(Edit(rel, 'added'))
        elif manifest[rel] != digest:
            edits.append(Edit(rel, 'modified'))
    for rel in sorted(manifest):
        if rel not in current:
            edits.append(Edit(rel, 'deleted'))
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


def sync(src: Path, dest: Path, manifest: Manifest) -> Tuple[Manifest, List[str], List[str]]:
    """Make dest mirror src. Returns (new manifest, written, removed).

    Removes files that the old manifest lists but src no longer has; files in
    dest that were never copied are left alone (the caller refused or forced).
    """
    wanted = scan(src)
    written = [rel for rel in sorted(wanted)
               if _write_if_different(src / rel, dest / rel)]
    removed: List[str] = []
    for rel in sorted(set(manifest) - set(wanted)):
        path = dest / rel
        if path.exists() or path.is_symlink():
            path.unlink()
            removed.append(rel)
    _prune_empty_dirs(dest)
    return wanted, written, removed


def discard_edits(dest: Path, edits: List[Edit]) -> None:
    """FORCE: remove files the developer added, so sync() restores the rest."""
    for edit in edits:
        if edit.kind == 'added':
            (dest / edit.rel).unlink()


def export_back(dest: Path, src: Path, manifest: Manifest,
                force: bool = False) -> Tuple[List[str], List[str]]:
    """Copy tree edits back to src. Returns (changed paths, conflicts).

    A conflict is a file edited both in the tree and in src since the copy;
    with force the tree's version wins.
    """
    edits = tree_edits(dest, manifest)
    repo_now = scan(src)
    conflicts = [e.rel for e in edits
                 if repo_now.get(e.rel) != manifest.get(e.rel)
                 and not (e.kind != 'deleted' and repo_now.get(e.rel) == file_hash(dest / e.rel))]
    if conflicts and not force:
        return [], conflicts
    changed: List[str] = []
    for edit in edits:
        target = src / edit.rel
        if edit.kind == 'deleted':
            if target.exists():
                target.unlink()
                changed.append(edit.rel)
        elif _write_if_different(dest / edit.rel, target):
            changed.append(edit.rel)
    return changed, []

