// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_design: the scenarios of Documentation/trace/ring-buffer-design.rst,
 * replayed step by step on the real data structure.
 *
 * Each case is a scenario of the document, named by its section and .rst
 * lines. A writer (or reader) of the test thread runs, and at the hook
 * points of the algorithm a script (lrb_kunit_script.c) takes a snapshot
 * of the ring and, where the document has an interrupt arrive, writes as a
 * nested writer right there, on the same CPU, exactly like an interrupt
 * would. After the
 * operation each snapshot is drawn in the document's notation, its boxes in
 * the order the document draws them, with the .rst line of the drawing (or
 * of the text) it reproduces, and checked against the state the document
 * draws; then every event is read back (payloads, order, time stamps,
 * losses) and the buffer's accounting checked.
 *
 * Rings have four data pages p1..p4 and start with the reader page p0. BIG
 * events fill a page exactly, so that one write is one page; S events are
 * small. A clock that advances 1000 per call makes every run draw the same
 * time stamps, so that docs/scenarios.md can be compared with a run.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>

#include "lrb_kunit.h"
#include "lrb_kunit_impl.h"
#include "lrb_kunit_script.h"

#define CAP		LRB_KUNIT_CAPACITY
#define BIG		(CAP - 8)
#define S		8
#define RING_SIZE	(4 * CAP)

#define RST		"Documentation/trace/ring-buffer-design.rst"
#define GENERIC		"The Generic Ring Buffer"
#define LOCKLESS	"Making the Ring Buffer Lockless:"
#define NESTED		"Nested writes"

static void *sc_data(const struct lrb_script *sc, void *ev)
{
	return sc->impl->event_data(ev);
}

/*
 * A scenario on the current CPU, pinned until the test ends, on the
 * implementation of the suite (test->priv). Where the document has it goes
 * in the log with the name; first is the page drawn in the document's
 * first box.
 */
static struct lrb_script *sc_start(struct kunit *test, unsigned long flags,
				   const char *where, unsigned int first)
{
	struct lrb_script *sc;
	int cpu = lrb_kunit_pin_current(test);

	sc = lrb_script_start(test, RING_SIZE, flags, cpu, -1);
	sc->first = first;
	sc->impl->set_clock(sc->buf, lrb_kunit_clock_tick);
	lrb_kunit_clock_set(1000000);
	KUNIT_ASSERT_EQ(test, 0, lrb_script_arm(sc));
	lrb_kunit_line(test, "lrb-scenario %s%s (%s; %s mode; boxes from p%u)",
		       test->name, lrb_script_kernel(sc) ? " [kernel]" : "", where,
		       flags & LRB_FL_OVERWRITE ? "overwrite" : "producer/consumer",
		       first);
	return sc;
}

/* The differences, each a row of docs/kernel-rb-differences.md */
#define K_SMALL	"an 8-byte payload takes 16 bytes, 12 in lrb (rb_calculate_event_length())"
#define K_LONE	"its reader page points at itself until the first swap, lrb's at the head as drawn (rb_allocate_cpu_buffer())"
#define K_COUNT	"entries counts a nested commit at once, lrb's committed once the outermost writer commits (rb_commit())"
#define K_DONE	"its reader_done point comes after the old head became the reader page, lrb's before"

/* Read everything back, the loss of lost_nr reported before seqs[lost_at] */
static void sc_read(struct lrb_script *sc, const u32 *seqs, const u32 *lens,
		    unsigned int n, int lost_at, unsigned long lost_nr)
{
	unsigned long losts[8] = {};

	KUNIT_ASSERT_LE(sc->test, n, ARRAY_SIZE(losts));
	if (lost_at >= 0)
		losts[lost_at] = lost_nr;
	lrb_script_read(sc, seqs, lens, losts, n);
}

/* Fill the four ring pages with one BIG event each: seqs 0..3 */
static void sc_fill(struct lrb_script *sc)
{
	u32 seq;

	for (seq = 0; seq < 4; seq++)
		KUNIT_ASSERT_EQ(sc->test, 0, lrb_script_write(sc, BIG, seq));
}

/* ---- the scenarios ------------------------------------------------------ */

/* The reader swaps its empty page with the head page */
static void reader_swap_empty_reader_page(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, 0, RST ", section \"" LOCKLESS
				       "\", lines 488-569", 1);
	static const u32 seqs[] = { 0, 1 }, lens[] = { BIG, S };
	unsigned long lost;
	void *ev;

	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, BIG, 0));
	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, S, 1));
	lrb_script_snap(sc, "rst 494-506",
			"the reader page is outside the ring; the pointer to the head has HEADER",
			"p1 --> p2 --> p3 --> p4 -H->",
			"head=p1 tail=p2 commit=p2 reader=p0 rnext=p1 rflag=N rprev=p4");
	lrb_script_kernel_differs(sc, NULL,
				  "head=p1 tail=p2 commit=p2 reader=p0 rnext=p0 rprev=p0",
				  K_LONE);
	lrb_script_step(sc, 0, LRB_HOOK_READER_BEFORE_SWAP, 1, "rst 508-523",
			"the reader page points at the page after the head, with HEADER",
			"p1 --> p2 --> p3 --> p4 -H->",
			"reader=p0 rnext=p2 rflag=H rprev=p4 head=p1");
	lrb_script_step(sc, 0, LRB_HOOK_READER_AFTER_SWAP, 1, "rst 525-540",
			"cmpxchg: the page before the head points at the reader page",
			"p0 -H-> p2 --> p3 --> p4 -->",
			"staleprev=p2:p1 rule=p1 head=p2");
	lrb_script_step(sc, 0, LRB_HOOK_READER_DONE, 1, "rst 542-556",
			"the new head's prev points back at the old reader page",
			"p0 -H-> p2 --> p3 --> p4 -->", "head=p2");

	ev = lrb_script_consume(sc, NULL, &lost);
	KUNIT_EXPECT_NOT_NULL(test, ev);
	lrb_script_snap(sc, "rst 558-569",
			"the old head is the new reader page, outside the ring",
			"p0 -H-> p2 --> p3 --> p4 -->",
			"reader=p1 rnext=p2 rflag=N rprev=p4 head=p2 tail=p2 commit=p2 rule=p1");
	lrb_script_report(sc);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_TRUE(test, lrb_kunit_payload_ok(sc_data(sc, ev), BIG, 0));
	sc_read(sc, seqs + 1, lens + 1, 1, -1, 0);
}

/* The page swapped is the commit and the tail page */
static void swap_commit_and_tail_page(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, 0, RST ", section \"" GENERIC
				       "\", lines 191-214", 4);
	static const u32 seqs[] = { 1, 2 }, lens[] = { S, BIG };

	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, S, 0));
	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, S, 1));
	KUNIT_ASSERT_NOT_NULL(test, lrb_script_consume(sc, NULL, NULL));
	lrb_script_snap(sc, "rst 194-209",
			"less than a page was written: the reader took the commit and tail page",
			"p4 --> p0 -H-> p2 --> p3 -->",
			"reader=p1 commit=p1 tail=p1 head=p2 rnext=p2 rflag=N p1.read=12 p1.commit=24");
	lrb_script_kernel_differs(sc, NULL,
				  "reader=p1 commit=p1 tail=p1 head=p2 rnext=p2 rflag=N p1.read=16 p1.commit=32",
				  K_SMALL);
	lrb_script_step(sc, 0, LRB_HOOK_MOVE_TAIL, 1, "rst 194-209",
			"the writer reaches the end of the reader page",
			"p4 --> p0 -H-> p2 --> p3 -->", "reader=p1 tail=p1 commit=p1 head=p2");
	lrb_script_step(sc, 0, LRB_HOOK_TAIL_AFTER, 1, "rst text 211-214",
			"it leaves the reader page through its next pointer, into the ring",
			"p4 --> p0 -H-> p2 --> p3 -->", "tail=p2 commit=p1 head=p2");
	KUNIT_EXPECT_EQ(test, 0, lrb_script_write(sc, BIG, 2));
	lrb_script_snap(sc, "rst text 211-214",
			"the commit followed; the head page did not move",
			"p4 --> p0 -H-> p2 --> p3 -->", "tail=p2 commit=p2 head=p2 reader=p1");
	lrb_script_report(sc);
	sc_read(sc, seqs, lens, 2, -1, 0);
}

