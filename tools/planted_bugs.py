#!/usr/bin/env python3
"""Planted bugs: does each sanitizer profile catch the bug it is there for?

Each plant is a small edit of lib/lockless_ring_buffer.c in the prepared
kernel tree (a marked store made plain, a barrier removed, a leak on an error
path). It is built and booted under the profile that should catch it, with
the suites that exercise that code, and always taken out again. A plant is
caught when the run is red and the kernel log holds the expected report.

    tools/planted_bugs.py [--list] [NAME ...]      (make planted-bugs)

Exit 0 when every plant expected to be caught was caught; the table also
shows the plants a profile cannot catch by design and why.
"""

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lrb_harness import cli, paths, tree  # noqa: E402
from lrb_harness.errors import HarnessError  # noqa: E402

SOURCE = 'lib/lockless_ring_buffer.c'
KERNEL_RB = 'kernel/trace/ring_buffer.c'


@dataclass(frozen=True)
class Plant:
    name: str
    what: str
    profile: str
    arch: str
    globs: Sequence[str]    # one boot per glob: lrb_leak must share lrb_fault's
    old: str
    new: str
    report: str            # regex the kernel log must hold
    expect_caught: bool = True
    why_not: str = ''
    # KCSAN watches about one access in CONFIG_KCSAN_SKIP_WATCH (4000) for
    # udelay_task (80 us): a race on a pointer stored once a page needs a
    # longer stress than the profile's, and a longer watch
    kernel_args: Sequence[str] = ('lrb_kunit.lrb_stress_ms=3000', 'kcsan.udelay_task=400',
                                  'kcsan.skip_watch=200')
    source: str = SOURCE   # the file of the tree the plant edits
    # further (old, new) edits of the same file, for a bug that spans functions
    more: Sequence[Tuple[str, str]] = ()
    # further regexes the log must each hold: the other read paths and rings
    # where the plant's bad state arises
    also: Sequence[str] = ()


# What stale reads (lrb_set_stale_reads()) make of a missing barrier: the
# reader gets poison instead of the event's bytes
STALE_READ = r'expected seq \d+, got \d+|torn or foreign event'


def failed_case(case: str) -> str:
    """The KUnit report of a failed check in case."""
    return rf'\b{case}: (EXPECTATION|ASSERTION) FAILED'

def kernel_head_moved(name: str, reader: str, case: str) -> Plant:
    """Series patch 1 taken back, against one read path that swaps the head in."""
    return Plant(name,
                 "series patch 1 taken back: the kernel's writer whose new head a nested "
                 f'writer set and {reader} took finds MOVED and calls RB_WARN_ON(), which '
                 'stops recording',
                 'default', 'x86_64', [f'lrb_smp_kernel.{case}'],
                 '\tcase RB_PAGE_NORMAL:\n\tcase RB_PAGE_MOVED:\n\t\t/* OK */\n',
                 '\tcase RB_PAGE_NORMAL:\n\t\t/* OK */\n',
                 failed_case(case), kernel_args=(), source=KERNEL_RB)


# The two halves of the commit index pair, each edit (old, new) removing one
NO_WMB_COMMIT_INDEX = ('\t/* Event data before the index; pairs with lrb_reader_size() */\n'
                       '\tlrb_writer_wmb(commit_page, write);\n'
                       '\tlocal_set(&commit_page->page->commit, index);\n'
                       '\t*pagep = commit_page;\n',
                       '\tlocal_set(&commit_page->page->commit, index);\n'
                       '\t*pagep = commit_page;\n')
NO_RMB_READER_SIZE = ('\t/* Pairs with the smp_wmb() before the commit index store */\n'
                      '\tlrb_reader_rmb(cb);\n\treturn size;\n',
                      '\treturn size;\n')

# kcsan+lockdep+ftrace: the build directory of make test's pass; kcsan@arm64-lse:
# make test-sanitizers'
PLANTS: List[Plant] = [
    Plant('plain_write_stamp_store',
          "the last event's time stamp, which nested writers in interrupts read, "
          'published with a plain store instead of local64_set()',
          'kcsan+lockdep+ftrace', 'x86_64', ['lrb_s*'],
          '\t\tlocal64_set(&cb->write_stamp, ts);\n',
          '\t\t*(u64 *)&cb->write_stamp = ts;\n',
          r'BUG: KCSAN: data-race in \S*lrb_'),
    Plant('no_wmb_before_commit_index',
          "no smp_wmb() between a writer's event data and the commit index that "
          'publishes it',
          'kcsan', 'arm64-lse', ['lrb_s*'],
          *NO_WMB_COMMIT_INDEX,
          STALE_READ, kernel_args=()),
    Plant('reader_size_no_rmb',
          'no smp_rmb() in lrb_reader_size() between the commit index and the '
          'event data the reader then reads',
          'kcsan', 'arm64-lse', ['lrb_s*'],
          *NO_RMB_READER_SIZE,
          STALE_READ, kernel_args=()),
    # The same two barriers on the LR/SC and 32-bit targets (issue 28): TCG
    # runs their guests with the x86 host's ordering, so only the stale-read
    # emulation shows a missing barrier there, as on arm64
    Plant('no_wmb_before_commit_index_riscv64',
          "no smp_wmb() between a writer's event data and the commit index "
          '(riscv64, LR/SC, stale reads)',
          'default', 'riscv64', ['lrb_s*'],
          *NO_WMB_COMMIT_INDEX,
          STALE_READ, kernel_args=()),
    Plant('reader_size_no_rmb_arm',
          'no smp_rmb() in lrb_reader_size() (32-bit ARMv7, LL/SC, stale reads)',
          'default', 'arm', ['lrb_s*'],
          *NO_RMB_READER_SIZE,
          STALE_READ, kernel_args=()),
    Plant('copy_events_commit_reread',
          "lrb_copy_events() copies up to a commit index it read again after "
          "the reader's barrier (a real bug, found by stale reads)",
          'default', 'x86_64', ['lrb_smp'],
          '\tunsigned int bytes;\n\n\tif (!cb->read_pos)\n',
          '\tunsigned int bytes;\n\n\tsize = lrb_page_commit(reader);\n\tif (!cb->read_pos)\n',
          failed_case('read_page_copies_what_it_checked'), kernel_args=()),
    Plant('resize_error_leak',
          "lrb_resize()'s error path forgets the per-CPU page arrays it allocated",
          'kmemleak', 'x86_64', ['lrb_[fl]*'],
          '\tif (pages) {\n\t\tfor_each_possible_cpu(cpu)\n'
          '\t\t\tlrb_free_pages(pages[cpu], nr);\n',
          '\tif (pages && !ret) {\n\t\tfor_each_possible_cpu(cpu)\n'
          '\t\t\tlrb_free_pages(pages[cpu], nr);\n',
          r'unreferenced object|kmemleak: \d+ new suspected memory leaks'),
]


