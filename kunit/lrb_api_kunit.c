// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_api: every function of the lockless ring buffer's API, its bad
 * inputs, both modes, the page format, time stamps and counters. Every
 * case ends with lrb_tb_check_end() on its buffers (through the test's
 * cleanup): sane rings, committed == read + overrun + entries, and the
 * test's own count of its writes.
 */

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "lrb_kunit.h"
#include "lrb_kunit_impl.h"

#define CAP		LRB_KUNIT_CAPACITY
#define MAXP		(CAP - 8)
/* Payload alignment, and the unit payload lengths are rounded up to */
#define PAYLOAD_ALIGN	LRB_TEST_PAYLOAD_ALIGN
/* Stored size of the 100-byte events most cases write: 104, or 112 */
#define EV100		lrb_kunit_event_size(100)

/*
 * Stay on one CPU while writing and reading it, sleeping allowed. The test
 * thread is also pinned to its CPU for the whole test (lrb_api_tb()), so
 * that every api_pin() of a test returns the same CPU, even with preemption.
 */
static int api_pin(void)
{
	migrate_disable();
	return smp_processor_id();
}

static void api_unpin(void)
{
	migrate_enable();
}

static struct lrb_tb *lrb_api_tb(struct kunit *test, unsigned long size,
				 unsigned long flags)
{
	struct lrb_tb *tb = lrb_tb_alloc(test, size, flags);

	lrb_kunit_pin_current(test);
	lrb_tb_check_at_end(test, tb);
	return tb;
}

/*
 * Consume count events of cpu and check them: consecutive sequence numbers
 * from first, payload bytes, length rounded to 4, time stamps that never
 * go backwards, no loss. Returns the last time stamp.
 */
static u64 lrb_expect_read(struct kunit *test, struct lrb_tb *tb, int cpu,
			   u32 first, unsigned int count, unsigned int len)
{
	unsigned long lost;
	struct lrb_event *ev;
	u64 ts, last = 0;
	unsigned int i;

	for (i = 0; i < count; i++) {
		ev = lrb_consume(tb->b, cpu, &ts, &lost);
		KUNIT_ASSERT_NOT_NULL_MSG(test, ev, "event %u of %u", i, count);
		KUNIT_EXPECT_EQ(test, lrb_event_length(ev), ALIGN(len, PAYLOAD_ALIGN));
		/* The 8-byte layout keeps every length in array[0] */
		if (PAYLOAD_ALIGN == 8)
			KUNIT_EXPECT_EQ(test, (unsigned int)ev->type_len, 0U);
		KUNIT_EXPECT_TRUE_MSG(test, IS_ALIGNED((unsigned long)lrb_event_data(ev),
						       PAYLOAD_ALIGN),
				      "payload of event %u at %p", first + i,
				      lrb_event_data(ev));
		KUNIT_EXPECT_TRUE_MSG(test,
				      lrb_kunit_payload_ok(lrb_event_data(ev),
							   len, first + i),
				      "payload of event %u", first + i);
		KUNIT_EXPECT_EQ(test, lost, 0UL);
		KUNIT_EXPECT_GE(test, ts, last);
		last = ts;
	}
	return last;
}

static void lrb_write_n(struct kunit *test, struct lrb_tb *tb,
			unsigned int count, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < count; i++)
		KUNIT_ASSERT_EQ(test, 0, lrb_tb_write(tb, len));
}

/* A snapshot of cpu's ring, allocated for the test */
static struct lrb_snapshot *api_snapshot(struct kunit *test, struct lrb_tb *tb,
					 int cpu)
{
	struct lrb_snapshot *snap = kunit_kzalloc(test, sizeof(*snap),
						  GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, snap);
	KUNIT_ASSERT_EQ(test, 0, lrb_snapshot(tb->b, cpu, snap));
	return snap;
}

/* ---- allocation --------------------------------------------------------- */

static void alloc_rejects_bad_arguments(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, PTR_ERR(lrb_alloc(0, 0)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(lrb_alloc(ULONG_MAX, 0)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(lrb_alloc((totalram_pages() + 1) *
						CAP + 1, 0)), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(lrb_alloc(PAGE_SIZE, BIT(1))), -EINVAL);
	KUNIT_EXPECT_EQ(test, PTR_ERR(lrb_alloc(PAGE_SIZE, ~0UL)), -EINVAL);
	/* NULL is never an answer */
	KUNIT_EXPECT_NOT_NULL(test, lrb_alloc(0, LRB_FL_OVERWRITE));
	lrb_free(NULL);
}

static void alloc_rounds_size_to_pages(struct kunit *test)
{
	static const struct {
		unsigned long size;
		unsigned long pages;
	} cases[] = {
		{ 1, 2 }, { CAP, 2 }, { 2 * CAP, 2 }, { 2 * CAP + 1, 3 },
		{ 5 * CAP, 5 }, { 5 * CAP + 1, 6 },
	};
	struct lrb_snapshot *snap;
	unsigned int i;

	snap = kunit_kmalloc(test, sizeof(*snap), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, snap);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct lrb_buffer *b = lrb_alloc(cases[i].size, 0);

		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
		KUNIT_EXPECT_EQ(test, lrb_size(b), cases[i].pages * CAP);
		KUNIT_EXPECT_EQ(test, 0, lrb_snapshot(b, 0, snap));
		/* the data pages plus the reader page */
		KUNIT_EXPECT_EQ(test, snap->nr_pages, cases[i].pages + 1);
		KUNIT_EXPECT_TRUE(test, lrb_kunit_ring_sane(test, b, 0));
		KUNIT_EXPECT_TRUE(test, lrb_empty(b));
		lrb_free(b);
	}
}

static void null_and_bad_cpu_arguments(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	int bad[] = { -1, nr_cpu_ids, INT_MAX };
	struct lrb_stats st;
	void *page;
	unsigned int i;

	page = lrb_alloc_read_page(tb->b, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, page);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		int cpu = bad[i];

		KUNIT_EXPECT_NULL(test, lrb_peek(tb->b, cpu, NULL, NULL));
		KUNIT_EXPECT_NULL(test, lrb_consume(tb->b, cpu, NULL, NULL));
		KUNIT_EXPECT_EQ(test, lrb_stats_cpu(tb->b, cpu, &st), -EINVAL);
		KUNIT_EXPECT_EQ(test, st.committed, 0UL);
		KUNIT_EXPECT_EQ(test, lrb_entries_cpu(tb->b, cpu), 0UL);
		KUNIT_EXPECT_EQ(test, lrb_overrun_cpu(tb->b, cpu), 0UL);
		KUNIT_EXPECT_EQ(test, lrb_commit_overrun_cpu(tb->b, cpu), 0UL);
		KUNIT_EXPECT_EQ(test, lrb_dropped_cpu(tb->b, cpu), 0UL);
		KUNIT_EXPECT_EQ(test, lrb_read_events_cpu(tb->b, cpu), 0UL);
		KUNIT_EXPECT_TRUE(test, lrb_empty_cpu(tb->b, cpu));
		KUNIT_EXPECT_EQ(test, PTR_ERR(lrb_read_start(tb->b, cpu)),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, PTR_ERR(lrb_alloc_read_page(tb->b, cpu)),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, lrb_read_page(tb->b, &page, PAGE_SIZE,
						    cpu, false), -EINVAL);
		KUNIT_EXPECT_EQ(test, lrb_reset_cpu(tb->b, cpu), -EINVAL);
		KUNIT_EXPECT_EQ(test, lrb_record_disable_cpu(tb->b, cpu),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, lrb_record_enable_cpu(tb->b, cpu),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, lrb_snapshot(tb->b, cpu, NULL), -EINVAL);
	}

	/* NULL buffer everywhere */
	KUNIT_EXPECT_NULL(test, lrb_lock_reserve(NULL, 8));
	KUNIT_EXPECT_EQ(test, lrb_write(NULL, 8, page), -EINVAL);
	KUNIT_EXPECT_EQ(test, lrb_unlock_commit(NULL, NULL), -EINVAL);
	KUNIT_EXPECT_NULL(test, lrb_consume(NULL, 0, NULL, NULL));
	KUNIT_EXPECT_EQ(test, lrb_resize(NULL, PAGE_SIZE), -EINVAL);
	KUNIT_EXPECT_EQ(test, lrb_set_clock(NULL, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, lrb_record_enable(NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, lrb_size(NULL), 0UL);
	KUNIT_EXPECT_TRUE(test, lrb_empty(NULL));
	KUNIT_EXPECT_EQ(test, lrb_entries(NULL), 0UL);
	lrb_stats(NULL, &st);
	KUNIT_EXPECT_EQ(test, st.committed, 0UL);
	KUNIT_EXPECT_EQ(test, lrb_reset(NULL), -EINVAL);
	lrb_record_disable(NULL);
	lrb_read_finish(NULL);
	lrb_iter_advance(NULL);
	KUNIT_EXPECT_NULL(test, lrb_iter_peek(NULL, NULL));

	/* Bad read_page arguments leave the page where it is */
	KUNIT_EXPECT_EQ(test, lrb_read_page(tb->b, NULL, PAGE_SIZE, 0, false),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lrb_read_page(tb->b, &page, 8, 0, false),
			-EINVAL);
	KUNIT_EXPECT_NOT_ERR_OR_NULL(test, page);
	lrb_free_read_page(tb->b, 0, page);
	lrb_free_read_page(tb->b, 0, NULL);
}

/* ---- writing and reading ------------------------------------------------ */

static void reserve_bad_length_changes_nothing(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, LRB_FL_OVERWRITE);
	struct lrb_snapshot *before, *after;
	int cpu;

	cpu = api_pin();
	KUNIT_EXPECT_EQ(test, 0, lrb_tb_write(tb, 16));
	before = api_snapshot(test, tb, cpu);
	KUNIT_EXPECT_NULL(test, lrb_lock_reserve(tb->b, 0));
	KUNIT_EXPECT_NULL(test, lrb_lock_reserve(tb->b, MAXP + 1));
	KUNIT_EXPECT_NULL(test, lrb_lock_reserve(tb->b, ULONG_MAX));
	KUNIT_EXPECT_EQ(test, lrb_write(tb->b, 0, before), -EINVAL);
	KUNIT_EXPECT_EQ(test, lrb_write(tb->b, MAXP + 1, before), -EINVAL);
	after = api_snapshot(test, tb, cpu);
	api_unpin();

	KUNIT_EXPECT_EQ(test, lrb_max_payload(), (unsigned int)MAXP);
	KUNIT_EXPECT_EQ(test, 0, memcmp(before, after, sizeof(*before)));
	KUNIT_EXPECT_EQ(test, after->stats.committed, 1UL);
	KUNIT_EXPECT_EQ(test, after->stats.dropped + after->stats.rejected +
			after->stats.commit_overrun, 0UL);
}

struct lrb_size_param {
	unsigned long	flags;
	unsigned int	len;
	const char	*name;
};

static const struct lrb_size_param lrb_size_params[] = {
	{ 0, 1, "pc_len_1" },
	{ 0, 4, "pc_len_4" },
	{ 0, 5, "pc_len_5" },
	{ 0, 112, "pc_len_112_largest_small" },
	{ 0, 113, "pc_len_113_first_large" },
	{ 0, MAXP, "pc_len_largest" },
	{ LRB_FL_OVERWRITE, 1, "ow_len_1" },
	{ LRB_FL_OVERWRITE, 4, "ow_len_4" },
	{ LRB_FL_OVERWRITE, 113, "ow_len_113" },
	{ LRB_FL_OVERWRITE, MAXP, "ow_len_largest" },
};

