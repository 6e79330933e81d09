// SPDX-License-Identifier: GPL-2.0
/*
 * The stress engine of lrb_stress and lrb_kernel_rb: writers on every CPU
 * but one, hrtimer writers nested on the same CPUs, and a reader on the
 * last CPU that consumes, reads whole pages or iterates, in both modes,
 * for lrb_stress_ms per run, on any buffer behind &struct stress_ops.
 *
 * Every event carries its CPU, its context (task or hrtimer), a sequence
 * number per CPU and context, its length and a checksum. The reader checks
 * that events come from the CPU they are read from, are not torn, and that
 * sequence numbers strictly increase per stream; that every reported loss
 * is exactly covered by the gaps the two streams of that CPU show next
 * (and at the end by the events never seen); and at the end that the
 * counters add up to what the writers did.
 */

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>

#include "lrb_kunit.h"
#include "lrb_kunit_impl.h"
#include "lrb_stress_engine.h"

static unsigned int lrb_stress_ms = 1000;
module_param(lrb_stress_ms, uint, 0444);
MODULE_PARM_DESC(lrb_stress_ms, "duration of each stress run in ms");

#define STRESS_PAGES	16
#define HR_PERIOD_NS	(50 * NSEC_PER_USEC)
/* A run lasts lrb_stress_ms, or up to this many times that for its coverage */
#define STRESS_MAX_RUNS	4
#define CTX_TASK	0
#define CTX_IRQ		1

struct stress_ev {
	u32	seq;
	u16	cpu;
	u8	ctx;
	u8	pad;
	u32	len;
	u32	sum;
	u8	fill[];
};

static const struct stress_param stress_params[] = {
	{ true, READ_CONSUME, "overwrite_consume" },
	{ false, READ_CONSUME, "prodcons_consume" },
	{ true, READ_PAGES, "overwrite_read_page" },
	{ false, READ_PAGES, "prodcons_read_page" },
	{ true, READ_ITERATE, "overwrite_iterate" },
	{ false, READ_ITERATE, "prodcons_iterate" },
};

KUNIT_ARRAY_PARAM_DESC(stress, stress_params, name);

/**
 * stress_engine_params - parameter generator of the stress cases
 * @prev: the previous parameter, or NULL for the first
 * @desc: receives the parameter's description
 *
 * Return: the next &struct stress_param, or NULL after the last.
 */
const void *stress_engine_params(const void *prev, char *desc)
{
	return stress_gen_params(prev, desc);
}

/* What happened on one CPU, as the writers and the reader saw it */
struct stress_cpu {
	struct hrtimer		timer;
	struct stress_run	*run;
	int			cpu;
	u32			seq[2];
	unsigned long		ok[2];
	unsigned long		failed[2];
	/* the task writer holds a reservation: a timer write now nests */
	bool			reserved;
	unsigned long		nested;
	/* reader side */
	bool			seen[2];
	u32			last[2];
	long			pending;
	bool			need[2];
	unsigned long		read;
	unsigned long		lost;
	unsigned long		gaps;
	unsigned long		bad;
	unsigned long		unattributed;
	unsigned long		silent;
	unsigned long		late;
	bool			approx;
	char			err[160];
};

#define LOST_UNKNOWN	ULONG_MAX

struct stress_run {
	const struct stress_ops	*ops;
	const struct stress_param *p;
	void			*b;
	struct stress_cpu	*cpus;
	int			reader_cpu;
	bool			stop;
	atomic_t		running;
	struct completion	all_done;
	/* reader side, while the writers run */
	unsigned long		iterated;
	/* iterator drop reports where nothing was lost (ops->iter_false_drops) */
	unsigned long		false_drops;
	unsigned long		samples;
	unsigned long		samples_off;
	struct lrb_stats	off;
	int			off_cpu;
};

static u32 stress_sum(const struct stress_ev *e)
{
	const u8 *p = (const u8 *)e;
	u32 h = 2166136261U;
	unsigned int i;

	for (i = 0; i < e->len; i++) {
		if (i >= offsetof(struct stress_ev, sum) &&
		    i < offsetof(struct stress_ev, sum) + sizeof(e->sum))
			continue;
		h = (h ^ p[i]) * 16777619U;
	}
	return h;
}

