"""make upstream without a kernel: the series files, the variants' trees on a
fake tarball (no-op when nothing changed), the hunks of one function, the
results of a boot, the figures, and elfcmp on objects the host gcc builds."""

import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Dict, List

from lrb_harness import elfcmp, ktap, upstream
from lrb_harness.checks import CheckResult
from lrb_harness.errors import HarnessError

from .helpers import TempDirTest, git, make_tarball, mtimes, write

SOURCE = '''// SPDX-License-Identifier: GPL-2.0
static int a, b, c, d;

static void rb_get_reader_page(void)
{
	a = 1;
	b = 1;
	c = 1;
	d = 1;
}

static void rb_advance_iter(void)
{
	a = 2;
	b = 2;
	c = 2;
	d = 2;
}

static void rb_handle_head_page(void)
{
	a = 3;
	b = 3;
	c = 3;
}
'''
FILES = {
    '.gitignore': '/*\n',
    'Makefile': 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 99\n',
    'kernel/trace/ring_buffer.c': SOURCE,
}
KTAP_LOG = '''[    1.0] KTAP version 1
[    1.0] 1..1
[    1.0]     KTAP version 1
[    1.0]     # Subtest: ring_buffer
[    1.0]     1..2
[    1.1]     # reader_outer_commit_between_checks: EXPECTATION FAILED at x.c:1
[    1.1]     not ok 1 reader_outer_commit_between_checks
[    1.2]     ok 2 iter_outer_commit_between_checks
[    1.2] # ring_buffer: pass:1 fail:1 skip:0 total:2
[    1.2] not ok 1 ring_buffer
'''
# The head case red, with the writer's RB_WARN_ON() while it ran; a report
# before the cases (at boot) and one after them
WARN_LOG = '''[    0.5] WARNING: CPU: 0 PID: 1 at kernel/foo.c:1 foo_init+0x1/0x2
[    0.5] Call Trace:
[    1.0] KTAP version 1
[    1.0] 1..1
[    1.0]     KTAP version 1
[    1.0]     # Subtest: ring_buffer
[    1.0]     1..2
[    1.1]     ok 1 reader_outer_commit_between_checks
[    1.2] ------------[ cut here ]------------
[    1.2] WARNING: CPU: 0 PID: 95 at kernel/trace/ring_buffer.c:3455 rb_move_tail+0x364/0x750
[    1.2] Modules linked in:
[    1.2] Call Trace:
[    1.2]  <TASK>
[    1.2]  ring_buffer_lock_reserve+0x1/0x2
[    1.2] ---[ end trace 0000000000000000 ]---
[    1.3]     # reader_takes_outer_writers_new_head: EXPECTATION FAILED at x.c:2
[    1.3]     not ok 2 reader_takes_outer_writers_new_head
[    1.3] # ring_buffer: pass:1 fail:1 skip:0 total:2
[    1.3] not ok 1 ring_buffer
[    1.4] BUG: sleeping function called from invalid context at y.c:3
'''


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new))


class SeriesFilesTest(TempDirTest):
    def test_author_in_and_out(self) -> None:
        text = ('From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
                'From: Someone <s@example.org>\nDate: Sun, 6 Dec 2026 10:00:00 +0000\n'
                'Subject: [PATCH] x: y\n\nBody.\n\nFrom: in the body stays\n---\n')
        bare = upstream.without_identity(text)
        self.assertNotIn('From: Someone', bare)
        self.assertNotIn('Date:', bare)
        self.assertIn('From: in the body stays', bare)
        self.assertEqual(upstream.identity_problems('p', bare), [])
        amable = upstream.with_author(bare)
        self.assertEqual(amable.split('\n')[1], f'From: {upstream.AM_AUTHOR}')
        self.assertEqual(len(upstream.identity_problems('p', amable)), 2)
        signed = bare.replace('Body.', 'Body.\n\nSigned-off-by: A <a@b.c>')
        self.assertIn('Signed-off-by', upstream.identity_problems('p', signed)[0])

    def test_read_series(self) -> None:
        sdir = self.tmp / 's'
        write(sdir / 'series', '# comment\n0001-a.patch\n\n0002-b.patch\n')
        write(sdir / '0001-a.patch', 'a')
        with self.assertRaises(HarnessError):
            upstream.read_series(sdir)
        write(sdir / '0002-b.patch', 'b')
        self.assertEqual([p.name for p in upstream.read_series(sdir)],
                         ['0001-a.patch', '0002-b.patch'])

    def test_pick(self) -> None:
        self.assertEqual(upstream.pick(None, ['a', 'b'], 'x'), ['a', 'b'])
        self.assertEqual(upstream.pick(['b,a'], ['a', 'b'], 'x'), ['a', 'b'])
        with self.assertRaises(HarnessError):
            upstream.pick(['c'], ['a', 'b'], 'x')


