// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_nesting: every stacked interleaving of writers at the write path's
 * decision points, deterministically.
 *
 * An interleaving is a sequence of up to three hook points (P, Q, R): the
 * outer writer runs, a nested writer is injected the first time it reaches
 * P (like an interrupt arriving exactly there), inside that one another at
 * Q, and inside that one a third at R. Each interleaving starts from a fresh
 * buffer in one of several states (a tail page nearly full, a full ring,
 * the commit and tail on the reader page), in both modes, with rings of 2, 3
 * and 4 data pages, and three patterns of event sizes: two so that writes
 * cross pages and nested writers wrap the ring, one so that the writers'
 * events share the tail page and their time stamps depend on each other.
 * A deterministic clock makes each replay identical, so an interleaving
 * whose point Q never fired does not need its R extensions.
 *
 * After each interleaving: the ring is a circle with exactly one HEADER and
 * no UPDATE, head, commit and tail where they belong, the reader page rule
 * holds; every committed event is read exactly once or counted as overrun,
 * no payload is torn, time stamps never go backwards, every failed reserve
 * is counted, the loss reported to the reader equals the overrun.
 *
 * A case per (mode, ring size, first point), so that a failure names its
 * interleaving; the messages name the rest of it.
 */

#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "lrb_kunit.h"

static unsigned int lrb_nesting_depth = 3;
module_param(lrb_nesting_depth, uint, 0444);
MODULE_PARM_DESC(lrb_nesting_depth,
		 "longest sequence of nested writers lrb_nesting tries (1-3; sanitizer runs use 2)");

#define CAP		LRB_KUNIT_CAPACITY
#define BIG		(CAP - 8)
#define HALF		(CAP / 2)
#define DEPTH		3
#define MAX_WRITES	64
#define MAX_REPORTS	3

/* The write-path decision points */
static const enum lrb_hook_point nest_points[] = {
	LRB_HOOK_STAMP,
	LRB_HOOK_RESERVED,
	LRB_HOOK_MOVE_TAIL,
	LRB_HOOK_HEAD_UPDATE_BEFORE,
	LRB_HOOK_HEAD_UPDATE_AFTER,
	LRB_HOOK_NEW_HEAD_BEFORE,
	LRB_HOOK_NEW_HEAD_AFTER,
	LRB_HOOK_STALE_HEAD,
	LRB_HOOK_HEAD_NORMAL_BEFORE,
	LRB_HOOK_TAIL_RESET,
	LRB_HOOK_TAIL_BEFORE,
	LRB_HOOK_TAIL_AFTER,
	LRB_HOOK_COMMIT_BEFORE,
	LRB_HOOK_COMMIT_AFTER,
};

#define NR_POINTS	ARRAY_SIZE(nest_points)

enum nest_state {
	STATE_TAIL_NEARLY_FULL,
	STATE_RING_FULL,
	STATE_COMMIT_ON_READER,
	NR_STATES
};

static const char * const state_names[NR_STATES] = {
	"tail-nearly-full", "ring-full", "commit-on-reader",
};

/* Payload lengths: the outer writer, then the nested ones */
static const unsigned int size_patterns[][2] = {
	{ HALF, BIG },
	{ BIG, HALF },
	{ 24, 40 },
};

struct nest_param {
	unsigned long	flags;
	unsigned int	pages;
	unsigned int	first;
	char		name[64];
};

static struct nest_param nest_params[2 * 3 * NR_POINTS];

/* One interleaving being run */
struct nest_run {
	struct lrb_buffer	*b;
	int			cpu;
	bool			armed;
	unsigned int		npts;
	enum lrb_hook_point	pts[DEPTH];
	bool			fired[DEPTH];
	unsigned int		depth;
	unsigned int		nested_len;
	u32			next_seq;
	unsigned int		len_of[MAX_WRITES];
	unsigned long		ok;
	unsigned long		failed;
};

/* Suite-wide figures */
static unsigned long nest_runs, nest_explored;

static int nest_write(struct nest_run *r, unsigned int len)
{
	struct lrb_event *ev;
	u32 seq;

	if (r->next_seq >= MAX_WRITES)
		return -E2BIG;
	seq = r->next_seq++;
	r->len_of[seq] = len;
	ev = lrb_lock_reserve(r->b, len);
	if (!ev) {
		r->failed++;
		return -ENOSPC;
	}
	lrb_kunit_fill(lrb_event_data(ev), len, seq);
	lrb_unlock_commit(r->b, ev);
	r->ok++;
	return 0;
}

/* Inject the next writer the first time the current one reaches its point */
static void nest_hook(struct lrb_buffer *b, int cpu, enum lrb_hook_point point,
		      void *data)
{
	struct nest_run *r = data;
	unsigned int d = r->depth;

	if (!r->armed || cpu != r->cpu || d >= r->npts || r->fired[d] ||
	    point != r->pts[d])
		return;
	r->fired[d] = true;
	r->depth++;
	nest_write(r, r->nested_len);
	r->depth--;
}

