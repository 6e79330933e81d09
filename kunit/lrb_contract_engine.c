// SPDX-License-Identifier: GPL-2.0
/*
 * The contract matrix's engine: the states, the contexts, and a cell run
 * from start to end.
 *
 * A cell gets a buffer of its own (three data pages per CPU, overwrite
 * mode) and fills the ring it is about with three events of a page each,
 * so that the next write pushes the head. Then it brings the ring to its
 * state and makes the call there:
 *  - the writer states: the test thread writes once more, and at the
 *    state's hook point (by the outermost writer, the nth time) the hook
 *    raises the call's interrupt on its CPU and waits for it (bounded);
 *    between reserve and commit, the test thread raises it itself;
 *  - a writer on another CPU: a kthread there fills and writes its own
 *    ring and stops holding UPDATE until the test thread lets it go, or a
 *    bounded time passes (so that a call that waits for writers returns);
 *  - a reset or resize at work: a kthread on another CPU starts it and
 *    stops at its hook point, in the same way;
 *  - an iterator open, a ring broken: made by the test thread first.
 * A softirq is a tasklet raised by a hardirq (an irq_work), so that it
 * runs on the interrupt's exit, over what the hardirq interrupted; an NMI
 * is an IPI to the CPU itself (x86 only). The call runs in its context or
 * the cell fails.
 *
 * Once the state is over, the row checks what the call returned; then the
 * engine checks every ring: sane (one HEADER, no UPDATE, nothing in
 * flight, the commit at the tail), a write after the cell succeeds, the
 * counters add up (committed == read + overrun + entries, committed as
 * the cell's ledger says), and draining reads every event left once,
 * whole. A cell whose state was never reached fails. KCSAN and lockdep
 * report through the kernel log, which the harness reads.
 */

#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/hardirq.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/nmi.h>
#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/nmi.h>
#endif

#include "lrb_contract.h"

#define CAP		LRB_KUNIT_CAPACITY
#define BIG		(CAP - 8)
#define CT_WAIT_NS	(10ULL * NSEC_PER_SEC)
#define CT_IRQ_WAIT_NS	(2ULL * NSEC_PER_SEC)
/* How long a stopped party waits before going on by itself */
#define CT_HOLD_NS	(2ULL * NSEC_PER_SEC)
#define CT_HOLD_SHORT_NS (20ULL * NSEC_PER_MSEC)

enum ct_kind {
	CT_K_IDLE,	/* the call made by the test thread */
	CT_K_HOOK,	/* at a hook point of the writer the call interrupts */
	CT_K_HELD,	/* between the test thread's reserve and commit */
	CT_K_REMOTE,	/* a writer on another CPU stopped at a hook point */
	CT_K_ITER,	/* an iterator open */
	CT_K_REBUILD,	/* a reset or resize on another CPU stopped */
	CT_K_BROKEN,	/* the ring broken first */
};

/**
 * struct ct_state_desc - a state and how to reach it
 * @name: as the log prints it
 * @what: what it is
 * @kind: how it is reached
 * @point: the hook point where it holds
 * @nth: which time the outermost writer (or the rebuild) reaches @point
 */
struct ct_state_desc {
	const char		*name;
	const char		*what;
	enum ct_kind		kind;
	enum lrb_hook_point	point;
	int			nth;
};

