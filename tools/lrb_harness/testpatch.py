"""The series' patches written from kunit/ and bench/ (srcdirs.py).

Each directory has one patch of its own: the first commit after the base
that touches its directory in the kernel tree. `make export` writes that
commit and every later one again with the directory's content taken from
the repository; the rest of each commit (the Kconfig and Makefile lines
that reach the directory, the message, the author) stays as it is in the
tree. Git objects are written directly (hash-object, mktree, commit-tree):
nothing is checked out. A commit left with no change (a test edit committed
in the tree, which now is in its directory's patch) is dropped.

`make check` compares each directory with the files of its patch.
"""

import re
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from . import dirsync, gitutil
from .errors import HarnessError
from .srcdirs import SOURCE_DIRS, SourceDir

PERSON = re.compile(r'^(author|committer) (.*) <(.*)> (\d+ [+-]\d{4})$')
ADD_HINT = ('commit it once in the tree with the Kconfig and Makefile lines that build it '
            '(git add -f {tree}; see docs/testing.md, "The series"), then `make export`')


def _git(tree: Path, args: List[str], stdin: Optional[str] = None,
         env: Optional[Dict[str, str]] = None) -> str:
    return gitutil.run(tree, args, input_text=stdin, env=env).stdout.strip()


def owners(tree: Path, base: str, head: str) -> Dict[str, List[str]]:
    """Tree dir -> the commits base..head that touch it, oldest first."""
    found = {}
    for sdir in SOURCE_DIRS:
        touching = gitutil.lines(tree, ['rev-list', '--reverse', f'{base}..{head}',
                                        '--', sdir.tree])
        if touching:
            found[sdir.tree] = touching
    return found


def blob_ids(tree: Path, src: Path, write: bool) -> Dict[str, Tuple[str, str]]:
    """rel path -> (git mode, blob id) of every file of src."""
    rels = sorted(dirsync.scan(src))
    if not rels:
        return {}
    args = ['hash-object'] + (['-w'] if write else []) + ['--stdin-paths']
    ids = _git(tree, args, '\n'.join(str(src / rel) for rel in rels) + '\n').split()
    modes = ['100755' if (src / rel).stat().st_mode & 0o111 else '100644' for rel in rels]
    return {rel: (mode, sha) for rel, mode, sha in zip(rels, modes, ids)}


def dir_tree(tree: Path, src: Path, index: Path) -> Optional[str]:
    """A git tree object holding src's files; None when src has none."""
    blobs = blob_ids(tree, src, write=True)
    if not blobs:
        return None
    env = {'GIT_INDEX_FILE': str(index)}
    _git(tree, ['read-tree', '--empty'], env=env)
    info = ''.join(f'{mode} {sha}\t{rel}\n' for rel, (mode, sha) in blobs.items())
    _git(tree, ['update-index', '--add', '--index-info'], info, env)
    return _git(tree, ['write-tree'], env=env)


def _entries(tree: Path, treeish: Optional[str]) -> Dict[str, str]:
    """name -> 'mode type id' of a git tree object's entries."""
    if treeish is None:
        return {}
    text = gitutil.run(tree, ['ls-tree', '-z', treeish]).stdout
    entries = {}
    for item in text.split('\0'):
        if item:
            meta, name = item.split('\t', 1)
            entries[name] = meta
    return entries


def replace_subtree(tree: Path, root: Optional[str], parts: List[str],
                    sub: Optional[str]) -> Optional[str]:
    """root with the tree at parts replaced by sub (removed when None);
    None when the result is empty."""
    entries = _entries(tree, root)
    name = parts[0]
    if len(parts) == 1:
        new = sub
    else:
        child = entries[name].split()[2] if name in entries else None
        new = replace_subtree(tree, child, parts[1:], sub)
    entries.pop(name, None)
    if new is not None:
        entries[name] = f'040000 tree {new}'
    if not entries:
        return None
    return _git(tree, ['mktree', '-z'], ''.join(f'{meta}\t{n}\0' for n, meta in entries.items()))


def _person_env(header: str) -> Dict[str, str]:
    env = {}
    for line in header.splitlines():
        person = PERSON.match(line)
        if person:
            role = person.group(1).upper()
            env[f'GIT_{role}_NAME'] = person.group(2)
            env[f'GIT_{role}_EMAIL'] = person.group(3)
            env[f'GIT_{role}_DATE'] = person.group(4)
    return env


