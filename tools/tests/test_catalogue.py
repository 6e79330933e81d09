"""Unit tests of tools/scenarios_doc.py (no kernel build)."""

import importlib.util
import tempfile
import unittest
from pathlib import Path

_SPEC = importlib.util.spec_from_file_location(
    'scenarios_doc', Path(__file__).resolve().parents[1] / 'scenarios_doc.py')
assert _SPEC and _SPEC.loader
scenarios_doc = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(scenarios_doc)

LOG = """\
[    1.000000]     # lrb-scenario head_prev_not_trusted (ring-buffer-design.txt lines 003 patch, T N R, overwrite mode, CPU 2)
[    1.000001]     # lrb-step 1: the reader swapped  [writer 0 at reader_after_swap #1]
[    1.000002]     # CPU 2: head p2 tail p4 commit p4 reader p0, 0 writer(s) in flight
[    1.000003]     #         <---| p1 |-H->| p2 |--->
[    1.000004]     # expect: p0 -H-> p2 --> p3 --> p4 -->  staleprev=p2:p1  -> as drawn
[    1.000005]     # lrb-step 2: after  [writer 1 at tail_after #2]
[    1.000006]     # expect: p0 --> p2 -H-> p3 --> p4 -->  tail=p2  -> MISMATCH
[    1.000007]     not ok 17 head_prev_not_trusted
"""


class ParseTest(unittest.TestCase):
    def test_steps_drawings_and_verdicts(self) -> None:
        (s,) = scenarios_doc.parse(LOG)
        self.assertEqual(s.case, 'head_prev_not_trusted')
        self.assertEqual(s.doc_lines, '003 patch, T N R')
        self.assertEqual(s.mode, 'overwrite mode')
        self.assertEqual(s.result, 'FAIL')
        self.assertEqual([st.verdict for st in s.steps], ['as drawn', 'MISMATCH'])
        self.assertIn('<---| p1 |-H->| p2 |--->', '\n'.join(s.steps[0].lines))
        self.assertEqual(s.steps[1].where, 'writer 1 at tail_after #2')

    def test_no_scenario_is_an_error(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            log = Path(d) / 'empty.log'
            log.write_text('nothing here\n')
            self.assertEqual(scenarios_doc.main(['x', str(log), str(Path(d) / 'o.md')]), 2)
            self.assertEqual(scenarios_doc.main(['x', str(Path(d) / 'missing.log')]), 2)

    def test_render_has_table_and_diagrams(self) -> None:
        md = scenarios_doc.render(scenarios_doc.parse(LOG), 'x.log')
        self.assertIn('| head prev not trusted (003 patch, T N R) |', md)
        self.assertIn('```\nCPU 2: head p2', md)


if __name__ == '__main__':
    unittest.main()
