// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_smp: deterministic races between a reader on one CPU and a writer on
 * another, on lrb and (lrb_smp_kernel) on the kernel's tracing ring buffer.
 *
 * The test thread is the reader, pinned to one CPU; the script engine's
 * writer thread (lrb_kunit_script.c), pinned to another CPU, writes to its
 * own CPU's ring. One side is paused at a hook point (spinning, with a
 * bounded wait) while the other does the conflicting step, then released;
 * handshakes are the script's stage counter, every wait bounded by
 * LRB_SCRIPT_WAIT_NS. No sleep synchronises anything. Each case checks the
 * state at the pause, what the reader got (event, loss), and then reads
 * everything back.
 *
 * With fewer than two online CPUs the cases are skipped, saying so.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "lrb_kunit.h"
#include "lrb_kunit_impl.h"
#include "lrb_kunit_script.h"

#define CAP		LRB_KUNIT_CAPACITY
#define BIG		(CAP - 8)
#define S		8
#define RING_SIZE	(4 * CAP)

/* Who pauses: the reader, or the outermost writer */
enum { READER = LRB_SCRIPT_READER, WRITER = 0 };

/*
 * A reader on this CPU and a writer on another, writing to its own CPU's
 * buffer; the writer thread starts with race_go().
 */
static struct lrb_script *race_start(struct kunit *test, unsigned long flags)
{
	struct lrb_script *c;
	int rcpu, wcpu;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a reader and a writer on two CPUs, %u online",
			   num_online_cpus());
	rcpu = lrb_kunit_pin_current(test);
	wcpu = cpumask_any_but(cpu_online_mask, rcpu);
	KUNIT_ASSERT_LT(test, wcpu, nr_cpu_ids);
	c = lrb_script_start(test, RING_SIZE, flags, wcpu, rcpu);
	lrb_kunit_line(test, "lrb-smp %s%s: reader on CPU %d, writer on CPU %d (%s mode)",
		       test->name, lrb_script_kernel(c) ? " [kernel]" : "",
		       rcpu, wcpu,
		       flags & LRB_FL_OVERWRITE ? "overwrite" : "producer/consumer");
	return c;
}

/* Writes on the writer's CPU, before the race */
static void race_setup_writes(struct lrb_script *c, unsigned int len, u32 first,
			      unsigned int n)
{
	KUNIT_ASSERT_EQ(c->test, 0, lrb_script_setup_writes(c, len, first, n));
}

/*
 * At the nth time who reaches point: the nested writes (added to the step
 * returned), the snapshot, the stage set to signal (if > 0), and a wait
 * until it reaches wait (if > 0).
 */
static struct lrb_script_step *race_pause(struct lrb_script *c, int who,
					  enum lrb_hook_point point, int nth,
					  int signal, int wait, const char *title,
					  const char *ring, const char *props)
{
	struct lrb_script_step *p;

	p = lrb_script_step(c, who, point, nth, NULL, title, ring, props);
	p->snap_after_nest = true;
	p->signal = signal;
	p->wait = wait;
	return p;
}

/*
 * Start the writer thread on its CPU: it waits for stage wait, writes,
 * then sets the stage to signal (0: neither).
 */
static void race_go(struct lrb_script *c, int wait, int signal)
{
	lrb_script_writer_go(c, wait, signal);
}

static void race_finish(struct lrb_script *c)
{
	lrb_script_writer_finish(c);
	lrb_script_report(c);
}

static void *race_consume(struct lrb_script *c, unsigned long *lost)
{
	return lrb_script_consume(c, NULL, lost);
}

static void race_read_rest(struct lrb_script *c, const u32 *seqs,
			   const unsigned int *lens, unsigned int n)
{
	lrb_script_read(c, seqs, lens, NULL, n);
}

/*
 * Where the kernel's reader reports a loss late: the events lost are all
 * reported, but part of them before a later event than the first one after
 * the gap (docs/kernel-rb-differences.md)
 */
#define K_LATE_LOSS	"the kernel reports part of the loss one page late"
/* The kernel's reader-page race (docs/kernel-rb-differences.md) */
#define K_SMALL_COUNT	"an 8-byte payload takes 16 bytes, and entries counts a nested commit at once"
#define K_SIZE_RACE	"the kernel's reader swapped the outer event out unread and unreported"

/* The ring of the cases on producer/consumer mode after one swap */
#define RING		"p0 -H-> p2 --> p3 --> p4 -->"

static const unsigned int bigs[] = { BIG, BIG, BIG, BIG, BIG, BIG };

/* Reader paused before its swap cmpxchg; the writer pushes the head */
static void reader_before_swap_writer_pushes_head(struct kunit *test)
{
	struct lrb_script *c = race_start(test, LRB_FL_OVERWRITE);
	static const u32 rest[] = { 2, 3, 4 };
	struct lrb_event *ev;
	unsigned long lost;

	race_setup_writes(c, BIG, 0, 4);
	race_pause(c, READER, LRB_HOOK_READER_BEFORE_SWAP, 1, 1, 2,
		   "reader prepared its page for head p1; paused",
		   "p1 --> p2 --> p3 --> p4 -H->", "rnext=p2 rflag=H head=p1");
	race_pause(c, READER, LRB_HOOK_READER_SWAP_FAILED, 1, 0, 0,
		   "the writer on the other CPU pushed the head: the swap failed",
		   "p1 -H-> p2 --> p3 --> p4 -->", "head=p2 tail=p1");
	lrb_script_writer_add(c, BIG, 4);
	race_go(c, 1, 2);
	ev = race_consume(c, &lost);
	race_finish(c);
	lrb_script_expect_event(c, ev, BIG, 1, lost, 1);
	race_read_rest(c, rest, bigs, 3);
}

/* Reader paused before taking the commit page; the writer fills it */
static void reader_before_swap_writer_fills_its_page(struct kunit *test)
{
	struct lrb_script *c = race_start(test, 0);
	static const u32 rest[] = { 1, 2, 3 };
	static const unsigned int lens[] = { S, S, BIG };
	struct lrb_event *ev;
	unsigned long lost;

	race_setup_writes(c, S, 0, 1);
	race_pause(c, READER, LRB_HOOK_READER_BEFORE_SWAP, 1, 1, 2,
		   "reader about to take p1, the commit and tail page; paused",
		   "p1 --> p2 --> p3 --> p4 -H->", "head=p1 tail=p1 commit=p1");
	race_pause(c, READER, LRB_HOOK_READER_DONE, 1, 0, 0,
		   "it took p1 after the writer added to it and moved on",
		   "p0 -H-> p2 --> p3 --> p4 -->", "head=p2 tail=p2 commit=p2");
	lrb_script_writer_add(c, S, 1);
	lrb_script_writer_add(c, S, 2);
	lrb_script_writer_add(c, BIG, 3);
	race_go(c, 1, 2);
	ev = race_consume(c, &lost);
	race_finish(c);
	lrb_script_expect_event(c, ev, S, 0, lost, 0);
	race_read_rest(c, rest, lens, 3);
}

/* Reader paused before fixing the new head's prev; the writer passes it */
static void reader_after_swap_writer_passes_new_head(struct kunit *test)
{
	struct lrb_script *c = race_start(test, LRB_FL_OVERWRITE);
	static const u32 rest[] = { 3, 4, 5 };
	struct lrb_event *ev;
	unsigned long lost;

	race_setup_writes(c, BIG, 0, 4);
	race_pause(c, READER, LRB_HOOK_READER_AFTER_SWAP, 1, 1, 2,
		   "swapped; the new head p2 still has p1 as prev; paused",
		   "p0 -H-> p2 --> p3 --> p4 -->", "staleprev=p2:p1 tail=p4");
	race_pause(c, READER, LRB_HOOK_READER_DONE, 1, 0, 0,
		   "the writer went onto p0 and pushed past p2 meanwhile; the reader fixes p2's prev",
		   "p0 --> p2 -H-> p3 --> p4 -->", "tail=p2 head=p3");
	lrb_script_writer_add(c, BIG, 4);
	lrb_script_writer_add(c, BIG, 5);
	race_go(c, 1, 2);
	ev = race_consume(c, &lost);
	race_finish(c);
	lrb_script_expect_event(c, ev, BIG, 0, lost, 0);
	ev = race_consume(c, &lost);
	lrb_script_expect_event(c, ev, BIG, 2, lost, 1);
	race_read_rest(c, rest, bigs, 3);
}