# The reader's synchronisation steps (docs/testing.md, "Synchronisation
# steps"): each removed or reordered, a deterministic case fails every run
SYNC_PLANTS: List[Plant] = [
    Plant('consume_without_reader_lock',
          'lrb_consume() does not take the reader lock: two readers of one CPU run at once',
          'default', 'x86_64', ['lrb_design.two_readers_consume'],
          '\traw_spin_lock_irqsave(&cb->reader_lock, flags);\n\tev = lrb_reader_peek(cb, ts, lost);\n'
          '\tif (ev)\n\t\tlrb_reader_advance(cb, ev);\n\traw_spin_unlock_irqrestore(&cb->reader_lock, flags);\n',
          '\tlocal_irq_save(flags);\n\tev = lrb_reader_peek(cb, ts, lost);\n'
          '\tif (ev)\n\t\tlrb_reader_advance(cb, ev);\n\tlocal_irq_restore(flags);\n',
          failed_case('two_readers_consume'), kernel_args=()),
    Plant('reader_size_before_commit_page',
          "the reader reads its page's commit index before where the commit page is "
          "(kernel/trace/ring_buffer.c's order)",
          'default', 'x86_64', ['lrb_smp'],
          '\tlrb_hook(cb, LRB_HOOK_READER_LOOK);\n\tcommit = READ_ONCE(cb->commit_page);\n'
          '\t/* Pairs with the smp_wmb() before the commit page moves */\n\tlrb_reader_rmb(cb);\n'
          '\tlrb_hook(cb, LRB_HOOK_READER_PAGE);\n\t*size = lrb_reader_size(cb, cb->reader_page);\n',
          '\tlrb_hook(cb, LRB_HOOK_READER_LOOK);\n\t*size = lrb_reader_size(cb, cb->reader_page);\n'
          '\tlrb_hook(cb, LRB_HOOK_READER_PAGE);\n\tcommit = READ_ONCE(cb->commit_page);\n',
          failed_case('reader_loads_commit_page_before_its_index'), kernel_args=()),
    Plant('reader_page_no_rmb',
          'no read barrier between where the commit page is and the reader page\'s commit index',
          'default', 'x86_64', ['lrb_smp'],
          '\tcommit = READ_ONCE(cb->commit_page);\n'
          '\t/* Pairs with the smp_wmb() before the commit page moves */\n\tlrb_reader_rmb(cb);\n'
          '\tlrb_hook(cb, LRB_HOOK_READER_PAGE);\n',
          '\tcommit = READ_ONCE(cb->commit_page);\n\tlrb_hook(cb, LRB_HOOK_READER_PAGE);\n',
          failed_case('reader_index_after_commit_page_barrier'), kernel_args=()),
    Plant('reader_swaps_commit_page',
          'the reader swaps its page back into the ring while the commit is on it',
          'default', 'x86_64', ['lrb_design'],
          '\t\tif (commit == reader)\n\t\t\treturn NULL;\n\t\tif (LRB_WARN_ON(cb, ++swaps > 3)',
          '\t\tif (LRB_WARN_ON(cb, ++swaps > 3)',
          failed_case('reader_meets_last_full_commit'), kernel_args=()),
    Plant('swap_ignores_flags',
          "the swap cmpxchg expects the pointer as it is now, not the HEADER the head search found",
          'default', 'x86_64', ['lrb_smp'],
          '\t\told = (struct list_head *)((unsigned long)&head->list |\n\t\t\t\t\t   LRB_PAGE_HEAD);\n',
          '\t\told = READ_ONCE(prev->list.next);\n',
          failed_case('reader_before_swap_writer_pushes_head'), kernel_args=()),
    Plant('find_head_no_rmb',
          'no read barrier in the head search between the walk and the count of pushes in flight',
          'default', 'x86_64', ['lrb_smp'],
          '\t * follow the count\'s increment and the overrun\'s.\n\t */\n\tlrb_reader_rmb(cb);\n',
          '\t * follow the count\'s increment and the overrun\'s.\n\t */\n',
          failed_case('reader_push_count_behind_barrier'), kernel_args=()),
    Plant('reader_ignores_push_count',
          'the head search takes a HEADER while a push is in flight (the 2009 reader)',
          'default', 'x86_64', ['lrb_smp'],
          '\tif ((val & LRB_FLAG_MASK) == LRB_PAGE_UPDATE ||\n'
          '\t    ((val & LRB_FLAG_MASK) && lrb_reader_pushing(cb))) {\n',
          '\tif ((val & LRB_FLAG_MASK) == LRB_PAGE_UPDATE) {\n',
          failed_case('reader_ignores_nested_header_under_update'), kernel_args=()),
    Plant('swap_loss_not_rechecked',
          "the reader does not count the pushes again when the head went round the ring "
          "between its overrun read and its swap (the late loss report the model found)",
          'default', 'x86_64', ['lrb_smp'],
          '\tif (unlikely(local64_read(&head->resets) != resets))\n'
          '\t\toverwrite = lrb_reader_overrun(cb);\n',
          '',
          failed_case('reader_swap_after_head_went_round'), kernel_args=(),
          also=[failed_case('read_page_swap_after_head_went_round'),
                failed_case('reader_swap_after_head_went_round_recycled')]),
    Plant('reader_compares_version',
          "the reader tells a lap by the head page's 24-bit version, not by its 64-bit "
          'reset count: 2^24 laps while it waits before its swap bring the version back, '
          'and the loss is reported a page late',
          'default', 'x86_64', ['lrb_smp'],
          '\t\tresets = local64_read(&head->resets);\n',
          '\t\tresets = local64_read(&head->write) & LRB_VERSION_MASK;\n',
          failed_case('reader_swap_after_version_came_back'), kernel_args=(),
          also=[failed_case('read_page_swap_after_version_came_back'),
                failed_case('reader_swap_after_version_came_back_recycled')],
          more=[('\tif (unlikely(local64_read(&head->resets) != resets))\n',
                 '\tif (unlikely((local64_read(&head->write) & LRB_VERSION_MASK) != '
                 'resets))\n')]),
    # The kernel's stress runs may settle an unreported gap with a later
    # report (stress_ops.silent_loss: `late`); lrb's may not
    Plant('loss_reported_late',
          "the reader reports one event of each loss a swap late (the kernel's late "
          "report): lrb's stress runs grant no such allowance",
          'default', 'x86_64', ['lrb_stress'],
          '\tcb->lost_events = overwrite - cb->last_overrun;\n'
          '\tcb->last_overrun = overwrite;\n',
          '\tcb->lost_events = overwrite - cb->last_overrun;\n'
          '\tcb->last_overrun = overwrite - !!cb->lost_events;\n'
          '\tcb->lost_events -= !!cb->lost_events;\n',
          r'reported loss and gaps differ by -\d+', kernel_args=()),
    Plant('header_not_rechecked',
          "the reader does not look at the HEADER again after the version read: a lap "
          "begun between its walk and that read goes unseen (the window the model found "
          "after the lap recheck)",
          'default', 'x86_64', ['lrb_smp'],
          '\tif (READ_ONCE(prev->list.next) != old)\n\t\t\tgoto spin;\n',
          '',
          failed_case('reader_header_gone_before_version'), kernel_args=()),
    Plant('commit_prev_not_rechecked',
          "a writer takes the commit page for the reader page on a prev pointer the reader "
          "fixed between its two loads (the stale prev pointer the model found)",
          'default', 'x86_64', ['lrb_smp'],
          '\tif (lrb_list_ptr(READ_ONCE(prev->next)) == &commit_page->list)\n\t\treturn 0;\n'
          "\t/* Pairs with the smp_wmb() before the reader points its page's next */\n"
          '\tsmp_rmb();\n\tif (READ_ONCE(commit_page->list.prev) != prev)\n'
          '\t\treturn -EAGAIN;\n\treturn 1;\n',
          '\treturn lrb_list_ptr(READ_ONCE(prev->next)) != &commit_page->list;\n',
          failed_case('writer_commit_prev_goes_stale'), kernel_args=(),
          more=(('\t\t\t/* A swap since the next page was read: look again */\n'
                 '\t\t\tif (lrb_ptr_flags(tail_page, next_page) ==\n'
                 '\t\t\t    LRB_PAGE_MOVED)\n\t\t\t\tgoto again;\n', ''),)),
    Plant('read_page_handover_no_rmb',
          "lrb_read_page() hands a page over with no read barrier between the commit page "
          "gone and the page's commit index",
          'default', 'x86_64', ['lrb_smp'],
          '\t\t\tlrb_reader_rmb(cb);\n\t\t\tcommit = lrb_reader_commit(cb, reader);\n',
          '\t\t\tcommit = lrb_reader_commit(cb, reader);\n',
          failed_case('read_page_hands_over_what_the_writer_left'), kernel_args=()),
    Plant('read_start_no_wait',
          'lrb_read_start() does not wait for the writers in flight',
          'default', 'x86_64', ['lrb_smp'],
          '\t/* Writers run with preemption disabled: wait for those in flight */\n'
          '\tsynchronize_rcu();\n\n\traw_spin_lock_irqsave(&cb->reader_lock, flags);\n'
          '\tlrb_iter_reset(iter);\n',
          '\n\traw_spin_lock_irqsave(&cb->reader_lock, flags);\n\tlrb_iter_reset(iter);\n',
          failed_case('iterator_waits_for_writer_in_flight'), kernel_args=()),
]

