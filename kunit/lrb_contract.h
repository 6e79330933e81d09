/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The contract matrix (lrb_contract, lrb_contract_kernel): every exported
 * function of a ring buffer called in every context its kernel-doc allows,
 * against every state the other parties can be in at that moment, each
 * cell checking the documented return value and, once the state is over,
 * that nothing was lost or duplicated, that the ring is sane and that
 * recording goes on. lrb_contract_engine.c reaches the states and runs the
 * cells; each implementation gives its rows: lrb_contract_lrb.c (whose
 * contexts `make check` compares with lib/lockless_ring_buffer.c's
 * kernel-doc) and lrb_contract_kernel.c.
 */
#ifndef _LRB_CONTRACT_H
#define _LRB_CONTRACT_H

#include <linux/interrupt.h>
#include <linux/irq_work.h>

#include "lrb_kunit.h"
#include "lrb_kunit_impl.h"

/* The contexts a function is called in */
enum ct_ctx {
	CT_TASK,
	CT_SOFTIRQ,
	CT_HARDIRQ,
	CT_NMI,
	CT_NR_CTX
};

#define CT_IN_TASK	BIT(CT_TASK)
#define CT_IN_SOFTIRQ	BIT(CT_SOFTIRQ)
#define CT_IN_HARDIRQ	BIT(CT_HARDIRQ)
#define CT_IN_NMI	BIT(CT_NMI)
/* The kernel-doc phrases, as `make check` maps them */
#define CT_ANY		(CT_IN_TASK | CT_IN_SOFTIRQ | CT_IN_HARDIRQ | CT_IN_NMI)
#define CT_ANY_BUT_NMI	(CT_IN_TASK | CT_IN_SOFTIRQ | CT_IN_HARDIRQ)
#define CT_PROCESS	CT_IN_TASK

/*
 * The states the rest of the world can be in when a function is called.
 * "The writer" is a writer of the ring's CPU, interrupted by the call; a
 * task cannot run on its CPU then (the writer has preemption off).
 */
enum ct_state {
	CT_ST_IDLE,		/* nothing in flight */
	CT_ST_W_STAMP,		/* the writer read the clock, nothing reserved */
	CT_ST_W_RESERVED,	/* its reservation moved the write index */
	CT_ST_W_PUSH,		/* it holds UPDATE on the pointer to the head */
	CT_ST_W_NEW_HEAD,	/* new HEADER set, its UPDATE still held */
	CT_ST_W_TAIL,		/* next page reset, the tail about to move */
	CT_ST_W_HELD,		/* between its reserve and its commit */
	CT_ST_W_COMMIT,		/* inside its commit */
	CT_ST_REMOTE_PUSH,	/* a writer on another CPU stopped holding UPDATE */
	CT_ST_ITER,		/* an iterator open on the ring */
	CT_ST_RESET,		/* lrb_reset_cpu() of the ring at work elsewhere */
	CT_ST_RESIZE,		/* lrb_resize() at work elsewhere */
	CT_ST_BROKEN,		/* an invariant of the ring broke */
	CT_NR_STATES
};

#define CT_S(s)		BIT(CT_ST_##s)
/* The call interrupts a writer of the ring's CPU */
#define CT_S_WRITER	(CT_S(W_STAMP) | CT_S(W_RESERVED) | CT_S(W_PUSH) | \
			 CT_S(W_NEW_HEAD) | CT_S(W_TAIL) | CT_S(W_HELD) | \
			 CT_S(W_COMMIT))
/* A head push is in flight that the reader cannot wait for, or not long */
#define CT_S_PUSHING	(CT_S(W_PUSH) | CT_S(W_NEW_HEAD) | CT_S(REMOTE_PUSH))
/* A reset or resize at work: its kernel-doc says no reader may run */
#define CT_S_REBUILD	(CT_S(RESET) | CT_S(RESIZE))
#define CT_S_ALL	(BIT(CT_NR_STATES) - 1)

/* Sequence numbers of the events a cell writes */
#define CT_SEQ_PREFILL	0	/* 0, 1, 2: one full page each */
#define CT_SEQ_STATE	3	/* the write that reaches the state */
#define CT_SEQ_OP	16	/* the function's own writes */
#define CT_SEQ_AFTER	32	/* the write that shows recording goes on */
#define CT_NR_SEQ	64

/* Events were lost and the page read had no room to say how many */
#define CT_LOST_UNKNOWN	ULONG_MAX

struct ct_cell;

/**
 * struct ct_op - a row of the matrix: a function, or a pair that must be
 *	called together (reserve and commit, start and finish)
 * @name: the exported function(s), as the kernel-doc names them
 * @ctx: the contexts its kernel-doc's Context: line allows (CT_ANY, ...)
 * @not_in: states in which its kernel-doc forbids the call
 * @why_not: the kernel-doc's words for it
 * @hangs_in: states in which the call would never return (a finding of
 *	the matrix, in docs/kernel-rb-differences.md): not run, counted
 * @why_hangs: why
 * @prepare: in task context on the cell's CPU before the state is reached:
 *	what the call needs that the context may not do (a page, an
 *	iterator); 0 or an error that fails the cell
 * @call: the call, in the cell's context; records what it returned
 * @check: in task context once the state is over: NULL, or why the call
 *	broke its contract
 * @cleanup: in task context at the end of the cell (may be NULL)
 */
