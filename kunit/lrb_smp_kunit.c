// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_smp: deterministic races between a reader on one CPU and a writer on
 * another.
 *
 * The test thread is the reader, pinned to one CPU; a kthread pinned to
 * another CPU is the writer, writing to its own CPU's ring. One side is
 * paused at a hook point (spinning, with a bounded wait) while the other
 * does the conflicting step, then released; handshakes are an atomic stage
 * counter, every wait bounded by LRB_SMP_WAIT_NS. No sleep synchronises
 * anything. Each case checks the state at the pause, what the reader got
 * (event, loss), and then reads everything back.
 *
 * With fewer than two online CPUs the cases are skipped, saying so.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "lrb_kunit.h"

#define CAP		LRB_KUNIT_CAPACITY
#define BIG		(CAP - 8)
#define S		8
#define MAX_PAUSES	4
#define MAX_WRITES	4
#define LRB_SMP_WAIT_NS	(10ULL * NSEC_PER_SEC)

enum smp_side { READER, WRITER };

/*
 * At the nth time side reaches point (the writer at nesting depth 0):
 * make the nested writes, snapshot, set the stage to signal (if > 0) and
 * wait until the stage reaches wait (if > 0).
 */
struct smp_pause {
	enum smp_side		side;
	enum lrb_hook_point	point;
	int			nth;
	unsigned int		nest_len;
	u32			nest_seq;
	int			signal;
	int			wait;
	const char		*title;
	const char		*ring;
	const char		*props;
};

struct smp_ctx {
	struct kunit		*test;
	struct lrb_tb		*tb;
	int			rcpu;
	int			wcpu;
	atomic_t		stage;
	struct smp_pause	pause[MAX_PAUSES];
	unsigned int		nr;
	bool			hit[MAX_PAUSES];
	struct lrb_snapshot	*snaps;
	unsigned int		count[2][LRB_HOOK_NR];
	unsigned int		wdepth;
	bool			timed_out;
	/* the writer's script */
	unsigned int		wlen[MAX_WRITES];
	u32			wseq[MAX_WRITES];
	unsigned int		nr_writes;
	int			wait_before_writing;
	int			signal_after_writing;
	int			wret[MAX_WRITES];
	struct completion	done;
	struct task_struct	*task;
};

static bool smp_wait(struct smp_ctx *c, int stage)
{
	u64 deadline = local_clock() + LRB_SMP_WAIT_NS;

	while (atomic_read_acquire(&c->stage) < stage) {
		if (local_clock() > deadline) {
			WRITE_ONCE(c->timed_out, true);
			return false;
		}
		cpu_relax();
	}
	return true;
}

static void smp_signal(struct smp_ctx *c, int stage)
{
	atomic_set_release(&c->stage, stage);
}

static void smp_hook(struct lrb_buffer *b, int cpu, enum lrb_hook_point point,
		     void *data)
{
	struct smp_ctx *c = data;
	int me = raw_smp_processor_id();
	enum smp_side side;
	unsigned int i, n;

	if (cpu != c->wcpu || (me != c->rcpu && me != c->wcpu))
		return;
	side = me == c->rcpu ? READER : WRITER;
	if (side == WRITER && c->wdepth)
		return;
	n = ++c->count[side][point];
	for (i = 0; i < c->nr; i++) {
		struct smp_pause *p = &c->pause[i];

		if (c->hit[i] || p->side != side || p->point != point ||
		    p->nth != n)
			continue;
		c->hit[i] = true;
		if (p->nest_len) {
			c->wdepth++;
			lrb_tb_write_seq(c->tb, p->nest_len, p->nest_seq);
			c->wdepth--;
		}
		lrb_snapshot(b, cpu, &c->snaps[i]);
		if (p->signal)
			smp_signal(c, p->signal);
		if (p->wait)
			smp_wait(c, p->wait);
		break;
	}
}

