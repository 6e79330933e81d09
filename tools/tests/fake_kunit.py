#!/usr/bin/env python3
"""Stand-in for tools/testing/kunit/kunit.py in the CLI tests (no kernel, no QEMU).

Prints kunit.py's progress lines, "boots" by copying $FAKE_KUNIT_LOG to
<build_dir>/test.log, writes a --json file and exits with $FAKE_KUNIT_RC.
$FAKE_KUNIT_MODE=buildfail stops after "Building". Every invocation's argv
is appended to $FAKE_KUNIT_CALLS.
"""

import json
import os
import shutil
import sys


def main() -> int:
    args = sys.argv[1:]
    opts = {a.split('=', 1)[0]: a.split('=', 1)[1] for a in args if a.startswith('--') and '=' in a}
    with open(os.environ['FAKE_KUNIT_CALLS'], 'a') as calls:
        calls.write(json.dumps(args) + '\n')
    if args[0] == 'run':
        print('[10:00:00] Configuring KUnit Kernel ...', flush=True)
        print('[10:00:01] Building KUnit Kernel ...', flush=True)
        if os.environ.get('FAKE_KUNIT_MODE') == 'buildfail':
            print('ERROR:root:lib/lockless_ring_buffer.c:3:1: error: expected ;', flush=True)
            return 1
    print('[10:00:02] Starting KUnit Kernel (1/1)...', flush=True)
    shutil.copyfile(os.environ['FAKE_KUNIT_LOG'], os.path.join(opts['--build_dir'], 'test.log'))
    print('[10:00:03] =================== [PASSED] lrb_api ===================', flush=True)
    with open(opts['--json'], 'w') as out:
        json.dump({'name': 'KUnit Test Group', 'sub_groups': [], 'test_cases': []}, out)
    return int(os.environ.get('FAKE_KUNIT_RC', '0'))


if __name__ == '__main__':
    sys.exit(main())
