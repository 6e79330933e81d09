"""make series without a kernel: what make test records, the cover letter
written from it, the subjects' check, and git am of the series onto the
base in the check worktree, on the small fake tree of the tree tests."""

import json
from pathlib import Path
from typing import Dict, List

from lrb_harness import coverletter, series, testrecord, tree
from lrb_harness.checks import CheckResult
from lrb_harness.errors import HarnessError
from lrb_harness.results import BootResult, CaseResult

from .helpers import TempDirTest, write
from .test_tree import TreeTestBase

TEMPLATE = '''lib: add a thing

About it.

@RESULTS@

Options:

@KUNITCONFIG@

Base: @KERNEL@.

@MAINTAINERS@
'''
FAKE_GET_MAINTAINER = '''#!/usr/bin/perl
print "Ring Keeper <rk\\@example.org> (maintainer:LOCKLESS RING BUFFER (LRB))\\n";
print "linux-kernel\\@vger.kernel.org (open list)\\n";
'''


def boot(target: str, passed: int, skipped: int, atomics: str) -> BootResult:
    cases = [CaseResult('lrb_api', f'c{i}', 'PASS') for i in range(passed)]
    cases += [CaseResult('lrb_irq', f'nmi{i}', 'SKIP') for i in range(skipped)]
    result = BootResult(target=target, cases=cases, cpus=4, atomics=atomics)
    result.count()
    return result


def recorded(results: Path) -> Path:
    """A make test of two passes with one failed harness check."""
    default = results / '20261204-100000-default'
    kcsan = results / '20261204-101000-kcsan'
    default.mkdir(parents=True)
    kcsan.mkdir()
    passes = [testrecord.Pass('default', default, [boot('x86_64', 3, 0, 'lock cmpxchg'),
                                                   boot('arm64-lse', 2, 1, 'LSE')]),
              testrecord.Pass('kcsan', kcsan, [boot('arm64-lse', 2, 1, 'LSE')])]
    found = [CheckResult('checkpatch --strict (4 patches)', True),
             CheckResult('sparse x86_64: 0 in the series and the tests, 3 in kernel files '
                         '(not ours)', True),
             CheckResult('W=1 arm64-default', False)]
    test = testrecord.section(passes, found, {'check': 20.4, 'run': 600.0}, 1623.2,
                              'linux-source-6.12 6.12.118-1~deb12u1', 'abc123def456')
    return testrecord.write(passes, test)


class RecordTest(TempDirTest):
    def test_make_test_lands_in_latest(self) -> None:
        summary = recorded(self.tmp / 'results')
        latest = self.tmp / 'results' / 'latest'
        self.assertEqual(latest.resolve(), summary.parent.resolve())
        data = json.loads((latest / 'summary.json').read_text())
        test = data['test']
        self.assertEqual((test['passed'], test['failed'], test['skipped']), (7, 1, 2))
        self.assertEqual([p['profile'] for p in test['passes']], ['default', 'kcsan'])
        self.assertEqual(test['elapsed_s'], 1623)
        self.assertEqual(data['passed'], 5)  # the default pass's own boots

    def test_upstream_passes_add_to_the_counts(self) -> None:
        ups = [{'name': 'upstream 6.12 x86_64', 'ok': False, 'passed': 15, 'failed': 1,
                'skipped': 0}]
        test = testrecord.section([], [], {}, 1.0, 'k', 'c', 'make test', ups)
        self.assertEqual((test['passed'], test['failed'], test['skipped']), (15, 1, 0))
        self.assertEqual(test['upstream'], ups)


