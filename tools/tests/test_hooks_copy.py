"""One set of kernel hooks: the bench's copy of the standalone series' hook
patch, found by its subject, checked against it, checkpatch told why its
Signed-off-by is missing (checks.py), and the real series in the repository."""

from pathlib import Path

from lrb_harness import checks

from .helpers import TempDirTest, write

REPO = Path(__file__).resolve().parent.parent.parent


def patch(subject: str, body: str, changes: str, context: str = ' ctx',
          signed: str = '') -> str:
    return (f'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
            f'From: Someone <s@example.org>\n'
            f'Subject: [PATCH] {subject}\n\n{body}\n' + (f'\n{signed}\n' if signed else '') +
            f'---\n a.c | 1 +\n\ndiff --git a/a.c b/a.c\nindex 1..2 100644\n'
            f'--- a/a.c\n+++ b/a.c\n@@ -1,1 +1,2 @@\n{context}\n{changes}\n')


class HooksCopyTest(TempDirTest):
    def setUp(self) -> None:
        super().setUp()
        self.standalone = self.tmp / 'upstream-6.12'
        self.bench = self.tmp / 'bench'
        write(self.standalone / '0001-fix.patch', patch('ring-buffer: Fix it', 'Why.', '+fix'))
        write(self.standalone / '0002-hooks.patch',
              patch("ring-buffer: Add test hooks between the reader's two\n checks",
                    'The hooks.', '+hook'))

    def test_subject_unfolded(self) -> None:
        text = (self.standalone / '0002-hooks.patch').read_text()
        self.assertEqual(checks.patch_subject(text),
                         "ring-buffer: Add test hooks between the reader's two checks")

    def test_copy_found_and_the_same(self) -> None:
        mine = self.bench / '0001-hooks.patch'
        other = self.bench / '0002-more.patch'
        write(mine, patch("ring-buffer: Add test hooks between the reader's two checks",
                          'The hooks.', '+hook', context=' other context',
                          signed='Signed-off-by: Bench <b@localhost>'))
        write(other, patch('ring-buffer: add more hooks', 'More.', '+more'))
        copies = checks.standalone_copies([mine, other], self.standalone)
        self.assertEqual(copies, {mine: self.standalone / '0002-hooks.patch'})
        result = checks.same_as_standalone(copies)
        self.assertTrue(result.ok, result.problems)
        self.assertIn('0001-hooks.patch is upstream-6.12/0002', result.name)

    def test_a_copy_that_drifted_fails(self) -> None:
        mine = self.bench / '0001-hooks.patch'
        write(mine, patch("ring-buffer: Add test hooks between the reader's two checks",
                          'The hooks, reworded.', '+hook2'))
        result = checks.same_as_standalone(checks.standalone_copies([mine], self.standalone))
        self.assertFalse(result.ok)
        self.assertEqual(len(result.problems), 2)
        self.assertIn('message differs', result.problems[0])
        self.assertIn('+hook2', result.problems[1])

    def test_fix_ignores_unknown_commit_id(self) -> None:
        fix = self.bench / '0001-fix.patch'
        write(fix, patch('ring-buffer: Fix it', 'Why.\n\nFixes: 77ae365eca89 ("x")', '+fix'))
        hooks = self.bench / '0002-hooks.patch'
        write(hooks, patch('ring-buffer: Add hooks', 'Why.', '+hook'))
        ignored = checks.series_ignored([fix, hooks], {hooks: self.standalone / 'x.patch'})
        self.assertEqual(set(ignored[fix]), {'UNKNOWN_COMMIT_ID'})
        self.assertEqual(ignored[hooks], checks.STANDALONE_IGNORED)

    def test_no_copy_fails(self) -> None:
        result = checks.same_as_standalone({})
        self.assertFalse(result.ok)

    def test_the_repository_series(self) -> None:
        """kernel-patch/ has the standalone series' hook patch right after
        its kernel fixes (patches with a Fixes: tag); a fix may be a copy of
        a standalone patch too (the head push fix, upstream-6.12/0002)."""
        series = (REPO / 'kernel-patch' / 'series').read_text().split()
        files = [REPO / 'kernel-patch' / n for n in series if n.endswith('.patch')]
        copies = checks.standalone_copies(files, REPO / checks.STANDALONE_DIR)
        fixes = [f for f in files if checks.FIXES_TAG.search(f.read_text())]
        self.assertEqual(files[:len(fixes)], fixes)
        self.assertIn(files[len(fixes)], copies)
        self.assertEqual(set(copies) - set(fixes), {files[len(fixes)]})
        result = checks.same_as_standalone(copies)
        self.assertTrue(result.ok, result.problems)
