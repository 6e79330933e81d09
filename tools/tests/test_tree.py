"""The tree step on a small fake tree: base, series, no-op, re-apply, export."""

import io
import os
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import List

from lrb_harness import cli, tree
from lrb_harness.errors import HarnessError

from .helpers import FAKE_FILES, TempDirTest, git, make_tarball, mtimes, write

KUNIT_TEST = ('// SPDX-License-Identifier: GPL-2.0\n#include <kunit/test.h>\n'
              'static struct kunit_case c[] = { KUNIT_CASE(one), {} };\n'
              'static struct kunit_suite s = { .name = "lrb_api", .test_cases = c };\n')


class TreeTestBase(TempDirTest):
    """A repository with a kunit/ directory and a tree from a fake tarball."""

    def setUp(self) -> None:
        super().setUp()
        self.tarball = make_tarball(self.tmp)
        self.repo = self.tmp / 'repo'
        write(self.repo / 'kunit' / 'lrb_api_test.c', KUNIT_TEST)
        write(self.repo / 'kunit' / 'Makefile', 'obj-y += lrb_api_test.o\n')
        self.tree_dir = self.tmp / 'cache' / 'lrb' / 'linux-source-6.12'
        self.logs: List[str] = []

    def cfg(self, force: bool = False) -> tree.TreeConfig:
        return tree.TreeConfig(repo=self.repo, tree=self.tree_dir, tarball=self.tarball,
                               force=force, version_fn=lambda: '6.12.99-1~test',
                               log=self.logs.append)

    def commit_in_tree(self, rel: str, text: str, subject: str) -> None:
        write(self.tree_dir / rel, text)
        git(self.tree_dir, 'add', '-f', rel)
        git(self.tree_dir, 'commit', '-q', '-m', f'{subject}\n\nBody.\n\nSigned-off-by: T <t@e.com>')

    def make_series(self) -> None:
        """Three patches, written by export from commits made in the tree:
        the third one adds the KUnit directory, as the real series does."""
        tree.prepare(self.cfg())
        self.commit_in_tree('lib/a.c', '// SPDX-License-Identifier: GPL-2.0\nint a(void)\n'
                            '{\n\treturn 10;\n}\n', 'lib: a returns 10')
        self.commit_in_tree('include/linux/x.h', '/* SPDX-License-Identifier: GPL-2.0 */\n'
                            '#define X 2\n', 'x: X is 2')
        git(self.tree_dir, 'add', '-f', 'lib/lrb_kunit')
        self.commit_in_tree('lib/Makefile', FAKE_FILES['lib/Makefile'] + 'obj-y += lrb_kunit/\n',
                            'lib: add the suites')
        tree.export(self.cfg())

    def patches(self) -> List[Path]:
        return sorted((self.repo / 'kernel-patch').glob('*.patch'))


