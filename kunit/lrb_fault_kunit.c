// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_fault: allocation failures, with the kernel's fault injection
 * (CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC) through the task's fail-nth
 * counter: the first, second, ... allocation of a call fails in turn, until
 * the call succeeds. Each time the documented error must come back and the
 * buffer being changed must be intact and still work. Under the kmemleak
 * profile, lrb_leak then checks that none of this leaked.
 */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/fault-inject.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "lrb_kunit.h"

#define CAP		LRB_KUNIT_CAPACITY
#define MAX_POINTS	10000

/* Fail the nth fault-injection point this task passes (0: none) */
static void fail_nth(unsigned int n)
{
	WRITE_ONCE(current->fail_nth, n);
}

/* Whether the failure set up by fail_nth() happened */
static bool fail_injected(void)
{
	return !READ_ONCE(current->fail_nth);
}

/*
 * A failure the allocator absorbed: SLUB falls back to a smaller slab order
 * when a new slab's pages cannot be had, so a failure point can be spent
 * inside kmalloc() with the allocation succeeding. lrb has no fallback of
 * its own, so a call that succeeded although the failure fired saw every
 * allocation of its own succeed. Such points are undone and counted; they
 * may not be the majority.
 */
static void fault_report(struct kunit *test, const char *call, unsigned int n,
			 unsigned int absorbed)
{
	KUNIT_EXPECT_LE_MSG(test, 2 * absorbed, n, "%s: %u of %u failure points absorbed",
			    call, absorbed, n);
	kunit_info(test, "%s: %u allocation failure points tried, each returned -ENOMEM and left no trace (%u absorbed by the allocator's fallbacks)",
		   call, n - absorbed, absorbed);
}

static void fault_alloc(struct kunit *test)
{
	struct lrb_buffer *b = NULL;
	unsigned int n, absorbed = 0;
	struct lrb_event *ev;
	int cpu;

	for (n = 1; n < MAX_POINTS; n++) {
		fail_nth(n);
		b = lrb_alloc(4 * CAP, LRB_FL_OVERWRITE);
		if (!fail_injected()) {
			fail_nth(0);
			break;
		}
		fail_nth(0);
		if (!IS_ERR(b)) {
			absorbed++;
			lrb_free(b);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(b), -ENOMEM, "failure point %u", n);
	}
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	/* Every CPU's ring, its pages and the arrays: many points */
	KUNIT_EXPECT_GE(test, n, 2 + num_possible_cpus() * 6);
	fault_report(test, "lrb_alloc", n - 1, absorbed);

	migrate_disable();
	cpu = smp_processor_id();
	KUNIT_EXPECT_EQ(test, 0, lrb_write(b, 8, "12345678"));
	ev = lrb_consume(b, cpu, NULL, NULL);
	KUNIT_EXPECT_NOT_NULL(test, ev);
	migrate_enable();
	KUNIT_EXPECT_TRUE(test, lrb_kunit_ring_sane(test, b, cpu));
	lrb_free(b);
}

/*
 * More than the machine has available, per possible CPU, is refused before
 * anything is allocated: the first allocation point is armed to fail, and
 * must not be reached. Allocating first (with GFP_KERNEL alone) would run
 * the OOM killer.
 */
