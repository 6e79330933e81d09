// SPDX-License-Identifier: GPL-2.0
/*
 * lrb_ftrace: the buffers under the function tracer (CONFIG_DYNAMIC_FTRACE,
 * profile ftrace). Neither lrb's functions nor the kernel ring buffer's have
 * an ftrace call site, so a tracer callback that writes to a buffer never
 * runs inside the buffer's own code; and a real ftrace_ops callback that
 * fires between a writer's reserve and commit writes an event of its own,
 * nested like any interrupt's.
 */

#include <kunit/test.h>
#include <linux/compiler.h>
#include <linux/ftrace.h>
#include <linux/ring_buffer.h>

#include "lrb_kunit.h"

#define FTRACE_MAGIC	0x46545243U

struct ftrace_fn {
	const char	*name;
	unsigned long	addr;
};

#define FTRACE_FN(fn)	{ #fn, (unsigned long)fn }

/* The write path, the read paths and the control calls of each buffer */
static const struct ftrace_fn ftrace_buffer_fns[] = {
	FTRACE_FN(lrb_lock_reserve),
	FTRACE_FN(lrb_unlock_commit),
	FTRACE_FN(lrb_write),
	FTRACE_FN(lrb_read_finish),
	FTRACE_FN(lrb_peek),
	FTRACE_FN(lrb_consume),
	FTRACE_FN(lrb_read_page),
	FTRACE_FN(lrb_read_start),
	FTRACE_FN(lrb_iter_peek),
	FTRACE_FN(lrb_record_disable_cpu),
	FTRACE_FN(lrb_stats_cpu),
	FTRACE_FN(lrb_alloc),
	FTRACE_FN(lrb_resize),
#ifdef CONFIG_RING_BUFFER
	FTRACE_FN(ring_buffer_lock_reserve),
	FTRACE_FN(ring_buffer_unlock_commit),
	FTRACE_FN(ring_buffer_write),
	FTRACE_FN(ring_buffer_consume),
	FTRACE_FN(ring_buffer_read_page),
#endif
};

/**
 * struct ftrace_nest - a tracer callback writing inside a write
 * @ops: the ftrace_ops set on ftrace_probe_target()
 * @b: the buffer both write to
 * @target: ftrace_probe_target(), called through the pointer the filter
 *	names, so that no clone of it is called instead
 * @target_calls: calls of ftrace_probe_target()
 * @callbacks: runs of the tracer callback
 * @hooked: the outer write's reservation has called the target
 * @ret: what the callback's lrb_write() returned
 * @in_write: the callback ran while the outer reservation was open
 */
struct ftrace_nest {
	struct ftrace_ops	ops;
	struct lrb_buffer	*b;
	void			(*target)(struct ftrace_nest *n);
	unsigned int		target_calls;
	unsigned int		callbacks;
	bool			hooked;
	int			ret;
	bool			in_write;
};

/*
 * A function of the test's own, built with ftrace instrumentation (lib/'s
 * Makefile removes it for lib/ only, not for lib/lrb_kunit/): the control
 * that the check sees a call site where there is one, and the function the
 * tracer callback of the nesting case is set on.
 */
static noinline __noclone void ftrace_probe_target(struct ftrace_nest *n)
{
	WRITE_ONCE(n->target_calls, n->target_calls + 1);
}

/* Every function of the buffers has no ftrace call site */
static void buffer_functions_have_no_ftrace_site(struct kunit *test)
{
	unsigned int i, traced = 0;

	KUNIT_ASSERT_NE_MSG(test, ftrace_location((unsigned long)ftrace_probe_target), 0UL,
			    "the test's own function has no ftrace call site: the check would see none");
	for (i = 0; i < ARRAY_SIZE(ftrace_buffer_fns); i++) {
		const struct ftrace_fn *fn = &ftrace_buffer_fns[i];

		if (!ftrace_location(fn->addr))
			continue;
		traced++;
		KUNIT_FAIL(test,
			   "%s has an ftrace call site at %pS: a tracer callback writing to the buffer would trace its own write",
			   fn->name, (void *)ftrace_location(fn->addr));
	}
	lrb_kunit_line(test,
		       "%zu buffer functions without an ftrace call site (%u with one); %ps has one",
		       ARRAY_SIZE(ftrace_buffer_fns) - traced, traced, ftrace_probe_target);
}

