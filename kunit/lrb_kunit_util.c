// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the lockless ring buffer KUnit suites.
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
 * reserves equal dropped + commit overrun + rejected.
 */
void lrb_tb_check_end(struct kunit *test, struct lrb_tb *tb)
{
	struct lrb_stats st;
	unsigned long drained;
	int cpu;

	for_each_possible_cpu(cpu) {
		KUNIT_EXPECT_EQ(test, 0, lrb_stats_cpu(tb->b, cpu, &st));
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
	u64 deadline = local_clock() + timeout_ns;

	while (atomic_read_acquire(stage) < want) {
		if (local_clock() > deadline)
			return false;
		cpu_relax();
	}
	return true;
}

/* ---- the ring in the design document's notation ------------------------- */

#define LRB_KUNIT_CANVAS_WIDTH	400
#define LRB_KUNIT_CANVAS_MARGIN	12	/* column of the first ring box */
#define LRB_KUNIT_CANVAS_STRIDE	10	/* box (6) + arrow (4) */

struct lrb_kunit_canvas {
	char	line[7][LRB_KUNIT_CANVAS_WIDTH];
};

static void lrb_kunit_canvas_init(struct lrb_kunit_canvas *c)
{
	memset(c->line, ' ', sizeof(c->line));
}

static void lrb_kunit_canvas_put(struct lrb_kunit_canvas *c, int row, int col,
				 const char *s)
{
	int n = strlen(s);

	if (col < 0 || col + n >= LRB_KUNIT_CANVAS_WIDTH - 1)
		return;
	memcpy(&c->line[row][col], s, n);
}

static void lrb_kunit_canvas_print(struct kunit *test,
				   struct lrb_kunit_canvas *c, int rows)
{
	int r, end;

	for (r = 0; r < rows; r++) {
		for (end = LRB_KUNIT_CANVAS_WIDTH - 2;
		     end > 0 && c->line[r][end] == ' '; end--)
			;
		c->line[r][end + 1] = '\0';
		lrb_kunit_line(test, "%s", c->line[r]);
	}
}

static const char *lrb_kunit_arrow(unsigned int flags)
{
	switch (flags) {
	case LRB_SNAP_HEADER:
		return "-H->";
	case LRB_SNAP_UPDATE:
		return "-U->";
	default:
		return "--->";
	}
}

/* "tail,commit" style label of the markers on a page */
static void lrb_kunit_markers(const struct lrb_snapshot *snap, unsigned int id,
			      char *buf, size_t len)
{
	static const char * const names[] = { "head", "tail", "commit" };
	unsigned int ids[] = { snap->head, snap->tail, snap->commit };
	unsigned int i;
	size_t n = 0;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		if (ids[i] != id)
			continue;
		n += scnprintf(buf + n, len - n, "%s%s", n ? "," : "",
			       names[i]);
	}
}

static int lrb_kunit_ring_pos(const struct lrb_snapshot *snap, unsigned int id)
{
	unsigned int i;

	for (i = 0; i < snap->ring_len; i++)
		if (snap->ring[i] == id)
			return i;
	return -1;
}

/* The ring drawn from its box at position off of snap->ring */
struct lrb_kunit_drawing {
	const struct lrb_snapshot	*snap;
	unsigned int			off;
};

static unsigned int lrb_kunit_box_id(const struct lrb_kunit_drawing *d,
				     unsigned int box)
{
	return d->snap->ring[(d->off + box) % d->snap->ring_len];
}

