#!/usr/bin/env python3
"""The kernel's reader-page race with its fix: the fix of docs/upstream/
applied to the prepared tree's kernel/trace/ring_buffer.c for one run of
lrb_kernel_rb and lrb_smp_kernel (lrb_kunit.krb_fixed=1: the race case must
lose nothing and the stress runs allow no unreported loss), then taken out
again.

    tools/kernel_fix.py [--arch LIST]      (make kernel-fix ARCH=...)

The patch is made against the pristine file, and the series' hook points
(patches 2 and 3) sit beside and between the lines it changes: it is
applied to the pristine file, then merged three ways into the tree's
(git merge-file, base: the file at lrb-base). Exit 0 when every case
passed on every target.
"""

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import List, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lrb_harness import cli, paths, report  # noqa: E402
from lrb_harness.errors import HarnessError  # noqa: E402

SOURCE = 'kernel/trace/ring_buffer.c'
BASE_TAG = 'lrb-base'
SUITES = ['lrb_kernel_rb', 'lrb_smp_kernel']
KERNEL_ARG = 'lrb_kunit.krb_fixed=1'


def fix_patch(repo: Path) -> Path:
    """The one patch in docs/upstream/."""
    found = sorted((repo / 'docs' / 'upstream').glob('*.patch'))
    if len(found) != 1:
        raise HarnessError(f'docs/upstream/ holds {len(found)} patches, expected one')
    return found[0]


def merge_fix(current: str, base: str, patch: Path) -> str:
    """`current` with the change the patch makes to `base`: the patch applied
    to `base` exactly (no fuzz), then merged three ways into `current`."""
    with tempfile.TemporaryDirectory(prefix='lrb-kernel-fix-') as tmp:
        base_file, fixed_file, current_file = (Path(tmp) / n for n in ('base', 'fixed', 'current'))
        base_file.write_text(base)
        current_file.write_text(current)
        proc = subprocess.run(['patch', '-p1', '-N', '-F0', '--no-backup-if-mismatch', '-s',
                               '-o', str(fixed_file), str(base_file)],
                              input=patch.read_bytes(), capture_output=True)
        if proc.returncode:
            raise HarnessError(f'{patch.name} does not apply to the pristine {SOURCE}:\n'
                               + (proc.stdout + proc.stderr).decode(errors='replace').strip())
        merged = subprocess.run(['git', 'merge-file', '-p', '-L', 'tree', '-L', 'pristine',
                                 '-L', 'fix', str(current_file), str(base_file),
                                 str(fixed_file)], capture_output=True, text=True,
                                errors='replace')
        if merged.returncode:
            raise HarnessError(f'{patch.name} does not merge into the tree\'s {SOURCE} '
                               f'({merged.returncode} conflicts)')
        return merged.stdout


def apply(tree_dir: Path, patch: Path, dry_run: bool) -> None:
    """The fix into the tree's file (dry_run: only check that it merges)."""
    source = tree_dir / SOURCE
    base = subprocess.run(['git', 'show', f'{BASE_TAG}:{SOURCE}'], cwd=tree_dir,
                          capture_output=True, text=True, errors='replace')
    if base.returncode:
        raise HarnessError(f'{tree_dir}: no {SOURCE} at {BASE_TAG}: ' + base.stderr.strip())
    merged = merge_fix(source.read_text(), base.stdout, patch)
    if not dry_run:
        source.write_text(merged)


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
        cli.say(f'kernel-fix: {patch.name} merged into {SOURCE} for this run')
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
