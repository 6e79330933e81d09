// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the lockless ring buffer KUnit suites: diagnostic
 * lines, payloads, the injectable clock, debugfs knobs, test buffers and
 * their end-of-case checks, KCSAN's ignore list, pinning and handshakes.
 * The renderer is lrb_kunit_render.c, the expected states lrb_kunit_expect.c.
 */

#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mman.h>
#include <linux/mount.h>
#include <linux/uaccess.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/stdarg.h>
#include <linux/string.h>

#include "lrb_kunit.h"

/**
 * lrb_kunit_line - print one diagnostic line into the test's log
 * @test: the test
 * @fmt: printf format
 *
 * The line shows in the KTAP output as "# ..." under the running case.
 */
void lrb_kunit_line(struct kunit *test, const char *fmt, ...)
{
	char line[512];
	va_list args;

	va_start(args, fmt);
	vscnprintf(line, sizeof(line), fmt, args);
	va_end(args);
	kunit_log(KERN_INFO, test, KUNIT_SUBTEST_INDENT "# %s", line);
}

/* ---- payloads ----------------------------------------------------------- */

static u8 lrb_kunit_byte(u32 seq, unsigned int i)
{
	return (seq * 131 + i * 7 + 1) & 0xff;
}

/**
 * lrb_kunit_fill - fill a payload that lrb_kunit_payload_ok() can check
 * @dst: the payload
 * @len: its length
 * @seq: sequence number; payloads of 4 bytes or more start with it
 */
void lrb_kunit_fill(void *dst, unsigned int len, u32 seq)
{
	u8 *p = dst;
	unsigned int i = 0;

	if (len >= sizeof(seq)) {
		memcpy(p, &seq, sizeof(seq));
		i = sizeof(seq);
	}
	for (; i < len; i++)
		p[i] = lrb_kunit_byte(seq, i);
}

/**
 * lrb_kunit_payload_ok - check a payload written by lrb_kunit_fill()
 * @src: the payload
 * @len: its length
 * @seq: the sequence number it was written with
 *
 * Return: true if every byte is the one written.
 */
bool lrb_kunit_payload_ok(const void *src, unsigned int len, u32 seq)
{
	const u8 *p = src;
	unsigned int i = 0;

	if (len >= sizeof(seq)) {
		if (memcmp(p, &seq, sizeof(seq)))
			return false;
		i = sizeof(seq);
	}
	for (; i < len; i++)
		if (p[i] != lrb_kunit_byte(seq, i))
			return false;
	return true;
}

/**
 * lrb_kunit_payload_seq - sequence number of a payload of 4 bytes or more
 * @src: the payload
 *
 * Return: the sequence number it was written with.
 */
u32 lrb_kunit_payload_seq(const void *src)
{
	u32 seq;

	memcpy(&seq, src, sizeof(seq));
	return seq;
}

/* ---- clock -------------------------------------------------------------- */

static u64 lrb_kunit_now;
static atomic64_t lrb_kunit_ticks;

/**
 * lrb_kunit_clock - a clock that returns what the test set
 *
 * Return: the value given to lrb_kunit_clock_set().
 */
u64 lrb_kunit_clock(void)
{
	return READ_ONCE(lrb_kunit_now);
}

/**
 * lrb_kunit_clock_tick - a clock that advances by 1000 at every call
 *
 * Deterministic for a deterministic sequence of calls, whatever the real
 * time: replaying the same writes gives the same time stamps.
 *
 * Return: the previous value plus 1000.
 */
u64 lrb_kunit_clock_tick(void)
{
	return atomic64_add_return(1000, &lrb_kunit_ticks);
}

/**
 * lrb_kunit_clock_set - set what lrb_kunit_clock() returns
 * @value: the time
 */
void lrb_kunit_clock_set(u64 value)
{
	WRITE_ONCE(lrb_kunit_now, value);
	atomic64_set(&lrb_kunit_ticks, value);
}

/* ---- debugfs, for the kernel's fault injection and kmemleak knobs ------ */

/*
 * Open a debugfs file without userspace having mounted debugfs: KUnit runs
 * at boot, before any mount.
 */
static struct file *lrb_kunit_debugfs_open(const char *path, int flags,
					   struct vfsmount **mnt)
{
	struct file_system_type *fs = get_fs_type("debugfs");
	struct file *f;

	if (!fs)
		return ERR_PTR(-ENODEV);
	*mnt = kern_mount(fs);
	module_put(fs->owner);
	if (IS_ERR(*mnt))
		return ERR_CAST(*mnt);
	f = file_open_root_mnt(*mnt, path, flags, 0);
	if (IS_ERR(f))
		kern_unmount(*mnt);
	return f;
}

/*
 * debugfs knobs take user buffers (they have no write_iter for
 * kernel_write()), so the test gets a user mapping of its own.
 */
