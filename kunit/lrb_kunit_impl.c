// SPDX-License-Identifier: GPL-2.0
/*
 * The checks a case ends with, on any row of the implementation table
 * (lrb_kunit_impl.h).
 */

#include <kunit/test.h>
#include <linux/cpumask.h>

#include "lrb_kunit.h"
#include "lrb_kunit_impl.h"

/**
 * lrb_kunit_impl_check_end - the checks every case that writes ends with
 * @test: the test
 * @impl: the implementation
 * @buf: its buffer, with no writer in flight
 * @snap: room for one snapshot
 * @cpu: the only CPU the case wrote on
 * @ok: writes that succeeded there
 * @failed: reserves that failed there
 *
 * On every online CPU: the ring is sane (lrb_kunit_snap_sane(), a reader
 * page alone allowed on the kernel's buffer), committed == read + overrun +
 * entries, committed is what the case wrote and the failed reserves are
 * counted as dropped, commit overrun, rejected or recursion; draining reads
 * exactly the entries counted, after which the CPU is empty.
 */
void lrb_kunit_impl_check_end(struct kunit *test,
			      const struct lrb_kunit_impl *impl, void *buf,
			      struct lrb_snapshot *snap, int cpu,
			      unsigned long ok, unsigned long failed)
{
	unsigned long drained;
	struct lrb_stats st;
	int c;

	for_each_online_cpu(c) {
		bool mine = c == cpu;

		KUNIT_EXPECT_EQ(test, 0, impl->stats(buf, c, &st));
		KUNIT_EXPECT_EQ(test, 0, impl->snapshot(buf, c, snap));
		lrb_kunit_snap_sane(test, snap, impl != &lrb_kunit_impl_lrb);
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
		KUNIT_EXPECT_EQ_MSG(test, drained, st.entries,
				    "CPU %d: events left to read", c);
		KUNIT_EXPECT_TRUE_MSG(test, impl->empty_cpu(buf, c),
				      "CPU %d: not empty after draining", c);
	}
}