/* Writer paused holding UPDATE; the reader spins until it lets go */
static void writer_holds_update_reader_spins(struct kunit *test)
{
	struct lrb_script *c = race_start(test, LRB_FL_OVERWRITE);
	static const u32 rest[] = { 2, 3, 4 };
	struct lrb_event *ev;
	unsigned long lost;

	race_setup_writes(c, BIG, 0, 4);
	race_pause(c, WRITER, LRB_HOOK_HEAD_UPDATE_AFTER, 1, 1, 2,
		   "writer set UPDATE on the pointer to the head; paused",
		   "p1 --> p2 --> p3 --> p4 -U->", "tail=p4");
	race_pause(c, READER, LRB_HOOK_READER_SPIN, 1, 2, 0,
		   "the reader on the other CPU sees UPDATE and spins; the writer goes on",
		   "p1 --> p2 --> p3 --> p4 -U->", "tail=p4");
	lrb_script_writer_add(c, BIG, 4);
	race_go(c, 0, 0);
	KUNIT_ASSERT_TRUE(test, lrb_script_wait(c, 1));
	ev = race_consume(c, &lost);
	race_finish(c);
	lrb_script_expect_event(c, ev, BIG, 1, lost, 1);
	race_read_rest(c, rest, bigs, 3);
}

/*
 * A writer on another CPU stopped holding UPDATE for longer than the
 * reader waits (a vCPU the host preempted): the reader gives up with
 * nothing read and counts a busy read; the ring is not broken, recording
 * goes on, and once the writer goes on every event reads back.
 */
static void slow_writer_costs_a_busy_read(struct kunit *test)
{
	struct lrb_script *c = race_start(test, LRB_FL_OVERWRITE);
	static const u32 rest[] = { 2, 3, 4 };
	struct lrb_event *ev;
	struct lrb_stats st;
	unsigned long lost;

	race_setup_writes(c, BIG, 0, 4);
	race_pause(c, WRITER, LRB_HOOK_HEAD_UPDATE_AFTER, 1, 1, 2,
		   "writer set UPDATE on the pointer to the head; stopped longer than a reader waits",
		   "p1 --> p2 --> p3 --> p4 -U->", "tail=p4");
	race_pause(c, READER, LRB_HOOK_READER_BUSY, 1, 0, 0,
		   "the reader gave up: nothing read, one busy read, the ring as it was",
		   "p1 --> p2 --> p3 --> p4 -U->", "tail=p4");
	lrb_script_writer_add(c, BIG, 4);
	race_go(c, 0, 0);
	KUNIT_ASSERT_TRUE(test, lrb_script_wait(c, 1));
	KUNIT_ASSERT_EQ(test, 0, lrb_test_set_reader_patience(c->buf, NSEC_PER_MSEC));
	ev = race_consume(c, &lost);
	KUNIT_EXPECT_NULL_MSG(test, ev, "read while the writer held UPDATE");
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(c->buf, c->cpu, &st));
	KUNIT_EXPECT_EQ_MSG(test, st.busy, 1UL, "busy reads");
	KUNIT_EXPECT_EQ_MSG(test, st.broken, 0UL, "a timeout broke the ring");
	lrb_script_signal(c, 2);
	race_finish(c);
	ev = race_consume(c, &lost);
	lrb_script_expect_event(c, ev, BIG, 1, lost, 1);
	race_read_rest(c, rest, bigs, 3);
}

/* Writer paused before HEADER -> UPDATE; the reader swaps the head out */
static void writer_before_update_reader_takes_head(struct kunit *test)
{
	struct lrb_script *c = race_start(test, LRB_FL_OVERWRITE);
	static const u32 rest[] = { 1, 2, 3, 4 };
	struct lrb_event *ev;
	unsigned long lost;

	race_setup_writes(c, BIG, 0, 4);
	race_pause(c, WRITER, LRB_HOOK_HEAD_UPDATE_BEFORE, 1, 1, 2,
		   "writer about to set UPDATE on p4's next; paused",
		   "p1 --> p2 --> p3 --> p4 -H->", "tail=p4 head=p1");
	race_pause(c, WRITER, LRB_HOOK_HEAD_UPDATE_AFTER, 1, 0, 0,
		   "the reader swapped p1 out meanwhile: the cmpxchg found p0 there (moved)",
		   "p0 -H-> p2 --> p3 --> p4 -->", "tail=p4 reader=p1 nrU=0");
	race_pause(c, WRITER, LRB_HOOK_TAIL_AFTER, 1, 0, 0,
		   "so the writer simply moves onto p0: nothing was overwritten",
		   "p0 -H-> p2 --> p3 --> p4 -->", "tail=p0 overrun=0");
	lrb_script_writer_add(c, BIG, 4);
	race_go(c, 0, 0);
	KUNIT_ASSERT_TRUE(test, lrb_script_wait(c, 1));
	ev = race_consume(c, &lost);
	lrb_script_signal(c, 2);
	race_finish(c);
	lrb_script_expect_event(c, ev, BIG, 0, lost, 0);
	race_read_rest(c, rest, bigs, 4);
}

/* Writer paused after its push, before moving the tail; the reader swaps */
static void writer_before_tail_move_reader_takes_new_head(struct kunit *test)
{
	struct lrb_script *c = race_start(test, LRB_FL_OVERWRITE);
	static const u32 rest[] = { 2, 3, 4 };
	struct lrb_event *ev;
	unsigned long lost;

	race_setup_writes(c, BIG, 0, 4);
	race_pause(c, WRITER, LRB_HOOK_TAIL_BEFORE, 1, 1, 2,
		   "writer pushed the head to p2, about to move the tail onto p1; paused",
		   "p1 -H-> p2 --> p3 --> p4 -->", "tail=p4 head=p2");
	race_pause(c, WRITER, LRB_HOOK_TAIL_AFTER, 1, 0, 0,
		   "the reader took p2 meanwhile; the tail moves onto p1 all the same",
		   "p1 --> p0 -H-> p3 --> p4 -->", "tail=p1 reader=p2 head=p3");
	lrb_script_writer_add(c, BIG, 4);
	race_go(c, 0, 0);
	KUNIT_ASSERT_TRUE(test, lrb_script_wait(c, 1));
	ev = race_consume(c, &lost);
	lrb_script_signal(c, 2);
	race_finish(c);
	lrb_script_expect_event(c, ev, BIG, 1, lost, 1);
	race_read_rest(c, rest, bigs, 3);
}

/* How the reader takes the head page in the nested-HEADER cases */
enum race_take { TAKE_CONSUME, TAKE_READ_PAGE };

/* A loss a page read flags without its count: the page had no room for it */
#define RACE_LOST_FLAGGED	ULONG_MAX

struct race_reader {
	enum race_take how;
	void *page;		/* TAKE_READ_PAGE: the page read into */
};

static void race_reader_init(struct lrb_script *c, struct race_reader *r,
			     enum race_take how)
{
	r->how = how;
	r->page = NULL;
	if (how == TAKE_READ_PAGE) {
		/* Allocated before the race: it may sleep */
		r->page = c->impl->alloc_read_page(c->buf, c->cpu);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(c->test, r->page);
	}
}

static void race_reader_done(struct lrb_script *c, struct race_reader *r)
{
	if (r->page)
		c->impl->free_read_page(c->buf, c->cpu, r->page);
	r->page = NULL;
}

/*
 * The first event the reader takes and the loss reported before it:
 * consumed, or the first event of the page that lrb_read_page() or
 * ring_buffer_read_page() hands over, whose loss is the count stored
 * after its events, or RACE_LOST_FLAGGED where only the flag fits
 */