/* Reserve, nested reserve, pending commit, full commit */
static void reserve_nested_commit_pending(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, 0, RST ", section \"" GENERIC
				       "\", lines 233-308", 1);
	static const u32 seqs[] = { 1, 2 }, lens[] = { S, S };
	void *outer, *inner, *seen[2];

	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, S, 0));
	lrb_script_snap(sc, "rst 257-266", "written: the commit is at the end of the event",
			NULL, "p1.write=12 p1.commit=12 committing=0");
	lrb_script_kernel_differs(sc, NULL, "p1.write=16 p1.commit=16 committing=0",
				  K_SMALL);

	outer = lrb_script_reserve(sc, S, 1);
	KUNIT_ASSERT_NOT_NULL(test, outer);
	lrb_script_snap(sc, "rst 246-255",
			"write reserve: given back to the writer, the tail past it",
			NULL, "p1.write=24 p1.commit=12 committing=1");
	lrb_script_kernel_differs(sc, NULL, "p1.write=32 p1.commit=16 committing=1",
				  K_SMALL);
	inner = lrb_script_reserve(sc, S, 2);
	if (inner) {
		lrb_script_snap(sc, "rst 269-278", "a second writer reserves after the first",
				NULL, "p1.write=36 p1.commit=12 committing=2");
		lrb_script_kernel_differs(sc, NULL, "p1.write=48 p1.commit=16 committing=2",
					  K_SMALL);
		lrb_script_commit(sc, inner);
	}
	/* committed counts what is below the commit index: not yet the inner */
	lrb_script_snap(sc, "rst 280-291", "the second writer committed: a pending commit",
			NULL, "p1.write=36 p1.commit=12 committing=1 committed=1");
	lrb_script_kernel_differs(sc, NULL, "p1.write=48 p1.commit=16 committing=1 committed=2",
				  K_SMALL ", and " K_COUNT);
	seen[0] = lrb_script_consume(sc, NULL, NULL);
	seen[1] = lrb_script_consume(sc, NULL, NULL);
	lrb_script_snap(sc, "rst text 305-308",
			"a reader sees the written event only: a pending commit is not a full commit",
			NULL, "p1.read=12 read=1");
	lrb_script_kernel_differs(sc, NULL, "p1.read=16 read=1",
				  K_SMALL);
	lrb_script_commit(sc, outer);
	lrb_script_snap(sc, "rst 293-302",
			"the first writer commits: last full commit and tail meet",
			NULL, "p1.write=36 p1.commit=36 committing=0 committed=3");
	lrb_script_kernel_differs(sc, NULL, "p1.write=48 p1.commit=48 committing=0 committed=3",
				  K_SMALL);

	KUNIT_ASSERT_NOT_NULL(test, inner);
	KUNIT_EXPECT_NOT_NULL(test, seen[0]);
	KUNIT_EXPECT_NULL(test, seen[1]);
	lrb_script_report(sc);
	sc_read(sc, seqs, lens, 2, -1, 0);
}

/* Head, commit and tail on three different pages, in that order */
static void tail_ahead_of_commit(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, 0, RST ", section \"" GENERIC
				       "\", lines 310-334", 1);
	static const u32 seqs[] = { 0, 1, 2, 3, 4 },
			 lens[] = { BIG, BIG, S, S, BIG };
	void *outer;
	int r;

	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, BIG, 0));
	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, BIG, 1));
	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, S, 2));
	outer = lrb_script_reserve(sc, S, 3);
	KUNIT_ASSERT_NOT_NULL(test, outer);
	r = lrb_script_write(sc, BIG, 4);
	lrb_script_snap(sc, "rst 325-334",
			"a writer on the commit page is interrupted; the nested one moves the tail ahead: head, commit, tail",
			"p1 --> p2 --> p3 --> p4 -H->",
			"head=p1 commit=p3 tail=p4 committing=1 p3.commit=12 p4.commit=0");
	lrb_script_kernel_differs(sc, NULL,
				  "head=p1 commit=p3 tail=p4 committing=1 p3.commit=16 p4.commit=0",
				  K_SMALL);
	lrb_script_commit(sc, outer);
	lrb_script_snap(sc, "rst text 305-312",
			"the outermost commit takes the commit page to the tail page",
			"p1 --> p2 --> p3 --> p4 -H->",
			"head=p1 commit=p4 tail=p4 committing=0 p3.commit=end p4.commit=end");
	KUNIT_EXPECT_EQ(test, r, 0);
	lrb_script_report(sc);
	sc_read(sc, seqs, lens, 5, -1, 0);
}

/* The commit on the reader page; the head stays */
static void commit_on_reader_page_head_stays(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, LRB_FL_OVERWRITE, RST ", section \""
				       GENERIC "\", lines 336-365", 4);
	static const u32 seqs[] = { 1, 2, 3 }, lens[] = { S, BIG, BIG };
	void *outer, *first;
	int r1, r2;

	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, S, 0));
	outer = lrb_script_reserve(sc, S, 1);
	KUNIT_ASSERT_NOT_NULL(test, outer);
	first = lrb_script_consume(sc, NULL, NULL);
	lrb_script_snap(sc, "rst 343-361",
			"the reader swapped out the commit page: commit and tail on the reader page, the head after them",
			"p4 --> p0 -H-> p2 --> p3 -->",
			"reader=p1 commit=p1 tail=p1 head=p2 rnext=p2 committing=1");
	r1 = lrb_script_write(sc, BIG, 2);
	r2 = lrb_script_write(sc, BIG, 3);
	lrb_script_snap(sc, "rst text 364-365",
			"the tail moved back into the ring; the head page does not move",
			"p4 --> p0 -H-> p2 --> p3 -->",
			"reader=p1 commit=p1 tail=p3 head=p2 committing=1");
	lrb_script_commit(sc, outer);
	lrb_script_snap(sc, "rst text 364-365",
			"the outermost commit leaves the reader page through its next pointer",
			"p4 --> p0 -H-> p2 --> p3 -->", "reader=p1 commit=p3 tail=p3 head=p2");
	KUNIT_EXPECT_NOT_NULL(test, first);
	KUNIT_EXPECT_EQ(test, r1, 0);
	KUNIT_EXPECT_EQ(test, r2, 0);
	lrb_script_report(sc);
	sc_read(sc, seqs, lens, 3, -1, 0);
}