class CoverLetterTest(TempDirTest):
    def test_figures_of_a_make_test(self) -> None:
        summary = testrecord.read(recorded(self.tmp / 'results'))
        text = '\n'.join(coverletter.results_lines(summary, 'x'))
        self.assertIn('make test of ', text)
        self.assertIn('(repository abc123def456, linux-source-6.12\n'
                      '6.12.118-1~deb12u1): 7 passed, 1 failed, 2 skipped in 27 min 3 s.', text)
        self.assertLessEqual(max(len(line) for line in text.splitlines()[:2]), 72)
        self.assertIn('  default  x86_64          3       0        0     4  lock cmpxchg', text)
        self.assertIn('  kcsan    arm64-lse       2       0        1     4  LSE', text)
        self.assertIn('Harness checks (2 of 3 clean):\n\n'
                      '  ok    checkpatch --strict (4 patches)\n', text)
        self.assertIn('  FAIL  W=1 arm64-default', text)
        self.assertIn('  suite    x86_64  arm64-lse\n'
                      '  lrb_api       3          2\n'
                      '  lrb_irq       0      0 +1s', text)

    def test_a_run_that_is_not_make_test_says_so(self) -> None:
        summary: Dict[str, object] = {'boots': [{'target': 'x86_64', 'passed': 3, 'failed': 0,
                                                 'skipped': 0, 'cpus': 4, 'atomics': 'x',
                                                 'cases': []}],
                                      'passed': 3, 'failed': 0, 'skipped': 0}
        text = '\n'.join(coverletter.results_lines(summary, '20261204-1-default'))
        self.assertIn('A run other than make test (20261204-1-default): 3 passed', text)

    def test_fill_and_git_letter(self) -> None:
        values = {'@KERNEL@': 'Linux 6.12.118', '@RESULTS@': '  figures',
                  '@KUNITCONFIG@': '\n'.join(coverletter.kunitconfig_lines(
                      '# comment\nCONFIG_KUNIT=y\n\nCONFIG_SMP=y\n')),
                  '@MAINTAINERS@': '  someone'}
        subject, body = coverletter.fill(TEMPLATE, values)
        self.assertEqual(subject, 'lib: add a thing')
        self.assertTrue(body.startswith('About it.\n\n  figures\n'))
        self.assertIn('  CONFIG_KUNIT=y\n  CONFIG_SMP=y\n', body)
        self.assertNotIn('comment', body)
        self.assertIn('Base: Linux 6.12.118.', body)
        git_letter = 'Subject: [PATCH 0/2] *** SUBJECT HERE ***\n\n*** BLURB HERE ***\n\nA (1):\n'
        letter = coverletter.into_git_letter(git_letter, subject, body)
        self.assertTrue(letter.startswith('Subject: [PATCH 0/2] lib: add a thing\n\nAbout it.'))
        self.assertTrue(letter.endswith('  someone\n\nA (1):\n'))
        with self.assertRaises(HarnessError):
            coverletter.fill(TEMPLATE, {'@KERNEL@': 'x'})


class SubjectTest(TempDirTest):
    def patch(self, subject: str) -> Path:
        path = self.tmp / f'{len(list(self.tmp.iterdir())):04d}-x.patch'
        path.write_text(f'From: A <a@b.c>\nSubject: [PATCH 1/4] {subject}\n\nBody.\n')
        return path

    def test_folded_subject_unfolded(self) -> None:
        text = 'Subject: [PATCH 2/4] lib/lockless_ring_buffer: add test hook points and a\n' \
               ' ring inspector\n\nBody\n'
        self.assertEqual(series.subject_of(text), 'lib/lockless_ring_buffer: add test hook '
                                                  'points and a ring inspector')

    def test_long_and_formless_subjects_named(self) -> None:
        good = self.patch('lib/lockless_ring_buffer: add KUnit suites')
        self.assertTrue(series.subject_check([good]).ok)
        long = self.patch('lib/lockless_ring_buffer: ' + 'x' * 60)
        bare = self.patch('Add the suites')
        res = series.subject_check([long, bare])
        self.assertFalse(res.ok)
        self.assertIn('86 characters', res.problems[0])
        self.assertIn('not "subsystem: summary": Add the suites', res.problems[1])