# The writer's check that the tail caught the commit page in the ring, and a
# hook point never reached: the cases built on them fail, not pass quietly
PATH_PLANTS: List[Plant] = [
    Plant('tail_ignores_commit_page',
          'the tail move does not check whether the next page is the commit page',
          'default', 'x86_64', ['lrb_design'],
          '\tif (unlikely(next_page == commit_page)) {\n\t\tlocal_inc(&cb->commit_overrun);\n'
          '\t\tgoto fail;\n\t}\n',
          '',
          failed_case('tail_catches_commit_(overwrite|prodcons)'), kernel_args=()),
    Plant('hook_point_removed',
          'the stale HEADER hook point is gone: the cases that inject there reach nothing',
          'default', 'x86_64', ['lrb_nesting'],
          '\t\t\tlrb_hook(cb, LRB_HOOK_STALE_HEAD);\n',
          '',
          r'no starting state reaches stale_head', kernel_args=()),
]


# Hardening: nothing a reader is handed holds bytes that no writer wrote
# (freed memory, older events); resize counts only pages that held data
HARDENING_PLANTS: List[Plant] = [
    Plant('read_page_no_clear',
          'lrb_read_page() does not clear what follows the events of the page it hands out',
          'default', 'x86_64', ['lrb_api.read_page_hands_out_no_stale_bytes'],
          '\tmemset(&dpage->data[used], 0, room - used);\n',
          '',
          failed_case('read_page_hands_out_no_stale_bytes'), kernel_args=()),
    Plant('resize_counts_empty_pages',
          'lrb_resize() counts the ring pages it drops as lost when the tail is on the '
          'reader page (the test held only on the first pass)',
          'default', 'x86_64', ['lrb_api.resize_*'],
          '\t\tif (tail_on_reader || n - 1 > t) {\n',
          '\t\tif (t == n || n - 1 > t) {\n',
          failed_case('resize_shrink_tail_on_reader_page'), kernel_args=()),
    Plant('ring_pages_not_zeroed',
          'the read pages (lrb_alloc_read_page()) are allocated without __GFP_ZERO',
          'default', 'x86_64', ['lrb_api.read_page_hands_out_no_stale_bytes'],
          '\tpage = alloc_pages_node(cpu_to_node(cpu),\n'
          '\t\t\t\tGFP_KERNEL | __GFP_NOWARN | __GFP_ZERO, 0);\n',
          '\tpage = alloc_pages_node(cpu_to_node(cpu),\n'
          '\t\t\t\tGFP_KERNEL | __GFP_NOWARN, 0);\n',
          failed_case('read_page_hands_out_no_stale_bytes'), kernel_args=()),
    Plant('write_null_data_unchecked',
          'lrb_write() takes a NULL payload and copies from it with the reservation open',
          'default', 'x86_64', ['lrb_api.write_null_data_changes_nothing'],
          '\tif (unlikely(!buffer || !data || !length || length > LRB_MAX_PAYLOAD))\n',
          '\tif (unlikely(!buffer || !length || length > LRB_MAX_PAYLOAD))\n',
          r'BUG: kernel NULL pointer dereference|' + failed_case('write_null_data_changes_nothing'),
          kernel_args=()),
    Plant('foreign_commit_unchecked',
          "lrb_unlock_commit() commits whatever reservation is innermost, even from another "
          "context than its reserve's (an interrupt over the task it interrupted)",
          'default', 'x86_64', ['lrb_irq.commit_from_interrupt_over_task_writer'],
          '\tif (unlikely(!depth || lrb_debug_foreign_commit(cb, depth)))\n',
          '\tif (unlikely(!depth))\n',
          failed_case('commit_from_interrupt_over_task_writer'), kernel_args=()),
    Plant('align8_size_without_length_word',
          "with 8-byte payloads, an event's size leaves out the length word that "
          'puts its payload 8 bytes in: each event overruns the next by 4 bytes',
          'align8', 'x86_64', ['lrb_api'],
          '\tif (length > LRB_MAX_SMALL_DATA || LRB_FORCE_8BYTE)\n\t\tlength += sizeof(u32);\n',
          '\tif (length > LRB_MAX_SMALL_DATA)\n\t\tlength += sizeof(u32);\n',
          failed_case(r'\w+'), kernel_args=()),
    Plant('read_finish_unchecked',
          'lrb_read_finish() answers 0 to an iterator it does not know (without the '
          'look-up it would free it again)',
          'default', 'x86_64', ['lrb_api.read_finish_twice_is_refused'],
          '\tif (!found)\n\t\treturn -EINVAL;\n',
          '\tif (!found)\n\t\treturn 0;\n',
          failed_case('read_finish_twice_is_refused'), kernel_args=()),
    Plant('record_enable_ends_iteration',
          'lrb_record_enable_cpu() undoes the disable an iteration holds',
          'default', 'x86_64', ['lrb_api.record_enable_cpu_keeps_iteration'],
          '\t\tif (!(old & LRB_DISABLED_USER_MASK))\n\t\t\treturn old & (LRB_DISABLED_ITER_MASK |\n'
          '\t\t\t\t      LRB_DISABLED_BROKEN) ? -EBUSY : -EINVAL;\n',
          '\t\tif (!old)\n\t\t\treturn -EINVAL;\n',
          failed_case('record_enable_cpu_keeps_iteration'), kernel_args=()),
    Plant('recursion_unbounded',
          'writers nest 32 deep before the depth guard refuses one',
          'default', 'x86_64', ['lrb_api.recursion_is_refused_and_counted'],
          '\tif (unlikely(depth >= LRB_MAX_NESTING)) {\n',
          '\tif (unlikely(depth >= 4 * LRB_MAX_NESTING)) {\n',
          failed_case('recursion_is_refused_and_counted'), kernel_args=()),
    Plant('alloc_before_memory_check',
          'lrb_alloc() allocates a size the machine does not have available, and only the '
          'allocator says no (or the OOM killer runs)',
          'default', 'x86_64', ['lrb_fault.alloc_beyond_available_memory'],
          '\tif (!lrb_memory_for(nr_pages + 1))\n\t\treturn ERR_PTR(-ENOMEM);\n',
          '',
          failed_case('alloc_beyond_available_memory'), kernel_args=()),
    Plant('count_after_publish',
          'the outermost writer stores the count of committed events after the commit '
          'index: a reader in between consumes an event not yet counted',
          'default', 'x86_64', ['lrb_smp.counters_add_up_while_writer_counts'],
          '\tlrb_count_committed(cb);\n'
          '\t/* Event data before the index; pairs with lrb_reader_size() */\n'
          '\tlrb_writer_wmb(commit_page, write);\n'
          '\tlocal_set(&commit_page->page->commit, index);\n',
          '\t/* Event data before the index; pairs with lrb_reader_size() */\n'
          '\tlrb_writer_wmb(commit_page, write);\n'
          '\tlocal_set(&commit_page->page->commit, index);\n'
          '\tlrb_count_committed(cb);\n',
          failed_case('counters_add_up_while_writer_counts'), kernel_args=()),
    Plant('broken_ring_reader_spins',
          'a reader of a broken ring spins for the UPDATE that no writer will clear',
          'default', 'x86_64', ['lrb_api.broken_ring_stops_recording'],
          '\t\tif (lrb_is_broken(cb))\n\t\t\treturn 0;\n',
          '',
          failed_case('broken_ring_stops_recording'), kernel_args=()),
    Plant('lib_ftrace_instrumented',
          "lrb's object built with ftrace instrumentation (lib/'s Makefile removes it for "
          "lib/): every buffer function gains a call site a tracer callback can run from",
          'ftrace', 'x86_64', ['lrb_ftrace'],
          'obj-$(CONFIG_LOCKLESS_RING_BUFFER) += lockless_ring_buffer.o\n',
          'obj-$(CONFIG_LOCKLESS_RING_BUFFER) += lockless_ring_buffer.o\n'
          'CFLAGS_lockless_ring_buffer.o += $(CC_FLAGS_FTRACE)\n',
          failed_case('buffer_functions_have_no_ftrace_site'), kernel_args=(),
          source='lib/Makefile'),
]

