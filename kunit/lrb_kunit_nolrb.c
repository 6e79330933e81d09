// SPDX-License-Identifier: GPL-2.0
/*
 * What the suites take from lrb when it is not built (32-bit kernels, or
 * lrb without LRB_TEST_HOOKS): the names of its hook points, which name the
 * steps of every implementation (lrb_kunit_impl.h) in the suites' logs and
 * parameter names. The table is lib/lockless_ring_buffer.c's, copied:
 * `make unit-tests` compares the two.
 */

#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/lockless_ring_buffer_test.h>

static const char * const lrb_hook_names[LRB_HOOK_NR] = {
	[LRB_HOOK_STAMP]		= "stamp",
	[LRB_HOOK_RESERVED]		= "reserved",
	[LRB_HOOK_MOVE_TAIL]		= "move_tail",
	[LRB_HOOK_COMMIT_PREV]		= "commit_prev",
	[LRB_HOOK_HEAD_UPDATE_BEFORE]	= "head_update_before",
	[LRB_HOOK_HEAD_UPDATE_AFTER]	= "head_update_after",
	[LRB_HOOK_NEW_HEAD_BEFORE]	= "new_head_before",
	[LRB_HOOK_NEW_HEAD_AFTER]	= "new_head_after",
	[LRB_HOOK_STALE_HEAD]		= "stale_head",
	[LRB_HOOK_HEAD_NORMAL_BEFORE]	= "head_normal_before",
	[LRB_HOOK_TAIL_RESET]		= "tail_reset",
	[LRB_HOOK_TAIL_BEFORE]		= "tail_before",
	[LRB_HOOK_TAIL_AFTER]		= "tail_after",
	[LRB_HOOK_COMMIT_BEFORE]	= "commit_before",
	[LRB_HOOK_COMMIT_AFTER]		= "commit_after",
	[LRB_HOOK_READER_LOOK]		= "reader_look",
	[LRB_HOOK_READER_PAGE]		= "reader_page",
	[LRB_HOOK_READER_EVENTS]	= "reader_events",
	[LRB_HOOK_READER_FIND]		= "reader_find",
	[LRB_HOOK_READER_HEAD_FOUND]	= "reader_head_found",
	[LRB_HOOK_READER_BEFORE_SWAP]	= "reader_before_swap",
	[LRB_HOOK_READER_SWAP_FAILED]	= "reader_swap_failed",
	[LRB_HOOK_READER_SPIN]		= "reader_spin",
	[LRB_HOOK_READER_AFTER_SWAP]	= "reader_after_swap",
	[LRB_HOOK_READER_DONE]		= "reader_done",
	[LRB_HOOK_READER_BUSY]		= "reader_busy",
	[LRB_HOOK_RESET]		= "reset",
	[LRB_HOOK_RESIZE]		= "resize",
};

static_assert(ARRAY_SIZE(lrb_hook_names) == LRB_HOOK_NR);

/**
 * lrb_hook_name - name of a hook point, as lib/lockless_ring_buffer.c has it
 * @point: the point
 *
 * Context: any context.
 *
 * Return: a short name, "?" for an unknown point.
 */
const char *lrb_hook_name(enum lrb_hook_point point)
{
	if ((unsigned int)point >= LRB_HOOK_NR)
		return "?";
	return lrb_hook_names[point];
}
