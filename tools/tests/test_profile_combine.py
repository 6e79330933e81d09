"""Combined (a+b) and standalone profiles (no kernel build)."""

import tempfile
import unittest
from pathlib import Path

from lrb_harness import kunitrun
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
                         ['--kunitconfig=/repo/.kunitconfig', f'--kunitconfig={self.dir / "a.config"}',
                          f'--kunitconfig={self.dir / "b.config"}'])


if __name__ == '__main__':
    unittest.main()
