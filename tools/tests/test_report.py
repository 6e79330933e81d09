"""report.failure_summary: the tail of a long run names what failed."""

import unittest
from typing import Dict, List, Optional

from lrb_harness import report
from lrb_harness.results import BootResult, CaseResult


def boot(target: str, statuses: Dict[str, str], errors: Optional[List[str]] = None) -> BootResult:
    cases = [CaseResult('lrb_api', name, status) for name, status in statuses.items()]
    return BootResult(target=target, cases=cases, errors=errors or [])


class FailureSummaryTest(unittest.TestCase):
    def test_green_run_prints_nothing(self) -> None:
        self.assertEqual(report.failure_summary([('default', [boot('x86_64', {'a': 'PASS'})])]),
                         [])

    def test_names_profile_target_and_case(self) -> None:
        lines = report.failure_summary([
            ('default', [boot('x86_64', {'a': 'PASS', 'b': 'FAIL'})]),
            ('kcsan', [boot('arm64-lse', {'c': 'CRASHED'}, ['hang: no end'])]),
        ])
        self.assertEqual(lines, ['failed:',
                                 '  default@x86_64 lrb_api.b: FAIL',
                                 '  kcsan@arm64-lse lrb_api.c: CRASHED',
                                 '  kcsan@arm64-lse: hang: no end'])

    def test_long_lists_are_cut(self) -> None:
        many = boot('x86_64', {f'c{i}': 'FAIL' for i in range(30)})
        lines = report.failure_summary([('default', [many])], limit=5)
        self.assertEqual(len(lines), 7)
        self.assertEqual(lines[-1], '  ... and 25 more')


if __name__ == '__main__':
    unittest.main()
