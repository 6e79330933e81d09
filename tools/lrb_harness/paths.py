"""Where things live: repository, cache root, kernel tree, build dirs, results."""

import os
from pathlib import Path
from typing import Mapping, Optional

TREE_DIRNAME = 'linux-source-6.12'
PACKAGE = 'linux-source-6.12'
DEFAULT_TARBALL = '/usr/src/linux-source-6.12.tar.xz'


def repo_root() -> Path:
    """The repository: two levels above this file (tools/lrb_harness/)."""
    return Path(__file__).resolve().parent.parent.parent


def cache_root(env: Optional[Mapping[str, str]] = None) -> Path:
    """${XDG_CACHE_HOME:-$HOME/.cache}/lrb."""
    env = os.environ if env is None else env
    base = env.get('XDG_CACHE_HOME') or os.path.join(
        env.get('HOME') or os.path.expanduser('~'), '.cache')
    return Path(base) / 'lrb'


def tree_dir(env: Optional[Mapping[str, str]] = None) -> Path:
    """KERNEL_SRC if set, else <cache root>/linux-source-6.12."""
    env = os.environ if env is None else env
    src = env.get('KERNEL_SRC')
    if src:
        return Path(src).expanduser().absolute()
    return cache_root(env) / TREE_DIRNAME


def tree_from_kernel_src(env: Optional[Mapping[str, str]] = None) -> bool:
    env = os.environ if env is None else env
    return bool(env.get('KERNEL_SRC'))


def tarball(env: Optional[Mapping[str, str]] = None) -> Path:
    """The source tarball; LRB_TARBALL overrides (used by the tests)."""
    env = os.environ if env is None else env
    return Path(env.get('LRB_TARBALL') or DEFAULT_TARBALL)


def build_dir(build: str, profile: str,
              env: Optional[Mapping[str, str]] = None) -> Path:
    """<cache root>/build/<arch>-<profile> (arch: x86_64 or arm64)."""
    return cache_root(env) / 'build' / f'{build}-{profile}'


def ccache_dir(env: Optional[Mapping[str, str]] = None) -> Path:
    env = os.environ if env is None else env
    if env.get('CCACHE_DIR'):
        return Path(env['CCACHE_DIR'])
    return cache_root(env) / 'ccache'


def results_root(repo: Optional[Path] = None) -> Path:
    return (repo or repo_root()) / 'results'
