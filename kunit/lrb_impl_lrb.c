// SPDX-License-Identifier: GPL-2.0
/*
 * lrb's row of the implementation table (lrb_kunit_impl.h): the calls of
 * lib/lockless_ring_buffer.c, as they are.
 */

#include <linux/err.h>
#include <linux/lockless_ring_buffer.h>
#include <linux/lockless_ring_buffer_test.h>

#include "lrb_kunit.h"
#include "lrb_kunit_impl.h"

static void *impl_lrb_alloc(unsigned long size, bool overwrite)
{
	struct lrb_buffer *b = lrb_alloc(size, overwrite ? LRB_FL_OVERWRITE : 0);

	return IS_ERR(b) ? NULL : b;
}

static void impl_lrb_free(void *buf)
{
	lrb_free(buf);
}

static void impl_lrb_hook(struct lrb_buffer *b, int cpu,
			  enum lrb_hook_point point, void *data)
{
	struct lrb_kunit_hook *hook = data;

	hook->fn(b, cpu, point, hook->data);
}

static int impl_lrb_set_hook(void *buf, struct lrb_kunit_hook *hook)
{
	if (!hook)
		return lrb_set_test_hook(buf, NULL, NULL);
	hook->buf = buf;
	return lrb_set_test_hook(buf, impl_lrb_hook, hook);
}

static void impl_lrb_set_clock(void *buf, u64 (*clock)(void))
{
	lrb_set_clock(buf, clock);
}

static void *impl_lrb_reserve(void *buf, unsigned int len)
{
	return lrb_lock_reserve(buf, len);
}

static void impl_lrb_commit(void *buf, void *ev)
{
	lrb_unlock_commit(buf, ev);
}

static void *impl_lrb_event_data(void *ev)
{
	return lrb_event_data(ev);
}

static unsigned int impl_lrb_event_length(void *ev)
{
	return lrb_event_length(ev);
}

static unsigned int impl_lrb_payload_length(unsigned int len)
{
	return ALIGN(len, LRB_TEST_PAYLOAD_ALIGN);
}

static void *impl_lrb_consume(void *buf, int cpu, u64 *ts, unsigned long *lost)
{
	return lrb_consume(buf, cpu, ts, lost);
}

static void *impl_lrb_peek(void *buf, int cpu)
{
	return lrb_peek(buf, cpu, NULL, NULL);
}

static bool impl_lrb_empty_cpu(void *buf, int cpu)
{
	return lrb_empty_cpu(buf, cpu);
}

static int impl_lrb_stats(void *buf, int cpu, struct lrb_stats *st)
{
	return lrb_stats_cpu(buf, cpu, st);
}

static int impl_lrb_snapshot(void *buf, int cpu, struct lrb_snapshot *snap)
{
	return lrb_snapshot(buf, cpu, snap);
}

static void *impl_lrb_read_start(void *buf, int cpu)
{
	return lrb_read_start(buf, cpu);
}

static void *impl_lrb_iter_peek(void *iter)
{
	return lrb_iter_peek(iter, NULL);
}

static void impl_lrb_iter_advance(void *iter)
{
	lrb_iter_advance(iter);
}

static void impl_lrb_read_finish(void *iter)
{
	lrb_read_finish(iter);
}

static void *impl_lrb_alloc_read_page(void *buf, int cpu)
{
	return lrb_alloc_read_page(buf, cpu);
}

static int impl_lrb_read_page(void *buf, void **page, int cpu,
			      struct lrb_data_page **data)
{
	int ret = lrb_read_page(buf, page, PAGE_SIZE, cpu, false);

	*data = *page;
	return ret;
}

static void impl_lrb_free_read_page(void *buf, int cpu, void *page)
{
	lrb_free_read_page(buf, cpu, page);
}

static bool impl_lrb_reader_contended(void *buf, int cpu)
{
	return lrb_test_reader_lock_contended(buf, cpu);
}

static void impl_lrb_set_patience(void *buf, u64 ns)
{
	lrb_test_set_reader_patience(buf, ns);
}

const struct lrb_kunit_impl lrb_kunit_impl_lrb = {
	.name = "lrb",
	.api = "lrb",
	.alloc = impl_lrb_alloc,
	.free = impl_lrb_free,
	.set_hook = impl_lrb_set_hook,
	.set_clock = impl_lrb_set_clock,
	.reserve = impl_lrb_reserve,
	.commit = impl_lrb_commit,
	.event_data = impl_lrb_event_data,
	.event_length = impl_lrb_event_length,
	.payload_length = impl_lrb_payload_length,
	.consume = impl_lrb_consume,
	.peek = impl_lrb_peek,
	.empty_cpu = impl_lrb_empty_cpu,
	.stats = impl_lrb_stats,
	.snapshot = impl_lrb_snapshot,
	.read_start = impl_lrb_read_start,
	.iter_peek = impl_lrb_iter_peek,
	.iter_advance = impl_lrb_iter_advance,
	.read_finish = impl_lrb_read_finish,
	.alloc_read_page = impl_lrb_alloc_read_page,
	.read_page = impl_lrb_read_page,
	.free_read_page = impl_lrb_free_read_page,
	.reader_contended = impl_lrb_reader_contended,
	.set_patience = impl_lrb_set_patience,
};
