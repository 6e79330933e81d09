// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_irq: nested writers from real interrupts.
 *
 * At each write-path hook point, a hardirq (irq_work) or, on x86, an NMI
 * is raised on the writer's CPU and the writer waits at that point, with a
 * bounded spin, until the interrupt has written: the nested write runs in
 * real interrupt context exactly there. Then the same checks as lrb_nesting.
 * The head points are reached in overwrite mode only, so producer/consumer
 * cases exist for the other points; a case whose point is never reached,
 * whose interrupt never comes or never writes, fails. A last case lets an
 * hrtimer write at arbitrary moments while the task writes in a loop, and
 * fails unless some of those writes came in while the task held a
 * reservation. And one misuse from interrupt context: a handler committing
 * the reservation of the task it interrupted.
 */

#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/ktime.h>
#include <linux/nmi.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/nmi.h>
#endif

#include "lrb_kunit.h"
#include "lrb_kunit_impl.h"

#define CAP		LRB_KUNIT_CAPACITY
#define BIG		(CAP - 8)
/* A multiple of 8: read back at the length written, whatever the layout */
#define HALF		round_down(CAP / 2, 8)
#define MAX_WRITES	64
#define IRQ_WAIT_NS	(2ULL * NSEC_PER_SEC)

static const enum lrb_hook_point irq_points[] = {
	LRB_HOOK_STAMP,
	LRB_HOOK_RESERVED,
	LRB_HOOK_MOVE_TAIL,
	LRB_HOOK_HEAD_UPDATE_BEFORE,
	LRB_HOOK_HEAD_UPDATE_AFTER,
	LRB_HOOK_NEW_HEAD_BEFORE,
	LRB_HOOK_NEW_HEAD_AFTER,
	LRB_HOOK_HEAD_NORMAL_BEFORE,
	LRB_HOOK_TAIL_RESET,
	LRB_HOOK_TAIL_BEFORE,
	LRB_HOOK_TAIL_AFTER,
	LRB_HOOK_COMMIT_BEFORE,
	LRB_HOOK_COMMIT_AFTER,
};

enum irq_kind { KIND_HARDIRQ, KIND_NMI };

struct irq_param {
	enum irq_kind	kind;
	unsigned long	flags;
	unsigned int	point;
	char		name[64];
};

static struct irq_param irq_params[2 * 2 * ARRAY_SIZE(irq_points)];
static unsigned int irq_nr_params;

struct irq_run {
	const struct lrb_kunit_impl *impl;
	void			*b;
	struct lrb_kunit_hook	hook;
	int			cpu;
	enum irq_kind		kind;
	enum lrb_hook_point	point;
	bool			armed;
	bool			raised;
	atomic_t		done;
	bool			in_irq_ctx;
	bool			irqs_were_off;
	bool			timed_out;
	/* writes that reached the reserve in interrupt context */
	unsigned int		irq_writes;
	u32			next_seq;
	unsigned int		len_of[MAX_WRITES];
	unsigned long		ok;
	unsigned long		failed;
	struct irq_work		work;
};

/* The irq_run an NMI should serve; NULL when none is expected */
static struct irq_run *irq_nmi_run;

static void irq_write(struct irq_run *r, unsigned int len)
{
	void *ev;
	u32 seq;

	if (r->next_seq >= MAX_WRITES)
		return;
	seq = r->next_seq++;
	r->len_of[seq] = len;
	if (in_hardirq() || in_nmi())
		r->irq_writes++;
	ev = r->impl->reserve(r->b, len);
	if (!ev) {
		r->failed++;
		return;
	}
	lrb_kunit_fill(r->impl->event_data(ev), len, seq);
	r->impl->commit(r->b, ev);
	r->ok++;
}

/* The nested writer, in interrupt context */
static void irq_nested(struct irq_run *r)
{
	r->in_irq_ctx = r->kind == KIND_NMI ? in_nmi() : in_hardirq();
	irq_write(r, BIG);
	atomic_set_release(&r->done, 1);
}

