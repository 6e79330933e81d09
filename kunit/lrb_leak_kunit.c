// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_leak: a kmemleak scan after every other suite (it is linked last),
 * with zero leaks required. Built with CONFIG_DEBUG_KMEMLEAK only.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "lrb_kunit.h"

#define REPORT_SIZE	(64 * 1024)

/* kmemleak does not report objects younger than this (MSECS_MIN_AGE) */
#define KMEMLEAK_MIN_AGE_MS	5000

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
	KUNIT_CASE(no_leaks_after_the_suites),
	{}
};

static struct kunit_suite lrb_leak_suite = {
	.name = "lrb_leak",
	.test_cases = lrb_leak_cases,
};

kunit_test_suite(lrb_leak_suite);