class HunksTest(TempDirTest):
    def test_function_range(self) -> None:
        lines = SOURCE.split('\n')
        first, last = upstream.function_range(lines, 'rb_advance_iter')
        self.assertEqual(lines[first - 1], 'static void rb_advance_iter(void)')
        self.assertEqual(lines[last - 1], '}')
        with self.assertRaises(HarnessError):
            upstream.function_range(lines, 'nothing')

    def test_hunks_of_one_function(self) -> None:
        post = SOURCE.replace('a = 1;', 'a = 11;').replace('d = 2;', 'd = 22;')
        tree = self.tmp / 't'
        write(tree / 'kernel/trace/ring_buffer.c', SOURCE)
        git(tree, 'init', '-q')
        git(tree, 'add', '-A')
        git(tree, 'commit', '-q', '-m', 'base')
        (tree / 'kernel/trace/ring_buffer.c').write_text(post)
        patch = git(tree, 'diff', '-U1')
        part = upstream.hunks_in_function(patch, 'kernel/trace/ring_buffer.c', post,
                                          'rb_advance_iter')
        self.assertIn('+\td = 22;', part)
        self.assertNotIn('a = 11', part)
        subprocess.run(['git', '-C', str(tree), 'apply', '-R', '-'], input=part, text=True,
                       check=True)
        self.assertEqual((tree / 'kernel/trace/ring_buffer.c').read_text(),
                         SOURCE.replace('a = 1;', 'a = 11;'))
        with self.assertRaises(HarnessError):
            upstream.hunks_in_function(patch, 'other.c', post, 'rb_advance_iter')


