// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_kernel_rb: the differential run. The stress engine of lrb_stress
 * (lrb_stress_engine.c) on the kernel's tracing ring buffer
 * (kernel/trace/ring_buffer.c) through its row of the implementation table
 * (lrb_impl_kernel.c), with the same
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
 * entries. It takes a nested writer;
 * lrb_smp_kernel.reader_between_loads_outer_writer_commits drives it step by
 * step with the kernel's hook points, and the stress runs check that every
 * unreported gap is one of those.
 * inspector_draws_a_kernel_ring draws the kernel's ring with lrb's renderer
 * and checks it in the design document's notation (lrb_krb_snapshot.c).
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/rcupdate.h>
#include <linux/ring_buffer.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "ring_buffer_test.h"
#include "lrb_kunit.h"
#include "lrb_kunit_impl.h"
#include "lrb_stress_engine.h"

static struct stress_ops krb_stress_ops = {
	.impl = &lrb_kunit_impl_kernel,
	/* rb_get_reader_page() race: docs/kernel-rb-differences.md */
	.silent_loss = true,
	/* Its iterator's drop report with nothing lost: the same document */
	.iter_false_drops = true,
};

static void stress_run_once(struct kunit *test)
{
	krb_stress_ops.silent_loss = !lrb_kunit_krb_fixed();
	stress_engine_run(test, &krb_stress_ops);
}

/* ---- the documented differences, one by one ----------------------------- */

KUNIT_DEFINE_ACTION_WRAPPER(krb_free_action, ring_buffer_free,
			    struct trace_buffer *);

static struct trace_buffer *krb_test_buffer(struct kunit *test, bool overwrite)
{
	struct trace_buffer *b = ring_buffer_alloc(4 * LRB_KUNIT_CAPACITY,
						   overwrite ? RB_FL_OVERWRITE : 0);

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
	KUNIT_EXPECT_EQ(test, 0, lrb_kunit_krb_stats(b, cpu, &st));
	migrate_enable();
	KUNIT_EXPECT_EQ(test, 3UL, st.committed);
	KUNIT_EXPECT_EQ(test, 0UL, st.dropped + st.commit_overrun + st.overrun);
}

/* ring_buffer_read_page() returns where the data starts, not its length */
static void read_page_returns_offset(struct kunit *test)
{
	struct trace_buffer *b = krb_test_buffer(test, false);
	struct buffer_data_read_page *page = NULL;
	unsigned long commit = 0;
	int cpu, err, ret = 0, again = 0;

	migrate_disable();
	cpu = smp_processor_id();
	KUNIT_EXPECT_EQ(test, 4, krb_test_write(b, 4, 20));
	err = ring_buffer_alloc_read_page(b, cpu, &page);
	if (!err) {
		ret = ring_buffer_read_page(b, page, PAGE_SIZE, cpu, 0);
		commit = local_read(&((struct lrb_data_page *)
				      ring_buffer_read_page_data(page))->commit);
		again = ring_buffer_read_page(b, page, PAGE_SIZE, cpu, 0);
	}
	if (page)
		ring_buffer_free_read_page(b, cpu, page);
	migrate_enable();
	KUNIT_ASSERT_EQ(test, 0, err);
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
	KUNIT_EXPECT_EQ(test, 0, lrb_kunit_krb_stats(b, cpu, &st));
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
	/*
	 * lrb stores it in 12 bytes and reports 8. With 8-byte alignment
	 * (RB_FORCE_8BYTE_ALIGNMENT) the kernel's event carries its length
	 * word and is 16 bytes anyway: its payload is reported as written.
	 */
	KUNIT_EXPECT_EQ(test, IS_ENABLED(CONFIG_HAVE_64BIT_ALIGNED_ACCESS) ? 8U : 12U,
			ring_buffer_event_length(ev));
}

/* ---- the kernel's hook points (CONFIG_RING_BUFFER_TEST_HOOKS) ---------- */

#define KRB_TRACE_MAX	48

struct krb_trace {
	int			cpu;
	unsigned int		n;
	enum rb_hook_point	seen[KRB_TRACE_MAX];
};

static void krb_trace_hook(struct trace_buffer *b, int cpu,
			   enum rb_hook_point point, void *data)
{
	struct krb_trace *t = data;

	if (cpu != t->cpu)
		return;
	if (t->n < KRB_TRACE_MAX)
		t->seen[t->n] = point;
	t->n++;
}

