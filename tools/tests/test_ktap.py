"""KTAP parsing and counting: the same numbers as kunit.py 6.12's own parser."""

import contextlib
import io
import json
import os
import sys
import unittest
from pathlib import Path
from typing import Any, Dict, Optional

from lrb_harness import ktap, paths, results

from .helpers import DATA

KTAP_DIR = DATA / 'ktap'
KUNIT_STATUS = {'SUCCESS': ktap.PASS, 'FAILURE': ktap.FAIL, 'SKIPPED': ktap.SKIP,
                'TEST_CRASHED': ktap.CRASH, 'NO_TESTS': ktap.NO_TESTS,
                'FAILURE_TO_PARSE_TESTS': ktap.NO_KTAP}


def parse_file(path: Path) -> ktap.Test:
    return ktap.parse(path.read_text(errors='replace').splitlines())


def kunit_tool_dir() -> Optional[Path]:
    """kunit.py's sources, if a tree is around (KUNIT_TOOL_DIR, the prepared tree)."""
    candidates = [os.environ.get('KUNIT_TOOL_DIR', ''),
                  str(paths.tree_dir() / 'tools' / 'testing' / 'kunit')]
    for cand in candidates:
        if cand and (Path(cand) / 'kunit_parser.py').is_file():
            return Path(cand)
    return None


class CountsTest(unittest.TestCase):
    def test_counts_match_recorded_kunit_py_results(self) -> None:
        expected: Dict[str, Dict[str, Any]] = json.loads((KTAP_DIR / 'expected.json').read_text())
        self.assertGreaterEqual(len(expected), 10)
        for name, want in expected.items():
            with self.subTest(log=name):
                test = parse_file(KTAP_DIR / name)
                got = test.counts
                self.assertEqual((got.passed, got.failed, got.crashed, got.skipped, got.errors),
                                 (want['passed'], want['failed'], want['crashed'],
                                  want['skipped'], want['errors']))
                self.assertEqual(test.status, KUNIT_STATUS[want['status']])

    def test_leaves_match_kunit_py_json(self) -> None:
        for log in sorted(KTAP_DIR.glob('*.log')):
            with self.subTest(log=log.name):
                test = parse_file(log)
                counts = results.json_counts(log.with_suffix('.json'))
                if test.status == ktap.NO_KTAP:
                    self.assertEqual(sum(counts.values()), 0)
                    continue
                statuses = [leaf.test.status for leaf in ktap.leaves(test)]
                self.assertEqual(counts['PASS'], statuses.count(ktap.PASS))
                self.assertEqual(counts['SKIP'], statuses.count(ktap.SKIP))
                self.assertEqual(counts['ERROR'], statuses.count(ktap.CRASH))

    def test_parameterised_cases_count_each_parameter(self) -> None:
        test = parse_file(DATA / 'logs' / 'x86_64-pass.log')
        names = [(leaf.suite, leaf.case, leaf.test.status) for leaf in ktap.leaves(test)]
        self.assertIn(('lrb_api', 'lrb_add_param_test.cancel', ktap.PASS), names)
        self.assertEqual(test.counts.passed, 4)   # 1 plain case + 3 parameters
        self.assertEqual(test.counts.skipped, 1)
        self.assertEqual(len(names), 5)

    def test_case_times_from_printk_timestamps(self) -> None:
        test = parse_file(DATA / 'logs' / 'x86_64-pass.log')
        for leaf in ktap.leaves(test):
            self.assertIsNotNone(leaf.test.duration(), leaf.case)

    def test_case_log_strips_kunit_prefix(self) -> None:
        test = parse_file(DATA / 'logs' / 'x86_64-pass.log')
        leaf = next(l for l in ktap.leaves(test) if l.case == 'lrb_add_test')
        self.assertEqual(ktap.case_log(leaf.test), ['diagram line 1', '  [A] -> [B]'])

    def test_missing_ktap(self) -> None:
        test = ktap.parse(['Linux version 6.12', 'reboot: System halted'])
        self.assertEqual(test.status, ktap.NO_KTAP)


@unittest.skipIf(kunit_tool_dir() is None, 'no kunit.py sources (prepare the tree, or set '
                 'KUNIT_TOOL_DIR)')
class LiveKunitPyTest(unittest.TestCase):
    """The same samples through the tree's kunit_parser, when it is there."""

    def test_same_counts_as_kunit_parser(self) -> None:
        tool = kunit_tool_dir()
        assert tool is not None
        sys.path.insert(0, str(tool))
        try:
            import kunit_parser  # type: ignore
            import kunit_printer  # type: ignore
        finally:
            sys.path.remove(str(tool))
        kunit_printer.stdout._output = io.StringIO()
        logs = sorted(KTAP_DIR.glob('*.log')) + sorted((DATA / 'logs').glob('*.log'))
        for log in logs:
            with self.subTest(log=log.name), contextlib.redirect_stdout(io.StringIO()):
                lines = log.read_text(errors='replace').splitlines()
                theirs = kunit_parser.parse_run_tests(lines)
                ours = ktap.parse(lines)
                self.assertEqual(
                    (ours.counts.passed, ours.counts.failed, ours.counts.crashed,
                     ours.counts.skipped),
                    (theirs.counts.passed, theirs.counts.failed, theirs.counts.crashed,
                     theirs.counts.skipped))
