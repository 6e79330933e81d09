/*
 * Promela model of one CPU's ring of lib/lockless_ring_buffer.c (lrb) and
 * its reader, for SPIN.  docs/model.md says what is modelled, what is
 * abstracted away and how to run it; the steps below follow the C functions
 * they name, and each label LRB_HOOK_<P> (written HOOK(P) / RHOOK(P)) is the
 * place of the hook point of include/linux/lockless_ring_buffer_test.h of
 * that name (tools/tests/test_model_labels.py keeps the two sets equal).
 *
 * Configuration (spin -D...):
 *   PAGES      data pages of the ring (the reader page comes on top)
 *   DEPTH      nested writer levels above the outer writer
 *   NEST       nested writes in all (each nested writer writes one event)
 *   PREP       events of PREP_SZ slots written first: no nesting, no reader
 *   OUTER      events of the outer writer, one after another, after those
 *   OVERWRITE  1: overwrite mode, 0: producer/consumer
 *   SIZES      1: events of one slot, 2: of two, 3: of one or two slots
 *   READER     1: a reader on another CPU, concurrent with every step;
 *              0: the reader only drains the ring after the writers
 *   READ_PAGE  1: the reader also reads whole pages (lrb_read_page())
 *   LTL_SETTLES  the claim "every run ends with the final checks" (pan -a -f)
 *   NO_COMMIT_CHECK  leave out the check of a commit index at publication
 *   EXACT_LOST 1: each loss reported with the first event read after it, not
 *              only never before it (the lap rechecks of the reader's swap
 *              keep it when the head goes a whole lap round the ring:
 *              docs/model.md, "late loss report")
 * Mutations (each the variant of one step, refuted by SPIN): M_HEADER_UNDER_UPDATE,
 * M_TAIL_NO_VERSION, M_NESTED_COMMIT, M_SWAP_COMMIT_PAGE, M_NO_STALE_RESET,
 * M_KERNEL_ORDER, M_NO_LAP_RECHECK, M_NO_HEADER_RECHECK, M_COUNT_AFTER_PUBLISH;
 * docs/model.md describes each.
 */

#ifndef PAGES
#define PAGES		3
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
#ifndef EXACT_LOST
#define EXACT_LOST	0
#endif

#define NP		(PAGES + 1)	/* pages, the reader page included */
#define CAP		2		/* slots of a page */
#define MAXEV		(PREP + OUTER + NEST)
#define PAD		255		/* a slot of the padding that ends a page */
#define RD		9		/* "depth" of the reader in the step lines */

/* Flags of a next pointer (LRB_PAGE_*), and what lrb_head_set() may return */
#define NORMAL		0
#define HEADER		1
#define UPDATE		2
#define MOVED		4

mtype = { STAMP, RESERVED, MOVE_TAIL, HEAD_UPDATE_BEFORE, HEAD_UPDATE_AFTER,
	  NEW_HEAD_BEFORE, NEW_HEAD_AFTER, STALE_HEAD, HEAD_NORMAL_BEFORE,
	  TAIL_RESET, TAIL_BEFORE, TAIL_AFTER, COMMIT_BEFORE, COMMIT_AFTER,
	  READER_PAGE, READER_BEFORE_SWAP, READER_SWAP_FAILED, READER_SPIN,
	  READER_AFTER_SWAP, READER_DONE,
	  reserve, payload, crossed, write_failed, set_update, set_header,
	  reset_stale, clear_update, reset_next, tail_moved, commit_moved, commit_idx, commit_done,
	  reset_page, head_found, read_version, header_check, read_overrun, recheck, take_head, swap,
	  read_event, read_whole, drained };

/* ---- the ring ---------------------------------------------------------- */

byte nxt[NP];		/* where a page's next pointer points */
byte flg[NP];		/* and its flag: NORMAL, HEADER, UPDATE */
byte prv[NP];		/* prev pointers: the reader's */
byte wver[NP];		/* write word: version (bumped by every reset try), */
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

/* ---- the writers' stack ---------------------------------------------- */

byte cur;		/* depth of the writer running on the ring's CPU */
byte budget = NEST;	/* nested writes left */
bool prepped;		/* the PREP events are written */
bool wdone;		/* the outer writer wrote its events; none in flight */

/* ---- ghost state: what the checks compare the algorithm against ------ */