static const struct ct_state_desc ct_states[CT_NR_STATES] = {
	[CT_ST_IDLE] = { "idle", "nothing in flight", CT_K_IDLE, LRB_HOOK_NR, 0 },
	[CT_ST_W_STAMP] = { "w_stamp", "its writer read the clock, reserved nothing",
			    CT_K_HOOK, LRB_HOOK_STAMP, 1 },
	[CT_ST_W_RESERVED] = { "w_reserved", "its writer just reserved, after its push",
			       CT_K_HOOK, LRB_HOOK_RESERVED, 2 },
	[CT_ST_W_PUSH] = { "w_push", "its writer holds UPDATE on the pointer to the head",
			   CT_K_HOOK, LRB_HOOK_HEAD_UPDATE_AFTER, 1 },
	[CT_ST_W_NEW_HEAD] = { "w_new_head", "its writer set the new HEADER, holds UPDATE",
			       CT_K_HOOK, LRB_HOOK_NEW_HEAD_AFTER, 1 },
	[CT_ST_W_TAIL] = { "w_tail", "its writer reset the next page, the tail about to move",
			   CT_K_HOOK, LRB_HOOK_TAIL_BEFORE, 1 },
	[CT_ST_W_HELD] = { "w_held", "its writer holds a reservation, not committed",
			   CT_K_HELD, LRB_HOOK_NR, 0 },
	[CT_ST_W_COMMIT] = { "w_commit", "its writer is inside its commit",
			     CT_K_HOOK, LRB_HOOK_COMMIT_AFTER, 1 },
	[CT_ST_REMOTE_PUSH] = { "remote_push", "a writer on another CPU stopped holding UPDATE",
				CT_K_REMOTE, LRB_HOOK_HEAD_UPDATE_AFTER, 1 },
	[CT_ST_ITER] = { "iter", "an iterator open on the ring", CT_K_ITER, LRB_HOOK_NR, 0 },
	[CT_ST_RESET] = { "reset", "a reset of the ring at work on another CPU",
			  CT_K_REBUILD, LRB_HOOK_RESET, 1 },
	[CT_ST_RESIZE] = { "resize", "a resize at work on another CPU",
			   CT_K_REBUILD, LRB_HOOK_RESIZE, 1 },
	[CT_ST_BROKEN] = { "broken", "an invariant of the ring broke", CT_K_BROKEN,
			   LRB_HOOK_NR, 0 },
};

static const char * const ct_ctx_names[CT_NR_CTX] = {
	[CT_TASK] = "task", [CT_SOFTIRQ] = "softirq", [CT_HARDIRQ] = "hardirq",
	[CT_NMI] = "nmi",
};

/**
 * ct_state_name - name of a state
 * @state: the state
 *
 * Return: its name.
 */
const char *ct_state_name(enum ct_state state)
{
	return ct_states[state].name;
}

/**
 * ct_ctx_name - name of a context
 * @ctx: the context
 *
 * Return: its name.
 */
const char *ct_ctx_name(enum ct_ctx ctx)
{
	return ct_ctx_names[ctx];
}

/**
 * ct_len_of - payload length of a cell's event
 * @seq: its sequence number
 *
 * Return: a page's worth for the prefill and the state's write, 8 else.
 */
unsigned int ct_len_of(u32 seq)
{
	return seq <= CT_SEQ_STATE ? BIG : 8;
}

/**
 * ct_write - write a cell's event on the current CPU, counted in its ledger
 * @c: the cell
 * @len: payload length
 * @seq: sequence number
 *
 * Any context the implementation writes in.
 *
 * Return: 0, or -ENOSPC if the reserve was refused.
 */
int ct_write(struct ct_cell *c, unsigned int len, u32 seq)
{
	const struct lrb_kunit_impl *impl = c->ci->impl;
	void *ev;
	int cpu;

	preempt_disable();
	cpu = smp_processor_id();
	ev = impl->reserve(c->buf, len);
	if (!ev) {
		c->failed[cpu]++;
		preempt_enable();
		return -ENOSPC;
	}
	lrb_kunit_fill(impl->event_data(ev), len, seq);
	impl->commit(c->buf, ev);
	c->ok[cpu]++;
	preempt_enable();
	return 0;
}

/**
 * ct_writes_off - whether writes on the call's CPU are refused in its state
 * @c: the cell
 *
 * Return: true for an iterator, a reset or a broken ring on the call's CPU,
 * and for a resize (which stops every CPU).
 */
bool ct_writes_off(const struct ct_cell *c)
{
	if (c->state == CT_ST_RESIZE)
		return true;
	return c->ocpu == c->cpu &&
	       (c->state == CT_ST_ITER || c->state == CT_ST_RESET ||
		c->state == CT_ST_BROKEN);
}

/**
 * ct_pushing - whether a head push the reader cannot finish waiting for is
 *	in flight in the cell's state
 * @c: the cell
 *
 * Return: true in the states of CT_S_PUSHING.
 */
bool ct_pushing(const struct ct_cell *c)
{
	return BIT(c->state) & CT_S_PUSHING;
}