/* The reader meets the last full commit */
static void reader_meets_last_full_commit(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, 0, RST ", section \"" GENERIC
				       "\", lines 367-370", 4);
	static const u32 seqs[] = { 1, 2 }, lens[] = { S, S };
	void *outer, *got[3];
	bool empty;
	int r;

	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, S, 0));
	outer = lrb_script_reserve(sc, S, 1);
	KUNIT_ASSERT_NOT_NULL(test, outer);
	got[0] = lrb_script_consume(sc, NULL, NULL);
	got[1] = lrb_script_consume(sc, NULL, NULL);
	empty = sc->impl->empty_cpu(sc->buf, sc->cpu);
	lrb_script_snap(sc, "rst text 367-370",
			"the reader met the last full commit: empty until the next one",
			"p4 --> p0 -H-> p2 --> p3 -->",
			"reader=p1 commit=p1 p1.read=12 p1.commit=12 head=p2");
	lrb_script_kernel_differs(sc, NULL, "reader=p1 commit=p1 p1.read=16 p1.commit=16 head=p2",
				  K_SMALL);
	r = lrb_script_write(sc, S, 2);
	got[2] = lrb_script_consume(sc, NULL, NULL);
	lrb_script_snap(sc, "rst text 367-370",
			"a nested commit is pending, not full: still empty, and no swap",
			"p4 --> p0 -H-> p2 --> p3 -->",
			"reader=p1 commit=p1 head=p2 p1.write=36 p1.commit=12");
	lrb_script_kernel_differs(sc, NULL, "reader=p1 commit=p1 head=p2 p1.write=48 p1.commit=16",
				  K_SMALL);
	lrb_script_commit(sc, outer);
	KUNIT_EXPECT_NOT_NULL(test, got[0]);
	KUNIT_EXPECT_NULL(test, got[1]);
	KUNIT_EXPECT_NULL(test, got[2]);
	KUNIT_EXPECT_TRUE(test, empty);
	KUNIT_EXPECT_EQ(test, r, 0);
	lrb_script_report(sc);
	sc_read(sc, seqs, lens, 2, -1, 0);
}

/* Overwrite mode: the tail pushes the head one page */
static void overwrite_tail_pushes_head(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, LRB_FL_OVERWRITE, RST ", section \""
				       GENERIC "\", lines 372-414", 3);
	static const u32 seqs[] = { 1, 2, 3, 4 }, lens[] = { BIG, BIG, BIG, BIG };

	sc_fill(sc);
	lrb_script_snap(sc, "rst 376-387",
			"the ring is full: the tail page is the one before the head",
			"p3 --> p4 -H-> p1 --> p2 -->", "tail=p4 head=p1 rnext=p1");
	lrb_script_kernel_differs(sc, NULL, "tail=p4 head=p1 rnext=p0", K_LONE);
	lrb_script_step(sc, 0, LRB_HOOK_TAIL_BEFORE, 1, "rst 390-399",
			"overwrite: the head is pushed one page ahead first",
			"p3 --> p4 --> p1 -H-> p2 -->", "tail=p4 head=p2 overrun=1");
	lrb_script_step(sc, 0, LRB_HOOK_TAIL_AFTER, 1, "rst 402-411",
			"then the tail moves onto the page the head left",
			"p3 --> p4 --> p1 -H-> p2 -->", "tail=p1 head=p2");
	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, BIG, 4));
	lrb_script_snap(sc, "rst text 413-414",
			"the reader page still points at the previous head; a swap uses the new one",
			"p3 --> p4 --> p1 -H-> p2 -->",
			"reader=p0 rnext=p1 rflag=N commit=p1 pages_lost=1");
	lrb_script_kernel_differs(sc, NULL, "reader=p0 rnext=p0 commit=p1 pages_lost=1", K_LONE);
	lrb_script_report(sc);
	/* A swap uses the most recent head: the oldest page is lost */
	sc_read(sc, seqs, lens, 4, 0, 1);
}

/* Producer/consumer mode: the write fails */
static void producer_consumer_write_fails(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, 0, RST ", section \"" GENERIC
				       "\", lines 372-374", 3);
	static const u32 seqs[] = { 0, 1, 2, 3 }, lens[] = { BIG, BIG, BIG, BIG };

	sc_fill(sc);
	KUNIT_EXPECT_EQ(test, lrb_script_write(sc, BIG, 4), -ENOSPC);
	KUNIT_EXPECT_EQ(test, lrb_script_write(sc, S, 4), -ENOSPC);
	lrb_script_snap(sc, "rst text 372-374",
			"producer/consumer: the writes fail, nothing moves",
			"p3 --> p4 -H-> p1 --> p2 -->",
			"tail=p4 commit=p4 head=p1 dropped=2 overrun=0");
	lrb_script_report(sc);
	sc_read(sc, seqs, lens, 4, -1, 0);
}

/* The HEADER flag, turned to UPDATE when the tail meets it */
static void header_flag_turns_update(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, LRB_FL_OVERWRITE, RST ", section \""
				       LOCKLESS "\", lines 432-481", 3);
	static const u32 seqs[] = { 1, 2, 3, 4 }, lens[] = { BIG, BIG, BIG, BIG };

	sc_fill(sc);
	lrb_script_snap(sc, "rst 441-454",
			"\"-H->\": the pointer to the head page has the HEADER flag; the reader page points at the head",
			"p3 --> p4 -H-> p1 --> p2 -->", "head=p1 rnext=p1 nrH=1 nrU=0");
	lrb_script_kernel_differs(sc, NULL, "head=p1 rnext=p0 nrH=1 nrU=0", K_LONE);
	lrb_script_step(sc, 0, LRB_HOOK_HEAD_UPDATE_BEFORE, 1, "rst 461-471",
			"the tail page meets the head pointer",
			"p3 --> p4 -H-> p1 --> p2 -->", "tail=p4 head=p1 nrH=1 nrU=0");
	lrb_script_step(sc, 0, LRB_HOOK_HEAD_UPDATE_AFTER, 1, "rst 473-479",
			"cmpxchg turned it to \"-U->\", the UPDATE state",
			"p3 --> p4 -U-> p1 --> p2 -->", "tail=p4 head=- nrH=0 nrU=1");
	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, BIG, 4));
	lrb_script_report(sc);
	sc_read(sc, seqs, lens, 4, 0, 1);
}

/* The reader's cmpxchg fails when a writer moved the head */
static void reader_swap_retries_when_head_moved(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, LRB_FL_OVERWRITE, RST ", section \""
				       LOCKLESS "\", lines 488-527", 1);
	static const u32 seqs[] = { 1, 2, 3, 4 }, lens[] = { BIG, BIG, BIG, BIG };
	void *ev;
	unsigned long lost;
	struct lrb_script_step *st;

	sc_fill(sc);
	st = lrb_script_step(sc, 0, LRB_HOOK_READER_BEFORE_SWAP, 1, "rst 508-523",
			     "the reader prepared its page for head p1; a writer interrupts it",
			     "p1 --> p2 --> p3 --> p4 -H->",
			     "reader=p0 rnext=p2 rflag=H rprev=p4 head=p1");
	lrb_script_nest(st, BIG, 4);
	lrb_script_step(sc, 0, LRB_HOOK_READER_SWAP_FAILED, 1, "rst text 488-491",
			"the writer pushed the head: the pointer the reader's cmpxchg expects has no HEADER, it fails",
			"p1 -H-> p2 --> p3 --> p4 -->", "head=p2 tail=p1 rnext=p2 rprev=p4");
	lrb_script_step(sc, 0, LRB_HOOK_READER_BEFORE_SWAP, 2, "rst 508-523",
			"it looks for the head again and prepares for p2",
			"p1 -H-> p2 --> p3 --> p4 -->", "head=p2 rnext=p3 rflag=H rprev=p1");
	lrb_script_step(sc, 0, LRB_HOOK_READER_DONE, 1, "rst 542-556",
			"the second cmpxchg succeeded: p0 replaced p2 in the ring",
			"p1 --> p0 -H-> p3 --> p4 -->", "head=p3 tail=p1");
	ev = lrb_script_consume(sc, NULL, &lost);
	lrb_script_report(sc);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_TRUE(test, lrb_kunit_payload_ok(sc_data(sc, ev), BIG, 1));
	KUNIT_EXPECT_EQ(test, lost, 1UL);
	sc_read(sc, seqs + 1, lens + 1, 3, -1, 0);
}

