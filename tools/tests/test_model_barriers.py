"""The barrier table: its C ends found in the series, its model ends in
model/lrb.pml, each with a mutation that tools/model_configs.py knows."""

import unittest
from pathlib import Path

import model_barriers as mb
import model_configs as mc

REPO = Path(__file__).resolve().parent.parent.parent

C_SOURCE = '''\
static void lrb_writer(struct lrb *cb)
{
	/* smp_wmb() in a comment is no barrier */
	smp_wmb();
	WRITE_ONCE(cb->x, 1);
	smp_wmb();
}

static int
lrb_reader(struct lrb *cb)
{
	smp_rmb();
	return READ_ONCE(cb->x);
}
'''

MODEL = '''\
	atomic {
#ifndef M_NO_WMB
		WMB();
#endif
#ifndef M_FAR
		a = 1;
		b = 2;
		c = 3;
		d = 4;
		fl_reset();
#endif
	}
'''


class FindTest(unittest.TestCase):
    def barrier(self, function: str, call: str, nth: int) -> mb.Barrier:
        return mb.Barrier('k', function, call, nth, '', (), (), '')

    def test_the_nth_call_in_its_function_comments_left_out(self) -> None:
        self.assertEqual(mb.find(C_SOURCE, self.barrier('lrb_writer', 'smp_wmb(', 1)), 4)
        self.assertEqual(mb.find(C_SOURCE, self.barrier('lrb_writer', 'smp_wmb(', 2)), 6)
        self.assertIsNone(mb.find(C_SOURCE, self.barrier('lrb_writer', 'smp_wmb(', 3)))
        # the return type on the line before the name
        self.assertEqual(mb.find(C_SOURCE, self.barrier('lrb_reader', 'smp_rmb(', 1)), 12)

    def test_a_barrier_call_in_no_row_is_reported(self) -> None:
        found = {(name, call) for _, name, call in mb.unlisted(C_SOURCE)}
        self.assertEqual(found, {('lrb_writer', 'smp_wmb'), ('lrb_reader', 'smp_rmb')})


class ModelLineTest(unittest.TestCase):
    def test_the_barrier_statement_below_its_switch(self) -> None:
        self.assertEqual(mb.model_line(MODEL, '#ifndef M_NO_WMB'), 3)

    def test_too_far_below_its_switch_is_not_found(self) -> None:
        self.assertIsNone(mb.model_line(MODEL, '#ifndef M_FAR'))
        self.assertIsNone(mb.model_line(MODEL, 'M_NOWHERE'))


class TableTest(unittest.TestCase):
    def test_every_row_has_both_ends_pairs_and_mutations(self) -> None:
        source = mb.source_from_series()
        model = (REPO / 'model' / 'lrb.pml').read_text()
        keys = {b.key for b in mb.BARRIERS}
        for b in mb.BARRIERS:
            with self.subTest(barrier=b.key):
                self.assertIsNotNone(mb.find(source, b))
                self.assertIsNotNone(mb.model_line(model, b.model))
                self.assertTrue(b.pairs)
                self.assertLessEqual(set(b.pairs), keys)
                for name in b.mutations:
                    switch = mc.by_name(name).switch
                    self.assertIn(switch, model)
        self.assertEqual(mb.unlisted(source), [])

    def test_pairs_are_named_at_both_ends(self) -> None:
        by_key = {b.key: b for b in mb.BARRIERS}
        for b in mb.BARRIERS:
            for other in b.pairs:
                with self.subTest(barrier=b.key, pair=other):
                    self.assertIn(b.key, by_key[other].pairs)

    def test_the_table_has_a_row_per_barrier(self) -> None:
        source = mb.source_from_series()
        model = (REPO / 'model' / 'lrb.pml').read_text()
        rows = mb.table(source, model)
        self.assertEqual(len(rows), 2 + len(mb.BARRIERS))
        self.assertTrue(all(row.count(' | ') == 6 for row in rows[2:]))


if __name__ == '__main__':
    unittest.main()
