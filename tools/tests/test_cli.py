"""Command line: argument errors, list, profiles, and `run` end to end with a
stand-in kunit.py (progress, tables, the closing line last, exit codes)."""

import io
import unittest
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, Dict, List, Tuple
from unittest import mock

from lrb_harness import cli, profiles, suites, upstream
from lrb_harness.checks import CheckResult
from lrb_harness.errors import HarnessError

from .helpers import DATA, FAKE_FILES, TempDirTest, make_tarball, write

SUITE_SOURCE = '''// SPDX-License-Identifier: GPL-2.0
#include <kunit/test.h>
/* static struct kunit_case commented_out[] = { KUNIT_CASE(nope), {} }; */
static struct kunit_case lrb_api_cases[] = {
	KUNIT_CASE(lrb_add_test),
	KUNIT_CASE_PARAM(lrb_add_param_test, lrb_add_gen_params),
	KUNIT_CASE_SLOW(lrb_skip_test),
	KUNIT_CASE_PARAM_ATTR(lrb_attr_test, gen, {.speed = KUNIT_SPEED_SLOW}),
	{}
};

static struct kunit_suite lrb_api_suite = {
	.name = "lrb_api",
	.test_cases = lrb_api_cases,
};
kunit_test_suite(lrb_api_suite);
'''


def run_cli(argv: List[str], repo: Path, env: Dict[str, str]) -> Tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = cli.main(argv, repo=repo, env=env)
        except SystemExit as exc:  # argparse
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


