"""tools/insn_count.py on canned objdump listings: parsing, the shortest
path through required instructions, calls, loops, forbidden instructions."""

import unittest
from typing import Dict, List

import insn_count as ic

# An API function with an error exit, a call, and a commit loop whose body
# the fast path runs once; a page-crossing branch masks a next pointer.
CLOCK = '''
ffffffff81000300 <clock>:
ffffffff81000300:	rdtsc
ffffffff81000302:	ret
'''

X86 = {
    'clock': CLOCK,
    'api_commit': '''
ffffffff81000000 <api_commit>:
ffffffff81000000:	endbr64
ffffffff81000004:	test   %rdi,%rdi
ffffffff81000007:	je     ffffffff81000030 <api_commit+0x30>
ffffffff81000009:	call   ffffffff81000100 <helper>
ffffffff8100000e:	mov    0x10(%rdi),%rax
ffffffff81000012:	cmp    %rax,%rdx
ffffffff81000015:	jne    ffffffff81000040 <api_commit+0x40>
ffffffff81000017:	mov    0x8(%rcx),%rdx
ffffffff8100001b:	cmp    %rax,%rdx
ffffffff8100001e:	je     ffffffff81000028 <api_commit+0x28>
ffffffff81000020:	mov    %rax,0x8(%rcx)
ffffffff81000024:	jmp    ffffffff81000017 <api_commit+0x17>
ffffffff81000028:	xor    %eax,%eax
ffffffff8100002a:	jmp    ffffffff81200000 <__x86_return_thunk>
ffffffff81000030:	mov    $0xffffffea,%eax
ffffffff81000035:	jmp    ffffffff81200000 <__x86_return_thunk>
ffffffff81000040:	mov    (%rbx),%rbx
ffffffff81000043:	and    $0xfffffffffffffffc,%rbx
ffffffff81000047:	mov    %rax,0x8(%rbx)
ffffffff8100004b:	jmp    ffffffff81000017 <api_commit+0x17>
''',
    'helper': '''
ffffffff81000100 <helper>:
ffffffff81000100:	incq   0x70(%rdi)
ffffffff81000104:	call   *%rax
ffffffff81000106:	ret
ffffffff81000107:	ud2
''',
    'api_reserve': '''
ffffffff81000200 <api_reserve>:
ffffffff81000200:	lock xadd %rax,0x10(%rdx)
ffffffff81000205:	jmp    ffffffff81000100 <helper>
''',
}

ARM64 = '''
ffff800080010000 <arm_fn>:
ffff800080010000:	paciasp
ffff800080010004:	cbz	x0, ffff800080010014 <arm_fn+0x14>
ffff800080010008:	b	ffff800080010018 <arm_fn+0x18>
ffff80008001000c:	ldadd	x1, x2, [x3]
ffff800080010010:	b.ne	ffff80008001000c <arm_fn+0xc>
ffff800080010014:	ret
ffff800080010018:	ldxr	x2, [x3]
ffff80008001001c:	stxr	w4, x2, [x3]
ffff800080010020:	cbnz	w4, ffff800080010018 <arm_fn+0x18>
ffff800080010024:	autiasp
ffff800080010028:	ret
'''


# riscv64: a clock hook through a pointer, the relaxed increment of a drop
# counter on the error exit, the returning fully ordered add on the success
# path, an auipc + jalr call and a tail jump through jr.
RISCV = {
    'rv_reserve': '''
ffffffff801e6754 <rv_reserve>:
ffffffff801e6754:	beqz	a0,ffffffff801e6770 <rv_reserve+0x1c>
ffffffff801e6756:	add	sp,sp,-16
ffffffff801e6758:	sd	ra,8(sp)
ffffffff801e675a:	auipc	ra,0xffe2d
ffffffff801e675e:	jalr	308(ra) # ffffffff80013890 <clock>
ffffffff801e6762:	amoadd.d.aqrl	a0,a5,(a0)
ffffffff801e6766:	ld	ra,8(sp)
ffffffff801e6768:	add	sp,sp,16
ffffffff801e676a:	ret
ffffffff801e676c:	jalr	a5
ffffffff801e676e:	ebreak
ffffffff801e6770:	amoadd.d	zero,a5,(a4)
ffffffff801e6774:	li	a0,0
ffffffff801e6776:	ret
''',
    'rv_commit': '''
ffffffff801e4668 <rv_commit>:
ffffffff801e4668:	add	sp,sp,-16
ffffffff801e466a:	sd	s0,8(sp)
ffffffff801e466c:	bnez	a0,ffffffff801e4676 <rv_commit+0xe>
ffffffff801e4670:	ld	a5,0(a5)
ffffffff801e4672:	and	a5,a5,-4
ffffffff801e4674:	sd	a2,8(a5)
ffffffff801e4676:	ld	a5,32(a3)
ffffffff801e4678:	c.beqz	a5,ffffffff801e4680 <rv_commit+0x18>
ffffffff801e467a:	sd	a2,8(a5)
ffffffff801e467c:	auipc	t1,0x0
ffffffff801e4680:	jr	4(t1) # ffffffff80013890 <clock>
''',
    'clock': '''
ffffffff80013890 <clock>:
ffffffff80013890:	rdtime	a0
ffffffff80013894:	c.jr	ra
''',
}