static void krb_trace_print(struct kunit *test, const char *what,
			    const struct krb_trace *t, unsigned int from,
			    unsigned int to)
{
	char line[512];
	unsigned int i;
	int len = 0;

	line[0] = '\0';
	for (i = from; i < min(to, KRB_TRACE_MAX) && len < sizeof(line); i++)
		len += scnprintf(line + len, sizeof(line) - len, " %s",
				 ring_buffer_hook_name(t->seen[i]));
	kunit_info(test, "%s:%s", what, line);
}

/* Whether want[] happens in t->seen[from..], in that order */
static bool krb_trace_has(const struct krb_trace *t, unsigned int from,
			  const enum rb_hook_point *want, unsigned int n)
{
	unsigned int i, k = 0;

	for (i = from; i < min(t->n, KRB_TRACE_MAX) && k < n; i++)
		if (t->seen[i] == want[k])
			k++;
	return k == n;
}

/*
 * The kernel's hook points, on one write and the read that swaps its page
 * out of the ring: the write goes through the fast path of the time stamp
 * and commits as the outermost writer; the reader finds its page empty,
 * passes the size check and the commit-page check (the window of the race
 * in docs/kernel-rb-differences.md), finds the head and swaps.
 */
static void hooks_trace_a_write_and_a_swap(struct kunit *test)
{
	static const enum rb_hook_point write[] = {
		RB_HOOK_STAMP, RB_HOOK_RESERVED, RB_HOOK_STAMP_AFTER,
		RB_HOOK_COMMIT_BEFORE, RB_HOOK_COMMIT_AFTER,
	};
	static const enum rb_hook_point swap[] = {
		RB_HOOK_READER_LOOK, RB_HOOK_READER_SIZE, RB_HOOK_READER_FIND,
		RB_HOOK_READER_HEAD_FOUND, RB_HOOK_READER_BEFORE_SWAP,
		RB_HOOK_READER_AFTER_SWAP, RB_HOOK_READER_DONE,
		RB_HOOK_READER_LOOK, RB_HOOK_READER_EVENTS,
	};
	struct trace_buffer *b = krb_test_buffer(test, false);
	struct krb_trace *t;
	unsigned int i, written;

	if (!IS_ENABLED(CONFIG_RING_BUFFER_TEST_HOOKS))
		kunit_skip(test, "the kernel's hook points need CONFIG_RING_BUFFER_TEST_HOOKS");
	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	migrate_disable();
	t->cpu = smp_processor_id();
	KUNIT_ASSERT_EQ(test, 0, ring_buffer_set_test_hook(b, krb_trace_hook, t));
	KUNIT_EXPECT_EQ(test, 1, krb_test_write(b, 1, 16));
	written = t->n;
	KUNIT_EXPECT_NOT_NULL(test, ring_buffer_consume(b, t->cpu, NULL, NULL));
	migrate_enable();
	KUNIT_EXPECT_EQ(test, 0, ring_buffer_set_test_hook(b, NULL, NULL));
	krb_trace_print(test, "write", t, 0, written);
	krb_trace_print(test, "consume", t, written, t->n);
	KUNIT_ASSERT_LE_MSG(test, t->n, KRB_TRACE_MAX, "more hook calls than recorded");
	KUNIT_ASSERT_EQ(test, written, (unsigned int)ARRAY_SIZE(write));
	for (i = 0; i < written; i++)
		KUNIT_EXPECT_EQ_MSG(test, t->seen[i], write[i], "write step %u: %s", i,
				    ring_buffer_hook_name(t->seen[i]));
	KUNIT_EXPECT_TRUE_MSG(test, krb_trace_has(t, written, swap, ARRAY_SIZE(swap)),
			      "the read did not go through the swap's steps in order");
	for (i = written; i < t->n; i++)
		KUNIT_EXPECT_TRUE_MSG(test, t->seen[i] != RB_HOOK_READER_SWAP_FAILED &&
				      t->seen[i] != RB_HOOK_READER_SPIN,
				      "step %u: %s with no writer running", i,
				      ring_buffer_hook_name(t->seen[i]));
}

/* ---- the kernel's ring drawn by lrb's renderer -------------------------- */

/* Payload of the drawn case: 1008 bytes stored, 4 to a page, 48 bytes spare */
#define KRB_DRAWN_LEN		1000
#define KRB_DRAWN_STORED	(KRB_DRAWN_LEN + 8)

