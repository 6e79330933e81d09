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
#include "lrb_kunit_impl.h"
#include "lrb_stress_engine.h"

/* Stale reads on: what a weakly ordered reader could see */
static int lrb_stress_prepare(void *buf)
{
	return lrb_set_stale_reads(buf, LRB_STALE_ALL);
}

static const struct stress_ops lrb_stress_ops = {
	.impl = &lrb_kunit_impl_lrb,
	.prepare = lrb_stress_prepare,
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
