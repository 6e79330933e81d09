"""Combined (a+b) and standalone profiles (no kernel build)."""

import tempfile
import unittest
from pathlib import Path

from lrb_harness import kunitrun, profiles
from lrb_harness.errors import HarnessError
from lrb_harness.profiles import TARGETS, load_profile


def _write(d: Path, name: str, text: str) -> None:
    (d / f'{name}.config').write_text(text)


class CombineTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        _write(self.dir, 'a', '# arches: x86_64 arm64\n# timeout: 100\n# qemu_args: -m 2048\n'
                              '# kernel_args: x=1\nCONFIG_A=y\n')
        _write(self.dir, 'b', '# arches: x86_64\n# timeout: 300\n# kernel_args: x=1 y=2\nCONFIG_B=y\n')
        _write(self.dir, 's', '# standalone: yes\nCONFIG_KUNIT=y\n')

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def test_plus_merges_fragments_and_metadata(self) -> None:
        prof = load_profile(self.dir, 'a+b')
        self.assertEqual(prof.name, 'a+b')
        self.assertEqual([prof.fragment] + prof.extra, [self.dir / 'a.config', self.dir / 'b.config'])
        self.assertEqual(prof.timeout, 300)
        self.assertEqual(prof.arches, ['x86_64'])
        self.assertEqual(prof.qemu_args, ['-m', '2048'])
        self.assertEqual(prof.kernel_args, ['x=1', 'y=2'])

    def test_unknown_part_names_the_valid_ones(self) -> None:
        with self.assertRaisesRegex(HarnessError, "unknown profile 'c'.*kcsan\\+lockdep"):
            load_profile(self.dir, 'a+c')

    def test_standalone_replaces_kunitconfig(self) -> None:
        prof = load_profile(self.dir, 's')
        self.assertTrue(prof.standalone)
        req = kunitrun.Request(TARGETS[0], 'run', Path('/repo'), Path('/tree'), Path('/b'),
                               prof, '', Path('/j.json'), 2)
        cmd = kunitrun.command(req)
        self.assertNotIn('--kunitconfig=/repo/.kunitconfig', cmd)
        self.assertIn(f'--kunitconfig={self.dir / "s.config"}', cmd)
        with self.assertRaisesRegex(HarnessError, 'standalone'):
            load_profile(self.dir, 'a+s')

    def test_combined_command_passes_every_fragment(self) -> None:
        prof = load_profile(self.dir, 'a+b')
        req = kunitrun.Request(TARGETS[0], 'run', Path('/repo'), Path('/tree'), Path('/b'),
                               prof, '', Path('/j.json'), 2)
        cmd = kunitrun.command(req)
        self.assertEqual([c for c in cmd if c.startswith('--kunitconfig=')],
                         ['--kunitconfig=/repo/.kunitconfig',
                          '--kunitconfig=/repo/tools/qemu_configs/lean.config',
                          f'--kunitconfig={self.dir / "a.config"}',
                          f'--kunitconfig={self.dir / "b.config"}'])


class OverrideTest(unittest.TestCase):
    """A fragment that gives an option of .kunitconfig another value."""

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        (self.dir / 'repo').mkdir()
        (self.dir / 'repo' / '.kunitconfig').write_text(
            '# base\nCONFIG_KUNIT=y\nCONFIG_ENABLE_DEFAULT_TRACERS=y\nCONFIG_SMP=y\n')
        _write(self.dir, 'f', '# description: f\nCONFIG_FUNCTION_TRACER=y\n'
                              '# CONFIG_ENABLE_DEFAULT_TRACERS is not set\n')
        _write(self.dir, 'a', 'CONFIG_SMP=y\nCONFIG_A=y\n')

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def request(self, name: str) -> kunitrun.Request:
        return kunitrun.Request(TARGETS[0], 'run', self.dir / 'repo', Path('/tree'),
                                self.dir / 'build' / 'x86_64-f', load_profile(self.dir, name),
                                '', Path('/j.json'), 2)

    def test_entries_read_as_kunit_py_does(self) -> None:
        self.assertEqual(profiles.kconfig_entries('CONFIG_A=y\n# CONFIG_B is not set\n# c\n'
                                                  'CONFIG_C="x y"\n'),
                         {'CONFIG_A': 'y', 'CONFIG_B': 'n', 'CONFIG_C': '"x y"'})

    def test_the_same_value_twice_is_no_override(self) -> None:
        args = kunitrun.kunitconfig_args(self.request('a'))
        lean = self.dir / 'repo' / 'tools' / 'qemu_configs' / 'lean.config'
        self.assertEqual(args, [f'--kunitconfig={self.dir / "repo" / ".kunitconfig"}',
                                f'--kunitconfig={lean}', f'--kunitconfig={self.dir / "a.config"}'])
        self.assertFalse((self.dir / 'build').exists())

    def test_override_passes_one_merged_file(self) -> None:
        args = kunitrun.kunitconfig_args(self.request('f'))
        merged = self.dir / 'build' / 'x86_64-f.kunitconfig'
        self.assertEqual(args, [f'--kunitconfig={merged}'])
        self.assertEqual(profiles.kconfig_entries(merged.read_text()),
                         {'CONFIG_KUNIT': 'y', 'CONFIG_ENABLE_DEFAULT_TRACERS': 'n',
                          'CONFIG_SMP': 'y', 'CONFIG_FUNCTION_TRACER': 'y'})


if __name__ == '__main__':
    unittest.main()