class TreeTest(TreeTestBase):
    def test_first_prepare_records_base_with_version(self) -> None:
        prep = tree.prepare(self.cfg())
        self.assertEqual(prep.version, '6.12.99-1~test')
        message = git(self.tree_dir, 'log', '-1', '--format=%B', 'lrb-base')
        self.assertIn('6.12.99-1~test', message)
        self.assertIn('lib/a.c', git(self.tree_dir, 'ls-files'))  # despite Debian's /*
        self.assertEqual((self.tree_dir / 'lib/lrb_kunit/lrb_api_test.c').read_text(), KUNIT_TEST)
        self.assertIn('/lib/lrb_kunit/', (self.tree_dir / '.git/info/exclude').read_text())
        self.assertIn('/lib/lrb_bench/', (self.tree_dir / '.git/info/exclude').read_text())
        self.assertEqual(git(self.tree_dir, 'status', '--porcelain', '-uall',
                             '--ignored=no').strip(), '')

    def test_second_prepare_rewrites_nothing(self) -> None:
        self.make_series()
        tree.prepare(self.cfg())
        before = mtimes(self.tree_dir)
        patch_times = mtimes(self.repo)
        time.sleep(0.02)
        prep = tree.prepare(self.cfg())
        self.assertFalse(prep.applied)
        self.assertEqual(prep.copied, [])
        self.assertEqual(mtimes(self.tree_dir), before)
        self.assertEqual(mtimes(self.repo), patch_times)

    def test_export_round_trip_is_byte_identical(self) -> None:
        self.make_series()
        names = [p.name for p in self.patches()]
        self.assertEqual(names, ['0001-lib-a-returns-10.patch', '0002-x-X-is-2.patch',
                                 '0003-lib-add-the-suites.patch'])
        series = (self.repo / 'kernel-patch' / 'series').read_text()
        self.assertIn('0001-lib-a-returns-10.patch\n0002-x-X-is-2.patch\n'
                      '0003-lib-add-the-suites.patch\n', series)
        saved = {p.name: p.read_bytes() for p in self.patches()}
        self.assertFalse(tree.prepare(self.cfg()).applied)  # export recorded the state
        again = tree.export(self.cfg())
        self.assertEqual(again.written, [])
        # a brand-new tree applies the series; its export gives the same bytes
        import shutil
        shutil.rmtree(self.tree_dir)
        self.assertTrue(tree.prepare(self.cfg()).applied)
        tree.export(self.cfg())
        self.assertEqual({p.name: p.read_bytes() for p in self.patches()}, saved)
        text = saved['0001-lib-a-returns-10.patch'].decode()
        self.assertTrue(text.startswith('From 0000000000000000000000000000000000000000 '))
        self.assertNotIn('\n-- \n', text)  # no signature (git version) at the end

    def test_changed_patch_reapplies_and_keeps_unchanged_mtimes(self) -> None:
        self.make_series()
        tree.prepare(self.cfg())
        a_before = (self.tree_dir / 'lib/a.c').stat().st_mtime_ns
        second = self.patches()[1]
        second.write_text(second.read_text().replace('+#define X 2', '+#define X 3'))
        time.sleep(0.02)
        prep = tree.prepare(self.cfg())
        self.assertTrue(prep.applied)
        self.assertEqual((self.tree_dir / 'include/linux/x.h').read_text().splitlines()[-1],
                         '#define X 3')
        self.assertEqual((self.tree_dir / 'lib/a.c').stat().st_mtime_ns, a_before)
        self.assertEqual(len(git(self.tree_dir, 'rev-list', 'lrb-base..HEAD').split()), 3)
        self.assertFalse(tree.prepare(self.cfg()).applied)

    def test_failing_patch_exits_2_with_name_version_and_reason(self) -> None:
        self.make_series()
        bad = self.repo / 'kernel-patch' / '0004-bad.patch'
        bad.write_text(self.patches()[0].read_text().replace('lib: a returns 10', 'bad')
                       .replace('-\treturn 1;', '-\treturn 42;'))
        with open(self.repo / 'kernel-patch' / 'series', 'a') as series:
            series.write('0004-bad.patch\n')
        for _attempt in range(2):  # re-runnable: fails the same way twice
            with self.assertRaises(HarnessError) as ctx:
                tree.prepare(self.cfg())
            message = ctx.exception.message
            self.assertEqual(ctx.exception.code, 2)
            self.assertIn('kernel-patch/0004-bad.patch', message)
            self.assertIn('linux-source-6.12 6.12.99-1~test', message)
            self.assertIn('patch does not apply', message)
            base = git(self.tree_dir, 'rev-parse', 'lrb-base')
            self.assertEqual(git(self.tree_dir, 'rev-parse', 'HEAD'), base)
            self.assertFalse((self.tree_dir / '.git' / 'rebase-apply').exists())
            self.assertEqual(git(self.tree_dir, 'status', '--porcelain', '-uno'), '')
        bad.unlink()
        (self.repo / 'kernel-patch' / 'series').write_text(
            '0001-lib-a-returns-10.patch\n0002-x-X-is-2.patch\n0003-lib-add-the-suites.patch\n')
        self.assertTrue(tree.prepare(self.cfg()).applied)

    def test_cli_failing_patch_exit_code(self) -> None:
        write(self.repo / 'kernel-patch' / 'series', '0001-broken.patch\n')
        write(self.repo / 'kernel-patch' / '0001-broken.patch',
              'From: A <a@b.c>\nSubject: [PATCH] broken\n\n---\n'
              '--- a/lib/a.c\n+++ b/lib/a.c\n@@ -1,2 +1,2 @@\n-nothing like this\n+x\n y\n')
        env = {'KERNEL_SRC': str(self.tree_dir), 'LRB_TARBALL': str(self.tarball),
               'LRB_PKG_VERSION': '6.12.99-1~cli', 'HOME': str(self.tmp)}
        err = io.StringIO()
        with redirect_stderr(err), redirect_stdout(io.StringIO()):
            code = cli.main(['prepare'], repo=self.repo, env=env)
        self.assertEqual(code, 2)
        self.assertIn('0001-broken.patch', err.getvalue())
        self.assertIn('6.12.99-1~cli', err.getvalue())
        self.assertIn('git am says', err.getvalue())

    def test_uncommitted_change_refused_unless_force(self) -> None:
        self.make_series()
        tree.prepare(self.cfg())
        write(self.tree_dir / 'lib/b.c', 'edited\n')
        with self.assertRaises(HarnessError) as ctx:
            tree.prepare(self.cfg())
        self.assertIn('lib/b.c', ctx.exception.message)
        self.assertIn('make export', ctx.exception.message)
        self.assertIn('FORCE=1', ctx.exception.message)
        self.assertEqual((self.tree_dir / 'lib/b.c').read_text(), 'edited\n')
        tree.prepare(self.cfg(force=True))
        self.assertIn('return 2;', (self.tree_dir / 'lib/b.c').read_text())

    def test_extra_commit_refused_then_exported(self) -> None:
        self.make_series()
        self.commit_in_tree('lib/b.c', '// SPDX-License-Identifier: GPL-2.0\nint b(void)\n'
                            '{\n\treturn 20;\n}\n', 'lib: b returns 20')
        with self.assertRaises(HarnessError) as ctx:
            tree.prepare(self.cfg())
        self.assertIn('lib: b returns 20', ctx.exception.message)
        exported = tree.export(self.cfg())
        self.assertEqual(len(exported.patches), 4)
        self.assertEqual(exported.written, ['0004-lib-b-returns-20.patch'])
        self.assertFalse(tree.prepare(self.cfg()).applied)

    def test_extra_commit_discarded_with_force(self) -> None:
        self.make_series()
        self.commit_in_tree('lib/b.c', 'x\n', 'lib: scratch')
        tree.prepare(self.cfg(force=True))
        self.assertEqual(len(git(self.tree_dir, 'rev-list', 'lrb-base..HEAD').split()), 3)
        self.assertIn('return 2;', (self.tree_dir / 'lib/b.c').read_text())

    def test_kunit_copy_follows_kunit_dir(self) -> None:
        tree.prepare(self.cfg())
        dest = self.tree_dir / 'lib' / 'lrb_kunit'
        write(self.repo / 'kunit' / 'sub' / 'extra.h', '/* extra */\n')
        before = dest.joinpath('Makefile').stat().st_mtime_ns
        prep = tree.prepare(self.cfg())
        self.assertEqual(prep.copied, ['lib/lrb_kunit/sub/extra.h'])
        self.assertEqual(dest.joinpath('Makefile').stat().st_mtime_ns, before)
        (self.repo / 'kunit' / 'sub' / 'extra.h').unlink()
        prep = tree.prepare(self.cfg())
        self.assertEqual(prep.uncopied, ['lib/lrb_kunit/sub/extra.h'])
        self.assertFalse((dest / 'sub').exists())

    def test_kunit_edit_in_tree_is_protected_and_exported(self) -> None:
        tree.prepare(self.cfg())
        copied = self.tree_dir / 'lib' / 'lrb_kunit' / 'lrb_api_test.c'
        copied.write_text(KUNIT_TEST + '/* edited in the tree */\n')
        write(self.repo / 'kunit' / 'Makefile', 'obj-y += lrb_api_test.o\n# repo edit\n')
        with self.assertRaises(HarnessError) as ctx:
            tree.prepare(self.cfg())
        self.assertIn('lib/lrb_kunit/lrb_api_test.c (modified in the tree)', ctx.exception.message)
        self.assertIn('make export', ctx.exception.message)
        self.assertIn('edited in the tree', copied.read_text())
        git(self.tree_dir, 'add', '-f', 'lib/lrb_kunit/Makefile')
        self.commit_in_tree('lib/Makefile', FAKE_FILES['lib/Makefile'] + 'obj-y += lrb_kunit/\n',
                            'lib: add the suites')
        exported = tree.export(self.cfg())
        self.assertEqual(exported.copied_back, ['kunit/lrb_api_test.c'])
        self.assertIn('edited in the tree', (self.repo / 'kunit' / 'lrb_api_test.c').read_text())
        # the repo-side Makefile edit reaches the tree with the export
        self.assertIn('# repo edit', (self.tree_dir / 'lib/lrb_kunit/Makefile').read_text())
        self.assertEqual(tree.prepare(self.cfg()).copied, [])

    def test_export_leaves_the_tree_clean(self) -> None:
        self.make_series()
        write(self.repo / 'kunit' / 'lrb_api_test.c', KUNIT_TEST + '/* repo edit */\n')
        tree.export(self.cfg())
        self.assertEqual(git(self.tree_dir, 'status', '--porcelain', '-uall',
                             '--ignored=no').strip(), '')
        self.assertIn('repo edit', git(self.tree_dir, 'show',
                                       'HEAD:lib/lrb_kunit/lrb_api_test.c'))

    def test_kunit_added_file_in_tree_discarded_with_force(self) -> None:
        tree.prepare(self.cfg())
        added = self.tree_dir / 'lib' / 'lrb_kunit' / 'new_test.c'
        added.write_text('new\n')
        (self.tree_dir / 'lib' / 'lrb_kunit' / 'lrb_api_test.o').write_text('artifact\n')
        with self.assertRaises(HarnessError) as ctx:
            tree.prepare(self.cfg())
        self.assertIn('new_test.c (added in the tree)', ctx.exception.message)
        self.assertNotIn('lrb_api_test.o', ctx.exception.message)
        tree.prepare(self.cfg(force=True))
        self.assertFalse(added.exists())

    def test_existing_non_git_tree_is_not_from_dpkg(self) -> None:
        src = self.tmp / 'tar-src' / 'linux-source-6.12'
        cfg = tree.TreeConfig(repo=self.repo, tree=src, tarball=self.tmp / 'none.tar.xz',
                              from_kernel_src=True, log=self.logs.append)
        prep = tree.prepare(cfg)
        self.assertEqual(prep.version, tree.NOT_FROM_DPKG)
        self.assertTrue((src / '.git').is_dir())

    def test_missing_tarball_says_make_deps(self) -> None:
        cfg = tree.TreeConfig(repo=self.repo, tree=self.tmp / 'nowhere', tarball=self.tmp / 'no.tar.xz')
        with self.assertRaises(HarnessError) as ctx:
            tree.prepare(cfg)
        self.assertIn('make deps', ctx.exception.message)

    def test_status_reports_without_changing(self) -> None:
        self.make_series()
        write(self.tree_dir / 'lib/b.c', 'edited\n')
        problems = tree.pending_work(self.cfg())
        self.assertTrue(any('lib/b.c' in p for p in problems))
        self.assertEqual((self.tree_dir / 'lib/b.c').read_text(), 'edited\n')
        os.environ.get('HOME')