static void irq_work_fn(struct irq_work *work)
{
	irq_nested(container_of(work, struct irq_run, work));
}

#if LRB_KUNIT_SELF_NMI
static int irq_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	struct irq_run *r = READ_ONCE(irq_nmi_run);

	if (!r || r->cpu != smp_processor_id() || atomic_read(&r->done))
		return NMI_DONE;
	irq_nested(r);
	return NMI_HANDLED;
}

static bool irq_raise_nmi(struct irq_run *r)
{
	WRITE_ONCE(irq_nmi_run, r);
	__apic_send_IPI_mask(cpumask_of(r->cpu), NMI_VECTOR);
	return true;
}
#else
static bool irq_raise_nmi(struct irq_run *r)
{
	return false;
}
#endif

/* At the point: raise the interrupt and wait here until it has written */
static void irq_hook(void *b, int cpu, enum lrb_hook_point point, void *data)
{
	struct irq_run *r = data;
	u64 deadline;

	if (!r->armed || r->raised || cpu != r->cpu || point != r->point ||
	    in_interrupt() || in_nmi())
		return;
	r->raised = true;
	if (irqs_disabled() && r->kind == KIND_HARDIRQ) {
		r->irqs_were_off = true;
		return;
	}
	if (r->kind == KIND_NMI)
		irq_raise_nmi(r);
	else
		irq_work_queue(&r->work);
	deadline = local_clock() + IRQ_WAIT_NS;
	while (!atomic_read_acquire(&r->done)) {
		if (local_clock() > deadline) {
			r->timed_out = true;
			break;
		}
		cpu_relax();
	}
}

static const char *irq_check(struct irq_run *r, struct lrb_snapshot *snap,
			     char *why, size_t len)
{
	unsigned long lost, lost_sum = 0, read = 0, seen[BITS_TO_LONGS(MAX_WRITES)];
	const struct lrb_kunit_impl *impl = r->impl;
	struct lrb_stats st;
	void *ev;
	u64 ts, last = 0;
	u32 seq;

	impl->snapshot(r->b, r->cpu, snap);
	if (!snap->ring_ok || snap->nr_header != 1 || snap->nr_update ||
	    snap->committing || snap->tail != snap->commit)
		return "ring not sane";
	impl->stats(r->b, r->cpu, &st);
	if (st.committed != r->ok ||
	    st.dropped + st.commit_overrun + st.rejected != r->failed)
		return "counters do not match the writes";
	bitmap_zero(seen, MAX_WRITES);
	while ((ev = impl->consume(r->b, r->cpu, &ts, &lost))) {
		seq = lrb_kunit_payload_seq(impl->event_data(ev));
		if (seq >= r->next_seq || test_and_set_bit(seq, seen) ||
		    !lrb_kunit_payload_ok(impl->event_data(ev), r->len_of[seq], seq)) {
			snprintf(why, len, "event seq %u torn, duplicated or unknown", seq);
			return why;
		}
		if (ts < last)
			return "time went back";
		last = ts;
		lost_sum += lost;
		if (++read > MAX_WRITES)
			return "too many events";
	}
	impl->stats(r->b, r->cpu, &st);
	if (read + st.overrun != st.committed || lost_sum != st.overrun) {
		snprintf(why, len, "accounting: read %lu overrun %lu committed %lu lost %lu",
			 read, st.overrun, st.committed, lost_sum);
		return why;
	}
	return NULL;
}

