// SPDX-License-Identifier: GPL-2.0
/*
 * lrb's rows of the contract matrix: every function of
 * <linux/lockless_ring_buffer.h>, with the contexts its kernel-doc's
 * Context: line names (`make check` compares the two, function by function;
 * a row of two functions has the contexts both allow) and the states its
 * kernel-doc rules out. Each row's check is what the function's Return:
 * line promises in the cell's state.
 */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/lockless_ring_buffer.h>
#include <linux/lockless_ring_buffer_test.h>

#include "lrb_contract.h"

#define CAP		LRB_KUNIT_CAPACITY

/* The kernel-doc of lrb_reset_cpu() and lrb_resize(): "No reader may run meanwhile." */
#define NO_READER	"no reader may run during a reset or resize"
/* lrb_read_start() waits for the writers of the ring's CPU */
#define ITER_WAITS	"an iterator stops the writers of its CPU: none can be in flight"

static struct lrb_buffer *b_of(struct ct_cell *c)
{
	return c->buf;
}

/* ---- writers ------------------------------------------------------------ */

static void call_write(struct ct_cell *c)
{
	u32 data[2];
	int cpu = ct_this_cpu();

	lrb_kunit_fill(data, sizeof(data), CT_SEQ_OP);
	c->ret = lrb_write(b_of(c), sizeof(data), data);
	if (c->ret)
		c->failed[cpu]++;
	else
		c->ok[cpu]++;
}

static const char *check_write(struct ct_cell *c)
{
	return ct_want_ret(c, ct_writes_off(c) ? -EPERM : 0, c->ret);
}

static void call_reserve_commit(struct ct_cell *c)
{
	int cpu = ct_this_cpu();
	struct lrb_event *ev;

	ev = lrb_lock_reserve(b_of(c), 8);
	c->ret = ev ? 0 : -EPERM;
	if (!ev) {
		c->failed[cpu]++;
		return;
	}
	lrb_kunit_fill(lrb_event_data(ev), 8, CT_SEQ_OP);
	c->ret2 = lrb_unlock_commit(b_of(c), ev);
	c->ok[cpu]++;
}

static const char *check_reserve_commit(struct ct_cell *c)
{
	if (ct_writes_off(c))
		return c->ret ? NULL : "reserved while recording was off";
	if (c->ret)
		return "refused";
	return ct_want_ret(c, 0, c->ret2);
}

static void call_commit_alone(struct ct_cell *c)
{
	struct lrb_event ev = { };

	c->ret = lrb_unlock_commit(b_of(c), &ev);
}

static const char *check_commit_alone(struct ct_cell *c)
{
	return ct_want_ret(c, -EINVAL, c->ret);
}

/* ---- readers ------------------------------------------------------------ */

static void took(struct ct_cell *c, struct lrb_event *ev, unsigned long lost)
{
	c->ret = ev ? 1 : 0;
	if (ev) {
		c->seq = lrb_kunit_payload_seq(lrb_event_data(ev));
		c->lost = lost;
	}
	lrb_stats_cpu(b_of(c), c->cpu, &c->st_call);
	c->snapped = !lrb_snapshot(b_of(c), c->cpu, c->snap);
}

static void call_consume(struct ct_cell *c)
{
	unsigned long lost = 0;
	struct lrb_event *ev = lrb_consume(b_of(c), c->cpu, NULL, &lost);

	took(c, ev, lost);
}

static void call_peek(struct ct_cell *c)
{
	unsigned long lost = 0;
	struct lrb_event *ev = lrb_peek(b_of(c), c->cpu, NULL, &lost);

	took(c, ev, lost);
}

static int prepare_page(struct ct_cell *c)
{
	c->res = lrb_alloc_read_page(b_of(c), c->cpu);
	return IS_ERR(c->res) ? PTR_ERR(c->res) : 0;
}

static void cleanup_page(struct ct_cell *c)
{
	lrb_free_read_page(b_of(c), c->cpu, c->res);
}

static void call_read_page(struct ct_cell *c)
{
	struct lrb_data_page *page;
	unsigned long commit;

	c->ret2 = lrb_read_page(b_of(c), &c->res, PAGE_SIZE, c->cpu, false);
	c->ret = c->ret2 > 0;
	if (c->ret2 > 0) {
		page = c->res;
		commit = local_read(&page->commit);
		c->seq = lrb_kunit_payload_seq(lrb_event_data((void *)page->data));
		if (commit & LRB_MISSED_STORED)
			memcpy(&c->lost, &page->data[commit & ~LRB_MISSED_FLAGS],
			       sizeof(c->lost));
		else if (commit & LRB_MISSED_EVENTS)
			c->lost = CT_LOST_UNKNOWN;
	}
	lrb_stats_cpu(b_of(c), c->cpu, &c->st_call);
}

