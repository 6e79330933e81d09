"""Argument parsing and the subcommands of tools/kunit-wrapper.py."""

import argparse
import datetime
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, NoReturn, Optional, Sequence, Tuple

from . import (buildstamp, checks, contracts, kunitrun, paths, report, resultcache, results,
               series, sparse, srcdirs, suites, testrecord, tree, upstream)
from .errors import HarnessError
from .profiles import (ARCH_GROUPS, DEFAULT_PROFILE, Profile, Target, VALID_ARCHES,
                       load_profile, parse_arches, profile_names)

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


def say(message: str) -> None:
    stamp = datetime.datetime.now().strftime('%H:%M:%S')
    print(f'[{stamp}] {message}', flush=True)


def plain(message: str) -> None:
    print(message, flush=True)


@dataclass
class Context:
    repo: Path
    env: Dict[str, str] = field(default_factory=lambda: dict(os.environ))
    force: bool = False

    @property
    def profile_dir(self) -> Path:
        return self.repo / 'tools' / 'profiles'

    def tree_config(self) -> tree.TreeConfig:
        return tree.TreeConfig(repo=self.repo, tree=paths.tree_dir(self.env),
                               tarball=paths.tarball(self.env),
                               from_kernel_src=paths.tree_from_kernel_src(self.env),
                               force=self.force, log=lambda m: say('  ' + m),
                               version_fn=self.version_fn())

    def version_fn(self) -> Callable[[], str]:
        fixed = self.env.get('LRB_PKG_VERSION') or ''  # tests inject the dpkg answer
        if not fixed:
            return tree.dpkg_version
        return lambda: fixed


# -- argument parsing ---------------------------------------------------------