# The Promela model's writer-only mutations (model/, docs/model.md) on the
# real code: lrb_nesting replays the model's counterexample of each
# (lrb_nesting_trails.h), which passes on the real code and fails here


def trail_failed(trail: str) -> str:
    """The KTAP line of a failed nesting_model_trail parameter, or a crash."""
    return rf'not ok \d+ {trail}\b|Oops|BUG: '


MODEL_PLANTS: List[Plant] = [
    Plant('model_tail_reset_no_version',
          'the tail mover resets the next page without bumping its version first (the 2009 ABA)',
          'default', 'x86_64', ['lrb_nesting.nesting_model_trail'],
          '\told_write = local64_add_return(LRB_VERSION_ONE, &next_page->write);\n',
          '\told_write = local64_read(&next_page->write);\n',
          trail_failed('tail_reset_no_version_1'), kernel_args=()),
    Plant('model_version_wrap',
          'a one-bit version: the tail mover toggles the bit instead of adding one, so '
          'two nested bumps bring it back (the model\'s narrow-version ABA)',
          'default', 'x86_64', ['lrb_nesting.nesting_model_trail'],
          '\told_write = local64_add_return(LRB_VERSION_ONE, &next_page->write);\n',
          '\told_write = local64_read(&next_page->write) ^ LRB_VERSION_ONE;\n'
          '\tlocal64_set(&next_page->write, old_write);\n',
          trail_failed('version_wrap_1'), kernel_args=()),
    Plant('model_nested_commit',
          'a nested writer moves the commit',
          'default', 'x86_64', ['lrb_nesting.nesting_model_trail'],
          '\t\tif (depth != 1) {\n\t\t\t/* Nested: the outermost writer commits for us */\n'
          '\t\t\tlocal_set(&cb->committing, depth - 1);\n',
          '\t\tif (depth != 1) {\n\t\t\t/* Nested: the outermost writer commits for us */\n'
          '\t\t\tlrb_set_commit_to_write(cb, &page);\n'
          '\t\t\tlocal_set(&cb->committing, depth - 1);\n',
          trail_failed('nested_commit_1'), kernel_args=()),
    Plant('model_no_stale_reset',
          'the first writer does not reset the HEADER it set when the tail moved past it',
          'default', 'x86_64', ['lrb_nesting.nesting_model_trail'],
          '\t\t\tlrb_hook(cb, LRB_HOOK_STALE_HEAD);\n\t\t\tlrb_head_set(next_page, new_head, '
          'LRB_PAGE_HEAD,\n\t\t\t\t     LRB_PAGE_NORMAL);\n',
          '\t\t\tlrb_hook(cb, LRB_HOOK_STALE_HEAD);\n',
          trail_failed('no_stale_reset_1'), kernel_args=()),
    Plant('model_no_end_recheck',
          'the outermost writer leaves lrb_end_commit() without looking for a writer that '
          'came in after it read the write index',
          'default', 'x86_64', ['lrb_nesting.nesting_model_trail'],
          '\t\tif (likely(READ_ONCE(cb->tail_page) == page &&\n'
          '\t\t\t   lrb_index(&page->write) == index))\n\t\t\tbreak;\n',
          '\t\tbreak;\n',
          trail_failed('no_end_recheck_1'), kernel_args=()),
    Plant('model_no_tail_recheck',
          'lrb_tail_page_update() resets the next page even when a nested writer moved the '
          'tail since',
          'default', 'x86_64', ['lrb_nesting.nesting_model_trail'],
          '\tbarrier();\n\tif (tail_page != READ_ONCE(cb->tail_page))\n\t\treturn;\n\n'
          '\tlrb_hook(cb, LRB_HOOK_TAIL_RESET);\n',
          '\tbarrier();\n\tlrb_hook(cb, LRB_HOOK_TAIL_RESET);\n',
          trail_failed('no_tail_recheck_1'), kernel_args=()),
    Plant('model_no_next_commit_check',
          'lrb_move_tail() moves on when the next page is the commit page (nested writers '
          'went all the way round)',
          'default', 'x86_64', ['lrb_nesting.nesting_model_trail'],
          '\tif (unlikely(next_page == commit_page)) {\n\t\tlocal_inc(&cb->commit_overrun);\n'
          '\t\tgoto fail;\n\t}\n',
          '',
          trail_failed('no_next_commit_check_1'), kernel_args=()),
]

