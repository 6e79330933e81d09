"""Shared helpers for the harness unit tests: temp dirs, a fake kernel tarball."""

import os
import subprocess
import tarfile
import tempfile
import unittest
from pathlib import Path
from typing import Dict, Iterable

DATA = Path(__file__).resolve().parent / 'data'
GIT_ID = ['-c', 'user.name=Test Dev', '-c', 'user.email=dev@example.com']

FAKE_FILES: Dict[str, str] = {
    '.gitignore': '# Debian packaging: ignore everything at the top level\n/*\n!/debian/\n',
    'Makefile': 'all:\n\t@echo fake kernel\n',
    'lib/Makefile': 'obj-y += a.o\nobj-y += b.o\n',
    'lib/a.c': '// SPDX-License-Identifier: GPL-2.0\nint a(void)\n{\n\treturn 1;\n}\n',
    'lib/b.c': '// SPDX-License-Identifier: GPL-2.0\nint b(void)\n{\n\treturn 2;\n}\n',
    'include/linux/x.h': '/* SPDX-License-Identifier: GPL-2.0 */\n#define X 1\n',
    'tools/testing/kunit/README': 'fake\n',
}


class TempDirTest(unittest.TestCase):
    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix='lrb-test-')
        self.tmp = Path(self._tmp.name)

    def tearDown(self) -> None:
        self._tmp.cleanup()


def make_tarball(where: Path, files: Dict[str, str] = FAKE_FILES,
                 top: str = 'linux-source-6.12') -> Path:
    src = where / 'tar-src' / top
    for rel, text in files.items():
        path = src / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    tarball = where / 'linux-source-6.12.tar.xz'
    with tarfile.open(tarball, 'w:xz') as tar:
        tar.add(src, arcname=top)
    return tarball


def git(tree: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith('GIT_')}
    env.update({'GIT_CONFIG_GLOBAL': os.devnull, 'GIT_CONFIG_NOSYSTEM': '1'})
    return subprocess.run(['git', '-C', str(tree)] + GIT_ID + list(args), check=True,
                          capture_output=True, text=True, env=env).stdout


def mtimes(root: Path, skip: Iterable[str] = ('.git',)) -> Dict[str, int]:
    found = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in skip]
        for name in filenames:
            path = Path(dirpath) / name
            found[str(path.relative_to(root))] = path.stat().st_mtime_ns
    return found


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
