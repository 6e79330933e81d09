/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lrb_bench: the three ring buffers the benchmark compares, behind one small
 * interface. The write path of each is reached without an indirect call
 * (bench_write() switches once, outside the timed loops), so that the loop
 * costs the same for all three.
 */
#ifndef _LRB_BENCH_H
#define _LRB_BENCH_H

#include <linux/lockless_ring_buffer.h>
#include <linux/ring_buffer.h>
#include <linux/spinlock.h>
#include <linux/types.h>

enum bench_impl {
	BENCH_LRB,
	BENCH_KERNEL,
	BENCH_LOCKED,
	BENCH_NR_IMPLS,
	/*
	 * Floors, no buffer at all: what every write of the loop pays around
	 * the buffer (the loop, preemption off, the payload copy), and that
	 * plus one clock read (which every buffer's reserve does too).
	 */
	BENCH_FLOOR_COPY = BENCH_NR_IMPLS,
	BENCH_FLOOR_CLOCK,
	BENCH_NR_KINDS,
};

struct lkb_buffer;

/**
 * struct bench_buf - one buffer under measurement
 * @impl: which implementation (a floor has no buffer)
 * @lrb: the lockless ring buffer (BENCH_LRB)
 * @krb: the tracing ring buffer (BENCH_KERNEL)
 * @lkb: the spinlocked baseline (BENCH_LOCKED)
 */
struct bench_buf {
	enum bench_impl		impl;
	struct lrb_buffer	*lrb;
	struct trace_buffer	*krb;
	struct lkb_buffer	*lkb;
};

/**
 * struct bench_page - a page for the whole-page reader of one CPU
 * @buf: the buffer it reads
 * @cpu: the CPU it reads
 * @data: lrb and lkb: the page
 * @rpage: the tracing ring buffer's read page
 */
struct bench_page {
	struct bench_buf		*buf;
	int				cpu;
	void				*data;
	struct buffer_data_read_page	*rpage;
};

/* The locked baseline, lrb_bench_locked.c */
struct lkb_buffer *lkb_alloc(unsigned long size, unsigned long flags);
void lkb_free(struct lkb_buffer *b);
void *lkb_lock_reserve(struct lkb_buffer *b, unsigned int length)
	__acquires(lkb_cpu_lock);
void lkb_unlock_commit(struct lkb_buffer *b) __releases(lkb_cpu_lock);
void *lkb_event_data(void *event);
void *lkb_consume(struct lkb_buffer *b, int cpu, unsigned long *lost);
void *lkb_alloc_read_page(struct lkb_buffer *b, int cpu);
void lkb_free_read_page(void *page);
int lkb_read_page(struct lkb_buffer *b, void **page, int cpu);
unsigned long lkb_read_events_cpu(struct lkb_buffer *b, int cpu);
unsigned long lkb_entries_cpu(struct lkb_buffer *b, int cpu);

/* The three behind one interface, lrb_bench_ops.c */
extern const char *const bench_impl_names[BENCH_NR_KINDS];
int bench_buf_alloc(struct bench_buf *b, enum bench_impl impl,
		    unsigned long size, bool overwrite);
void bench_buf_free(struct bench_buf *b);
unsigned long bench_write_n(struct bench_buf *b, unsigned long n,
			    unsigned int len);
bool bench_write_one(struct bench_buf *b, unsigned int len);
unsigned long bench_consume_n(struct bench_buf *b, int cpu, unsigned long n);
int bench_page_alloc(struct bench_page *p, struct bench_buf *b, int cpu);
void bench_page_free(struct bench_page *p);
bool bench_read_page(struct bench_page *p);
unsigned long bench_read_events(struct bench_buf *b, int cpu);
unsigned long bench_entries(struct bench_buf *b, int cpu);

#endif /* _LRB_BENCH_H */