class ArgumentTest(TempDirTest):
    def setUp(self) -> None:
        super().setUp()
        self.repo = self.tmp / 'repo'
        write(self.repo / 'tools' / 'profiles' / 'kcsan.config',
              '# description: KCSAN\n# arches: x86_64\n# timeout: 1200\n'
              '# qemu_args: -m 2048 -smp 2\n# kernel_args: a=1 b=2\nCONFIG_KCSAN=y\n')
        write(self.repo / 'kunit' / 'lrb_api_test.c', SUITE_SOURCE)
        self.env = {'HOME': str(self.tmp), 'KERNEL_SRC': str(self.tmp / 'tree')}

    def test_unknown_arch_lists_valid_ones(self) -> None:
        code, _out, err = run_cli(['run', '--arch', 'x86_64,riscv'], self.repo, self.env)
        self.assertEqual(code, 2)
        self.assertIn("unknown arch 'riscv'", err)
        for arch in profiles.VALID_ARCHES:
            self.assertIn(arch, err)

    def test_unknown_profile_lists_valid_ones(self) -> None:
        code, _out, err = run_cli(['run', '--profile', 'kasan'], self.repo, self.env)
        self.assertEqual(code, 2)
        self.assertIn("unknown profile 'kasan'; valid: default, kcsan", err)

    def test_unknown_option_lists_valid_ones(self) -> None:
        code, _out, err = run_cli(['run', '--bogus'], self.repo, self.env)
        self.assertEqual(code, 2)
        self.assertIn('unrecognized arguments: --bogus', err)
        self.assertIn('--arch', err)
        self.assertIn('--show-log', err)

    def test_unknown_subcommand(self) -> None:
        code, _out, err = run_cli(['frobnicate'], self.repo, self.env)
        self.assertEqual(code, 2)
        self.assertIn('prepare', err)

    def test_profile_arch_restriction(self) -> None:
        code, _out, err = run_cli(['run', '--profile', 'kcsan', '--arch', 'arm64'],
                                  self.repo, self.env)
        self.assertEqual(code, 2)
        self.assertIn('supports only x86_64', err)

    def test_arch_parsing(self) -> None:
        names = [t.name for t in profiles.parse_arches(['arm64,x86_64'])]
        self.assertEqual(names, ['x86_64', 'arm64-lse', 'arm64-llsc'])
        self.assertEqual([t.name for t in profiles.parse_arches(['all'])],
                         names + ['riscv64', 'i386', 'arm'])
        self.assertEqual([t.name for t in profiles.parse_arches(['arm64-llsc'])],
                         ['arm64-llsc'])
        # the bench-only target is never part of a group
        self.assertEqual([t.name for t in profiles.parse_arches(['arm64-nopac,arm64'])],
                         ['arm64-lse', 'arm64-llsc', 'arm64-nopac'])
        self.assertEqual([t.name for t in profiles.parse_arches(['arm64-icount,x86_64-icount'])],
                         ['x86_64-icount', 'arm64-icount'])
        self.assertEqual(['x86_64', 'arm64'],
                         [profiles.target(n).build for n in ('x86_64-icount', 'arm64-icount')])

    def test_profile_metadata(self) -> None:
        prof = profiles.load_profile(self.repo / 'tools' / 'profiles', 'kcsan')
        self.assertEqual(prof.timeout, 1200)
        self.assertEqual(prof.arches, ['x86_64'])
        self.assertEqual(prof.qemu_args, ['-m', '2048', '-smp', '2'])
        self.assertEqual(prof.kernel_args, ['a=1', 'b=2'])
        self.assertEqual(prof.cpus(profiles.target('x86_64')), 2)
        default = profiles.load_profile(self.repo / 'tools' / 'profiles', 'default')
        self.assertIsNone(default.fragment)
        self.assertEqual(default.timeout, profiles.DEFAULT_TIMEOUT)

    def test_bad_profile_timeout(self) -> None:
        write(self.repo / 'tools' / 'profiles' / 'bad.config', '# timeout: soon\n')
        with self.assertRaises(HarnessError):
            profiles.load_profile(self.repo / 'tools' / 'profiles', 'bad')

    def test_list_reads_sources(self) -> None:
        code, out, _err = run_cli(['list'], self.repo, self.env)
        self.assertEqual(code, 0)
        lines = out.splitlines()
        self.assertTrue(lines[0].startswith('lrb_api  (kunit/lrb_api_test.c, 4 cases)'))
        self.assertIn('  lrb_api.lrb_add_test', lines)
        self.assertIn('  lrb_api.lrb_add_param_test  [param]', lines)
        self.assertIn('  lrb_api.lrb_skip_test  [slow]', lines)
        self.assertIn('  lrb_api.lrb_attr_test  [param,attr]', lines)
        self.assertNotIn('nope', out)
        code, out, _err = run_cli(['list', 'lrb_api.*param*'], self.repo, self.env)
        self.assertEqual(out.splitlines(), ['lrb_api  (kunit/lrb_api_test.c, 1 cases)',
                                            '  lrb_api.lrb_add_param_test  [param]'])

    def test_glob_semantics(self) -> None:
        self.assertTrue(suites.glob_matches('lrb_*', 'lrb_api'))
        self.assertTrue(suites.glob_matches('lrb_api.add*', 'lrb_api', 'add_one'))
        self.assertFalse(suites.glob_matches('lrb_api.add*', 'lrb_api', 'skip'))
        self.assertFalse(suites.glob_matches('lrb_design', 'lrb_api'))