KUNIT_ARRAY_PARAM_DESC(lrb_size, lrb_size_params, name);

static void write_read_payload_sizes(struct kunit *test)
{
	const struct lrb_size_param *p = test->param_value;
	struct lrb_tb *tb = lrb_api_tb(test, 4 * CAP, p->flags);
	struct lrb_event *ev;
	unsigned int n = 3;
	int cpu;

	cpu = api_pin();
	lrb_write_n(test, tb, n, p->len);
	KUNIT_EXPECT_EQ(test, lrb_entries_cpu(tb->b, cpu), (unsigned long)n);
	KUNIT_EXPECT_FALSE(test, lrb_empty_cpu(tb->b, cpu));
	lrb_expect_read(test, tb, cpu, 0, n, p->len);
	ev = lrb_consume(tb->b, cpu, NULL, NULL);
	KUNIT_EXPECT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, lrb_read_events_cpu(tb->b, cpu), (unsigned long)n);
	KUNIT_EXPECT_TRUE(test, lrb_empty_cpu(tb->b, cpu));
	api_unpin();
}

static void max_payload_needs_page_start(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 3 * CAP, 0);
	struct lrb_snapshot *snap;
	unsigned long lost;
	struct lrb_event *ev;
	int cpu;

	snap = kunit_kzalloc(test, sizeof(*snap), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, snap);
	cpu = api_pin();
	/* A small event first: the largest one no longer fits on page 1 */
	KUNIT_ASSERT_EQ(test, 0, lrb_tb_write(tb, 4));
	KUNIT_ASSERT_EQ(test, 0, lrb_tb_write(tb, MAXP));
	KUNIT_ASSERT_EQ(test, 0, lrb_snapshot(tb->b, cpu, snap));
	lrb_kunit_render(test, snap, "after a small and a largest event:");
	/* p1 padded to its end, p2 exactly full with the large event */
	KUNIT_EXPECT_EQ(test, snap->page[1].write, (unsigned long)CAP);
	KUNIT_EXPECT_EQ(test, snap->page[1].entries, 1UL);
	KUNIT_EXPECT_EQ(test, snap->page[2].write, (unsigned long)CAP);
	KUNIT_EXPECT_EQ(test, snap->page[2].entries, 1UL);
	KUNIT_EXPECT_EQ(test, snap->tail, 2U);

	ev = lrb_consume(tb->b, cpu, NULL, &lost);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_TRUE(test, lrb_kunit_payload_ok(lrb_event_data(ev), 4, 0));
	ev = lrb_consume(tb->b, cpu, NULL, &lost);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, lrb_event_length(ev), (unsigned int)MAXP);
	KUNIT_EXPECT_TRUE(test, lrb_kunit_payload_ok(lrb_event_data(ev), MAXP,
						     1));
	api_unpin();
}

/*
 * A payload of about 100 bytes whose events leave a gap of 8 bytes or
 * more at a page's end, whatever the page size: room for a padding event
 */
static unsigned int api_padded_len(void)
{
	unsigned int len = 100;

	while (len > 8 && CAP % lrb_kunit_event_size(len) < 8)
		len -= 4;
	return len;
}

static void page_end_padding(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 4 * CAP, 0);
	unsigned int len = api_padded_len(), ev = lrb_kunit_event_size(len);
	unsigned int per_page = CAP / ev, small, lead;
	struct lrb_snapshot *snap;
	int cpu;

	snap = kunit_kzalloc(test, sizeof(*snap), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, snap);
	cpu = api_pin();

	/* These events leave a gap of at least 8: a padding event */
	lrb_write_n(test, tb, per_page + 1, len);
	KUNIT_ASSERT_EQ(test, 0, lrb_snapshot(tb->b, cpu, snap));
	KUNIT_EXPECT_GE(test, CAP % ev, 8U);
	KUNIT_EXPECT_EQ(test, snap->page[1].write, (unsigned long)CAP);
	KUNIT_EXPECT_EQ(test, snap->page[1].commit, (unsigned long)CAP);
	KUNIT_EXPECT_EQ(test, snap->page[1].entries, (unsigned long)per_page);
	KUNIT_EXPECT_EQ(test, snap->page[2].write, (unsigned long)ev);

	/* Every event takes a multiple of 8: no gap smaller than a padding */
	if (PAYLOAD_ALIGN == 8) {
		lrb_expect_read(test, tb, cpu, 0, per_page + 1, len);
		api_unpin();
		return;
	}

	/*
	 * An event of 12 bytes (8 where the capacity is 4 more than a
	 * multiple of 8, as on 32-bit), then 8-byte events, leave 4 bytes:
	 * the page ends early
	 */
	lead = (CAP - ev - 4) % 8 ? 8 : 4;
	KUNIT_ASSERT_EQ(test, 0, lrb_tb_write(tb, lead));
	small = (CAP - ev - (lead + 4) - 4) / 8;
	lrb_write_n(test, tb, small, 4);
	KUNIT_ASSERT_EQ(test, 0, lrb_snapshot(tb->b, cpu, snap));
	KUNIT_EXPECT_EQ(test, snap->page[2].write, (unsigned long)CAP - 4);
	KUNIT_EXPECT_EQ(test, snap->tail, 2U);
	KUNIT_ASSERT_EQ(test, 0, lrb_tb_write(tb, 4));
	KUNIT_ASSERT_EQ(test, 0, lrb_snapshot(tb->b, cpu, snap));
	lrb_kunit_render(test, snap, "after a page-end padding and a null padding:");
	KUNIT_EXPECT_EQ(test, snap->tail, 3U);
	KUNIT_EXPECT_EQ(test, snap->page[2].write, (unsigned long)CAP - 4);
	KUNIT_EXPECT_EQ(test, snap->page[2].commit, (unsigned long)CAP - 4);
	KUNIT_EXPECT_EQ(test, snap->page[3].write, 8UL);

	/* Readers skip both kinds of padding */
	lrb_expect_read(test, tb, cpu, 0, per_page + 1, len);
	lrb_expect_read(test, tb, cpu, per_page + 1, 1, lead);
	lrb_expect_read(test, tb, cpu, per_page + 2, small + 1, 4);
	api_unpin();
}

static void peek_then_consume_same_event(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	struct lrb_event *a, *b;
	unsigned long lost_a, lost_b;
	u64 ts_a, ts_b;
	int cpu;

	cpu = api_pin();
	KUNIT_EXPECT_NULL(test, lrb_peek(tb->b, cpu, &ts_a, &lost_a));
	lrb_write_n(test, tb, 2, 32);
	a = lrb_peek(tb->b, cpu, &ts_a, &lost_a);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_PTR_EQ(test, a, lrb_peek(tb->b, cpu, NULL, NULL));
	b = lrb_consume(tb->b, cpu, &ts_b, &lost_b);
	KUNIT_EXPECT_PTR_EQ(test, a, b);
	KUNIT_EXPECT_EQ(test, ts_a, ts_b);
	KUNIT_EXPECT_EQ(test, lost_a, lost_b);
	KUNIT_EXPECT_EQ(test, lrb_kunit_payload_seq(lrb_event_data(b)), 0U);
	b = lrb_peek(tb->b, cpu, NULL, NULL);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_EQ(test, lrb_kunit_payload_seq(lrb_event_data(b)), 1U);
	KUNIT_EXPECT_EQ(test, lrb_read_events_cpu(tb->b, cpu), 1UL);
	api_unpin();
}

static void write_return_codes(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	char data[64] = { 1, 2, 3 };
	struct lrb_event *ev;
	int cpu, i, ret = 0;

	tb->counted = false;
	cpu = api_pin();
	KUNIT_EXPECT_EQ(test, lrb_write(tb->b, sizeof(data), data), 0);
	ev = lrb_consume(tb->b, cpu, NULL, NULL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, 0, memcmp(lrb_event_data(ev), data, sizeof(data)));

	lrb_record_disable(tb->b);
	KUNIT_EXPECT_EQ(test, lrb_write(tb->b, sizeof(data), data), -EPERM);
	KUNIT_EXPECT_EQ(test, lrb_record_enable(tb->b), 0);

	/* The ring and its reader page hold fewer events than 4 pages bytes */
	for (i = 0; i < 4 * CAP / sizeof(data) && !ret; i++)
		ret = lrb_write(tb->b, sizeof(data), data);
	KUNIT_EXPECT_EQ(test, ret, -ENOSPC);
	KUNIT_EXPECT_EQ(test, lrb_dropped_cpu(tb->b, cpu), 1UL);
	api_unpin();
}

static void commit_misuse(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	struct lrb_snapshot *before, *after;
	struct lrb_event *ev;
	int cpu;

	cpu = api_pin();
	KUNIT_ASSERT_EQ(test, 0, lrb_tb_write(tb, 8));
	ev = lrb_peek(tb->b, cpu, NULL, NULL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	before = api_snapshot(test, tb, cpu);
	/* No reservation pending on this CPU: refused, nothing changes */
	KUNIT_EXPECT_EQ(test, lrb_unlock_commit(tb->b, ev), -EINVAL);
	KUNIT_EXPECT_EQ(test, lrb_unlock_commit(tb->b, NULL), -EINVAL);
	after = api_snapshot(test, tb, cpu);
	api_unpin();
	KUNIT_EXPECT_EQ(test, 0, memcmp(before, after, sizeof(*before)));
}

/* ---- misuse: refused, nothing changes ----------------------------------- */

static void write_null_data_changes_nothing(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	struct lrb_snapshot *before, *after;
	struct lrb_stats st;
	int cpu;

	cpu = api_pin();
	lrb_write_n(test, tb, 3, 16);
	before = api_snapshot(test, tb, cpu);
	KUNIT_EXPECT_EQ(test, lrb_write(tb->b, 16, NULL), -EINVAL);
	after = api_snapshot(test, tb, cpu);
	KUNIT_EXPECT_EQ(test, 0, memcmp(before, after, sizeof(*before)));
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
	KUNIT_EXPECT_EQ(test, st.committed, 3UL);
	KUNIT_EXPECT_EQ(test, st.rejected, 0UL);
	lrb_write_n(test, tb, 1, 16);
	lrb_expect_read(test, tb, cpu, 0, 4, 16);
	api_unpin();
}

static void read_finish_twice_is_refused(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	struct lrb_iter *iter, *never;
	int cpu;

	never = kunit_kzalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, never);
	cpu = api_pin();
	lrb_write_n(test, tb, 2, 16);
	api_unpin();
	iter = lrb_read_start(tb->b, cpu);
	KUNIT_ASSERT_FALSE(test, IS_ERR(iter));
	KUNIT_EXPECT_EQ(test, lrb_read_finish(iter), 0);
	/* Freed: the second call compares the pointer, it reads nothing */
	KUNIT_EXPECT_EQ(test, lrb_read_finish(iter), -EINVAL);
	KUNIT_EXPECT_EQ(test, lrb_read_finish(never), -EINVAL);
	KUNIT_EXPECT_EQ(test, lrb_read_finish(NULL), -EINVAL);
	/* Recording is back on, and not below zero: a disable still holds */
	KUNIT_EXPECT_EQ(test, lrb_record_enable_cpu(tb->b, cpu), -EINVAL);
	cpu = api_pin();
	lrb_write_n(test, tb, 1, 16);
	KUNIT_EXPECT_EQ(test, lrb_record_disable_cpu(tb->b, cpu), 0);
	KUNIT_EXPECT_EQ(test, lrb_write(tb->b, 16, tb), -EPERM);
	tb->failed[cpu]++;
	KUNIT_EXPECT_EQ(test, lrb_record_enable_cpu(tb->b, cpu), 0);
	lrb_expect_read(test, tb, cpu, 0, 3, 16);
	api_unpin();
}

