// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_bench: lrb, the kernel's tracing ring buffer and a spinlocked
 * baseline measured side by side in one boot. It judges nothing: a case
 * fails only if it cannot set up. Every figure is printed as one line
 *
 *   lrb-bench impl=lrb case=write payload=64 mode=overwrite reader=none
 *	ns_per_event=123.4 spread=2.1% best=120.3 reps=7 events=200000 dropped=0
 *	reader_per_s=0
 *
 * (one line in the log), the median of lrb_bench.reps repetitions with
 * spread = (max - min) / median and the best repetition, and after the
 * three implementations a line with the ratios lrb/kernel and lrb/locked of
 * the time per event, of the medians and of the best repetitions (below 1:
 * lrb is faster). reader_per_s is what a remote reader consumed meanwhile.
 * The write cases without a remote reader also print two floors, the same
 * loop writing no buffer: impl=floor_copy (preemption off and the payload
 * copy) and impl=floor_clock (the same plus the clock read every reserve
 * does), so that what the buffers themselves cost can be told from what
 * the loop costs under TCG. tools/bench_report.py turns them into tables.
 *
 * Writers and readers are kthreads pinned to their CPUs; the test thread
 * only starts them, waits (bounded) and prints. lrb_bench.smoke=1 (or a
 * build with test hooks or sanitizers, where figures mean nothing) runs
 * everything with tiny counts.
 */

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/utsname.h>

#include "lrb_bench.h"

static unsigned long events = 200000;
module_param(events, ulong, 0444);
MODULE_PARM_DESC(events, "writes per writer and repetition");

static unsigned int reps = 7;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "repetitions of each figure (the median is printed)");

static unsigned int pages = 128;
module_param(pages, uint, 0444);
MODULE_PARM_DESC(pages, "pages per CPU of each buffer");

static unsigned int nest_period_us = 100;
module_param(nest_period_us, uint, 0444);
MODULE_PARM_DESC(nest_period_us, "period of the nested hrtimer writer");

static unsigned int nest_burst = 8;
module_param(nest_burst, uint, 0444);
MODULE_PARM_DESC(nest_burst, "events the hrtimer writes each time it fires");

static int smoke = -1;
module_param(smoke, int, 0444);
MODULE_PARM_DESC(smoke, "1: tiny counts (make test), 0: full, -1: tiny if built with test hooks or sanitizers");

static bool serial;
module_param(serial, bool, 0444);
MODULE_PARM_DESC(serial, "only the cases where one CPU runs at a time (QEMU -icount runs vCPUs in turn)");

#define BENCH_MAX_REPS		31
#define BENCH_CHUNK		8192
#define BENCH_READ_ROUNDS	8
#define BENCH_PS_PER_S		(1000ULL * NSEC_PER_SEC)
#define BENCH_SERIAL_SKIP	"serial run: CPUs run in turn, concurrency is not measured"
/* Bounds of every wait: far above anything a run takes under TCG */
#define BENCH_RUN_TIMEOUT	(240 * HZ)
#define BENCH_READER_NS		(240ULL * NSEC_PER_SEC)

/* The settings in force, decided in the suite's init */
static struct {
	bool		smoke;
	const char	*why;
	unsigned long	events;
	unsigned int	reps;
	unsigned int	pages;
} cfg;

enum bench_reader { READER_NONE, READER_DRAIN, READER_CONSUME, READER_PAGES };

static const char *const reader_names[] = {
	[READER_NONE] = "none",
	[READER_DRAIN] = "drain",
	[READER_CONSUME] = "consume",
	[READER_PAGES] = "pages",
};

struct bench_job;

/* One writer kthread and its nested hrtimer writer */
struct bench_writer {
	struct bench_job	*job;
	struct task_struct	*task;
	struct hrtimer		timer;
	int			cpu;
	bool			timing;
	u64			ns;
	unsigned long		attempts;
	unsigned long		ok;
	unsigned long		irq_attempts;
	unsigned long		irq_ok;
	bool			late;
};

