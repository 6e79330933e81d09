// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's row of the implementation table (lrb_kunit_impl.h): the
 * tracing ring buffer of kernel/trace/ring_buffer.c, with the hook points
 * of series patches 1 and 2 and the inspector of patch 2
 * (CONFIG_RING_BUFFER_TEST_HOOKS, kernel/trace/ring_buffer_test.h).
 *
 * A buffer of this row is a struct impl_krb: the kernel's buffer, the hook
 * installed on it and room for one snapshot, because hook points may not
 * allocate. The kernel names its hook points as lrb does; the three steps
 * lrb has no name for are not passed on (the iterator's size check among
 * them: lrb's iterator runs with recording off). Its reader's size check comes
 * where lrb's reader is between the same two loads, in the other order
 * (LRB_HOOK_READER_PAGE).
 */

#include <linux/err.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/ring_buffer.h>
#include <linux/slab.h>

#include "ring_buffer_test.h"
#include "lrb_kunit.h"
#include "lrb_kunit_impl.h"

/* The hooks' functions are exported to KUnit tests only */
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The kernel under test carries the fix of docs/upstream/ (make
 * kernel-fix): the cases expect no loss from the reader-page race.
 */
static bool krb_fixed;
module_param(krb_fixed, bool, 0444);
MODULE_PARM_DESC(krb_fixed, "the kernel's reader-page race is fixed: expect no loss");

/**
 * lrb_kunit_krb_fixed - whether the kernel carries the race fix
 *
 * Return: the value of lrb_kunit.krb_fixed, which make kernel-fix sets.
 */
bool lrb_kunit_krb_fixed(void)
{
	return krb_fixed;
}

struct impl_krb {
	struct trace_buffer	*b;
	struct lrb_kunit_hook	*hook;
	struct rb_test_snapshot	ks;
};

static const enum lrb_hook_point impl_krb_points[RB_HOOK_NR] = {
	[RB_HOOK_ITER_SIZE] = LRB_HOOK_NR,
	[RB_HOOK_STAMP] = LRB_HOOK_STAMP,
	[RB_HOOK_RESERVED] = LRB_HOOK_RESERVED,
	[RB_HOOK_STAMP_AFTER] = LRB_HOOK_NR,
	[RB_HOOK_STAMP_SLOW] = LRB_HOOK_NR,
	[RB_HOOK_MOVE_TAIL] = LRB_HOOK_MOVE_TAIL,
	[RB_HOOK_HEAD_UPDATE_BEFORE] = LRB_HOOK_HEAD_UPDATE_BEFORE,
	[RB_HOOK_HEAD_UPDATE_AFTER] = LRB_HOOK_HEAD_UPDATE_AFTER,
	[RB_HOOK_NEW_HEAD_BEFORE] = LRB_HOOK_NEW_HEAD_BEFORE,
	[RB_HOOK_NEW_HEAD_AFTER] = LRB_HOOK_NEW_HEAD_AFTER,
	[RB_HOOK_STALE_HEAD] = LRB_HOOK_STALE_HEAD,
	[RB_HOOK_HEAD_NORMAL_BEFORE] = LRB_HOOK_HEAD_NORMAL_BEFORE,
	[RB_HOOK_TAIL_RESET] = LRB_HOOK_TAIL_RESET,
	[RB_HOOK_TAIL_BEFORE] = LRB_HOOK_TAIL_BEFORE,
	[RB_HOOK_TAIL_AFTER] = LRB_HOOK_TAIL_AFTER,
	[RB_HOOK_COMMIT_BEFORE] = LRB_HOOK_COMMIT_BEFORE,
	[RB_HOOK_COMMIT_AFTER] = LRB_HOOK_COMMIT_AFTER,
	[RB_HOOK_READER_LOOK] = LRB_HOOK_READER_LOOK,
	[RB_HOOK_READER_EVENTS] = LRB_HOOK_READER_EVENTS,
	[RB_HOOK_READER_SIZE] = LRB_HOOK_READER_PAGE,
	[RB_HOOK_READER_FIND] = LRB_HOOK_READER_FIND,
	[RB_HOOK_READER_HEAD_FOUND] = LRB_HOOK_READER_HEAD_FOUND,
	[RB_HOOK_READER_BEFORE_SWAP] = LRB_HOOK_READER_BEFORE_SWAP,
	[RB_HOOK_READER_SWAP_FAILED] = LRB_HOOK_READER_SWAP_FAILED,
	[RB_HOOK_READER_SPIN] = LRB_HOOK_READER_SPIN,
	[RB_HOOK_READER_AFTER_SWAP] = LRB_HOOK_READER_AFTER_SWAP,
	[RB_HOOK_READER_DONE] = LRB_HOOK_READER_DONE,
};

static void *impl_krb_alloc(unsigned long size, bool overwrite)
{
	struct impl_krb *k = kzalloc(sizeof(*k), GFP_KERNEL);

	if (!k)
		return NULL;
	k->b = ring_buffer_alloc(size, overwrite ? RB_FL_OVERWRITE : 0);
	if (!k->b) {
		kfree(k);
		return NULL;
	}
	return k;
}

static void impl_krb_free(void *buf)
{
	struct impl_krb *k = buf;

	ring_buffer_free(k->b);
	kfree(k);
}

static void impl_krb_hook(struct trace_buffer *b, int cpu,
			  enum rb_hook_point point, void *data)
{
	struct impl_krb *k = data;
	enum lrb_hook_point p = impl_krb_points[point];

	if (p != LRB_HOOK_NR)
		k->hook->fn(k, cpu, p, k->hook->data);
}

static int impl_krb_set_hook(void *buf, struct lrb_kunit_hook *hook)
{
	struct impl_krb *k = buf;
	int ret;

	if (!hook) {
		ret = ring_buffer_set_test_hook(k->b, NULL, NULL);
		k->hook = NULL;
		return ret;
	}
	hook->buf = buf;
	k->hook = hook;
	return ring_buffer_set_test_hook(k->b, impl_krb_hook, k);
}

static void impl_krb_set_clock(void *buf, u64 (*clock)(void))
{
	struct impl_krb *k = buf;

	ring_buffer_set_clock(k->b, clock);
}

static void *impl_krb_reserve(void *buf, unsigned int len)
{
	struct impl_krb *k = buf;

	return ring_buffer_lock_reserve(k->b, len);
}

static void impl_krb_commit(void *buf, void *ev)
{
	struct impl_krb *k = buf;

	ring_buffer_unlock_commit(k->b);
}

static void *impl_krb_event_data(void *ev)
{
	return ring_buffer_event_data(ev);
}

static unsigned int impl_krb_event_length(void *ev)
{
	return ring_buffer_event_length(ev);
}

/*
 * rb_calculate_event_length(), then ring_buffer_event_length(): a 12-byte
 * event is grown to 16 so that a time extend can replace it, and its
 * payload is then reported as 12 bytes.
 */
static unsigned int impl_krb_payload_length(unsigned int len)
{
	/* RB_FORCE_8BYTE_ALIGNMENT: every data event carries array[0] */
	const bool force8 = IS_ENABLED(CONFIG_HAVE_64BIT_ALIGNED_ACCESS);
	unsigned int ev = len ? len : 1;

	if (ev > 4 * LRB_TYPE_DATA_TYPE_LEN_MAX || force8)
		ev += 4;
	ev = ALIGN(ev + 4, force8 ? 8 : 4);
	if (ev == 12)
		ev += 4;
	ev -= 4;
	return ev > 4 * LRB_TYPE_DATA_TYPE_LEN_MAX + 4 || force8 ? ev - 4 : ev;
}

static void *impl_krb_consume(void *buf, int cpu, u64 *ts, unsigned long *lost)
{
	struct impl_krb *k = buf;

	return ring_buffer_consume(k->b, cpu, ts, lost);
}

static void *impl_krb_peek(void *buf, int cpu)
{
	struct impl_krb *k = buf;

	return ring_buffer_peek(k->b, cpu, NULL, NULL);
}

static bool impl_krb_empty_cpu(void *buf, int cpu)
{
	struct impl_krb *k = buf;

	return ring_buffer_empty_cpu(k->b, cpu);
}

static int impl_krb_stats(void *buf, int cpu, struct lrb_stats *st)
{
	struct impl_krb *k = buf;

	return lrb_kunit_krb_stats(k->b, cpu, st);
}

static int impl_krb_snapshot(void *buf, int cpu, struct lrb_snapshot *snap)
{
	struct impl_krb *k = buf;
	int ret = ring_buffer_test_snapshot(k->b, cpu, &k->ks);

	if (!ret)
		lrb_kunit_krb_convert(&k->ks, snap);
	return ret;
}

static void *impl_krb_read_start(void *buf, int cpu)
{
	struct impl_krb *k = buf;

	return ring_buffer_read_start(k->b, cpu, GFP_KERNEL);
}

static void *impl_krb_iter_peek(void *iter)
{
	return ring_buffer_iter_peek(iter, NULL);
}

static void impl_krb_iter_advance(void *iter)
{
	ring_buffer_iter_advance(iter);
}

static bool impl_krb_iter_dropped(void *iter)
{
	return ring_buffer_iter_dropped(iter);
}

static void impl_krb_read_finish(void *iter)
{
	ring_buffer_read_finish(iter);
}

static void *impl_krb_alloc_read_page(void *buf, int cpu)
{
	struct impl_krb *k = buf;
	struct buffer_data_read_page *rpage = NULL;

	if (ring_buffer_alloc_read_page(k->b, cpu, &rpage)) {
		if (rpage)
			ring_buffer_free_read_page(k->b, cpu, rpage);
		return NULL;
	}
	return rpage;
}

/*
 * ring_buffer_read_page() returns where the data starts (always 0 in 6.12:
 * it swaps only unread pages and copies to the start), not its length,
 * which is the page's commit without the missed-events flags (lrb's bits).
 */
static int impl_krb_read_page(void *buf, void **page, int cpu,
			      struct lrb_data_page **data)
{
	struct impl_krb *k = buf;
	int ret;

	ret = ring_buffer_read_page(k->b, *page, PAGE_SIZE, cpu, 0);
	if (ret < 0)
		return 0;
	*data = ring_buffer_read_page_data(*page);
	return (local_read(&(*data)->commit) & ~LRB_MISSED_FLAGS) - ret;
}

static void impl_krb_free_read_page(void *buf, int cpu, void *page)
{
	struct impl_krb *k = buf;

	if (page)
		ring_buffer_free_read_page(k->b, cpu, page);
}

/**
 * lrb_kunit_krb_buffer - the kernel's buffer behind a buffer of this row
 * @buf: a buffer the row's alloc returned
 *
 * Return: its struct trace_buffer.
 */
struct trace_buffer *lrb_kunit_krb_buffer(void *buf)
{
	struct impl_krb *k = buf;

	return k->b;
}

static bool impl_krb_reader_contended(void *buf, int cpu)
{
	struct impl_krb *k = buf;

	return ring_buffer_test_reader_contended(k->b, cpu);
}

const struct lrb_kunit_impl lrb_kunit_impl_kernel = {
	.name = "kernel",
	.api = "ring_buffer",
	.alloc = impl_krb_alloc,
	.free = impl_krb_free,
	.set_hook = impl_krb_set_hook,
	.set_clock = impl_krb_set_clock,
	.reserve = impl_krb_reserve,
	.commit = impl_krb_commit,
	.event_data = impl_krb_event_data,
	.event_length = impl_krb_event_length,
	.payload_length = impl_krb_payload_length,
	.consume = impl_krb_consume,
	.peek = impl_krb_peek,
	.empty_cpu = impl_krb_empty_cpu,
	.stats = impl_krb_stats,
	.snapshot = impl_krb_snapshot,
	.read_start = impl_krb_read_start,
	.iter_peek = impl_krb_iter_peek,
	.iter_advance = impl_krb_iter_advance,
	.iter_dropped = impl_krb_iter_dropped,
	.read_finish = impl_krb_read_finish,
	.alloc_read_page = impl_krb_alloc_read_page,
	.read_page = impl_krb_read_page,
	.free_read_page = impl_krb_free_read_page,
	.reader_contended = impl_krb_reader_contended,
	.lone_reader = true,
};
