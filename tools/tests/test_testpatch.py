"""The patches written from kunit/ and bench/: export writes them from the
repository, the tree step copies the directories over them, check names the
files in which they differ."""

import json
import time

from lrb_harness import tree
from lrb_harness.errors import HarnessError

from .helpers import FAKE_FILES, git, mtimes, write
from .test_tree import KUNIT_TEST, TreeTestBase

BENCH_MAIN = '// SPDX-License-Identifier: GPL-2.0\nint bench(void)\n{\n\treturn 0;\n}\n'


class TestPatchTest(TreeTestBase):
    def suites_patch(self) -> str:
        return (self.repo / 'kernel-patch' / '0003-lib-add-the-suites.patch').read_text()

    def head_files(self, where: str) -> str:
        return git(self.tree_dir, 'ls-tree', '-r', '--name-only', 'HEAD', '--', where)

    def test_export_writes_the_test_patch_from_kunit(self) -> None:
        self.make_series()
        self.assertIn('+++ b/lib/lrb_kunit/lrb_api_test.c', self.suites_patch())
        self.assertEqual(tree.stale_copies(self.cfg()), [])
        write(self.repo / 'kunit' / 'lrb_api_test.c', KUNIT_TEST + '/* more */\n')
        exported = tree.export(self.cfg())  # no tree step in between
        self.assertEqual(exported.written, ['0003-lib-add-the-suites.patch'])
        self.assertIn('+/* more */', self.suites_patch())
        self.assertIn('Body.\n\nSigned-off-by: T <t@e.com>', self.suites_patch())
        self.assertFalse(tree.prepare(self.cfg()).applied)  # HEAD moved to what was written
        self.assertEqual(tree.stale_copies(self.cfg()), [])

    def test_check_names_the_files_that_differ(self) -> None:
        self.make_series()
        write(self.repo / 'kunit' / 'lrb_api_test.c', KUNIT_TEST + '/* more */\n')
        write(self.repo / 'kunit' / 'new.h', '/* new */\n')
        (self.repo / 'kunit' / 'Makefile').unlink()
        prep = tree.prepare(self.cfg())
        self.assertFalse(prep.applied)
        self.assertEqual(prep.uncopied, ['lib/lrb_kunit/Makefile'])
        self.assertEqual(tree.stale_copies(self.cfg()), [
            'kunit/Makefile: in 0003-lib-add-the-suites.patch, not in kunit/',
            'kunit/lrb_api_test.c: differs from 0003-lib-add-the-suites.patch',
            'kunit/new.h: not in 0003-lib-add-the-suites.patch'])
        tree.export(self.cfg())
        self.assertNotIn('lib/lrb_kunit/Makefile', self.head_files('lib/lrb_kunit'))
        self.assertIn('lib/lrb_kunit/new.h', self.head_files('lib/lrb_kunit'))
        self.assertEqual(tree.stale_copies(self.cfg()), [])

    def test_tests_edited_in_the_tree_go_into_their_patch(self) -> None:
        self.make_series()
        edited = KUNIT_TEST + '/* fixed in the tree */\n'
        write(self.tree_dir / 'lib/lrb_kunit/lrb_api_test.c', edited)
        write(self.tree_dir / 'lib/a.c', FAKE_FILES['lib/a.c'].replace('1;', '11;'))
        git(self.tree_dir, 'commit', '-q', '-a', '-m', 'lib: a and a test')
        self.commit_in_tree('lib/lrb_kunit/lrb_api_test.c', edited + '/* again */\n',
                            'tests only')
        exported = tree.export(self.cfg())
        self.assertEqual(exported.copied_back, ['kunit/lrb_api_test.c'])
        self.assertIn('again', (self.repo / 'kunit' / 'lrb_api_test.c').read_text())
        self.assertEqual(len(exported.patches), 4)  # 'tests only' had nothing left
        fourth = (self.repo / 'kernel-patch' / '0004-lib-a-and-a-test.patch').read_text()
        self.assertIn('lib/a.c', fourth)
        self.assertNotIn('lrb_kunit', fourth)
        self.assertIn('+/* again */', self.suites_patch())
        self.assertFalse(tree.prepare(self.cfg()).applied)

    def test_export_without_a_test_patch_says_how_to_add_one(self) -> None:
        tree.prepare(self.cfg())
        self.commit_in_tree('lib/a.c', FAKE_FILES['lib/a.c'].replace('1;', '5;'), 'lib: a is 5')
        with self.assertRaises(HarnessError) as ctx:
            tree.export(self.cfg())
        self.assertIn('no commit in the tree adds lib/lrb_kunit/', ctx.exception.message)
        self.assertIn('git add -f lib/lrb_kunit', ctx.exception.message)
        self.assertEqual(list((self.repo / 'kernel-patch').glob('*.patch')), [])

    def test_bench_gets_a_patch_of_its_own(self) -> None:
        self.make_series()
        write(self.repo / 'bench' / 'main.c', BENCH_MAIN)
        self.assertEqual(tree.prepare(self.cfg()).copied, ['lib/lrb_bench/main.c'])
        self.assertIn('bench/ (the benchmark) is in no patch of the series',
                      ' '.join(tree.stale_copies(self.cfg())))
        with self.assertRaises(HarnessError):
            tree.export(self.cfg())
        git(self.tree_dir, 'add', '-f', 'lib/lrb_bench')
        git(self.tree_dir, 'commit', '-q', '-m', 'lib: add the bench\n\nBody.')
        exported = tree.export(self.cfg())
        self.assertEqual(exported.patches[-1], '0004-lib-add-the-bench.patch')
        write(self.repo / 'bench' / 'main.c', BENCH_MAIN.replace('0;', '1;'))
        write(self.repo / 'kunit' / 'lrb_api_test.c', KUNIT_TEST + '/* more */\n')
        exported = tree.export(self.cfg())
        self.assertEqual(exported.written, ['0003-lib-add-the-suites.patch',
                                            '0004-lib-add-the-bench.patch'])
        self.assertFalse(tree.prepare(self.cfg()).applied)
        self.assertEqual(tree.stale_copies(self.cfg()), [])

    def test_reapplied_series_keeps_the_copies_times(self) -> None:
        self.make_series()
        write(self.repo / 'kunit' / 'lrb_api_test.c', KUNIT_TEST + '/* not exported */\n')
        tree.prepare(self.cfg())
        before = mtimes(self.tree_dir / 'lib' / 'lrb_kunit')
        first = sorted((self.repo / 'kernel-patch').glob('0001*'))[0]
        first.write_text(first.read_text().replace('+\treturn 10;', '+\treturn 12;'))
        time.sleep(0.02)
        prep = tree.prepare(self.cfg())
        self.assertTrue(prep.applied)
        self.assertEqual(prep.copied, ['lib/lrb_kunit/lrb_api_test.c'])  # over the patch's
        self.assertEqual(mtimes(self.tree_dir / 'lib' / 'lrb_kunit'), before)

    def test_state_of_a_kunit_only_tree_step_is_read(self) -> None:
        tree.prepare(self.cfg())  # copies kunit/, untracked, as the old tree step did
        path = tree.state_path(self.tree_dir)
        data = json.loads(path.read_text())
        data['kunit_manifest'] = data.pop('manifests')['lib/lrb_kunit']
        path.write_text(json.dumps(data))
        self.make_series()  # no refusal: the old manifest still names the copies
        self.assertEqual(tree.stale_copies(self.cfg()), [])
