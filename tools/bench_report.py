#!/usr/bin/env python3
"""Turn lrb_bench's KUnit log lines into docs/bench.md and docs/bench.png.

Input: one kernel log per arch (kunit.py's <build_dir>/test.log or any
capture of the console), in which lrb_bench printed lines such as

    lrb-bench config arch=x86_64 release=6.12.118 cpus=4 smoke=0 ...
    lrb-bench impl=lrb case=write payload=64 mode=overwrite reader=none \
        ns_per_event=123.4 spread=2.1% reps=7 events=100000 dropped=0
    lrb-bench-ratio case=write payload=64 mode=overwrite reader=none \
        lrb_kernel=0.55 lrb_locked=0.40

and optionally the JSON written by tools/insn_count.py for that arch.
Output: the markdown page and a gnuplot script, run to draw the PNG.

    python3 tools/bench_report.py --log x86_64=build/x86_64-bench/test.log \
        --log arm64=build/arm64-bench/test.log --insn x86_64=insn-x86_64.json \
        --command 'make bench' --out docs/bench.md --png docs/bench.png

Python 3 standard library only.
"""

import argparse
import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple

IMPLS = ('lrb', 'kernel', 'locked')
FLOOR_COPY = 'floor_copy'
FLOOR_CLOCK = 'floor_clock'
WRITE_CASES = ('write', 'write_reader', 'write_nested')
READ_CASES = ('read_consume', 'read_pages')
TARGET_KERNEL = 0.6
TARGET_LOCKED = 0.5
QEMU_BINARIES = {'x86_64': 'qemu-system-x86_64', 'arm64': 'qemu-system-aarch64',
                 'arm64-nopac': 'qemu-system-aarch64', 'x86_64-icount': 'qemu-system-x86_64',
                 'arm64-icount': 'qemu-system-aarch64', 'riscv64-icount': 'qemu-system-riscv64',
                 'i386-icount': 'qemu-system-i386', 'arm-icount': 'qemu-system-arm'}
NS_PER_S = 1e9

_TOKEN = re.compile(r'(\w+)=(\S+)')
_LINUX_VERSION = re.compile(r'Linux version (\S+)')

Key = Tuple[str, int, str, str, int]


class ReportError(Exception):
    """Bad input: the message says what to fix."""


@dataclass(frozen=True)
class Figure:
    """One implementation's figure of one case."""
    impl: str
    case: str
    payload: int
    mode: str
    reader: str
    cpus: int
    unit: str
    value: float
    spread: float
    reps: int
    events: int
    dropped: int

    @property
    def key(self) -> Key:
        return (self.case, self.payload, self.mode, self.reader, self.cpus)


@dataclass(frozen=True)
class Ratio:
    """lrb's time per event over the kernel's and the locked baseline's:
    of the medians, and of the best repetitions when the log has them."""
    key: Key
    lrb_kernel: float
    lrb_locked: float
    best_kernel: Optional[float] = None
    best_locked: Optional[float] = None


@dataclass
class Run:
    """Everything one log says: one arch."""
    arch: str
    config: Dict[str, str] = field(default_factory=dict)
    kernel: str = ''
    figures: List[Figure] = field(default_factory=list)
    ratios: List[Ratio] = field(default_factory=list)

    @property
    def serial(self) -> bool:
        """A run under QEMU -icount (lrb_bench.serial=1): every time is an
        instruction count, and only one CPU ran at a time."""
        return self.config.get('serial', '0') not in ('0', 'N', 'n')

    def figure(self, key: Key, impl: str) -> Optional[Figure]:
        for fig in self.figures:
            if fig.key == key and fig.impl == impl:
                return fig
        return None

    def ratio(self, key: Key) -> Optional[Ratio]:
        for ratio in self.ratios:
            if ratio.key == key:
                return ratio
        return None

    def keys(self, cases: Sequence[str]) -> List[Key]:
        seen: List[Key] = []
        for fig in self.figures:
            if fig.case in cases and fig.key not in seen:
                seen.append(fig.key)
        return sorted(seen, key=lambda k: (cases.index(k[0]), k[2] != 'overwrite',
                                           k[1], k[4]))


