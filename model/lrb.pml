/*
 * Promela model of one CPU's ring of lib/lockless_ring_buffer.c (lrb) and
 * its reader, for SPIN.  docs/model.md says what is modelled, the memory
 * model, what is abstracted away and how to run it; the steps below follow
 * the C functions they name, and each label LRB_HOOK_<P> (written HOOK(P) /
 * RHOOK(P) / RAT(P)) is the place of the hook point of
 * include/linux/lockless_ring_buffer_test.h of that name
 * (tools/tests/test_model_labels.py keeps the two sets equal).
 *
 * Configuration (spin -D...):
 *   PAGES      data pages of the ring (the reader page comes on top)
 *   DEPTH      nested writer levels above the outer writer
 *   NEST       nested writes in all (each nested writer writes one event)
 *   PREP       events of PREP_SZ slots written first: no nesting, no reader
 *   OUTER      events of the outer writer, one after another, after those
 *   OVERWRITE  1: overwrite mode, 0: producer/consumer
 *   SIZES      1: events of one slot, 2: of two, 3: of one or two slots
 *   READER     1: a reader concurrent with every step (see RDCPU);
 *              0: the reader only drains the ring after the writers
 *   READ_PAGE  1: the reader also reads whole pages (lrb_read_page())
 *   STATS      1: the reader also reads the counters (lrb_cpu_counts())
 *   WEAK       the locations the reader's CPU sees through the memory model
 *              of docs/model.md (stores of the writers' CPU pending in its
 *              store buffer, loads of the reader satisfied early), a mask of
 *              W_DAT (slots), W_CIDX (commit indexes), W_COMMIT (commit_page),
 *              W_VER (versions), W_CNT (event counts), W_OV (overrun),
 *              W_PUSH (pushing), W_COUNT (committed), and in the other
 *              direction W_RPTR (the reader's prev pointers and its page's
 *              next, as the writers' CPU sees them); 0: sequentially
 *              consistent
 *   ANYWHERE   1: an interrupt (a nested writer, or the reader with RDCPU)
 *              may arrive before every shared access of a writer, not only
 *              at the hook points
 *   RDCPU      1: the reader runs on the writers' CPU, as an interrupt that
 *              runs to its end before the writer it interrupted resumes, at
 *              most RCALLS times while writers run, then drains
 *   LTL_SETTLES  the claim "every run ends with the final checks" (pan -a -f)
 *   NO_COMMIT_CHECK  leave out the check of a commit index at publication
 *   VER_MOD    0: versions never wrap (a byte no run fills); N > 0: the
 *              writers' reset cmpxchg compares versions modulo N, lrb's
 *              24-bit version narrowed until it wraps within a run. Safe
 *              by construction when N exceeds DEPTH: a writer's
 *              bump-to-reset window sees at most one bump per writer
 *              nested above it (none can lap the ring past the commit
 *              page); M_VER_WRAP makes N = 2 under DEPTH 2. The reader
 *              compares the count in full (lrb's 64-bit @resets), which
 *              no run wraps, however many laps it waits through;
 *              M_READER_VERSION makes it compare the narrow version
 *   RECHECK_AT_SWAP  1: the reader's lap recheck in the step of its swap, so
 *              that no push comes between them (docs/model.md, "The early
 *              loss report"); sequentially consistent only (WEAK 0)
 *   EXACT_LOST 1: each loss reported with the first event read after it, not
 *              only never before it (the lap rechecks of the reader's swap
 *              keep it when the head goes a whole lap round the ring:
 *              docs/model.md, "late loss report")
 *
 * Mutations (each the variant of one step, refuted by SPIN with the property
 * tools/model_configs.py pins it to; docs/model.md describes each):
 *   protocol: M_HEADER_UNDER_UPDATE, M_TAIL_NO_VERSION, M_NESTED_COMMIT,
 *     M_SWAP_COMMIT_PAGE, M_NO_STALE_RESET, M_KERNEL_ORDER, M_NO_LAP_RECHECK,
 *     M_NO_HEADER_RECHECK, M_COUNT_AFTER_PUBLISH, M_NO_PUSHING_CHECK,
 *     M_NO_END_RECHECK, M_NO_NEXT_COMMIT_CHECK, M_NO_TAIL_RECHECK,
 *     M_NO_READER_PAGE_CHECK, M_NO_EMPTY_HEAD_CHECK, M_CLEAR_AFTER_RECHECK,
 *     M_RDCPU_SPIN, M_READER_PAGE_STALE (lrb before its fix: docs/model.md),
 *     M_VER_WRAP (a version with fewer values than writers in one window),
 *     M_READER_VERSION (the reader tells a lap by the narrow version)
 *   barriers, the writers' end: M_NO_WMB_INDEX, M_NO_WMB_INDEX_LOOP,
 *     M_NO_WMB_INDEX_TAIL, M_NO_WMB_COMMIT_PAGE,
 *     M_PUSHING_UNORDERED, M_OVERRUN_UNORDERED, M_VERSION_UNORDERED,
 *     M_HEAD_SET_RELEASE
 *   barriers, the reader's end: M_NO_RMB_LOOK, M_NO_RMB_SIZE, M_NO_RMB_WALK,
 *     M_NO_RMB_VERSION, M_NO_RMB_HEADER, M_SWAP_RELAXED, M_NO_RMB_READ_PAGE,
 *     M_NO_RMB_STATS_FIRST, M_NO_RMB_STATS_SECOND
 *   barriers of the reader's stores (W_RPTR): M_NO_WMB_READER_NEXT (the
 *     reader's end), M_NO_RMB_COMMIT_PREV (the writers' end)
 */

#ifndef PAGES
#define PAGES		3
#endif
#ifdef M_VER_WRAP
#undef VER_MOD
#define VER_MOD		2
#endif
#ifndef VER_MOD
#define VER_MOD		0
#endif
/* A version as the writers' reset cmpxchg compares it */
#if VER_MOD > 0
#define VER_OF(v)	((v) % VER_MOD)
#else
#define VER_OF(v)	(v)
#endif
/* and as the reader compares it */
#ifdef M_READER_VERSION
#define RVER_OF(v)	VER_OF(v)
#else
#define RVER_OF(v)	(v)
#endif
#ifndef DEPTH
#define DEPTH		2
#endif
#ifndef NEST
#define NEST		2
#endif
#ifndef OUTER
#define OUTER		2
#endif
#ifndef PREP
#define PREP		0
#endif
#ifndef PREP_SZ
#define PREP_SZ		2
#endif
#ifndef OVERWRITE
#define OVERWRITE	1
#endif
#ifndef SIZES
#define SIZES		3
#endif
#ifndef READER
#define READER		1
#endif
#ifndef READ_PAGE
#define READ_PAGE	0
#endif
#ifndef STATS
#define STATS		0
#endif
#ifndef EXACT_LOST
#define EXACT_LOST	0
#endif
#ifndef RECHECK_AT_SWAP
#define RECHECK_AT_SWAP	0
#endif
#ifndef WEAK
#define WEAK		0
#endif
#ifndef ANYWHERE
#define ANYWHERE	0
#endif
#ifndef RDCPU
#define RDCPU		0
#endif
#ifndef RCALLS
#define RCALLS		2
#endif

#if RDCPU && WEAK
#error "a reader on the writers' CPU sees their stores in program order: WEAK=0"
#endif
#if RDCPU && !READER
#error "RDCPU needs READER=1"
#endif
#if RECHECK_AT_SWAP && WEAK
#error "RECHECK_AT_SWAP takes the recheck's loads as plain loads: WEAK=0"
#endif

#define NP		(PAGES + 1)	/* pages, the reader page included */
#define CAP		2		/* slots of a page */
#define MAXEV		(PREP + OUTER + NEST)
#define PAD		255		/* a slot of the padding that ends a page */
#define RD		9		/* "depth" of the reader in the step lines */
#define RDCUR		(DEPTH + 1)	/* cur while no writer may run */

/* Flags of a next pointer (LRB_PAGE_*), and what lrb_head_set() may return */
#define NORMAL		0
#define HEADER		1
#define UPDATE		2
#define MOVED		4

mtype = { STAMP, RESERVED, MOVE_TAIL, COMMIT_PREV, HEAD_UPDATE_BEFORE, HEAD_UPDATE_AFTER,
	  NEW_HEAD_BEFORE, NEW_HEAD_AFTER, STALE_HEAD, HEAD_NORMAL_BEFORE,
	  TAIL_RESET, TAIL_BEFORE, TAIL_AFTER, COMMIT_BEFORE, COMMIT_AFTER,
	  READER_PAGE, READER_BEFORE_SWAP, READER_SWAP_FAILED, READER_SPIN,
	  READER_AFTER_SWAP, READER_DONE, READER_BUSY,
	  reserve, payload, crossed, write_failed, set_update, set_header,
	  reset_stale, clear_update, reset_next, tail_moved, commit_moved, commit_idx, commit_done,
	  reset_page, head_found, point_next, read_version, header_check, read_overrun, recheck,
	  take_head, swap,
	  read_event, read_whole, drained, stats,
	  /* the interrupt points of ANYWHERE that are not hook points */
	  at_depth_store, at_claim, at_reservation, at_commit_load, at_commit_store,
	  at_count_check, at_count_store, at_index_store, at_commit_next, at_commit_page_store,
	  at_committing_clear, at_recheck_index, at_next_page, at_flags, at_prev_next,
	  at_tail_check, at_pushing_inc, at_pushing_dec, at_overrun, at_new_head,
	  at_tail_reread, at_commit_reset, at_tail_recheck, at_commit_zero, at_write_index,
	  at_idle,
	  /* what the floating loads of WEAK take */
	  ld_commit, ld_cidx, ld_ver, ld_ov, ld_cnt, ld_dat, ld_push, ld_hdr, ld_committed,
	  /* and what the writers' reader-page test loads (trail lines) */
	  ld_prev, ld_prev_next, ld_prev_again, ld_prev_early };

/* ---- the ring ---------------------------------------------------------- */