/**
 * ct_want_ret - whether a call returned what its kernel-doc says
 * @c: the cell, whose @why receives the message
 * @want: the documented value
 * @got: what it returned
 *
 * Return: NULL, or what is wrong.
 */
const char *ct_want_ret(struct ct_cell *c, long want, long got)
{
	if (got == want)
		return NULL;
	snprintf(c->why, sizeof(c->why), "returned %ld, its documentation says %ld",
		 got, want);
	return c->why;
}

/**
 * ct_expect_oldest - whether a read got the oldest event left
 * @c: the cell: @c->ret is 1 if the call got an event, @c->seq and
 *	@c->lost what it said of it
 *
 * Each event of the prefill is alone on its page, so the first one read is
 * the one whose sequence number is the count of those lost before it (a
 * page read that had no room for the count says only that some were).
 *
 * Return: NULL, or what is wrong.
 */
const char *ct_expect_oldest(struct ct_cell *c)
{
	if (c->ret <= 0)
		return "got nothing from a ring with events";
	if (c->lost == CT_LOST_UNKNOWN && c->seq)
		return NULL;
	if (c->seq != c->lost || c->seq > 2) {
		snprintf(c->why, sizeof(c->why),
			 "read event %u after %lu lost (overrun %lu): not the oldest left",
			 c->seq, c->lost, c->st_call.overrun);
		return c->why;
	}
	return NULL;
}

/**
 * ct_expect_iter - whether an iterator stands at an event
 * @c: the cell: @c->ret is 1 if the iterator gave an event, @c->seq its
 *	sequence number
 * @want: the sequence number it must be at
 *
 * Return: NULL, or what is wrong.
 */
const char *ct_expect_iter(struct ct_cell *c, u32 want)
{
	if (!c->ret)
		return "the iterator found nothing in a ring with events";
	if (c->seq != want) {
		snprintf(c->why, sizeof(c->why), "the iterator is at event %u, not %u",
			 c->seq, want);
		return c->why;
	}
	return NULL;
}

/**
 * ct_expect_event - what a read of the cell's ring must have got
 * @c: the cell: @c->ret is 1 if the call got an event, @c->seq and
 *	@c->lost what it said of it, @c->st_call.busy the ring's busy count
 *	after the call
 *
 * A push in flight keeps the reader from the head page: it gets nothing and
 * counts one busy read, and looks for the head only once if the push is
 * that of the writer it interrupted. A broken ring gives what the reader
 * page holds, nothing here. Otherwise the oldest event left
 * (ct_expect_oldest()).
 *
 * Return: NULL, or what is wrong.
 */
const char *ct_expect_event(struct ct_cell *c)
{
	unsigned long busy = c->st_call.busy - c->busy_before;

	if (ct_pushing(c)) {
		if (c->ret > 0)
			return "read an event while a push held the head";
		if (busy != 1) {
			snprintf(c->why, sizeof(c->why),
				 "got nothing, but %lu busy reads counted, not 1", busy);
			return c->why;
		}
		if ((BIT(c->state) & CT_S_WRITER) && c->spins > 1) {
			snprintf(c->why, sizeof(c->why),
				 "the reader looked for the head %u times: it waited for the writer it interrupted",
				 c->spins);
			return c->why;
		}
		return NULL;
	}
	if (busy) {
		snprintf(c->why, sizeof(c->why),
			 "%lu busy reads with no push in flight", busy);
		return c->why;
	}
	if (c->state == CT_ST_BROKEN)
		return c->ret > 0 ? "read past a broken HEADER" : NULL;
	return ct_expect_oldest(c);
}

/* ---- the call, in its context ----------------------------------------- */

#if LRB_KUNIT_SELF_NMI
static struct ct_cell *ct_nmi_cell;
#endif

static bool ct_in_ctx(enum ct_ctx ctx)
{
	switch (ctx) {
	case CT_TASK:
		return !in_interrupt() && !in_nmi();
	case CT_SOFTIRQ:
		return in_serving_softirq() && !in_hardirq() && !in_nmi();
	case CT_HARDIRQ:
		return in_hardirq() && !in_nmi();
	default:
		return in_nmi();
	}
}

