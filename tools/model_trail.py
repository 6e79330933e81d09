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

# One page as a step line shows it: next, flag, write index, commit index, slots
Page = Tuple[int, int, int, int, int, int]


@dataclass
class Step:
    who: int                    # writer depth, or READER
    kind: str                   # 'write', 'nest' or 'state'
    what: str = ''              # the hook point or step name
    size: int = 0               # slots of the event a 'write' starts
    fields: Dict[str, int] = field(default_factory=dict)
    pages: List[Page] = field(default_factory=list)

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
    if what == 'nest':
        return Step(who, 'nest', what=words[3])
    step = Step(who, 'state', what=what)
    for word in words[3:]:
        if '=' in word:
            key, value = word.split('=', 1)
            step.fields[key] = int(value)
        elif word.startswith('|'):
            parts = [int(x) for x in word[1:].split(':')]
            step.pages.append((parts[0], parts[1], parts[2], parts[3], parts[4], parts[5]))
    return step


def parse(text: str) -> List[Step]:
    return [s for s in (parse_line(line) for line in text.splitlines()) if s is not None]


def who_name(who: int) -> str:
    return 'rd' if who == READER else f'w{who}'


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


def slots(page: Page) -> str:
    shown = ['.' if s == 0 else '#' if s == PAD else str(s) for s in page[4:6]]
    return f'[{" ".join(shown)}]{page[2]}/{page[3]}'


def render_state(step: Step) -> str:
    f, pages = step.fields, step.pages
    rdr = f.get('r', 0)
    what = HOOK_PREFIX + step.what if step.is_hook else step.what
    reader_ptr = f'p{rdr} {ARROWS.get(pages[rdr][1], "-?->")} p{pages[rdr][0]}'
    data = ' '.join(f'p{i}{slots(p)}' for i, p in enumerate(pages))
    return (f'{who_name(step.who):<3} {what:<30} {ring(pages, rdr):<34} '
            f'head={head_of(pages, rdr)} tail=p{f.get("t", 0)} commit=p{f.get("c", 0)} '
            f'reader=p{rdr} ({reader_ptr})  {data}  overrun={f.get("ov", 0)} '
            f'committed={f.get("cm", 0)} read={f.get("rd", 0)}')


def render(steps: List[Step]) -> List[str]:
    """One line a step; pages as [slots]write/commit, '#' padding."""
    lines = ['who step                           ring (next pointers)               '
             'pointers, reader page, pages [slots]write/commit, counters']
    for step in steps:
        if step.kind == 'write':
            lines.append(f'{who_name(step.who):<3} writes an event of {step.size} slot'
                         f'{"s" if step.size > 1 else ""}')
        elif step.kind == 'nest':
            lines.append(f'{who_name(step.who):<3} interrupted at {HOOK_PREFIX}{step.what}: '
                         f'{who_name(step.who + 1)} starts')
        else:
            lines.append(render_state(step))
    return lines
