// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_design: the scenarios of ring-buffer-design.txt, replayed step by
 * step on the real data structure.
 *
 * Each case is a scenario of the document. A writer (or reader) of the test
 * thread runs, and at the hook points of the algorithm a script takes a
 * snapshot of the ring and, where the document has an interrupt arrive,
 * writes as a nested writer right there, on the same CPU, exactly like an
 * interrupt would. After the operation the snapshots are drawn in the
 * document's notation and checked against the state the document draws;
 * then every event is read back (payloads, order, time stamps, losses) and
 * the buffer's accounting checked.
 *
 * Rings have four data pages p1..p4 and start with the reader page p0, as
 * in the document's drawings. BIG events fill a page exactly, so that one
 * write is one page; S events are small.
 */

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "lrb_kunit.h"

#define CAP		LRB_KUNIT_CAPACITY
#define BIG		(CAP - 8)
#define S		8
#define RING_SIZE	(4 * CAP)
#define MAX_STEPS	24
#define MAX_NEST	4
#define MAX_DEPTH	4

/* A write made by a nested writer at a step */
struct nest {
	unsigned int	len;
	u32		seq;
};

/*
 * A step: at the nth time writer (or reader) number depth reaches point,
 * snapshot and check the ring against ring/props, then make the nested
 * writes. depth 0 is the test thread's own writer or reader; nested
 * writers are 1, 2, ... Occurrences are counted from the last sc_add(),
 * that is from the operation the steps are for. Steps with point
 * LRB_HOOK_NR are taken by the test thread itself with sc_snap().
 */
struct step {
	int			depth;
	enum lrb_hook_point	point;
	int			nth;
	const char		*title;
	const char		*ring;
	const char		*props;
	struct nest		nest[MAX_NEST];
};

struct scenario {
	struct kunit		*test;
	struct lrb_tb		*tb;
	int			cpu;
	struct step		steps[MAX_STEPS];
	unsigned int		nr_steps;
	struct lrb_snapshot	*snaps;
	bool			fired[MAX_STEPS];
	int			nest_ret[MAX_STEPS][MAX_NEST];
	int			depth;
	unsigned int		count[MAX_DEPTH][LRB_HOOK_NR];
	unsigned int		hook_calls;
	unsigned int		stray;
};

/* Runs at the hook points, in the writer's or reader's context */
static void sc_hook(struct lrb_buffer *b, int cpu, enum lrb_hook_point point,
		    void *data)
{
	struct scenario *sc = data;
	unsigned int i, n, d;

	if (cpu != sc->cpu)
		return;
	sc->hook_calls++;
	d = sc->depth;
	if (d >= MAX_DEPTH) {
		sc->stray++;
		return;
	}
	n = ++sc->count[d][point];
	for (i = 0; i < sc->nr_steps; i++) {
		struct step *st = &sc->steps[i];
		int k;

		if (sc->fired[i] || st->depth != d || st->point != point ||
		    st->nth != n)
			continue;
		sc->fired[i] = true;
		lrb_snapshot(b, cpu, &sc->snaps[i]);
		sc->depth++;
		for (k = 0; k < MAX_NEST && st->nest[k].len; k++)
			sc->nest_ret[i][k] = lrb_tb_write_seq(sc->tb,
							      st->nest[k].len,
							      st->nest[k].seq);
		sc->depth--;
		break;
	}
}

static void sc_unhook(void *data)
{
	struct scenario *sc = data;

	lrb_set_test_hook(sc->tb->b, NULL, NULL);
}

/*
 * A scenario on the current CPU, pinned until the test ends. The design
 * document's line numbers go in the log with the name.
 */
static struct scenario *sc_start(struct kunit *test, unsigned long flags,
				 const char *lines)
{
	struct scenario *sc;

	sc = kunit_kzalloc(test, sizeof(*sc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sc);
	sc->snaps = kunit_kcalloc(test, MAX_STEPS, sizeof(*sc->snaps),
				  GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sc->snaps);
	sc->test = test;
	sc->tb = lrb_tb_alloc(test, RING_SIZE, flags);
	sc->cpu = lrb_kunit_pin_current(test);
	/* Cleanup runs backwards: unhook first, then the checks */
	lrb_tb_check_at_end(test, sc->tb);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, sc_unhook, sc));
	KUNIT_ASSERT_EQ(test, 0, lrb_set_test_hook(sc->tb->b, sc_hook, sc));
	lrb_kunit_line(test, "lrb-scenario %s (ring-buffer-design.txt lines %s, %s mode, CPU %d)",
		       test->name, lines,
		       flags & LRB_FL_OVERWRITE ? "overwrite" :
		       "producer/consumer", sc->cpu);
	return sc;
}

static struct step *sc_add(struct scenario *sc, int depth,
			   enum lrb_hook_point point, int nth,
			   const char *title, const char *ring,
			   const char *props)
{
	struct step *st;

	KUNIT_ASSERT_LT(sc->test, sc->nr_steps, MAX_STEPS);
	/* Occurrences count from the operation the steps are armed for */
	if (point != LRB_HOOK_NR)
		memset(sc->count, 0, sizeof(sc->count));
	st = &sc->steps[sc->nr_steps++];
	st->depth = depth;
	st->point = point;
	st->nth = nth;
	st->title = title;
	st->ring = ring;
	st->props = props;
	return st;
}

