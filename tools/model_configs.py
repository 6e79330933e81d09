"""What SPIN checks of model/lrb.pml: the configurations of `make model` and
`make model-deep`, the properties, the mutations it must refute with the
property each must break, and the model code left unreached on purpose."""

import re
from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Tuple

# Values each configuration starts from: model/lrb.pml's defaults, and each
# loss required with the first event read after it (EXACT_LOST), which lrb
# keeps even when the head goes a whole lap round the ring during the
# reader's swap (its two lap checks, m_lap)
BASE: Mapping[str, int] = {'PAGES': 3, 'DEPTH': 1, 'NEST': 1, 'PREP': 0, 'OUTER': 2,
                           'OVERWRITE': 1, 'SIZES': 3, 'READER': 1, 'READ_PAGE': 0,
                           'EXACT_LOST': 1, 'WEAK': 0, 'ANYWHERE': 0, 'RDCPU': 0,
                           'STATS': 0}

# The locations WEAK may make weak (model/lrb.pml's W_*)
W_DAT, W_CIDX, W_COMMIT, W_VER, W_CNT, W_OV, W_PUSH, W_COUNT = 1, 2, 4, 8, 16, 32, 64, 128
# every location the writers store and the reader loads (the `*_all`
# configurations); W_RPTR is the other direction, the reader's stores of
# prev pointers and of its page's next as the writers see them
W_ALL = 255
W_RPTR = 256
WEAK_NAMES = {W_DAT: 'slots', W_CIDX: 'commit indexes', W_COMMIT: 'commit_page',
              W_VER: 'versions', W_CNT: 'event counts', W_OV: 'overrun', W_PUSH: 'pushing',
              W_COUNT: 'committed', W_RPTR: "the reader's prev pointers and page next"}


def weak_names(mask: int) -> str:
    """The locations of a WEAK mask, for the documents and the run's lines."""
    if mask == W_ALL:
        return 'all'
    if mask == W_ALL | W_RPTR:
        return "all, the reader's pointers too"
    return ', '.join(name for bit, name in WEAK_NAMES.items() if mask & bit)


@dataclass(frozen=True)
class Property:
    name: str
    what: str
    pan: str                    # what pan prints when it breaks: a regular expression

    def broken_by(self, violation: str) -> bool:
        return re.search(self.pan, violation) is not None


def _av(expr: str) -> str:
    """pan's 'assertion violated EXPR', EXPR matched literally."""
    return '^assertion violated ' + re.escape(expr) + '$'


# Each property as pan reports it broken: a mutation names the one it must break
PROPERTIES: Dict[str, Property] = {p.name: p for p in [
    Property('event_written', 'a slot below the commit index holds an event a writer wrote',
             _av('((id!=0)&&(id<=nev))')),
    Property('event_whole', 'an event read lies below the size, both its slots hold it',
             r'^assertion violated \(\(read_pos\+ev_sz\[id\]\)<=size\)$|'
             r'^assertion violated \(\(ev_sz\[id\]==1\)\|\|'),
    Property('in_order', 'events are read once, in order', _av('(id>last_id)')),
    Property('exact_loss', 'each loss is reported with the first event read after it',
             _av('(lost_seen==((id-1)-nread_seen))')),
    Property('no_early_loss', 'no loss is reported before it happened',
             _av('(lost_seen<=((id-1)-nread_seen))')),
    Property('all_counted', 'at the drain every committed event was read or counted lost',
             _av('((nread+overrun)==committed)')),
    Property('entries', 'committed >= read + overrun wherever one side changes',
             _av('(committed>=(nread+overrun))')),
    Property('stats_entries', 'the counters read as one snapshot: committed >= read + overrun',
             _av('(j>=(nread+ov))')),
    Property('stats_pushes', 'the counters read as one snapshot: every push before the '
             'store of the count they read is in their overrun', _av('(ov>=ovc[i])')),
    Property('reservation', "a writer's reservation is its own until it writes",
             r'^assertion violated \(resv\['),
    Property('slot_owner', 'no slot is held by a writer and the reader, nor reset while held',
             r'^assertion violated .*\bown\['),
    Property('published', 'every slot below a published commit index is written',
             r'^assertion violated .*\bupto\b'),
    Property('commit_behind_tail', 'the tail never moves onto the commit page',
             _av('(np!=commit)')),
    Property('commit_loop', 'the commit loop meets the tail within the ring',
             r'^assertion violated \(loops<='),
    Property('one_header', 'at the drain the ring is a circle with exactly one HEADER',
             _av('(pg==1)')),
    Property('quiescent', 'at the drain no writer is in flight and the commit is on the tail',
             _av('((tail==commit)&&(cidx[tail]==widx[tail]))') + '|' +
             _av('((committing==0)&&(pushing==0))')),
    Property('overrun_justified', "lrb_move_tail()'s reader-page verdict: a commit overrun "
             'drop, or the tail on past the head with no push, only with the commit on the '
             'reader page', _av('ret')),
    Property('drop_justified', 'a producer/consumer drop: the head holds a full page',
             _av('((f==4)||filled[np])')),
    Property('push_full', 'a head push loses a full page, one the reader has not taken',
             _av('filled[np]')),
    Property('pages_accounted', 'at the drain every page the tail left was read or pushed',
             r'^assertion violated\s+!\(filled\[i\]\)$'),
    Property('push_count', 'a push adds to the overrun the events the page held',
             _av('(ent==oi)')),
    Property('writes_counted', 'every write either wrote its event or was counted failed once',
             _av('(writes==((nev+dropped)+commit_overrun))')),
    Property('retry_caused', 'a writer retries only if the ring changed under it (a bound)',
             _av('(moved||(hit&(1<<me)))')),
    Property('no_spin', "a reader on the writers' CPU never goes back to its head search",
             _av('!(spun)')),
    Property('quiet', 'once the writers stopped, a head search never spins',
             r'^assertion violated\s+!\(quiet\)$'),
    Property('settles', 'LTL: under weak fairness every run ends with the final checks',
             r'acceptance cycle'),
]}


