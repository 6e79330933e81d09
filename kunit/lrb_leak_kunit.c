// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_leak: a kmemleak scan after every other suite (it is linked last),
 * with zero leaks required. Built with CONFIG_DEBUG_KMEMLEAK only.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "lrb_kunit.h"

#define REPORT_SIZE	(64 * 1024)

/* kmemleak does not report objects younger than this (MSECS_MIN_AGE) */
#define KMEMLEAK_MIN_AGE_MS	5000

#define SCRUB_THREADS	4

static int scrub_fn(void *data)
{
	complete(data);
	lrb_kunit_wait_for_stop();
	return 0;
}

/*
 * Dead kthreads' stacks are cached per CPU and cleared only when reused: a
 * stale pointer in one would hide a leak from the scan. New kthreads on
 * every CPU take (and clear) the cached stacks first.
 */
static void scrub_stacks(struct kunit *test)
{
	struct task_struct *t[SCRUB_THREADS];
	struct completion started;
	unsigned int i;
	int cpu;

	for_each_online_cpu(cpu) {
		for (i = 0; i < SCRUB_THREADS; i++) {
			init_completion(&started);
			t[i] = kthread_run_on_cpu(scrub_fn, &started, cpu, "lrb_scrub/%u");
			KUNIT_ASSERT_FALSE(test, IS_ERR(t[i]));
			wait_for_completion(&started);
		}
		for (i = 0; i < SCRUB_THREADS; i++)
			kthread_stop(t[i]);
	}
}

static void no_leaks_after_the_suites(struct kunit *test)
{
	char *report, *line, *p;
	unsigned int leaks = 0, shown = 0;
	ssize_t n;

	report = kunit_kzalloc(test, REPORT_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, report);
	/*
	 * Not synchronisation: kmemleak ignores objects allocated less than
	 * its minimum age ago, and the previous suite just ran.
	 */
	msleep(KMEMLEAK_MIN_AGE_MS + 500);
	scrub_stacks(test);
	/*
	 * Two scans: the first only records each new object's checksum and
	 * holds back every object whose contents changed since the last one.
	 */
	KUNIT_ASSERT_EQ(test, 0, lrb_kunit_debugfs_write(test, "kmemleak", "scan"));
	KUNIT_ASSERT_EQ(test, 0, lrb_kunit_debugfs_write(test, "kmemleak", "scan"));
	n = lrb_kunit_debugfs_read(test, "kmemleak", report, REPORT_SIZE);
	KUNIT_ASSERT_GE(test, n, 0L);

	p = report;
	while ((line = strsep(&p, "\n"))) {
		if (strstr(line, "unreferenced object"))
			leaks++;
		if (leaks && shown < 40) {
			kunit_info(test, "%s", line);
			shown++;
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, leaks, 0U, "kmemleak found %u leaked objects", leaks);
	kunit_info(test, "kmemleak scan after the suites: %u leaked objects", leaks);
}

static struct kunit_case lrb_leak_cases[] = {
	KUNIT_CASE_SLOW(no_leaks_after_the_suites),
	{}
};

static struct kunit_suite lrb_leak_suite = {
	.name = "lrb_leak",
	.init = lrb_kunit_kcsan_ignore_kernel,
	.test_cases = lrb_leak_cases,
};

kunit_test_suite(lrb_leak_suite);
