"""make check's mypy step: its verdict from mypy's output, and a planted type
error in a small repository turning it red (when Debian's mypy is there)."""

import shutil
import subprocess
import unittest

from lrb_harness import checks, paths

from .helpers import TempDirTest, write


def system_mypy_installed() -> bool:
    proc = subprocess.run(['python3', '-c', 'import mypy'], capture_output=True,
                          env=checks._system_python_env())
    return proc.returncode == 0


class MypyResultTest(unittest.TestCase):
    def test_success(self) -> None:
        res = checks.mypy_result(0, 'Success: no issues found in 33 source files\n')
        self.assertTrue(res.ok)
        self.assertEqual(res.name, 'mypy --strict (33 files)')
        self.assertEqual(res.problems, [])

    def test_errors_are_listed(self) -> None:
        out = ('tools/a.py:3: error: Incompatible return value type (got "None", '
               'expected "str")  [return-value]\n'
               'Found 1 error in 1 file (checked 34 source files)\n')
        res = checks.mypy_result(1, out)
        self.assertFalse(res.ok)
        self.assertEqual(res.name, 'mypy --strict (34 files)')
        self.assertIn('tools/a.py:3: error', res.problems[0])

    def test_missing_mypy_says_make_deps(self) -> None:
        res = checks.mypy_result(1, '/usr/bin/python3: No module named mypy\n')
        self.assertFalse(res.ok)
        self.assertIn('make deps', res.problems[-1])

    def test_zero_exit_without_summary_fails(self) -> None:
        self.assertFalse(checks.mypy_result(0, '').ok)


@unittest.skipUnless(system_mypy_installed(), "Debian's python3-mypy is not installed")
class PlantedTypeErrorTest(TempDirTest):
    def test_planted_error_fails_and_is_named(self) -> None:
        repo = self.tmp / 'repo'
        write(repo / 'tools' / 'good.py', 'def f(x: int) -> int:\n    return x + 1\n')
        shutil.copyfile(paths.repo_root() / 'mypy.ini', repo / 'mypy.ini')
        self.assertTrue(checks.mypy(repo).ok)
        write(repo / 'tools' / 'planted.py',
              'from typing import Optional\n\n\ndef name(x: Optional[str]) -> str:\n'
              '    return x\n')
        res = checks.mypy(repo)
        self.assertFalse(res.ok)
        self.assertIn('tools/planted.py:5: error: Incompatible return value type',
                      '\n'.join(res.problems))
