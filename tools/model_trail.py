"""A SPIN counterexample of model/lrb.pml: replayed, read into steps, and drawn
in the design document's notation (p1 --> p2 -U-> p3 -H->)."""

import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Mapping, Optional, Tuple

import model_pan

READER = 9                      # the reader's "depth" in the model's step lines
ARROWS = {0: '-->', 1: '-H->', 2: '-U->'}
PAD = 255
HOOK_PREFIX = 'LRB_HOOK_'

# One page as a step line shows it: next, flag, write index, commit index,
# slots, and with WEAK memory's commit index and slots (else None)
Page = Tuple[int, int, int, int, int, int]
MemPage = Tuple[int, int, int]

# What a floating load of the reader (Loads() of WEAK) takes
LOADS = {'ld_commit': 'the commit page', 'ld_cidx': 'a commit index',
         'ld_ver': 'a version', 'ld_ov': 'the overrun', 'ld_cnt': 'an event count',
         'ld_dat': 'the slots', 'ld_push': 'the push count', 'ld_hdr': 'a next pointer',
         'ld_committed': 'the committed count',
         # the writers' reader-page test (lrb_commit_on_reader_page())
         'ld_prev': "the commit page's prev pointer", 'ld_prev_next': "that page's next",
         'ld_prev_again': "the commit page's prev pointer again",
         'ld_prev_early': "the commit page's prev pointer again, satisfied at the first load"}


@dataclass
class Step:
    who: int                    # writer depth, or READER
    kind: str                   # 'write', 'nest', 'rirq', 'load' or 'state'
    what: str = ''              # the hook point or step name
    size: int = 0               # slots of the event a 'write' starts
    fields: Dict[str, int] = field(default_factory=dict)
    pages: List[Page] = field(default_factory=list)
    mem: List[MemPage] = field(default_factory=list)
    values: List[int] = field(default_factory=list)     # what a 'load' took

    @property
    def is_hook(self) -> bool:
        """An arrival at a hook point: the model prints hook names in capitals."""
        return self.kind == 'state' and self.what.isupper()


def replay(workdir: Path, model_name: str, defines: Mapping[str, int]) -> str:
    """spin -t on the trail pan left in workdir: the model's step lines."""
    proc = subprocess.run(['spin', '-t'] + model_pan.define_args(defines) + [model_name],
                          cwd=workdir, capture_output=True, text=True, errors='replace')
    if proc.returncode != 0 and 'LRB' not in proc.stdout:
        raise model_pan.ModelError(f'spin -t failed in {workdir}: {proc.stderr.strip()}')
    return proc.stdout


def parse_line(line: str) -> Optional[Step]:
    words = line.split()
    if len(words) < 3 or words[0] != 'LRB' or not words[1].isdigit():
        return None
    who, what = int(words[1]), words[2]
    if what == 'write':
        return Step(who, 'write', size=int(words[3]))
    if what in ('nest', 'rirq'):
        return Step(who, what, what=words[3])
    if what == 'load':
        return Step(who, 'load', what=words[3], values=[int(w) for w in words[4:]])
    step = Step(who, 'state', what=what)
    # spin -t spaces out each printf: memory's view of a page (':a:b:c')
    # follows its page as a word of its own
    joined: List[str] = []
    for word in words[3:]:
        if word.startswith(':') and joined and joined[-1].startswith('|'):
            joined[-1] += word
        else:
            joined.append(word)
    for word in joined:
        if '=' in word:
            key, value = word.split('=', 1)
            step.fields[key] = int(value)
        elif word.startswith('|'):
            parts = [int(x) for x in word[1:].split(':')]
            step.pages.append((parts[0], parts[1], parts[2], parts[3], parts[4], parts[5]))
            if len(parts) >= 9:
                step.mem.append((parts[6], parts[7], parts[8]))
    return step


def parse(text: str) -> List[Step]:
    return [s for s in (parse_line(line) for line in text.splitlines()) if s is not None]


def who_name(who: int) -> str:
    return 'rd' if who == READER else f'w{who}'


def point_name(what: str) -> str:
    """A hook point (capitals) with its prefix; another interrupt point as is."""
    return HOOK_PREFIX + what if what.isupper() else what