static void *race_take(struct lrb_script *c, struct race_reader *r,
		       unsigned long *lost)
{
	struct lrb_data_page *dp;
	unsigned long commit;
	int ret;

	if (r->how == TAKE_CONSUME)
		return race_consume(c, lost);
	*lost = 0;
	ret = c->impl->read_page(c->buf, &r->page, c->cpu, &dp);
	if (ret <= 0)
		return NULL;
	commit = local_read(&dp->commit);
	if (commit & LRB_MISSED_STORED)
		memcpy(lost, &dp->data[ret], sizeof(*lost));
	else if (commit & LRB_MISSED_EVENTS)
		*lost = RACE_LOST_FLAGGED;
	return dp->data;
}

/*
 * The loss the reader must report before its first event: the count when
 * it consumes; a page of one BIG event has no room for the count, so a
 * page read flags it
 */
static unsigned long race_want_lost(const struct race_reader *r,
				    unsigned long lost)
{
	return r->how == TAKE_CONSUME || !lost ? lost : RACE_LOST_FLAGGED;
}

/*
 * Eight BIG events on the writer's CPU, the first consumed, then the
 * outer writer of the next four paused at point with a nested writer
 * (seq 9) that pushed the head and set p0 -H-> p2 under it; the reader's
 * hint is p2
 */
static void race_nested_header(struct lrb_script *c, enum lrb_hook_point point,
			       const char *title)
{
	struct lrb_script_step *p;
	struct lrb_event *ev;
	unsigned long lost;

	race_setup_writes(c, BIG, 0, 4);
	ev = race_consume(c, &lost);
	lrb_script_expect_event(c, ev, BIG, 0, lost, 0);
	race_setup_writes(c, BIG, 4, 4);
	p = race_pause(c, WRITER, point, 1, 1, 2, title,
		       "p0 -H-> p2 --> p3 --> p4 -U->",
		       "tail=p0 hint=p2 nrH=1 nrU=1");
	lrb_script_nest(p, BIG, 9);
}

/*
 * lrb's reader, in the nested-HEADER cases: it meets p0 -H-> p2 first but
 * waits, a push being in flight, without taking p2; once released, it and
 * the writer's retry race for p2: the reader takes it (seq 5, 1..4 lost)
 * or the writer pushes it first (seq 6, 1..5 lost). Either way the loss
 * is reported exactly.
 */
static void race_lrb_reader_waits_for_push(struct lrb_script *c,
					   struct race_reader *r)
{
	static const u32 after5[] = { 6, 7, 9, 8 };
	static const u32 after6[] = { 7, 9, 8 };
	struct kunit *test = c->test;
	struct lrb_event *ev;
	unsigned long lost;

	race_pause(c, READER, LRB_HOOK_READER_SPIN, 1, 2, 0,
		   "the reader meets p0 -H-> p2 first, but a push is in flight: it waits, not taking p2",
		   "p0 -H-> p2 --> p3 --> p4 -U->", "reader=p1");
	lrb_script_writer_add(c, BIG, 8);
	race_go(c, 0, 0);
	KUNIT_ASSERT_TRUE(test, lrb_script_wait(c, 1));
	ev = race_take(c, r, &lost);
	race_finish(c);
	if (!ev)
		race_reader_done(c, r);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	if (lrb_kunit_payload_seq(c->impl->event_data(ev)) == 5) {
		lrb_script_expect_event(c, ev, BIG, 5, lost, race_want_lost(r, 4));
		race_reader_done(c, r);
		race_read_rest(c, after5, bigs, 4);
	} else {
		lrb_script_expect_event(c, ev, BIG, 6, lost, race_want_lost(r, 5));
		race_reader_done(c, r);
		race_read_rest(c, after6, bigs, 3);
	}
}

/*
 * A nested writer set a HEADER while the outer writer holds UPDATE, and
 * the reader's hint points right behind that HEADER (the head went round
 * the ring since the last swap). The reader must not take that page: the
 * outer writer has not counted its push yet and may still reset the
 * HEADER. Its walk from the hint meets that HEADER first (the UPDATE is
 * behind the hint), so it is the count of pushes in flight that makes it
 * wait for the push to end.
 */
static void reader_ignores_nested_header_under_update(struct kunit *test)
{
	struct lrb_script *c = race_start(test, LRB_FL_OVERWRITE);
	struct race_reader r;
	struct lrb_event *ev;
	unsigned long lost;

	race_reader_init(c, &r, TAKE_CONSUME);
	race_nested_header(c, LRB_HOOK_HEAD_UPDATE_AFTER,
			   "outer writer holds UPDATE on p4's next; a nested writer set p0 -H-> p2; the reader's hint is p2");
	if (lrb_script_kernel(c)) {
		/*
		 * The kernel's reader takes p2 at once: nothing counts the
		 * push in flight, whose page is not in the overrun yet.
		 */
		static const u32 kseqs[] = { 6, 7, 9, 8 };
		static const unsigned long klost[] = { 1, 0, 0, 0 };

		lrb_script_writer_add(c, BIG, 8);
		race_go(c, 0, 0);
		KUNIT_ASSERT_TRUE(test, lrb_script_wait(c, 1));
		ev = race_consume(c, &lost);
		lrb_script_signal(c, 2);
		race_finish(c);
		lrb_kunit_line(test, "kernel differs: %s: it swapped p2 in under the UPDATE",
			       K_LATE_LOSS);
		lrb_script_expect_event(c, ev, BIG, 5, lost, 3);
		lrb_script_read(c, kseqs, bigs, klost, 4);
		return;
	}
	race_lrb_reader_waits_for_push(c, &r);
}

/*
 * The same HEADER under UPDATE, set by a writer that interrupted the outer
 * one after it had read which page follows its head (new_head) and before
 * its cmpxchg to HEADER there, with the reader's hint on that page. On lrb
 * the reader waits for the push in flight, as above. The kernel's reader
 * takes the page, and the outer writer's cmpxchg finds the reader's page
 * where new_head was: unpatched, rb_handle_head_page() calls RB_WARN_ON(),
 * which stops recording for good, drops the outer write uncounted and
 * leaves the UPDATE on p4's next; with series patch 1 (the fix, for the
 * tracing list) the outer writer clears its UPDATE and writes on the tail
 * the nested writer moved to. Each read path that swaps the head in
 * (rb_get_reader_page()) meets it: consuming and reading a page.
 */
static void race_header_set_under_outer_new_head(struct kunit *test,
						 enum race_take how)
{
	struct lrb_script *c = race_start(test, LRB_FL_OVERWRITE);
	struct race_reader r;
	struct lrb_event *ev;
	unsigned long lost;

	race_reader_init(c, &r, how);
	race_nested_header(c, LRB_HOOK_NEW_HEAD_BEFORE,
			   "outer writer read p2 as its new head; a nested writer set p0 -H-> p2; the reader's hint is p2");
	if (lrb_script_kernel(c)) {
		static const u32 kseqs[] = { 6, 7, 9, 8 };
		static const unsigned long klost[] = { 0, 0, 0, 0 };

		race_pause(c, WRITER, LRB_HOOK_NEW_HEAD_AFTER, 1, 0, 0,
			   "the reader took p2: the outer writer's cmpxchg found p1 where p2 was (moved)",
			   "p0 --> p1 -H-> p3 --> p4 -U->", "tail=p0 reader=p2 nrU=1");
		race_pause(c, WRITER, LRB_HOOK_TAIL_BEFORE, 1, 0, 0,
			   "the head moved on without it: it cleared its UPDATE; the tail is already on p0",
			   "p0 --> p1 -H-> p3 --> p4 -->", "tail=p0 nrU=0 nrH=1");
		lrb_script_writer_add(c, BIG, 8);
		race_go(c, 0, 0);
		KUNIT_ASSERT_TRUE(test, lrb_script_wait(c, 1));
		ev = race_take(c, &r, &lost);
		lrb_script_signal(c, 2);
		race_finish(c);
		lrb_script_expect_event(c, ev, BIG, 5, lost, race_want_lost(&r, 4));
		race_reader_done(c, &r);
		lrb_script_read(c, kseqs, bigs, klost, 4);
		return;
	}
	race_lrb_reader_waits_for_push(c, &r);
}

static void reader_takes_header_set_under_outer_new_head(struct kunit *test)
{
	race_header_set_under_outer_new_head(test, TAKE_CONSUME);
}

