// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_stress: writers on every CPU but one, hrtimer writers nested on the
 * same CPUs, and a reader on the last CPU that consumes, reads whole pages
 * or iterates, in both modes, for lrb_stress_ms per run.
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

static unsigned int lrb_stress_ms = 1000;
module_param(lrb_stress_ms, uint, 0444);
MODULE_PARM_DESC(lrb_stress_ms, "duration of each lrb_stress run in ms");

#define STRESS_PAGES	16
#define HR_PERIOD_NS	(50 * NSEC_PER_USEC)
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

enum reader_mode { READ_CONSUME, READ_PAGES, READ_ITERATE };

struct stress_param {
	unsigned long		flags;
	enum reader_mode	mode;
	const char		*name;
};

static const struct stress_param stress_params[] = {
	{ LRB_FL_OVERWRITE, READ_CONSUME, "overwrite_consume" },
	{ 0, READ_CONSUME, "prodcons_consume" },
	{ LRB_FL_OVERWRITE, READ_PAGES, "overwrite_read_page" },
	{ 0, READ_PAGES, "prodcons_read_page" },
	{ LRB_FL_OVERWRITE, READ_ITERATE, "overwrite_iterate" },
	{ 0, READ_ITERATE, "prodcons_iterate" },
};

KUNIT_ARRAY_PARAM_DESC(stress, stress_params, name);

/* What happened on one CPU, as the writers and the reader saw it */
struct stress_cpu {
	struct hrtimer		timer;
	struct stress_run	*run;
	int			cpu;
	u32			seq[2];
	unsigned long		ok[2];
	unsigned long		failed[2];
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
	bool			approx;
	char			err[160];
};

#define LOST_UNKNOWN	ULONG_MAX

struct stress_run {
	struct lrb_buffer	*b;
	struct stress_cpu	*cpus;
	int			reader_cpu;
	bool			stop;
	atomic_t		running;
	struct completion	all_done;
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
	struct lrb_event *ev;
	struct stress_ev *e;
	unsigned int len, i;