byte nxt[NP];		/* where a page's next pointer points */
byte flg[NP];		/* and its flag: NORMAL, HEADER, UPDATE */
byte prv[NP];		/* prev pointers: the reader's */
byte wver[NP];		/* write word: version (bumped by every reset try: */
			/*   lrb's @resets, its version is VER_OF() of it), */
byte wcnt[NP];		/*   events reserved, */
byte widx[NP];		/*   slots reserved */
byte cidx[NP];		/* commit index */
byte dat[NP * CAP];	/* event id in a slot, PAD, or 0 */

byte tail, commit, rpage, hint;		/* tail_page, commit_page,
					   reader_page, head_page (hint) */
byte committing, pushing;
byte claims, crossings, committed;	/* stamp_seq, crossings, committed */
byte overrun, commit_overrun, dropped, pages_lost;
byte read_pos, nread, last_overrun, lost_events;	/* the reader's */
byte busy;				/* reads that found a push in flight
					   on their own CPU (RDCPU) */
#if RDCPU
bool spun;				/* ghost: the reader on the writers'
					   CPU went back to its head search */
#endif

/* ---- the writers' stack ---------------------------------------------- */

byte cur;		/* depth of the writer running on the ring's CPU */
byte budget = NEST;	/* nested writes left */
bool prepped;		/* the PREP events are written */
bool wdone;		/* the outer writer wrote its events; none in flight */
#if RDCPU
byte rcalls = RCALLS;	/* reader interrupts left while writers run */
byte rfrom;		/* the writer the reader interrupted */
bool rirq;		/* the reader runs as an interrupt */
#endif

/* ---- ghost state: what the checks compare the algorithm against ------ */

byte resv[NP * CAP];	/* event id whose reservation holds the slot */
byte own[NP * CAP];	/* who holds the slot: 0 nobody, writer depth + 1
			   from its reservation to its payload, RD while the
			   reader's last event (its next read releases it) */
byte ev_sz[MAXEV + 1];	/* slots of each event */
byte nev;		/* events reserved (ids 1..nev, in buffer order) */
byte writes;		/* writes started */
byte last_id;		/* id of the last event read */
byte lost_seen;		/* events lost, as the reads were told */
byte nread_seen;	/* events the reader took */
bool filled[NP];		/* the tail left the page and no reader nor push
			   took it since: a page of events waiting */
byte pushed;		/* full pages pushed away */
byte rdpg;		/* the reader's page from its swap cmpxchg on */
byte inatt;		/* bit d: writer d is in a reservation attempt */
byte hit;		/* bit d: the ring changed under writer d since its
			   attempt began (a nested writer or the reader) */
bool checked;		/* the final checks passed */
#if STATS
byte ovc[MAXEV + 1];	/* the overrun when committed first became each
			   value: every push before that store of the count */
#endif

/* ---- the memory model (WEAK) ------------------------------------------
 *
 * Two CPUs: the writers' (every Writer: nested writers are interrupts of
 * the same CPU and see its stores in program order) and the reader's.
 * A location the reader loads and the writers store has two values: the
 * writers' (the plain name, what the writers' CPU sees) and memory's (m_),
 * what the reader's CPU may see. A store of the writers' CPU stays in its
 * store buffer until a write barrier (smp_wmb()) or a fully ordered RMW of
 * it publishes every store before it; in between, stores reach memory in
 * any order: the reader's load may take the pending one (RLD). A value that
 * another store to the same location overwrites before a barrier may reach
 * memory first (WST). A load of the reader is satisfied at any time after
 * the barrier before it (smp_rmb(), a fully ordered RMW, the reader lock):
 * the first load of a window at its place, the others by Loads() at any
 * time between the barrier and their place (floating loads, FL_*).
 */

/* the locations WEAK may make weak */
#define W_DAT		1
#define W_CIDX		2
#define W_COMMIT	4
#define W_VER		8
#define W_CNT		16
#define W_OV		32
#define W_PUSH		64
#define W_COUNT		128
#define WK_dat		W_DAT
#define WK_cidx		W_CIDX
#define WK_commit	W_COMMIT
#define WK_wver		W_VER
#define WK_wcnt		W_CNT
#define WK_overrun	W_OV
#define WK_pushing	W_PUSH
#define WK_committed	W_COUNT
#define ISWEAK(x)	((WEAK & WK_##x) != 0)
/* and the other direction: the reader's stores of prev pointers and of its
 * page's next, as the writers' CPU sees them (below) */
#define W_RPTR		256

#if WEAK
byte m_dat[NP * CAP];
byte m_cidx[NP];
byte m_wver[NP];
byte m_wcnt[NP];
byte m_commit, m_overrun, m_pushing;
#if STATS
byte m_committed;
#endif
byte wfi;		/* the flush's loop index, 0 between flushes */

/* A store of the writers' CPU: pending; the value it replaces may reach
 * memory first if it was pending too. A location not in WEAK: at once */
#define WST(x, v) \
	if \
	:: ISWEAK(x) && m_##x != x -> m_##x = x \
	:: else \
	fi; \
	x = v; \
	if \
	:: !ISWEAK(x) -> m_##x = x \
	:: else \
	fi
#define WSTA(a, i, v) \
	if \
	:: ISWEAK(a) && m_##a[i] != a[i] -> m_##a[i] = a[i] \
	:: else \
	fi; \
	a[i] = v; \
	if \
	:: !ISWEAK(a) -> m_##a[i] = a[i] \
	:: else \
	fi
/* A load of the reader's CPU: memory, or a pending store that reaches it now */
#define RLD(dst, x)	if :: dst = m_##x :: m_##x != x -> m_##x = x; dst = x fi
#define RLDA(dst, a, i)	if :: dst = m_##a[i] :: m_##a[i] != a[i] -> m_##a[i] = a[i]; dst = a[i] fi
/* A store of the reader to a location the writers store too (its own page,
 * which the writers have left): a store of theirs still pending there is
 * ordered before it, or after it and reaches memory later */
#define RSTA(a, i, v) \
	if \
	:: a[i] = v; m_##a[i] = v \
	:: m_##a[i] != a[i] -> m_##a[i] = v \
	fi

/* Every pending store reaches memory (smp_wmb(), a fully ordered RMW) */
inline wflush_but(skip_pushing, skip_overrun, skip_version)
{
	wfi = 0;
	do
	:: wfi < NP * CAP -> m_dat[wfi] = dat[wfi]; wfi++
	:: else -> break
	od;
	wfi = 0;
	do
	:: wfi < NP ->
		m_cidx[wfi] = cidx[wfi];
		m_wcnt[wfi] = wcnt[wfi];
		if
		:: !skip_version -> m_wver[wfi] = wver[wfi]
		:: else
		fi;
		wfi++
	:: else -> break
	od;
	wfi = 0;
	m_commit = commit;
	if
	:: !skip_overrun -> m_overrun = overrun
	:: else
	fi;
	if
	:: !skip_pushing -> m_pushing = pushing
	:: else
	fi;
#if STATS
	m_committed = committed;
#endif
	skip
}
#define wflush()	wflush_but(false, false, false)

/* ---- floating loads ---- */
#define FL_COMMIT	1	/* commit_page */
#define FL_CIDX		2	/* the commit index of page fl_cidx_pg */
#define FL_VER		4	/* the version of page fl_ver_pg */
#define FL_OV		8	/* the overrun */
#define FL_CNT		16	/* the event count of page fl_cnt_pg */
#define FL_DAT		32	/* slots fl_dat_at and the one after */
#define FL_PUSH		64	/* pushing */
#define FL_HDR		128	/* the next pointer of page fl_hdr_pg */
byte fl_arm;		/* armed: Loads() has yet to take them */
byte fl_got;		/* taken, not yet used */
byte fl_commit, fl_cidx, fl_ver, fl_ov, fl_cnt, fl_d0, fl_d1, fl_push, fl_hn, fl_hf;
byte fl_cidx_pg, fl_ver_pg, fl_cnt_pg, fl_dat_at, fl_hdr_pg;
#if STATS
bool fl_c_arm, fl_c_got;
byte fl_committed;
#endif

/* A barrier of the reader: the loads after it are taken after it */
inline fl_reset()
{
	fl_arm = 0; fl_got = 0;
	fl_commit = 0; fl_cidx = 0; fl_ver = 0; fl_ov = 0; fl_cnt = 0;
	fl_d0 = 0; fl_d1 = 0; fl_push = 0; fl_hn = 0; fl_hf = 0;
	fl_cidx_pg = 0; fl_ver_pg = 0; fl_cnt_pg = 0; fl_dat_at = 0; fl_hdr_pg = 0
}
/* only the loads of weak locations float (FL_HDR: with the mutations that
 * arm it) */
#define FL_WEAK	(((WEAK & W_COMMIT) != 0 -> FL_COMMIT : 0) | ((WEAK & W_CIDX) != 0 -> FL_CIDX : 0) | \
		 ((WEAK & W_VER) != 0 -> FL_VER : 0) | ((WEAK & W_OV) != 0 -> FL_OV : 0) | \
		 ((WEAK & W_CNT) != 0 -> FL_CNT : 0) | ((WEAK & W_DAT) != 0 -> FL_DAT : 0) | \
		 ((WEAK & W_PUSH) != 0 -> FL_PUSH : 0) | FL_HDR)
#define ARM(k)		fl_arm = fl_arm | ((k) & FL_WEAK); fl_got = fl_got & ~(k)
#define ARMP(k, v, p)	if :: ((k) & FL_WEAK) != 0 -> ARM(k); v = p :: else fi
/* Use a floating load: wait for Loads() to take it if it is armed; if it
 * was never armed the load is taken here (RLD) */
#define READY(k)	((fl_arm & (k)) == 0)
#define TAKE(k, reg, dst, direct) \
	if \
	:: fl_got & (k) -> dst = reg; reg = 0; fl_got = fl_got & ~(k) \
	:: else -> direct \
	fi
/* A load at its place of a location a floating load of the same window also
 * reads, later in program order: that one is taken again, after it (loads
 * of one location are not reordered) */