class Parser(argparse.ArgumentParser):
    """argparse that names the valid choices on any error, exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        valid = [a for act in self._actions for a in act.option_strings]
        sub = [a for a in self._actions if isinstance(a, argparse._SubParsersAction)]
        extra = ''
        if sub:
            extra = '\nvalid subcommands: ' + ', '.join(sub[0].choices)
        elif valid:
            extra = '\nvalid options: ' + ', '.join(valid)
        self.exit(EXIT_USAGE, f'{self.prog}: error: {message}{extra}\n')


SUBPARSERS: Dict[str, Parser] = {}


def build_parser() -> Parser:
    parser = Parser(prog='kunit-wrapper.py', description=(
        'Build the patched linux-source-6.12 tree and run the KUnit suites under QEMU '
        '(x86_64, arm64 with LSE and with LL/SC atomics).'))
    parser.add_argument('--force', action='store_true',
                        help='discard work in the kernel tree (same as FORCE=1)')
    sub = parser.add_subparsers(dest='command', parser_class=Parser, metavar='COMMAND')

    def arch_opts(p: argparse.ArgumentParser) -> None:
        p.add_argument('--arch', action='append', metavar='ARCH',
                       help=f'comma-separated, repeatable: {", ".join(VALID_ARCHES)} '
                            '(default: all)')
        p.add_argument('--profile', default=DEFAULT_PROFILE,
                       help='tools/profiles/<name>.config fragment (default: default)')
        p.add_argument('--jobs', type=int, default=len(os.sched_getaffinity(0)),
                       help='make --jobs (default: number of CPUs)')

    sub.add_parser('prepare', help='unpack/patch the kernel tree and copy kunit/ into it')
    run = sub.add_parser('run', help='build and boot, print results')
    arch_opts(run)
    run.add_argument('--kernel-arg', action='append', default=[], metavar='ARG',
                     help='extra kernel command-line argument, repeatable (e.g. '
                          'lrb_kunit.lrb_stress_ms=60000 for a longer soak)')
    run.add_argument('--show-log', action='store_true',
                     help="print each case's KTAP diagnostic lines")
    run.add_argument('globs', nargs='*', metavar='GLOB',
                     help='kunit.py filter glob (suite or suite.case); one boot per glob')
    lst = sub.add_parser('list', help='suites and cases from kunit/, without building')
    lst.add_argument('globs', nargs='*', metavar='GLOB')
    sub.add_parser('export', help='write the tree commits back to kernel-patch/ '
                                  '(and edited tests to kunit/)')
    sub.add_parser('status', help='report unexported work in the kernel tree, change nothing')
    sub.add_parser('check', help='checkpatch, kernel-doc, kunit/ and bench/ against their '
                   'patches, mypy, the wrapper unit tests, sparse')
    w1 = sub.add_parser('w1', help='compile the series objects with W=1, fail on warnings')
    arch_opts(w1)
    test = sub.add_parser('test', help='check, run every target, W=1, kbuffer-check, the '
                          'sanitizer passes and the 8-byte layout: what CI runs')
    arch_opts(test)
    test.add_argument('--no-sanitizers', action='store_true',
                      help='skip the passes after the default profile (' +
                      ', '.join(f'{p} on {a}' for p, a in CI_EXTRA_PASSES) + ')')
    san = sub.add_parser('sanitizers', help='every sanitizer profile on x86_64 and arm64-lse')
    san.add_argument('--jobs', type=int, default=len(os.sched_getaffinity(0)),
                     help='make --jobs for the kernel builds')
    bench = sub.add_parser('bench', help='lrb_bench in its production profile on x86_64, '
                           'arm64-lse, arm64-nopac (the arm64 kernel without pointer '
                           'authentication) and x86_64-icount, arm64-icount, riscv64-icount, '
                           'i386-icount, arm-icount (QEMU counting instructions), then '
                           'docs/bench.md and docs/bench.png')
    bench.add_argument('--arch', action='append', metavar='ARCH',
                       help=f'comma-separated, repeatable: {", ".join(BENCH_ARCHES)} '
                            '(default: all of them)')
    bench.add_argument('--jobs', type=int, default=len(os.sched_getaffinity(0)),
                       help='make --jobs for the kernel builds')
    bench.add_argument('--profile', default=BENCH_PROFILE,
                       help='a standalone profile of the benchmark (default: bench, the '
                            'production options; bench-debug adds '
                            'CONFIG_LOCKLESS_RING_BUFFER_DEBUG); another than bench writes '
                            'its report beside its logs')
    bench.add_argument('--kernel-arg', action='append', default=[], metavar='ARG',
                       help='extra kernel argument, e.g. lrb_bench.reps=11')
    bench.add_argument('--out', help='the markdown page to write (default: docs/bench.md, or '
                       'bench.md beside the logs when --arch picks some targets)')
    bench.add_argument('--png', help='the chart to write (default: beside --out, bench.png)')
    ser = sub.add_parser('series', help='the series for a mailing list: format-patch with a '
                         'cover letter, subjects, checkpatch, git am onto the base and a build')
    ser.add_argument('--dir', help='where to write it (default: results/series)')
    ser.add_argument('--no-build', action='store_true',
                     help='skip the git am onto the base and the build')
    ser.add_argument('--jobs', type=int, default=len(os.sched_getaffinity(0)),
                     help='make --jobs for the build')
    sub.add_parser('profiles', help='list the profiles and their metadata')
    deps = sub.add_parser('deps', help='check (default) or install the Debian packages')
    deps.add_argument('mode', nargs='?', default='check', choices=['check', 'install'])
    SUBPARSERS.update(sub.choices)
    return parser


# -- helpers ---------------------------------------------------------------------

def select(ctx: Context, arch_specs: Optional[List[str]], profile_name: str
           ) -> 'tuple[List[Target], Profile]':
    profile = load_profile(ctx.profile_dir, profile_name)
    targets = parse_arches(arch_specs or ['all'])
    unsupported = [t for t in targets if not profile.supports(t)]
    if unsupported and arch_specs:
        raise HarnessError(f'profile {profile.name} supports only {" ".join(profile.arches or [])}'
                           f'; not {", ".join(t.name for t in unsupported)}')
    for tgt in unsupported:
        say(f'profile {profile.name} does not support {tgt.name}: skipped')
    targets = [t for t in targets if profile.supports(t)]
    if not targets:
        raise HarnessError(f'profile {profile.name} supports none of the selected arches')
    return targets, profile


def check_tools(targets: List[Target]) -> None:
    """The QEMU and compiler binaries the targets need (packages: make deps)."""
    missing = []
    for tgt in targets:
        for tool in [tgt.qemu_binary, kunitrun.compiler(tgt)]:
            if not shutil.which(tool) and tool not in missing:
                missing.append(tool)
    if missing:
        raise HarnessError(f'missing {", ".join(missing)}: run `make deps`')


def prepare(ctx: Context) -> tree.Prepared:
    cfg = ctx.tree_config()
    say(f'preparing tree {cfg.tree}')
    prep = tree.prepare(cfg)
    what = 'series re-applied' if prep.applied else 'series unchanged'
    copied = f', {len(prep.copied)} test files copied' if prep.copied else ''
    removed = f', {len(prep.uncopied)} removed' if prep.uncopied else ''
    say(f'  tree ready ({paths.PACKAGE} {prep.version}, {what}{copied}{removed})')
    return prep


def results_dir(repo: Path, profile: str) -> Path:
    stamp = datetime.datetime.now().strftime('%Y%m%d-%H%M%S')
    root = paths.results_root(repo)
    out = root / f'{stamp}-{profile}'
    suffix = 1
    while out.exists():
        suffix += 1
        out = root / f'{stamp}-{profile}-{suffix}'
    out.mkdir(parents=True)
    latest = root / 'latest'
    if latest.is_symlink() or latest.exists():
        latest.unlink()
    latest.symlink_to(out.name)
    return out


def _slug(glob: str) -> str:
    return ''.join(c if c.isalnum() or c in '._-' else '_' for c in glob) or 'all'


def groups(targets: List[Target]) -> Dict[str, List[Target]]:
    grouped: Dict[str, List[Target]] = {}
    for tgt in targets:
        grouped.setdefault(tgt.build, []).append(tgt)
    return grouped


# -- run ---------------------------------------------------------------------------

@dataclass
class RunResult:
    boots: List[results.BootResult]
    out_dir: Path
    built: List[str]   # build keys whose kernel built


def run_targets(ctx: Context, prep: tree.Prepared, targets: List[Target], profile: Profile,
                globs: List[str], jobs: int) -> RunResult:
    check_tools(targets)
    if not (ctx.repo / '.kunitconfig').is_file():
        raise HarnessError(f'{ctx.repo / ".kunitconfig"} is missing: it enables the suites')
    out_dir = results_dir(ctx.repo, profile.name)
    source_suites = suites.repo_suites(ctx.repo)
    env = kunitrun.kunit_env(paths.ccache_dir(ctx.env), ctx.env)
    boots: List[results.BootResult] = []
    built: List[str] = []
    for build, tgts in groups(targets).items():
        build_dir = paths.build_dir(build, profile.name, ctx.env)
        with kunitrun.build_lock(build_dir, say):
            ok = boot_build(ctx, prep, build, tgts, profile, globs, jobs, env, out_dir,
                            source_suites, boots)
        if ok:
            built.append(build)
    return RunResult(boots, out_dir, built)


def boot_build(ctx: Context, prep: tree.Prepared, build: str, tgts: List[Target],
               profile: Profile, globs: List[str], jobs: int, env: Dict[str, str],
               out_dir: Path, source_suites: List[suites.Suite],
               boots: List[results.BootResult]) -> bool:
    """One build (kunit.py run), then every other boot of it (kunit.py exec).

    Returns whether the kernel built."""
    build_dir = paths.build_dir(build, profile.name, ctx.env)
    first = kunitrun.Request(tgts[0], 'run', ctx.repo, prep.tree, build_dir, profile, '',
                             out_dir / 'unused.json', jobs)
    stamp = buildstamp.inputs(kunitrun.command(first), prep.tree, tree.state_path(prep.tree),
                              kunitrun.compiler(tgts[0]))
    subcommand = 'run'
    if buildstamp.matches(build_dir, stamp, env):
        say(f'[{build}] up to date ({buildstamp.STAMP_FILE}: the same tree, configs and '
            f'compiler built its vmlinux): booting it')
        subcommand = 'exec'
    else:
        buildstamp.clear(build_dir)
    for tgt in tgts:
        for index, glob in enumerate(globs or ['']):
            stem = tgt.name if len(globs) <= 1 else f'{tgt.name}-{index + 1}-{_slug(glob)}'
            req = kunitrun.Request(tgt, subcommand, ctx.repo, prep.tree, build_dir,
                                   profile, glob, out_dir / f'{stem}.json', jobs)
            boot = boot_once(req, env, out_dir, stem, source_suites)
            boots.append(boot)
            built = not (boot.errors and 'before booting' in boot.errors[0])
            if subcommand == 'run' and built:
                buildstamp.record(build_dir, stamp)
            if subcommand == 'run' and not built:
                for other in tgts[1:]:
                    boots.append(results.BootResult(
                        target=other.name, glob=glob,
                        errors=[f'not booted: the {build} build failed'], failed=1))
                return False
            subcommand = 'exec'
    return True


def boot_once(req: kunitrun.Request, env: Dict[str, str], out_dir: Path, stem: str,
              source_suites: List[suites.Suite]) -> results.BootResult:
    test_log = req.build_dir / 'test.log'
    if test_log.exists():
        test_log.unlink()
    outcome = kunitrun.Runner(req, env, say, out_dir / f'{stem}.kunit.txt').run()
    log_lines: List[str] = []
    saved_log = out_dir / f'{stem}.log'
    if outcome.booted and test_log.is_file():
        shutil.copyfile(test_log, saved_log)
        log_lines = saved_log.read_text(errors='replace').splitlines()
    boot = results.analyze(req.target, req.profile, outcome, log_lines,
                           suites.selected_cases(source_suites, req.glob), req.glob)
    boot.log_path = str(saved_log if log_lines else out_dir / f'{stem}.kunit.txt')
    boot.json_path = str(req.json_path) if req.json_path.exists() else ''
    say(f'  [{req.target.name}] {report.closing_line(boot.passed, boot.failed, boot.skipped)}'
        f'; {boot.cpus if boot.cpus is not None else "?"} CPUs'
        f'; atomics: {boot.atomics or "?"}')
    return boot


def print_run(res: RunResult, show_log: bool) -> None:
    report.print_tables(res.boots, plain, show_log)
    report.print_failures(res.boots, plain)
    summary = res.out_dir / 'summary.json'
    results.write_summary(summary, res.boots, {})
    plain('')
    plain(f'results: {summary}')
    for boot in res.boots:
        if boot.json_path:
            plain(f'  {boot.target}{" " + boot.glob if boot.glob else ""}: '
                  f'kunit.py JSON {boot.json_path}, kernel log {boot.log_path}')


def totals(boots: List[results.BootResult]) -> 'tuple[int, int, int]':
    return (sum(b.passed for b in boots), sum(b.failed for b in boots),
            sum(b.skipped for b in boots))


def targets_ok(boots: List[results.BootResult], targets: List[Target]) -> bool:
    names = {b.target for b in boots}
    return all(t.name in names for t in targets) and all(b.ok for b in boots)


def cmd_run(ctx: Context, args: argparse.Namespace) -> int:
    targets, profile = select(ctx, args.arch, args.profile)
    profile.kernel_args += args.kernel_arg
    prep = prepare(ctx)
    res = run_targets(ctx, prep, targets, profile, args.globs, args.jobs)
    print_run(res, args.show_log)
    plain(report.closing_line(*totals(res.boots)))
    return EXIT_OK if targets_ok(res.boots, targets) else EXIT_FAIL


# -- check, w1, test -----------------------------------------------------------------

def run_checks(ctx: Context, prep: tree.Prepared) -> List[checks.CheckResult]:
    say('check: checkpatch --strict on kernel-patch/, checkpatch -f and kernel-doc on the '
        'sources, kunit/ and bench/ against their patches, mypy, wrapper unit tests, sparse')
    patch_dir = ctx.repo / 'kernel-patch'
    patch_files = [p.path for p in tree.read_series(patch_dir)]
    patch_files += sorted(p for p in patch_dir.glob('*.patch') if p not in patch_files)
    dir_sources = sorted(p for sdir in srcdirs.SOURCE_DIRS for p in sdir.src(ctx.repo).rglob('*')
                         if p.suffix in ('.c', '.h'))
    doc_files = [prep.tree / n for n in checks.doc_sources(prep.tree)
                 if srcdirs.owner(n) is None]  # the copies are checked in the repository
    doc_files += [p for p in dir_sources if p.suffix == '.c']
    copies = checks.standalone_copies(patch_files, ctx.repo / checks.STANDALONE_DIR)
    jobs: List[Callable[[], checks.CheckResult]] = [
        lambda: checks.checkpatch(prep.tree, patch_files, as_files=False,
                                  ignored=checks.series_ignored(patch_files, copies)),
        lambda: checks.checkpatch(prep.tree, dir_sources, as_files=True,
                                  ignored=checks.asm_nmi_ignored(dir_sources)),
        lambda: checks.kernel_doc(prep.tree, doc_files),
        lambda: checks.same_as_standalone(copies),
        lambda: contracts.check(prep.tree, ctx.repo),
        lambda: checks.copies_match(ctx.tree_config()),
        lambda: checks.mypy(ctx.repo),
        lambda: checks.unit_tests(ctx.repo)]
    # Independent processes that read and do not write: two at a time
    with ThreadPoolExecutor(max_workers=2) as pool:
        found = [f.result() for f in [pool.submit(job) for job in jobs]]
    found[0].name = found[0].name.replace('checkpatch --strict',
                                          f'checkpatch --strict ({len(patch_files)} patches)', 1)
    found[1].name += f' ({len(dir_sources)} files)'
    found[2].name += f' ({len(doc_files)} files)'
    return found + sparse.check_arches(ctx.repo, prep.tree, ctx.env, say)


def print_checks(found: List[checks.CheckResult]) -> None:
    for res in found:
        plain(f'  {"ok  " if res.ok else "FAIL"} {res.name}')
        for line in res.problems:
            plain(f'       {line}')


def run_w1(ctx: Context, prep: tree.Prepared, targets: List[Target], profile: Profile,
           jobs: int, only: Optional[List[str]] = None) -> List[checks.CheckResult]:
    found = []
    for build, tgts in groups(targets).items():
        if only is not None and build not in only:
            continue
        found.append(checks.w1(prep.tree, tgts[0],
                               paths.build_dir(build, profile.name, ctx.env), jobs, say,
                               kunitrun.kunit_env(paths.ccache_dir(ctx.env), ctx.env)))
    return found


def cmd_check(ctx: Context, _args: argparse.Namespace) -> int:
    prep = prepare(ctx)
    found = run_checks(ctx, prep)
    print_checks(found)
    bad = sum(not r.ok for r in found)
    plain(f'check: {"passed" if not bad else f"{bad} of {len(found)} checks FAILED"}')
    return EXIT_OK if not bad else EXIT_FAIL


def cmd_w1(ctx: Context, args: argparse.Namespace) -> int:
    targets, profile = select(ctx, args.arch, args.profile)
    prep = prepare(ctx)
    found = run_w1(ctx, prep, targets, profile, args.jobs)
    print_checks(found)
    bad = sum(not r.ok for r in found)
    plain(f'w1: {"passed" if not bad else "FAILED"}')
    return EXIT_OK if not bad else EXIT_FAIL


# What `test` runs after the default profile, and what `sanitizers` runs.
# The function tracer shares the x86_64 sanitizer build (one cold build
# less); 64K pages boot on both arm64 CPUs. KCSAN on arm64 is in
# `sanitizers` only: with it, a cold `make test` does not stay within CI's
# 45 minutes (docs/testing.md, "Times"), and x86_64's KCSAN pass
# instruments the same C code.
# KCSAN and 64K pages do not share one arm64 build: under KCSAN the
# writers of the stress and hrtimer cases no longer fill rings of 64 KiB
# pages in their time, and their overwrite preconditions fail
# (2026-12-07). lrb's 8-byte layout (profile align8) is riscv64's own
# (HAVE_64BIT_ALIGNED_ACCESS), which the default profile runs, the kernel
# buffer's RB_FORCE_8BYTE_ALIGNMENT with it.
CI_EXTRA_PASSES = [('kcsan+lockdep+ftrace', 'x86_64'), ('pages64k', 'arm64')]
ALL_SANITIZER_PASSES = [(p, 'x86_64,arm64-lse') for p in ('kcsan', 'kasan', 'lockdep', 'kmemleak')]
# make upstream's (base, arch) passes that `test` runs too (not test-quick,
# not another profile): the standalone series' checks and cover letter, its
# suite fixed, without the reader-page fix and without the head push fix,
# booted once each (upstream.CI_VARIANTS, CI_RUNS);
# their cases count in the closing line. 6.1 and arm64 stay in `make
# upstream` (docs/upstream/README.md, "In make test")
UPSTREAM_IN_TEST: List[Tuple[str, str]] = [('6.12', 'x86_64')]


def run_passes(ctx: Context, prep: tree.Prepared, passes: List['tuple[str, str]'], jobs: int,
               step_times: Dict[str, float]) -> List[RunResult]:
    """Each (profile, arch) pass: its own builds, every suite."""
    done = []
    for name, arch in passes:
        targets, profile = select(ctx, [arch], name)
        say(f'== profile {name} on {arch} ==')
        t0 = time.monotonic()
        done.append(run_targets(ctx, prep, targets, profile, [], jobs))
        step_times[name + '@' + arch] = time.monotonic() - t0
    return done


def kbuffer_logs(res: RunResult) -> List[Path]:
    logs = []
    for boot in res.boots:
        path = Path(boot.log_path) if boot.log_path else None
        if path and path.suffix == '.log' and path.is_file() and \
                'lrb-kbuffer-begin' in path.read_text(errors='replace'):
            logs.append(path)
    return logs


def scenarios_log(res: RunResult) -> Optional[Path]:
    """The x86_64 kernel log the scenario catalogue is made from, if x86_64 ran."""
    for boot in res.boots:
        if boot.target == 'x86_64' and boot.log_path and Path(boot.log_path).is_file():
            return Path(boot.log_path)
    return None


def model_key(repo: Path) -> str:
    """What make model's outcome is a function of: the model, the tools that
    configure, run and read SPIN, the trails header they check, SPIN's and
    gcc's versions."""
    files = [p for p in (repo / 'model').rglob('*') if p.is_file()]
    files += sorted((repo / 'tools').glob('model*.py'))
    files.append(repo / 'kunit' / 'lrb_nesting_trails.h')
    return resultcache.key(files, repo, [['spin', '-V'], ['gcc', '--version']])