# The kernel's buffer (series patches 2 and 3's hook points): a change of the kernel
# that a case pinning its behaviour must notice
KERNEL_PLANTS: List[Plant] = [
    Plant('kernel_reader_order_fixed',
          "the kernel's reader reads commit_page before its page's size, behind a read "
          'barrier (the reader half of the fix in docs/upstream/): the case that asserts '
          'the race must find no loss',
          'default', 'x86_64', ['lrb_smp_kernel.reader_between_loads_outer_writer_commits'],
          '\trb_hook(cpu_buffer, RB_HOOK_READER_LOOK);\n'
          '\treader = cpu_buffer->reader_page;\n'
          '\n'
          '\t/* If there\'s more to read, return this page */\n',
          '\trb_hook(cpu_buffer, RB_HOOK_READER_LOOK);\n'
          '\treader = cpu_buffer->reader_page;\n'
          '\tif (READ_ONCE(cpu_buffer->commit_page) == reader) {\n'
          '\t\tsmp_rmb();\n'
          '\t\tif (reader->read >= rb_page_size(reader)) {\n'
          '\t\t\treader = NULL;\n'
          '\t\t\tgoto out;\n'
          '\t\t}\n'
          '\t}\n'
          '\n'
          '\t/* If there\'s more to read, return this page */\n',
          failed_case('reader_between_loads_outer_writer_commits'), kernel_args=(),
          source=KERNEL_RB),
    kernel_head_moved('kernel_head_moved_warns', 'a consuming reader',
                      'reader_takes_header_set_under_outer_new_head'),
    kernel_head_moved('kernel_head_moved_warns_read_page', 'a page read',
                      'read_page_takes_header_set_under_outer_new_head'),
    Plant('kernel_hook_point_removed',
          "the kernel's reader_size hook point is gone: the trace misses a step and the "
          'race case never pauses its reader',
          'default', 'x86_64', ['lrb_kernel_rb.hooks_trace_a_write_and_a_swap',
                                'lrb_smp_kernel.reader_between_loads_outer_writer_commits'],
          '\trb_hook(cpu_buffer, RB_HOOK_READER_SIZE);\n\n\t/* check if we caught up to the tail */\n',
          '\t/* check if we caught up to the tail */\n',
          failed_case('(hooks_trace_a_write_and_a_swap|reader_between_loads_outer_writer_commits)'),
          kernel_args=(), source=KERNEL_RB),
    Plant('kernel_snapshot_no_flags',
          "the kernel's ring inspector drops the flag bits of the next pointers",
          'default', 'x86_64', ['lrb_kernel_rb.inspector_draws_a_kernel_ring'],
          '\t\tsp->next_flags = (unsigned long)next & RB_FLAG_MASK;\n',
          '\t\tsp->next_flags = 0;\n',
          failed_case('inspector_draws_a_kernel_ring'), kernel_args=(), source=KERNEL_RB),
    Plant('kernel_nested_clears_update',
          "a writer nested in the kernel's head push turns the outer writer's UPDATE back "
          'to NORMAL (design document lines 765-803: only the writer that set UPDATE may)',
          'default', 'x86_64', ['lrb_design_kernel.nested_head_push', 'lrb_nesting_kernel',
                                'lrb_irq_kernel'],
          '\tif (type == RB_PAGE_HEAD) {\n\t\trb_hook(cpu_buffer, RB_HOOK_HEAD_NORMAL_BEFORE);\n',
          '\tif (type == RB_PAGE_HEAD || type == RB_PAGE_UPDATE) {\n'
          '\t\trb_hook(cpu_buffer, RB_HOOK_HEAD_NORMAL_BEFORE);\n',
          failed_case('(nested_head_push|nesting_interleavings|irq_at_hook_points)'),
          kernel_args=('lrb_kunit.lrb_nesting_depth=2',), source=KERNEL_RB),
    Plant('kernel_reader_takes_update',
          "the kernel's reader swaps the head page out whether the pointer to it says "
          'HEADER or UPDATE (design document lines 483-486: UPDATE keeps readers off)',
          'default', 'x86_64', ['lrb_smp_kernel', 'lrb_design_kernel'],
          '\tval = *ptr & ~RB_FLAG_MASK;\n\tval |= RB_PAGE_HEAD;\n',
          '\tval = *ptr & ~RB_FLAG_MASK;\n\tval |= *ptr & RB_FLAG_MASK;\n',
          failed_case('writer_holds_update_reader_spins'), kernel_args=(),
          source=KERNEL_RB),
    Plant('kernel_tail_ignores_commit',
          "the kernel's tail move does not stop at the commit page (design document lines "
          '314-317): nested writers overwrite what the interrupted writer has not committed',
          'default', 'x86_64', ['lrb_design_kernel.tail_catches_commit_*'],
          '\tif (unlikely(next_page == commit_page)) {\n',
          '\tif (unlikely(false && next_page == commit_page)) {\n',
          failed_case('tail_catches_commit_(overwrite|prodcons)'), kernel_args=(),
          source=KERNEL_RB),
]

