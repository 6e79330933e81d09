// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_kernel_rb: the differential run. The stress engine of lrb_stress
 * (lrb_stress_engine.c) on the kernel's tracing ring buffer
 * (kernel/trace/ring_buffer.c) through a small adapter, with the same
 * cases; where the kernel's buffer behaves differently by design, the
 * checks follow its documented behaviour (docs/kernel-rb-differences.md):
 *  - its iterator reads while writers write, and ring_buffer_iter_dropped()
 *    says when writers overwrote what it was reading; lrb stops recording
 *    on that CPU instead;
 *  - writes refused because recording is disabled are not counted (lrb
 *    counts them as rejected); the engine never disables recording here;
 *  - ring_buffer_read_page() returns the offset of the data in the page (0)
 *    rather than its length, which is in the page's commit field;
 *  - it keeps no count of pages lost (pages_lost stays 0).
 * And one bug: rb_get_reader_page() reads the reader page's commit before
 * the commit page, so a writer that publishes the rest of the reader page
 * and moves the commit in between makes the reader swap that page out with
 * events unread; they are lost without a report, and stay counted in the
 * entries. The stress runs check that every unreported gap is one of those.
 */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/rcupdate.h>
#include <linux/ring_buffer.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "lrb_kunit.h"
#include "lrb_stress_engine.h"

static void *krb_alloc(unsigned long size, bool overwrite)
{
	return ring_buffer_alloc(size, overwrite ? RB_FL_OVERWRITE : 0);
}

static void krb_free(void *buf)
{
	ring_buffer_free(buf);
}

static void *krb_reserve(void *buf, unsigned int len)
{
	return ring_buffer_lock_reserve(buf, len);
}

static void krb_commit(void *buf, void *ev)
{
	ring_buffer_unlock_commit(buf);
}

static void *krb_event_data(void *ev)
{
	return ring_buffer_event_data(ev);
}

static unsigned int krb_event_length(void *ev)
{
	return ring_buffer_event_length(ev);
}

static void *krb_consume(void *buf, int cpu, unsigned long *lost)
{
	return ring_buffer_consume(buf, cpu, NULL, lost);
}

static void *krb_peek(void *buf, int cpu)
{
	return ring_buffer_peek(buf, cpu, NULL, NULL);
}

static void *krb_read_start(void *buf, int cpu)
{
	return ring_buffer_read_start(buf, cpu, GFP_KERNEL);
}

static void *krb_iter_peek(void *iter)
{
	return ring_buffer_iter_peek(iter, NULL);
}

static void krb_iter_advance(void *iter)
{
	ring_buffer_iter_advance(iter);
}

static bool krb_iter_dropped(void *iter)
{
	return ring_buffer_iter_dropped(iter);
}

static void krb_read_finish(void *iter)
{
	ring_buffer_read_finish(iter);
}

static void *krb_alloc_read_page(void *buf, int cpu)
{
	struct buffer_data_read_page *rpage = NULL;
	int ret = ring_buffer_alloc_read_page(buf, cpu, &rpage);

	if (ret) {
		if (rpage)
			ring_buffer_free_read_page(buf, cpu, rpage);
		return ERR_PTR(ret);
	}
	return rpage;
}

static void krb_free_read_page(void *buf, int cpu, void *page)
{
	ring_buffer_free_read_page(buf, cpu, page);
}

/*
 * The kernel's read page returns where the data starts (always 0: it only
 * swaps unread pages and copies to the start); the length is the commit
 * field without the missed-events flags, which are lrb's bits.
 */
static int krb_read_page(void *buf, void **page, int cpu,
			 struct lrb_data_page **data)
{
	struct lrb_data_page *dp;
	int ret;

	ret = ring_buffer_read_page(buf, *page, PAGE_SIZE, cpu, 0);
	if (ret < 0)
		return 0;
	dp = ring_buffer_read_page_data(*page);
	*data = dp;
	return (local_read(&dp->commit) & ~LRB_MISSED_FLAGS) - ret;
}

static int krb_stats(void *buf, int cpu, struct lrb_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -EINVAL;
	st->read = ring_buffer_read_events_cpu(buf, cpu);
	st->overrun = ring_buffer_overrun_cpu(buf, cpu);
	st->entries = ring_buffer_entries_cpu(buf, cpu);
	/* entries is the committed count minus overrun and read */
	st->committed = st->entries + st->overrun + st->read;
	st->commit_overrun = ring_buffer_commit_overrun_cpu(buf, cpu);
	st->dropped = ring_buffer_dropped_events_cpu(buf, cpu);
	return 0;
}

static const struct stress_ops krb_stress_ops = {
	.alloc = krb_alloc,
	.free = krb_free,
	.reserve = krb_reserve,
	.commit = krb_commit,
	.event_data = krb_event_data,
	.event_length = krb_event_length,
	.consume = krb_consume,
	.peek = krb_peek,
	.read_start = krb_read_start,
	.iter_peek = krb_iter_peek,
	.iter_advance = krb_iter_advance,
	.iter_dropped = krb_iter_dropped,
	.read_finish = krb_read_finish,
	.alloc_read_page = krb_alloc_read_page,
	.free_read_page = krb_free_read_page,
	.read_page = krb_read_page,
	.stats = krb_stats,
	.live_iterator = true,
	/* rb_get_reader_page() race: docs/kernel-rb-differences.md */
	.silent_loss = true,
};

static void stress_run_once(struct kunit *test)
{
	stress_engine_run(test, &krb_stress_ops);
}

/* ---- the documented differences, one by one ----------------------------- */

KUNIT_DEFINE_ACTION_WRAPPER(krb_free_action, ring_buffer_free,
			    struct trace_buffer *);

