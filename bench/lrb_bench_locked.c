// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's locked baseline: the same kind of per-CPU page ring as lrb
 * and the tracing ring buffer (pages in the sub-buffer format, a reader page
 * outside the ring swapped with the oldest page, the same event headers and
 * time deltas), but every write holds a per-CPU raw spinlock with interrupts
 * off from reserve to commit, and readers take the same lock, as the tracing
 * ring buffer did before it went lockless in 2009. Interrupts cannot nest a
 * write inside another on the same CPU: they wait until the commit.
 */

#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "lrb_bench.h"

#define LKB_HDR		4U
#define LKB_CAPACITY	(PAGE_SIZE - offsetof(struct lrb_data_page, data))
#define LKB_SMALL_MAX	(4U * LRB_TYPE_DATA_TYPE_LEN_MAX)
#define LKB_TS_MASK	((1ULL << LRB_TS_SHIFT) - 1)

/**
 * struct lkb_cpu - one CPU's ring
 * @lock: taken with interrupts off by writers for the whole write and by
 *	readers
 * @irq_flags: the interrupt state to restore at commit (lock held)
 * @nr: slots in @ring
 * @head: slot of the oldest unread page
 * @tail: slot of the page being written
 * @write: bytes reserved on the tail page
 * @last_ts: time of the last event written
 * @ring: the data pages by slot
 * @entries: events on the page of each slot
 * @reader: the reader's page, outside the ring
 * @read: reader's offset in @reader
 * @reader_len: bytes of events in @reader
 * @reader_entries: events in @reader
 * @committed: events committed
 * @overrun: events lost to overwriting
 * @last_overrun: @overrun when the reader last took a page
 * @lost: events lost before the reader page, reported with its first event
 * @dropped: writes refused on a full ring (producer/consumer)
 * @nr_read: events read
 */
struct lkb_cpu {
	raw_spinlock_t		lock;
	unsigned long		irq_flags;
	unsigned int		nr;
	unsigned int		head;
	unsigned int		tail;
	unsigned int		write;
	u64			last_ts;
	struct lrb_data_page	**ring;
	unsigned int		*entries;
	struct lrb_data_page	*reader;
	unsigned int		read;
	unsigned int		reader_len;
	unsigned int		reader_entries;
	unsigned long		committed;
	unsigned long		overrun;
	unsigned long		last_overrun;
	unsigned long		lost;
	unsigned long		dropped;
	unsigned long		nr_read;
};

/**
 * struct lkb_buffer - a ring per possible CPU
 * @overwrite: a full ring loses its oldest page rather than the new event
 * @cpus: the rings, indexed by CPU
 */
struct lkb_buffer {
	bool		overwrite;
	struct lkb_cpu	**cpus;
};

static struct lrb_data_page *lkb_page(void)
{
	return (struct lrb_data_page *)get_zeroed_page(GFP_KERNEL);
}

static void lkb_free_cpu(struct lkb_cpu *c)
{
	unsigned int i;

	if (!c)
		return;
	for (i = 0; c->ring && i < c->nr; i++)
		free_page((unsigned long)c->ring[i]);
	free_page((unsigned long)c->reader);
	kfree(c->ring);
	kfree(c->entries);
	kfree(c);
}

static struct lkb_cpu *lkb_alloc_cpu(unsigned int nr)
{
	struct lkb_cpu *c = kzalloc(sizeof(*c), GFP_KERNEL);
	unsigned int i;

	if (!c)
		return NULL;
	raw_spin_lock_init(&c->lock);
	c->nr = nr;
	c->ring = kcalloc(nr, sizeof(*c->ring), GFP_KERNEL);
	c->entries = kcalloc(nr, sizeof(*c->entries), GFP_KERNEL);
	c->reader = lkb_page();
	if (!c->ring || !c->entries || !c->reader)
		goto fail;
	for (i = 0; i < nr; i++) {
		c->ring[i] = lkb_page();
		if (!c->ring[i])
			goto fail;
	}
	return c;
fail:
	lkb_free_cpu(c);
	return NULL;
}