# lrb_reset_cpu() from its disable to its enable, as the library has it
RESET_CPU_BODY = ('\tatomic_or(LRB_DISABLED_RESET, &cb->record_disabled);\n\tsynchronize_rcu();\n'
                  '\tlrb_hook(cb, LRB_HOOK_RESET);\n'
                  '\t/* After the grace period: a writer in flight may have broken it */\n'
                  '\tif (lrb_is_broken(cb))\n\t\tret = -EIO;\n\telse\n\t\tlrb_reset_cpu_locked(cb);\n'
                  '\tatomic_andnot(LRB_DISABLED_RESET, &cb->record_disabled);\n')

# Contracts (issue 25): each plant puts back the code before its fix
CONTRACT_PLANTS: List[Plant] = [
    Plant('reader_waits_for_interrupted_writer',
          'a reader in an interrupt over a writer of its own CPU that is pushing the head '
          'spins, with interrupts off, for the writer that cannot go on before it returns',
          'default', 'x86_64', ['lrb_contract', 'lrb_irq.reader_in_interrupt_over_pushing_writer'],
          '\t\tif (lrb_reader_over_writer(cb) ||\n\t\t    (deadline && ',
          '\t\tif ((deadline && ',
          r'waited for the writer it interrupted|looked for the head \d+ times', kernel_args=()),
    Plant('reader_timeout_breaks_ring',
          'a reader that waited its patience for a head push marks the ring broken: a slow '
          'writer on another CPU (a preempted vCPU) stops recording on its CPU for good',
          'default', 'x86_64', ['lrb_smp.slow_writer_costs_a_busy_read'],
          '\t\tif (lrb_reader_over_writer(cb) ||\n\t\t    (deadline && ktime_get_mono_fast_ns() > deadline) ||\n'
          '\t\t    ++spins > lrb_patience_ns(cb)) {\n',
          '\t\tif (deadline && LRB_WARN_ON(cb, ktime_get_mono_fast_ns() > deadline))\n\t\t\treturn 0;\n'
          '\t\tif (lrb_reader_over_writer(cb) || ++spins > lrb_patience_ns(cb)) {\n',
          failed_case('slow_writer_costs_a_busy_read'), kernel_args=()),
    Plant('round_up_not_cleared',
          'the bytes that round a payload up to its unit keep what the page held before',
          'default', 'x86_64', ['lrb_api.no_old_byte_reaches_a_reader'],
          '\tlrb_clear_round_up((unsigned char *)ev, size);\n',
          '',
          r'old bytes in the round-up', kernel_args=()),
    Plant('handed_over_page_untrimmed',
          'a page handed over whole keeps its end padding, whose body holds old bytes',
          'default', 'x86_64', ['lrb_api.no_old_byte_reaches_a_reader'],
          '\t\t\tcommit = lrb_seal_page(cb, dpage, commit);\n',
          '\t\t\tlrb_seal_page(cb, dpage, commit);\n',
          r'the page is not trimmed to its events', kernel_args=()),
    Plant('iters_lock_irqs_on',
          'lrb_read_start() takes the live-iterator lock with interrupts on, which '
          'lrb_read_finish() may take in a hardirq',
          'kcsan+lockdep+ftrace', 'x86_64', ['lrb_contract'],
          '\traw_spin_lock_irqsave(&lrb_iters_lock, flags);\n\tlist_add(&iter->node, &lrb_iters);\n'
          '\traw_spin_unlock_irqrestore(&lrb_iters_lock, flags);\n',
          '\traw_spin_lock(&lrb_iters_lock);\n\tlist_add(&iter->node, &lrb_iters);\n'
          '\traw_spin_unlock(&lrb_iters_lock);\n',
          r'inconsistent \{(SOFT|HARD)IRQ-ON-W\} -> \{IN-(SOFT|HARD)IRQ-W\} usage',
          kernel_args=()),
    Plant('reset_shares_user_disable',
          "lrb_reset_cpu() keeps writers out with the callers' disable count, which an "
          'unbalanced lrb_record_enable_cpu() undoes while the ring is rebuilt',
          'default', 'x86_64', ['lrb_contract'],
          RESET_CPU_BODY,
          RESET_CPU_BODY.replace('\tatomic_or(LRB_DISABLED_RESET, &cb->record_disabled);\n',
                                 '\tatomic_inc(&cb->record_disabled);\n')
          .replace('\tatomic_andnot(LRB_DISABLED_RESET, &cb->record_disabled);\n',
                   '\tatomic_dec(&cb->record_disabled);\n'),
          r'lrb_record_enable_cpu in \w+, state reset', kernel_args=()),
    Plant('reset_rebuilds_broken_ring',
          'lrb_reset_cpu() relinks a broken ring and lets writers in again: the state that '
          'broke is lost, and lrb_reset_cpu() returns 0',
          'default', 'x86_64', ['lrb_api.broken_ring_stops_recording', 'lrb_contract'],
          '\tif (lrb_is_broken(cb))\n\t\tret = -EIO;\n\telse\n\t\tlrb_reset_cpu_locked(cb);\n',
          '\tlrb_reset_cpu_locked(cb);\n\tatomic_andnot(LRB_DISABLED_BROKEN, &cb->record_disabled);\n',
          failed_case('broken_ring_stops_recording'), kernel_args=()),
    Plant('resize_of_broken_ring',
          'lrb_resize() does not look for a broken ring first: it resizes the other CPUs '
          'and reports the size it did not reach',
          'default', 'x86_64', ['lrb_api.resize_of_broken_ring_refused'],
          '\tret = -EIO;\n\tfor_each_possible_cpu(cpu)\n\t\tif (lrb_is_broken(buffer->buffers[cpu]))\n'
          '\t\t\tgoto enable;\n',
          '',
          failed_case('resize_of_broken_ring_refused'), kernel_args=()),
    Plant('iterator_count_unbounded',
          'lrb_read_start() takes any number of iterators: the count carries into the bits '
          'above it',
          'default', 'x86_64', ['lrb_api.iterators_per_cpu_are_bounded'],
          '\t\tif ((old & LRB_DISABLED_ITER_MASK) == LRB_DISABLED_ITER_MASK) {\n',
          '\t\tif (false) {\n',
          failed_case('iterators_per_cpu_are_bounded'), kernel_args=()),
    Plant('clamp_only_when_time_known',
          'a writer clamps its time only when the time state is known: after a reservation '
          'that ran past the end of its page, the next page starts from the raw clock, '
          'behind the event before it, and the events after it carry deltas from there',
          'default', 'x86_64', ['lrb_api.clock_back_clamped_at_page_starts'],
          '\tif (unlikely(ts < after))\n\t\tts = after;\n',
          '\tif (seq == done && ts < after)\n\t\tts = after;\n',
          failed_case('clock_back_clamped_at_page_starts'), kernel_args=()),
    Plant('delta_cut_in_extend',
          'a time delta of 2^59 or more goes into a time extend, which cuts it',
          'default', 'x86_64', ['lrb_api.clock_jump_beyond_extend_is_exact'],
          '\t\t\tif (unlikely(delta > LRB_TS_ABS_MASK))\n\t\t\t\tsize = LRB_CAPACITY + 1;\n',
          '',
          failed_case('clock_jump_beyond_extend_is_exact'), kernel_args=()),
    Plant('reader_abs_stamp_unclamped',
          "the consuming reader takes an absolute stamp below the time it read last as it is",
          'default', 'x86_64', ['lrb_api.nested_clock_back_read_clamped'],
          '\t\t\tcb->read_stamp = max(cb->read_stamp,\n'
          '\t\t\t\t\t     lrb_abs_stamp(ev, reader->page->time_stamp));\n'
          '\t\t\tcb->read_pos += LRB_LEN_STAMP;\n',
          '\t\t\tcb->read_stamp = lrb_abs_stamp(ev, reader->page->time_stamp);\n'
          '\t\t\tcb->read_pos += LRB_LEN_STAMP;\n',
          failed_case('nested_clock_back_read_clamped'), kernel_args=()),
]