def run_model(ctx: Context) -> checks.CheckResult:
    """make model (tools/model.py, beside this package): SPIN on model/lrb.pml,
    unless a pass with the same inputs is recorded (resultcache.py)."""
    import model  # pylint: disable=import-outside-toplevel
    name = 'model: SPIN, exhaustive (make model)'
    say('== model: SPIN on model/lrb.pml ==')
    key = model_key(ctx.repo)
    when = resultcache.passed('model', key, ctx.env)
    if when is not None:
        say(f'model: the same model, tools and SPIN passed on {when} (key {key}): not '
            f'searched again ({resultcache.DISABLE}=1 or make model searches)')
        return checks.CheckResult(f'{name}: as passed on {when}, same inputs', True)
    ok = model.run_ci()
    if ok:
        resultcache.record('model', key, ctx.env)
    return checks.CheckResult(name, ok)


def cmd_test(ctx: Context, args: argparse.Namespace) -> int:
    """check + run + W=1 + model; the closing line counts the KUnit cases, plus
    one failure for each harness step (check, W=1, model) that failed."""
    start = time.monotonic()
    targets, profile = select(ctx, args.arch, args.profile)
    prep = prepare(ctx)
    step_times: Dict[str, float] = {}
    t0 = time.monotonic()
    found = run_checks(ctx, prep)
    step_times['check'] = time.monotonic() - t0
    t0 = time.monotonic()
    res = run_targets(ctx, prep, targets, profile, [], args.jobs)
    step_times['run'] = time.monotonic() - t0
    t0 = time.monotonic()
    w1_found = run_w1(ctx, prep, targets, profile, args.jobs, only=res.built)
    step_times['w1'] = time.monotonic() - t0
    t0 = time.monotonic()
    w1_found.append(checks.kbuffer_check(ctx.repo, res.out_dir, kbuffer_logs(res), say))
    step_times['kbuffer-check'] = time.monotonic() - t0
    design_log = scenarios_log(res)
    if design_log is not None:
        w1_found.append(checks.scenarios_current(ctx.repo, res.out_dir, design_log))
    t0 = time.monotonic()
    w1_found.append(run_model(ctx))
    step_times['model'] = time.monotonic() - t0
    ups: List[upstream.CiPass] = []
    if UPSTREAM_IN_TEST and not args.no_sanitizers and profile.name == DEFAULT_PROFILE:
        t0 = time.monotonic()
        ups = upstream.ci_passes(ctx.repo, ctx.env, UPSTREAM_IN_TEST, args.jobs, say)
        step_times['upstream'] = time.monotonic() - t0
    extra = [] if args.no_sanitizers or profile.name != DEFAULT_PROFILE else \
        run_passes(ctx, prep, CI_EXTRA_PASSES, args.jobs, step_times)
    if extra:
        # the passes' pages too: 64 KiB ones on arm64
        w1_found.append(checks.kbuffer_check(
            ctx.repo, extra[0].out_dir, [log for run in extra for log in kbuffer_logs(run)],
            say))
        w1_found[-1].name += ', the passes after the default profile'
    for run in [res] + extra:
        print_run(run, False)
    plain('')
    for up in ups:
        plain('')
        for line in upstream.ci_lines(up):
            plain(line)
    plain('')
    plain('== harness checks ==')
    up_checks = [c for up in ups for c in up.checks]
    print_checks(found + w1_found + up_checks)
    timing = ', '.join(f'{k} {v:.0f}s' for k, v in step_times.items())
    plain(f'elapsed: {time.monotonic() - start:.0f}s ({timing})')
    boots = [b for run in [res] + extra for b in run.boots]
    passed, failed, skipped = upstream_totals(totals(boots), ups)
    bad_steps = sum(not r.ok for r in found + w1_found + up_checks)
    ok = (targets_ok(res.boots, targets) and all(b.ok for b in boots) and not bad_steps and
          all(up.ok() for up in ups))
    record_test(ctx, prep, profile, [res] + extra, found + w1_found + up_checks, step_times,
                start, 'make test-quick' if args.no_sanitizers else 'make test', ups)
    names = pass_names(profile)
    summary = report.failure_summary([(n, r.boots) for n, r in zip(names, [res] + extra)])
    summary += upstream_failures(ups, bool(summary))
    for line in summary:
        plain(line)
    plain(report.closing_line(passed, failed + bad_steps, skipped))
    return EXIT_OK if ok else EXIT_FAIL


