"""tools/planted_bugs.py without a kernel: plant selection and source edits."""

import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

import planted_bugs
from lrb_harness import paths, tree
from lrb_harness.errors import HarnessError


class PlantTest(unittest.TestCase):
    def test_a_plant_edits_its_text_once(self) -> None:
        plant = planted_bugs.PLANTS[0]
        text = 'before\n' + plant.old + 'after\n'
        self.assertEqual(planted_bugs.planted(text, plant), 'before\n' + plant.new + 'after\n')

    def test_missing_or_repeated_text_is_an_error(self) -> None:
        plant = planted_bugs.PLANTS[0]
        for text in ('nothing here\n', plant.old * 2):
            with self.assertRaises(HarnessError) as ctx:
                planted_bugs.planted(text, plant)
            self.assertIn(plant.name, ctx.exception.message)

    def test_every_edit_of_a_plant_is_made_and_each_must_be_found(self) -> None:
        plant = planted_bugs.Plant('two', 'a bug in two places', 'default', 'x86_64', ['x'],
                                   'a\n', 'A\n', 'r', more=(('b\n', ''),))
        self.assertEqual(planted_bugs.planted('a\nc\nb\n', plant), 'A\nc\n')
        with self.assertRaises(HarnessError) as ctx:
            planted_bugs.planted('a\nc\n', plant)
        self.assertIn('two', ctx.exception.message)

    def test_selection(self) -> None:
        self.assertEqual(planted_bugs.select_plants([]), planted_bugs.ALL_PLANTS)
        name = planted_bugs.PLANTS[-1].name
        self.assertEqual([p.name for p in planted_bugs.select_plants([name])], [name])
        with self.assertRaises(HarnessError) as ctx:
            planted_bugs.select_plants(['nope'])
        self.assertIn('valid: ' + planted_bugs.PLANTS[0].name, ctx.exception.message)

    def test_a_name_given_twice_runs_once(self) -> None:
        first, second = planted_bugs.ALL_PLANTS[0].name, planted_bugs.ALL_PLANTS[1].name
        self.assertEqual([p.name for p in planted_bugs.select_plants([second, first, second])],
                         [second, first])

    def test_every_plant_is_complete(self) -> None:
        names = [p.name for p in planted_bugs.ALL_PLANTS]
        self.assertEqual(len(names), len(set(names)))
        for plant in planted_bugs.ALL_PLANTS:
            self.assertNotEqual(plant.old, plant.new)
            self.assertTrue(plant.expect_caught or plant.why_not, plant.name)

    @unittest.skipUnless(shutil.which('git'), 'needs git apply')
    def test_every_plant_matches_the_series(self) -> None:
        # The file the plants edit, rebuilt from kernel-patch/ alone (no tree)
        series = Path(__file__).resolve().parents[2] / 'kernel-patch'
        source = 'lib/lockless_ring_buffer.c'
        with tempfile.TemporaryDirectory() as tmp:
            for name in tree.series_names(series):
                subprocess.run(['git', 'apply', '--include=' + source, str(series / name)],
                               cwd=tmp, check=True, capture_output=True)
            text = (Path(tmp) / source).read_text()
        for plant in planted_bugs.ALL_PLANTS:
            if plant.source == source:
                self.assertEqual(text.count(plant.old), 1, plant.name)

    def test_every_kernel_plant_matches_the_prepared_tree(self) -> None:
        # Kernel files are patched, not created, by the series: the tree has them
        prepared = paths.tree_dir()
        others = [p for p in planted_bugs.ALL_PLANTS if p.source != planted_bugs.SOURCE]
        self.assertTrue(others)
        if not (prepared / planted_bugs.KERNEL_RB).is_file():
            self.skipTest(f'no prepared tree at {prepared}')
        for plant in others:
            text = (prepared / plant.source).read_text()
            self.assertEqual(text.count(plant.old), 1, plant.name)

    def test_every_model_trail_names_a_plant(self) -> None:
        trails = (Path(__file__).resolve().parents[2] / 'kunit' /
                  'lrb_nesting_trails.h').read_text()
        names = {p.name for p in planted_bugs.ALL_PLANTS}
        plants = re.findall(r'\.plant = "(\w*)"', trails)
        self.assertTrue(plants)
        for plant in plants:
            self.assertIn(plant, names)

    def test_every_model_plant_waits_for_its_own_trail(self) -> None:
        trails = (Path(__file__).resolve().parents[2] / 'kunit' /
                  'lrb_nesting_trails.h').read_text()
        pairs = re.findall(r'\.name = "(\w+)", \.plant = "(\w*)"', trails)
        self.assertTrue(pairs)
        for plant in planted_bugs.MODEL_PLANTS:
            own = [name for name, p in pairs if p == plant.name]
            self.assertTrue(own, plant.name)
            self.assertRegex(f'    not ok 1 {own[0]}', plant.report)

    def test_first_report(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            log = Path(tmp) / 'x.log'
            log.write_text('[ 1.0] ok\n[ 2.0] BUG: KCSAN: data-race in lrb_foo / lrb_bar\n')
            self.assertIn('lrb_foo', planted_bugs.first_report([log], planted_bugs.PLANTS[0].report))
            self.assertEqual(planted_bugs.first_report([log], r'unreferenced object'), '')

    def test_caught_needs_every_also(self) -> None:
        plant = next(p for p in planted_bugs.ALL_PLANTS if p.also)
        self.assertTrue(planted_bugs.Outcome(plant, True, 'x: EXPECTATION FAILED').caught)
        missing = planted_bugs.Outcome(plant, True, 'x: EXPECTATION FAILED', [plant.also[0]])
        self.assertFalse(missing.caught)
        self.assertFalse(planted_bugs.Outcome(plant, False, 'x: EXPECTATION FAILED').caught)

    def test_also_names_cases_that_exist(self) -> None:
        kunit = Path(__file__).resolve().parents[2] / 'kunit'
        cases = set(re.findall(r'KUNIT_CASE\w*\((\w+)', ''.join(
            f.read_text() for f in kunit.glob('*.c'))))
        for plant in planted_bugs.ALL_PLANTS:
            for pat in plant.also:
                named = re.match(r'\\b(\w+): ', pat)
                self.assertIsNotNone(named, plant.name)
                assert named is not None
                self.assertIn(named.group(1), cases, plant.name)


if __name__ == '__main__':
    unittest.main()