static void record_enable_cpu_keeps_iteration(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	struct lrb_iter *iter;
	int cpu;

	cpu = api_pin();
	lrb_write_n(test, tb, 2, 16);
	api_unpin();
	iter = lrb_read_start(tb->b, cpu);
	KUNIT_ASSERT_FALSE(test, IS_ERR(iter));
	KUNIT_EXPECT_EQ(test, lrb_record_enable_cpu(tb->b, cpu), -EBUSY);
	cpu = api_pin();
	KUNIT_EXPECT_EQ(test, lrb_tb_write(tb, 16), -ENOSPC);
	/* A disable of the caller's own is undone, the iteration's stays */
	KUNIT_EXPECT_EQ(test, lrb_record_disable_cpu(tb->b, cpu), 0);
	KUNIT_EXPECT_EQ(test, lrb_record_enable_cpu(tb->b, cpu), 0);
	KUNIT_EXPECT_EQ(test, lrb_record_enable_cpu(tb->b, cpu), -EBUSY);
	KUNIT_EXPECT_EQ(test, lrb_tb_write(tb, 16), -ENOSPC);
	api_unpin();
	KUNIT_EXPECT_NOT_NULL(test, lrb_iter_peek(iter, NULL));
	KUNIT_EXPECT_EQ(test, lrb_read_finish(iter), 0);
	cpu = api_pin();
	lrb_write_n(test, tb, 1, 16);
	lrb_expect_read(test, tb, cpu, 0, 3, 16);
	api_unpin();
}

struct api_recursion {
	struct lrb_buffer	*b;
	int			ret[2 * 8];
	unsigned int		calls;
};

/*
 * A tracer callback that writes from inside a write: each reservation
 * calls for another one, and only the depth guard stops it.
 */
static void api_recursion_hook(struct lrb_buffer *b, int cpu,
			       enum lrb_hook_point point, void *data)
{
	struct api_recursion *r = data;
	u32 payload[2];
	unsigned int n;

	if (point != LRB_HOOK_RESERVED || r->calls >= ARRAY_SIZE(r->ret))
		return;
	n = r->calls++;
	payload[0] = n + 1;
	payload[1] = 0x52454355;
	r->ret[n] = lrb_write(r->b, sizeof(payload), payload);
}

static void recursion_is_refused_and_counted(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	struct api_recursion *r;
	struct lrb_event *ev;
	struct lrb_stats st;
	u32 payload[2] = { 0, 0x52454355 };
	unsigned int i;
	int cpu;

	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	r->b = tb->b;
	tb->counted = false;
	cpu = api_pin();
	KUNIT_ASSERT_EQ(test, 0, lrb_set_test_hook(tb->b, api_recursion_hook, r));
	KUNIT_EXPECT_EQ(test, lrb_write(tb->b, sizeof(payload), payload), 0);
	lrb_set_test_hook(tb->b, NULL, NULL);
	/* 8 writers in flight: the outer one and 7 nested; the 9th refused */
	KUNIT_EXPECT_EQ(test, r->calls, 8U);
	for (i = 0; i < 7; i++)
		KUNIT_EXPECT_EQ_MSG(test, r->ret[i], 0, "nested write %u", i + 1);
	KUNIT_EXPECT_EQ(test, r->ret[7], -EBUSY);
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
	KUNIT_EXPECT_EQ(test, st.recursion, 1UL);
	KUNIT_EXPECT_EQ(test, st.committed, 8UL);
	KUNIT_EXPECT_EQ(test, st.entries, 8UL);
	/* In the order reserved: the outer event first */
	for (i = 0; i < 8; i++) {
		ev = lrb_consume(tb->b, cpu, NULL, NULL);
		KUNIT_ASSERT_NOT_NULL_MSG(test, ev, "event %u of 8", i);
		KUNIT_EXPECT_EQ(test, lrb_event_length(ev), 8U);
		KUNIT_EXPECT_EQ(test, ((u32 *)lrb_event_data(ev))[0], i);
		KUNIT_EXPECT_EQ(test, ((u32 *)lrb_event_data(ev))[1], 0x52454355U);
	}
	KUNIT_EXPECT_NULL(test, lrb_consume(tb->b, cpu, NULL, NULL));
	KUNIT_EXPECT_EQ(test, lrb_write(tb->b, sizeof(payload), payload), 0);
	KUNIT_EXPECT_NOT_NULL(test, lrb_consume(tb->b, cpu, NULL, NULL));
	api_unpin();
}

struct api_spins {
	unsigned int	spins;
};

static void api_count_spins(struct lrb_buffer *b, int cpu,
			    enum lrb_hook_point point, void *data)
{
	struct api_spins *sp = data;

	if (point == LRB_HOOK_READER_SPIN)
		sp->spins++;
}

/*
 * What a reset finds on a broken ring: refused with -EIO, the ring drawn as
 * it broke, writers still off on that CPU; a reset of another CPU works.
 * The end checks leave the broken CPU out (tb->may_break).
 */
static void api_broken_ring_kept(struct kunit *test, struct lrb_tb *tb, int cpu)
{
	struct lrb_snapshot *snap;
	struct lrb_stats st;
	int other;

	KUNIT_EXPECT_EQ(test, lrb_reset_cpu(tb->b, cpu), -EIO);
	KUNIT_EXPECT_EQ(test, lrb_reset(tb->b), -EIO);
	snap = api_snapshot(test, tb, cpu);
	KUNIT_EXPECT_TRUE(test, lrb_kunit_expect(test, snap, "p1 -U-> p2 --> p3 --> p4 -U->",
						 "nrU=2 nrH=0"));
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
	KUNIT_EXPECT_EQ(test, st.broken, 1UL);
	KUNIT_EXPECT_EQ(test, api_pin(), cpu);
	KUNIT_EXPECT_EQ(test, lrb_write(tb->b, 16, tb), -EPERM);
	api_unpin();
	other = cpumask_any_but(cpu_possible_mask, cpu);
	if (other < nr_cpu_ids)
		KUNIT_EXPECT_EQ(test, lrb_reset_cpu(tb->b, other), 0);
	tb->may_break = true;
}

/*
 * The pointer from the head page to its next is corrupted with UPDATE.
 * The writer that pushes the head then finds UPDATE where it sets the new
 * HEADER: the broken invariant warns once and stops recording on the CPU,
 * with its own UPDATE left behind. A reader meets that UPDATE and gives
 * up at once instead of spinning for the writer that will never clear it.
 * The ring is kept as it broke, for inspection: lrb_reset_cpu() and
 * lrb_reset() refuse it with -EIO and change nothing; other CPUs still
 * reset.
 */
static void broken_ring_stops_recording(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 4 * CAP, LRB_FL_OVERWRITE);
	struct lrb_snapshot *snap;
	struct api_spins *sp;
	struct lrb_stats st;
	int cpu;

	sp = kunit_kzalloc(test, sizeof(*sp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sp);
	tb->counted = false;
	cpu = api_pin();
	lrb_write_n(test, tb, 4, MAXP);
	snap = api_snapshot(test, tb, cpu);
	KUNIT_ASSERT_TRUE(test, lrb_kunit_expect(test, snap, "p1 --> p2 --> p3 --> p4 -H->",
						 "head=p1 tail=p4"));
	KUNIT_ASSERT_EQ(test, 0, lrb_test_set_next_flags(tb->b, cpu, 1,
							 LRB_SNAP_UPDATE));
	pr_info("lrb-kunit: expect one WARNING at lrb_set_broken\n");
	KUNIT_EXPECT_EQ(test, lrb_write(tb->b, 16, tb), -ENOSPC);
	snap = api_snapshot(test, tb, cpu);
	lrb_kunit_render(test, snap, "the writer found UPDATE on p1 -> p2 and stopped");
	KUNIT_EXPECT_TRUE(test, lrb_kunit_expect(test, snap, "p1 -U-> p2 --> p3 --> p4 -U->",
						 "tail=p4 nrU=2 nrH=0"));
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
	KUNIT_EXPECT_EQ(test, st.broken, 1UL);
	KUNIT_EXPECT_EQ(test, lrb_write(tb->b, 16, tb), -EPERM);
	KUNIT_EXPECT_EQ(test, lrb_record_enable_cpu(tb->b, cpu), -EBUSY);

	KUNIT_ASSERT_EQ(test, 0, lrb_set_test_hook(tb->b, api_count_spins, sp));
	KUNIT_EXPECT_NULL(test, lrb_consume(tb->b, cpu, NULL, NULL));
	KUNIT_EXPECT_NULL(test, lrb_consume(tb->b, cpu, NULL, NULL));
	lrb_set_test_hook(tb->b, NULL, NULL);
	KUNIT_EXPECT_EQ_MSG(test, sp->spins, 2U,
			    "a reader of a broken ring spins once per call, no more");
	api_unpin();

	api_broken_ring_kept(test, tb, cpu);
}

/* ---- modes -------------------------------------------------------------- */

static void producer_consumer_full_drops(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	unsigned int per_page = CAP / EV100, i, n = 0;
	struct lrb_stats st;
	int cpu;

	cpu = api_pin();
	for (i = 0; i < 3 * per_page; i++)
		if (!lrb_tb_write(tb, 100))
			n++;
	/* Two ring pages full; the reader page is not written to */
	KUNIT_EXPECT_EQ(test, n, 2 * per_page);
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
	KUNIT_EXPECT_EQ(test, st.dropped, (unsigned long)(3 * per_page - n));
	KUNIT_EXPECT_EQ(test, st.overrun, 0UL);
	KUNIT_EXPECT_EQ(test, st.commit_overrun, 0UL);
	lrb_kunit_dump(test, tb->b, cpu, "producer/consumer buffer full:");

	/* Reading one page makes room for exactly one page */
	lrb_expect_read(test, tb, cpu, 0, per_page, 100);
	n = 0;
	for (i = 0; i < 2 * per_page; i++)
		if (!lrb_tb_write(tb, 100))
			n++;
	KUNIT_EXPECT_EQ(test, n, per_page);
	lrb_expect_read(test, tb, cpu, per_page, 2 * per_page, 100);
	api_unpin();
}

static void overwrite_full_counts_overrun_and_lost(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, LRB_FL_OVERWRITE);
	unsigned int per_page = CAP / EV100, total = 5 * per_page + 3, i;
	unsigned long lost, first_lost = 0;
	struct lrb_event *ev;
	struct lrb_stats st;
	u32 seq, expect;
	int cpu;

	cpu = api_pin();
	lrb_write_n(test, tb, total, 100);
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
	KUNIT_EXPECT_EQ(test, st.dropped, 0UL);
	KUNIT_EXPECT_GT(test, st.overrun, 0UL);
	KUNIT_EXPECT_EQ(test, st.overrun % per_page, 0UL);
	KUNIT_EXPECT_EQ(test, st.pages_lost, st.overrun / per_page);
	KUNIT_EXPECT_EQ(test, st.entries + st.overrun, (unsigned long)total);
	lrb_kunit_dump(test, tb->b, cpu, "overwrite buffer after wrapping:");

	/* The oldest surviving event comes first, with the loss before it */
	ev = lrb_consume(tb->b, cpu, NULL, &first_lost);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	seq = lrb_kunit_payload_seq(lrb_event_data(ev));
	KUNIT_EXPECT_EQ(test, (unsigned long)seq, st.overrun);
	KUNIT_EXPECT_EQ(test, first_lost, st.overrun);
	for (expect = seq + 1; expect < total; expect++) {
		ev = lrb_consume(tb->b, cpu, NULL, &lost);
		KUNIT_ASSERT_NOT_NULL(test, ev);
		KUNIT_EXPECT_EQ(test, lrb_kunit_payload_seq(lrb_event_data(ev)),
				expect);
		KUNIT_EXPECT_EQ(test, lost, 0UL);
	}

	/*
	 * Loss between two reads is reported with the first event after the
	 * gap, exactly: the rest of the reader page was safe from writers.
	 */
	lrb_write_n(test, tb, 1, 100);
	ev = lrb_consume(tb->b, cpu, NULL, &lost);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, lost, 0UL);
	for (i = 0; i < 4 * per_page; i++)
		KUNIT_ASSERT_EQ(test, 0, lrb_tb_write(tb, 100));
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
	KUNIT_EXPECT_GT(test, st.overrun, first_lost);
	expect = total + 1;
	while ((ev = lrb_consume(tb->b, cpu, NULL, &lost))) {
		seq = lrb_kunit_payload_seq(lrb_event_data(ev));
		KUNIT_EXPECT_EQ(test, (unsigned long)(seq - expect), lost);
		first_lost += lost;
		expect = seq + 1;
	}
	KUNIT_EXPECT_EQ(test, expect, total + 1 + 4 * per_page);
	KUNIT_EXPECT_EQ(test, first_lost, st.overrun);
	api_unpin();
}

