// SPDX-License-Identifier: GPL-2.0
/*
 * The ring renderer of the lockless ring buffer KUnit suites: a snapshot
 * (lrb's, or the kernel's converted by lrb_krb_snapshot.c) drawn in the
 * design document's notation, boxes in the order the document draws them,
 * with a table of every page's pointers and indexes and the counters.
 */

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "lrb_kunit.h"

/* ---- the ring in the design document's notation ------------------------- */

#define LRB_KUNIT_CANVAS_WIDTH	400
#define LRB_KUNIT_CANVAS_MARGIN	12	/* column of the first ring box */
#define LRB_KUNIT_CANVAS_STRIDE	10	/* box (6) + arrow (4) */

struct lrb_kunit_canvas {
	char	line[7][LRB_KUNIT_CANVAS_WIDTH];
};

static void lrb_kunit_canvas_init(struct lrb_kunit_canvas *c)
{
	memset(c->line, ' ', sizeof(c->line));
}

static void lrb_kunit_canvas_put(struct lrb_kunit_canvas *c, int row, int col,
				 const char *s)
{
	int n = strlen(s);

	if (col < 0 || col + n >= LRB_KUNIT_CANVAS_WIDTH - 1)
		return;
	memcpy(&c->line[row][col], s, n);
}

static void lrb_kunit_canvas_print(struct kunit *test,
				   struct lrb_kunit_canvas *c, int rows)
{
	int r, end;

	for (r = 0; r < rows; r++) {
		for (end = LRB_KUNIT_CANVAS_WIDTH - 2;
		     end > 0 && c->line[r][end] == ' '; end--)
			;
		c->line[r][end + 1] = '\0';
		lrb_kunit_line(test, "%s", c->line[r]);
	}
}

/**
 * lrb_kunit_arrow - a next pointer with its flags, as the document draws it
 * @flags: LRB_SNAP_HEADER, LRB_SNAP_UPDATE or 0
 *
 * Return: "-H->", "-U->" or "--->".
 */
const char *lrb_kunit_arrow(unsigned int flags)
{
	switch (flags) {
	case LRB_SNAP_HEADER:
		return "-H->";
	case LRB_SNAP_UPDATE:
		return "-U->";
	default:
		return "--->";
	}
}

/* "tail,commit" style label of the markers on a page */
static void lrb_kunit_markers(const struct lrb_snapshot *snap, unsigned int id,
			      char *buf, size_t len)
{
	static const char * const names[] = { "head", "tail", "commit" };
	unsigned int ids[] = { snap->head, snap->tail, snap->commit };
	unsigned int i;
	size_t n = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		if (ids[i] != id)
			continue;
		n += scnprintf(buf + n, len - n, "%s%s", n ? "," : "",
			       names[i]);
	}
}

/**
 * lrb_kunit_ring_pos - where a page is in a snapshot's ring
 * @snap: the snapshot
 * @id: the page
 *
 * Return: its position in @snap->ring, or -1 if it is not in the ring.
 */
int lrb_kunit_ring_pos(const struct lrb_snapshot *snap, unsigned int id)
{
	unsigned int i;

	for (i = 0; i < snap->ring_len; i++)
		if (snap->ring[i] == id)
			return i;
	return -1;
}

/* The ring drawn from its box at position off of snap->ring */
struct lrb_kunit_drawing {
	const struct lrb_snapshot	*snap;
	unsigned int			off;
};

static unsigned int lrb_kunit_box_id(const struct lrb_kunit_drawing *d,
				     unsigned int box)
{
	return d->snap->ring[(d->off + box) % d->snap->ring_len];
}

