#!/usr/bin/env python3
"""Static instruction count of the write fast path of lrb and of the kernel's
tracing ring buffer, from the built vmlinux.

Method (also in docs/bench.md): for each API function (reserve, commit),
take the control-flow graph of its machine code (objdump -d) and find the
shortest path, in instructions, from its entry to a return that goes
through the function's required instructions (see SPECS: what makes the path
the one that succeeds). A direct call on the path costs the call plus the
callee's own shortest path, computed the same way (a requirement may be met
inside a callee); a tail jump to another function is a call and a return; an
indirect call costs the call plus the function SPECS says it reaches (an
indirect call SPECS does not name is not on the path); trap instructions
(ud2, int3, brk, udf, ebreak) end no path. Code patched at boot is counted
as it runs on the measured CPUs: x86 return thunks are one return (i386
builds have none: plain ret; its retpoline thunk calls are indirect calls);
on arm64 the branches of system_uses_lse_atomics() and of other
alternative_has_cap_*() sites (to the LL/SC fallbacks) are the nops LSE CPUs
run (--alt-nops); riscv64's alternatives (.alternative: Zbb string
functions, errata) patch no instruction of these paths in the bench build,
so none is counted; arm patches none. A static key site (__jump_table) may
go either way, whatever the key's state at run time, so the count is the
lower bound over the keys' states. On arm a conditional instruction (a
condition suffix; in Thumb-2 an IT block's) counts whether it runs or not,
and a conditional return or call may be taken or not (kind_arm()).

Arches: x86_64, arm64, riscv64, i386, arm (ARMv7: ARM or Thumb-2), named as
the harness's builds.

    python3 tools/insn_count.py --arch x86_64 --vmlinux BUILD/vmlinux \
        --json insn-x86_64.json [--show-path]
    python3 tools/insn_count.py --arch arm --cross arm-linux-gnueabihf- \
        --vmlinux BUILD/vmlinux --json insn-arm.json

Python 3 standard library only; needs binutils' nm and objdump (the cross
ones for arm64, riscv64 and arm: --cross aarch64-linux-gnu-,
riscv64-linux-gnu-, arm-linux-gnueabihf-; i386 uses the native ones).
"""

import argparse
import heapq
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple

_LINE = re.compile(r'^\s*([0-9a-f]+):\s+(?:(?:[0-9a-f]{2} )+\s*)?(\S.*)$')
_TARGET = re.compile(r'\b([0-9a-f]{8,16})\s+<([^>+]+)(?:\+0x([0-9a-f]+))?>')
INF = 1 << 30


class CountError(Exception):
    """The binary does not hold what the count needs."""


@dataclass(frozen=True)
class Insn:
    addr: int
    text: str
    mnem: str
    target: Optional[int] = None
    target_sym: Optional[str] = None


def parse_insns(dump: str) -> List[Insn]:
    """Instructions of an objdump -d listing (one function or a range)."""
    insns = []
    for line in dump.splitlines():
        match = _LINE.match(line)
        if not match:
            continue
        # comments: x86 and riscv "# addr <sym>", arm64 "// ...", arm "@ ..."
        # (arm and arm64 immediates are #n)
        text = re.sub(r'\s+(//|# |@ ).*$', '', match.group(2)).strip()
        if not text or text.startswith('.'):
            continue
        parts = text.split(None, 1)
        mnem = parts[0]
        # x86 prefixes are part of the instruction
        if mnem in ('lock', 'rep', 'repz', 'repnz', 'notrack', 'cs', 'ds') and len(parts) > 1:
            mnem = parts[1].split(None, 1)[0]
        target = target_sym = None
        tmatch = _TARGET.search(match.group(2))
        if tmatch:
            target = int(tmatch.group(1), 16)
            target_sym = tmatch.group(2)
        insns.append(Insn(int(match.group(1), 16), text, mnem, target, target_sym))
    return insns


# -- instruction kinds -------------------------------------------------------

def operands(insn: Insn) -> str:
    parts = insn.text.split(None, 1)
    return parts[1].strip() if len(parts) > 1 else ''