# -- parsing ---------------------------------------------------------------

def _tokens(text: str) -> Dict[str, str]:
    return {m.group(1): m.group(2) for m in _TOKEN.finditer(text)}


def _number(text: str) -> float:
    return float(text.rstrip('%'))


def _key(tok: Dict[str, str]) -> Key:
    return (tok['case'], int(tok.get('payload', 0)), tok.get('mode', ''),
            tok.get('reader', ''), int(tok.get('cpus', 0)))


def parse_figure(tok: Dict[str, str]) -> Figure:
    unit = 'ns_per_event' if 'ns_per_event' in tok else 'events_per_s'
    case, payload, mode, reader, cpus = _key(tok)
    return Figure(impl=tok['impl'], case=case, payload=payload, mode=mode,
                  reader=reader, cpus=cpus, unit=unit, value=_number(tok[unit]),
                  spread=_number(tok.get('spread', '0')), reps=int(tok.get('reps', 0)),
                  events=int(tok.get('events', 0)), dropped=int(tok.get('dropped', 0)))


def parse_line(line: str, run: Run) -> None:
    """Add what one log line says to run; other lines are ignored."""
    match = _LINUX_VERSION.search(line)
    if match and not run.kernel:
        run.kernel = match.group(1)
        return
    for marker in ('lrb-bench-ratio ', 'lrb-bench '):
        pos = line.find(marker)
        if pos >= 0:
            break
    else:
        return
    tok = _tokens(line[pos + len(marker):])
    try:
        if marker == 'lrb-bench-ratio ':
            best = [(_number(tok[k]) if k in tok else None)
                    for k in ('best_lrb_kernel', 'best_lrb_locked')]
            run.ratios.append(Ratio(_key(tok), _number(tok['lrb_kernel']),
                                    _number(tok['lrb_locked']), best[0], best[1]))
        elif line[pos + len(marker):].startswith('config '):
            run.config = tok
        elif 'impl' in tok:
            run.figures.append(parse_figure(tok))
    except (KeyError, ValueError) as exc:
        raise ReportError(f'malformed lrb-bench line: {line.strip()!r} ({exc})') from exc


def parse_log(text: str, arch: str) -> Run:
    run = Run(arch=arch)
    for line in text.splitlines():
        parse_line(line, run)
    if not run.figures:
        raise ReportError(f'{arch}: no lrb-bench figures in the log '
                          '(was the bench profile built and run?)')
    return run


# -- formatting ------------------------------------------------------------

def fmt_value(fig: Optional[Figure], serial: bool = False) -> str:
    """A figure as the tables show it; a serial run's are instruction counts
    (a rate becomes instructions per event), with a finer spread."""
    if fig is None:
        return 'n/a'
    if serial:
        value = fig.value if fig.unit == 'ns_per_event' else NS_PER_S / fig.value
        return f'{value:.1f} ±{fig.spread:.1f}%'
    if fig.unit == 'ns_per_event':
        return f'{fig.value:.1f} ±{fig.spread:.0f}%'
    return f'{fig.value / 1e6:.2f} M ±{fig.spread:.0f}%'


def fmt_ratio(value: Optional[float], target: Optional[float] = None,
              best: Optional[float] = None) -> str:
    if value is None:
        return 'n/a'
    text = f'{value:.2f}'
    if target is not None and value > target:
        text += ' ✗'
    if best is not None:
        text += f' ({best:.2f})'
    return text


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> List[str]:
    lines = ['| ' + ' | '.join(header) + ' |',
             '|' + '|'.join('---' for _ in header) + '|']
    lines += ['| ' + ' | '.join(row) + ' |' for row in rows]
    return lines