/* Bring a fresh buffer into the starting state */
static int nest_prepare(struct nest_run *r, enum nest_state state,
			unsigned int pages)
{
	unsigned int i;

	switch (state) {
	case STATE_TAIL_NEARLY_FULL:
		/* 100 bytes left on the first page */
		return nest_write(r, CAP - 100 - 8);
	case STATE_RING_FULL:
		for (i = 0; i < pages; i++)
			if (nest_write(r, BIG))
				return -EIO;
		return 0;
	case STATE_COMMIT_ON_READER:
		if (nest_write(r, 8) || nest_write(r, 8))
			return -EIO;
		return lrb_consume(r->b, r->cpu, NULL, NULL) ? 0 : -EIO;
	default:
		return -EINVAL;
	}
}

/*
 * The checks. Returns NULL if they hold, else what failed (in why, with the
 * ring snapshot in snap).
 */
static const char *nest_check(struct nest_run *r, struct lrb_snapshot *snap,
			      char *why, size_t len, unsigned long *seen,
			      unsigned long initially_read)
{
	unsigned long lost, lost_sum = 0, read = 0;
	struct lrb_event *ev;
	struct lrb_stats st;
	u64 ts, last = 0;
	u32 seq;

	if (lrb_snapshot(r->b, r->cpu, snap))
		return "no snapshot";
	if (!snap->ring_ok || snap->nr_header != 1 || snap->nr_update ||
	    snap->committing || snap->tail != snap->commit ||
	    snap->outside != snap->reader || snap->head == LRB_SNAP_NONE) {
		snprintf(why, len,
			 "ring: ok %d, %u HEADER, %u UPDATE, %ld in flight, tail p%u commit p%u, reader p%u outside p%u",
			 snap->ring_ok, snap->nr_header, snap->nr_update,
			 snap->committing, snap->tail, snap->commit,
			 snap->reader, snap->outside);
		return why;
	}
	lrb_stats_cpu(r->b, r->cpu, &st);
	if (st.committed != r->ok ||
	    st.dropped + st.commit_overrun + st.rejected != r->failed) {
		snprintf(why, len,
			 "counters: committed %lu (wrote %lu), failed %lu + %lu + %lu (saw %lu)",
			 st.committed, r->ok, st.dropped, st.commit_overrun,
			 st.rejected, r->failed);
		return why;
	}

	bitmap_zero(seen, MAX_WRITES);
	while ((ev = lrb_consume(r->b, r->cpu, &ts, &lost))) {
		unsigned int n = lrb_event_length(ev);

		seq = n >= 4 ? lrb_kunit_payload_seq(lrb_event_data(ev)) :
		      MAX_WRITES;
		if (seq >= r->next_seq || test_and_set_bit(seq, seen) ||
		    n != ALIGN(r->len_of[seq], 4) ||
		    !lrb_kunit_payload_ok(lrb_event_data(ev), r->len_of[seq],
					  seq)) {
			snprintf(why, len,
				 "event %lu read (seq %u, %u bytes): torn, duplicated or unknown",
				 read, seq, n);
			return why;
		}
		if (ts < last) {
			snprintf(why, len, "time went back at seq %u", seq);
			return why;
		}
		last = ts;
		lost_sum += lost;
		if (++read > MAX_WRITES) {
			snprintf(why, len, "more events read than written");
			return why;
		}
	}
	lrb_stats_cpu(r->b, r->cpu, &st);
	if (read + initially_read + st.overrun != st.committed ||
	    st.entries || lost_sum != st.overrun) {
		snprintf(why, len,
			 "accounting: read %lu+%lu, overrun %lu, committed %lu, entries %lu, lost reported %lu",
			 initially_read, read, st.overrun, st.committed,
			 st.entries, lost_sum);
		return why;
	}
	return NULL;
}

static void nest_name(const struct nest_run *r, enum nest_state state,
		      unsigned int pattern, char *buf, size_t len)
{
	size_t n;
	unsigned int i;

	n = scnprintf(buf, len, "%s, sizes %u/%u, injected at", state_names[state],
		      size_patterns[pattern][0], size_patterns[pattern][1]);
	for (i = 0; i < r->npts; i++)
		n += scnprintf(buf + n, len - n, "%s%s%s", i ? " >" : " ",
			       lrb_hook_name(r->pts[i]),
			       r->fired[i] ? "" : "(not reached)");
}

struct nest_ctx {
	struct kunit		*test;
	const struct nest_param	*p;
	struct lrb_snapshot	*snap;
	unsigned long		*seen;
	char			why[200];
	char			name[200];
	unsigned int		runs;
	unsigned int		explored;
	unsigned int		failures;
};

/*
 * Run one interleaving. Returns how many of its points fired, so that the
 * caller knows whether longer sequences starting with it can be reached.
 */
