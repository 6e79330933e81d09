// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's tracing ring buffer's rows of the contract matrix
 * (kernel/trace/ring_buffer.c).
 *
 * Its kernel-doc has no Context: lines. Its promise is the note of
 * ring_buffer_read_page(): "The ring buffer can be used anywhere in the
 * kernel"; its readers take the reader lock with rb_reader_lock(), which
 * only tries it in NMI (a reader there may get nothing), and its writers
 * nest in any context. The rows take the contexts the code is built for:
 * writers, consuming readers and counters anywhere; the page reader and the
 * iterator take the reader lock without trying (not in NMI); allocation,
 * resize and reset sleep (process context).
 *
 * The states it cannot be brought to: a reset or resize stopped at work
 * (it has no hook point there) and a broken ring (nothing breaks it on
 * purpose).
 */

#include <kunit/test.h>
#include <linux/err.h>
#include <linux/ring_buffer.h>

#include "lrb_contract.h"

#define CAP		LRB_KUNIT_CAPACITY

static struct trace_buffer *kb(struct ct_cell *c)
{
	return lrb_kunit_krb_buffer(c->buf);
}

/*
 * Its iterators do not stop the writers: one whose page a writer pushes
 * away stops, and says so (ring_buffer_iter_dropped()); what it then reads
 * depends on where the writer is, so the rows check it with no writer in
 * flight
 */
#define ITER_UNDER_WRITER	"not checked with a writer changing the ring under the iterator"

/* ---- writers ------------------------------------------------------------ */

static void call_write(struct ct_cell *c)
{
	u32 data[2];
	int cpu = ct_this_cpu();

	lrb_kunit_fill(data, sizeof(data), CT_SEQ_OP);
	c->ret = ring_buffer_write(kb(c), sizeof(data), data);
	if (c->ret)
		c->failed[cpu]++;
	else
		c->ok[cpu]++;
}

static void call_reserve_commit(struct ct_cell *c)
{
	struct ring_buffer_event *ev;
	int cpu = ct_this_cpu();

	ev = ring_buffer_lock_reserve(kb(c), 8);
	c->ret = ev ? 0 : -EBUSY;
	if (!ev) {
		c->failed[cpu]++;
		return;
	}
	lrb_kunit_fill(ring_buffer_event_data(ev), 8, CT_SEQ_OP);
	c->ret2 = ring_buffer_unlock_commit(kb(c));
	c->ok[cpu]++;
}

/* Its iterators do not stop the writers: a write succeeds in every state */
static const char *check_write(struct ct_cell *c)
{
	return ct_want_ret(c, 0, c->ret) ?: ct_want_ret(c, 0, c->ret2);
}

/* ---- readers ------------------------------------------------------------ */

static void took(struct ct_cell *c, struct ring_buffer_event *ev,
		 unsigned long lost)
{
	c->ret = ev ? 1 : 0;
	if (ev) {
		c->seq = lrb_kunit_payload_seq(ring_buffer_event_data(ev));
		c->lost = lost;
	}
	c->ci->impl->stats(c->buf, c->cpu, &c->st_call);
}

static void call_consume(struct ct_cell *c)
{
	unsigned long lost = 0;
	struct ring_buffer_event *ev = ring_buffer_consume(kb(c), c->cpu, NULL, &lost);

	took(c, ev, lost);
}

static void call_peek(struct ct_cell *c)
{
	unsigned long lost = 0;
	struct ring_buffer_event *ev = ring_buffer_peek(kb(c), c->cpu, NULL, &lost);

	took(c, ev, lost);
}

static int prepare_page(struct ct_cell *c)
{
	c->res = c->ci->impl->alloc_read_page(c->buf, c->cpu);
	return c->res ? 0 : -ENOMEM;
}

static void cleanup_page(struct ct_cell *c)
{
	c->ci->impl->free_read_page(c->buf, c->cpu, c->res);
	c->res = NULL;
}