class TreeTest(TempDirTest):
    """A fake base, a series of three made in its tree and exported, then the
    variants prepared from the files."""

    def setUp(self) -> None:
        super().setUp()
        make_tarball(self.tmp, FILES, top='linux-source-6.12')
        self.base = upstream.Base('6.12', tarball_dir=str(self.tmp))
        self.repo = self.tmp / 'repo'
        self.cache = self.tmp / 'cache'
        self.tree = self.base.tree(self.cache)
        self.said: List[str] = []
        upstream._unpack(self.base, self.tree, self.said.append)
        src = self.tree / 'kernel/trace/ring_buffer.c'
        edit(src, 'a = 1;', 'a = 11;')
        edit(src, 'a = 2;', 'a = 22;')
        self.commit('ring-buffer: Fix it')
        edit(src, 'b = 3;', 'b = 33;')
        self.commit(upstream.HEAD_FIX)
        edit(src, 'c = 1;', 'c = 1;\n\thook(1);')
        edit(src, 'c = 2;', 'c = 2;\n\thook(2);')
        write(self.tree / upstream.PRIVATE_HEADER, '/* hooks */\n')
        git(self.tree, 'add', '-f', upstream.PRIVATE_HEADER)
        self.commit('ring-buffer: Add hooks')
        write(self.tree / 'kernel/trace/test.c', '// SPDX-License-Identifier: GPL-2.0\n')
        git(self.tree, 'add', '-f', 'kernel/trace/test.c')
        self.commit('ring-buffer: Add a test')
        self.names = upstream.export(self.base, self.repo, self.cache, self.said.append)

    def commit(self, subject: str) -> None:
        git(self.tree, 'commit', '-q', '-a', '-m', f'{subject}\n\nWhy.')

    def prepare(self, force: bool = False) -> upstream.Prepared:
        return upstream.prepare(self.base, self.repo, self.cache, upstream.VARIANTS,
                                self.said.append, force)

    def source(self, prep: upstream.Prepared, variant: upstream.Variant) -> str:
        upstream.select(prep, variant)
        return (self.tree / 'kernel/trace/ring_buffer.c').read_text()

    def test_export(self) -> None:
        sdir = self.base.series_dir(self.repo)
        self.assertEqual((sdir / 'series').read_text().split(), self.names)
        self.assertEqual(len(self.names), 4)
        patches = upstream.read_series(sdir)
        self.assertEqual(upstream.subjects(patches)[1], upstream.HEAD_FIX)
        # the fixes: the patches before the one that adds the private header
        self.assertEqual(upstream.hooks_patch(patches), 2)
        self.assertEqual(upstream.applicable(upstream.VARIANTS, patches), upstream.VARIANTS)
        with self.assertRaises(HarnessError):
            upstream.hooks_patch(patches[:2])
        for name in self.names:
            text = (sdir / name).read_text()
            self.assertEqual(upstream.identity_problems(name, text), [])
            self.assertNotIn('Date: ', upstream.header(text))

    def test_variants_and_no_op(self) -> None:
        prep = self.prepare()
        self.assertTrue(prep.changed)
        self.assertEqual(git(self.tree, 'rev-parse', 'HEAD').strip(), prep.commits['fixed'])
        fixed = self.source(prep, upstream.FIXED)
        self.assertIn('a = 11;', fixed)
        self.assertIn('a = 22;', fixed)
        self.assertIn('b = 33;', fixed)
        self.assertIn('hook(2);', fixed)
        unfixed = self.source(prep, upstream.UNFIXED)
        self.assertIn('a = 1;', unfixed)
        self.assertIn('a = 2;', unfixed)
        self.assertIn('b = 33;', unfixed)    # without the reader-page fix only
        self.assertIn('hook(1);', unfixed)
        self.assertTrue((self.tree / 'kernel/trace/test.c').is_file())
        part = self.source(prep, upstream.ITER_UNFIXED)
        self.assertIn('a = 11;', part)
        self.assertIn('a = 2;', part)
        self.assertIn('b = 33;', part)
        self.assertIn('hook(2);', part)
        head = self.source(prep, upstream.HEAD_UNFIXED)
        self.assertIn('a = 11;', head)
        self.assertIn('a = 22;', head)
        self.assertIn('b = 3;', head)
        self.assertIn('hook(1);', head)
        self.assertTrue((self.tree / 'kernel/trace/test.c').is_file())
        picked = git(self.tree, 'log', '--format=%s',
                     f'{upstream.BASE_TAG}..{prep.commits[upstream.HEAD_UNFIXED.name]}')
        self.assertEqual(picked.split('\n')[:3],
                         ['ring-buffer: Add a test', 'ring-buffer: Add hooks',
                          'ring-buffer: Fix it'])
        self.assertEqual(git(self.tree, 'log', '-1', '--format=%an <%ae>').strip(),
                         upstream.AM_AUTHOR)
        # Back at a variant, the file has its commit's time, whatever the day
        self.source(prep, upstream.FIXED)
        when = int(git(self.tree, 'show', '-s', '--format=%ct', prep.commits['fixed']))
        self.assertEqual((self.tree / 'kernel/trace/ring_buffer.c').stat().st_mtime, when)

        before = mtimes(self.tree)
        again = self.prepare()
        self.assertFalse(again.changed)
        self.assertEqual(mtimes(self.tree), before)

        # A new changelog: new commits, the same files, none of them touched
        sdir = self.base.series_dir(self.repo)
        edit(sdir / self.names[2], 'Why.', 'Why not.')
        third = self.prepare()
        self.assertTrue(third.changed)
        self.assertNotEqual(third.commits['fixed'], prep.commits['fixed'])
        self.assertEqual(mtimes(self.tree), before)

    def test_a_series_without_the_head_fix(self) -> None:
        """A series without HEAD_FIX has no head-unfixed variant; asked for,
        prepare() says why."""
        sdir = self.base.series_dir(self.repo)
        (sdir / self.names[1]).unlink()
        (sdir / 'series').write_text('\n'.join(self.names[:1] + self.names[2:]) + '\n')
        patches = upstream.read_series(sdir)
        self.assertEqual(upstream.applicable(upstream.VARIANTS, patches),
                         [upstream.FIXED, upstream.UNFIXED, upstream.ITER_UNFIXED])
        self.assertEqual(upstream.hooks_patch(patches), 1)
        with self.assertRaises(HarnessError) as caught:
            upstream.prepare(self.base, self.repo, self.cache, upstream.VARIANTS,
                             self.said.append, force=True)
        self.assertIn('head-unfixed', caught.exception.message)
        prep = upstream.prepare(self.base, self.repo, self.cache, upstream.CI_VARIANTS[:2],
                                self.said.append, force=True)
        self.assertNotIn('b = 33;', self.source(prep, upstream.FIXED))

    def test_work_in_the_tree_is_kept(self) -> None:
        self.prepare()
        write(self.tree / 'kernel/trace/test.c', '// SPDX-License-Identifier: GPL-2.0\n// x\n')
        git(self.tree, 'commit', '-q', '-a', '-m', 'more')
        edit(self.base.series_dir(self.repo) / self.names[0], 'Why.', 'Because.')
        with self.assertRaises(HarnessError):
            self.prepare()
        self.assertTrue(self.prepare(force=True).changed)