@dataclass(frozen=True)
class Config:
    name: str
    what: str
    defines: Mapping[str, int]
    liveness: bool = False      # the LTL claim (LTL_SETTLES)
    big: bool = False           # gcc -O2: worth its build time from a few million states
    # the LTL claim under weak fairness (pan -f): with the reader on another
    # CPU a run where one process never moves is not a run; with the reader
    # on the writers' CPU one context runs at a time (the others wait on
    # their provided clauses), every run is fair, and SPIN's weak fairness
    # only hides cycles
    fair: bool = True

    def all_defines(self) -> Dict[str, int]:
        merged = dict(BASE)
        merged.update(self.defines)
        return merged


@dataclass(frozen=True)
class Mutation:
    name: str
    what: str
    switch: str                 # the -D that makes the variant
    config: Config              # where SPIN refutes it
    breaks: str                 # the property (PROPERTIES) it must break
    c_end: str = ''             # the C code it edits: function, and what
    plant: str = ''             # make planted-bugs plant that replays its trail
    extra: Mapping[str, int] = field(default_factory=dict)
    shortest: bool = True       # pan -i: the shortest trail (small state spaces only)

    def all_defines(self) -> Dict[str, int]:
        merged = self.config.all_defines()
        # Refuted by what the variant breaks, the trail drawn to where that
        # shows: the exact check would stop most trails at the first loss
        # misattributed on the way (set it in extra where it is the point)
        merged['EXACT_LOST'] = 0
        merged[self.switch] = 1
        merged.update(self.extra)
        return merged

    @property
    def writer_only(self) -> bool:
        return not self.config.all_defines()['READER']

    @property
    def property(self) -> Property:
        return PROPERTIES[self.breaks]


def cfg(name: str, what: str, *parts: Mapping[str, int], big: bool = False,
        **defines: int) -> Config:
    """A configuration: the defines of parts, then defines, over BASE."""
    merged: Dict[str, int] = {}
    for part in parts:
        merged.update(part)
    merged.update(defines)
    return Config(name, what, merged, big=big)


def ltl(name: str, what: str, *parts: Mapping[str, int], big: bool = False,
        **defines: int) -> Config:
    """The same with the LTL claim, under weak fairness unless the reader
    runs on the writers' CPU."""
    merged: Dict[str, int] = {}
    for part in parts:
        merged.update(part)
    merged.update(defines)
    merged['LTL_SETTLES'] = 1
    return Config(name, what, merged, liveness=True, big=big,
                  fair=not merged.get('RDCPU', 0))


# ---- configurations ------------------------------------------------------

READER_PAGE: Mapping[str, int] = dict(PAGES=3, OUTER=2, NEST=1, DEPTH=1)
PUSH: Mapping[str, int] = dict(PAGES=3, PREP=3, OUTER=1, NEST=1, DEPTH=1)
PUSH_NESTED: Mapping[str, int] = dict(PAGES=3, PREP=3, OUTER=1, NEST=2, DEPTH=1)
LAP: Mapping[str, int] = dict(PAGES=3, PREP=3, OUTER=3, NEST=0, DEPTH=0, SIZES=2)
WRITERS: Mapping[str, int] = dict(PAGES=3, PREP=3, OUTER=1, NEST=3, DEPTH=1, READER=0)

# The outer writer alone takes the head a whole lap round a full ring, the
# reader concurrent: each event of 2 slots crosses a page and pushes the head
M_LAP = cfg('m_lap', 'full ring, three head pushes (a lap) against the reader\'s swap', LAP,
            big=True)

C_W_READER_PAGE = cfg('w_reader_page', 'weak slots, commit indexes and commit_page: '
                      "empty ring, the reader swapping in the writers' page", READER_PAGE,
                      WEAK=W_DAT | W_CIDX | W_COMMIT, big=True)
