#!/usr/bin/env python3
"""Entry point: build the patched kernel tree and run the KUnit suites under QEMU.

All logic is in tools/lrb_harness/; see `tools/kunit-wrapper.py --help`.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lrb_harness.cli import main  # noqa: E402

if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