static int smp_writer(void *data)
{
	struct smp_ctx *c = data;
	unsigned int i;

	if (c->wait_before_writing)
		smp_wait(c, c->wait_before_writing);
	for (i = 0; i < c->nr_writes; i++)
		c->wret[i] = lrb_tb_write_seq(c->tb, c->wlen[i], c->wseq[i]);
	if (c->signal_after_writing)
		smp_signal(c, c->signal_after_writing);
	complete(&c->done);
	lrb_kunit_wait_for_stop();
	return 0;
}

static void smp_cleanup(void *data)
{
	struct smp_ctx *c = data;

	lrb_set_test_hook(c->tb->b, NULL, NULL);
	if (c->task)
		kthread_stop(c->task);
}

static struct smp_ctx *smp_start(struct kunit *test, unsigned long flags)
{
	struct smp_ctx *c;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs a reader and a writer on two CPUs, %u online",
			   num_online_cpus());
	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->snaps = kunit_kcalloc(test, MAX_PAUSES, sizeof(*c->snaps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->snaps);
	c->test = test;
	init_completion(&c->done);
	c->tb = lrb_tb_alloc(test, 4 * CAP, flags);
	c->rcpu = lrb_kunit_pin_current(test);
	lrb_tb_check_at_end(test, c->tb);
	c->wcpu = cpumask_any_but(cpu_online_mask, c->rcpu);
	KUNIT_ASSERT_LT(test, c->wcpu, nr_cpu_ids);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, smp_cleanup, c));
	lrb_kunit_line(test, "lrb-smp %s: reader on CPU %d, writer on CPU %d (%s mode)",
		       test->name, c->rcpu, c->wcpu,
		       flags & LRB_FL_OVERWRITE ? "overwrite" : "producer/consumer");
	return c;
}

struct smp_fill {
	struct lrb_tb	*tb;
	unsigned int	len;
	u32		first;
	unsigned int	n;
};

static long smp_fill_fn(void *data)
{
	struct smp_fill *f = data;
	unsigned int i;

	for (i = 0; i < f->n; i++)
		if (lrb_tb_write_seq(f->tb, f->len, f->first + i))
			return -ENOSPC;
	return 0;
}

/* Writes on the writer's CPU, before the race */
static void smp_setup_writes(struct smp_ctx *c, unsigned int len, u32 first,
			     unsigned int n)
{
	struct smp_fill f = { .tb = c->tb, .len = len, .first = first, .n = n };

	KUNIT_ASSERT_EQ(c->test, 0L, work_on_cpu(c->wcpu, smp_fill_fn, &f));
}

static struct smp_pause *smp_pause(struct smp_ctx *c, enum smp_side side,
				   enum lrb_hook_point point, int nth,
				   int signal, int wait, const char *title,
				   const char *ring, const char *props)
{
	struct smp_pause *p;

	KUNIT_ASSERT_LT(c->test, c->nr, MAX_PAUSES);
	memset(c->count, 0, sizeof(c->count));
	p = &c->pause[c->nr++];
	p->side = side;
	p->point = point;
	p->nth = nth;
	p->signal = signal;
	p->wait = wait;
	p->title = title;
	p->ring = ring;
	p->props = props;
	return p;
}

static void smp_add_write(struct smp_ctx *c, unsigned int len, u32 seq)
{
	c->wlen[c->nr_writes] = len;
	c->wseq[c->nr_writes++] = seq;
}

/*
 * Start the writer kthread on its CPU: it waits for stage wait, writes,
 * then sets the stage to signal (0: neither).
 */
static void smp_go(struct smp_ctx *c, int wait, int signal)
{
	struct task_struct *t;

	c->wait_before_writing = wait;
	c->signal_after_writing = signal;
	KUNIT_ASSERT_EQ(c->test, 0, lrb_set_test_hook(c->tb->b, smp_hook, c));
	t = kthread_run_on_cpu(smp_writer, c, c->wcpu, "lrb_smp/%u");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(c->test, t);
	c->task = t;
}

