/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stress engine shared by lrb_stress (lrb) and lrb_kernel_rb (the
 * kernel's tracing ring buffer): pinned writer kthreads on every CPU but
 * the reader's, hrtimer writers nested on the same CPUs, a reader that
 * consumes, reads whole pages or iterates, per-stream sequence numbers and
 * exact loss attribution. A buffer is reached through &struct stress_ops.
 */
#ifndef _LRB_STRESS_ENGINE_H
#define _LRB_STRESS_ENGINE_H

#include <kunit/test.h>
#include <linux/lockless_ring_buffer.h>

/**
 * struct stress_ops - how the engine drives one ring buffer implementation
 * @alloc: a buffer of @size bytes per CPU; overwrite or producer/consumer
 *	mode; NULL or an error pointer on failure
 * @free: free it
 * @reserve: reserve @len payload bytes on this CPU (any context); NULL if
 *	the write failed
 * @commit: commit what @reserve returned
 * @event_data: payload of an event
 * @event_length: payload length of an event (a multiple of 4)
 * @consume: consume the next event of @cpu; *@lost receives the events
 *	lost before it
 * @peek: the next event of @cpu, not consumed
 * @read_start: start a non-consuming read of @cpu (may sleep); an error
 *	pointer or NULL on failure
 * @iter_peek: the iterator's current event, or NULL
 * @iter_advance: move past it
 * @iter_dropped: whether writers overwrote events under the iterator since
 *	the last advance (NULL: iterating stops the writers of that CPU)
 * @read_finish: end the non-consuming read
 * @alloc_read_page: a page handle for @read_page
 * @free_read_page: free it
 * @read_page: consume a page of events of @cpu; returns the bytes of events
 *	(> 0) and the page in *@data, or <= 0 if there was nothing
 * @stats: the counters of @cpu, in lrb's terms; 0 or a negative error
 * @live_iterator: the iterator reads while writers write (@iter_dropped
 *	tells what it missed) instead of stopping them
 * @counters_at_one_moment: @stats takes the counters at one moment, with
 *	writers running: committed == read + overrun + entries in every sample
 *	taken while the writers run (otherwise the samples that do not add up
 *	are only reported)
 * @silent_loss: the buffer may lose events without reporting them, as long
 *	as it still counts them in its entries (a known bug of the kernel's
 *	buffer): the run checks that every such gap is one of those
 */
struct stress_ops {
	void *(*alloc)(unsigned long size, bool overwrite);
	void (*free)(void *buf);
	void *(*reserve)(void *buf, unsigned int len);
	void (*commit)(void *buf, void *ev);
	void *(*event_data)(void *ev);
	unsigned int (*event_length)(void *ev);
	void *(*consume)(void *buf, int cpu, unsigned long *lost);
	void *(*peek)(void *buf, int cpu);
	void *(*read_start)(void *buf, int cpu);
	void *(*iter_peek)(void *iter);
	void (*iter_advance)(void *iter);
	bool (*iter_dropped)(void *iter);
	void (*read_finish)(void *iter);
	void *(*alloc_read_page)(void *buf, int cpu);
	void (*free_read_page)(void *buf, int cpu, void *page);
	int (*read_page)(void *buf, void **page, int cpu,
			 struct lrb_data_page **data);
	int (*stats)(void *buf, int cpu, struct lrb_stats *st);
	bool live_iterator;
	bool counters_at_one_moment;
	bool silent_loss;
};

enum stress_reader_mode { READ_CONSUME, READ_PAGES, READ_ITERATE };

/**
 * struct stress_param - one stress run
 * @overwrite: overwrite mode rather than producer/consumer
 * @mode: what the reader does
 * @name: the case's parameter description
 */
struct stress_param {
	bool			overwrite;
	enum stress_reader_mode	mode;
	const char		*name;
};

const void *stress_engine_params(const void *prev, char *desc);
void stress_engine_run(struct kunit *test, const struct stress_ops *ops);

#endif /* _LRB_STRESS_ENGINE_H */