def write_table(run: Run) -> List[str]:
    rows = []
    for key in run.keys(WRITE_CASES):
        case, payload, mode, reader, _ = key
        ratio = run.ratio(key)
        locked_target = TARGET_LOCKED if case != 'write' else None
        kernel_target = TARGET_KERNEL if case == 'write' else None
        rows.append([case, str(payload), mode, reader] +
                    [fmt_value(run.figure(key, impl), run.serial) for impl in IMPLS] +
                    [fmt_ratio(ratio.lrb_kernel if ratio else None, kernel_target,
                               ratio.best_kernel if ratio else None),
                     fmt_ratio(ratio.lrb_locked if ratio else None, locked_target,
                               ratio.best_locked if ratio else None)])
    unit = 'insn/ev' if run.serial else 'ns/ev'
    return _table(['case', 'payload', 'mode', 'reader'] +
                  [f'{impl} {unit}' for impl in IMPLS] + ['lrb/kernel', 'lrb/locked'], rows)


def rate_table(run: Run, cases: Sequence[str], first: str) -> List[str]:
    rows = []
    for key in run.keys(cases):
        ratio = run.ratio(key)
        label = str(key[4]) if first == 'writer CPUs' else key[0]
        rows.append([label] + [fmt_value(run.figure(key, impl), run.serial) for impl in IMPLS] +
                    [fmt_ratio(ratio.lrb_kernel if ratio else None, None,
                               ratio.best_kernel if ratio else None),
                     fmt_ratio(ratio.lrb_locked if ratio else None, None,
                               ratio.best_locked if ratio else None)])
    unit = 'insn/ev' if run.serial else 'ev/s'
    return _table([first] + [f'{impl} {unit}' for impl in IMPLS] +
                  ['lrb/kernel', 'lrb/locked'], rows)


def _net(run: Run, key: Key, impl: str, floor: str) -> Optional[float]:
    """impl's ns per event less a floor's, None if either is missing or the
    difference is lost in the noise (not above 0)."""
    fig, base = run.figure(key, impl), run.figure(key, floor)
    if fig is None or base is None or fig.value <= base.value:
        return None
    return fig.value - base.value


def _net_ratio(run: Run, key: Key, other: str, floor: str) -> Optional[float]:
    lrb, rest = _net(run, key, 'lrb', floor), _net(run, key, other, floor)
    return lrb / rest if lrb is not None and rest else None


def net_ratios(run: Run, floor: str) -> List[float]:
    """lrb/kernel of the write cases, net of a floor, where measurable."""
    ratios = (_net_ratio(run, key, 'kernel', floor) for key in run.keys(('write',)))
    return [r for r in ratios if r is not None]


def floor_table(run: Run) -> List[str]:
    """The write cases less what the loop costs without any buffer."""
    rows = []
    for key in run.keys(('write',)):
        if run.figure(key, FLOOR_COPY) is None:
            continue
        nets = [_net(run, key, impl, FLOOR_COPY) for impl in IMPLS]
        rows.append([str(key[1]), key[2], fmt_value(run.figure(key, FLOOR_COPY), run.serial),
                     fmt_value(run.figure(key, FLOOR_CLOCK), run.serial)] +
                    [f'{n:.1f}' if n is not None else 'n/a' for n in nets] +
                    [fmt_ratio(_net_ratio(run, key, 'kernel', FLOOR_COPY), TARGET_KERNEL),
                     fmt_ratio(_net_ratio(run, key, 'locked', FLOOR_COPY)),
                     fmt_ratio(_net_ratio(run, key, 'kernel', FLOOR_CLOCK))])
    unit = 'insn/ev' if run.serial else 'ns/ev'
    return _table(['payload', 'mode', f'floor_copy {unit}', f'floor_clock {unit}', 'lrb net',
                   'kernel net', 'locked net', 'lrb/kernel net', 'lrb/locked net',
                   'lrb/kernel net of the clock too'], rows)


