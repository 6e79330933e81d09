"""`make series`: the series as it goes to a mailing list.

Into results/series/ (or a directory given): `git format-patch
--cover-letter` of the applied series, its cover letter written from
kernel-patch/cover-letter.txt (coverletter.py) with the figures of the last
`make test`, the kunitconfig that runs the suites and
scripts/get_maintainer.pl's answer. Then each patch is checked: a subject
of at most 75 characters in the kernel's `subsystem: summary` form, and
checkpatch --strict with nothing to say. Last, the patches written are
applied with `git am` onto the pristine base in a worktree of the kernel
tree of their own (<cache>/lrb/series-check), and stock kunit.py builds
that tree with .kunitconfig for x86_64, with ccache through PATH rather
than CC=, so that the same kunit.py command run by hand there finds
nothing to rebuild.
"""

import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional

from . import checks, coverletter, gitutil, kunitrun, paths, testrecord
from .checks import CheckResult
from .errors import HarnessError
from .paths import PACKAGE
from .tree import BASE_TAG, TreeConfig, stale_copies

Say = Callable[[str], None]
SUBJECT_MAX = 75
SUBJECT_FORM = re.compile(r'^[\w.+/,-]+: \S')
PATCH_NAME = '[0-9][0-9][0-9][0-9]-*.patch'
CCACHE_PATH = Path('/usr/lib/ccache')   # Debian's gcc -> ccache links
CHECK_TREE = 'series-check'
BUILD_NAME = 'series-x86_64'


@dataclass
class SeriesConfig:
    repo: Path
    tree: Path            # the prepared kernel tree, the series applied
    head: str             # the series' last commit
    out: Path
    cache: Path           # <cache>/lrb
    kernel: str           # what the series applies to, for the cover letter
    build: bool = True
    jobs: int = 1
    env: Dict[str, str] = field(default_factory=dict)
    say: Say = print


def format_patches(tree: Path, head: str, out: Path) -> List[Path]:
    """The cover letter and the patches, numbered; earlier ones removed.
    The cover letter is from the first patch's author (git takes the
    committer's identity, the harness's own)."""
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob(PATCH_NAME):
        old.unlink()
    first = gitutil.lines(tree, ['rev-list', '--reverse', f'{BASE_TAG}..{head}'])[0]
    name, email = gitutil.out(tree, ['log', '-1', '--format=%an%x00%ae', first]).split('\0')
    gitutil.run(tree, ['-c', f'user.name={name}', '-c', f'user.email={email}', 'format-patch',
                       '--cover-letter', '--numbered', '--no-signature', '--zero-commit',
                       '--subject-prefix=PATCH', '-q', '-o', str(out), f'{BASE_TAG}..{head}'])
    return sorted(out.glob(PATCH_NAME))


def subject_of(text: str) -> str:
    """The Subject header unfolded, without its [PATCH n/m] prefix."""
    match = re.search(r'^Subject: (.*(?:\n[ \t].*)*)', text, re.M)
    if not match:
        return ''
    subject = re.sub(r'\n[ \t]+', ' ', match.group(1))
    return re.sub(r'^\[[^]]*\] ', '', subject)


def subject_check(patches: List[Path]) -> CheckResult:
    result = CheckResult(f'subjects: <= {SUBJECT_MAX} characters, subsystem: summary', True)
    for patch in patches:
        subject = subject_of(patch.read_text(errors='replace'))
        if len(subject) > SUBJECT_MAX:
            result.problems.append(f'{patch.name}: {len(subject)} characters: {subject}')
        if not SUBJECT_FORM.match(subject):
            result.problems.append(f'{patch.name}: not "subsystem: summary": {subject}')
    result.ok = not result.problems
    return result


def maintainers(tree: Path, patches: List[Path]) -> List[str]:
    """scripts/get_maintainer.pl on the patches, from the applied tree
    (whose MAINTAINERS has the series' entry); no git history lookups."""
    proc = subprocess.run(['perl', str(tree / 'scripts' / 'get_maintainer.pl'), '--no-git',
                           '--no-git-fallback'] + [str(p) for p in patches],
                          cwd=tree, capture_output=True, text=True, errors='replace')
    if proc.returncode:
        raise HarnessError('get_maintainer.pl failed: ' + (proc.stderr or proc.stdout).strip())
    return proc.stdout.strip().splitlines()


def kernel_version(tree: Path) -> str:
    """VERSION.PATCHLEVEL.SUBLEVEL from the tree's Makefile."""
    fields = dict(re.findall(r'^(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)',
                             (tree / 'Makefile').read_text(), re.M))
    return '.'.join(fields.get(k, '?') for k in ('VERSION', 'PATCHLEVEL', 'SUBLEVEL'))