def recommit(tree: Path, commit: str, new_tree: str, parent: str) -> str:
    """commit again with another tree and parent: same message, author and
    committer, so that the same content gives the same commit id."""
    raw = gitutil.run(tree, ['cat-file', 'commit', commit]).stdout
    header, _, message = raw.partition('\n\n')
    return _git(tree, ['commit-tree', new_tree, '-p', parent], message, _person_env(header))


def rewrite(tree: Path, base: str, repo: Path, index: Path) -> str:
    """base..HEAD with kunit/ and bench/ from the repository; returns the
    new head (HEAD itself when nothing differs). HEAD is not moved."""
    commits = gitutil.lines(tree, ['rev-list', '--reverse', base + '..HEAD'])
    touching = owners(tree, base, 'HEAD')
    missing = [s for s in SOURCE_DIRS if s.tree not in touching and dirsync.scan(s.src(repo))]
    if missing:
        raise HarnessError('no commit in the tree adds ' +
                           ', '.join(f'{s.tree}/ ({s.what}, from {s.repo}/)' for s in missing)
                           + ': ' + ADD_HINT.format(tree=missing[0].tree))
    firsts = {where: found[0] for where, found in touching.items()}
    subs = {s.tree: dir_tree(tree, s.src(repo), index) for s in SOURCE_DIRS
            if s.tree in firsts}
    active: Dict[str, Optional[str]] = {}
    parent = base
    for commit in commits:
        active.update({where: subs[where] for where, first in firsts.items() if first == commit})
        old_tree = _git(tree, ['rev-parse', commit + '^{tree}'])
        new_tree: Optional[str] = old_tree
        for where, sub in active.items():
            new_tree = replace_subtree(tree, new_tree, where.split('/'), sub)
        assert new_tree is not None  # a kernel tree is never empty
        if new_tree == _git(tree, ['rev-parse', parent + '^{tree}']):
            continue  # nothing left in it
        if new_tree == old_tree and parent == _git(tree, ['rev-parse', commit + '^']):
            parent = commit
        else:
            parent = recommit(tree, commit, new_tree, parent)
    return parent


def differences(tree: Path, repo: Path, head: str, base: str,
                patch_names: Dict[str, str]) -> List[str]:
    """How kunit/ and bench/ differ from their patches in base..head, one
    line per file; patch_names maps the series' commits to patch files."""
    touching = owners(tree, base, head)
    found: List[str] = []
    for sdir in SOURCE_DIRS:
        found += _dir_differences(tree, repo, head, sdir, touching.get(sdir.tree, []),
                                  patch_names)
    return found


def _dir_differences(tree: Path, repo: Path, head: str, sdir: SourceDir,
                     commits: List[str], patch_names: Dict[str, str]) -> List[str]:
    ours = {rel: sha for rel, (_mode, sha) in blob_ids(tree, sdir.src(repo), False).items()}
    if not commits:
        return [f'{sdir.repo}/ ({sdir.what}) is in no patch of the series: '
                + ADD_HINT.format(tree=sdir.tree)] if ours else []
    names = [patch_names.get(c, c[:12]) for c in commits]
    found = []
    if len(commits) > 1:
        found.append(f'{sdir.tree}/ is changed by {len(commits)} patches ({", ".join(names)}); '
                     'make export writes it into the first one')
    theirs = {}
    for item in gitutil.run(tree, ['ls-tree', '-r', '-z', head, '--', sdir.tree + '/']
                            ).stdout.split('\0'):
        if item:
            meta, path = item.split('\t', 1)
            theirs[path[len(sdir.tree) + 1:]] = meta.split()[2]
    for rel in sorted(set(ours) | set(theirs)):
        if rel not in theirs:
            found.append(f'{sdir.repo}/{rel}: not in {names[0]}')
        elif rel not in ours:
            found.append(f'{sdir.repo}/{rel}: in {names[0]}, not in {sdir.repo}/')
        elif ours[rel] != theirs[rel]:
            found.append(f'{sdir.repo}/{rel}: differs from {names[0]}')
    return found
