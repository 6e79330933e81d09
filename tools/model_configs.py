"""What SPIN checks of model/lrb.pml: the configurations of `make model` and
`make model-deep`, the mutations it must refute, and what each one is."""

from dataclasses import dataclass, field
from typing import Dict, List, Mapping

# Values each configuration starts from: model/lrb.pml's defaults, and each
# loss required with the first event read after it (EXACT_LOST), which lrb
# keeps even when the head goes a whole lap round the ring during the
# reader's swap (its two lap checks, m_lap)
BASE: Mapping[str, int] = {'PAGES': 3, 'DEPTH': 1, 'NEST': 1, 'PREP': 0, 'OUTER': 2,
                           'OVERWRITE': 1, 'SIZES': 3, 'READER': 1, 'READ_PAGE': 0,
                           'EXACT_LOST': 1}


@dataclass(frozen=True)
class Config:
    name: str
    what: str
    defines: Mapping[str, int]
    liveness: bool = False      # the LTL claim (LTL_SETTLES) under weak fairness

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


def cfg(name: str, what: str, **defines: int) -> Config:
    return Config(name, what, defines)


# The outer writer alone takes the head a whole lap round a full ring, the
# reader concurrent: each event of 2 slots crosses a page and pushes the head
LAP = cfg('m_lap', 'full ring, three head pushes (a lap) against the reader\'s swap',
          PAGES=3, PREP=3, OUTER=3, NEST=0, DEPTH=0, SIZES=2)

# `make model`: exhaustive, all of them within 3 minutes on 2 cores
CI: List[Config] = [
    cfg('p3_reader_page', "empty ring, the reader swapping in the writers' page; consume",
        PAGES=3, OUTER=2, NEST=1, DEPTH=1),
    Config('p3_settles', 'the same, LTL: every run ends with the final checks (no livelock)',
           {'PAGES': 3, 'OUTER': 2, 'NEST': 1, 'DEPTH': 1, 'LTL_SETTLES': 1}, liveness=True),
    cfg('p3_push', 'full ring, a nested head push, the reader consuming',
        PAGES=3, PREP=3, OUTER=1, NEST=1, DEPTH=1),
    cfg('p3_read_page', 'full ring, whole-page reads and copies',
        PAGES=3, PREP=3, OUTER=1, NEST=1, DEPTH=1, READ_PAGE=1),
    cfg('p3_prodcons', 'producer/consumer, full ring, the reader freeing pages',
        PAGES=3, PREP=3, OUTER=1, NEST=2, DEPTH=1, OVERWRITE=0),
    cfg('p3_two_outer', 'empty ring, two outer writes, two nested on two levels, reader',
        PAGES=3, OUTER=2, NEST=2, DEPTH=2),
    cfg('p4_push', 'four pages full, a nested head push, the reader consuming',
        PAGES=4, PREP=4, OUTER=1, NEST=1, DEPTH=1),
    cfg('p3_depth2_writers', 'three nested writes on two levels, writers only, a drain after',
        PAGES=3, PREP=3, OUTER=1, NEST=3, DEPTH=2, READER=0),
    cfg('p4_depth3_writers', 'four pages, three nested levels, writers only, a drain after',
        PAGES=4, PREP=4, OUTER=1, NEST=3, DEPTH=3, READER=0),
    cfg('p4_depth3_prodcons_writers', 'producer/consumer, four pages, three levels',
        PAGES=4, PREP=4, OUTER=1, NEST=3, DEPTH=3, READER=0, OVERWRITE=0),
    LAP,
]

# `make model-deep`: larger rings and depths, minutes to hours
DEEP: List[Config] = [
    # three pushes after the prep make a lap, which the exact check covers
    cfg('p3_push_nested', 'full ring, two nested writes (stale HEADERs), the reader consuming',
        PAGES=3, PREP=3, OUTER=1, NEST=2, DEPTH=1),
    cfg('p4_depth3_nest4_writers', 'four pages, four nested writes on three levels',
        PAGES=4, PREP=4, OUTER=1, NEST=4, DEPTH=3, READER=0),
    cfg('p5_depth3_writers', 'five pages, four nested writes on three levels',
        PAGES=5, PREP=5, OUTER=1, NEST=4, DEPTH=3, READER=0),
]

WRITERS_ONLY = cfg('writers_only', 'full ring, writers only, a drain after',
                   PAGES=3, PREP=3, OUTER=1, NEST=3, DEPTH=1, READER=0)


MUTATIONS: List[Mutation] = [
    Mutation('header_during_update',
             'the reader takes a HEADER while a pointer is UPDATE: its walk passes the '
             'UPDATE and it does not look at the push count',
             'M_HEADER_UNDER_UPDATE',
             cfg('m_push', '', PAGES=3, PREP=3, OUTER=1, NEST=2, DEPTH=1), shortest=False),
    Mutation('tail_reset_no_version',
             'lrb_tail_page_update() resets the next page without bumping its version '
             '(the 2009 ABA)', 'M_TAIL_NO_VERSION', WRITERS_ONLY,
             plant='model_tail_reset_no_version'),
    Mutation('nested_commit',
             'nested writers move the commit (lrb_end_commit() commits at any depth)',
             'M_NESTED_COMMIT', WRITERS_ONLY, plant='model_nested_commit',
             extra={'NO_COMMIT_CHECK': 1}),
    Mutation('swap_commit_page',
             'the reader swaps out the page the commit is on (no "commit == reader" check)',
             'M_SWAP_COMMIT_PAGE',
             cfg('m_swap', '', PAGES=3, OUTER=2, NEST=1, DEPTH=1)),
    Mutation('no_stale_reset',
             'the first writer does not reset a stale HEADER', 'M_NO_STALE_RESET',
             WRITERS_ONLY, plant='model_no_stale_reset'),
    Mutation('kernel_reader_order',
             "rb_get_reader_page()'s order: the reader page's size before the commit page",
             'M_KERNEL_ORDER',
             cfg('m_kernel', '', PAGES=3, PREP=1, PREP_SZ=1, OUTER=1, NEST=1, DEPTH=1)),
    # The two lap checks of the reader's swap, each with the exact check that
    # is their point. With the HEADER check in place, no_lap_recheck fails
    # only on a lap after the reader's reads: pan's first counterexample is
    # that lap, and the shortest search (pan -i) would only cost time
    Mutation('no_lap_recheck',
             "lrb_swap_reader_page() does not read the overrun again when the head page's "
             'version moved: a lap of the head between its reads and its swap goes uncounted',
             'M_NO_LAP_RECHECK', LAP, extra={'EXACT_LOST': 1}, shortest=False),
    Mutation('no_header_recheck',
             "lrb_swap_reader_page() does not check the HEADER again after the version read: "
             "a lap whose first push comes between the walk and that read leaves the version "
             "as read, and the pushes after the overrun read go uncounted",
             'M_NO_HEADER_RECHECK', LAP, extra={'EXACT_LOST': 1}),
    # The reader takes an event published and not yet counted
    Mutation('count_after_publish',
             "lrb_set_commit_to_write() counts the committed events once, after the last "
             "commit index: committed - read - overrun goes below zero in between",
             'M_COUNT_AFTER_PUBLISH',
             cfg('m_count', '', PAGES=3, OUTER=1, NEST=1, DEPTH=1)),
]


def by_name(name: str) -> Mutation:
    for m in MUTATIONS:
        if m.name == name:
            return m
    known = ', '.join(m.name for m in MUTATIONS)
    raise KeyError(f'no mutation {name!r}; known: {known}')