class SeriesTreeTest(TreeTestBase):
    def config(self, build: bool = True) -> series.SeriesConfig:
        prep = tree.prepare(self.cfg())
        write(prep.tree / 'scripts' / 'get_maintainer.pl', FAKE_GET_MAINTAINER)
        write(prep.tree / 'Makefile', 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 118\n')
        return series.config(self.repo, prep.tree, prep.version, None, build, 1,
                             {'HOME': str(self.tmp), 'XDG_CACHE_HOME': str(self.tmp / 'cache')},
                             self.logs.append)

    def written(self, cfg: series.SeriesConfig) -> List[Path]:
        files = series.format_patches(cfg.tree, cfg.head, cfg.out)
        series.write_cover_letter(cfg, files[0], files[1:])
        return files

    def test_cover_letter_with_figures_and_maintainers(self) -> None:
        self.make_series()
        write(self.repo / 'kernel-patch' / 'cover-letter.txt', TEMPLATE)
        write(self.repo / '.kunitconfig', 'CONFIG_KUNIT=y\n')
        recorded(self.repo / 'results')
        cfg = self.config()
        self.assertEqual(cfg.out, self.repo / 'results' / 'series')
        files = self.written(cfg)
        self.assertEqual([f.name for f in files], [
            '0000-cover-letter.patch', '0001-lib-a-returns-10.patch', '0002-x-X-is-2.patch',
            '0003-lib-add-the-suites.patch'])
        letter = files[0].read_text()
        self.assertIn('Subject: [PATCH 0/3] lib: add a thing', letter)
        self.assertIn('7 passed, 1 failed, 2 skipped in 27 min 3 s', letter)
        self.assertIn('  CONFIG_KUNIT=y', letter)
        self.assertIn("Base: Linux 6.12.118 (Debian's linux-source-6.12 6.12.99-1~test).",
                      letter)
        self.assertTrue(letter.split('\n')[1].startswith('From: Test Dev <dev@example.com>'))
        self.assertIn('  Ring Keeper <rk@example.org> (maintainer:LOCKLESS RING BUFFER', letter)
        self.assertIn('lib: add the suites', letter)  # git's shortlog stays
        self.assertIn('Subject: [PATCH 3/3] lib: add the suites', files[3].read_text())

    def test_no_make_test_no_letter(self) -> None:
        self.make_series()
        write(self.repo / 'kernel-patch' / 'cover-letter.txt', TEMPLATE)
        with self.assertRaises(HarnessError) as ctx:
            self.written(self.config())
        self.assertIn('run `make test` first', ctx.exception.message)

    def test_unexported_kunit_refused(self) -> None:
        self.make_series()
        write(self.repo / 'kunit' / 'Makefile', 'obj-y += other.o\n')
        tree.prepare(self.cfg())
        with self.assertRaises(HarnessError) as ctx:
            self.config()
        self.assertIn('make export', ctx.exception.message)
        self.assertIn('kunit/Makefile: differs from 0003-lib-add-the-suites.patch',
                      ctx.exception.message)

    def test_series_applies_to_the_base_in_its_worktree_twice(self) -> None:
        self.make_series()
        cfg = self.config()
        patches = series.format_patches(cfg.tree, cfg.head, cfg.out)[1:]
        for _attempt in range(2):  # the second run resets the worktree
            res = series.applies(cfg, patches)
            self.assertTrue(res.ok, res.problems)
        check = self.tmp / 'cache' / 'lrb' / 'series-check'
        self.assertEqual(res.name, f'git am onto lrb-base ({check})')
        self.assertIn('return 10;', (check / 'lib' / 'a.c').read_text())
        self.assertTrue((check / 'lib' / 'lrb_kunit' / 'lrb_api_test.c').is_file())
        broken = patches[1].read_text().replace('-#define X 1', '-#define X 7')
        patches[1].write_text(broken)
        res = series.applies(cfg, patches)
        self.assertFalse(res.ok)
        self.assertTrue(any('patch does not apply' in p for p in res.problems), res.problems)

    def test_build_command_is_stock_kunit(self) -> None:
        cmd = series.build_command(Path('/c/series-check'), Path('/repo'),
                                   Path('/c/build/series-x86_64'), 2)
        self.assertEqual(cmd[1:], ['/c/series-check/tools/testing/kunit/kunit.py', 'build',
                                   '--kunitconfig=/repo/.kunitconfig', '--arch=x86_64',
                                   '--build_dir=/c/build/series-x86_64', '--jobs=2'])