static void call_read_page(struct ct_cell *c)
{
	struct lrb_data_page *page;
	unsigned long commit;

	c->ret2 = ring_buffer_read_page(kb(c), c->res, PAGE_SIZE, c->cpu, 0);
	c->ret = c->ret2 >= 0;
	if (c->ret) {
		page = ring_buffer_read_page_data(c->res);
		commit = local_read(&page->commit);
		c->seq = lrb_kunit_payload_seq(ring_buffer_event_data((void *)page->data));
		if (commit & LRB_MISSED_STORED)
			memcpy(&c->lost, &page->data[commit & ~LRB_MISSED_FLAGS],
			       sizeof(c->lost));
		else if (commit & LRB_MISSED_EVENTS)
			c->lost = CT_LOST_UNKNOWN;
	}
	c->ci->impl->stats(c->buf, c->cpu, &c->st_call);
}

/*
 * Its reader waits for a writer on another CPU that holds the head, as
 * long as that takes (rb_get_reader_page() looks again after every failed
 * swap, with no bound), and then reads; it has no busy count. The cell's
 * writer holds UPDATE for remote_hold_ns: the reader looks for the head
 * many more times than the three its loop's comment expects.
 */
static const char *check_read(struct ct_cell *c)
{
	if (c->state == CT_ST_REMOTE_PUSH) {
		if (!c->left_when_returned)
			return "read while the writer on the other CPU still held UPDATE";
		if (c->spins <= 3) {
			snprintf(c->why, sizeof(c->why),
				 "the reader looked for the head %u times while UPDATE was held 50 ms: bounded?",
				 c->spins);
			return c->why;
		}
		kunit_info(c->test, "%s in %s: the reader looked for the head %u times while the writer on CPU %d held UPDATE",
			   c->op->name, ct_ctx_name(c->ctx), c->spins, c->cpu);
	}
	return ct_expect_oldest(c);
}

static void call_empty_cpu(struct ct_cell *c)
{
	c->ret = ring_buffer_empty_cpu(kb(c), c->cpu);
}

static void call_empty(struct ct_cell *c)
{
	c->ret = ring_buffer_empty(kb(c));
}

static const char *check_not_empty(struct ct_cell *c)
{
	return c->ret ? "says empty, the ring holds events" : NULL;
}

/* ---- iterators ---------------------------------------------------------- */

static int prepare_iter(struct ct_cell *c)
{
	c->res = c->ci->impl->read_start(c->buf, c->cpu);
	return c->res ? 0 : -ENOMEM;
}

static void cleanup_iter(struct ct_cell *c)
{
	if (c->res)
		c->ci->impl->read_finish(c->res);
	c->res = NULL;
}

static void call_iter_peek(struct ct_cell *c)
{
	struct ring_buffer_event *ev = ring_buffer_iter_peek(c->res, NULL);

	c->ret = ev ? 1 : 0;
	if (ev)
		c->seq = lrb_kunit_payload_seq(ring_buffer_event_data(ev));
}

/*
 * Peeked first, as its callers do: an advance before any peek, at the empty
 * reader page where a new iterator starts, does not move past the event a
 * peek returns (docs/kernel-rb-differences.md)
 */
static void call_iter_advance(struct ct_cell *c)
{
	ring_buffer_iter_peek(c->res, NULL);
	ring_buffer_iter_advance(c->res);
	call_iter_peek(c);
}

static const char *check_iter_peek(struct ct_cell *c)
{
	return ct_expect_iter(c, 0);
}

static const char *check_iter_advance(struct ct_cell *c)
{
	return ct_expect_iter(c, 1);
}

static void call_read_start_finish(struct ct_cell *c)
{
	void *iter = c->ci->impl->read_start(c->buf, c->cpu);

	c->ret = iter ? 0 : -ENOMEM;
	if (iter)
		c->ci->impl->read_finish(iter);
}

static const char *check_zero(struct ct_cell *c)
{
	return ct_want_ret(c, 0, c->ret);
}

/* ---- counters ----------------------------------------------------------- */

#define COUNTER_ROW(fn, field)						\
static void call_##fn(struct ct_cell *c)				\
{									\
	c->ret = fn(kb(c), c->cpu);					\
	c->ci->impl->stats(c->buf, c->cpu, &c->st_call);		\
}									\
									\
