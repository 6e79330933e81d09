#!/usr/bin/env python3
"""The barriers of lib/lockless_ring_buffer.c and their pairs, found by
function and occurrence (line numbers are computed, never written by hand),
with the line of the model's end in model/lrb.pml, the mutation that
removes each end and the property that refutes it (tools/model_configs.py).

    tools/model_barriers.py                 the table, from the series in kernel-patch/
    tools/model_barriers.py --source FILE   from a file (a kernel tree's copy)

Exits 1 when a barrier of the table is not found (in the C code or the
model), or when the C code has a barrier call the table does not list (a new
barrier needs a row here, a pair and a mutation).
"""

import argparse
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

import model_configs as mc  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
PATCHES = REPO / 'kernel-patch'
C_FILE = 'lib/lockless_ring_buffer.c'
MODEL = REPO / 'model' / 'lrb.pml'

# A barrier call of the C code: what this table must account for
BARRIER_CALL = re.compile(r'\b(smp_wmb|smp_rmb|smp_mb|lrb_writer_wmb|lrb_reader_rmb|'
                          r'lrb_reader_mb_done|try_cmpxchg)\s*\(')


@dataclass(frozen=True)
class Barrier:
    key: str                    # a short name, for the pairs
    function: str               # the C function it is in
    call: str                   # the text that finds it in the function
    nth: int                    # which occurrence of it there (1-based)
    what: str                   # what it orders
    pairs: Tuple[str, ...]      # keys of the barriers it pairs with
    mutations: Tuple[str, ...]  # tools/model_configs.py names that remove this end
    model: str                  # text of the line of model/lrb.pml just above the model's end


BARRIERS: List[Barrier] = [
    Barrier('wmb_index_loop', 'lrb_set_commit_to_write', 'lrb_writer_wmb(', 1,
            'the event data, the write word and the count before the commit index of each '
            'page the commit moves across', ('rmb_size', 'rmb_stats_first', 'rmb_stats_second'),
            ('no_wmb_index_loop', 'no_wmb_index'),
            '#elif !defined(M_NO_WMB_INDEX)'),
    Barrier('wmb_index_tail', 'lrb_set_commit_to_write', 'lrb_writer_wmb(', 2,
            'the same on the tail page', ('rmb_size', 'rmb_stats_first', 'rmb_stats_second'),
            ('no_wmb_index_tail', 'no_wmb_index'),
            '#elif !defined(M_NO_WMB_INDEX)'),
    Barrier('wmb_commit_page', 'lrb_set_commit_to_write', 'smp_wmb(', 1,
            "the old page's final commit index before the commit page moves",
            ('rmb_look', 'rmb_read_page'), ('no_wmb_commit_page',),
            '#ifndef M_NO_WMB_COMMIT_PAGE'),
    Barrier('cmpxchg_flags', 'lrb_head_set', 'try_cmpxchg(', 1,
            'fully ordered: pushing++ and the overrun before the flag it sets; the flag '
            'before the version bump of the reset that follows',
            ('rmb_walk', 'rmb_version', 'rmb_header', 'swap_mb', 'rmb_stats_first',
             'rmb_stats_second'),
            ('pushing_unordered', 'overrun_unordered', 'version_unordered',
             'head_set_release'),
            'HS_FLUSH;'),
    Barrier('rmb_look', 'lrb_reader_look', 'lrb_reader_rmb(', 1,
            'the commit page before the size of the reader page', ('wmb_commit_page',),
            ('no_rmb_look',),
            '#ifndef M_NO_RMB_LOOK'),
    Barrier('rmb_size', 'lrb_reader_size', 'lrb_reader_rmb(', 1,
            'the commit index before the events below it', ('wmb_index_loop', 'wmb_index_tail'),
            ('no_rmb_size',),
            '#ifndef M_NO_RMB_SIZE'),
    Barrier('rmb_walk', 'lrb_find_head', 'lrb_reader_rmb(', 1,
            'the walk before the push count (and what the swap reads after)',
            ('cmpxchg_flags',), ('no_rmb_walk',),
            'smp_rmb(): the walk before the push count'),
    Barrier('rmb_version', 'lrb_swap_reader_page', 'lrb_reader_rmb(', 1,
            "the head page's version before the HEADER check", ('cmpxchg_flags',),
            ('no_rmb_version',),
            '#ifndef M_NO_RMB_VERSION'),
    Barrier('rmb_header', 'lrb_swap_reader_page', 'lrb_reader_rmb(', 2,
            'the HEADER check before the overrun', ('cmpxchg_flags',), ('no_rmb_header',),
            '#ifndef M_NO_RMB_HEADER'),
    Barrier('swap_mb', 'lrb_swap_reader_page', 'try_cmpxchg(', 1,
            "fully ordered: the swap before the recheck's version and overrun "
            '(lrb_reader_mb_done())', ('cmpxchg_flags',), ('swap_relaxed',),
            '#ifndef M_SWAP_RELAXED'),
    Barrier('rmb_read_page', 'lrb_read_page', 'lrb_reader_rmb(', 1,
            "the commit page off the reader page before the page's index, count and events "
            'handed over', ('wmb_commit_page',), ('no_rmb_read_page',),
            '#ifndef M_NO_RMB_READ_PAGE'),
    Barrier('rmb_stats_first', 'lrb_cpu_counts', 'smp_rmb(', 1,
            'the first load of committed before read and overrun',
            ('wmb_index_loop', 'wmb_index_tail', 'cmpxchg_flags'), ('no_rmb_stats_first',),
            '#ifndef M_NO_RMB_STATS_FIRST'),
    Barrier('rmb_stats_second', 'lrb_cpu_counts', 'smp_rmb(', 2,
            'read and overrun before the second load of committed',
            ('wmb_index_loop', 'wmb_index_tail', 'cmpxchg_flags'), ('no_rmb_stats_second',),
            '#ifndef M_NO_RMB_STATS_SECOND'),
    # the pair of the stale prev pointer's fix: reader stores as the writers
    # see them (W_RPTR)
    Barrier('wmb_reader_next', 'lrb_swap_reader_page', 'smp_wmb(', 1,
            "the prev pointer the reader's last swap fixed before its page's next is "
            'pointed at the head', ('rmb_commit_prev',), ('no_wmb_reader_next',),
            '#ifndef M_NO_WMB_READER_NEXT'),
    Barrier('rmb_commit_prev', 'lrb_commit_on_reader_page', 'smp_rmb(', 1,
            "the commit page's prev page's next before the prev pointer again",
            ('wmb_reader_next',), ('no_rmb_commit_prev',),
            '#ifndef M_NO_RMB_COMMIT_PREV'),
]

