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
 * entries. It takes a nested writer; reader_size_check_race_loses_outer_event
 * drives it step by step with the kernel's hook points, and the stress runs
 * check that every unreported gap is one of those.
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
#include <linux/ring_buffer_test.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "lrb_kunit.h"
#include "lrb_kunit_impl.h"
#include "lrb_stress_engine.h"

/*
 * The kernel under test carries the fix of docs/upstream/ (`make
 * kernel-fix`): the race case expects no loss, and the stress runs allow
 * no unreported one.
 */
static bool krb_fixed;
module_param(krb_fixed, bool, 0444);
MODULE_PARM_DESC(krb_fixed, "the kernel's reader-page race is fixed: expect no loss");

static struct stress_ops krb_stress_ops = {
	.impl = &lrb_kunit_impl_kernel,
	/* rb_get_reader_page() race: docs/kernel-rb-differences.md */
	.silent_loss = true,
};

static void stress_run_once(struct kunit *test)
{
	krb_stress_ops.silent_loss = !krb_fixed;
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
	/* lrb stores it in 12 bytes and reports 8 */
	KUNIT_EXPECT_EQ(test, 12U, ring_buffer_event_length(ev));
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

/* ---- the reader-page race, driven step by step ------------------------- */

#define KRB_RACE_WAIT_NS	(5ULL * NSEC_PER_SEC)

struct krb_race {
	struct trace_buffer	*b;
	int			wcpu;
	unsigned int		nested_len;
	atomic_t		stage;
	bool			armed;		/* hooks act from now on */
	bool			nested_done;
	bool			writer_paused;
	bool			reader_paused;
	bool			timed_out;
	int			outer_ok;
	struct completion	done;
};

static void krb_race_signal(struct krb_race *r, int stage)
{
	atomic_set_release(&r->stage, stage);
}

static bool krb_race_wait(struct krb_race *r, int stage)
{
	if (lrb_kunit_wait_stage(&r->stage, stage, KRB_RACE_WAIT_NS))
		return true;
	WRITE_ONCE(r->timed_out, true);
	return false;
}

/*
 * Writer side (on wcpu): the outer write's reservation is interrupted by a
 * nested writer, admitted by the recursion guard as the kernel admits one
 * (ring_buffer_nest_start()), whose event does not fit on the page: it moves
 * the tail to the next page and leaves its commit to the outer writer. The
 * outer writer then waits before its commit until the reader is inside its
 * window. Reader side: paused between its size check and its commit-page
 * check while the outer writer commits.
 */
static void krb_race_hook(struct trace_buffer *b, int cpu,
			  enum rb_hook_point point, void *data)
{
	struct krb_race *r = data;
	struct ring_buffer_event *ev;

	if (!READ_ONCE(r->armed) || cpu != r->wcpu)
		return;
	if (point == RB_HOOK_RESERVED && !r->nested_done &&
	    smp_processor_id() == r->wcpu) {
		r->nested_done = true;
		ring_buffer_nest_start(b);
		ev = ring_buffer_lock_reserve(b, r->nested_len);
		if (ev) {
			memset(ring_buffer_event_data(ev), 3, r->nested_len);
			ring_buffer_unlock_commit(b);
		}
		ring_buffer_nest_end(b);
	} else if (point == RB_HOOK_COMMIT_BEFORE && !r->writer_paused &&
		   smp_processor_id() == r->wcpu) {
		r->writer_paused = true;
		krb_race_signal(r, 1);
		krb_race_wait(r, 2);
	} else if (point == RB_HOOK_READER_SIZE && !r->reader_paused &&
		   smp_processor_id() != r->wcpu) {
		r->reader_paused = true;
		krb_race_signal(r, 2);
		krb_race_wait(r, 3);
	}
}

static int krb_race_writer(void *data)
{
	struct krb_race *r = data;
	struct ring_buffer_event *ev;

	ev = ring_buffer_lock_reserve(r->b, 16);
	if (ev) {
		memset(ring_buffer_event_data(ev), 2, 16);
		ring_buffer_unlock_commit(r->b);
		r->outer_ok = 1;
	}
	krb_race_signal(r, 3);
	complete(&r->done);
	lrb_kunit_wait_for_stop();
	return 0;
}

static long krb_race_first_write(void *data)
{
	return krb_test_write(data, 1, 16) == 1 ? 0 : -ENOSPC;
}

/* The byte every payload byte of an event is: which write made it */
static u8 krb_event_mark(struct ring_buffer_event *ev)
{
	return *(u8 *)ring_buffer_event_data(ev);
}

/*
 * With the fix, the reader that saw the commit on its page before its
 * size check stops there: it gets nothing, and the next reads get the
 * outer event, then the nested one, with nothing lost.
 */
static void krb_race_expect_no_loss(struct kunit *test, struct krb_race *r,
				    struct ring_buffer_event *ev)
{
	unsigned long lost = 0;

	KUNIT_EXPECT_NULL_MSG(test, ev, "the reader took a page while the commit was on it");
	ev = ring_buffer_consume(r->b, r->wcpu, NULL, &lost);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ_MSG(test, krb_event_mark(ev), 2, "the outer event first");
	KUNIT_EXPECT_EQ(test, lost, 0UL);
	ev = ring_buffer_consume(r->b, r->wcpu, NULL, &lost);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ_MSG(test, krb_event_mark(ev), 3, "then the nested one");
	KUNIT_EXPECT_EQ(test, lost, 0UL);
	KUNIT_EXPECT_NULL(test, ring_buffer_consume(r->b, r->wcpu, NULL, NULL));
	KUNIT_EXPECT_EQ(test, ring_buffer_entries_cpu(r->b, r->wcpu), 0UL);
	kunit_info(test, "with the fix: the paused reader got nothing, then the outer event and the nested one, nothing lost");
}

/*
 * rb_get_reader_page() checks the reader page's size before it checks
 * whether the commit is on that page. The reader has read everything
 * (reader page = commit page = tail page); an outer writer reserves on the
 * reader page, a nested one fills it and moves the tail on, and the reader
 * passes its size check (nothing new committed) before the outer writer
 * commits, and its commit-page check (the commit moved on) after: it swaps
 * the reader page back into the ring with the outer event on it, unread and
 * unreported. The case asserts that the loss happens, every run, so that it
 * notices the day the kernel's order changes (docs/kernel-rb-differences.md);
 * with lrb_kunit.krb_fixed=1 (make kernel-fix) it asserts that nothing is lost.
 */
static void reader_size_check_race_loses_outer_event(struct kunit *test)
{
	struct trace_buffer *b = krb_test_buffer(test, false);
	struct ring_buffer_event *ev;
	struct task_struct *task;
	unsigned long lost = 0, entries;
	struct krb_race *r;
	int rcpu;

	if (!IS_ENABLED(CONFIG_RING_BUFFER_TEST_HOOKS))
		kunit_skip(test, "the kernel's hook points need CONFIG_RING_BUFFER_TEST_HOOKS");
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a reader and a writer on two CPUs, %u online",
			   num_online_cpus());
	r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r);
	rcpu = lrb_kunit_pin_current(test);
	r->b = b;
	r->wcpu = cpumask_any_but(cpu_online_mask, rcpu);
	KUNIT_ASSERT_LT(test, r->wcpu, nr_cpu_ids);
	/* Does not fit after the two 16-byte events: the tail moves on */
	r->nested_len = ring_buffer_max_event_size(b) - 16;
	init_completion(&r->done);

	/* The reader catches up: reader page = commit page = tail page */
	KUNIT_ASSERT_EQ(test, 0L, work_on_cpu(r->wcpu, krb_race_first_write, b));
	ev = ring_buffer_consume(b, r->wcpu, NULL, &lost);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, krb_event_mark(ev), 0);
	KUNIT_ASSERT_NULL(test, ring_buffer_peek(b, r->wcpu, NULL, NULL));

	KUNIT_ASSERT_EQ(test, 0, ring_buffer_set_test_hook(b, krb_race_hook, r));
	WRITE_ONCE(r->armed, true);
	task = kthread_run_on_cpu(krb_race_writer, r, r->wcpu, "krb_race/%u");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, task);
	KUNIT_EXPECT_TRUE_MSG(test, krb_race_wait(r, 1),
			      "the outer writer never reached its commit");
	/* The reader: its size check, then (paused) the writer commits */
	ev = ring_buffer_consume(b, r->wcpu, NULL, &lost);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&r->done, 10 * HZ));
	kthread_stop(task);
	WRITE_ONCE(r->armed, false);
	KUNIT_EXPECT_EQ(test, 0, ring_buffer_set_test_hook(b, NULL, NULL));

	KUNIT_EXPECT_FALSE_MSG(test, READ_ONCE(r->timed_out), "a handshake timed out");
	KUNIT_EXPECT_TRUE_MSG(test, r->nested_done, "the nested writer never ran");
	KUNIT_EXPECT_TRUE_MSG(test, r->writer_paused, "the outer writer never paused");
	KUNIT_EXPECT_TRUE_MSG(test, r->reader_paused,
			      "the reader never reached its commit-page check");
	KUNIT_EXPECT_EQ(test, r->outer_ok, 1);
	if (krb_fixed) {
		krb_race_expect_no_loss(test, r, ev);
		return;
	}
	/* The loss: the nested event comes first, the outer one never */
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ_MSG(test, krb_event_mark(ev), 3,
			    "the reader got the outer event: the race did not lose it");
	KUNIT_EXPECT_EQ_MSG(test, lost, 0UL, "the loss was reported");
	KUNIT_EXPECT_NULL(test, ring_buffer_consume(b, r->wcpu, NULL, NULL));
	entries = ring_buffer_entries_cpu(b, r->wcpu);
	KUNIT_EXPECT_EQ_MSG(test, entries, 1UL,
			    "the outer event, gone, is still counted in entries");
	kunit_info(test, "reader on CPU %d, writer on CPU %d: the reader got the nested event first, the outer one never (%lu reported lost, %lu still counted in entries)",
		   rcpu, r->wcpu, lost, entries);
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
	KUNIT_CASE(reader_size_check_race_loses_outer_event),
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
