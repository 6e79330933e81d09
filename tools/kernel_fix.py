#!/usr/bin/env python3
"""The kernel's reader-page race with its fix: the fix of docs/upstream/
applied to the prepared tree's kernel/trace/ring_buffer.c for one run of
lrb_kernel_rb and lrb_smp_kernel (lrb_kunit.krb_fixed=1: the race case must
lose nothing and the stress runs allow no unreported loss), then taken out
again.

    tools/kernel_fix.py [--arch LIST]      (make kernel-fix ARCH=...)

The patch is made against the pristine file; series patch 1 puts hook
points beside the lines it changes, so it is applied with fuzz (patch -F3).
Exit 0 when every case passed on every target.
"""

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import List, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lrb_harness import cli, paths, report  # noqa: E402
from lrb_harness.errors import HarnessError  # noqa: E402

SOURCE = 'kernel/trace/ring_buffer.c'
SUITES = ['lrb_kernel_rb', 'lrb_smp_kernel']
KERNEL_ARG = 'lrb_kunit.krb_fixed=1'


def fix_patch(repo: Path) -> Path:
    """The one patch in docs/upstream/."""
    found = sorted((repo / 'docs' / 'upstream').glob('*.patch'))
    if len(found) != 1:
        raise HarnessError(f'docs/upstream/ holds {len(found)} patches, expected one')
    return found[0]


def apply(tree_dir: Path, patch: Path, dry_run: bool) -> None:
    cmd = ['patch', '-p1', '-N', '-F3', '--no-backup-if-mismatch', '-s']
    if dry_run:
        cmd.append('--dry-run')
    proc = subprocess.run(cmd, cwd=tree_dir, input=patch.read_bytes(), capture_output=True)
    if proc.returncode:
        raise HarnessError(f'{patch.name} does not apply to {tree_dir / SOURCE}:\n'
                           + (proc.stdout + proc.stderr).decode(errors='replace').strip())


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--arch', action='append', help='x86_64, arm64, ..., all (default all)')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    args = ap.parse_args(argv)
    try:
        ctx = cli.Context(repo=paths.repo_root())
        patch = fix_patch(ctx.repo)
        targets, profile = cli.select(ctx, args.arch, 'default')
        profile.kernel_args += [KERNEL_ARG]
        prep = cli.prepare(ctx)
        source = prep.tree / SOURCE
        original = source.read_bytes()
        apply(prep.tree, patch, dry_run=True)
        cli.say(f'kernel-fix: {patch.name} applied to {SOURCE} for this run')
        apply(prep.tree, patch, dry_run=False)
        try:
            res = cli.run_targets(ctx, prep, targets, profile, SUITES, args.jobs)
        finally:
            source.write_bytes(original)
    except HarnessError as exc:
        print(f'error: {exc.message}', file=sys.stderr)
        return exc.code
    cli.print_run(res, False)
    cli.plain(report.closing_line(*cli.totals(res.boots)))
    return 0 if cli.targets_ok(res.boots, targets) else 1


if __name__ == '__main__':
    sys.exit(main())