byte resv[NP * CAP];	/* event id whose reservation holds the slot */
byte ev_sz[MAXEV + 1];	/* slots of each event */
byte nev;		/* events reserved (ids 1..nev, in buffer order) */
byte last_id;		/* id of the last event read */
byte lost_seen;		/* events lost, as the reads were told */
byte nread_seen;	/* events the reader took */
bool checked;		/* the final checks passed */

/* A step line, for trails: who (writer depth, or RD), what, then the ring */
inline lrb_show(who, what)
{
	printf("LRB %d %e t=%d c=%d r=%d h=%d", who, what, tail, commit, rpage, hint);
	printf(" push=%d ov=%d cm=%d rd=%d pos=%d", pushing, overrun, committed, nread, read_pos);
	printf(" |%d:%d:%d:%d:%d:%d", nxt[0], flg[0], widx[0], cidx[0], dat[0], dat[1]);
	printf(" |%d:%d:%d:%d:%d:%d", nxt[1], flg[1], widx[1], cidx[1], dat[2], dat[3]);
	printf(" |%d:%d:%d:%d:%d:%d", nxt[2], flg[2], widx[2], cidx[2], dat[4], dat[5]);
#if NP > 3
	printf(" |%d:%d:%d:%d:%d:%d", nxt[3], flg[3], widx[3], cidx[3], dat[6], dat[7]);
#endif
#if NP > 4
	printf(" |%d:%d:%d:%d:%d:%d", nxt[4], flg[4], widx[4], cidx[4], dat[8], dat[9]);
#endif
#if NP > 5
	printf(" |%d:%d:%d:%d:%d:%d", nxt[5], flg[5], widx[5], cidx[5], dat[10], dat[11]);
#endif
#if NP > 6
	printf(" |%d:%d:%d:%d:%d:%d", nxt[6], flg[6], widx[6], cidx[6], dat[12], dat[13]);
#endif
	printf("\n")
}

/*
 * A hook point of a writer: an interrupt may arrive here and run a nested
 * writer to its end before this one goes on (the provided clause of Writer
 * lets only the writer at depth cur run).
 */
#define HOOK(P) \
LRB_HOOK_##P: \
	do \
	:: atomic { me < DEPTH && budget > 0 && prepped -> budget--; \
		printf("LRB %d nest %e\n", me, P); cur = me + 1 } \
	:: atomic { true -> lrb_show(me, P); break } \
	od

/* A hook point of the reader: a label on its next step */
#define RHOOK(P)	LRB_HOOK_##P: atomic { lrb_show(RD, P) }
/* A reader hook point that draws nothing: a label on the step after it */
#define RAT(P)		LRB_HOOK_##P:

/* lrb_head_set(): cmpxchg of p's next pointer from pg|old to pg|new */
inline head_set(p, pg, old, new, found)
{
	if
	:: nxt[p] != pg -> found = MOVED
	:: nxt[p] == pg && flg[p] == old -> flg[p] = new; found = old
	:: nxt[p] == pg && flg[p] != old -> found = flg[p]
	fi
}

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

/*
 * lrb_count_committed(), from its first load of the claims (seen_claims, in
 * the caller's step): claims - crossings, the loads taken again if a nested
 * writer claimed in between. The loop's last load of the claims, the next
 * round's first and the store share a step: no interrupt comes between them,
 * and the reader touches none of the counts.
 */
inline count_committed()
{
	do
	:: HOOK(COMMIT_AFTER);
	   atomic {
		seen_cross = crossings;
		if
		:: seen_claims == claims ->
			committed = seen_claims - seen_cross;
			check_entries();
			break
		:: else -> seen_claims = claims
		fi }
	od
}

/* ---- writers ----------------------------------------------------------- */

proctype Writer(byte me) provided (cur + 1 == _pid)
{
	byte sz, tp, np, cp, t2, nh, w, tl, id, typ, ret, ent, f;
	byte ov, oc, oi;		/* the write word a reset expects */
	byte depth, cpg, cindex, seen_claims, seen_cross, loops;
	bool last;			/* the commit is on the tail page */
	byte left = (me == 0 -> PREP + OUTER : 1);

end_idle:
	do
	:: left > 0 ->
		/* lrb_write(): lrb_start_commit(), then lrb_reserve_next() */
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
			committing++;
			printf("LRB %d write %d\n", me, sz)
		};
