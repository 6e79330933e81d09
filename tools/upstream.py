#!/usr/bin/env python3
"""The standalone series for the tracing list (kernel-patch/upstream-<base>/),
on each base, fixed and unfixed (tools/lrb_harness/upstream.py).

    tools/upstream.py [--base 6.12,6.1] [--arch x86_64,arm64] [--runs N]
                      [--variant fixed,unfixed,iter-unfixed,head-unfixed] [--no-text]
                      [--lean] [--jobs N]
    tools/upstream.py export BASE    write the tree's commits to the series directory

make upstream runs the first (BASE=, ARCH=, RUNS=, JOBS=, LEAN=1). Exit 0 when every
check passed and every boot failed exactly the cases its variant lacks the
fix for.
"""

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import List, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lrb_harness import cli, paths, report, upstream  # noqa: E402
from lrb_harness.errors import HarnessError  # noqa: E402


def print_results(done: List[upstream.BaseResult], out_dir: Path) -> int:
    """Everything a run found; returns the failed checks and the builds that
    failed (the boots are counted apart)."""
    failures = 0
    for res in done:
        cli.plain('')
        cli.plain(f'== upstream {res.base} ==')
        for check in res.checks:
            cli.plain(f'  {"ok  " if check.ok else "FAIL"} {check.name}')
            failures += not check.ok
            for line in check.problems:
                cli.plain(f'       {line}')
        for text in res.texts:
            cli.plain(f'  {"ok  " if text.ok else "FAIL"} {text.arch}: ring_buffer.o with the '
                      f'hooks off, the fixes alone and with the rest of the series: {text.detail} '
                      f'({text.seconds:.0f} s)')
            failures += not text.ok
        cli.plain('')
        for line in upstream.figures(res.runs):
            cli.plain('  ' + line)
        failures += sum(1 for r in res.runs if r.error)
        cli.plain(f'  cover letter and patches: {Path(res.letter).parent}')
    cli.plain('')
    cli.plain(f'results: {out_dir / "summary.json"}')
    return failures


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--base', action='append', help='6.12, 6.1 (default both)')
    ap.add_argument('--arch', action='append', help='x86_64, arm64 (default both)')
    ap.add_argument('--variant', action='append',
                    help='fixed, unfixed, iter-unfixed, head-unfixed (default all; '
                         'head-unfixed where the series has the head push fix)')
    ap.add_argument('--runs', type=int, default=upstream.DEFAULT_RUNS,
                    help=f'boots per build (default {upstream.DEFAULT_RUNS})')
    ap.add_argument('--no-text', action='store_true',
                    help='skip the comparison of ring_buffer.o with the hooks off')
    ap.add_argument('--lean', action='store_true',
                    help="build with tools/qemu_configs/lean.config besides kernel/trace's "
                         "(make test's pass), in build directories of their own")
    ap.add_argument('--jobs', type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument('command', nargs='*', help='export BASE')
    args = ap.parse_args(argv)
    env = dict(os.environ)
    repo = paths.repo_root()
    try:
        if args.command:
            if args.command[0] != 'export' or len(args.command) != 2:
                raise HarnessError('usage: tools/upstream.py export BASE')
            base = next((b for b in upstream.BASES if b.name == args.command[1]), None)
            if base is None:
                raise HarnessError(f'unknown base {args.command[1]}')
            names = upstream.export(base, repo, paths.cache_root(env), cli.say)
            cli.plain(f'exported {len(names)} patches to {base.series_dir(repo)}')
            return 0
        bases = [b for b in upstream.BASES
                 if b.name in upstream.pick(args.base, [x.name for x in upstream.BASES],
                                            'base')]
        arches = [replace(a, lean=args.lean) for a in upstream.ARCHES
                  if a.name in upstream.pick(args.arch, [x.name for x in upstream.ARCHES],
                                             'arch')]
        variants = [v for v in upstream.VARIANTS
                    if v.name in upstream.pick(args.variant,
                                               [x.name for x in upstream.VARIANTS], 'variant')]
        if args.runs < 1:
            raise HarnessError('--runs: at least 1')
        force = env.get('FORCE', '') not in ('', '0')
        done, out_dir = upstream.run(repo, env, bases, arches, variants, args.runs, args.jobs,
                                     not args.no_text, force, cli.say)
    except HarnessError as exc:
        print(f'error: {exc.message}', file=sys.stderr)
        return exc.code
    failures = print_results(done, out_dir)
    runs = [r for res in done for r in res.runs]
    matched = sum(r.matched() for r in runs)
    boots = sum(len(r.boots) for r in runs)
    # A boot counts as passed when it failed exactly the cases its variant
    # lacks the fix for; each failed check or build counts as one failure.
    cli.plain(report.closing_line(matched, boots - matched + failures, 0))
    return 0 if failures == 0 and matched == boots and boots else 1


if __name__ == '__main__':
    sys.exit(main())
