"""tools/model_trail.py on stored spin -t output: steps and their drawing."""

import unittest
from pathlib import Path

import model_trail as mt

DATA = Path(__file__).resolve().parent / 'data' / 'model'


class TrailTest(unittest.TestCase):
    def setUp(self) -> None:
        self.steps = mt.parse((DATA / 'trail_no_stale_reset.txt').read_text())

    def test_steps_are_read(self) -> None:
        self.assertEqual(len(self.steps), 136)
        first = self.steps[0]
        self.assertEqual((first.who, first.kind, first.size), (0, 'write', 2))
        nests = [s for s in self.steps if s.kind == 'nest']
        self.assertEqual([(s.who, s.what) for s in nests],
                         [(0, 'HEAD_UPDATE_AFTER'), (0, 'HEAD_UPDATE_AFTER')])
        state = self.steps[1]
        self.assertEqual(len(state.pages), 4)
        self.assertEqual(state.fields['t'], 1)

    def test_the_empty_ring_is_drawn_as_the_design_document_does(self) -> None:
        line = mt.render(self.steps)[2]
        self.assertIn('LRB_HOOK_STAMP', line)
        self.assertIn('p1 --> p2 --> p3 -H->', line)
        self.assertIn('head=p1 tail=p1 commit=p1 reader=p0 (p0 --> p1)', line)

    def test_update_and_nesting_are_drawn(self) -> None:
        lines = mt.render(self.steps)
        self.assertTrue(any('p1 --> p2 --> p3 -U->' in ln for ln in lines))
        self.assertIn('w0  interrupted at LRB_HOOK_HEAD_UPDATE_AFTER: w1 starts', lines)
        self.assertIn('w1  writes an event of 1 slot', lines)

    def test_the_reader_is_named(self) -> None:
        steps = mt.parse((DATA / 'trail_kernel_reader_order.txt').read_text())
        reader = [s for s in steps if s.who == mt.READER]
        self.assertTrue(reader)
        self.assertTrue(mt.render([reader[0]])[1].startswith('rd  '))

    def test_padding_and_commit_show_in_the_pages(self) -> None:
        page = (2, 0, 2, 1, 4, mt.PAD)
        self.assertEqual(mt.slots(page), '[4 #]2/1')

    def test_other_lines_are_ignored(self) -> None:
        self.assertIsNone(mt.parse_line('spin: trail ends after 5 steps'))
        self.assertIsNone(mt.parse_line('LRB x y'))


if __name__ == '__main__':
    unittest.main()
