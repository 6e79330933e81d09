// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_bench: lrb, the tracing ring buffer and the locked baseline behind
 * one interface. Each loop is instantiated once per implementation, so the
 * timed loops call the implementation's functions directly, and every write
 * copies its payload like a real user would.
 */

#include <linux/err.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/string.h>

#include "lrb_bench.h"

/* The largest payload the benchmark writes */
#define BENCH_MAX_PAYLOAD	256

static u8 bench_src[BENCH_MAX_PAYLOAD] __aligned(8);

/* Where the floors copy the payload: a store the compiler must keep */
struct bench_sink {
	u8	data[BENCH_MAX_PAYLOAD];
	u64	ts;
};

static DEFINE_PER_CPU_ALIGNED(struct bench_sink, bench_sink);

const char *const bench_impl_names[BENCH_NR_KINDS] = {
	[BENCH_LRB] = "lrb",
	[BENCH_KERNEL] = "kernel",
	[BENCH_LOCKED] = "locked",
	[BENCH_FLOOR_COPY] = "floor_copy",
	[BENCH_FLOOR_CLOCK] = "floor_clock",
};

/**
 * bench_buf_alloc - allocate the buffer of one implementation
 * @b: receives the buffer
 * @impl: the implementation
 * @size: bytes per CPU
 * @overwrite: overwrite mode rather than producer/consumer
 *
 * Return: 0 or -ENOMEM.
 */
int bench_buf_alloc(struct bench_buf *b, enum bench_impl impl,
		    unsigned long size, bool overwrite)
{
	unsigned int i;

	for (i = 0; i < sizeof(bench_src); i++)
		bench_src[i] = i;
	memset(b, 0, sizeof(*b));
	b->impl = impl;
	switch (impl) {
	case BENCH_LRB:
		b->lrb = lrb_alloc(size, overwrite ? LRB_FL_OVERWRITE : 0);
		return IS_ERR_OR_NULL(b->lrb) ? -ENOMEM : 0;
	case BENCH_KERNEL:
		b->krb = ring_buffer_alloc(size, overwrite ? RB_FL_OVERWRITE : 0);
		return b->krb ? 0 : -ENOMEM;
	case BENCH_LOCKED:
		b->lkb = lkb_alloc(size, overwrite ? LRB_FL_OVERWRITE : 0);
		return b->lkb ? 0 : -ENOMEM;
	case BENCH_FLOOR_COPY:
	case BENCH_FLOOR_CLOCK:
		return 0;
	default:
		return -EINVAL;
	}
}

/**
 * bench_buf_free - free a buffer from bench_buf_alloc()
 * @b: the buffer
 */
void bench_buf_free(struct bench_buf *b)
{
	if (!IS_ERR_OR_NULL(b->lrb))
		lrb_free(b->lrb);
	if (b->krb)
		ring_buffer_free(b->krb);
	lkb_free(b->lkb);
	memset(b, 0, sizeof(*b));
}

/* ---- writes -------------------------------------------------------------- */

static __always_inline bool bench_write_lrb(struct bench_buf *b,
					    unsigned int len)
{
	struct lrb_event *ev = lrb_lock_reserve(b->lrb, len);

	if (unlikely(!ev))
		return false;
	memcpy(lrb_event_data(ev), bench_src, len);
	lrb_unlock_commit(b->lrb, ev);
	return true;
}

static __always_inline bool bench_write_kernel(struct bench_buf *b,
					       unsigned int len)
{
	struct ring_buffer_event *ev = ring_buffer_lock_reserve(b->krb, len);

	if (unlikely(!ev))
		return false;
	memcpy(ring_buffer_event_data(ev), bench_src, len);
	ring_buffer_unlock_commit(b->krb);
	return true;
}