/* ---- time --------------------------------------------------------------- */

static void time_extend_with_injected_clock(struct kunit *test)
{
	static const u64 steps[] = {
		0, 5, (1ULL << 27) - 1, 1ULL << 27, 1ULL << 40, 1, 0,
		(1ULL << 27) + 1,
	};
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	u64 t = 1000, expect[ARRAY_SIZE(steps)], ts;
	unsigned int i, extends = 0, off;
	struct lrb_data_page *page;
	struct lrb_event *ev;
	void *rpage;
	int cpu;

	KUNIT_ASSERT_EQ(test, 0, lrb_set_clock(tb->b, lrb_kunit_clock));
	cpu = api_pin();
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		t += steps[i];
		expect[i] = t;
		lrb_kunit_clock_set(t);
		KUNIT_ASSERT_EQ(test, 0, lrb_tb_write(tb, 12));
	}

	/* The raw page: a time extend before each delta over 27 bits */
	rpage = lrb_alloc_read_page(tb->b, cpu);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rpage);
	KUNIT_ASSERT_GT(test, lrb_read_page(tb->b, &rpage, PAGE_SIZE, cpu,
					    false), 0);
	page = rpage;
	KUNIT_EXPECT_EQ(test, page->time_stamp, expect[0]);
	for (off = 0; off < (local_read(&page->commit) & ~LRB_MISSED_FLAGS);) {
		ev = (void *)&page->data[off];
		if (ev->type_len == LRB_TYPE_TIME_EXTEND) {
			extends++;
			off += 8;
		} else {
			off += lrb_kunit_event_size(12);
		}
	}
	KUNIT_EXPECT_EQ(test, extends, 3U);
	lrb_free_read_page(tb->b, cpu, rpage);

	/* Read it again through consume, with exact time stamps */
	KUNIT_ASSERT_EQ(test, 0, lrb_reset(tb->b));
	memset(tb->ok, 0, nr_cpu_ids * sizeof(*tb->ok));
	memset(tb->next_seq, 0, nr_cpu_ids * sizeof(*tb->next_seq));
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		lrb_kunit_clock_set(expect[i]);
		KUNIT_ASSERT_EQ(test, 0, lrb_tb_write(tb, 12));
	}
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		ev = lrb_consume(tb->b, cpu, &ts, NULL);
		KUNIT_ASSERT_NOT_NULL(test, ev);
		KUNIT_EXPECT_EQ_MSG(test, ts, expect[i], "event %u", i);
	}
	api_unpin();
	lrb_set_clock(tb->b, NULL);
}

static void clock_going_backwards_is_clamped(struct kunit *test)
{
	static const u64 clock[] = { 5000, 4000, 4500, 6000, 10, 6001 };
	static const u64 expect[] = { 5000, 5000, 5000, 6000, 6000, 6001 };
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	unsigned int i;
	u64 ts;
	int cpu;

	KUNIT_ASSERT_EQ(test, 0, lrb_set_clock(tb->b, lrb_kunit_clock));
	cpu = api_pin();
	for (i = 0; i < ARRAY_SIZE(clock); i++) {
		lrb_kunit_clock_set(clock[i]);
		KUNIT_ASSERT_EQ(test, 0, lrb_tb_write(tb, 8));
	}
	for (i = 0; i < ARRAY_SIZE(clock); i++) {
		KUNIT_ASSERT_NOT_NULL(test, lrb_consume(tb->b, cpu, &ts, NULL));
		KUNIT_EXPECT_EQ_MSG(test, ts, expect[i], "event %u", i);
	}
	api_unpin();
	lrb_set_clock(tb->b, NULL);
}

static void local_clock_is_the_default(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	u64 before, after, ts;
	int cpu;

	cpu = api_pin();
	before = local_clock();
	KUNIT_ASSERT_EQ(test, 0, lrb_tb_write(tb, 8));
	after = local_clock();
	KUNIT_ASSERT_NOT_NULL(test, lrb_consume(tb->b, cpu, &ts, NULL));
	api_unpin();
	KUNIT_EXPECT_GE(test, ts, before);
	KUNIT_EXPECT_LE(test, ts, after);
}

/* ---- iterator ----------------------------------------------------------- */

struct lrb_seen {
	u64		ts;
	u32		seq;
	unsigned int	len;
};

static void iterator_matches_consume(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 3 * CAP, 0);
	unsigned int n = 150, i, len;
	struct lrb_seen *seen;
	struct lrb_iter *iter;
	struct lrb_event *ev;
	struct lrb_stats st;
	u64 ts;
	int cpu;

	seen = kunit_kcalloc(test, n, sizeof(*seen), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	cpu = api_pin();
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, 0, lrb_tb_write(tb, 8 + (i % 7) * 9));
	/* Part of it already consumed: the iterator starts where reads are */
	for (i = 0; i < 3; i++)
		lrb_expect_read(test, tb, cpu, i, 1, 8 + (i % 7) * 9);

	iter = lrb_read_start(tb->b, cpu);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, iter);
	for (i = 3; i < n; i++) {
		ev = lrb_iter_peek(iter, &ts);
		KUNIT_ASSERT_NOT_NULL_MSG(test, ev, "iterator event %u", i);
		seen[i].ts = ts;
		seen[i].seq = lrb_kunit_payload_seq(lrb_event_data(ev));
		seen[i].len = lrb_event_length(ev);
		lrb_iter_advance(iter);
	}
	KUNIT_EXPECT_NULL(test, lrb_iter_peek(iter, NULL));
	/* Recording is off on this CPU while iterating */
	KUNIT_EXPECT_EQ(test, lrb_tb_write(tb, 8), -ENOSPC);
	lrb_read_finish(iter);
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
	KUNIT_EXPECT_EQ(test, st.rejected, 1UL);
	KUNIT_EXPECT_EQ(test, st.read, 3UL);

	for (i = 3; i < n; i++) {
		len = 8 + (i % 7) * 9;
		ev = lrb_consume(tb->b, cpu, &ts, NULL);
		KUNIT_ASSERT_NOT_NULL(test, ev);
		KUNIT_EXPECT_EQ(test, seen[i].seq, i);
		KUNIT_EXPECT_EQ(test, lrb_kunit_payload_seq(lrb_event_data(ev)),
				seen[i].seq);
		KUNIT_EXPECT_EQ(test, seen[i].len, ALIGN(len, PAYLOAD_ALIGN));
		KUNIT_EXPECT_EQ(test, ts, seen[i].ts);
		KUNIT_EXPECT_TRUE(test, lrb_kunit_payload_ok(lrb_event_data(ev),
							     len, i));
	}
	api_unpin();
}

static void iterator_restarts_after_consume(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	struct lrb_iter *iter;
	struct lrb_event *ev;
	int cpu;

	cpu = api_pin();
	lrb_write_n(test, tb, 5, 16);
	api_unpin();
	iter = lrb_read_start(tb->b, cpu);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, iter);
	ev = lrb_iter_peek(iter, NULL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, lrb_kunit_payload_seq(lrb_event_data(ev)), 0U);
	lrb_iter_advance(iter);
	KUNIT_ASSERT_NOT_NULL(test, lrb_consume(tb->b, cpu, NULL, NULL));
	KUNIT_ASSERT_NOT_NULL(test, lrb_consume(tb->b, cpu, NULL, NULL));
	KUNIT_ASSERT_NOT_NULL(test, lrb_consume(tb->b, cpu, NULL, NULL));
	ev = lrb_iter_peek(iter, NULL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, lrb_kunit_payload_seq(lrb_event_data(ev)), 3U);
	lrb_read_finish(iter);
}

/* ---- whole pages -------------------------------------------------------- */

/* Parse a page from lrb_read_page(): count data events, check them */
static unsigned int lrb_parse_page(struct kunit *test, void *data, u32 first,
				   unsigned int len)
{
	struct lrb_data_page *page = data;
	unsigned long commit = local_read(&page->commit) & ~LRB_MISSED_FLAGS;
	unsigned int off = 0, n = 0;
	struct lrb_event *ev;

	while (off < commit) {
		ev = (void *)&page->data[off];
		if (ev->type_len == LRB_TYPE_PADDING) {
			/* Only at the end of a page */
			KUNIT_EXPECT_EQ(test, ev->time_delta ?
					off + ev->array[0] + 4 : commit,
					(unsigned int)commit);
			off = commit;
			break;
		}
		KUNIT_ASSERT_LE(test, (unsigned int)ev->type_len,
				LRB_TYPE_DATA_TYPE_LEN_MAX);
		KUNIT_EXPECT_TRUE_MSG(test,
				      lrb_kunit_payload_ok(lrb_event_data(ev),
							   len, first + n),
				      "event %u in page", n);
		off += lrb_kunit_event_size(len);
		n++;
	}
	KUNIT_EXPECT_EQ(test, off, (unsigned int)commit);
	return n;
}

static void read_page_swaps_full_copies_partial(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 3 * CAP, 0);
	unsigned int per_page = CAP / EV100;
	void *given, *page;
	int cpu, ret;

	cpu = api_pin();
	lrb_write_n(test, tb, per_page + 3, 100);
	page = lrb_alloc_read_page(tb->b, cpu);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, page);
	given = page;

	/* A full page whose writer left: swapped, not copied */
	ret = lrb_read_page(tb->b, &page, PAGE_SIZE, cpu, false);
	/* Its events, not the padding after them */
	KUNIT_EXPECT_EQ(test, ret, (int)(per_page * EV100));
	KUNIT_EXPECT_PTR_NE(test, page, given);
	KUNIT_EXPECT_EQ(test, lrb_parse_page(test, page, 0, 100), per_page);
	KUNIT_EXPECT_EQ(test, lrb_read_events_cpu(tb->b, cpu),
			(unsigned long)per_page);

	/* The commit page: copied, and only with full == false */
	given = page;
	ret = lrb_read_page(tb->b, &page, PAGE_SIZE, cpu, true);
	KUNIT_EXPECT_EQ(test, ret, -ENODATA);
	ret = lrb_read_page(tb->b, &page, PAGE_SIZE, cpu, false);
	KUNIT_EXPECT_EQ(test, ret, (int)(3 * EV100));
	KUNIT_EXPECT_PTR_EQ(test, page, given);
	KUNIT_EXPECT_EQ(test, lrb_parse_page(test, page, per_page, 100), 3U);

	ret = lrb_read_page(tb->b, &page, PAGE_SIZE, cpu, false);
	KUNIT_EXPECT_EQ(test, ret, -ENODATA);

	/* A small buffer takes what fits, the rest stays to be read */
	lrb_write_n(test, tb, 3, 100);
	ret = lrb_read_page(tb->b, &page, 16 + 2 * EV100 + 50, cpu, false);
	KUNIT_EXPECT_EQ(test, ret, 2 * EV100);
	KUNIT_EXPECT_EQ(test, lrb_parse_page(test, page, per_page + 3, 100), 2U);
	ret = lrb_read_page(tb->b, &page, 16 + 50, cpu, false);
	KUNIT_EXPECT_EQ(test, ret, -ENOSPC);
	lrb_expect_read(test, tb, cpu, per_page + 5, 1, 100);
	lrb_free_read_page(tb->b, cpu, page);
	api_unpin();
}