static void irq_at_hook_points(struct kunit *test)
{
	const struct irq_param *p = test->param_value;
	struct lrb_snapshot *snap;
	unsigned int state, i, runs = 0, reached = 0;
	char why[160];

	if (p->kind == KIND_NMI && !LRB_KUNIT_SELF_NMI)
		kunit_skip(test, "no way to raise an NMI from a test on this architecture");
	snap = kunit_kmalloc(test, sizeof(*snap), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, snap);

	for (state = 0; state < 2; state++) {
		struct irq_run *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
		const char *fail;

		KUNIT_ASSERT_NOT_NULL(test, r);
		r->impl = test->priv;
		r->kind = p->kind;
		r->point = irq_points[p->point];
		r->work = IRQ_WORK_INIT_HARD(irq_work_fn);
		r->b = r->impl->alloc(3 * CAP, p->flags & LRB_FL_OVERWRITE);
		KUNIT_ASSERT_NOT_NULL(test, r->b);
		migrate_disable();
		r->cpu = smp_processor_id();
		r->hook.fn = irq_hook;
		r->hook.data = r;
		r->impl->set_hook(r->b, &r->hook);
		/* state 0: a nearly full tail page; 1: a full ring */
		if (state)
			for (i = 0; i < 3; i++)
				irq_write(r, BIG);
		else
			irq_write(r, CAP - 100 - 8);
		r->armed = true;
		irq_write(r, HALF);
		r->armed = false;
		irq_work_sync(&r->work);
		WRITE_ONCE(irq_nmi_run, NULL);
		runs++;
		if (r->raised && r->irq_writes)
			reached++;
		KUNIT_EXPECT_FALSE_MSG(test, r->timed_out,
				       "state %u: the interrupt never came", state);
		KUNIT_EXPECT_FALSE_MSG(test, r->irqs_were_off,
				       "state %u: interrupts were off at %s: no hardirq can come in there",
				       state, lrb_hook_name(r->point));
		if (atomic_read(&r->done))
			KUNIT_EXPECT_TRUE_MSG(test, r->in_irq_ctx,
					      "state %u: nested write not in %s context",
					      state, p->kind == KIND_NMI ? "NMI" : "hardirq");
		fail = irq_check(r, snap, why, sizeof(why));
		if (fail) {
			KUNIT_FAIL(test, "%s, state %u: %s", p->name, state, fail);
			lrb_kunit_render(test, snap, "ring at the failure:");
		}
		r->impl->set_hook(r->b, NULL);
		migrate_enable();
		r->impl->free(r->b);
	}
	kunit_info(test, "%s: %u runs, %u with the interrupt writing at the point",
		   p->name, runs, reached);
	KUNIT_EXPECT_GT_MSG(test, reached, 0U,
			    "%s: no run reached %s with an interrupt writing there: the case injects nothing",
			    p->name, lrb_hook_name(irq_points[p->point]));
}

static const void *irq_gen_params(const void *prev, char *desc)
{
	const struct irq_param *p = prev;

	p = p ? p + 1 : irq_params;
	if (p >= irq_params + irq_nr_params)
		return NULL;
	strscpy(desc, p->name, KUNIT_PARAM_DESC_SIZE);
	return p;
}

/* ---- hrtimer writers at arbitrary moments ------------------------------- */

#define TASK_TAG	0x10000000U

/* What the task writer is doing when the hrtimer fires */
enum hr_task_state { HR_IDLE, HR_WRITING, HR_RESERVED };

struct hr_ctx {
	struct hrtimer		timer;
	const struct lrb_kunit_impl *impl;
	void			*b;
	int			cpu;
	atomic_t		task_writing;
	unsigned long		irq_ok;
	unsigned long		irq_failed;
	unsigned long		irq_nested;
	unsigned long		irq_in_reservation;
	u32			irq_seq;
	bool			stop;
};

static enum hrtimer_restart hr_fn(struct hrtimer *t)
{
	struct hr_ctx *h = container_of(t, struct hr_ctx, timer);
	void *ev;