#define AGAIN(k)	if :: (fl_arm | fl_got) & (k) -> ARM(k) :: else fi
#define TAKE2(k, r0, r1, d0, d1, direct) \
	if \
	:: fl_got & (k) -> d0 = r0; d1 = r1; r0 = 0; r1 = 0; fl_got = fl_got & ~(k) \
	:: else -> direct \
	fi
#else
#define TAKE2(k, r0, r1, d0, d1, direct)	direct
#define WST(x, v)	x = v
#define WSTA(a, i, v)	a[i] = v
#define RLD(dst, x)	dst = x
#define RLDA(dst, a, i)	dst = a[i]
#define RSTA(a, i, v)	a[i] = v
#define wflush()	skip
#define wflush_but(a, b, c)	skip
#define fl_reset()	skip
#define ARM(k)		skip
#define ARMP(k, v, p)	skip
#define READY(k)	true
#define TAKE(k, reg, dst, direct)	direct
#define AGAIN(k)	skip
#endif

#if STATS
/* the store of the count, and (ghost) the overrun at its first store of
 * that value: the pushes the counters must show with it */
#define WST_COUNT(v) \
	if \
	:: (v) != committed -> ovc[v] = overrun \
	:: else \
	fi; \
	WST(committed, v)
#else
#define WST_COUNT(v)	committed = v
#endif

/* A step line, for trails: who (writer depth, or RD), what, then the ring.
 * Each page: next, flag, write index, commit index, slots, and with WEAK
 * the commit index and slots in memory */
#if WEAK
#define MEMPG(i)	printf(":%d:%d:%d", m_cidx[i], m_dat[2 * i], m_dat[2 * i + 1])
#define MEMCNT		printf(" mc=%d mov=%d mpu=%d", m_commit, m_overrun, m_pushing)
#else
#define MEMPG(i)	skip
#define MEMCNT		skip
#endif
#define SHOWPG(i)	printf(" |%d:%d:%d:%d:%d:%d", nxt[i], flg[i], widx[i], cidx[i], dat[2 * i], dat[2 * i + 1]); MEMPG(i)

inline lrb_show(who, what)
{
	printf("LRB %d %e t=%d c=%d r=%d h=%d", who, what, tail, commit, rpage, hint);
	printf(" push=%d ov=%d cm=%d rd=%d pos=%d", pushing, overrun, committed, nread, read_pos);
	MEMCNT;
	SHOWPG(0); SHOWPG(1); SHOWPG(2);
#if NP > 3
	SHOWPG(3);
#endif
#if NP > 4
	SHOWPG(4);
#endif
#if NP > 5
	SHOWPG(5);
#endif
#if NP > 6
	SHOWPG(6);
#endif
	printf("\n")
}

/*
 * An interrupt arrives: a nested writer, up to DEPTH levels and NEST nested
 * writes in all, or (RDCPU) the reader; it runs to its end before this
 * writer goes on (the provided clauses let only the one at cur run).
 * Several may arrive at one place. The ring may change under every writer
 * below the one that starts.
 */
#if RDCPU
#define RD_ARRIVE(P) \
	:: atomic { rcalls > 0 && prepped -> rcalls--; hit = hit | (inatt & ((2 << me) - 1)); \
		printf("LRB %d rirq %e\n", me, P); rfrom = me; rirq = true; cur = RDCUR }
#else
#define RD_ARRIVE(P)
#endif
#define ARRIVE(P) \
	:: atomic { me < DEPTH && budget > 0 && prepped -> budget--; \
		hit = hit | (inatt & ((2 << me) - 1)); \
		printf("LRB %d nest %e\n", me, P); cur = me + 1 } \
	RD_ARRIVE(P)

/* A hook point of a writer: interrupts may arrive here */
#define HOOK(P) \
LRB_HOOK_##P: \
	do \
	ARRIVE(P) \
	:: atomic { true -> lrb_show(me, P); break } \
	od

/* Another place of a writer before a shared access (ANYWHERE): the same,
 * with no hook point and no step line */
#if ANYWHERE
#define IRQ(P) \
	do \
	ARRIVE(P) \
	:: break \
	od
#else
#define IRQ(P)		skip
#endif

/*
 * Two accesses of a writer in one step unless ANYWHERE: at most one of them
 * reads a location the reader writes, so the reader acting between them is
 * the same as acting before or after the step; with ANYWHERE an interrupt
 * may arrive between them.
 */
#if ANYWHERE
#define SPLIT(P)	}; IRQ(P); atomic {
#else
#define SPLIT(P)	;
#endif

/* A hook point of the reader: a label on its next step */
#define RHOOK(P)	LRB_HOOK_##P: atomic { lrb_show(RD, P) }
/* A reader hook point that draws nothing: a label on the step after it */
#define RAT(P)		LRB_HOOK_##P:

/*
 * lrb_head_set(): cmpxchg of p's next pointer from pg|old to pg|new, by a
 * writer. Fully ordered when it succeeds (try_cmpxchg()): every store of the
 * writers' CPU before it reaches memory first; a failed one orders nothing.
 * Pairs with the smp_rmb()s of lrb_find_head() (after the walk) and of
 * lrb_swap_reader_page() (after the version, after the HEADER check), and
 * with the reader's swap cmpxchg.
 */
#ifdef M_PUSHING_UNORDERED
#define HS_FLUSH	wflush_but(true, false, false)
#elif defined(M_OVERRUN_UNORDERED)
#define HS_FLUSH	wflush_but(false, true, false)
#elif defined(M_VERSION_UNORDERED)
#define HS_FLUSH	wflush_but(false, false, true)
#else
#define HS_FLUSH	wflush()
#endif

#ifdef M_HEAD_SET_RELEASE
/*
 * try_cmpxchg_release(): the stores before it reach the reader no later
 * than its own store (the flag), which may reach it after the stores that
 * follow it (the LKMM orders a release store after the accesses before it
 * only). The flag stays pending: the reader's plain loads of next pointers
 * read mflg[]/mnxt[] until a write barrier of the writers, or until a load
 * or the swap cmpxchg of the reader takes the pending flag; then every
 * pending store reaches memory with it (release_out(): the stores before
 * it as the LKMM requires, and those after it at the same moment, which
 * orders nothing the LKMM would not). A release whose pointer holds a
 * pending flag of an earlier release: that one may reach memory first
 * (coherence), with every store then pending. The reader's own cmpxchg
 * sees the latest value (atomicity).
 */
byte mnxt[NP], mflg[NP];
#define FLAGS_OUT(p)	mnxt[p] = nxt[p]; mflg[p] = flg[p]
#define FLAG_PENDING(p)	(mflg[p] != flg[p] || mnxt[p] != nxt[p])
#define RD_FLAGS(p, f, n) \
	if \
	:: f = mflg[p]; n = mnxt[p] \
	:: FLAG_PENDING(p) -> release_out(); f = flg[p]; n = nxt[p] \
	fi
/* the reader's swap cmpxchg reads the latest value: if it is a pending
 * release, it reaches memory, with the stores before it (coherence; and on
 * success the swap is fully ordered) */
#define FLAGS_SEEN(p)	if :: FLAG_PENDING(p) -> release_out() :: else fi
inline flags_flush()
{
	wfi = 0;
	do
	:: wfi < NP -> mnxt[wfi] = nxt[wfi]; mflg[wfi] = flg[wfi]; wfi++
	:: else -> break
	od;
	wfi = 0
}
#define release_out()	wflush(); flags_flush()
#else
#define FLAGS_OUT(p)	skip
#define RD_FLAGS(p, f, n)	f = flg[p]; n = nxt[p]
#define FLAGS_SEEN(p)	skip
#define flags_flush()	skip
#endif

/*
 * The reader's stores as the writers' CPU sees them (W_RPTR): the prev
 * pointers (prv[], the reader's own view; m_prv[], memory's, what the
 * writers load) and its page's next with its flag before the swap (a
 * pending store: pn_nxt/pn_flg for page pn_pg, while nxt[]/flg[] keep
 * memory's value, which the writers' loads and cmpxchgs read). A store of
 * the reader stays pending until its write barrier (rd_wmb(): the smp_wmb()
 * before it points its page's next) or its swap cmpxchg (fully ordered)
 * publishes it, or a load of the writers takes it (it reached memory then);
 * a pending store the reader overwrites may reach memory first, or never.
 * The reader does not load its page's next while that store is pending (it
 * loads it after the swap). A writer's cmpxchg of a next pointer with a
 * reader store pending there succeeds or fails on memory's value, and the
 * reader's store, later in coherence order, overwrites it when it reaches
 * memory. A writer's load is taken at its place, but for the recheck of
 * lrb_commit_on_reader_page() without its read barrier
 * (M_NO_RMB_COMMIT_PREV), which may be satisfied as early as the first
 * load of the same prev pointer (early), and so returns that value.
 */
#if (WEAK & W_RPTR)
byte m_prv[NP];
bool pn;		/* the reader's store of page pn_pg's next is pending */
byte pn_pg, pn_nxt, pn_flg;
/* a store of the reader to a prev pointer: pending */
#define RWST_PRV(i, v) \
	if \
	:: m_prv[i] != prv[i] -> m_prv[i] = prv[i]; hit = hit | inatt \
	:: true \
	fi; \
	prv[i] = v
/* a load of the writers: memory, or the pending store, which reaches it */
#define WRLD_PRV(dst, i) \
	if \
	:: dst = m_prv[i] \
	:: m_prv[i] != prv[i] -> m_prv[i] = prv[i]; hit = hit | inatt; dst = prv[i] \
	fi
#define PN_OUT \
	nxt[pn_pg] = pn_nxt; flg[pn_pg] = pn_flg; FLAGS_OUT(pn_pg); \
	pn = false; pn_pg = 0; pn_nxt = 0; pn_flg = 0; hit = hit | inatt
/* the reader's store of its page's next, its flag with it */
#define RWST_NEXT(p, n, fl) \
	if \
	:: pn -> assert(pn_pg == p); PN_OUT \
	:: true \
	fi; \
	pn = true; pn_pg = p; pn_nxt = n; pn_flg = fl
/* a load or cmpxchg of the writers of page p's next: the pending store
 * of the reader may have reached memory */
#define WTAKE(p) \
	if \
	:: pn && pn_pg == (p) -> PN_OUT \
	:: true \
	fi