def targets(run: Run) -> List[str]:
    """The issue's two targets, case by case."""
    fast = [r for r in run.ratios if r.key[0] == 'write']
    reader = [r for r in run.ratios if r.key[0] in ('write_reader', 'write_nested')]
    met_fast = sum(r.lrb_kernel <= TARGET_KERNEL for r in fast)
    met_reader = sum(r.lrb_locked <= TARGET_LOCKED for r in reader)
    worst_fast = max((r.lrb_kernel for r in fast), default=0.0)
    worst_reader = max((r.lrb_locked for r in reader), default=0.0)
    what = 'instructions' if run.serial else 'time'
    lines = [
        f'- write fast path, lrb/kernel ≤ {TARGET_KERNEL} ({what} per event): met in '
        f'{met_fast} of {len(fast)} cases (worst {worst_fast:.2f}).',
    ]
    if reader:
        lines.append(f'- with a reader running, lrb/locked ≤ {TARGET_LOCKED} (2× faster): '
                     f'met in {met_reader} of {len(reader)} cases (worst {worst_reader:.2f}).')
    else:
        lines.append('- with a reader running: not measured here (vCPUs run in turn).')
    net = net_ratios(run, FLOOR_COPY)
    if net:
        lines.insert(1, f'- the same, net of the loop and the payload copy (`floor_copy`, '
                     f'below; information, not the target): ≤ {TARGET_KERNEL} in '
                     f'{sum(r <= TARGET_KERNEL for r in net)} of {len(net)} cases '
                     f'(worst {max(net):.2f}).')
    worse = 'executes more instructions' if run.serial else 'is slower'
    over_kernel = [r.key for r in run.ratios if r.lrb_kernel > 1]
    over_locked = [r.key for r in run.ratios if r.lrb_locked > 1]
    for name, keys in (("the kernel's buffer", over_kernel), ('the locked baseline', over_locked)):
        if keys:
            lines.append(f'- lrb {worse} than {name} (median ratio above 1) in: '
                         + ', '.join(_case_name(k) for k in keys) + '.')
    return lines


def _case_name(key: Key) -> str:
    return f'{key[0]} {key[1]} {key[2]}' + (f' {key[4]} CPUs' if key[4] else '')


def insn_section(insn: Dict[str, object]) -> List[str]:
    rows = []
    for impl in ('lrb', 'kernel'):
        data = insn.get(impl)
        if not isinstance(data, dict):
            continue
        rows.append([impl, str(data.get('reserve', '?')), str(data.get('commit', '?')),
                     str(data.get('total', '?')), str(data.get('clock', '?')),
                     ', '.join(str(f) for f in data.get('functions', []))])
    lines = _table(['buffer', 'reserve', 'commit', 'total', 'in the clock',
                    'functions on the path'], rows)
    lrb, kernel = insn.get('lrb'), insn.get('kernel')
    if isinstance(lrb, dict) and isinstance(kernel, dict) and kernel.get('total'):
        lines += ['', f"lrb/kernel: {int(lrb['total']) / int(kernel['total']):.2f}"]
        if kernel.get('without_clock') and lrb.get('without_clock'):
            lines[-1] += (f", without the clocks: "
                          f"{int(lrb['without_clock']) / int(kernel['without_clock']):.2f}")
    return lines


@dataclass
class Env:
    """What the page says about how the figures were taken."""
    command: str
    qemu: Dict[str, str]
    insn: Dict[str, Dict[str, object]] = field(default_factory=dict)
    chart: str = 'bench.png'    # the chart's file name, beside the page
    # the -icount sections whose kernel no other section runs: they show its
    # static count (x86_64-icount's is in x86_64's section)
    serial_only: FrozenSet[str] = frozenset()


def base_label(label: str) -> str:
    """The section of the kernel a section boots: arm64-nopac and
    arm64-icount boot arm64's, riscv64-icount riscv64's."""
    for suffix in ('-icount', '-nopac'):
        if label.endswith(suffix):
            return label[:-len(suffix)]
    return label


def serial_only(runs: Sequence[Run]) -> FrozenSet[str]:
    """The serial (-icount) sections no other section shares a kernel with."""
    timed = {base_label(run.arch) for run in runs if not run.serial}
    return frozenset(run.arch for run in runs
                     if run.serial and base_label(run.arch) not in timed)