/* A step whose nested writer writes (len, seq) pairs */
static void sc_nest(struct step *st, unsigned int len, u32 seq)
{
	int k;

	for (k = 0; k < MAX_NEST && st->nest[k].len; k++)
		;
	if (k < MAX_NEST) {
		st->nest[k].len = len;
		st->nest[k].seq = seq;
	}
}

/* A snapshot the test thread takes itself, between operations */
static void sc_snap(struct scenario *sc, const char *title, const char *ring,
		    const char *props)
{
	unsigned int i = sc->nr_steps;

	sc_add(sc, -1, LRB_HOOK_NR, 0, title, ring, props);
	sc->fired[i] = !lrb_snapshot(sc->tb->b, sc->cpu, &sc->snaps[i]);
}

static int sc_write(struct scenario *sc, unsigned int len, u32 seq)
{
	return lrb_tb_write_seq(sc->tb, len, seq);
}

/*
 * Draw every step and check it against what the document draws. Called by
 * the test thread once no writer holds a reservation.
 */
static void sc_report(struct scenario *sc)
{
	struct kunit *test = sc->test;
	unsigned int i;
	int k;

	for (i = 0; i < sc->nr_steps; i++) {
		const struct step *st = &sc->steps[i];
		char title[200];
		bool ok;

		if (st->point == LRB_HOOK_NR)
			snprintf(title, sizeof(title), "lrb-step %u: %s", i + 1,
				 st->title);
		else
			snprintf(title, sizeof(title),
				 "lrb-step %u: %s  [writer %d at %s #%d]",
				 i + 1, st->title, st->depth,
				 lrb_hook_name(st->point), st->nth);
		if (!sc->fired[i]) {
			KUNIT_FAIL(test, "step %u never happened: %s", i + 1,
				   st->title);
			continue;
		}
		lrb_kunit_render(test, &sc->snaps[i], title);
		ok = lrb_kunit_expect(test, &sc->snaps[i], st->ring, st->props);
		lrb_kunit_line(test, "expect: %s  %s  -> %s",
			       st->ring ? st->ring : "",
			       st->props ? st->props : "",
			       ok ? "as drawn" : "MISMATCH");
		for (k = 0; k < MAX_NEST && st->nest[k].len; k++)
			KUNIT_EXPECT_EQ_MSG(test, sc->nest_ret[i][k], 0,
					    "nested write %d at step %u", k,
					    i + 1);
	}
	KUNIT_EXPECT_EQ(test, sc->stray, 0U);
}

/*
 * Read everything back: the events must come in the order given, with
 * their payloads, lengths and time stamps that never go backwards, and the
 * loss reported before event index lost_at (-1: none).
 */
static void sc_read(struct scenario *sc, const u32 *seqs, const u32 *lens,
		    unsigned int n, int lost_at, unsigned long lost_nr)
{
	struct kunit *test = sc->test;
	unsigned long lost;
	struct lrb_event *ev;
	unsigned int i;
	u64 ts, last = 0;

	for (i = 0; i < n; i++) {
		ev = lrb_consume(sc->tb->b, sc->cpu, &ts, &lost);
		KUNIT_ASSERT_NOT_NULL_MSG(test, ev, "event %u (seq %u)", i,
					  seqs[i]);
		KUNIT_EXPECT_EQ_MSG(test, lrb_event_length(ev), ALIGN(lens[i], 4),
				    "event %u", i);
		KUNIT_EXPECT_TRUE_MSG(test,
				      lrb_kunit_payload_ok(lrb_event_data(ev),
							   lens[i], seqs[i]),
				      "event %u should be seq %u, is seq %u", i,
				      seqs[i],
				      lrb_kunit_payload_seq(lrb_event_data(ev)));
		KUNIT_EXPECT_EQ_MSG(test, lost, (int)i == lost_at ? lost_nr : 0,
				    "lost before event %u", i);
		KUNIT_EXPECT_GE_MSG(test, ts, last, "time of event %u", i);
		last = ts;
	}
	KUNIT_EXPECT_NULL(test, lrb_consume(sc->tb->b, sc->cpu, NULL, NULL));
	lrb_kunit_line(test, "read back %u events in order, payloads intact%s",
		       n, lost_at >= 0 ? ", loss reported" : "");
}

/* Fill the four ring pages with one BIG event each: seqs 0..3 */
static void sc_fill(struct scenario *sc)
{
	u32 seq;

	for (seq = 0; seq < 4; seq++)
		KUNIT_ASSERT_EQ(sc->test, 0, sc_write(sc, BIG, seq));
}

#define RING_START	"p1 --> p2 --> p3 --> p4 -H->"
#define RING_FULL	"p1 --> p2 --> p3 --> p4 -H->"

/* ---- the scenarios ------------------------------------------------------ */

