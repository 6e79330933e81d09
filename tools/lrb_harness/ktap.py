"""KTAP parsing with kunit.py's rules (tools/testing/kunit/kunit_parser.py, 6.12).

The grammar and the counting follow kunit.py exactly: a test with subtests
counts its leaves, so each parameter of a parameterised case counts once and
the case itself not at all; a subtest announced by a plan but never reported
counts as crashed. On top of that every test keeps the raw log line numbers
it spans and the printk times of its first and last line, which gives each
case a duration (printk.time=1 is on the harness kernel command line) and
lets logscan map a kernel report to the case that was running.
"""

import re
from dataclasses import dataclass, field
from typing import Iterable, Iterator, List, Optional, Tuple

PASS, FAIL, SKIP, CRASH, NO_TESTS, NO_KTAP = (
    'PASS', 'FAIL', 'SKIP', 'CRASHED', 'NO TESTS', 'NO KTAP')

KTAP_START = re.compile(r'\s*KTAP version ([0-9]+)$')
TAP_START = re.compile(r'\s*TAP version ([0-9]+)$')
KTAP_END = re.compile(r'\s*(List of all partitions:|'
                      r'Kernel panic - not syncing: VFS:|reboot: System halted)')
EXECUTOR_ERROR = re.compile(r'\s*kunit executor: (.*)$')
TEST_HEADER = re.compile(r'^\s*# Subtest: (.*)$')
TEST_PLAN = re.compile(r'^\s*1\.\.([0-9]+)')
TEST_RESULT = re.compile(r'^\s*(ok|not ok) ([0-9]+) (- )?([^#]*)( # .*)?$')
TEST_RESULT_SKIP = re.compile(r'^\s*(ok|not ok) ([0-9]+) (- )?(.*) # SKIP(.*)$')
PRINTK_TIME = re.compile(r'^\s*\[\s*(\d+\.\d+)\]')
NON_DIAGNOSTIC = [TEST_RESULT, TEST_HEADER, KTAP_START, TAP_START, TEST_PLAN]


@dataclass
class Counts:
    passed: int = 0
    failed: int = 0
    crashed: int = 0
    skipped: int = 0
    errors: int = 0

    def total(self) -> int:
        return self.passed + self.failed + self.crashed + self.skipped

    def add(self, other: 'Counts') -> None:
        self.passed += other.passed
        self.failed += other.failed
        self.crashed += other.crashed
        self.skipped += other.skipped
        self.errors += other.errors

    def add_status(self, status: str) -> None:
        if status == PASS:
            self.passed += 1
        elif status == FAIL:
            self.failed += 1
        elif status == SKIP:
            self.skipped += 1
        elif status != NO_TESTS:
            self.crashed += 1

    def status(self) -> str:
        if self.total() == 0:
            return NO_TESTS
        if self.crashed:
            return CRASH
        if self.failed:
            return FAIL
        if self.passed:
            return PASS
        return SKIP


@dataclass
class Line:
    num: int            # 1-based line number in the raw kernel log
    text: str           # with the prefix before "KTAP version" removed
    time: Optional[float]


@dataclass
class Test:
    name: str = ''
    status: str = CRASH
    expected_count: Optional[int] = 0
    subtests: List['Test'] = field(default_factory=list)
    log: List[Line] = field(default_factory=list)
    counts: Counts = field(default_factory=Counts)
    errors: List[str] = field(default_factory=list)
    first_line: int = 0              # first raw line that belongs to the test
    last_line: Optional[int] = None  # its result line; None: never reported
    start_time: Optional[float] = None
    end_time: Optional[float] = None

    def add_error(self, message: str) -> None:
        self.counts.errors += 1
        self.errors.append(message)

    def ok(self) -> bool:
        return self.status in (PASS, SKIP)

    def duration(self) -> Optional[float]:
        if self.start_time is None or self.end_time is None:
            return None
        return max(0.0, self.end_time - self.start_time)