/* The page outside the ring: the reader page, or the one a swap takes */
static void lrb_kunit_render_reader(struct kunit *test,
				    struct lrb_kunit_canvas *c,
				    const struct lrb_kunit_drawing *d)
{
	const struct lrb_snapshot *snap = d->snap;
	unsigned int out = snap->outside;
	const struct lrb_snap_page *rp;
	char label[32], box[16];
	int col, x, pos;

	if (out == LRB_SNAP_NONE)
		return;
	rp = &snap->page[out];
	pos = lrb_kunit_ring_pos(snap, rp->next);
	lrb_kunit_canvas_init(c);
	lrb_kunit_markers(snap, out, label, sizeof(label));
	lrb_kunit_canvas_put(c, 0, 0, out == snap->reader ? "reader page" :
			     "page being taken by the reader");
	lrb_kunit_canvas_put(c, 1, 0, "+----+");
	snprintf(box, sizeof(box), "| p%-2u|", rp->id);
	lrb_kunit_canvas_put(c, 2, 0, box);
	lrb_kunit_canvas_put(c, 3, 0, "+----+");
	if (label[0]) {
		lrb_kunit_canvas_put(c, 1, 8, "<- ");
		lrb_kunit_canvas_put(c, 1, 11, label);
	}
	if (pos < 0) {
		lrb_kunit_canvas_put(c, 2, 6, "---> (outside the ring)");
		lrb_kunit_canvas_print(test, c, 4);
		return;
	}
	pos = (pos + snap->ring_len - d->off) % snap->ring_len;
	x = LRB_KUNIT_CANVAS_MARGIN + pos * LRB_KUNIT_CANVAS_STRIDE + 3;
	for (col = 6; col < x; col++)
		c->line[2][col] = '-';
	if (rp->next_flags == LRB_SNAP_HEADER)
		c->line[2][7] = 'H';
	else if (rp->next_flags == LRB_SNAP_UPDATE)
		c->line[2][7] = 'U';
	c->line[2][x] = '+';
	c->line[3][x] = '|';
	c->line[4][x] = 'v';
	lrb_kunit_canvas_print(test, c, 5);
}

static void lrb_kunit_render_ring(struct kunit *test, struct lrb_kunit_canvas *c,
				  const struct lrb_kunit_drawing *d)
{
	const struct lrb_snapshot *snap = d->snap;
	unsigned int i, n = snap->ring_len;
	char box[16], label[32];
	int x, rows = 4, end = 0;

	lrb_kunit_canvas_init(c);
	for (i = 0; i < n; i++) {
		const struct lrb_snap_page *p = &snap->page[lrb_kunit_box_id(d, i)];
		const struct lrb_snap_page *nx;

		x = LRB_KUNIT_CANVAS_MARGIN + i * LRB_KUNIT_CANVAS_STRIDE;
		lrb_kunit_canvas_put(c, 0, x, "+----+");
		snprintf(box, sizeof(box), "| p%-2u|", p->id);
		lrb_kunit_canvas_put(c, 1, x, box);
		lrb_kunit_canvas_put(c, 2, x, "|    |");
		lrb_kunit_canvas_put(c, 3, x, "+----+");
		/* next pointer of this page, prev pointer of the next one */
		lrb_kunit_canvas_put(c, 1, x + 6, lrb_kunit_arrow(p->next_flags));
		nx = &snap->page[lrb_kunit_box_id(d, i + 1)];
		lrb_kunit_canvas_put(c, 2, x + 6, nx->prev == p->id ? "<---" : "<-x-");

		lrb_kunit_markers(snap, p->id, label, sizeof(label));
		if (!label[0])
			continue;
		lrb_kunit_canvas_put(c, 4, x + 3, "^");
		if (x > end) {
			lrb_kunit_canvas_put(c, 5, x, label);
			end = x + strlen(label);
			rows = max(rows, 6);
		} else {
			/* It would run into the label on its left: one line lower */
			if (x + 3 > end)
				lrb_kunit_canvas_put(c, 5, x + 3, "|");
			lrb_kunit_canvas_put(c, 6, x, label);
			rows = 7;
		}
	}
	/* The wrap-around: the last page's next, the first page's prev */
	lrb_kunit_canvas_put(c, 1, LRB_KUNIT_CANVAS_MARGIN - 4, "<---");
	lrb_kunit_canvas_put(c, 2, LRB_KUNIT_CANVAS_MARGIN - 4, "--->");
	lrb_kunit_canvas_print(test, c, rows);
}