X86_RET_THUNKS = ('__x86_return_thunk', 'srso_return_thunk', 'srso_alias_return_thunk',
                  'retbleed_return_thunk', 'its_return_thunk')


def kind_x86(insn: Insn) -> str:
    m = insn.mnem
    if m in ('ret', 'retq', 'retl'):
        return 'ret'
    if m in ('ud2', 'int3', 'hlt', 'ud1'):
        return 'trap'
    if m in ('jmp', 'jmpq'):
        if insn.target_sym in X86_RET_THUNKS:
            return 'ret'
        if insn.target_sym and insn.target_sym.startswith('__x86_indirect_thunk'):
            return 'itail'
        if '*' in insn.text or insn.target is None:
            return 'ijmp'
        return 'jmp'
    if m.startswith('j') or m in ('loop', 'loope', 'loopne'):
        return 'cjmp'
    if m in ('call', 'callq'):
        if insn.target_sym and insn.target_sym.startswith('__x86_indirect_thunk'):
            return 'icall'
        if '*' in insn.text or insn.target is None:
            return 'icall'
        return 'call'
    return 'insn'


def kind_arm64(insn: Insn) -> str:
    m = insn.mnem
    if m in ('ret', 'retaa', 'retab'):
        return 'ret'
    if m in ('brk', 'udf', 'hlt'):
        return 'trap'
    if m == 'b':
        return 'jmp'
    if m.startswith('b.') or m in ('cbz', 'cbnz', 'tbz', 'tbnz'):
        return 'cjmp'
    if m == 'bl':
        return 'call'
    if m in ('blr', 'blraa', 'blrab', 'blraaz', 'blrabz'):
        return 'icall'
    if m in ('br', 'braa', 'brab', 'braaz', 'brabz'):
        return 'ijmp'
    return 'insn'


RISCV_BRANCHES = frozenset({'beq', 'bne', 'blt', 'bge', 'bltu', 'bgeu', 'beqz', 'bnez',
                            'blez', 'bgez', 'bltz', 'bgtz', 'bgt', 'ble', 'bgtu', 'bleu'})


def kind_riscv(insn: Insn) -> str:
    # objdump prints compressed instructions as their full forms (beqz, j,
    # jr, ret); with -M no-aliases as c.beqz, c.j, c.jr: the same kinds
    m = insn.mnem[2:] if insn.mnem.startswith('c.') else insn.mnem
    if m == 'ret' or (m == 'jr' and operands(insn) in ('ra', '0(ra)')):
        return 'ret'
    if m in ('ebreak', 'unimp'):
        return 'trap'
    if m in RISCV_BRANCHES:
        return 'cjmp'
    if m == 'j':
        return 'jmp'
    if m == 'jal':
        return 'call'
    # auipc + jalr/jr: objdump names the target in a comment, which makes
    # them direct; a register alone is an indirect call or jump
    if m == 'jalr':
        return 'call' if insn.target is not None else 'icall'
    if m == 'jr':
        return 'jmp' if insn.target is not None else 'ijmp'
    return 'insn'


ARM_CONDS = ('eq', 'ne', 'cs', 'hs', 'cc', 'lo', 'mi', 'pl', 'vs', 'vc', 'hi', 'ls',
             'ge', 'lt', 'gt', 'le', 'al')
_ARM_COND = '(' + '|'.join(ARM_CONDS) + ')?'
_ARM_LDM = re.compile(rf'^(?:pop|ldm(?:ia|ib|da|db|fd|fa|ed|ea)?){_ARM_COND}$')


def arm_split(mnem: str) -> Tuple[str, bool]:
    """(base mnemonic, conditional?) of an ARM/Thumb-2 branch-like mnemonic:
    beq -> (b, True), bleq -> (bl, True), bxne -> (bx, True), bl -> (bl, False)."""
    m = mnem.split('.', 1)[0]  # Thumb-2 width qualifiers: b.w, bne.n
    for base in ('blx', 'bx', 'bl', 'b'):
        if m.startswith(base) and m[len(base):] in ARM_CONDS:
            return base, m[len(base):] != 'al'
    return m, False