static char __user *lrb_kunit_user_page(struct kunit *test)
{
	unsigned long addr;

	addr = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
	return IS_ERR_VALUE(addr) || !addr ? NULL : (char __user *)addr;
}

/**
 * lrb_kunit_debugfs_write - write a string to a debugfs file
 * @test: the test (a user mapping is made for it)
 * @path: path under the debugfs root, e.g. "failslab/verbose"
 * @val: what to write, shorter than a page
 *
 * Return: 0 or a negative error.
 */
int lrb_kunit_debugfs_write(struct kunit *test, const char *path,
			    const char *val)
{
	char __user *ubuf = lrb_kunit_user_page(test);
	size_t len = strlen(val);
	struct vfsmount *mnt;
	struct file *f;
	loff_t pos = 0;
	ssize_t n;

	if (!ubuf || len >= PAGE_SIZE || copy_to_user(ubuf, val, len))
		return -EFAULT;
	f = lrb_kunit_debugfs_open(path, O_WRONLY, &mnt);
	if (IS_ERR(f))
		return PTR_ERR(f);
	n = vfs_write(f, ubuf, len, &pos);
	fput(f);
	kern_unmount(mnt);
	return n < 0 ? n : 0;
}

/**
 * lrb_kunit_debugfs_read - read a debugfs file
 * @test: the test (a user mapping is made for it)
 * @path: path under the debugfs root
 * @buf: receives the contents, NUL-terminated
 * @len: size of @buf
 *
 * Return: bytes read, or a negative error.
 */
ssize_t lrb_kunit_debugfs_read(struct kunit *test, const char *path,
			       char *buf, size_t len)
{
	char __user *ubuf = lrb_kunit_user_page(test);
	struct vfsmount *mnt;
	struct file *f;
	loff_t pos = 0;
	ssize_t n, total = 0;

	if (!ubuf || !len)
		return -EFAULT;
	f = lrb_kunit_debugfs_open(path, O_RDONLY, &mnt);
	if (IS_ERR(f))
		return PTR_ERR(f);
	while (total < len - 1) {
		n = vfs_read(f, ubuf, min_t(size_t, PAGE_SIZE, len - 1 - total),
			     &pos);
		if (n <= 0)
			break;
		if (copy_from_user(buf + total, ubuf, n)) {
			total = -EFAULT;
			break;
		}
		total += n;
	}
	if (total >= 0)
		buf[total] = '\0';
	fput(f);
	kern_unmount(mnt);
	return total;
}

/* ---- test buffers ------------------------------------------------------- */

/* lrb's own (built with lrb only) */
#if IS_ENABLED(CONFIG_LOCKLESS_RING_BUFFER_KUNIT_TEST)

static void lrb_tb_free(void *data)
{
	lrb_free(data);
}

/**
 * lrb_tb_alloc - allocate a buffer for a test, freed when the test ends
 * @test: the test
 * @size: bytes per CPU, as for lrb_alloc()
 * @flags: as for lrb_alloc()
 *
 * Asserts that the allocation succeeds.
 *
 * Return: the test buffer.
 */
struct lrb_tb *lrb_tb_alloc(struct kunit *test, unsigned long size,
			    unsigned long flags)
{
	struct lrb_tb *tb;
	struct lrb_buffer *b;

	tb = kunit_kzalloc(test, sizeof(*tb), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tb);
	tb->ok = kunit_kcalloc(test, nr_cpu_ids, sizeof(*tb->ok), GFP_KERNEL);
	tb->failed = kunit_kcalloc(test, nr_cpu_ids, sizeof(*tb->failed),
				   GFP_KERNEL);
	tb->next_seq = kunit_kcalloc(test, nr_cpu_ids, sizeof(*tb->next_seq),
				     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tb->ok);
	KUNIT_ASSERT_NOT_NULL(test, tb->failed);
	KUNIT_ASSERT_NOT_NULL(test, tb->next_seq);

	b = lrb_alloc(size, flags);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrb_tb_free, b));
	tb->b = b;
	tb->counted = true;
	return tb;
}

/**
 * lrb_tb_write_seq - write a checkable payload on the current CPU
 * @tb: the test buffer
 * @len: payload length
 * @seq: sequence number to write
 *
 * Counts the outcome for the end-of-case check. Any context.
 *
 * Return: what lrb_write() returns.
 */
int lrb_tb_write_seq(struct lrb_tb *tb, unsigned int len, u32 seq)
{
	struct lrb_event *ev;
	int cpu;

	preempt_disable();
	cpu = smp_processor_id();
	ev = lrb_lock_reserve(tb->b, len);
	if (!ev) {
		tb->failed[cpu]++;
		preempt_enable();
		return -ENOSPC;
	}
	lrb_kunit_fill(lrb_event_data(ev), len, seq);
	lrb_unlock_commit(tb->b, ev);
	tb->ok[cpu]++;
	preempt_enable();
	return 0;
}