/**
 * lkb_alloc - allocate a locked baseline buffer
 * @size: bytes of events per CPU (at least two pages' worth are used)
 * @flags: LRB_FL_OVERWRITE or 0
 *
 * Return: the buffer, or NULL.
 */
struct lkb_buffer *lkb_alloc(unsigned long size, unsigned long flags)
{
	unsigned int nr = max_t(unsigned long, 2, DIV_ROUND_UP(size, LKB_CAPACITY));
	struct lkb_buffer *b = kzalloc(sizeof(*b), GFP_KERNEL);
	int cpu;

	if (!b)
		return NULL;
	b->overwrite = flags & LRB_FL_OVERWRITE;
	b->cpus = kcalloc(nr_cpu_ids, sizeof(*b->cpus), GFP_KERNEL);
	if (!b->cpus)
		goto fail;
	for_each_possible_cpu(cpu) {
		b->cpus[cpu] = lkb_alloc_cpu(nr);
		if (!b->cpus[cpu])
			goto fail;
	}
	return b;
fail:
	lkb_free(b);
	return NULL;
}

/**
 * lkb_free - free a buffer from lkb_alloc()
 * @b: the buffer, or NULL
 */
void lkb_free(struct lkb_buffer *b)
{
	int cpu;

	if (!b)
		return;
	for_each_possible_cpu(cpu)
		if (b->cpus)
			lkb_free_cpu(b->cpus[cpu]);
	kfree(b->cpus);
	kfree(b);
}

static unsigned int lkb_next(struct lkb_cpu *c, unsigned int slot)
{
	return slot + 1 == c->nr ? 0 : slot + 1;
}

/* Close the tail page and open the next slot; false if the ring is full */
static bool lkb_move_tail(struct lkb_buffer *b, struct lkb_cpu *c)
{
	unsigned int next = lkb_next(c, c->tail);
	struct lrb_data_page *page = c->ring[c->tail];
	struct lrb_event *pad;

	if (next == c->head) {
		if (!b->overwrite)
			return false;
		c->overrun += c->entries[c->head];
		c->head = lkb_next(c, c->head);
	}
	if (c->write < LKB_CAPACITY) {
		pad = (struct lrb_event *)&page->data[c->write];
		pad->type_len = LRB_TYPE_PADDING;
		if (c->write + 8 <= LKB_CAPACITY) {
			pad->time_delta = 1;
			pad->array[0] = LKB_CAPACITY - c->write - LKB_HDR;
		} else {
			pad->time_delta = 0;
		}
	}
	local_set(&page->commit, LKB_CAPACITY);
	c->tail = next;
	c->write = 0;
	c->entries[next] = 0;
	local_set(&c->ring[next]->commit, 0);
	return true;
}

/**
 * lkb_lock_reserve - reserve an event on this CPU, taking its lock
 * @b: the buffer
 * @length: payload bytes, 1 .. a page minus 24
 *
 * Takes the CPU's lock with interrupts off until lkb_unlock_commit().
 * Sparse cannot follow a lock held on one return value only: for it, a
 * NULL return holds the lock too, and the caller's NULL branch releases it
 * with __release(), as __cond_lock() does for a trylock.
 *
 * Return: the event, or NULL (nothing held) if the ring is full in
 * producer/consumer mode or @length is invalid.
 */