def arch_section(run: Run, env: Env) -> List[str]:
    cfg = run.config
    smoke = cfg.get('smoke', '0') != '0'
    how = ('under QEMU TCG counting instructions (`-icount shift=0`): every figure is '
           'instructions executed, exact and repeatable' if run.serial else 'under QEMU TCG')
    lines = [f'## {run.arch}', '',
             f"- kernel: {run.kernel or cfg.get('release', 'unknown')}"
             f" ({cfg.get('arch', run.arch)}), {cfg.get('cpus', '?')} CPUs {how}",
             f"- QEMU: {env.qemu.get(run.arch, 'unknown')}",
             f"- repetitions: {cfg.get('reps', '?')}, writes per repetition: "
             f"{cfg.get('events', '?')}, pages per CPU: {cfg.get('pages', '?')}" +
             ('' if run.serial else
              f", nested hrtimer: every {cfg.get('nest_period_us', '?')} µs, "
              f"{cfg.get('nest_burst', '?')} events")]
    if smoke:
        lines.append('- **smoke run (tiny counts): these figures mean nothing**')
    if run.serial:
        lines += ['', SERIAL_TEXT]
    unit = 'instructions' if run.serial else 'ns'
    lines += ['', '### Targets', ''] + targets(run)
    lines += ['', f'### Writes ({unit} per event, median ± spread)', '',
              'Ratios: of the medians, then (in brackets) of the best repetitions; '
              '✗ marks a ratio above its target.', '']
    lines += write_table(run)
    if any(fig.impl == FLOOR_COPY for fig in run.figures):
        lines += ['', '### What the loop costs without a buffer (`write` cases)', '',
                  SERIAL_FLOOR_TEXT if run.serial else FLOOR_TEXT, '']
        lines += floor_table(run)
    if run.keys(('aggregate',)):
        lines += ['', '### Aggregate (overwrite, 64-byte payload, no reader)', '']
        lines += rate_table(run, ('aggregate',), 'writer CPUs')
    lines += ['', f'### Reader {"cost" if run.serial else "throughput"} '
              '(64-byte payload, buffer filled first)', '']
    lines += rate_table(run, READ_CASES, 'reader')
    if run.arch in env.insn and (not run.serial or run.arch in env.serial_only):
        lines += ['', '### Static instruction count of the write fast path', '']
        lines += insn_section(env.insn[run.arch])
    return lines + ['']


INTRO = """# Benchmark: lrb, the kernel's tracing ring buffer and a locked baseline

Written by `tools/bench_report.py` from the logs of the `lrb_bench` KUnit suite
(`bench/lrb_bench_*.c`); do not edit by hand, edit `tools/bench_report.py`.

Command: `{command}`

**The figures come from QEMU TCG (binary translation, no KVM) on a shared
2-core host: absolute times are meaningless and noisy; only the ratios
between implementations measured in the same boot mean something.**

- `lrb`: this project's buffer (`lib/lockless_ring_buffer.c`), built without
  test hooks.
- `kernel`: the tracing ring buffer (`kernel/trace/ring_buffer.c`,
  `ring_buffer_lock_reserve()` / `ring_buffer_unlock_commit()`).
- `locked`: `bench/lrb_bench_locked.c`, the same page ring (sub-buffer
  format, reader page swapped with the oldest page, same event headers and
  time deltas) with every write holding a per-CPU raw spinlock with
  interrupts off from reserve to commit, and the reader taking the same lock.

Sections: `x86_64`; `arm64`, the arm64 kernel on `-cpu max,pauth-impdef=on`
(LSE atomics, pointer authentication); `arm64-nopac`, the same kernel image
booted on `-cpu max,pauth=off`, where the `paciasp`/`autiasp` of every
function that makes a call are the NOPs they are on a CPU without pointer
authentication. TCG emulates pointer authentication with a helper call per
instruction, a cost real CPUs do not have in that proportion; the two arm64
sections together show how much of the arm64 figures it is. `x86_64-icount`
and `arm64-icount`: the x86_64 and arm64 (LSE, pointer authentication)
images booted under `-icount shift=0`, where the guest's clocks count the
instructions executed: the one-CPU cases as exact instruction counts per
event, free of the host's noise and of TCG's helper costs, the same on
every run. `riscv64-icount`, `i386-icount` and `arm-icount`: the riscv64
(LR/SC), i386 and ARMv7 bench kernels, booted under `-icount` only (TCG's
times of other instruction sets on this x86 host say little more), each
section with its kernel's static count.

Every write reserves, copies its payload and commits. Each figure is the
median of the repetitions, the three implementations interleaved (in
rotating order) in each repetition; spread is (max − min) / median. Ratios are
lrb's time per event over the other's: below 1 means lrb is faster.

Cases: `write`: one writer kthread pinned on a CPU, overwrite mode with no
reader, or producer/consumer mode with the writer draining the buffer
between timed batches of 3/4 of its capacity (reader `drain`, untimed);
`write_reader`: the same with a reader consuming on another CPU all along
(producer/consumer writes may fail when the reader falls behind: `dropped`);
`write_nested`: the same plus an hrtimer on the writer's CPU writing bursts
(nested writers; in the locked baseline they wait for the lock holder's
commit since interrupts are off); `aggregate`: 1, 2, ... all online CPUs
writing at once, the sum of their rates; `read_consume` / `read_pages`:
the buffer filled in producer/consumer mode, then timed emptied by a reader
on another CPU event by event or page by page (whole pages are swapped, not
copied, by all three).
"""