/* The page outside the ring: the reader page, or the one a swap takes */
static void lrb_kunit_render_reader(struct kunit *test,
				    struct lrb_kunit_canvas *c,
				    const struct lrb_kunit_drawing *d)
{
	const struct lrb_snapshot *snap = d->snap;
	unsigned int out = snap->outside;
	const struct lrb_snap_page *rp;
	char label[32], box[16];
	int col, x, pos;

	if (out == LRB_SNAP_NONE)
		return;
	rp = &snap->page[out];
	pos = lrb_kunit_ring_pos(snap, rp->next);
	lrb_kunit_canvas_init(c);
	lrb_kunit_markers(snap, out, label, sizeof(label));
	lrb_kunit_canvas_put(c, 0, 0, out == snap->reader ? "reader page" :
			     "page being taken by the reader");
	lrb_kunit_canvas_put(c, 1, 0, "+----+");
	snprintf(box, sizeof(box), "| p%-2u|", rp->id);
	lrb_kunit_canvas_put(c, 2, 0, box);
	lrb_kunit_canvas_put(c, 3, 0, "+----+");
	if (label[0]) {
		lrb_kunit_canvas_put(c, 1, 8, "<- ");
		lrb_kunit_canvas_put(c, 1, 11, label);
	}
	if (pos < 0) {
		lrb_kunit_canvas_put(c, 2, 6, "---> (outside the ring)");
		lrb_kunit_canvas_print(test, c, 4);
		return;
	}
	pos = (pos + snap->ring_len - d->off) % snap->ring_len;
	x = LRB_KUNIT_CANVAS_MARGIN + pos * LRB_KUNIT_CANVAS_STRIDE + 3;
	for (col = 6; col < x; col++)
		c->line[2][col] = '-';
	if (rp->next_flags == LRB_SNAP_HEADER)
		c->line[2][7] = 'H';
	else if (rp->next_flags == LRB_SNAP_UPDATE)
		c->line[2][7] = 'U';
	c->line[2][x] = '+';
	c->line[3][x] = '|';
	c->line[4][x] = 'v';
	lrb_kunit_canvas_print(test, c, 5);
}

static void lrb_kunit_render_ring(struct kunit *test, struct lrb_kunit_canvas *c,
				  const struct lrb_kunit_drawing *d)
{
	const struct lrb_snapshot *snap = d->snap;
	unsigned int i, n = snap->ring_len;
	char box[16], label[32];
	int x, rows = 4, end = 0;

	lrb_kunit_canvas_init(c);
	for (i = 0; i < n; i++) {
		const struct lrb_snap_page *p = &snap->page[lrb_kunit_box_id(d, i)];
		const struct lrb_snap_page *nx;

		x = LRB_KUNIT_CANVAS_MARGIN + i * LRB_KUNIT_CANVAS_STRIDE;
		lrb_kunit_canvas_put(c, 0, x, "+----+");
		snprintf(box, sizeof(box), "| p%-2u|", p->id);
		lrb_kunit_canvas_put(c, 1, x, box);
		lrb_kunit_canvas_put(c, 2, x, "|    |");
		lrb_kunit_canvas_put(c, 3, x, "+----+");
		/* next pointer of this page, prev pointer of the next one */
		lrb_kunit_canvas_put(c, 1, x + 6, lrb_kunit_arrow(p->next_flags));
		nx = &snap->page[lrb_kunit_box_id(d, i + 1)];
		lrb_kunit_canvas_put(c, 2, x + 6, nx->prev == p->id ? "<---" : "<-x-");

		lrb_kunit_markers(snap, p->id, label, sizeof(label));
		if (!label[0])
			continue;
		lrb_kunit_canvas_put(c, 4, x + 3, "^");
		if (x > end) {
			lrb_kunit_canvas_put(c, 5, x, label);
			end = x + strlen(label);
			rows = max(rows, 6);
		} else {
			/* It would run into the label on its left: one line lower */
			if (x + 3 > end)
				lrb_kunit_canvas_put(c, 5, x + 3, "|");
			lrb_kunit_canvas_put(c, 6, x, label);
			rows = 7;
		}
	}
	/* The wrap-around: the last page's next, the first page's prev */
	lrb_kunit_canvas_put(c, 1, LRB_KUNIT_CANVAS_MARGIN - 4, "<---");
	lrb_kunit_canvas_put(c, 2, LRB_KUNIT_CANVAS_MARGIN - 4, "--->");
	lrb_kunit_canvas_print(test, c, rows);
}

static void lrb_kunit_render_table(struct kunit *test,
				   const struct lrb_snapshot *snap)
{
	unsigned int i;

	lrb_kunit_line(test, "page next  prev   write commit entries  read  time_stamp");
	for (i = 0; i < snap->nr_pages; i++) {
		const struct lrb_snap_page *p = &snap->page[i];

		lrb_kunit_line(test, "p%-3u p%-2u%s  p%-3u %6lu %6lu %7lu %5u  %llu%s",
			       p->id, p->next,
			       p->next_flags == LRB_SNAP_HEADER ? "H" :
			       p->next_flags == LRB_SNAP_UPDATE ? "U" : " ",
			       p->prev, p->write, p->commit, p->entries,
			       p->read, p->time_stamp,
			       i == snap->reader ? "  (reader page)" : "");
	}
}

