"""Invoking the tree's kunit.py: command lines, streaming progress, watchdog."""

import contextlib
import fcntl
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional

from . import profiles
from .profiles import Profile, Target

ANSI = re.compile(r'\x1b\[[0-9;]*m')
STAMP = re.compile(r'^\[\d\d:\d\d:\d\d\] ')
TEST_HEADER = re.compile(r'^=+ (?!\[)(\S+) +(\(\d+ subtests?\) )?=+$')
SUITE_FOOTER = re.compile(r'^=+ \[(PASSED|FAILED|CRASHED|SKIPPED|NO TESTS RUN)\] (\S+) =+$')
CASE_BAD = re.compile(r'^\[(FAILED|CRASHED)\] (.+)$')
TIMED_OUT = re.compile(r'timed out after ([0-9.]+) seconds')
BUILD_TIMEOUT = int(os.environ.get('LRB_BUILD_TIMEOUT', '3600'))
HEARTBEAT = 60.0


def kunit_py(tree: Path) -> Path:
    return tree / 'tools' / 'testing' / 'kunit' / 'kunit.py'


def compiler(tgt: Target) -> str:
    return (tgt.cross_compile or '') + 'gcc'


def make_options(tgt: Target) -> List[str]:
    """Identical on every run (a changed CC would rebuild everything)."""
    if shutil.which('ccache'):
        return ['CC=ccache ' + compiler(tgt)]
    return []


HOST_CPUINFO = Path('/proc/cpuinfo')
TSC_KHZ_FALLBACK = 2000000


def host_tsc_khz(cpuinfo: Path = HOST_CPUINFO) -> int:
    """The host's TSC rate in kHz, which a TCG guest's TSC runs at (QEMU reads
    the host's): /proc/cpuinfo's first "cpu MHz", else TSC_KHZ_FALLBACK."""
    try:
        text = cpuinfo.read_text(errors='replace')
    except OSError:
        return TSC_KHZ_FALLBACK
    match = re.search(r'^cpu MHz\s*:\s*([0-9]+(?:\.[0-9]+)?)', text, re.M)
    return round(float(match.group(1)) * 1000) if match else TSC_KHZ_FALLBACK


def tsc_args(tgt: Target, profile: Profile, khz: Optional[int] = None) -> List[str]:
    """Kernel arguments of an x86 lean boot: without ACPI there is no HPET or PM
    timer to calibrate the TSC against, and the PIT calibration fails often
    under TCG, which leaves the guest on a jiffies clock that stands still
    with interrupts off. tsc_early_khz skips the calibration; tsc=reliable
    keeps the clocksource watchdog (jiffies, there) from unseating the TSC."""
    if not (tgt.lean_tsc and profile.lean and not profile.standalone):
        return []
    return [f'tsc_early_khz={khz if khz is not None else host_tsc_khz()}', 'tsc=reliable']


