"""The targets of issue 28 (riscv64, i386, arm) and the pages64k profile,
read from the repository's own files (no kernel build)."""

import re
import tempfile
import unittest
from pathlib import Path
from typing import Dict, List

from lrb_harness import kunitrun, paths, profiles, results
from lrb_harness.kunitrun import Outcome

REPO = paths.repo_root()
NEW = ('riscv64', 'i386', 'arm')
HOOK_NAME = re.compile(r'^\+?\s*\[(LRB_HOOK_\w+)\]\s*=\s*"([^"]*)",')


def hook_names(text: str) -> Dict[str, str]:
    """The [LRB_HOOK_X] = "name" entries of a C file or a patch."""
    return {m.group(1): m.group(2) for m in map(HOOK_NAME.match, text.splitlines()) if m}


def kunit_objects(config: Dict[str, str]) -> List[str]:
    """The objects kunit/Makefile links into lrb_kunit.o, in order, for a
    configuration (CONFIG_X -> 'y'): the subset of make that file uses
    (:=, +=, lrb_kunit-$(VAR), ifdef, ifndef, ifneq, endif, continuations)."""
    text = (REPO / 'kunit' / 'Makefile').read_text().replace('\\\n', ' ')
    var: Dict[str, str] = dict(config)
    objs: List[str] = []
    active: List[bool] = []

    def expand(word: str) -> str:
        return re.sub(r'\$\((\w+)\)', lambda m: var.get(m.group(1), ''), word)
    for line in text.splitlines():
        line = line.split('#', 1)[0].strip()
        if not line:
            continue
        words = line.split()
        if words[0] in ('ifdef', 'ifndef'):
            on = bool(var.get(words[1]))
            active.append(on if words[0] == 'ifdef' else not on)
            continue
        if words[0] == 'ifneq':
            inner = line[len('ifneq'):].strip()[1:-1]
            left, right = inner.split(',', 1)
            active.append(expand(left).strip() != expand(right).strip())
            continue
        if words[0] == 'endif':
            active.pop()
            continue
        if not all(active):
            continue
        match = re.match(r'^([\w$().-]+)\s*(:=|\+=)\s*(.*)$', line)
        assert match, line
        name, oper, value = expand(match.group(1)), match.group(2), match.group(3)
        if name == 'lrb':
            var['lrb'] = expand(value)
        elif name == 'lrb_kunit-y':
            objs = (objs if oper == '+=' else []) + value.split()
    return objs


class NewTargetsTest(unittest.TestCase):
    def test_each_is_an_arch_of_its_own(self) -> None:
        for name in NEW:
            self.assertIn(name, profiles.VALID_ARCHES)
            self.assertEqual([t.name for t in profiles.parse_arches([name])], [name])
            self.assertIn(name, profiles.ARCH_GROUPS['all'])
            self.assertNotIn(name + '-icount', profiles.ARCH_GROUPS['all'])
            tgt = profiles.target(name)
            self.assertEqual(tgt.build, name)
            self.assertEqual(tgt.cpus, 4)
            self.assertTrue(tgt.atomics, f'{name}: no atomics line')
            self.assertTrue((REPO / 'tools' / 'qemu_configs' / tgt.qemu_config).is_file())
        self.assertEqual([t.name for t in profiles.parse_arches(['all'])],
                         ['x86_64', 'arm64-lse', 'arm64-llsc', 'riscv64', 'i386', 'arm'])

    def test_qemu_configs_ask_for_smp_and_four_cpus(self) -> None:
        for name in NEW:
            text = (REPO / 'tools' / 'qemu_configs' / profiles.target(name).qemu_config).read_text()
            self.assertIn('CONFIG_SMP=y', text, name)
            self.assertRegex(text, r"'-smp',\s*'4'", name)

    def test_cross_compilers(self) -> None:
        self.assertEqual(profiles.target('riscv64').cross_compile, 'riscv64-linux-gnu-')
        self.assertEqual(profiles.target('arm').cross_compile, 'arm-linux-gnueabihf-')
        self.assertIsNone(profiles.target('i386').cross_compile)  # the host's gcc, -m32
        self.assertEqual(kunitrun.compiler(profiles.target('arm')), 'arm-linux-gnueabihf-gcc')

    def test_32_bit_targets_build_lrb_too(self) -> None:
        self.assertEqual([t.name for t in profiles.TARGETS if t.fragment or t.note], [])
        for name in ('i386', 'arm'):
            self.assertIn('local64_t', profiles.target(name).atomics or '')