def upstream_totals(counts: 'tuple[int, int, int]', ups: List[upstream.CiPass]
                    ) -> 'tuple[int, int, int]':
    """The closing line's counts with the upstream passes' cases added (a
    race case red without the fix counts as passed; upstream.count_run)."""
    return (counts[0] + sum(u.passed for u in ups), counts[1] + sum(u.failed for u in ups),
            counts[2] + sum(u.skipped for u in ups))


def upstream_failures(ups: List[upstream.CiPass], more: bool, limit: int = 10) -> List[str]:
    """The lines of the failure summary for the upstream passes: one that
    names the pass and the command that reruns it, then what failed."""
    lines: List[str] = []
    for up in ups:
        if up.ok():
            continue
        bad = [c.name for c in up.checks if not c.ok] + up.problems
        lines.append(f'  {up.name} FAILED (make upstream BASE={up.base} ARCH={up.arch} '
                     f'RUNS=1): {len(bad)} problem{"s" if len(bad) != 1 else ""}')
        lines += [f'    {line}' for line in bad[:limit]]
        if len(bad) > limit:
            lines.append(f'    ... and {len(bad) - limit} more')
    return (lines if more else ['failed:'] + lines) if lines else []


def pass_names(profile: Profile) -> List[str]:
    """make test's passes in order: the profile run, then CI_EXTRA_PASSES."""
    return [profile.name] + [name for name, _arch in CI_EXTRA_PASSES]


