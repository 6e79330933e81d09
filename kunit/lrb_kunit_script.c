// SPDX-License-Identifier: GPL-2.0
/*
 * The script engine of lrb_design and lrb_smp (lrb_kunit_script.h): the
 * hook that takes the steps, the writer thread, the report that draws and
 * checks every step, and the read-back checker.
 */

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "lrb_kunit_script.h"

static bool lrb_script_reader_point(enum lrb_hook_point point)
{
	return point >= LRB_HOOK_READER_LOOK && point <= LRB_HOOK_READER_BUSY;
}

/* Row of script->count: the writer's depth, or the reader's row */
static int lrb_script_row(int who)
{
	return who == LRB_SCRIPT_READER ? LRB_SCRIPT_MAX_DEPTH : who;
}

/**
 * lrb_script_kernel - whether the script runs on the kernel's buffer
 * @s: the script
 *
 * Return: true on kernel/trace/ring_buffer.c, false on lrb.
 */
bool lrb_script_kernel(const struct lrb_script *s)
{
	/* Without lrb the reference folds away: no lrb row to link to */
	return !IS_ENABLED(CONFIG_LOCKLESS_RING_BUFFER_KUNIT_TEST) ||
	       s->impl != &lrb_kunit_impl_lrb;
}

/**
 * lrb_script_write - write an event on the script's CPU, counted
 * @s: the script
 * @len: payload length
 * @seq: sequence number the payload carries
 *
 * Context: on s->cpu, one writer per context level.
 * Return: 0, or -ENOSPC if the buffer refused it.
 */
int lrb_script_write(struct lrb_script *s, unsigned int len, u32 seq)
{
	void *ev = lrb_script_reserve(s, len, seq);

	if (!ev)
		return -ENOSPC;
	lrb_script_commit(s, ev);
	return 0;
}

/**
 * lrb_script_reserve - reserve an event and fill its payload
 * @s: the script
 * @len: payload length
 * @seq: sequence number the payload carries
 *
 * Context: on s->cpu.
 * Return: the event, or NULL (counted as refused).
 */
void *lrb_script_reserve(struct lrb_script *s, unsigned int len, u32 seq)
{
	void *ev = s->impl->reserve(s->buf, len);

	if (!ev) {
		s->failed++;
		return NULL;
	}
	lrb_kunit_fill(s->impl->event_data(ev), len, seq);
	return ev;
}

/**
 * lrb_script_commit - commit an event of lrb_script_reserve(), counted
 * @s: the script
 * @ev: the event
 */
void lrb_script_commit(struct lrb_script *s, void *ev)
{
	s->impl->commit(s->buf, ev);
	s->ok++;
}

/**
 * lrb_script_consume - consume the next event of the script's CPU buffer
 * @s: the script
 * @ts: receives its time stamp, or NULL
 * @lost: receives the events lost before it, or NULL
 *
 * Return: the event, or NULL if there is none.
 */
void *lrb_script_consume(struct lrb_script *s, u64 *ts, unsigned long *lost)
{
	return s->impl->consume(s->buf, s->cpu, ts, lost);
}

/**
 * lrb_script_signal - set the handshake stage
 * @s: the script
 * @stage: the stage
 */
void lrb_script_signal(struct lrb_script *s, int stage)
{
	atomic_set_release(&s->stage, stage);
}

/**
 * lrb_script_wait - wait, bounded, for the stage to reach a value
 * @s: the script
 * @stage: the stage
 *
 * Return: true once it did; false after LRB_SCRIPT_WAIT_NS (the report
 * then fails the case).
 */
bool lrb_script_wait(struct lrb_script *s, int stage)
{
	if (lrb_kunit_wait_stage(&s->stage, stage, LRB_SCRIPT_WAIT_NS))
		return true;
	WRITE_ONCE(s->timed_out, true);
	return false;
}

/* Who the hook call is, or INT_MIN if it is not the script's */
static int lrb_script_who(struct lrb_script *s, int cpu,
			  enum lrb_hook_point point)
{
	int me = raw_smp_processor_id();

	if (cpu != s->cpu)
		return INT_MIN;
	if (me == s->cpu)
		return lrb_script_reader_point(point) ? LRB_SCRIPT_READER : s->depth;
	if (me == s->rcpu)
		return LRB_SCRIPT_READER;
	atomic_inc(&s->foreign);
	return INT_MIN;
}