static const char *check_##fn(struct ct_cell *c)			\
{									\
	return ct_want_ret(c, c->st_call.field, c->ret);			\
}

COUNTER_ROW(ring_buffer_entries_cpu, entries)
COUNTER_ROW(ring_buffer_overrun_cpu, overrun)
COUNTER_ROW(ring_buffer_commit_overrun_cpu, commit_overrun)
COUNTER_ROW(ring_buffer_dropped_events_cpu, dropped)
COUNTER_ROW(ring_buffer_read_events_cpu, read)

/* ---- recording on and off, size, reset ---------------------------------- */

static void call_disable_enable(struct ct_cell *c)
{
	ring_buffer_record_disable(kb(c));
	ring_buffer_record_enable(kb(c));
	c->ret = ring_buffer_record_is_on(kb(c));
}

static void call_disable_enable_cpu(struct ct_cell *c)
{
	ring_buffer_record_disable_cpu(kb(c), c->cpu);
	ring_buffer_record_enable_cpu(kb(c), c->cpu);
	c->ret = ring_buffer_record_is_on(kb(c));
}

static const char *check_on(struct ct_cell *c)
{
	return c->ret ? NULL : "recording stayed off";
}

static void call_resize(struct ct_cell *c)
{
	c->ret = ring_buffer_resize(kb(c), 4 * CAP, RING_BUFFER_ALL_CPUS);
}

static void call_reset_cpu(struct ct_cell *c)
{
	ring_buffer_reset_cpu(kb(c), c->cpu);
	c->counts_reset = true;
	c->ret = 0;
}

static void call_reset(struct ct_cell *c)
{
	ring_buffer_reset(kb(c));
	c->counts_reset = true;
	c->ret = 0;
}

/* Waits for the writers in flight: never returns before they left */
static const char *check_waited(struct ct_cell *c)
{
	if (c->state == CT_ST_REMOTE_PUSH && !c->left_when_returned)
		return "returned while a writer of the CPU was in flight";
	return ct_want_ret(c, 0, c->ret);
}

/* An iterator open keeps its CPU's ring from being resized */
static const char *check_resize(struct ct_cell *c)
{
	if (c->state == CT_ST_ITER)
		return ct_want_ret(c, -EBUSY, c->ret);
	return check_waited(c);
}

static void call_alloc_free_page(struct ct_cell *c)
{
	void *page = c->ci->impl->alloc_read_page(c->buf, c->cpu);

	c->ret = page ? 0 : -ENOMEM;
	c->ci->impl->free_read_page(c->buf, c->cpu, page);
}

#define NO_HOOK	"ring_buffer.c has no hook point in its reset or resize to stop it at"

/*
 * rb_get_reader_page() looks for the head again for as long as the pointer
 * to it holds UPDATE, with interrupts off: over the writer it interrupted,
 * which cannot clear it before the reader returns, that is for ever
 */
#define SPINS_FOREVER	"the reader would spin for ever on the push of the writer it interrupted (docs/kernel-rb-differences.md)"
#define SAME_CPU_PUSH	(CT_S(W_PUSH) | CT_S(W_NEW_HEAD))

