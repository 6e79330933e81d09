/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The script engine of the suites that replay the algorithm step by step
 * (lrb_design, lrb_smp), on any row of the implementation table: test code,
 * not lrb's API.
 *
 * A script drives one CPU buffer, that of script->cpu. Its steps each name
 * who takes them (the reader, or the writer at a nesting depth, 0 being the
 * outermost), a hook point, and which time that one reaches it, counted
 * from the step added last. There the hook takes a snapshot of the ring,
 * makes the step's nested writes in the next context level (as an
 * interrupt would), sets the stage to the step's signal, waits for the
 * stage to reach the step's wait, and calls the step's pause. The reader is
 * the thread on script->cpu, or the one on script->rcpu; a writer thread on
 * script->cpu runs a list of writes. The test thread takes snapshots of its
 * own between operations.
 *
 * After the operations lrb_script_report() draws every step in the design
 * document's notation and checks it against its expected state, on the
 * kernel's buffer against the state it differs by where it does;
 * lrb_script_read() reads the events back and checks them; the end of the
 * case checks the ring's invariants and counters
 * (lrb_kunit_impl_check_end()). Every wait is bounded; a step that never
 * happens fails the case.
 */
#ifndef _LRB_KUNIT_SCRIPT_H
#define _LRB_KUNIT_SCRIPT_H

#include <linux/completion.h>

#include "lrb_kunit.h"
#include "lrb_kunit_impl.h"

#define LRB_SCRIPT_MAX_STEPS	24
#define LRB_SCRIPT_MAX_NEST	4
#define LRB_SCRIPT_MAX_DEPTH	4
#define LRB_SCRIPT_MAX_WRITES	4
#define LRB_SCRIPT_WAIT_NS	(10ULL * NSEC_PER_SEC)

/* Who takes a step besides the writers (depth 0, 1, ...) */
#define LRB_SCRIPT_READER	(-1)
#define LRB_SCRIPT_THREAD	(-2)

struct lrb_script;

/* A write: payload length and sequence number */
struct lrb_script_write {
	unsigned int	len;
	u32		seq;
};

/**
 * struct lrb_script_step - what happens at one hook point, and what the
 *	ring looks like there
 * @who: LRB_SCRIPT_READER, the writer's nesting depth, or
 *	LRB_SCRIPT_THREAD for a snapshot the test thread takes itself;
 *	steps at the reader's hook points are the reader's
 * @point: the hook point (LRB_HOOK_NR for the test thread's)
 * @nth: the how-many-th time @who reaches @point since the step before
 * @cite: where the design document draws or says it, or NULL
 * @title: what happens
 * @ring: the expected ring in the document's notation, or NULL
 * @props: the expected properties (lrb_kunit_expect()), or NULL
 * @kring: on the kernel's buffer, the ring where it differs (NULL: @ring)
 * @kprops: on the kernel's buffer, the properties where it differs
 * @kwhy: how the kernel's buffer differs here; NULL: it does not
 * @nest: the nested writes, up to the first of length 0
 * @snap_after_nest: take the snapshot after the nested writes, not before
 * @signal: the stage to set (0: none)
 * @wait: the stage to wait for (0: none)
 * @pause: called last, in the hook's context
 */
struct lrb_script_step {
	int			who;
	enum lrb_hook_point	point;
	int			nth;
	const char		*cite;
	const char		*title;
	const char		*ring;
	const char		*props;
	const char		*kring;
	const char		*kprops;
	const char		*kwhy;
	struct lrb_script_write	nest[LRB_SCRIPT_MAX_NEST];
	bool			snap_after_nest;
	int			signal;
	int			wait;
	void			(*pause)(struct lrb_script *s);
};