/* The step's nested writes, each an interrupt of the next context level */
static void lrb_script_nested_writes(struct lrb_script *s, unsigned int i)
{
	const struct lrb_script_step *st = &s->steps[i];
	unsigned long flags;
	int k;

	s->depth++;
	for (k = 0; k < LRB_SCRIPT_MAX_NEST && st->nest[k].len; k++) {
		flags = lrb_kunit_nest_enter(s->depth);
		s->nest_ret[i][k] = lrb_script_write(s, st->nest[k].len,
						     st->nest[k].seq);
		lrb_kunit_nest_exit(s->depth, flags);
	}
	s->depth--;
}

static void lrb_script_take(struct lrb_script *s, void *buf, int cpu,
			    unsigned int i)
{
	const struct lrb_script_step *st = &s->steps[i];

	s->fired[i] = true;
	if (!st->snap_after_nest)
		s->impl->snapshot(buf, cpu, &s->snaps[i]);
	lrb_script_nested_writes(s, i);
	if (st->snap_after_nest)
		s->impl->snapshot(buf, cpu, &s->snaps[i]);
	if (st->signal)
		lrb_script_signal(s, st->signal);
	if (st->wait)
		lrb_script_wait(s, st->wait);
	if (st->pause)
		st->pause(s);
}

/* Runs at the hook points, in the writer's or the reader's context */
static void lrb_script_hook(void *buf, int cpu, enum lrb_hook_point point,
			    void *data)
{
	struct lrb_script *s = data;
	int who = lrb_script_who(s, cpu, point);
	unsigned int i, n;

	if (who == INT_MIN)
		return;
	if (who >= LRB_SCRIPT_MAX_DEPTH) {
		s->stray++;
		return;
	}
	n = ++s->count[lrb_script_row(who)][point];
	for (i = 0; i < s->nr_steps; i++) {
		const struct lrb_script_step *st = &s->steps[i];

		/* Only the one who takes a step reads its fired flag */
		if (st->who != who || st->point != point || st->nth != n ||
		    s->fired[i])
			continue;
		lrb_script_take(s, buf, cpu, i);
		break;
	}
}

static void lrb_script_cleanup(void *data)
{
	struct lrb_script *s = data;

	s->impl->set_hook(s->buf, NULL);
	if (s->writer)
		kthread_stop(s->writer);
}

static void lrb_script_free(void *data)
{
	struct lrb_script *s = data;

	s->impl->free(s->buf);
}

static void lrb_script_check_end(void *data)
{
	struct lrb_script *s = data;

	lrb_kunit_impl_check_end(s->test, s->impl, s->buf,
				 &s->snaps[LRB_SCRIPT_MAX_STEPS], s->cpu, s->ok,
				 s->failed, s->silent);
}

/**
 * lrb_script_start - a script on a new buffer of the suite's implementation
 * @test: the case; test->priv is the implementation's row
 * @size: the buffer's size in bytes per CPU
 * @flags: LRB_FL_OVERWRITE or 0
 * @cpu: the CPU whose buffer the script drives
 * @rcpu: the reader's CPU when it is not @cpu, else -1
 *
 * At the end of the case, in this order: the hook is removed and the
 * writer thread stopped, the end-of-case checks run, the buffer is freed.
 *
 * Return: the script; the case fails if it cannot be set up.
 */
struct lrb_script *lrb_script_start(struct kunit *test, unsigned long size,
				    unsigned long flags, int cpu, int rcpu)
{
	struct lrb_script *s;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	/* One more for the end-of-case check */
	s->snaps = kunit_kcalloc(test, LRB_SCRIPT_MAX_STEPS + 1,
				 sizeof(*s->snaps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->snaps);
	s->test = test;
	s->impl = test->priv;
	s->cpu = cpu;
	s->rcpu = rcpu;
	s->first = LRB_SNAP_NONE;
	init_completion(&s->writer_done);
	s->buf = s->impl->alloc(size, flags & LRB_FL_OVERWRITE);
	KUNIT_ASSERT_NOT_NULL(test, s->buf);
	/*
	 * A reader the script makes wait for a writer it stopped waits as
	 * long as the script's own waits, whatever the host does to the
	 * vCPUs meanwhile.
	 */
	if (s->impl->set_patience)
		s->impl->set_patience(s->buf, LRB_SCRIPT_WAIT_NS);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrb_script_free, s));
	/* Cleanup runs backwards: unhook and stop the writer, then check */
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrb_script_check_end, s));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrb_script_cleanup, s));
	s->hook.fn = lrb_script_hook;
	s->hook.data = s;
	return s;
}