static void smp_finish(struct smp_ctx *c)
{
	struct kunit *test = c->test;
	unsigned int i;
	char title[160];

	KUNIT_EXPECT_TRUE_MSG(test,
			      wait_for_completion_timeout(&c->done,
							  nsecs_to_jiffies(LRB_SMP_WAIT_NS)),
			      "the writer did not finish");
	lrb_set_test_hook(c->tb->b, NULL, NULL);
	KUNIT_EXPECT_FALSE_MSG(test, READ_ONCE(c->timed_out),
			       "a handshake timed out");
	for (i = 0; i < c->nr_writes; i++)
		KUNIT_EXPECT_EQ_MSG(test, c->wret[i], 0, "write %u", i);
	for (i = 0; i < c->nr; i++) {
		const struct smp_pause *p = &c->pause[i];
		bool ok;

		if (!c->hit[i]) {
			KUNIT_FAIL(test, "pause %u never happened: %s", i + 1,
				   p->title);
			continue;
		}
		snprintf(title, sizeof(title), "lrb-step %u: %s  [%s at %s #%d]",
			 i + 1, p->title, p->side == READER ? "reader" : "writer",
			 lrb_hook_name(p->point), p->nth);
		lrb_kunit_render(test, &c->snaps[i], title);
		ok = lrb_kunit_expect(test, &c->snaps[i], p->ring, p->props);
		lrb_kunit_line(test, "expect: %s  %s  -> %s",
			       p->ring ? p->ring : "", p->props ? p->props : "",
			       ok ? "as drawn" : "MISMATCH");
	}
}

/* The reader consumes from the writer's CPU; check seq and loss */
static void smp_expect_event(struct smp_ctx *c, struct lrb_event *ev,
			     unsigned int len, u32 seq, unsigned long lost,
			     unsigned long want_lost)
{
	KUNIT_ASSERT_NOT_NULL(c->test, ev);
	KUNIT_EXPECT_EQ(c->test, lrb_event_length(ev), ALIGN(len, 4));
	KUNIT_EXPECT_TRUE_MSG(c->test,
			      lrb_kunit_payload_ok(lrb_event_data(ev), len, seq),
			      "expected seq %u, got %u", seq,
			      lrb_kunit_payload_seq(lrb_event_data(ev)));
	KUNIT_EXPECT_EQ(c->test, lost, want_lost);
}

static void smp_read_rest(struct smp_ctx *c, const u32 *seqs,
			  const unsigned int *lens, unsigned int n)
{
	struct lrb_event *ev;
	unsigned long lost;
	unsigned int i;

	for (i = 0; i < n; i++) {
		ev = lrb_consume(c->tb->b, c->wcpu, NULL, &lost);
		smp_expect_event(c, ev, lens[i], seqs[i], lost, 0);
	}
	KUNIT_EXPECT_NULL(c->test, lrb_consume(c->tb->b, c->wcpu, NULL, NULL));
}

static const unsigned int bigs[] = { BIG, BIG, BIG, BIG, BIG, BIG };

/* Reader paused before its swap cmpxchg; the writer pushes the head */
static void reader_before_swap_writer_pushes_head(struct kunit *test)
{
	struct smp_ctx *c = smp_start(test, LRB_FL_OVERWRITE);
	static const u32 rest[] = { 2, 3, 4 };
	struct lrb_event *ev;
	unsigned long lost;

	smp_setup_writes(c, BIG, 0, 4);
	smp_pause(c, READER, LRB_HOOK_READER_BEFORE_SWAP, 1, 1, 2,
		  "reader prepared its page for head p1; paused",
		  "p1 --> p2 --> p3 --> p4 -H->", "rnext=p2 rflag=H head=p1");
	smp_pause(c, READER, LRB_HOOK_READER_SWAP_FAILED, 1, 0, 0,
		  "the writer on the other CPU pushed the head: the swap failed",
		  "p1 -H-> p2 --> p3 --> p4 -->", "head=p2 tail=p1");
	smp_add_write(c, BIG, 4);
	smp_go(c, 1, 2);
	ev = lrb_consume(c->tb->b, c->wcpu, NULL, &lost);
	smp_finish(c);
	smp_expect_event(c, ev, BIG, 1, lost, 1);
	smp_read_rest(c, rest, bigs, 3);
}

