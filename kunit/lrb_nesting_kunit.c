// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_nesting: every stacked interleaving of writers at the write path's
 * decision points, deterministically.
 *
 * An interleaving is a list of injections: when the writer running at
 * nesting depth d reaches hook point P for the nth time, a new writer
 * (depth d + 1) starts right there, like an interrupt arriving exactly
 * there, and writes to its end before the interrupted one goes on. The
 * matrix cases inject up to three writers, one inside the other, at points
 * (P, Q, R), each the first time its writer reaches it. Each interleaving
 * starts from a fresh buffer in one of several states (a tail page nearly
 * full, a full ring, the commit and tail on the reader page, and in
 * overwrite mode a full ring whose outer writer two nested writers leave
 * with a stale HEADER), with rings of 2, 3 and 4 data pages, and three
 * patterns of event sizes: two so that writes cross pages and nested
 * writers wrap the ring, one so that the writers' events share the tail
 * page and their time stamps depend on each other. A deterministic clock
 * makes each replay identical, so an interleaving whose point Q never fired
 * does not need its R extensions.
 *
 * A case per (mode, ring size, first point) that can be reached: the head
 * handling is overwrite mode's only, and a stale HEADER needs three data
 * pages. A case whose first point is reached in no starting state fails,
 * saying so. The trail cases replay interleavings the Promela model
 * (model/) found, converted by tools/model_trail.py.
 *
 * After each interleaving: the ring is a circle with exactly one HEADER and
 * no UPDATE, head, commit and tail where they belong, the reader page rule
 * holds; every committed event is read exactly once or counted as overrun,
 * no payload is torn, time stamps never go backwards, every failed reserve
 * is counted, the loss reported to the reader equals the overrun.
 */

#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "lrb_kunit.h"
#include "lrb_kunit_impl.h"

static unsigned int lrb_nesting_depth = 3;
module_param(lrb_nesting_depth, uint, 0444);
MODULE_PARM_DESC(lrb_nesting_depth,
		 "longest sequence of nested writers lrb_nesting tries (1-3; the sanitizer profiles use 1 or 2)");

#define CAP		LRB_KUNIT_CAPACITY
#define BIG		(CAP - 8)
#define HALF		(CAP / 2)
#define DEPTH		3
#define MAX_DEPTH	8
#define MAX_WRITES	64
#define MAX_REPORTS	3

#define NEST_TRAIL_MAX_PREP	8
#define NEST_TRAIL_MAX_INJ	6

/**
 * struct nest_inj - a writer started in the middle of another
 * @depth: nesting depth of the writer interrupted (0: the outer writer)
 * @point: where it is interrupted
 * @nth: at its nth arrival there, counted from the start of that writer
 * @len: payload length of the new writer
 */
struct nest_inj {
	unsigned int		depth;
	enum lrb_hook_point	point;
	unsigned int		nth;
	unsigned int		len;
};

/**
 * struct nest_trail - an interleaving found by the Promela model
 * @name: which counterexample, a C identifier
 * @plant: the make planted-bugs plant that reproduces the model's mutation
 * @flags: lrb_alloc() flags
 * @pages: data pages
 * @nprep: writes before the interleaving
 * @prep: their payload lengths, written one after another, unnested
 * @outer_len: payload length of the outer writer
 * @ninj: injections
 * @inj: the injections, fired in this order
 */
struct nest_trail {
	const char		*name;
	const char		*plant;
	unsigned long		flags;
	unsigned int		pages;
	unsigned int		nprep;
	unsigned int		prep[NEST_TRAIL_MAX_PREP];
	unsigned int		outer_len;
	unsigned int		ninj;
	struct nest_inj		inj[NEST_TRAIL_MAX_INJ];
};

#include "lrb_nesting_trails.h"

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

/* Points only the head handling reaches: overwrite mode only */
static bool nest_point_overwrite_only(enum lrb_hook_point point)
{
	return point >= LRB_HOOK_HEAD_UPDATE_BEFORE &&
	       point <= LRB_HOOK_HEAD_NORMAL_BEFORE;
}

enum nest_state {
	STATE_TAIL_NEARLY_FULL,
	STATE_RING_FULL,
	STATE_COMMIT_ON_READER,
	STATE_STALE_HEADER,
	NR_STATES
};

static const char * const state_names[NR_STATES] = {
	"tail-nearly-full", "ring-full", "commit-on-reader", "stale-header",
};

