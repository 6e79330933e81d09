"""Failure detection on sample kernel logs: crashes, warnings, sanitizers,
hangs, QEMU errors, missing KTAP, zero tests, CPU count, atomics."""

import unittest
from typing import Dict, List, Optional

from lrb_harness import logscan, results
from lrb_harness.kunitrun import Outcome
from lrb_harness.profiles import Profile, target

BOOT = [
    '[    0.000000] Linux version 6.12.118 (gcc 12)',
    '[    0.210000] smp: Brought up 1 node, 4 CPUs',
]
HEAD = [
    '[    1.000000] KTAP version 1',
    '[    1.000001] 1..1',
    '[    1.000002]     KTAP version 1',
    '[    1.000003]     # Subtest: lrb_api',
    '[    1.000004]     1..3',
]
CASE_A = ['[    1.100000]     ok 1 case_a']
CASE_B = ['[    1.200000]     ok 2 case_b']
CASE_C = ['[    1.300000]     ok 3 case_c']
TAIL = [
    '[    1.300001] # lrb_api: pass:3 fail:0 skip:0 total:3',
    '[    1.300002] ok 1 lrb_api',
    '[    1.300003] reboot: System halted',
]
EXPECTED = {'lrb_api': ['case_a', 'case_b', 'case_c']}


def log(*parts: List[str]) -> List[str]:
    return [line for part in parts for line in part]


def analyze(lines: List[str], tgt: str = 'x86_64', rc: int = 0,
            expected: Optional[Dict[str, List[str]]] = None, booted: bool = True,
            kunit_timeout: bool = False, watchdog: bool = False) -> results.BootResult:
    outcome = Outcome(returncode=rc, booted=booted, kunit_timeout=kunit_timeout,
                      watchdog=watchdog)
    return results.analyze(target(tgt), Profile('default'), outcome, lines,
                           EXPECTED if expected is None else expected)


