#!/usr/bin/env python3
"""Regenerate data/ktap/expected.json and the *.json files with kunit.py's own parser.

  python3 tools/tests/make_expected.py <kernel tree>/tools/testing/kunit

The unit tests compare the harness's KTAP parser with these, so its counts stay
those of kunit.py 6.12 (test_ktap.py also compares live when a tree is there).
"""

import contextlib
import io
import json
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent / 'data' / 'ktap'


def main(kunit_dir: str) -> None:
    sys.path.insert(0, kunit_dir)
    import kunit_json  # type: ignore
    import kunit_parser  # type: ignore
    expected = {}
    for log in sorted(DATA.glob('*.log')):
        with contextlib.redirect_stdout(io.StringIO()):
            test = kunit_parser.parse_run_tests(log.read_text(errors='replace').splitlines())
        counts = test.counts
        expected[log.name] = {'status': test.status.name, 'passed': counts.passed,
                              'failed': counts.failed, 'crashed': counts.crashed,
                              'skipped': counts.skipped, 'errors': counts.errors}
        meta = kunit_json.Metadata(arch='x86_64', build_dir='.kunit', def_config='kunit_defconfig')
        log.with_suffix('.json').write_text(kunit_json.get_json_result(test, meta) + '\n')
    (DATA / 'expected.json').write_text(json.dumps(expected, indent=1, sort_keys=True) + '\n')


if __name__ == '__main__':
    main(sys.argv[1])
