// SPDX-License-Identifier: GPL-2.0
/*
 * What a ring must be: the invariants of a ring with no writer in flight,
 * and the expected states of the design document's drawings, written in
 * its notation ("p0 -H-> p2 --> p3 -->", "head=p2 tail=p1 p1.write=12"),
 * checked against a snapshot.
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "lrb_kunit.h"

/**
 * lrb_kunit_snap_sane - check the invariants of a ring with no writer
 * @test: the test; failures are reported to it, with the ring drawn
 * @snap: a snapshot of the ring, taken while no writer was in flight
 * @lone_reader: the reader page may still point at itself, as the kernel's
 *	buffer allocates it, until its first swap
 *
 * The ring is a circle through every page but the reader page, with prev
 * pointers matching next pointers; exactly one pointer has HEADER and none
 * UPDATE; the reader page is recognised by the design document's rule (its
 * prev page's next does not point to it) and points into the ring; the
 * tail and commit pages are equal, in the ring or the reader page.
 *
 * Return: true if all hold.
 */
bool lrb_kunit_snap_sane(struct kunit *test, const struct lrb_snapshot *snap,
			 bool lone_reader)
{
	const struct lrb_snap_page *rp = &snap->page[snap->reader];
	bool alone = lone_reader && rp->next == snap->reader &&
		     rp->prev == snap->reader;
	bool ok;

	ok = snap->ring_ok && snap->nr_header == 1 && !snap->nr_update &&
	     snap->outside == snap->reader &&
	     snap->committing == 0 && snap->tail == snap->commit &&
	     lrb_kunit_ring_pos(snap, snap->reader) < 0 &&
	     (alone || (lrb_kunit_ring_pos(snap, rp->next) >= 0 &&
			snap->page[rp->prev].next != snap->reader)) &&
	     lrb_kunit_ring_pos(snap, snap->head) >= 0;
	if (!ok) {
		KUNIT_FAIL(test,
			   "CPU %d ring not sane: ring_ok %d HEADER %u UPDATE %u committing %ld tail p%u commit p%u",
			   snap->cpu, snap->ring_ok, snap->nr_header,
			   snap->nr_update, snap->committing, snap->tail,
			   snap->commit);
		lrb_kunit_render(test, snap, "ring at the failure:");
	}
	return ok;
}

#if IS_ENABLED(CONFIG_LOCKLESS_RING_BUFFER_KUNIT_TEST)
/**
 * lrb_kunit_ring_sane - check the invariants of an lrb ring with no writer
 * @test: the test; failures are reported to it, with the ring drawn
 * @b: the buffer
 * @cpu: the CPU
 *
 * Return: what lrb_kunit_snap_sane() returns for a snapshot of it.
 */
bool lrb_kunit_ring_sane(struct kunit *test, struct lrb_buffer *b, int cpu)
{
	struct lrb_snapshot *snap;
	bool ok;

	snap = kmalloc(sizeof(*snap), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, snap);
	KUNIT_ASSERT_EQ(test, 0, lrb_snapshot(b, cpu, snap));
	ok = lrb_kunit_snap_sane(test, snap, false);
	kfree(snap);
	return ok;
}
#endif

/* ---- expected states, written in the design document's notation -------- */

static int lrb_tok_page(const char *t)
{
	unsigned int id;

	if (t[0] != 'p' || kstrtouint(t + 1, 10, &id) || id >= LRB_SNAP_MAX_PAGES)
		return -1;
	return id;
}

static int lrb_tok_arrow(const char *t)
{
	if (!strcmp(t, "-->") || !strcmp(t, "--->"))
		return LRB_SNAP_NORMAL;
	if (!strcmp(t, "-H->"))
		return LRB_SNAP_HEADER;
	if (!strcmp(t, "-U->"))
		return LRB_SNAP_UPDATE;
	return -1;
}

static int lrb_tok_flag(const char *t)
{
	if (!strcmp(t, "N"))
		return LRB_SNAP_NORMAL;
	if (!strcmp(t, "H"))
		return LRB_SNAP_HEADER;
	if (!strcmp(t, "U"))
		return LRB_SNAP_UPDATE;
	return -1;
}

struct lrb_expect_ctx {
	struct kunit			*test;
	const struct lrb_snapshot	*snap;
	bool				ok;
	bool				align8_offsets;
	bool				stale[LRB_SNAP_MAX_PAGES];
};

__printf(2, 3) static void lrb_mismatch(struct lrb_expect_ctx *c,
					const char *fmt, ...)
{
	char msg[160];
	va_list args;

	va_start(args, fmt);
	vscnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	KUNIT_FAIL(c->test, "CPU %d: %s", c->snap->cpu, msg);
	c->ok = false;
}