static const struct ct_op kernel_rows[] = {
	{ .name = "ring_buffer_write", .ctx = CT_ANY,
	  .call = call_write, .check = check_write },
	{ .name = "ring_buffer_lock_reserve+ring_buffer_unlock_commit", .ctx = CT_ANY,
	  .call = call_reserve_commit, .check = check_write },
	{ .name = "ring_buffer_peek", .hangs_in = SAME_CPU_PUSH, .why_hangs = SPINS_FOREVER,
	  .ctx = CT_ANY,
	  .call = call_peek, .check = check_read },
	{ .name = "ring_buffer_consume", .hangs_in = SAME_CPU_PUSH, .why_hangs = SPINS_FOREVER,
	  .ctx = CT_ANY,
	  .call = call_consume, .check = check_read },
	{ .name = "ring_buffer_read_page", .hangs_in = SAME_CPU_PUSH, .why_hangs = SPINS_FOREVER,
	  .ctx = CT_ANY_BUT_NMI,
	  .prepare = prepare_page, .call = call_read_page,
	  .check = check_read, .cleanup = cleanup_page },
	{ .name = "ring_buffer_empty_cpu", .ctx = CT_ANY,
	  .call = call_empty_cpu, .check = check_not_empty },
	{ .name = "ring_buffer_empty", .ctx = CT_ANY,
	  .call = call_empty, .check = check_not_empty },
	{ .name = "ring_buffer_iter_peek", .ctx = CT_ANY_BUT_NMI,
	  .not_in = CT_S_WRITER | CT_S(REMOTE_PUSH),
	  .why_not = ITER_UNDER_WRITER,
	  .prepare = prepare_iter, .call = call_iter_peek,
	  .check = check_iter_peek, .cleanup = cleanup_iter },
	{ .name = "ring_buffer_iter_advance", .ctx = CT_ANY_BUT_NMI,
	  .not_in = CT_S_WRITER | CT_S(REMOTE_PUSH),
	  .why_not = ITER_UNDER_WRITER,
	  .prepare = prepare_iter, .call = call_iter_advance,
	  .check = check_iter_advance, .cleanup = cleanup_iter },
	{ .name = "ring_buffer_read_start+ring_buffer_read_finish", .ctx = CT_PROCESS,
	  .call = call_read_start_finish, .check = check_zero },
	{ .name = "ring_buffer_entries_cpu", .ctx = CT_ANY,
	  .call = call_ring_buffer_entries_cpu, .check = check_ring_buffer_entries_cpu },
	{ .name = "ring_buffer_overrun_cpu", .ctx = CT_ANY,
	  .call = call_ring_buffer_overrun_cpu, .check = check_ring_buffer_overrun_cpu },
	{ .name = "ring_buffer_commit_overrun_cpu", .ctx = CT_ANY,
	  .call = call_ring_buffer_commit_overrun_cpu,
	  .check = check_ring_buffer_commit_overrun_cpu },
	{ .name = "ring_buffer_dropped_events_cpu", .ctx = CT_ANY,
	  .call = call_ring_buffer_dropped_events_cpu,
	  .check = check_ring_buffer_dropped_events_cpu },
	{ .name = "ring_buffer_read_events_cpu", .ctx = CT_ANY,
	  .call = call_ring_buffer_read_events_cpu,
	  .check = check_ring_buffer_read_events_cpu },
	{ .name = "ring_buffer_record_disable+ring_buffer_record_enable", .ctx = CT_ANY,
	  .call = call_disable_enable, .check = check_on },
	{ .name = "ring_buffer_record_disable_cpu+ring_buffer_record_enable_cpu",
	  .ctx = CT_ANY, .call = call_disable_enable_cpu, .check = check_on },
	{ .name = "ring_buffer_alloc_read_page+ring_buffer_free_read_page",
	  .ctx = CT_PROCESS, .call = call_alloc_free_page, .check = check_zero },
	{ .name = "ring_buffer_resize", .ctx = CT_PROCESS,
	  .call = call_resize, .check = check_resize },
	{ .name = "ring_buffer_reset_cpu", .ctx = CT_PROCESS,
	  .call = call_reset_cpu, .check = check_waited },
	{ .name = "ring_buffer_reset", .ctx = CT_PROCESS,
	  .call = call_reset, .check = check_waited },
};

const struct ct_impl ct_impl_kernel = {
	.name = "kernel",
	.impl = &lrb_kunit_impl_kernel,
	.ops = kernel_rows,
	.nr_ops = ARRAY_SIZE(kernel_rows),
	.states = CT_S_ALL & ~(CT_S_REBUILD | CT_S(BROKEN)),
	/* Its readers wait for the writer: no need to stop it long */
	.remote_hold_ns = 50 * NSEC_PER_MSEC,
	.why_not = {
		[CT_ST_RESET] = NO_HOOK,
		[CT_ST_RESIZE] = NO_HOOK,
		[CT_ST_BROKEN] = "nothing breaks its ring on purpose (its inspector only reads)",
	},
};