C_W_READ_PAGE = cfg('w_read_page', 'weak slots, commit indexes, commit_page and counts: '
                    'whole-page reads, empty ring, two outer writes', READER_PAGE,
                    WEAK=W_DAT | W_CIDX | W_COMMIT | W_CNT, READ_PAGE=1, NEST=0, DEPTH=0,
                    big=True)
C_W_LAP = cfg('w_lap', 'weak versions and overrun: m_lap', LAP, WEAK=W_VER | W_OV, big=True)
C_W_PUSH = cfg('w_push', 'weak pushing and overrun: full ring, a nested head push', PUSH,
               big=True, WEAK=W_PUSH | W_OV)
# The head a lap round before the reader starts (the prep writes push p1 and
# p2), then one write pushes p3 and a nested writer helps it: the helper's
# HEADER on p3's pointer lies past the reader's hint (p1) while the UPDATE
# of the push it helps is behind it, and only the push count tells
LAP_PUSH: Mapping[str, int] = dict(PAGES=3, PREP=5, OUTER=1, NEST=1, DEPTH=1, SIZES=2)
C_W_LAP_PUSH = cfg('w_lap_push', 'weak pushing: a nested writer helps a push whose HEADER '
                   "lies past the reader's hint, a lap after it was set", LAP_PUSH, big=True,
                   WEAK=W_PUSH)
C_W_STATS = cfg('w_stats', 'weak committed and overrun: the counters, and whole pages with '
                'their missed count, read against the pushes of m_lap', LAP,
                WEAK=W_COUNT | W_OV, STATS=1, READ_PAGE=1, big=True)
# The counters against a lap and one push more: a push loses an event
# committed after the first load of committed only when the head goes
# round more than once while the reader reads the counters (on w_stats'
# lap it never does, and SPIN finds no violation without the second read
# barrier there)
C_W_STATS_LAPS = cfg('w_stats_laps', 'weak committed and overrun: the counters read against '
                     'a lap and one push more', LAP, OUTER=4, WEAK=W_COUNT | W_OV, STATS=1,
                     big=True)
# The reader's stores as the writers see them, on m_lap's shape: the prev
# pointer of the head the reader's swap fixed is still pending when the
# head has been pushed past that page and the commit came back onto it
# (the writers' reader-page test of that commit page), while the reader
# points its page's next for its next swap
C_W_RPTR = cfg('w_rptr', "weak reader pointers: the reader's prev fix and its page's next as "
               'the writers see them, against the pushes of m_lap', LAP, WEAK=W_RPTR,
               big=True)
C_A_WRITERS = cfg('a3_depth2_writers', 'interrupts at every shared access, two nested levels, '
                  'writers only', ANYWHERE=1, PAGES=3, PREP=3, OUTER=1, NEST=2, DEPTH=2,
                  READER=0)
C_A_READER = cfg('a3_reader_page', 'interrupts at every shared access, empty ring, reader',
                 READER_PAGE, ANYWHERE=1, big=True)
C_R_PUSH = cfg('r3_push', "the reader on the writers' CPU, an interrupt at any shared access: "
               'full ring, a nested head push', PUSH, ANYWHERE=1, RDCPU=1, big=True)

DEPTH2_WRITERS = cfg('p3_depth2_writers', 'three nested writes on two levels, writers only, '
                     'a drain after', big=True, PAGES=3, PREP=3, OUTER=1, NEST=3, DEPTH=2,
                     READER=0)
# lrb's version narrowed to one bit, which wraps at a page's second bump: no
# writer's window sees more bumps than writers nested above it plus its own
C_VER1_PUSH = cfg('p3_ver1_push', 'one-bit versions, wrapping: full ring, a nested head push, '
                  'the reader consuming', PUSH, big=True, VER_MOD=2)
# The same version under the reader: the outer writer takes the head two
# laps round a full ring of two pages while the reader waits before its
# swap, which brings the head page's one-bit version back where the reader
# read it; the reader compares the count in full (lrb's @resets) and
# reports the loss with the first event after it. The recheck comes in the
# swap's step: with more than a lap of pushes, one between the swap and the
# recheck is reported early (docs/model.md, "The early loss report")
C_VER1_LAPS = cfg('p2_ver1_laps', "one-bit versions: two laps of the head against the "
                  "reader's swap, the recheck in the swap's step", PAGES=2, PREP=2, OUTER=4,
                  NEST=0, DEPTH=0, SIZES=2, VER_MOD=2, RECHECK_AT_SWAP=1, big=True)