/**
 * lrb_script_arm - let the steps happen: set the engine's hook
 * @s: the script
 *
 * Return: 0, or what the implementation's set_hook() returns.
 */
int lrb_script_arm(struct lrb_script *s)
{
	return s->impl->set_hook(s->buf, &s->hook);
}

/**
 * lrb_script_step - add a step
 * @s: the script
 * @who: LRB_SCRIPT_READER or the writer's depth; a step at one of the
 *	reader's hook points is the reader's
 * @point: the hook point
 * @nth: the how-many-th time @who reaches it, counted from now
 * @cite: where the design document draws or says it, or NULL
 * @title: what happens
 * @ring: the expected ring, or NULL
 * @props: the expected properties, or NULL
 *
 * Return: the step, for its nested writes, stages and pause.
 */
struct lrb_script_step *lrb_script_step(struct lrb_script *s, int who,
					enum lrb_hook_point point, int nth,
					const char *cite, const char *title,
					const char *ring, const char *props)
{
	struct lrb_script_step *st;

	KUNIT_ASSERT_LT(s->test, s->nr_steps, LRB_SCRIPT_MAX_STEPS);
	/* Occurrences count from the operation the steps are armed for */
	if (point != LRB_HOOK_NR)
		memset(s->count, 0, sizeof(s->count));
	if (lrb_script_reader_point(point))
		who = LRB_SCRIPT_READER;
	st = &s->steps[s->nr_steps++];
	st->who = who;
	st->point = point;
	st->nth = nth;
	st->cite = cite;
	st->title = title;
	st->ring = ring;
	st->props = props;
	return st;
}

/**
 * lrb_script_kernel_differs - the kernel's state at the step added last
 * @s: the script
 * @ring: the ring where it differs from lrb's, NULL: the same
 * @props: the properties
 * @why: how it differs: a row of docs/kernel-rb-differences.md
 */
void lrb_script_kernel_differs(struct lrb_script *s, const char *ring,
			       const char *props, const char *why)
{
	struct lrb_script_step *st = &s->steps[s->nr_steps - 1];

	st->kring = ring;
	st->kprops = props;
	st->kwhy = why;
}

/**
 * lrb_script_nest - add a nested write to a step
 * @st: the step
 * @len: payload length
 * @seq: sequence number the payload carries
 */
void lrb_script_nest(struct lrb_script_step *st, unsigned int len, u32 seq)
{
	int k;

	for (k = 0; k < LRB_SCRIPT_MAX_NEST && st->nest[k].len; k++)
		;
	if (k < LRB_SCRIPT_MAX_NEST) {
		st->nest[k].len = len;
		st->nest[k].seq = seq;
	}
}

/**
 * lrb_script_snap - a snapshot the test thread takes now, as a step
 * @s: the script
 * @cite: where the document draws it
 * @title: what it shows
 * @ring: the expected ring, or NULL
 * @props: the expected properties, or NULL
 *
 * Return: the step.
 */
struct lrb_script_step *lrb_script_snap(struct lrb_script *s, const char *cite,
					const char *title, const char *ring,
					const char *props)
{
	unsigned int i = s->nr_steps;
	struct lrb_script_step *st;

	st = lrb_script_step(s, LRB_SCRIPT_THREAD, LRB_HOOK_NR, 0, cite, title,
			     ring, props);
	s->fired[i] = !s->impl->snapshot(s->buf, s->cpu, &s->snaps[i]);
	return st;
}

struct lrb_script_fill {
	struct lrb_script	*s;
	unsigned int		len;
	u32			first;
	unsigned int		n;
};

static long lrb_script_fill_fn(void *data)
{
	struct lrb_script_fill *f = data;
	unsigned int i;

	for (i = 0; i < f->n; i++)
		if (lrb_script_write(f->s, f->len, f->first + i))
			return -ENOSPC;
	return 0;
}

/**
 * lrb_script_setup_writes - write n events on the script's CPU, from there
 * @s: the script
 * @len: payload length of each
 * @first: sequence number of the first; the others follow
 * @n: how many
 *
 * Context: process; sleeps until the writes are done.
 * Return: 0, or -ENOSPC if one was refused.
 */