/**
 * lrb_kunit_render_from - print a ring snapshot in the design document's
 *	notation, its boxes starting at a given page
 * @test: the test whose log receives it
 * @snap: the snapshot
 * @title: a line printed first
 * @first: id of the page drawn as the first box (a scenario puts its pages
 *	in the boxes the document draws them in), or LRB_SNAP_NONE for the
 *	lowest-id page of the ring
 *
 * The reader page is drawn above the ring with its next pointer; the ring
 * follows next pointers, "-H->" and "-U->" being the flagged pointers and
 * "<-x-" a prev pointer that does not point back; "^" marks the head, tail
 * and commit pages. A table of every page's indexes follows.
 */
void lrb_kunit_render_from(struct kunit *test, const struct lrb_snapshot *snap,
			   const char *title, unsigned int first)
{
	struct lrb_kunit_drawing d = { .snap = snap };
	struct lrb_kunit_canvas *canvas;
	char head[16] = "none";
	int pos = first == LRB_SNAP_NONE ? -1 : lrb_kunit_ring_pos(snap, first);

	if (pos > 0)
		d.off = pos;
	if (snap->head != LRB_SNAP_NONE)
		snprintf(head, sizeof(head), "p%u", snap->head);
	lrb_kunit_line(test, "%s", title);
	lrb_kunit_line(test,
		       "CPU %d: head %s tail p%u commit p%u reader p%u, %ld writer(s) in flight%s%s",
		       snap->cpu, head, snap->tail, snap->commit, snap->reader,
		       snap->committing,
		       snap->ring_ok ? "" : ", prev pointers not all back",
		       snap->stats.broken ? ", broken: recording stopped" : "");
	/* The drawing is too big for the stack of a frame-size-checked build */
	canvas = kmalloc(sizeof(*canvas), GFP_KERNEL);
	if (canvas && snap->ring_len) {
		lrb_kunit_render_reader(test, canvas, &d);
		lrb_kunit_render_ring(test, canvas, &d);
	} else {
		lrb_kunit_line(test, "(no drawing: %s)",
			       canvas ? "no ring" : "no memory");
	}
	kfree(canvas);
	lrb_kunit_render_table(test, snap);
	lrb_kunit_line(test,
		       "committed %lu read %lu overrun %lu entries %lu commit_overrun %lu dropped %lu rejected %lu",
		       snap->stats.committed, snap->stats.read,
		       snap->stats.overrun, snap->stats.entries,
		       snap->stats.commit_overrun, snap->stats.dropped,
		       snap->stats.rejected);
}

/**
 * lrb_kunit_render - print a ring snapshot in the design document's notation
 * @test: the test whose log receives it
 * @snap: the snapshot
 * @title: a line printed first
 *
 * As lrb_kunit_render_from(), the ring drawn from its lowest-id page.
 */
void lrb_kunit_render(struct kunit *test, const struct lrb_snapshot *snap,
		      const char *title)
{
	lrb_kunit_render_from(test, snap, title, LRB_SNAP_NONE);
}

/**
 * lrb_kunit_dump - snapshot and print one CPU's ring
 * @test: the test
 * @b: the buffer
 * @cpu: the CPU
 * @title: a line printed first
 */
void lrb_kunit_dump(struct kunit *test, struct lrb_buffer *b, int cpu,
		    const char *title)
{
	struct lrb_snapshot *snap;

	snap = kmalloc(sizeof(*snap), GFP_KERNEL);
	if (!snap)
		return;
	if (!lrb_snapshot(b, cpu, snap))
		lrb_kunit_render(test, snap, title);
	else
		lrb_kunit_line(test, "%s: no snapshot of CPU %d", title, cpu);
	kfree(snap);
}

/**
 * lrb_kunit_snap_sane - check the invariants of a ring with no writer
 * @test: the test; failures are reported to it, with the ring drawn
 * @snap: a snapshot of the ring, taken while no writer was in flight
 * @lone_reader: the reader page may still point at itself, as the kernel's
 *	buffer allocates it, until its first swap
 *
 * The ring is a circle through every page but the reader page, with prev
 * pointers matching next pointers; exactly one pointer has HEADER and none
 * UPDATE; the reader page is recognised by the design document's rule (its
 * prev page's next does not point to it) and points into the ring; the
 * tail and commit pages are equal, in the ring or the reader page.
 *
 * Return: true if all hold.
 */
