/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The implementation table of the suites that replay the design document
 * on more than one ring buffer: lrb (lib/lockless_ring_buffer.c) and the
 * kernel's tracing ring buffer (kernel/trace/ring_buffer.c). A row says how
 * to allocate a buffer, write, read, look at a ring and hook into the
 * algorithm's steps; a scenario written once against the table runs on
 * both, and states where the kernel's buffer legitimately differs
 * (docs/kernel-rb-differences.md).
 *
 * Hook points are named by lrb's enum lrb_hook_point. The kernel's points
 * of the same name are the same steps of the algorithm; those lrb has no
 * name for (the kernel's stamp steps and its reader's size check) are not
 * passed on.
 */
#ifndef _LRB_KUNIT_IMPL_H
#define _LRB_KUNIT_IMPL_H

#include <linux/lockless_ring_buffer.h>
#include <linux/lockless_ring_buffer_test.h>

/**
 * typedef lrb_kunit_hook_fn - a scenario's callback at the hook points
 * @buf: the buffer, as the implementation's alloc returned it
 * @cpu: the CPU whose ring is being changed or read
 * @point: the step, in lrb's names
 * @data: lrb_kunit_hook.data
 */
typedef void (*lrb_kunit_hook_fn)(void *buf, int cpu,
				  enum lrb_hook_point point, void *data);

/**
 * struct lrb_kunit_hook - a hook installed with lrb_kunit_impl.set_hook
 * @fn: called at every hook point
 * @data: passed to @fn
 * @buf: the buffer it is installed on
 *
 * The caller owns it; it must outlive the installation.
 */
struct lrb_kunit_hook {
	lrb_kunit_hook_fn	fn;
	void			*data;
	void			*buf;
};

/**
 * struct lrb_kunit_impl - one ring buffer implementation under test
 * @name: "lrb" or "kernel", as the log and docs/scenarios.md print it
 * @api: the prefix of its API, for messages ("lrb", "ring_buffer")
 * @alloc: a buffer of @size bytes per CPU, overwrite or producer/consumer;
 *	NULL on failure
 * @free: free it
 * @set_hook: install @hook (NULL: remove it); 0 or a negative error
 * @set_clock: make @clock the buffer's clock
 * @reserve: reserve @len payload bytes on this CPU; NULL if refused
 * @commit: commit the event @reserve returned last on this CPU
 * @event_data: payload of an event
 * @event_length: payload length the buffer reports for an event
 * @payload_length: what @event_length reports for a payload of @len bytes
 * @consume: consume the next event of @cpu; time stamp and events lost
 *	before it in *@ts and *@lost (either may be NULL)
 * @peek: the next event of @cpu, not consumed
 * @empty_cpu: whether @cpu has nothing to read
 * @stats: the counters of @cpu, in lrb's terms
 * @snapshot: the ring of @cpu, as lrb's inspector draws it; exact at a
 *	hook point of that CPU or on a quiescent ring
 * @read_start: start a non-consuming read of @cpu (may sleep)
 * @iter_peek: the iterator's current event, or NULL
 * @iter_advance: move past it
 * @iter_dropped: whether writers overwrote events under the iterator since
 *	the last advance; NULL where iterating stops the writers of that CPU
 *	(lrb), so that nothing can be dropped
 * @read_finish: end it
 * @alloc_read_page: a page for @read_page (may sleep)
 * @read_page: swap or copy a page of events of @cpu into *@page; returns
 *	the bytes of events, which start at (*@data)->data, or <= 0 if it got
 *	none
 * @free_read_page: free it
 * @reader_contended: whether a reader of @cpu waits for another one
 * @set_patience: how long readers wait for a writer's head push, in ns
 *	(NULL: the implementation sets no time on it)
 * @lone_reader: the reader page points at itself until the first swap (the
 *	kernel's rb_allocate_cpu_buffer()); lrb links it to the head at once
 */
struct lrb_kunit_impl {
	const char	*name;
	const char	*api;
	void	*(*alloc)(unsigned long size, bool overwrite);
	void	(*free)(void *buf);
	int	(*set_hook)(void *buf, struct lrb_kunit_hook *hook);
	void	(*set_clock)(void *buf, u64 (*clock)(void));
	void	*(*reserve)(void *buf, unsigned int len);
	void	(*commit)(void *buf, void *ev);
	void	*(*event_data)(void *ev);
	unsigned int (*event_length)(void *ev);
	unsigned int (*payload_length)(unsigned int len);
	void	*(*consume)(void *buf, int cpu, u64 *ts, unsigned long *lost);
	void	*(*peek)(void *buf, int cpu);
	bool	(*empty_cpu)(void *buf, int cpu);
	int	(*stats)(void *buf, int cpu, struct lrb_stats *st);
	int	(*snapshot)(void *buf, int cpu, struct lrb_snapshot *snap);
	void	*(*read_start)(void *buf, int cpu);
	void	*(*iter_peek)(void *iter);
	void	(*iter_advance)(void *iter);
	bool	(*iter_dropped)(void *iter);
	void	(*read_finish)(void *iter);
	void	*(*alloc_read_page)(void *buf, int cpu);
	int	(*read_page)(void *buf, void **page, int cpu,
			     struct lrb_data_page **data);
	void	(*free_read_page)(void *buf, int cpu, void *page);
	bool	(*reader_contended)(void *buf, int cpu);
	void	(*set_patience)(void *buf, u64 ns);
	bool	lone_reader;
};

extern const struct lrb_kunit_impl lrb_kunit_impl_lrb;
#ifdef CONFIG_RING_BUFFER
extern const struct lrb_kunit_impl lrb_kunit_impl_kernel;
#endif

struct kunit;
struct lrb_snapshot;
int lrb_kunit_impl_init_lrb(struct kunit *test);
#ifdef CONFIG_RING_BUFFER
int lrb_kunit_impl_init_kernel(struct kunit *test);
bool lrb_kunit_krb_fixed(void);
struct trace_buffer *lrb_kunit_krb_buffer(void *buf);
#else
static inline bool lrb_kunit_krb_fixed(void)
{
	return false;
}
#endif
void lrb_kunit_impl_check_end(struct kunit *test,
			      const struct lrb_kunit_impl *impl, void *buf,
			      struct lrb_snapshot *snap, int cpu,
			      unsigned long ok, unsigned long failed,
			      unsigned long silent);

unsigned long lrb_kunit_nest_enter(int depth);
void lrb_kunit_nest_exit(int depth, unsigned long flags);

/*
 * lrb_kunit_impl_suites - register a file's suite of each row: lrb's with
 * CONFIG_LOCKLESS_RING_BUFFER_KUNIT_TEST, the kernel's (built with
 * CONFIG_RING_BUFFER, see lib/lrb_kunit/Kconfig) alone on kernels without
 * lrb (32-bit). lrb's suite is then only named in a sizeof, so that it and
 * the cases only it runs are compiled but dropped, not reported unused.
 */
#if IS_ENABLED(CONFIG_LOCKLESS_RING_BUFFER_KUNIT_TEST)
#define lrb_kunit_impl_suites(lrb, kernel)	kunit_test_suites(lrb, kernel)
#else
#define lrb_kunit_impl_suites(lrb, kernel)	\
	kunit_test_suites(__builtin_choose_expr(sizeof(*(lrb)), kernel, NULL))
#endif

#endif /* _LRB_KUNIT_IMPL_H */