/* The reader page is the page its prev page does not point back to */
static void reader_page_recognised_by_prev(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, 0, RST ", section \"" LOCKLESS
				       "\", lines 571-591", 1);
	static const u32 seqs[] = { 1 }, lens[] = { S };

	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, BIG, 0));
	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, S, 1));
	lrb_script_snap(sc, "rst 578-591",
			"before any swap: only p0 is not pointed back at by its prev page",
			"p1 --> p2 --> p3 --> p4 -H->", "rule=p0");
	lrb_script_kernel_differs(sc, NULL, "reader=p0 rnext=p0 rprev=p0", K_LONE);
	lrb_script_step(sc, 0, LRB_HOOK_READER_AFTER_SWAP, 1, "rst text 571-576",
			"in the middle of the swap: p1 left the ring, the rule says so already",
			"p0 -H-> p2 --> p3 --> p4 -->", "rule=p1 staleprev=p2:p1");
	KUNIT_ASSERT_NOT_NULL(test, lrb_script_consume(sc, NULL, NULL));
	lrb_script_snap(sc, "rst 578-591",
			"after the swap: p1 is the reader page; its next stays in the ring",
			"p0 -H-> p2 --> p3 --> p4 -->", "rule=p1 reader=p1 rnext=p2 rprev=p4");
	lrb_script_report(sc);
	sc_read(sc, seqs, lens, 1, -1, 0);
}

/* The writer pushes the head, step by step */
static void writer_pushes_head(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, LRB_FL_OVERWRITE, RST ", section \""
				       LOCKLESS "\", lines 593-651", 3);
	static const u32 seqs[] = { 1, 2, 3, 4 }, lens[] = { BIG, BIG, BIG, BIG };

	sc_fill(sc);
	lrb_script_step(sc, 0, LRB_HOOK_HEAD_UPDATE_BEFORE, 1, "rst 606-612",
			"the tail page meets the head page",
			"p3 --> p4 -H-> p1 --> p2 -->", "tail=p4 head=p1");
	lrb_script_step(sc, 0, LRB_HOOK_HEAD_UPDATE_AFTER, 1, "rst 614-620",
			"cmpxchg HEADER -> UPDATE: no reader can swap the head now",
			"p3 --> p4 -U-> p1 --> p2 -->", "tail=p4");
	lrb_script_step(sc, 0, LRB_HOOK_NEW_HEAD_AFTER, 1, "rst 622-630",
			"the following page is made the new head",
			"p3 --> p4 -U-> p1 -H-> p2 -->", "tail=p4 head=p2");
	lrb_script_step(sc, 0, LRB_HOOK_TAIL_BEFORE, 1, "rst 632-641",
			"the old head pointer set back to NORMAL",
			"p3 --> p4 --> p1 -H-> p2 -->", "tail=p4 head=p2");
	lrb_script_step(sc, 0, LRB_HOOK_TAIL_AFTER, 1, "rst 643-651",
			"after the head page has moved, the tail page moves forward",
			"p3 --> p4 --> p1 -H-> p2 -->", "tail=p1 head=p2");
	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, BIG, 4));
	lrb_script_snap(sc, "rst text 76-78",
			"the push is accounted: the oldest page's event is lost",
			"p3 --> p4 --> p1 -H-> p2 -->", "overrun=1 pages_lost=1 commit=p1");
	lrb_script_report(sc);
	sc_read(sc, seqs, lens, 4, 0, 1);
}

/* The tail wraps while the commit is on the reader page */
static void tail_wraps_commit_on_reader_page(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, LRB_FL_OVERWRITE, RST ", section \""
				       LOCKLESS "\", lines 657-697", 4);
	static const u32 seqs[] = { 1, 2, 3, 4, 5 },
			 lens[] = { S, BIG, BIG, BIG, BIG };
	void *outer;
	int r[5], i;

	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, S, 0));
	outer = lrb_script_reserve(sc, S, 1);
	KUNIT_ASSERT_NOT_NULL(test, outer);
	lrb_script_consume(sc, NULL, NULL);
	for (i = 0; i < 4; i++)
		r[i] = lrb_script_write(sc, BIG, 2 + i);
	lrb_script_snap(sc, "rst 664-681",
			"nested writers went round the ring: the tail before the head, the commit on the reader page",
			"p4 --> p0 -H-> p2 --> p3 -->",
			"reader=p1 commit=p1 tail=p0 head=p2 committing=1");
	r[4] = lrb_script_write(sc, BIG, 6);
	lrb_script_snap(sc, "rst text 686-688",
			"pushing the head would strand the commit: the write is dropped",
			"p4 --> p0 -H-> p2 --> p3 -->",
			"reader=p1 commit=p1 tail=p0 head=p2 commit_overrun=1 overrun=0");
	lrb_script_commit(sc, outer);
	lrb_script_snap(sc, "rst text 690-697",
			"the outermost commit goes round to the tail",
			"p4 --> p0 -H-> p2 --> p3 -->", "commit=p0 tail=p0 head=p2");
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, r[i], 0);
	KUNIT_EXPECT_EQ(test, r[4], -ENOSPC);
	lrb_script_report(sc);
	sc_read(sc, seqs, lens, 5, -1, 0);
}

/*
 * The tail catches the commit page inside the ring: nested writers fill
 * every page while the outer writer holds the commit on the first one. The
 * next write is dropped and counted as a commit overrun, in either mode;
 * nothing is pushed.
 */
static void sc_tail_catches_commit(struct kunit *test, unsigned long flags)
{
	struct lrb_script *sc = sc_start(test, flags, RST ", section \"" GENERIC
				       "\", lines 314-317, and section \"" LOCKLESS
				       "\", lines 657-660", 1);
	static const u32 seqs[] = { 0, 1, 2, 3 }, lens[] = { S, BIG, BIG, BIG };
	void *outer;
	int r[4], i;

	outer = lrb_script_reserve(sc, S, 0);
	KUNIT_ASSERT_NOT_NULL(test, outer);
	for (i = 0; i < 3; i++)
		r[i] = lrb_script_write(sc, BIG, 1 + i);
	lrb_script_snap(sc, "rst text 314-317",
			"nested writers filled the ring: the tail page is the one before the commit page",
			"p1 --> p2 --> p3 --> p4 -H->",
			"head=p1 commit=p1 tail=p4 committing=1 p1.commit=0");
	lrb_script_step(sc, 0, LRB_HOOK_MOVE_TAIL, 1, "rst text 657-660",
			"the next write runs off the tail page: its next page is the commit page",
			"p1 --> p2 --> p3 --> p4 -H->", "head=p1 commit=p1 tail=p4");
	r[3] = lrb_script_write(sc, BIG, 4);
	lrb_script_snap(sc, "rst text 314-317",
			"the tail caught the commit: the write is dropped, counted as a commit overrun, nothing pushed",
			"p1 --> p2 --> p3 --> p4 -H->",
			"head=p1 commit=p1 tail=p4 commit_overrun=1 dropped=0 overrun=0 pages_lost=0");
	lrb_script_commit(sc, outer);
	lrb_script_snap(sc, "rst text 305-312",
			"the outermost commit goes round to the tail",
			"p1 --> p2 --> p3 --> p4 -H->", "head=p1 commit=p4 tail=p4 committing=0");
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, r[i], 0);
	KUNIT_EXPECT_EQ(test, r[3], -ENOSPC);
	lrb_script_report(sc);
	sc_read(sc, seqs, lens, 4, -1, 0);
}

static void tail_catches_commit_overwrite(struct kunit *test)
{
	sc_tail_catches_commit(test, LRB_FL_OVERWRITE);
}

static void tail_catches_commit_prodcons(struct kunit *test)
{
	sc_tail_catches_commit(test, 0);
}