static int stress_write(struct stress_run *run, struct stress_cpu *sc, int ctx)
{
	void *ev;
	struct stress_ev *e;
	unsigned int len, i;

	len = sizeof(*e) + (sc->seq[ctx] * 7 + ctx * 3) % 200;
	ev = run->ops->impl->reserve(run->b, len);
	if (!ev) {
		sc->failed[ctx]++;
		return -ENOSPC;
	}
	if (ctx == CTX_TASK)
		WRITE_ONCE(sc->reserved, true);
	else if (READ_ONCE(sc->reserved))
		WRITE_ONCE(sc->nested, sc->nested + 1);
	e = run->ops->impl->event_data(ev);
	e->seq = sc->seq[ctx]++;
	e->cpu = sc->cpu;
	e->ctx = ctx;
	e->pad = 0;
	e->len = len;
	for (i = 0; i < len - sizeof(*e); i++)
		e->fill[i] = e->seq + i;
	e->sum = stress_sum(e);
	run->ops->impl->commit(run->b, ev);
	if (ctx == CTX_TASK)
		WRITE_ONCE(sc->reserved, false);
	sc->ok[ctx]++;
	return 0;
}

static enum hrtimer_restart stress_timer(struct hrtimer *t)
{
	struct stress_cpu *sc = container_of(t, struct stress_cpu, timer);