/*
 * Stale reads on (event data and indexes): every read path of a reader on
 * the writer's CPU, each read after the writes, still returns exactly what
 * was written.
 */
static void stale_reads_keep_every_read_exact(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 3 * CAP, 0);
	unsigned int per_page = CAP / EV100;
	void *page;
	int cpu;

	KUNIT_EXPECT_EQ(test, lrb_set_stale_reads(NULL, LRB_STALE_EVENTS), -EINVAL);
	KUNIT_EXPECT_EQ(test, lrb_set_stale_reads(tb->b, LRB_STALE_ALL + 1), -EINVAL);
	KUNIT_ASSERT_EQ(test, 0, lrb_set_stale_reads(tb->b, LRB_STALE_ALL));
	cpu = api_pin();
	lrb_write_n(test, tb, 2, 100);
	lrb_expect_read(test, tb, cpu, 0, 1, 100);
	/* Written after the reader's last barrier, read after its next one */
	lrb_write_n(test, tb, 1, 100);
	lrb_expect_read(test, tb, cpu, 1, 2, 100);

	/* The rest of the reader page copied, then the commit page copied */
	lrb_write_n(test, tb, per_page + 3, 100);
	page = lrb_alloc_read_page(tb->b, cpu);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, page);
	KUNIT_EXPECT_EQ(test, lrb_read_page(tb->b, &page, PAGE_SIZE, cpu, false),
			(int)((per_page - 3) * EV100));
	KUNIT_EXPECT_EQ(test, lrb_parse_page(test, page, 3, 100), per_page - 3);
	KUNIT_EXPECT_EQ(test, lrb_read_page(tb->b, &page, PAGE_SIZE, cpu, false),
			6 * EV100);
	KUNIT_EXPECT_EQ(test, lrb_parse_page(test, page, per_page, 100), 6U);
	lrb_free_read_page(tb->b, cpu, page);

	/* Switched on again (fresh copies) and off: reads go on unchanged */
	KUNIT_EXPECT_EQ(test, 0, lrb_set_stale_reads(tb->b, LRB_STALE_EVENTS));
	lrb_write_n(test, tb, 1, 100);
	lrb_expect_read(test, tb, cpu, per_page + 6, 1, 100);
	KUNIT_EXPECT_EQ(test, 0, lrb_set_stale_reads(tb->b, 0));
	lrb_write_n(test, tb, 1, 100);
	lrb_expect_read(test, tb, cpu, per_page + 7, 1, 100);
	KUNIT_EXPECT_NULL(test, lrb_consume(tb->b, cpu, NULL, NULL));
	api_unpin();
}

/* A reader page with only its end padding left: go on to the next page */
static void read_page_after_consume_skips_padding(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 3 * CAP, 0);
	unsigned int per_page = CAP / EV100;
	void *page;
	int cpu, ret;

	cpu = api_pin();
	lrb_write_n(test, tb, per_page + 3, 100);
	lrb_expect_read(test, tb, cpu, 0, per_page, 100);
	page = lrb_alloc_read_page(tb->b, cpu);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, page);
	ret = lrb_read_page(tb->b, &page, PAGE_SIZE, cpu, false);
	KUNIT_EXPECT_EQ(test, ret, 3 * EV100);
	if (ret > 0)
		KUNIT_EXPECT_EQ(test, lrb_parse_page(test, page, per_page, 100), 3U);
	lrb_free_read_page(tb->b, cpu, page);
	api_unpin();
}

static void read_page_reports_missed_events(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, LRB_FL_OVERWRITE);
	unsigned int per_page = CAP / EV100;
	struct lrb_data_page *dp;
	unsigned long missed, commit;
	struct lrb_stats st;
	void *page;
	int cpu, ret;

	cpu = api_pin();
	lrb_write_n(test, tb, 4 * per_page + 1, 100);
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
	KUNIT_ASSERT_GT(test, st.overrun, 0UL);
	page = lrb_alloc_read_page(tb->b, cpu);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, page);
	ret = lrb_read_page(tb->b, &page, PAGE_SIZE, cpu, false);
	KUNIT_ASSERT_GT(test, ret, 0);
	dp = page;
	commit = local_read(&dp->commit);
	KUNIT_EXPECT_TRUE(test, commit & LRB_MISSED_EVENTS);
	KUNIT_EXPECT_EQ(test, (unsigned long)ret, commit & ~LRB_MISSED_FLAGS);
	/* A full page has no room left for the count */
	if (commit & LRB_MISSED_STORED) {
		memcpy(&missed, &dp->data[ret], sizeof(missed));
		KUNIT_EXPECT_EQ(test, missed, st.overrun);
	}
	KUNIT_EXPECT_EQ(test, lrb_parse_page(test, page, st.overrun, 100),
			(unsigned int)ret / EV100);
	/* The next page is not flagged */
	ret = lrb_read_page(tb->b, &page, PAGE_SIZE, cpu, false);
	KUNIT_ASSERT_GT(test, ret, 0);
	dp = page;
	KUNIT_EXPECT_FALSE(test, local_read(&dp->commit) & LRB_MISSED_FLAGS);
	lrb_free_read_page(tb->b, cpu, page);
	api_unpin();
}

/*
 * A reader is handed nothing no writer wrote. Pages full of a pattern are
 * freed first, so that the buffer's pages and the read page are likely to
 * be those; the pattern must then appear nowhere in a page handed out, and
 * everything after the page's events (and the lost-event count it stores)
 * must be zero, in the swapped page and in the copied one, which goes into
 * a page that held a whole swapped page before.
 */
#define API_STALE_WORD	0x5ca1ab1edeadf00dULL
#define API_PRIMED	64

static void api_prime_free_pages(void)
{
	struct page *pages[API_PRIMED];
	unsigned int i, j;
	u64 *w;

	for (i = 0; i < API_PRIMED; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		if (!pages[i])
			continue;
		w = page_address(pages[i]);
		for (j = 0; j < PAGE_SIZE / sizeof(*w); j++)
			w[j] = API_STALE_WORD;
	}
	for (i = 0; i < API_PRIMED; i++)
		if (pages[i])
			__free_page(pages[i]);
}

/* Where the page's events and its stored lost-event count end */
static size_t api_page_used(const void *page)
{
	const struct lrb_data_page *dp = page;
	unsigned long commit = local_read(&dp->commit);
	size_t used = offsetof(struct lrb_data_page, data) +
		      (commit & ~LRB_MISSED_FLAGS);

	if (commit & LRB_MISSED_STORED)
		used += sizeof(unsigned long);
	return used;
}

/* Non-zero bytes in [from, PAGE_SIZE), and pattern words in the whole page */
static void api_expect_clean(struct kunit *test, const void *page,
			     size_t from, const char *what)
{
	const u64 *w = page;
	const u8 *p = page;
	unsigned int dirty = 0, pattern = 0;
	size_t i;

	for (i = from; i < PAGE_SIZE; i++)
		dirty += p[i] != 0;
	for (i = 0; i < PAGE_SIZE / sizeof(*w); i++)
		pattern += w[i] == API_STALE_WORD;
	KUNIT_EXPECT_EQ_MSG(test, dirty, 0U,
			    "%s: %u non-zero bytes after its events (from byte %zu)",
			    what, dirty, from);
	KUNIT_EXPECT_EQ_MSG(test, pattern, 0U,
			    "%s: %u words of freed memory's pattern", what, pattern);
}

static void read_page_hands_out_no_stale_bytes(struct kunit *test)
{
	unsigned int per_page = CAP / EV100;
	struct lrb_tb *tb;
	void *page, *given;
	int cpu, ret;

	api_prime_free_pages();
	tb = lrb_api_tb(test, 3 * CAP, 0);
	cpu = api_pin();
	page = lrb_alloc_read_page(tb->b, cpu);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, page);
	api_expect_clean(test, page, 0, "a new read page");

	/* A whole page and half of the next: one swapped, one copied */
	lrb_write_n(test, tb, per_page + per_page / 2, 100);
	given = page;
	ret = lrb_read_page(tb->b, &page, PAGE_SIZE, cpu, false);
	KUNIT_ASSERT_GT(test, ret, 0);
	KUNIT_EXPECT_PTR_NE(test, page, given);
	api_expect_clean(test, page, api_page_used(page), "the swapped page");

	given = page;
	ret = lrb_read_page(tb->b, &page, PAGE_SIZE, cpu, false);
	KUNIT_EXPECT_EQ(test, ret, (int)(per_page / 2 * EV100));
	KUNIT_EXPECT_PTR_EQ(test, page, given);
	KUNIT_EXPECT_EQ(test, lrb_parse_page(test, page, per_page, 100),
			per_page / 2);
	api_expect_clean(test, page, api_page_used(page),
			 "the copied page, which held a whole page before");
	lrb_free_read_page(tb->b, cpu, page);
	api_unpin();
}

/*
 * Pages for the host-side libtraceevent check: print them in hex with what
 * was written (sequence number, time stamp and length; the payload bytes
 * follow from lrb_kunit_fill()), so that tools/kbuffer-check decodes them
 * with kbuffer and compares every event. Several pages with small and large
 * events, time extends and page-end padding.
 */
static void read_page_hexdump_for_kbuffer(struct kunit *test)
{
	static const unsigned int lens[] = { 1, 4, 13, 112, 113, 300, 1000 };
	struct lrb_tb *tb = lrb_api_tb(test, 4 * CAP, 0);
	/* Lengths grow with the page, so that the events span 3 pages or more */
	unsigned int n, off, pages = 0, events = 50, scale = max(1UL, CAP / 4080);
	char hex[2 * 32 + 1];
	u64 t = 1000000;
	void *page;
	int cpu, ret;

	KUNIT_ASSERT_EQ(test, 0, lrb_set_clock(tb->b, lrb_kunit_clock));
	cpu = api_pin();
	lrb_kunit_line(test, "lrb-kbuffer-begin page_size=%lu long=%zu align=%u",
		       PAGE_SIZE, sizeof(long), PAYLOAD_ALIGN);
	for (n = 0; n < events; n++) {
		unsigned int len = lens[n % ARRAY_SIZE(lens)] * scale;

		t += (n % 5 == 4) ? (1ULL << 27) + n : 3 + n;
		lrb_kunit_clock_set(t);
		KUNIT_ASSERT_EQ(test, 0, lrb_tb_write_seq(tb, len, n));
		lrb_kunit_line(test, "lrb-kbuffer-event seq=%u ts=%llu len=%u",
			       n, t, len);
	}
	page = lrb_alloc_read_page(tb->b, cpu);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, page);
	while ((ret = lrb_read_page(tb->b, &page, PAGE_SIZE, cpu, false)) > 0) {
		lrb_kunit_line(test, "lrb-kbuffer-page %u bytes=%lu", pages++,
			       PAGE_SIZE);
		for (off = 0; off < PAGE_SIZE; off += 32) {
			bin2hex(hex, (u8 *)page + off, 32)[0] = '\0';
			lrb_kunit_line(test, "lrb-kbuffer-hex %04x %s", off, hex);
		}
	}
	KUNIT_EXPECT_EQ(test, ret, -ENODATA);
	lrb_kunit_line(test, "lrb-kbuffer-end events=%u pages=%u", events,
		       pages);
	KUNIT_EXPECT_GE(test, pages, 3U);
	KUNIT_EXPECT_EQ(test, lrb_read_events_cpu(tb->b, cpu),
			(unsigned long)events);
	lrb_free_read_page(tb->b, cpu, page);
	api_unpin();
	lrb_set_clock(tb->b, NULL);
}