/* One measured run: writers on some CPUs, maybe a reader on another */
struct bench_job {
	struct bench_buf	*buf;
	unsigned int		len;
	enum bench_reader	reader;
	bool			nested;
	unsigned long		n;
	int			nr_writers;
	struct bench_writer	*w;
	struct task_struct	*reader_task;
	int			reader_cpu;
	int			read_cpu;
	u64			reader_ns;
	unsigned long		reader_got;
	bool			reader_late;
	atomic_t		ready;
	int			nr_threads;
	struct completion	all_ready;
	struct completion	go;
	bool			stop;
	atomic_t		running;
	struct completion	writers_done;
	struct completion	reader_done;
};

/* ---- threads --------------------------------------------------------------- */

static void bench_park(void)
{
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
}

/* Tell the test thread we are ready and wait until it says go (bounded) */
static bool bench_gate(struct bench_job *job)
{
	if (atomic_inc_return(&job->ready) == job->nr_threads)
		complete(&job->all_ready);
	return wait_for_completion_timeout(&job->go, BENCH_RUN_TIMEOUT);
}

static enum hrtimer_restart bench_timer(struct hrtimer *t)
{
	struct bench_writer *w = container_of(t, struct bench_writer, timer);
	struct bench_job *job = w->job;
	unsigned int i;