class ResultsTest(TempDirTest):
    def test_statuses(self) -> None:
        got = upstream.statuses(KTAP_LOG.splitlines())
        self.assertEqual(got, {f'ring_buffer.{upstream.READER_CASE}': ktap.FAIL,
                               f'ring_buffer.{upstream.ITER_CASE}': ktap.PASS})

    def test_kernel_reports_by_case(self) -> None:
        lines = WARN_LOG.splitlines()
        head = f'ring_buffer.{upstream.HEAD_CASE}'
        reports = upstream.kernel_reports(lines)
        self.assertEqual([where for where, _ in reports], ['', head, ''])
        self.assertTrue(upstream.is_rb_warning(reports[1][1]))
        self.assertFalse(upstream.is_rb_warning(reports[0][1]))
        self.assertIn('BUG: sleeping function', reports[2][1])
        self.assertEqual(upstream.statuses(lines)[head], ktap.FAIL)
        # A second WARNING right after the first one's trace is a report of
        # its own, the lines of a trace are not
        at = lines.index('[    1.2] ---[ end trace 0000000000000000 ]---') + 1
        twice = lines[:at] + lines[at - 7:at] + lines[at:]
        self.assertEqual([where for where, _ in upstream.kernel_reports(twice)],
                         ['', head, head, ''])

    def test_warnings_expected_exactly(self) -> None:
        head = f'ring_buffer.{upstream.HEAD_CASE}'
        reader = f'ring_buffer.{upstream.READER_CASE}'
        warning = (head, 'warning: WARNING: CPU: 0 PID: 95 at kernel/trace/ring_buffer.c:3455 '
                         'rb_move_tail+0x364/0x750')
        run = upstream.VariantRun('6.12', 'x86_64', 'head-unfixed',
                                  list(upstream.HEAD_UNFIXED.red),
                                  warns=list(upstream.HEAD_UNFIXED.warns))
        red = {reader: ktap.PASS, head: ktap.FAIL}
        run.boots = [upstream.Boot(red, 1, 2.0, '', [warning]),
                     upstream.Boot(red, 1, 2.0, '', []),
                     upstream.Boot(red, 1, 2.0, '', [warning, warning]),
                     upstream.Boot(red, 1, 2.0, '', [(reader, warning[1])]),
                     upstream.Boot(red, 1, 2.0, '', [(head, 'warning: WARNING: at mm/x.c:1 f')])]
        self.assertEqual([run.as_expected(b) for b in run.boots],
                         [True, False, False, False, False])
        self.assertEqual(run.report_problems(run.boots[1]),
                         [f'{head}: no WARNING in {upstream.SOURCE}, expected (RB_WARN_ON() '
                          'without the fix)'])
        self.assertEqual(len(run.report_problems(run.boots[3])), 2)
        # fixed: the same WARNING is a failure
        fixed = upstream.VariantRun('6.12', 'x86_64', 'fixed', [])
        fixed.boots = [upstream.Boot({reader: ktap.PASS, head: ktap.PASS}, 0, 2.0, '',
                                     [warning])]
        self.assertEqual(fixed.matched(), 0)
        passed, failed, _, problems = upstream.count_run(fixed)
        self.assertEqual((passed, failed), (2, 1))
        self.assertEqual(problems, [f'6.12 x86_64 fixed kernel report: {head}: {warning[1]}, '
                                    'unexpected'])
        passed, failed, _, problems = upstream.count_run(run)
        self.assertEqual((passed, failed), (10, 6))
        table = upstream.figures([run, fixed])
        self.assertIn('head case', table[0])
        self.assertIn('red 5/5, WARNING 2/5', table[1])
        self.assertIn('-', table[1].split())      # the iterator case: not run
        self.assertIn('green 1/1', table[2])

    def test_expectations_and_figures(self) -> None:
        run = upstream.VariantRun('6.12', 'x86_64', 'iter-unfixed', list(upstream.ITER_UNFIXED.red),
                                  build_s=300.0)
        reader = f'ring_buffer.{upstream.READER_CASE}'
        it = f'ring_buffer.{upstream.ITER_CASE}'
        run.boots = [upstream.Boot({reader: 'PASS', it: 'FAIL'}, 1, 3.0, ''),
                     upstream.Boot({reader: 'PASS', it: 'PASS'}, 0, 3.0, ''),
                     upstream.Boot({}, 1, 3.0, '')]
        self.assertEqual(run.matched(), 1)
        table = upstream.figures([run])
        self.assertEqual(len(table), 2)
        self.assertIn('1/3', table[1])
        self.assertIn('green 2/3', table[1])
        self.assertIn('red 1/3', table[1])