# `make model`: exhaustive, all of them within 3 minutes on 2 cores
CI: List[Config] = [
    cfg('p3_push', 'full ring, a nested head push, the reader consuming', PUSH, big=True),
    DEPTH2_WRITERS,
    C_VER1_PUSH,
    C_VER1_LAPS,
    cfg('p4_depth3_prodcons_writers', 'producer/consumer, four pages, three levels',
        PAGES=4, PREP=4, OUTER=1, NEST=3, DEPTH=3, READER=0, OVERWRITE=0),
    cfg('p3_prodcons', 'producer/consumer, full ring, the reader freeing pages',
        big=True, PAGES=3, PREP=3, OUTER=1, NEST=1, DEPTH=1, OVERWRITE=0),
    # a weak configuration explores every sequentially consistent run too:
    # w_reader_page has all of p3_reader_page's, w_lap all of m_lap's
    C_W_READER_PAGE,
    C_W_READ_PAGE,
    C_W_LAP,
    C_W_STATS,
    C_W_STATS_LAPS,
    C_W_LAP_PUSH,
    C_W_RPTR,
    C_A_WRITERS,
    # the LTL run checks the assertions too and reports a deadlock as an
    # acceptance cycle (stutter extension): it has all of r3_push's checks
    ltl('r3_settles', "the reader on the writers' CPU, an interrupt at any shared access: "
        'full ring, a nested head push; LTL: no livelock', PUSH, big=True, ANYWHERE=1,
        RDCPU=1),
]

# `make model-deep`: larger rings, depths and memory, minutes to hours
DEEP: List[Config] = [
    C_R_PUSH,
    cfg('p3_reader_page', "empty ring, the reader swapping in the writers' page; consume",
        READER_PAGE),
    M_LAP,
    ltl('m_lap_settles', 'm_lap, LTL: every run ends with the final checks (no livelock)',
        LAP, big=True),
    C_A_READER,
    cfg('p4_depth3_writers', 'four pages, three nested levels, writers only, a drain after',
        big=True, PAGES=4, PREP=4, OUTER=1, NEST=3, DEPTH=3, READER=0),
    cfg('p3_two_outer', 'empty ring, two outer writes, two nested on two levels, reader',
        big=True, PAGES=3, OUTER=2, NEST=2, DEPTH=2),
    cfg('p3_read_page', 'full ring, whole-page reads and copies', PUSH, big=True, READ_PAGE=1),
    cfg('p3_prodcons_nest2', 'producer/consumer, full ring, two nested writes', big=True,
        PAGES=3, PREP=3, OUTER=1, NEST=2, DEPTH=1, OVERWRITE=0),
    cfg('p4_push', 'four pages full, a nested head push, the reader consuming', big=True,
        PAGES=4, PREP=4, OUTER=1, NEST=1, DEPTH=1),
    # three pushes after the prep make a lap, which the exact check covers
    cfg('p3_push_nested', 'full ring, two nested writes (stale HEADERs), the reader consuming',
        PUSH_NESTED, big=True),
    ltl('p3_push_settles', 'p3_push, LTL: no livelock', PUSH, big=True),
    # the smallest shape with a head push, a stale HEADER and a failed swap
    # that a reader meets: two nested writes of 2 slots on a full ring
    ltl('p3_push_nested_settles', 'full ring, two nested writes of 2 slots (stale HEADERs, '
        'failed swaps), LTL: no livelock', PUSH_NESTED, big=True, SIZES=2),
    C_W_PUSH,
    cfg('w_push_nested', 'weak pushing: two nested writes, stale HEADERs', PUSH_NESTED, big=True,
        WEAK=W_PUSH),
    cfg('w_reader_page_all', 'every location weak: empty ring, reader', READER_PAGE, big=True,
        WEAK=W_ALL),
    cfg('w_lap_all', 'every location weak: m_lap', LAP, big=True, WEAK=W_ALL),
    cfg('a3_push', 'interrupts at every shared access, full ring, a nested head push, reader',
        PUSH, big=True, ANYWHERE=1),
    cfg('p4_depth3_nest4_writers', 'four pages, four nested writes on three levels', big=True,
        PAGES=4, PREP=4, OUTER=1, NEST=4, DEPTH=3, READER=0),
    cfg('p5_depth3_writers', 'five pages, four nested writes on three levels', big=True,
        PAGES=5, PREP=5, OUTER=1, NEST=4, DEPTH=3, READER=0),
]

WRITERS_ONLY = cfg('writers_only', 'full ring, writers only, a drain after', WRITERS)
M_PUSH_NESTED = cfg('m_push', '', PUSH_NESTED)
# w_lap_push sequentially consistent: a HEADER past the reader's hint while
# a push is in flight behind it
M_LAP_PUSH = cfg('m_lap_push', '', LAP_PUSH, big=True)