class RunTest(TempDirTest):
    """`run` against a fake tree whose kunit.py is tools/tests/fake_kunit.py."""

    def setUp(self) -> None:
        super().setUp()
        files = dict(FAKE_FILES)
        files['tools/testing/kunit/kunit.py'] = (Path(__file__).parent / 'fake_kunit.py').read_text()
        self.tarball = make_tarball(self.tmp, files)
        self.repo = self.tmp / 'repo'
        write(self.repo / '.kunitconfig', 'CONFIG_KUNIT=y\n')
        write(self.repo / 'kunit' / 'lrb_api_test.c', SUITE_SOURCE)
        for name in ('x86_64.py', 'arm64-lse.py', 'arm64-llsc.py'):
            write(self.repo / 'tools' / 'qemu_configs' / name, '# fake\n')
        self.calls = self.tmp / 'calls.jsonl'
        self.env = {'HOME': str(self.tmp), 'XDG_CACHE_HOME': str(self.tmp / 'cache'),
                    'LRB_TARBALL': str(self.tarball), 'LRB_PKG_VERSION': '6.12.99-1~test',
                    'FAKE_KUNIT_CALLS': str(self.calls), 'PATH': '/usr/bin:/bin',
                    'FAKE_KUNIT_LOG': str(DATA / 'logs' / 'x86_64-pass.log')}
        patcher = mock.patch('lrb_harness.cli.check_tools')
        patcher.start()
        self.addCleanup(patcher.stop)

    def calls_made(self) -> List[List[str]]:
        return [json.loads(line) for line in self.calls.read_text().splitlines()]

    def test_x86_run_passes_and_ends_with_the_closing_line(self) -> None:
        code, out, err = run_cli(['run', '--arch', 'x86_64', '--show-log'], self.repo, self.env)
        self.assertEqual(code, 0, out + err)
        lines = out.splitlines()
        self.assertEqual(lines[-1], '4 passed, 0 failed, 1 skipped')
        self.assertIn('booting with 4 CPUs', out)
        self.assertIn('suite lrb_api: PASSED', out)
        self.assertIn('atomics: x86 lock cmpxchg', out)
        self.assertIn('      |   [A] -> [B]', out)  # --show-log
        self.assertIn('lrb_add_param_test.cancel', out)
        call = self.calls_made()[0]
        self.assertEqual(call[0], 'run')
        self.assertIn(f'--kunitconfig={self.repo / ".kunitconfig"}', call)
        self.assertTrue(any(a.startswith('--qemu_config=') and a.endswith('x86_64.py')
                            for a in call))
        self.assertTrue(any(a.endswith('/lrb/build/x86_64-default') for a in call))
        results = self.repo / 'results' / 'latest'
        self.assertTrue((results / 'x86_64.log').is_file())
        self.assertTrue((results / 'x86_64.json').is_file())
        summary = json.loads((results / 'summary.json').read_text())
        self.assertEqual(summary['passed'], 4)

    def test_arm64_shares_one_build_run_then_exec(self) -> None:
        self.env['FAKE_KUNIT_LOG'] = str(DATA / 'logs' / 'arm64-lse-pass.log')
        code, out, _err = run_cli(['run', '--arch', 'arm64', 'lrb_api', 'lrb_api.lrb_add*'],
                                  self.repo, self.env)
        calls = self.calls_made()
        self.assertEqual([c[0] for c in calls], ['run', 'exec', 'exec', 'exec'])
        self.assertEqual({a for c in calls for a in c if a.startswith('--build_dir=')},
                         {f'--build_dir={self.tmp}/cache/lrb/build/arm64-default'})
        self.assertTrue(all('--cross_compile=aarch64-linux-gnu-' in c for c in calls))
        self.assertEqual([c[-1] for c in calls], ['lrb_api', 'lrb_api.lrb_add*'] * 2)
        qemu = [next(a for a in c if a.startswith('--qemu_config=')) for c in calls]
        self.assertTrue(qemu[0].endswith('arm64-lse.py') and qemu[1].endswith('arm64-lse.py'))
        self.assertTrue(qemu[2].endswith('arm64-llsc.py') and qemu[3].endswith('arm64-llsc.py'))
        # the same LSE log booted as arm64-llsc: fine for the harness, reported as LSE
        self.assertEqual(code, 0, out)
        self.assertIn('atomics: LSE', out)

    def test_failed_case_turns_the_run_red(self) -> None:
        self.env['FAKE_KUNIT_LOG'] = str(DATA / 'logs' / 'x86_64-fail.log')
        self.env['FAKE_KUNIT_RC'] = '1'
        code, out, _err = run_cli(['run', '--arch', 'x86_64'], self.repo, self.env)
        self.assertEqual(code, 1)
        self.assertIn('lrb_api.lrb_add_test: FAIL', out)
        self.assertIn('EXPECTATION FAILED', out)
        self.assertIn('Expected lrb_scratch_add(1, 2) == 4, but', out)
        self.assertIn('--- last 40 lines of', out)
        self.assertRegex(out.splitlines()[-1], r'^\d+ passed, [1-9]\d* failed, \d+ skipped$')

    def test_build_failure(self) -> None:
        self.env['FAKE_KUNIT_MODE'] = 'buildfail'
        code, out, _err = run_cli(['run', '--arch', 'arm64'], self.repo, self.env)
        self.assertEqual(code, 1)
        self.assertIn('error: expected ;', out)
        self.assertEqual(out.splitlines()[-1], '0 passed, 2 failed, 0 skipped')
        self.assertEqual(len(self.calls_made()), 1)

    def bench_profile(self) -> None:
        write(self.repo / 'tools' / 'profiles' / 'bench.config',
              '# description: bench\n# standalone: yes\n# arches: x86_64 arm64-lse\n'
              'CONFIG_KUNIT=y\n')

    def test_bench_rejects_an_arch_its_profile_lacks(self) -> None:
        self.bench_profile()
        code, _out, err = run_cli(['bench', '--arch', 'arm64-llsc'], self.repo, self.env)
        self.assertEqual(code, 2)
        self.assertIn('supports only x86_64 arm64-lse', err)

    def test_bench_failed_boot_writes_no_report(self) -> None:
        self.bench_profile()
        self.env['FAKE_KUNIT_LOG'] = str(DATA / 'logs' / 'x86_64-fail.log')
        self.env['FAKE_KUNIT_RC'] = '1'
        out_md = self.tmp / 'bench.md'
        code, out, _err = run_cli(['bench', '--arch', 'x86_64', '--out', str(out_md)],
                                  self.repo, self.env)
        self.assertEqual(code, 1)
        self.assertIn('bench: a boot failed: no report written', out)
        self.assertFalse(out_md.exists())
        call = self.calls_made()[0]
        self.assertIn('--kernel_args=lrb_bench.smoke=0', call)
        self.assertTrue(any(a.endswith('/lrb/build/x86_64-bench') for a in call))

    def test_bench_rejects_a_profile_that_is_not_standalone(self) -> None:
        write(self.repo / 'tools' / 'profiles' / 'kcsan.config',
              '# description: kcsan\nCONFIG_KCSAN=y\n')
        code, _out, err = run_cli(['bench', '--arch', 'x86_64', '--profile', 'kcsan'],
                                  self.repo, self.env)
        self.assertEqual(code, 2)
        self.assertIn('profile kcsan is not a standalone profile', err)
        self.assertFalse(self.calls.exists())

    def test_bench_profile_builds_in_its_own_directory(self) -> None:
        write(self.repo / 'tools' / 'profiles' / 'bench-debug.config',
              '# description: bench-debug\n# standalone: yes\nCONFIG_KUNIT=y\n')
        self.env['FAKE_KUNIT_LOG'] = str(DATA / 'logs' / 'x86_64-fail.log')
        self.env['FAKE_KUNIT_RC'] = '1'
        code, _out, _err = run_cli(['bench', '--arch', 'x86_64', '--profile', 'bench-debug'],
                                   self.repo, self.env)
        self.assertEqual(code, 1)
        call = self.calls_made()[0]
        self.assertTrue(any(a.endswith('/lrb/build/x86_64-bench-debug') for a in call))