class ElfTest(TempDirTest):
    def build(self, name: str, body: str) -> elfcmp.Code:
        src = self.tmp / f'{name}.c'
        src.write_text(body)
        obj = self.tmp / f'{name}.o'
        subprocess.run(['gcc', '-O2', '-c', '-o', str(obj), str(src)], check=True)
        return elfcmp.read(obj)

    def test_same_and_different_code(self) -> None:
        if not shutil.which('gcc'):
            self.skipTest('no gcc')
        one = 'extern int g(int);\nint f(int x)\n{\n\treturn g(x) + 1;\n}\n'
        off = '#ifdef HOOKS\nstatic void h(void) {}\n#endif\n' + one
        two = one.replace('+ 1', '+ 2')
        a, b, c = self.build('a', one), self.build('b', off), self.build('c', two)
        self.assertIn('.text', a.sections)
        self.assertEqual(elfcmp.differences(a, b), [])
        self.assertTrue(elfcmp.differences(a, c))
        self.assertIn('.text', elfcmp.summary(a))
        self.assertTrue(any(r[2] == 'g' for r in a.relocs['.text']))
        with self.assertRaises(elfcmp.ElfError):
            bad = self.tmp / 'bad.o'
            bad.write_bytes(b'not elf')
            elfcmp.read(bad)


