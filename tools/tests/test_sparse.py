"""make check's sparse step without a kernel: sparse's output read, every
diagnostic once, ours told from the kernel's own by the file it is in."""

import unittest
from pathlib import Path

from lrb_harness import sparse
from lrb_harness.profiles import parse_arches

TREE = Path('/cache/lrb/linux-source-6.12')
OUTPUT = f'''\
  CHECK   {TREE}/lib/lockless_ring_buffer.c
{TREE}/include/linux/rcupdate.h:869:9: warning: context imbalance in 'x' - unexpected unlock
{TREE}/lib/lockless_ring_buffer.c:120:6: warning: symbol 'lrb_planted' was not declared. Should it be static?
  CHECK   {TREE}/lib/lrb_kunit/lrb_api_kunit.c
{TREE}/include/linux/rcupdate.h:869:9: warning: context imbalance in 'x' - unexpected unlock
{TREE}/lib/lrb_kunit/lrb_api_kunit.c:88:24: warning: incorrect type in assignment (different address spaces)
{TREE}/lib/lrb_kunit/lrb_api_kunit.c:88:24:    expected void *p
{TREE}/lib/lrb_kunit/lrb_api_kunit.c:88:24:    got void [noderef] __percpu *
./include/generated/autoconf.h:3:1: warning: something generated
{TREE}/lib/lrb_bench/lrb_bench_ops.c:10:1: error: bad constant expression
'''
OWN = ['include/linux/lockless_ring_buffer.h', 'lib/lockless_ring_buffer.c']


class ParseTest(unittest.TestCase):
    def test_paths_relative_to_the_tree_and_each_once(self) -> None:
        diags = sparse.parse(OUTPUT, TREE)
        self.assertEqual([d.path for d in diags], [
            'include/linux/rcupdate.h', 'lib/lockless_ring_buffer.c',
            'lib/lrb_kunit/lrb_api_kunit.c', 'include/generated/autoconf.h',
            'lib/lrb_bench/lrb_bench_ops.c'])

    def test_continuation_lines_join_their_message(self) -> None:
        diag = sparse.parse(OUTPUT, TREE)[2]
        self.assertEqual(diag.text, 'incorrect type in assignment (different address spaces)'
                         ' / expected void *p / got void [noderef] __percpu *')
        self.assertEqual(str(diag).split(': ')[0], 'lib/lrb_kunit/lrb_api_kunit.c:88:24')

    def test_make_progress_and_gcc_notes_are_not_diagnostics(self) -> None:
        self.assertEqual(sparse.parse('  CHECK   lib/x.c\n  CC      lib/x.o\n'
                                      "lib/x.c: In function 'f':\n", TREE), [])


class VerdictTest(unittest.TestCase):
    def test_ours_fail_and_the_kernels_are_listed_after(self) -> None:
        res = sparse.verdict('sparse x86_64', sparse.parse(OUTPUT, TREE), OWN)
        self.assertFalse(res.ok)
        self.assertEqual(res.name, 'sparse x86_64: 3 in the series and the tests, '
                         '2 in kernel files (not ours)')
        self.assertTrue(res.problems[0].startswith('lib/lockless_ring_buffer.c:120:6: warning:'))
        self.assertTrue(res.problems[1].startswith('lib/lrb_kunit/lrb_api_kunit.c:88:24'))
        self.assertTrue(res.problems[2].startswith('lib/lrb_bench/lrb_bench_ops.c:10:1: error'))
        self.assertEqual(res.problems[3:], [
            "not ours: include/linux/rcupdate.h:869:9: warning: context imbalance in 'x' "
            '- unexpected unlock',
            'not ours: include/generated/autoconf.h:3:1: warning: something generated'])

    def test_kernel_warnings_alone_pass(self) -> None:
        text = f'{TREE}/include/linux/rcupdate.h:869:9: warning: context imbalance\n'
        res = sparse.verdict('sparse arm64', sparse.parse(text, TREE), OWN)
        self.assertTrue(res.ok)
        self.assertEqual(res.name, 'sparse arm64: 0 in the series and the tests, '
                         '1 in kernel files (not ours)')

    def test_our_header_counts_as_ours(self) -> None:
        text = f'{TREE}/include/linux/lockless_ring_buffer.h:5:1: warning: bad\n'
        self.assertFalse(sparse.verdict('s', sparse.parse(text, TREE), OWN).ok)


class CommandTest(unittest.TestCase):
    def test_arm64_cross_compiles_with_the_targets_options(self) -> None:
        tgt = parse_arches(['arm64-lse'])[0]
        build = Path('/cache/lrb/build/arm64-sparse')
        config = sparse.configure_command(Path('/repo'), TREE, tgt, build)
        self.assertIn('config', config)
        self.assertIn('--kunitconfig=/repo/.kunitconfig', config)
        self.assertIn('--cross_compile=aarch64-linux-gnu-', config)
        self.assertIn('--qemu_config=/repo/tools/qemu_configs/arm64-lse.py', config)
        make = sparse.make_command(TREE, tgt, build, 2)
        self.assertEqual(make[:6], ['make', '-C', str(TREE), f'O={build}', 'ARCH=arm64',
                                    'CROSS_COMPILE=aarch64-linux-gnu-'])
        self.assertEqual(make[-1], '-j2')