class LeanFragmentTest(unittest.TestCase):
    def request(self, name: str, build_root: Path, profile: str = 'default'
                ) -> kunitrun.Request:
        tgt = profiles.target(name)
        prof = profiles.load_profile(REPO / 'tools' / 'profiles', profile)
        return kunitrun.Request(tgt, 'run', REPO, Path('/tree'), build_root / f'{name}-{profile}',
                                prof, '', Path('/j.json'), 2)

    def test_every_target_builds_lean(self) -> None:
        lean = REPO / 'tools' / 'qemu_configs' / profiles.LEAN_FRAGMENT
        with tempfile.TemporaryDirectory() as tmp:
            for name in ['x86_64', 'arm64-lse', *NEW]:
                args = kunitrun.kunitconfig_args(self.request(name, Path(tmp)))
                self.assertEqual(args, [f'--kunitconfig={REPO / ".kunitconfig"}',
                                        f'--kunitconfig={lean}'], name)

    def test_profile_full_builds_without_it(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            args = kunitrun.kunitconfig_args(self.request('x86_64', Path(tmp), 'full'))
        self.assertEqual(args, [f'--kunitconfig={REPO / ".kunitconfig"}',
                                f'--kunitconfig={REPO / "tools" / "profiles" / "full.config"}'])

    def test_lean_overrides_nothing_of_kunitconfig(self) -> None:
        """lean.config only turns off what .kunitconfig leaves to Kconfig:
        a clash would make kunit.py refuse the config."""
        base = profiles.kconfig_entries((REPO / '.kunitconfig').read_text())
        lean = profiles.kconfig_entries(
            (REPO / 'tools' / 'qemu_configs' / profiles.LEAN_FRAGMENT).read_text())
        self.assertTrue(lean)
        self.assertEqual(set(base) & set(lean), set())
        self.assertEqual(lean.pop('CONFIG_EXPERT'), 'y')
        self.assertTrue(all(v == 'n' for v in lean.values()))

    def test_standalone_profiles_stay_standalone(self) -> None:
        prof = profiles.load_profile(REPO / 'tools' / 'profiles', 'bench')
        self.assertTrue(prof.standalone)
        with tempfile.TemporaryDirectory() as tmp:
            req = kunitrun.Request(profiles.target('x86_64'), 'run', REPO, Path('/tree'),
                                   Path(tmp) / 'x86_64-bench', prof, '', Path('/j.json'), 2)
            args = kunitrun.kunitconfig_args(req)
        self.assertEqual(args, [f'--kunitconfig={prof.fragment}'])


class LeanTscTest(unittest.TestCase):
    """x86 lean boots (no ACPI: no HPET, no PM timer) are given the TSC rate."""

    def cmd(self, name: str, profile: str = 'default') -> List[str]:
        prof = profiles.load_profile(REPO / 'tools' / 'profiles', profile)
        req = kunitrun.Request(profiles.target(name), 'run', REPO, Path('/tree'),
                               Path('/b') / f'{name}-{profile}', prof, '', Path('/j.json'), 2)
        return kunitrun.command(req)

    def test_lean_builds_have_no_acpi(self) -> None:
        lean = profiles.kconfig_entries(
            (REPO / 'tools' / 'qemu_configs' / profiles.LEAN_FRAGMENT).read_text())
        self.assertEqual(lean.get('CONFIG_ACPI'), 'n')

    def test_x86_lean_boots_get_the_rate(self) -> None:
        for name in ('x86_64', 'i386'):
            args = [a for a in self.cmd(name) if a.startswith('--kernel_args=tsc')]
            self.assertEqual(len(args), 2, name)
            self.assertRegex(args[0], r'^--kernel_args=tsc_early_khz=[1-9][0-9]*$')
            self.assertEqual(args[1], '--kernel_args=tsc=reliable')

    def test_not_elsewhere(self) -> None:
        """Not off x86, not with ACPI (full), not under -icount (its TSC is
        the virtual clock), not in a standalone profile."""
        for name, profile in (('arm64-lse', 'default'), ('riscv64', 'default'),
                              ('x86_64', 'full'), ('x86_64-icount', 'bench'),
                              ('x86_64', 'bench')):
            self.assertFalse([a for a in self.cmd(name, profile) if 'tsc' in a],
                             f'{name} {profile}')

    def test_rate_from_cpuinfo(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            info = Path(tmp) / 'cpuinfo'
            info.write_text('processor\t: 0\ncpu MHz\t\t: 2096.001\n')
            self.assertEqual(kunitrun.host_tsc_khz(info), 2096001)
            info.write_text('processor\t: 0\n')
            self.assertEqual(kunitrun.host_tsc_khz(info), kunitrun.TSC_KHZ_FALLBACK)
            self.assertEqual(kunitrun.host_tsc_khz(Path(tmp) / 'none'),
                             kunitrun.TSC_KHZ_FALLBACK)


class HookNamesTest(unittest.TestCase):
    def test_copy_matches_lrb(self) -> None:
        """kunit/lrb_kunit_nolrb.c names lrb's hook points as lrb does."""
        copy = hook_names((REPO / 'kunit' / 'lrb_kunit_nolrb.c').read_text())
        patch = next((REPO / 'kernel-patch').glob('*-lib-lockless_ring_buffer-add-test-hook-*.patch'))
        lrb = hook_names(patch.read_text())
        self.assertGreater(len(lrb), 20)
        self.assertEqual(copy, lrb)


class KunitMakefileTest(unittest.TestCase):
    """Suites register in link order: the x86_64 and arm64 default builds
    (lrb and the tracing ring buffer) link what they linked before the
    kernel buffer's suites got an option of their own."""
    COMMON = ['CONFIG_FAILSLAB', 'CONFIG_FAULT_INJECTION_DEBUG_FS', 'CONFIG_RING_BUFFER']

    def test_64_bit_default_unchanged(self) -> None:
        config = {n: 'y' for n in self.COMMON + ['CONFIG_LOCKLESS_RING_BUFFER_KUNIT_TEST',
                                                 'CONFIG_LRB_KERNEL_RB_KUNIT_TEST',
                                                 'CONFIG_LRB_TEST_HOOKS']}
        before = ('util render expect context impl script').split()
        self.assertEqual(
            [o[:-2] for o in kunit_objects(config)],
            ['lrb_kunit_' + o for o in before] +
            ['lrb_impl_lrb', 'lrb_api_kunit', 'lrb_design_kunit', 'lrb_nesting_kunit',
             'lrb_smp_kunit', 'lrb_irq_kunit', 'lrb_stress_engine', 'lrb_stress_kunit',
             'lrb_contract_engine', 'lrb_contract_lrb', 'lrb_kernel_rb_kunit',
             'lrb_krb_snapshot', 'lrb_impl_kernel', 'lrb_contract_kernel',
             'lrb_fault_kunit'])

    def test_32_bit_has_no_lrb_object(self) -> None:
        config = {n: 'y' for n in self.COMMON + ['CONFIG_LRB_KERNEL_RB_KUNIT_TEST']}
        objs = kunit_objects(config)
        self.assertIn('lrb_kunit_nolrb.o', objs)
        self.assertIn('lrb_kernel_rb_kunit.o', objs)
        for lrb_only in ('lrb_impl_lrb.o', 'lrb_api_kunit.o', 'lrb_stress_kunit.o',
                         'lrb_contract_lrb.o', 'lrb_fault_kunit.o'):
            self.assertNotIn(lrb_only, objs)


class Pages64kTest(unittest.TestCase):
    def test_both_arm64_cpus_only(self) -> None:
        prof = profiles.load_profile(REPO / 'tools' / 'profiles', 'pages64k')
        self.assertEqual([t.name for t in profiles.TARGETS if prof.supports(t)],
                         ['arm64-lse', 'arm64-llsc'])
        self.assertEqual(profiles.kconfig_entries(prof.fragment.read_text() if prof.fragment
                                                  else ''),
                         {'CONFIG_ARM64_64K_PAGES': 'y'})

    def test_in_make_test_on_both_cpus(self) -> None:
        """make test boots 64 KiB pages on both arm64 CPUs and KCSAN on x86_64;
        KCSAN on arm64 is in make test-sanitizers."""
        from lrb_harness import cli  # pylint: disable=import-outside-toplevel
        self.assertEqual(cli.CI_EXTRA_PASSES, [('kcsan+lockdep+ftrace', 'x86_64'),
                                               ('pages64k', 'arm64')])
        self.assertIn(('kcsan', 'x86_64,arm64-lse'), cli.ALL_SANITIZER_PASSES)


if __name__ == '__main__':
    unittest.main()