# i386: lrb's write word is an atomic64_t, added in atomic64_add_return_cx8()
# (local64_read() is atomic64_read_cx8(): a cmpxchg8b too); 32-bit pointers
# and lengths are both masked with 0xfffffffc.
I386 = {
    'x32_reserve': '''
c1294e2c <x32_reserve>:
c1294e2c:	push   %ebp
c1294e2d:	mov    %esp,%ebp
c1294e2f:	test   %eax,%eax
c1294e31:	je     c1294e50 <x32_reserve+0x24>
c1294e33:	add    $0x7,%ecx
c1294e36:	and    $0xfffffffc,%ecx
c1294e39:	lea    0x8(%esi),%ecx
c1294e3c:	call   c13d16f8 <atomic64_add_return_cx8>
c1294e41:	pop    %ebp
c1294e42:	ret
c1294e50:	call   c13d16dc <atomic64_read_cx8>
c1294e55:	pop    %ebp
c1294e56:	ret
c1294e57:	ud2
''',
    'x32_commit': '''
c1291bf8 <x32_commit>:
c1291bf8:	mov    %eax,0x8(%esp)
c1291bfc:	cmp    %esi,%ebx
c1291bfe:	je     c1291c0c <x32_commit+0x14>
c1291c00:	mov    (%esi),%esi
c1291c02:	and    $0xfffffffc,%esi
c1291c05:	mov    %eax,0x8(%esi)
c1291c08:	jmp    c1291c12 <x32_commit+0x1a>
c1291c0c:	mov    0x14(%ebx),%edx
c1291c0f:	mov    %eax,0x8(%edx)
c1291c12:	call   *%ecx
c1291c14:	ret
''',
    'atomic64_add_return_cx8': '''
c13d16f8 <atomic64_add_return_cx8>:
c13d16f8:	mov    (%ecx),%eax
c13d16fa:	mov    %eax,%ebx
c13d16fc:	add    %esi,%ebx
c13d16fe:	lock cmpxchg8b 0x0(%ebp)
c13d1703:	jne    c13d16fa <atomic64_add_return_cx8+0x2>
c13d1705:	ret
''',
    'atomic64_read_cx8': '''
c13d16dc <atomic64_read_cx8>:
c13d16dc:	mov    %ebx,%eax
c13d16de:	lock cmpxchg8b (%ecx)
c13d16e2:	ret
''',
}