def kind_arm(insn: Insn) -> str:
    """ARMv7, ARM or Thumb-2. Conditional execution is taken conservatively:
    an instruction under a condition (a suffix, or an IT block in Thumb-2,
    where objdump prints the suffix too) counts whether or not it runs; a
    conditional return or call may be taken or not (cret, ccall), and a
    conditional indirect jump (a jump table) only falls through."""
    ops = operands(insn)
    base, cond = arm_split(insn.mnem)
    if base in ('udf', 'bkpt', 'brk', 'hlt'):
        return 'trap'
    if base in ('cbz', 'cbnz'):
        return 'cjmp'
    if base in ('tbb', 'tbh'):
        return 'ijmp'
    ldm = _ARM_LDM.match(insn.mnem)
    if ldm and re.search(r'\bpc\b', ops):
        return 'cret' if ldm.group(1) and ldm.group(1) != 'al' else 'ret'
    if base == 'b':
        return 'cjmp' if cond else 'jmp'
    if base == 'bl':
        return 'ccall' if cond else 'call'
    if base == 'blx':
        kind = 'call' if insn.target is not None else 'icall'
        return 'c' + kind if cond else kind
    if base == 'bx':
        kind = 'ret' if ops == 'lr' else 'ijmp'
        return 'c' + kind if cond else kind
    # pc as a destination: mov pc, lr returns; ldr pc, [sp], #4 is a pop
    dest = re.match(r'^(mov|ldr|add|sub)(\w*)$', insn.mnem)
    if dest and re.match(r'pc\b', ops):
        cond = dest.group(2) in ARM_CONDS and dest.group(2) != 'al'
        kind = 'ret' if re.fullmatch(r'pc, (lr|\[sp\], #4)', ops) else 'ijmp'
        return 'c' + kind if cond else kind
    return 'insn'


KINDS: Dict[str, Callable[[Insn], str]] = {'x86_64': kind_x86, 'arm64': kind_arm64,
                                           'riscv64': kind_riscv, 'i386': kind_x86,
                                           'arm': kind_arm}


# -- the path search ---------------------------------------------------------

@dataclass
class Path:
    """A shortest path: its instruction count and its steps, for reading."""
    count: int
    steps: List[str] = field(default_factory=list)
    functions: List[str] = field(default_factory=list)


@dataclass
class Options:
    arch: str
    icall: Dict[str, str] = field(default_factory=dict)
    alt_nops: FrozenSet[int] = frozenset()
    forbid: Optional[str] = None
    jump_sites: Dict[int, int] = field(default_factory=dict)
    max_depth: int = 12


WINDOW = 6


def matches(pattern: str, insns: List[Insn], i: int) -> bool:
    """Whether insns[i] matches pattern (SPECS, FORBID). A pattern on one
    line reads the instruction; one that spans lines (has \\n) reads it after
    the WINDOW - 1 instructions before it in the listing, one a line, and
    ends at it (\\Z): what makes it the one sought is around it."""
    if '\\n' not in pattern:
        return bool(re.search(pattern, insns[i].text))
    text = '\n'.join(x.text for x in insns[max(0, i - WINDOW + 1):i + 1])
    return bool(re.search(pattern, text))


# Kinds that may also fall through, and what they are when taken
CONDITIONAL = {'cret': 'ret', 'ccall': 'call', 'cicall': 'icall', 'cijmp': 'ijmp'}