/* Reader paused before taking the commit page; the writer fills it */
static void reader_before_swap_writer_fills_its_page(struct kunit *test)
{
	struct smp_ctx *c = smp_start(test, 0);
	static const u32 rest[] = { 1, 2, 3 };
	static const unsigned int lens[] = { S, S, BIG };
	struct lrb_event *ev;
	unsigned long lost;

	smp_setup_writes(c, S, 0, 1);
	smp_pause(c, READER, LRB_HOOK_READER_BEFORE_SWAP, 1, 1, 2,
		  "reader about to take p1, the commit and tail page; paused",
		  "p1 --> p2 --> p3 --> p4 -H->", "head=p1 tail=p1 commit=p1");
	smp_pause(c, READER, LRB_HOOK_READER_DONE, 1, 0, 0,
		  "it took p1 after the writer added to it and moved on",
		  "p0 -H-> p2 --> p3 --> p4 -->", "head=p2 tail=p2 commit=p2");
	smp_add_write(c, S, 1);
	smp_add_write(c, S, 2);
	smp_add_write(c, BIG, 3);
	smp_go(c, 1, 2);
	ev = lrb_consume(c->tb->b, c->wcpu, NULL, &lost);
	smp_finish(c);
	smp_expect_event(c, ev, S, 0, lost, 0);
	smp_read_rest(c, rest, lens, 3);
}

/* Reader paused before fixing the new head's prev; the writer passes it */
static void reader_after_swap_writer_passes_new_head(struct kunit *test)
{
	struct smp_ctx *c = smp_start(test, LRB_FL_OVERWRITE);
	static const u32 rest[] = { 3, 4, 5 };
	struct lrb_event *ev;
	unsigned long lost;

	smp_setup_writes(c, BIG, 0, 4);
	smp_pause(c, READER, LRB_HOOK_READER_AFTER_SWAP, 1, 1, 2,
		  "swapped; the new head p2 still has p1 as prev; paused",
		  "p0 -H-> p2 --> p3 --> p4 -->", "staleprev=p2:p1 tail=p4");
	smp_pause(c, READER, LRB_HOOK_READER_DONE, 1, 0, 0,
		  "the writer went onto p0 and pushed past p2 meanwhile; the reader fixes p2's prev",
		  "p0 --> p2 -H-> p3 --> p4 -->", "tail=p2 head=p3");
	smp_add_write(c, BIG, 4);
	smp_add_write(c, BIG, 5);
	smp_go(c, 1, 2);
	ev = lrb_consume(c->tb->b, c->wcpu, NULL, &lost);
	smp_finish(c);
	smp_expect_event(c, ev, BIG, 0, lost, 0);
	ev = lrb_consume(c->tb->b, c->wcpu, NULL, &lost);
	smp_expect_event(c, ev, BIG, 2, lost, 1);
	smp_read_rest(c, rest, bigs, 3);
}

/* Writer paused holding UPDATE; the reader spins until it lets go */
static void writer_holds_update_reader_spins(struct kunit *test)
{
	struct smp_ctx *c = smp_start(test, LRB_FL_OVERWRITE);
	static const u32 rest[] = { 2, 3, 4 };
	struct lrb_event *ev;
	unsigned long lost;

	smp_setup_writes(c, BIG, 0, 4);
	smp_pause(c, WRITER, LRB_HOOK_HEAD_UPDATE_AFTER, 1, 1, 2,
		  "writer set UPDATE on the pointer to the head; paused",
		  "p1 --> p2 --> p3 --> p4 -U->", "tail=p4");
	smp_pause(c, READER, LRB_HOOK_READER_SPIN, 1, 2, 0,
		  "the reader on the other CPU sees UPDATE and spins; the writer goes on",
		  "p1 --> p2 --> p3 --> p4 -U->", "tail=p4");
	smp_add_write(c, BIG, 4);
	smp_go(c, 0, 0);
	KUNIT_ASSERT_TRUE(test, smp_wait(c, 1));
	ev = lrb_consume(c->tb->b, c->wcpu, NULL, &lost);
	smp_finish(c);
	smp_expect_event(c, ev, BIG, 1, lost, 1);
	smp_read_rest(c, rest, bigs, 3);
}

