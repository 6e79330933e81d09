// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's tracing ring buffer seen through lrb's inspector: a snapshot
 * of one CPU's ring taken by ring_buffer_test_snapshot() (series patch 2)
 * and copied into a struct lrb_snapshot, so that lrb_kunit_render() draws it
 * and lrb_kunit_expect() checks it in the design document's notation,
 * exactly as they do lrb's rings.
 */

#include <linux/cpumask.h>
#include <linux/ring_buffer.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ring_buffer_test.h"
#include "lrb_kunit.h"

/**
 * lrb_kunit_krb_convert - a snapshot of the kernel's inspector in lrb's terms
 * @ks: what ring_buffer_test_snapshot() filled
 * @snap: receives the same ring as lrb's inspector would describe it
 *
 * See lrb_kunit_krb_snapshot() for how pages and counters map.
 *
 * Context: any context.
 */
void lrb_kunit_krb_convert(const struct rb_test_snapshot *ks,
			   struct lrb_snapshot *snap)
{
	bool in_ring[LRB_SNAP_MAX_PAGES] = { };
	unsigned int i, first = 0;

	memset(snap, 0, sizeof(*snap));
	snap->cpu = ks->cpu;
	snap->nr_pages = ks->nr_pages;
	for (i = 0; i < ks->nr_pages; i++) {
		const struct rb_test_snap_page *kp = &ks->page[i];
		struct lrb_snap_page *p = &snap->page[i];

		p->id = i;
		p->next = kp->next;
		p->next_flags = kp->next_flags;
		p->prev = kp->prev;
		p->write = kp->write;
		p->entries = kp->entries;
		p->commit = kp->commit;
		p->read = kp->read;
		p->time_stamp = kp->time_stamp;
	}

	/* The kernel lists the ring from its head, lrb from its lowest id */
	for (i = 1; i < ks->ring_len; i++)
		if (ks->ring[i] < ks->ring[first])
			first = i;
	for (i = 0; i < ks->ring_len; i++) {
		snap->ring[i] = ks->ring[(first + i) % ks->ring_len];
		in_ring[snap->ring[i]] = true;
	}
	snap->ring_len = ks->ring_len;
	snap->ring_ok = ks->ring_ok;
	snap->outside = LRB_SNAP_NONE;
	for (i = 0; i < ks->nr_pages; i++) {
		if (!in_ring[i]) {
			snap->outside = i;
			break;
		}
	}

	snap->reader = ks->reader;
	snap->head = ks->head;
	snap->tail = ks->tail;
	snap->commit = ks->commit;
	snap->head_hint = ks->head_page;
	snap->nr_header = ks->nr_header;
	snap->nr_update = ks->nr_update;
	snap->committing = ks->committing;
	snap->record_disabled = ks->record_disabled;
	snap->write_stamp = ks->write_stamp;
	snap->read_stamp = ks->read_stamp;

	/* The kernel's entries count every commit; lrb's, what is left */
	snap->stats.committed = ks->entries;
	snap->stats.read = ks->read;
	snap->stats.overrun = ks->overrun;
	if (ks->entries >= ks->overrun + ks->read)
		snap->stats.entries = ks->entries - ks->overrun - ks->read;
	snap->stats.commit_overrun = ks->commit_overrun;
	snap->stats.dropped = ks->dropped;
	snap->stats.pages_lost = ks->pages_lost;
}

/**
 * lrb_kunit_krb_snapshot - snapshot one CPU's ring of the kernel's tracing
 *	ring buffer as lrb's inspector would
 * @b: the kernel's buffer
 * @cpu: the CPU
 * @snap: receives the snapshot
 *
 * Page pN is the page the kernel's inspector names N: its allocation order,
 * so p0 is the reader page the buffer was allocated with and p1 its first
 * head page. The page outside the ring is the one the renderer draws as
 * the reader page. The counters map to lrb's: committed is the kernel's
 * entries, entries what is left of them once read and overrun are taken
 * out; rejected, recursion and broken stay 0, the kernel has no such
 * counts. Unlike lrb's, every page shows its read index, the reader page's
 * being the one that counts.
 *
 * Context: any context but NMI: it allocates the kernel's snapshot, a few
 * kilobytes, with GFP_ATOMIC. Exact on a quiescent ring or at a hook point.
 *
 * Return: 0, -EOPNOTSUPP without CONFIG_RING_BUFFER_TEST_HOOKS, -ENOMEM, or
 * the error of ring_buffer_test_snapshot().
 */
int lrb_kunit_krb_snapshot(struct trace_buffer *b, int cpu,
			   struct lrb_snapshot *snap)
{
	struct rb_test_snapshot *ks;
	int ret;

	BUILD_BUG_ON(RB_TEST_SNAP_MAX_PAGES > LRB_SNAP_MAX_PAGES);
	BUILD_BUG_ON(RB_TEST_SNAP_NONE != LRB_SNAP_NONE);
	BUILD_BUG_ON(RB_TEST_SNAP_HEAD != LRB_SNAP_HEADER);
	BUILD_BUG_ON(RB_TEST_SNAP_UPDATE != LRB_SNAP_UPDATE);

	if (!IS_ENABLED(CONFIG_RING_BUFFER_TEST_HOOKS))
		return -EOPNOTSUPP;
	ks = kmalloc(sizeof(*ks), GFP_ATOMIC);
	if (!ks)
		return -ENOMEM;
	ret = ring_buffer_test_snapshot(b, cpu, ks);
	if (!ret)
		lrb_kunit_krb_convert(ks, snap);
	kfree(ks);
	return ret;
}

/**
 * lrb_kunit_krb_stats - the counters of one CPU of the kernel's buffer, in
 *	lrb's terms
 * @b: the kernel's buffer
 * @cpu: the CPU
 * @st: receives them; committed is the kernel's entries plus overrun and
 *	read, rejected, recursion and broken stay 0
 *
 * Each counter is read on its own, with writers possibly running: unlike
 * lrb_stats_cpu(), they add up only while no writer is in flight.
 *
 * Context: any context.
 * Return: 0, or -EINVAL for a CPU that is not online.
 */
int lrb_kunit_krb_stats(struct trace_buffer *b, int cpu, struct lrb_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (cpu < 0 || cpu >= nr_cpu_ids || !cpu_online(cpu))
		return -EINVAL;
	st->read = ring_buffer_read_events_cpu(b, cpu);
	st->overrun = ring_buffer_overrun_cpu(b, cpu);
	st->entries = ring_buffer_entries_cpu(b, cpu);
	/* entries is the committed count minus overrun and read */
	st->committed = st->entries + st->overrun + st->read;
	st->commit_overrun = ring_buffer_commit_overrun_cpu(b, cpu);
	st->dropped = ring_buffer_dropped_events_cpu(b, cpu);
	return 0;
}
