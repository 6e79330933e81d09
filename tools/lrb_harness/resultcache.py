"""Passes of deterministic steps, keyed by everything they read.

A step whose outcome is a function of files and tool versions alone (SPIN's
exhaustive search of the model; sparse and W=1 on a kernel tree, keyed by
the tree's digest, buildstamp.tree_digest()) records its pass under a key
made of those files' paths and contents and the tools' version lines; make test skips the
step when a pass with the same key is recorded, and says so. Failures are
never recorded. Kernel boots are never keyed: their outcome is not a
function of their inputs. LRB_NO_RESULT_CACHE=1 runs every step."""

import datetime
import hashlib
import subprocess
from pathlib import Path
from typing import Iterable, Mapping, Optional, Sequence

from . import paths

DISABLE = 'LRB_NO_RESULT_CACHE'


def key(files: Iterable[Path], base: Path, commands: Iterable[Sequence[str]]) -> str:
    """A digest of the files (path relative to base, and contents) and of
    what each command prints (a tool's version); a command that cannot run
    counts as its name."""
    digest = hashlib.sha256()
    for path in sorted(set(files)):
        digest.update(path.relative_to(base).as_posix().encode() + b'\0')
        digest.update(path.read_bytes() + b'\0')
    for cmd in commands:
        try:
            out = subprocess.run(list(cmd), capture_output=True, timeout=30).stdout
        except (OSError, subprocess.TimeoutExpired):
            out = b'cannot run'
        digest.update(' '.join(cmd).encode() + b'\0' + out + b'\0')
    return digest.hexdigest()[:20]


def key_of(parts: Iterable[str], files: Iterable[Path] = (),
           commands: Iterable[Sequence[str]] = ()) -> str:
    """A digest of strings (digests of other inputs, arguments), of files
    by path and contents (a missing one counts as missing) and of what
    each command prints."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode() + b'\0')
    for path in files:
        digest.update(str(path).encode() + b'\0')
        digest.update((path.read_bytes() if path.is_file() else b'(missing)') + b'\0')
    digest.update(key([], Path('/'), commands).encode())
    return digest.hexdigest()[:20]


def _record_path(step: str, step_key: str, env: Mapping[str, str]) -> Path:
    return paths.cache_root(env) / 'passes' / f'{step}-{step_key}'


def passed(step: str, step_key: str, env: Mapping[str, str]) -> Optional[str]:
    """When the step last passed with this key (the record's text), or None
    (never, or LRB_NO_RESULT_CACHE set)."""
    if env.get(DISABLE):
        return None
    path = _record_path(step, step_key, env)
    return path.read_text().strip() if path.is_file() else None


def record(step: str, step_key: str, env: Mapping[str, str]) -> None:
    """Record a pass of the step with this key."""
    path = _record_path(step, step_key, env)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(datetime.datetime.now().strftime('%Y-%m-%d %H:%M') + '\n')