/*
 * The stale-header state: in a full ring, two nested writers come in where
 * the outer writer has just set UPDATE; the first helps its push, the
 * second pushes the head again, so that the outer writer's new HEADER is
 * stale and it reaches LRB_HOOK_STALE_HEAD (design document, "Nested
 * writes", the first writer's reset).
 */
static const struct nest_inj stale_header_prelude[] = {
	{ 0, LRB_HOOK_HEAD_UPDATE_AFTER, 1, BIG },
	{ 0, LRB_HOOK_HEAD_UPDATE_AFTER, 1, BIG },
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
static unsigned int nest_nr_params;

/* One interleaving being run */
struct nest_run {
	const struct lrb_kunit_impl *impl;
	void			*b;
	struct lrb_kunit_hook	hook;
	int			cpu;
	bool			armed;
	const struct nest_inj	*inj;
	unsigned int		ninj;
	unsigned int		fired;
	/* nested writes that reached the reserve: what a case injected */
	unsigned int		nested;
	unsigned int		depth;
	unsigned int		arrivals[MAX_DEPTH][LRB_HOOK_NR];
	u32			next_seq;
	unsigned int		len_of[MAX_WRITES];
	unsigned long		ok;
	unsigned long		failed;
};

/* Suite-wide figures */
static unsigned long nest_runs, nest_explored, nest_injections;

static int nest_write(struct nest_run *r, unsigned int len)
{
	void *ev;
	u32 seq;

	if (r->next_seq >= MAX_WRITES)
		return -E2BIG;
	seq = r->next_seq++;
	r->len_of[seq] = len;
	if (r->depth)
		r->nested++;
	ev = r->impl->reserve(r->b, len);
	if (!ev) {
		r->failed++;
		return -ENOSPC;
	}
	lrb_kunit_fill(r->impl->event_data(ev), len, seq);
	r->impl->commit(r->b, ev);
	r->ok++;
	return 0;
}

/*
 * Count the running writer's arrival at point and start the writers that
 * are due there, in order, each in the next interrupt context level.
 */
static void nest_hook(void *b, int cpu, enum lrb_hook_point point, void *data)
{
	struct nest_run *r = data;
	unsigned int d = r->depth, n;
	unsigned long flags;

	if (!r->armed || cpu != r->cpu || d >= MAX_DEPTH - 1)
		return;
	n = ++r->arrivals[d][point];
	while (r->fired < r->ninj) {
		const struct nest_inj *in = &r->inj[r->fired];

		if (in->depth != d || in->point != point || in->nth != n)
			break;
		r->fired++;
		r->depth++;
		memset(r->arrivals[r->depth], 0, sizeof(r->arrivals[0]));
		flags = lrb_kunit_nest_enter(r->depth);
		nest_write(r, in->len);
		lrb_kunit_nest_exit(r->depth, flags);
		r->depth--;
	}
}

/* Bring a fresh buffer into the starting state, with nothing armed */
static int nest_prepare(struct nest_run *r, enum nest_state state,
			unsigned int pages)
{
	unsigned int i;

	switch (state) {
	case STATE_TAIL_NEARLY_FULL:
		/* 100 bytes left on the first page */
		return nest_write(r, CAP - 100 - 8);
	case STATE_RING_FULL:
	case STATE_STALE_HEADER:
		for (i = 0; i < pages; i++)
			if (nest_write(r, BIG))
				return -EIO;
		return 0;
	case STATE_COMMIT_ON_READER:
		if (nest_write(r, 8) || nest_write(r, 8))
			return -EIO;
		return r->impl->consume(r->b, r->cpu, NULL, NULL) ? 0 : -EIO;
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
	const struct lrb_kunit_impl *impl = r->impl;
	unsigned long lost, lost_sum = 0, read = 0;
	struct lrb_stats st;
	void *ev;
	u64 ts, last = 0;
	u32 seq;

	if (impl->snapshot(r->b, r->cpu, snap))
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
	impl->stats(r->b, r->cpu, &st);
	if (st.committed != r->ok ||
	    st.dropped + st.commit_overrun + st.rejected != r->failed) {
		snprintf(why, len,
			 "counters: committed %lu (wrote %lu), failed %lu + %lu + %lu (saw %lu)",
			 st.committed, r->ok, st.dropped, st.commit_overrun,
			 st.rejected, r->failed);
		return why;
	}

	bitmap_zero(seen, MAX_WRITES);
	while ((ev = impl->consume(r->b, r->cpu, &ts, &lost))) {
		unsigned int n = impl->event_length(ev);

		seq = n >= 4 ? lrb_kunit_payload_seq(impl->event_data(ev)) :
		      MAX_WRITES;
		if (seq >= r->next_seq || test_and_set_bit(seq, seen) ||
		    n != impl->payload_length(r->len_of[seq]) ||
		    !lrb_kunit_payload_ok(impl->event_data(ev), r->len_of[seq],
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
	impl->stats(r->b, r->cpu, &st);
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

/* "ring-full, sizes 2040/4072, injected at p > q(not reached)" */
static void nest_name(const struct nest_run *r, const char *start,
		      unsigned int skip, char *buf, size_t len)
{
	unsigned int i;
	size_t n;

	n = scnprintf(buf, len, "%s, injected at", start);
	for (i = skip; i < r->ninj; i++)
		n += scnprintf(buf + n, len - n, "%s%s%s", i > skip ? " >" : " ",
			       lrb_hook_name(r->inj[i].point),
			       i < r->fired ? "" : "(not reached)");
}

struct nest_ctx {
	struct kunit		*test;
	const struct lrb_kunit_impl *impl;
	struct lrb_snapshot	*snap;
	unsigned long		*seen;
	struct nest_run		*run;
	char			why[200];
	char			name[200];
	unsigned int		runs;
	unsigned int		explored;
	unsigned int		injections;
	unsigned int		failures;
};

/* What one interleaving starts from and does */
struct nest_setup {
	unsigned long		flags;
	unsigned int		pages;
	enum nest_state		state;		/* NR_STATES: the prep list */
	const unsigned int	*prep;
	unsigned int		nprep;
	unsigned int		outer_len;
	const struct nest_inj	*inj;
	unsigned int		ninj;
	unsigned int		skip;		/* leading injections of the state */
	char			start[96];	/* the starting state, for messages */
};

static int nest_setup_prepare(struct nest_run *r, const struct nest_setup *s)
{
	unsigned int i;

	if (s->state != NR_STATES)
		return nest_prepare(r, s->state, s->pages);
	for (i = 0; i < s->nprep; i++)
		if (nest_write(r, s->prep[i]))
			return -EIO;
	return 0;
}

/*
 * Run one interleaving. Returns how many of its injections wrote, so that
 * the caller knows whether longer sequences starting with it can be reached.
 */
static unsigned int nest_one(struct nest_ctx *c, const struct nest_setup *s)
{
	struct nest_run *r = c->run;
	unsigned long initially_read;
	struct lrb_stats st;
	const char *why;

	/* Off the stack: its arrival table is too large for 32-bit frames */
	memset(r, 0, sizeof(*r));
	r->impl = c->impl;
	r->inj = s->inj;
	r->ninj = s->ninj;
	r->b = r->impl->alloc(s->pages * CAP, s->flags & LRB_FL_OVERWRITE);
	if (!r->b) {
		KUNIT_FAIL(c->test, "%s: no buffer of %u pages", r->impl->name,
			   s->pages);
		return 0;
	}
	migrate_disable();
	r->cpu = smp_processor_id();
	r->impl->set_clock(r->b, lrb_kunit_clock_tick);
	lrb_kunit_clock_set(1000000);
	r->hook.fn = nest_hook;
	r->hook.data = r;
	r->impl->set_hook(r->b, &r->hook);

	if (nest_setup_prepare(r, s)) {
		KUNIT_FAIL(c->test, "could not prepare %s", s->start);
		goto out;
	}
	r->impl->stats(r->b, r->cpu, &st);
	initially_read = st.read;
	r->armed = true;
	nest_write(r, s->outer_len);
	r->armed = false;

	c->runs++;
	c->injections += r->nested;
	if (r->nested == r->ninj)
		c->explored++;
	why = nest_check(r, c->snap, c->why, sizeof(c->why), c->seen,
			 initially_read);
	if (why) {
		nest_name(r, s->start, s->skip, c->name, sizeof(c->name));
		KUNIT_FAIL(c->test, "%s: %s", c->name, why);
		if (c->failures++ < MAX_REPORTS)
			lrb_kunit_render(c->test, c->snap, "ring at the failure:");
	}
out:
	/*
	 * The hook stays on the buffer it goes with: only this thread writes
	 * to it, and unhooking it would wait for a grace period per run
	 * (tens of thousands per suite, minutes when the host is busy).
	 */
	migrate_enable();
	r->impl->free(r->b);
	return r->nested;
}

static void nest_ctx_init(struct kunit *test, struct nest_ctx *c)
{
	c->test = test;
	c->impl = test->priv;
	c->snap = kunit_kmalloc(test, sizeof(*c->snap), GFP_KERNEL);
	c->seen = kunit_kcalloc(test, BITS_TO_LONGS(MAX_WRITES),
				sizeof(long), GFP_KERNEL);
	c->run = kunit_kmalloc(test, sizeof(*c->run), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->snap);
	KUNIT_ASSERT_NOT_NULL(test, c->seen);
	KUNIT_ASSERT_NOT_NULL(test, c->run);
}

/* The matrix from one starting state and size pattern: P, then Q, then R */
static unsigned int nest_matrix(struct nest_ctx *c, const struct nest_param *p,
				enum nest_state state, unsigned int pattern)
{
	struct nest_inj inj[ARRAY_SIZE(stale_header_prelude) + DEPTH];
	struct nest_setup s = {
		.flags = p->flags, .pages = p->pages, .state = state,
		.outer_len = size_patterns[pattern][0], .inj = inj,
	};
	unsigned int q, rr, k, reached = 0;

	if (state == STATE_STALE_HEADER) {
		memcpy(inj, stale_header_prelude, sizeof(stale_header_prelude));
		s.skip = ARRAY_SIZE(stale_header_prelude);
	}
	k = s.skip;
	for (q = 0; q < DEPTH; q++)
		inj[k + q] = (struct nest_inj){ q, 0, 1, size_patterns[pattern][1] };
	snprintf(s.start, sizeof(s.start), "%s, sizes %u/%u", state_names[state],
		 size_patterns[pattern][0], size_patterns[pattern][1]);

	inj[k].point = nest_points[p->first];
	s.ninj = k + 1;
	if (nest_one(c, &s) < k + 1)
		return 0;
	reached++;
	for (q = 0; q < NR_POINTS && lrb_nesting_depth >= 2; q++) {
		inj[k + 1].point = nest_points[q];
		s.ninj = k + 2;
		if (nest_one(c, &s) < k + 2 || lrb_nesting_depth < 3)
			continue;
		for (rr = 0; rr < NR_POINTS; rr++) {
			inj[k + 2].point = nest_points[rr];
			s.ninj = k + 3;
			nest_one(c, &s);
		}
	}
	return reached;
}

static void nesting_interleavings(struct kunit *test)
{
	const struct nest_param *p = test->param_value;
	unsigned int state, pattern, reached = 0;
	struct nest_ctx c = { };

	nest_ctx_init(test, &c);
	for (state = 0; state < NR_STATES; state++) {
		if (state == STATE_STALE_HEADER && !(p->flags & LRB_FL_OVERWRITE))
			continue;
		for (pattern = 0; pattern < ARRAY_SIZE(size_patterns); pattern++)
			reached += nest_matrix(&c, p, state, pattern);
	}
	kunit_info(test, "%s: %u interleavings of up to %u nested writers run, %u with every injected writer reached; %u nested writes injected; %s reached from %u of the starting states and size patterns",
		   p->name, c.runs, min(lrb_nesting_depth, DEPTH), c.explored,
		   c.injections, lrb_hook_name(nest_points[p->first]), reached);
	KUNIT_EXPECT_GT_MSG(test, reached, 0U,
			    "%s: no starting state reaches %s: the case injects nothing",
			    p->name, lrb_hook_name(nest_points[p->first]));
	nest_runs += c.runs;
	nest_explored += c.explored;
	nest_injections += c.injections;
}

static const void *nest_gen_params(const void *prev, char *desc)
{
	const struct nest_param *p = prev;

	p = p ? p + 1 : nest_params;
	if (p >= nest_params + nest_nr_params)
		return NULL;
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
	return p;
}

/*
 * The model's counterexamples on the real code: each interleaving must be
 * reached in full and end with every check holding. With the plant named
 * in the trail, the same replay fails.
 */
/*
 * A trail's length on this build's pages: the model's 2-slot event fills a
 * page (NEST_TRAIL_PAGE_FILL on 4 KiB 64-bit pages, lrb_max_payload() here),
 * a 1-slot one takes the same share of it, so that two fit and a third
 * does not, whatever PAGE_SIZE and the page header are.
 */
static unsigned int nest_trail_len(unsigned int len)
{
	return mult_frac(len, lrb_max_payload(), NEST_TRAIL_PAGE_FILL);
}

static void nesting_model_trail(struct kunit *test)
{
	const struct nest_trail *t = test->param_value;
	struct nest_inj inj[NEST_TRAIL_MAX_INJ];
	unsigned int prep[NEST_TRAIL_MAX_PREP];
	struct nest_setup s = {
		.flags = t->flags, .pages = t->pages, .state = NR_STATES,
		.prep = prep, .nprep = t->nprep,
		.outer_len = nest_trail_len(t->outer_len),
		.inj = inj, .ninj = t->ninj,
	};
	struct nest_ctx c = { };
	unsigned int fired, i;

	for (i = 0; i < t->nprep; i++)
		prep[i] = nest_trail_len(t->prep[i]);
	for (i = 0; i < t->ninj; i++) {
		inj[i] = t->inj[i];
		inj[i].len = nest_trail_len(t->inj[i].len);
	}
	nest_ctx_init(test, &c);
	snprintf(s.start, sizeof(s.start), "trail %s", t->name);
	fired = nest_one(&c, &s);
	kunit_info(test, "%s (plant %s): %u of %u injections wrote",
		   t->name, t->plant[0] ? t->plant : "none", fired, t->ninj);
	KUNIT_EXPECT_EQ_MSG(test, fired, t->ninj,
			    "%s: the model's interleaving was not reached on the real code",
			    t->name);
	nest_injections += fired;
}

static void nest_trail_desc(const struct nest_trail *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(nest_trail, nest_trails, nest_trail_desc);

static int nesting_suite_init(struct kunit_suite *suite)
{
	static const unsigned int sizes[] = { 2, 3, 4 };
	unsigned int m, s, f;

	nest_nr_params = 0;
	for (m = 0; m < 2; m++) {
		for (s = 0; s < ARRAY_SIZE(sizes); s++) {
			for (f = 0; f < NR_POINTS; f++) {
				enum lrb_hook_point pt = nest_points[f];
				struct nest_param *p;

				if (!m && nest_point_overwrite_only(pt))
					continue;
				if (pt == LRB_HOOK_STALE_HEAD && sizes[s] < 3)
					continue;
				p = &nest_params[nest_nr_params++];
				p->flags = m ? LRB_FL_OVERWRITE : 0;
				p->pages = sizes[s];
				p->first = f;
				snprintf(p->name, sizeof(p->name), "%s_%upages_%s",
					 m ? "overwrite" : "prodcons", p->pages,
					 lrb_hook_name(pt));
			}
		}
	}
	nest_runs = 0;
	nest_explored = 0;
	nest_injections = 0;
	return 0;
}

static void nesting_suite_exit(struct kunit_suite *suite)
{
	kunit_log(KERN_INFO, suite, KUNIT_SUBTEST_INDENT
		  "# %s: %lu interleavings explored, %lu reached every injected writer, %lu nested writes injected",
		  suite->name, nest_runs, nest_explored, nest_injections);
}

static struct kunit_case lrb_nesting_cases[] = {
	KUNIT_CASE_PARAM_ATTR(nesting_interleavings, nest_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_PARAM(nesting_model_trail, nest_trail_gen_params),
	{}
};

static struct kunit_suite lrb_nesting_suite = {
	.name = "lrb_nesting",
	.init = lrb_kunit_impl_init_lrb,
	.suite_init = nesting_suite_init,
	.suite_exit = nesting_suite_exit,
	.test_cases = lrb_nesting_cases,
};

#ifdef CONFIG_RING_BUFFER
/*
 * The same matrix on kernel/trace/ring_buffer.c. The model's trails are
 * lrb's: they rely on lrb's page fill (nesting_model_trail).
 */
static struct kunit_case lrb_nesting_kernel_cases[] = {
	KUNIT_CASE_PARAM_ATTR(nesting_interleavings, nest_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite lrb_nesting_kernel_suite = {
	.name = "lrb_nesting_kernel",
	.init = lrb_kunit_impl_init_kernel,
	.suite_init = nesting_suite_init,
	.suite_exit = nesting_suite_exit,
	.test_cases = lrb_nesting_kernel_cases,
};

lrb_kunit_impl_suites(&lrb_nesting_suite, &lrb_nesting_kernel_suite);
#else
kunit_test_suite(lrb_nesting_suite);
#endif