/* Lines 97-163: the reader swaps its empty page with the head page */
static void reader_swap_empty_reader_page(struct kunit *test)
{
	struct scenario *sc = sc_start(test, 0, "97-163");
	static const u32 seqs[] = { 0, 1 }, lens[] = { BIG, S };
	unsigned long lost;
	struct lrb_event *ev;

	KUNIT_ASSERT_EQ(test, 0, sc_write(sc, BIG, 0));
	KUNIT_ASSERT_EQ(test, 0, sc_write(sc, S, 1));
	sc_snap(sc, "the reader page is outside the ring; it points at the head",
		RING_START, "head=p1 tail=p2 commit=p2 reader=p0 rnext=p1 rflag=N rprev=p4");
	sc_add(sc, 0, LRB_HOOK_READER_BEFORE_SWAP, 1,
	       "the reader page points at the page after the head, with HEADER",
	       RING_START, "reader=p0 rnext=p2 rflag=H rprev=p4 head=p1");
	sc_add(sc, 0, LRB_HOOK_READER_AFTER_SWAP, 1,
	       "cmpxchg: the page before the head points at the reader page",
	       "p0 -H-> p2 --> p3 --> p4 -->",
	       "staleprev=p2:p1 rule=p1 head=p2");
	sc_add(sc, 0, LRB_HOOK_READER_DONE, 1,
	       "the new head's prev points back at the old reader page",
	       "p0 -H-> p2 --> p3 --> p4 -->", "head=p2");

	ev = lrb_consume(sc->tb->b, sc->cpu, NULL, &lost);
	KUNIT_EXPECT_NOT_NULL(test, ev);
	sc_snap(sc, "the old head is the new reader page, outside the ring",
		"p0 -H-> p2 --> p3 --> p4 -->",
		"reader=p1 rnext=p2 rflag=N rprev=p4 head=p2 tail=p2 commit=p2 rule=p1");
	sc_report(sc);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_TRUE(test, lrb_kunit_payload_ok(lrb_event_data(ev), BIG, 0));
	sc_read(sc, seqs + 1, lens + 1, 1, -1, 0);
}

/* Lines 166-189: the page swapped is the commit and the tail page */
static void swap_commit_and_tail_page(struct kunit *test)
{
	struct scenario *sc = sc_start(test, 0, "166-189");
	static const u32 seqs[] = { 1, 2 }, lens[] = { S, BIG };

	KUNIT_ASSERT_EQ(test, 0, sc_write(sc, S, 0));
	KUNIT_ASSERT_EQ(test, 0, sc_write(sc, S, 1));
	KUNIT_ASSERT_NOT_NULL(test, lrb_consume(sc->tb->b, sc->cpu, NULL, NULL));
	sc_snap(sc, "less than a page was written: the reader took the commit and tail page",
		"p0 -H-> p2 --> p3 --> p4 -->",
		"reader=p1 commit=p1 tail=p1 head=p2 rnext=p2 rflag=N p1.read=12 p1.commit=24");
	sc_add(sc, 0, LRB_HOOK_MOVE_TAIL, 1,
	       "the writer reaches the end of the reader page",
	       "p0 -H-> p2 --> p3 --> p4 -->", "reader=p1 tail=p1 commit=p1 head=p2");
	sc_add(sc, 0, LRB_HOOK_TAIL_AFTER, 1,
	       "it leaves the reader page through its next pointer, into the ring",
	       "p0 -H-> p2 --> p3 --> p4 -->", "tail=p2 commit=p1 head=p2");
	KUNIT_EXPECT_EQ(test, 0, sc_write(sc, BIG, 2));
	sc_snap(sc, "the commit followed; the head page did not move",
		"p0 -H-> p2 --> p3 --> p4 -->", "tail=p2 commit=p2 head=p2 reader=p1");
	sc_report(sc);
	sc_read(sc, seqs, lens, 2, -1, 0);
}

/* Lines 207-278: reserve, nested reserve, pending commit, full commit */
static void reserve_nested_commit_pending(struct kunit *test)
{
	struct scenario *sc = sc_start(test, 0, "207-278");
	static const u32 seqs[] = { 1, 2 }, lens[] = { S, S };
	struct lrb_event *outer, *inner, *seen[2];

	KUNIT_ASSERT_EQ(test, 0, sc_write(sc, S, 0));
	sc_snap(sc, "written", NULL, "p1.write=12 p1.commit=12 committing=0");

	outer = lrb_lock_reserve(sc->tb->b, S);
	KUNIT_ASSERT_NOT_NULL(test, outer);
	lrb_kunit_fill(lrb_event_data(outer), S, 1);
	sc_snap(sc, "write reserve: given back to the writer, the tail past it",
		NULL, "p1.write=24 p1.commit=12 committing=1");
	inner = lrb_lock_reserve(sc->tb->b, S);
	if (inner) {
		lrb_kunit_fill(lrb_event_data(inner), S, 2);
		sc_snap(sc, "a second writer reserves after the first",
			NULL, "p1.write=36 p1.commit=12 committing=2");
		lrb_unlock_commit(sc->tb->b, inner);
	}
	/* committed counts what is below the commit index: not yet the inner */
	sc_snap(sc, "the second writer committed: a pending commit",
		NULL, "p1.write=36 p1.commit=12 committing=1 committed=1");
	seen[0] = lrb_consume(sc->tb->b, sc->cpu, NULL, NULL);
	seen[1] = lrb_consume(sc->tb->b, sc->cpu, NULL, NULL);
	sc_snap(sc, "a reader sees the written event only", NULL,
		"p1.read=12 read=1");
	lrb_unlock_commit(sc->tb->b, outer);
	sc_snap(sc, "the first writer commits: last full commit and tail meet",
		NULL, "p1.write=36 p1.commit=36 committing=0 committed=3");
	sc->tb->ok[sc->cpu] += 2;

	KUNIT_ASSERT_NOT_NULL(test, inner);
	KUNIT_EXPECT_NOT_NULL(test, seen[0]);
	KUNIT_EXPECT_NULL(test, seen[1]);
	sc_report(sc);
	sc_read(sc, seqs, lens, 2, -1, 0);
}