static __always_inline bool bench_write_locked(struct bench_buf *b,
					       unsigned int len)
{
	void *ev = lkb_lock_reserve(b->lkb, len);

	if (unlikely(!ev)) {
		__release(lkb_cpu_lock);	/* for sparse: NULL holds nothing */
		return false;
	}
	memcpy(lkb_event_data(ev), bench_src, len);
	lkb_unlock_commit(b->lkb);
	return true;
}

static __always_inline bool bench_write_floor_copy(struct bench_buf *b,
						   unsigned int len)
{
	preempt_disable_notrace();
	memcpy(this_cpu_ptr(&bench_sink)->data, bench_src, len);
	preempt_enable_notrace();
	return true;
}

static __always_inline bool bench_write_floor_clock(struct bench_buf *b,
						    unsigned int len)
{
	struct bench_sink *sink;

	preempt_disable_notrace();
	sink = this_cpu_ptr(&bench_sink);
	sink->ts = local_clock_noinstr();
	memcpy(sink->data, bench_src, len);
	preempt_enable_notrace();
	return true;
}

#define BENCH_WRITE_LOOP(impl)						\
static noinline unsigned long bench_write_n_##impl(struct bench_buf *b,	\
						   unsigned long n,	\
						   unsigned int len)	\
{									\
	unsigned long i, ok = 0;					\
									\
	for (i = 0; i < n; i++)						\
		ok += bench_write_##impl(b, len);			\
	return ok;							\
}

BENCH_WRITE_LOOP(lrb)
BENCH_WRITE_LOOP(kernel)
BENCH_WRITE_LOOP(locked)
BENCH_WRITE_LOOP(floor_copy)
BENCH_WRITE_LOOP(floor_clock)

/**
 * bench_write_n - write events on the current CPU
 * @b: the buffer
 * @n: how many writes to attempt
 * @len: payload bytes, at most 256
 *
 * The caller keeps the task on its CPU.
 *
 * Return: the writes that succeeded.
 */
unsigned long bench_write_n(struct bench_buf *b, unsigned long n,
			    unsigned int len)
{
	len = min_t(unsigned int, len, BENCH_MAX_PAYLOAD);
	switch (b->impl) {
	case BENCH_LRB:
		return bench_write_n_lrb(b, n, len);
	case BENCH_KERNEL:
		return bench_write_n_kernel(b, n, len);
	case BENCH_LOCKED:
		return bench_write_n_locked(b, n, len);
	case BENCH_FLOOR_COPY:
		return bench_write_n_floor_copy(b, n, len);
	case BENCH_FLOOR_CLOCK:
		return bench_write_n_floor_clock(b, n, len);
	default:
		return 0;
	}
}

/**
 * bench_write_one - write one event on the current CPU, any context
 * @b: the buffer
 * @len: payload bytes, at most 256
 *
 * Return: whether it was written.
 */
bool bench_write_one(struct bench_buf *b, unsigned int len)
{
	return bench_write_n(b, 1, len) == 1;
}

/* ---- reads --------------------------------------------------------------- */

#define BENCH_CONSUME_LOOP(impl, call)					\
static noinline unsigned long bench_consume_n_##impl(struct bench_buf *b,	\
						     int cpu,		\
						     unsigned long n)	\
{									\
	unsigned long i, lost;						\
									\
	for (i = 0; i < n; i++)						\
		if (!(call))						\
			break;						\
	return i;							\
}

BENCH_CONSUME_LOOP(lrb, lrb_consume(b->lrb, cpu, NULL, &lost))
BENCH_CONSUME_LOOP(kernel, ring_buffer_consume(b->krb, cpu, NULL, &lost))
BENCH_CONSUME_LOOP(locked, lkb_consume(b->lkb, cpu, &lost))

/**
 * bench_consume_n - consume up to n events of a CPU
 * @b: the buffer
 * @cpu: the CPU whose events to read
 * @n: the most to read
 *
 * Return: the events consumed; fewer than @n if the CPU ran out.
 */