void *lkb_lock_reserve(struct lkb_buffer *b, unsigned int length)
	__acquires(lkb_cpu_lock)
{
	unsigned int size = length, need;
	struct lrb_data_page *page;
	struct lrb_event *ev;
	unsigned long flags;
	struct lkb_cpu *c;
	u64 ts, delta;

	if (unlikely(!length || length > LKB_CAPACITY - 8)) {
		__acquire(lkb_cpu_lock);
		return NULL;
	}
	if (size > LKB_SMALL_MAX)
		size += 4;
	size = ALIGN(size + LKB_HDR, 4);

	raw_local_irq_save(flags);
	c = b->cpus[raw_smp_processor_id()];
	raw_spin_lock(&c->lock);
	ts = local_clock();
	if (ts < c->last_ts)
		ts = c->last_ts;
	delta = ts - c->last_ts;
	need = size + (delta > LKB_TS_MASK ? 8 : 0);
	if (unlikely(c->write + need > LKB_CAPACITY)) {
		if (!lkb_move_tail(b, c)) {
			c->dropped++;
			raw_spin_unlock(&c->lock);
			raw_local_irq_restore(flags);
			__acquire(lkb_cpu_lock);
			return NULL;
		}
		need = size;
	}
	page = c->ring[c->tail];
	ev = (struct lrb_event *)&page->data[c->write];
	if (!c->write) {
		page->time_stamp = ts;
		delta = 0;
	} else if (need > size) {
		/* A time extend in front of the event */
		ev->type_len = LRB_TYPE_TIME_EXTEND;
		ev->time_delta = delta & LKB_TS_MASK;
		ev->array[0] = delta >> LRB_TS_SHIFT;
		ev = (void *)ev + 8;
		delta = 0;
	}
	ev->time_delta = delta;
	if (length > LKB_SMALL_MAX) {
		ev->type_len = 0;
		ev->array[0] = size - LKB_HDR;
	} else {
		ev->type_len = DIV_ROUND_UP(length, 4);
	}
	c->write += need;
	c->entries[c->tail]++;
	c->last_ts = ts;
	c->irq_flags = flags;
	return ev;
}

/**
 * lkb_unlock_commit - commit the event lkb_lock_reserve() returned
 * @b: the buffer
 *
 * Releases the CPU's lock and restores interrupts.
 */
void lkb_unlock_commit(struct lkb_buffer *b)
	__releases(lkb_cpu_lock)
{
	struct lkb_cpu *c = b->cpus[raw_smp_processor_id()];

	local_set(&c->ring[c->tail]->commit, c->write);
	c->committed++;
	raw_spin_unlock(&c->lock);
	raw_local_irq_restore(c->irq_flags);
}

/**
 * lkb_event_data - payload of an event
 * @event: an event from lkb_lock_reserve() or lkb_consume()
 *
 * Return: the payload.
 */
void *lkb_event_data(void *event)
{
	struct lrb_event *ev = event;

	return ev->type_len ? &ev->array[0] : &ev->array[1];
}

/*
 * Make sure the reader page has something to read, taking the oldest page
 * of the ring (and closing the tail page if that is the only one with
 * events). Lock held.
 */
static bool lkb_get_reader_page(struct lkb_cpu *c)
{
	struct lrb_data_page *page;

	if (c->read < c->reader_len)
		return true;
	if (c->head == c->tail) {
		if (!c->write)
			return false;
		/* Only the tail page has events: the writer starts a new one */
		local_set(&c->ring[c->tail]->commit, c->write);
		c->tail = lkb_next(c, c->tail);
		c->write = 0;
		c->entries[c->tail] = 0;
		local_set(&c->ring[c->tail]->commit, 0);
	}
	page = c->ring[c->head];
	c->ring[c->head] = c->reader;
	c->reader = page;
	c->reader_len = local_read(&page->commit);
	c->reader_entries = c->entries[c->head];
	c->read = 0;
	c->lost = c->overrun - c->last_overrun;
	c->last_overrun = c->overrun;
	c->head = lkb_next(c, c->head);
	return true;
}

static unsigned int lkb_event_bytes(struct lrb_event *ev)
{
	switch (ev->type_len) {
	case LRB_TYPE_PADDING:
		return ev->time_delta ? ev->array[0] + LKB_HDR : 0;
	case LRB_TYPE_TIME_EXTEND:
	case LRB_TYPE_TIME_STAMP:
		return 8;
	case 0:
		return ev->array[0] + LKB_HDR;
	default:
		return ev->type_len * 4 + LKB_HDR;
	}
}