attempt:
		HOOK(STAMP);
		/* A: the tail page; B: the claim; C: the reservation */
		atomic {
			tp = tail;
			claims++;
			widx[tp] = widx[tp] + sz;
			wcnt[tp]++;
			w = widx[tp];
			tl = w - sz;
			if
			:: w <= CAP ->
				nev++;
				id = nev;
				ev_sz[id] = sz;
				resv[tp * CAP + tl] = id;
				if
				:: sz == 2 -> resv[tp * CAP + tl + 1] = id
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
		/* The payload: the slots must still be this writer's */
		atomic {
			assert(resv[tp * CAP + tl] == id);
			dat[tp * CAP + tl] = id;
			if
			:: sz == 2 ->
				assert(resv[tp * CAP + tl + 1] == id);
				dat[tp * CAP + tl + 1] = id
			:: else
			fi;
			lrb_show(me, payload)
		};
		goto end_commit;

move_tail:
		/* lrb_move_tail() */
		crossings++;
		HOOK(MOVE_TAIL);
		atomic { np = nxt[tp]; cp = commit };
		if
		:: np == cp ->
			/* nested writers went all the way round */
			commit_overrun++;
			goto failed
		:: else
		fi;
		atomic { f = (nxt[tp] != np -> MOVED : flg[tp]) };
		if
		:: f != NORMAL ->
#if OVERWRITE
			/* lrb_is_reader_page(commit_page) */
			atomic { t2 = prv[cp]; f = (nxt[t2] != cp) };
			if
			:: f ->
				if
				:: cp != tail ->
					commit_overrun++;
					goto failed
				:: else
				fi
			:: else ->
				goto handle_head
			fi
#else
			atomic { f = (nxt[tp] != np -> MOVED : flg[tp]) };
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
		pushing++;
		atomic { head_set(tp, np, HEADER, UPDATE, typ); lrb_show(me, set_update) };
		if
		:: typ != HEADER -> pushing--
		:: else
		fi;
		HOOK(HEAD_UPDATE_AFTER);
		if
		:: typ == HEADER ->
			/* this writer owns the push: the old head's events are lost */
			atomic { overrun = overrun + ent; pages_lost++; check_entries() }
		:: typ == UPDATE		/* help the writer it interrupted */
		:: typ == NORMAL || typ == MOVED -> goto again
		:: else -> assert(false)
		fi;
		atomic { nh = nxt[np] };
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
			pushing--;
			assert(ret == UPDATE)
		:: else
		fi;

tail_update:
		/* lrb_tail_page_update(): bump the version, then reset */
		atomic {
#ifndef M_TAIL_NO_VERSION
			wver[np]++;
#endif
			ov = wver[np]; oc = wcnt[np]; oi = widx[np];
			t2 = tail
		};
		if
		:: t2 != tp -> goto again
		:: else
		fi;
		HOOK(TAIL_RESET);
		atomic {
			if
			:: wver[np] == ov && wcnt[np] == oc && widx[np] == oi ->
				wcnt[np] = 0;
				widx[np] = 0;
				dat[np * CAP] = 0; dat[np * CAP + 1] = 0;
				resv[np * CAP] = 0; resv[np * CAP + 1] = 0
			:: else
			fi;
			lrb_show(me, reset_next)
		};
		cidx[np] = 0;
		HOOK(TAIL_BEFORE);
		atomic {
			if
			:: tail == tp ->
				/* the tail never moves onto the commit */
				assert(np != commit);
				tail = np
			:: else
			fi;
			lrb_show(me, tail_moved)
		};
		HOOK(TAIL_AFTER);

again:
		/* lrb_reset_tail(), then the next attempt */
		atomic {
			if
			:: tl >= CAP -> widx[tp] = widx[tp] - sz
			:: else ->
				dat[tp * CAP + tl] = PAD;
				if
				:: tl == 0 -> dat[tp * CAP + 1] = PAD
				:: else
				fi;
				widx[tp] = widx[tp] - (tl + sz - CAP)
			fi;
			wcnt[tp]--;
			np = 0; cp = 0; t2 = 0; nh = 0; typ = 0; ret = 0; ent = 0; f = 0;
			ov = 0; oc = 0; oi = 0;
			lrb_show(me, crossed)
		};
		goto attempt;

failed:
		atomic {
			if
			:: tl >= CAP -> widx[tp] = widx[tp] - sz
			:: else ->
				dat[tp * CAP + tl] = PAD;
				if
				:: tl == 0 -> dat[tp * CAP + 1] = PAD
				:: else
				fi;
				widx[tp] = widx[tp] - (tl + sz - CAP)
			fi;
			wcnt[tp]--;
			lrb_show(me, write_failed)
		};

end_commit:
		/* lrb_end_commit() */
		depth = committing;
commit_round:
#ifndef M_NESTED_COMMIT
		if
		:: depth != 1 -> committing = depth - 1; goto written
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
			fi;
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
		atomic {
			check_published(cp, w);
			cidx[cp] = w;
			if
			:: last -> cpg = cp; cindex = w
			:: else
			fi;
			lrb_show(me, commit_idx)
		};
		if
		:: atomic { !last -> cp = nxt[cp]; commit = cp; lrb_show(me, commit_moved) };
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
		committing = 0;
		/* a writer that came in after the index was read is pending */
		if
		:: atomic { tail == cpg && widx[cpg] == cindex -> lrb_show(me, commit_done) }
		:: else ->
			committing = 1;
			depth = 1;
			goto commit_round
		fi;
written:
		/* dead locals cleared: states differ only in what matters */
		atomic {
			sz = 0; tp = 0; np = 0; cp = 0; t2 = 0; nh = 0; w = 0; tl = 0;
			id = 0; typ = 0; ret = 0; ent = 0; f = 0; ov = 0; oc = 0; oi = 0;
			depth = 0; cpg = 0; cindex = 0; seen_claims = 0; seen_cross = 0; last = false
		};
		if
		:: me > 0 ->
			/* back to the writer it interrupted */
			cur = me - 1;
end_return:		skip
		:: else -> left--
		fi
	:: atomic { left == 0 && me == 0 -> wdone = true; cur = DEPTH + 1 }
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
	assert(nev == 0 || last_id == nev)
}