static const char *check_read_page(struct ct_cell *c)
{
	long want = ct_pushing(c) ? -EBUSY : -ENODATA;

	if (c->ret2 <= 0 && c->ret2 != want) {
		snprintf(c->why, sizeof(c->why), "returned %ld", c->ret2);
		return c->why;
	}
	return ct_expect_event(c);
}

static void call_empty_cpu(struct ct_cell *c)
{
	c->ret = lrb_empty_cpu(b_of(c), c->cpu);
}

static void call_empty(struct ct_cell *c)
{
	c->ret = lrb_empty(b_of(c));
}

static const char *check_not_empty(struct ct_cell *c)
{
	return c->ret ? "says empty, the ring holds events" : NULL;
}

/* ---- iterators ---------------------------------------------------------- */

static int prepare_iter(struct ct_cell *c)
{
	c->res = lrb_read_start(b_of(c), c->cpu);
	return IS_ERR(c->res) ? PTR_ERR(c->res) : 0;
}

static void cleanup_iter(struct ct_cell *c)
{
	if (!IS_ERR_OR_NULL(c->res))
		lrb_read_finish(c->res);
	c->res = NULL;
}

static void iter_took(struct ct_cell *c, struct lrb_event *ev)
{
	c->ret = ev ? 1 : 0;
	if (ev)
		c->seq = lrb_kunit_payload_seq(lrb_event_data(ev));
}

static void call_iter_peek(struct ct_cell *c)
{
	iter_took(c, lrb_iter_peek(c->res, NULL));
}

static void call_iter_advance(struct ct_cell *c)
{
	lrb_iter_advance(c->res);
	iter_took(c, lrb_iter_peek(c->res, NULL));
}

/* The iterator sees the oldest event, seq 0, or after an advance seq 1 */

static const char *check_iter_peek(struct ct_cell *c)
{
	return ct_expect_iter(c, 0);
}

static const char *check_iter_advance(struct ct_cell *c)
{
	return ct_expect_iter(c, 1);
}

static void call_read_finish(struct ct_cell *c)
{
	c->ret = lrb_read_finish(c->res);
	c->ret2 = lrb_read_finish(c->res);
	c->res = NULL;
}

static const char *check_read_finish(struct ct_cell *c)
{
	return ct_want_ret(c, 0, c->ret) ?: ct_want_ret(c, -EINVAL, c->ret2);
}

static void call_read_start_finish(struct ct_cell *c)
{
	struct lrb_iter *iter = lrb_read_start(b_of(c), c->cpu);

	c->ret = PTR_ERR_OR_ZERO(iter);
	if (!IS_ERR(iter))
		c->ret2 = lrb_read_finish(iter);
}

static const char *check_read_start_finish(struct ct_cell *c)
{
	if (c->state == CT_ST_REMOTE_PUSH && !c->left_when_returned)
		return "returned while a writer of the CPU was in flight";
	return ct_want_ret(c, 0, c->ret) ?: ct_want_ret(c, 0, c->ret2);
}

/* ---- counters ----------------------------------------------------------- */

static void call_stats_cpu(struct ct_cell *c)
{
	c->ret = lrb_stats_cpu(b_of(c), c->cpu, &c->st_call);
}

static const char *check_stats(struct ct_cell *c, const struct lrb_stats *st)
{
	unsigned long broken = c->state == CT_ST_BROKEN;

	if (st->committed < st->read + st->overrun)
		return "committed below read + overrun";
	if (st->broken != broken)
		return "broken does not say whether the ring is broken";
	return NULL;
}

static const char *check_stats_cpu(struct ct_cell *c)
{
	return ct_want_ret(c, 0, c->ret) ?: check_stats(c, &c->st_call);
}

static void call_stats(struct ct_cell *c)
{
	lrb_stats(b_of(c), &c->st_call);
}

static const char *check_stats_all(struct ct_cell *c)
{
	return check_stats(c, &c->st_call);
}

/*
 * The one-counter functions: the value, then lrb_stats_cpu() in the same
 * context, with nothing in between that can move (the writer of the CPU is
 * stopped, or interrupted by the call).
 */
