"""Targets (what QEMU boots) and profiles (kunitconfig fragments).

A profile is tools/profiles/<name>.config: a kunitconfig fragment passed to
kunit.py as a second --kunitconfig after the repository's .kunitconfig. A
fragment may give an option of .kunitconfig another value (`# CONFIG_X is not
set` included): kunit.py refuses two values for one option, so the files are
then merged into one, the fragment's value winning (merge_kunitconfigs()).
Its leading comment block may carry metadata, one `# key: value` a line:

  # description: one line shown by `list-profiles`
  # arches: x86_64 arm64          targets or arches it supports (default: all)
  # qemu_args: -m 2048            appended to QEMU's command line
  # kernel_args: foo=1 bar=2      appended to the kernel command line
  # timeout: 1200                 boot timeout in seconds (default 900)
  # lean: no                      build without tools/qemu_configs/lean.config

The metadata block ends at the first line that is not a comment; kunit.py
ignores comment lines. Profile `default` has no fragment.

Every build but a standalone profile's and a `lean: no` one's merges
tools/qemu_configs/lean.config after .kunitconfig: what no suite uses
(ACPI, EFI, the block layer, input, VT, ...) turned off.
"""

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

from .errors import HarnessError

DEFAULT_TIMEOUT = 900
DEFAULT_PROFILE = 'default'
LEAN_FRAGMENT = 'lean.config'   # in tools/qemu_configs/
CROSS_ARM64 = 'aarch64-linux-gnu-'
CROSS_ARM = 'arm-linux-gnueabihf-'
CROSS_RISCV64 = 'riscv64-linux-gnu-'


@dataclass(frozen=True)
class Target:
    name: str            # x86_64, arm64-lse, arm64-llsc, arm64-nopac, *-icount
    build: str           # build key: x86_64 or arm64 (arm64 targets share one)
    linux_arch: str
    qemu_binary: str
    qemu_config: str     # file in tools/qemu_configs/
    cross_compile: Optional[str]
    cpus: int = 4
    atomics: Optional[str] = None  # fixed answer, or None: read from the log
    # kunitconfig fragment in tools/qemu_configs/, merged after .kunitconfig
    fragment: Optional[str] = None
    note: Optional[str] = None     # printed with every boot of the target
    # x86 without ACPI (the lean builds): no HPET nor PM timer to calibrate
    # the TSC against, so the boot is given its rate (kunitrun.tsc_args)
    lean_tsc: bool = False


TARGETS: List[Target] = [
    Target('x86_64', 'x86_64', 'x86_64', 'qemu-system-x86_64', 'x86_64.py', None,
           atomics='x86 lock cmpxchg', lean_tsc=True),
    Target('arm64-lse', 'arm64', 'arm64', 'qemu-system-aarch64', 'arm64-lse.py', CROSS_ARM64),
    Target('arm64-llsc', 'arm64', 'arm64', 'qemu-system-aarch64', 'arm64-llsc.py', CROSS_ARM64),
    # Benchmark only (the bench profile's arches): not in 'all' nor 'arm64'
    Target('arm64-nopac', 'arm64', 'arm64', 'qemu-system-aarch64', 'arm64-nopac.py',
           CROSS_ARM64),
    # Benchmark only: QEMU counting instructions (-icount), guest time = instructions
    Target('x86_64-icount', 'x86_64', 'x86_64', 'qemu-system-x86_64', 'x86_64-icount.py', None,
           atomics='x86 lock cmpxchg'),
    Target('arm64-icount', 'arm64', 'arm64', 'qemu-system-aarch64', 'arm64-icount.py',
           CROSS_ARM64),
    Target('riscv64', 'riscv64', 'riscv', 'qemu-system-riscv64', 'riscv64.py', CROSS_RISCV64,
           atomics='RISC-V LR/SC: cmpxchg is an lr.d/sc.d.rl loop (no Zacas); '
                   'local_t add/inc are amoadd.d'),
    Target('i386', 'i386', 'i386', 'qemu-system-i386', 'i386.py', None,
           atomics='x86 lock cmpxchg (32-bit; local_t: cmpxchg, no lock); local64_t (lrb\'s '
                   'write word and time stamp, the kernel buffer\'s time stamps): lock '
                   'cmpxchg8b (atomic64_*_cx8)', lean_tsc=True),
    Target('arm', 'arm', 'arm', 'qemu-system-arm', 'arm.py', CROSS_ARM,
           atomics='ARMv7 LL/SC: cmpxchg is an ldrex/strex loop; local64_t (lrb\'s write '
                   'word and time stamp, the kernel buffer\'s time stamps): ldrexd/strexd'),
    # Benchmark only: the new targets counting instructions (docs/bench.md)
    Target('riscv64-icount', 'riscv64', 'riscv', 'qemu-system-riscv64', 'riscv64-icount.py',
           CROSS_RISCV64, atomics='RISC-V LR/SC'),
    Target('i386-icount', 'i386', 'i386', 'qemu-system-i386', 'i386-icount.py', None,
           atomics='x86 lock cmpxchg (32-bit), lock cmpxchg8b for local64_t'),
    Target('arm-icount', 'arm', 'arm', 'qemu-system-arm', 'arm-icount.py', CROSS_ARM,
           atomics='ARMv7 LL/SC, ldrexd/strexd for local64_t'),
]
ARCH_GROUPS: Dict[str, List[str]] = {
    'x86_64': ['x86_64'],
    'arm64': ['arm64-lse', 'arm64-llsc'],
    'arm64-lse': ['arm64-lse'],
    'arm64-llsc': ['arm64-llsc'],
    'arm64-nopac': ['arm64-nopac'],
    'x86_64-icount': ['x86_64-icount'],
    'arm64-icount': ['arm64-icount'],
    'riscv64': ['riscv64'],
    'i386': ['i386'],
    'arm': ['arm'],
    'riscv64-icount': ['riscv64-icount'],
    'i386-icount': ['i386-icount'],
    'arm-icount': ['arm-icount'],
    'all': ['x86_64', 'arm64-lse', 'arm64-llsc', 'riscv64', 'i386', 'arm'],
}
VALID_ARCHES = ['x86_64', 'arm64', 'arm64-lse', 'arm64-llsc', 'arm64-nopac', 'x86_64-icount',
                'arm64-icount', 'riscv64', 'i386', 'arm', 'riscv64-icount', 'i386-icount',
                'arm-icount', 'all']


