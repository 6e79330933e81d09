"""One boot's verdict: KTAP results, kernel reports and run errors combined."""

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from . import ktap, logscan
from .kunitrun import Outcome
from .profiles import Profile, Target

STATUS = {ktap.PASS: 'PASS', ktap.FAIL: 'FAIL', ktap.SKIP: 'SKIP'}  # else CRASHED


@dataclass
class CaseResult:
    suite: str
    case: str
    status: str                   # PASS, FAIL, SKIP, CRASHED
    time: Optional[float] = None
    reasons: List[str] = field(default_factory=list)
    log: List[str] = field(default_factory=list)      # its KTAP '#' lines
    detail: List[str] = field(default_factory=list)   # all its lines, for failures

    @property
    def full_name(self) -> str:
        return f'{self.suite}.{self.case}'

    @property
    def failed(self) -> bool:
        return self.status in ('FAIL', 'CRASHED')


@dataclass
class BootResult:
    target: str
    glob: str = ''
    cases: List[CaseResult] = field(default_factory=list)
    errors: List[str] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    cpus: Optional[int] = None
    cpus_expected: int = 0
    smp_line: str = ''
    atomics: str = ''
    log_path: str = ''
    json_path: str = ''
    log_tail: List[str] = field(default_factory=list)
    passed: int = 0
    failed: int = 0
    skipped: int = 0

    def count(self) -> None:
        self.passed = sum(c.status == 'PASS' for c in self.cases)
        self.skipped = sum(c.status == 'SKIP' for c in self.cases)
        self.failed = sum(c.failed for c in self.cases)
        if self.errors and self.failed == 0:
            self.failed = 1  # the boot itself failed: never let it look green

    @property
    def ok(self) -> bool:
        return not self.errors and self.failed == 0 and self.passed + self.skipped > 0


def _fill_missing_names(main: ktap.Test, expected: Dict[str, List[str]]) -> None:
    """Name subtests that were announced but never reported, from the sources."""
    for suite in main.subtests:
        names = expected.get(suite.name, [])
        for index, case in enumerate(suite.subtests):
            if not case.name and index < len(names):
                case.name = names[index]


def _case_for_line(leaves: List[ktap.Leaf], line: int) -> Optional[ktap.Leaf]:
    for leaf in leaves:
        last = leaf.test.last_line if leaf.test.last_line is not None else float('inf')
        if leaf.test.first_line <= line <= last:
            return leaf
    return None


def _running_case(leaves: List[ktap.Leaf]) -> str:
    for leaf in leaves:
        if leaf.test.last_line is None:
            return f'{leaf.suite}.{leaf.case}'
    return f'after {leaves[-1].suite}.{leaves[-1].case}' if leaves else 'before the first test'


def analyze(target: Target, profile: Profile, outcome: Outcome, log_lines: Sequence[str],
            expected: Dict[str, List[str]], glob: str = '') -> BootResult:
    result = BootResult(target=target.name, glob=glob, cpus_expected=profile.cpus(target))
    if target.note:
        result.notes.append(target.note)
    if not outcome.booted:
        result.errors.append(f'kunit.py exited {outcome.returncode} before booting '
                             '(configuration or build failed)')
        result.log_tail = logscan.tail(outcome.output, 40)
        result.count()
        return result
    main = ktap.parse(log_lines)
    _fill_missing_names(main, expected)
    leaves = ktap.leaves(main)
    by_leaf: Dict[int, CaseResult] = {}
    for leaf in leaves:
        case = CaseResult(leaf.suite, leaf.case, STATUS.get(leaf.test.status, 'CRASHED'),
                          leaf.test.duration(), log=ktap.case_log(leaf.test),
                          detail=ktap.case_log(leaf.test, everything=True))
        if leaf.test.last_line is None:
            case.reasons.append('never reported a result (the kernel stopped while it ran)')
        by_leaf[id(leaf.test)] = case
        result.cases.append(case)
    reports, boot_races = logscan.boot_races(
        logscan.first_per_burst(logscan.find_reports(log_lines)), log_lines)
    result.notes += [f'not ours, at boot before any test: {rep} ({why})'
                     for rep, why in boot_races]
    for rep in logscan.without_expected(reports, log_lines):
        owner = _case_for_line(leaves, rep.line)
        if owner is None:
            result.errors.append(f'kernel report outside any test case: {rep}')
            continue
        case = by_leaf[id(owner.test)]
        case.reasons.append(f'kernel report while it ran: {rep}')
        if case.status in ('PASS', 'SKIP'):
            case.status = 'FAIL'
    qemu_errors, qemu_warnings = logscan.qemu_messages(log_lines)
    result.errors += [f'QEMU error: {rep.text}' for rep in qemu_errors[:5]]
    result.notes += [f'QEMU: {rep.text}' for rep in qemu_warnings[:5]]
    if outcome.kunit_timeout or outcome.watchdog:
        result.errors.append(f'hang: the boot did not finish within {profile.timeout}s; '
                             f'running: {_running_case(leaves)}')
    if main.status == ktap.NO_KTAP:
        result.errors.append('no KTAP output: no KUnit test ran (is the suite enabled in '
                             '.kunitconfig, does the glob match?)')
    elif main.counts.total() == 0:
        result.errors.append('zero tests ran' + (f' for glob {glob!r}' if glob else ''))
    result.cpus, result.smp_line = logscan.cpus_brought_up(log_lines)
    if result.cpus != result.cpus_expected:
        result.errors.append(f'the guest brought up {result.cpus} CPUs, expected '
                             f'{result.cpus_expected} ({result.smp_line or "no smp: line"})')
    result.atomics = logscan.atomics(log_lines, target.atomics)
    result.count()
    if outcome.returncode != 0 and result.failed == 0:
        result.errors.append(f'kunit.py exited {outcome.returncode}')
        result.count()
    if not result.ok:
        result.log_tail = logscan.tail(log_lines or outcome.output, 40)
    return result


def write_summary(path: Path, boots: List[BootResult], extra: Dict[str, object]) -> None:
    boot_data = [asdict(b) for b in boots]
    for boot in boot_data:
        for case in boot['cases']:
            case.pop('detail', None)  # in the kernel log already
    data = {'boots': boot_data,
            'passed': sum(b.passed for b in boots),
            'failed': sum(b.failed for b in boots),
            'skipped': sum(b.skipped for b in boots)}
    data.update(extra)
    path.write_text(json.dumps(data, indent=2) + '\n')


def json_counts(path: Path) -> Dict[str, int]:
    """Leaf statuses in kunit.py's --json output (KernelCI shape: groups with
    'sub_groups' and 'test_cases'; a parameterised case is a sub-group)."""
    counts = {'PASS': 0, 'FAIL': 0, 'SKIP': 0, 'ERROR': 0}

    def walk(group: object) -> None:
        if not isinstance(group, dict):
            return
        for case in group.get('test_cases', []):
            status = str(case.get('status')) if isinstance(case, dict) else 'ERROR'
            counts[status] = counts.get(status, 0) + 1
        for sub in group.get('sub_groups', []):
            walk(sub)
    walk(json.loads(path.read_text()))
    return counts