bool lrb_kunit_snap_sane(struct kunit *test, const struct lrb_snapshot *snap,
			 bool lone_reader)
{
	const struct lrb_snap_page *rp = &snap->page[snap->reader];
	bool alone = lone_reader && rp->next == snap->reader &&
		     rp->prev == snap->reader;
	bool ok;

	ok = snap->ring_ok && snap->nr_header == 1 && !snap->nr_update &&
	     snap->outside == snap->reader &&
	     snap->committing == 0 && snap->tail == snap->commit &&
	     lrb_kunit_ring_pos(snap, snap->reader) < 0 &&
	     (alone || (lrb_kunit_ring_pos(snap, rp->next) >= 0 &&
			snap->page[rp->prev].next != snap->reader)) &&
	     lrb_kunit_ring_pos(snap, snap->head) >= 0;
	if (!ok) {
		KUNIT_FAIL(test,
			   "CPU %d ring not sane: ring_ok %d HEADER %u UPDATE %u committing %ld tail p%u commit p%u",
			   snap->cpu, snap->ring_ok, snap->nr_header,
			   snap->nr_update, snap->committing, snap->tail,
			   snap->commit);
		lrb_kunit_render(test, snap, "ring at the failure:");
	}
	return ok;
}

/**
 * lrb_kunit_ring_sane - check the invariants of an lrb ring with no writer
 * @test: the test; failures are reported to it, with the ring drawn
 * @b: the buffer
 * @cpu: the CPU
 *
 * Return: what lrb_kunit_snap_sane() returns for a snapshot of it.
 */
bool lrb_kunit_ring_sane(struct kunit *test, struct lrb_buffer *b, int cpu)
{
	struct lrb_snapshot *snap;
	bool ok;

	snap = kmalloc(sizeof(*snap), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, snap);
	KUNIT_ASSERT_EQ(test, 0, lrb_snapshot(b, cpu, snap));
	ok = lrb_kunit_snap_sane(test, snap, false);
	kfree(snap);
	return ok;
}

/* ---- expected states, written in the design document's notation -------- */

static int lrb_tok_page(const char *t)
{
	unsigned int id;

	if (t[0] != 'p' || kstrtouint(t + 1, 10, &id) || id >= LRB_SNAP_MAX_PAGES)
		return -1;
	return id;
}

static int lrb_tok_arrow(const char *t)
{
	if (!strcmp(t, "-->") || !strcmp(t, "--->"))
		return LRB_SNAP_NORMAL;
	if (!strcmp(t, "-H->"))
		return LRB_SNAP_HEADER;
	if (!strcmp(t, "-U->"))
		return LRB_SNAP_UPDATE;
	return -1;
}

static int lrb_tok_flag(const char *t)
{
	if (!strcmp(t, "N"))
		return LRB_SNAP_NORMAL;
	if (!strcmp(t, "H"))
		return LRB_SNAP_HEADER;
	if (!strcmp(t, "U"))
		return LRB_SNAP_UPDATE;
	return -1;
}

struct lrb_expect_ctx {
	struct kunit			*test;
	const struct lrb_snapshot	*snap;
	bool				ok;
	bool				stale[LRB_SNAP_MAX_PAGES];
};

__printf(2, 3) static void lrb_mismatch(struct lrb_expect_ctx *c,
					const char *fmt, ...)
{
	char msg[160];
	va_list args;

	va_start(args, fmt);
	vscnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	KUNIT_FAIL(c->test, "CPU %d: %s", c->snap->cpu, msg);
	c->ok = false;
}

