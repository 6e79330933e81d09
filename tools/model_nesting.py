"""A writer-only model trail as an lrb_nesting replay (/work/notes' contract:
struct nest_trail of kunit/lrb_nesting_kunit.c), and the generated header."""

from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, List, Tuple

from model_trail import HOOK_PREFIX, READER, Step

MAX_PREP = 8
MAX_INJ = 6
# Payload bytes of a model event of 1 and 2 slots: two 1-slot events fit a
# page whatever time stamps they carry; a 2-slot event is the largest payload
# (lrb_max_payload() on 4 KiB pages) and fills its page to the last byte, as
# in the model, so that a page rewritten by a nested writer ends with the very
# write word it had before (the ABA of tail_reset_no_version)
PAGE_FILL = 4072
PAGE_FILL_NAME = 'NEST_TRAIL_PAGE_FILL'
PAYLOAD = {1: 1600, 2: PAGE_FILL}

Injection = Tuple[int, str, int, int]       # depth, hook point, nth arrival, payload


class NotReplayable(Exception):
    """The trail has no lrb_nesting form; the message says why."""


@dataclass
class Replay:
    name: str
    plant: str
    overwrite: bool
    pages: int
    prep: List[int] = field(default_factory=list)
    outer_len: int = 0
    inj: List[Injection] = field(default_factory=list)


def _outer_writes(steps: List[Step]) -> List[int]:
    return [i for i, s in enumerate(steps) if s.kind == 'write' and s.who == 0]


def _check_writers_only(steps: List[Step]) -> None:
    """Reader steps are allowed after the last writer step: that is the
    read-back the replay does too."""
    last_writer = max((i for i, s in enumerate(steps) if s.who != READER), default=-1)
    reader = [s for s in steps[:last_writer] if s.who == READER]
    if reader:
        raise NotReplayable(f'the reader acts while writers run ({len(reader)} steps, first '
                            f'{reader[0].what}); lrb_nesting replays writers only')


def _nested_outer(steps: List[Step], outer: List[int]) -> int:
    """Index in outer of the one outer write that is interrupted."""
    nests = [i for i, s in enumerate(steps) if s.kind == 'nest']
    if not nests:
        raise NotReplayable('no writer is interrupted in the trail')
    which = {max(k for k, o in enumerate(outer) if o < i) for i in nests}
    if len(which) > 1:
        raise NotReplayable('nested writers interrupt more than one outer write')
    k = which.pop()
    if k != len(outer) - 1:
        raise NotReplayable('outer writes follow the interrupted one')
    return k


@dataclass
class _Nest:
    depth: int
    point: str
    nth: int
    payload: int = 0


def injections(steps: List[Step]) -> List[Injection]:
    """Every nest, with the arrival it fires at counted per writer instance
    (several nests at one arrival share it), and the nested writer's payload."""
    arrivals: Dict[int, Counter[str]] = {}
    found: List[_Nest] = []
    for step in steps:
        if step.kind == 'write':
            arrivals[step.who] = Counter()
            waiting = [n for n in found if n.depth == step.who - 1 and not n.payload]
            if waiting:
                waiting[0].payload = PAYLOAD[step.size]
        elif step.kind == 'nest':
            nth = arrivals.setdefault(step.who, Counter())[step.what] + 1
            found.append(_Nest(step.who, step.what, nth))
        elif step.is_hook:
            arrivals.setdefault(step.who, Counter())[step.what] += 1
    return [(n.depth, n.point, n.nth, n.payload) for n in found]


def convert(steps: List[Step], name: str, plant: str, pages: int, overwrite: bool) -> Replay:
    _check_writers_only(steps)
    outer = _outer_writes(steps)
    k = _nested_outer(steps, outer)
    replay = Replay(name, plant, overwrite, pages,
                    prep=[PAYLOAD[steps[i].size] for i in outer[:k]],
                    outer_len=PAYLOAD[steps[outer[k]].size],
                    inj=injections(steps[outer[k]:]))
    if len(replay.prep) > MAX_PREP or len(replay.inj) > MAX_INJ:
        raise NotReplayable(f'{len(replay.prep)} prep writes and {len(replay.inj)} '
                            f'injections: the struct holds {MAX_PREP} and {MAX_INJ}')
    if not 2 <= pages <= 8:
        raise NotReplayable(f'{pages} pages: lrb_nesting takes 2 to 8')
    return replay


# Replays kept from an earlier trail of the model, each with why. The
# current shortest trail of nested_commit has its nested writes come in at
# the outer writer's tail_after before the outer writer reserved anything
# that a nested commit could publish too early: a violation of the model's
# commit accounting (push_count, with NO_COMMIT_CHECK) that the C code
# does not share, so it passes under model_nested_commit. The earlier trail
# nests while the outer writer's overshoot is still on the old tail page,
# which a nested commit publishes past the page's end.
PINNED: Dict[str, Tuple[Replay, str]] = {
    'nested_commit': (Replay('nested_commit_1', 'model_nested_commit', True, 3,
                             prep=[PAGE_FILL] * 3, outer_len=PAYLOAD[1],
                             inj=[(0, 'TAIL_AFTER', 1, PAYLOAD[1])]),
                      "the model's current trail is harmless on the C code (it passes "
                      'under the plant, 2026-12-07); this earlier one fails under it'),
}


def entry(r: Replay) -> List[str]:
    """One initializer of struct nest_trail, kernel style."""
    flags = 'LRB_FL_OVERWRITE' if r.overwrite else '0'
    prep = ', '.join(str(n) for n in r.prep)
    lines = [f'\t{{ .name = "{r.name}", .plant = "{r.plant}",',
             f'\t  .flags = {flags}, .pages = {r.pages},',
             f'\t  .nprep = {len(r.prep)}, .prep = {{ {prep} }},',
             f'\t  .outer_len = {r.outer_len},',
             f'\t  .ninj = {len(r.inj)},',
             '\t  .inj = {']
    for i, (depth, point, nth, length) in enumerate(r.inj):
        end = ' } },' if i == len(r.inj) - 1 else ','
        lines.append(f'\t\t{{ {depth}, {HOOK_PREFIX}{point}, {nth}, {length} }}{end}')
    return lines


def header(replays: List[Replay]) -> str:
    out = ['/* SPDX-License-Identifier: GPL-2.0 */',
           '/*',
           ' * Generated by `python3 tools/model.py nesting-trails`: do not edit.',
           ' * One lrb_nesting replay per writer-only mutation of',
           ' * model/lrb.pml, from the counterexample SPIN finds for it (or an earlier',
           ' * one, PINNED in tools/model_nesting.py); .plant names the make',
           ' * planted-bugs plant that makes the real code fail it.',
           ' */',
           '',
           '/* The 2-slot payload: the replay checks that it fills a page */',
           f'#define {PAGE_FILL_NAME}\t{PAGE_FILL}U',
           '',
           'static const struct nest_trail nest_trails[] = {']
    for r in replays:
        out += entry(r)
    out += ['};', '']
    return '\n'.join(out)