class Program:
    """Functions by name, disassembled on demand, and their shortest paths."""

    def __init__(self, load: Callable[[str], List[Insn]], opts: Options) -> None:
        self.load = load
        self.opts = opts
        self.kind = KINDS[opts.arch]
        self._insns: Dict[str, List[Insn]] = {}
        self._memo: Dict[Tuple[str, Optional[str]], Optional[Path]] = {}
        self._active: List[str] = []
        self._indexes: Dict[str, Dict[int, int]] = {}
        self._guarded = 0   # callees refused for recursion or depth, so far

    def insns(self, func: str) -> List[Insn]:
        if func not in self._insns:
            self._insns[func] = self.load(func)
        return self._insns[func]

    def _index(self, func: str, insns: List[Insn]) -> Dict[int, int]:
        if func not in self._indexes:
            self._indexes[func] = {x.addr: n for n, x in enumerate(insns)}
        return self._indexes[func]

    def _callee(self, name: Optional[str], req: Optional[str]) -> Optional[Path]:
        if not name:
            return None
        if name in self._active or len(self._active) >= self.opts.max_depth:
            self._guarded += 1
            return None
        try:
            if not self.insns(name):
                return None
        except CountError:
            return None
        return self.path(name, req)

    def path(self, func: str, req: Optional[str] = None) -> Optional[Path]:
        """Shortest entry-to-return path of func through an instruction
        matching req (anywhere in its call tree), or None if there is none."""
        key = (func, req)
        if key in self._memo:
            return self._memo[key]
        guarded = self._guarded
        self._active.append(func)
        try:
            result = self._search(func, req)
        finally:
            self._active.pop()
        # "No path" found while the recursion or depth guard refused a callee
        # depends on the callers on the stack: computed again for others
        if result is not None or self._guarded == guarded:
            self._memo[key] = result
        return result

    def _moves(self, func: str, insns: List[Insn], i: int, req: Optional[str]
               ) -> List[Tuple[int, Optional[int], bool, Optional[Path], str]]:
        """(cost, next index or None for a return, meets req, callee path, kind)."""
        insn = insns[i]
        index = self._index(func, insns)
        kind = self.kind(insn)
        if self.opts.arch == 'arm64' and insn.addr in self.opts.alt_nops:
            kind = 'insn'
        here = bool(req and matches(req, insns, i))
        nxt = i + 1 if i + 1 < len(insns) else None
        moves: List[Tuple[int, Optional[int], bool, Optional[Path], str]] = []
        if self.opts.forbid and matches(self.opts.forbid, insns, i):
            return moves
        site = self.opts.jump_sites.get(insn.addr)
        if site is not None and site in index:
            # A static key: either way, whatever the key's state at run time
            moves.append((1, index[site], here, None, 'key'))
            if nxt is not None:
                moves.append((1, nxt, here, None, 'key'))
            return moves

        def call_moves(target: Optional[str], then: Optional[int], ret: bool) -> None:
            for want in ([None, req] if req else [None]):
                sub = self._callee(target, want)
                if sub is None:
                    if want is None and target is None:
                        moves.append((1, then, here, None, 'call'))
                    continue
                if ret:
                    moves.append((1 + sub.count, None, here or want is not None, sub, 'tail'))
                elif then is not None:
                    moves.append((1 + sub.count, then, here or want is not None, sub, 'call'))

        if kind in CONDITIONAL:
            # arm: a conditional return, call or indirect jump may also not
            # be taken
            if nxt is not None:
                moves.append((1, nxt, here, None, kind))
            kind = CONDITIONAL[kind]
        if kind == 'ret':
            moves.append((1, None, here, None, 'ret'))
        elif kind == 'insn':
            if nxt is not None:
                moves.append((1, nxt, here, None, 'insn'))
        elif kind in ('jmp', 'cjmp'):
            if insn.target in index:
                moves.append((1, index[insn.target], here, None, kind))
            elif kind == 'jmp' or insn.target is not None:
                call_moves(insn.target_sym, None, True)
            if kind == 'cjmp' and nxt is not None:
                moves.append((1, nxt, here, None, kind))
        elif kind == 'call':
            call_moves(insn.target_sym, nxt, False)
        elif kind in ('icall', 'itail'):
            # Only an indirect call whose target is known is on a path: one
            # that SPECS does not name is not on the default path (lrb's
            # clock hook, for one)
            target = self.opts.icall.get(func) or self.opts.icall.get('*')
            if target:
                call_moves(target, nxt, kind == 'itail')
        return moves

    def _search(self, func: str, req: Optional[str]) -> Optional[Path]:
        insns = self.insns(func)
        if not insns:
            raise CountError(f'{func}: no instructions')
        start = (0, req is None)
        dist: Dict[Tuple[int, bool], int] = {start: 0}
        prev: Dict[Tuple[Optional[int], bool], Tuple[Tuple[int, bool], str, Optional[Path]]] = {}
        heap: List[Tuple[int, int, bool]] = [(0, 0, req is None)]
        end: Optional[Tuple[int, bool]] = None
        while heap:
            d, i, met = heapq.heappop(heap)
            if d > dist.get((i, met), INF):
                continue
            for cost, j, meets, sub, kind in self._moves(func, insns, i, req):
                state_met = met or meets
                text = f'{func}+{insns[i].addr - insns[0].addr:#x}: {insns[i].text}'
                if insns[i].addr in self.opts.alt_nops:
                    text += '   [nop on LSE CPUs]'
                if j is None:
                    if state_met and (end is None or d + cost < dist[(-1, True)]):
                        dist[(-1, True)] = d + cost
                        prev[(-1, True)] = ((i, met), text, sub)
                        end = (-1, True)
                    continue
                if d + cost < dist.get((j, state_met), INF):
                    dist[(j, state_met)] = d + cost
                    prev[(j, state_met)] = ((i, met), text, sub)
                    heapq.heappush(heap, (d + cost, j, state_met))
        if end is None:
            return None
        steps: List[str] = []
        functions = [func]
        state: Tuple[int, bool] = end
        while state != start:
            back, text, sub = prev[state]
            if sub is not None:
                steps = [f'  {s}' for s in sub.steps] + steps
                functions += [f for f in sub.functions if f not in functions]
            steps.insert(0, text)
            state = back
        return Path(dist[end], steps, functions)