/*
 * Once the commit page leaves the reader page it does not go back on it,
 * however often the writers go round the ring, until a reader swaps in the
 * page the commit is on.
 */
static void commit_leaves_reader_page_for_good(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, LRB_FL_OVERWRITE, RST ", section \""
				       LOCKLESS "\", lines 690-697", 4);
	unsigned int i, laps = 10, on_reader = 0;
	struct lrb_snapshot *snap = kunit_kmalloc(test, sizeof(*snap), GFP_KERNEL);
	unsigned long lost, lost_sum = 0;
	void *ev;
	struct lrb_stats st;
	u32 seq, last = 0;
	char pages[64];
	size_t n = 0;

	KUNIT_ASSERT_NOT_NULL(test, snap);
	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, S, 0));
	KUNIT_ASSERT_NOT_NULL(test, lrb_script_consume(sc, NULL, NULL));
	lrb_script_snap(sc, "rst 343-361",
			"the reader swapped in the commit page: the commit is on the reader page",
			"p4 --> p0 -H-> p2 --> p3 -->", "reader=p1 commit=p1 tail=p1 head=p2");
	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, BIG, 1));
	lrb_script_snap(sc, "rst text 694-697",
			"a write leaves the reader page: the commit follows it into the ring",
			"p4 --> p0 -H-> p2 --> p3 -->", "reader=p1 commit=p2 tail=p2 head=p2");
	for (i = 0; i < laps; i++) {
		KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, BIG, 2 + i));
		KUNIT_ASSERT_EQ(test, 0, sc->impl->snapshot(sc->buf, sc->cpu, snap));
		if (snap->commit == snap->reader)
			on_reader++;
		n += scnprintf(pages + n, sizeof(pages) - n, " p%u", snap->commit);
	}
	lrb_kunit_line(test, "commit page after each of %u more writes:%s", laps,
		       pages);
	KUNIT_EXPECT_EQ_MSG(test, on_reader, 0U,
			    "the commit went back on the reader page %u times",
			    on_reader);
	lrb_script_snap(sc, "rst text 694-697",
			"the writers went round the ring twice: the commit never came back to p1",
			"p4 -H-> p0 --> p2 --> p3 -->",
			"reader=p1 commit=p4 tail=p4 head=p0 overrun=7 pages_lost=7");
	/* The reader drains the ring and takes the commit page with the last one */
	for (i = 0; (ev = lrb_script_consume(sc, NULL, &lost)); i++) {
		seq = lrb_kunit_payload_seq(sc_data(sc, ev));
		KUNIT_EXPECT_TRUE_MSG(test, lrb_kunit_payload_ok(sc_data(sc, ev),
								 BIG, seq),
				      "event %u torn", i);
		KUNIT_EXPECT_GT_MSG(test, seq, last, "event %u out of order", i);
		last = seq;
		lost_sum += lost;
	}
	lrb_script_snap(sc, "rst text 695-697",
			"a reader swapped in the page the commit is on: the commit is on the reader page again",
			"p0 --> p2 --> p3 -H-> p1 -->", "reader=p4 commit=p4 tail=p4 head=p1");
	sc->impl->stats(sc->buf, sc->cpu, &st);
	KUNIT_EXPECT_EQ(test, i, 4U);
	KUNIT_EXPECT_EQ(test, last, laps + 1);
	KUNIT_EXPECT_EQ(test, lost_sum, st.overrun);
	lrb_script_report(sc);
	lrb_kunit_line(test, "read back %u events in order, payloads intact, loss reported",
		       i);
}

/* ---- two readers -------------------------------------------------------- */

enum second_reader_api {
	SECOND_CONSUME,
	SECOND_PEEK,
	SECOND_READ_PAGE,
	SECOND_ITERATE,
	SECOND_EMPTY,
};

enum { SECOND_STARTING, SECOND_READY, SECOND_GO, SECOND_DONE };

/* A reader of the scenario's CPU buffer, on another CPU */
struct second_reader {
	struct lrb_script		*sc;
	enum second_reader_api	api;
	atomic_t		stage;
	bool			contended;
	int			foreign_in_pause;
	bool			timed_out;
	/* what it got */
	bool			got_event;
	u32			seq;
	unsigned int		len;
	bool			empty;
	struct completion	ready;
	struct completion	done;
	struct task_struct	*task;
};

static bool second_wait(struct second_reader *sr, int stage)
{
	return lrb_kunit_wait_stage(&sr->stage, stage, LRB_SCRIPT_WAIT_NS);
}

static void second_got(struct second_reader *sr, void *ev)
{
	const struct lrb_kunit_impl *impl = sr->sc->impl;

	if (!ev)
		return;
	sr->got_event = true;
	sr->len = impl->event_length(ev);
	sr->seq = lrb_kunit_payload_seq(impl->event_data(ev));
}

static int second_reader_fn(void *data)
{
	struct second_reader *sr = data;
	const struct lrb_kunit_impl *impl = sr->sc->impl;
	void *b = sr->sc->buf, *iter = NULL, *page = NULL;
	struct lrb_data_page *dp;
	int cpu = sr->sc->cpu;

	/* Whatever may sleep happens before the first reader holds the lock */
	if (sr->api == SECOND_READ_PAGE)
		page = impl->alloc_read_page(b, cpu);
	if (sr->api == SECOND_ITERATE)
		iter = impl->read_start(b, cpu);
	atomic_set_release(&sr->stage, SECOND_READY);
	complete(&sr->ready);
	if (!second_wait(sr, SECOND_GO)) {
		sr->timed_out = true;
		goto out;
	}
	switch (sr->api) {
	case SECOND_CONSUME:
		second_got(sr, impl->consume(b, cpu, NULL, NULL));
		break;
	case SECOND_PEEK:
		second_got(sr, impl->peek(b, cpu));
		break;
	case SECOND_READ_PAGE:
		if (!IS_ERR_OR_NULL(page) && impl->read_page(b, &page, cpu, &dp) > 0)
			second_got(sr, dp->data);
		break;
	case SECOND_ITERATE:
		if (!IS_ERR_OR_NULL(iter))
			second_got(sr, impl->iter_peek(iter));
		break;
	case SECOND_EMPTY:
		sr->empty = impl->empty_cpu(b, cpu);
		break;
	}
out:
	if (!IS_ERR_OR_NULL(iter))
		impl->read_finish(iter);
	if (!IS_ERR_OR_NULL(page))
		impl->free_read_page(b, cpu, page);
	atomic_set_release(&sr->stage, SECOND_DONE);
	complete(&sr->done);
	lrb_kunit_wait_for_stop();
	return 0;
}

/*
 * raw_spin_is_contended() reports a waiter only where the architecture
 * defines arch_spin_is_contended as a macro (x86, arm64 and arm do; riscv's
 * generic ticket lock in 6.12 has the function but not the macro)
 */
#ifdef arch_spin_is_contended
#define SPIN_CONTENTION_SEEN	true
#else
#define SPIN_CONTENTION_SEEN	false
#endif
#define SPIN_CONTENTION_UNSEEN	\
	"raw_spin_is_contended() is 0 here (the generic ticket lock): no check can see the second reader wait"

/*
 * The first reader, holding the reader lock in the middle of its swap, lets
 * the second one go and waits until it is spinning on the lock: a second
 * reader that got in instead would call the hooks from its CPU.
 */
