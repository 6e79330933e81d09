"""The build stamp: boot the kernel that is there only when it was built from
the same inputs and nothing rebuilt it since (no kernel build)."""

import os
import subprocess
import tempfile
import unittest
from pathlib import Path
from typing import List

from lrb_harness import buildstamp


class BuildStampTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name)
        self.tree = self.root / 'tree'
        self.tree.mkdir()
        self.state = self.root / 'state.json'
        self.state.write_text('{"series": []}\n')
        self.config = self.root / 'a.kunitconfig'
        self.config.write_text('CONFIG_KUNIT=y\n')
        self.bdir = self.root / 'build'
        self.bdir.mkdir()
        (self.bdir / 'vmlinux').write_bytes(b'ELF')

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def command(self, *extra: str) -> List[str]:
        return ['kunit.py', 'run', f'--build_dir={self.bdir}', f'--kunitconfig={self.config}',
                '--arch=x86_64', *extra]

    def digest(self, *extra: str) -> str:
        return buildstamp.inputs(self.command(*extra), self.tree, self.state, 'true')

    def test_boot_only_arguments_do_not_count(self) -> None:
        self.assertEqual(self.digest(), self.digest('--json=/x.json', '--timeout=900',
                                                    '--kernel_args=a=1', 'lrb_api'))

    def test_the_same_in_another_clone(self) -> None:
        other = self.root / 'clone' / 'a.kunitconfig'
        other.parent.mkdir()
        other.write_text(self.config.read_text())
        cmd = [a.replace(str(self.config), str(other)) for a in self.command()]
        self.assertEqual(self.digest(), buildstamp.inputs(cmd, self.tree, self.state, 'true'))

    def test_what_the_kernel_is_made_of_counts(self) -> None:
        before = self.digest()
        self.config.write_text('CONFIG_KUNIT=y\nCONFIG_KCSAN=y\n')
        after_config = self.digest()
        self.state.write_text('{"series": ["0001"]}\n')
        after_state = self.digest()
        self.assertEqual(len({before, after_config, after_state,
                              self.digest('--make_options=CC=ccache gcc')}), 4)

    def test_the_config_an_icount_config_runs_counts(self) -> None:
        """An -icount QEMU config runs its base config's code, whose kconfig
        kunit.py merges: a change of the base changes the digest."""
        base = self.root / 'x86_64.py'
        base.write_text("QEMU_ARCH = 1  # kconfig='CONFIG_A=y'\n")
        icount = self.root / 'x86_64-icount.py'
        icount.write_text("_BASE = os.path.join(os.path.dirname(__file__), 'x86_64.py')\n")
        self.assertEqual(buildstamp.file_chain(icount), [icount, base])
        before = self.digest(f'--qemu_config={icount}')
        base.write_text("QEMU_ARCH = 1  # kconfig='CONFIG_B=y'\n")
        self.assertNotEqual(self.digest(f'--qemu_config={icount}'), before)
        # the real ones name their base so
        real = Path(__file__).resolve().parent.parent / 'qemu_configs' / 'arm-icount.py'
        self.assertEqual([p.name for p in buildstamp.file_chain(real)],
                         ['arm-icount.py', 'arm.py'])

    def test_an_uncommitted_change_counts(self) -> None:
        """A planted bug is written into the tree, not committed."""
        env = {'GIT_AUTHOR_NAME': 't', 'GIT_AUTHOR_EMAIL': 't@t', 'GIT_COMMITTER_NAME': 't',
               'GIT_COMMITTER_EMAIL': 't@t', 'PATH': os.environ.get('PATH', '')}
        source = self.tree / 'ring_buffer.c'
        source.write_text('int x;\n')
        for cmd in (['init', '-q'], ['add', '.'], ['commit', '-q', '-m', 'base']):
            subprocess.run(['git', *cmd], cwd=self.tree, env=env, check=True)
        clean = self.digest()
        source.write_text('int y;\n')
        planted = self.digest()
        source.write_text('int x;\n')
        self.assertNotEqual(clean, planted)
        self.assertEqual(clean, self.digest())

    def test_matches_the_recorded_build_only(self) -> None:
        env: dict[str, str] = {}
        digest = self.digest()
        self.assertFalse(buildstamp.matches(self.bdir, digest, env))
        buildstamp.record(self.bdir, digest)
        self.assertTrue(buildstamp.matches(self.bdir, digest, env))
        self.assertFalse(buildstamp.matches(self.bdir, 'other', env))
        self.assertFalse(buildstamp.matches(self.bdir, digest, {buildstamp.DISABLE: '1'}))

    def test_a_rebuilt_vmlinux_does_not_match(self) -> None:
        digest = self.digest()
        buildstamp.record(self.bdir, digest)
        vmlinux = self.bdir / 'vmlinux'
        info = vmlinux.stat()
        os.utime(vmlinux, ns=(info.st_atime_ns, info.st_mtime_ns + 1_000_000))
        self.assertFalse(buildstamp.matches(self.bdir, digest, {}))
        vmlinux.unlink()
        self.assertFalse(buildstamp.matches(self.bdir, digest, {}))

    def test_clear_before_a_build(self) -> None:
        digest = self.digest()
        buildstamp.record(self.bdir, digest)
        buildstamp.clear(self.bdir)
        self.assertFalse(buildstamp.matches(self.bdir, digest, {}))
        buildstamp.clear(self.bdir)  # nothing to remove: no error
        (self.bdir / buildstamp.STAMP_FILE).write_text('not json')
        self.assertFalse(buildstamp.matches(self.bdir, digest, {}))


if __name__ == '__main__':
    unittest.main()