/**
 * lrb_tb_write - write the next checkable payload of the current CPU
 * @tb: the test buffer
 * @len: payload length
 *
 * Return: what lrb_write() returns. The sequence number advances only on
 * success, so that the events read back have consecutive numbers unless
 * some were overwritten.
 */
int lrb_tb_write(struct lrb_tb *tb, unsigned int len)
{
	int cpu, ret;

	preempt_disable();
	cpu = smp_processor_id();
	ret = lrb_tb_write_seq(tb, len, tb->next_seq[cpu]);
	if (!ret)
		tb->next_seq[cpu]++;
	preempt_enable();
	return ret;
}

/**
 * lrb_tb_check_end - the checks every case ends with
 * @test: the test
 * @tb: the test buffer
 *
 * For every possible CPU: the ring is sane (see lrb_kunit_ring_sane()),
 * committed == read + overrun + entries, draining reads exactly entries
 * events, after which the CPU is empty; and, when the test counted its
 * writes, committed equals the writes that succeeded and the failed
 * reserves equal dropped + commit overrun + rejected. A ring the case
 * broke on purpose (@tb->may_break) is left out.
 */
void lrb_tb_check_end(struct kunit *test, struct lrb_tb *tb)
{
	struct lrb_stats st;
	unsigned long drained;
	int cpu;

	for_each_possible_cpu(cpu) {
		KUNIT_EXPECT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
		/* Broken on purpose: kept as it broke, for the case to check */
		if (st.broken && tb->may_break)
			continue;
		lrb_kunit_ring_sane(test, tb->b, cpu);
		KUNIT_EXPECT_EQ_MSG(test, st.committed,
				    st.read + st.overrun + st.entries,
				    "CPU %d: committed != read + overrun + entries",
				    cpu);
		if (tb->counted) {
			KUNIT_EXPECT_EQ_MSG(test, st.committed, tb->ok[cpu],
					    "CPU %d: committed events", cpu);
			KUNIT_EXPECT_EQ_MSG(test,
					    st.dropped + st.commit_overrun +
					    st.rejected + st.recursion,
					    tb->failed[cpu],
					    "CPU %d: failed reserves", cpu);
		}
		for (drained = 0; drained <= st.entries; drained++)
			if (!lrb_consume(tb->b, cpu, NULL, NULL))
				break;
		KUNIT_EXPECT_EQ_MSG(test, drained, st.entries,
				    "CPU %d: events left to read", cpu);
		KUNIT_EXPECT_TRUE_MSG(test, lrb_empty_cpu(tb->b, cpu),
				      "CPU %d: not empty after draining", cpu);
		KUNIT_EXPECT_EQ(test, 0UL, lrb_entries_cpu(tb->b, cpu));
	}
}

struct lrb_tb_end {
	struct kunit	*test;
	struct lrb_tb	*tb;
};

static void lrb_tb_end(void *data)
{
	struct lrb_tb_end *end = data;

	lrb_tb_check_end(end->test, end->tb);
}

/**
 * lrb_tb_check_at_end - run lrb_tb_check_end() when the test ends
 * @test: the test
 * @tb: the test buffer
 *
 * The checks run in the test's cleanup, whatever made the test end, before
 * the buffer is freed.
 */
void lrb_tb_check_at_end(struct kunit *test, struct lrb_tb *tb)
{
	struct lrb_tb_end *end;

	end = kunit_kzalloc(test, sizeof(*end), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, end);
	end->test = test;
	end->tb = tb;
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, lrb_tb_end, end));
}
#endif /* CONFIG_LOCKLESS_RING_BUFFER_KUNIT_TEST */