/* the reader's smp_wmb(), and its fully ordered swap: every pending store
 * of the reader reaches memory */
inline rd_flush()
{
	wfi = 0;
	do
	:: wfi < NP -> m_prv[wfi] = prv[wfi]; wfi++; hit = hit | inatt
	:: else -> break
	od;
	wfi = 0;
	if
	:: pn -> PN_OUT
	:: else
	fi
}
/* the writer's recheck of a prev pointer may be satisfied from the first
 * load on; its smp_rmb() (wr_rmb()) orders it after the load between.
 * A store of the reader that reaches memory changes the ring under the
 * writers in an attempt then (hit: the bound on their retries), whenever
 * the reader made it */
#define ARM_EARLY	early = true
#define wr_rmb()	early = false
#else
#define m_prv		prv
#define RWST_PRV(i, v)	prv[i] = v
#define WRLD_PRV(dst, i)	dst = prv[i]
#define RWST_NEXT(p, n, fl)	nxt[p] = n; flg[p] = fl; FLAGS_OUT(p)
#define WTAKE(p)	skip
#define rd_flush()	skip
#define ARM_EARLY	skip
#define wr_rmb()	skip
#endif
#define rd_wmb()	rd_flush()

inline head_set(p, pg, old, new, found)
{
	WTAKE(p);
	if
	:: nxt[p] != pg -> found = MOVED
	:: nxt[p] == pg && flg[p] == old ->
#ifndef M_HEAD_SET_RELEASE
		HS_FLUSH;
		flg[p] = new;
#else
		/* an earlier release of this pointer still pending may
		 * reach memory first, with the stores before it */
		if
		:: FLAG_PENDING(p) -> release_out()
		:: true
		fi;
		flg[p] = new;		/* pending for the reader's loads */
#endif
		found = old
	:: nxt[p] == pg && flg[p] != old -> found = flg[p]
	fi
}

/* smp_wmb() of the writers */
#ifdef M_HEAD_SET_RELEASE
#define WMB()		wflush(); flags_flush()
#else
#define WMB()		wflush()
#endif

/* Every slot below the commit index holds a whole event or padding */
inline check_published(p, upto)
{
#ifndef NO_COMMIT_CHECK
	assert(upto <= CAP);
	assert(upto < 1 || dat[p * CAP] != 0);
	assert(upto < 2 || dat[p * CAP + 1] != 0)
#else
	skip
#endif
}

/* The count of committed events never falls short of those read or lost */
inline check_entries()
{
	assert(committed >= nread + overrun)
}

/* The events whose slots page p holds (padding and reset slots aside) */
inline events_on(p, n)
{
	n = 0;
	if
	:: dat[p * CAP] != 0 && dat[p * CAP] != PAD -> n++
	:: else
	fi;
	if
	:: dat[p * CAP + 1] != 0 && dat[p * CAP + 1] != PAD &&
	   dat[p * CAP + 1] != dat[p * CAP] -> n++
	:: else
	fi
}

/*
 * lrb_count_committed(), from its first load of the claims (seen_claims, in
 * the caller's step): claims - crossings, the loads taken again if a nested
 * writer claimed in between. The count is stored for the statistics reader
 * only (STATS); the ghost check_entries() compares it with what is read and
 * lost.
 */
inline count_committed()
{
	do
	:: HOOK(COMMIT_AFTER);
#if ANYWHERE
	   atomic { seen_cross = crossings };
	   IRQ(at_count_check);
	   if
	   :: atomic { seen_claims == claims -> skip };
	      IRQ(at_count_store);
	      atomic { WST_COUNT(seen_claims - seen_cross); check_entries() };
	      break
	   :: atomic { seen_claims != claims -> seen_claims = claims }
	   fi
#else
	   atomic {
		seen_cross = crossings;
		if
		:: seen_claims == claims ->
			WST_COUNT(seen_claims - seen_cross);
			check_entries();
			break
		:: else -> seen_claims = claims
		fi }
#endif
	od
}

/* ---- writers ----------------------------------------------------------- */

