// SPDX-License-Identifier: GPL-2.0
/*
 * What the suites that run on any row of the implementation table
 * (lrb_kunit_impl.h) share: the suite init that picks the row, and the
 * checks a case ends with.
 */

#include <kunit/test.h>
#include <linux/cpumask.h>

#include "lrb_kunit.h"
#include "lrb_kunit_impl.h"

#if IS_ENABLED(CONFIG_LOCKLESS_RING_BUFFER_KUNIT_TEST)
/**
 * lrb_kunit_impl_init_lrb - the init of a suite that runs on lrb
 * @test: the case about to run; test->priv receives the row
 *
 * Return: what lrb_kunit_kcsan_ignore_kernel() returns.
 */
int lrb_kunit_impl_init_lrb(struct kunit *test)
{
	test->priv = (void *)&lrb_kunit_impl_lrb;
	return lrb_kunit_kcsan_ignore_kernel(test);
}
#endif

#ifdef CONFIG_RING_BUFFER
/**
 * lrb_kunit_impl_init_kernel - the init of a suite that runs on the
 *	kernel's tracing ring buffer
 * @test: the case about to run; test->priv receives the row
 *
 * Skips the case without the kernel's hook points (series patches 1 and 2).
 *
 * Return: what lrb_kunit_kcsan_ignore_kernel() returns.
 */
int lrb_kunit_impl_init_kernel(struct kunit *test)
{
	if (!IS_ENABLED(CONFIG_RING_BUFFER_TEST_HOOKS))
		kunit_skip(test, "needs CONFIG_RING_BUFFER_TEST_HOOKS (series patches 1, 2)");
	test->priv = (void *)&lrb_kunit_impl_kernel;
	return lrb_kunit_kcsan_ignore_kernel(test);
}
#endif

/**
 * lrb_kunit_impl_check_end - the checks every case that writes ends with
 * @test: the test
 * @impl: the implementation
 * @buf: its buffer, with no writer in flight
 * @snap: room for one snapshot
 * @cpu: the only CPU the case wrote on
 * @ok: writes that succeeded there
 * @failed: reserves that failed there
 * @silent: events lost there without a report and still counted in the
 *	entries (the kernel's reader-page race), as the case asserted
 *
 * On every online CPU: the ring is sane (lrb_kunit_snap_sane(), a reader
 * page alone allowed where the row says so), committed == read + overrun +
 * entries, committed is what the case wrote and the failed reserves are
 * counted as dropped, commit overrun, rejected or recursion; draining reads
 * exactly the entries counted but the silent losses, after which the CPU is
 * empty.
 */
void lrb_kunit_impl_check_end(struct kunit *test,
			      const struct lrb_kunit_impl *impl, void *buf,
			      struct lrb_snapshot *snap, int cpu,
			      unsigned long ok, unsigned long failed,
			      unsigned long silent)
{
	unsigned long drained;
	struct lrb_stats st;
	int c;

	for_each_online_cpu(c) {
		bool mine = c == cpu;

		KUNIT_EXPECT_EQ(test, 0, impl->stats(buf, c, &st));
		KUNIT_EXPECT_EQ(test, 0, impl->snapshot(buf, c, snap));
		lrb_kunit_snap_sane(test, snap, impl->lone_reader);
		KUNIT_EXPECT_EQ_MSG(test, st.committed,
				    st.read + st.overrun + st.entries,
				    "CPU %d: committed != read + overrun + entries",
				    c);
		KUNIT_EXPECT_EQ_MSG(test, st.committed, mine ? ok : 0,
				    "CPU %d: committed events", c);
		KUNIT_EXPECT_EQ_MSG(test,
				    st.dropped + st.commit_overrun + st.rejected +
				    st.recursion, mine ? failed : 0,
				    "CPU %d: failed reserves", c);
		for (drained = 0; drained <= st.entries; drained++)
			if (!impl->consume(buf, c, NULL, NULL))
				break;
		KUNIT_EXPECT_EQ_MSG(test, drained + (mine ? silent : 0), st.entries,
				    "CPU %d: events left to read", c);
		KUNIT_EXPECT_TRUE_MSG(test, impl->empty_cpu(buf, c),
				      "CPU %d: not empty after draining", c);
	}
}