# -- the binary --------------------------------------------------------------

def run(cmd: Sequence[str]) -> str:
    proc = subprocess.run(list(cmd), capture_output=True, text=True, check=False)
    if proc.returncode:
        raise CountError(f'{cmd[0]} failed: {proc.stderr.strip()[:300]}')
    return proc.stdout


def symbols(nm_out: str) -> Dict[str, Tuple[int, int]]:
    """name -> (address, size) of the text symbols of `nm -S` output."""
    table: Dict[str, Tuple[int, int]] = {}
    for line in nm_out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in 'tTwW':
            table.setdefault(parts[3], (int(parts[0], 16), int(parts[1], 16)))
    return table


def loader(vmlinux: str, objdump: str, table: Dict[str, Tuple[int, int]]
           ) -> Callable[[str], List[Insn]]:
    def load(func: str) -> List[Insn]:
        if func not in table:
            raise CountError(f'{func}: not a function of {vmlinux}')
        addr, size = table[func]
        dump = run([objdump, '-d', '--no-show-raw-insn', f'--start-address={addr:#x}',
                    f'--stop-address={addr + size:#x}', vmlinux])
        return parse_insns(dump)
    return load


ARM64_CB_BIT = 0x8000
ALT_ENTRY = 12  # struct alt_instr: s32 orig_offset, s32 alt_offset, u16 cpucap, u8 x2


def section_bytes(dump: str) -> Tuple[int, bytes]:
    """(start address, contents) of an `objdump -s -j SECTION` listing."""
    start: Optional[int] = None
    data = bytearray()
    for line in dump.splitlines():
        parts = line.split()
        if len(parts) < 2 or not re.fullmatch(r'[0-9a-f]{8,16}', parts[0]):
            continue
        if start is None:
            start = int(parts[0], 16)
        for word in parts[1:5]:
            if not re.fullmatch(r'[0-9a-f]{2,8}', word):
                break
            data += bytes.fromhex(word)
    if start is None:
        raise CountError('empty section dump')
    return start, bytes(data)