class BenchOutputsTest(unittest.TestCase):
    def test_full_run_writes_docs(self) -> None:
        self.assertEqual(('docs/bench.md', 'docs/bench.png'),
                         cli.bench_outputs(None, None, False, Path('/r/run')))

    def test_partial_run_writes_beside_its_logs(self) -> None:
        self.assertEqual(('/r/run/bench.md', '/r/run/bench.png'),
                         cli.bench_outputs(None, None, True, Path('/r/run')))

    def test_given_paths_win(self) -> None:
        self.assertEqual(('x/b.md', 'x/bench.png'),
                         cli.bench_outputs('x/b.md', None, True, Path('/r/run')))
        self.assertEqual(('docs/bench.md', 'c.png'),
                         cli.bench_outputs(None, 'c.png', False, Path('/r/run')))


class UpstreamInTestTest(unittest.TestCase):
    """make test's upstream pass: in the closing counts, and a clear line when red."""

    def test_in_make_test(self) -> None:
        self.assertIn(('6.12', 'x86_64'), cli.UPSTREAM_IN_TEST)

    def test_counts_and_failure_lines(self) -> None:
        good = upstream.CiPass('6.12', 'x86_64', passed=16)
        bad = upstream.CiPass('6.12', 'arm64', passed=15, failed=1, problems=[
            '6.12 arm64 unfixed ring_buffer.x: PASS, expected FAIL (red without the fix)'])
        bad.checks = [CheckResult('upstream 6.12: checkpatch --strict', False, ['0002: ...'])]
        self.assertEqual(cli.upstream_totals((400, 0, 3), [good, bad]), (431, 1, 3))
        self.assertEqual(cli.upstream_failures([good], False), [])
        lines = cli.upstream_failures([good, bad], False)
        self.assertEqual(lines[0], 'failed:')
        self.assertEqual(lines[1], '  upstream 6.12 arm64 FAILED (make upstream BASE=6.12 '
                                   'ARCH=arm64 RUNS=1): 2 problems')
        self.assertIn('    upstream 6.12: checkpatch --strict', lines)
        self.assertEqual(cli.upstream_failures([bad], True)[0][:19], '  upstream 6.12 arm')
        # no case ran: not a pass, even with nothing failed
        self.assertFalse(upstream.CiPass('6.12', 'x86_64').ok())