static void read_page_takes_header_set_under_outer_new_head(struct kunit *test)
{
	race_header_set_under_outer_new_head(test, TAKE_READ_PAGE);
}

/*
 * Reader paused between finding the commit page (its own) and reading its
 * page's commit index; the writer adds an event meanwhile. With stale reads
 * on, the reader gets that event's bytes only if a read barrier separates
 * them from the commit index that covers them.
 */
static void reader_reads_event_committed_while_it_looks(struct kunit *test)
{
	struct lrb_script *c = race_start(test, 0);
	struct lrb_event *ev;
	unsigned long lost;

	KUNIT_ASSERT_EQ(test, 0, lrb_set_stale_reads(c->buf, LRB_STALE_EVENTS));
	race_setup_writes(c, S, 0, 1);
	ev = race_consume(c, &lost);
	lrb_script_expect_event(c, ev, S, 0, lost, 0);
	race_pause(c, READER, LRB_HOOK_READER_PAGE, 1, 1, 2,
		   "the reader read everything of p1, its page and the commit page; paused",
		   NULL, "reader=p1 commit=p1 tail=p1");
	lrb_script_writer_add(c, S, 1);
	race_go(c, 1, 2);
	ev = race_consume(c, &lost);
	race_finish(c);
	lrb_script_expect_event(c, ev, S, 1, lost, 0);
	race_read_rest(c, NULL, NULL, 0);
	KUNIT_EXPECT_EQ(test, 0, lrb_set_stale_reads(c->buf, 0));
}

/*
 * The reader reads where the commit page is before its page's commit
 * index. Paused between the two loads, with the commit on its page, it lets
 * a writer commit an event there and move on to the next page: the index it
 * then reads covers that event. Read the other way round (the kernel's
 * rb_get_reader_page()), it would see an old index and a commit page gone,
 * and swap the event away unread.
 */
static void reader_loads_commit_page_before_its_index(struct kunit *test)
{
	struct lrb_script *c = race_start(test, 0);
	static const u32 rest[] = { 2 };
	static const unsigned int lens[] = { BIG };
	struct lrb_event *ev;
	unsigned long lost;

	race_setup_writes(c, S, 0, 1);
	ev = race_consume(c, &lost);
	lrb_script_expect_event(c, ev, S, 0, lost, 0);
	race_pause(c, READER, LRB_HOOK_READER_PAGE, 1, 1, 2,
		   "the reader read that the commit page is its own page p1; paused before its commit index",
		   NULL, "reader=p1 commit=p1 tail=p1 p1.read=12 p1.commit=12");
	lrb_script_writer_add(c, S, 1);
	lrb_script_writer_add(c, BIG, 2);
	race_go(c, 1, 2);
	ev = race_consume(c, &lost);
	race_finish(c);
	lrb_script_expect_event(c, ev, S, 1, lost, 0);
	race_read_rest(c, rest, lens, 1);
}

/*
 * The read barrier between the commit page and the reader page's commit
 * index. With the indexes stale (LRB_STALE_INDEXES), the reader's load of
 * its commit index returns the value of its last barrier: paused before it
 * even reads where the commit page is, while a writer commits an event on
 * its page and moves on, it sees the new index only if a barrier separates
 * the two loads.
 */
static void reader_index_after_commit_page_barrier(struct kunit *test)
{
	struct lrb_script *c = race_start(test, 0);
	static const u32 rest[] = { 2 };
	static const unsigned int lens[] = { BIG };
	struct lrb_event *ev;
	unsigned long lost;

	KUNIT_ASSERT_EQ(test, 0, lrb_set_stale_reads(c->buf, LRB_STALE_INDEXES));
	race_setup_writes(c, S, 0, 1);
	ev = race_consume(c, &lost);
	lrb_script_expect_event(c, ev, S, 0, lost, 0);
	race_pause(c, READER, LRB_HOOK_READER_LOOK, 1, 1, 2,
		   "the reader, caught up on its page p1, is about to look where the commit page is; paused",
		   NULL, "reader=p1 commit=p1 tail=p1 p1.read=12");
	race_pause(c, READER, LRB_HOOK_READER_PAGE, 1, 0, 0,
		   "the writer committed an event on p1 and moved on: the reader saw the commit page off its page",
		   NULL, "reader=p1 commit=p2 tail=p2 p1.commit=end");
	lrb_script_writer_add(c, S, 1);
	lrb_script_writer_add(c, BIG, 2);
	race_go(c, 1, 2);
	ev = race_consume(c, &lost);
	race_finish(c);
	lrb_script_expect_event(c, ev, S, 1, lost, 0);
	race_read_rest(c, rest, lens, 1);
	KUNIT_EXPECT_EQ(test, 0, lrb_set_stale_reads(c->buf, 0));
}

/*
 * The reader's window between its two loads: where the commit page is, and
 * its own page's commit index. The reader has read everything (reader page
 * = commit page = tail page); the outer writer reserves on the reader page,
 * and a nested writer, an interrupt, fills the page and moves the tail on,
 * its commit left to the outer writer. The reader makes its first load
 * before the outer writer commits, its second after. lrb loads the commit
 * page first: on its own page, so the index it reads next covers the outer
 * event. The kernel checks the page's size first (nothing new), then the
 * commit page (moved on): it swaps the page back into the ring with the
 * outer event unread, reports no loss, and keeps counting that event in its
 * entries (rb_get_reader_page(), docs/kernel-rb-differences.md). The case
 * asserts that loss, so that it notices the day the kernel's order changes;
 * with the fix of docs/upstream/ (make kernel-fix) the reader stops at the
 * commit on its page and nothing is lost.
 */
static void reader_between_loads_outer_writer_commits(struct kunit *test)
{
	struct lrb_script *c = race_start(test, 0);
	static const u32 seqs[] = { 1, 2 };
	static const unsigned int lens[] = { S, BIG };
	bool loses = lrb_script_kernel(c) && !lrb_kunit_krb_fixed();
	struct lrb_script_step *p;
	unsigned long lost;
	void *ev;

	race_setup_writes(c, S, 0, 1);
	ev = race_consume(c, &lost);
	lrb_script_expect_event(c, ev, S, 0, lost, 0);
	p = race_pause(c, WRITER, LRB_HOOK_RESERVED, 1, 0, 0,
		       "the outer writer reserved on the reader page p1; a nested writer filled p1 and moved the tail on",
		       RING,
		       "reader=p1 head=p2 tail=p2 commit=p1 p1.read=12 p1.commit=12 p2.write=end p2.commit=0 committing=1 committed=1 entries=0");
	lrb_script_nest(p, BIG, 2);
	lrb_script_kernel_differs(c, NULL,
				  "reader=p1 head=p2 tail=p2 commit=p1 p1.read=16 p1.commit=16 p2.write=end p2.commit=0 committing=1 committed=2 entries=1",
				  K_SMALL_COUNT);
	race_pause(c, WRITER, LRB_HOOK_COMMIT_BEFORE, 1, 1, 2,
		   "the outer writer, about to commit, waits for the reader",
		   RING, "commit=p1 p1.commit=12 committing=1 committed=1 entries=0");
	lrb_script_kernel_differs(c, NULL,
				  "commit=p1 p1.commit=16 committing=1 committed=3 entries=2",
				  K_SMALL_COUNT);
	race_pause(c, READER, LRB_HOOK_READER_PAGE, 1, 2, 3,
		   "the reader made its first load with the commit on its page; it waits while the outer writer commits",
		   RING, "reader=p1 commit=p1 p1.read=12 p1.commit=12 committing=1");
	lrb_script_kernel_differs(c, NULL,
				  "reader=p1 commit=p1 p1.read=16 p1.commit=16 committing=1",
				  K_SMALL_COUNT);
	lrb_script_writer_add(c, S, 1);
	race_go(c, 0, 3);
	KUNIT_ASSERT_TRUE(test, lrb_script_wait(c, 1));
	ev = race_consume(c, &lost);
	lrb_script_writer_finish(c);
	lrb_script_snap(c, NULL, "the outer writer committed; the reader got what it found",
			RING,
			"reader=p1 head=p2 tail=p2 commit=p2 p1.read=24 p1.commit=end p2.commit=end read=2 entries=1");
	if (loses)
		lrb_script_kernel_differs(c, "p0 --> p1 -H-> p3 --> p4 -->",
					  "reader=p2 head=p3 tail=p2 commit=p2 p1.commit=0 p2.read=end read=2 entries=1",
					  K_SIZE_RACE);
	else if (lrb_script_kernel(c))
		lrb_script_kernel_differs(c, NULL,
					  "reader=p1 head=p2 tail=p2 commit=p2 p1.read=16 read=1 entries=2",
					  K_SMALL_COUNT);
	lrb_script_report(c);
	if (loses) {
		lrb_script_expect_event(c, ev, BIG, 2, lost, 0);
		KUNIT_EXPECT_NULL(test, race_consume(c, NULL));
		c->silent = 1;
		return;
	}
	if (lrb_script_kernel(c)) {
		KUNIT_EXPECT_NULL_MSG(test, ev, "the reader took a page the commit was on");
		race_read_rest(c, seqs, lens, 2);
		return;
	}
	lrb_script_expect_event(c, ev, S, 1, lost, 0);
	race_read_rest(c, seqs + 1, lens + 1, 1);
}

