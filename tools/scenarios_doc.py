#!/usr/bin/env python3
"""Write docs/scenarios.md from a kernel log of the lrb_design suites.

Usage: tools/scenarios_doc.py KERNEL_LOG [OUTPUT] (default docs/scenarios.md)
(make scenarios-doc). `make test` writes the same page from its own x86_64 run
into its results directory and fails when docs/scenarios.md differs.
"""

import sys
from pathlib import Path
from typing import List

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lrb_harness import catalogue  # noqa: E402


def main(argv: List[str]) -> int:
    if len(argv) < 2:
        print('usage: scenarios_doc.py KERNEL_LOG [OUTPUT]', file=sys.stderr)
        return 2
    log_path = Path(argv[1])
    out_path = Path(argv[2]) if len(argv) > 2 else Path('docs/scenarios.md')
    try:
        log = log_path.read_text(errors='replace')
    except OSError as e:
        print(f'scenarios_doc: cannot read {log_path}: {e.strerror}', file=sys.stderr)
        return 2
    scenarios = catalogue.parse(log)
    if not scenarios:
        print(f'scenarios_doc: no lrb_design scenario in {log_path}', file=sys.stderr)
        return 2
    missing = catalogue.missing_impls(scenarios)
    if missing:
        print(f'scenarios_doc: no {" or ".join(missing)} scenario in {log_path}: the page '
              'shows both implementations (run `make scenarios` without IMPL=)',
              file=sys.stderr)
        return 2
    out_path.write_text(catalogue.render(scenarios))
    print(f'scenarios_doc: {len(scenarios)} scenarios written to {out_path}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