static unsigned int nest_one(struct nest_ctx *c, enum nest_state state,
			     unsigned int pattern, const enum lrb_hook_point *pts,
			     unsigned int npts)
{
	struct nest_run r = { .npts = npts };
	unsigned long initially_read;
	const char *why;
	unsigned int i, fired = 0;

	memcpy(r.pts, pts, npts * sizeof(*pts));
	r.nested_len = size_patterns[pattern][1];
	r.b = lrb_alloc(c->p->pages * CAP, c->p->flags);
	if (IS_ERR(r.b)) {
		KUNIT_FAIL(c->test, "lrb_alloc: %ld", PTR_ERR(r.b));
		return 0;
	}
	migrate_disable();
	r.cpu = smp_processor_id();
	lrb_set_clock(r.b, lrb_kunit_clock_tick);
	lrb_kunit_clock_set(1000000);
	lrb_set_test_hook(r.b, nest_hook, &r);

	if (nest_prepare(&r, state, c->p->pages)) {
		KUNIT_FAIL(c->test, "could not prepare %s", state_names[state]);
		goto out;
	}
	initially_read = lrb_read_events_cpu(r.b, r.cpu);
	r.armed = true;
	nest_write(&r, size_patterns[pattern][0]);
	r.armed = false;
	for (i = 0; i < npts && r.fired[i]; i++)
		fired++;

	c->runs++;
	if (fired == npts)
		c->explored++;
	why = nest_check(&r, c->snap, c->why, sizeof(c->why), c->seen,
			 initially_read);
	if (why) {
		nest_name(&r, state, pattern, c->name, sizeof(c->name));
		KUNIT_FAIL(c->test, "%s: %s", c->name, why);
		if (c->failures++ < MAX_REPORTS)
			lrb_kunit_render(c->test, c->snap, "ring at the failure:");
	}
out:
	lrb_set_test_hook(r.b, NULL, NULL);
	migrate_enable();
	lrb_free(r.b);
	return fired;
}

static void nesting_interleavings(struct kunit *test)
{
	const struct nest_param *p = test->param_value;
	struct nest_ctx c = { .test = test, .p = p };
	enum lrb_hook_point pts[DEPTH];
	unsigned int state, pattern, q, rr, fired;

	c.snap = kunit_kmalloc(test, sizeof(*c.snap), GFP_KERNEL);
	c.seen = kunit_kcalloc(test, BITS_TO_LONGS(MAX_WRITES),
			       sizeof(long), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c.snap);
	KUNIT_ASSERT_NOT_NULL(test, c.seen);

	pts[0] = nest_points[p->first];
	for (state = 0; state < NR_STATES; state++) {
		for (pattern = 0; pattern < ARRAY_SIZE(size_patterns); pattern++) {
			if (nest_one(&c, state, pattern, pts, 1) < 1)
				continue;
			for (q = 0; q < NR_POINTS && lrb_nesting_depth >= 2; q++) {
				pts[1] = nest_points[q];
				fired = nest_one(&c, state, pattern, pts, 2);
				if (fired < 2 || lrb_nesting_depth < 3)
					continue;
				for (rr = 0; rr < NR_POINTS; rr++) {
					pts[2] = nest_points[rr];
					nest_one(&c, state, pattern, pts, 3);
				}
			}
		}
	}
	kunit_info(test, "%s: %u interleavings of up to %u nested writers run, %u with every injected writer reached",
		   p->name, c.runs, min(lrb_nesting_depth, DEPTH), c.explored);
	nest_runs += c.runs;
	nest_explored += c.explored;
}

static const void *nest_gen_params(const void *prev, char *desc)
{
	const struct nest_param *p = prev;

	p = p ? p + 1 : nest_params;
	if (p >= nest_params + ARRAY_SIZE(nest_params))
		return NULL;
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
	return p;
}

static int nesting_suite_init(struct kunit_suite *suite)
{
	static const unsigned int sizes[] = { 2, 3, 4 };
	unsigned int m, s, f, i = 0;

	for (m = 0; m < 2; m++) {
		for (s = 0; s < ARRAY_SIZE(sizes); s++) {
			for (f = 0; f < NR_POINTS; f++, i++) {
				struct nest_param *p = &nest_params[i];

				p->flags = m ? LRB_FL_OVERWRITE : 0;
				p->pages = sizes[s];
				p->first = f;
				snprintf(p->name, sizeof(p->name), "%s_%upages_%s",
					 m ? "overwrite" : "prodcons", p->pages,
					 lrb_hook_name(nest_points[f]));
			}
		}
	}
	nest_runs = 0;
	nest_explored = 0;
	return 0;
}

static void nesting_suite_exit(struct kunit_suite *suite)
{
	kunit_log(KERN_INFO, suite, KUNIT_SUBTEST_INDENT
		  "# lrb_nesting: %lu interleavings explored, %lu reached every injected writer",
		  nest_runs, nest_explored);
}

static struct kunit_case lrb_nesting_cases[] = {
	KUNIT_CASE_PARAM_ATTR(nesting_interleavings, nest_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite lrb_nesting_suite = {
	.name = "lrb_nesting",
	.init = lrb_kunit_kcsan_ignore_kernel,
	.suite_init = nesting_suite_init,
	.suite_exit = nesting_suite_exit,
	.test_cases = lrb_nesting_cases,
};

kunit_test_suite(lrb_nesting_suite);