static void ftrace_nest_callback(unsigned long ip, unsigned long parent_ip,
				 struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct ftrace_nest *n = container_of(op, struct ftrace_nest, ops);
	u32 payload[2] = { 1, FTRACE_MAGIC };

	n->callbacks++;
	n->in_write = n->hooked;
	n->ret = lrb_write(n->b, sizeof(payload), payload);
}

/* The outer writer, reservation held, calls a traced function once */
static void ftrace_nest_hook(struct lrb_buffer *b, int cpu,
			     enum lrb_hook_point point, void *data)
{
	struct ftrace_nest *n = data;

	if (point != LRB_HOOK_RESERVED || n->hooked)
		return;
	n->hooked = true;
	n->target(n);
	n->hooked = false;
}

/*
 * A function tracer's callback fires between a writer's reserve and commit
 * (the writer calls a traced function there) and writes an event: it nests
 * as an interrupt's write does, both events read back whole, the outer one
 * first, and no depth guard is needed for it.
 */
static void tracer_callback_writes_inside_a_write(struct kunit *test)
{
	u32 payload[2] = { 0, FTRACE_MAGIC };
	struct ftrace_nest *n;
	struct lrb_stats st;
	struct lrb_event *ev;
	struct lrb_tb *tb;
	unsigned int i;
	int cpu, ret;

	tb = lrb_tb_alloc(test, 2 * LRB_KUNIT_CAPACITY, 0);
	tb->counted = false;
	lrb_tb_check_at_end(test, tb);
	n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, n);
	n->ops.func = ftrace_nest_callback;
	n->b = tb->b;
	n->target = ftrace_probe_target;
	KUNIT_ASSERT_EQ(test, 0, ftrace_set_filter_ip(&n->ops, (unsigned long)ftrace_probe_target,
						      0, 0));
	ret = register_ftrace_function(&n->ops);
	if (ret) {
		ftrace_free_filter(&n->ops);
		KUNIT_FAIL(test, "register_ftrace_function: %d", ret);
		return;
	}
	cpu = lrb_kunit_pin_current(test);
	KUNIT_EXPECT_EQ(test, 0, lrb_set_test_hook(tb->b, ftrace_nest_hook, n));
	ret = lrb_write(tb->b, sizeof(payload), payload);
	lrb_set_test_hook(tb->b, NULL, NULL);
	unregister_ftrace_function(&n->ops);
	ftrace_free_filter(&n->ops);

	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, n->target_calls, 1U);
	KUNIT_ASSERT_EQ_MSG(test, n->callbacks, 1U,
			    "the tracer callback ran %u times for one call of the traced function",
			    n->callbacks);
	KUNIT_EXPECT_TRUE_MSG(test, n->in_write, "the callback ran outside the reservation");
	KUNIT_EXPECT_EQ_MSG(test, n->ret, 0, "the tracer callback's write");
	KUNIT_ASSERT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
	KUNIT_EXPECT_EQ(test, st.committed, 2UL);
	KUNIT_EXPECT_EQ(test, st.entries, 2UL);
	KUNIT_EXPECT_EQ(test, st.recursion, 0UL);
	/* In the order reserved: the outer event, then the callback's */
	for (i = 0; i < 2; i++) {
		ev = lrb_consume(tb->b, cpu, NULL, NULL);
		KUNIT_ASSERT_NOT_NULL_MSG(test, ev, "event %u of 2", i);
		KUNIT_EXPECT_EQ(test, lrb_event_length(ev), 8U);
		KUNIT_EXPECT_EQ(test, ((u32 *)lrb_event_data(ev))[0], i);
		KUNIT_EXPECT_EQ(test, ((u32 *)lrb_event_data(ev))[1], FTRACE_MAGIC);
	}
	KUNIT_EXPECT_NULL(test, lrb_consume(tb->b, cpu, NULL, NULL));
	lrb_kunit_line(test,
		       "the tracer callback on %ps wrote inside the write on CPU %d; both events read back, the outer one first",
		       ftrace_probe_target, cpu);
}

static struct kunit_case lrb_ftrace_cases[] = {
	KUNIT_CASE(buffer_functions_have_no_ftrace_site),
	KUNIT_CASE(tracer_callback_writes_inside_a_write),
	{}
};

static struct kunit_suite lrb_ftrace_suite = {
	.name = "lrb_ftrace",
	.init = lrb_kunit_kcsan_ignore_kernel,
	.test_cases = lrb_ftrace_cases,
};

kunit_test_suite(lrb_ftrace_suite);