ALL_PLANTS: List[Plant] = (PLANTS + SYNC_PLANTS + PATH_PLANTS + HARDENING_PLANTS +
                            CONTRACT_PLANTS + MODEL_PLANTS + KERNEL_PLANTS)

@dataclass
class Outcome:
    plant: Plant
    red: bool
    report: str            # the first matching log line, or ''
    missing: Sequence[str] = ()  # the plant's `also` the log does not hold

    @property
    def caught(self) -> bool:
        return self.red and bool(self.report) and not self.missing

    @property
    def as_expected(self) -> bool:
        return self.caught == self.plant.expect_caught


def planted(text: str, plant: Plant) -> str:
    for old, new in [(plant.old, plant.new), *plant.more]:
        if text.count(old) != 1:
            raise HarnessError(f'plant {plant.name}: its source text is not found exactly '
                               f'once in {plant.source} (the implementation changed: update '
                               f'the plant)')
        text = text.replace(old, new)
    return text


def first_report(logs: Sequence[Path], pattern: str) -> str:
    regex = re.compile(pattern)
    for log in logs:
        for line in log.read_text(errors='replace').splitlines():
            if regex.search(line):
                return line.strip()
    return ''


def run_plant(ctx: cli.Context, prep: tree.Prepared, plant: Plant, jobs: int) -> Outcome:
    source = prep.tree / plant.source
    original = source.read_text()
    targets, profile = cli.select(ctx, [plant.arch], plant.profile)
    profile.kernel_args += list(plant.kernel_args)
    cli.say(f'== {plant.name}: {plant.what} ({plant.profile} on {plant.arch}) ==')
    source.write_text(planted(original, plant))
    try:
        res = cli.run_targets(ctx, prep, targets, profile, list(plant.globs), jobs)
    finally:
        source.write_text(original)
    red = not cli.targets_ok(res.boots, targets)
    logs = [Path(b.log_path) for b in res.boots if b.log_path]
    found = [p for p in logs if p.is_file()]
    return Outcome(plant, red, first_report(found, plant.report),
                   [pat for pat in plant.also if not first_report(found, pat)])