static void ct_call_here(struct ct_cell *c)
{
	c->right_ctx = ct_in_ctx(c->ctx);
	c->op->call(c);
	c->left_when_returned = atomic_read(&c->other_left);
	c->ran = true;
	atomic_set_release(&c->done, 1);
}

static void ct_tasklet(struct tasklet_struct *t)
{
	struct ct_cell *c = from_tasklet(c, t, tasklet);

	ct_call_here(c);
}

static void ct_irq_work(struct irq_work *work)
{
	struct ct_cell *c = container_of(work, struct ct_cell, work);

	if (c->ctx == CT_SOFTIRQ)
		tasklet_hi_schedule(&c->tasklet);
	else
		ct_call_here(c);
}

#if LRB_KUNIT_SELF_NMI
static int ct_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	struct ct_cell *c = READ_ONCE(ct_nmi_cell);

	if (!c || c->ocpu != smp_processor_id() || atomic_read(&c->done))
		return NMI_DONE;
	ct_call_here(c);
	return NMI_HANDLED;
}

static void ct_raise_nmi(struct ct_cell *c)
{
	WRITE_ONCE(ct_nmi_cell, c);
	__apic_send_IPI_mask(cpumask_of(c->ocpu), NMI_VECTOR);
}
#else
static void ct_raise_nmi(struct ct_cell *c)
{
}
#endif

/* Make the call in the cell's context on this CPU, and wait for it */
static void ct_call(struct ct_cell *c)
{
	u64 deadline;

	atomic_set(&c->done, 0);
	if (c->ctx == CT_TASK) {
		ct_call_here(c);
		return;
	}
	if (c->ctx == CT_NMI)
		ct_raise_nmi(c);
	else
		irq_work_queue(&c->work);
	deadline = local_clock() + CT_IRQ_WAIT_NS;
	while (!atomic_read_acquire(&c->done)) {
		if (local_clock() > deadline) {
			c->timed_out = true;
			break;
		}
		cpu_relax();
	}
}

/* ---- reaching the states ----------------------------------------------- */

/* A stopped party: tell the test thread, wait to be let go, say it left */
static void ct_stop_here(struct ct_cell *c, u64 hold_ns, bool can_sleep)
{
	u64 deadline = local_clock() + hold_ns;

	atomic_set_release(&c->stage, 1);
	while (atomic_read_acquire(&c->stage) < 2 && local_clock() < deadline) {
		if (can_sleep)
			cond_resched();
		cpu_relax();
	}
	atomic_set_release(&c->other_left, 1);
}

static void ct_hook(void *buf, int cpu, enum lrb_hook_point point, void *data)
{
	struct ct_cell *c = data;
	const struct ct_state_desc *sd = &ct_states[c->state];

	if (cpu == c->cpu && point == LRB_HOOK_READER_SPIN)
		c->spins++;
	if (cpu != c->cpu || point != sd->point || c->reached)
		return;
	switch (sd->kind) {
	case CT_K_HOOK:
		/* The outermost writer only: the call's own writes nest */
		if (in_interrupt() || in_nmi() || ++c->nth != sd->nth)
			return;
		c->reached = true;
		ct_call(c);
		return;
	case CT_K_REMOTE:
		if (in_interrupt() || in_nmi() || ++c->nth != sd->nth)
			return;
		c->reached = true;
		ct_stop_here(c, c->op->ctx == CT_PROCESS ? CT_HOLD_SHORT_NS :
			     c->ci->remote_hold_ns ?: CT_HOLD_NS, false);
		return;
	case CT_K_REBUILD:
		c->reached = true;
		ct_stop_here(c, c->op->ctx == CT_PROCESS ? CT_HOLD_SHORT_NS :
			     CT_HOLD_NS, true);
		return;
	default:
		return;
	}
}

static void ct_prefill(struct ct_cell *c)
{
	u32 seq;

	for (seq = CT_SEQ_PREFILL; seq < CT_SEQ_STATE; seq++)
		ct_write(c, ct_len_of(seq), seq);
}