	len = sizeof(*e) + (sc->seq[ctx] * 7 + ctx * 3) % 200;
	ev = lrb_lock_reserve(run->b, len);
	if (!ev) {
		sc->failed[ctx]++;
		return -ENOSPC;
	}
	e = lrb_event_data(ev);
	e->seq = sc->seq[ctx]++;
	e->cpu = sc->cpu;
	e->ctx = ctx;
	e->pad = 0;
	e->len = len;
	for (i = 0; i < len - sizeof(*e); i++)
		e->fill[i] = e->seq + i;
	e->sum = stress_sum(e);
	lrb_unlock_commit(run->b, ev);
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
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/* Check one event read from cpu, with lost events reported before it */
static void stress_check(struct stress_run *run, int cpu,
			 const struct stress_ev *e, unsigned int len,
			 unsigned long lost)
{
	struct stress_cpu *sc = &run->cpus[cpu];
	int ctx;
	u32 gap;

	if (lost == LOST_UNKNOWN) {
		/* A full page from lrb_read_page() has no room for the count */
		sc->approx = true;
	} else if (lost) {
		sc->lost += lost;
		sc->pending += lost;
		sc->need[CTX_TASK] = true;
		sc->need[CTX_IRQ] = true;
	}
	if (len < sizeof(*e) || ALIGN(e->len, 4) != len || e->cpu != cpu ||
	    e->ctx > CTX_IRQ || stress_sum(e) != e->sum) {
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
	struct lrb_event *ev;
	unsigned long lost;
	unsigned int n = 0;

	while (n < 256 && (ev = lrb_consume(run->b, cpu, NULL, &lost))) {
		stress_check(run, cpu, lrb_event_data(ev), lrb_event_length(ev),
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

	ret = lrb_read_page(run->b, page, PAGE_SIZE, cpu, false);
	if (ret <= 0)
		return 0;
	dp = *page;
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
		stress_check(run, cpu, lrb_event_data(ev), lrb_event_length(ev),
			     n ? 0 : lost);
		off += lrb_event_length(ev) + (ev->type_len ? 4 : 8);
		n++;
	}
	/* A page may hold only a time stamp: it still counts as progress */
	return max(n, 1U);
}

/* Iterate what is there, then consume it: both must see the same */
static unsigned int stress_iterate(struct stress_run *run, int cpu)
{
	struct lrb_iter *iter;
	struct lrb_event *ev;
	u32 first = 0;
	unsigned int n = 0;

	iter = lrb_read_start(run->b, cpu);
	if (IS_ERR(iter))
		return 0;
	while (n < 128 && (ev = lrb_iter_peek(iter, NULL))) {
		const struct stress_ev *e = lrb_event_data(ev);

		if (!n)
			first = e->seq ^ ((u32)e->ctx << 31);
		lrb_iter_advance(iter);
		n++;
	}
	/* Still with recording off, so that nothing moved in between */
	ev = n ? lrb_peek(run->b, cpu, NULL, NULL) : NULL;
	if (n && (!ev || (((struct stress_ev *)lrb_event_data(ev))->seq ^
			  ((u32)((struct stress_ev *)lrb_event_data(ev))->ctx << 31)) != first) &&
	    !run->cpus[cpu].bad++)
		snprintf(run->cpus[cpu].err, sizeof(run->cpus[cpu].err),
			 "CPU %d: iterator and consumer disagree", cpu);
	lrb_read_finish(iter);
	return stress_consume(run, cpu);
}

static void stress_run_once(struct kunit *test)
{
	const struct stress_param *p = test->param_value;
	unsigned long written = 0, read = 0, over = 0, dropped = 0, rejected = 0;
	struct task_struct **tasks;
	struct stress_run *run;
	struct lrb_stats st;
	void *page = NULL;
	u64 end;
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
	run->b = lrb_alloc(STRESS_PAGES * LRB_KUNIT_CAPACITY, p->flags);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, run->b);
	init_completion(&run->all_done);

	migrate_disable();
	run->reader_cpu = smp_processor_id();
	if (p->mode == READ_PAGES) {
		page = lrb_alloc_read_page(run->b, run->reader_cpu);
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

	end = local_clock() + (u64)lrb_stress_ms * NSEC_PER_MSEC;
	while (local_clock() < end) {
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
		if (!got)
			cpu_relax();
		cond_resched();
	}
	WRITE_ONCE(run->stop, true);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&run->all_done,
							    30 * HZ));
	for_each_online_cpu(cpu)
		if (tasks[cpu])
			kthread_stop(tasks[cpu]);

	/* Drain, then the accounting of every CPU */
	for_each_online_cpu(cpu) {
		struct stress_cpu *sc = &run->cpus[cpu];
		unsigned long unseen = 0;
		int ctx;

		if (cpu == run->reader_cpu)
			continue;
		while (p->mode == READ_PAGES ? stress_read_pages(run, cpu, &page) :
		       stress_consume(run, cpu))
			;
		KUNIT_EXPECT_EQ(test, 0, lrb_stats_cpu(run->b, cpu, &st));
		for (ctx = 0; ctx < 2; ctx++)
			unseen += sc->seen[ctx] ? sc->seq[ctx] - 1 - sc->last[ctx] :
				  sc->seq[ctx];
		KUNIT_EXPECT_EQ_MSG(test, sc->bad, 0UL, "CPU %d: %s", cpu, sc->err);
		KUNIT_EXPECT_EQ_MSG(test, st.committed, sc->ok[0] + sc->ok[1],
				    "CPU %d: committed vs writes", cpu);
		KUNIT_EXPECT_EQ_MSG(test, st.dropped + st.commit_overrun + st.rejected,
				    sc->failed[0] + sc->failed[1],
				    "CPU %d: failed reserves", cpu);
		KUNIT_EXPECT_EQ_MSG(test, st.read, sc->read, "CPU %d: read", cpu);
		KUNIT_EXPECT_EQ_MSG(test, st.entries, 0UL, "CPU %d: left after draining",
				    cpu);
		KUNIT_EXPECT_EQ_MSG(test, st.read + st.overrun, st.committed,
				    "CPU %d: read + overrun", cpu);
		if (!sc->approx)
			KUNIT_EXPECT_EQ_MSG(test, sc->lost, st.overrun,
					    "CPU %d: lost reported vs overrun", cpu);
		KUNIT_EXPECT_EQ_MSG(test, sc->gaps + unseen, st.overrun,
				    "CPU %d: gaps + unseen vs overrun", cpu);
		if (!(p->flags & LRB_FL_OVERWRITE))
			KUNIT_EXPECT_EQ_MSG(test, st.overrun, 0UL, "CPU %d", cpu);
		written += st.committed;
		read += st.read;
		over += st.overrun;
		dropped += st.dropped + st.commit_overrun;
		rejected += st.rejected;
	}
	migrate_enable();
	if (page)
		lrb_free_read_page(run->b, run->reader_cpu, page);
	kunit_info(test, "%s: %d writer CPUs + hrtimers for %u ms: %lu events written, %lu read, %lu overwritten, %lu dropped, %lu refused while iterating",
		   p->name, writers, lrb_stress_ms, written, read, over, dropped,
		   rejected);
	lrb_free(run->b);
}

static struct kunit_case lrb_stress_cases[] = {
	KUNIT_CASE_PARAM_ATTR(stress_run_once, stress_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	{}
};

static struct kunit_suite lrb_stress_suite = {
	.name = "lrb_stress",
	.test_cases = lrb_stress_cases,
};

kunit_test_suite(lrb_stress_suite);