/*
 * One event read at the reader's position: whole, newer than the last one
 * read, and the events between them are exactly those reported lost.
 */
inline take_event(missed)
{
	id = dat[rpage * CAP + read_pos];
	assert(id != 0 && id <= nev);
	assert(read_pos + ev_sz[id] <= size);
	assert(ev_sz[id] == 1 || dat[rpage * CAP + read_pos + 1] == id);
	assert(id > last_id);
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

proctype Reader()
{
	byte rp, cpg, size, hd, pv, pg, i, j, f, nn, hv, ov, id, swaps, missed, ent, n;
	bool ok, quiet, drain, whole;

end_read:
	do
	:: (READER && prepped) || wdone ->
		drain = wdone;
		whole = false;
#if READ_PAGE
		if
		:: whole = true
		:: whole = false
		fi;
#endif
		swaps = 0;
get_page:
		/* lrb_get_reader_page() */
#ifndef M_KERNEL_ORDER
		RAT(READER_LOOK) atomic { rp = rpage; cpg = commit };
		RHOOK(READER_PAGE);
		size = cidx[rp];
		if
		:: read_pos < size -> goto got_page
		:: else
		fi;
#else
		/* the kernel's order: the size, then where the commit is */
		RAT(READER_LOOK) atomic { rp = rpage; size = cidx[rp] };
		RHOOK(READER_PAGE);
		if
		:: read_pos < size -> goto got_page
		:: else
		fi;
		cpg = commit;
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
			wver[rp] = f; wcnt[rp] = 0; widx[rp] = 0;
			cidx[rp] = 0;
			dat[rp * CAP] = 0; dat[rp * CAP + 1] = 0;
			resv[rp * CAP] = 0; resv[rp * CAP + 1] = 0;
			read_pos = 0;
			lrb_show(RD, reset_page)
		};
find_head:
		RAT(READER_FIND) quiet = wdone;
		/* lrb_find_head(): from the page before the hint */
		atomic { pg = prv[hint]; i = 0 };
		do
		:: atomic { i < PAGES -> f = flg[pg]; nn = nxt[pg]; i++;
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
		hd = nn;
		pv = pg;
#ifndef M_HEADER_UNDER_UPDATE
		if
		:: f == UPDATE || (f != NORMAL && pushing > 0) -> goto spin
		:: else
		fi;
#endif
		if
		:: f == NORMAL -> goto retry
		:: else
		fi;
		atomic { hint = hd; lrb_show(RD, head_found) };
		/* nothing committed on the head yet: nothing to take */
		cpg = commit;
		if
		:: hd == cpg ->
			f = cidx[hd];
			if
			:: f == 0 -> goto nothing
			:: else
			fi
		:: else
		fi;
		/* the reader page takes the head's place */
		RAT(READER_HEAD_FOUND) atomic { nn = nxt[hd] };
		atomic { nxt[rp] = nn; flg[rp] = HEADER; prv[rp] = pv };
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
		atomic { hv = wver[hd]; lrb_show(RD, read_version) };
#ifndef M_NO_HEADER_RECHECK
		/* one load of pv's next pointer, its flag with it */
		atomic {
			lrb_show(RD, header_check);
			if
			:: nxt[pv] == hd && flg[pv] == HEADER
			:: else -> goto retry
			fi
		};
#endif
		atomic { ov = overrun; lrb_show(RD, read_overrun) };
		RHOOK(READER_BEFORE_SWAP);
		atomic {
			if
			:: nxt[pv] == hd && flg[pv] == HEADER ->
				nxt[pv] = rp; flg[pv] = NORMAL; ok = true
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
retry:
		/* once the writers stopped, the first look succeeds */
		assert(!quiet);
		goto find_head;
swapped:
		/*
		 * The version moved since it was read: the writers went round the
		 * ring and the overrun read before the swap misses the lap's
		 * pushes; read now, it counts them. lrb has no hook point here,
		 * so the step has a plain label, which the label check leaves out.
		 */
lap_recheck:
#ifndef M_NO_LAP_RECHECK
		if
		:: wver[hd] != hv -> atomic { ov = overrun; lrb_show(RD, recheck) }
		:: else
		fi;
#endif
		RHOOK(READER_AFTER_SWAP);
		atomic { nn = nxt[rp] };
		prv[nn] = rp;
		RHOOK(READER_DONE);
		atomic {
			hint = nn;
			rpage = hd;
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
				if
				:: dat[rp * CAP + read_pos] == PAD -> read_pos = size
				:: else ->
					take_event(lost_events);
					nread++;
					lost_events = 0
				fi;
				lrb_show(RD, read_event);
				check_entries()
			};
			if
			:: read_pos == size && dat[rp * CAP + read_pos - 1] == PAD ->
				swaps = 0;
				goto get_page
			:: else
			fi
		:: whole ->
			/* lrb_read_page() */
			missed = lost_events;
			atomic { cpg = commit };
			if
			:: read_pos == 0 && rp != cpg ->
				/* whole page, writer gone: hand it over */
				atomic {
					size = cidx[rp];
					ent = wcnt[rp];
					n = nread_seen;
					do
					:: read_pos < size && dat[rp * CAP + read_pos] != PAD ->
						take_event(missed); missed = 0
					:: else -> break
					od;
					assert(nread_seen - n == ent);
					nread = nread + ent;
					wcnt[rp] = 0;
					cidx[rp] = 0;
					dat[rp * CAP] = 0; dat[rp * CAP + 1] = 0;
					read_pos = 0;
					lrb_show(RD, read_whole);
					check_entries()
				}
			:: else ->
				/* copy the events below size */
				atomic {
					n = nread_seen;
					do
					:: read_pos < size && dat[rp * CAP + read_pos] == PAD ->
						read_pos = size
					:: read_pos < size && dat[rp * CAP + read_pos] != PAD ->
						take_event(missed); missed = 0;
						nread++
					:: else -> break
					od;
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
nothing:
		if
		:: drain ->
			atomic { final_checks(); checked = true; lrb_show(RD, drained) };
			break
		:: else
		fi;
next:
		atomic {
			rp = 0; cpg = 0; size = 0; hd = 0; pv = 0; pg = 0; i = 0; j = 0;
			f = 0; nn = 0; hv = 0; ov = 0; id = 0; swaps = 0; missed = 0; ent = 0;
			n = 0; ok = false; quiet = false; drain = false; whole = false
		}
	od
}

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
		prepped = (PREP == 0);
		for (i : 0 .. DEPTH) {
			run Writer(i)
		}
		run Reader()
	}
}
