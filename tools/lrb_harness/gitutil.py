"""Running git on the kernel tree with a fixed environment.

User and system git configuration are ignored (GIT_CONFIG_GLOBAL=/dev/null,
GIT_CONFIG_NOSYSTEM=1) so that `git am` and `git format-patch` give the same
result on every machine, and an explicit identity is passed so that commits
work on a machine with no git identity.
"""

import os
import subprocess
from pathlib import Path
from typing import Dict, List, Optional, Sequence

IDENTITY = ['-c', 'user.name=lrb harness', '-c', 'user.email=lrb@localhost']


def git_env(extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith('GIT_')}
    env.update({'GIT_CONFIG_NOSYSTEM': '1', 'GIT_CONFIG_GLOBAL': os.devnull,
                'LC_ALL': 'C', 'GIT_TERMINAL_PROMPT': '0'})
    if extra:
        env.update(extra)
    return env


class GitError(Exception):
    def __init__(self, args: Sequence[str], proc: 'subprocess.CompletedProcess[str]') -> None:
        self.args_ = list(args)
        self.returncode = proc.returncode
        self.stdout = proc.stdout or ''
        self.stderr = proc.stderr or ''
        super().__init__(f'git {" ".join(args)} failed ({proc.returncode}): '
                         f'{self.stderr.strip() or self.stdout.strip()}')


def run(tree: Path, args: Sequence[str], check: bool = True,
        input_text: Optional[str] = None,
        env: Optional[Dict[str, str]] = None) -> 'subprocess.CompletedProcess[str]':
    cmd = ['git', '-C', str(tree)] + IDENTITY + list(args)
    proc = subprocess.run(cmd, input=input_text, capture_output=True,
                          text=True, errors='replace', env=git_env(env))
    if check and proc.returncode != 0:
        raise GitError(args, proc)
    return proc


def out(tree: Path, args: Sequence[str]) -> str:
    return run(tree, args).stdout.strip()


def lines(tree: Path, args: Sequence[str]) -> List[str]:
    text = run(tree, args).stdout
    return [line for line in text.splitlines() if line]


def is_repo(tree: Path) -> bool:
    return (tree / '.git').exists()


def rev(tree: Path, name: str) -> Optional[str]:
    proc = run(tree, ['rev-parse', '-q', '--verify', name + '^{commit}'], check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


def git_dir(tree: Path) -> Path:
    return Path(out(tree, ['rev-parse', '--absolute-git-dir']))