def print_outcomes(outcomes: Sequence[Outcome]) -> None:
    cli.plain('')
    cli.plain(f'{"plant":<28} {"profile":<14} {"arch":<10} {"run":<5} {"caught":<7} expected')
    for out in outcomes:
        p = out.plant
        cli.plain(f'{p.name:<28} {p.profile:<14} {p.arch:<10} {"red" if out.red else "green":<5} '
                  f'{"yes" if out.caught else "no":<7} '
                  f'{"yes" if p.expect_caught else "no"}{"" if out.as_expected else "  <- WRONG"}')
        if out.report:
            cli.plain(f'    report: {out.report}')
        for pat in out.missing:
            cli.plain(f'    not in the log: {pat}')
        if not p.expect_caught:
            cli.plain(f'    not catchable: {p.why_not}')


def select_plants(names: Sequence[str]) -> List[Plant]:
    known = {p.name: p for p in ALL_PLANTS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise HarnessError(f'unknown plant {", ".join(unknown)}; valid: {", ".join(known)}')
    # A name given twice runs once, where it first came
    return [known[n] for n in dict.fromkeys(names)] if names else list(ALL_PLANTS)


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--list', action='store_true', help='list the plants, run nothing')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('names', nargs='*', metavar='NAME')
    args = ap.parse_args(argv)
    try:
        plants = select_plants(args.names)
        if args.list:
            for p in plants:
                cli.plain(f'{p.name:<28} {p.profile}@{p.arch}: {p.what}')
            return 0
        ctx = cli.Context(repo=paths.repo_root())
        prep = cli.prepare(ctx)
        for p in plants:
            planted((prep.tree / p.source).read_text(), p)  # all apply, before any build
        outcomes = [run_plant(ctx, prep, p, args.jobs) for p in plants]
    except HarnessError as exc:
        print(f'error: {exc.message}', file=sys.stderr)
        return exc.code
    print_outcomes(outcomes)
    return 0 if all(o.as_expected for o in outcomes) else 1


if __name__ == '__main__':
    sys.exit(main())
