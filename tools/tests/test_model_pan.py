"""tools/model_pan.py on stored pan reports: figures, errors, completeness."""

import unittest
from pathlib import Path

import model_pan as mp

DATA = Path(__file__).resolve().parent / 'data' / 'model'


class PanReportTest(unittest.TestCase):
    def test_a_complete_search_without_errors(self) -> None:
        res = mp.parse((DATA / 'pan_ok.out').read_text())
        self.assertEqual((res.states, res.transitions, res.depth, res.errors),
                         (1132256, 1153677, 2961, 0))
        self.assertTrue(res.complete)
        self.assertTrue(res.ok)
        self.assertGreater(res.memory_mb, 100)
        self.assertIn('complete', mp.figures(res))

    def test_a_violation_is_named_and_fails(self) -> None:
        res = mp.parse((DATA / 'pan_error.out').read_text())
        self.assertEqual(res.errors, 3)
        self.assertEqual(res.violation, 'assertion violated ((nread+overrun)==committed)')
        self.assertFalse(res.ok)

    def test_the_last_of_several_violations_is_the_trail(self) -> None:
        text = ('pan:1: assertion violated (w<=2) (at depth 9)\n'
                'pan:7: assertion violated (id>last_id) (at depth 5)\n')
        self.assertEqual(mp.parse(text).violation, 'assertion violated (id>last_id)')

    def test_the_ltl_run_reports_its_states(self) -> None:
        res = mp.parse((DATA / 'pan_ltl.out').read_text())
        self.assertEqual(res.states, 707274)
        self.assertTrue(res.ok)

    def test_memory_limit_or_time_limit_is_not_exhaustive(self) -> None:
        text = (DATA / 'pan_ok.out').read_text()
        res = mp.parse('pan: reached -DMEMLIM bound\n' + text)
        self.assertFalse(res.complete)
        self.assertIn('NOT exhaustive', mp.figures(res))
        res = mp.parse(text)
        res.timed_out = True
        self.assertFalse(res.ok)
        self.assertIn('time limit', mp.figures(res))
        self.assertFalse(mp.parse('').ok)

    def test_flags_are_explicit_and_exhaustive(self) -> None:
        flags = mp.PAN_CFLAGS + mp.SAFETY_CFLAGS + mp.LIVENESS_CFLAGS
        self.assertNotIn('-DBITSTATE', flags)
        self.assertTrue(any(f.startswith('-DMEMLIM=') for f in flags))
        self.assertEqual(mp.define_args({'PAGES': 3, 'DEPTH': 1}), ['-DDEPTH=1', '-DPAGES=3'])


if __name__ == '__main__':
    unittest.main()
