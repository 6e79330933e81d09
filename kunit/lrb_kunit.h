/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers of the lockless ring buffer KUnit suites: test buffers that
 * count what the test wrote, payloads that can be checked byte by byte, an
 * injectable clock (lrb_kunit_util.c), the ring renderer in the design
 * document's notation (lrb_kunit_render.c), the ring invariants and the
 * expected states (lrb_kunit_expect.c), the checks every case runs at its
 * end. The script engine of the step-by-step suites is lrb_kunit_script.h;
 * the implementation table lrb_kunit_impl.h.
 */
#ifndef _LRB_KUNIT_H
#define _LRB_KUNIT_H

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/lockless_ring_buffer.h>
#include <linux/lockless_ring_buffer_test.h>

/* Print one line into the KUnit log as a diagnostic ("# ...") line */
__printf(2, 3) void lrb_kunit_line(struct kunit *test, const char *fmt, ...);

/**
 * struct lrb_tb - a buffer under test and what the test did to it
 * @b: the buffer
 * @ok: per CPU, writes the test saw succeed
 * @failed: per CPU, reserves the test saw fail
 * @next_seq: per CPU, sequence number of the next payload
 * @counted: whether @ok and @failed are complete (every write went through
 *	lrb_tb_write()), so that the end-of-case check can compare them
 * @may_break: the case broke a ring on purpose and checked it: the
 *	end-of-case check leaves a broken CPU out
 */
struct lrb_tb {
	struct lrb_buffer	*b;
	unsigned long		*ok;
	unsigned long		*failed;
	u32			*next_seq;
	bool			counted;
	bool			may_break;
};

struct lrb_tb *lrb_tb_alloc(struct kunit *test, unsigned long size,
			    unsigned long flags);
int lrb_tb_write(struct lrb_tb *tb, unsigned int len);
int lrb_tb_write_seq(struct lrb_tb *tb, unsigned int len, u32 seq);
void lrb_tb_check_end(struct kunit *test, struct lrb_tb *tb);
void lrb_tb_check_at_end(struct kunit *test, struct lrb_tb *tb);

int lrb_kunit_pin_current(struct kunit *test);
void lrb_kunit_wait_for_stop(void);
bool lrb_kunit_wait_stage(atomic_t *stage, int want, u64 timeout_ns);
int lrb_kunit_kcsan_ignore_kernel(struct kunit *test);
void lrb_kunit_fill(void *dst, unsigned int len, u32 seq);
bool lrb_kunit_payload_ok(const void *src, unsigned int len, u32 seq);
u32 lrb_kunit_payload_seq(const void *src);

int lrb_kunit_debugfs_write(struct kunit *test, const char *path,
			    const char *val);
ssize_t lrb_kunit_debugfs_read(struct kunit *test, const char *path,
			       char *buf, size_t len);

u64 lrb_kunit_clock(void);
u64 lrb_kunit_clock_tick(void);
void lrb_kunit_clock_set(u64 value);

void lrb_kunit_render(struct kunit *test, const struct lrb_snapshot *snap,
		      const char *title);
void lrb_kunit_render_from(struct kunit *test, const struct lrb_snapshot *snap,
			   const char *title, unsigned int first);
void lrb_kunit_dump(struct kunit *test, struct lrb_buffer *b, int cpu,
		    const char *title);
int lrb_kunit_ring_pos(const struct lrb_snapshot *snap, unsigned int id);
const char *lrb_kunit_arrow(unsigned int flags);
bool lrb_kunit_snap_sane(struct kunit *test, const struct lrb_snapshot *snap,
			 bool lone_reader);
bool lrb_kunit_ring_sane(struct kunit *test, struct lrb_buffer *b, int cpu);
bool lrb_kunit_expect(struct kunit *test, const struct lrb_snapshot *snap,
		      const char *ring, const char *props);
bool lrb_kunit_expect_layout(struct kunit *test, const struct lrb_snapshot *snap,
			     const char *ring, const char *props, bool align8);

struct trace_buffer;
/* The kernel's tracing ring buffer in lrb's snapshot (lrb_krb_snapshot.c) */
struct rb_test_snapshot;
int lrb_kunit_krb_snapshot(struct trace_buffer *b, int cpu,
			   struct lrb_snapshot *snap);
void lrb_kunit_krb_convert(const struct rb_test_snapshot *ks,
			   struct lrb_snapshot *snap);
int lrb_kunit_krb_stats(struct trace_buffer *b, int cpu, struct lrb_stats *st);

/*
 * Capacity of a data page in bytes, lrb's and the kernel sub-buffer's: the
 * page less the header before data[] (16 bytes; 12 on 32-bit, where ARM pads
 * the struct to 16 but not the offset)
 */
#define LRB_KUNIT_CAPACITY	(PAGE_SIZE - offsetof(struct lrb_data_page, data))

/*
 * Real NMIs: an APIC self-NMI, taken by x86's register_nmi_handler()
 * (asm/nmi.h; linux/nmi.h includes it only with ACPI APEI or an arch
 * watchdog, which the lean build has not); elsewhere the NMI cases skip,
 * saying why
 */
#if defined(CONFIG_X86_LOCAL_APIC)
#define LRB_KUNIT_SELF_NMI	1
#else
#define LRB_KUNIT_SELF_NMI	0
#endif

/* Stored size of an event with a payload of len bytes */
static inline unsigned int lrb_kunit_event_size(unsigned int len)
{
	if (len > 4 * LRB_TYPE_DATA_TYPE_LEN_MAX || LRB_TEST_PAYLOAD_ALIGN == 8)
		len += 4;
	return ALIGN(len + 4, LRB_TEST_PAYLOAD_ALIGN);
}

#endif /* _LRB_KUNIT_H */