static void krb_drawn_check(struct kunit *test, struct trace_buffer *b, int cpu,
			    struct lrb_snapshot *snap, const char *title,
			    const char *ring, const char *props)
{
	KUNIT_ASSERT_EQ(test, 0, lrb_kunit_krb_snapshot(b, cpu, snap));
	lrb_kunit_render(test, snap, title);
	KUNIT_EXPECT_EQ(test, snap->nr_pages, 5U);
	KUNIT_EXPECT_TRUE(test, snap->ring_ok);
	KUNIT_EXPECT_EQ(test, snap->outside, snap->reader);
	KUNIT_EXPECT_TRUE(test, lrb_kunit_expect(test, snap, ring, props));
}

/*
 * The kernel's ring in lrb's notation. It allocates the reader page first
 * (p0, its next and prev pointing to itself: the design document's rule
 * does not call it the reader page before the first swap), then the ring,
 * whose first page is the head, tail and commit page (p1), the last one's
 * next pointer flagged HEAD. Eight events of 1008 bytes fill p1 and p2
 * (time extends, 8 bytes each, fit in the 48 bytes left on a page); the
 * fifth moves the tail to p2, padding the rest of p1. Consuming one swaps
 * the empty reader page in for the head: p0 goes into the ring, pointing
 * to the new head, p2, and p1 is the reader page, read up to one event.
 */
static void inspector_draws_a_kernel_ring(struct kunit *test)
{
	struct trace_buffer *b = krb_test_buffer(test, false);
	struct lrb_snapshot *snap;
	char props[320];
	int cpu, ret, written;

	/* Four events to a page, the fifth on the next one */
	if (LRB_KUNIT_CAPACITY / KRB_DRAWN_STORED != 4)
		kunit_skip(test, "drawn for 4 KiB pages, not %lu", PAGE_SIZE);
	snap = kunit_kzalloc(test, sizeof(*snap), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, snap);
	/* Every CPU's ring is as allocated: any of them will do */
	cpu = raw_smp_processor_id();
	ret = lrb_kunit_krb_snapshot(b, cpu, snap);
	if (ret == -EOPNOTSUPP)
		kunit_skip(test, "the kernel's inspector needs CONFIG_RING_BUFFER_TEST_HOOKS");
	KUNIT_ASSERT_EQ(test, ret, 0);
	krb_drawn_check(test, b, cpu, snap, "allocated:",
			"p1 --> p2 --> p3 --> p4 -H->",
			"reader=p0 head=p1 tail=p1 commit=p1 hint=p1 rnext=p0 rprev=p0 rule=- nrH=1 nrU=0 committed=0");

	migrate_disable();
	cpu = smp_processor_id();
	written = krb_test_write(b, 8, KRB_DRAWN_LEN);
	migrate_enable();
	KUNIT_ASSERT_EQ(test, written, 8);

	snprintf(props, sizeof(props),
		 "reader=p0 head=p1 tail=p2 commit=p2 hint=p1 rnext=p0 rprev=p0 rflag=N rule=- nrH=1 nrU=0 committing=0 committed=8 entries=8 read=0 overrun=0 dropped=0 commit_overrun=0 p1.entries=4 p1.write=%lu p1.commit=%lu p2.entries=4 p3.entries=0 p4.entries=0",
		 (unsigned long)LRB_KUNIT_CAPACITY, (unsigned long)LRB_KUNIT_CAPACITY);
	krb_drawn_check(test, b, cpu, snap, "8 events of 1008 bytes written:",
			"p1 --> p2 --> p3 --> p4 -H->", props);

	KUNIT_ASSERT_NOT_NULL(test, ring_buffer_consume(b, cpu, NULL, NULL));
	snprintf(props, sizeof(props),
		 "reader=p1 head=p2 tail=p2 commit=p2 hint=p2 rnext=p2 rprev=p4 rflag=N rule=p1 nrH=1 nrU=0 committing=0 committed=8 entries=7 read=1 overrun=0 p1.read=%d p1.entries=4 p0.write=0 p0.commit=0 p0.entries=0",
		 KRB_DRAWN_STORED);
	krb_drawn_check(test, b, cpu, snap, "one event consumed, the reader page swapped:",
			"p0 -H-> p2 --> p3 --> p4 -->", props);
}

static struct kunit_case lrb_kernel_rb_cases[] = {
	KUNIT_CASE(disabled_writes_uncounted),
	KUNIT_CASE(read_page_returns_offset),
	KUNIT_CASE(iterator_does_not_stop_writers),
	KUNIT_CASE(small_event_grown),
	KUNIT_CASE(hooks_trace_a_write_and_a_swap),
	KUNIT_CASE(inspector_draws_a_kernel_ring),
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