def alt_nop_sites(start: int, data: bytes, callback: int, caps: Sequence[int]) -> List[int]:
    """arm64: addresses of the alternative_has_cap_likely() branches that
    alt_cb_patch_nops() turns into nops on a CPU with one of caps."""
    sites = []
    for off in range(0, len(data) - ALT_ENTRY + 1, ALT_ENTRY):
        orig, alt = (int.from_bytes(data[off + k:off + k + 4], 'little', signed=True)
                     for k in (0, 4))
        cap = int.from_bytes(data[off + 8:off + 10], 'little')
        if not cap & ARM64_CB_BIT or (cap & ~ARM64_CB_BIT) not in caps:
            continue
        if start + off + 4 + alt == callback:
            sites.append(start + off + orig)
    return sites


JUMP_ENTRY = 16  # struct jump_entry: s32 code, s32 target, long key


def jump_sites(start: int, data: bytes) -> Dict[int, int]:
    """Static key sites of a __jump_table dump: code address -> target."""
    sites = {}
    for off in range(0, len(data) - JUMP_ENTRY + 1, JUMP_ENTRY):
        code, target = (int.from_bytes(data[off + k:off + k + 4], 'little', signed=True)
                        for k in (0, 4))
        sites[start + off + code] = start + off + 4 + target
    return sites


def arm64_cap(header: str, name: str) -> int:
    """The number of a cpucap in arch/arm64/include/generated/asm/cpucap-defs.h."""
    match = re.search(rf'#define\s+{name}\s+(\d+)', header)
    if not match:
        raise CountError(f'{name} not in cpucap-defs.h')
    return int(match.group(1))


# -- what is counted -----------------------------------------------------------

@dataclass(frozen=True)
class Spec:
    """One implementation's fast path: its functions and their requirements."""
    reserve: str
    reserve_req: Dict[str, str]
    commit: str
    commit_req: Dict[str, str]
    icall: Dict[str, str]


# Following a page's next pointer masks its flag bits (HEADER/UPDATE): the
# fast path crosses no page, so no instruction of it does that. On 32-bit
# that mask is the rounding of an event's length to 4 too: there it is the
# mask shortly after a load from offset 0 (list.next), which no length
# rounding follows (matches(): the pattern spans lines).
FORBID = {'x86_64': r'^and\s+\$0xfffffffffffffffc,',
          'arm64': r'^and\s+x\d+, x\d+, #0xfffffffffffffffc$',
          'riscv64': r'^and\s+\w+,\w+,-4$',
          'i386': r'(?m)^mov\s+(?:0x0)?\(%\w+\),%\w+\n(?:[^\n]*\n){0,2}'
                  r'and\s+\$0xfffffffc,%\w+\Z',
          'arm': r'(?m)^ldr\s+\w+, \[\w+\]\n(?:[^\n]*\n){0,2}bic\s+\w+, \w+, #3\Z'}

# The commit index store: page->page->commit, after the 64-bit time stamp
# on every arch; a store to 8 off the stack pointer is a spill, not it
COMMIT_REQ = {'x86_64': r'^mov\s+%r\w+,0x8\(%r\w+\)$',
              'arm64': r'^str\s+x\d+, \[x\d+, #8\]$',
              'riscv64': r'^sd\s+\w+,8\((?!sp\))\w+\)$',
              'i386': r'^mov\s+%e\w+,0x8\(%e(?!sp\))\w+\)$',
              'arm': r'^str\s+\w+, \[(?!sp\b)\w+, #8\]$'}

