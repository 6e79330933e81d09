"""The code of two ELF objects compared: their executable sections' bytes
and the relocations that apply to them.

`make upstream` shows with it that the test hooks of the standalone series
compile to nothing when their option is off: kernel/trace/ring_buffer.o
built from the source with the hooks patch and from the source without it
must have the same code. Only ELF64 little-endian relocatable objects
(x86_64, arm64) are read, with the standard library alone, so that no
cross binutils are needed.
"""

import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Tuple

SHF_EXECINSTR = 0x4
SHT_SYMTAB = 2
SHT_RELA = 4
SHT_REL = 9
SHN_UNDEF = 0
STT_SECTION = 3

Reloc = Tuple[int, int, str, int]   # offset, type, symbol (or section) name, addend


@dataclass
class Section:
    name: str
    type: int
    flags: int
    offset: int
    size: int
    link: int
    info: int
    entsize: int


@dataclass
class Code:
    """What of an object is compared: per executable section, its bytes and
    its relocations, symbols by name (section symbols by their section)."""
    sections: Dict[str, bytes] = field(default_factory=dict)
    relocs: Dict[str, List[Reloc]] = field(default_factory=dict)


class ElfError(Exception):
    pass


def _sections(data: bytes) -> List[Section]:
    if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
        raise ElfError('not an ELF64 little-endian object')
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    raw = [struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize) for i in range(shnum)]
    names = raw[shstrndx] if shnum else None
    out = []
    for (name, typ, flags, _addr, offset, size, link, info, _align, entsize) in raw:
        strtab = names[4] if names else 0
        end = data.index(b'\0', strtab + name)
        out.append(Section(data[strtab + name:end].decode(), typ, flags, offset, size, link,
                           info, entsize))
    return out


def _symbols(data: bytes, secs: List[Section], symtab: Section) -> List[str]:
    strtab = secs[symtab.link]
    names = []
    for i in range(symtab.size // 24):
        name, info, _other, shndx, _value, _size = struct.unpack_from(
            '<IBBHQQ', data, symtab.offset + i * 24)
        if info & 0xf == STT_SECTION and shndx != SHN_UNDEF and shndx < len(secs):
            names.append(secs[shndx].name)
            continue
        end = data.index(b'\0', strtab.offset + name)
        names.append(data[strtab.offset + name:end].decode(errors='replace'))
    return names


def read(path: Path) -> Code:
    data = path.read_bytes()
    secs = _sections(data)
    code = Code()
    for sec in secs:
        if sec.flags & SHF_EXECINSTR:
            code.sections[sec.name] = data[sec.offset:sec.offset + sec.size]
    for sec in secs:
        if sec.type not in (SHT_RELA, SHT_REL) or sec.info >= len(secs):
            continue
        target = secs[sec.info]
        if not target.flags & SHF_EXECINSTR:
            continue
        names = _symbols(data, secs, secs[sec.link])
        entsize = 24 if sec.type == SHT_RELA else 16
        relocs = []
        for i in range(sec.size // entsize):
            if sec.type == SHT_RELA:
                offset, info, addend = struct.unpack_from('<QQq', data, sec.offset + i * entsize)
            else:
                (offset, info), addend = struct.unpack_from('<QQ', data,
                                                            sec.offset + i * entsize), 0
            sym = info >> 32
            relocs.append((offset, info & 0xffffffff, names[sym] if sym < len(names) else '?',
                           addend))
        code.relocs.setdefault(target.name, []).extend(relocs)
    return code


def differences(old: Code, new: Code) -> List[str]:
    """What differs, one line each; empty when the code is the same."""
    out = []
    for name in sorted(set(old.sections) | set(new.sections)):
        if name not in old.sections or name not in new.sections:
            out.append(f'{name}: only in the {"new" if name in new.sections else "old"} object')
            continue
        a, b = old.sections[name], new.sections[name]
        if a != b:
            first = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]),
                         min(len(a), len(b)))
            out.append(f'{name}: {len(a)} and {len(b)} bytes, first difference at {first:#x}')
        ra, rb = old.relocs.get(name, []), new.relocs.get(name, [])
        if ra != rb:
            diff = next((i for i in range(min(len(ra), len(rb))) if ra[i] != rb[i]),
                        min(len(ra), len(rb)))
            out.append(f'{name}: relocations differ ({len(ra)} and {len(rb)}), first at '
                       f'entry {diff}')
    return out


def summary(code: Code) -> str:
    """The sections compared and their sizes, e.g. '.text 51234 bytes, ...'."""
    parts = [f'{name} {len(data)} bytes' for name, data in sorted(code.sections.items())
             if data]
    relocs = sum(len(r) for r in code.relocs.values())
    return ', '.join(parts) + f'; {relocs} relocations'