/**
 * struct lrb_script - a script and what happened when it ran
 * @test: the case
 * @impl: the implementation under test
 * @buf: the buffer, freed at the end of the case
 * @hook: the engine's hook, set by lrb_script_arm()
 * @cpu: the CPU whose buffer is driven; writers write there only
 * @rcpu: the reader's CPU when it is not @cpu, else -1
 * @first: the page the report draws in the first box (LRB_SNAP_NONE: the
 *	head's)
 * @ok: writes on @cpu that succeeded, as the end-of-case check counts them
 * @failed: writes on @cpu that were refused
 * @silent: events the implementation lost without a report and still
 *	counts in its entries, as the case asserted
 * @steps: the steps, in the order they were added
 * @nr_steps: how many there are
 * @snaps: a snapshot per step, and the end-of-case check's after them
 * @fired: per step, whether it happened
 * @nest_ret: per step, what each nested write returned
 * @depth: nesting depth of the writer on @cpu in the hook
 * @count: per writer depth, then for the reader, hook calls per point
 *	since the last step was added
 * @stray: hook calls of writers nested deeper than the engine counts
 * @foreign: hook calls from CPUs that are neither @cpu nor @rcpu
 * @stage: the handshake: set by signals, awaited by waits
 * @timed_out: a wait gave up
 * @writes: the writer thread's writes
 * @nr_writes: how many
 * @write_ret: what each of them returned
 * @writer_wait: the stage the writer thread waits for first (0: none)
 * @writer_signal: the stage it sets once done (0: none)
 * @writer_done: completed by the writer thread once done
 * @writer: the writer thread, stopped at the end of the case
 * @data: the suite's own
 */
struct lrb_script {
	struct kunit		*test;
	const struct lrb_kunit_impl *impl;
	void			*buf;
	struct lrb_kunit_hook	hook;
	int			cpu;
	int			rcpu;
	unsigned int		first;
	unsigned long		ok;
	unsigned long		failed;
	unsigned long		silent;
	struct lrb_script_step	steps[LRB_SCRIPT_MAX_STEPS];
	unsigned int		nr_steps;
	struct lrb_snapshot	*snaps;
	bool			fired[LRB_SCRIPT_MAX_STEPS];
	int			nest_ret[LRB_SCRIPT_MAX_STEPS][LRB_SCRIPT_MAX_NEST];
	int			depth;
	unsigned int		count[LRB_SCRIPT_MAX_DEPTH + 1][LRB_HOOK_NR];
	unsigned int		stray;
	atomic_t		foreign;
	atomic_t		stage;
	bool			timed_out;
	struct lrb_script_write	writes[LRB_SCRIPT_MAX_WRITES];
	unsigned int		nr_writes;
	int			write_ret[LRB_SCRIPT_MAX_WRITES];
	int			writer_wait;
	int			writer_signal;
	struct completion	writer_done;
	struct task_struct	*writer;
	void			*data;
};

struct lrb_script *lrb_script_start(struct kunit *test, unsigned long size,
				    unsigned long flags, int cpu, int rcpu);
int lrb_script_arm(struct lrb_script *s);
bool lrb_script_kernel(const struct lrb_script *s);

struct lrb_script_step *lrb_script_step(struct lrb_script *s, int who,
					enum lrb_hook_point point, int nth,
					const char *cite, const char *title,
					const char *ring, const char *props);
void lrb_script_kernel_differs(struct lrb_script *s, const char *ring,
			       const char *props, const char *why);
void lrb_script_nest(struct lrb_script_step *st, unsigned int len, u32 seq);
struct lrb_script_step *lrb_script_snap(struct lrb_script *s, const char *cite,
					const char *title, const char *ring,
					const char *props);

void *lrb_script_reserve(struct lrb_script *s, unsigned int len, u32 seq);
void lrb_script_commit(struct lrb_script *s, void *ev);
int lrb_script_write(struct lrb_script *s, unsigned int len, u32 seq);
int lrb_script_setup_writes(struct lrb_script *s, unsigned int len, u32 first,
			    unsigned int n);
void *lrb_script_consume(struct lrb_script *s, u64 *ts, unsigned long *lost);

void lrb_script_signal(struct lrb_script *s, int stage);
bool lrb_script_wait(struct lrb_script *s, int stage);
void lrb_script_writer_add(struct lrb_script *s, unsigned int len, u32 seq);
void lrb_script_writer_go(struct lrb_script *s, int wait, int signal);
void lrb_script_writer_finish(struct lrb_script *s);

void lrb_script_report(struct lrb_script *s);
void lrb_script_expect_event(struct lrb_script *s, void *ev, unsigned int len,
			     u32 seq, unsigned long lost,
			     unsigned long want_lost);
void lrb_script_read(struct lrb_script *s, const u32 *seqs,
		     const unsigned int *lens, const unsigned long *losts,
		     unsigned int n);

#endif /* _LRB_KUNIT_SCRIPT_H */
