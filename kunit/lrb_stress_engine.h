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

struct lrb_kunit_impl;

/**
 * struct stress_ops - one ring buffer implementation in the stress engine
 * @impl: its row of the implementation table (lrb_kunit_impl.h); its
 *	iterator reads while writers write when it has @impl->iter_dropped
 *	(what it missed), else iterating stops the writers of that CPU
 * @prepare: what a fresh buffer needs before a run, or NULL; 0 or a
 *	negative error
 * @counters_at_one_moment: @impl->stats takes the counters at one moment,
 *	with writers running: committed == read + overrun + entries in every
 *	sample taken while the writers run (otherwise the samples that do not
 *	add up are only reported)
 * @silent_loss: the buffer may lose events without reporting them, as long
 *	as it still counts them in its entries (a known bug of the kernel's
 *	buffer): the run checks that every such gap is one of those
 * @iter_false_drops: the buffer's live iterator may say it lost track in
 *	producer/consumer mode, where nothing is lost (the kernel's, seen on
 *	arm): the run counts those reports, and still checks that the
 *	consumer starts where the iterator started and every event is read
 */
struct stress_ops {
	const struct lrb_kunit_impl *impl;
	int (*prepare)(void *buf);
	bool counters_at_one_moment;
	bool silent_loss;
	bool iter_false_drops;
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