/* ---- no old byte to a reader --------------------------------------------- */

/* Payloads of the laps that fill every page with a pattern first */
#define API_OLD_LEN	96
/* A payload that leaves 3 bytes (7 in the 8-byte layout) to round up */
#define API_ODD_LEN	21

/*
 * Fill every page of cpu's ring, the reader page included, with events of
 * a pattern, for laps, and consume them all: what later events leave
 * unwritten holds the pattern, as it would hold events consumed long ago.
 */
static void api_laps_of_pattern(struct kunit *test, struct lrb_buffer *b,
				int cpu, unsigned int laps)
{
	u64 data[API_OLD_LEN / sizeof(u64)];
	unsigned int i, n = laps * 5 * (CAP / lrb_kunit_event_size(API_OLD_LEN));

	for (i = 0; i < ARRAY_SIZE(data); i++)
		data[i] = API_STALE_WORD;
	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_EQ(test, 0, lrb_write(b, sizeof(data), data));
		if (i % 16 == 15)
			while (lrb_consume(b, cpu, NULL, NULL))
				;
	}
	while (lrb_consume(b, cpu, NULL, NULL))
		;
}

/* The bytes that round a payload of len up: zero, or how many are not */
static unsigned int api_round_up_dirty(struct lrb_event *ev, unsigned int len)
{
	const u8 *p = lrb_event_data(ev);
	unsigned int i, dirty = 0;

	for (i = len; i < lrb_event_length(ev); i++)
		dirty += p[i] != 0;
	return dirty;
}

static void api_expect_odd_event(struct kunit *test, struct lrb_event *ev,
				 u32 seq, const char *path)
{
	KUNIT_ASSERT_NOT_NULL_MSG(test, ev, "%s: event %u", path, seq);
	KUNIT_EXPECT_EQ_MSG(test, lrb_event_length(ev),
			    ALIGN(API_ODD_LEN, PAYLOAD_ALIGN), "%s: event %u", path, seq);
	KUNIT_EXPECT_TRUE_MSG(test, lrb_kunit_payload_ok(lrb_event_data(ev),
							 API_ODD_LEN, seq),
			      "%s: payload of event %u", path, seq);
	KUNIT_EXPECT_EQ_MSG(test, api_round_up_dirty(ev, API_ODD_LEN), 0U,
			    "%s: event %u: old bytes in the round-up after its payload",
			    path, seq);
}

/* Every event of a page handed out, and the page after them, clean */
static unsigned int api_expect_clean_page(struct kunit *test, void *page,
					  u32 first, const char *what)
{
	struct lrb_data_page *dp = page;
	unsigned long commit = local_read(&dp->commit) & ~LRB_MISSED_FLAGS;
	unsigned int off = 0, n = 0;
	struct lrb_event *ev;

	while (off < commit) {
		ev = (void *)&dp->data[off];
		KUNIT_ASSERT_LE_MSG(test, (unsigned int)ev->type_len,
				    LRB_TYPE_DATA_TYPE_LEN_MAX,
				    "%s: a %u event at %u: the page is not trimmed to its events",
				    what, ev->type_len, off);
		api_expect_odd_event(test, ev, first + n, what);
		off += lrb_kunit_event_size(API_ODD_LEN);
		n++;
	}
	api_expect_clean(test, page, api_page_used(page), what);
	return n;
}

/*
 * After laps of events full of a pattern, events whose payload does not
 * fill its last unit read back with zeros there, through every read path:
 * consume, peek, the iterator, a page copied and a page handed over whole;
 * a page handed over ends with its last event (the padding that fills the
 * rest of the page, whose body holds old bytes, is left out and cleared);
 * and a page given to lrb_read_page() full of another buffer's bytes goes
 * into the ring and comes out clean. With reserve and commit the caller
 * writes only its payload.
 */
static void no_old_byte_reaches_a_reader(struct kunit *test)
{
	unsigned int per_page = CAP / lrb_kunit_event_size(API_ODD_LEN), i, n;
	struct lrb_tb *tb = lrb_api_tb(test, 3 * CAP, LRB_FL_OVERWRITE);
	struct lrb_iter *iter;
	void *page, *given;
	u64 *w;
	int cpu;

	tb->counted = false;
	cpu = api_pin();
	api_laps_of_pattern(test, tb->b, cpu, 4);

	/* consume, peek and the iterator */
	for (i = 0; i < 8; i++)
		KUNIT_ASSERT_EQ(test, 0, lrb_tb_write_seq(tb, API_ODD_LEN, i));
	iter = lrb_read_start(tb->b, cpu);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, iter);
	for (i = 0; i < 8; i++) {
		api_expect_odd_event(test, lrb_iter_peek(iter, NULL), i, "iterator");
		lrb_iter_advance(iter);
	}
	KUNIT_EXPECT_EQ(test, lrb_read_finish(iter), 0);
	for (i = 0; i < 8; i++) {
		api_expect_odd_event(test, lrb_peek(tb->b, cpu, NULL, NULL), i, "peek");
		api_expect_odd_event(test, lrb_consume(tb->b, cpu, NULL, NULL), i,
				     "consume");
	}

	/*
	 * A page whose writer left, handed over whole, and one copied. The
	 * reset starts the writer on a page of its own; pages keep their bytes.
	 */
	api_laps_of_pattern(test, tb->b, cpu, 2);
	KUNIT_ASSERT_EQ(test, 0, lrb_reset_cpu(tb->b, cpu));
	for (i = 0; i < per_page + 3; i++)
		KUNIT_ASSERT_EQ(test, 0, lrb_tb_write_seq(tb, API_ODD_LEN, i));
	page = lrb_alloc_read_page(tb->b, cpu);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, page);
	given = page;
	KUNIT_EXPECT_EQ(test, lrb_read_page(tb->b, &page, PAGE_SIZE, cpu, false),
			(int)(per_page * lrb_kunit_event_size(API_ODD_LEN)));
	KUNIT_EXPECT_PTR_NE(test, page, given);
	KUNIT_EXPECT_EQ(test, api_expect_clean_page(test, page, 0, "page handed over"),
			per_page);
	KUNIT_EXPECT_GT(test, lrb_read_page(tb->b, &page, PAGE_SIZE, cpu, false), 0);
	KUNIT_EXPECT_EQ(test, api_expect_clean_page(test, page, per_page, "page copied"),
			3U);

	/*
	 * A page full of another buffer's bytes given for a page handed over:
	 * it becomes the reader's, goes into the ring at the next swap, and
	 * the writers fill it.
	 */
	KUNIT_ASSERT_EQ(test, 0, lrb_reset_cpu(tb->b, cpu));
	for (i = 0; i < per_page + 3; i++)
		KUNIT_ASSERT_EQ(test, 0, lrb_tb_write_seq(tb, API_ODD_LEN, i));
	for (w = page, i = 0; i < PAGE_SIZE / sizeof(*w); i++)
		w[i] = API_STALE_WORD;
	given = page;
	KUNIT_ASSERT_GT(test, lrb_read_page(tb->b, &page, PAGE_SIZE, cpu, false), 0);
	KUNIT_ASSERT_PTR_NE(test, page, given);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_NOT_NULL(test, lrb_consume(tb->b, cpu, NULL, NULL));
	for (n = 0; n < 3 * per_page; n++)
		KUNIT_ASSERT_EQ(test, 0, lrb_tb_write_seq(tb, API_ODD_LEN, n));
	/* Every page the ring hands over now, the foreign one among them */
	for (i = 0; i < 4; i++) {
		struct lrb_event *ev;

		if (lrb_read_page(tb->b, &page, PAGE_SIZE, cpu, false) <= 0)
			break;
		ev = (void *)((struct lrb_data_page *)page)->data;
		api_expect_clean_page(test, page,
				      lrb_kunit_payload_seq(lrb_event_data(ev)),
				      "page after another buffer's page went round");
	}
	KUNIT_EXPECT_GE(test, i, 3U);
	lrb_free_read_page(tb->b, cpu, page);
	api_unpin();
}

/* ---- time stamps ---------------------------------------------------------- */

/* Decode the events of a page handed out: their times, in order */
static unsigned int api_page_times(struct kunit *test, void *page, u64 *times,
				   unsigned int max)
{
	struct lrb_data_page *dp = page;
	unsigned long commit = local_read(&dp->commit) & ~LRB_MISSED_FLAGS;
	unsigned int off = 0, n = 0;
	struct lrb_event *ev;
	u64 t = dp->time_stamp, v;

	while (off < commit && n < max) {
		ev = (void *)&dp->data[off];
		switch (ev->type_len) {
		case LRB_TYPE_PADDING:
			return n;
		case LRB_TYPE_TIME_EXTEND:
			t += ((u64)ev->array[0] << LRB_TS_SHIFT) | ev->time_delta;
			off += 8;
			continue;
		case LRB_TYPE_TIME_STAMP:
			v = ((u64)ev->array[0] << LRB_TS_SHIFT) | ev->time_delta;
			t = (dp->time_stamp & ~((1ULL << 59) - 1)) | v;
			off += 8;
			continue;
		default:
			t += ev->time_delta;
			times[n++] = t;
			off += ev->type_len ? ev->type_len * 4 + 4 : ev->array[0] + 4;
		}
	}
	return n;
}

/*
 * The times of the events seq 0 .. n - 1 of cpu: through the iterator, then
 * through the pages lrb_read_page() hands over or copies (by_pages) or
 * through lrb_consume()
 */
static void api_expect_times(struct kunit *test, struct lrb_tb *tb, int cpu,
			     const u64 *want, unsigned int n, unsigned int len,
			     bool by_pages)
{
	u64 *got = kunit_kcalloc(test, n, sizeof(*got), GFP_KERNEL);
	struct lrb_iter *iter;
	struct lrb_event *ev;
	unsigned int i, k;
	void *page;
	u64 ts;

	KUNIT_ASSERT_NOT_NULL(test, got);
	iter = lrb_read_start(tb->b, cpu);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, iter);
	for (i = 0; i < n; i++) {
		ev = lrb_iter_peek(iter, &ts);
		KUNIT_ASSERT_NOT_NULL(test, ev);
		KUNIT_EXPECT_EQ_MSG(test, ts, want[i], "iterator, event %u", i);
		lrb_iter_advance(iter);
	}
	KUNIT_EXPECT_EQ(test, lrb_read_finish(iter), 0);
	if (!by_pages) {
		for (i = 0; i < n; i++) {
			ev = lrb_consume(tb->b, cpu, &ts, NULL);
			KUNIT_ASSERT_NOT_NULL(test, ev);
			KUNIT_EXPECT_TRUE(test,
					  lrb_kunit_payload_ok(lrb_event_data(ev), len, i));
			KUNIT_EXPECT_EQ_MSG(test, ts, want[i], "consume, event %u", i);
		}
		return;
	}
	page = lrb_alloc_read_page(tb->b, cpu);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, page);
	for (i = 0; i < n;) {
		if (lrb_read_page(tb->b, &page, PAGE_SIZE, cpu, false) <= 0)
			break;
		k = api_page_times(test, page, got + i, n - i);
		for (; k; k--, i++)
			KUNIT_EXPECT_EQ_MSG(test, got[i], want[i], "page read, event %u", i);
	}
	lrb_free_read_page(tb->b, cpu, page);
	KUNIT_EXPECT_EQ_MSG(test, i, n, "events in the pages read");
}