class LineStream:
    """peek()/pop() over extracted lines, remembering the last popped one."""

    def __init__(self, lines: Iterator[Line]) -> None:
        self._lines = lines
        self._next: Optional[Line] = None
        self._done = False
        self.last_num = 0
        self.last_time: Optional[float] = None
        self._fill()

    def _fill(self) -> None:
        if self._next is None and not self._done:
            try:
                self._next = next(self._lines)
            except StopIteration:
                self._done = True

    def peek(self) -> str:
        self._fill()
        return self._next.text if self._next else ''

    def pop(self) -> Line:
        self._fill()
        if self._next is None:
            raise ValueError('LineStream: going past EOF')
        line = self._next
        self._next = None
        self.last_num = line.num
        if line.time is not None:
            self.last_time = line.time
        return line

    def __bool__(self) -> bool:
        self._fill()
        return self._next is not None


def extract_ktap(raw_lines: Iterable[str]) -> LineStream:
    def isolate() -> Iterator[Line]:
        started = False
        prefix_len = 0
        for num, raw in enumerate(raw_lines, 1):
            raw = raw.rstrip('\r\n').rstrip()
            match = PRINTK_TIME.match(raw)
            time = float(match.group(1)) if match else None
            if not started and (KTAP_START.search(raw) or TAP_START.search(raw)):
                marker = 'KTAP version' if KTAP_START.search(raw) else 'TAP version'
                prefix_len = len(raw.split(marker)[0])
                started = True
                yield Line(num, raw[prefix_len:], time)
            elif started and KTAP_END.search(raw):
                break
            elif started:
                yield Line(num, raw[prefix_len:], time)
            elif EXECUTOR_ERROR.search(raw):
                yield Line(num, raw, time)
    return LineStream(isolate())


def _diagnostics(lines: LineStream) -> List[Line]:
    log = []
    while lines and not any(r.match(lines.peek()) for r in NON_DIAGNOSTIC):
        log.append(lines.pop())
    return log


def _header(lines: LineStream) -> bool:
    if KTAP_START.match(lines.peek()) or TAP_START.match(lines.peek()):
        lines.pop()
        return True
    return False


def _subtest_header(lines: LineStream, test: Test) -> bool:
    match = TEST_HEADER.match(lines.peek())
    if not match:
        return False
    test.name = match.group(1)
    lines.pop()
    return True


def _plan(lines: LineStream, test: Test) -> None:
    match = TEST_PLAN.match(lines.peek())
    if not match:
        test.expected_count = None
        return
    test.expected_count = int(match.group(1))
    lines.pop()


def _name_matches(lines: LineStream, test: Test) -> bool:
    match = TEST_RESULT.match(lines.peek())
    return match is not None and match.group(4) == test.name


def _result(lines: LineStream, test: Test, expected_num: int) -> None:
    text = lines.peek()
    match = TEST_RESULT.match(text)
    skip = TEST_RESULT_SKIP.match(text)
    if not match:
        return
    line = lines.pop()
    test.last_line = line.num
    test.end_time = line.time if line.time is not None else lines.last_time
    test.name = skip.group(4) if skip else match.group(4)
    if int(match.group(2)) != expected_num:
        test.add_error(f'Expected test number {expected_num} but found {match.group(2)}')
    if skip:
        test.status = SKIP
    elif match.group(1) == 'ok':
        test.status = PASS
    else:
        test.status = FAIL


def _bubble_up(test: Test) -> None:
    for sub in test.subtests:
        test.counts.add(sub.counts)
    if test.counts.total() == 0:
        test.counts.add_status(test.status)
    elif test.counts.status() == CRASH:
        test.status = CRASH


def _begin(lines: LineStream, log: List[Line]) -> Test:
    test = Test()
    test.first_line = log[0].num if log else lines.last_num + 1
    test.start_time = lines.last_time
    test.log.extend(log)
    return test


