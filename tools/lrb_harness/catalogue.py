"""docs/scenarios.md, the catalogue of the lrb_design scenarios, from a kernel log.

The lrb_design cases print, for each scenario,
"lrb-scenario <case> (<where the document has it>; <mode> mode; boxes from pN)",
then for each step "lrb-step <i>: <title>  [<who, where>]  (<.rst lines>)", the
ring drawn in the design document's notation, and
"expect: <ring>  <props>  -> as drawn"; at the end "read back N events ...".
The lrb_design_kernel suite runs the same cases on the kernel's buffer: its
scenario lines say "lrb-scenario <case> [kernel] (...)", and a step where the
kernel's buffer differs prints "kernel differs: <why>" before its expect line.
What each step asserts is read from its expect line, so that the catalogue says
what the case checks, not what it is meant to.
"""

import difflib
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

SCENARIO = re.compile(r'# lrb-scenario (\w+)( \[kernel\])? \((.+); (overwrite|producer/consumer) '
                      r'mode; boxes from (p\d+)\)$')
STEP = re.compile(r'# lrb-step (\d+): (.*?)\s+\[(.*?)\]\s+\((.*?)\)$')
EXPECT = re.compile(r'# expect: (.*?)\s+->\s+(as drawn|MISMATCH)$')
DIFFERS = re.compile(r'# kernel differs: (.*)$')
IMPLS = ('lrb', 'kernel')
SUITES = {'lrb': 'lrb_design', 'kernel': 'lrb_design_kernel'}
READ_BACK = re.compile(r'# (read back \d+ events.*)$')
RESULT = re.compile(r'(ok|not ok) \d+ (\w+)')
DIAG = re.compile(r'^\s*(?:\[\s*[\d.]+\]\s*)?\s*# ?(.*)$')
CPU = re.compile(r'\bCPU \d+\b')
RING_TOKEN = re.compile(r'^(p\d+|-->|--->|-H->|-U->)$')

# What a property of lrb_kunit_expect() checks, in the catalogue's words
PROPERTY_KINDS: Dict[str, str] = {
    'head': 'page roles', 'tail': 'page roles', 'commit': 'page roles',
    'reader': 'page roles', 'hint': 'page roles',
    'rnext': 'reader page pointers', 'rprev': 'reader page pointers',
    'rflag': 'reader page pointers', 'rule': 'reader-page rule',
    'staleprev': 'stale prev pointer',
    'nrH': 'flag counts', 'nrU': 'flag counts',
    'committing': 'counters', 'committed': 'counters', 'overrun': 'counters',
    'entries': 'counters', 'read': 'counters', 'dropped': 'counters',
    'commit_overrun': 'counters', 'pages_lost': 'counters',
}
PAGE_FIELD = re.compile(r'^p\d+\.(write|commit|entries|read)$')
KIND_ORDER = ['ring pointers and flags', 'page roles', 'reader page pointers',
              'reader-page rule', 'stale prev pointer', 'flag counts', 'page indexes',
              'counters']


@dataclass
class Step:
    number: int
    title: str
    where: str
    cite: str
    lines: List[str] = field(default_factory=list)
    expect: str = ''
    verdict: str = ''
    differs: str = ''

    @property
    def kinds(self) -> List[str]:
        return expect_kinds(self.expect)


@dataclass
class Scenario:
    case: str
    where: str
    mode: str
    first_box: str
    steps: List[Step] = field(default_factory=list)
    read_back: str = ''
    result: str = 'not run'
    impl: str = 'lrb'

    @property
    def kinds(self) -> List[str]:
        seen = {k for st in self.steps for k in st.kinds}
        return [k for k in KIND_ORDER if k in seen]


def split_expect(expect: str) -> Tuple[str, List[str]]:
    """The ring part and the properties of an expect line."""
    ring: List[str] = []
    props: List[str] = []
    for token in expect.split():
        (ring if RING_TOKEN.match(token) and not props else props).append(token)
    return ' '.join(ring), props