/* The events of a page from lrb_read_page(): seqs first, first + 1, ... */
static unsigned int race_parse_page(struct lrb_script *c, void *page, int len,
				    u32 first)
{
	struct lrb_data_page *dp = page;
	unsigned int n = 0;
	int off = 0;

	while (off < len) {
		struct lrb_event *ev = (void *)&dp->data[off];

		if (ev->type_len == LRB_TYPE_PADDING)
			break;
		KUNIT_EXPECT_TRUE_MSG(c->test,
				      lrb_kunit_payload_ok(lrb_event_data(ev),
							   lrb_event_length(ev),
							   first + n),
				      "event %u of the page: expected seq %u, got %u",
				      n, first + n,
				      lrb_kunit_payload_seq(lrb_event_data(ev)));
		off += lrb_kunit_event_size(lrb_event_length(ev));
		n++;
	}
	return n;
}

/*
 * lrb_read_page() hands a whole page over once the writer left it: it reads
 * the page's commit index behind a barrier after it saw the commit page
 * gone. Paused with the page being written (the commit on it), while the
 * writer adds an event and moves on, it must hand over both events.
 */
static void read_page_hands_over_what_the_writer_left(struct kunit *test)
{
	struct lrb_script *c = race_start(test, 0);
	static const u32 rest[] = { 2 };
	static const unsigned int lens[] = { BIG };
	void *page;
	int ret;

	KUNIT_ASSERT_EQ(test, 0, lrb_set_stale_reads(c->buf, LRB_STALE_INDEXES));
	race_setup_writes(c, S, 0, 1);
	page = lrb_alloc_read_page(c->buf, c->cpu);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, page);
	race_pause(c, READER, LRB_HOOK_READER_EVENTS, 1, 1, 2,
		   "lrb_read_page() swapped in p1, which the writer is still on: one event committed; paused",
		   NULL, "reader=p1 commit=p1 tail=p1 p1.commit=12");
	lrb_script_writer_add(c, S, 1);
	lrb_script_writer_add(c, BIG, 2);
	race_go(c, 1, 2);
	ret = lrb_read_page(c->buf, &page, PAGE_SIZE, c->cpu, false);
	race_finish(c);
	/* The whole page: the two events, without the padding after them */
	KUNIT_EXPECT_EQ_MSG(test, ret, (int)(2 * lrb_kunit_event_size(S)),
			    "bytes handed over");
	KUNIT_EXPECT_EQ(test, race_parse_page(c, page, ret, 0), 2U);
	KUNIT_EXPECT_EQ(test, lrb_read_events_cpu(c->buf, c->cpu), 2UL);
	lrb_free_read_page(c->buf, c->cpu, page);
	race_read_rest(c, rest, lens, 1);
	KUNIT_EXPECT_EQ(test, 0, lrb_set_stale_reads(c->buf, 0));
}

/*
 * lrb_read_page() copies events up to the commit index it read behind its
 * barrier, not one read again later: paused after that barrier while the
 * writer commits another event on the same page, it copies the first event
 * only. With the event data stale (LRB_STALE_EVENTS), copying further reads
 * bytes the reader's barrier did not cover.
 */
static void read_page_copies_what_it_checked(struct kunit *test)
{
	struct lrb_script *c = race_start(test, 0);
	static const u32 rest[] = { 1 };
	static const unsigned int lens[] = { S };
	void *page;
	int ret;

	KUNIT_ASSERT_EQ(test, 0, lrb_set_stale_reads(c->buf, LRB_STALE_EVENTS));
	race_setup_writes(c, S, 0, 1);
	page = lrb_alloc_read_page(c->buf, c->cpu);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, page);
	race_pause(c, READER, LRB_HOOK_READER_EVENTS, 1, 1, 2,
		   "lrb_read_page() read p1's commit index (one event) behind its barrier; paused",
		   NULL, "reader=p1 commit=p1 tail=p1 p1.commit=12");
	lrb_script_writer_add(c, S, 1);
	race_go(c, 1, 2);
	ret = lrb_read_page(c->buf, &page, PAGE_SIZE, c->cpu, false);
	race_finish(c);
	KUNIT_EXPECT_EQ_MSG(test, ret, (int)lrb_kunit_event_size(S),
			    "bytes of events copied");
	KUNIT_EXPECT_EQ(test, race_parse_page(c, page, ret, 0), 1U);
	lrb_free_read_page(c->buf, c->cpu, page);
	race_read_rest(c, rest, lens, 1);
	KUNIT_EXPECT_EQ(test, 0, lrb_set_stale_reads(c->buf, 0));
}

/*
 * The read barrier of the head search, between the walk and the count of
 * pushes in flight. The reader, its last barrier behind it, is about to
 * look for the head when a writer sets UPDATE and a nested one a HEADER
 * behind the reader's hint. Its walk meets that HEADER first, and only a
 * count read behind a barrier tells it that a push is in flight. With the
 * indexes stale (LRB_STALE_INDEXES), a count read without that barrier is
 * the one of its last barrier: zero.
 */
static void reader_push_count_behind_barrier(struct kunit *test)
{
	struct lrb_script *c = race_start(test, LRB_FL_OVERWRITE);
	struct lrb_script_step *p;
	struct lrb_event *ev;
	unsigned long lost;

	KUNIT_ASSERT_EQ(test, 0, lrb_set_stale_reads(c->buf, LRB_STALE_INDEXES));
	race_setup_writes(c, BIG, 0, 4);
	ev = race_consume(c, &lost);
	lrb_script_expect_event(c, ev, BIG, 0, lost, 0);
	race_setup_writes(c, BIG, 4, 4);
	race_pause(c, READER, LRB_HOOK_READER_FIND, 1, 1, 2,
		   "the reader read its page (no push in flight) and is about to look for the head; paused",
		   "p0 --> p2 --> p3 --> p4 -H->", "reader=p1 head=p0 hint=p2");
	p = race_pause(c, WRITER, LRB_HOOK_HEAD_UPDATE_AFTER, 1, 2, 3,
		       "a writer holds UPDATE on p4's next; a nested one set p0 -H-> p2 behind the hint",
		       "p0 -H-> p2 --> p3 --> p4 -U->", "tail=p0 hint=p2 nrH=1 nrU=1");
	lrb_script_nest(p, BIG, 9);
	race_pause(c, READER, LRB_HOOK_READER_SPIN, 1, 3, 0,
		   "it meets p0 -H-> p2 first, but the count says a push is in flight: it waits",
		   "p0 -H-> p2 --> p3 --> p4 -U->", "reader=p1");
	lrb_script_writer_add(c, BIG, 8);
	race_go(c, 1, 0);
	ev = race_consume(c, &lost);
	race_finish(c);
	/* Released, the reader and the writer's retry race for p2 */
	KUNIT_ASSERT_NOT_NULL(test, ev);
	if (lrb_kunit_payload_seq(c->impl->event_data(ev)) == 5) {
		static const u32 after5[] = { 6, 7, 9, 8 };

		lrb_script_expect_event(c, ev, BIG, 5, lost, 4);
		race_read_rest(c, after5, bigs, 4);
	} else {
		static const u32 after6[] = { 7, 9, 8 };

		lrb_script_expect_event(c, ev, BIG, 6, lost, 5);
		race_read_rest(c, after6, bigs, 3);
	}
	KUNIT_EXPECT_EQ(test, 0, lrb_set_stale_reads(c->buf, 0));
}