class CiTest(TempDirTest):
    """make test's pass: the variants of CI_VARIANTS, once each, counted case
    by case for the closing line."""

    READER = f'ring_buffer.{upstream.READER_CASE}'
    ITER = f'ring_buffer.{upstream.ITER_CASE}'
    OTHER = 'ring_buffer.overwrite_pushes_head'

    def variant(self, variant: upstream.Variant, *boots: Dict[str, str]
                ) -> upstream.VariantRun:
        run = upstream.VariantRun('6.12', 'x86_64', variant.name, list(variant.red))
        run.boots = [upstream.Boot(dict(b), 0 if all(v == ktap.PASS for v in b.values())
                                   else 1, 2.0, 'x.log') for b in boots]
        return run

    def test_expected_statuses_pass(self) -> None:
        fixed = self.variant(upstream.FIXED, {self.READER: ktap.PASS, self.ITER: ktap.PASS,
                                              self.OTHER: ktap.PASS})
        unfixed = self.variant(upstream.UNFIXED, {self.READER: ktap.FAIL, self.ITER: ktap.FAIL,
                                                  self.OTHER: ktap.PASS})
        self.assertEqual(upstream.count_run(fixed), (3, 0, 0, []))
        # the race cases red without the fix: what the pass wants, so passed
        self.assertEqual(upstream.count_run(unfixed), (3, 0, 0, []))

    def test_unexpected_statuses_fail_with_a_line_each(self) -> None:
        unfixed = self.variant(upstream.UNFIXED, {self.READER: ktap.PASS, self.OTHER: ktap.SKIP})
        passed, failed, skipped, problems = upstream.count_run(unfixed)
        self.assertEqual((passed, failed, skipped), (0, 2, 1))
        self.assertIn(f'6.12 x86_64 unfixed {self.READER}: PASS, expected FAIL (red without '
                      'the fix)', problems)
        self.assertIn(f'6.12 x86_64 unfixed {self.ITER}: not run, expected FAIL', problems)
        fixed = self.variant(upstream.FIXED, {self.READER: ktap.FAIL}, {})
        passed, failed, skipped, problems = upstream.count_run(fixed)
        self.assertEqual((passed, failed, skipped), (0, 2, 0))
        self.assertIn(f'6.12 x86_64 fixed boot 1 {self.READER}: FAIL, expected PASS', problems)
        self.assertTrue(problems[1].startswith('6.12 x86_64 fixed boot 2: no KTAP results'))
        broken = self.variant(upstream.FIXED)
        broken.error = 'kunit.py run failed before booting (exit 1)'
        self.assertEqual(upstream.count_run(broken)[:3], (0, 1, 0))

    def test_lean_builds_apart_with_the_fragment(self) -> None:
        tree, bdir = Path('/t'), Path('/b')
        x86, arm = upstream.ARCHES
        lean_x86, lean_arm = replace(x86, lean=True), replace(arm, lean=True)
        base, fixed = upstream.BASES[0], upstream.FIXED
        self.assertEqual(upstream.build_dir(self.tmp, base, x86, fixed).name,
                         'upstream-6.12-x86_64-fixed')
        self.assertEqual(upstream.build_dir(self.tmp, base, lean_x86, fixed).name,
                         'upstream-6.12-x86_64-lean-fixed')
        lean_config = f'--kunitconfig={upstream.LEAN_FRAGMENT}'
        self.assertTrue(upstream.LEAN_FRAGMENT.is_file())
        self.assertNotIn(lean_config, upstream.kunit_command(tree, 'run', x86, bdir, 2))
        run = upstream.kunit_command(tree, 'run', lean_x86, bdir, 2)
        self.assertIn(lean_config, run)
        self.assertIn('--kernel_args=tsc=reliable', run)
        boot = upstream.kunit_command(tree, 'exec', lean_x86, bdir, 2)
        self.assertNotIn(lean_config, boot)
        self.assertIn('--kernel_args=tsc=reliable', boot)
        arm_run = upstream.kunit_command(tree, 'run', lean_arm, bdir, 2)
        self.assertIn(lean_config, arm_run)
        self.assertFalse([a for a in arm_run if a.startswith('--kernel_args')])
        self.assertFalse([a for a in upstream.kunit_command(tree, 'run', x86, bdir, 2)
                          if a.startswith('--kernel_args')])

    def test_ci_passes(self) -> None:
        calls = []

        def fake_run(repo: Path, env: object, bases: List[upstream.Base],
                     arches: List[upstream.Arch], variants: List[upstream.Variant], runs: int,
                     jobs: int, text: bool, force: bool,
                     say: object) -> 'tuple[List[upstream.BaseResult], Path]':
            calls.append((bases[0].name, arches[0].name, [v.name for v in variants], runs,
                          text, arches[0].lean))
            if bases[0].name == '6.1':
                raise HarnessError('linux-source-6.1 not found')
            res = upstream.BaseResult(bases[0].name)
            res.checks = [CheckResult('checkpatch --strict (3 patches)', True)]
            res.runs = [self.variant(upstream.FIXED, {self.READER: ktap.PASS,
                                                      self.ITER: ktap.PASS}),
                        self.variant(upstream.UNFIXED, {self.READER: ktap.PASS,
                                                        self.ITER: ktap.FAIL})]
            return [res], self.tmp

        real = upstream.run
        upstream.run = fake_run
        try:
            found = upstream.ci_passes(self.tmp, {}, [('6.12', 'x86_64'), ('6.1', 'arm64')],
                                       2, lambda _m: None)
        finally:
            upstream.run = real
        ci = ['fixed', 'unfixed', 'head-unfixed']
        self.assertEqual(calls, [('6.12', 'x86_64', ci, 1, False, True),
                                 ('6.1', 'arm64', ci, 1, False, True)])
        first, second = found
        self.assertEqual((first.passed, first.failed, first.skipped), (3, 1, 0))
        self.assertFalse(first.ok())
        self.assertEqual(first.checks[0].name, 'upstream 6.12: checkpatch --strict (3 patches)')
        lines = upstream.ci_lines(first)
        self.assertEqual(lines[-1], '  upstream 6.12 x86_64: 3 passed, 1 failed, 0 skipped: '
                                    'FAILED')
        self.assertTrue(any('reader case' in line for line in lines))
        self.assertEqual((second.passed, second.failed), (0, 1))
        self.assertEqual(second.problems, ['6.1 arm64: linux-source-6.1 not found'])
        self.assertEqual(upstream.ci_summary(first)['failed'], 1)