def ring(pages: List[Page], reader: int) -> str:
    """The ring from its lowest page, each next pointer drawn with its flag."""
    start = min((i for i in range(len(pages)) if i != reader), default=0)
    out, page = [], start
    for _ in range(len(pages)):
        nxt, flag = pages[page][0], pages[page][1]
        out.append(f'p{page} {ARROWS.get(flag, "-?->")}')
        page = nxt
        if page == start:
            return ' '.join(out)
    return ' '.join(out) + f' p{page} ...'


def head_of(pages: List[Page], reader: int) -> str:
    for i, page in enumerate(pages):
        if i != reader and page[1] == 1:
            return f'p{page[0]}'
    return '?'


def _slot(value: int) -> str:
    return '.' if value == 0 else '#' if value == PAD else str(value)


def slots(page: Page, mem: Optional[MemPage] = None) -> str:
    """[slots]write/commit; with memory's view in braces where a store of the
    writers is still pending: [1 .]1/1{. .|0}"""
    shown = [_slot(s) for s in page[4:6]]
    text = f'[{" ".join(shown)}]{page[2]}/{page[3]}'
    if mem is not None and (mem[1], mem[2], mem[0]) != (page[4], page[5], page[3]):
        text += f'{{{_slot(mem[1])} {_slot(mem[2])}|{mem[0]}}}'
    return text


def _counter(name: str, value: int, mem: Optional[int]) -> str:
    return f'{name}={value}' + (f'{{{mem}}}' if mem is not None and mem != value else '')


def render_state(step: Step) -> str:
    f, pages = step.fields, step.pages
    rdr = f.get('r', 0)
    what = HOOK_PREFIX + step.what if step.is_hook else step.what
    reader_ptr = f'p{rdr} {ARROWS.get(pages[rdr][1], "-?->")} p{pages[rdr][0]}'
    mems: List[Optional[MemPage]] = list(step.mem) if step.mem else [None] * len(pages)
    data = ' '.join(f'p{i}{slots(p, m)}' for i, (p, m) in enumerate(zip(pages, mems)))
    commit = f'commit=p{f.get("c", 0)}'
    if 'mc' in f and f['mc'] != f.get('c', 0):
        commit += f'{{p{f["mc"]}}}'
    return (f'{who_name(step.who):<3} {what:<30} {ring(pages, rdr):<34} '
            f'head={head_of(pages, rdr)} tail=p{f.get("t", 0)} {commit} '
            f'reader=p{rdr} ({reader_ptr})  {data}  '
            f'{_counter("overrun", f.get("ov", 0), f.get("mov"))} '
            f'committed={f.get("cm", 0)} read={f.get("rd", 0)}'
            + (f' {_counter("pushing", f.get("push", 0), f.get("mpu"))}'
               if f.get('push', 0) or f.get('mpu', 0) else ''))


def render(steps: List[Step]) -> List[str]:
    """One line a step; pages as [slots]write/commit, '#' padding; with WEAK,
    memory's view in braces where a store of the writers' CPU is pending."""
    lines = ['who step                           ring (next pointers)               '
             'pointers, reader page, pages [slots]write/commit, counters']
    for step in steps:
        if step.kind == 'write':
            lines.append(f'{who_name(step.who):<3} writes an event of {step.size} slot'
                         f'{"s" if step.size > 1 else ""}')
        elif step.kind == 'nest':
            lines.append(f'{who_name(step.who):<3} interrupted at {point_name(step.what)}: '
                         f'{who_name(step.who + 1)} starts')
        elif step.kind == 'rirq':
            lines.append(f'{who_name(step.who):<3} interrupted at {point_name(step.what)}: '
                         f'the reader runs on its CPU')
        elif step.kind == 'load' and step.who != READER:
            # a writer's load of a page pointer (W_RPTR)
            took = ' '.join(f'p{v}' for v in step.values)
            lines.append(f'{who_name(step.who):<3} loads {LOADS.get(step.what, step.what)}: {took}')
        elif step.kind == 'load':
            took = ' '.join(str(v) for v in step.values)
            lines.append(f'rd  loads {LOADS.get(step.what, step.what)} early: {took}')
        else:
            lines.append(render_state(step))
    return lines
