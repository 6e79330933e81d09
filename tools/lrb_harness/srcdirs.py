"""The repository's directories that the series carries: kunit/ and bench/.

Each one is copied over its directory in the kernel tree by the tree step,
so that an edit builds without an export, and written into its own patch of
the series by `make export` (testpatch.py).
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Tuple


@dataclass(frozen=True)
class SourceDir:
    repo: str    # in this repository
    tree: str    # in the kernel tree
    what: str    # what its patch adds

    def src(self, repo: Path) -> Path:
        return repo / self.repo

    def dest(self, tree: Path) -> Path:
        return tree / self.tree


KUNIT = SourceDir('kunit', 'lib/lrb_kunit', 'the KUnit suites')
BENCH = SourceDir('bench', 'lib/lrb_bench', 'the benchmark')
SOURCE_DIRS: Tuple[SourceDir, ...] = (KUNIT, BENCH)


def owner(path: str) -> Optional[SourceDir]:
    """The source directory whose copy holds a tree-relative path."""
    for sdir in SOURCE_DIRS:
        if path.startswith(sdir.tree + '/'):
            return sdir
    return None