/*
 * The lap cases read events 4 to 7 after the 4 events before them were
 * lost: lrb reports the 4 before event 4; the kernel reports kfirst of
 * them there and the rest before event 5 (why: how it got there). A page
 * read takes event 4's page, where only the flag of a loss fits.
 */
static void race_read_lap(struct lrb_script *c, struct race_reader *r,
			  void *ev, unsigned long lost, unsigned long kfirst,
			  const char *why)
{
	static const u32 rest[] = { 5, 6, 7 };
	unsigned long klost[] = { 4 - kfirst, 0, 0 };

	if (!ev)
		race_reader_done(c, r);
	KUNIT_ASSERT_NOT_NULL(c->test, ev);
	if (lrb_script_kernel(c)) {
		lrb_kunit_line(c->test, "kernel differs: %s: %s", K_LATE_LOSS, why);
		lrb_script_expect_event(c, ev, BIG, 4, lost,
					race_want_lost(r, kfirst));
		race_reader_done(c, r);
		lrb_script_read(c, rest, bigs, klost, 3);
		return;
	}
	lrb_script_expect_event(c, ev, BIG, 4, lost, race_want_lost(r, 4));
	race_reader_done(c, r);
	race_read_rest(c, rest, bigs, 3);
}

/*
 * lrb's pages recycled: two laps of the ring written and consumed one
 * event at a time, then lrb_reset_cpu(), which keeps each page's version
 * and reset count. The race that follows starts from a new ring's layout
 * on pages whose counts are not zero.
 */
static void race_recycle(struct lrb_script *c)
{
	struct lrb_event *ev;
	unsigned long lost;
	u32 seq;

	for (seq = 100; seq < 108; seq++) {
		race_setup_writes(c, BIG, seq, 1);
		ev = race_consume(c, &lost);
		lrb_script_expect_event(c, ev, BIG, seq, lost, 0);
	}
	KUNIT_ASSERT_EQ(c->test, 0, c->failed);
	KUNIT_ASSERT_EQ(c->test, 0, lrb_reset_cpu(c->buf, c->cpu));
	/* The reset zeroed the counters that the end-of-case check compares */
	c->ok = 0;
}

/*
 * The lap of the cases below, on pages recycled first if asked (lrb
 * only): 4 events on p1 to p4, the reader (r, taking by how) paused
 * before its swap of head p1 while the writer writes 4 more, one a page,
 * pushing every page once; pause, if any, runs in the reader's hook after
 * that. On lrb, p1's reset count must have moved by resets meanwhile, and
 * have been non-zero before on recycled pages. Returns the first event the
 * reader takes, its loss in *lost.
 */
static void *race_lap_before_swap(struct lrb_script *c, struct race_reader *r,
				  enum race_take how, bool recycled, u64 resets,
				  void (*pause)(struct lrb_script *s),
				  const char *paused, const char *swapped,
				  unsigned long *lost)
{
	const struct lrb_snap_page *before, *after;
	struct lrb_script_step *st;
	void *ev;
	u32 seq;

	if (recycled)
		race_recycle(c);
	race_reader_init(c, r, how);
	race_setup_writes(c, BIG, 0, 4);
	st = race_pause(c, READER, LRB_HOOK_READER_BEFORE_SWAP, 1, 1, 2, paused,
			"p1 --> p2 --> p3 --> p4 -H->", "head=p1 rnext=p2 rflag=H overrun=0");
	st->pause = pause;
	race_pause(c, READER, LRB_HOOK_READER_AFTER_SWAP, 1, 0, 0, swapped,
		   "p4 --> p0 -H-> p2 --> p3 -->",
		   "staleprev=p2:p1 tail=p4 overrun=4 pages_lost=4");
	for (seq = 4; seq < 8; seq++)
		lrb_script_writer_add(c, BIG, seq);
	race_go(c, 1, 2);
	ev = race_take(c, r, lost);
	race_finish(c);
	if (lrb_script_kernel(c))
		return ev;
	before = &c->snaps[0].page[1];
	after = &c->snaps[1].page[1];
	KUNIT_EXPECT_EQ_MSG(c->test, after->resets, before->resets + resets,
			    "precondition: p1's reset count moved by %llu",
			    (unsigned long long)resets);
	if (recycled)
		KUNIT_EXPECT_NE_MSG(c->test, before->resets, 0,
				    "precondition: p1 was reset before the race");
	return ev;
}

/*
 * The writers push the head all the way round the ring while the reader is
 * between its overrun read and its swap: the HEADER is back on the pointer
 * it expects, and the swap succeeds. The head page was reset on the way
 * (its reset count moved), so the reader counts the pushes again after
 * its swap: the loss it reports with the page's first event is the whole
 * lap. Both read paths swap through lrb_swap_reader_page(); with recycled,
 * the pages have been reset before (lrb only: the kernel's reset keeps
 * its pages' order, not a new ring's).
 */
static void race_swap_after_head_went_round(struct kunit *test,
					    enum race_take how, bool recycled)
{
	struct lrb_script *c = race_start(test, LRB_FL_OVERWRITE);
	struct race_reader r;
	unsigned long lost;
	void *ev;

	ev = race_lap_before_swap(c, &r, how, recycled, 1, NULL,
				  "the reader read the overrun and prepared its swap of head p1; paused",
				  "the writer pushed every page once: p4 -H-> p1 again, and the swap succeeded",
				  &lost);
	/* The kernel's swap cmpxchg cannot tell the lap: the count read before */
	race_read_lap(c, &r, ev, lost, 0,
		      "the writer went round the ring between its overrun read and its swap");
}

static void reader_swap_after_head_went_round(struct kunit *test)
{
	race_swap_after_head_went_round(test, TAKE_CONSUME, false);
}

static void read_page_swap_after_head_went_round(struct kunit *test)
{
	race_swap_after_head_went_round(test, TAKE_READ_PAGE, false);
}

static void reader_swap_after_head_went_round_recycled(struct kunit *test)
{
	race_swap_after_head_went_round(test, TAKE_CONSUME, true);
}

/*
 * In the reader's hook, after the lap: 2^24 - 1 attempts to reset p1 more,
 * each lost to a nested writer, which with the lap's bring p1's 24-bit
 * version back where the reader read it, as 2^24 laps would.
 */
static void race_version_back(struct lrb_script *c)
{
	KUNIT_EXPECT_EQ(c->test, 0,
			lrb_test_bump_resets(c->buf, c->cpu, 1,
					     LRB_TEST_VERSION_PERIOD - 1));
}

/*
 * The lap above with the head page's version back where the reader read
 * it when it swaps: the reader compares the page's reset count, 64 bits,
 * which no wait of the reader wraps, so it still sees the lap and reports
 * the whole loss with the page's first event; on each read path, and on
 * recycled pages (lrb only: the kernel has no version).
 */
static void race_swap_after_version_came_back(struct kunit *test,
					      enum race_take how, bool recycled)
{
	struct lrb_script *c = race_start(test, LRB_FL_OVERWRITE);
	struct race_reader r;
	unsigned long lost;
	void *ev;

	/* Bad arguments: refused */
	KUNIT_EXPECT_EQ(test, -EINVAL, lrb_test_bump_resets(c->buf, c->cpu, 5, 1));
	KUNIT_EXPECT_EQ(test, -EINVAL, lrb_test_bump_resets(c->buf, -1, 1, 1));
	/* One lap's reset of p1 and the bumped ones */
	ev = race_lap_before_swap(c, &r, how, recycled, LRB_TEST_VERSION_PERIOD,
				  race_version_back,
				  "the reader read p1's reset count and the overrun; paused before its swap",
				  "the writer went round the ring, p1's version came back, and the swap succeeded",
				  &lost);
	KUNIT_EXPECT_EQ_MSG(test, c->snaps[1].page[1].version,
			    c->snaps[0].page[1].version,
			    "precondition: p1's version back where the reader read it");
	race_read_lap(c, &r, ev, lost, 0, "lrb only: the kernel has no version");
}