/* The writes of a time stamp case, made once for each read path */
typedef void (*api_writes_fn)(struct kunit *test, struct lrb_tb *tb, u64 *want);

static void api_times_every_path(struct kunit *test, struct lrb_tb *tb,
				 api_writes_fn writes, u64 *want, unsigned int n,
				 unsigned int len)
{
	int cpu, by_pages;

	KUNIT_ASSERT_EQ(test, 0, lrb_set_clock(tb->b, lrb_kunit_clock));
	for (by_pages = 0; by_pages < 2; by_pages++) {
		KUNIT_ASSERT_EQ(test, 0, lrb_reset(tb->b));
		memset(tb->ok, 0, nr_cpu_ids * sizeof(*tb->ok));
		memset(tb->next_seq, 0, nr_cpu_ids * sizeof(*tb->next_seq));
		cpu = api_pin();
		writes(test, tb, want);
		api_expect_times(test, tb, cpu, want, n, len, by_pages);
		api_unpin();
	}
	lrb_set_clock(tb->b, NULL);
}

#define API_CLOCK_BACK_EVENTS	200

static void api_clock_back_writes(struct kunit *test, struct lrb_tb *tb, u64 *want)
{
	unsigned int i;
	u64 clock;

	for (i = 0; i < API_CLOCK_BACK_EVENTS; i++) {
		clock = 1000000 + 1000 * i - (i >= 20 ? 500000 : 0);
		want[i] = i ? max(clock, want[i - 1]) : clock;
		lrb_kunit_clock_set(clock);
		KUNIT_ASSERT_EQ(test, 0, lrb_tb_write(tb, 100));
	}
}

/*
 * A clock that steps back by 500,000 after 20 events and then goes on: the
 * times read back are the clock's, but never below the one before, at the
 * first event of each page as everywhere else, through every read path.
 */
static void clock_back_clamped_at_page_starts(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 8 * CAP, 0);
	u64 *want = kunit_kcalloc(test, API_CLOCK_BACK_EVENTS, sizeof(*want),
				  GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, want);
	api_times_every_path(test, tb, api_clock_back_writes, want,
			     API_CLOCK_BACK_EVENTS, 100);
}

static const u64 api_jump_times[] = {
	1000, 2000, 2000 + (1ULL << 60), 3000 + (1ULL << 60),
	3000 + (1ULL << 60) + (1ULL << 59) + 7,
};

static void api_clock_jump_writes(struct kunit *test, struct lrb_tb *tb, u64 *want)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(api_jump_times); i++) {
		want[i] = api_jump_times[i];
		lrb_kunit_clock_set(want[i]);
		KUNIT_ASSERT_EQ(test, 0, lrb_tb_write(tb, 8));
	}
}

/*
 * A clock that jumps by more than a time extend carries (2^59): the event
 * after the jump starts a page, whose 64-bit stamp gives its exact time.
 */
static void clock_jump_beyond_extend_is_exact(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 8 * CAP, 0);
	u64 want[ARRAY_SIZE(api_jump_times)];

	api_times_every_path(test, tb, api_clock_jump_writes, want, ARRAY_SIZE(want), 8);
}

struct api_nest {
	struct lrb_tb	*tb;
	bool		armed;
	bool		wrote;
};

/* At the outer writer's RESERVED: the clock set back, a nested write */
static void api_nest_clock_back(struct lrb_buffer *b, int cpu,
				enum lrb_hook_point point, void *data)
{
	struct api_nest *nest = data;
	unsigned long flags;

	if (point != LRB_HOOK_RESERVED || in_interrupt() || !nest->armed)
		return;
	nest->armed = false;
	lrb_kunit_clock_set(5000);
	flags = lrb_kunit_nest_enter(1);
	nest->wrote = !lrb_tb_write_seq(nest->tb, 8, 2);
	lrb_kunit_nest_exit(1, flags);
}

static const u64 api_nest_times[] = { 9000, 10000, 10000, 10001 };

static void api_nest_writes(struct kunit *test, struct lrb_tb *tb, u64 *want)
{
	struct api_nest nest = { .tb = tb };

	memcpy(want, api_nest_times, sizeof(api_nest_times));
	lrb_kunit_clock_set(9000);
	KUNIT_ASSERT_EQ(test, 0, lrb_tb_write_seq(tb, 8, 0));
	KUNIT_ASSERT_EQ(test, 0, lrb_set_test_hook(tb->b, api_nest_clock_back, &nest));
	lrb_kunit_clock_set(10000);
	nest.armed = true;
	KUNIT_ASSERT_EQ(test, 0, lrb_tb_write_seq(tb, 8, 1));
	lrb_set_test_hook(tb->b, NULL, NULL);
	KUNIT_ASSERT_TRUE_MSG(test, nest.wrote, "the nested write did not happen");
	lrb_kunit_clock_set(10001);
	KUNIT_ASSERT_EQ(test, 0, lrb_tb_write_seq(tb, 8, 3));
}

/*
 * A writer interrupted between its reserve and the publication of its time
 * (the RESERVED hook point) by a writer whose clock went back: the nested
 * event's absolute stamp is below the event before it in the buffer. Every
 * read path reads it as the time of that event, not earlier.
 */
static void nested_clock_back_read_clamped(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 4 * CAP, 0);
	u64 want[ARRAY_SIZE(api_nest_times)];

	api_times_every_path(test, tb, api_nest_writes, want, ARRAY_SIZE(want), 8);
}

/* ---- bounds --------------------------------------------------------------- */

/*
 * 255 iterators on one CPU, and the next refused: the count of iterators
 * never carries into the bits that say a reset is at work or the ring is
 * broken. Recording on the CPU stays off until the last one finishes.
 */
static void iterators_per_cpu_are_bounded(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	struct lrb_iter **iters;
	struct lrb_stats st;
	unsigned int i, n = 0;
	int cpu;

	iters = kunit_kcalloc(test, 257, sizeof(*iters), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, iters);
	cpu = api_pin();
	for (i = 0; i < 256; i++) {
		iters[i] = lrb_read_start(tb->b, cpu);
		if (IS_ERR(iters[i]))
			break;
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 255U);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(iters[n]), -EBUSY);
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
	KUNIT_EXPECT_EQ(test, st.broken, 0UL);
	KUNIT_EXPECT_EQ(test, lrb_record_enable_cpu(tb->b, cpu), -EBUSY);
	KUNIT_EXPECT_EQ(test, lrb_tb_write(tb, 8), -ENOSPC);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, lrb_read_finish(iters[i]), 0);
	KUNIT_EXPECT_EQ(test, lrb_tb_write(tb, 8), 0);
	lrb_expect_read(test, tb, cpu, 0, 1, 8);
	api_unpin();
}

/*
 * A broken ring is not resized: lrb_resize() refuses it with -EIO and
 * changes nothing (no head to start from), on any CPU.
 */
static void resize_of_broken_ring_refused(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 4 * CAP, LRB_FL_OVERWRITE);
	struct lrb_snapshot *snap;
	struct lrb_stats st;
	int cpu;

	tb->counted = false;
	cpu = api_pin();
	lrb_write_n(test, tb, 4, MAXP);
	KUNIT_ASSERT_EQ(test, 0, lrb_test_set_next_flags(tb->b, cpu, 1,
							 LRB_SNAP_UPDATE));
	pr_info("lrb-kunit: expect one WARNING at lrb_set_broken\n");
	KUNIT_EXPECT_EQ(test, lrb_write(tb->b, 16, tb), -ENOSPC);
	api_unpin();
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
	KUNIT_ASSERT_EQ(test, st.broken, 1UL);

	KUNIT_EXPECT_EQ(test, lrb_resize(tb->b, 6 * CAP), -EIO);
	KUNIT_EXPECT_EQ(test, lrb_size(tb->b), 4 * CAP);
	snap = api_snapshot(test, tb, cpu);
	KUNIT_EXPECT_EQ(test, snap->nr_pages, 5U);
	KUNIT_EXPECT_TRUE(test, lrb_kunit_expect(test, snap, "p1 -U-> p2 --> p3 --> p4 -U->",
						 "nrU=2 nrH=0"));
	KUNIT_EXPECT_EQ(test, lrb_resize(tb->b, 2 * CAP), -EIO);
	KUNIT_EXPECT_EQ(test, lrb_size(tb->b), 4 * CAP);
	api_broken_ring_kept(test, tb, cpu);
}

/* ---- reset, recording, resize, empty ------------------------------------ */

static void reset_discards_and_zeroes(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, LRB_FL_OVERWRITE);
	struct lrb_snapshot *snap;
	struct lrb_stats st;
	int cpu;

	snap = kunit_kzalloc(test, sizeof(*snap), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, snap);
	cpu = api_pin();
	lrb_write_n(test, tb, 200, 64);
	KUNIT_EXPECT_NOT_NULL(test, lrb_consume(tb->b, cpu, NULL, NULL));
	api_unpin();

	KUNIT_EXPECT_EQ(test, 0, lrb_reset(tb->b));
	memset(tb->ok, 0, nr_cpu_ids * sizeof(*tb->ok));
	memset(tb->next_seq, 0, nr_cpu_ids * sizeof(*tb->next_seq));
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
	KUNIT_EXPECT_EQ(test, st.committed + st.read + st.overrun + st.entries +
			st.pages_lost + st.dropped, 0UL);
	KUNIT_EXPECT_TRUE(test, lrb_empty(tb->b));
	KUNIT_ASSERT_EQ(test, 0, lrb_snapshot(tb->b, cpu, snap));
	KUNIT_EXPECT_EQ(test, snap->reader, 0U);
	KUNIT_EXPECT_EQ(test, snap->head, 1U);
	KUNIT_EXPECT_EQ(test, snap->tail, 1U);
	KUNIT_EXPECT_EQ(test, snap->commit, 1U);

	cpu = api_pin();
	lrb_write_n(test, tb, 3, 64);
	lrb_expect_read(test, tb, cpu, 0, 3, 64);
	api_unpin();
}

static long lrb_write_on_cpu(void *data)
{
	struct lrb_tb *tb = data;

	return lrb_tb_write(tb, 24);
}

static void reset_cpu_only_that_cpu(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	int a, b;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs 2 online CPUs, %u online",
			   num_online_cpus());
	a = cpumask_first(cpu_online_mask);
	b = cpumask_next(a, cpu_online_mask);
	KUNIT_ASSERT_EQ(test, 0L, work_on_cpu(a, lrb_write_on_cpu, tb));
	KUNIT_ASSERT_EQ(test, 0L, work_on_cpu(b, lrb_write_on_cpu, tb));
	KUNIT_ASSERT_EQ(test, 0L, work_on_cpu(b, lrb_write_on_cpu, tb));
	KUNIT_EXPECT_EQ(test, lrb_entries(tb->b), 3UL);

	KUNIT_EXPECT_EQ(test, 0, lrb_reset_cpu(tb->b, b));
	tb->ok[b] = 0;
	KUNIT_EXPECT_EQ(test, lrb_entries_cpu(tb->b, a), 1UL);
	KUNIT_EXPECT_EQ(test, lrb_entries_cpu(tb->b, b), 0UL);
	KUNIT_EXPECT_TRUE(test, lrb_empty_cpu(tb->b, b));
	KUNIT_EXPECT_FALSE(test, lrb_empty_cpu(tb->b, a));
}

