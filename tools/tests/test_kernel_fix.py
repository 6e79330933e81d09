"""tools/kernel_fix.py: which patch, and a patch that does not apply."""

import tempfile
import unittest
from pathlib import Path

import kernel_fix
from lrb_harness.errors import HarnessError

PATCH = """--- a/kernel/trace/ring_buffer.c
+++ b/kernel/trace/ring_buffer.c
@@ -1,3 +1,3 @@
 a
-b
+B
 c
"""


class KernelFixTest(unittest.TestCase):
    def test_the_repository_holds_one_fix(self) -> None:
        repo = Path(__file__).resolve().parents[2]
        self.assertTrue(kernel_fix.fix_patch(repo).name.endswith('.patch'))

    def test_applies_then_refuses_a_second_time(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / kernel_fix.SOURCE
            src.parent.mkdir(parents=True)
            src.write_text('a\nb\nc\n')
            patch = Path(tmp) / 'fix.patch'
            patch.write_text(PATCH)
            kernel_fix.apply(Path(tmp), patch, dry_run=True)
            self.assertEqual(src.read_text(), 'a\nb\nc\n')
            kernel_fix.apply(Path(tmp), patch, dry_run=False)
            self.assertEqual(src.read_text(), 'a\nB\nc\n')
            with self.assertRaises(HarnessError) as ctx:
                kernel_fix.apply(Path(tmp), patch, dry_run=True)
            self.assertIn('does not apply', ctx.exception.message)


if __name__ == '__main__':
    unittest.main()