class DetectionTest(unittest.TestCase):
    def test_clean_run_passes(self) -> None:
        res = analyze(log(BOOT, HEAD, CASE_A, CASE_B, CASE_C, TAIL))
        self.assertTrue(res.ok, res.errors)
        self.assertEqual((res.passed, res.failed, res.skipped), (3, 0, 0))
        self.assertEqual(res.cpus, 4)
        self.assertEqual(res.atomics, 'x86 lock cmpxchg')

    def assert_case_failed(self, res: results.BootResult, case: str, words: str) -> None:
        self.assertFalse(res.ok)
        failed = [c for c in res.cases if c.failed]
        self.assertEqual([c.case for c in failed], [case])
        self.assertTrue(any(words in r for r in failed[0].reasons), failed[0].reasons)
        self.assertTrue(res.log_tail)

    def test_warning_inside_a_passing_case_fails_that_case(self) -> None:
        warn = ['[    1.150000] WARNING: CPU: 2 PID: 77 at lib/lockless_ring_buffer.c:120 '
                'lrb_write+0x1/0x2',
                '[    1.150001] Call Trace:']
        res = analyze(log(BOOT, HEAD, CASE_A, warn, CASE_B, CASE_C, TAIL))
        self.assert_case_failed(res, 'case_b', 'WARNING: CPU: 2')
        self.assertEqual((res.passed, res.failed), (2, 1))

    def test_sanitizer_and_lockdep_reports(self) -> None:
        reports = {
            'kcsan': 'BUG: KCSAN: data-race in lrb_read / lrb_write',
            'kasan': 'BUG: KASAN: slab-out-of-bounds in lrb_write+0x10/0x20',
            'ubsan': 'UBSAN: shift-out-of-bounds in lib/lockless_ring_buffer.c:10:5',
            'kmemleak': 'kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)',
            'lockdep': 'WARNING: possible recursive locking detected',
            'lockdep2': 'WARNING: inconsistent lock state',
            'rcu': 'WARNING: suspicious RCU usage',
            'sleep': 'BUG: sleeping function called from invalid context at mm/slab.c:1',
            'oops': 'Oops: general protection fault, probably for non-canonical address',
            'bug': 'BUG: kernel NULL pointer dereference, address: 0000000000000008',
        }
        for name, text in reports.items():
            with self.subTest(report=name):
                res = analyze(log(BOOT, HEAD, [f'[    1.05] {text}'], CASE_A, CASE_B, CASE_C,
                                  TAIL))
                self.assert_case_failed(res, 'case_a', text.split(' (')[0][:30])

    def test_panic_mid_suite_names_the_running_case_from_sources(self) -> None:
        panic = ['[    1.150000] Unable to handle kernel NULL pointer dereference at virtual '
                 'address 0000000000000000',
                 '[    1.150001] Internal error: Oops: 0000000096000004 [#1] PREEMPT SMP',
                 '[    1.150002] Kernel panic - not syncing: Oops: Fatal exception']
        res = analyze(log(BOOT, HEAD, CASE_A, panic), tgt='arm64-lse', rc=1)
        self.assertFalse(res.ok)
        crashed = [c for c in res.cases if c.status == 'CRASHED']
        self.assertEqual([c.case for c in crashed], ['case_b', 'case_c'])
        self.assertTrue(any('Unable to handle kernel' in r for r in crashed[0].reasons))
        self.assertEqual(res.failed, 2)
        self.assertEqual(res.atomics, 'LL/SC')
        self.assertEqual(len(res.log_tail), len(log(BOOT, HEAD, CASE_A, panic)))

    def test_hang_reports_running_case(self) -> None:
        res = analyze(log(BOOT, HEAD, CASE_A), rc=1, kunit_timeout=True)
        self.assertTrue(any('hang' in e and 'lrb_api.case_b' in e for e in res.errors),
                        res.errors)
        self.assertGreaterEqual(res.failed, 1)

    def test_watchdog_kill_is_a_hang(self) -> None:
        res = analyze(log(BOOT, HEAD), rc=-9, watchdog=True)
        self.assertTrue(any(e.startswith('hang') for e in res.errors))

    def test_qemu_error_without_ktap(self) -> None:
        lines = ["qemu-system-aarch64: -cpu bogus: unable to find CPU model 'bogus'"]
        res = analyze(lines, tgt='arm64-llsc', rc=1)
        self.assertFalse(res.ok)
        self.assertTrue(any(e.startswith('QEMU error: qemu-system-aarch64: -cpu bogus')
                            for e in res.errors))
        self.assertTrue(any(e.startswith('no KTAP output') for e in res.errors))
        self.assertEqual(res.failed, 1)
        self.assertEqual(res.log_tail, lines)

    def test_qemu_warning_is_only_a_note(self) -> None:
        warn = ['qemu-system-x86_64: warning: TCG doesn\'t support requested feature']
        res = analyze(log(warn, BOOT, HEAD, CASE_A, CASE_B, CASE_C, TAIL))
        self.assertTrue(res.ok, res.errors)
        self.assertEqual(len(res.notes), 1)

    def test_zero_tests(self) -> None:
        lines = log(BOOT, ['[    1.0] KTAP version 1', '[    1.0] 1..0',
                           '[    1.1] reboot: System halted'])
        res = analyze(lines, rc=1)
        self.assertFalse(res.ok)
        self.assertTrue(any('zero tests' in e for e in res.errors), res.errors)
        self.assertEqual((res.passed, res.failed, res.skipped), (0, 1, 0))

    def test_wrong_cpu_count(self) -> None:
        lines = log([BOOT[0], '[    0.2] smp: Brought up 1 node, 1 CPU'], HEAD,
                    CASE_A, CASE_B, CASE_C, TAIL)
        res = analyze(lines)
        self.assertFalse(res.ok)
        self.assertTrue(any('brought up 1 CPUs, expected 4' in e for e in res.errors))

    def test_lse_detected(self) -> None:
        lines = log(BOOT, ['[    0.3] CPU features: detected: LSE atomic instructions'],
                    HEAD, CASE_A, CASE_B, CASE_C, TAIL)
        self.assertEqual(analyze(lines, tgt='arm64-lse').atomics, 'LSE')

    def test_build_failure(self) -> None:
        outcome = Outcome(returncode=1, booted=False,
                          output=['ERROR:root:lib/x.c:1:1: error: expected ;'])
        res = results.analyze(target('x86_64'), Profile('default'), outcome, [], {})
        self.assertFalse(res.ok)
        self.assertIn('before booting', res.errors[0])
        self.assertEqual(res.log_tail, outcome.output)

    def test_kunit_py_failure_without_explanation(self) -> None:
        res = analyze(log(BOOT, HEAD, CASE_A, CASE_B, CASE_C, TAIL), rc=1)
        self.assertFalse(res.ok)

    def test_report_outside_cases(self) -> None:
        res = analyze(log(BOOT, ['[    0.5] WARNING: CPU: 0 PID: 1 at init/main.c:1'],
                          HEAD, CASE_A, CASE_B, CASE_C, TAIL))
        self.assertFalse(res.ok)
        self.assertTrue(any('outside any test case' in e for e in res.errors))

    def test_announced_warning_is_not_a_report(self) -> None:
        lines = ['lrb-kunit: expect one WARNING at lrb_set_broken',
                 'WARNING: CPU: 1 PID: 9 at lib/lockless_ring_buffer.c:297 lrb_set_broken+0x2c/0x40']
        reports = logscan.find_reports(lines)
        self.assertEqual(logscan.without_expected(reports, lines), [])

    def test_announcement_covers_one_warning_of_its_function(self) -> None:
        lines = ['lrb-kunit: expect one WARNING at lrb_set_broken',
                 'WARNING: CPU: 1 PID: 9 at lib/x.c:1 other_fn+0x2c/0x40',
                 'WARNING: CPU: 1 PID: 9 at lib/x.c:2 lrb_set_broken+0x2c/0x40',
                 'WARNING: CPU: 1 PID: 9 at lib/x.c:2 lrb_set_broken+0x2c/0x40']
        kept = logscan.without_expected(logscan.find_reports(lines), lines)
        self.assertEqual([r.line for r in kept], [2, 4])

    def test_warning_before_its_announcement_stays(self) -> None:
        lines = ['WARNING: CPU: 1 PID: 9 at lib/x.c:2 lrb_set_broken+0x2c/0x40',
                 'lrb-kunit: expect one WARNING at lrb_set_broken']
        kept = logscan.without_expected(logscan.find_reports(lines), lines)
        self.assertEqual(len(kept), 1)

    def test_kernel_boot_race_before_the_tests_is_set_aside(self) -> None:
        lines = ['BUG: KCSAN: data-race in rcu_momentary_eqs / rcu_report_qs_rdp',
                 'BUG: KCSAN: data-race in lrb_reserve_event / lrb_reserve_event',
                 'KTAP version 1',
                 'BUG: KCSAN: data-race in rcu_momentary_eqs / rcu_report_qs_rdp']
        kept, aside = logscan.boot_races(logscan.find_reports(lines), lines)
        self.assertEqual([r.line for r in kept], [2, 4])
        self.assertEqual([r.line for r, _why in aside], [1])
        self.assertIn('rcu_need_heavy_qs', aside[0][1])

    def test_apic_calibration_race_at_boot_is_set_aside(self) -> None:
        """x86 without ACPI calibrates its APIC timer against the PIT tick."""
        title = 'BUG: KCSAN: data-race in lapic_cal_handler / setup_boot_APIC_clock'
        lines = [title, 'KTAP version 1', title]
        kept, aside = logscan.boot_races(logscan.find_reports(lines), lines)
        self.assertEqual([r.line for r in kept], [3])
        self.assertEqual([r.line for r, _why in aside], [1])
        self.assertIn('lapic_cal_loops', aside[0][1])

    def test_burst_of_trace_lines_is_one_report(self) -> None:
        lines = ['BUG: KCSAN: data-race in a / b', 'WARNING: also', 'BUG: again']
        self.assertEqual(len(logscan.first_per_burst(logscan.find_reports(lines))), 1)