/* Lines 284-303: nested writers fill pages, the tail runs ahead */
static void tail_ahead_of_commit(struct kunit *test)
{
	struct scenario *sc = sc_start(test, 0, "284-303");
	static const u32 seqs[] = { 0, 1, 2 }, lens[] = { S, BIG, BIG };
	struct lrb_event *outer;
	int r1, r2;

	outer = lrb_lock_reserve(sc->tb->b, S);
	KUNIT_ASSERT_NOT_NULL(test, outer);
	lrb_kunit_fill(lrb_event_data(outer), S, 0);
	r1 = sc_write(sc, BIG, 1);
	r2 = sc_write(sc, BIG, 2);
	sc_snap(sc, "order of pages: head, commit, tail, several pages apart",
		RING_START, "head=p1 commit=p1 tail=p3 committing=1 p1.commit=0");
	lrb_unlock_commit(sc->tb->b, outer);
	sc->tb->ok[sc->cpu]++;
	sc_snap(sc, "the outermost commit catches up the tail",
		RING_START, "head=p1 commit=p3 tail=p3 committing=0 p3.commit=4080");
	KUNIT_EXPECT_EQ(test, r1, 0);
	KUNIT_EXPECT_EQ(test, r2, 0);
	sc_report(sc);
	sc_read(sc, seqs, lens, 3, -1, 0);
}

/* Lines 305-333: the commit on the reader page; the head stays */
static void commit_on_reader_page_head_stays(struct kunit *test)
{
	struct scenario *sc = sc_start(test, LRB_FL_OVERWRITE, "305-333");
	static const u32 seqs[] = { 1, 2, 3 }, lens[] = { S, BIG, BIG };
	struct lrb_event *outer, *first;
	int r1, r2;

	KUNIT_ASSERT_EQ(test, 0, sc_write(sc, S, 0));
	outer = lrb_lock_reserve(sc->tb->b, S);
	KUNIT_ASSERT_NOT_NULL(test, outer);
	lrb_kunit_fill(lrb_event_data(outer), S, 1);
	first = lrb_consume(sc->tb->b, sc->cpu, NULL, NULL);
	sc_snap(sc, "the reader swapped out the commit page: commit and tail on the reader page",
		"p0 -H-> p2 --> p3 --> p4 -->",
		"reader=p1 commit=p1 tail=p1 head=p2 committing=1");
	r1 = sc_write(sc, BIG, 2);
	r2 = sc_write(sc, BIG, 3);
	sc_snap(sc, "the tail moved back into the ring; the head page does not move",
		"p0 -H-> p2 --> p3 --> p4 -->",
		"reader=p1 commit=p1 tail=p3 head=p2 committing=1");
	lrb_unlock_commit(sc->tb->b, outer);
	sc->tb->ok[sc->cpu]++;
	sc_snap(sc, "the outermost commit leaves the reader page through its next pointer",
		"p0 -H-> p2 --> p3 --> p4 -->", "reader=p1 commit=p3 tail=p3 head=p2");
	KUNIT_EXPECT_NOT_NULL(test, first);
	KUNIT_EXPECT_EQ(test, r1, 0);
	KUNIT_EXPECT_EQ(test, r2, 0);
	sc_report(sc);
	sc_read(sc, seqs, lens, 3, -1, 0);
}

/* Lines 335-338: the reader meets the last full commit */
static void reader_meets_last_full_commit(struct kunit *test)
{
	struct scenario *sc = sc_start(test, 0, "335-338");
	static const u32 seqs[] = { 1, 2 }, lens[] = { S, S };
	struct lrb_event *outer, *got[3];
	bool empty;
	int r;

	KUNIT_ASSERT_EQ(test, 0, sc_write(sc, S, 0));
	outer = lrb_lock_reserve(sc->tb->b, S);
	KUNIT_ASSERT_NOT_NULL(test, outer);
	lrb_kunit_fill(lrb_event_data(outer), S, 1);
	got[0] = lrb_consume(sc->tb->b, sc->cpu, NULL, NULL);
	got[1] = lrb_consume(sc->tb->b, sc->cpu, NULL, NULL);
	empty = lrb_empty_cpu(sc->tb->b, sc->cpu);
	sc_snap(sc, "the reader met the last full commit: empty until the next one",
		"p0 -H-> p2 --> p3 --> p4 -->",
		"reader=p1 commit=p1 p1.read=12 p1.commit=12 head=p2");
	r = sc_write(sc, S, 2);
	got[2] = lrb_consume(sc->tb->b, sc->cpu, NULL, NULL);
	sc_snap(sc, "a nested commit is pending, not full: still empty, and no swap",
		"p0 -H-> p2 --> p3 --> p4 -->",
		"reader=p1 commit=p1 head=p2 p1.write=36 p1.commit=12");
	lrb_unlock_commit(sc->tb->b, outer);
	sc->tb->ok[sc->cpu]++;
	KUNIT_EXPECT_NOT_NULL(test, got[0]);
	KUNIT_EXPECT_NULL(test, got[1]);
	KUNIT_EXPECT_NULL(test, got[2]);
	KUNIT_EXPECT_TRUE(test, empty);
	KUNIT_EXPECT_EQ(test, r, 0);
	sc_report(sc);
	sc_read(sc, seqs, lens, 2, -1, 0);
}