def kunit_env(ccache_dir: Path, base: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    env = dict(os.environ if base is None else base)
    env.setdefault('CCACHE_DIR', str(ccache_dir))
    # Our Makefile's command-line variables (ARCH=arm64 ...) and its MAKEFLAGS
    # (with a jobserver of one job) must not reach the kernel's make.
    for name in ('ARCH', 'CROSS_COMPILE', 'MAKEFLAGS', 'MFLAGS', 'MAKELEVEL',
                 'MAKEOVERRIDES', 'GNUMAKEFLAGS'):
        env.pop(name, None)
    env['PYTHONUNBUFFERED'] = '1'
    return env


@dataclass
class Request:
    target: Target
    subcommand: str          # 'run' (configure, build, boot) or 'exec' (boot)
    repo: Path
    tree: Path
    build_dir: Path
    profile: Profile
    glob: str
    json_path: Path
    jobs: int


def kunitconfig_args(req: Request) -> List[str]:
    """.kunitconfig and lean.config (unless the profile is standalone; lean.config
    unless it says `lean: no`), the target's fragment, then the profile's
    fragments; merged into one file beside the build directory when a
    fragment overrides an option (kunit.py refuses two values for one)."""
    configs = req.repo / 'tools' / 'qemu_configs'
    paths = [] if req.profile.standalone else [req.repo / '.kunitconfig']
    if req.profile.lean and not req.profile.standalone:
        paths.append(configs / profiles.LEAN_FRAGMENT)
    if req.target.fragment:
        paths.append(configs / req.target.fragment)
    paths += ([req.profile.fragment] if req.profile.fragment else []) + req.profile.extra
    if not profiles.overrides(paths):
        return [f'--kunitconfig={p}' for p in paths]
    merged = req.build_dir.parent / f'{req.build_dir.name}.kunitconfig'
    merged.parent.mkdir(parents=True, exist_ok=True)
    merged.write_text(profiles.merge_kunitconfigs(paths))
    return [f'--kunitconfig={merged}']


def command(req: Request) -> List[str]:
    tgt = req.target
    cmd = [sys.executable, str(kunit_py(req.tree)), req.subcommand,
           f'--build_dir={req.build_dir}']
    cmd += kunitconfig_args(req)
    cmd += [f'--arch={tgt.linux_arch}',
            f'--qemu_config={req.repo / "tools" / "qemu_configs" / tgt.qemu_config}']
    if tgt.cross_compile:
        cmd.append(f'--cross_compile={tgt.cross_compile}')
    if req.subcommand == 'run':
        cmd.append(f'--jobs={req.jobs}')
        cmd += [f'--make_options={opt}' for opt in make_options(tgt)]
    if req.profile.qemu_args:
        cmd.append('--qemu_args=' + ' '.join(req.profile.qemu_args))
    kernel_args = tsc_args(tgt, req.profile) + req.profile.kernel_args
    cmd += [f'--kernel_args={arg}' for arg in kernel_args]
    cmd += [f'--timeout={req.profile.timeout}', f'--json={req.json_path}']
    if req.glob:
        cmd.append(req.glob)
    return cmd


@dataclass
class Outcome:
    returncode: int
    output: List[str] = field(default_factory=list)
    booted: bool = False
    kunit_timeout: bool = False     # kunit.py's own --timeout fired
    watchdog: bool = False          # we killed kunit.py
    suites: Dict[str, str] = field(default_factory=dict)
    phase_times: Dict[str, float] = field(default_factory=dict)


def clean_line(line: str) -> str:
    return STAMP.sub('', ANSI.sub('', line.rstrip('\n')))


class Runner:
    """Runs one kunit.py process, turning its output into progress lines."""

    def __init__(self, req: Request, env: Dict[str, str],
                 say: Callable[[str], None], out_file: Path) -> None:
        self.req = req
        self.env = env
        self.say = say
        self.out_file = out_file
        self.phase = 'starting'
        self.phase_start = time.monotonic()
        self.outcome = Outcome(returncode=-1)
        self._lock = threading.Lock()
        self._depth = 0  # nesting of kunit.py's test headers: suites are depth 1

    def _set_phase(self, phase: str) -> None:
        now = time.monotonic()
        with self._lock:
            self.outcome.phase_times[self.phase] = now - self.phase_start
            self.phase, self.phase_start = phase, now

    def _limit(self) -> float:
        boot = self.req.profile.timeout + 120
        return boot + (BUILD_TIMEOUT if self.req.subcommand == 'run' else 0)

    def _watch(self, proc: 'subprocess.Popen[str]', done: threading.Event) -> None:
        started = time.monotonic()
        last_beat = started
        while not done.wait(5.0):
            now = time.monotonic()
            if now - started > self._limit():
                self.outcome.watchdog = True
                self.say(f'  [{self.req.target.name}] watchdog: kunit.py still running after '
                         f'{int(now - started)}s, killing it')
                _kill_group(proc)
                return
            if now - last_beat >= HEARTBEAT:
                last_beat = now
                with self._lock:
                    phase, since = self.phase, self.phase_start
                self.say(f'  [{self.req.target.name}] still {phase} ({_mmss(now - since)})')

    def _handle(self, text: str) -> None:
        name = self.req.target.name
        if text.startswith('Configuring KUnit Kernel'):
            self._set_phase('configuring')
            self.say(f'[{name}] configuring ({self.req.build_dir})')
        elif text.startswith(('Generating .config', 'Regenerating .config')):
            self.say(f'  [{name}] {text.rstrip(" .").lower()}')
        elif text.startswith('Building KUnit Kernel'):
            self._set_phase('building')
            opts = ' '.join(make_options(self.req.target)) or 'no ccache'
            self.say(f'[{name}] building (--jobs={self.req.jobs}, {opts})')
        elif text.startswith('Starting KUnit Kernel'):
            self._set_phase('booting')
            self.outcome.booted = True
            cpus = self.req.profile.cpus(self.req.target)
            what = f' {self.req.glob}' if self.req.glob else ''
            self.say(f'[{name}] booting{what} with {cpus} CPUs '
                     f'(tools/qemu_configs/{self.req.target.qemu_config}, TCG)')
        elif TEST_HEADER.match(text):
            self._depth += 1
        elif SUITE_FOOTER.match(text):
            match = SUITE_FOOTER.match(text)
            assert match
            self._depth = max(0, self._depth - 1)
            if self._depth == 0:
                self.outcome.suites[match.group(2)] = match.group(1)
                self.say(f'  [{name}] suite {match.group(2)}: {match.group(1)}')
        elif CASE_BAD.match(text):
            self.say(f'  [{name}]   {text}')
        elif TIMED_OUT.search(text):
            self.outcome.kunit_timeout = True
            self.say(f'  [{name}] boot timed out after {self.req.profile.timeout}s')
        elif text.startswith('ERROR:root:'):
            self.say(f'  [{name}] kunit.py: {text[len("ERROR:root:"):]}')

    def run(self) -> Outcome:
        cmd = command(self.req)
        done = threading.Event()
        with open(self.out_file, 'w') as out:
            out.write('$ ' + ' '.join(cmd) + '\n')
            try:
                proc = subprocess.Popen(cmd, cwd=self.req.tree, env=self.env, text=True,
                                        errors='backslashreplace', stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        start_new_session=True)
            except OSError as exc:
                self.outcome.output.append(f'cannot start kunit.py: {exc}')
                self.outcome.returncode = 127
                return self.outcome
            watcher = threading.Thread(target=self._watch, args=(proc, done), daemon=True)
            watcher.start()
            try:
                assert proc.stdout is not None
                for raw in proc.stdout:
                    out.write(raw)
                    out.flush()
                    text = clean_line(raw)
                    self.outcome.output.append(text)
                    self._handle(text)
                self.outcome.returncode = proc.wait()
            except KeyboardInterrupt:
                _kill_group(proc)
                raise
            finally:
                done.set()
                watcher.join()
        self._set_phase('done')
        return self.outcome


def _kill_group(proc: 'subprocess.Popen[str]') -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=10)
            return
        except subprocess.TimeoutExpired:
            continue


def _mmss(seconds: float) -> str:
    return f'{int(seconds) // 60}m{int(seconds) % 60:02d}s'


@contextlib.contextmanager
def build_lock(build_dir: Path, say: Callable[[str], None]) -> Iterator[None]:
    """One harness run per build directory at a time (two would corrupt it)."""
    build_dir.mkdir(parents=True, exist_ok=True)
    with open(build_dir / '.lrb-lock', 'w') as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say(f'waiting for another run that uses {build_dir} ...')
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