static void second_reader_pause(struct lrb_script *sc)
{
	struct second_reader *sr = sc->data;
	u64 deadline = local_clock() + LRB_SCRIPT_WAIT_NS;
	int before = atomic_read(&sc->foreign);

	atomic_set_release(&sr->stage, SECOND_GO);
	while (atomic_read(&sc->foreign) == before &&
	       !sc->impl->reader_contended(sc->buf, sc->cpu)) {
		if (local_clock() > deadline) {
			sr->timed_out = true;
			break;
		}
		cpu_relax();
	}
	sr->contended = sc->impl->reader_contended(sc->buf, sc->cpu);
	sr->foreign_in_pause = atomic_read(&sc->foreign) - before;
}

static void second_reader_stop(void *data)
{
	struct second_reader *sr = data;

	if (sr->task)
		kthread_stop(sr->task);
}

/* After the API's prefix: lrb_consume(), ring_buffer_consume() */
static const char * const second_api_names[] = {
	[SECOND_CONSUME] = "consume()",
	[SECOND_PEEK] = "peek()",
	[SECOND_READ_PAGE] = "read_page()",
	[SECOND_ITERATE] = "iter_peek()",
	[SECOND_EMPTY] = "empty_cpu()",
};

/*
 * No two readers run at the same time: a reader in the middle of its swap
 * holds the reader lock, and a second reader of the same CPU buffer, on
 * another CPU, waits for it. Neither sees a half-swapped ring.
 */
static void sc_two_readers(struct kunit *test, enum second_reader_api api)
{
	struct lrb_script *sc;
	struct second_reader *sr;
	void *ev;
	int other;
	static const u32 seqs[] = { 1 }, lens[] = { S };
	bool consumed = api == SECOND_CONSUME || api == SECOND_READ_PAGE;
	bool swapped = consumed || api == SECOND_PEEK;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a second reader on another CPU, %u online",
			   num_online_cpus());
	if (!SPIN_CONTENTION_SEEN)
		kunit_skip(test, "%s", SPIN_CONTENTION_UNSEEN);
	sc = sc_start(test, 0, RST ", section \"" GENERIC "\", lines 97-102, and section \""
		      LOCKLESS "\", lines 483-486", 1);
	sr = kunit_kzalloc(test, sizeof(*sr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sr);
	sr->sc = sc;
	sr->api = api;
	init_completion(&sr->ready);
	init_completion(&sr->done);
	sc->data = sr;

	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, BIG, 0));
	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, S, 1));
	other = cpumask_any_but(cpu_online_mask, sc->cpu);
	KUNIT_ASSERT_LT(test, other, nr_cpu_ids);
	sr->task = kthread_run_on_cpu(second_reader_fn, sr, other,
				      "lrb_design/%u");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sr->task);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, second_reader_stop, sr));
	/* Sleeping: the second reader may wait for a grace period meanwhile */
	KUNIT_ASSERT_TRUE(test,
			  wait_for_completion_timeout(&sr->ready,
						      nsecs_to_jiffies(LRB_SCRIPT_WAIT_NS)));

	lrb_script_step(sc, 0, LRB_HOOK_READER_AFTER_SWAP, 1, "rst 525-540",
			"the first reader swapped and holds the reader lock: the ring is half-swapped; the second reader comes in",
			"p0 -H-> p2 --> p3 --> p4 -->", "staleprev=p2:p1 rule=p1 head=p2")->pause =
		second_reader_pause;
	lrb_script_step(sc, 0, LRB_HOOK_READER_DONE, 1, "rst 542-556",
			"the first reader finishes its swap; only then can the second one take the lock",
			"p0 -H-> p2 --> p3 --> p4 -->", "head=p2 reader=p0");
	lrb_script_kernel_differs(sc, NULL, "head=p2 reader=p1", K_DONE);
	ev = lrb_script_consume(sc, NULL, NULL);
	KUNIT_EXPECT_TRUE_MSG(test,
			      wait_for_completion_timeout(&sr->done,
							  nsecs_to_jiffies(LRB_SCRIPT_WAIT_NS)),
			      "the second reader did not finish");
	if (swapped)
		lrb_script_snap(sc, "rst text 97-99",
				"both readers done, one after the other: the second one swapped p2 in",
				"p0 --> p1 -H-> p3 --> p4 -->", consumed ?
				"reader=p2 head=p3 read=2" : "reader=p2 head=p3 read=1");
	else
		lrb_script_snap(sc, "rst text 97-99",
				"both readers done, one after the other: the second one only looked",
				"p0 -H-> p2 --> p3 --> p4 -->", "reader=p1 head=p2 read=1");
	lrb_script_report(sc);

	lrb_kunit_line(test,
		       "second reader (%s_%s on CPU %d): %s while the first held the reader lock, %s",
		       sc->impl->api, second_api_names[api], other,
		       sr->contended ? "spun on the lock" : "DID NOT wait",
		       sr->foreign_in_pause ? "and got in" : "no hook of it ran meanwhile");
	KUNIT_EXPECT_FALSE_MSG(test, sr->timed_out,
			       "the second reader never waited for the lock");
	KUNIT_EXPECT_TRUE_MSG(test, sr->contended,
			      "the second reader was not waiting for the reader lock");
	KUNIT_EXPECT_EQ_MSG(test, sr->foreign_in_pause, 0,
			    "the second reader ran inside the first one's swap");
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_TRUE(test, lrb_kunit_payload_ok(sc_data(sc, ev), BIG, 0));
	if (api == SECOND_EMPTY) {
		KUNIT_EXPECT_FALSE(test, sr->empty);
	} else {
		KUNIT_EXPECT_TRUE_MSG(test, sr->got_event, "the second reader got no event");
		KUNIT_EXPECT_EQ(test, sr->seq, 1U);
		KUNIT_EXPECT_EQ(test, sr->len, sc->impl->payload_length(S));
	}
	sc_read(sc, seqs, lens, consumed ? 0 : 1, -1, 0);
}

static void two_readers_consume(struct kunit *test)
{
	sc_two_readers(test, SECOND_CONSUME);
}

static void two_readers_peek(struct kunit *test)
{
	sc_two_readers(test, SECOND_PEEK);
}

static void two_readers_read_page(struct kunit *test)
{
	sc_two_readers(test, SECOND_READ_PAGE);
}

static void two_readers_iterate(struct kunit *test)
{
	sc_two_readers(test, SECOND_ITERATE);
}

static void two_readers_empty(struct kunit *test)
{
	sc_two_readers(test, SECOND_EMPTY);
}

/* ---- nested writes ------------------------------------------------------ */

/* A nested writer moved the tail; the outer cmpxchg fails */
static void nested_writer_moved_tail(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, 0, RST ", section \"" NESTED
				       "\", lines 703-743", 4);
	/* The first event leaves p1 less room than the outer writer's 2000 */
	static const u32 seqs[] = { 0, 2, 1 }, lens[] = { CAP - 1000, S, 2000 };
	struct lrb_script_step *st;

	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, CAP - 1000, 0));
	lrb_script_step(sc, 0, LRB_HOOK_MOVE_TAIL, 1, "rst text 707-712",
			"temp page = tail page: the reserve ran off its end",
			"p4 -H-> p1 --> p2 --> p3 -->", "tail=p1");
	st = lrb_script_step(sc, 0, LRB_HOOK_TAIL_BEFORE, 1, "rst 719-728",
			     "about to cmpxchg the tail from temp page to its next; a nested write comes in",
			     "p4 -H-> p1 --> p2 --> p3 -->", "tail=p1 p2.write=0");
	lrb_script_nest(st, S, 2);
	lrb_script_step(sc, 0, LRB_HOOK_TAIL_AFTER, 1, "rst 732-739",
			"the nested writer moved the tail: the outer cmpxchg failed",
			"p4 -H-> p1 --> p2 --> p3 -->", "tail=p2 p2.write=12");
	lrb_script_kernel_differs(sc, NULL, "tail=p2 p2.write=16", K_SMALL);
	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, 2000, 1));
	lrb_script_snap(sc, "rst text 741-743",
			"the outer writer tried again on the new tail page",
			"p4 -H-> p1 --> p2 --> p3 -->",
			"tail=p2 commit=p2 p2.write=2020 p1.write=end");
	lrb_script_kernel_differs(sc, NULL, "tail=p2 commit=p2 p2.write=2024 p1.write=end",
				  K_SMALL);
	lrb_script_report(sc);
	sc_read(sc, seqs, lens, 3, -1, 0);
}