static void alloc_beyond_available_memory(struct kunit *test)
{
	struct lrb_tb *tb = lrb_tb_alloc(test, 3 * CAP, 0);
	long avail = si_mem_available();
	unsigned long pages, size;
	struct lrb_buffer *b;
	bool allocated;
	int cpu, i, ret;

	lrb_tb_check_at_end(test, tb);
	KUNIT_ASSERT_GT(test, avail, 0L);
	/* Per CPU, less than the machine: a size lrb_alloc() accepts */
	pages = avail / num_possible_cpus() + 1;
	KUNIT_ASSERT_LE(test, pages + 4, totalram_pages());
	size = pages * CAP;
	fail_nth(1);
	b = lrb_alloc(size, 0);
	allocated = fail_injected();
	fail_nth(0);
	KUNIT_EXPECT_EQ(test, PTR_ERR(b), -ENOMEM);
	KUNIT_EXPECT_FALSE_MSG(test, allocated,
			       "lrb_alloc() allocated before refusing %lu pages per CPU, %ld available",
			       pages, avail);

	migrate_disable();
	cpu = smp_processor_id();
	for (i = 0; i < 5; i++)
		KUNIT_ASSERT_EQ(test, 0, lrb_tb_write(tb, 40));
	migrate_enable();
	/* Growing by more than is available, beyond the 4 pages there */
	size = (pages + 4) * CAP;
	fail_nth(1);
	ret = lrb_resize(tb->b, size);
	allocated = fail_injected();
	fail_nth(0);
	KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
	KUNIT_EXPECT_FALSE_MSG(test, allocated,
			       "lrb_resize() allocated before refusing %lu pages per CPU",
			       pages + 4);
	KUNIT_EXPECT_EQ(test, lrb_size(tb->b), 3 * CAP);
	KUNIT_EXPECT_EQ(test, lrb_entries_cpu(tb->b, cpu), 5UL);
}

static void fault_resize(struct kunit *test)
{
	struct lrb_tb *tb = lrb_tb_alloc(test, 2 * CAP, 0);
	struct lrb_snapshot *before, *after;
	unsigned int n, i, absorbed = 0;
	int cpu, ret = 0;

	lrb_tb_check_at_end(test, tb);
	before = kunit_kzalloc(test, sizeof(*before), GFP_KERNEL);
	after = kunit_kzalloc(test, sizeof(*after), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, before);
	KUNIT_ASSERT_NOT_NULL(test, after);
	migrate_disable();
	cpu = smp_processor_id();
	for (i = 0; i < 50; i++)
		KUNIT_ASSERT_EQ(test, 0, lrb_tb_write(tb, 64));
	KUNIT_ASSERT_EQ(test, 0, lrb_snapshot(tb->b, cpu, before));

	for (n = 1; n < MAX_POINTS; n++) {
		fail_nth(n);
		ret = lrb_resize(tb->b, 6 * CAP);
		if (!fail_injected()) {
			fail_nth(0);
			break;
		}
		fail_nth(0);
		if (!ret) {
			absorbed++;
			KUNIT_ASSERT_EQ(test, 0, lrb_resize(tb->b, 2 * CAP));
			KUNIT_ASSERT_EQ(test, 0, lrb_snapshot(tb->b, cpu, before));
			continue;
		}
		KUNIT_ASSERT_EQ_MSG(test, ret, -ENOMEM, "failure point %u", n);
		KUNIT_ASSERT_EQ(test, 0, lrb_snapshot(tb->b, cpu, after));
		KUNIT_EXPECT_EQ_MSG(test, 0, memcmp(before, after, sizeof(*before)),
				    "failure point %u changed the ring", n);
		KUNIT_EXPECT_EQ(test, lrb_size(tb->b), 2 * CAP);
		/* Still works: a write and its accounting */
		KUNIT_EXPECT_EQ(test, 0, lrb_tb_write(tb, 64));
		KUNIT_ASSERT_EQ(test, 0, lrb_snapshot(tb->b, cpu, before));
	}
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, lrb_size(tb->b), 6 * CAP);
	KUNIT_EXPECT_GE(test, n, 2U);
	migrate_enable();
	fault_report(test, "lrb_resize", n - 1, absorbed);
}