/* Writer paused before HEADER -> UPDATE; the reader swaps the head out */
static void writer_before_update_reader_takes_head(struct kunit *test)
{
	struct smp_ctx *c = smp_start(test, LRB_FL_OVERWRITE);
	static const u32 rest[] = { 1, 2, 3, 4 };
	struct lrb_event *ev;
	unsigned long lost;

	smp_setup_writes(c, BIG, 0, 4);
	smp_pause(c, WRITER, LRB_HOOK_HEAD_UPDATE_BEFORE, 1, 1, 2,
		  "writer about to set UPDATE on p4's next; paused",
		  "p1 --> p2 --> p3 --> p4 -H->", "tail=p4 head=p1");
	smp_pause(c, WRITER, LRB_HOOK_HEAD_UPDATE_AFTER, 1, 0, 0,
		  "the reader swapped p1 out meanwhile: the cmpxchg found p0 there (moved)",
		  "p0 -H-> p2 --> p3 --> p4 -->", "tail=p4 reader=p1 nrU=0");
	smp_pause(c, WRITER, LRB_HOOK_TAIL_AFTER, 1, 0, 0,
		  "so the writer simply moves onto p0: nothing was overwritten",
		  "p0 -H-> p2 --> p3 --> p4 -->", "tail=p0 overrun=0");
	smp_add_write(c, BIG, 4);
	smp_go(c, 0, 0);
	KUNIT_ASSERT_TRUE(test, smp_wait(c, 1));
	ev = lrb_consume(c->tb->b, c->wcpu, NULL, &lost);
	smp_signal(c, 2);
	smp_finish(c);
	smp_expect_event(c, ev, BIG, 0, lost, 0);
	smp_read_rest(c, rest, bigs, 4);
}

/* Writer paused after its push, before moving the tail; the reader swaps */
static void writer_before_tail_move_reader_takes_new_head(struct kunit *test)
{
	struct smp_ctx *c = smp_start(test, LRB_FL_OVERWRITE);
	static const u32 rest[] = { 2, 3, 4 };
	struct lrb_event *ev;
	unsigned long lost;

	smp_setup_writes(c, BIG, 0, 4);
	smp_pause(c, WRITER, LRB_HOOK_TAIL_BEFORE, 1, 1, 2,
		  "writer pushed the head to p2, about to move the tail onto p1; paused",
		  "p1 -H-> p2 --> p3 --> p4 -->", "tail=p4 head=p2");
	smp_pause(c, WRITER, LRB_HOOK_TAIL_AFTER, 1, 0, 0,
		  "the reader took p2 meanwhile; the tail moves onto p1 all the same",
		  "p1 --> p0 -H-> p3 --> p4 -->", "tail=p1 reader=p2 head=p3");
	smp_add_write(c, BIG, 4);
	smp_go(c, 0, 0);
	KUNIT_ASSERT_TRUE(test, smp_wait(c, 1));
	ev = lrb_consume(c->tb->b, c->wcpu, NULL, &lost);
	smp_signal(c, 2);
	smp_finish(c);
	smp_expect_event(c, ev, BIG, 1, lost, 1);
	smp_read_rest(c, rest, bigs, 3);
}

/*
 * A nested writer set a HEADER while the outer writer holds UPDATE, and
 * the reader's hint points right behind that HEADER (the head went round
 * the ring since the last swap). The reader must not take that page: the
 * outer writer has not counted its push yet and may still reset the
 * HEADER. Its walk from the hint meets that HEADER first (the UPDATE is
 * behind the hint), so it is the count of pushes in flight that makes it
 * wait for the push to end.
 */
