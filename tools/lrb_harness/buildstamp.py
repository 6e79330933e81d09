"""Whether a build directory holds the kernel of the current inputs.

`kunit.py run` configures and runs make even when nothing changed, and on 2
cores a make that finds nothing to do takes 10 to 20 s a build. After a run
that built and booted, the harness records a stamp in the build directory:
a digest of what the kernel is made of (the kernel tree's HEAD, its
uncommitted changes (a planted bug, a merged fix), and the tree step's state,
which names the series and every file copied from kunit/ and bench/; the
kunitconfig fragments and the QEMU config, whose kconfig kunit.py
merges; the build arguments; the compiler's version) and vmlinux's size and
modification time. When the stamp matches, the harness boots the kernel that
is there (`kunit.py exec`). Anything else that builds in the directory (a
planted bug, a hand-run make) changes vmlinux, and the stamp no longer
matches. LRB_NO_BUILD_STAMP=1 always builds.
"""

import hashlib
import json
import re
import subprocess
from pathlib import Path
from typing import List, Mapping, Optional, Sequence

STAMP_FILE = '.lrb-build-stamp'
DISABLE = 'LRB_NO_BUILD_STAMP'
# kunit.py arguments that change the kernel; the others (--json, --timeout,
# --kernel_args, --qemu_args, --jobs, the glob) only change the boot
BUILD_ARGS = ('--build_dir=', '--kunitconfig=', '--arch=', '--qemu_config=',
              '--cross_compile=', '--make_options=')
FILE_ARGS = ('--kunitconfig=', '--qemu_config=')
# A QEMU config that runs another's code first (the -icount ones run their
# base target's, whose kconfig kunit.py merges too) names it thus
QEMU_CONFIG_BASE = re.compile(r"os\.path\.join\(os\.path\.dirname\(__file__\), '([\w.-]+\.py)'\)")


def _run(cmd: Sequence[str], cwd: Optional[Path] = None) -> str:
    try:
        proc = subprocess.run(list(cmd), cwd=cwd, capture_output=True, text=True,
                              errors='replace', check=False)
    except OSError:
        return f'{cmd[0]}: cannot run'
    return proc.stdout + proc.stderr


def tree_digest(tree: Path, tree_state: Path) -> str:
    """What the kernel tree holds: its HEAD, its uncommitted changes and the
    tree step's state (the series, the files copied from kunit/ and bench/)."""
    digest = hashlib.sha256()
    for git in (['rev-parse', 'HEAD'], ['status', '--porcelain'],
                ['diff', 'HEAD', '--no-ext-diff']):
        digest.update(_run(['git', *git], cwd=tree).encode() + b'\0')
    digest.update((tree_state.read_bytes() if tree_state.is_file() else b'(none)') + b'\0')
    return digest.hexdigest()


def file_chain(path: Path) -> List[Path]:
    """A file the build reads, and the QEMU configs whose code it runs."""
    chain = [path]
    while chain[-1].suffix == '.py' and chain[-1].is_file() and len(chain) < 8:
        base = QEMU_CONFIG_BASE.search(chain[-1].read_text(errors='replace'))
        if not base:
            break
        chain.append(chain[-1].parent / base.group(1))
    return chain


def inputs(command: Sequence[str], tree: Path, tree_state: Path, compiler: str) -> str:
    """The digest of what the build of this kunit.py command is made of."""
    digest = hashlib.sha256()
    for arg in command:
        if not arg.startswith(BUILD_ARGS):
            continue
        if arg.startswith(FILE_ARGS):
            # a file by its contents, not its path: the same in every clone
            option, value = arg.split('=', 1)
            for path in file_chain(Path(value)):
                digest.update(option.encode() + b'=' + path.name.encode() + b'\0')
                digest.update((path.read_bytes() if path.is_file() else b'(missing)') + b'\0')
        else:
            digest.update(arg.encode() + b'\0')
    digest.update(tree_digest(tree, tree_state).encode() + b'\0')
    digest.update(_run([compiler, '--version']).encode())
    return digest.hexdigest()


def _image(build_dir: Path) -> Optional[List[int]]:
    vmlinux = build_dir / 'vmlinux'
    try:
        info = vmlinux.stat()
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns]


def matches(build_dir: Path, digest: str, env: Mapping[str, str]) -> bool:
    """The directory's kernel was built from these inputs, and is still there."""
    if env.get(DISABLE):
        return False
    try:
        stamp = json.loads((build_dir / STAMP_FILE).read_text())
    except (OSError, ValueError):
        return False
    image = _image(build_dir)
    return (isinstance(stamp, dict) and image is not None and
            stamp.get('inputs') == digest and stamp.get('vmlinux') == image)


def clear(build_dir: Path) -> None:
    """Before a build: an interrupted one must not leave a stamp behind."""
    (build_dir / STAMP_FILE).unlink(missing_ok=True)


def record(build_dir: Path, digest: str) -> None:
    """After a build that booted."""
    image = _image(build_dir)
    if image is not None:
        (build_dir / STAMP_FILE).write_text(json.dumps({'inputs': digest, 'vmlinux': image})
                                            + '\n')
