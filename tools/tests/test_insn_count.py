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