FLOOR_TEXT = """Two floors run in the same rotation as the buffers: `floor_copy` is the
same loop, with preemption off and the payload copied into a per-CPU area,
writing no buffer; `floor_clock` adds the clock read every reserve does
(`local_clock_noinstr()`). "net" is a buffer's ns per event less `floor_copy`:
what reserve and commit cost, the clock included; the last column leaves the
clock out as well. Under TCG the clock is a helper call into QEMU, and on
arm64 every function that signs its return address pays two more (pointer
authentication), which is why the floors are so large a part of each figure."""

SERIAL_TEXT = """QEMU's `-icount shift=0` advances the guest's clocks by exactly one
nanosecond per instruction executed, so the benchmark's own timing reads
instructions: the same figures on every run and on any host, with none of
TCG's noise and none of its distortions (a clock read, an atomic or a
pointer authentication instruction counts as the instructions it is, not as
the helper call TCG makes of it). It is a path-length measure, like the
static count below but over what really ran (page crossings, head pushes,
time extends, the loop and the copy), not a time: a real CPU pays more for
an atomic or a cache miss than for an add. vCPUs run in turn under
`-icount`, so the cases with a reader or nested writers on another CPU and
the aggregate are skipped (`lrb_bench.serial=1`); the reader cases run with
no writer and are shown as instructions per event read."""

SERIAL_FLOOR_TEXT = """`floor_copy` is the loop with preemption off and the payload copied,
writing no buffer; `floor_clock` adds the clock read. "net" is a buffer's
instructions per event less `floor_copy`: what its reserve and commit
execute, the clock included; the last column leaves the clock out too."""

INSN_METHOD = """## Static instruction count: method

`tools/insn_count.py` reads `objdump -d` of the built `vmlinux` and counts the
instructions of the write fast path, reserve plus commit, of an event that
fits in the tail page (no page crossing, no time extend, no nesting, recording
enabled): the shortest path, in instructions, from the entry of each API
function to one of its returns, in the control-flow graph of its machine
code, that goes through the function's required instructions (the
reservation's atomic add on the page's write index for reserve; the store of
the commit index for commit). Direct calls on the path add the callee's own
shortest path (recursively); the indirect call of the kernel's clock counts
the clock function it calls by default (`trace_clock_local`); return thunks
count as one return; code patched at boot counts as it runs on the measured
CPUs (arm64 LSE: the LL/SC fallback branches of `system_uses_lse_atomics()`
are taken as nops). The shortest path is a lower bound of the fast path; the
required instructions keep it from being an error exit. Counts are exact for
a given build and do not depend on the machine's noise.

The kernel's buffer is measured as the series builds it: with patches 2 and 3
and `CONFIG_RING_BUFFER_TEST_HOOKS` off (the bench profile), which leaves the
text of `kernel/trace/ring_buffer.o` byte for byte as without them (x86_64:
`ring_buffer_lock_reserve` + `ring_buffer_unlock_commit` 201 + 88 = 289 either
way, 2026-12-05).
"""


