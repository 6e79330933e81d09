// SPDX-License-Identifier: GPL-2.0
/*
 * The contexts nested writers of the scenarios run in. A writer that a
 * hook point nests inside another one stands for an interrupt: it runs
 * with interrupts off and in the next interrupt context level, hardirq
 * for the first, NMI for the second and deeper, so that a buffer with a
 * recursion guard per context level (the kernel's trace_recursive_lock())
 * admits it exactly as it admits a real interrupt, and refuses what it
 * would refuse. Where an NMI cannot write (no NMI-safe cmpxchg: riscv, whose
 * kernel ring buffer refuses every write in NMI context), the levels are
 * those of an architecture without NMIs: softirq, then hardirq for the
 * second and deeper.
 */

#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>

#include "lrb_kunit_impl.h"

/* Whether the kernel's buffer takes writes in NMI context here */
#define NEST_NMI	(IS_ENABLED(CONFIG_ARCH_HAVE_NMI_SAFE_CMPXCHG) && \
			 !IS_ENABLED(CONFIG_GENERIC_ATOMIC64))

/**
 * lrb_kunit_nest_enter - enter the context of a writer nested at a depth
 * @depth: 1 for a writer nested in the test thread's, 2 for one nested in
 *	that one, and so on
 *
 * Context: task or a context lrb_kunit_nest_enter() entered.
 * Return: the interrupt flags to give back to lrb_kunit_nest_exit().
 */
unsigned long lrb_kunit_nest_enter(int depth)
{
	unsigned long flags;

	local_irq_save(flags);
	if (!NEST_NMI && depth <= 1)
		preempt_count_add(SOFTIRQ_OFFSET);
	else if (depth <= 1 || !NEST_NMI)
		__irq_enter_raw();
	else
		__nmi_enter();
	return flags;
}

/**
 * lrb_kunit_nest_exit - leave what lrb_kunit_nest_enter() entered
 * @depth: the depth given to lrb_kunit_nest_enter()
 * @flags: what it returned
 */
void lrb_kunit_nest_exit(int depth, unsigned long flags)
{
	if (!NEST_NMI && depth <= 1)
		preempt_count_sub(SOFTIRQ_OFFSET);
	else if (depth <= 1 || !NEST_NMI)
		__irq_exit_raw();
	else
		__nmi_exit();
	local_irq_restore(flags);
}