/* Lines 340-382, overwrite mode: the tail pushes the head one page */
static void overwrite_tail_pushes_head(struct kunit *test)
{
	struct scenario *sc = sc_start(test, LRB_FL_OVERWRITE, "340-382");
	static const u32 seqs[] = { 1, 2, 3, 4 }, lens[] = { BIG, BIG, BIG, BIG };

	sc_fill(sc);
	sc_snap(sc, "the ring is full: the tail page is the one before the head",
		RING_FULL, "tail=p4 head=p1 rnext=p1");
	KUNIT_ASSERT_EQ(test, 0, sc_write(sc, BIG, 4));
	sc_snap(sc, "overwrite: the head was pushed one page, the tail took its place",
		"p1 -H-> p2 --> p3 --> p4 -->",
		"tail=p1 commit=p1 head=p2 overrun=1 pages_lost=1");
	sc_snap(sc, "the reader page still points at the old head", NULL,
		"reader=p0 rnext=p1 rflag=N");
	sc_report(sc);
	/* A swap uses the most recent head: the oldest page is lost */
	sc_read(sc, seqs, lens, 4, 0, 1);
}

/* Lines 340-382, producer/consumer mode: the write fails */
static void producer_consumer_write_fails(struct kunit *test)
{
	struct scenario *sc = sc_start(test, 0, "340-382");
	static const u32 seqs[] = { 0, 1, 2, 3 }, lens[] = { BIG, BIG, BIG, BIG };

	sc_fill(sc);
	KUNIT_EXPECT_EQ(test, sc_write(sc, BIG, 4), -ENOSPC);
	KUNIT_EXPECT_EQ(test, sc_write(sc, S, 4), -ENOSPC);
	sc_snap(sc, "producer/consumer: the writes fail, nothing moves",
		RING_FULL, "tail=p4 commit=p4 head=p1 dropped=2 overrun=0");
	sc_report(sc);
	sc_read(sc, seqs, lens, 4, -1, 0);
}

/* Lines 385-447: the HEADER flag, turned to UPDATE when the tail meets it */
static void header_flag_turns_update(struct kunit *test)
{
	struct scenario *sc = sc_start(test, LRB_FL_OVERWRITE, "385-447");
	static const u32 seqs[] = { 1, 2, 3, 4 }, lens[] = { BIG, BIG, BIG, BIG };

	sc_fill(sc);
	sc_add(sc, 0, LRB_HOOK_HEAD_UPDATE_BEFORE, 1,
	       "\"-H->\": the pointer to the head page has the HEADER flag; the tail meets it",
	       RING_FULL, "tail=p4 head=p1 nrH=1 nrU=0");
	sc_add(sc, 0, LRB_HOOK_HEAD_UPDATE_AFTER, 1,
	       "cmpxchg turned it to \"-U->\", the UPDATE state",
	       "p1 --> p2 --> p3 --> p4 -U->", "tail=p4 head=- nrH=0 nrU=1");
	KUNIT_ASSERT_EQ(test, 0, sc_write(sc, BIG, 4));
	sc_report(sc);
	sc_read(sc, seqs, lens, 4, 0, 1);
}

/* Lines 453-535: the reader's cmpxchg fails when a writer moved the head */
static void reader_swap_retries_when_head_moved(struct kunit *test)
{
	struct scenario *sc = sc_start(test, LRB_FL_OVERWRITE, "453-535");
	static const u32 seqs[] = { 1, 2, 3, 4 }, lens[] = { BIG, BIG, BIG, BIG };
	struct lrb_event *ev;
	unsigned long lost;
	struct step *st;

	sc_fill(sc);
	st = sc_add(sc, 0, LRB_HOOK_READER_BEFORE_SWAP, 1,
		    "the reader prepared its page for head p1; a writer interrupts it",
		    RING_FULL, "reader=p0 rnext=p2 rflag=H rprev=p4 head=p1");
	sc_nest(st, BIG, 4);
	sc_add(sc, 0, LRB_HOOK_READER_SWAP_FAILED, 1,
	       "the writer pushed the head: the reader's cmpxchg on p4's next failed",
	       "p1 -H-> p2 --> p3 --> p4 -->", "head=p2 tail=p1 rnext=p2 rprev=p4");
	sc_add(sc, 0, LRB_HOOK_READER_BEFORE_SWAP, 2,
	       "it looks for the head again and prepares for p2",
	       "p1 -H-> p2 --> p3 --> p4 -->", "head=p2 rnext=p3 rflag=H rprev=p1");
	sc_add(sc, 0, LRB_HOOK_READER_DONE, 1,
	       "the second cmpxchg succeeded: p0 replaced p2 in the ring",
	       "p1 --> p0 -H-> p3 --> p4 -->", "head=p3 tail=p1");
	ev = lrb_consume(sc->tb->b, sc->cpu, NULL, &lost);
	sc_report(sc);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_TRUE(test, lrb_kunit_payload_ok(lrb_event_data(ev), BIG, 1));
	KUNIT_EXPECT_EQ(test, lost, 1UL);
	sc_read(sc, seqs + 1, lens + 1, 3, -1, 0);
}