proctype Writer(byte me) provided (cur + 1 == _pid)
{
	byte sz, tp, np, cp, t2, nh, w, tl, id, typ, ret, ent, f;
	byte ov, oc, oi;		/* the write word a reset expects */
	byte depth, cpg, cindex, seen_claims, seen_cross, loops;
	bool last;			/* the commit is on the tail page */
	bool moved;			/* this attempt moved the tail itself */
	bool early;			/* W_RPTR: the recheck of the prev
					   pointer may be taken at its first load */
	byte left = (me == 0 -> PREP + OUTER : 1);

end_idle:
	do
	:: left > 0 ->
#if RDCPU
		/* the outer writer between two writes: the reader may run */
		if
		:: me == 0 ->
			do
			RD_ARRIVE(at_idle)
			:: break
			od
		:: else
		fi;
#endif
		/* lrb_write(): lrb_reserve_event(): committing, a load and a store */
		atomic {
			prepped = prepped || (me == 0 && left <= OUTER);
			if
			:: !prepped -> sz = PREP_SZ
#if SIZES != 2
			:: prepped -> sz = 1
#endif
#if SIZES > 1
			:: prepped -> sz = 2
#endif
			fi;
			writes++;
#if !ANYWHERE
			committing++;
#else
			depth = committing;
#endif
			printf("LRB %d write %d\n", me, sz)
		};
#if ANYWHERE
		IRQ(at_depth_store);
		atomic { committing = depth + 1; depth = 0 };
#endif
attempt:
		HOOK(STAMP);
		/* A: the tail page; B: the claim; C: the reservation */
		atomic {
			tp = tail;
			hit = hit & ~(1 << me);
			inatt = inatt | (1 << me);
			moved = false;
#if !ANYWHERE
			claims++;
#endif
			skip
		};
		IRQ(at_claim);
#if ANYWHERE
		claims++;
		IRQ(at_reservation);
#endif
		atomic {
			widx[tp] = widx[tp] + sz;
			WSTA(wcnt, tp, wcnt[tp] + 1);
			w = widx[tp];
			tl = w - sz;
			if
			:: w <= CAP ->
				nev++;
				id = nev;
				ev_sz[id] = sz;
				resv[tp * CAP + tl] = id;
				assert(own[tp * CAP + tl] == 0);
				own[tp * CAP + tl] = me + 1;
				if
				:: sz == 2 ->
					resv[tp * CAP + tl + 1] = id;
					assert(own[tp * CAP + tl + 1] == 0);
					own[tp * CAP + tl + 1] = me + 1
				:: else
				fi
			:: else -> id = 0
			fi;
			lrb_show(me, reserve)
		};
		HOOK(RESERVED);
		if
		:: w > CAP -> goto move_tail
		:: else
		fi;
		/*
		 * The payload: the slots must still be this writer's. Its stores
		 * are one step: they lie in this writer's reservation, which no
		 * other writer touches and no reader reads before the commit.
		 */
		atomic {
			hit = hit & ~(1 << me); inatt = inatt & ~(1 << me);
			assert(resv[tp * CAP + tl] == id);
			assert(own[tp * CAP + tl] == me + 1);
			own[tp * CAP + tl] = 0;
			WSTA(dat, tp * CAP + tl, id);
			if
			:: sz == 2 ->
				assert(resv[tp * CAP + tl + 1] == id);
				assert(own[tp * CAP + tl + 1] == me + 1);
				own[tp * CAP + tl + 1] = 0;
				WSTA(dat, tp * CAP + tl + 1, id)
			:: else
			fi;
			lrb_show(me, payload)
		};
		goto end_commit;

move_tail:
		/* lrb_move_tail() */
		crossings++;
		HOOK(MOVE_TAIL);
		atomic { WTAKE(tp); np = nxt[tp] SPLIT(at_next_page) cp = commit };
#ifndef M_NO_NEXT_COMMIT_CHECK
		if
		:: np == cp ->
			/* nested writers went all the way round */
			commit_overrun++;
			goto failed
		:: else
		fi;
#endif
		IRQ(at_flags);
		atomic { WTAKE(tp); f = (nxt[tp] != np -> MOVED : flg[tp]) };
		if
		:: f != NORMAL ->
#if OVERWRITE
			/* lrb_commit_on_reader_page(commit_page): its prev, then
			 * prev's next; with W_RPTR both loads may miss the reader's
			 * pending stores */
			IRQ(at_prev_next);
			atomic { WRLD_PRV(t2, cp); ARM_EARLY; printf("LRB %d load %e %d\n", me, ld_prev, t2) };
			HOOK(COMMIT_PREV);
			atomic {
				WTAKE(t2);
				f = (nxt[t2] != cp); ret = (cp == rdpg);
				printf("LRB %d load %e %d\n", me, ld_prev_next, nxt[t2]);
				/* smp_rmb(): prev's next before the prev pointer again;
				 * pairs with the reader's smp_wmb() before it points its
				 * page's next (the prev pointer its last swap fixed is
				 * out before that next) */
#ifndef M_NO_RMB_COMMIT_PREV
				wr_rmb();
#endif
				early = early && f
			};
#ifdef M_NO_READER_PAGE_CHECK
			f = false;
#endif
#ifndef M_READER_PAGE_STALE
			/*
			 * cp's prev pointer may be stale: the reader fixes it after
			 * its swap, and a page it has taken since and rewritten for
			 * its next swap makes a ring page look like the reader page.
			 * The prev pointer again: if it moved, look again (the reader
			 * fixes it before it rewrites that page's next: docs/model.md,
			 * "A stale prev pointer"; lrb_commit_on_reader_page()).
			 */
			if
			:: f ->
				IRQ(at_prev_next);
				/* memory's value, or a pending store of the reader that
				 * reaches memory now, or (no read barrier) the value of the
				 * first load */
				if
				:: atomic { m_prv[cp] != t2 -> ret = 0; f = 0; early = false;
					printf("LRB %d load %e %d\n", me, ld_prev_again, m_prv[cp]) }; goto again
				:: atomic { m_prv[cp] != prv[cp] && prv[cp] != t2 ->
					m_prv[cp] = prv[cp]; hit = hit | inatt; ret = 0; f = 0; early = false;
					printf("LRB %d load %e %d\n", me, ld_prev_again, m_prv[cp]) };
				   goto again
				:: atomic { m_prv[cp] == t2 -> early = false;
					printf("LRB %d load %e %d\n", me, ld_prev_again, t2) }
				/* (a pending store back to the first load's value) */
				:: atomic { m_prv[cp] != prv[cp] && prv[cp] == t2 -> m_prv[cp] = prv[cp]; hit = hit | inatt; early = false;
					printf("LRB %d load %e %d\n", me, ld_prev_again, t2) }
				:: atomic { early -> early = false;
					printf("LRB %d load %e %d\n", me, ld_prev_early, t2) }
				fi;
				/* and np, read before, must still follow tp: the
				 * reader may have swapped since (the commit page
				 * may be its page now, and np stale) */
				IRQ(at_flags);
#if (WEAK & W_RPTR)
				atomic { WTAKE(tp) };
#endif
				if
				:: atomic { nxt[tp] != np -> ret = 0; f = 0 }; goto again
				:: atomic { nxt[tp] == np -> skip }
				fi
			:: else
			fi;
#endif
			if
			:: f ->
				IRQ(at_tail_check);
				/* the verdict, where it is acted on (ret: the commit is on
				 * the reader page; once there it stays until the writers
				 * move it): a drop as a commit overrun */
				if
				:: atomic { cp != tail ->
					ret = (cp == rdpg);
					assert(ret);
					ret = 0;
					commit_overrun++ };
				   goto failed
				/* or the tail goes on past the head without a push */
				:: atomic { cp == tail -> ret = (cp == rdpg); assert(ret); ret = 0 }
				fi
			:: else ->
				ret = 0;
				goto handle_head
			fi
#else
			IRQ(at_flags);
			atomic {
				WTAKE(tp);
				f = (nxt[tp] != np -> MOVED : flg[tp]);
				/* a drop only on a full ring: the head holds events */
				assert(f == MOVED || filled[np])
			};
			if
			:: f == MOVED -> goto again
			:: else ->
				dropped++;
				goto failed
			fi
#endif
		:: else
		fi;
		goto tail_update;

handle_head:
		/* lrb_handle_head_page(): the head's events are all committed */
		atomic { ent = wcnt[np] };
		HOOK(HEAD_UPDATE_BEFORE);
		atomic { WST(pushing, pushing + 1) };
		IRQ(at_pushing_inc);
		atomic {
			head_set(tp, np, HEADER, UPDATE, typ);
			if
			:: typ == HEADER ->
				/* the push: a full page's events are lost (oi) */
				assert(filled[np]);
				filled[np] = false;
				pushed++;
				events_on(np, oi)
			:: else
			fi;
			lrb_show(me, set_update)
		};
		if
		:: typ != HEADER -> IRQ(at_pushing_dec); atomic { WST(pushing, pushing - 1) }
		:: else
		fi;
		HOOK(HEAD_UPDATE_AFTER);
		if
		:: typ == HEADER ->
			/* this writer owns the push: the old head's events are lost */
			atomic {
				/* the count read before the push is the events it lost */
				assert(ent == oi);
				oi = 0;
				WST(overrun, overrun + ent);
				check_entries()
			};
			IRQ(at_overrun);
			pages_lost++
		:: typ == UPDATE		/* help the writer it interrupted */
		:: typ == NORMAL || typ == MOVED -> goto again
		:: else -> assert(false)
		fi;
		IRQ(at_new_head);
		atomic { WTAKE(np); nh = nxt[np] };
		HOOK(NEW_HEAD_BEFORE);
		atomic { head_set(np, nh, NORMAL, HEADER, ret); lrb_show(me, set_header) };
		HOOK(NEW_HEAD_AFTER);
		assert(ret != UPDATE);
		if
		:: ret == NORMAL ->
			/* nested writers may have pushed further: a stale HEADER */
			atomic { t2 = tail };
			if
			:: t2 != tp && t2 != np ->
				HOOK(STALE_HEAD);
#ifndef M_NO_STALE_RESET
				atomic { head_set(np, nh, HEADER, NORMAL, ret); lrb_show(me, reset_stale) }
#else
				skip
#endif
			:: else
			fi
		:: else
		fi;
		if
		:: typ == HEADER ->
			/* only the writer that set UPDATE clears it */
			HOOK(HEAD_NORMAL_BEFORE);
			atomic { head_set(tp, np, UPDATE, NORMAL, ret); lrb_show(me, clear_update) };
			IRQ(at_pushing_dec);
			atomic { WST(pushing, pushing - 1) };
			assert(ret == UPDATE)
		:: else
		fi;

tail_update:
		/* lrb_tail_page_update(): bump the version, then reset */
		IRQ(at_tail_reread);
		atomic {
#ifndef M_TAIL_NO_VERSION
			WSTA(wver, np, wver[np] + 1);
#if VER_MOD > 0
			if
			:: VER_OF(wver[np]) == 0	/* the narrow version wraps */
			:: else
			fi;
#endif
#endif
			ov = wver[np]; oc = wcnt[np]; oi = widx[np]
#ifndef M_NO_TAIL_RECHECK
			SPLIT(at_tail_recheck)
			t2 = tail
#endif
		};
#ifndef M_NO_TAIL_RECHECK
		if
		:: t2 != tp -> goto again
		:: else
		fi;
#endif
		HOOK(TAIL_RESET);
		atomic {
			if
			:: VER_OF(wver[np]) == VER_OF(ov) && wcnt[np] == oc && widx[np] == oi ->
				assert(own[np * CAP] == 0 && own[np * CAP + 1] == 0);
				WSTA(wcnt, np, 0);
				widx[np] = 0;
				WSTA(dat, np * CAP, 0); WSTA(dat, np * CAP + 1, 0);
				resv[np * CAP] = 0; resv[np * CAP + 1] = 0
			:: else
			fi;
			lrb_show(me, reset_next)
		};
		IRQ(at_commit_zero);
		atomic { WSTA(cidx, np, 0) };
		HOOK(TAIL_BEFORE);
		atomic {
			if
			:: tail == tp ->
				/* the tail never moves onto the commit */
				assert(np != commit);
				tail = np;
				moved = true;
				/* tp is full; the reader page the tail leaves is the reader's */
				filled[tp] = (tp != rdpg)
			:: else
			fi;
			lrb_show(me, tail_moved)
		};
		HOOK(TAIL_AFTER);

again:
		/* lrb_reset_tail(), then the next attempt. The padding and the
		 * give-back are one step: the padding lies in this writer's own
		 * reservation, which no other writer reads before the give-back */
		atomic {
			if
			:: tl >= CAP -> widx[tp] = widx[tp] - sz
			:: else ->
				WSTA(dat, tp * CAP + tl, PAD);
				if
				:: tl == 0 -> WSTA(dat, tp * CAP + 1, PAD)
				:: else
				fi;
				widx[tp] = widx[tp] - (tl + sz - CAP)
			fi;
			WSTA(wcnt, tp, wcnt[tp] - 1);
			/* no retry without a cause: the tail this attempt moved, or
			 * the ring changed under it (a bound on retries) */
			assert(moved || (hit & (1 << me)));
			np = 0; cp = 0; t2 = 0; nh = 0; typ = 0; ret = 0; ent = 0; f = 0;
			ov = 0; oc = 0; oi = 0;
			lrb_show(me, crossed)
		};
		goto attempt;

failed:
		atomic {
			hit = hit & ~(1 << me); inatt = inatt & ~(1 << me);
			if
			:: tl >= CAP -> widx[tp] = widx[tp] - sz
			:: else ->
				WSTA(dat, tp * CAP + tl, PAD);
				if
				:: tl == 0 -> WSTA(dat, tp * CAP + 1, PAD)
				:: else
				fi;
				widx[tp] = widx[tp] - (tl + sz - CAP)
			fi;
			WSTA(wcnt, tp, wcnt[tp] - 1);
			lrb_show(me, write_failed)
		};

end_commit:
		/* lrb_end_commit(): committing, a load */
		atomic { depth = committing };
commit_round:
#ifndef M_NESTED_COMMIT
		if
		:: depth != 1 ->
			IRQ(at_commit_store);
			atomic { committing = depth - 1 };
			goto written
		:: else
		fi;
#endif
		/*
		 * lrb_set_commit_to_write(): on each page the commit moves across,
		 * and then on the tail page, the write index, the count of committed
		 * events (lrb_count_committed()), the commit index. The count comes
		 * between the two: every event a reader can take, or a writer push
		 * away, is counted before its index is stored, so that committed -
		 * read - overrun never goes below zero (check_entries()).
		 */
		cp = commit;
		HOOK(COMMIT_BEFORE);
commit_page:
		atomic {
			/*
			 * The commit meets the tail within a ring from the reader
			 * page, and a page further for each nested write that comes
			 * in at COMMIT_AFTER and moves the tail (an empty page takes
			 * an event before the tail leaves it): it never passes the
			 * tail.
			 */
			last = (cp == tail);
			if
			:: last -> loops = 0
			:: else -> loops++; assert(loops <= PAGES + NEST)
			fi
			SPLIT(at_write_index)
			w = widx[cp];
#ifndef M_COUNT_AFTER_PUBLISH
			/* the count's first load of the claims: no interrupt comes
			 * in between, and the reader touches neither */
			seen_claims = claims
#endif
		};
#ifndef M_COUNT_AFTER_PUBLISH
		count_committed();
#endif
		IRQ(at_index_store);
		atomic {
			/* lrb_writer_wmb(): event data, write word and count before
			 * the index; pairs with the smp_rmb()s of lrb_reader_size()
			 * and lrb_cpu_counts() (the second). The C code has one on
			 * the pages the commit moves across and one on the tail page:
			 * the mutations remove either or both */
#if defined(M_NO_WMB_INDEX_LOOP)
			if :: last -> WMB() :: else fi;
#elif defined(M_NO_WMB_INDEX_TAIL)
			if :: !last -> WMB() :: else fi;
#elif !defined(M_NO_WMB_INDEX)
			WMB();
#endif
			check_published(cp, w);
			WSTA(cidx, cp, w);
			if
			:: last -> cpg = cp; cindex = w
			:: else
			fi;
			lrb_show(me, commit_idx)
		};
		if
		:: !last ->
			atomic { WTAKE(cp); cp = nxt[cp] };
			IRQ(at_commit_page_store);
			atomic {
				/* smp_wmb(): the old page's final commit index before the
				 * commit page moves; pairs with the smp_rmb()s of
				 * lrb_reader_look() and lrb_read_page() */
#ifndef M_NO_WMB_COMMIT_PAGE
				WMB();
#endif
				WST(commit, cp);
				lrb_show(me, commit_moved)
			};
			goto commit_page
		:: else
		fi;
#ifdef M_COUNT_AFTER_PUBLISH
		/* the old order: counted once, after the whole publish */
		seen_claims = claims;
		count_committed();
#endif
#ifdef M_NESTED_COMMIT
		if
		:: depth != 1 -> committing = depth - 1; goto written
		:: else
		fi;
#endif
#ifndef M_CLEAR_AFTER_RECHECK
		committing = 0;
		IRQ(at_committing_clear);
#endif
		/* a writer that came in after the index was read is pending */
#ifndef M_NO_END_RECHECK
#if ANYWHERE
		atomic { t2 = tail };
		IRQ(at_recheck_index);
#define RECHECK_TAIL	t2
#else
#define RECHECK_TAIL	tail
#endif
		if
		:: atomic { RECHECK_TAIL == cpg && widx[cpg] == cindex -> t2 = 0; lrb_show(me, commit_done) }
		:: else ->
#ifdef M_CLEAR_AFTER_RECHECK
			skip;
#else
			committing = 1;
#endif
			t2 = 0;
			depth = 1;
			goto commit_round
		fi;
#endif
#ifdef M_CLEAR_AFTER_RECHECK
		/* the re-check before committing = 0: a writer coming in between
		 * sees itself nested and leaves its event to nobody */
		IRQ(at_committing_clear);
		committing = 0;
#endif
written:
		/* dead locals cleared: states differ only in what matters */
		atomic {
			sz = 0; tp = 0; np = 0; cp = 0; t2 = 0; nh = 0; w = 0; tl = 0;
			id = 0; typ = 0; ret = 0; ent = 0; f = 0; ov = 0; oc = 0; oi = 0;
			depth = 0; cpg = 0; cindex = 0; seen_claims = 0; seen_cross = 0; last = false;
			moved = false
		};
		if
		:: me > 0 ->
			/* back to the writer it interrupted */
			cur = me - 1;
end_return:		skip
		:: else -> left--
		fi
	:: atomic { left == 0 && me == 0 ->
		/* no barrier is pending for ever: the stores reach memory */
		WMB();
		wdone = true; cur = RDCUR }
	od
}