MUTATIONS: List[Mutation] = [
    # ---- the protocol (sequentially consistent) ----
    Mutation('header_during_update',
             'the reader takes a HEADER while a pointer is UPDATE: its walk passes the '
             'UPDATE and it does not look at the push count',
             'M_HEADER_UNDER_UPDATE', M_PUSH_NESTED, 'push_full',
             c_end='lrb_find_head(): the walk stops at UPDATE, the HEADER needs pushing == 0',
             shortest=False),
    Mutation('tail_reset_no_version',
             'lrb_tail_page_update() resets the next page without bumping its version '
             '(the 2009 ABA)', 'M_TAIL_NO_VERSION', WRITERS_ONLY, 'all_counted',
             c_end='lrb_tail_page_update(): local_add_return() of the version',
             plant='model_tail_reset_no_version'),
    Mutation('version_wrap',
             'the version has fewer values than the writers of one bump-to-reset window: '
             'one bit under two nesting levels wraps back to what the outer writer read',
             'M_VER_WRAP', DEPTH2_WRITERS, 'all_counted',
             c_end='the width of the version (LRB_VERSION_MASK): more values than '
                   'LRB_MAX_NESTING', plant='model_version_wrap'),
    Mutation('reader_version',
             "lrb_swap_reader_page() tells a lap by the head page's version, narrowed to one "
             'bit: two laps while the reader waits before its swap bring it back where the '
             'reader read it, and the loss is reported a page late',
             'M_READER_VERSION', C_VER1_LAPS, 'exact_loss', extra={'EXACT_LOST': 1},
             c_end="lrb_swap_reader_page(): the head page's @resets (64 bits), not its "
                   'version', shortest=False),
    Mutation('nested_commit',
             'nested writers move the commit (lrb_end_commit() commits at any depth)',
             'M_NESTED_COMMIT', WRITERS_ONLY, 'push_count',
             c_end='lrb_end_commit(): only depth 1 commits',
             plant='model_nested_commit', extra={'NO_COMMIT_CHECK': 1}),
    Mutation('swap_commit_page',
             'the reader swaps out the page the commit is on (no "commit == reader" check)',
             'M_SWAP_COMMIT_PAGE', cfg('m_swap', '', PAGES=3, OUTER=2, NEST=1, DEPTH=1),
             'slot_owner', c_end='lrb_get_reader_page(): commit == reader returns NULL'),
    Mutation('no_stale_reset',
             'the first writer does not reset a stale HEADER', 'M_NO_STALE_RESET',
             WRITERS_ONLY, 'pages_accounted',
             c_end='lrb_handle_head_page(): the reset at LRB_HOOK_STALE_HEAD',
             plant='model_no_stale_reset'),
    Mutation('kernel_reader_order',
             "rb_get_reader_page()'s order: the reader page's size before the commit page",
             'M_KERNEL_ORDER',
             cfg('m_kernel', '', PAGES=3, PREP=1, PREP_SZ=1, OUTER=1, NEST=1, DEPTH=1),
             'all_counted', c_end='lrb_reader_look(): commit_page, then the size'),
    # The two lap checks of the reader's swap, each with the exact check that
    # is their point. With the HEADER check in place, no_lap_recheck fails
    # only on a lap after the reader's reads: pan's first counterexample is
    # that lap, and the shortest search (pan -i) would only cost time
    Mutation('no_lap_recheck',
             "lrb_swap_reader_page() does not read the overrun again when the head page's "
             'version moved: a lap of the head between its reads and its swap goes uncounted',
             'M_NO_LAP_RECHECK', M_LAP, 'exact_loss', extra={'EXACT_LOST': 1},
             c_end='lrb_swap_reader_page(): the overrun again when the version moved',
             shortest=False),
    Mutation('no_header_recheck',
             "lrb_swap_reader_page() does not check the HEADER again after the version read: "
             "a lap whose first push comes between the walk and that read leaves the version "
             "as read, and the pushes after the overrun read go uncounted",
             'M_NO_HEADER_RECHECK', M_LAP, 'exact_loss', extra={'EXACT_LOST': 1},
             c_end='lrb_swap_reader_page(): READ_ONCE(prev->list.next) != old'),
    Mutation('count_after_publish',
             "lrb_set_commit_to_write() counts the committed events once, after the last "
             "commit index: committed - read - overrun goes below zero in between",
             'M_COUNT_AFTER_PUBLISH', cfg('m_count', '', PAGES=3, OUTER=1, NEST=1, DEPTH=1),
             'entries', c_end='lrb_set_commit_to_write(): lrb_count_committed() per page'),
    Mutation('reader_page_stale',
             "lrb before the fix: lrb_is_reader_page() believed commit_page's prev pointer, "
             "which the reader fixes after its swap, and lrb_move_tail() then dropped a write "
             "as a commit overrun, or moved the tail to a stale next page",
             'M_READER_PAGE_STALE', cfg('m_reader_page', '', PUSH), 'overrun_justified',
             c_end='lrb_move_tail(), lrb_commit_on_reader_page(): the prev pointer read again, '
                   'next_page checked again'),
    Mutation('no_pushing_check',
             'lrb_find_head() takes a HEADER whatever the push count: the walk stops at '
             'UPDATE only', 'M_NO_PUSHING_CHECK', M_LAP_PUSH, 'push_full',
             c_end='lrb_find_head(): HEADER taken only with lrb_reader_pushing() == 0',
             shortest=False),
    Mutation('no_end_recheck',
             'lrb_end_commit() leaves without looking for a writer that came in after the '
             'write index was read', 'M_NO_END_RECHECK', WRITERS_ONLY, 'quiescent',
             c_end='lrb_end_commit(): the tail and write index checked again',
             plant='model_no_end_recheck'),
    Mutation('no_next_commit_check',
             'lrb_move_tail() moves on even when the next page is the commit page',
             'M_NO_NEXT_COMMIT_CHECK',
             cfg('m_around', '', PAGES=3, PREP=2, OUTER=1, NEST=3, DEPTH=3, READER=0),
             'push_count', c_end='lrb_move_tail(): next_page == commit_page fails',
             plant='model_no_next_commit_check'),
    Mutation('no_tail_recheck',
             'lrb_tail_page_update() resets the next page even when a nested writer moved '
             'the tail since', 'M_NO_TAIL_RECHECK', WRITERS_ONLY, 'all_counted',
             c_end='lrb_tail_page_update(): tail_page != READ_ONCE(cb->tail_page) returns',
             plant='model_no_tail_recheck'),
    Mutation('no_reader_page_check',
             'lrb_move_tail() pushes the head even when the commit is on the reader page',
             'M_NO_READER_PAGE_CHECK', cfg('m_commit_reader', '', PAGES=2, OUTER=2, NEST=2,
                                           DEPTH=1, SIZES=2), 'entries',
             c_end='lrb_move_tail(): lrb_commit_on_reader_page(commit_page)', shortest=False),
    # ---- interrupts anywhere, the reader on the writers' CPU ----
    Mutation('clear_after_recheck',
             'lrb_end_commit() sets committing = 0 after its re-check: a writer that '
             'interrupts between the two sees itself nested and nobody commits its event',
             'M_CLEAR_AFTER_RECHECK', C_A_WRITERS, 'quiescent',
             c_end='lrb_end_commit(): local_set(&cb->committing, 0) before the re-check'),
    Mutation('rdcpu_spin',
             "a reader on the writers' CPU waits for the push in flight, as one on another "
             'CPU does: it spins on the writer it interrupted for ever',
             'M_RDCPU_SPIN', ltl('r3_spin', '', PUSH, ANYWHERE=1, RDCPU=1), 'settles',
             c_end='lrb_swap_reader_page() (issue 25): busy return on the writers\' CPU',
             shortest=False),
    # ---- barriers, the writers' end ----
    Mutation('no_wmb_index',
             'lrb_set_commit_to_write() without lrb_writer_wmb() before the commit index: '
             'the index may reach the reader before the event data',
             'M_NO_WMB_INDEX', C_W_READER_PAGE, 'event_written',
             c_end='lrb_set_commit_to_write(): lrb_writer_wmb() before local_set(commit)'),
    Mutation('no_wmb_index_loop',
             'lrb_set_commit_to_write() without lrb_writer_wmb() before the commit index of '
             'a page the commit moves across (the one of the tail page kept)',
             'M_NO_WMB_INDEX_LOOP', C_W_READER_PAGE, 'event_written',
             c_end='lrb_set_commit_to_write(): the loop\'s lrb_writer_wmb()', shortest=False),
    Mutation('no_wmb_index_tail',
             'lrb_set_commit_to_write() without lrb_writer_wmb() before the tail page\'s '
             'commit index (the loop\'s kept)', 'M_NO_WMB_INDEX_TAIL', C_W_READER_PAGE,
             'event_written',
             c_end='lrb_set_commit_to_write(): the tail page\'s lrb_writer_wmb()',
             shortest=False),
    Mutation('no_wmb_commit_page',
             'lrb_set_commit_to_write() without the smp_wmb() before the commit page moves: '
             'commit_page may reach the reader before the old page\'s final index',
             'M_NO_WMB_COMMIT_PAGE', C_W_READER_PAGE, 'event_written',
             c_end='lrb_set_commit_to_write(): smp_wmb() before WRITE_ONCE(commit_page)',
             shortest=False),
    Mutation('pushing_unordered',
             "the flag cmpxchgs of lrb_head_set() do not order pushing++ before them: the "
             "reader may see a nested writer's HEADER and not the push in flight",
             'M_PUSHING_UNORDERED', C_W_LAP_PUSH, 'push_full',
             c_end='lrb_head_set(): try_cmpxchg() fully ordered (after local_inc(pushing))',
             shortest=False),
    Mutation('overrun_unordered',
             "the flag cmpxchgs of lrb_head_set() do not order the overrun before them: the "
             "reader may see the new HEADER and not the push's losses",
             'M_OVERRUN_UNORDERED', C_W_LAP, 'exact_loss', extra={'EXACT_LOST': 1},
             c_end='lrb_head_set(): try_cmpxchg() fully ordered (after local_add(overrun))',
             shortest=False),

    # ---- barriers, the reader's end ----
    Mutation('no_rmb_look',
             'lrb_reader_look() without its read barrier: the size may be loaded before the '
             'commit page', 'M_NO_RMB_LOOK', C_W_READER_PAGE, 'all_counted',
             c_end='lrb_reader_look(): lrb_reader_rmb() after READ_ONCE(commit_page)',
             shortest=False),
    Mutation('no_rmb_size',
             'lrb_reader_size() without its read barrier: the events may be loaded before '
             'the size', 'M_NO_RMB_SIZE', C_W_READER_PAGE, 'event_written',
             c_end='lrb_reader_size(): lrb_reader_rmb() after the commit index',
             shortest=False),
    Mutation('no_rmb_version',
             'lrb_swap_reader_page() without the read barrier after the version: the HEADER '
             'check may be satisfied before the version read', 'M_NO_RMB_VERSION', C_W_LAP,
             'exact_loss', extra={'EXACT_LOST': 1, 'WEAK': W_VER | W_OV},
             c_end='lrb_swap_reader_page(): lrb_reader_rmb() after the version',
             shortest=False),
    Mutation('no_rmb_header',
             'lrb_swap_reader_page() without the read barrier after the HEADER check: the '
             'overrun may be loaded before it', 'M_NO_RMB_HEADER', C_W_LAP, 'exact_loss',
             extra={'EXACT_LOST': 1},
             c_end='lrb_swap_reader_page(): lrb_reader_rmb() before lrb_reader_overrun()',
             shortest=False),
    Mutation('swap_relaxed',
             'the swap cmpxchg of lrb_swap_reader_page() not fully ordered: the recheck\'s '
             'version and overrun may be loaded before it', 'M_SWAP_RELAXED', C_W_LAP,
             'exact_loss', extra={'EXACT_LOST': 1},
             c_end='lrb_swap_reader_page(): try_cmpxchg() fully ordered, then the recheck',
             shortest=False),
    Mutation('no_rmb_read_page',
             'lrb_read_page() without its read barrier before the hand-over: the page\'s '
             'index, count and events may be loaded before the commit page',
             'M_NO_RMB_READ_PAGE', C_W_READ_PAGE, 'event_written', extra={'EXACT_LOST': 0},
             c_end='lrb_read_page(): lrb_reader_rmb() after reader != commit_page',
             shortest=False),
    Mutation('no_rmb_stats_second',
             'lrb_cpu_counts() without its second read barrier: the second load of '
             'committed may be satisfied before the overrun', 'M_NO_RMB_STATS_SECOND',
             C_W_STATS_LAPS,
             'stats_entries', c_end='lrb_cpu_counts(): the second smp_rmb()',
             shortest=False),
    Mutation('no_rmb_walk',
             'lrb_find_head() without its read barrier: the push count may be loaded before '
             "the walk, and a HEADER a helper set past the reader's hint taken while the push "
             'it helps is in flight', 'M_NO_RMB_WALK', C_W_LAP_PUSH, 'push_full',
             c_end='lrb_find_head(): lrb_reader_rmb() before lrb_reader_pushing()',
             shortest=False),
    Mutation('no_rmb_stats_first',
             'lrb_cpu_counts() without its first read barrier: the overrun may be loaded '
             'before the first load of committed, and miss pushes counted before it',
             'M_NO_RMB_STATS_FIRST',
             cfg('w_stats_push', '', LAP, OUTER=1, WEAK=W_COUNT | W_OV, STATS=1),
             'stats_pushes', c_end='lrb_cpu_counts(): the first smp_rmb()'),
    # ---- the barrier pair of the reader's stores (W_RPTR) ----
    Mutation('no_wmb_reader_next',
             "lrb_swap_reader_page() without the smp_wmb() before it points its page's next: "
             'the prev pointer its last swap fixed may reach the writers after that next, and '
             "a writer's recheck of the commit page's prev pointer finds it unchanged",
             'M_NO_WMB_READER_NEXT', C_W_RPTR, 'overrun_justified',
             c_end="lrb_swap_reader_page(): smp_wmb() before WRITE_ONCE(reader->list.next)"),
    Mutation('no_rmb_commit_prev',
             'lrb_commit_on_reader_page() without its smp_rmb(): the second load of the '
             "commit page's prev pointer may be satisfied before the load of prev's next, "
             'at the first load, and return the stale pointer again',
             'M_NO_RMB_COMMIT_PREV', C_W_RPTR, 'overrun_justified',
             c_end='lrb_commit_on_reader_page(): smp_rmb() before the prev pointer again'),
    Mutation('head_set_release',
             'the flag cmpxchgs of lrb_head_set() only release-ordered: their own store may '
             'reach the reader after the stores that follow it (the version bump)',
             'M_HEAD_SET_RELEASE', C_W_LAP, 'exact_loss', extra={'EXACT_LOST': 1},
             c_end='lrb_head_set(): try_cmpxchg() fully ordered (before the version bump)',
             shortest=False),
]