/* Lines 536-556: the reader page is the page its prev page does not know */
static void reader_page_recognised_by_prev(struct kunit *test)
{
	struct scenario *sc = sc_start(test, 0, "536-556");
	static const u32 seqs[] = { 1 }, lens[] = { S };

	KUNIT_ASSERT_EQ(test, 0, sc_write(sc, BIG, 0));
	KUNIT_ASSERT_EQ(test, 0, sc_write(sc, S, 1));
	sc_snap(sc, "before any swap: only p0 is not pointed back at by its prev page",
		RING_START, "rule=p0");
	sc_add(sc, 0, LRB_HOOK_READER_AFTER_SWAP, 1,
	       "in the middle of the swap: p1 left the ring, the rule says so already",
	       "p0 -H-> p2 --> p3 --> p4 -->", "rule=p1 staleprev=p2:p1");
	KUNIT_ASSERT_NOT_NULL(test, lrb_consume(sc->tb->b, sc->cpu, NULL, NULL));
	sc_snap(sc, "after the swap: p1 is the reader page; its next stays in the ring",
		"p0 -H-> p2 --> p3 --> p4 -->", "rule=p1 reader=p1 rnext=p2 rprev=p4");
	sc_report(sc);
	sc_read(sc, seqs, lens, 1, -1, 0);
}

/* Lines 558-617: the writer pushes the head, step by step */
static void writer_pushes_head(struct kunit *test)
{
	struct scenario *sc = sc_start(test, LRB_FL_OVERWRITE, "558-617");
	static const u32 seqs[] = { 1, 2, 3, 4 }, lens[] = { BIG, BIG, BIG, BIG };

	sc_fill(sc);
	sc_add(sc, 0, LRB_HOOK_HEAD_UPDATE_BEFORE, 1,
	       "the tail page meets the head page", RING_FULL, "tail=p4 head=p1");
	sc_add(sc, 0, LRB_HOOK_HEAD_UPDATE_AFTER, 1,
	       "cmpxchg HEADER -> UPDATE: no reader can swap the head now",
	       "p1 --> p2 --> p3 --> p4 -U->", "tail=p4");
	sc_add(sc, 0, LRB_HOOK_NEW_HEAD_AFTER, 1,
	       "the following page is made the new head",
	       "p1 -H-> p2 --> p3 --> p4 -U->", "tail=p4 head=p2");
	sc_add(sc, 0, LRB_HOOK_TAIL_BEFORE, 1,
	       "the old head pointer set back to NORMAL",
	       "p1 -H-> p2 --> p3 --> p4 -->", "tail=p4 head=p2");
	sc_add(sc, 0, LRB_HOOK_TAIL_AFTER, 1,
	       "after the head page has moved, the tail page moves forward",
	       "p1 -H-> p2 --> p3 --> p4 -->", "tail=p1 head=p2");
	KUNIT_ASSERT_EQ(test, 0, sc_write(sc, BIG, 4));
	sc_snap(sc, "the push is accounted", "p1 -H-> p2 --> p3 --> p4 -->",
		"overrun=1 pages_lost=1 commit=p1");
	sc_report(sc);
	sc_read(sc, seqs, lens, 4, 0, 1);
}

/* Lines 619-662: the tail wraps while the commit is on the reader page */
static void tail_wraps_commit_on_reader_page(struct kunit *test)
{
	struct scenario *sc = sc_start(test, LRB_FL_OVERWRITE, "619-662");
	static const u32 seqs[] = { 1, 2, 3, 4, 5 },
			 lens[] = { S, BIG, BIG, BIG, BIG };
	struct lrb_event *outer;
	int r[5], i;

	KUNIT_ASSERT_EQ(test, 0, sc_write(sc, S, 0));
	outer = lrb_lock_reserve(sc->tb->b, S);
	KUNIT_ASSERT_NOT_NULL(test, outer);
	lrb_kunit_fill(lrb_event_data(outer), S, 1);
	lrb_consume(sc->tb->b, sc->cpu, NULL, NULL);
	for (i = 0; i < 4; i++)
		r[i] = sc_write(sc, BIG, 2 + i);
	sc_snap(sc,
		"nested writers went round the ring: the tail before the head, the commit on the reader page",
		"p0 -H-> p2 --> p3 --> p4 -->",
		"reader=p1 commit=p1 tail=p0 head=p2 committing=1");
	r[4] = sc_write(sc, BIG, 6);
	sc_snap(sc, "pushing the head would strand the commit: the write is dropped",
		"p0 -H-> p2 --> p3 --> p4 -->",
		"reader=p1 commit=p1 tail=p0 head=p2 commit_overrun=1 overrun=0");
	lrb_unlock_commit(sc->tb->b, outer);
	sc->tb->ok[sc->cpu]++;
	sc_snap(sc, "the outermost commit goes round to the tail",
		"p0 -H-> p2 --> p3 --> p4 -->", "commit=p0 tail=p0 head=p2");
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, r[i], 0);
	KUNIT_EXPECT_EQ(test, r[4], -ENOSPC);
	sc_report(sc);
	sc_read(sc, seqs, lens, 5, -1, 0);
}

