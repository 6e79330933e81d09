"""Unit tests of the scenario catalogue (lrb_harness.catalogue, tools/scenarios_doc.py)."""

import importlib.util
import tempfile
import unittest
from pathlib import Path

from lrb_harness import catalogue, checks

_SPEC = importlib.util.spec_from_file_location(
    'scenarios_doc', Path(__file__).resolve().parents[1] / 'scenarios_doc.py')
assert _SPEC and _SPEC.loader
scenarios_doc = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(scenarios_doc)

LOG = """\
[    1.000000]     # lrb-scenario head_prev_not_trusted (kernel/trace/ring_buffer.c, lines 1223-1250; overwrite mode; boxes from p4)
[    1.000001]     # lrb-step 1: the reader swapped  [reader at reader_after_swap #1]  (rst text 571-576)
[    1.000002]     # CPU 2: head p2 tail p4 commit p4 reader p0, 0 writer(s) in flight
[    1.000003]     #         <---| p1 |-H->| p2 |--->
[    1.000004]     # expect: p4 --> p0 -H-> p2 --> p3 -->  staleprev=p2:p1 tail=p4  -> as drawn
[    1.000005]     # lrb-step 2: after  [nested writer 1 at tail_after #2]  (rst 606-612)
[    1.000006]     # expect:   p2.write=12 overrun=1  -> MISMATCH
[    1.000007]     # read back 4 events in order, payloads intact, loss reported
[    1.000008]     not ok 17 head_prev_not_trusted
[    2.000000]     # lrb-scenario head_prev_not_trusted [kernel] (kernel/trace/ring_buffer.c, lines 1223-1250; overwrite mode; boxes from p4)
[    2.000001]     # lrb-step 1: the reader swapped  [reader at reader_after_swap #1]  (rst text 571-576)
[    2.000002]     # CPU 3: head p2 tail p4 commit p4 reader p0, 0 writer(s) in flight
[    2.000003]     # kernel differs: an 8-byte payload takes 16 bytes
[    2.000004]     # expect:   p2.write=16  -> as drawn
[    2.000005]     ok 17 head_prev_not_trusted
"""