/*
 * Races in the kernel's own code that the suites' hrtimers and the
 * differential run trigger, intended by their authors and not lrb's:
 *  - trace_recursive_lock() and trace_recursive_unlock() (kernel/trace/
 *    ring_buffer.c, inlined in these two) update the per-CPU
 *    current_context with plain accesses, racing with interrupts on the
 *    same CPU: every context sets its bit and clears it before it returns,
 *    so the interrupted one finds the value it left;
 *  - hrtimer_active() reads base->running locklessly, inside a seqcount
 *    retry loop, while __hrtimer_run_queues() sets it;
 *  - rb_get_reader_page() reads commit_page with a plain load while the
 *    writer's rb_move_tail() moves the pages: the kernel's own race, the one
 *    docs/kernel-rb-differences.md describes (events lost silently), which
 *    the differential run measures instead;
 *  - the iterator (ring_buffer_iter_empty(), rb_iter_head_event(), inlined
 *    in ring_buffer_iter_peek() by some compilers) reads a page's time
 *    stamp with plain loads while __rb_reserve_next() stores it for the
 *    page's first event: it reads while writers write by design, and takes
 *    a changed stamp as the page overwritten (ring_buffer_iter_dropped()).
 *  - rb_set_head_page() (the iterator's emptiness check calls it) reads
 *    the flagged next pointers of the ring with plain loads while a
 *    writer's rb_head_page_set() moves the HEADER flag with cmpxchg: the
 *    head search is lockless by design and goes round the ring again (up to
 *    three times) when the flag moved under it.
 *  - ktime_get_mono_fast_ns() (lrb's reader measures its patience with it,
 *    the suites their deadlines) reads the timekeeper's latch copies with
 *    plain loads while the tick updates the other copy: the latch retries
 *    when its count moved, but 6.12 reads it with raw_read_seqcount_latch(),
 *    which does not tell KCSAN (mainline's read_seqcount_latch() does, since
 *    93190bc35d6d "seqlock, treewide: Switch to non-raw seqcount_latch
 *    interface").
 *  - kthread_is_per_cpu() (the load balancer's can_migrate_task() calls it
 *    on another CPU's task) reads p->flags with a plain load while that
 *    task, a kthread of the suites ending, sets PF_EXITING in do_exit():
 *    the scheduler's own race, on a bit (PF_KTHREAD) that never changes.
 * KCSAN leaves these functions out of its reports for the rest of the boot;
 * every other report, and every one in lrb, still fails the run.
 */
static const char *const lrb_kcsan_ignored[] = {
	"!ring_buffer_lock_reserve",
	"!ring_buffer_unlock_commit",
	"!hrtimer_active",
	"!rb_get_reader_page",
	"!rb_move_tail",
	"!ring_buffer_iter_empty",
	"!rb_iter_head_event",
	"!ring_buffer_iter_peek",
	"!rb_set_head_page",
	"!ktime_get_mono_fast_ns",
	"!kthread_is_per_cpu",
};

/**
 * lrb_kunit_kcsan_ignore_kernel - keep intended kernel races out of KCSAN
 * @test: the test (the debugfs write needs its user mapping)
 *
 * Does nothing without CONFIG_KCSAN, and only once per boot.
 *
 * Return: 0 or the debugfs write's error.
 */
int lrb_kunit_kcsan_ignore_kernel(struct kunit *test)
{
	static bool done;
	unsigned int i;
	int ret;

	if (!IS_ENABLED(CONFIG_KCSAN) || done)
		return 0;
	for (i = 0; i < ARRAY_SIZE(lrb_kcsan_ignored); i++) {
		ret = lrb_kunit_debugfs_write(test, "kcsan", lrb_kcsan_ignored[i]);
		/* A static function the compiler inlined has no symbol: nothing to hide */
		if (ret == -ENOENT)
			continue;
		if (ret) {
			kunit_err(test, "writing %s to debugfs kcsan: %d\n",
				  lrb_kcsan_ignored[i], ret);
			return ret;
		}
	}
	done = true;
	return 0;
}

/**
 * lrb_kunit_wait_for_stop - park a test kthread until kthread_stop()
 *
 * A kthread that returned on its own could be gone before the test's
 * kthread_stop(); the suites' threads wait here once their work is done.
 */
void lrb_kunit_wait_for_stop(void)
{
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
}

/**
 * lrb_kunit_pin_current - keep the test thread on the CPU it runs on
 * @test: the test
 *
 * KUnit runs a test's cleanup in another thread, so migrate_disable() in
 * the test and migrate_enable() in its cleanup would not pair; an affinity
 * of one CPU lasts until the test thread ends, whatever ends it.
 *
 * Return: the CPU.
 */
int lrb_kunit_pin_current(struct kunit *test)
{
	int cpu = raw_smp_processor_id();

	KUNIT_ASSERT_EQ(test, 0, set_cpus_allowed_ptr(current, cpumask_of(cpu)));
	KUNIT_ASSERT_EQ(test, cpu, raw_smp_processor_id());
	return cpu;
}

/**
 * lrb_kunit_wait_stage - spin until a handshake reaches a stage
 * @stage: the handshake, set by the other side with atomic_set_release()
 * @want: the stage to wait for
 * @timeout_ns: how long at most
 *
 * For a side that may not sleep (a hook point, a writer with preemption
 * off): a peer that never comes fails the case instead of hanging it.
 *
 * Return: true if @stage reached @want, false on the timeout.
 */
bool lrb_kunit_wait_stage(atomic_t *stage, int want, u64 timeout_ns)
{
	/* Not local_clock(): with interrupts off it can stop at the next tick */
	u64 deadline = ktime_get_mono_fast_ns() + timeout_ns;

	while (atomic_read_acquire(stage) < want) {
		if (ktime_get_mono_fast_ns() > deadline)
			return false;
		cpu_relax();
	}
	return true;
}