if __name__ == '__main__':
    unittest.main()


class KunitSampleTest(unittest.TestCase):
    def test_kunit_py_panic_sample(self) -> None:
        from .helpers import DATA
        lines = (DATA / 'ktap' / 'kernel_panic_interrupt.log').read_text().splitlines()
        expected = {'string-stream-test': ['string_stream_test_empty_on_creation',
                                           'string_stream_test_not_empty_after_add',
                                           'string_stream_test_get_string']}
        res = analyze(lines, rc=1, expected=expected)
        self.assertFalse(res.ok)
        crashed = [c.full_name for c in res.cases if c.status == 'CRASHED']
        self.assertEqual(crashed, ['string-stream-test.string_stream_test_not_empty_after_add',
                                   'string-stream-test.string_stream_test_get_string'])
        self.assertEqual((res.passed, res.failed), (8, 2))
        self.assertEqual(res.log_tail, lines[-40:])


class RealBootTest(unittest.TestCase):
    """Logs of real boots of the harness (a throwaway suite of 1 + 3 params + 1 skip)."""

    def check(self, name: str, tgt: str, atomics: str) -> None:
        from .helpers import DATA
        lines = (DATA / 'logs' / name).read_text().splitlines()
        res = analyze(lines, tgt=tgt, expected={})
        self.assertTrue(res.ok, res.errors)
        self.assertEqual((res.passed, res.failed, res.skipped), (4, 0, 1))
        self.assertEqual(res.cpus, 4)
        self.assertEqual(res.atomics, atomics)

    def test_x86_64(self) -> None:
        self.check('x86_64-pass.log', 'x86_64', 'x86 lock cmpxchg')

    def test_arm64_lse(self) -> None:
        self.check('arm64-lse-pass.log', 'arm64-lse', 'LSE')

    def test_arm64_llsc(self) -> None:
        self.check('arm64-llsc-pass.log', 'arm64-llsc', 'LL/SC')


class CompilerOutputTest(unittest.TestCase):
    def test_w1_warning_with_context(self) -> None:
        from lrb_harness import checks
        output = '\n'.join([
            '  CC      lib/lrb_kunit/lrb_kunit_util.o',
            "lib/lrb_kunit/lrb_kunit_util.c: In function 'lrb_kunit_name':",
            "lib/lrb_kunit/lrb_kunit_util.c:500:48: warning: '%u' directive output may be "
            'truncated [-Wformat-truncation=]',
            '  500 |         snprintf(buf, sizeof(buf), "p%u", idx);',
            '      |                                ^~',
            '  AR      lib/lrb_kunit/built-in.a'])
        diags = checks.compiler_diagnostics(output)
        self.assertEqual(len(diags), 4)
        self.assertTrue(any('warning:' in d for d in diags))
        self.assertFalse(any(d.lstrip().startswith(('CC', 'AR')) for d in diags))
