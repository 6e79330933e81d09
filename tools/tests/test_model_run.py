"""tools/model.py run_configs: side by side, reported in order, a failure kept."""

import io
import threading
import unittest
from contextlib import redirect_stdout
from typing import Dict, List, Tuple
from unittest import mock

import model
import model_configs as mc
import model_pan as mp

CONFIGS = [mc.Config(f'c{i}', 'test configuration', {}) for i in range(4)]


class FakeSearches:
    """build_and_verify's stand-in: the first configuration waits until a
    second one has started, which only searches side by side allow."""

    def __init__(self, failing: str = '') -> None:
        self.failing = failing
        self.started: List[str] = []
        self.second = threading.Event()
        self.lock = threading.Lock()
        self.overlapped = False

    def __call__(self, config: mc.Config, _timeout_s: int,
                 _check_reach: bool) -> Tuple[mp.PanResult, Dict[mp.Place, Tuple[int, str]],
                                              float]:
        with self.lock:
            self.started.append(config.name)
            if len(self.started) == 2:
                self.second.set()
        if config.name == 'c0':
            self.overlapped = self.second.wait(timeout=5)
        res = mp.PanResult(states=1, complete=True, errors=int(config.name == self.failing))
        return res, {}, 0.0


def run(fake: FakeSearches, searches: int) -> Tuple[bool, List[str]]:
    out = io.StringIO()
    with mock.patch.object(model, 'build_and_verify', fake), \
            mock.patch.object(mp, 'missing_tools', return_value=[]), redirect_stdout(out):
        ok = model.run_configs(CONFIGS, 10, False, searches)
    return ok, out.getvalue().splitlines()


class RunConfigsTest(unittest.TestCase):
    def test_two_at_a_time_reported_in_order(self) -> None:
        fake = FakeSearches()
        ok, lines = run(fake, 2)
        self.assertTrue(ok)
        self.assertTrue(fake.overlapped, 'c1 did not start while c0 searched')
        named = [line.split()[1].rstrip(':') for line in lines if line.startswith('  ok')]
        self.assertEqual(named, ['c0', 'c1', 'c2', 'c3'])
        self.assertIn('4 configurations, 2 at a time', lines[-1])

    def test_one_at_a_time_never_overlaps(self) -> None:
        fake = FakeSearches()
        fake.second.set()          # c0 must not wait for a search that cannot start
        ok, lines = run(fake, 1)
        self.assertTrue(ok)
        self.assertEqual(fake.started, ['c0', 'c1', 'c2', 'c3'])
        self.assertIn('1 at a time', lines[-1])

    def test_a_failing_configuration_fails_the_run(self) -> None:
        ok, lines = run(FakeSearches(failing='c2'), 2)
        self.assertFalse(ok)
        self.assertTrue(any(line.startswith('  FAIL c2') for line in lines))
        self.assertIn('FAILED', lines[-1])


if __name__ == '__main__':
    unittest.main()