/* Lines 665-709: a nested writer moved the tail; the outer cmpxchg fails */
static void nested_writer_moved_tail(struct kunit *test)
{
	struct scenario *sc = sc_start(test, 0, "665-709");
	static const u32 seqs[] = { 0, 2, 1 }, lens[] = { 3000, S, 2000 };
	struct step *st;

	KUNIT_ASSERT_EQ(test, 0, sc_write(sc, 3000, 0));
	sc_add(sc, 0, LRB_HOOK_MOVE_TAIL, 1,
	       "temp page = tail page: the reserve ran off its end",
	       RING_START, "tail=p1");
	st = sc_add(sc, 0, LRB_HOOK_TAIL_BEFORE, 1,
		    "about to cmpxchg the tail from temp page to its next; a nested write comes in",
		    RING_START, "tail=p1 p2.write=0");
	sc_nest(st, S, 2);
	sc_add(sc, 0, LRB_HOOK_TAIL_AFTER, 1,
	       "the nested writer moved the tail: the outer cmpxchg failed",
	       RING_START, "tail=p2 p2.write=12");
	KUNIT_ASSERT_EQ(test, 0, sc_write(sc, 2000, 1));
	sc_snap(sc, "the outer writer tried again on the new tail page",
		RING_START, "tail=p2 commit=p2 p2.write=2020 p1.write=4080");
	sc_report(sc);
	sc_read(sc, seqs, lens, 3, -1, 0);
}

/* Lines 710-770: the nested writer sees UPDATE and leaves it to the outer */
static void nested_head_push(struct kunit *test)
{
	struct scenario *sc = sc_start(test, LRB_FL_OVERWRITE, "710-770");
	static const u32 seqs[] = { 2, 3, 5, 4 }, lens[] = { BIG, BIG, BIG, BIG };
	struct step *st;

	sc_fill(sc);
	st = sc_add(sc, 0, LRB_HOOK_HEAD_UPDATE_AFTER, 1,
		    "the writer converts the head page pointer to UPDATE; a nested writer comes in",
		    "p1 --> p2 --> p3 --> p4 -U->", "tail=p4");
	sc_nest(st, BIG, 5);
	sc_add(sc, 1, LRB_HOOK_HEAD_UPDATE_AFTER, 1,
	       "the nested writer finds UPDATE, not HEADER: it knows it is nested",
	       "p1 --> p2 --> p3 --> p4 -U->", "tail=p4");
	sc_add(sc, 1, LRB_HOOK_NEW_HEAD_AFTER, 1,
	       "the nested writer sets the new head page pointer",
	       "p1 -H-> p2 --> p3 --> p4 -U->", "tail=p4 head=p2");
	sc_add(sc, 1, LRB_HOOK_TAIL_AFTER, 1,
	       "it moves the tail but does not reset UPDATE",
	       "p1 -H-> p2 --> p3 --> p4 -U->", "tail=p1 head=p2");
	sc_add(sc, 0, LRB_HOOK_HEAD_NORMAL_BEFORE, 1,
	       "back in the outer writer, which found the new head set already",
	       "p1 -H-> p2 --> p3 --> p4 -U->", "tail=p1 head=p2");
	sc_add(sc, 0, LRB_HOOK_MOVE_TAIL, 2,
	       "the outermost writer converted UPDATE to NORMAL; the tail had moved, it retries",
	       "p1 -H-> p2 --> p3 --> p4 -->", "tail=p1 head=p2");
	KUNIT_ASSERT_EQ(test, 0, sc_write(sc, BIG, 4));
	sc_snap(sc, "the outer writer pushed the next head for its own event",
		"p1 --> p2 -H-> p3 --> p4 -->", "tail=p2 head=p3 overrun=2 pages_lost=2");
	sc_report(sc);
	sc_read(sc, seqs, lens, 4, 0, 2);
}

/* Lines 771-949: three nested writers; the first one's stale HEADER */
static void three_nested_writers_stale_header(struct kunit *test)
{
	struct scenario *sc = sc_start(test, LRB_FL_OVERWRITE, "771-949");
	static const u32 seqs[] = { 2, 3, 6, 7, 5, 4 },
			 lens[] = { BIG, BIG, BIG, S, S, S };
	struct step *st;

	sc_fill(sc);
	st = sc_add(sc, 0, LRB_HOOK_HEAD_UPDATE_AFTER, 1,
		    "(first writer) converts the head page pointer to UPDATE",
		    "p1 --> p2 --> p3 --> p4 -U->", "tail=p4");
	sc_nest(st, S, 5);
	sc_add(sc, 1, LRB_HOOK_NEW_HEAD_AFTER, 1,
	       "(second writer) sees the update and sets up the new head page",
	       "p1 -H-> p2 --> p3 --> p4 -U->", "tail=p4 head=p2");
	st = sc_add(sc, 1, LRB_HOOK_TAIL_AFTER, 1,
		    "(second writer) moves the tail forward, leaves UPDATE; another writer preempts",
		    "p1 -H-> p2 --> p3 --> p4 -U->", "tail=p1 head=p2");
	sc_nest(st, BIG, 6);
	sc_nest(st, S, 7);
	sc_add(sc, 2, LRB_HOOK_HEAD_UPDATE_AFTER, 1,
	       "(third writer) sees the head after the tail, HEAD to UPDATE",
	       "p1 -U-> p2 --> p3 --> p4 -U->", "tail=p1 nrU=2");
	sc_add(sc, 2, LRB_HOOK_NEW_HEAD_AFTER, 1,
	       "(third writer) moves the head page forward",
	       "p1 -U-> p2 -H-> p3 --> p4 -U->", "tail=p1 head=p3");
	sc_add(sc, 2, LRB_HOOK_TAIL_BEFORE, 1,
	       "(third writer) set its UPDATE back to NORMAL",
	       "p1 --> p2 -H-> p3 --> p4 -U->", "tail=p1 head=p3");
	sc_add(sc, 2, LRB_HOOK_TAIL_AFTER, 1,
	       "(third writer) moves the tail and returns to the second writer",
	       "p1 --> p2 -H-> p3 --> p4 -U->", "tail=p2");
	sc_add(sc, 0, LRB_HOOK_NEW_HEAD_AFTER, 1,
	       "(first writer) sets what it thinks is the new head: two HEADERs",
	       "p1 -H-> p2 -H-> p3 --> p4 -U->", "tail=p2 nrH=2");
	sc_add(sc, 0, LRB_HOOK_STALE_HEAD, 1,
	       "(first writer) the tail is neither at A (p4) nor at B (p1): reset it",
	       "p1 -H-> p2 -H-> p3 --> p4 -U->", "tail=p2");
	sc_add(sc, 0, LRB_HOOK_HEAD_NORMAL_BEFORE, 1,
	       "(first writer) only its UPDATE is left to clear",
	       "p1 --> p2 -H-> p3 --> p4 -U->", "tail=p2 head=p3 nrH=1");
	KUNIT_ASSERT_EQ(test, 0, sc_write(sc, S, 4));
	sc_snap(sc, "(first writer) done: one HEADER, no UPDATE, its event on the new tail page",
		"p1 --> p2 -H-> p3 --> p4 -->",
		"tail=p2 commit=p2 head=p3 overrun=2 pages_lost=2 p2.write=36");
	sc_report(sc);
	sc_read(sc, seqs, lens, 6, 0, 2);
}