/* "p4 -U-> p1 -H-> p2 --> p3 -->": next pointers and flags, a cycle */
static void lrb_expect_ring_spec(struct lrb_expect_ctx *c, char *spec)
{
	int ids[LRB_SNAP_MAX_PAGES], flags[LRB_SNAP_MAX_PAGES], n = 0, i;
	char *tok;

	while ((tok = strsep(&spec, " ")) && n < LRB_SNAP_MAX_PAGES) {
		if (!*tok)
			continue;
		ids[n] = lrb_tok_page(tok);
		tok = strsep(&spec, " ");
		flags[n] = tok ? lrb_tok_arrow(tok) : -1;
		if (ids[n] < 0 || flags[n] < 0 ||
		    ids[n] >= c->snap->nr_pages) {
			lrb_mismatch(c, "bad ring spec near page %d", n);
			return;
		}
		n++;
	}
	for (i = 0; i < n; i++) {
		const struct lrb_snap_page *p = &c->snap->page[ids[i]];
		int next = ids[(i + 1) % n];

		if (p->next != next || p->next_flags != flags[i])
			lrb_mismatch(c, "p%d: next is p%u%s, expected p%d%s",
				     ids[i], p->next, lrb_kunit_arrow(p->next_flags),
				     next, lrb_kunit_arrow(flags[i]));
		if (!c->stale[next] && c->snap->page[next].prev != ids[i])
			lrb_mismatch(c, "p%d: prev is p%u, expected p%d", next,
				     c->snap->page[next].prev, ids[i]);
	}
}

static unsigned long lrb_snap_counter(const struct lrb_snapshot *s,
				      const char *key, bool *found)
{
	*found = true;
	if (!strcmp(key, "committing"))
		return s->committing;
	if (!strcmp(key, "committed"))
		return s->stats.committed;
	if (!strcmp(key, "overrun"))
		return s->stats.overrun;
	if (!strcmp(key, "entries"))
		return s->stats.entries;
	if (!strcmp(key, "read"))
		return s->stats.read;
	if (!strcmp(key, "dropped"))
		return s->stats.dropped;
	if (!strcmp(key, "commit_overrun"))
		return s->stats.commit_overrun;
	if (!strcmp(key, "pages_lost"))
		return s->stats.pages_lost;
	if (!strcmp(key, "nrH"))
		return s->nr_header;
	if (!strcmp(key, "nrU"))
		return s->nr_update;
	*found = false;
	return 0;
}

/* pN.write=, pN.commit=, pN.entries=, pN.read= */
static bool lrb_expect_page_field(struct lrb_expect_ctx *c, const char *key,
				  const char *val)
{
	char name[8];
	const char *dot = strchr(key, '.');
	const struct lrb_snap_page *p;
	unsigned long want, got;
	int id;

	if (!dot || dot - key >= sizeof(name))
		return false;
	memcpy(name, key, dot - key);
	name[dot - key] = '\0';
	id = lrb_tok_page(name);
	if (id < 0 || id >= c->snap->nr_pages)
		return false;
	/* "end": the data capacity of a page, which depends on PAGE_SIZE and local_t */
	if (!strcmp(val, "end"))
		want = LRB_KUNIT_CAPACITY;
	else if (kstrtoul(val, 0, &want))
		return false;
	p = &c->snap->page[id];
	if (!strcmp(dot + 1, "write"))
		got = p->write;
	else if (!strcmp(dot + 1, "commit"))
		got = p->commit;
	else if (!strcmp(dot + 1, "entries"))
		got = p->entries;
	else if (!strcmp(dot + 1, "read"))
		got = p->read;
	else
		return false;
	if (c->align8_offsets && strcmp(dot + 1, "entries") &&
	    want && want != LRB_KUNIT_CAPACITY) {
		if (!IS_ALIGNED(got, 8))
			lrb_mismatch(c, "%s is %lu, not a multiple of 8", key, got);
		return true;
	}
	if (got != want)
		lrb_mismatch(c, "%s is %lu, expected %lu", key, got, want);
	return true;
}

/* Pages the design document's rule calls the reader page */
static void lrb_expect_rule(struct lrb_expect_ctx *c, int want)
{
	const struct lrb_snapshot *s = c->snap;
	unsigned int id;

	for (id = 0; id < s->nr_pages; id++) {
		bool reader = s->page[s->page[id].prev].next != id;

		if (reader != (want >= 0 && id == (unsigned int)want))
			lrb_mismatch(c, "p%u %s the reader page by the prev rule",
				     id, reader ? "is" : "is not");
	}
}

