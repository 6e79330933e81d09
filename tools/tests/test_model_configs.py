"""tools/model_configs.py against model/lrb.pml: every mutation is a switch
of the model, named in its header comment, and pinned to a property."""

import re
import unittest
from pathlib import Path

import model_configs as mc

MODEL = Path(__file__).resolve().parent.parent.parent / 'model' / 'lrb.pml'


class MutationsTest(unittest.TestCase):
    def setUp(self) -> None:
        self.model = MODEL.read_text()
        self.all = mc.MUTATIONS + [m for m, _ in mc.UNREFUTED]

    def test_each_switch_is_a_variant_of_the_model(self) -> None:
        for m in self.all:
            self.assertRegex(self.model, rf'(#ifn?def|defined\() ?{m.switch}\b', m.name)

    def test_the_header_comment_lists_every_switch(self) -> None:
        header = self.model[:self.model.index('*/')]
        listed = set(re.findall(r'\bM_\w+', header))
        self.assertEqual(listed, {m.switch for m in self.all})

    def test_names_are_unique_and_found(self) -> None:
        names = [m.name for m in self.all]
        self.assertEqual(len(names), len(set(names)))
        self.assertEqual(mc.by_name('count_after_publish').switch, 'M_COUNT_AFTER_PUBLISH')
        with self.assertRaises(KeyError):
            mc.by_name('no_such_mutation')

    def test_every_mutation_names_a_property_and_its_c_end(self) -> None:
        for m in self.all:
            self.assertIn(m.breaks, mc.PROPERTIES, m.name)
            self.assertTrue(m.c_end, m.name)
        for m, why in mc.UNREFUTED:
            self.assertGreater(len(why), 40, m.name)

    def test_every_property_is_an_assertion_or_the_claim(self) -> None:
        code = re.sub(r'/\*.*?\*/', '', self.model, flags=re.S)
        for prop in mc.PROPERTIES.values():
            if prop.name == 'settles':
                self.assertIn('ltl settles', code)
                continue
            self.assertTrue(prop.pan.startswith('^assertion violated'), prop.name)

    def test_properties_match_what_pan_prints(self) -> None:
        p = mc.PROPERTIES
        self.assertTrue(p['all_counted'].broken_by(
            'assertion violated ((nread+overrun)==committed)'))
        self.assertFalse(p['all_counted'].broken_by('assertion violated (ent==oi)'))
        self.assertTrue(p['exact_loss'].broken_by(
            'assertion violated (lost_seen==((id-1)-nread_seen))'))
        self.assertFalse(p['exact_loss'].broken_by(
            'assertion violated (lost_seen<=((id-1)-nread_seen))'))
        self.assertTrue(p['quiet'].broken_by('assertion violated  !(quiet)'))
        self.assertTrue(p['slot_owner'].broken_by(
            'assertion violated ((own[(rp*2)]==0)&&(own[((rp*2)+1)]==0))'))
        self.assertTrue(p['settles'].broken_by('acceptance cycle (at depth 120)'))

    def test_count_after_publish_is_refuted_with_a_reader(self) -> None:
        # its trail is the reader taking an event published and not counted
        m = mc.by_name('count_after_publish')
        self.assertFalse(m.writer_only)
        self.assertTrue(m.shortest)
        self.assertEqual(m.breaks, 'entries')


class ConfigsTest(unittest.TestCase):
    def test_make_model_has_each_kind_of_configuration(self) -> None:
        kinds = [c.all_defines() for c in mc.CI]
        self.assertTrue(any(d['WEAK'] for d in kinds))
        self.assertTrue(any(d['ANYWHERE'] and d['DEPTH'] >= 2 for d in kinds))
        self.assertTrue(any(d['RDCPU'] for d in kinds))
        self.assertTrue(any(c.liveness for c in mc.CI))

    def test_names_are_unique(self) -> None:
        names = [c.name for c in mc.CI + mc.DEEP]
        self.assertEqual(len(names), len(set(names)))

    def test_weak_names(self) -> None:
        self.assertEqual(mc.weak_names(mc.W_VER | mc.W_OV), 'versions, overrun')
        self.assertEqual(mc.weak_names(mc.W_ALL), 'all')


if __name__ == '__main__':
    unittest.main()