/* ---- the reader -------------------------------------------------------- */

/* The ring is quiet and whole; the counters add up */
inline final_checks()
{
	assert(committing == 0 && pushing == 0);
	assert(tail == commit && cidx[tail] == widx[tail]);
	/* walk the ring from the page after the reader page */
	i = nxt[rpage];
	pg = 0;
	ok = 0;
	for (j : 1 .. PAGES) {
		assert(i != rpage);
		assert(prv[nxt[i]] == i);
		assert(!filled[i]);		/* every full page read or pushed */
		if
		:: flg[i] == HEADER -> pg++
		:: flg[i] == UPDATE -> assert(false)
		:: else
		fi;
		i = nxt[i]
	}
	assert(i == nxt[rpage]);	/* a circle of PAGES pages */
	assert(pg == 1);		/* exactly one HEADER */
	assert(committed == nev);
	assert(nread + overrun == committed);
	assert(nread == nread_seen);
	assert(lost_seen == overrun);
	assert(nev == 0 || last_id == nev);
	/* every write either wrote its event or failed and was counted once */
	assert(writes == nev + dropped + commit_overrun);
	/* each head push lost one full page, counted in pages_lost */
	assert(pages_lost == pushed);
#if !OVERWRITE
	assert(overrun == 0 && pages_lost == 0);
#else
	assert(dropped == 0);
#endif
#if !RDCPU
	assert(busy == 0)
#else
	skip
#endif
}

/*
 * One event read at the reader's position, its slots as loaded (s0, s1):
 * whole, newer than the last one read, and the events between them are
 * exactly those reported lost.
 */
inline take_event(missed, a0, a1)
{
	id = a0;
	assert(id != 0 && id <= nev);
	assert(read_pos + ev_sz[id] <= size);
	assert(ev_sz[id] == 1 || a1 == id);
	assert(id > last_id);
	/* no writer holds a slot the reader reads */
	assert(own[rp * CAP + read_pos] == 0);
	lost_seen = lost_seen + missed;
	/* no loss is reported before it happened: id - 1 - nread_seen were */
	assert(lost_seen <= id - 1 - nread_seen);
#if EXACT_LOST
	/* and each with the first event read after it */
	assert(lost_seen == id - 1 - nread_seen);
#endif
	last_id = id;
	read_pos = read_pos + ev_sz[id];
	nread_seen++
}

/* The reader holds the event it returned until its next read */
inline hold_event(p, at, sz)
{
	own[p * CAP + at] = RD;
	if
	:: sz == 2 -> own[p * CAP + at + 1] = RD
	:: else
	fi
}

inline release_held()
{
	for (j : 0 .. NP * CAP - 1) {
		if
		:: own[j] == RD -> own[j] = 0
		:: else
		fi
	}
	j = 0
}

#if RDCPU
#define RD_PROVIDED	provided (cur == RDCUR)
#else
#define RD_PROVIDED
#endif