# The model's barriers: a write barrier (wflush(): every pending store to
# memory), the flag cmpxchg's flush, a read barrier (fl_reset(): the loads
# after it are taken after it); of the reader's stores (W_RPTR), the
# reader's write barrier (rd_wmb()) and the writers' read barrier (wr_rmb())
MODEL_BARRIER = re.compile(r'\b(?:WMB\(\)|HS_FLUSH;|fl_reset\(\)|rd_wmb\(\)|wr_rmb\(\))')
# How far below the line of its switch the model's barrier may be
MODEL_REACH = 4

# Barrier calls of the C code that are not the algorithm's, with the reason
NOT_MODELLED: Dict[str, str] = {
    'lrb_view_catch_up': 'the stale-read emulation of the test hooks (CONFIG_LRB_TEST_HOOKS)',
    'lrb_set_test_hook': 'the test hook callback and its data (CONFIG_LRB_TEST_HOOKS)',
    'lrb_reader_rmb': 'the helper itself (both versions): its callers are the barriers',
    'lrb_writer_wmb': 'the helper itself (both versions): its callers are the barriers',
    'lrb_stale_catch_up': 'the stale-read emulation of the test hooks',
    'lrb_reader_mb_done': 'the helper itself: the swap cmpxchg is the barrier',
    'lrb_swap_reader_page:lrb_reader_mb_done': 'the stale-read emulation after the swap '
                                               'cmpxchg (swap_mb)',
}


def source_from_series(patch_dir: Path = PATCHES) -> str:
    """lib/lockless_ring_buffer.c as the series in patch_dir builds it."""
    patches = sorted(str(p) for p in patch_dir.glob('*.patch'))
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.run(['git', 'apply', '--include=' + C_FILE] + patches, cwd=tmp,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f'model_barriers: git apply of the series failed: {proc.stderr}')
        return (Path(tmp) / C_FILE).read_text()


# A function definition's first line (not indented): its name before '(';
# the return type may be on the line before
FUNC_START = re.compile(r'^(?:[a-z_][\w\s\*]*?[\s\*])?(\w+)\(')
NOT_FUNCTIONS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'EXPORT_SYMBOL_GPL',
                 'MODULE_LICENSE', 'MODULE_DESCRIPTION', 'DEFINE_SPINLOCK', 'LIST_HEAD'}


def blank_comments(source: str) -> str:
    """The source with its comments blanked, lines kept where they were."""
    def blank(m: 're.Match[str]') -> str:
        return re.sub(r'[^\n]', ' ', m.group(0))
    return re.sub(r'/\*.*?\*/|//[^\n]*', blank, source, flags=re.S)