static void lrb_kunit_render_table(struct kunit *test,
				   const struct lrb_snapshot *snap)
{
	unsigned int i;

	lrb_kunit_line(test, "page next  prev   write commit entries  read  time_stamp");
	for (i = 0; i < snap->nr_pages; i++) {
		const struct lrb_snap_page *p = &snap->page[i];

		lrb_kunit_line(test, "p%-3u p%-2u%s  p%-3u %6lu %6lu %7lu %5u  %llu%s",
			       p->id, p->next,
			       p->next_flags == LRB_SNAP_HEADER ? "H" :
			       p->next_flags == LRB_SNAP_UPDATE ? "U" : " ",
			       p->prev, p->write, p->commit, p->entries,
			       p->read, p->time_stamp,
			       i == snap->reader ? "  (reader page)" : "");
	}
}

/**
 * lrb_kunit_render_from - print a ring snapshot in the design document's
 *	notation, its boxes starting at a given page
 * @test: the test whose log receives it
 * @snap: the snapshot
 * @title: a line printed first
 * @first: id of the page drawn as the first box (a scenario puts its pages
 *	in the boxes the document draws them in), or LRB_SNAP_NONE for the
 *	lowest-id page of the ring
 *
 * The reader page is drawn above the ring with its next pointer; the ring
 * follows next pointers, "-H->" and "-U->" being the flagged pointers and
 * "<-x-" a prev pointer that does not point back; "^" marks the head, tail
 * and commit pages. A table of every page's indexes follows.
 */
void lrb_kunit_render_from(struct kunit *test, const struct lrb_snapshot *snap,
			   const char *title, unsigned int first)
{
	struct lrb_kunit_drawing d = { .snap = snap };
	struct lrb_kunit_canvas *canvas;
	char head[16] = "none";
	int pos = first == LRB_SNAP_NONE ? -1 : lrb_kunit_ring_pos(snap, first);

	if (pos > 0)
		d.off = pos;
	if (snap->head != LRB_SNAP_NONE)
		snprintf(head, sizeof(head), "p%u", snap->head);
	lrb_kunit_line(test, "%s", title);
	lrb_kunit_line(test,
		       "CPU %d: head %s tail p%u commit p%u reader p%u, %ld writer(s) in flight%s%s",
		       snap->cpu, head, snap->tail, snap->commit, snap->reader,
		       snap->committing,
		       snap->ring_ok ? "" : ", prev pointers not all back",
		       snap->stats.broken ? ", broken: recording stopped" : "");
	/* The drawing is too big for the stack of a frame-size-checked build */
	canvas = kmalloc(sizeof(*canvas), GFP_KERNEL);
	if (canvas && snap->ring_len) {
		lrb_kunit_render_reader(test, canvas, &d);
		lrb_kunit_render_ring(test, canvas, &d);
	} else {
		lrb_kunit_line(test, "(no drawing: %s)",
			       canvas ? "no ring" : "no memory");
	}
	kfree(canvas);
	lrb_kunit_render_table(test, snap);
	lrb_kunit_line(test,
		       "committed %lu read %lu overrun %lu entries %lu commit_overrun %lu dropped %lu rejected %lu",
		       snap->stats.committed, snap->stats.read,
		       snap->stats.overrun, snap->stats.entries,
		       snap->stats.commit_overrun, snap->stats.dropped,
		       snap->stats.rejected);
}

/**
 * lrb_kunit_render - print a ring snapshot in the design document's notation
 * @test: the test whose log receives it
 * @snap: the snapshot
 * @title: a line printed first
 *
 * As lrb_kunit_render_from(), the ring drawn from its lowest-id page.
 */
void lrb_kunit_render(struct kunit *test, const struct lrb_snapshot *snap,
		      const char *title)
{
	lrb_kunit_render_from(test, snap, title, LRB_SNAP_NONE);
}

#if IS_ENABLED(CONFIG_LOCKLESS_RING_BUFFER_KUNIT_TEST)
/**
 * lrb_kunit_dump - snapshot and print one CPU's ring
 * @test: the test
 * @b: the buffer
 * @cpu: the CPU
 * @title: a line printed first
 */
void lrb_kunit_dump(struct kunit *test, struct lrb_buffer *b, int cpu,
		    const char *title)
{
	struct lrb_snapshot *snap;

	snap = kmalloc(sizeof(*snap), GFP_KERNEL);
	if (!snap)
		return;
	if (!lrb_snapshot(b, cpu, snap))
		lrb_kunit_render(test, snap, title);
	else
		lrb_kunit_line(test, "%s: no snapshot of CPU %d", title, cpu);
	kfree(snap);
}
#endif