/* "p4 -U-> p1 -H-> p2 --> p3 -->": next pointers and flags, a cycle */
static void lrb_expect_ring_spec(struct lrb_expect_ctx *c, char *spec)
{
	int ids[LRB_SNAP_MAX_PAGES], flags[LRB_SNAP_MAX_PAGES], n = 0, i;
	char *tok;

	while ((tok = strsep(&spec, " ")) && n < LRB_SNAP_MAX_PAGES) {
		if (!*tok)
			continue;
		ids[n] = lrb_tok_page(tok);
		tok = strsep(&spec, " ");
		flags[n] = tok ? lrb_tok_arrow(tok) : -1;
		if (ids[n] < 0 || flags[n] < 0 ||
		    ids[n] >= c->snap->nr_pages) {
			lrb_mismatch(c, "bad ring spec near page %d", n);
			return;
		}
		n++;
	}
	for (i = 0; i < n; i++) {
		const struct lrb_snap_page *p = &c->snap->page[ids[i]];
		int next = ids[(i + 1) % n];

		if (p->next != next || p->next_flags != flags[i])
			lrb_mismatch(c, "p%d: next is p%u%s, expected p%d%s",
				     ids[i], p->next, lrb_kunit_arrow(p->next_flags),
				     next, lrb_kunit_arrow(flags[i]));
		if (!c->stale[next] && c->snap->page[next].prev != ids[i])
			lrb_mismatch(c, "p%d: prev is p%u, expected p%d", next,
				     c->snap->page[next].prev, ids[i]);
	}
}

static unsigned long lrb_snap_counter(const struct lrb_snapshot *s,
				      const char *key, bool *found)
{
	*found = true;
	if (!strcmp(key, "committing"))
		return s->committing;
	if (!strcmp(key, "committed"))
		return s->stats.committed;
	if (!strcmp(key, "overrun"))
		return s->stats.overrun;
	if (!strcmp(key, "entries"))
		return s->stats.entries;
	if (!strcmp(key, "read"))
		return s->stats.read;
	if (!strcmp(key, "dropped"))
		return s->stats.dropped;
	if (!strcmp(key, "commit_overrun"))
		return s->stats.commit_overrun;
	if (!strcmp(key, "pages_lost"))
		return s->stats.pages_lost;
	if (!strcmp(key, "nrH"))
		return s->nr_header;
	if (!strcmp(key, "nrU"))
		return s->nr_update;
	*found = false;
	return 0;
}

/* pN.write=, pN.commit=, pN.entries=, pN.read= */
static bool lrb_expect_page_field(struct lrb_expect_ctx *c, const char *key,
				  const char *val)
{
	char name[8];
	const char *dot = strchr(key, '.');
	const struct lrb_snap_page *p;
	unsigned long want, got;
	int id;

	if (!dot || dot - key >= sizeof(name))
		return false;
	memcpy(name, key, dot - key);
	name[dot - key] = '\0';
	id = lrb_tok_page(name);
	if (id < 0 || id >= c->snap->nr_pages || kstrtoul(val, 0, &want))
		return false;
	p = &c->snap->page[id];
	if (!strcmp(dot + 1, "write"))
		got = p->write;
	else if (!strcmp(dot + 1, "commit"))
		got = p->commit;
	else if (!strcmp(dot + 1, "entries"))
		got = p->entries;
	else if (!strcmp(dot + 1, "read"))
		got = p->read;
	else
		return false;
	if (got != want)
		lrb_mismatch(c, "%s is %lu, expected %lu", key, got, want);
	return true;
}

/* Pages the design document's rule calls the reader page */
static void lrb_expect_rule(struct lrb_expect_ctx *c, int want)
{
	const struct lrb_snapshot *s = c->snap;
	unsigned int id;

	for (id = 0; id < s->nr_pages; id++) {
		bool reader = s->page[s->page[id].prev].next != id;

		if (reader != (want >= 0 && id == (unsigned int)want))
			lrb_mismatch(c, "p%u %s the reader page by the prev rule",
				     id, reader ? "is" : "is not");
	}
}