# kunit.py's QemuArchParams (tools/testing/kunit/qemu_config.py, 6.12)
QEMU_CONFIG_STUB = """from dataclasses import dataclass
from typing import List


@dataclass(frozen=True)
class QemuArchParams:
  linux_arch: str
  kconfig: str
  qemu_arch: str
  kernel_path: str
  kernel_command_line: str
  extra_qemu_params: List[str]
  serial: str = 'stdio'
"""


class QemuConfigTest(TempDirTest):
    CONFIGS = Path(__file__).resolve().parent.parent / 'qemu_configs'

    def load(self, name: str) -> Any:
        """A config's QEMU_ARCH, loaded as kunit.py loads it: by path, as a
        module of a package beside qemu_config.py."""
        import importlib.util
        import sys
        pkg = self.tmp / 'stubkunit'
        if not pkg.is_dir():
            (pkg / 'qemu_configs').mkdir(parents=True)
            (pkg / '__init__.py').write_text('')
            (pkg / 'qemu_configs' / '__init__.py').write_text('')
            (pkg / 'qemu_config.py').write_text(QEMU_CONFIG_STUB)
        sys.path.insert(0, str(self.tmp))
        try:
            spec = importlib.util.spec_from_file_location(
                'stubkunit.qemu_configs.' + name[:-3].replace('-', '_'), self.CONFIGS / name)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        finally:
            sys.path.remove(str(self.tmp))
            for mod in [m for m in sys.modules if m.startswith('stubkunit')]:
                del sys.modules[mod]
        return module.QEMU_ARCH

    def test_arm64_configs_share_one_kernel(self) -> None:
        arches = {name: self.load(name) for name in
                  ('arm64-lse.py', 'arm64-llsc.py', 'arm64-nopac.py', 'x86_64.py')}
        for name, arch in arches.items():
            self.assertIn('CONFIG_SMP=y', arch.kconfig, name)
            self.assertEqual(arch.extra_qemu_params[arch.extra_qemu_params.index('-smp') + 1],
                             '4', name)
        self.assertEqual(arches['arm64-lse.py'].kconfig, arches['arm64-llsc.py'].kconfig)
        self.assertEqual(arches['arm64-lse.py'].kconfig, arches['arm64-nopac.py'].kconfig)
        self.assertIn('max,pauth=off', arches['arm64-nopac.py'].extra_qemu_params)
        self.assertIn('max,pauth-impdef=on', arches['arm64-lse.py'].extra_qemu_params)
        self.assertIn('cortex-a57', arches['arm64-llsc.py'].extra_qemu_params)
        self.assertIn('qboot.rom', arches['x86_64.py'].extra_qemu_params)

    def test_icount_configs_are_their_base_counting(self) -> None:
        """Each -icount config is its base target, the same kernel, with
        -icount and lrb_bench.serial=1 and nothing else changed."""
        import dataclasses
        for icount, base in (('x86_64-icount.py', 'x86_64.py'),
                             ('arm64-icount.py', 'arm64-lse.py'),
                             ('riscv64-icount.py', 'riscv64.py'),
                             ('i386-icount.py', 'i386.py'), ('arm-icount.py', 'arm.py')):
            want = self.load(base)
            want = dataclasses.replace(
                want, kernel_command_line=want.kernel_command_line + ' lrb_bench.serial=1',
                extra_qemu_params=want.extra_qemu_params + ['-icount', 'shift=0,sleep=off'])
            # asdict: each load defines QemuArchParams anew
            self.assertEqual(dataclasses.asdict(self.load(icount)), dataclasses.asdict(want),
                             icount)


