"""Printing: per-target tables, failures with the kernel log tail, the closing line."""

from typing import Callable, Dict, List, Tuple

from .results import BootResult, CaseResult

Say = Callable[[str], None]


def _time(case: CaseResult) -> str:
    return '-' if case.time is None else f'{case.time:.3f}s'


def table(rows: List[CaseResult], show_log: bool) -> List[str]:
    header = ('suite', 'case', 'result', 'time')
    cells = [(c.suite, c.case, c.status, _time(c)) for c in rows]
    widths = [max(len(r[i]) for r in [header] + cells) for i in range(4)]
    fmt = '  {:<%d}  {:<%d}  {:<%d}  {:>%d}' % tuple(widths)
    out = [fmt.format(*header)]
    for case, cell in zip(rows, cells):
        out.append(fmt.format(*cell).rstrip())
        if show_log and case.log:
            out.extend('      | ' + line for line in case.log)
    return out


def by_target(boots: List[BootResult]) -> Dict[str, List[BootResult]]:
    grouped: Dict[str, List[BootResult]] = {}
    for boot in boots:
        grouped.setdefault(boot.target, []).append(boot)
    return grouped


def print_tables(boots: List[BootResult], say: Say, show_log: bool = False) -> None:
    for name, group in by_target(boots).items():
        first = group[0]
        cpus = '?' if first.cpus is None else str(first.cpus)
        say('')
        say(f'== {name}: {cpus} CPUs ({first.smp_line or "no smp: line"}), '
            f'atomics: {first.atomics or "?"} ==')
        rows = [c for b in group for c in b.cases]
        if rows:
            for line in table(rows, show_log):
                say(line)
        else:
            say('  (no test results)')
        for boot in group:
            for note in boot.notes:
                say(f'  note: {note}')


def print_failures(boots: List[BootResult], say: Say) -> None:
    bad = [b for b in boots if not b.ok]
    if not bad:
        return
    say('')
    say('== failures ==')
    for boot in bad:
        where = f'[{boot.target}{" " + boot.glob if boot.glob else ""}]'
        for case in boot.cases:
            if not case.failed:
                continue
            say(f'{where} {case.full_name}: {case.status}')
            for reason in case.reasons:
                say(f'    {reason}')
            for line in case.detail[-25:]:
                say(f'    | {line}')
        for error in boot.errors:
            say(f'{where} {error}')
        if boot.log_tail:
            say(f'--- last {len(boot.log_tail)} lines of {boot.log_path or "kunit.py output"} ---')
            for line in boot.log_tail:
                say('  ' + line)
            say('---')


def failure_summary(passes: List[Tuple[str, List[BootResult]]], limit: int = 20) -> List[str]:
    """One line per failed case or failed boot of each (profile, boots) pass, for the
    end of a long run's output: CI shows its tail, and the tail says what failed."""
    lines = []
    for profile, boots in passes:
        for boot in boots:
            where = f'{profile}@{boot.target}'
            lines += [f'  {where} {case.full_name}: {case.status}'
                      for case in boot.cases if case.failed]
            lines += [f'  {where}: {error}' for error in boot.errors]
    if len(lines) > limit:
        lines = lines[:limit] + [f'  ... and {len(lines) - limit} more']
    return ['failed:'] + lines if lines else []


def closing_line(passed: int, failed: int, skipped: int) -> str:
    return f'{passed} passed, {failed} failed, {skipped} skipped'