/**
 * lkb_consume - read and consume the next event of a CPU
 * @b: the buffer
 * @cpu: the CPU whose events to read
 * @lost: if not NULL, events lost before this one
 *
 * Return: the event, valid until the next read of @cpu, or NULL.
 */
void *lkb_consume(struct lkb_buffer *b, int cpu, unsigned long *lost)
{
	struct lkb_cpu *c = b->cpus[cpu];
	struct lrb_event *ev = NULL;
	unsigned long flags;
	unsigned int bytes, loops = 0;

	raw_spin_lock_irqsave(&c->lock, flags);
	while (++loops < LKB_CAPACITY / 4 && lkb_get_reader_page(c)) {
		ev = (struct lrb_event *)&c->reader->data[c->read];
		bytes = lkb_event_bytes(ev);
		if (ev->type_len == LRB_TYPE_PADDING) {
			c->read = bytes ? c->read + bytes : c->reader_len;
		} else if (ev->type_len == LRB_TYPE_TIME_EXTEND) {
			c->read += bytes;
		} else {
			c->read += bytes;
			c->nr_read++;
			c->reader_entries--;
			if (lost)
				*lost = c->lost;
			c->lost = 0;
			break;
		}
		ev = NULL;
	}
	raw_spin_unlock_irqrestore(&c->lock, flags);
	return ev;
}

/**
 * lkb_alloc_read_page - a page for lkb_read_page()
 * @b: the buffer
 * @cpu: the CPU it will read
 *
 * Return: the page, or NULL.
 */
void *lkb_alloc_read_page(struct lkb_buffer *b, int cpu)
{
	return lkb_page();
}

/**
 * lkb_free_read_page - free a page from lkb_alloc_read_page()
 * @page: the page, or NULL
 */
void lkb_free_read_page(void *page)
{
	free_page((unsigned long)page);
}

/**
 * lkb_read_page - consume the rest of the reader page or the oldest page
 * @b: the buffer
 * @page: in: a page from lkb_alloc_read_page(); out: the page read (an
 *	unread page is swapped, not copied)
 * @cpu: the CPU to read
 *
 * Return: bytes of events in *@page, or 0 if there was nothing to read.
 */
int lkb_read_page(struct lkb_buffer *b, void **page, int cpu)
{
	struct lkb_cpu *c = b->cpus[cpu];
	struct lrb_data_page *dst = *page, *src;
	unsigned long flags;
	int ret = 0;

	raw_spin_lock_irqsave(&c->lock, flags);
	if (!lkb_get_reader_page(c))
		goto out;
	src = c->reader;
	if (!c->read) {
		/* Untouched: hand the page over and keep the empty one */
		c->reader = dst;
		*page = src;
		ret = c->reader_len;
	} else {
		ret = c->reader_len - c->read;
		memcpy(dst->data, &src->data[c->read], ret);
		dst->time_stamp = src->time_stamp;
		local_set(&dst->commit, ret);
	}
	c->nr_read += c->reader_entries;
	c->reader_entries = 0;
	c->read = 0;
	c->reader_len = 0;
	c->lost = 0;
out:
	raw_spin_unlock_irqrestore(&c->lock, flags);
	return ret;
}

/**
 * lkb_read_events_cpu - events read from a CPU
 * @b: the buffer
 * @cpu: the CPU
 *
 * Return: the count.
 */
unsigned long lkb_read_events_cpu(struct lkb_buffer *b, int cpu)
{
	return READ_ONCE(b->cpus[cpu]->nr_read);
}

/**
 * lkb_entries_cpu - events of a CPU not read nor overwritten
 * @b: the buffer
 * @cpu: the CPU
 *
 * Return: the count.
 */
unsigned long lkb_entries_cpu(struct lkb_buffer *b, int cpu)
{
	struct lkb_cpu *c = b->cpus[cpu];
	unsigned long flags, n;

	raw_spin_lock_irqsave(&c->lock, flags);
	n = c->committed - c->overrun - c->nr_read;
	raw_spin_unlock_irqrestore(&c->lock, flags);
	return n;
}