def record_test(ctx: Context, prep: tree.Prepared, profile: Profile, runs: List[RunResult],
                found: List[checks.CheckResult], step_times: Dict[str, float],
                start: float, command: str,
                ups: Optional[List[upstream.CiPass]] = None) -> None:
    """The whole run into results/latest/summary.json (testrecord.py)."""
    passes = [testrecord.Pass(name, run.out_dir, run.boots)
              for name, run in zip(pass_names(profile), runs)]
    test = testrecord.section(passes, found, step_times, time.monotonic() - start,
                              f'{paths.PACKAGE} {prep.version}',
                              testrecord.repo_commit(ctx.repo), command,
                              [upstream.ci_summary(u) for u in ups or []])
    plain(f'make test recorded in {testrecord.write(passes, test)}')


def cmd_sanitizers(ctx: Context, args: argparse.Namespace) -> int:
    """Every sanitizer profile on both arches; the closing line sums them."""
    start = time.monotonic()
    prep = prepare(ctx)
    step_times: Dict[str, float] = {}
    runs = run_passes(ctx, prep, ALL_SANITIZER_PASSES, args.jobs, step_times)
    for run in runs:
        print_run(run, False)
    timing = ', '.join(f'{k} {v:.0f}s' for k, v in step_times.items())
    plain(f'elapsed: {time.monotonic() - start:.0f}s ({timing})')
    boots = [b for run in runs for b in run.boots]
    plain(report.closing_line(*totals(boots)))
    return EXIT_OK if boots and all(b.ok for b in boots) else EXIT_FAIL