#define COUNTER_ROW(fn, field)						\
static void call_##fn(struct ct_cell *c)				\
{									\
	c->ret = fn(b_of(c), c->cpu);					\
	lrb_stats_cpu(b_of(c), c->cpu, &c->st_call);			\
}									\
									\
static const char *check_##fn(struct ct_cell *c)			\
{									\
	return ct_want_ret(c, c->st_call.field, c->ret);			\
}

COUNTER_ROW(lrb_entries_cpu, entries)
COUNTER_ROW(lrb_overrun_cpu, overrun)
COUNTER_ROW(lrb_commit_overrun_cpu, commit_overrun)
COUNTER_ROW(lrb_dropped_cpu, dropped)
COUNTER_ROW(lrb_read_events_cpu, read)

static void call_lrb_entries(struct ct_cell *c)
{
	c->ret = lrb_entries(b_of(c));
	lrb_stats(b_of(c), &c->st_call);
}

static const char *check_lrb_entries(struct ct_cell *c)
{
	return ct_want_ret(c, c->st_call.entries, c->ret);
}

static void call_lrb_overruns(struct ct_cell *c)
{
	c->ret = lrb_overruns(b_of(c));
	lrb_stats(b_of(c), &c->st_call);
}

static const char *check_lrb_overruns(struct ct_cell *c)
{
	return ct_want_ret(c, c->st_call.overrun, c->ret);
}

/* ---- recording on and off ----------------------------------------------- */

static void call_disable_enable(struct ct_cell *c)
{
	c->ret = lrb_record_disable(b_of(c));
	c->ret2 = lrb_record_enable(b_of(c));
}

static void call_enable_alone(struct ct_cell *c)
{
	c->ret = lrb_record_enable(b_of(c));
}

static void call_disable_enable_cpu(struct ct_cell *c)
{
	c->ret = lrb_record_disable_cpu(b_of(c), c->cpu);
	c->ret2 = lrb_record_enable_cpu(b_of(c), c->cpu);
}

static void call_enable_cpu_alone(struct ct_cell *c)
{
	c->ret = lrb_record_enable_cpu(b_of(c), c->cpu);
}

static const char *check_pair_ok(struct ct_cell *c)
{
	return ct_want_ret(c, 0, c->ret) ?: ct_want_ret(c, 0, c->ret2);
}

/* Nothing of the caller's to undo: refused, whatever else keeps it off */
static const char *check_enable_alone(struct ct_cell *c)
{
	return ct_want_ret(c, -EINVAL, c->ret);
}

static const char *check_enable_cpu_alone(struct ct_cell *c)
{
	bool other_off = c->state == CT_ST_ITER || c->state == CT_ST_BROKEN;

	return ct_want_ret(c, other_off ? -EBUSY : -EINVAL, c->ret);
}

/* ---- the rest ----------------------------------------------------------- */

static void call_size(struct ct_cell *c)
{
	c->ret = lrb_size(b_of(c));
}

static const char *check_size(struct ct_cell *c)
{
	return ct_want_ret(c, 3 * CAP, c->ret);
}

static void call_max_payload(struct ct_cell *c)
{
	c->ret = lrb_max_payload();
}

static const char *check_max_payload(struct ct_cell *c)
{
	return ct_want_ret(c, CAP - 8, c->ret);
}

static void call_set_clock(struct ct_cell *c)
{
	c->ret = lrb_set_clock(b_of(c), NULL);
}

static const char *check_zero(struct ct_cell *c)
{
	return ct_want_ret(c, 0, c->ret);
}

static void call_alloc_free(struct ct_cell *c)
{
	struct lrb_buffer *b = lrb_alloc(2 * CAP, 0);

	c->ret = PTR_ERR_OR_ZERO(b);
	lrb_free(IS_ERR(b) ? NULL : b);
}

static void call_alloc_free_page(struct ct_cell *c)
{
	void *page = lrb_alloc_read_page(b_of(c), c->cpu);

	c->ret = PTR_ERR_OR_ZERO(page);
	lrb_free_read_page(b_of(c), c->cpu, page);
}

static void call_free_page(struct ct_cell *c)
{
	lrb_free_read_page(b_of(c), c->cpu, c->res);
	c->res = NULL;
	c->ret = 0;
}

/* Waits for the writers in flight: never returns before they left */
static const char *check_waited(struct ct_cell *c)
{
	if (c->state == CT_ST_REMOTE_PUSH && !c->left_when_returned)
		return "returned while a writer of the CPU was in flight";
	return NULL;
}