static void record_disable_and_enable(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	struct lrb_stats st;
	int cpu;

	cpu = api_pin();
	lrb_record_disable(tb->b);
	lrb_record_disable(tb->b);
	KUNIT_EXPECT_NULL(test, lrb_lock_reserve(tb->b, 8));
	tb->failed[cpu]++;
	KUNIT_EXPECT_EQ(test, lrb_record_enable(tb->b), 0);
	KUNIT_EXPECT_EQ(test, lrb_tb_write(tb, 8), -ENOSPC);
	KUNIT_EXPECT_EQ(test, lrb_record_enable(tb->b), 0);
	KUNIT_EXPECT_EQ(test, lrb_record_enable(tb->b), -EINVAL);
	KUNIT_EXPECT_EQ(test, lrb_tb_write(tb, 8), 0);

	KUNIT_EXPECT_EQ(test, lrb_record_disable_cpu(tb->b, cpu), 0);
	KUNIT_EXPECT_EQ(test, lrb_tb_write(tb, 8), -ENOSPC);
	KUNIT_EXPECT_EQ(test, lrb_record_enable_cpu(tb->b, cpu), 0);
	KUNIT_EXPECT_EQ(test, lrb_record_enable_cpu(tb->b, cpu), -EINVAL);
	KUNIT_EXPECT_EQ(test, lrb_tb_write(tb, 8), 0);
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
	KUNIT_EXPECT_EQ(test, st.rejected, 3UL);
	KUNIT_EXPECT_EQ(test, st.committed, 2UL);
	lrb_expect_read(test, tb, cpu, 0, 2, 8);
	api_unpin();
}

static void resize_grow_keeps_events(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	unsigned int per_page = CAP / EV100;
	int cpu;

	cpu = api_pin();
	lrb_write_n(test, tb, per_page + 5, 100);
	lrb_expect_read(test, tb, cpu, 0, 2, 100);
	api_unpin();

	KUNIT_ASSERT_EQ(test, 0, lrb_resize(tb->b, 5 * CAP));
	KUNIT_EXPECT_EQ(test, lrb_size(tb->b), 5 * CAP);
	lrb_kunit_dump(test, tb->b, cpu, "after growing from 2 to 5 pages:");
	KUNIT_EXPECT_TRUE(test, lrb_kunit_ring_sane(test, tb->b, cpu));

	/* Everything is still there, and there is room for 5 pages now */
	cpu = api_pin();
	lrb_write_n(test, tb, 3 * per_page, 100);
	lrb_expect_read(test, tb, cpu, 2, 4 * per_page + 3, 100);
	api_unpin();
}

static void resize_shrink_drops_oldest(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 5 * CAP, 0);
	unsigned int per_page = CAP / EV100;
	unsigned long lost;
	struct lrb_event *ev;
	struct lrb_stats st;
	int cpu;

	cpu = api_pin();
	lrb_write_n(test, tb, 4 * per_page + 2, 100);
	api_unpin();

	/* 5 ring pages: p1..p4 full, p5 holds 2; keep 2: p4 and p5 */
	KUNIT_ASSERT_EQ(test, 0, lrb_resize(tb->b, 2 * CAP));
	lrb_kunit_dump(test, tb->b, cpu, "after shrinking from 5 to 2 pages:");
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
	KUNIT_EXPECT_EQ(test, st.overrun, 3UL * per_page);
	KUNIT_EXPECT_EQ(test, st.entries, per_page + 2UL);
	KUNIT_EXPECT_EQ(test, lrb_size(tb->b), 2 * CAP);

	cpu = api_pin();
	ev = lrb_consume(tb->b, cpu, NULL, &lost);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, lrb_kunit_payload_seq(lrb_event_data(ev)),
			3 * per_page);
	KUNIT_EXPECT_EQ(test, lost, 3UL * per_page);
	lrb_expect_read(test, tb, cpu, 3 * per_page + 1, per_page + 1, 100);
	api_unpin();

	/* Shrinking an empty ring loses nothing */
	KUNIT_ASSERT_EQ(test, 0, lrb_resize(tb->b, 5 * CAP));
	KUNIT_ASSERT_EQ(test, 0, lrb_resize(tb->b, 3 * CAP));
	KUNIT_EXPECT_EQ(test, lrb_overrun_cpu(tb->b, cpu), 3UL * per_page);
}

/*
 * With the tail on the reader page, no ring page holds anything unread:
 * shrinking drops pages and loses nothing, and says so.
 */
static void resize_shrink_tail_on_reader_page(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 8 * CAP, LRB_FL_OVERWRITE);
	struct lrb_snapshot *snap;
	struct lrb_stats st;
	int cpu;

	cpu = api_pin();
	lrb_write_n(test, tb, 3, 100);
	lrb_expect_read(test, tb, cpu, 0, 3, 100);
	snap = api_snapshot(test, tb, cpu);
	KUNIT_ASSERT_EQ_MSG(test, snap->tail, snap->reader,
			    "the tail is not on the reader page");
	api_unpin();

	KUNIT_ASSERT_EQ(test, 0, lrb_resize(tb->b, 2 * CAP));
	lrb_kunit_dump(test, tb->b, cpu, "after shrinking from 8 to 2 pages:");
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
	KUNIT_EXPECT_EQ(test, st.pages_lost, 0UL);
	KUNIT_EXPECT_EQ(test, st.overrun, 0UL);
	KUNIT_EXPECT_EQ(test, st.entries, 0UL);

	cpu = api_pin();
	lrb_write_n(test, tb, 5, 100);
	lrb_expect_read(test, tb, cpu, 3, 5, 100);
	api_unpin();
}

static void resize_bad_size_changes_nothing(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 3 * CAP, 0);
	int cpu;

	cpu = api_pin();
	lrb_write_n(test, tb, 10, 40);
	api_unpin();
	KUNIT_EXPECT_EQ(test, lrb_resize(tb->b, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, lrb_resize(tb->b, ULONG_MAX), -EINVAL);
	KUNIT_EXPECT_EQ(test, lrb_size(tb->b), 3 * CAP);
	KUNIT_EXPECT_EQ(test, lrb_resize(tb->b, 3 * CAP), 0);
	cpu = api_pin();
	lrb_expect_read(test, tb, cpu, 0, 10, 40);
	api_unpin();
}

static void empty_transitions(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	unsigned int per_page = CAP / EV100;
	int cpu;

	cpu = api_pin();
	KUNIT_EXPECT_TRUE(test, lrb_empty(tb->b));
	KUNIT_EXPECT_TRUE(test, lrb_empty_cpu(tb->b, cpu));
	lrb_write_n(test, tb, 1, 100);
	KUNIT_EXPECT_FALSE(test, lrb_empty(tb->b));
	KUNIT_EXPECT_FALSE(test, lrb_empty_cpu(tb->b, cpu));
	lrb_expect_read(test, tb, cpu, 0, 1, 100);
	/* The reader met the commit on its own page */
	KUNIT_EXPECT_TRUE(test, lrb_empty_cpu(tb->b, cpu));
	lrb_write_n(test, tb, per_page, 100);
	KUNIT_EXPECT_FALSE(test, lrb_empty_cpu(tb->b, cpu));
	lrb_expect_read(test, tb, cpu, 1, per_page, 100);
	KUNIT_EXPECT_TRUE(test, lrb_empty(tb->b));
	api_unpin();
}

static void stats_per_cpu_and_totals(struct kunit *test)
{
	struct lrb_tb *tb = lrb_api_tb(test, 2 * CAP, 0);
	struct lrb_stats st, sum = {};
	unsigned int n = 0;
	int cpu, i;

	for_each_online_cpu(cpu) {
		for (i = 0; i <= cpu % 3; i++) {
			KUNIT_ASSERT_EQ(test, 0L,
					work_on_cpu(cpu, lrb_write_on_cpu, tb));
			n++;
		}
	}
	for_each_possible_cpu(cpu) {
		KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
		KUNIT_EXPECT_EQ(test, st.committed,
				cpu_online(cpu) ? cpu % 3 + 1UL : 0UL);
		sum.committed += st.committed;
		sum.entries += st.entries;
	}
	lrb_stats(tb->b, &st);
	KUNIT_EXPECT_EQ(test, st.committed, (unsigned long)n);
	KUNIT_EXPECT_EQ(test, st.committed, sum.committed);
	KUNIT_EXPECT_EQ(test, lrb_entries(tb->b), sum.entries);
	KUNIT_EXPECT_EQ(test, lrb_overruns(tb->b), 0UL);
}

static struct kunit_case lrb_api_cases[] = {
	KUNIT_CASE(alloc_rejects_bad_arguments),
	KUNIT_CASE(alloc_rounds_size_to_pages),
	KUNIT_CASE(null_and_bad_cpu_arguments),
	KUNIT_CASE(reserve_bad_length_changes_nothing),
	KUNIT_CASE_PARAM(write_read_payload_sizes, lrb_size_gen_params),
	KUNIT_CASE(max_payload_needs_page_start),
	KUNIT_CASE(page_end_padding),
	KUNIT_CASE(peek_then_consume_same_event),
	KUNIT_CASE(write_return_codes),
	KUNIT_CASE(commit_misuse),
	KUNIT_CASE(write_null_data_changes_nothing),
	KUNIT_CASE(read_finish_twice_is_refused),
	KUNIT_CASE(record_enable_cpu_keeps_iteration),
	KUNIT_CASE(recursion_is_refused_and_counted),
	KUNIT_CASE(broken_ring_stops_recording),
	KUNIT_CASE(producer_consumer_full_drops),
	KUNIT_CASE(overwrite_full_counts_overrun_and_lost),
	KUNIT_CASE(time_extend_with_injected_clock),
	KUNIT_CASE(clock_going_backwards_is_clamped),
	KUNIT_CASE(local_clock_is_the_default),
	KUNIT_CASE(iterator_matches_consume),
	KUNIT_CASE(iterator_restarts_after_consume),
	KUNIT_CASE(read_page_swaps_full_copies_partial),
	KUNIT_CASE(read_page_after_consume_skips_padding),
	KUNIT_CASE(read_page_reports_missed_events),
	KUNIT_CASE(read_page_hands_out_no_stale_bytes),
	KUNIT_CASE(stale_reads_keep_every_read_exact),
	KUNIT_CASE(read_page_hexdump_for_kbuffer),
	KUNIT_CASE(no_old_byte_reaches_a_reader),
	KUNIT_CASE(clock_back_clamped_at_page_starts),
	KUNIT_CASE(clock_jump_beyond_extend_is_exact),
	KUNIT_CASE(nested_clock_back_read_clamped),
	KUNIT_CASE(iterators_per_cpu_are_bounded),
	KUNIT_CASE(resize_of_broken_ring_refused),
	KUNIT_CASE(reset_discards_and_zeroes),
	KUNIT_CASE(reset_cpu_only_that_cpu),
	KUNIT_CASE(record_disable_and_enable),
	KUNIT_CASE(resize_grow_keeps_events),
	KUNIT_CASE(resize_shrink_drops_oldest),
	KUNIT_CASE(resize_shrink_tail_on_reader_page),
	KUNIT_CASE(resize_bad_size_changes_nothing),
	KUNIT_CASE(empty_transitions),
	KUNIT_CASE(stats_per_cpu_and_totals),
	{}
};

static struct kunit_suite lrb_api_suite = {
	.name = "lrb_api",
	.init = lrb_kunit_kcsan_ignore_kernel,
	.test_cases = lrb_api_cases,
};

kunit_test_suite(lrb_api_suite);