# -- bench ---------------------------------------------------------------------------

BENCH_PROFILE = 'bench'
BENCH_ARCHES = ['x86_64', 'arm64-lse', 'arm64-nopac', 'x86_64-icount', 'arm64-icount',
                'riscv64-icount', 'i386-icount', 'arm-icount']


def insn_count(ctx: Context, tgt: Target, profile: Profile, out: Path) -> Path:
    """tools/insn_count.py on the bench build's vmlinux; returns its JSON."""
    vmlinux = paths.build_dir(tgt.build, profile.name, ctx.env) / 'vmlinux'
    cmd = [sys.executable, str(ctx.repo / 'tools' / 'insn_count.py'),
           '--arch', tgt.build, '--vmlinux', str(vmlinux), '--json', str(out)]
    if tgt.cross_compile:
        cmd += ['--cross', tgt.cross_compile]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise HarnessError(f'insn_count.py on {vmlinux} failed: '
                           f'{(proc.stderr or proc.stdout).strip()}')
    return out


def bench_label(tgt: Target) -> str:
    """The report's name for a target's section: the arch for the targets
    the tests run on, the target's own name for the bench-only one."""
    return tgt.build if tgt.name in ARCH_GROUPS['all'] else tgt.name


def bench_outputs(out: Optional[str], png: Optional[str], partial: bool,
                  out_dir: Path) -> Tuple[str, str]:
    """Where the report goes: docs/ for a run of every target; a run of some
    targets writes beside its logs, so that it never replaces the committed
    report with a part of it. --out and --png choose otherwise."""
    if out is None:
        out = str(out_dir / 'bench.md') if partial else 'docs/bench.md'
    if png is None:
        png = str(Path(out).with_name('bench.png'))
    return out, png


