"""model/lrb.pml's step labels against the hook points of the series."""

import unittest
from pathlib import Path

import model_labels as ml

REPO = Path(__file__).resolve().parent.parent.parent
DATA = Path(__file__).resolve().parent / 'data' / 'model'


class LabelsTest(unittest.TestCase):
    def test_every_hook_point_is_a_label_and_back(self) -> None:
        points = ml.hook_points(REPO / 'kernel-patch')
        labels = ml.model_labels((REPO / 'model' / 'lrb.pml').read_text())
        self.assertGreater(len(points), 10)
        self.assertEqual(ml.mismatch(points, labels), [])

    def test_the_reader_swap_follows_lrb_swap_reader_page(self) -> None:
        # LRB_HOOK_READER_HEAD_FOUND comes after the walk and the "nothing
        # committed" check; then the version, the HEADER again, the overrun;
        # the busy return (the reader on the writers' CPU) after the spin
        code = ml.model_code((REPO / 'model' / 'lrb.pml').read_text())
        swap = [label for label in ml.labels_in_order(code)
                if label.startswith('LRB_HOOK_READER_') and label not in
                ('LRB_HOOK_READER_LOOK', 'LRB_HOOK_READER_PAGE', 'LRB_HOOK_READER_EVENTS')]
        self.assertEqual(swap, ['LRB_HOOK_READER_FIND', 'LRB_HOOK_READER_HEAD_FOUND',
                                'LRB_HOOK_READER_BEFORE_SWAP', 'LRB_HOOK_READER_SWAP_FAILED',
                                'LRB_HOOK_READER_SPIN', 'LRB_HOOK_READER_BUSY',
                                'LRB_HOOK_READER_AFTER_SWAP', 'LRB_HOOK_READER_DONE'])
        steps = ['RAT(READER_HEAD_FOUND)', 'lrb_show(RD, read_version)',
                 'lrb_show(RD, header_check)', 'lrb_show(RD, read_overrun)',
                 'RHOOK(READER_BEFORE_SWAP)', 'lrb_show(RD, swap)', 'lap_recheck:']
        where = [code.find(step) for step in steps]
        self.assertNotIn(-1, where)
        self.assertEqual(where, sorted(where))

    def test_the_commit_counts_before_each_index_is_stored(self) -> None:
        # lrb_set_commit_to_write(): the write index, lrb_count_committed()
        # (COMMIT_AFTER in its loop), the commit index; on every page
        code = ml.model_code((REPO / 'model' / 'lrb.pml').read_text())
        writer = code[code.index('proctype Writer'):]
        steps = ['HOOK(COMMIT_BEFORE)', 'commit_page:', 'w = widx[cp]', 'seen_claims = claims',
                 'count_committed()', 'WMB()', 'WSTA(cidx, cp, w)', 'WMB()', 'WST(commit, cp)',
                 'goto commit_page']
        where, at = [], 0
        for step in steps:
            at = writer.find(step, at)
            where.append(at)
        self.assertNotIn(-1, where)
        self.assertEqual(where, sorted(where))
        count = code[code.index('inline count_committed'):code.index('proctype Writer')]
        self.assertIn('HOOK(COMMIT_AFTER)', count)
        self.assertLess(count.index('WST_COUNT(seen_claims - seen_cross)'),
                        count.index('check_entries()'))

    def test_every_barrier_of_the_model_is_marked(self) -> None:
        # the writers' smp_wmb()s publish pending stores; the reader's read
        # barriers end a window of floating loads (fl_reset())
        code = ml.model_code((REPO / 'model' / 'lrb.pml').read_text())
        writer = code[code.index('proctype Writer'):code.index('proctype Reader')]
        reader = code[code.index('proctype Reader'):code.index('proctype Loads')]
        # before each commit index (and its two variants of the mutations
        # that keep only the tail page's or the loop's), before the commit
        # page moves, at the end
        self.assertEqual(writer.count('WMB()'), 5)
        for window in ('M_NO_RMB_LOOK', 'M_NO_RMB_SIZE', 'M_NO_RMB_WALK', 'M_NO_RMB_VERSION',
                       'M_NO_RMB_HEADER', 'M_SWAP_RELAXED', 'M_NO_RMB_READ_PAGE'):
            self.assertIn(window, reader)

    def test_a_later_patch_adding_and_removing_points_is_followed(self) -> None:
        points = ml.hook_points(DATA / 'series')
        self.assertEqual(points, {'LRB_HOOK_STAMP', 'LRB_HOOK_READER_LOOK'})

    def test_labels_come_from_code_not_comments_or_macros(self) -> None:
        model = ('/* HOOK(IN_COMMENT) */\n#define HOOK(P) \\\nLRB_HOOK_##P: \\\n\tskip\n'
                 'HOOK(STAMP);\nRHOOK(READER_SPIN);\n')
        self.assertEqual(ml.model_labels(model), {'LRB_HOOK_STAMP', 'LRB_HOOK_READER_SPIN'})

    def test_mismatch_names_both_directions(self) -> None:
        found = ml.mismatch({'LRB_HOOK_A', 'LRB_HOOK_B'}, {'LRB_HOOK_B', 'LRB_HOOK_C'})
        self.assertEqual(len(found), 2)
        self.assertIn('LRB_HOOK_A: hook point without a label', found[0])
        self.assertIn('LRB_HOOK_C: label of model/lrb.pml that names no hook point', found[1])


if __name__ == '__main__':
    unittest.main()