def functions(source: str) -> Dict[str, List[Tuple[int, int]]]:
    """Each function's line spans (1-based, inclusive); the same name may
    have several definitions (#ifdef)."""
    lines = blank_comments(source).splitlines()
    spans: Dict[str, List[Tuple[int, int]]] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        m = FUNC_START.match(line)
        if m and m.group(1) not in NOT_FUNCTIONS and not line.rstrip().endswith(';'):
            # the definition's body: from its opening brace to the first '}'
            # in column 0
            j = i
            while j < len(lines) and not lines[j].startswith('{'):
                if lines[j].rstrip().endswith(';'):
                    break
                j += 1
            if j < len(lines) and lines[j].startswith('{'):
                k = j
                while k < len(lines) and not lines[k].startswith('}'):
                    k += 1
                spans.setdefault(m.group(1), []).append((i + 1, k + 1))
                i = k + 1
                continue
        i += 1
    return spans


def find(source: str, barrier: Barrier) -> Optional[int]:
    """The line of the barrier: its nth call in its function, comments left out."""
    lines = blank_comments(source).splitlines()
    for start, end in functions(source).get(barrier.function, []):
        seen = 0
        for n in range(start, end + 1):
            code = lines[n - 1]
            if barrier.call in code:
                seen += 1
                if seen == barrier.nth:
                    return n
    return None


def model_line(model: str, marker: str) -> Optional[int]:
    """The line of the model's end of a barrier: the first barrier statement
    from the first line containing marker on (the #ifndef of its mutation)."""
    lines = model.splitlines()
    for n, text in enumerate(lines, 1):
        if marker in text:
            for k in range(n, min(n + MODEL_REACH, len(lines)) + 1):
                if MODEL_BARRIER.search(lines[k - 1]):
                    return k
            return None
    return None


def unlisted(source: str) -> List[Tuple[int, str, str]]:
    """Barrier calls of the C code that neither the table nor NOT_MODELLED
    accounts for: (line, function, call)."""
    lines = blank_comments(source).splitlines()
    listed = {(b.function, find(source, b)) for b in BARRIERS}
    out = []
    for name, spans in functions(source).items():
        for start, end in spans:
            for n in range(start, end + 1):
                code = lines[n - 1]
                for m in BARRIER_CALL.finditer(code):
                    if (name, n) in listed or name in NOT_MODELLED or \
                            f'{name}:{m.group(1)}' in NOT_MODELLED:
                        continue
                    if m.group(1) == 'try_cmpxchg' and name not in ('lrb_head_set',
                                                                    'lrb_swap_reader_page'):
                        continue    # not a barrier pair of the algorithm: see below
                    out.append((n, name, m.group(1)))
    return out


def table(source: str, model: str) -> List[str]:
    """The markdown table of docs/model.md."""
    rows = ['| barrier | C function, line | model/lrb.pml | orders | pairs with | mutation | '
            'refuted by |',
            '|---|---|---|---|---|---|---|']
    keys = {b.key: b for b in BARRIERS}
    for b in BARRIERS:
        line = find(source, b)
        pairs = ', '.join(f'`{keys[p].key}` ({keys[p].function}(), {find(source, keys[p])})'
                          for p in b.pairs)
        muts, props = [], []
        unrefuted = {m.name for m, _ in mc.UNREFUTED}
        for name in b.mutations:
            m = mc.by_name(name)
            muts.append(f'`{name}`')
            props.append(f'not refuted (below)' if name in unrefuted else f'`{m.breaks}`')
        rows.append(f'| `{b.key}` | `{b.function}()`, {line} | {model_line(model, b.model)} | '
                    f'{b.what} | {pairs} | '
                    f'{", ".join(muts)} | {", ".join(props)} |')
    return rows


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--source', type=Path, help='the C file (default: from kernel-patch/)')
    args = ap.parse_args(argv)
    source = args.source.read_text() if args.source else source_from_series()
    model = MODEL.read_text()
    missing = [b.key for b in BARRIERS if find(source, b) is None]
    missing += [f'{b.key} (model/lrb.pml)' for b in BARRIERS
                if model_line(model, b.model) is None]
    for line in table(source, model):
        print(line)
    bad = unlisted(source)
    for n, name, call in bad:
        print(f'model_barriers: {C_FILE}:{n}: {call}() in {name}() is in no row of the table',
              file=sys.stderr)
    for key in missing:
        print(f'model_barriers: barrier {key} not found', file=sys.stderr)
    return 1 if missing or bad else 0


if __name__ == '__main__':
    sys.exit(main())