def cmd_bench(ctx: Context, args: argparse.Namespace) -> int:
    """Full counts (lrb_bench.smoke=0), one boot per arch, then the report."""
    targets, profile = select(ctx, args.arch or [','.join(BENCH_ARCHES)], args.profile)
    if not profile.standalone:
        raise HarnessError(f'bench: profile {profile.name} is not a standalone profile: '
                           'the benchmark runs only in one of its own (bench, bench-debug)')
    profile.kernel_args += ['lrb_bench.smoke=0'] + args.kernel_arg
    prep = prepare(ctx)
    res = run_targets(ctx, prep, targets, profile, [], args.jobs)
    print_run(res, False)
    if not targets_ok(res.boots, targets):
        plain(report.closing_line(*totals(res.boots)))
        plain('bench: a boot failed: no report written')
        return EXIT_FAIL
    partial = bool(args.arch) or profile.name != BENCH_PROFILE
    out, png = bench_outputs(args.out, args.png, partial, res.out_dir)
    report_cmd = [sys.executable, str(ctx.repo / 'tools' / 'bench_report.py'),
                  '--command', 'make bench' + (f' ARCH={",".join(args.arch)}' if args.arch else '')
                  + (f' PROFILE={profile.name}' if profile.name != BENCH_PROFILE else ''),
                  '--out', out, '--png', png]
    counted: Dict[str, Path] = {}  # build -> its counts: targets that share a build share them
    for boot in res.boots:
        tgt = next(t for t in targets if t.name == boot.target)
        label = bench_label(tgt)
        report_cmd += ['--log', f'{label}={boot.log_path}']
        if tgt.build not in counted:
            say(f'[{tgt.name}] counting the write fast path instructions in vmlinux')
            try:
                counted[tgt.build] = insn_count(ctx, tgt, profile,
                                                res.out_dir / f'insn-{tgt.build}.json')
            except HarnessError as exc:  # the figures are still worth writing
                say(f'[{tgt.name}] warning: no instruction counts: {exc.message}')
                continue
        report_cmd += ['--insn', f'{label}={counted[tgt.build]}']
    say(f'writing {out} and {png}')
    code = subprocess.call(report_cmd, cwd=ctx.repo)
    plain(report.closing_line(*totals(res.boots)))
    return EXIT_OK if code == 0 else EXIT_FAIL