struct ct_op {
	const char	*name;
	unsigned int	ctx;
	unsigned int	not_in;
	const char	*why_not;
	unsigned int	hangs_in;
	const char	*why_hangs;
	int		(*prepare)(struct ct_cell *c);
	void		(*call)(struct ct_cell *c);
	const char	*(*check)(struct ct_cell *c);
	void		(*cleanup)(struct ct_cell *c);
};

/**
 * struct ct_impl - an implementation's rows and how its states are reached
 * @name: "lrb" or "kernel"
 * @impl: its row of the implementation table
 * @ops: its rows
 * @nr_ops: how many
 * @states: the states it can be brought to; the others are not cells
 * @why_not: per state it cannot be brought to, why
 * @break_ring: break an invariant of @cpu's ring (CT_ST_BROKEN)
 * @rebuild: reset (@resize false) @cpu's ring, or resize the buffer to
 *	@pages data pages per CPU; called by a kthread on another CPU
 * @remote_hold_ns: how long a writer on another CPU stays stopped at most
 *	(0: two seconds, so that a reader gives up first)
 */
struct ct_impl {
	const char			*name;
	const struct lrb_kunit_impl	*impl;
	const struct ct_op		*ops;
	unsigned int			nr_ops;
	unsigned int			states;
	const char			*why_not[CT_NR_STATES];
	int	(*break_ring)(struct ct_cell *c);
	int	(*rebuild)(void *buf, int cpu, bool resize, unsigned int pages);
	u64	remote_hold_ns;
};

/**
 * struct ct_cell - one cell: a function, a context, a state
 * @test: the case
 * @ci: the implementation
 * @op: the function
 * @state: the state
 * @ctx: the context
 * @buf: the buffer, three data pages per CPU, overwrite mode
 * @cpu: the CPU whose ring the state is about and the call reads
 * @ocpu: the CPU the call runs on (the test thread's)
 * @other: the kthread of a remote writer or a rebuild
 * @stage: handshake with @other: 1 it reached its point, 2 it may go on
 * @other_left: @other left its point (set by @other)
 * @reached: the state was reached and the call made there
 * @ran: the call ran
 * @right_ctx: it ran in @ctx
 * @left_when_returned: @other had left its point when the call returned
 * @timed_out: a bounded wait gave up
 * @done: the call is over
 * @ret: what the call returned
 * @ret2: what its second half returned (commit, finish, ...)
 * @seq: the sequence number of the event it read, if any
 * @lost: the events it was told were lost before that
 * @st_call: counters of @cpu's ring taken by the call, where it takes them
 * @busy_before: &struct lrb_stats.busy of @cpu before the call
 * @res: what @prepare made for the call (a page, an iterator, a buffer)
 * @ok: per CPU, writes that succeeded (the cell's ledger)
 * @failed: per CPU, writes refused
 * @counts_reset: the call zeroed @cpu's counters (@ok is then a bound)
 * @nth: hook calls of the state's point by the outermost writer so far
 * @spins: times a reader of @cpu found the head held by a push and looked
 *	again (its READER_SPIN hook point)
 * @hook: the state's hook
 * @work: raises the hardirq or NMI of the call
 * @tasklet: the softirq of the call
 * @snap: the ring as the call left it, if the row takes it (@snapped)
 * @snapped: @snap holds it
 * @why: room for a message
 */
struct ct_cell {
	struct kunit		*test;
	const struct ct_impl	*ci;
	const struct ct_op	*op;
	enum ct_state		state;
	enum ct_ctx		ctx;
	void			*buf;
	int			cpu;
	int			ocpu;
	struct task_struct	*other;
	atomic_t		stage;
	atomic_t		other_left;
	bool			reached;
	bool			ran;
	bool			right_ctx;
	bool			left_when_returned;
	bool			timed_out;
	atomic_t		done;
	long			ret;
	long			ret2;
	u32			seq;
	unsigned long		lost;
	struct lrb_stats	st_call;
	unsigned long		busy_before;
	void			*res;
	unsigned long		*ok;
	unsigned long		*failed;
	bool			counts_reset;
	int			nth;
	unsigned int		spins;
	struct lrb_kunit_hook	hook;
	struct irq_work		work;
	struct tasklet_struct	tasklet;
	struct lrb_snapshot	*snap;
	bool			snapped;
	char			why[160];
};

/*
 * The CPU a call runs on. A task-context call runs in the test thread,
 * which has an affinity of that one CPU (lrb_kunit_pin_current()): its CPU
 * cannot change, though DEBUG_PREEMPT trusts only PF_NO_SETAFFINITY threads
 * and would call smp_processor_id() there preemptible use.
 */
static inline int ct_this_cpu(void)
{
	return raw_smp_processor_id();
}

/* For the rows: helpers of the engine */
int ct_write(struct ct_cell *c, unsigned int len, u32 seq);
unsigned int ct_len_of(u32 seq);
bool ct_writes_off(const struct ct_cell *c);
bool ct_pushing(const struct ct_cell *c);
const char *ct_want_ret(struct ct_cell *c, long want, long got);
const char *ct_expect_oldest(struct ct_cell *c);
const char *ct_expect_iter(struct ct_cell *c, u32 want);
const char *ct_expect_event(struct ct_cell *c);
const char *ct_state_name(enum ct_state state);
const char *ct_ctx_name(enum ct_ctx ctx);

void ct_run_suite(struct kunit *test, const struct ct_impl *ci);

extern const struct ct_impl ct_impl_lrb;
#ifdef CONFIG_RING_BUFFER
extern const struct ct_impl ct_impl_kernel;
#endif

#endif /* _LRB_CONTRACT_H */