def target(name: str) -> Target:
    return next(t for t in TARGETS if t.name == name)


def parse_arches(specs: List[str]) -> List[Target]:
    """'x86_64,arm64' (repeatable) -> targets in canonical order."""
    names = set()
    for spec in specs:
        for part in spec.split(','):
            part = part.strip()
            if not part:
                continue
            if part not in ARCH_GROUPS:
                raise HarnessError(f'unknown arch {part!r}; valid: {", ".join(VALID_ARCHES)}')
            names.update(ARCH_GROUPS[part])
    if not names:
        raise HarnessError(f'no arch given; valid: {", ".join(VALID_ARCHES)}')
    return [t for t in TARGETS if t.name in names]


@dataclass
class Profile:
    name: str
    fragment: Optional[Path] = None
    description: str = ''
    standalone: bool = False            # the fragment replaces .kunitconfig
    extra: List[Path] = field(default_factory=list)  # more fragments (a+b)
    arches: Optional[List[str]] = None
    qemu_args: List[str] = field(default_factory=list)
    kernel_args: List[str] = field(default_factory=list)
    timeout: int = DEFAULT_TIMEOUT
    lean: bool = True                   # built with LEAN_FRAGMENT (not standalone)

    def supports(self, tgt: Target) -> bool:
        if self.arches is None:
            return True
        allowed = set()
        for arch in self.arches:
            allowed.update(ARCH_GROUPS.get(arch, []))
        return tgt.name in allowed

    def cpus(self, tgt: Target) -> int:
        """CPUs QEMU is asked for: the target's, or the last -smp in qemu_args."""
        cpus = tgt.cpus
        args = self.qemu_args
        for i, arg in enumerate(args[:-1]):
            if arg == '-smp':
                match = re.match(r'(?:cpus=)?(\d+)', args[i + 1])
                if match:
                    cpus = int(match.group(1))
        return cpus


META_LINE = re.compile(r'^#\s*([a-z_]+)\s*:\s*(.*?)\s*$')
META_KEYS = ('description', 'arches', 'qemu_args', 'kernel_args', 'timeout', 'standalone',
             'lean')


def _yes(value: str) -> bool:
    return value.split()[0].lower() in ('yes', 'true', '1') if value else False