	if (READ_ONCE(w->timing) && smp_processor_id() == w->cpu) {
		for (i = 0; i < nest_burst; i++)
			w->irq_ok += bench_write_one(job->buf, job->len);
		w->irq_attempts += nest_burst;
	}
	if (READ_ONCE(job->stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime((u64)nest_period_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* Writes, timed, in chunks so that long runs still reach cond_resched() */
static u64 bench_timed_writes(struct bench_writer *w, unsigned long n)
{
	struct bench_job *job = w->job;
	unsigned long done = 0, k;
	u64 t0 = local_clock();

	while (done < n) {
		k = min_t(unsigned long, n - done, BENCH_CHUNK);
		w->ok += bench_write_n(job->buf, k, job->len);
		done += k;
		cond_resched();
	}
	w->attempts += n;
	return local_clock() - t0;
}

/* Everything of this CPU out of the buffer, untimed */
static void bench_drain(struct bench_buf *b, int cpu)
{
	unsigned long left = bench_entries(b, cpu) + 1;

	while (left && bench_consume_n(b, cpu, min_t(unsigned long, left, 4096)))
		left -= min_t(unsigned long, left, 4096);
}

static unsigned long bench_batch(unsigned int len)
{
	unsigned long per_event = ALIGN(len + (len > 112 ? 8 : 4), 4);

	return max_t(unsigned long, 1,
		     (unsigned long)cfg.pages * (PAGE_SIZE - 16) * 3 / 4 / per_event);
}

static int bench_writer_fn(void *data)
{
	struct bench_writer *w = data;
	struct bench_job *job = w->job;
	unsigned long done, k, batch = bench_batch(job->len);

	if (!bench_gate(job)) {
		w->late = true;
		goto out;
	}
	if (job->nested) {
		hrtimer_init(&w->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		w->timer.function = bench_timer;
		hrtimer_start(&w->timer,
			      ns_to_ktime((u64)nest_period_us * NSEC_PER_USEC),
			      HRTIMER_MODE_REL_PINNED_HARD);
	}
	if (job->reader == READER_DRAIN) {
		/* Producer/consumer without a concurrent reader: fill, drain */
		for (done = 0; done < job->n; done += k) {
			k = min(job->n - done, batch);
			w->ns += bench_timed_writes(w, k);
			bench_drain(job->buf, w->cpu);
		}
	} else {
		WRITE_ONCE(w->timing, true);
		w->ns = bench_timed_writes(w, job->n);
		WRITE_ONCE(w->timing, false);
	}
	if (job->nested)
		hrtimer_cancel(&w->timer);
out:
	if (atomic_dec_and_test(&job->running))
		complete(&job->writers_done);
	bench_park();
	return 0;
}

static int bench_reader_fn(void *data)
{
	struct bench_job *job = data;
	struct bench_page page = {};
	unsigned long before = bench_read_events(job->buf, job->read_cpu);
	u64 t0, deadline;
	bool got;

	if (job->reader == READER_PAGES &&
	    bench_page_alloc(&page, job->buf, job->read_cpu))
		goto out;
	if (!bench_gate(job)) {
		job->reader_late = true;
		goto out;
	}
	t0 = local_clock();
	deadline = t0 + BENCH_READER_NS;
	/* Until told to stop; with no writers, until the buffer is empty */
	while (!READ_ONCE(job->stop) && local_clock() < deadline) {
		if (job->reader == READER_PAGES)
			got = bench_read_page(&page);
		else
			got = bench_consume_n(job->buf, job->read_cpu, 64);
		if (!got) {
			if (!job->nr_writers)
				break;
			cpu_relax();
		}
	}
	job->reader_ns = local_clock() - t0;
	job->reader_got = bench_read_events(job->buf, job->read_cpu) - before;
out:
	bench_page_free(&page);
	complete(&job->reader_done);
	bench_park();
	return 0;
}

static void bench_stop_threads(struct bench_job *job)
{
	int i;

	for (i = 0; i < job->nr_writers; i++)
		if (!IS_ERR_OR_NULL(job->w[i].task))
			kthread_stop(job->w[i].task);
	if (!IS_ERR_OR_NULL(job->reader_task))
		kthread_stop(job->reader_task);
}

static struct task_struct *bench_thread(struct kunit *test, int (*fn)(void *),
					void *data, int cpu)
{
	struct task_struct *t = kthread_create_on_cpu(fn, data, cpu,
						      "lrb_bench/%u");

	if (IS_ERR(t)) {
		KUNIT_FAIL(test, "kthread on CPU %d: %ld", cpu, PTR_ERR(t));
		return t;
	}
	wake_up_process(t);
	return t;
}

/*
 * Run a job: writers on writer_cpus, a reader (job->reader consume or
 * pages) on job->reader_cpu reading job->read_cpu. Returns false if a
 * thread could not start or a bound was hit (reported as a failure).
 */
static bool bench_run(struct kunit *test, struct bench_job *job,
		      const struct cpumask *writer_cpus)
{
	bool remote = job->reader == READER_CONSUME || job->reader == READER_PAGES;
	bool ok = true;
	int cpu, i = 0;

	job->nr_writers = cpumask_weight(writer_cpus);
	job->w = kcalloc(max(job->nr_writers, 1), sizeof(*job->w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, job->w);
	job->nr_threads = job->nr_writers + remote;
	atomic_set(&job->ready, 0);
	atomic_set(&job->running, job->nr_writers);
	init_completion(&job->all_ready);
	init_completion(&job->writers_done);
	init_completion(&job->reader_done);
	init_completion(&job->go);
	job->stop = false;

	if (remote) {
		job->reader_task = bench_thread(test, bench_reader_fn, job,
						job->reader_cpu);
		if (IS_ERR(job->reader_task))
			job->nr_threads--;
	}
	for_each_cpu(cpu, writer_cpus) {
		struct bench_writer *w = &job->w[i++];

		w->job = job;
		w->cpu = cpu;
		w->task = bench_thread(test, bench_writer_fn, w, cpu);
		if (IS_ERR(w->task)) {
			job->nr_threads--;
			if (atomic_dec_and_test(&job->running))
				complete(&job->writers_done);
		}
	}
	if (job->nr_threads &&
	    !wait_for_completion_timeout(&job->all_ready, BENCH_RUN_TIMEOUT)) {
		KUNIT_FAIL(test, "threads did not start");
		ok = false;
	}
	complete_all(&job->go);
	if (job->nr_writers &&
	    !wait_for_completion_timeout(&job->writers_done, BENCH_RUN_TIMEOUT)) {
		KUNIT_FAIL(test, "writers did not finish");
		ok = false;
	}
	/* A reader alone stops when it emptied the buffer */
	if (job->nr_writers)
		WRITE_ONCE(job->stop, true);
	if (remote && !IS_ERR(job->reader_task) &&
	    !wait_for_completion_timeout(&job->reader_done, BENCH_RUN_TIMEOUT)) {
		KUNIT_FAIL(test, "reader did not finish");
		ok = false;
	}
	WRITE_ONCE(job->stop, true);
	bench_stop_threads(job);
	for (i = 0; i < job->nr_writers; i++)
		ok &= !job->w[i].late && !IS_ERR(job->w[i].task);
	return ok && !job->reader_late && !IS_ERR(job->reader_task);
}

static void bench_job_done(struct bench_job *job)
{
	kfree(job->w);
	job->w = NULL;
}

/* ---- figures --------------------------------------------------------------- */

/* One figure's repetitions: picoseconds per event */
struct bench_fig {
	u64		ps[BENCH_MAX_REPS];
	unsigned int	n;
	unsigned long	events;
	unsigned long	dropped;
	unsigned long	read;
	u64		read_ns;
};

static int bench_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 bench_median(struct bench_fig *f)
{
	u64 sorted[BENCH_MAX_REPS];

	if (!f->n)
		return 0;
	memcpy(sorted, f->ps, f->n * sizeof(sorted[0]));
	sort(sorted, f->n, sizeof(sorted[0]), bench_cmp_u64, NULL);
	if (f->n & 1)
		return sorted[f->n / 2];
	return (sorted[f->n / 2 - 1] + sorted[f->n / 2]) / 2;
}

static u64 bench_min(struct bench_fig *f)
{
	u64 lo = U64_MAX;
	unsigned int i;

	for (i = 0; i < f->n; i++)
		lo = min(lo, f->ps[i]);
	return f->n ? lo : 0;
}

/* (max - min) / median in tenths of a percent */
static u64 bench_spread(struct bench_fig *f, u64 median)
{
	u64 lo = U64_MAX, hi = 0;
	unsigned int i;

	for (i = 0; i < f->n; i++) {
		lo = min(lo, f->ps[i]);
		hi = max(hi, f->ps[i]);
	}
	return median && f->n ? div64_u64((hi - lo) * 1000, median) : 0;
}

static void bench_add(struct bench_fig *f, u64 ns, unsigned long n,
		      unsigned long dropped)
{
	if (f->n < BENCH_MAX_REPS && n)
		f->ps[f->n++] = div64_u64(ns * 1000, n);
	f->events = n;
	f->dropped = dropped;
}

/* What a line says about its figure besides the numbers */
struct bench_key {
	const char	*name;
	unsigned int	payload;
	bool		overwrite;
	enum bench_reader reader;
	int		cpus;
	bool		rate;
};

static void bench_key_str(const struct bench_key *k, char *s, size_t len)
{
	int n = snprintf(s, len, "case=%s payload=%u mode=%s reader=%s",
			 k->name, k->payload,
			 k->overwrite ? "overwrite" : "prodcons",
			 reader_names[k->reader]);

	if (k->cpus && n > 0 && n < len)
		snprintf(s + n, len - n, " cpus=%d", k->cpus);
}

/* lrb's figure over another's, in hundredths */
static u64 bench_ratio(const u64 *fig, enum bench_impl other)
{
	return fig[other] ? div64_u64(fig[BENCH_LRB] * 100, fig[other]) : 0;
}

/* What the remote reader consumed while the writer was timed, events/s */
static u64 bench_read_rate(const struct bench_fig *f)
{
	return f->read_ns ? div64_u64((u64)f->read * NSEC_PER_SEC, f->read_ns) : 0;
}

/* The figures of the first nr kinds (implementations, then floors) */
/* A fixed-point u64's whole part and first digits (no u64 '/' on 32-bit) */
static u64 bench_whole(u64 v, u32 unit)
{
	return div_u64(v, unit);
}

static u32 bench_frac(u64 v, u32 unit, u32 digit)
{
	u32 rem;

	div_u64_rem(v, unit, &rem);
	return rem / digit;
}

static void bench_print(struct kunit *test, const struct bench_key *k,
			struct bench_fig *figs, int nr)
{
	u64 med[BENCH_NR_KINDS], best[BENCH_NR_KINDS];
	char key[128];
	int i;

	bench_key_str(k, key, sizeof(key));
	for (i = 0; i < nr; i++) {
		u64 m = bench_median(&figs[i]);
		u64 spread = bench_spread(&figs[i], m);
		u64 b = bench_min(&figs[i]);

		med[i] = m;
		best[i] = b;
		if (k->rate)
			kunit_info(test, "lrb-bench impl=%s %s events_per_s=%llu spread=%llu.%u%% best=%llu reps=%u events=%lu dropped=%lu\n",
				   bench_impl_names[i], key,
				   m ? div64_u64(BENCH_PS_PER_S, m) : 0,
				   bench_whole(spread, 10), bench_frac(spread, 10, 1),
				   b ? div64_u64(BENCH_PS_PER_S, b) : 0, figs[i].n,
				   figs[i].events, figs[i].dropped);
		else
			kunit_info(test, "lrb-bench impl=%s %s ns_per_event=%llu.%u spread=%llu.%u%% best=%llu.%u reps=%u events=%lu dropped=%lu reader_per_s=%llu\n",
				   bench_impl_names[i], key, bench_whole(m, 1000),
				   bench_frac(m, 1000, 100), bench_whole(spread, 10),
				   bench_frac(spread, 10, 1), bench_whole(b, 1000),
				   bench_frac(b, 1000, 100),
				   figs[i].n, figs[i].events, figs[i].dropped,
				   bench_read_rate(&figs[i]));
	}
	/* Ratios of the medians, then of the best repetitions */
	kunit_info(test, "lrb-bench-ratio %s lrb_kernel=%llu.%02u lrb_locked=%llu.%02u best_lrb_kernel=%llu.%02u best_lrb_locked=%llu.%02u\n",
		   key, bench_whole(bench_ratio(med, BENCH_KERNEL), 100),
		   bench_frac(bench_ratio(med, BENCH_KERNEL), 100, 1),
		   bench_whole(bench_ratio(med, BENCH_LOCKED), 100),
		   bench_frac(bench_ratio(med, BENCH_LOCKED), 100, 1),
		   bench_whole(bench_ratio(best, BENCH_KERNEL), 100),
		   bench_frac(bench_ratio(best, BENCH_KERNEL), 100, 1),
		   bench_whole(bench_ratio(best, BENCH_LOCKED), 100),
		   bench_frac(bench_ratio(best, BENCH_LOCKED), 100, 1));
}

/* ---- setup ----------------------------------------------------------------- */

struct bench_set {
	struct bench_buf	buf[BENCH_NR_KINDS];
};

static void bench_set_free(void *data)
{
	struct bench_set *set = data;
	int i;

	for (i = 0; i < BENCH_NR_KINDS; i++)
		bench_buf_free(&set->buf[i]);
	kfree(set);
}

static struct bench_set *bench_set_alloc(struct kunit *test, bool overwrite)
{
	struct bench_set *set = kzalloc(sizeof(*set), GFP_KERNEL);
	unsigned long size = (unsigned long)cfg.pages * (PAGE_SIZE - 16);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, set);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, bench_set_free, set));
	for (i = 0; i < BENCH_NR_KINDS; i++)
		KUNIT_ASSERT_EQ_MSG(test, 0, bench_buf_alloc(&set->buf[i], i, size,
							     overwrite),
				    "%s buffer", bench_impl_names[i]);
	return set;
}

/* Two CPUs for writer and reader, the writer's not the test thread's */
static void bench_pick_cpus(struct kunit *test, int *writer, int *reader)
{
	int first = cpumask_first(cpu_online_mask);
	int second = cpumask_next(first, cpu_online_mask);

	if (second >= nr_cpu_ids)
		kunit_skip(test, "needs two online CPUs");
	*writer = second;
	*reader = first;
}

/* ---- cases ----------------------------------------------------------------- */

struct bench_write_param {
	unsigned int	payload;
	bool		overwrite;
	const char	*desc;
};

static const struct bench_write_param bench_write_params[] = {
	{ 8, true, "overwrite_8" },
	{ 64, true, "overwrite_64" },
	{ 256, true, "overwrite_256" },
	{ 8, false, "prodcons_8" },
	{ 64, false, "prodcons_64" },
	{ 256, false, "prodcons_256" },
};

static const void *bench_write_gen(const void *prev, char *desc)
{
	const struct bench_write_param *p = prev;

	p = p ? p + 1 : bench_write_params;
	if (p >= bench_write_params + ARRAY_SIZE(bench_write_params))
		return NULL;
	strscpy(desc, p->desc, KUNIT_PARAM_DESC_SIZE);
	return p;
}

/*
 * Median per implementation of reps runs, implementations interleaved. The
 * cases without a remote reader measure the floors too.
 */
static void bench_write_case(struct kunit *test, const char *name,
			     enum bench_reader reader, bool nested)
{
	const struct bench_write_param *p = test->param_value;
	int kinds = reader == READER_NONE ? BENCH_NR_KINDS : BENCH_NR_IMPLS;
	struct bench_fig *figs;
	struct bench_key key = {
		.name = name, .payload = p->payload,
		.overwrite = p->overwrite, .reader = reader,
	};
	struct bench_set *set;
	struct bench_job job;
	int wcpu, rcpu;
	unsigned int r, j;

	/* Off the stack: a 32-bit kernel warns above a 1 KiB frame */
	figs = kunit_kcalloc(test, BENCH_NR_KINDS, sizeof(*figs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, figs);
	if (reader != READER_NONE && serial)
		kunit_skip(test, BENCH_SERIAL_SKIP);
	if (reader == READER_NONE && !p->overwrite)
		reader = READER_DRAIN;
	key.reader = reader;
	bench_pick_cpus(test, &wcpu, &rcpu);
	set = bench_set_alloc(test, p->overwrite);
	for (r = 0; r < cfg.reps; r++) {
		for (j = 0; j < kinds; j++) {
			int i = (r + j) % kinds;
			struct bench_writer *w;
			unsigned long n;

			memset(&job, 0, sizeof(job));
			job.buf = &set->buf[i];
			job.len = p->payload;
			job.reader = reader;
			job.nested = nested;
			job.n = cfg.events;
			job.reader_cpu = rcpu;
			job.read_cpu = wcpu;
			if (!bench_run(test, &job, cpumask_of(wcpu))) {
				bench_job_done(&job);
				return;
			}
			w = &job.w[0];
			n = w->attempts + w->irq_attempts;
			bench_add(&figs[i], w->ns, n,
				  n - w->ok - w->irq_ok);
			figs[i].read += job.reader_got;
			figs[i].read_ns += job.reader_ns;
			bench_job_done(&job);
			bench_drain(job.buf, wcpu);
		}
	}
	bench_print(test, &key, figs, kinds);
}

static void write_local(struct kunit *test)
{
	bench_write_case(test, "write", READER_NONE, false);
}

static void write_reader(struct kunit *test)
{
	bench_write_case(test, "write_reader", READER_CONSUME, false);
}

static void write_nested(struct kunit *test)
{
	bench_write_case(test, "write_nested", READER_CONSUME, true);
}

/* Events per second with 1, 2, ... all online CPUs writing, overwrite */
static void aggregate(struct kunit *test)
{
	struct bench_key key = {
		.name = "aggregate", .payload = 64, .overwrite = true,
		.reader = READER_NONE, .rate = true,
	};
	struct bench_fig *figs;
	struct bench_set *set;
	struct cpumask *mask;
	struct bench_job job;
	unsigned int r, j;
	int cpu, k, nr = num_online_cpus();

	/* Off the stack: a 32-bit kernel warns above a 1 KiB frame */
	figs = kunit_kcalloc(test, BENCH_NR_IMPLS, sizeof(*figs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, figs);
	if (serial)
		kunit_skip(test, BENCH_SERIAL_SKIP);
	set = bench_set_alloc(test, true);
	mask = kunit_kzalloc(test, cpumask_size(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mask);
	for (k = 1; k <= nr; k++) {
		cpumask_clear(mask);
		for_each_online_cpu(cpu)
			if (cpumask_weight(mask) < k)
				cpumask_set_cpu(cpu, mask);
		memset(figs, 0, BENCH_NR_IMPLS * sizeof(*figs));
		for (r = 0; r < cfg.reps; r++) {
			for (j = 0; j < BENCH_NR_IMPLS; j++) {
				int i = (r + j) % BENCH_NR_IMPLS, w;
				u64 rate = 0;
				unsigned long n = 0, okn = 0;

				memset(&job, 0, sizeof(job));
				job.buf = &set->buf[i];
				job.len = key.payload;
				job.reader = READER_NONE;
				job.n = cfg.events;
				if (!bench_run(test, &job, mask)) {
					bench_job_done(&job);
					return;
				}
				/* The sum of the writers' rates, events/s */
				for (w = 0; w < job.nr_writers; w++) {
					if (job.w[w].ns)
						rate += div64_u64(job.w[w].attempts *
								  NSEC_PER_SEC,
								  job.w[w].ns);
					n += job.w[w].attempts;
					okn += job.w[w].ok;
				}
				/* Kept as picoseconds per event, like the others */
				if (rate && figs[i].n < BENCH_MAX_REPS)
					figs[i].ps[figs[i].n++] =
						div64_u64(BENCH_PS_PER_S, rate);
				figs[i].events = n;
				figs[i].dropped = n - okn;
				bench_job_done(&job);
			}
		}
		key.cpus = k;
		bench_print(test, &key, figs, BENCH_NR_IMPLS);
	}
}

/* Reader throughput: fill a producer/consumer buffer, time emptying it */
static void read_throughput(struct kunit *test)
{
	const enum bench_reader *mode = test->param_value;
	struct bench_key key = {
		.name = *mode == READER_PAGES ? "read_pages" : "read_consume",
		.payload = 64, .overwrite = false, .reader = *mode, .rate = true,
	};
	struct bench_fig *figs;
	struct bench_set *set = bench_set_alloc(test, false);
	struct bench_job job;
	unsigned int r, j;
	int wcpu, rcpu;

	/* Off the stack: a 32-bit kernel warns above a 1 KiB frame */
	figs = kunit_kcalloc(test, BENCH_NR_IMPLS, sizeof(*figs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, figs);
	bench_pick_cpus(test, &wcpu, &rcpu);
	for (r = 0; r < cfg.reps; r++) {
		for (j = 0; j < BENCH_NR_IMPLS; j++) {
			int i = (r + j) % BENCH_NR_IMPLS;
			unsigned long got = 0;
			unsigned int k;
			u64 ns = 0;

			/* A few buffers' worth, so that a repetition is not too short */
			for (k = 0; k < (cfg.smoke ? 1 : BENCH_READ_ROUNDS); k++) {
				memset(&job, 0, sizeof(job));
				job.buf = &set->buf[i];
				job.len = key.payload;
				job.reader = READER_NONE;
				job.n = bench_batch(key.payload) * 4 / 3 + 64;
				if (!bench_run(test, &job, cpumask_of(wcpu))) {
					bench_job_done(&job);
					return;
				}
				bench_job_done(&job);

				memset(&job, 0, sizeof(job));
				job.buf = &set->buf[i];
				job.reader = *mode;
				job.reader_cpu = rcpu;
				job.read_cpu = wcpu;
				if (!bench_run(test, &job, cpu_none_mask)) {
					bench_job_done(&job);
					return;
				}
				ns += job.reader_ns;
				got += job.reader_got;
				bench_job_done(&job);
				bench_drain(job.buf, wcpu);
			}
			bench_add(&figs[i], ns, got, 0);
		}
	}
	bench_print(test, &key, figs, BENCH_NR_IMPLS);
}

static const enum bench_reader read_params[] = { READER_CONSUME, READER_PAGES };

static void read_param_desc(const enum bench_reader *m, char *desc)
{
	strscpy(desc, reader_names[*m], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(read, read_params, read_param_desc);

/* The settings and the machine, for the report */
static void setup(struct kunit *test)
{
	kunit_info(test, "lrb-bench config arch=%s release=%s cpus=%u smoke=%d%s%s reps=%u events=%lu pages=%u nest_period_us=%u nest_burst=%u hooks=%d serial=%d\n",
		   utsname()->machine, utsname()->release, num_online_cpus(),
		   cfg.smoke, cfg.why ? " why=" : "", cfg.why ? cfg.why : "",
		   cfg.reps, cfg.events, cfg.pages, nest_period_us, nest_burst,
		   IS_ENABLED(CONFIG_LRB_TEST_HOOKS), serial);
}

static const char *bench_debug_build(void)
{
	if (IS_ENABLED(CONFIG_LRB_TEST_HOOKS))
		return "test_hooks";
	if (IS_ENABLED(CONFIG_KASAN) || IS_ENABLED(CONFIG_KCSAN) ||
	    IS_ENABLED(CONFIG_KMSAN) || IS_ENABLED(CONFIG_UBSAN))
		return "sanitizer";
	if (IS_ENABLED(CONFIG_PROVE_LOCKING) || IS_ENABLED(CONFIG_DEBUG_KMEMLEAK))
		return "debug";
	return NULL;
}

static int bench_suite_init(struct kunit_suite *suite)
{
	cfg.why = bench_debug_build();
	cfg.smoke = smoke > 0 || (smoke < 0 && cfg.why);
	if (smoke > 0)
		cfg.why = "param";
	cfg.events = cfg.smoke ? 256 : max(events, 1UL);
	cfg.reps = cfg.smoke ? 2 : clamp(reps, 1U, (unsigned int)BENCH_MAX_REPS);
	cfg.pages = cfg.smoke ? 8 : max(pages, 4U);
	return 0;
}

static struct kunit_case lrb_bench_cases[] = {
	KUNIT_CASE(setup),
	KUNIT_CASE_PARAM(write_local, bench_write_gen),
	KUNIT_CASE_PARAM(write_reader, bench_write_gen),
	KUNIT_CASE_PARAM(write_nested, bench_write_gen),
	KUNIT_CASE(aggregate),
	KUNIT_CASE_PARAM(read_throughput, read_gen_params),
	{}
};

static struct kunit_suite lrb_bench_suite = {
	.name = "lrb_bench",
	.suite_init = bench_suite_init,
	.test_cases = lrb_bench_cases,
};

kunit_test_suite(lrb_bench_suite);

MODULE_DESCRIPTION("Benchmark of the lockless ring buffer against the tracing ring buffer and a locked baseline");
MODULE_LICENSE("GPL");