/* The nested writer sees UPDATE and leaves it to the outer writer */
static void nested_head_push(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, LRB_FL_OVERWRITE, RST ", section \""
				       NESTED "\", lines 745-803", 3);
	static const u32 seqs[] = { 2, 3, 5, 4 }, lens[] = { BIG, BIG, BIG, BIG };
	struct lrb_script_step *st;

	sc_fill(sc);
	lrb_script_step(sc, 0, LRB_HOOK_HEAD_UPDATE_BEFORE, 1, "rst 747-753",
			"the tail page meets the head page",
			"p3 --> p4 -H-> p1 --> p2 -->", "tail=p4 head=p1");
	st = lrb_script_step(sc, 0, LRB_HOOK_HEAD_UPDATE_AFTER, 1, "rst 757-763",
			     "the writer converts the head page pointer to UPDATE; a nested writer comes in",
			     "p3 --> p4 -U-> p1 --> p2 -->", "tail=p4");
	lrb_script_nest(st, BIG, 5);
	lrb_script_step(sc, 1, LRB_HOOK_HEAD_UPDATE_AFTER, 1, "rst text 765-769",
			"the nested writer finds UPDATE, not HEADER: it knows it is nested",
			"p3 --> p4 -U-> p1 --> p2 -->", "tail=p4");
	lrb_script_step(sc, 1, LRB_HOOK_NEW_HEAD_AFTER, 1, "rst 773-779",
			"the nested writer sets the new head page pointer",
			"p3 --> p4 -U-> p1 -H-> p2 -->", "tail=p4 head=p2");
	lrb_script_step(sc, 1, LRB_HOOK_TAIL_AFTER, 1, "rst 785-791",
			"it moves the tail but does not reset UPDATE",
			"p3 --> p4 -U-> p1 -H-> p2 -->", "tail=p1 head=p2");
	lrb_script_step(sc, 0, LRB_HOOK_HEAD_NORMAL_BEFORE, 1, "rst 785-791",
			"back in the outer writer, which found the new head set already",
			"p3 --> p4 -U-> p1 -H-> p2 -->", "tail=p1 head=p2");
	lrb_script_step(sc, 0, LRB_HOOK_MOVE_TAIL, 2, "rst 797-803",
			"the outermost writer converted UPDATE to NORMAL; the tail had moved, it retries",
			"p3 --> p4 --> p1 -H-> p2 -->", "tail=p1 head=p2");
	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, BIG, 4));
	lrb_script_snap(sc, "rst text 741-743",
			"the outer writer pushed the next head for its own event",
			"p3 --> p4 --> p1 --> p2 -H->", "tail=p2 head=p3 overrun=2 pages_lost=2");
	lrb_script_report(sc);
	sc_read(sc, seqs, lens, 4, 0, 2);
}

/* Three nested writers; the first one's stale HEADER */
static void three_nested_writers_stale_header(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, LRB_FL_OVERWRITE, RST ", section \""
				       NESTED "\", lines 806-983", 3);
	static const u32 seqs[] = { 2, 3, 6, 7, 5, 4 },
			 lens[] = { BIG, BIG, BIG, S, S, S };
	struct lrb_script_step *st;

	sc_fill(sc);
	lrb_script_step(sc, 0, LRB_HOOK_HEAD_UPDATE_BEFORE, 1, "rst 810-818",
			"(first writer) the tail page meets the head page",
			"p3 --> p4 -H-> p1 --> p2 -->", "tail=p4 head=p1");
	st = lrb_script_step(sc, 0, LRB_HOOK_HEAD_UPDATE_AFTER, 1, "rst 822-828",
			     "(first writer) converts the head page pointer to UPDATE",
			     "p3 --> p4 -U-> p1 --> p2 -->", "tail=p4");
	lrb_script_nest(st, S, 5);
	lrb_script_step(sc, 1, LRB_HOOK_NEW_HEAD_AFTER, 1, "rst 833-841",
			"(second writer) sees the update and sets up the new head page",
			"p3 --> p4 -U-> p1 -H-> p2 -->", "tail=p4 head=p2");
	st = lrb_script_step(sc, 1, LRB_HOOK_TAIL_AFTER, 1, "rst 846-852",
			     "(second writer) moves the tail forward, leaves UPDATE; another writer preempts",
			     "p3 --> p4 -U-> p1 -H-> p2 -->", "tail=p1 head=p2");
	lrb_script_nest(st, BIG, 6);
	lrb_script_nest(st, S, 7);
	lrb_script_step(sc, 2, LRB_HOOK_HEAD_UPDATE_AFTER, 1, "rst 857-865",
			"(third writer) sees the head after the tail, HEAD to UPDATE",
			"p3 --> p4 -U-> p1 -U-> p2 -->", "tail=p1 nrU=2");
	lrb_script_step(sc, 2, LRB_HOOK_NEW_HEAD_AFTER, 1, "rst 870-878",
			"(third writer) moves the head page forward",
			"p3 --> p4 -U-> p1 -U-> p2 -H->", "tail=p1 head=p3");
	lrb_script_step(sc, 2, LRB_HOOK_TAIL_BEFORE, 1, "rst 884-892",
			"(third writer) set its UPDATE back to NORMAL",
			"p3 --> p4 -U-> p1 --> p2 -H->", "tail=p1 head=p3");
	lrb_script_step(sc, 2, LRB_HOOK_TAIL_AFTER, 1, "rst 898-906",
			"(third writer) moves the tail and returns to the second writer",
			"p3 --> p4 -U-> p1 --> p2 -H->", "tail=p2");
	lrb_script_step(sc, 1, LRB_HOOK_RESERVED, 2, "rst text 909-911",
			"(second writer) the tail had moved: it tries again and adds its data to the new tail page",
			"p3 --> p4 -U-> p1 --> p2 -H->", "tail=p2 p2.write=24");
	lrb_script_kernel_differs(sc, NULL, "tail=p2 p2.write=32", K_SMALL);
	lrb_script_step(sc, 0, LRB_HOOK_NEW_HEAD_BEFORE, 1, "rst 914-922",
			"(first writer) back, not knowing the tail moved",
			"p3 --> p4 -U-> p1 --> p2 -H->", "tail=p2 head=p3");
	lrb_script_step(sc, 0, LRB_HOOK_NEW_HEAD_AFTER, 1, "rst 929-937",
			"(first writer) sets what it thinks is the new head: two HEADERs",
			"p3 --> p4 -U-> p1 -H-> p2 -H->", "tail=p2 nrH=2");
	lrb_script_step(sc, 0, LRB_HOOK_STALE_HEAD, 1, "rst 945-953",
			"(first writer) the tail is neither at A (p4) nor at B (p1): reset it",
			"p3 --> p4 -U-> p1 -H-> p2 -H->", "tail=p2");
	lrb_script_step(sc, 0, LRB_HOOK_HEAD_NORMAL_BEFORE, 1, "rst 960-968",
			"(first writer) only its UPDATE is left to clear",
			"p3 --> p4 -U-> p1 --> p2 -H->", "tail=p2 head=p3 nrH=1");
	KUNIT_ASSERT_EQ(test, 0, lrb_script_write(sc, S, 4));
	lrb_script_snap(sc, "rst 975-983",
			"(first writer) done: one HEADER, no UPDATE, its event on the new tail page",
			"p3 --> p4 --> p1 --> p2 -H->",
			"tail=p2 commit=p2 head=p3 overrun=2 pages_lost=2 p2.write=36");
	lrb_script_kernel_differs(sc, NULL,
				  "tail=p2 commit=p2 head=p3 overrun=2 pages_lost=2 p2.write=48",
				  K_SMALL);
	lrb_script_report(sc);
	sc_read(sc, seqs, lens, 6, 0, 2);
}