def expect_kinds(expect: str) -> List[str]:
    """What an expect line checks, in KIND_ORDER."""
    ring, props = split_expect(expect)
    kinds = {'ring pointers and flags'} if ring else set()
    for prop in props:
        key = prop.split('=', 1)[0]
        if PAGE_FIELD.match(key):
            kinds.add('page indexes')
        elif key in PROPERTY_KINDS:
            kinds.add(PROPERTY_KINDS[key])
    return [k for k in KIND_ORDER if k in kinds]


def _diag_text(line: str) -> Optional[str]:
    m = DIAG.match(line)
    return m.group(1) if m else None


class _Parser:
    def __init__(self) -> None:
        self.scenarios: List[Scenario] = []
        self.cur: Optional[Scenario] = None
        self.step: Optional[Step] = None

    def feed(self, raw: str) -> None:
        m = SCENARIO.search(raw)
        if m:
            self.cur = Scenario(m.group(1), m.group(3), m.group(4), m.group(5),
                                impl='kernel' if m.group(2) else 'lrb')
            self.scenarios.append(self.cur)
            self.step = None
            return
        if self.cur is not None:
            self._in_scenario(self.cur, raw)

    def _in_scenario(self, cur: Scenario, raw: str) -> None:
        m = RESULT.search(raw)
        if m and m.group(2) == cur.case:
            cur.result = 'pass' if m.group(1) == 'ok' else 'FAIL'
            self.cur, self.step = None, None
            return
        m = STEP.search(raw)
        if m:
            self.step = Step(int(m.group(1)), m.group(2), m.group(3), m.group(4))
            cur.steps.append(self.step)
            return
        m = DIFFERS.search(raw)
        if m and self.step is not None:
            self.step.differs = m.group(1).strip()
            return
        m = EXPECT.search(raw)
        if m and self.step is not None:
            self.step.expect, self.step.verdict = m.group(1).strip(), m.group(2)
            self.step = None
            return
        m = READ_BACK.search(raw)
        if m:
            cur.read_back = m.group(1)
            return
        text = _diag_text(raw)
        if self.step is not None and text is not None:
            self.step.lines.append(CPU.sub('CPU n', text.rstrip()))


def parse(log: str) -> List[Scenario]:
    """Scenarios, their steps and drawings, in log order."""
    parser = _Parser()
    for raw in log.splitlines():
        parser.feed(raw)
    return parser.scenarios


def _asserts(s: Scenario) -> str:
    text = f'{len(s.steps)} states: ' + ', '.join(s.kinds)
    if s.read_back:
        text += '; events read back (payloads, order, time stamps, losses)'
    return text


HEADER = [
    '# Design-document scenarios, as the suite draws them', '',
    'Generated by `make test` (and `make scenarios-doc`) from the x86_64 kernel log of the '
    '`lrb_design` and `lrb_design_kernel` KUnit suites (`kunit/lrb_design_kunit.c`); '
    '`make test` fails when this page differs from what the run draws. Each case replays a '
    'scenario of `Documentation/trace/ring-buffer-design.rst` (in the kernel tree), named by '
    'its section and `.rst` lines, on lrb (`lrb_design`) and on the kernel\'s tracing ring '
    'buffer, `kernel/trace/ring_buffer.c` (`lrb_design_kernel`), through the implementation '
    'table of `kunit/lrb_kunit_impl.h`. `make scenario S=<case>` replays one on both, '
    '`IMPL=lrb` or `IMPL=kernel` on one of them.', '',
    'Each step is a snapshot of the real ring, taken by the test thread between operations or '
    'by a hook point inside the writer or the reader, drawn in the document\'s notation: '
    '`-H->` and `-U->` are next pointers with the HEADER and UPDATE flags, `<-x-` a prev '
    'pointer that does not point back, `^` marks head, tail and commit. The ring\'s boxes '
    'are in the order the document draws them: the first box is the page the scenario names '
    '("boxes from pN"), the following ones follow next pointers. Each step cites the `.rst` '
    'lines of the drawing it reproduces ("rst 606-612") or of the text it checks '
    '("rst text 314-317"). "What it checks" is read from the step\'s `expect:` line '
    '(`lrb_kunit_expect()`): the ring (every next pointer, its flag, and the prev pointers '
    'along it), which page is head, tail, commit and reader, page indexes, counters. Every '
    'case then reads its events back and checks the accounting.', '',
    'Nested writers run as an interrupt would: the first one in hardirq context, a writer '
    'nested in it in NMI context (`kunit/lrb_kunit_context.c`), so that the kernel\'s '
    'recursion guard admits them as it admits real interrupts. Where the kernel\'s buffer '
    'differs, its step says "Kernel differs" and why, and asserts the kernel\'s exact state '
    'instead; docs/kernel-rb-differences.md has a row for each difference.', '',
]