# The reservation's add on the page's write word. x86_64 and the kernel's
# buffer on i386: xadd (local_add_return; local_inc is inc). riscv64: the
# returning, fully ordered amoadd.d of local_add_return (local_inc is
# amoadd.d zero,...). arm64 (LSE): ldadd. On 32-bit lrb's write word is a
# local64_t, an atomic64_t: i386 calls atomic64_add_return_cx8() (a
# cmpxchg8b loop; local64_read() is a cmpxchg8b too, in
# atomic64_read_cx8()); arm adds in an ldrexd/strexd loop (local64_read() is
# an ldrexd alone, local64_set() an ldrexd/strexd loop without the add). The
# kernel's buffer on arm: the fully ordered ldrex/strex loop (dmb ish before)
# that adds a register, the event's length (local_inc adds #1, local_add
# orders nothing).
RISCV_LOCAL_ADD = r'^amoadd\.d\.aqrl\s+(?!zero,)'
I386_LOCAL64_ADD = r'^call\s+[0-9a-f]+ <atomic64_add_return_cx8>$'
ARM_LOCAL64_ADD = (r'(?m)^ldrexd\s+(\w+), \[(\w+)\]\nadds\s+\1, \1, \w+\n'
                   r'adc\s[^\n]*\nstrexd\s+\w+, \1, \[\2\]\Z')
ARM_LOCAL_ADD = (r'(?m)^dmb\s+ish\n(?:[^\n]*\n){0,2}ldrex\s+(\w+), \[(\w+)\]\n'
                 r'add\s+\1, \1, (?!#)\w+\nstrex\s+\w+, \1, \[\2\]\Z')


SPECS: Dict[str, Spec] = {
    'lrb': Spec(
        reserve='lrb_lock_reserve',
        reserve_req={'x86_64': r'\bxadd\b', 'arm64': r'\bldadd', 'riscv64': RISCV_LOCAL_ADD,
                     'i386': I386_LOCAL64_ADD, 'arm': ARM_LOCAL64_ADD},
        commit='lrb_unlock_commit',
        commit_req=COMMIT_REQ,
        icall={}),
    'kernel': Spec(
        reserve='ring_buffer_lock_reserve',
        reserve_req={'x86_64': r'\bxadd\b', 'arm64': r'\bldadd', 'riscv64': RISCV_LOCAL_ADD,
                     'i386': r'\bxadd\b', 'arm': ARM_LOCAL_ADD},
        commit='ring_buffer_unlock_commit',
        commit_req=COMMIT_REQ,
        icall={'*': 'trace_clock_local'}),
}


# Indirect calls of the clocks below the buffers' own: sched_clock() reads
# the timer through a pointer: on arm64 and arm the architected timer
# (arch_counter_get_cntvct on QEMU's virt machine), on riscv64 the time CSR
# (riscv_sched_clock). x86's sched_clock() calls nothing indirectly.
ARCH_ICALL: Dict[str, Dict[str, str]] = {
    'arm64': {'sched_clock_noinstr': 'arch_counter_get_cntvct'},
    'riscv64': {'sched_clock_noinstr': 'riscv_sched_clock'},
    'arm': {'sched_clock_noinstr': 'arch_counter_get_cntvct'},
}


# The clocks below the buffers: reported apart, since both buffers could use
# either (lrb: local_clock(), the kernel: trace_clock_local())
CLOCK_FUNCS = frozenset({
    'local_clock', 'local_clock_noinstr', 'sched_clock', 'sched_clock_noinstr',
    'native_sched_clock', 'trace_clock_local', 'arch_counter_get_cntvct',
    'arch_counter_get_cntvct_stable', 'paravirt_sched_clock', 'kvm_clock_read',
    'riscv_sched_clock',
})


def clock_steps(path: Path) -> int:
    """Instructions of the path inside the clock functions."""
    return sum(1 for step in path.steps
               if step.strip().split('+', 1)[0] in CLOCK_FUNCS)


def count(prog_for: Callable[[Dict[str, str]], 'Program'], arch: str,
          show: bool = False) -> Dict[str, Dict[str, object]]:
    out: Dict[str, Dict[str, object]] = {}
    for impl, spec in SPECS.items():
        prog = prog_for({**ARCH_ICALL.get(arch, {}), **spec.icall})
        res = prog.path(spec.reserve, spec.reserve_req.get(arch))
        com = prog.path(spec.commit, spec.commit_req.get(arch))
        if res is None or com is None:
            raise CountError(f'{impl}: no path through the required instructions '
                             f'({spec.reserve if res is None else spec.commit})')
        clock = clock_steps(res) + clock_steps(com)
        out[impl] = {'reserve': res.count, 'commit': com.count,
                     'total': res.count + com.count, 'clock': clock,
                     'without_clock': res.count + com.count - clock,
                     'functions': res.functions + [f for f in com.functions
                                                   if f not in res.functions]}
        if show:
            print(f'== {impl}: {spec.reserve} ({res.count})')
            print('\n'.join(res.steps))
            print(f'== {impl}: {spec.commit} ({com.count})')
            print('\n'.join(com.steps))
    return out