static void reader_swap_after_version_came_back(struct kunit *test)
{
	race_swap_after_version_came_back(test, TAKE_CONSUME, false);
}

static void read_page_swap_after_version_came_back(struct kunit *test)
{
	race_swap_after_version_came_back(test, TAKE_READ_PAGE, false);
}

static void reader_swap_after_version_came_back_recycled(struct kunit *test)
{
	race_swap_after_version_came_back(test, TAKE_CONSUME, true);
}

/*
 * The same lap, begun between the reader's walk and its version read: the
 * first push resets the head page before the version is read, so the
 * version cannot tell the lap. The HEADER read again after the version is
 * gone, and the reader looks again: it must report the 4 events lost.
 */
static void reader_header_gone_before_version(struct kunit *test)
{
	struct lrb_script *c = race_start(test, LRB_FL_OVERWRITE);
	struct race_reader r;
	struct lrb_event *ev;
	unsigned long lost;

	race_reader_init(c, &r, TAKE_CONSUME);
	race_setup_writes(c, BIG, 0, 4);
	race_pause(c, READER, LRB_HOOK_READER_HEAD_FOUND, 1, 1, 2,
		   "the reader's walk found the HEADER on p4 -> p1; paused before the version read",
		   "p1 --> p2 --> p3 --> p4 -H->", "head=p1 tail=p4 overrun=0");
	race_pause(c, WRITER, LRB_HOOK_MOVE_TAIL, 2, 2, 3,
		   "the writer pushed p1, reset it and wrote event 4 there; paused before it pushes p2",
		   "p1 -H-> p2 --> p3 --> p4 -->", "tail=p1 overrun=1");
	race_pause(c, READER, LRB_HOOK_READER_BEFORE_SWAP, 1, 3, 4,
		   "the HEADER on p4 -> p1 was gone after the version read: the reader looked again and prepared its swap of p2",
		   "p1 -H-> p2 --> p3 --> p4 -->", "head=p2 overrun=1");
	race_pause(c, READER, LRB_HOOK_READER_AFTER_SWAP, 1, 0, 0,
		   "the writer pushed p2, p3 and p4: the swap of p2 failed, the reader found p1 again and swapped it",
		   "p4 --> p0 -H-> p2 --> p3 -->",
		   "staleprev=p2:p1 tail=p4 overrun=4 pages_lost=4");
	lrb_script_writer_add(c, BIG, 4);
	lrb_script_writer_add(c, BIG, 5);
	lrb_script_writer_add(c, BIG, 6);
	lrb_script_writer_add(c, BIG, 7);
	race_go(c, 1, 4);
	ev = race_consume(c, &lost);
	race_finish(c);
	race_read_lap(c, &r, ev, lost, 1,
		      "it read the overrun once, after the first push of the lap");
}

/*
 * Is the commit page the reader page? A writer whose next page is (or was)
 * the head loads the commit page's prev pointer, then that page's next.
 * Between the two loads the reader swaps that prev page out, fixes the
 * commit page's prev, and for its next swap points the page it took at
 * the page after its next head: the next loaded does not point back at
 * the commit page, which is not the reader page. The writer must look
 * again (the prev pointer moved), not drop its event as a commit overrun
 * (docs/model.md, "A stale prev pointer": the model's trail).
 */
static void writer_commit_prev_goes_stale(struct kunit *test)
{
	struct lrb_script *c = race_start(test, LRB_FL_OVERWRITE);
	static const u32 rest[] = { 3, 4, 5 };
	struct lrb_script_step *st;
	struct lrb_event *ev;
	unsigned long lost;

	race_setup_writes(c, BIG, 0, 3);
	st = lrb_script_step(c, WRITER, LRB_HOOK_RESERVED, 2, NULL,
			     "the outer writer reserved event 3 on p4, the commit on p3; nested writes 4 and 5",
			     NULL, NULL);
	lrb_script_nest(st, BIG, 4);
	lrb_script_nest(st, BIG, 5);
	race_pause(c, 1, LRB_HOOK_COMMIT_PREV, 2, 1, 2,
		   "write 5 crosses p1 to the head p2 and loaded the commit page's prev, p2; paused",
		   "p1 -H-> p2 --> p3 --> p4 -->",
		   "tail=p1 commit=p3 head=p2 overrun=1 rule=p0");
	race_pause(c, READER, LRB_HOOK_READER_BEFORE_SWAP, 2, 2, 3,
		   "the reader took p2, fixed p3's prev and points p2 past its next head p3, at p4",
		   "p1 --> p0 -H-> p3 --> p4 -->",
		   "reader=p2 rnext=p4 rprev=p0 rflag=H tail=p1 commit=p3 rule=p2");
	race_pause(c, WRITER, LRB_HOOK_COMMIT_BEFORE, 1, 0, 0,
		   "p3's prev moved: write 5 looked again and moved the tail onto p0",
		   "p1 --> p0 -H-> p3 --> p4 -->",
		   "reader=p2 tail=p0 commit=p3 commit_overrun=0 dropped=0");
	lrb_script_writer_add(c, BIG, 3);
	race_go(c, 0, 3);
	KUNIT_ASSERT_TRUE(test, lrb_script_wait(c, 1));
	ev = race_consume(c, &lost);
	lrb_script_expect_event(c, ev, BIG, 1, lost, 1);
	ev = race_consume(c, &lost);
	race_finish(c);
	lrb_script_expect_event(c, ev, BIG, 2, lost, 0);
	race_read_rest(c, rest, bigs, 3);
}

/* ---- counters taken while a writer commits ------------------------------ */

/*
 * The writer is paused while it counts its committed events. Whatever the
 * reader can take by then must already be counted: the counters a reader
 * on another CPU takes add up, and entries is at most the one event.
 */
static void counters_add_up_while_writer_counts(struct kunit *test)
{
	struct lrb_script *c = race_start(test, 0);
	static const unsigned int lens[] = { S };
	static const u32 first[] = { 0 };
	struct lrb_event *ev;
	struct lrb_stats st;
	unsigned long lost;
	u32 seq = 0;

	race_pause(c, WRITER, LRB_HOOK_COMMIT_AFTER, 1, 1, 2,
		   "the writer is counting its committed events; paused",
		   NULL, "tail=p1 commit=p1 p1.write=12 committing=1");
	lrb_script_writer_add(c, S, 0);
	race_go(c, 0, 0);
	KUNIT_ASSERT_TRUE(test, lrb_script_wait(c, 1));
	ev = race_consume(c, &lost);
	if (ev)
		seq = lrb_kunit_payload_seq(lrb_event_data(ev));
	KUNIT_EXPECT_EQ(test, 0, lrb_stats_cpu(c->buf, c->cpu, &st));
	lrb_script_signal(c, 2);
	race_finish(c);
	lrb_kunit_line(test,
		       "while the writer counted, the reader %s; committed %lu read %lu overrun %lu entries %lu",
		       ev ? "consumed its event" : "found nothing to consume",
		       st.committed, st.read, st.overrun, st.entries);
	KUNIT_EXPECT_LE_MSG(test, st.entries, 1UL,
			    "entries above the one event written");
	KUNIT_EXPECT_EQ_MSG(test, st.committed,
			    st.read + st.overrun + st.entries,
			    "committed != read + overrun + entries");
	KUNIT_EXPECT_GE_MSG(test, st.committed, st.read,
			    "an event was read before it was counted");
	if (ev) {
		KUNIT_EXPECT_EQ(test, seq, 0U);
		race_read_rest(c, first, lens, 0);
	} else {
		race_read_rest(c, first, lens, 1);
	}
}

/* ---- the iterator waits for the writers in flight ----------------------- */