	if (smp_processor_id() == sc->cpu)
		stress_write(sc->run, sc, CTX_IRQ);
	if (READ_ONCE(sc->run->stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(HR_PERIOD_NS));
	return HRTIMER_RESTART;
}

static int stress_writer(void *data)
{
	struct stress_cpu *sc = data;
	struct stress_run *run = sc->run;
	unsigned int n = 0;

	hrtimer_init(&sc->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	sc->timer.function = stress_timer;
	hrtimer_start(&sc->timer, ns_to_ktime(HR_PERIOD_NS),
		      HRTIMER_MODE_REL_PINNED_HARD);
	while (!READ_ONCE(run->stop)) {
		stress_write(run, sc, CTX_TASK);
		if (!(++n % 64))
			cond_resched();
	}
	hrtimer_cancel(&sc->timer);
	if (atomic_dec_and_test(&run->running))
		complete(&run->all_done);
	lrb_kunit_wait_for_stop();
	return 0;
}

/* Check one event read from cpu, with lost events reported before it */
/* Not an event a writer of this CPU wrote, or not all of it */
static bool stress_torn(const struct lrb_kunit_impl *impl,
			const struct stress_ev *e, unsigned int len, int cpu)
{
	return len < sizeof(*e) || impl->payload_length(e->len) != len || e->cpu != cpu ||
	       e->ctx > CTX_IRQ || stress_sum(e) != e->sum;
}

static void stress_check(struct stress_run *run, int cpu,
			 const struct stress_ev *e, unsigned int len,
			 unsigned long lost)
{
	struct stress_cpu *sc = &run->cpus[cpu];
	int ctx;
	u32 gap;

	if (lost == LOST_UNKNOWN) {
		/* A full page with no room left for the count */
		sc->approx = true;
	} else if (lost) {
		sc->lost += lost;
		/*
		 * The kernel's buffer reports part of a loss one page late
		 * (docs/kernel-rb-differences.md): a report after an
		 * unreported gap covers that gap first
		 */
		if (run->ops->silent_loss && sc->silent) {
			unsigned long late = min(lost, sc->silent);

			sc->silent -= late;
			sc->late += late;
			lost -= late;
		}
		sc->pending += lost;
		if (lost) {
			sc->need[CTX_TASK] = true;
			sc->need[CTX_IRQ] = true;
		}
	}
	if (stress_torn(run->ops->impl, e, len, cpu)) {
		if (!sc->bad++)
			snprintf(sc->err, sizeof(sc->err),
				 "CPU %d: torn or foreign event (len %u/%u, cpu %u)",
				 cpu, len, len >= sizeof(*e) ? e->len : 0,
				 len >= sizeof(*e) ? e->cpu : 0);
		return;
	}
	ctx = e->ctx;
	if (sc->seen[ctx] && e->seq <= sc->last[ctx]) {
		if (!sc->bad++)
			snprintf(sc->err, sizeof(sc->err),
				 "CPU %d ctx %d: seq %u after %u", cpu, ctx,
				 e->seq, sc->last[ctx]);
		return;
	}
	gap = sc->seen[ctx] ? e->seq - sc->last[ctx] - 1 : e->seq;
	sc->seen[ctx] = true;
	sc->last[ctx] = e->seq;
	sc->gaps += gap;
	sc->pending -= gap;
	sc->need[ctx] = false;
	sc->read++;
	/* A gap with no loss reported before it, or the loss not covered */
	if (!sc->approx &&
	    (sc->pending < 0 || (!sc->need[0] && !sc->need[1] && sc->pending))) {
		if (sc->pending < 0 && run->ops->silent_loss) {
			/* Lost unreported: checked against the counters at the end */
			sc->silent -= sc->pending;
			sc->pending = 0;
			return;
		}
		sc->unattributed++;
		if (!sc->bad++)
			snprintf(sc->err, sizeof(sc->err),
				 "CPU %d: reported loss and gaps differ by %ld at ctx %d seq %u",
				 cpu, sc->pending, ctx, e->seq);
		sc->pending = 0;
	}
}

static unsigned int stress_consume(struct stress_run *run, int cpu)
{
	const struct stress_ops *ops = run->ops;
	unsigned long lost;
	unsigned int n = 0;
	void *ev;

	while (n < 256 && (ev = ops->impl->consume(run->b, cpu, NULL, &lost))) {
		stress_check(run, cpu, ops->impl->event_data(ev), ops->impl->event_length(ev),
			     lost);
		n++;
	}
	return n;
}

static unsigned int stress_read_pages(struct stress_run *run, int cpu,
				      void **page)
{
	struct lrb_data_page *dp;
	struct lrb_event *ev;
	unsigned long commit, lost, off;
	unsigned int n = 0;
	int ret;

	ret = run->ops->impl->read_page(run->b, page, cpu, &dp);
	if (ret <= 0)
		return 0;
	commit = local_read(&dp->commit);
	lost = 0;
	if (commit & LRB_MISSED_STORED)
		memcpy(&lost, &dp->data[ret], sizeof(lost));
	else if (commit & LRB_MISSED_EVENTS)
		lost = LOST_UNKNOWN;
	for (off = 0; off < ret;) {
		ev = (void *)&dp->data[off];
		switch (ev->type_len) {
		case LRB_TYPE_PADDING:
			off = ev->time_delta ? off + ev->array[0] + 4 : ret;
			continue;
		case LRB_TYPE_TIME_EXTEND:
		case LRB_TYPE_TIME_STAMP:
			off += 8;
			continue;
		}
		stress_check(run, cpu, run->ops->impl->event_data(ev),
			     run->ops->impl->event_length(ev), n ? 0 : lost);
		off += run->ops->impl->event_length(ev) + (ev->type_len ? 4 : 8);
		n++;
	}
	/* A page may hold only a time stamp: it still counts as progress */
	return max(n, 1U);
}

static u32 stress_key(const struct stress_ev *e)
{
	return e->seq ^ ((u32)e->ctx << 31);
}

static void stress_fail(struct stress_cpu *sc, const char *what)
{
	if (!sc->bad++)
		snprintf(sc->err, sizeof(sc->err), "CPU %d: %s", sc->cpu, what);
}

/*
 * An iterator that reads while the writers write (the tracing ring
 * buffer's): every event it returns must be whole and from this CPU, and
 * each stream's sequence numbers must increase except where the iterator
 * says it lost track (iter_dropped). In producer/consumer mode nothing can
 * be overwritten: it must never lose track, and the consumer must then
 * start where the iterator started.
 */
static unsigned int stress_iterate_live(struct stress_run *run, int cpu)
{
	const struct stress_ops *ops = run->ops;
	struct stress_cpu *sc = &run->cpus[cpu];
	const struct stress_ev *e;
	bool seen[2] = {}, dropped = false;
	u32 last[2] = {}, first = 0;
	unsigned int n = 0;
	void *iter, *ev;

	iter = ops->impl->read_start(run->b, cpu);
	if (IS_ERR_OR_NULL(iter))
		return 0;
	while (n < 128 && (ev = ops->impl->iter_peek(iter))) {
		if (ops->impl->iter_dropped(iter)) {
			dropped = true;
			seen[0] = false;
			seen[1] = false;
		}
		e = ops->impl->event_data(ev);
		if (stress_torn(ops->impl, e, ops->impl->event_length(ev), cpu)) {
			stress_fail(sc, "iterator returned a torn or foreign event");
			break;
		}
		if (seen[e->ctx] && e->seq <= last[e->ctx]) {
			stress_fail(sc, "iterator went back without reporting a drop");
			break;
		}
		seen[e->ctx] = true;
		last[e->ctx] = e->seq;
		if (!n)
			first = stress_key(e);
		ops->impl->iter_advance(iter);
		n++;
	}
	run->iterated += n;
	if (!run->p->overwrite) {
		if (dropped && ops->iter_false_drops)
			run->false_drops++;
		else if (dropped)
			stress_fail(sc, "iterator dropped events in producer/consumer mode");
		ev = n ? ops->impl->peek(run->b, cpu) : NULL;
		if (n && (!ev || stress_key(ops->impl->event_data(ev)) != first))
			stress_fail(sc, "iterator and consumer disagree");
	}
	ops->impl->read_finish(iter);
	return stress_consume(run, cpu);
}

/* Iterate what is there, then consume it: both must see the same */
static unsigned int stress_iterate(struct stress_run *run, int cpu)
{
	const struct stress_ops *ops = run->ops;
	void *iter, *ev;
	u32 first = 0;
	unsigned int n = 0;

	if (ops->impl->iter_dropped)
		return stress_iterate_live(run, cpu);
	iter = ops->impl->read_start(run->b, cpu);
	if (IS_ERR_OR_NULL(iter))
		return 0;
	while (n < 128 && (ev = ops->impl->iter_peek(iter))) {
		const struct stress_ev *e = ops->impl->event_data(ev);

		if (!n)
			first = stress_key(e);
		ops->impl->iter_advance(iter);
		n++;
	}
	run->iterated += n;
	/* Still with recording off, so that nothing moved in between */
	ev = n ? ops->impl->peek(run->b, cpu) : NULL;
	if (n && (!ev || stress_key(ops->impl->event_data(ev)) != first))
		stress_fail(&run->cpus[cpu], "iterator and consumer disagree");
	ops->impl->read_finish(iter);
	return stress_consume(run, cpu);
}

/*
 * Whether the writers of some CPU have overwritten events yet. In overwrite
 * mode the reader waits for that (for half the run at most) before it reads:
 * a reader that keeps up, as it does when KCSAN slows the writers, would
 * leave the overwrite path unrun.
 */
static bool stress_overran(struct stress_run *run)
{
	struct lrb_stats st;
	int cpu;

	for_each_online_cpu(cpu) {
		if (cpu == run->reader_cpu)
			continue;
		if (!run->ops->impl->stats(run->b, cpu, &st) && st.overrun)
			return true;
	}
	return false;
}

/* Events a CPU's ring holds at most: every page full of 8-byte events */
#define STRESS_MAX_ENTRIES	((STRESS_PAGES + 1) * (LRB_KUNIT_CAPACITY / 8))

/*
 * The counters of every writer CPU, taken while the writers write: they
 * must add up, and entries must fit in the ring. The first sample that
 * does not is kept for the report.
 */
static void stress_sample_counters(struct stress_run *run)
{
	struct lrb_stats st;
	int cpu;

	for_each_online_cpu(cpu) {
		if (cpu == run->reader_cpu || run->ops->impl->stats(run->b, cpu, &st))
			continue;
		run->samples++;
		if (st.committed == st.read + st.overrun + st.entries &&
		    st.entries <= STRESS_MAX_ENTRIES)
			continue;
		if (!run->samples_off++) {
			run->off = st;
			run->off_cpu = cpu;
		}
	}
}

/*
 * Whether an hrtimer write has nested in a task's write on some CPU yet. A
 * full producer/consumer ring refuses most writes, and a slow kernel (lockdep
 * under TCG) then writes few: the run goes on until one has nested.
 */
static bool stress_nested_seen(struct stress_run *run)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (cpu != run->reader_cpu && READ_ONCE(run->cpus[cpu].nested))
			return true;
	return false;
}

/**
 * stress_engine_run - one stress run (a parameter of stress_engine_params())
 * @test: the test, whose param_value is a &struct stress_param
 * @ops: the buffer implementation
 *
 * Writers on every online CPU but the test thread's, each with an hrtimer
 * writer nested on its CPU, for lrb_stress_ms (up to STRESS_MAX_RUNS times
 * that until a timer write has nested in a task's write, the writers have
 * overwritten in overwrite mode and the reader has read while they ran:
 * slow machines get more time to cover what the run checks); the test
 * thread reads; then every CPU is drained and its counters are checked
 * against what the writers and the reader saw.
 */
void stress_engine_run(struct kunit *test, const struct stress_ops *ops)
{
	const struct stress_param *p = test->param_value;
	unsigned long written = 0, read = 0, over = 0, dropped = 0, rejected = 0;
	unsigned long silent = 0, late = 0, live_read = 0, nested = 0;
	struct task_struct **tasks;
	struct stress_run *run;
	struct lrb_stats st;
	void *page = NULL;
	bool overran;
	u64 start, end, last, first_read_by;
	unsigned int ran_ms;
	int cpu, writers = 0;
	unsigned int got;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs writers and a reader on separate CPUs, %u online",
			   num_online_cpus());
	run = kunit_kzalloc(test, sizeof(*run), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, run);
	run->cpus = kunit_kcalloc(test, nr_cpu_ids, sizeof(*run->cpus), GFP_KERNEL);
	tasks = kunit_kcalloc(test, nr_cpu_ids, sizeof(*tasks), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, run->cpus);
	KUNIT_ASSERT_NOT_NULL(test, tasks);
	run->ops = ops;
	run->p = p;
	run->b = ops->impl->alloc(STRESS_PAGES * LRB_KUNIT_CAPACITY, p->overwrite);
	KUNIT_ASSERT_NOT_NULL(test, run->b);
	if (ops->prepare && ops->prepare(run->b)) {
		ops->impl->free(run->b);
		KUNIT_FAIL(test, "%s: could not prepare the buffer", ops->impl->name);
		return;
	}
	init_completion(&run->all_done);