int lrb_script_setup_writes(struct lrb_script *s, unsigned int len, u32 first,
			    unsigned int n)
{
	struct lrb_script_fill f = { .s = s, .len = len, .first = first, .n = n };

	return work_on_cpu(s->cpu, lrb_script_fill_fn, &f);
}

/**
 * lrb_script_writer_add - add a write to the writer thread's list
 * @s: the script
 * @len: payload length
 * @seq: sequence number the payload carries
 */
void lrb_script_writer_add(struct lrb_script *s, unsigned int len, u32 seq)
{
	KUNIT_ASSERT_LT(s->test, s->nr_writes, LRB_SCRIPT_MAX_WRITES);
	s->writes[s->nr_writes].len = len;
	s->writes[s->nr_writes++].seq = seq;
}

static int lrb_script_writer_fn(void *data)
{
	struct lrb_script *s = data;
	unsigned int i;

	if (s->writer_wait)
		lrb_script_wait(s, s->writer_wait);
	for (i = 0; i < s->nr_writes; i++)
		s->write_ret[i] = lrb_script_write(s, s->writes[i].len,
						   s->writes[i].seq);
	if (s->writer_signal)
		lrb_script_signal(s, s->writer_signal);
	complete(&s->writer_done);
	lrb_kunit_wait_for_stop();
	return 0;
}

/**
 * lrb_script_writer_go - arm the script and start the writer thread
 * @s: the script
 * @wait: the stage the writer waits for before its writes (0: none)
 * @signal: the stage it sets after them (0: none)
 */
void lrb_script_writer_go(struct lrb_script *s, int wait, int signal)
{
	struct task_struct *t;

	s->writer_wait = wait;
	s->writer_signal = signal;
	KUNIT_ASSERT_EQ(s->test, 0, lrb_script_arm(s));
	t = kthread_run_on_cpu(lrb_script_writer_fn, s, s->cpu, "lrb_script/%u");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(s->test, t);
	s->writer = t;
}

/**
 * lrb_script_writer_finish - wait for the writer thread, then disarm
 * @s: the script
 *
 * Fails the case if the writer did not finish or one of its writes was
 * refused.
 */
void lrb_script_writer_finish(struct lrb_script *s)
{
	struct kunit *test = s->test;
	unsigned int i;

	KUNIT_EXPECT_TRUE_MSG(test,
			      wait_for_completion_timeout(&s->writer_done,
							  nsecs_to_jiffies(LRB_SCRIPT_WAIT_NS)),
			      "the writer did not finish");
	s->impl->set_hook(s->buf, NULL);
	for (i = 0; i < s->nr_writes; i++)
		KUNIT_EXPECT_EQ_MSG(test, s->write_ret[i], 0, "write %u", i);
}

/* "reader at reader_before_swap #1", "nested writer 2 at tail_after #1" */
static void lrb_script_where(const struct lrb_script_step *st, char *buf,
			     size_t len)
{
	if (st->who == LRB_SCRIPT_THREAD)
		strscpy(buf, "test thread, between operations", len);
	else if (st->who == LRB_SCRIPT_READER)
		snprintf(buf, len, "reader at %s #%d",
			 lrb_hook_name(st->point), st->nth);
	else if (!st->who)
		snprintf(buf, len, "outer writer at %s #%d",
			 lrb_hook_name(st->point), st->nth);
	else
		snprintf(buf, len, "nested writer %d at %s #%d", st->who,
			 lrb_hook_name(st->point), st->nth);
}

/* Expected properties with byte offsets in a page */
static bool lrb_script_has_offsets(const char *props)
{
	return props && (strstr(props, ".write=") || strstr(props, ".commit=") ||
			 strstr(props, ".read="));
}