# arm (ARMv7, ARM mode): conditional execution, a conditional return, the
# ldrexd/strexd add of lrb's local64_t beside the bare ldrexd of a read,
# the fully ordered ldrex/strex add of a local_t beside a relaxed increment.
ARM = {
    'a32_reserve': '''
c031e9e8 <a32_reserve>:
c031e9e8:	cmp	r0, #0
c031e9ec:	bxeq	lr
c031e9f0:	push	{r4, r5, lr}
c031e9f4:	ldrexd	r6, [r2]
c031e9f8:	cmp	r1, #0
c031e9fc:	bne	c031ea1c <a32_reserve+0x34>
c031ea00:	ldrexd	r6, [r2]
c031ea04:	adds	r6, r6, sl
c031ea08:	adc	r7, r7, fp
c031ea0c:	strexd	r9, r6, [r2]
c031ea10:	teq	r9, #0
c031ea14:	bne	c031ea00 <a32_reserve+0x18>
c031ea18:	pop	{r4, r5, pc}
c031ea1c:	ldrexd	r6, [r2]
c031ea20:	strexd	r9, sl, [r2]
c031ea24:	pop	{r4, r5, pc}
c031ea28:	udf	#18
''',
    'a32_kernel': '''
c01b4a80 <a32_kernel>:
c01b4a80:	push	{r4, lr}
c01b4a84:	pldw	[r7]
c01b4a88:	ldrex	r3, [r7]
c01b4a8c:	add	r3, r3, #1
c01b4a90:	strex	r2, r3, [r7]
c01b4a94:	teq	r2, #0
c01b4a98:	bne	c01b4a88 <a32_kernel+0x8>
c01b4a9c:	cmp	r1, #0
c01b4aa0:	popeq	{r4, pc}
c01b4aa4:	bleq	c040e1e4 <clock>
c01b4aa8:	dmb	ish
c01b4aac:	pldw	[r3]
c01b4ab0:	ldrex	r9, [r3]
c01b4ab4:	add	r9, r9, r2
c01b4ab8:	strex	r1, r9, [r3]
c01b4abc:	teq	r1, #0
c01b4ac0:	bne	c01b4ab0 <a32_kernel+0x30>
c01b4ac4:	dmb	ish
c01b4ac8:	pop	{r4, pc}
''',
    'a32_commit': '''
c031c08c <a32_commit>:
c031c08c:	str	r4, [sp, #8]
c031c090:	cmp	r0, r3
c031c094:	beq	c031c0a8 <a32_commit+0x1c>
c031c098:	ldr	r3, [r3]
c031c09c:	ldr	r2, [r0, #4]
c031c0a0:	bic	r3, r3, #3
c031c0a4:	str	r4, [r3, #8]
c031c0a8:	ldr	r3, [r0, #20]	@ 0x14
c031c0ac:	str	r4, [r3, #8]
c031c0b0:	blx	r3
c031c0b4:	ldm	sp, {r4, r5, fp, sp, pc}
''',
    'clock': '''
c040e1e4 <clock>:
c040e1e4:	isb	sy
c040e1e8:	mrrc	15, 1, r0, r1, cr14
c040e1ec:	bx	lr
''',
}


def program(listings: Dict[str, str], arch: str = 'x86_64', **kw: object) -> ic.Program:
    def load(func: str) -> List[ic.Insn]:
        if func not in listings:
            raise ic.CountError(func)
        return ic.parse_insns(listings[func])
    return ic.Program(load, ic.Options(arch, **kw))  # type: ignore[arg-type]


class ParseTest(unittest.TestCase):
    def test_parse(self) -> None:
        insns = ic.parse_insns(X86['api_commit'])
        self.assertEqual(20, len(insns))
        self.assertEqual(('je', 0xffffffff81000030, 'api_commit'),
                         (insns[2].mnem, insns[2].target, insns[2].target_sym))
        self.assertEqual('helper', insns[3].target_sym)
        self.assertEqual('xadd', ic.parse_insns(X86['api_reserve'])[0].mnem)

    def test_raw_bytes_and_comments(self) -> None:
        insns = ic.parse_insns('ffffffff8124c67e:\t65 48 63 05 46 45 dd 7e \tmovslq '
                               '%gs:0x7edd4546(%rip),%rax        # 20bcc <pcpu_hot+0xc>')
        self.assertEqual('movslq %gs:0x7edd4546(%rip),%rax', insns[0].text)

    def test_kinds(self) -> None:
        kinds = [ic.kind_x86(i) for i in ic.parse_insns(X86['api_commit'])]
        self.assertEqual(['insn', 'insn', 'cjmp', 'call'], kinds[:4])
        self.assertEqual('ret', kinds[13])
        self.assertEqual(['insn', 'icall', 'ret', 'trap'],
                         [ic.kind_x86(i) for i in ic.parse_insns(X86['helper'])])
        self.assertEqual(['insn', 'cjmp', 'jmp', 'insn', 'cjmp', 'ret'],
                         [ic.kind_arm64(i) for i in ic.parse_insns(ARM64)][:6])