def symbol_range_bytes(args: argparse.Namespace, first: str, last: str) -> Tuple[int, bytes]:
    """The bytes from symbol first to symbol last (a table in some section)."""
    out = run([f'{args.cross}nm', args.vmlinux])
    addrs = {}
    for name in (first, last):
        match = re.search(rf'^([0-9a-f]+) \w {name}$', out, re.M)
        if not match:
            raise CountError(f'{name} not in vmlinux')
        addrs[name] = int(match.group(1), 16)
    if addrs[first] == addrs[last]:
        return addrs[first], b''
    return section_bytes(run([f'{args.cross}objdump', '-s', f'--start-address={addrs[first]:#x}',
                              f'--stop-address={addrs[last]:#x}', args.vmlinux]))


def arm64_lse_sites(args: argparse.Namespace) -> List[int]:
    callback = run([f'{args.cross}nm', args.vmlinux])
    match = re.search(r'^([0-9a-f]+) T alt_cb_patch_nops$', callback, re.M)
    if not match:
        raise CountError('alt_cb_patch_nops not in vmlinux')
    header = os.path.join(os.path.dirname(os.path.abspath(args.vmlinux)),
                          'arch/arm64/include/generated/asm/cpucap-defs.h')
    with open(header) as f:
        cap = arm64_cap(f.read(), 'ARM64_HAS_LSE_ATOMICS')
    start, data = section_bytes(run([f'{args.cross}objdump', '-s', '-j', '.altinstructions',
                                     args.vmlinux]))
    return alt_nop_sites(start, data, int(match.group(1), 16), [cap])


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--arch', choices=sorted(KINDS), required=True)
    ap.add_argument('--vmlinux', required=True)
    ap.add_argument('--cross', default='', help='binutils prefix, e.g. aarch64-linux-gnu-')
    ap.add_argument('--alt-nops', default='auto',
                    help='arm64: comma-separated addresses of branches patched to nops, '
                         'or auto: the LSE atomics sites found in .altinstructions')
    ap.add_argument('--json', help='write the counts here')
    ap.add_argument('--show-path', action='store_true', help='print the paths')
    args = ap.parse_args(argv)
    try:
        table = symbols(run([f'{args.cross}nm', '-S', '--defined-only', args.vmlinux]))
        load = loader(args.vmlinux, f'{args.cross}objdump', table)
        nops = frozenset(arm64_lse_sites(args) if args.arch == 'arm64' and
                         args.alt_nops == 'auto' else
                         (int(a, 16) for a in args.alt_nops.split(',')
                          if a and a != 'auto'))

        keys = jump_sites(*symbol_range_bytes(args, '__start___jump_table',
                                              '__stop___jump_table'))

        def prog_for(icall: Dict[str, str]) -> Program:
            return Program(load, Options(args.arch, icall, nops, FORBID.get(args.arch), keys))

        result = count(prog_for, args.arch, args.show_path)
    except CountError as exc:
        print(f'insn_count: {exc}', file=sys.stderr)
        return 1
    result_all: Dict[str, object] = {'arch': args.arch, **result}
    text = json.dumps(result_all, indent=1, sort_keys=True)
    if args.json:
        with open(args.json, 'w') as f:
            f.write(text + '\n')
    for impl in SPECS:
        r = result[impl]
        print(f"{args.arch} {impl}: reserve {r['reserve']} + commit {r['commit']} "
              f"= {r['total']} instructions ({r['clock']} of them in the clock)")
    return 0


if __name__ == '__main__':
    sys.exit(main())