/*
 * kernel/trace/ring_buffer.c's T/N/R drawing (the comment on why the head
 * page's prev pointer cannot be trusted): a reader swapped, and before it
 * fixed the new head's prev a writer moved onto the page the reader put in
 * the ring, and beyond.
 */
static void head_prev_not_trusted(struct kunit *test)
{
	struct lrb_script *sc = sc_start(test, LRB_FL_OVERWRITE,
				       "kernel/trace/ring_buffer.c, lines 1223-1250; " RST
				       ", section \"" LOCKLESS "\", lines 571-576", 4);
	static const u32 seqs[] = { 2, 3, 4, 5 }, lens[] = { BIG, BIG, BIG, BIG };
	void *ev;
	unsigned long lost;
	struct lrb_script_step *st;

	sc_fill(sc);
	st = lrb_script_step(sc, 0, LRB_HOOK_READER_AFTER_SWAP, 1, "rst text 571-576",
			     "the reader swapped p0 in; N (p2) still has the old page R (p1) as prev; a writer preempts",
			     "p4 --> p0 -H-> p2 --> p3 -->", "staleprev=p2:p1 tail=p4 rule=p1");
	lrb_script_nest(st, BIG, 4);
	lrb_script_nest(st, BIG, 5);
	lrb_script_step(sc, 1, LRB_HOOK_HEAD_UPDATE_BEFORE, 1, "ring_buffer.c 1225-1232",
			"the writer is on T (p0, the page the reader added) and about to move again: T -X-> N",
			"p4 --> p0 -H-> p2 --> p3 -->", "tail=p0 head=p2 staleprev=p2:p1");
	lrb_script_step(sc, 1, LRB_HOOK_TAIL_AFTER, 2, "ring_buffer.c 1241-1250",
			"it found the head through T's next, never N's prev, and moved past it",
			"p4 --> p0 --> p2 -H-> p3 -->", "tail=p2 head=p3 staleprev=p2:p1");
	lrb_script_step(sc, 0, LRB_HOOK_READER_DONE, 1, "ring_buffer.c 1248-1250",
			"the reader fixes N's prev: only temporarily wrong",
			"p4 --> p0 --> p2 -H-> p3 -->", "tail=p2 head=p3");
	ev = lrb_script_consume(sc, NULL, &lost);
	lrb_script_report(sc);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_TRUE(test, lrb_kunit_payload_ok(sc_data(sc, ev), BIG, 0));
	KUNIT_EXPECT_EQ(test, lost, 0UL);
	sc_read(sc, seqs, lens, 4, 0, 1);
}

static struct kunit_case lrb_design_cases[] = {
	KUNIT_CASE(reader_swap_empty_reader_page),
	KUNIT_CASE(swap_commit_and_tail_page),
	KUNIT_CASE(reserve_nested_commit_pending),
	KUNIT_CASE(tail_ahead_of_commit),
	KUNIT_CASE(tail_catches_commit_overwrite),
	KUNIT_CASE(tail_catches_commit_prodcons),
	KUNIT_CASE(commit_on_reader_page_head_stays),
	KUNIT_CASE(reader_meets_last_full_commit),
	KUNIT_CASE(overwrite_tail_pushes_head),
	KUNIT_CASE(producer_consumer_write_fails),
	KUNIT_CASE(header_flag_turns_update),
	KUNIT_CASE(two_readers_consume),
	KUNIT_CASE(two_readers_peek),
	KUNIT_CASE(two_readers_read_page),
	KUNIT_CASE(two_readers_iterate),
	KUNIT_CASE(two_readers_empty),
	KUNIT_CASE(reader_swap_retries_when_head_moved),
	KUNIT_CASE(reader_page_recognised_by_prev),
	KUNIT_CASE(writer_pushes_head),
	KUNIT_CASE(tail_wraps_commit_on_reader_page),
	KUNIT_CASE(commit_leaves_reader_page_for_good),
	KUNIT_CASE(nested_writer_moved_tail),
	KUNIT_CASE(nested_head_push),
	KUNIT_CASE(three_nested_writers_stale_header),
	KUNIT_CASE(head_prev_not_trusted),
	{}
};

static struct kunit_suite lrb_design_suite = {
	.name = "lrb_design",
	.init = lrb_kunit_impl_init_lrb,
	.test_cases = lrb_design_cases,
};

#ifdef CONFIG_RING_BUFFER
/* The same scenarios on kernel/trace/ring_buffer.c */
/*
 * The same cases, in an array of their own: KUnit keeps each case's status
 * and log in its struct kunit_case.
 */
static struct kunit_case lrb_design_kernel_cases[] = {
	KUNIT_CASE(reader_swap_empty_reader_page),
	KUNIT_CASE(swap_commit_and_tail_page),
	KUNIT_CASE(reserve_nested_commit_pending),
	KUNIT_CASE(tail_ahead_of_commit),
	KUNIT_CASE(tail_catches_commit_overwrite),
	KUNIT_CASE(tail_catches_commit_prodcons),
	KUNIT_CASE(commit_on_reader_page_head_stays),
	KUNIT_CASE(reader_meets_last_full_commit),
	KUNIT_CASE(overwrite_tail_pushes_head),
	KUNIT_CASE(producer_consumer_write_fails),
	KUNIT_CASE(header_flag_turns_update),
	KUNIT_CASE(two_readers_consume),
	KUNIT_CASE(two_readers_peek),
	KUNIT_CASE(two_readers_read_page),
	KUNIT_CASE(two_readers_iterate),
	KUNIT_CASE(two_readers_empty),
	KUNIT_CASE(reader_swap_retries_when_head_moved),
	KUNIT_CASE(reader_page_recognised_by_prev),
	KUNIT_CASE(writer_pushes_head),
	KUNIT_CASE(tail_wraps_commit_on_reader_page),
	KUNIT_CASE(commit_leaves_reader_page_for_good),
	KUNIT_CASE(nested_writer_moved_tail),
	KUNIT_CASE(nested_head_push),
	KUNIT_CASE(three_nested_writers_stale_header),
	KUNIT_CASE(head_prev_not_trusted),
	{}
};

static_assert(ARRAY_SIZE(lrb_design_kernel_cases) == ARRAY_SIZE(lrb_design_cases));

/* The two lists must stay the same cases: a case missing here fails */
static int lrb_design_kernel_suite_init(struct kunit_suite *suite)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lrb_design_cases); i++) {
		if (lrb_design_kernel_cases[i].run_case ==
		    lrb_design_cases[i].run_case)
			continue;
		pr_err("lrb_design_kernel: case %u is not lrb_design's %s\n", i,
		       lrb_design_cases[i].name ?: "end");
		return -EINVAL;
	}
	return 0;
}

static struct kunit_suite lrb_design_kernel_suite = {
	.name = "lrb_design_kernel",
	.init = lrb_kunit_impl_init_kernel,
	.suite_init = lrb_design_kernel_suite_init,
	.test_cases = lrb_design_kernel_cases,
};

lrb_kunit_impl_suites(&lrb_design_suite, &lrb_design_kernel_suite);
#else
kunit_test_suite(lrb_design_suite);
#endif