def parse_test(lines: LineStream, expected_num: int, log: List[Line], is_subtest: bool) -> Test:
    test = _begin(lines, log)
    test.log.extend(_diagnostics(lines))
    if not is_subtest:
        test.name = 'main'
        _header(lines)
        test.log.extend(_diagnostics(lines))
        _plan(lines, test)
        parent = True
    else:
        ktap_line = _header(lines)
        subtest_line = _subtest_header(lines, test)
        parent = ktap_line or subtest_line
        if parent:
            test.log.extend(_diagnostics(lines))
            _plan(lines, test)
    expected = test.expected_count
    num = 1
    while parent and (expected is None or num <= expected):
        sub_log = _diagnostics(lines)
        if not lines or (_name_matches(lines, test) and is_subtest):
            if expected and num <= expected:
                test.add_error('missing expected subtest!')
                missing = _begin(lines, sub_log)
                test.counts.add_status(CRASH)
                test.subtests.append(missing)
            else:
                test.log.extend(sub_log)
                break
        else:
            test.subtests.append(parse_test(lines, num, sub_log, True))
        num += 1
    if is_subtest:
        test.log.extend(_diagnostics(lines))
        if test.name != '' and not _name_matches(lines, test):
            test.add_error('missing subtest result line!')
        else:
            _result(lines, test, expected_num)
    if parent and not test.subtests and test.status in (CRASH, PASS):
        test.status = NO_TESTS
        test.add_error('0 tests run!')
    _bubble_up(test)
    return test


def parse(raw_lines: Iterable[str]) -> Test:
    """Parse a whole kernel log; the result is the 'main' test."""
    lines = extract_ktap(raw_lines)
    if not lines:
        test = Test(name='<missing>', status=NO_KTAP)
        test.add_error('Could not find any KTAP output. Did any KUnit tests run?')
        return test
    test = parse_test(lines, 0, [], False)
    if test.status != NO_TESTS:
        test.status = test.counts.status()
    return test


@dataclass
class Leaf:
    path: Tuple[str, ...]   # (suite, case) or (suite, case, param)
    test: Test

    @property
    def suite(self) -> str:
        return self.path[0] if self.path else ''

    @property
    def case(self) -> str:
        return '.'.join(self.path[1:])


def leaves(main: Test) -> List[Leaf]:
    """Every counted test: the leaves under the main test, with their path."""
    found: List[Leaf] = []

    def walk(test: Test, path: Tuple[str, ...]) -> None:
        for index, sub in enumerate(test.subtests, 1):
            name = sub.name or f'<test {index}, never reported>'
            if sub.subtests:
                walk(sub, path + (name,))
            else:
                found.append(Leaf(path + (name,), sub))
    walk(main, ())
    return found


SUMMARY_LINE = re.compile(r'^# (\S+: pass:\d+ fail:\d+ skip:\d+ total:\d+|Totals: .*)$')
ATTRIBUTE_LINE = re.compile(r'^# [\w.-]+\.(speed|module|is_init): ')


def case_log(test: Test, everything: bool = False) -> List[str]:
    """The KTAP diagnostic lines a test logged, without KUnit's bookkeeping.

    Lines look like '    # <case>: <text>'; '# <case>: ' is removed so
    that multi-line diagrams keep their own indentation. With everything,
    the lines without '#' are kept too: the continuation lines of a failed
    expectation ("Expected x == y, but") and kernel messages.
    """
    out: List[str] = []
    for line in test.log:
        text = line.text.strip()
        if SUMMARY_LINE.match(text) or ATTRIBUTE_LINE.match(text) or not text:
            continue
        if not text.startswith('#'):
            if everything:
                out.append(line.text.rstrip())
            continue
        body = line.text.lstrip()[1:]
        body = body[1:] if body.startswith(' ') else body
        if test.name and body.startswith(test.name + ':'):
            body = body[len(test.name) + 1:]
            body = body[1:] if body.startswith(' ') else body
        out.append(body.rstrip())
    return out