# Variants SPIN does not refute, each with the reason: they are built and
# searched by `make model-trail M=all` too, which fails if one is refuted
# after all (then it moves to MUTATIONS with its trail)
UNREFUTED: List[Tuple[Mutation, str]] = [
    (Mutation('version_unordered',
              "the flag cmpxchgs do not publish the version bump of lrb_tail_page_update()",
              'M_VERSION_UNORDERED', C_W_LAP, 'exact_loss', extra={'EXACT_LOST': 1},
              c_end='lrb_head_set(): try_cmpxchg() fully ordered (after the version bump)',
              shortest=False),
     'searched on w_lap (no nested writer), complete with no violation: a lap puts the '
     'HEADER back on the head page only after the commit has moved off the page it was on '
     'when the tail entered the head page and bumped its version (the tail never moves onto '
     'the commit page, and it enters every page before that push); each commit move is '
     'behind an smp_wmb() of the same CPU, after the bump, which orders the bump before '
     'that HEADER, and the swap that reads the HEADER is fully ordered before its recheck. '
     'On w_lap_nested the search does not complete within 600 s'),
    (Mutation('no_empty_head_check',
              'lrb_swap_reader_page() swaps in the head when it is the commit page with '
              'nothing committed', 'M_NO_EMPTY_HEAD_CHECK',
              cfg('m_empty_head', '', PAGES=3, OUTER=2, NEST=1, DEPTH=1), 'slot_owner',
              c_end='lrb_swap_reader_page(): head == commit_page && !commit returns'),
     'the search completes with no violation: the reader takes an empty page the commit and '
     'the tail are on, and waits there for the writers, who go on writing it (the commit on '
     'the reader page); nothing is lost or read twice, the check saves a swap'),
]