class PathTest(unittest.TestCase):
    def test_shortest_is_the_error_exit(self) -> None:
        path = program(X86).path('api_commit')
        assert path is not None
        self.assertIsNone(program(X86).path('api_commit', r'^mov\s+%rax,0x8'))
        self.assertEqual(5, path.count)  # endbr, test, je, mov, jmp thunk

    def test_required_store_runs_the_loop_once(self) -> None:
        prog = program(X86, forbid=ic.FORBID['x86_64'], icall={'*': 'clock'})
        path = prog.path('api_commit', r'^mov\s+%r\w+,0x8\(%r\w+\)$')
        assert path is not None
        # 3 + call (1 + helper 5: incq, call * (1 + clock 2), ret) + mov, cmp, jne +
        # loop: 3 + store + jmp + 3 + xor + thunk
        self.assertEqual(3 + 6 + 3 + 3 + 2 + 3 + 2, path.count)
        self.assertEqual(['api_commit', 'helper', 'clock'], path.functions)
        crossing = program(X86, icall={'*': 'clock'}).path('api_commit', r'^and')
        assert crossing is not None
        self.assertTrue(any('and    $0xfffffffffffffffc' in s for s in crossing.steps))

    def test_no_path_found_under_the_depth_guard_is_not_kept(self) -> None:
        # api_reserve -> helper -> (icall) clock: with max_depth 2 the clock is
        # refused below api_reserve, so helper has no path there; helper on
        # its own (depth 1) must still find it
        prog = program(X86, icall={'*': 'clock'}, max_depth=2)
        self.assertIsNone(prog.path('api_reserve'))
        path = prog.path('helper')
        assert path is not None
        self.assertEqual(['helper', 'clock'], path.functions)

    def test_forbidden_page_crossing(self) -> None:
        prog = program(X86, forbid=ic.FORBID['x86_64'], icall={'*': 'clock'})
        path = prog.path('api_commit', r'0x8\(%rbx\)')
        self.assertIsNone(path)

    def test_indirect_call_target_and_tail_call(self) -> None:
        prog = program(X86, icall={'*': 'clock'})
        path = prog.path('api_reserve', r'xadd')
        assert path is not None
        # xadd + tail jmp (1 + helper: incq, call *(1 + clock 2), ret)
        self.assertEqual(1 + 1 + 1 + 3 + 1, path.count)
        self.assertIn('clock', path.functions)
        self.assertEqual(0, ic.clock_steps(path))
        self.assertEqual(1, ic.clock_steps(ic.Path(2, ['f+0x0: x', '  local_clock+0x4: y'])))

    def test_arm64_alternative_nops(self) -> None:
        listings = {'arm_fn': ARM64}
        ll_sc = program(listings, 'arm64').path('arm_fn', r'ldxr|ldadd')
        assert ll_sc is not None
        self.assertEqual(8, ll_sc.count)  # paciasp, cbz, b, ldxr, stxr, cbnz, autiasp, ret
        lse = program(listings, 'arm64', alt_nops=frozenset({0xffff800080010008}))
        path = lse.path('arm_fn', r'ldadd')
        assert path is not None
        self.assertEqual(6, path.count)  # paciasp, cbz, b as nop, ldadd, b.ne, ret

    def test_static_key_either_way(self) -> None:
        listing = {'f': '''
ffffffff81000400 <f>:
ffffffff81000400:	jmp    ffffffff81000410 <f+0x10>
ffffffff81000405:	mov    %rax,0x8(%rdx)
ffffffff81000409:	ret
ffffffff81000410:	mov    %rax,0x8(%rdx)
ffffffff81000414:	nop
ffffffff81000415:	nop
ffffffff81000416:	ret
'''}
        plain = program(listing).path('f')
        keyed = program(listing, jump_sites={0xffffffff81000400: 0xffffffff81000410}).path('f')
        assert plain is not None and keyed is not None
        self.assertEqual(5, plain.count)
        self.assertEqual(3, keyed.count)