proctype Reader() RD_PROVIDED
{
	byte rp, cpg, size, hd, pv, pg, i, j, f, nn, hv, ov, id, swaps, missed, ent, n, s0, s1;
	bool ok, quiet, drain, whole;

end_read:
	do
	:: (READER && prepped) || wdone ->
		/* a read call: the reader lock orders its loads after the last
		 * call's (fl_reset()); the event the last call returned is the
		 * reader's no more */
		atomic {
			drain = wdone;
			whole = false;
			release_held();
			fl_reset()
		};
#if READ_PAGE
		if
		:: whole = true
		:: whole = false
		fi;
#endif
#if STATS
		if
		:: !drain -> goto read_stats
		:: true
		fi;
#endif
		swaps = 0;
#ifdef M_NO_RMB_LOOK
		/* the size may be loaded before the commit page */
		atomic { ARMP(FL_CIDX, fl_cidx_pg, rpage) };
#endif
get_page:
		/* lrb_get_reader_page(), lrb_reader_look() */
#ifndef M_KERNEL_ORDER
		RAT(READER_LOOK) atomic {
			READY(FL_COMMIT) ->
			rp = rpage;
			TAKE(FL_COMMIT, fl_commit, cpg, RLD(cpg, commit));
			/* smp_rmb(): pairs with the smp_wmb() before the commit page moves */
#ifndef M_NO_RMB_LOOK
			fl_reset();
#endif
#ifdef M_NO_RMB_SIZE
			/* the events may be loaded before the size */
			ARMP(FL_DAT, fl_dat_at, rp * CAP + read_pos);
#endif
			skip
		};
		RHOOK(READER_PAGE);
		atomic {
			READY(FL_CIDX) ->
			TAKE(FL_CIDX, fl_cidx, size, RLDA(size, cidx, rp));
			/* smp_rmb() of lrb_reader_size(): pairs with lrb_writer_wmb() */
#ifndef M_NO_RMB_SIZE
			fl_reset();
#endif
			/* the next lrb_reader_look() of this call, after padding:
			 * the commit page */
			if
			:: read_pos < size -> ARM(FL_COMMIT)
			:: else
			fi;
#ifdef M_NO_RMB_WALK
			ARM(FL_PUSH);
			quiet = wdone;
#endif
#ifdef M_NO_RMB_LOOK
			ARMP(FL_CIDX, fl_cidx_pg, rp);
#endif
#ifdef M_NO_RMB_READ_PAGE
			if
			:: whole -> ARMP(FL_CNT, fl_cnt_pg, rp); ARMP(FL_DAT, fl_dat_at, rp * CAP)
			:: else
			fi;
#endif
			skip
		};
		if
		:: read_pos < size -> goto got_page
		:: else
		fi;
#else
		/* the kernel's order: the size, then where the commit is */
		RAT(READER_LOOK) atomic { rp = rpage; RLDA(size, cidx, rp) };
		RHOOK(READER_PAGE);
		if
		:: read_pos < size -> goto got_page
		:: else
		fi;
		RLD(cpg, commit);
#endif
#ifndef M_SWAP_COMMIT_PAGE
		if
		:: cpg == rp -> goto nothing
		:: else
		fi;
#endif
		swaps++;
#ifndef M_SWAP_COMMIT_PAGE
		assert(swaps <= 3);
#else
		if
		:: swaps > 3 -> goto nothing	/* the WARN_ON_ONCE() */
		:: else
		fi;
#endif

		/* lrb_swap_reader_page(): lrb_reset_page() keeps the version */
		atomic { f = wver[rp] };
		atomic {
			/* no writer holds a slot of the reader's page */
			assert(own[rp * CAP] == 0 && own[rp * CAP + 1] == 0);
			RSTA(wver, rp, f); RSTA(wcnt, rp, 0); widx[rp] = 0;
			RSTA(cidx, rp, 0);
			RSTA(dat, rp * CAP, 0); RSTA(dat, rp * CAP + 1, 0);
			resv[rp * CAP] = 0; resv[rp * CAP + 1] = 0;
			read_pos = 0;
			lrb_show(RD, reset_page)
		};
find_head:
		/* quiet: the writers had stopped before the loads of this search
		 * could be taken (with M_NO_RMB_WALK, from the barrier that armed
		 * the push count) */
#ifndef M_NO_RMB_WALK
#define QUIET_AT_FIND	wdone
#else
#define QUIET_AT_FIND	(quiet && wdone)
#endif
		RAT(READER_FIND) quiet = QUIET_AT_FIND;
		/* lrb_find_head(): from the page before the hint */
		atomic { pg = prv[hint]; i = 0 };
		do
		:: atomic { i < PAGES -> RD_FLAGS(pg, f, nn); i++;
			if
#ifndef M_HEADER_UNDER_UPDATE
			:: f != NORMAL -> break
#else
			/* the walk passes an UPDATE and takes the HEADER after it */
			:: f == HEADER -> break
			:: f == UPDATE -> pg = nn
#endif
			:: else -> pg = nn
			fi }
		:: atomic { i >= PAGES -> break }
		od;
		atomic {
			hd = nn;
			pv = pg;
			/* smp_rmb(): the walk before the push count and the rest;
			 * pairs with the cmpxchgs that set the flags */
#ifndef M_NO_RMB_WALK
			fl_reset();
#endif
			/* window: the push count, then (floating) the commit page,
			 * the head's commit index and version */
			ARM(FL_COMMIT);
			ARMP(FL_CIDX, fl_cidx_pg, hd);
			ARMP(FL_VER, fl_ver_pg, hd);
#ifdef M_NO_RMB_VERSION
			ARMP(FL_HDR, fl_hdr_pg, pv);
#endif
			skip
		};
#ifndef M_HEADER_UNDER_UPDATE
		atomic {
			READY(FL_PUSH) ->
			TAKE(FL_PUSH, fl_push, n, RLD(n, pushing));
			ok = (f == UPDATE || (f != NORMAL && n > 0))
		};
#ifndef M_NO_PUSHING_CHECK
		if
		:: ok -> goto spin
		:: else
		fi;
#else
		if
		:: f == UPDATE -> goto spin
		:: else
		fi;
#endif
#endif
		if
		:: f == NORMAL -> goto retry
		:: else
		fi;
		atomic { hint = hd; n = 0; ok = false; lrb_show(RD, head_found) };
		/* nothing committed on the head yet: nothing to take */
		atomic { READY(FL_COMMIT) -> TAKE(FL_COMMIT, fl_commit, cpg, RLD(cpg, commit)) };
#ifndef M_NO_EMPTY_HEAD_CHECK
		if
		:: hd == cpg ->
			atomic { READY(FL_CIDX) -> TAKE(FL_CIDX, fl_cidx, f, RLDA(f, cidx, hd)) };
			if
			:: f == 0 -> goto nothing
			:: else
			fi
		:: else
		fi;
#endif
		/* the reader page takes the head's place */
		RAT(READER_HEAD_FOUND) atomic { nn = nxt[hd] };
		atomic {
			/* smp_wmb(): the prev pointer the last swap fixed before
			 * this page's next; pairs with the smp_rmb() of
			 * lrb_commit_on_reader_page() */
#ifndef M_NO_WMB_READER_NEXT
			rd_wmb();
#endif
			RWST_NEXT(rp, nn, HEADER); RWST_PRV(rp, pv);
			/* a writer with a stale prev pointer reads these */
			hit = hit | inatt;
#if (WEAK & W_RPTR)
			/* a step line: the store is pending, the drawing shows
			 * memory's next pointers */
			lrb_show(RD, point_next);
#endif
			skip };
		/*
		 * The head page's version, then the HEADER again, then the
		 * overrun. Pushes that take the head a whole lap round the ring
		 * before the swap put the HEADER back on pv's pointer and the swap
		 * does not fail; the tail's reset on the lap bumps the head page's
		 * version, which the reader compares after the swap. A lap that
		 * started before the version read has moved the HEADER off pv's
		 * pointer by then: the check sends the reader back to the walk,
		 * unless the lap ended before it too, and then the overrun read
		 * after it counts all of the lap (docs/model.md, "late loss
		 * report").
		 */
		atomic {
			READY(FL_VER) ->
			TAKE(FL_VER, fl_ver, hv, RLDA(hv, wver, hd));
			lrb_show(RD, read_version);
			/* smp_rmb(): pairs with the push's cmpxchg, which precedes the reset */
#ifndef M_NO_RMB_VERSION
			fl_reset();
#endif
#ifdef M_NO_RMB_HEADER
			ARM(FL_OV);
#endif
			skip
		};
#ifndef M_NO_HEADER_RECHECK
		/* one load of pv's next pointer, its flag with it */
		atomic {
			READY(FL_HDR) ->
			lrb_show(RD, header_check);
#if WEAK
			if
			:: fl_got & FL_HDR -> f = fl_hf; nn = fl_hn; fl_hf = 0; fl_hn = 0; fl_got = fl_got & ~FL_HDR
			:: else -> RD_FLAGS(pv, f, nn)
			fi;
#else
			RD_FLAGS(pv, f, nn);
#endif
			if
			:: nn == hd && f == HEADER
			:: else -> goto retry
			fi;
			/* smp_rmb(): the pushes before that HEADER; pairs with their cmpxchgs */
#ifndef M_NO_RMB_HEADER
			fl_reset();
#endif
#ifdef M_SWAP_RELAXED
			ARMP(FL_VER, fl_ver_pg, hd);
			ARM(FL_OV);
#endif
			skip
		};
#endif
		atomic {
			READY(FL_OV) ->
			TAKE(FL_OV, fl_ov, ov, RLD(ov, overrun));
			/* the recheck's load of the overrun comes after this one */
			AGAIN(FL_OV);
			lrb_show(RD, read_overrun)
		};
		RHOOK(READER_BEFORE_SWAP);
		atomic {
			/* the cmpxchg reads the latest value, failed or not: the
			 * reader's loads of that pointer see no older one after it */
			FLAGS_SEEN(pv);
			if
			:: nxt[pv] == hd && flg[pv] == HEADER ->
				/* fully ordered: the reader's stores before it reach
				 * the writers first (W_RPTR) */
				rd_flush();
				nxt[pv] = rp; flg[pv] = NORMAL; FLAGS_OUT(pv); ok = true;
				rdpg = hd;
				/* writers in flight may find their head gone */
				hit = hit | inatt;
				/* the reader's page goes into the ring, empty */
				filled[rp] = false;
				/* fully ordered: the loads after it are taken after it;
				 * pairs with the flag cmpxchgs of lrb_head_set() */
#ifndef M_SWAP_RELAXED
				fl_reset();
				ARMP(FL_VER, fl_ver_pg, hd);
				ARM(FL_OV);
#endif
				/* and the next lrb_reader_look()'s commit page */
				ARM(FL_COMMIT);
#ifdef M_NO_RMB_LOOK
				ARMP(FL_CIDX, fl_cidx_pg, hd);
#endif
#if RECHECK_AT_SWAP
				/* lap_recheck's step, at once */
				if
				:: RVER_OF(wver[hd]) != RVER_OF(hv) -> ov = overrun
				:: else
				fi;
#endif
				skip
			:: else -> ok = false
			fi;
			lrb_show(RD, swap)
		};
		if
		:: ok -> goto swapped
		:: else
		fi;
		RHOOK(READER_SWAP_FAILED);
		goto retry;
spin:
		RHOOK(READER_SPIN);
#if RDCPU
		/* on the writers' CPU, over a writer in flight: return, busy */
		if
		:: committing > 0 ->
#ifndef M_RDCPU_SPIN
			/* the C code's hook point comes after the count: the count is
			 * the reader's own, so the label may sit on the step */
			RAT(READER_BUSY) atomic { busy++; lrb_show(RD, READER_BUSY) };
			goto nothing
#else
			skip
#endif
		:: else
		fi;
#endif
retry:
		/* once the writers stopped, the first look succeeds; on the
		 * writers' CPU it never spins */
		assert(!quiet);
#if RDCPU && !defined(M_RDCPU_SPIN)
		spun = true;
		assert(!spun);
#endif
#ifdef M_NO_RMB_WALK
		atomic { ARM(FL_PUSH); quiet = wdone };
#endif
		goto find_head;
swapped:
		/*
		 * The version moved since it was read: the writers went round the
		 * ring and the overrun read before the swap misses the lap's
		 * pushes; read now, it counts them. lrb has no hook point here,
		 * so the step has a plain label, which the label check leaves out.
		 */
lap_recheck:
#if !defined(M_NO_LAP_RECHECK) && !RECHECK_AT_SWAP
		atomic {
			READY(FL_VER | FL_OV) ->
			TAKE(FL_VER, fl_ver, f, RLDA(f, wver, hd));
			if
			:: RVER_OF(f) != RVER_OF(hv) ->
				TAKE(FL_OV, fl_ov, ov, RLD(ov, overrun));
				lrb_show(RD, recheck)
			:: else
			fi;
#if WEAK
			/* an overrun load not used goes */
			fl_arm = fl_arm & ~FL_OV; fl_got = fl_got & ~FL_OV; fl_ov = 0;
#endif
			f = 0
		};
#endif
		RHOOK(READER_AFTER_SWAP);
		atomic { nn = nxt[rp] };
		atomic { RWST_PRV(nn, rp); hit = hit | inatt };
		RHOOK(READER_DONE);
		atomic {
			hint = nn;
			rpage = hd;
			filled[hd] = false;
			read_pos = 0;
			lost_events = ov - last_overrun;
			last_overrun = ov;
			lrb_show(RD, take_head)
		};
		goto get_page;

got_page:
		RAT(READER_EVENTS) if
		:: !whole ->
			/* lrb_reader_peek(), lrb_reader_advance() */
			atomic {
				READY(FL_DAT) ->
				TAKE2(FL_DAT, fl_d0, fl_d1, s0, s1,
					RLDA(s0, dat, rp * CAP + read_pos);
					if
					:: read_pos + 1 < CAP -> RLDA(s1, dat, rp * CAP + read_pos + 1)
					:: else -> s1 = 0
					fi);
				if
				:: s0 == PAD -> read_pos = size
				:: else ->
					take_event(lost_events, s0, s1);
					hold_event(rp, read_pos - ev_sz[id], ev_sz[id]);
					nread++;
					lost_events = 0
				fi;
				lrb_show(RD, read_event);
				check_entries()
			};
			if
			:: read_pos == size && s0 == PAD ->
				swaps = 0;
				goto get_page
			:: else
			fi
		:: whole ->
			/* lrb_read_page() */
			missed = lost_events;
			atomic {
				RLD(cpg, commit);
				AGAIN(FL_COMMIT);
				if
				:: read_pos == 0 && rp != cpg ->
					/* smp_rmb(): pairs with the smp_wmb() before the
					 * commit page moves; then the page's index, count and
					 * events, in any order */
#ifndef M_NO_RMB_READ_PAGE
					fl_reset();
					ARMP(FL_CIDX, fl_cidx_pg, rp);
					ARMP(FL_CNT, fl_cnt_pg, rp);
					ARMP(FL_DAT, fl_dat_at, rp * CAP);
#endif
					skip
				:: else
				fi
			};
			if
			:: read_pos == 0 && rp != cpg ->
				/* whole page, writer gone: hand it over */
				atomic {
					READY(FL_CIDX | FL_CNT | FL_DAT) ->
					TAKE(FL_CIDX, fl_cidx, size, RLDA(size, cidx, rp));
					TAKE(FL_CNT, fl_cnt, ent, RLDA(ent, wcnt, rp));
					TAKE2(FL_DAT, fl_d0, fl_d1, s0, s1,
						RLDA(s0, dat, rp * CAP); RLDA(s1, dat, rp * CAP + 1));
					n = nread_seen;
					if
					:: 0 < size && s0 != PAD ->
						take_event(missed, s0, s1); missed = 0;
						if
						:: read_pos < size && s1 != PAD -> take_event(0, s1, 0)
						:: else
						fi
					:: else
					fi;
					assert(nread_seen - n == ent);
					nread = nread + ent;
					RSTA(wcnt, rp, 0);
					RSTA(cidx, rp, 0);
					RSTA(dat, rp * CAP, 0); RSTA(dat, rp * CAP + 1, 0);
					read_pos = 0;
					s0 = 0; s1 = 0;
					lrb_show(RD, read_whole);
					check_entries()
				}
			:: else ->
				/* copy the events below size: committed slots, which
				 * no writer changes while this is the reader's page */
				atomic {
					n = nread_seen;
					do
					:: read_pos < size && dat[rp * CAP + read_pos] == PAD ->
						read_pos = size
					:: read_pos < size && dat[rp * CAP + read_pos] != PAD ->
						s0 = dat[rp * CAP + read_pos];
						s1 = (read_pos + 1 < CAP -> dat[rp * CAP + read_pos + 1] : 0);
						take_event(missed, s0, s1); missed = 0;
						nread++
					:: else -> break
					od;
					s0 = 0; s1 = 0;
					lrb_show(RD, read_whole);
					check_entries()
				};
				if
				:: missed == lost_events && nread_seen == n ->
					/* only the padding: the events go on in the next page */
					swaps = 0;
					goto get_page
				:: else
				fi
			fi;
			lost_events = 0
		fi;
		goto next;
#if STATS
read_stats:
		/*
		 * lrb_cpu_counts(): committed, then read and overrun, then
		 * committed again, each group behind a read barrier; when the two
		 * loads of committed agree, committed >= read + overrun (the
		 * reader's own read count is exact), and every push before the
		 * store of that count is in the overrun read (its cmpxchgs
		 * published the overrun before the count was stored)
		 */
#ifdef M_NO_RMB_STATS_FIRST
		/* no barrier after the first load of committed: the overrun may
		 * be loaded from the read call's start on, before it */
		atomic { ARM(FL_OV) };
#endif
		atomic {
			RLD(i, committed);
			/* smp_rmb(): pairs with lrb_writer_wmb() before each index
			 * and the flag cmpxchgs (the overrun before them) */
#ifndef M_NO_RMB_STATS_FIRST
			fl_reset();
#endif
#ifdef M_NO_RMB_STATS_SECOND
			/* no barrier before the second load of committed: it may
			 * be taken at any time from the first barrier on, before
			 * the overrun too */
			fl_c_arm = ((WEAK & W_COUNT) != 0); fl_c_got = false;
#endif
			skip
		};
		atomic {
			READY(FL_OV) ->
			TAKE(FL_OV, fl_ov, ov, RLD(ov, overrun));
			/* smp_rmb(): the second load of committed after them;
			 * pairs with lrb_writer_wmb() before each index and the
			 * flag cmpxchgs (the overrun before them) */
#ifndef M_NO_RMB_STATS_SECOND
			fl_reset();
#endif
			skip
		};
		atomic {
#if WEAK
			!fl_c_arm ->
			if
			:: fl_c_got -> j = fl_committed; fl_committed = 0; fl_c_got = false
			:: else -> RLD(j, committed)
			fi;
#else
			j = committed;
#endif
			if
			:: i == j ->
				assert(j >= nread + ov);
				/* the pushes before the count: none missing */
				assert(ov >= ovc[i])
			:: else
			fi;
			lrb_show(RD, stats);
			i = 0; j = 0; ov = 0
		};
		goto next;
#endif
nothing:
		if
		:: drain ->
			/* the reader's own view: its stores (W_RPTR) */
			atomic { rd_flush(); final_checks(); checked = true; lrb_show(RD, drained) };
			break
		:: else
		fi;
next:
		atomic {
			rp = 0; cpg = 0; size = 0; hd = 0; pv = 0; pg = 0; i = 0; j = 0;
			f = 0; nn = 0; hv = 0; ov = 0; id = 0; swaps = 0; missed = 0; ent = 0;
			n = 0; ok = false; quiet = false; drain = false; whole = false;
			fl_reset();
#if !RDCPU
			j = 0;
#endif
#if RDCPU
			/* back to the writer it interrupted: cur last, since it
			 * disables this process (its provided clause) */
			if
			:: rirq -> rirq = false; j = rfrom; rfrom = 0; cur = j
			:: else
			fi;
#endif
			skip
		}
	od
}