static void call_resize(struct ct_cell *c)
{
	c->ret = lrb_resize(b_of(c), 4 * CAP);
	c->ret2 = lrb_size(b_of(c));
}

static const char *check_resize(struct ct_cell *c)
{
	if (c->state == CT_ST_BROKEN)
		return ct_want_ret(c, -EIO, c->ret) ?: ct_want_ret(c, 3 * CAP, c->ret2);
	return check_waited(c) ?: ct_want_ret(c, 0, c->ret) ?:
	       ct_want_ret(c, 4 * CAP, c->ret2);
}

static void call_reset_cpu(struct ct_cell *c)
{
	c->ret = lrb_reset_cpu(b_of(c), c->cpu);
	c->counts_reset = !c->ret;
}

static void call_reset(struct ct_cell *c)
{
	c->ret = lrb_reset(b_of(c));
	c->counts_reset = !c->ret;
}

/* A broken ring is refused and kept as it broke */
static const char *check_reset(struct ct_cell *c)
{
	if (c->state == CT_ST_BROKEN)
		return ct_want_ret(c, -EIO, c->ret);
	return check_waited(c) ?: ct_want_ret(c, 0, c->ret);
}

#define SAME_CPU_ONLY	(CT_S_WRITER)

static const struct ct_op lrb_rows[] = {
	{ .name = "lrb_write", .ctx = CT_ANY,
	  .call = call_write, .check = check_write },
	{ .name = "lrb_lock_reserve+lrb_unlock_commit", .ctx = CT_ANY,
	  .call = call_reserve_commit, .check = check_reserve_commit },
	{ .name = "lrb_unlock_commit", .ctx = CT_ANY,
	  .not_in = CT_S_WRITER,
	  .why_not = "a commit comes from the context of its reserve",
	  .call = call_commit_alone, .check = check_commit_alone },
	{ .name = "lrb_peek", .ctx = CT_ANY_BUT_NMI,
	  .not_in = CT_S_REBUILD, .why_not = NO_READER,
	  .call = call_peek, .check = ct_expect_event },
	{ .name = "lrb_consume", .ctx = CT_ANY_BUT_NMI,
	  .not_in = CT_S_REBUILD, .why_not = NO_READER,
	  .call = call_consume, .check = ct_expect_event },
	{ .name = "lrb_read_page", .ctx = CT_ANY_BUT_NMI,
	  .not_in = CT_S_REBUILD, .why_not = NO_READER,
	  .prepare = prepare_page, .call = call_read_page,
	  .check = check_read_page, .cleanup = cleanup_page },
	{ .name = "lrb_empty_cpu", .ctx = CT_ANY_BUT_NMI,
	  .not_in = CT_S_REBUILD, .why_not = NO_READER,
	  .call = call_empty_cpu, .check = check_not_empty },
	{ .name = "lrb_empty", .ctx = CT_ANY_BUT_NMI,
	  .not_in = CT_S_REBUILD, .why_not = NO_READER,
	  .call = call_empty, .check = check_not_empty },
	{ .name = "lrb_iter_peek", .ctx = CT_ANY_BUT_NMI,
	  .not_in = CT_S_WRITER | CT_S(REMOTE_PUSH) | CT_S_REBUILD,
	  .why_not = ITER_WAITS,
	  .prepare = prepare_iter, .call = call_iter_peek,
	  .check = check_iter_peek, .cleanup = cleanup_iter },
	{ .name = "lrb_iter_advance", .ctx = CT_ANY_BUT_NMI,
	  .not_in = CT_S_WRITER | CT_S(REMOTE_PUSH) | CT_S_REBUILD,
	  .why_not = ITER_WAITS,
	  .prepare = prepare_iter, .call = call_iter_advance,
	  .check = check_iter_advance, .cleanup = cleanup_iter },
	{ .name = "lrb_read_finish", .ctx = CT_ANY_BUT_NMI,
	  .not_in = CT_S_WRITER | CT_S(REMOTE_PUSH) | CT_S_REBUILD,
	  .why_not = ITER_WAITS,
	  .prepare = prepare_iter, .call = call_read_finish,
	  .check = check_read_finish, .cleanup = cleanup_iter },
	{ .name = "lrb_read_start+lrb_read_finish", .ctx = CT_PROCESS,
	  .not_in = CT_S_REBUILD, .why_not = NO_READER,
	  .call = call_read_start_finish, .check = check_read_start_finish },
	{ .name = "lrb_stats_cpu", .ctx = CT_ANY,
	  .call = call_stats_cpu, .check = check_stats_cpu },
	{ .name = "lrb_stats", .ctx = CT_ANY,
	  .call = call_stats, .check = check_stats_all },
	{ .name = "lrb_entries_cpu", .ctx = CT_ANY,
	  .call = call_lrb_entries_cpu, .check = check_lrb_entries_cpu },
	{ .name = "lrb_overrun_cpu", .ctx = CT_ANY,
	  .call = call_lrb_overrun_cpu, .check = check_lrb_overrun_cpu },
	{ .name = "lrb_commit_overrun_cpu", .ctx = CT_ANY,
	  .call = call_lrb_commit_overrun_cpu,
	  .check = check_lrb_commit_overrun_cpu },
	{ .name = "lrb_dropped_cpu", .ctx = CT_ANY,
	  .call = call_lrb_dropped_cpu, .check = check_lrb_dropped_cpu },
	{ .name = "lrb_read_events_cpu", .ctx = CT_ANY,
	  .call = call_lrb_read_events_cpu, .check = check_lrb_read_events_cpu },
	{ .name = "lrb_entries", .ctx = CT_ANY,
	  .call = call_lrb_entries, .check = check_lrb_entries },
	{ .name = "lrb_overruns", .ctx = CT_ANY,
	  .call = call_lrb_overruns, .check = check_lrb_overruns },
	{ .name = "lrb_record_disable+lrb_record_enable", .ctx = CT_ANY,
	  .call = call_disable_enable, .check = check_pair_ok },
	{ .name = "lrb_record_enable", .ctx = CT_ANY,
	  .call = call_enable_alone, .check = check_enable_alone },
	{ .name = "lrb_record_disable_cpu+lrb_record_enable_cpu", .ctx = CT_ANY,
	  .call = call_disable_enable_cpu, .check = check_pair_ok },
	{ .name = "lrb_record_enable_cpu", .ctx = CT_ANY,
	  .call = call_enable_cpu_alone, .check = check_enable_cpu_alone },
	{ .name = "lrb_size", .ctx = CT_ANY,
	  .call = call_size, .check = check_size },
	{ .name = "lrb_max_payload", .ctx = CT_ANY,
	  .call = call_max_payload, .check = check_max_payload },
	{ .name = "lrb_set_clock", .ctx = CT_ANY,
	  .call = call_set_clock, .check = check_zero },
	{ .name = "lrb_alloc+lrb_free", .ctx = CT_PROCESS,
	  .call = call_alloc_free, .check = check_zero },
	{ .name = "lrb_alloc_read_page+lrb_free_read_page", .ctx = CT_PROCESS,
	  .call = call_alloc_free_page, .check = check_zero },
	{ .name = "lrb_free_read_page", .ctx = CT_ANY_BUT_NMI,
	  .prepare = prepare_page, .call = call_free_page, .check = check_zero },
	{ .name = "lrb_resize", .ctx = CT_PROCESS,
	  .call = call_resize, .check = check_resize },
	{ .name = "lrb_reset_cpu", .ctx = CT_PROCESS,
	  .call = call_reset_cpu, .check = check_reset },
	{ .name = "lrb_reset", .ctx = CT_PROCESS,
	  .call = call_reset, .check = check_reset },
};

/* The ring's next pointer from the head made UPDATE, then a write meets it */
static int lrb_break_ring(struct ct_cell *c)
{
	struct lrb_stats st;
	int ret;

	ret = lrb_test_set_next_flags(b_of(c), c->cpu, 1, LRB_SNAP_UPDATE);
	if (ret)
		return ret;
	pr_info("lrb-kunit: expect one WARNING at lrb_set_broken\n");
	ct_write(c, 8, CT_SEQ_STATE);
	lrb_stats_cpu(b_of(c), c->cpu, &st);
	return st.broken ? 0 : -EIO;
}

static int lrb_rebuild(void *buf, int cpu, bool resize, unsigned int pages)
{
	if (resize)
		return lrb_resize(buf, pages * CAP);
	return lrb_reset_cpu(buf, cpu);
}

const struct ct_impl ct_impl_lrb = {
	.name = "lrb",
	.impl = &lrb_kunit_impl_lrb,
	.ops = lrb_rows,
	.nr_ops = ARRAY_SIZE(lrb_rows),
	.states = CT_S_ALL,
	.break_ring = lrb_break_ring,
	.rebuild = lrb_rebuild,
};