unsigned long bench_consume_n(struct bench_buf *b, int cpu, unsigned long n)
{
	switch (b->impl) {
	case BENCH_LRB:
		return bench_consume_n_lrb(b, cpu, n);
	case BENCH_KERNEL:
		return bench_consume_n_kernel(b, cpu, n);
	case BENCH_LOCKED:
		return bench_consume_n_locked(b, cpu, n);
	default:
		return 0;
	}
}

/**
 * bench_page_alloc - set up a whole-page reader of one CPU
 * @p: receives the reader
 * @b: the buffer
 * @cpu: the CPU to read
 *
 * Return: 0 or a negative error.
 */
int bench_page_alloc(struct bench_page *p, struct bench_buf *b, int cpu)
{
	memset(p, 0, sizeof(*p));
	p->buf = b;
	p->cpu = cpu;
	switch (b->impl) {
	case BENCH_LRB:
		p->data = lrb_alloc_read_page(b->lrb, cpu);
		if (IS_ERR(p->data)) {
			int ret = PTR_ERR(p->data);

			p->data = NULL;
			return ret;
		}
		return 0;
	case BENCH_KERNEL:
		return ring_buffer_alloc_read_page(b->krb, cpu, &p->rpage);
	case BENCH_LOCKED:
		p->data = lkb_alloc_read_page(b->lkb, cpu);
		return p->data ? 0 : -ENOMEM;
	default:
		return -EINVAL;
	}
}

/**
 * bench_page_free - free a reader from bench_page_alloc()
 * @p: the reader
 */
void bench_page_free(struct bench_page *p)
{
	struct bench_buf *b = p->buf;

	if (!b)
		return;
	if (b->impl == BENCH_LRB && p->data)
		lrb_free_read_page(b->lrb, p->cpu, p->data);
	if (b->impl == BENCH_KERNEL && p->rpage)
		ring_buffer_free_read_page(b->krb, p->cpu, p->rpage);
	if (b->impl == BENCH_LOCKED)
		lkb_free_read_page(p->data);
	memset(p, 0, sizeof(*p));
}

/**
 * bench_read_page - consume a page of events
 * @p: the reader
 *
 * Return: whether a page was read.
 */
bool bench_read_page(struct bench_page *p)
{
	struct bench_buf *b = p->buf;

	switch (b->impl) {
	case BENCH_LRB:
		return lrb_read_page(b->lrb, &p->data, PAGE_SIZE, p->cpu,
				     false) > 0;
	case BENCH_KERNEL:
		return ring_buffer_read_page(b->krb, p->rpage, PAGE_SIZE,
					     p->cpu, 0) >= 0;
	case BENCH_LOCKED:
		return lkb_read_page(b->lkb, &p->data, p->cpu) > 0;
	default:
		return false;
	}
}

/**
 * bench_read_events - events consumed from a CPU so far
 * @b: the buffer
 * @cpu: the CPU
 *
 * Return: the count.
 */
unsigned long bench_read_events(struct bench_buf *b, int cpu)
{
	switch (b->impl) {
	case BENCH_LRB:
		return lrb_read_events_cpu(b->lrb, cpu);
	case BENCH_KERNEL:
		return ring_buffer_read_events_cpu(b->krb, cpu);
	case BENCH_LOCKED:
		return lkb_read_events_cpu(b->lkb, cpu);
	default:
		return 0;
	}
}

/**
 * bench_entries - events of a CPU in the buffer, not read nor overwritten
 * @b: the buffer
 * @cpu: the CPU
 *
 * Return: the count.
 */
unsigned long bench_entries(struct bench_buf *b, int cpu)
{
	switch (b->impl) {
	case BENCH_LRB:
		return lrb_entries_cpu(b->lrb, cpu);
	case BENCH_KERNEL:
		return ring_buffer_entries_cpu(b->krb, cpu);
	case BENCH_LOCKED:
		return lkb_entries_cpu(b->lkb, cpu);
	default:
		return 0;
	}
}