#if WEAK
/*
 * The reader's floating loads: each armed one is taken at some time between
 * the barrier that armed it and the reader's use of it.
 */
proctype Loads()
{
end_loads:
	do
	:: atomic { fl_arm & FL_COMMIT -> RLD(fl_commit, commit);
		fl_arm = fl_arm & ~FL_COMMIT; fl_got = fl_got | FL_COMMIT;
		printf("LRB 9 load %e %d\n", ld_commit, fl_commit) }
	:: atomic { fl_arm & FL_CIDX -> RLDA(fl_cidx, cidx, fl_cidx_pg);
		fl_arm = fl_arm & ~FL_CIDX; fl_got = fl_got | FL_CIDX; fl_cidx_pg = 0;
		printf("LRB 9 load %e %d\n", ld_cidx, fl_cidx) }
	:: atomic { fl_arm & FL_VER -> RLDA(fl_ver, wver, fl_ver_pg);
		fl_arm = fl_arm & ~FL_VER; fl_got = fl_got | FL_VER; fl_ver_pg = 0;
		printf("LRB 9 load %e %d\n", ld_ver, fl_ver) }
	:: atomic { fl_arm & FL_OV -> RLD(fl_ov, overrun);
		fl_arm = fl_arm & ~FL_OV; fl_got = fl_got | FL_OV;
		printf("LRB 9 load %e %d\n", ld_ov, fl_ov) }
	:: atomic { fl_arm & FL_CNT -> RLDA(fl_cnt, wcnt, fl_cnt_pg);
		fl_arm = fl_arm & ~FL_CNT; fl_got = fl_got | FL_CNT; fl_cnt_pg = 0;
		printf("LRB 9 load %e %d\n", ld_cnt, fl_cnt) }
	:: atomic { fl_arm & FL_DAT -> RLDA(fl_d0, dat, fl_dat_at);
		if
		:: fl_dat_at % CAP + 1 < CAP -> RLDA(fl_d1, dat, fl_dat_at + 1)
		:: else -> fl_d1 = 0
		fi;
		fl_arm = fl_arm & ~FL_DAT; fl_got = fl_got | FL_DAT; fl_dat_at = 0;
		printf("LRB 9 load %e %d %d\n", ld_dat, fl_d0, fl_d1) }
	:: atomic { fl_arm & FL_PUSH -> RLD(fl_push, pushing);
		fl_arm = fl_arm & ~FL_PUSH; fl_got = fl_got | FL_PUSH;
		printf("LRB 9 load %e %d\n", ld_push, fl_push) }
	:: atomic { fl_arm & FL_HDR -> RD_FLAGS(fl_hdr_pg, fl_hf, fl_hn);
		fl_arm = fl_arm & ~FL_HDR; fl_got = fl_got | FL_HDR; fl_hdr_pg = 0;
		printf("LRB 9 load %e %d %d\n", ld_hdr, fl_hn, fl_hf) }
#if STATS
	:: atomic { fl_c_arm -> RLD(fl_committed, committed);
		fl_c_arm = false; fl_c_got = true;
		printf("LRB 9 load %e %d\n", ld_committed, fl_committed) }
#endif
	od
}
#endif

#ifdef LTL_SETTLES
/* No livelock, no starvation: under weak fairness every run ends with the
 * reader's drain and the final checks done */
ltl settles { <> checked }
#endif

init {
	byte i;

	atomic {
		/* lrb_build_empty(): page 0 is the reader page, 1 the head */
		for (i : 1 .. PAGES) {
			nxt[i] = (i % PAGES) + 1;
			prv[i] = ((i + PAGES - 2) % PAGES) + 1
		}
		flg[PAGES] = HEADER;
		nxt[0] = 1;
		prv[0] = PAGES;
		rpage = 0;
		hint = 1;
		tail = 1;
		commit = 1;
#if WEAK
		m_commit = 1;
#endif
#if (WEAK & W_RPTR)
		for (i : 0 .. PAGES) {
			m_prv[i] = prv[i]
		}
#endif
#ifdef M_HEAD_SET_RELEASE
		for (i : 0 .. PAGES) {
			mnxt[i] = nxt[i]; mflg[i] = flg[i]
		}
#endif
		prepped = (PREP == 0);
		for (i : 0 .. DEPTH) {
			run Writer(i)
		}
		run Reader()
#if WEAK
		;
		run Loads()
#endif
	}
}