	if (smp_processor_id() == h->cpu) {
		int task = atomic_read(&h->task_writing);

		ev = h->impl->reserve(h->b, 24);
		if (ev) {
			lrb_kunit_fill(h->impl->event_data(ev), 24, h->irq_seq++);
			h->impl->commit(h->b, ev);
			h->irq_ok++;
			/* Only a committed write counts as nested */
			if (task != HR_IDLE)
				h->irq_nested++;
			if (task == HR_RESERVED)
				h->irq_in_reservation++;
		} else {
			h->irq_failed++;
		}
	}
	if (READ_ONCE(h->stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(20 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void hrtimer_writes_at_arbitrary_moments(struct kunit *test)
{
	unsigned long task_ok = 0, task_failed = 0, read = 0, lost, lost_sum = 0;
	u32 task_seq = 0, last_task = 0, last_irq = 0, seq;
	bool any_task = false, any_irq = false;
	const struct lrb_kunit_impl *impl = test->priv;
	struct lrb_stats st;
	struct hr_ctx *h;
	u64 start, end, ts, last_ts = 0;
	void *ev;

	h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h);
	h->impl = impl;
	h->b = impl->alloc(8 * CAP, true);
	KUNIT_ASSERT_NOT_NULL(test, h->b);
	migrate_disable();
	h->cpu = smp_processor_id();
	hrtimer_init(&h->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	h->timer.function = hr_fn;
	hrtimer_start(&h->timer, ns_to_ktime(20 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);

	/*
	 * 200 ms, and on up to 2 s until a timer write came in while the task
	 * held a reservation: under TCG that window is hit by chance
	 */
	start = local_clock();
	end = start + 200 * NSEC_PER_MSEC;
	while (local_clock() < end ||
	       (!READ_ONCE(h->irq_in_reservation) &&
		local_clock() < start + 2000 * NSEC_PER_MSEC)) {
		unsigned int len = 8 + (task_seq % 13) * 20;

		atomic_set(&h->task_writing, HR_WRITING);
		ev = impl->reserve(h->b, len);
		if (ev) {
			/* an interrupt from here on nests between reserve and commit */
			atomic_set(&h->task_writing, HR_RESERVED);
			lrb_kunit_fill(impl->event_data(ev), len, TASK_TAG | task_seq);
			task_seq++;
			impl->commit(h->b, ev);
			task_ok++;
		} else {
			task_failed++;
		}
		atomic_set(&h->task_writing, HR_IDLE);
	}
	WRITE_ONCE(h->stop, true);
	hrtimer_cancel(&h->timer);

	/* Each stream in order, nothing torn, loss reported as overrun */
	while ((ev = impl->consume(h->b, h->cpu, &ts, &lost))) {
		unsigned int n = impl->event_length(ev);

		seq = lrb_kunit_payload_seq(impl->event_data(ev));
		if (seq & TASK_TAG) {
			unsigned int len = 8 + ((seq & ~TASK_TAG) % 13) * 20;

			KUNIT_EXPECT_TRUE(test,
					  lrb_kunit_payload_ok(impl->event_data(ev),
							       len, seq));
			KUNIT_EXPECT_TRUE(test, !any_task || seq > last_task);
			last_task = seq;
			any_task = true;
		} else {
			KUNIT_EXPECT_EQ(test, n, 24U);
			KUNIT_EXPECT_TRUE(test, !any_irq || seq > last_irq);
			KUNIT_EXPECT_TRUE(test,
					  lrb_kunit_payload_ok(impl->event_data(ev),
							       24, seq));
			last_irq = seq;
			any_irq = true;
		}
		KUNIT_EXPECT_GE(test, ts, last_ts);
		last_ts = ts;
		lost_sum += lost;
		read++;
	}
	impl->stats(h->b, h->cpu, &st);
	migrate_enable();
	KUNIT_EXPECT_EQ(test, st.committed, task_ok + h->irq_ok);
	KUNIT_EXPECT_EQ(test, st.dropped + st.commit_overrun,
			task_failed + h->irq_failed);
	KUNIT_EXPECT_EQ(test, read + st.overrun, st.committed);
	KUNIT_EXPECT_EQ(test, lost_sum, st.overrun);
	kunit_info(test, "task wrote %lu, hrtimer wrote %lu (%lu of them inside a task write, %lu while the task held a reservation), read %lu, overwritten %lu, dropped %lu",
		   task_ok, h->irq_ok, h->irq_nested, h->irq_in_reservation, read,
		   st.overrun, st.dropped + st.commit_overrun);
	KUNIT_EXPECT_GT_MSG(test, task_ok, 0UL, "the task wrote nothing");
	KUNIT_EXPECT_GT_MSG(test, h->irq_in_reservation, 0UL,
			    "no hrtimer write came in while the task held a reservation: nothing nested");
	KUNIT_EXPECT_GT_MSG(test, st.overrun, 0UL,
			    "the writers never went round the ring: nothing was overwritten");
	impl->free(h->b);
}

/* ---- a reader in an interrupt over the writer ------------------------- */

/* Readers in an hrtimer on the CPU of a task that writes */
struct hr_reader {
	struct hrtimer		timer;
	struct lrb_buffer	*b;
	int			cpu;
	unsigned long		read;
	unsigned long		reads;
	/* READER_SPIN hook calls in the current read, and the most in one */
	unsigned int		spins;
	unsigned int		max_spins;
	bool			stop;
};

static void hr_reader_hook(struct lrb_buffer *b, int cpu,
			   enum lrb_hook_point point, void *data)
{
	struct hr_reader *h = data;

	if (point == LRB_HOOK_READER_SPIN && in_hardirq())
		h->spins++;
}

static enum hrtimer_restart hr_reader_fn(struct hrtimer *t)
{
	struct hr_reader *h = container_of(t, struct hr_reader, timer);
	unsigned int i;

	if (smp_processor_id() == h->cpu) {
		/* Drain the reader page, so that reads need the head */
		for (i = 0; i < 64; i++) {
			h->spins = 0;
			h->reads++;
			if (!lrb_consume(h->b, h->cpu, NULL, NULL))
				break;
			h->read++;
			h->max_spins = max(h->max_spins, h->spins);
		}
		h->max_spins = max(h->max_spins, h->spins);
	}
	if (READ_ONCE(h->stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(30 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/*
 * lrb_consume() is allowed in any context but NMI, so also in an interrupt
 * that came in while a writer of the same CPU pushed the head. The task
 * writes a 2-page overwrite ring in a loop, two events a page, so that
 * every other write pushes the head; an hrtimer on its CPU reads every
 * 30 us. A read that lands on the push cannot wait for the writer it
 * interrupted: it returns at once (looking for the head once), counted as
 * busy, and the ring never breaks. The run goes on, 10 times its length at
 * most, until some read landed on a push (within 1 to 3 lengths on 64 KiB
 * pages under TCG, 2026-12-07).
 */
static void reader_in_interrupt_over_pushing_writer(struct kunit *test)
{
	unsigned long written = 0, failed = 0;
	struct lrb_event *ev;
	struct lrb_stats st;
	struct hr_reader *h;
	u64 start, end;
	u8 *data;

	h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);
	data = kunit_kzalloc(test, HALF, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h);
	KUNIT_ASSERT_NOT_NULL(test, data);
	h->b = lrb_alloc(2 * CAP, LRB_FL_OVERWRITE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, h->b);
	h->cpu = lrb_kunit_pin_current(test);
	KUNIT_ASSERT_EQ(test, 0, lrb_set_test_hook(h->b, hr_reader_hook, h));
	hrtimer_init(&h->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	h->timer.function = hr_reader_fn;
	hrtimer_start(&h->timer, ns_to_ktime(30 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	start = local_clock();
	end = start + 200 * NSEC_PER_MSEC;
	for (;;) {
		/*
		 * Reserved and committed, not copied: a write then costs the
		 * same on any page size, and its head push takes as large a
		 * share of the run on 64 KiB pages as on 4 KiB ones
		 */
		ev = lrb_lock_reserve(h->b, HALF - 8);
		if (!ev || lrb_unlock_commit(h->b, ev))
			failed++;
		else
			written++;
		if (local_clock() < end)
			continue;
		lrb_stats_cpu(h->b, h->cpu, &st);
		if (st.busy || local_clock() > start + 2000 * NSEC_PER_MSEC)
			break;
		cond_resched();
	}
	WRITE_ONCE(h->stop, true);
	hrtimer_cancel(&h->timer);
	lrb_set_test_hook(h->b, NULL, NULL);
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(h->b, h->cpu, &st));
	kunit_info(test, "task wrote %lu (%lu refused); hrtimer reads %lu, %lu events, %lu busy; most head searches in one read %u; broken %lu; run %llu ms",
		   written, failed, h->reads, h->read, st.busy, h->max_spins, st.broken,
		   div_u64(local_clock() - start, NSEC_PER_MSEC));
	KUNIT_EXPECT_EQ_MSG(test, st.broken, 0UL,
			    "a reader over its own CPU's writer broke the ring");
	KUNIT_EXPECT_LE_MSG(test, h->max_spins, 1U,
			    "a reader in an interrupt waited for the writer it interrupted");
	KUNIT_EXPECT_EQ(test, st.committed, written);
	KUNIT_EXPECT_EQ(test, st.read, h->read);
	KUNIT_EXPECT_EQ(test, st.committed, st.read + st.overrun + st.entries);
	KUNIT_EXPECT_GT_MSG(test, st.busy, 0UL,
			    "no read landed on a head push: the case injects nothing");
	KUNIT_EXPECT_EQ(test, 0, lrb_write(h->b, HALF - 8, data));
	lrb_free(h->b);
}

/* ---- misuse from interrupt context -------------------------------------- */

/* An interrupt handler that commits the event of the task it interrupted */
struct irq_misuse {
	struct irq_work		work;
	struct lrb_buffer	*b;
	struct lrb_event	*ev;
	int			ret;
	atomic_t		done;
};

static void irq_misuse_fn(struct irq_work *work)
{
	struct irq_misuse *m = container_of(work, struct irq_misuse, work);

	m->ret = lrb_unlock_commit(m->b, m->ev);
	atomic_set_release(&m->done, 1);
}

/*
 * A hardirq commits the event a task reserved and has half written, which
 * would publish it half written: with CONFIG_LOCKLESS_RING_BUFFER_DEBUG the
 * commit is refused with one warning. The task then writes the rest of its
 * event and commits it, and the reader gets it whole.
 */
static void commit_from_interrupt_over_task_writer(struct kunit *test)
{
	struct lrb_stats st;
	struct irq_misuse *m;
	struct lrb_event *ev;
	struct lrb_tb *tb;
	bool timed_out = false;
	int cpu, ret = -1;
	u64 deadline;

	if (!IS_ENABLED(CONFIG_LOCKLESS_RING_BUFFER_DEBUG))
		kunit_skip(test, "needs CONFIG_LOCKLESS_RING_BUFFER_DEBUG");
	tb = lrb_tb_alloc(test, 4 * CAP, 0);
	lrb_tb_check_at_end(test, tb);
	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	init_irq_work(&m->work, irq_misuse_fn);
	m->b = tb->b;
	cpu = lrb_kunit_pin_current(test);

	pr_info("lrb-kunit: expect one WARNING at lrb_unlock_commit\n");
	ev = lrb_lock_reserve(tb->b, HALF);
	if (ev) {
		memset(lrb_event_data(ev), 0, HALF);
		m->ev = ev;
		irq_work_queue(&m->work);
		deadline = local_clock() + IRQ_WAIT_NS;
		while (!atomic_read_acquire(&m->done) && !timed_out)
			timed_out = local_clock() > deadline;
		lrb_kunit_fill(lrb_event_data(ev), HALF, 0);
		ret = lrb_unlock_commit(tb->b, ev);
		tb->ok[cpu]++;
	}
	KUNIT_ASSERT_NOT_NULL(test, ev);
	irq_work_sync(&m->work);
	KUNIT_ASSERT_FALSE_MSG(test, timed_out, "the interrupt never came");
	KUNIT_EXPECT_EQ_MSG(test, m->ret, -EINVAL,
			    "the interrupt committed the task's half-written event");
	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "the task's own commit");
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
	KUNIT_EXPECT_EQ(test, st.committed, 1UL);
	KUNIT_EXPECT_EQ(test, st.broken, 0UL);
	ev = lrb_consume(tb->b, cpu, NULL, NULL);
	KUNIT_ASSERT_NOT_NULL(test, ev);
	KUNIT_EXPECT_EQ(test, lrb_event_length(ev), (unsigned int)HALF);
	KUNIT_EXPECT_TRUE_MSG(test, lrb_kunit_payload_ok(lrb_event_data(ev), HALF, 0),
			      "the event read back is not the task's whole payload");
	KUNIT_EXPECT_NULL(test, lrb_consume(tb->b, cpu, NULL, NULL));
	lrb_kunit_line(test,
		       "the interrupt's commit returned %d; the task's event read back whole",
		       m->ret);
}

static int irq_suite_init(struct kunit_suite *suite)
{
	unsigned int k, m, pt;

	irq_nr_params = 0;
	for (k = 0; k < 2; k++)
		for (m = 0; m < 2; m++)
			for (pt = 0; pt < ARRAY_SIZE(irq_points); pt++) {
				struct irq_param *p;

				/* The head handling is overwrite mode's only */
				if (!m && irq_points[pt] >= LRB_HOOK_HEAD_UPDATE_BEFORE &&
				    irq_points[pt] <= LRB_HOOK_HEAD_NORMAL_BEFORE)
					continue;
				p = &irq_params[irq_nr_params++];
				p->kind = k ? KIND_NMI : KIND_HARDIRQ;
				p->flags = m ? LRB_FL_OVERWRITE : 0;
				p->point = pt;
				snprintf(p->name, sizeof(p->name), "%s_%s_%s",
					 k ? "nmi" : "hardirq",
					 m ? "overwrite" : "prodcons",
					 lrb_hook_name(irq_points[pt]));
			}
#if LRB_KUNIT_SELF_NMI
	return register_nmi_handler(NMI_LOCAL, irq_nmi_handler, 0, "lrb_irq");
#else
	return 0;
#endif
}

static void irq_suite_exit(struct kunit_suite *suite)
{
#if LRB_KUNIT_SELF_NMI
	unregister_nmi_handler(NMI_LOCAL, "lrb_irq");
#endif
}

static struct kunit_case lrb_irq_cases[] = {
	KUNIT_CASE_PARAM(irq_at_hook_points, irq_gen_params),
	KUNIT_CASE(hrtimer_writes_at_arbitrary_moments),
	KUNIT_CASE(reader_in_interrupt_over_pushing_writer),
	KUNIT_CASE(commit_from_interrupt_over_task_writer),
	{}
};

static struct kunit_suite lrb_irq_suite = {
	.name = "lrb_irq",
	.init = lrb_kunit_impl_init_lrb,
	.suite_init = irq_suite_init,
	.suite_exit = irq_suite_exit,
	.test_cases = lrb_irq_cases,
};

#ifdef CONFIG_RING_BUFFER
/* The same interrupts at the same steps of kernel/trace/ring_buffer.c */
static struct kunit_case lrb_irq_kernel_cases[] = {
	KUNIT_CASE_PARAM(irq_at_hook_points, irq_gen_params),
	KUNIT_CASE(hrtimer_writes_at_arbitrary_moments),
	{}
};

static struct kunit_suite lrb_irq_kernel_suite = {
	.name = "lrb_irq_kernel",
	.init = lrb_kunit_impl_init_kernel,
	.suite_init = irq_suite_init,
	.suite_exit = irq_suite_exit,
	.test_cases = lrb_irq_kernel_cases,
};

lrb_kunit_impl_suites(&lrb_irq_suite, &lrb_irq_kernel_suite);
#else
kunit_test_suite(lrb_irq_suite);
#endif