class NewArchTest(unittest.TestCase):
    """riscv64, i386, arm: kinds, the requirements and FORBID of SPECS."""

    def test_riscv_kinds(self) -> None:
        kinds = [ic.kind_riscv(i) for i in ic.parse_insns(RISCV['rv_reserve'])]
        self.assertEqual(['cjmp', 'insn', 'insn', 'insn', 'call', 'insn', 'insn', 'insn',
                          'ret', 'icall', 'trap'], kinds[:11])
        kinds = [ic.kind_riscv(i) for i in ic.parse_insns(RISCV['rv_commit'])]
        self.assertEqual(['cjmp', 'insn', 'insn', 'jmp'], kinds[-4:])
        self.assertEqual(['insn', 'ret'],
                         [ic.kind_riscv(i) for i in ic.parse_insns(RISCV['clock'])])
        jal = ic.parse_insns('ffffffff801e479a:\tjal\tffffffff801e40be <f>\n'
                             'ffffffff801e479e:\tj\tffffffff801e40be <f+0x4>\n'
                             'ffffffff801e47a0:\tjr\ta5\n')
        self.assertEqual(['call', 'jmp', 'ijmp'], [ic.kind_riscv(i) for i in jal])

    def test_riscv_paths(self) -> None:
        prog = program(RISCV, 'riscv64', forbid=ic.FORBID['riscv64'])
        reserve = prog.path('rv_reserve', ic.SPECS['lrb'].reserve_req['riscv64'])
        assert reserve is not None
        # beqz, add, sd, auipc, jalr (1 + clock 2), amoadd, ld, add, ret
        self.assertEqual(11, reserve.count)
        self.assertEqual(['rv_reserve', 'clock'], reserve.functions)
        # the error exit increments with amoadd.d zero,...: not the add sought
        error_exit = program(RISCV, 'riscv64').path('rv_reserve')
        assert error_exit is not None
        self.assertEqual(4, error_exit.count)
        commit = prog.path('rv_commit', ic.COMMIT_REQ['riscv64'])
        assert commit is not None
        # add, sd s0,8(sp) (not the store), bnez, ld, c.beqz, sd, auipc, jr (1 + 2)
        self.assertEqual(10, commit.count)
        self.assertFalse(any('-4' in s for s in commit.steps))

    def test_riscv_path_without_the_add_is_not_counted(self) -> None:
        listing = {'f': RISCV['rv_reserve'].replace('amoadd.d.aqrl\ta0,a5,(a0)', 'nop')
                   .replace('rv_reserve', 'f')}
        self.assertIsNone(program(listing, 'riscv64').path(
            'f', ic.SPECS['lrb'].reserve_req['riscv64']))

    def test_i386_paths(self) -> None:
        prog = program(I386, 'i386', forbid=ic.FORBID['i386'], icall={'*': 'atomic64_read_cx8'})
        reserve = prog.path('x32_reserve', ic.SPECS['lrb'].reserve_req['i386'])
        assert reserve is not None
        # the length rounding is no pointer mask: push, mov, test, je, add,
        # and, lea, call (1 + 6), pop, ret
        self.assertEqual(9 + 1 + 6, reserve.count)
        self.assertIn('atomic64_add_return_cx8', reserve.functions)
        commit = prog.path('x32_commit', ic.COMMIT_REQ['i386'])
        assert commit is not None
        # the store to 0x8(%esp) is not the commit, the page crossing is
        # forbidden: mov, cmp, je, mov, mov, call * (1 + 3), ret
        self.assertEqual(6 + 1 + 3, commit.count)
        self.assertFalse(any('0xfffffffc' in s for s in commit.steps))

    def test_i386_path_without_the_add_is_not_counted(self) -> None:
        # The cmpxchg8b of atomic64_read_cx8() is not the add
        prog = program(I386, 'i386')
        self.assertIsNone(prog.path('x32_reserve', r'^call\s+[0-9a-f]+ <atomic64_add_return_cx9>$'))
        listing = {**I386, 'x32_reserve': I386['x32_reserve'].replace(
            'call   c13d16f8 <atomic64_add_return_cx8>', 'nop')}
        self.assertIsNone(program(listing, 'i386').path(
            'x32_reserve', ic.SPECS['lrb'].reserve_req['i386']))
        self.assertIsNotNone(program(listing, 'i386').path('x32_reserve', r'cmpxchg8b'))

    def test_arm_kinds(self) -> None:
        kinds = [ic.kind_arm(i) for i in ic.parse_insns(ARM['a32_reserve'])]
        self.assertEqual(['insn', 'cret', 'insn'], kinds[:3])
        self.assertEqual(['cjmp', 'ret', 'insn', 'insn', 'ret', 'trap'], kinds[-6:])
        kinds = [ic.kind_arm(i) for i in ic.parse_insns(ARM['a32_kernel'])]
        self.assertEqual(['cret', 'ccall'], kinds[8:10])
        kinds = [ic.kind_arm(i) for i in ic.parse_insns(ARM['a32_commit'])]
        self.assertEqual(['icall', 'ret'], kinds[-2:])
        more = ic.parse_insns('c0000000:\tbl\tc0001000 <f>\n'
                              'c0000004:\tblt\tc0001000 <f+0x8>\n'
                              'c0000008:\tb.w\tc0001000 <f+0x8>\n'
                              'c000000c:\tcbnz\tr3, c0001000 <f+0x8>\n'
                              'c0000010:\tbx\tr3\n'
                              'c0000014:\tldr\tpc, [sp], #4\n'
                              'c0000018:\tldrls\tpc, [pc, r3, lsl #2]\n'
                              'c000001c:\tpop\t{r4, r5}\n'
                              'c0000020:\tit\teq\n'
                              'c0000022:\tbxeq\tlr\n')
        self.assertEqual(['call', 'cjmp', 'jmp', 'cjmp', 'ijmp', 'ret', 'cijmp', 'insn',
                          'insn', 'cret'], [ic.kind_arm(i) for i in more])
        # "@ 0x14" is a comment
        self.assertEqual('ldr\tr3, [r0, #20]', ic.parse_insns(ARM['a32_commit'])[7].text)

    def test_arm_paths(self) -> None:
        prog = program(ARM, 'arm', forbid=ic.FORBID['arm'], icall={'a32_commit': 'clock'})
        reserve = prog.path('a32_reserve', ic.SPECS['lrb'].reserve_req['arm'])
        assert reserve is not None
        # cmp, bxeq not taken, push, ldrexd, cmp, bne, ldrexd, adds, adc,
        # strexd, teq, bne, pop
        self.assertEqual(13, reserve.count)
        kernel = prog.path('a32_kernel', ic.SPECS['kernel'].reserve_req['arm'])
        assert kernel is not None
        # push, the increment (6), cmp, popeq not taken, bleq not taken,
        # the ordered add (8), pop
        self.assertEqual(1 + 6 + 3 + 8 + 1, kernel.count)
        taken = program(ARM, 'arm').path('a32_kernel')
        assert taken is not None
        self.assertEqual(9, taken.count)  # the conditional return taken
        commit = prog.path('a32_commit', ic.COMMIT_REQ['arm'])
        assert commit is not None
        # str [sp, #8] is not it; no crossing: str, cmp, beq, ldr, str, blx (1 + 3), ldm
        self.assertEqual(6 + 3 + 1, commit.count)

    def test_arm_path_without_the_add_is_not_counted(self) -> None:
        # The relaxed increment (add #1, no dmb) is not the kernel's add; lrb's
        # ldrexd/strexd without the adds (local64_set) is not lrb's
        listing = {'a32_kernel': '\n'.join(ARM['a32_kernel'].splitlines()[:9])
                   + '\nc01b4aa0:\tpop\t{r4, pc}\n'}
        self.assertIsNone(program(listing, 'arm').path(
            'a32_kernel', ic.SPECS['kernel'].reserve_req['arm']))
        listing = {'a32_reserve': ARM['a32_reserve'].replace('adds\tr6, r6, sl', 'mov\tr6, sl')}
        self.assertIsNone(program(listing, 'arm').path(
            'a32_reserve', ic.SPECS['lrb'].reserve_req['arm']))

    def test_forbid_spans_lines_only_when_it_says_so(self) -> None:
        insns = ic.parse_insns(I386['x32_commit'])
        self.assertTrue(ic.matches(ic.FORBID['i386'], insns, 4))
        self.assertFalse(ic.matches(ic.FORBID['i386'], ic.parse_insns(I386['x32_reserve']), 5))
        self.assertTrue(ic.matches(r'^and\s', insns, 4))
        self.assertFalse(ic.matches(r'^mov\s+\(', insns, 4))