static void lrb_expect_prop(struct lrb_expect_ctx *c, char *prop)
{
	const struct lrb_snapshot *s = c->snap;
	const struct lrb_snap_page *rp = &s->page[s->reader];
	char *key = strsep(&prop, "="), *val = prop;
	unsigned int got = LRB_SNAP_NONE;
	unsigned long want;
	bool found;
	int id;

	if (!val) {
		lrb_mismatch(c, "bad property '%s'", key);
		return;
	}
	if (!strcmp(key, "staleprev") || lrb_expect_page_field(c, key, val))
		return;
	if (!strcmp(key, "rflag")) {
		if (rp->next_flags != lrb_tok_flag(val))
			lrb_mismatch(c, "reader page next flag %s, expected %s",
				     lrb_kunit_arrow(rp->next_flags), val);
		return;
	}
	want = lrb_snap_counter(s, key, &found);
	if (found) {
		unsigned long v;

		if (kstrtoul(val, 0, &v))
			lrb_mismatch(c, "bad number in %s=%s", key, val);
		else if (v != want)
			lrb_mismatch(c, "%s is %lu, expected %lu", key, want, v);
		return;
	}
	id = !strcmp(val, "-") ? (int)LRB_SNAP_NONE : lrb_tok_page(val);
	if (!strcmp(key, "rule")) {
		lrb_expect_rule(c, id);
		return;
	}
	if (!strcmp(key, "tail"))
		got = s->tail;
	else if (!strcmp(key, "commit"))
		got = s->commit;
	else if (!strcmp(key, "head"))
		got = s->head;
	else if (!strcmp(key, "reader"))
		got = s->reader;
	else if (!strcmp(key, "rnext"))
		got = rp->next;
	else if (!strcmp(key, "rprev"))
		got = rp->prev;
	else if (!strcmp(key, "hint"))
		got = s->head_hint;
	else
		id = -2;
	if (id == -2 || (id < 0 && id != (int)LRB_SNAP_NONE))
		lrb_mismatch(c, "bad property '%s=%s'", key, val);
	else if (got != (unsigned int)id)
		lrb_mismatch(c, "%s is p%d, expected %s", key,
			     got == LRB_SNAP_NONE ? -1 : (int)got, val);
}

/* staleprev=pA:pB: page A's prev is allowed to be (and must be) page B */
static void lrb_expect_stale(struct lrb_expect_ctx *c, const char *props)
{
	const char *p = props;

	while ((p = strstr(p, "staleprev="))) {
		unsigned int ia, ib;

		p += strlen("staleprev=");
		if (sscanf(p, "p%u:p%u", &ia, &ib) != 2 ||
		    ia >= c->snap->nr_pages || ib >= c->snap->nr_pages) {
			lrb_mismatch(c, "bad staleprev");
			return;
		}
		c->stale[ia] = true;
		if (c->snap->page[ia].prev != ib)
			lrb_mismatch(c, "p%u: prev is p%u, expected stale p%u",
				     ia, c->snap->page[ia].prev, ib);
	}
}

/**
 * lrb_kunit_expect - check a snapshot against a state drawn in the design
 *	document's notation
 * @test: the test; each difference is reported to it
 * @snap: the snapshot
 * @ring: NULL, or the ring as "p4 -U-> p1 -H-> p2 --> p3 -->": pages in
 *	next order, each followed by the arrow of its next pointer, the last
 *	arrow pointing back to the first page. Every prev pointer along it
 *	must point back, unless a staleprev property says otherwise.
 * @props: NULL, or space separated properties: tail=, commit=, head= (a
 *	page, or - for none), reader=, rnext=, rprev=, rflag= (N, H or U) of
 *	the reader page, hint= (where the reader starts looking for the
 *	head), rule= (the only page the prev rule calls the reader page),
 *	staleprev=pA:pB, pN.write=, pN.commit=, pN.entries=, pN.read= and
 *	the counters committing=, committed=, overrun=, entries=, read=,
 *	dropped=, commit_overrun=, pages_lost=, nrH=, nrU=.
 *
 * Return: true if the snapshot is the state described.
 */
bool lrb_kunit_expect(struct kunit *test, const struct lrb_snapshot *snap,
		      const char *ring, const char *props)
{
	struct lrb_expect_ctx c = { .test = test, .snap = snap, .ok = true };
	char *copy, *p, *tok;

	if (props)
		lrb_expect_stale(&c, props);
	if (ring) {
		copy = kstrdup(ring, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, copy);
		lrb_expect_ring_spec(&c, copy);
		kfree(copy);
	}
	if (props) {
		copy = kstrdup(props, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, copy);
		p = copy;
		while ((tok = strsep(&p, " ")))
			if (*tok)
				lrb_expect_prop(&c, tok);
		kfree(copy);
	}
	return c.ok;
}

MODULE_DESCRIPTION("KUnit suites of the lockless ring buffer");
MODULE_LICENSE("GPL");