# Lines of the model that no configuration of `make model` reaches, each
# with the reason: (proctype, a regular expression the line's source or its
# statement matches, reason). `make model` fails on any other line no
# configuration reaches.
UNREACHED_OK: List[Tuple[str, str, str]] = [
    ('Writer', r'^-end-$', 'a writer waits for its next write at its loop: it never ends'),
    ('Reader', r'^-end-$', 'the reader leaves its loop by break after the drain'),
    ('Loads', r'^-end-$', 'Loads() waits for armed loads: it never ends'),
    ('Writer', r'-> assert\(false\)', 'lrb_head_set() returning a flag that is none of the '
     'four (the assertion holds)'),
    ('Writer', r'tl == 0 -> WSTA\(dat, tp \* CAP \+ 1, PAD\)', 'the padding of a page from '
     'its first slot: an event of more than 2 slots, which the model has none of'),
    ('Writer', r'cp == tail -> ret = \(cp == rdpg\); assert\(ret\)', "lrb_move_tail()'s commit on the reader "
     'page with the tail on it: with the fix a reader page never gets here, its next pointer '
     'is not flagged while the commit is on it (no configuration of make model reaches it)'),
    ('Writer', r'early -> early = false', 'the recheck of the prev pointer satisfied at its '
     'first load: the mutation no_rmb_commit_prev only'),
    ('Writer', r'prv\[cp\] == t2 -> m_prv\[cp\] = prv\[cp\]', "the recheck of the prev pointer "
     "taking a pending store of the reader that puts it back to the first load's value: the "
     'reader would have to store the commit page\'s prev pointer twice, away from that value '
     'and back, between the two loads, which w_rptr does not reach'),
    ('Reader', r'flg\[i\] == UPDATE', 'the final check that no UPDATE is left: it holds'),
    ('Reader', r'\bspun\b', "the reader on the writers' CPU going back to its head search: "
     'never (the property no_spin)'),
    ('Loads', r'FL_PUSH|fl_push', 'a floating load of the push count: the mutation '
     'no_rmb_walk only'),
    ('Loads', r'FL_HDR|fl_hdr|fl_hf|fl_hn', 'a floating HEADER check: the mutation '
     'no_rmb_version only'),
    ('Loads', r'fl_c_arm|fl_c_got|fl_committed', 'a floating second load of committed: the '
     'mutation no_rmb_stats_second only'),
    ('Loads', r'fl_d1 = 0', 'a floating load of the last slot of a page: the mutation '
     'no_rmb_size only'),
]


def by_name(name: str) -> Mutation:
    for m in MUTATIONS + [u for u, _ in UNREFUTED]:
        if m.name == name:
            return m
    known = ', '.join(m.name for m in MUTATIONS)
    raise KeyError(f'no mutation {name!r}; known: {known}')