	migrate_disable();
	run->reader_cpu = smp_processor_id();
	if (p->mode == READ_PAGES) {
		page = ops->impl->alloc_read_page(run->b, run->reader_cpu);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, page);
	}
	for_each_online_cpu(cpu) {
		run->cpus[cpu].cpu = cpu;
		run->cpus[cpu].run = run;
		if (cpu != run->reader_cpu)
			writers++;
	}
	atomic_set(&run->running, writers);
	for_each_online_cpu(cpu) {
		if (cpu == run->reader_cpu)
			continue;
		tasks[cpu] = kthread_run_on_cpu(stress_writer, &run->cpus[cpu],
						cpu, "lrb_stress/%u");
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, tasks[cpu]);
	}

	start = local_clock();
	end = start + (u64)lrb_stress_ms * NSEC_PER_MSEC;
	last = end + (u64)(STRESS_MAX_RUNS - 1) * lrb_stress_ms * NSEC_PER_MSEC;
	/* The reader waits for an overwrite, leaving half a run to read in */
	first_read_by = last - (u64)lrb_stress_ms * NSEC_PER_MSEC / 2;
	overran = !p->overwrite;
	while (local_clock() < end ||
	       (local_clock() < last &&
		(!stress_nested_seen(run) || !overran || !live_read))) {
		if (!overran) {
			overran = stress_overran(run) || local_clock() >= first_read_by;
			cond_resched();
			continue;
		}
		got = 0;
		for_each_online_cpu(cpu) {
			if (cpu == run->reader_cpu)
				continue;
			if (p->mode == READ_PAGES)
				got += stress_read_pages(run, cpu, &page);
			else if (p->mode == READ_ITERATE)
				got += stress_iterate(run, cpu);
			else
				got += stress_consume(run, cpu);
		}
		stress_sample_counters(run);
		live_read += got;
		if (!got)
			cpu_relax();
		cond_resched();
	}
	ran_ms = div_u64(local_clock() - start, NSEC_PER_MSEC);
	live_read = 0;
	for_each_online_cpu(cpu)
		live_read += run->cpus[cpu].read;
	WRITE_ONCE(run->stop, true);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&run->all_done,
							    30 * HZ));
	for_each_online_cpu(cpu)
		if (tasks[cpu])
			kthread_stop(tasks[cpu]);

	/* Drain, then the accounting of every CPU */
	for_each_online_cpu(cpu) {
		struct stress_cpu *sc = &run->cpus[cpu];
		unsigned long unseen = 0, stuck;
		int ctx;

		if (cpu == run->reader_cpu)
			continue;
		while (p->mode == READ_PAGES ? stress_read_pages(run, cpu, &page) :
		       stress_consume(run, cpu))
			;
		KUNIT_EXPECT_EQ(test, 0, ops->impl->stats(run->b, cpu, &st));
		for (ctx = 0; ctx < 2; ctx++)
			unseen += sc->seen[ctx] ? sc->seq[ctx] - 1 - sc->last[ctx] :
				  sc->seq[ctx];
		KUNIT_EXPECT_EQ_MSG(test, sc->bad, 0UL, "%s", sc->err);
		KUNIT_EXPECT_EQ_MSG(test, st.committed, sc->ok[0] + sc->ok[1],
				    "CPU %d: committed vs writes", cpu);
		KUNIT_EXPECT_EQ_MSG(test, st.dropped + st.commit_overrun + st.rejected,
				    sc->failed[0] + sc->failed[1],
				    "CPU %d: failed reserves", cpu);
		KUNIT_EXPECT_EQ_MSG(test, st.read, sc->read, "CPU %d: read", cpu);
		/*
		 * A buffer with silent losses (ops->silent_loss) still counts
		 * the events it lost in its entries after the drain: every
		 * sequence number missing must be one of those or overwritten.
		 */
		stuck = 0;
		if (ops->silent_loss) {
			stuck = st.committed - st.read - st.overrun;
			KUNIT_EXPECT_LE_MSG(test, sc->silent, stuck,
					    "CPU %d: unreported gaps vs entries left", cpu);
			silent += stuck;
			late += sc->late;
		}
		KUNIT_EXPECT_EQ_MSG(test, st.entries, stuck, "CPU %d: left after draining",
				    cpu);
		KUNIT_EXPECT_EQ_MSG(test, st.read + st.overrun + stuck, st.committed,
				    "CPU %d: read + overrun", cpu);
		if (!sc->approx)
			KUNIT_EXPECT_EQ_MSG(test, sc->lost, st.overrun,
					    "CPU %d: lost reported vs overrun", cpu);
		KUNIT_EXPECT_EQ_MSG(test, sc->gaps + unseen, st.overrun + stuck,
				    "CPU %d: gaps + unseen vs overrun", cpu);
		if (!p->overwrite)
			KUNIT_EXPECT_EQ_MSG(test, st.overrun, 0UL, "CPU %d", cpu);
		written += st.committed;
		nested += sc->nested;
		read += st.read;
		over += st.overrun;
		dropped += st.dropped + st.commit_overrun;
		rejected += st.rejected;
	}
	migrate_enable();
	if (page)
		ops->impl->free_read_page(run->b, run->reader_cpu, page);
	kunit_info(test, "%s: %d writer CPUs + hrtimers for %u ms (lrb_stress_ms %u): %lu events written (%lu by an hrtimer inside a task's write), %lu read (%lu while the writers ran, %lu iterated), %lu overwritten, %lu dropped, %lu refused while iterating; counters taken %lu times while they ran",
		   p->name, writers, ran_ms, lrb_stress_ms, written, nested, read,
		   live_read, run->iterated, over, dropped, rejected, run->samples);
	/* A run in which nothing happened proves nothing */
	KUNIT_EXPECT_GT_MSG(test, written, 0UL, "%s: nothing was written", p->name);
	KUNIT_EXPECT_GT_MSG(test, nested, 0UL,
			    "%s: no hrtimer write nested in a task's write", p->name);
	KUNIT_EXPECT_GT_MSG(test, live_read, 0UL,
			    "%s: the reader read nothing while the writers ran", p->name);
	if (p->mode == READ_ITERATE)
		KUNIT_EXPECT_GT_MSG(test, run->iterated, 0UL,
				    "%s: the iterator returned nothing", p->name);
	if (p->overwrite)
		KUNIT_EXPECT_GT_MSG(test, over, 0UL,
				    "%s: the writers never overwrote anything", p->name);
	KUNIT_EXPECT_GT_MSG(test, run->samples, 0UL,
			    "%s: no counters taken while the writers ran", p->name);
	if (run->samples_off)
		kunit_info(test, "%s: %lu of %lu counter samples taken while the writers ran do not add up or exceed the ring (%lu), first on CPU %d: committed %lu read %lu overrun %lu entries %lu",
			   p->name, run->samples_off, run->samples, STRESS_MAX_ENTRIES,
			   run->off_cpu, run->off.committed, run->off.read,
			   run->off.overrun, run->off.entries);
	if (ops->counters_at_one_moment)
		KUNIT_EXPECT_EQ_MSG(test, run->samples_off, 0UL,
				    "%s: counters that do not add up while the writers ran",
				    p->name);
	if (silent)
		kunit_info(test, "%s: %lu events lost without a report, still counted in entries (the kernel's rb_get_reader_page() race, docs/kernel-rb-differences.md)",
			   p->name, silent);
	if (late)
		kunit_info(test, "%s: %lu events reported lost after the gap they left (the kernel's late report, docs/kernel-rb-differences.md)",
			   p->name, late);
	if (run->false_drops)
		kunit_info(test, "%s: the iterator reported a drop %lu times in producer/consumer mode, where nothing was lost (docs/kernel-rb-differences.md)",
			   p->name, run->false_drops);
	ops->impl->free(run->b);
}

