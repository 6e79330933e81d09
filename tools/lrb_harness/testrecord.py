"""What `make test` leaves for later readers, such as the series' cover letter.

Each profile pass writes its own results directory (and points
results/latest at it). At the end, `make test` adds a "test" section to the
summary.json of its first pass, the default profile, with the whole run:
the closing counts, every pass with its boots, the harness checks and the
times; and results/latest points back at that directory.
"""

import datetime
import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional

from .checks import CheckResult
from .results import BootResult, write_summary


@dataclass
class Pass:
    profile: str
    out_dir: Path
    boots: List[BootResult]


def _boot_entry(boot: BootResult) -> Dict[str, object]:
    return {'target': boot.target, 'passed': boot.passed, 'failed': boot.failed,
            'skipped': boot.skipped, 'cpus': boot.cpus, 'atomics': boot.atomics}


def _pass_entry(run: Pass) -> Dict[str, object]:
    return {'profile': run.profile, 'dir': run.out_dir.name,
            'passed': sum(b.passed for b in run.boots),
            'failed': sum(b.failed for b in run.boots),
            'skipped': sum(b.skipped for b in run.boots),
            'boots': [_boot_entry(b) for b in run.boots]}


def repo_commit(repo: Path) -> str:
    """The repository's HEAD, '+' when its work tree has changes; '' when
    it is not a git checkout."""
    head = subprocess.run(['git', '-C', str(repo), 'rev-parse', '--short=12', 'HEAD'],
                          capture_output=True, text=True, check=False)
    if head.returncode:
        return ''
    dirty = subprocess.run(['git', '-C', str(repo), 'status', '--porcelain', '-uno'],
                           capture_output=True, text=True, check=False).stdout.strip()
    return head.stdout.strip() + ('+' if dirty else '')


def section(passes: List[Pass], found: List[CheckResult], step_times: Dict[str, float],
            elapsed: float, kernel: str, commit: str,
            command: str = 'make test',
            upstream: Optional[List[Dict[str, Any]]] = None) -> Dict[str, object]:
    """The "test" section: failed counts each failed harness check once,
    as the closing line does, and adds the upstream passes' counts
    (upstream.ci_summary), as the closing line does too."""
    bad_checks = sum(not c.ok for c in found)
    ups = upstream or []
    return {
        'command': command,
        'date': datetime.datetime.now().isoformat(timespec='seconds'),
        'repo_commit': commit,
        'kernel': kernel,
        'passed': sum(b.passed for p in passes for b in p.boots) +
        sum(int(u['passed']) for u in ups),
        'failed': sum(b.failed for p in passes for b in p.boots) + bad_checks +
        sum(int(u['failed']) for u in ups),
        'skipped': sum(b.skipped for p in passes for b in p.boots) +
        sum(int(u['skipped']) for u in ups),
        'upstream': ups,
        'elapsed_s': round(elapsed),
        'steps_s': {name: round(secs) for name, secs in step_times.items()},
        'passes': [_pass_entry(p) for p in passes],
        'checks': [{'name': c.name, 'ok': c.ok} for c in found],
    }


def write(passes: List[Pass], test: Dict[str, object]) -> Path:
    """Into the first pass's summary.json; results/latest points there."""
    first = passes[0]
    summary = first.out_dir / 'summary.json'
    write_summary(summary, first.boots, {'test': test})
    latest = first.out_dir.parent / 'latest'
    if latest.is_symlink() or latest.exists():
        latest.unlink()
    latest.symlink_to(first.out_dir.name)
    return summary


def read(path: Path) -> Dict[str, object]:
    data = json.loads(path.read_text())
    if not isinstance(data, dict):
        raise ValueError(f'{path}: not a summary')
    return data