def _results(scenarios: List[Scenario]) -> Dict[Tuple[str, str], Scenario]:
    return {(s.case, s.impl): s for s in scenarios}


def _table(scenarios: List[Scenario]) -> List[str]:
    by = _results(scenarios)
    out = ['| scenario | where the document has it | test case | mode | what it asserts | lrb '
           '| kernel | kernel differs at |',
           '|---|---|---|---|---|---|---|---|']
    for s in scenarios:
        if s.impl != 'lrb':
            continue
        k = by.get((s.case, 'kernel'))
        kres = k.result if k else 'not run'
        kdiff = sum(1 for st in k.steps if st.differs) if k else 0
        out.append(f'| {s.case.replace("_", " ")} | {s.where} | `lrb_design.{s.case}` | '
                   f'{s.mode} | {_asserts(s)} | {s.result} | {kres} | '
                   f'{kdiff} of {len(k.steps) if k else 0} steps |')
    return out


def _steps(s: Scenario, level: str) -> List[str]:
    out: List[str] = []
    for st in s.steps:
        checks = ', '.join(st.kinds) or 'nothing'
        out += ['', f'{level} Step {st.number} ({st.cite}): {st.title}', '']
        if st.differs:
            out += [f'Kernel differs: {st.differs}.', '']
        out += [f'Who: {st.where}. Checks: {checks}. Expected: `{st.expect}` '
                f'({st.verdict or "not checked"})', '', '```']
        out += st.lines
        out += ['```']
    if s.read_back:
        out += ['', f'Then: {s.read_back}.']
    return out


def _scenario(s: Scenario, kernel: Optional[Scenario]) -> List[str]:
    out = ['', f'## {s.case}', '',
           f'{s.where}; {s.mode} mode; boxes from {s.first_box}. Result: **{s.result}**.']
    out += _steps(s, '###')
    if kernel is not None:
        out += ['', f'### On the kernel\'s buffer (`lrb_design_kernel.{s.case}`)', '',
                f'Result: **{kernel.result}**.']
        out += _steps(kernel, '####')
    return out


def render(scenarios: List[Scenario]) -> str:
    """The markdown page: each lrb scenario, then the same case on the kernel's buffer."""
    by = _results(scenarios)
    out = list(HEADER) + _table(scenarios)
    for s in scenarios:
        if s.impl == 'lrb':
            out += _scenario(s, by.get((s.case, 'kernel')))
    return '\n'.join(out) + '\n'


def missing_impls(scenarios: List[Scenario]) -> List[str]:
    """The suites of which the log has no scenario."""
    have = {s.impl for s in scenarios}
    return [SUITES[i] for i in IMPLS if i not in have]


def differences(current: str, generated: str, limit: int = 40) -> List[str]:
    """A unified diff of the committed catalogue against a run's, at most limit lines."""
    diff = list(difflib.unified_diff(current.splitlines(), generated.splitlines(),
                                     'docs/scenarios.md', 'this run', lineterm='', n=1))
    return diff[:limit] + ([f'... {len(diff) - limit} more lines'] if len(diff) > limit else [])