# -- small commands ---------------------------------------------------------------------

def cmd_prepare(ctx: Context, _args: argparse.Namespace) -> int:
    prep = prepare(ctx)
    plain(f'tree: {prep.tree}')
    return EXIT_OK


def cmd_status(ctx: Context, _args: argparse.Namespace) -> int:
    cfg = ctx.tree_config()
    problems = tree.pending_work(cfg)
    if not problems:
        plain(f'tree {cfg.tree}: no unexported work')
        return EXIT_OK
    plain(f'tree {cfg.tree} has unexported work:')
    for problem in problems:
        plain('- ' + problem)
    return EXIT_USAGE


def cmd_export(ctx: Context, _args: argparse.Namespace) -> int:
    exported = tree.export(ctx.tree_config())
    plain(f'exported {len(exported.patches)} patches to kernel-patch/ '
          f'({len(exported.written)} written, {len(exported.removed)} removed, '
          'series updated)')
    for name in exported.written:
        plain(f'  wrote kernel-patch/{name}')
    for name in exported.removed:
        plain(f'  removed kernel-patch/{name}')
    for rel in exported.copied_back:
        plain(f'  copied back {rel}')
    return EXIT_OK


def cmd_list(ctx: Context, args: argparse.Namespace) -> int:
    found = suites.repo_suites(ctx.repo)
    lines = suites.format_list(found, args.globs)
    if not lines:
        plain('no suites found in kunit/' + (f' matching {" ".join(args.globs)}'
                                              if args.globs else ''))
        return EXIT_FAIL
    for line in lines:
        plain(line)
    return EXIT_OK


def cmd_series(ctx: Context, args: argparse.Namespace) -> int:
    prep = prepare(ctx)
    cfg = series.config(ctx.repo, prep.tree, prep.version, args.dir, not args.no_build,
                        args.jobs, ctx.env, say)
    found = series.make_series(cfg)
    print_checks(found)
    bad = sum(not r.ok for r in found)
    plain(f'series: {cfg.out}: ' + ('ready' if not bad else f'{bad} of {len(found)} checks FAILED'))
    return EXIT_OK if not bad else EXIT_FAIL


def cmd_profiles(ctx: Context, _args: argparse.Namespace) -> int:
    for name in profile_names(ctx.profile_dir):
        prof = load_profile(ctx.profile_dir, name)
        meta = [f'arches: {" ".join(prof.arches)}' if prof.arches else 'arches: all',
                f'timeout: {prof.timeout}s']
        if prof.qemu_args:
            meta.append('qemu_args: ' + ' '.join(prof.qemu_args))
        if prof.kernel_args:
            meta.append('kernel_args: ' + ' '.join(prof.kernel_args))
        plain(f'{name:<10} {prof.description}  [{"; ".join(meta)}]')
    return EXIT_OK


def cmd_deps(ctx: Context, args: argparse.Namespace) -> int:
    script = ctx.repo / 'tools' / 'deps.sh'
    return subprocess.call(['bash', str(script), args.mode])


COMMANDS: Dict[str, Callable[[Context, argparse.Namespace], int]] = {
    'prepare': cmd_prepare, 'run': cmd_run, 'list': cmd_list, 'export': cmd_export,
    'check': cmd_check, 'w1': cmd_w1, 'test': cmd_test, 'profiles': cmd_profiles,
    'sanitizers': cmd_sanitizers, 'bench': cmd_bench, 'series': cmd_series,
    'deps': cmd_deps, 'status': cmd_status,
}


def main(argv: Sequence[str], repo: Optional[Path] = None,
         env: Optional[Dict[str, str]] = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(list(argv))
    if extra:
        owner = SUBPARSERS.get(args.command or '', parser)
        owner.error('unrecognized arguments: ' + ' '.join(extra))
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    env = dict(os.environ) if env is None else env
    force = args.force or env.get('FORCE', '') not in ('', '0')
    ctx = Context(repo=repo or paths.repo_root(), env=env, force=force)
    try:
        return COMMANDS[args.command](ctx, args)
    except HarnessError as exc:
        print(f'error: {exc.message}', file=sys.stderr, flush=True)
        return exc.code
    except KeyboardInterrupt:
        print('interrupted', file=sys.stderr)
        return 130