static void lrb_script_report_step(struct lrb_script *s, unsigned int i)
{
	const struct lrb_script_step *st = &s->steps[i];
	bool ok, differs = lrb_script_kernel(s) && st->kwhy;
	/* The kernel's buffer lays events out 8-byte aligned where lrb must */
	bool align8 = lrb_script_kernel(s) ?
		      IS_ENABLED(CONFIG_HAVE_64BIT_ALIGNED_ACCESS) :
		      LRB_TEST_PAYLOAD_ALIGN == 8;
	struct kunit *test = s->test;
	char title[240], where[64];
	const char *ring, *props;
	int k;

	lrb_script_where(st, where, sizeof(where));
	if (st->cite)
		snprintf(title, sizeof(title), "lrb-step %u: %s  [%s]  (%s)",
			 i + 1, st->title, where, st->cite);
	else
		snprintf(title, sizeof(title), "lrb-step %u: %s  [%s]",
			 i + 1, st->title, where);
	if (!s->fired[i]) {
		KUNIT_FAIL(test, "step %u never happened: %s [%s]", i + 1,
			   st->title, where);
		return;
	}
	lrb_kunit_render_from(test, &s->snaps[i], title, s->first);
	ring = differs && st->kring ? st->kring : st->ring;
	props = differs ? st->kprops : st->props;
	ok = lrb_kunit_expect_layout(test, &s->snaps[i], ring, props, align8);
	if (differs)
		lrb_kunit_line(test, "kernel differs: %s", st->kwhy);
	if (align8 && lrb_script_has_offsets(props))
		lrb_kunit_line(test, "8-byte layout: byte offsets checked for alignment only");
	lrb_kunit_line(test, "expect: %s  %s  -> %s", ring ? ring : "",
		       props ? props : "", ok ? "as drawn" : "MISMATCH");
	for (k = 0; k < LRB_SCRIPT_MAX_NEST && st->nest[k].len; k++)
		KUNIT_EXPECT_EQ_MSG(test, s->nest_ret[i][k], 0,
				    "nested write %d at step %u", k, i + 1);
}

/**
 * lrb_script_report - draw every step and check it
 * @s: the script
 *
 * Each step is drawn in the document's notation and checked against its
 * expected state; on the kernel's buffer against the state it differs by,
 * where it does, saying so. Fails the case for a step that never happened,
 * a wait that timed out, or a writer nested deeper than the engine counts.
 *
 * Context: the test thread, once no writer holds a reservation.
 */
void lrb_script_report(struct lrb_script *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_steps; i++)
		lrb_script_report_step(s, i);
	KUNIT_EXPECT_FALSE_MSG(s->test, READ_ONCE(s->timed_out),
			       "a handshake timed out");
	KUNIT_EXPECT_EQ(s->test, s->stray, 0U);
}

/**
 * lrb_script_expect_event - check an event the reader got
 * @s: the script
 * @ev: the event (the case stops if it is NULL)
 * @len: its expected payload length
 * @seq: its expected sequence number
 * @lost: the loss reported before it
 * @want_lost: the loss expected before it
 */
void lrb_script_expect_event(struct lrb_script *s, void *ev, unsigned int len,
			     u32 seq, unsigned long lost,
			     unsigned long want_lost)
{
	const struct lrb_kunit_impl *impl = s->impl;
	struct kunit *test = s->test;

	KUNIT_ASSERT_NOT_NULL_MSG(test, ev, "expected seq %u", seq);
	KUNIT_EXPECT_EQ_MSG(test, impl->event_length(ev), impl->payload_length(len),
			    "length of seq %u", seq);
	KUNIT_EXPECT_TRUE_MSG(test, lrb_kunit_payload_ok(impl->event_data(ev), len, seq),
			      "expected seq %u, got %u", seq,
			      lrb_kunit_payload_seq(impl->event_data(ev)));
	KUNIT_EXPECT_EQ_MSG(test, lost, want_lost, "lost before seq %u", seq);
}

/**
 * lrb_script_read - read everything back and check it
 * @s: the script
 * @seqs: the sequence numbers expected, in order
 * @lens: their payload lengths
 * @losts: the loss expected before each, or NULL: none
 * @n: how many
 *
 * Each event must come in order with its payload and length, the loss
 * before it, and a time stamp that does not go backwards; then the buffer
 * must be empty.
 */
void lrb_script_read(struct lrb_script *s, const u32 *seqs,
		     const unsigned int *lens, const unsigned long *losts,
		     unsigned int n)
{
	struct kunit *test = s->test;
	unsigned long lost, lost_sum = 0;
	u64 ts, last = 0;
	unsigned int i;
	void *ev;

	for (i = 0; i < n; i++) {
		ev = lrb_script_consume(s, &ts, &lost);
		lrb_script_expect_event(s, ev, lens[i], seqs[i], lost,
					losts ? losts[i] : 0);
		KUNIT_EXPECT_GE_MSG(test, ts, last, "time of event %u", i);
		last = ts;
		lost_sum += lost;
	}
	KUNIT_EXPECT_NULL(test, lrb_script_consume(s, NULL, NULL));
	lrb_kunit_line(test, "read back %u events in order, payloads intact%s",
		       n, lost_sum ? ", loss reported" : "");
}