def parse_profile(name: str, path: Path) -> Profile:
    profile = Profile(name, fragment=path)
    for line in path.read_text().splitlines():
        if not line.startswith('#'):
            if line.strip():
                break
            continue
        match = META_LINE.match(line)
        if not match or match.group(1) not in META_KEYS:
            continue
        key, value = match.group(1), match.group(2)
        if key == 'description':
            profile.description = value
        elif key == 'arches':
            arches = value.replace(',', ' ').split()
            bad = [a for a in arches if a not in ARCH_GROUPS]
            if bad:
                raise HarnessError(f'{path}: unknown arch {bad[0]!r} in "# arches:"; '
                                   f'valid: {", ".join(VALID_ARCHES)}')
            profile.arches = arches
        elif key == 'qemu_args':
            profile.qemu_args = shlex.split(value)
        elif key == 'kernel_args':
            profile.kernel_args = shlex.split(value)
        elif key == 'standalone':
            profile.standalone = _yes(value)
        elif key == 'lean':
            profile.lean = _yes(value)
        elif key == 'timeout':
            if not value.isdigit() or int(value) <= 0:
                raise HarnessError(f'{path}: "# timeout:" must be a number of seconds')
            profile.timeout = int(value)
    return profile


def profile_names(profile_dir: Path) -> List[str]:
    names = {DEFAULT_PROFILE}
    if profile_dir.is_dir():
        names.update(p.stem for p in profile_dir.glob('*.config'))
    return sorted(names, key=lambda n: (n != DEFAULT_PROFILE, n))


def _load_one(profile_dir: Path, name: str) -> Profile:
    valid = profile_names(profile_dir)
    if name not in valid:
        raise HarnessError(f'unknown profile {name!r}; valid: {", ".join(valid)} '
                           f'(or several joined with +, e.g. kcsan+lockdep)')
    path = profile_dir / f'{name}.config'
    if not path.is_file():
        return Profile(name, description='the repository .kunitconfig alone')
    return parse_profile(name, path)


def combine(name: str, parts: List[Profile]) -> Profile:
    """Profiles joined with +: every fragment, both arguments lists, the
    longest timeout, the arches all of them support."""
    if any(p.standalone for p in parts):
        raise HarnessError(f'{name}: a standalone profile cannot be combined')
    frags = [p.fragment for p in parts if p.fragment]
    out = Profile(name, fragment=frags[0] if frags else None, extra=frags[1:],
                  description=' + '.join(p.description or p.name for p in parts),
                  timeout=max(p.timeout for p in parts), lean=all(p.lean for p in parts))
    for part in parts:
        out.qemu_args += part.qemu_args
        out.kernel_args += [a for a in part.kernel_args if a not in out.kernel_args]
        if part.arches is not None:
            allowed = set(part.arches) if out.arches is None else set(out.arches)
            out.arches = [a for a in part.arches if a in allowed]
    return out


def load_profile(profile_dir: Path, name: str) -> Profile:
    """A profile by name; 'a+b' combines several."""
    names = name.split('+')
    if len(names) == 1:
        return _load_one(profile_dir, name)
    return combine(name, [_load_one(profile_dir, n) for n in names])


_KCONFIG_SET = re.compile(r'^(CONFIG_\w+)=(.*)$')
_KCONFIG_UNSET = re.compile(r'^# (CONFIG_\w+) is not set$')


def kconfig_entries(text: str) -> Dict[str, str]:
    """The options of a kunitconfig as kunit.py reads them ('n': is not set)."""
    entries: Dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        match = _KCONFIG_SET.match(line)
        if match:
            entries[match.group(1)] = match.group(2)
            continue
        match = _KCONFIG_UNSET.match(line)
        if match:
            entries[match.group(1)] = 'n'
    return entries


def _entries_of(paths: List[Path]) -> List[Dict[str, str]]:
    return [kconfig_entries(p.read_text()) if p.is_file() else {} for p in paths]


def overrides(paths: List[Path]) -> bool:
    """Whether a later kunitconfig gives an option another value than an
    earlier one."""
    seen: Dict[str, str] = {}
    for entries in _entries_of(paths):
        for name, value in entries.items():
            if seen.get(name, value) != value:
                return True
            seen[name] = value
    return False


def merge_kunitconfigs(paths: List[Path]) -> str:
    """One kunitconfig of several, a later file's value of an option winning."""
    merged: Dict[str, str] = {}
    for entries in _entries_of(paths):
        merged.update(entries)
    lines = ['# Merged by tools/lrb_harness (later files win): '
             + ' '.join(str(p) for p in paths)]
    lines += [f'# {name} is not set' if value == 'n' else f'{name}={value}'
              for name, value in merged.items()]
    return '\n'.join(lines) + '\n'