class ParseTest(unittest.TestCase):
    def test_steps_drawings_and_verdicts(self) -> None:
        s, k = catalogue.parse(LOG)
        self.assertEqual((s.impl, k.impl), ('lrb', 'kernel'))
        self.assertEqual(s.case, 'head_prev_not_trusted')
        self.assertEqual(s.where, 'kernel/trace/ring_buffer.c, lines 1223-1250')
        self.assertEqual(s.mode, 'overwrite')
        self.assertEqual(s.first_box, 'p4')
        self.assertEqual(s.result, 'FAIL')
        self.assertEqual([st.verdict for st in s.steps], ['as drawn', 'MISMATCH'])
        self.assertEqual([st.cite for st in s.steps], ['rst text 571-576', 'rst 606-612'])
        self.assertIn('<---| p1 |-H->| p2 |--->', '\n'.join(s.steps[0].lines))
        self.assertEqual(s.steps[1].where, 'nested writer 1 at tail_after #2')
        self.assertTrue(s.read_back.startswith('read back 4 events'))

    def test_kernel_steps_keep_why_they_differ(self) -> None:
        _, k = catalogue.parse(LOG)
        self.assertEqual(k.result, 'pass')
        self.assertEqual(k.steps[0].differs, 'an 8-byte payload takes 16 bytes')
        self.assertEqual(k.steps[0].expect, 'p2.write=16')
        self.assertNotIn('kernel differs', '\n'.join(k.steps[0].lines))

    def test_cpu_numbers_are_not_part_of_the_drawing(self) -> None:
        s, _ = catalogue.parse(LOG)
        self.assertEqual(s.steps[0].lines[0], 'CPU n: head p2 tail p4 commit p4 reader p0, '
                                              '0 writer(s) in flight')

    def test_what_a_step_checks_comes_from_its_expect_line(self) -> None:
        s, _ = catalogue.parse(LOG)
        self.assertEqual(s.steps[0].kinds, ['ring pointers and flags', 'page roles',
                                            'stale prev pointer'])
        self.assertEqual(s.steps[1].kinds, ['page indexes', 'counters'])
        self.assertEqual(catalogue.expect_kinds(''), [])
        self.assertEqual(catalogue.expect_kinds('rnext=p2 rule=p1 nrH=2'),
                         ['reader page pointers', 'reader-page rule', 'flag counts'])

    def test_no_scenario_is_an_error(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            lrb_only = Path(d) / 'lrb.log'
            lrb_only.write_text(LOG.split('[    2.000000]')[0])
            self.assertEqual(scenarios_doc.main(['x', str(lrb_only), str(Path(d) / 'o.md')]), 2)
            self.assertFalse((Path(d) / 'o.md').exists())
            log = Path(d) / 'empty.log'
            log.write_text('nothing here\n')
            self.assertEqual(scenarios_doc.main(['x', str(log), str(Path(d) / 'o.md')]), 2)
            self.assertEqual(scenarios_doc.main(['x', str(Path(d) / 'missing.log')]), 2)

    def test_render_has_table_citations_and_diagrams(self) -> None:
        md = catalogue.render(catalogue.parse(LOG))
        self.assertIn('| head prev not trusted | kernel/trace/ring_buffer.c, lines 1223-1250 | '
                      '`lrb_design.head_prev_not_trusted` | overwrite | 2 states: ring pointers '
                      'and flags, page roles, stale prev pointer, page indexes, counters; '
                      'events read back (payloads, order, time stamps, losses) | FAIL | pass '
                      '| 1 of 1 steps |', md)
        self.assertIn("### On the kernel's buffer (`lrb_design_kernel.head_prev_not_trusted`)", md)
        self.assertIn('#### Step 1 (rst text 571-576): the reader swapped\n\n'
                      'Kernel differs: an 8-byte payload takes 16 bytes.', md)
        self.assertIn('### Step 1 (rst text 571-576): the reader swapped', md)
        self.assertIn('Who: reader at reader_after_swap #1.', md)
        self.assertIn('```\nCPU n: head p2', md)

    def test_differences_name_the_changed_lines(self) -> None:
        self.assertEqual(catalogue.differences('a\nb\n', 'a\nb\n'), [])
        diff = catalogue.differences('a\nb\n', 'a\nc\n')
        self.assertIn('-b', diff)
        self.assertIn('+c', diff)
        self.assertEqual(len(catalogue.differences('\n'.join(map(str, range(200))), '', 5)), 6)


class CurrentTest(unittest.TestCase):
    def test_a_stale_catalogue_fails_and_the_run_writes_its_own(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            repo, out = Path(d) / 'repo', Path(d) / 'out'
            (repo / 'docs').mkdir(parents=True)
            out.mkdir()
            log = Path(d) / 'x86_64.log'
            log.write_text(LOG)
            (repo / 'docs' / 'scenarios.md').write_text('an old catalogue\n')
            res = checks.scenarios_current(repo, out, log)
            self.assertFalse(res.ok)
            self.assertIn('make scenarios-doc', res.problems[0])
            self.assertIn('-an old catalogue', res.problems)
            (repo / 'docs' / 'scenarios.md').write_text((out / 'scenarios.md').read_text())
            self.assertTrue(checks.scenarios_current(repo, out, log).ok)

    def test_a_log_without_scenarios_fails(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            log = Path(d) / 'x86_64.log'
            log.write_text('no kunit here\n')
            self.assertFalse(checks.scenarios_current(Path(d), Path(d), log).ok)

    def test_a_log_without_the_kernel_suite_fails(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            log = Path(d) / 'x86_64.log'
            log.write_text(LOG.split('[    2.000000]')[0])
            res = checks.scenarios_current(Path(d), Path(d), log)
            self.assertFalse(res.ok)
            self.assertIn('no lrb_design_kernel scenario', res.problems[0])


if __name__ == '__main__':
    unittest.main()