class MakefileTest(TempDirTest):
    """The Makefile passes its variables on to the wrapper (make -n, nothing runs)."""

    REPO = Path(__file__).resolve().parent.parent.parent

    def dry_run(self, *args: str) -> str:
        import subprocess
        proc = subprocess.run(['make', '-n', '-s', '-C', str(self.REPO)] + list(args),
                              capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return ' '.join(proc.stdout.split())

    def test_variables(self) -> None:
        out = self.dry_run('test', 'ARCH=arm64', 'PROFILE=kcsan')
        self.assertIn('tools/kunit-wrapper.py test --arch arm64 --profile kcsan', out)
        out = self.dry_run('test-x86_64', 'GLOB=lrb_api')
        self.assertIn('run --arch x86_64 lrb_api', out)
        out = self.dry_run('scenario', 'S=two_writers')
        self.assertIn("run --arch x86_64 --show-log 'lrb_design*.two_writers'", out)
        out = self.dry_run('scenario', 'S=two_writers', 'IMPL=kernel')
        self.assertIn("run --arch x86_64 --show-log 'lrb_design_kernel.two_writers'", out)
        out = self.dry_run('scenarios', 'ARCH=arm64')
        self.assertIn("run --arch arm64 --show-log 'lrb_design*'", out)
        out = self.dry_run('scenarios', 'IMPL=lrb')
        self.assertIn("run --arch x86_64 --show-log 'lrb_design'", out)
        self.assertIn('deps.sh check', self.dry_run('check'))
        out = self.dry_run('series', 'DIR=/tmp/out', 'NOBUILD=1', 'JOBS=3')
        self.assertIn('kunit-wrapper.py series --dir /tmp/out --no-build --jobs 3', out)
        self.assertIn('python3 -m mypy --config-file mypy.ini', self.dry_run('mypy'))

    def test_ci_script_parses(self) -> None:
        import subprocess
        for script in (self.REPO / '.ci' / 'run', self.REPO / 'tools' / 'deps.sh'):
            self.assertEqual(subprocess.run(['bash', '-n', str(script)]).returncode, 0)
