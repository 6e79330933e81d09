// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_stress: the stress engine (lrb_stress_engine.c) on lrb. Writers on
 * every CPU but one, hrtimer writers nested on the same CPUs, and a reader
 * on the last CPU that consumes, reads whole pages or iterates (with
 * recording stopped on that CPU, as lrb_read_start() does), in both modes,
 * for lrb_stress_ms per run; sequence numbers, exact loss attribution and
 * counters checked. Stale reads are on (lrb_set_stale_reads()): the reader
 * sees event data, its page's commit index, the pushes in flight and the
 * overrun only as of its last read barrier, as a weakly ordered CPU may, so
 * a read barrier missing on the read side shows as torn events or losses.
 */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/lockless_ring_buffer.h>
#include <linux/lockless_ring_buffer_test.h>

#include "lrb_kunit.h"
#include "lrb_stress_engine.h"

static void *lrb_ops_alloc(unsigned long size, bool overwrite)
{
	struct lrb_buffer *b = lrb_alloc(size, overwrite ? LRB_FL_OVERWRITE : 0);
	int ret;

	if (IS_ERR(b))
		return b;
	ret = lrb_set_stale_reads(b, LRB_STALE_ALL);
	if (ret) {
		lrb_free(b);
		return ERR_PTR(ret);
	}
	return b;
}

static void lrb_ops_free(void *buf)
{
	lrb_free(buf);
}

static void *lrb_ops_reserve(void *buf, unsigned int len)
{
	return lrb_lock_reserve(buf, len);
}

static void lrb_ops_commit(void *buf, void *ev)
{
	lrb_unlock_commit(buf, ev);
}

static void *lrb_ops_event_data(void *ev)
{
	return lrb_event_data(ev);
}

static unsigned int lrb_ops_event_length(void *ev)
{
	return lrb_event_length(ev);
}

static void *lrb_ops_consume(void *buf, int cpu, unsigned long *lost)
{
	return lrb_consume(buf, cpu, NULL, lost);
}

static void *lrb_ops_peek(void *buf, int cpu)
{
	return lrb_peek(buf, cpu, NULL, NULL);
}

static void *lrb_ops_read_start(void *buf, int cpu)
{
	return lrb_read_start(buf, cpu);
}

static void *lrb_ops_iter_peek(void *iter)
{
	return lrb_iter_peek(iter, NULL);
}

static void lrb_ops_iter_advance(void *iter)
{
	lrb_iter_advance(iter);
}

static void lrb_ops_read_finish(void *iter)
{
	lrb_read_finish(iter);
}

static void *lrb_ops_alloc_read_page(void *buf, int cpu)
{
	return lrb_alloc_read_page(buf, cpu);
}

static void lrb_ops_free_read_page(void *buf, int cpu, void *page)
{
	lrb_free_read_page(buf, cpu, page);
}

static int lrb_ops_read_page(void *buf, void **page, int cpu,
			     struct lrb_data_page **data)
{
	int ret = lrb_read_page(buf, page, PAGE_SIZE, cpu, false);

	*data = *page;
	return ret;
}

static int lrb_ops_stats(void *buf, int cpu, struct lrb_stats *st)
{
	return lrb_stats_cpu(buf, cpu, st);
}

static const struct stress_ops lrb_stress_ops = {
	.alloc = lrb_ops_alloc,
	.free = lrb_ops_free,
	.reserve = lrb_ops_reserve,
	.commit = lrb_ops_commit,
	.event_data = lrb_ops_event_data,
	.event_length = lrb_ops_event_length,
	.consume = lrb_ops_consume,
	.peek = lrb_ops_peek,
	.read_start = lrb_ops_read_start,
	.iter_peek = lrb_ops_iter_peek,
	.iter_advance = lrb_ops_iter_advance,
	.read_finish = lrb_ops_read_finish,
	.alloc_read_page = lrb_ops_alloc_read_page,
	.free_read_page = lrb_ops_free_read_page,
	.read_page = lrb_ops_read_page,
	.stats = lrb_ops_stats,
	.counters_at_one_moment = true,
};

static void stress_run_once(struct kunit *test)
{
	stress_engine_run(test, &lrb_stress_ops);
}

static struct kunit_case lrb_stress_cases[] = {
	KUNIT_CASE_PARAM_ATTR(stress_run_once, stress_engine_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite lrb_stress_suite = {
	.name = "lrb_stress",
	.init = lrb_kunit_kcsan_ignore_kernel,
	.test_cases = lrb_stress_cases,
};

kunit_test_suite(lrb_stress_suite);