struct race_iter {
	struct lrb_script	*c;
	struct task_struct	*task;
	atomic_t		done;
	unsigned int		seen;
	u32			first_seq;
};

static int race_iterator_fn(void *data)
{
	struct race_iter *it = data;
	struct lrb_iter *iter;
	struct lrb_event *ev;

	iter = lrb_read_start(it->c->buf, it->c->cpu);
	if (!IS_ERR(iter)) {
		while (it->seen < 8 && (ev = lrb_iter_peek(iter, NULL))) {
			if (!it->seen++)
				it->first_seq = lrb_kunit_payload_seq(lrb_event_data(ev));
			lrb_iter_advance(iter);
		}
		lrb_read_finish(iter);
	}
	atomic_set_release(&it->done, 1);
	lrb_kunit_wait_for_stop();
	return 0;
}

/* Sleeping in lrb_read_start(), after it turned the writer's CPU off */
static bool race_iterator_waits(struct race_iter *it, struct lrb_snapshot *snap)
{
	if (lrb_snapshot(it->c->buf, it->c->cpu, snap) || !snap->record_disabled)
		return false;
	return READ_ONCE(it->task->__state) == TASK_UNINTERRUPTIBLE;
}

/*
 * lrb_read_start() turns recording off on the CPU and waits for the writers
 * already in flight there, so that the iterator sees their events committed
 * and no writer changes the pages under it. A writer is paused between its
 * reserve and its commit; an iterator started on a third CPU must sleep
 * until the writer is released, and then see its event.
 */
static void iterator_waits_for_writer_in_flight(struct kunit *test)
{
	struct lrb_script *c = race_start(test, 0);
	static const unsigned int lens[] = { S };
	static const u32 first[] = { 0 };
	struct lrb_snapshot *snap;
	struct race_iter *it;
	int third, cpu;
	u64 deadline;
	bool waited = false;

	if (num_online_cpus() < 3)
		kunit_skip(test, "needs a writer, an iterator and the test: three CPUs, %u online",
			   num_online_cpus());
	snap = kunit_kmalloc(test, sizeof(*snap), GFP_KERNEL);
	it = kunit_kzalloc(test, sizeof(*it), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, snap);
	KUNIT_ASSERT_NOT_NULL(test, it);
	it->c = c;
	third = nr_cpu_ids;
	for_each_online_cpu(cpu)
		if (cpu != c->rcpu && cpu != c->cpu) {
			third = cpu;
			break;
		}
	KUNIT_ASSERT_LT(test, third, nr_cpu_ids);

	race_pause(c, WRITER, LRB_HOOK_COMMIT_BEFORE, 1, 1, 2,
		   "the writer reserved and filled its event; paused before committing it",
		   NULL, "tail=p1 commit=p1 p1.write=12 p1.commit=0 committing=1");
	lrb_script_writer_add(c, S, 0);
	race_go(c, 0, 0);
	KUNIT_ASSERT_TRUE(test, lrb_script_wait(c, 1));
	it->task = kthread_run_on_cpu(race_iterator_fn, it, third, "lrb_smp_iter/%u");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, it->task);
	/* Release the writer once the iterator sleeps, or has returned */
	deadline = local_clock() + LRB_SCRIPT_WAIT_NS;
	while (!atomic_read_acquire(&it->done) && local_clock() < deadline) {
		if (race_iterator_waits(it, snap)) {
			waited = true;
			break;
		}
		cpu_relax();
	}
	lrb_script_signal(c, 2);
	race_finish(c);
	deadline = local_clock() + LRB_SCRIPT_WAIT_NS;
	while (!atomic_read_acquire(&it->done) && local_clock() < deadline)
		cond_resched();
	kthread_stop(it->task);
	lrb_kunit_line(test,
		       "iterator on CPU %d: %s while the writer on CPU %d was in flight; then saw %u event(s)",
		       third, waited ? "slept in lrb_read_start()" : "DID NOT wait",
		       c->cpu, it->seen);
	KUNIT_EXPECT_TRUE_MSG(test, waited,
			      "lrb_read_start() returned while a writer was in flight");
	KUNIT_EXPECT_EQ_MSG(test, it->seen, 1U,
			    "the iterator missed the event of the writer in flight");
	KUNIT_EXPECT_EQ(test, it->first_seq, 0U);
	race_read_rest(c, first, lens, 1);
}

static struct kunit_case lrb_smp_cases[] = {
	KUNIT_CASE(reader_reads_event_committed_while_it_looks),
	KUNIT_CASE(reader_before_swap_writer_pushes_head),
	KUNIT_CASE(reader_before_swap_writer_fills_its_page),
	KUNIT_CASE(reader_after_swap_writer_passes_new_head),
	KUNIT_CASE(writer_holds_update_reader_spins),
	KUNIT_CASE(slow_writer_costs_a_busy_read),
	KUNIT_CASE(writer_before_update_reader_takes_head),
	KUNIT_CASE(writer_before_tail_move_reader_takes_new_head),
	KUNIT_CASE(reader_ignores_nested_header_under_update),
	KUNIT_CASE(reader_takes_header_set_under_outer_new_head),
	KUNIT_CASE(read_page_takes_header_set_under_outer_new_head),
	KUNIT_CASE(reader_loads_commit_page_before_its_index),
	KUNIT_CASE(reader_index_after_commit_page_barrier),
	KUNIT_CASE(reader_between_loads_outer_writer_commits),
	KUNIT_CASE(read_page_hands_over_what_the_writer_left),
	KUNIT_CASE(read_page_copies_what_it_checked),
	KUNIT_CASE(reader_push_count_behind_barrier),
	KUNIT_CASE(reader_swap_after_head_went_round),
	KUNIT_CASE(read_page_swap_after_head_went_round),
	KUNIT_CASE(reader_swap_after_head_went_round_recycled),
	KUNIT_CASE(reader_swap_after_version_came_back),
	KUNIT_CASE(read_page_swap_after_version_came_back),
	KUNIT_CASE(reader_swap_after_version_came_back_recycled),
	KUNIT_CASE(reader_header_gone_before_version),
	KUNIT_CASE(writer_commit_prev_goes_stale),
	KUNIT_CASE(counters_add_up_while_writer_counts),
	KUNIT_CASE(iterator_waits_for_writer_in_flight),
	{}
};

static struct kunit_suite lrb_smp_suite = {
	.name = "lrb_smp",
	.init = lrb_kunit_impl_init_lrb,
	.test_cases = lrb_smp_cases,
};

#ifdef CONFIG_RING_BUFFER
/*
 * The windows of the algorithm itself on kernel/trace/ring_buffer.c. The
 * other cases check lrb's own synchronisation (its stale reads, its page
 * reader, its counters, its iterator); the kernel's reader-page race has
 * its case in lrb_kernel_rb.
 */
static struct kunit_case lrb_smp_kernel_cases[] = {
	KUNIT_CASE(reader_before_swap_writer_pushes_head),
	KUNIT_CASE(reader_before_swap_writer_fills_its_page),
	KUNIT_CASE(reader_after_swap_writer_passes_new_head),
	KUNIT_CASE(writer_holds_update_reader_spins),
	KUNIT_CASE(writer_before_update_reader_takes_head),
	KUNIT_CASE(writer_before_tail_move_reader_takes_new_head),
	KUNIT_CASE(reader_ignores_nested_header_under_update),
	KUNIT_CASE(reader_takes_header_set_under_outer_new_head),
	KUNIT_CASE(read_page_takes_header_set_under_outer_new_head),
	KUNIT_CASE(reader_between_loads_outer_writer_commits),
	KUNIT_CASE(reader_swap_after_head_went_round),
	KUNIT_CASE(read_page_swap_after_head_went_round),
	KUNIT_CASE(reader_header_gone_before_version),
	{}
};

static struct kunit_suite lrb_smp_kernel_suite = {
	.name = "lrb_smp_kernel",
	.init = lrb_kunit_impl_init_kernel,
	.test_cases = lrb_smp_kernel_cases,
};

lrb_kunit_impl_suites(&lrb_smp_suite, &lrb_smp_kernel_suite);
#else
kunit_test_suite(lrb_smp_suite);
#endif