/* The other party, on another CPU: a remote writer, or a reset or resize */
static int ct_other_fn(void *data)
{
	struct ct_cell *c = data;

	if (c->state == CT_ST_REMOTE_PUSH) {
		ct_prefill(c);
		ct_write(c, ct_len_of(CT_SEQ_STATE), CT_SEQ_STATE);
	} else {
		c->ci->rebuild(c->buf, c->cpu, c->state == CT_ST_RESIZE, 4);
	}
	/* Nothing stopped it: let the test thread see that */
	atomic_set_release(&c->other_left, 1);
	if (atomic_read(&c->stage) < 1)
		atomic_set_release(&c->stage, -1);
	lrb_kunit_wait_for_stop();
	return 0;
}

static int ct_start_other(struct ct_cell *c, int cpu)
{
	c->other = kthread_run_on_cpu(ct_other_fn, c, cpu, "lrb_contract/%u");
	if (IS_ERR(c->other)) {
		c->other = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void ct_stop_other(struct ct_cell *c)
{
	u64 deadline = local_clock() + CT_WAIT_NS;

	atomic_set_release(&c->stage, 2);
	while (!atomic_read_acquire(&c->other_left) && local_clock() < deadline)
		cond_resched();
	if (!atomic_read(&c->other_left))
		c->timed_out = true;
	kthread_stop(c->other);
	c->other = NULL;
}

/* Wait for the other party to stop at its point; false if it never did */
static bool ct_wait_other(struct ct_cell *c)
{
	u64 deadline = local_clock() + CT_WAIT_NS;

	while (atomic_read_acquire(&c->stage) == 0) {
		if (local_clock() > deadline) {
			c->timed_out = true;
			return false;
		}
		cond_resched();
	}
	return atomic_read(&c->stage) > 0;
}

/* Reach the state and make the call there */
static void ct_enter(struct ct_cell *c)
{
	const struct lrb_kunit_impl *impl = c->ci->impl;
	const struct ct_state_desc *sd = &ct_states[c->state];
	void *iter, *ev;

	switch (sd->kind) {
	case CT_K_IDLE:
		c->reached = true;
		ct_call(c);
		return;
	case CT_K_HOOK:
		ct_write(c, ct_len_of(CT_SEQ_STATE), CT_SEQ_STATE);
		return;
	case CT_K_HELD:
		preempt_disable();
		ev = impl->reserve(c->buf, ct_len_of(CT_SEQ_STATE));
		if (ev) {
			lrb_kunit_fill(impl->event_data(ev), ct_len_of(CT_SEQ_STATE),
				       CT_SEQ_STATE);
			c->reached = true;
			ct_call(c);
			impl->commit(c->buf, ev);
			c->ok[smp_processor_id()]++;
		}
		preempt_enable();
		return;
	case CT_K_ITER:
		iter = impl->read_start(c->buf, c->cpu);
		if (IS_ERR_OR_NULL(iter))
			return;
		c->reached = true;
		ct_call(c);
		impl->read_finish(iter);
		return;
	case CT_K_BROKEN:
		c->reached = true;
		ct_call(c);
		return;
	case CT_K_REMOTE:
	case CT_K_REBUILD:
		/* A reset discards what the ring held */
		c->counts_reset = c->state == CT_ST_RESET;
		if (ct_start_other(c, sd->kind == CT_K_REMOTE ? c->cpu :
				   cpumask_any_but(cpu_online_mask, c->cpu)))
			return;
		if (ct_wait_other(c))
			ct_call(c);
		ct_stop_other(c);
		return;
	}
}

/* ---- the checks every cell ends with ----------------------------------- */

static const char *ct_drain(struct ct_cell *c, int cpu, unsigned long *seen)
{
	const struct lrb_kunit_impl *impl = c->ci->impl;
	unsigned long drained = 0;
	struct lrb_stats st;
	void *ev, *data;
	u32 seq;

	if (impl->stats(c->buf, cpu, &st))
		return "no counters";
	if (st.committed != st.read + st.overrun + st.entries)
		return "committed != read + overrun + entries";
	if (c->counts_reset ? st.committed > c->ok[cpu] : st.committed != c->ok[cpu]) {
		snprintf(c->why, sizeof(c->why),
			 "CPU %d: %lu events committed, the cell wrote %lu", cpu,
			 st.committed, c->ok[cpu]);
		return c->why;
	}
	bitmap_zero(seen, CT_NR_SEQ);
	while (drained <= st.entries && (ev = impl->consume(c->buf, cpu, NULL, NULL))) {
		data = impl->event_data(ev);
		seq = lrb_kunit_payload_seq(data);
		if (seq >= CT_NR_SEQ || test_and_set_bit(seq, seen) ||
		    !lrb_kunit_payload_ok(data, ct_len_of(seq), seq)) {
			snprintf(c->why, sizeof(c->why),
				 "CPU %d: event %u torn, duplicated or not written", cpu, seq);
			return c->why;
		}
		drained++;
	}
	if (drained != st.entries) {
		snprintf(c->why, sizeof(c->why), "CPU %d: drained %lu events of %lu",
			 cpu, drained, st.entries);
		return c->why;
	}
	return NULL;
}

static const char *ct_check_end(struct ct_cell *c, struct lrb_snapshot *snap,
				unsigned long *seen)
{
	const struct lrb_kunit_impl *impl = c->ci->impl;
	const char *why;
	struct lrb_stats st;
	int cpu;

	if (c->state == CT_ST_BROKEN) {
		impl->stats(c->buf, c->cpu, &st);
		if (!st.broken)
			return "the broken ring mended itself";
		/* Kept as it broke, for inspection: a reset is refused */
		if (c->ci->rebuild(c->buf, c->cpu, false, 0) != -EIO)
			return "a reset of the broken ring was not refused with -EIO";
		if (!ct_write(c, ct_len_of(CT_SEQ_AFTER), CT_SEQ_AFTER))
			return "a write to the broken ring was accepted";
	} else if (ct_write(c, ct_len_of(CT_SEQ_AFTER), CT_SEQ_AFTER)) {
		/* Recording goes on */
		return "a write after the cell was refused";
	}
	for_each_online_cpu(cpu) {
		/* Its pages are checked by the cell's own check, as it broke */
		if (c->state == CT_ST_BROKEN && cpu == c->cpu)
			continue;
		if (impl->snapshot(c->buf, cpu, snap) ||
		    !lrb_kunit_snap_sane(c->test, snap, impl->lone_reader)) {
			snprintf(c->why, sizeof(c->why), "CPU %d: ring not sane", cpu);
			lrb_kunit_render(c->test, snap, "the ring after the cell:");
			return c->why;
		}
		impl->stats(c->buf, cpu, &st);
		if (st.broken)
			return "a ring is broken after the cell";
		why = ct_drain(c, cpu, seen);
		if (why)
			return why;
	}
	return NULL;
}

/* ---- a cell, a state, a suite ------------------------------------------ */

/**
 * struct ct_tally - what a state's case ran
 * @run: cells run
 * @failed: cells failed
 * @forbidden: cells the kernel-doc rules out (a context or a state)
 * @hang: cells not run because the call would never return (findings)
 * @no_nmi: NMI cells on an architecture where a test cannot raise one
 */
struct ct_tally {
	unsigned int	run;
	unsigned int	failed;
	unsigned int	forbidden;
	unsigned int	hang;
	unsigned int	no_nmi;
};

static void ct_fail(struct ct_cell *c, const char *why)
{
	KUNIT_FAIL(c->test, "%s: %s in %s, state %s (%s): %s", c->ci->name,
		   c->op->name, ct_ctx_names[c->ctx], ct_states[c->state].name,
		   ct_states[c->state].what, why);
	if (c->snapped)
		lrb_kunit_render(c->test, c->snap, "the ring as the call left it:");
}

static bool ct_run_cell(struct ct_cell *c, struct lrb_snapshot *snap,
			unsigned long *seen)
{
	const struct lrb_kunit_impl *impl = c->ci->impl;
	const char *why = NULL;

	c->buf = impl->alloc(3 * CAP, true);
	if (!c->buf) {
		ct_fail(c, "no buffer");
		return false;
	}
	c->hook.fn = ct_hook;
	c->hook.data = c;
	/* The writer on another CPU fills its own ring, hooked */
	if (c->state == CT_ST_REMOTE_PUSH)
		impl->set_hook(c->buf, &c->hook);
	else
		ct_prefill(c);
	/* Broken before the preparation, which may stop the writers */
	if (c->state == CT_ST_BROKEN && c->ci->break_ring(c)) {
		why = "the ring could not be broken";
		goto out;
	}
	if (c->op->prepare && c->op->prepare(c)) {
		why = "its preparation failed";
		goto out;
	}
	if (c->state != CT_ST_REMOTE_PUSH)
		impl->set_hook(c->buf, &c->hook);
	ct_enter(c);
	if (!c->reached)
		why = "the state was never reached: the cell calls nothing there";
	else if (c->timed_out)
		why = "a bounded wait ran out (the interrupt or the other party never came)";
	else if (!c->ran)
		why = "the call never ran";
	else if (!c->right_ctx)
		why = "the call did not run in its context";
	else
		why = c->op->check(c);
out:
	impl->set_hook(c->buf, NULL);
	if (c->op->cleanup)
		c->op->cleanup(c);
	if (!why) {
		/* The snapshot's room is the end checks' now */
		c->snapped = false;
		why = ct_check_end(c, snap, seen);
	}
	if (why)
		ct_fail(c, why);
	impl->free(c->buf);
	return !why;
}

static bool ct_has_nmi(void)
{
	return LRB_KUNIT_SELF_NMI;
}

static void ct_run_op_state(struct kunit *test, const struct ct_impl *ci,
			    const struct ct_op *op, enum ct_state state,
			    struct ct_tally *t, struct lrb_snapshot *snap,
			    unsigned long *seen)
{
	int ocpu = raw_smp_processor_id(), other;
	enum ct_ctx ctx;

	other = cpumask_any_but(cpu_online_mask, ocpu);
	for (ctx = 0; ctx < CT_NR_CTX; ctx++) {
		struct ct_cell *c;

		if (!(op->ctx & BIT(ctx)) || (op->not_in & BIT(state)) ||
		    (ctx == CT_TASK && (BIT(state) & CT_S_WRITER))) {
			t->forbidden++;
			continue;
		}
		if (ctx == CT_NMI && !ct_has_nmi()) {
			t->no_nmi++;
			continue;
		}
		if (op->hangs_in & BIT(state)) {
			t->hang++;
			kunit_info(test, "%s in %s, state %s: not run: %s", op->name,
				   ct_ctx_names[ctx], ct_states[state].name, op->why_hangs);
			continue;
		}
		c = kzalloc(sizeof(*c), GFP_KERNEL);
		if (!c) {
			KUNIT_FAIL(test, "no memory for a cell");
			return;
		}
		c->ok = kcalloc(nr_cpu_ids, sizeof(*c->ok), GFP_KERNEL);
		c->failed = kcalloc(nr_cpu_ids, sizeof(*c->failed), GFP_KERNEL);
		if (c->ok && c->failed) {
			c->test = test;
			c->ci = ci;
			c->op = op;
			c->state = state;
			c->ctx = ctx;
			c->ocpu = ocpu;
			c->cpu = state == CT_ST_REMOTE_PUSH ? other : ocpu;
			c->snap = snap;
			c->work = IRQ_WORK_INIT_HARD(ct_irq_work);
			tasklet_setup(&c->tasklet, ct_tasklet);
			t->run++;
			if (!ct_run_cell(c, snap, seen))
				t->failed++;
			irq_work_sync(&c->work);
			tasklet_kill(&c->tasklet);
#if LRB_KUNIT_SELF_NMI
			WRITE_ONCE(ct_nmi_cell, NULL);
#endif
		} else {
			KUNIT_FAIL(test, "no memory for a cell");
		}
		kfree(c->ok);
		kfree(c->failed);
		kfree(c);
	}
}

/**
 * ct_run_suite - run one state's row of the matrix for an implementation
 * @test: the case; its parameter is the state
 * @ci: the implementation
 *
 * Every row of @ci in every context its kernel-doc allows, in the state.
 * Prints the counts; a state the implementation cannot reach is skipped,
 * saying why.
 */
void ct_run_suite(struct kunit *test, const struct ct_impl *ci)
{
	const enum ct_state *statep = test->param_value;
	enum ct_state state = *statep;
	struct lrb_snapshot *snap;
	struct ct_tally t = { };
	unsigned long *seen;
	unsigned int i;

	if (!(ci->states & BIT(state)))
		kunit_skip(test, "%s: state %s cannot be reached: %s", ci->name,
			   ct_states[state].name, ci->why_not[state]);
	if ((state == CT_ST_REMOTE_PUSH || ct_states[state].kind == CT_K_REBUILD) &&
	    num_online_cpus() < 2)
		kunit_skip(test, "state %s needs a second CPU", ct_states[state].name);
	lrb_kunit_pin_current(test);
	snap = kunit_kmalloc(test, sizeof(*snap), GFP_KERNEL);
	seen = kunit_kcalloc(test, BITS_TO_LONGS(CT_NR_SEQ), sizeof(*seen), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, snap);
	KUNIT_ASSERT_NOT_NULL(test, seen);
	for (i = 0; i < ci->nr_ops; i++)
		ct_run_op_state(test, ci, &ci->ops[i], state, &t, snap, seen);
	kunit_info(test, "%s, state %s (%s): %u cells run, %u failed; %u ruled out by the contract (context or state), %u not run because the call would never return, %u NMI cells with no NMI to raise here",
		   ci->name, ct_states[state].name, ct_states[state].what, t.run,
		   t.failed, t.forbidden, t.hang, t.no_nmi);
	KUNIT_EXPECT_GT_MSG(test, t.run, 0U, "no cell ran in state %s",
			    ct_states[state].name);
}

/* ---- the suites -------------------------------------------------------- */

static const enum ct_state ct_all_states[CT_NR_STATES] = {
	CT_ST_IDLE, CT_ST_W_STAMP, CT_ST_W_RESERVED, CT_ST_W_PUSH,
	CT_ST_W_NEW_HEAD, CT_ST_W_TAIL, CT_ST_W_HELD, CT_ST_W_COMMIT,
	CT_ST_REMOTE_PUSH, CT_ST_ITER, CT_ST_RESET, CT_ST_RESIZE, CT_ST_BROKEN,
};

static void ct_state_desc(const enum ct_state *s, char *desc)
{
	strscpy(desc, ct_states[*s].name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ct_state, ct_all_states, ct_state_desc);

static void ct_lrb_state(struct kunit *test)
{
	ct_run_suite(test, &ct_impl_lrb);
}

static int ct_suite_init(struct kunit_suite *suite)
{
#if LRB_KUNIT_SELF_NMI
	return register_nmi_handler(NMI_LOCAL, ct_nmi_handler, 0, "lrb_contract");
#else
	return 0;
#endif
}

static void ct_suite_exit(struct kunit_suite *suite)
{
#if LRB_KUNIT_SELF_NMI
	unregister_nmi_handler(NMI_LOCAL, "lrb_contract");
#endif
}

static struct kunit_case lrb_contract_cases[] = {
	KUNIT_CASE_PARAM(ct_lrb_state, ct_state_gen_params),
	{}
};

static struct kunit_suite lrb_contract_suite = {
	.name = "lrb_contract",
	.init = lrb_kunit_impl_init_lrb,
	.suite_init = ct_suite_init,
	.suite_exit = ct_suite_exit,
	.test_cases = lrb_contract_cases,
};

#ifdef CONFIG_RING_BUFFER
static void ct_kernel_state(struct kunit *test)
{
	ct_run_suite(test, &ct_impl_kernel);
}

static struct kunit_case lrb_contract_kernel_cases[] = {
	KUNIT_CASE_PARAM(ct_kernel_state, ct_state_gen_params),
	{}
};

static struct kunit_suite lrb_contract_kernel_suite = {
	.name = "lrb_contract_kernel",
	.init = lrb_kunit_impl_init_kernel,
	.suite_init = ct_suite_init,
	.suite_exit = ct_suite_exit,
	.test_cases = lrb_contract_kernel_cases,
};

lrb_kunit_impl_suites(&lrb_contract_suite, &lrb_contract_kernel_suite);
#else
kunit_test_suite(lrb_contract_suite);
#endif