static void lrb_expect_prop(struct lrb_expect_ctx *c, char *prop)
{
	const struct lrb_snapshot *s = c->snap;
	const struct lrb_snap_page *rp = &s->page[s->reader];
	char *key = strsep(&prop, "="), *val = prop;
	unsigned int got = LRB_SNAP_NONE;
	unsigned long want;
	bool found;
	int id;

	if (!val) {
		lrb_mismatch(c, "bad property '%s'", key);
		return;
	}
	if (!strcmp(key, "staleprev") || lrb_expect_page_field(c, key, val))
		return;
	if (!strcmp(key, "rflag")) {
		if (rp->next_flags != lrb_tok_flag(val))
			lrb_mismatch(c, "reader page next flag %s, expected %s",
				     lrb_kunit_arrow(rp->next_flags), val);
		return;
	}
	want = lrb_snap_counter(s, key, &found);
	if (found) {
		unsigned long v;

		if (kstrtoul(val, 0, &v))
			lrb_mismatch(c, "bad number in %s=%s", key, val);
		else if (v != want)
			lrb_mismatch(c, "%s is %lu, expected %lu", key, want, v);
		return;
	}
	id = !strcmp(val, "-") ? (int)LRB_SNAP_NONE : lrb_tok_page(val);
	if (!strcmp(key, "rule")) {
		lrb_expect_rule(c, id);
		return;
	}
	if (!strcmp(key, "tail"))
		got = s->tail;
	else if (!strcmp(key, "commit"))
		got = s->commit;
	else if (!strcmp(key, "head"))
		got = s->head;
	else if (!strcmp(key, "reader"))
		got = s->reader;
	else if (!strcmp(key, "rnext"))
		got = rp->next;
	else if (!strcmp(key, "rprev"))
		got = rp->prev;
	else if (!strcmp(key, "hint"))
		got = s->head_hint;
	else
		id = -2;
	if (id == -2 || (id < 0 && id != (int)LRB_SNAP_NONE))
		lrb_mismatch(c, "bad property '%s=%s'", key, val);
	else if (got != (unsigned int)id)
		lrb_mismatch(c, "%s is p%d, expected %s", key,
			     got == LRB_SNAP_NONE ? -1 : (int)got, val);
}

/* staleprev=pA:pB: page A's prev is allowed to be (and must be) page B */
static void lrb_expect_stale(struct lrb_expect_ctx *c, const char *props)
{
	const char *p = props;

	while ((p = strstr(p, "staleprev="))) {
		unsigned int ia, ib;

		p += strlen("staleprev=");
		if (sscanf(p, "p%u:p%u", &ia, &ib) != 2 ||
		    ia >= c->snap->nr_pages || ib >= c->snap->nr_pages) {
			lrb_mismatch(c, "bad staleprev");
			return;
		}
		c->stale[ia] = true;
		if (c->snap->page[ia].prev != ib)
			lrb_mismatch(c, "p%u: prev is p%u, expected stale p%u",
				     ia, c->snap->page[ia].prev, ib);
	}
}

/**
 * lrb_kunit_expect - check a snapshot against a state drawn in the design
 *	document's notation
 * @test: the test; each difference is reported to it
 * @snap: the snapshot
 * @ring: NULL, or the ring as "p4 -U-> p1 -H-> p2 --> p3 -->": pages in
 *	next order, each followed by the arrow of its next pointer, the last
 *	arrow pointing back to the first page. Every prev pointer along it
 *	must point back, unless a staleprev property says otherwise.
 * @props: NULL, or space separated properties: tail=, commit=, head= (a
 *	page, or - for none), reader=, rnext=, rprev=, rflag= (N, H or U) of
 *	the reader page, hint= (where the reader starts looking for the
 *	head), rule= (the only page the prev rule calls the reader page),
 *	staleprev=pA:pB, pN.write=, pN.commit=, pN.entries=, pN.read= (a
 *	number of bytes, or "end" for a page's data capacity) and the
 *	counters committing=, committed=, overrun=, entries=, read=,
 *	dropped=, commit_overrun=, pages_lost=, nrH=, nrU=.
 *
 * Return: true if the snapshot is the state described.
 */
bool lrb_kunit_expect(struct kunit *test, const struct lrb_snapshot *snap,
		      const char *ring, const char *props)
{
	return lrb_kunit_expect_layout(test, snap, ring, props, false);
}

/**
 * lrb_kunit_expect_layout - lrb_kunit_expect(), for a ring of another layout
 * @test: the test case
 * @snap: the snapshot
 * @ring: as for lrb_kunit_expect()
 * @props: as for lrb_kunit_expect()
 * @align8: the byte offsets in @props are those of lrb's 4-byte layout
 *	and @snap is a ring of 8-byte aligned events: an offset other than
 *	0 and a full page is only checked to be a multiple of 8
 *
 * Return: true if the snapshot is the state described.
 */
bool lrb_kunit_expect_layout(struct kunit *test, const struct lrb_snapshot *snap,
			     const char *ring, const char *props, bool align8)
{
	struct lrb_expect_ctx c = {
		.test = test, .snap = snap, .ok = true, .align8_offsets = align8,
	};
	char *copy, *p, *tok;

	if (props)
		lrb_expect_stale(&c, props);
	if (ring) {
		copy = kstrdup(ring, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, copy);
		lrb_expect_ring_spec(&c, copy);
		kfree(copy);
	}
	if (props) {
		copy = kstrdup(props, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, copy);
		p = copy;
		while ((tok = strsep(&p, " ")))
			if (*tok)
				lrb_expect_prop(&c, tok);
		kfree(copy);
	}
	return c.ok;
}

MODULE_DESCRIPTION("KUnit suites of the lockless ring buffer");
MODULE_LICENSE("GPL");