static void reader_ignores_nested_header_under_update(struct kunit *test)
{
	struct smp_ctx *c = smp_start(test, LRB_FL_OVERWRITE);
	static const u32 rest[] = { 7, 9, 8 };
	struct lrb_event *ev;
	unsigned long lost;
	struct smp_pause *p;

	smp_setup_writes(c, BIG, 0, 4);
	ev = lrb_consume(c->tb->b, c->wcpu, NULL, &lost);
	smp_expect_event(c, ev, BIG, 0, lost, 0);
	smp_setup_writes(c, BIG, 4, 4);
	p = smp_pause(c, WRITER, LRB_HOOK_HEAD_UPDATE_AFTER, 1, 1, 2,
		      "outer writer holds UPDATE on p4's next; a nested writer set p0 -H-> p2; the reader's hint is p2",
		      "p0 -H-> p2 --> p3 --> p4 -U->", "tail=p0 hint=p2 nrH=1 nrU=1");
	p->nest_len = BIG;
	p->nest_seq = 9;
	smp_pause(c, READER, LRB_HOOK_READER_SPIN, 1, 2, 0,
		  "the reader meets p0 -H-> p2 first, but a push is in flight: it waits, not taking p2",
		  "p0 -H-> p2 --> p3 --> p4 -U->", "reader=p1");
	smp_add_write(c, BIG, 8);
	smp_go(c, 0, 0);
	KUNIT_ASSERT_TRUE(test, smp_wait(c, 1));
	ev = lrb_consume(c->tb->b, c->wcpu, NULL, &lost);
	smp_finish(c);
	/*
	 * Once released, the reader and the writer's retry race for p2: the
	 * reader takes it (seq 5, 1..4 lost) or the writer pushes it first
	 * (seq 6, 1..5 lost). Either way the loss is reported exactly.
	 */
	KUNIT_ASSERT_NOT_NULL(test, ev);
	if (lrb_kunit_payload_seq(lrb_event_data(ev)) == 5) {
		static const u32 after5[] = { 6, 7, 9, 8 };

		smp_expect_event(c, ev, BIG, 5, lost, 4);
		smp_read_rest(c, after5, bigs, 4);
	} else {
		smp_expect_event(c, ev, BIG, 6, lost, 5);
		smp_read_rest(c, rest, bigs, 3);
	}
}

/*
 * Reader paused between finding the commit page (its own) and reading its
 * page's commit index; the writer adds an event meanwhile. With stale reads
 * on, the reader gets that event's bytes only if a read barrier separates
 * them from the commit index that covers them.
 */
static void reader_reads_event_committed_while_it_looks(struct kunit *test)
{
	struct smp_ctx *c = smp_start(test, 0);
	struct lrb_event *ev;
	unsigned long lost;

	KUNIT_ASSERT_EQ(test, 0, lrb_set_stale_reads(c->tb->b, true));
	smp_setup_writes(c, S, 0, 1);
	ev = lrb_consume(c->tb->b, c->wcpu, NULL, &lost);
	smp_expect_event(c, ev, S, 0, lost, 0);
	smp_pause(c, READER, LRB_HOOK_READER_PAGE, 1, 1, 2,
		  "the reader read everything of p1, its page and the commit page; paused",
		  NULL, "reader=p1 commit=p1 tail=p1");
	smp_add_write(c, S, 1);
	smp_go(c, 1, 2);
	ev = lrb_consume(c->tb->b, c->wcpu, NULL, &lost);
	smp_finish(c);
	smp_expect_event(c, ev, S, 1, lost, 0);
	smp_read_rest(c, NULL, NULL, 0);
	KUNIT_EXPECT_EQ(test, 0, lrb_set_stale_reads(c->tb->b, false));
}

static struct kunit_case lrb_smp_cases[] = {
	KUNIT_CASE(reader_reads_event_committed_while_it_looks),
	KUNIT_CASE(reader_before_swap_writer_pushes_head),
	KUNIT_CASE(reader_before_swap_writer_fills_its_page),
	KUNIT_CASE(reader_after_swap_writer_passes_new_head),
	KUNIT_CASE(writer_holds_update_reader_spins),
	KUNIT_CASE(writer_before_update_reader_takes_head),
	KUNIT_CASE(writer_before_tail_move_reader_takes_new_head),
	KUNIT_CASE(reader_ignores_nested_header_under_update),
	{}
};

static struct kunit_suite lrb_smp_suite = {
	.name = "lrb_smp",
	.init = lrb_kunit_kcsan_ignore_kernel,
	.test_cases = lrb_smp_cases,
};

kunit_test_suite(lrb_smp_suite);