def write_cover_letter(cfg: SeriesConfig, letter: Path, patches: List[Path]) -> None:
    summary_path = cfg.repo / 'results' / 'latest' / 'summary.json'
    if not summary_path.is_file():
        raise HarnessError(f'{summary_path} is missing: run `make test` first, its '
                           'figures go into the cover letter')
    summary = testrecord.read(summary_path)
    where = summary_path.resolve().parent.name
    values = {
        '@KERNEL@': cfg.kernel,
        '@RESULTS@': '\n'.join(coverletter.results_lines(summary, where)),
        '@KUNITCONFIG@': '\n'.join(coverletter.kunitconfig_lines(
            (cfg.repo / '.kunitconfig').read_text())),
        '@MAINTAINERS@': '\n'.join(coverletter.INDENT + line
                                   for line in maintainers(cfg.tree, patches)),
    }
    template = (cfg.repo / 'kernel-patch' / 'cover-letter.txt').read_text()
    subject, body = coverletter.fill(template, values)
    letter.write_text(coverletter.into_git_letter(letter.read_text(), subject, body))
    if 'test' not in summary:
        cfg.say(f'warning: {where} is not a make test: the cover letter says so')


def worktree(cfg: SeriesConfig) -> Path:
    """The check tree at the pristine base, created the first time."""
    path = cfg.cache / CHECK_TREE
    if not (path / '.git').exists():
        gitutil.run(cfg.tree, ['worktree', 'prune'])
        cfg.say(f'series: checking out {BASE_TAG} into {path} (once)')
        gitutil.run(cfg.tree, ['worktree', 'add', '-q', '--detach', str(path), BASE_TAG])
        return path
    gitutil.run(path, ['am', '--abort'], check=False)
    gitutil.run(path, ['checkout', '-q', '-f', '--detach', BASE_TAG])
    gitutil.run(path, ['clean', '-q', '-f', '-f', '-d', '-x'])
    return path


def applies(cfg: SeriesConfig, patches: List[Path]) -> CheckResult:
    path = worktree(cfg)
    proc = gitutil.run(path, ['am', '--quiet'] + [str(p) for p in patches], check=False)
    result = CheckResult(f'git am onto {BASE_TAG} ({path})', proc.returncode == 0)
    if not result.ok:
        result.problems = (proc.stderr + proc.stdout).strip().splitlines()[-20:]
        gitutil.run(path, ['am', '--abort'], check=False)
    return result


def build_env(env: Dict[str, str]) -> Dict[str, str]:
    """kunit.py's environment, ccache reached through PATH when Debian's
    links are there."""
    built = kunitrun.kunit_env(paths.ccache_dir(env), env)
    if (CCACHE_PATH / 'gcc').exists():
        built['PATH'] = f'{CCACHE_PATH}:{built.get("PATH", "")}'
    return built


def build_command(path: Path, repo: Path, build_dir: Path, jobs: int) -> List[str]:
    return [sys.executable, str(kunitrun.kunit_py(path)), 'build',
            f'--kunitconfig={repo / ".kunitconfig"}', '--arch=x86_64',
            f'--build_dir={build_dir}', f'--jobs={jobs}']


def builds(cfg: SeriesConfig) -> CheckResult:
    path = cfg.cache / CHECK_TREE
    build_dir = cfg.cache / 'build' / BUILD_NAME
    cmd = build_command(path, cfg.repo, build_dir, cfg.jobs)
    cfg.say(f'series: {" ".join(cmd)}')
    with kunitrun.build_lock(build_dir, cfg.say):
        proc = subprocess.run(cmd, cwd=path, env=build_env(cfg.env), capture_output=True,
                              text=True, errors='replace')
    result = CheckResult(f'kunit.py build --kunitconfig=.kunitconfig --arch=x86_64 ({build_dir})',
                         proc.returncode == 0)
    if not result.ok:
        output = proc.stdout + proc.stderr
        result.problems = checks.compiler_diagnostics(output) or output.splitlines()[-30:]
    return result


def make_series(cfg: SeriesConfig) -> List[CheckResult]:
    files = format_patches(cfg.tree, cfg.head, cfg.out)
    letter, patches = files[0], files[1:]
    write_cover_letter(cfg, letter, patches)
    copies = checks.standalone_copies(patches, cfg.repo / checks.STANDALONE_DIR)
    found = [subject_check(patches),
             checks.checkpatch(cfg.tree, patches, as_files=False,
                               ignored=checks.series_ignored(patches, copies))]
    found[1].name = found[1].name.replace('checkpatch --strict',
                                          f'checkpatch --strict ({len(patches)} patches)', 1)
    if not cfg.build:
        return found
    found.append(applies(cfg, patches))
    if found[-1].ok:
        found.append(builds(cfg))
    return found


def config(repo: Path, tree: Path, version: str, out: Optional[str], build: bool, jobs: int,
           env: Dict[str, str], say: Say) -> SeriesConfig:
    """For a prepared tree; refuses when kunit/ or bench/ is not what the
    series carries (make export first)."""
    stale = stale_copies(TreeConfig(repo=repo, tree=tree, tarball=Path()))
    if stale:
        raise HarnessError('the series does not carry kunit/ and bench/ as they are: run '
                           '`make export` first:\n' + '\n'.join('  ' + s for s in stale))
    head = gitutil.rev(tree, 'HEAD')
    assert head is not None
    return SeriesConfig(repo=repo, tree=tree, head=head,
                        out=Path(out).absolute() if out else repo / 'results' / 'series',
                        cache=paths.cache_root(env),
                        kernel=f"Linux {kernel_version(tree)} (Debian's {PACKAGE} {version})",
                        build=build, jobs=jobs, env=env, say=say)