static void fault_alloc_read_page(struct kunit *test)
{
	struct lrb_tb *tb = lrb_tb_alloc(test, 2 * CAP, 0);
	unsigned int n, absorbed = 0;
	void *page = NULL;

	lrb_tb_check_at_end(test, tb);
	for (n = 1; n < MAX_POINTS; n++) {
		fail_nth(n);
		page = lrb_alloc_read_page(tb->b, 0);
		if (!fail_injected()) {
			fail_nth(0);
			break;
		}
		fail_nth(0);
		if (!IS_ERR(page)) {
			absorbed++;
			lrb_free_read_page(tb->b, 0, page);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(page), -ENOMEM, "failure point %u", n);
	}
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, page);
	KUNIT_EXPECT_GE(test, n, 2U);
	lrb_free_read_page(tb->b, 0, page);
	fault_report(test, "lrb_alloc_read_page", n - 1, absorbed);
}

static void fault_read_start(struct kunit *test)
{
	struct lrb_tb *tb = lrb_tb_alloc(test, 2 * CAP, 0);
	struct lrb_iter *iter = NULL;
	unsigned int n, absorbed = 0;
	int cpu;

	lrb_tb_check_at_end(test, tb);
	migrate_disable();
	cpu = smp_processor_id();
	KUNIT_ASSERT_EQ(test, 0, lrb_tb_write(tb, 32));
	for (n = 1; n < MAX_POINTS; n++) {
		fail_nth(n);
		iter = lrb_read_start(tb->b, cpu);
		if (!fail_injected()) {
			fail_nth(0);
			break;
		}
		fail_nth(0);
		if (!IS_ERR(iter)) {
			absorbed++;
			lrb_read_finish(iter);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(iter), -ENOMEM, "failure point %u", n);
		/* A failed start leaves recording on */
		KUNIT_EXPECT_EQ_MSG(test, 0, lrb_tb_write(tb, 32), "failure point %u", n);
	}
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, iter);
	KUNIT_EXPECT_NOT_NULL(test, lrb_iter_peek(iter, NULL));
	lrb_read_finish(iter);
	KUNIT_EXPECT_GE(test, n, 2U);
	migrate_enable();
	fault_report(test, "lrb_read_start", n - 1, absorbed);
}

/* Let GFP_KERNEL and order-0 allocations fail, quietly */
static int fault_init(struct kunit *test)
{
	static const char * const knobs[][2] = {
		{ "failslab/ignore-gfp-wait", "N" },
		{ "failslab/verbose", "0" },
		{ "fail_page_alloc/ignore-gfp-wait", "N" },
		{ "fail_page_alloc/min-order", "0" },
		{ "fail_page_alloc/verbose", "0" },
	};
	unsigned int i;
	int ret;

	ret = lrb_kunit_kcsan_ignore_kernel(test);
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		ret = lrb_kunit_debugfs_write(test, knobs[i][0], knobs[i][1]);
		if (ret) {
			kunit_err(test, "cannot set %s: %d", knobs[i][0], ret);
			return ret;
		}
	}
	/*
	 * kmemleak allocates its metadata for every object from a cache of
	 * its own, and falls back to a static pool when that fails: a failure
	 * point spent there would let our call succeed. The kmemleak profile
	 * marks the kmalloc caches (slab_debug=A,kmalloc-*) and the filter
	 * keeps the failures to them.
	 */
	if (IS_ENABLED(CONFIG_DEBUG_KMEMLEAK)) {
		ret = lrb_kunit_debugfs_write(test, "failslab/cache-filter", "Y");
		if (ret) {
			kunit_err(test, "cannot set failslab/cache-filter: %d", ret);
			return ret;
		}
	}
	return 0;
}

static struct kunit_case lrb_fault_cases[] = {
	KUNIT_CASE(fault_alloc),
	KUNIT_CASE(alloc_beyond_available_memory),
	KUNIT_CASE(fault_resize),
	KUNIT_CASE(fault_alloc_read_page),
	KUNIT_CASE(fault_read_start),
	{}
};

static struct kunit_suite lrb_fault_suite = {
	.name = "lrb_fault",
	.init = fault_init,
	.test_cases = lrb_fault_cases,
};

kunit_test_suite(lrb_fault_suite);