/*
 * 003-patch-ring-buffer-make-lockless.patch, the T/N/R drawing: a reader
 * swapped, and before it fixed the new head's prev a writer moved onto the
 * page the reader put in the ring, and beyond.
 */
static void head_prev_not_trusted(struct kunit *test)
{
	struct scenario *sc = sc_start(test, LRB_FL_OVERWRITE, "003 patch, T N R");
	static const u32 seqs[] = { 2, 3, 4, 5 }, lens[] = { BIG, BIG, BIG, BIG };
	struct lrb_event *ev;
	unsigned long lost;
	struct step *st;

	sc_fill(sc);
	st = sc_add(sc, 0, LRB_HOOK_READER_AFTER_SWAP, 1,
		    "the reader swapped p0 in; N (p2) still has the old page R (p1) as prev; a writer preempts",
		    "p0 -H-> p2 --> p3 --> p4 -->", "staleprev=p2:p1 tail=p4 rule=p1");
	sc_nest(st, BIG, 4);
	sc_nest(st, BIG, 5);
	sc_add(sc, 1, LRB_HOOK_HEAD_UPDATE_BEFORE, 1,
	       "the writer is on T (p0, the page the reader added) and about to move again: T -X-> N",
	       "p0 -H-> p2 --> p3 --> p4 -->", "tail=p0 head=p2 staleprev=p2:p1");
	sc_add(sc, 1, LRB_HOOK_TAIL_AFTER, 2,
	       "it found the head through T's next, never N's prev, and moved past it",
	       "p0 --> p2 -H-> p3 --> p4 -->", "tail=p2 head=p3 staleprev=p2:p1");
	sc_add(sc, 0, LRB_HOOK_READER_DONE, 1,
	       "the reader fixes N's prev: only temporarily wrong",
	       "p0 --> p2 -H-> p3 --> p4 -->", "tail=p2 head=p3");
	ev = lrb_consume(sc->tb->b, sc->cpu, NULL, &lost);
	sc_report(sc);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_TRUE(test, lrb_kunit_payload_ok(lrb_event_data(ev), BIG, 0));
	KUNIT_EXPECT_EQ(test, lost, 0UL);
	sc_read(sc, seqs, lens, 4, 0, 1);
}

static struct kunit_case lrb_design_cases[] = {
	KUNIT_CASE(reader_swap_empty_reader_page),
	KUNIT_CASE(swap_commit_and_tail_page),
	KUNIT_CASE(reserve_nested_commit_pending),
	KUNIT_CASE(tail_ahead_of_commit),
	KUNIT_CASE(commit_on_reader_page_head_stays),
	KUNIT_CASE(reader_meets_last_full_commit),
	KUNIT_CASE(overwrite_tail_pushes_head),
	KUNIT_CASE(producer_consumer_write_fails),
	KUNIT_CASE(header_flag_turns_update),
	KUNIT_CASE(reader_swap_retries_when_head_moved),
	KUNIT_CASE(reader_page_recognised_by_prev),
	KUNIT_CASE(writer_pushes_head),
	KUNIT_CASE(tail_wraps_commit_on_reader_page),
	KUNIT_CASE(nested_writer_moved_tail),
	KUNIT_CASE(nested_head_push),
	KUNIT_CASE(three_nested_writers_stale_header),
	KUNIT_CASE(head_prev_not_trusted),
	{}
};

static struct kunit_suite lrb_design_suite = {
	.name = "lrb_design",
	.init = lrb_kunit_kcsan_ignore_kernel,
	.test_cases = lrb_design_cases,
};

kunit_test_suite(lrb_design_suite);