class TablesTest(unittest.TestCase):
    def test_section_and_jump_table(self) -> None:
        dump = ('Contents of section __jump_table:\n'
                ' ffffffff82000000 00f0ffff 0cf0ffff 00000000 00000000  ................\n')
        start, data = ic.section_bytes(dump)
        self.assertEqual((0xffffffff82000000, 16), (start, len(data)))
        self.assertEqual({0xffffffff82000000 - 0x1000: 0xffffffff82000004 - 0xff4},
                         ic.jump_sites(start, data))

    def test_alt_nop_sites(self) -> None:
        # one entry: orig at -0x100, callback at +0x200 from its field, cap 37|CB
        entry = ((-0x100) & 0xffffffff).to_bytes(4, 'little') + \
            (0x200).to_bytes(4, 'little') + (37 | 0x8000).to_bytes(2, 'little') + b'\x04\x00'
        sites = ic.alt_nop_sites(0x1000, entry, 0x1000 + 4 + 0x200, [37])
        self.assertEqual([0x1000 - 0x100], sites)
        self.assertEqual([], ic.alt_nop_sites(0x1000, entry, 0x1000 + 4 + 0x200, [38]))
        self.assertEqual(37, ic.arm64_cap('#define ARM64_HAS_LSE_ATOMICS\t\t37\n',
                                          'ARM64_HAS_LSE_ATOMICS'))


if __name__ == '__main__':
    unittest.main()
