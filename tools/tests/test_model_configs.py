"""tools/model_configs.py against model/lrb.pml: every mutation is a switch
of the model, named in its header comment."""

import re
import unittest
from pathlib import Path

import model_configs as mc

MODEL = Path(__file__).resolve().parent.parent.parent / 'model' / 'lrb.pml'


class MutationsTest(unittest.TestCase):
    def setUp(self) -> None:
        self.model = MODEL.read_text()

    def test_each_switch_is_a_variant_of_the_model(self) -> None:
        for m in mc.MUTATIONS:
            self.assertRegex(self.model, rf'#ifn?def {m.switch}\b', m.name)

    def test_the_header_comment_lists_every_switch(self) -> None:
        header = self.model[:self.model.index('*/')]
        listed = set(re.findall(r'\bM_\w+', header))
        self.assertEqual(listed, {m.switch for m in mc.MUTATIONS})

    def test_names_are_unique_and_found(self) -> None:
        names = [m.name for m in mc.MUTATIONS]
        self.assertEqual(len(names), len(set(names)))
        self.assertEqual(mc.by_name('count_after_publish').switch, 'M_COUNT_AFTER_PUBLISH')
        with self.assertRaises(KeyError):
            mc.by_name('no_such_mutation')

    def test_count_after_publish_is_refuted_with_a_reader(self) -> None:
        # its trail is the reader taking an event published and not counted
        m = mc.by_name('count_after_publish')
        self.assertFalse(m.writer_only)
        self.assertTrue(m.shortest)


if __name__ == '__main__':
    unittest.main()