static struct trace_buffer *krb_test_buffer(struct kunit *test, bool overwrite)
{
	struct trace_buffer *b = krb_alloc(4 * LRB_KUNIT_CAPACITY, overwrite);

	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, krb_free_action, b));
	return b;
}

/* Write n events of len bytes on this CPU; the caller keeps it on the CPU */
static int krb_test_write(struct trace_buffer *b, unsigned int n,
			  unsigned int len)
{
	struct ring_buffer_event *ev;
	unsigned int i, ok = 0;

	for (i = 0; i < n; i++) {
		ev = ring_buffer_lock_reserve(b, len);
		if (!ev)
			continue;
		memset(ring_buffer_event_data(ev), i, len);
		ring_buffer_unlock_commit(b);
		ok++;
	}
	return ok;
}

/* Writes refused while recording is off are not counted anywhere */
static void disabled_writes_uncounted(struct kunit *test)
{
	struct trace_buffer *b = krb_test_buffer(test, false);
	struct lrb_stats st;
	int cpu;

	migrate_disable();
	cpu = smp_processor_id();
	ring_buffer_record_disable_cpu(b, cpu);
	synchronize_rcu();
	KUNIT_EXPECT_EQ(test, 0, krb_test_write(b, 10, 16));
	ring_buffer_record_enable_cpu(b, cpu);
	KUNIT_EXPECT_EQ(test, 3, krb_test_write(b, 3, 16));
	KUNIT_EXPECT_EQ(test, 0, krb_stats(b, cpu, &st));
	migrate_enable();
	KUNIT_EXPECT_EQ(test, 3UL, st.committed);
	KUNIT_EXPECT_EQ(test, 0UL, st.dropped + st.commit_overrun + st.overrun);
}

/* ring_buffer_read_page() returns where the data starts, not its length */
static void read_page_returns_offset(struct kunit *test)
{
	struct trace_buffer *b = krb_test_buffer(test, false);
	unsigned long commit = 0;
	int cpu, ret = 0, again = 0;
	void *page;

	migrate_disable();
	cpu = smp_processor_id();
	KUNIT_EXPECT_EQ(test, 4, krb_test_write(b, 4, 20));
	page = krb_alloc_read_page(b, cpu);
	if (!IS_ERR(page)) {
		ret = ring_buffer_read_page(b, page, PAGE_SIZE, cpu, 0);
		commit = local_read(&((struct lrb_data_page *)
				      ring_buffer_read_page_data(page))->commit);
		again = ring_buffer_read_page(b, page, PAGE_SIZE, cpu, 0);
		ring_buffer_free_read_page(b, cpu, page);
	}
	migrate_enable();
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, page);
	KUNIT_EXPECT_EQ(test, 0, ret);
	/* 4 events of 4 + 20 bytes, maybe time extends: at least 96 bytes */
	KUNIT_EXPECT_GE(test, commit & ~LRB_MISSED_FLAGS, 4UL * 24);
	/* Nothing left: -1, not an errno */
	KUNIT_EXPECT_EQ(test, -1, again);
}

/* The iterator does not stop the writers */
static void iterator_does_not_stop_writers(struct kunit *test)
{
	struct trace_buffer *b = krb_test_buffer(test, false);
	struct ring_buffer_iter *iter;
	struct lrb_stats st;
	int cpu;

	/* migrate_disable() lets ring_buffer_read_start() sleep */
	migrate_disable();
	cpu = smp_processor_id();
	KUNIT_EXPECT_EQ(test, 2, krb_test_write(b, 2, 16));
	iter = ring_buffer_read_start(b, cpu, GFP_KERNEL);
	if (iter) {
		KUNIT_EXPECT_EQ(test, 2, krb_test_write(b, 2, 16));
		KUNIT_EXPECT_NOT_NULL(test, ring_buffer_iter_peek(iter, NULL));
		KUNIT_EXPECT_FALSE(test, ring_buffer_iter_dropped(iter));
		ring_buffer_read_finish(iter);
	}
	KUNIT_EXPECT_EQ(test, 0, krb_stats(b, cpu, &st));
	migrate_enable();
	KUNIT_EXPECT_NOT_NULL(test, iter);
	KUNIT_EXPECT_EQ(test, 4UL, st.committed);
	KUNIT_EXPECT_EQ(test, 0UL, st.dropped + st.commit_overrun);
}

/* An 8-byte payload takes 16 bytes: room for a later time extend */
static void small_event_grown(struct kunit *test)
{
	struct trace_buffer *b = krb_test_buffer(test, false);
	struct ring_buffer_event *ev;
	int cpu;

	migrate_disable();
	cpu = smp_processor_id();
	KUNIT_EXPECT_EQ(test, 1, krb_test_write(b, 1, 8));
	migrate_enable();
	ev = ring_buffer_consume(b, cpu, NULL, NULL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	/* lrb stores it in 12 bytes and reports 8 */
	KUNIT_EXPECT_EQ(test, 12U, ring_buffer_event_length(ev));
}

static struct kunit_case lrb_kernel_rb_cases[] = {
	KUNIT_CASE(disabled_writes_uncounted),
	KUNIT_CASE(read_page_returns_offset),
	KUNIT_CASE(iterator_does_not_stop_writers),
	KUNIT_CASE(small_event_grown),
	KUNIT_CASE_PARAM_ATTR(stress_run_once, stress_engine_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite lrb_kernel_rb_suite = {
	.name = "lrb_kernel_rb",
	.init = lrb_kunit_kcsan_ignore_kernel,
	.test_cases = lrb_kernel_rb_cases,
};

kunit_test_suite(lrb_kernel_rb_suite);
