"""Kernel log scanning: crashes, warnings, sanitizer reports, QEMU errors,
CPUs brought up and which atomics the guest used."""

import re
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

# (kind, pattern); searched anywhere in a line (printk time prefixes allowed).
REPORT_PATTERNS: List[Tuple[str, 're.Pattern[str]']] = [(k, re.compile(p)) for k, p in [
    ('panic', r'Kernel panic - not syncing'),
    ('oops', r'\bOops\b|Internal error: '),
    ('kasan', r'BUG: KASAN: '),
    ('kcsan', r'BUG: KCSAN: '),
    ('ubsan', r'UBSAN: '),
    ('kfence', r'BUG: KFENCE: '),
    ('kmemleak', r'kmemleak: \d+ new suspected memory leak'),
    ('lockdep', r'possible recursive locking detected|inconsistent lock state|'
                r'possible circular locking dependency|suspicious RCU usage|'
                r'sleeping function called from invalid context|'
                r'lock held when returning to user space|bad unlock balance detected|'
                r'possible irq lock inversion dependency'),
    ('lockup', r'soft lockup - CPU#|hard LOCKUP|rcu: INFO: rcu_\w+ (self-)?detected stall|'
               r'INFO: task \S+ blocked for more than'),
    ('bug', r'\bBUG: |kernel BUG at |Unable to handle kernel |general protection fault'),
    ('warning', r'\bWARNING: '),
]]
QEMU_LINE = re.compile(r'^\s*(qemu-system-[\w-]+|qemu): (.*)$')
SMP_LINE = re.compile(r'smp: Brought up (\d+) nodes?, (\d+) CPUs?')
CPU_LIMIT = re.compile(r'CPU limit of \d+ reached')
LSE_LINE = 'CPU features: detected: LSE atomic instructions'
PRINTK_TIME = re.compile(r'^\s*\[\s*\d+\.\d+\]\s?')


@dataclass
class Report:
    kind: str
    line: int      # 1-based line number in the log
    text: str

    def __str__(self) -> str:
        return f'{self.kind}: {self.text} (log line {self.line})'


def strip_time(line: str) -> str:
    return PRINTK_TIME.sub('', line.rstrip('\r\n'))


def find_reports(lines: Sequence[str]) -> List[Report]:
    """Kernel reports that fail a run; one per matching line."""
    found: List[Report] = []
    for num, raw in enumerate(lines, 1):
        text = strip_time(raw)
        for kind, pattern in REPORT_PATTERNS:
            if pattern.search(text):
                found.append(Report(kind, num, text.strip()))
                break
    return found


def first_per_burst(reports: List[Report], gap: int = 60) -> List[Report]:
    """One report per burst: a trace's follow-up lines are not new reports."""
    kept: List[Report] = []
    for rep in reports:
        if kept and rep.line - kept[-1].line <= gap and rep.kind in ('bug', 'oops', 'panic',
                                                                      'warning', 'lockdep') \
                and kept[-1].kind in ('bug', 'oops', 'panic', 'warning', 'lockdep', 'kasan',
                                      'kcsan', 'kfence', 'ubsan', 'lockup'):
            continue
        kept.append(rep)
    return kept


# Races in the kernel's own code that KCSAN may report while the kernel boots,
# before any suite runs and so before the suites' filter of the kernel's
# intended races (lrb_kunit_kcsan_ignore_kernel()) exists: the report's title,
# and why the race is not ours. Once a test has started they fail the run.
KERNEL_BOOT_RACES: List[Tuple[str, str]] = [
    ('data-race in rcu_momentary_eqs / rcu_report_qs_rdp',
     "RCU's per-CPU rcu_need_heavy_qs, cleared with a plain write by rcu_momentary_eqs() "
     "(stop_machine at boot) while the softirq's rcu_report_qs_rdp() clears it marked; "
     'kernel/rcu/tree.c calls these unsynchronized assignments safe'),
    ('data-race in lapic_cal_handler / setup_boot_APIC_clock',
     "x86's calibration of the local APIC timer (arch/x86/kernel/apic/apic.c, __init): "
     'the tick handler lapic_cal_handler() counts lapic_cal_loops with a plain increment '
     'while calibrate_APIC_clock(), inlined in setup_boot_APIC_clock(), waits for it '
     'with a plain read, on the boot CPU before the others are up; the lean x86 builds, '
     'without ACPI, calibrate against the PIT tick'),
]
FIRST_TEST = re.compile(r'\bK?TAP version \d+')


def boot_races(reports: List[Report], lines: Sequence[str]
               ) -> Tuple[List[Report], List[Tuple[Report, str]]]:
    """(reports kept, kernel races set aside with their reason): a KCSAN
    report of KERNEL_BOOT_RACES before the first KTAP line is not ours."""
    first = next((num for num, raw in enumerate(lines, 1) if FIRST_TEST.search(raw)),
                 len(lines) + 1)
    kept: List[Report] = []
    aside: List[Tuple[Report, str]] = []
    for rep in reports:
        why = next((why for title, why in KERNEL_BOOT_RACES if title in rep.text), None)
        if rep.kind == 'kcsan' and rep.line < first and why is not None:
            aside.append((rep, why))
        else:
            kept.append(rep)
    return kept, aside


# A case that breaks the ring on purpose announces the one WARNING it causes
EXPECT_WARNING = re.compile(r'lrb-kunit: expect one WARNING at (\w+)')


def expected_markers(lines: Sequence[str]) -> List[Tuple[int, str]]:
    """(line, function) of each announced WARNING, in log order."""
    found: List[Tuple[int, str]] = []
    for num, raw in enumerate(lines, 1):
        match = EXPECT_WARNING.search(raw)
        if match:
            found.append((num, match.group(1)))
    return found


def without_expected(reports: List[Report], lines: Sequence[str]) -> List[Report]:
    """Reports less the WARNINGs announced before them: one per announcement,
    raised in the function named; any other report stays."""
    markers = expected_markers(lines)
    kept: List[Report] = []
    for rep in reports:
        match = next((m for m in markers if m[0] < rep.line and rep.kind == 'warning'
                      and f' {m[1]}+' in rep.text), None)
        if match is None:
            kept.append(rep)
        else:
            markers.remove(match)
    return kept


def qemu_messages(lines: Sequence[str]) -> Tuple[List[Report], List[Report]]:
    """(errors, warnings) that QEMU printed on its stderr (merged into the log)."""
    errors: List[Report] = []
    warnings: List[Report] = []
    for num, raw in enumerate(lines, 1):
        match = QEMU_LINE.match(raw.rstrip('\r\n'))
        if not match:
            continue
        rep = Report('qemu', num, raw.strip())
        (warnings if match.group(2).startswith('warning:') else errors).append(rep)
    return errors, warnings


def cpus_brought_up(lines: Sequence[str]) -> Tuple[Optional[int], str]:
    for raw in lines:
        text = strip_time(raw)
        match = SMP_LINE.search(text)
        if match:
            return int(match.group(2)), text.strip()
    for raw in lines:
        if CPU_LIMIT.search(raw):
            return 1, strip_time(raw).strip()
    return None, ''


def atomics(lines: Sequence[str], fixed: Optional[str]) -> str:
    if fixed:
        return fixed
    return 'LSE' if any(LSE_LINE in raw for raw in lines) else 'LL/SC'


def tail(lines: Sequence[str], count: int = 40) -> List[str]:
    return [line.rstrip('\r\n') for line in lines[-count:]]