ANALYSIS = """## Where lrb is slower, and what was tried

[bench-analysis.md](bench-analysis.md) (written by hand): the cases above where lrb is not
ahead, what the generated code and the static counts say about them, the changes measured
and which of them were kept.
"""


def render_markdown(runs: Sequence[Run], env: Env) -> str:
    env = replace(env, serial_only=serial_only(runs))
    lines = [INTRO.format(command=env.command)]
    for run in runs:
        lines += arch_section(run, env)
    lines.append(INSN_METHOD)
    lines.append(ANALYSIS)
    lines.append(f'![chart]({env.chart})\n')
    return '\n'.join(lines)


# -- chart -----------------------------------------------------------------

def _block(name: str, rows: Iterable[Sequence[object]]) -> List[str]:
    return [f'${name} << EOD'] + [' '.join(str(c) for c in row) for row in rows] + ['EOD']


Rows = List[List[object]]


def _impl_rows(run: Run, case: str) -> Rows:
    """(payload, value per impl) of a case's overwrite figures."""
    rows: Rows = []
    for key in run.keys((case,)):
        if key[2] == 'overwrite':
            figs = [run.figure(key, impl) for impl in IMPLS]
            rows.append([key[1]] + [f'{f.value:.1f}' if f else 'NaN' for f in figs])
    return rows


def chart_rows(run: Run) -> Tuple[Rows, Rows, Rows]:
    """The three panels of a run's row. Left: the overwrite write case.
    Middle: the same with a reader consuming on another CPU, or for a serial
    run, which has none, the write case net of floor_copy. Right: (cpus, ev/s
    per impl) of the aggregate (none in a serial run)."""
    middle: Rows = []
    if run.serial:
        for key in run.keys(('write',)):
            if key[2] == 'overwrite':
                nets = [_net(run, key, impl, FLOOR_COPY) for impl in IMPLS]
                middle.append([key[1]] + [f'{n:.1f}' if n is not None else 'NaN'
                                          for n in nets])
    else:
        middle = _impl_rows(run, 'write_reader')
    agg: Rows = []
    for key in run.keys(('aggregate',)):
        figs = [run.figure(key, impl) for impl in IMPLS]
        agg.append([key[4]] + [f'{f.value / 1e6:.3f}' if f else 'NaN' for f in figs])
    return _impl_rows(run, 'write'), middle, agg


def _top(rows: Sequence[Sequence[object]]) -> float:
    """A y range top leaving room for the key above the data."""
    values = [float(str(c)) for row in rows for c in row[1:] if str(c) != 'NaN']
    return max(values, default=1.0) * 1.3 or 1.0


def _bars(title: str, ylabel: str, block: str, rows: Sequence[Sequence[object]]) -> List[str]:
    return [f"set title '{title}'", "set xlabel 'payload (bytes)'", f"set ylabel '{ylabel}'",
            f'set yrange [0:{_top(rows):.1f}]', 'set style data histograms',
            'set style histogram clustered gap 1', 'set style fill solid 0.8 border -1',
            'set boxwidth 0.9', 'set xtics autofreq',
            f"plot ${block} using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', "
            "'' using 4 title 'locked'"]


def gnuplot_script(runs: Sequence[Run], png: str) -> str:
    lines = ["set terminal pngcairo size 1800,{} font 'sans,10'".format(420 * len(runs)),
             f"set output '{png}'", 'set termoption noenhanced',
             f'set multiplot layout {len(runs)},3 rowsfirst',
             'set grid ytics', 'set key top left horizontal']
    rows = [chart_rows(run) for run in runs]
    for index, (writes, middle, agg) in enumerate(rows):
        lines += (_block(f'w{index}', writes) + _block(f'm{index}', middle) +
                  _block(f'a{index}', agg))
    for index, run in enumerate(runs):
        agg = rows[index][2]
        if run.serial:
            lines += _bars(f'{run.arch}: one writer, overwrite, no reader '
                           '(instructions per event, lower is better)',
                           'instructions per event', f'w{index}', rows[index][0])
            lines += _bars(f'{run.arch}: the same less the loop and the copy '
                           '(reserve + commit)', 'instructions per event', f'm{index}',
                           rows[index][1])
            lines.append('set multiplot next')
            continue
        lines += _bars(f'{run.arch}: one writer, overwrite, no reader '
                       '(ns per event, lower is better)', 'ns per event', f'w{index}',
                       rows[index][0])
        lines += _bars(f'{run.arch}: the same, a reader consuming on another CPU '
                       '(ns per event)', 'ns per event', f'm{index}', rows[index][1])
        lines += [f"set title '{run.arch}: all CPUs writing, overwrite, 64 bytes "
                  "(M events/s, higher is better)'",
                  "set xlabel 'writer CPUs'", "set ylabel 'M events/s'",
                  f'set yrange [0:{_top(agg):.1f}]', 'set style data linespoints', 'set xtics 1',
                  f"plot $a{index} using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, "
                  "'' using 1:4 title 'locked' lw 2"]
    lines.append('unset multiplot')
    return '\n'.join(lines) + '\n'


