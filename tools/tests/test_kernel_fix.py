"""tools/kernel_fix.py: which patch, and a patch that does not apply."""

import tempfile
import unittest
from pathlib import Path

import kernel_fix
from lrb_harness.errors import HarnessError

PATCH = """--- a/kernel/trace/ring_buffer.c
+++ b/kernel/trace/ring_buffer.c
@@ -1,5 +1,5 @@
 a
-b
+B
 c
 d
 e
"""
BASE = 'a\nb\nc\nd\ne\n'


class KernelFixTest(unittest.TestCase):
    def test_the_repository_holds_one_fix(self) -> None:
        repo = Path(__file__).resolve().parents[2]
        self.assertTrue(kernel_fix.fix_patch(repo).name.endswith('.patch'))

    def test_merged_beside_lines_of_its_context(self) -> None:
        """A hook line inside the patch's context: patch would need fuzz,
        the three-way merge needs none."""
        with tempfile.TemporaryDirectory() as tmp:
            patch = Path(tmp) / 'fix.patch'
            patch.write_text(PATCH)
            got = kernel_fix.merge_fix('a\nb\nc\nhook\nd\ne\n', BASE, patch)
            self.assertEqual(got, 'a\nB\nc\nhook\nd\ne\n')

    def test_conflict_and_bad_patch_refused(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            patch = Path(tmp) / 'fix.patch'
            patch.write_text(PATCH)
            with self.assertRaises(HarnessError) as ctx:
                kernel_fix.merge_fix('a\nX\nc\nd\ne\n', BASE, patch)
            self.assertIn('does not merge', ctx.exception.message)
            with self.assertRaises(HarnessError) as ctx:
                kernel_fix.merge_fix('x\n', 'x\n', patch)
            self.assertIn('does not apply', ctx.exception.message)


if __name__ == '__main__':
    unittest.main()