def draw(script: str, script_path: Path, gnuplot: str = 'gnuplot') -> None:
    if shutil.which(gnuplot) is None:
        raise ReportError(f'{gnuplot} not found: install gnuplot-nox (make deps)')
    script_path.write_text(script)
    proc = subprocess.run([gnuplot, str(script_path)], capture_output=True, text=True,
                          check=False)
    if proc.returncode:
        raise ReportError(f'gnuplot failed: {proc.stderr.strip()}')


# -- command line ----------------------------------------------------------

def qemu_version(arch: str) -> str:
    binary = QEMU_BINARIES.get(arch)
    if not binary or shutil.which(binary) is None:
        return 'unknown'
    proc = subprocess.run([binary, '--version'], capture_output=True, text=True, check=False)
    first = proc.stdout.splitlines()[0] if proc.stdout else ''
    return first.replace('QEMU emulator version ', '') or 'unknown'


def pairs(values: Optional[List[str]], what: str) -> List[Tuple[str, str]]:
    out = []
    for value in values or []:
        if '=' not in value:
            raise ReportError(f'{what} wants ARCH=VALUE, got {value!r}')
        arch, _, rest = value.partition('=')
        out.append((arch, rest))
    return out


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--log', action='append', metavar='ARCH=PATH', required=True,
                    help='kernel log of the bench run of one arch (repeat per arch)')
    ap.add_argument('--insn', action='append', metavar='ARCH=PATH', default=[],
                    help='JSON from tools/insn_count.py for that arch')
    ap.add_argument('--qemu', action='append', metavar='ARCH=VERSION', default=[],
                    help='QEMU version (default: asks qemu-system-*)')
    ap.add_argument('--command', default='make bench', help='the command that ran it')
    ap.add_argument('--out', default='docs/bench.md')
    ap.add_argument('--png', default='docs/bench.png')
    ap.add_argument('--no-png', action='store_true', help='write the markdown only')
    ap.add_argument('--allow-smoke', action='store_true',
                    help='accept logs of smoke runs (tiny counts)')
    args = ap.parse_args(argv)
    try:
        runs = [parse_log(Path(path).read_text(errors='replace'), arch)
                for arch, path in pairs(args.log, '--log')]
        for run in runs:
            if run.config.get('smoke', '0') != '0' and not args.allow_smoke:
                raise ReportError(f'{run.arch}: the log is of a smoke run '
                                  '(--allow-smoke to write it anyway)')
        qemu = dict(pairs(args.qemu, '--qemu'))
        for run in runs:
            qemu.setdefault(run.arch, qemu_version(run.arch))
        insn = {arch: json.loads(Path(path).read_text())
                for arch, path in pairs(args.insn, '--insn')}
        out = Path(args.out)
        out.write_text(render_markdown(runs, Env(args.command, qemu, insn,
                                                 Path(args.png).name)))
        if not args.no_png:
            png = Path(args.png)
            draw(gnuplot_script(runs, str(png)), png.with_suffix('.gp'))
    except (OSError, ReportError, json.JSONDecodeError) as exc:
        print(f'bench_report: {exc}', file=sys.stderr)
        return 1
    print(f'wrote {args.out}' + ('' if args.no_png else f' and {args.png}'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
