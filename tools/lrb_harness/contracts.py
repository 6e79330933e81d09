"""The contract matrix against the kernel-doc: each function of lrb's API
(include/linux/lockless_ring_buffer.h) must have a row in kunit/'s
lrb_contract_lrb.c, and the contexts of its rows must be those its
kernel-doc's `Context:` line names (a row of several functions: the
contexts they all allow)."""

import re
from pathlib import Path
from typing import Dict, FrozenSet, List, Tuple

from .checks import CheckResult

TASK, SOFTIRQ, HARDIRQ, NMI = 'task', 'softirq', 'hardirq', 'nmi'
ANY: FrozenSet[str] = frozenset({TASK, SOFTIRQ, HARDIRQ, NMI})
ANY_BUT_NMI: FrozenSet[str] = frozenset({TASK, SOFTIRQ, HARDIRQ})
PROCESS: FrozenSet[str] = frozenset({TASK})

# The table's masks (kunit/lrb_contract.h)
TABLE_MASKS: Dict[str, FrozenSet[str]] = {
    'CT_ANY': ANY, 'CT_ANY_BUT_NMI': ANY_BUT_NMI, 'CT_PROCESS': PROCESS,
}

# The kernel-doc's phrases, most specific first
DOC_PHRASES: List[Tuple[str, FrozenSet[str]]] = [
    ('any context but nmi', ANY_BUT_NMI),
    ('process context', PROCESS),
    ('the context and cpu of the reserve, nmi included', ANY),
    ('any context', ANY),
]

PROTOTYPE = re.compile(r'^[a-z][\w\s\*]*?\b(lrb_\w+)\(', re.M)
DOC_BLOCK = re.compile(r'/\*\*\n \* (\w+) - (.*?)\*/', re.S)
CONTEXT = re.compile(r'^ \* Context:(.*?)(?=^ \*\s*$|^ \*/|^ \* [A-Z]\w+:)', re.M | re.S)
ROW = re.compile(r'\.name\s*=\s*"([^"]+)",\s*\.ctx\s*=\s*(CT_\w+)')


def api_functions(header: str) -> List[str]:
    """The functions the header declares (static inline helpers are not
    declarations of exported functions)."""
    names = []
    for match in PROTOTYPE.finditer(header):
        line_start = header.rfind('\n', 0, match.start()) + 1
        if header[line_start:match.start()].strip().startswith('static'):
            continue
        if match.group(0).lstrip().startswith(('static', 'return')):
            continue
        names.append(match.group(1))
    return sorted(set(names))


def doc_contexts(source: str) -> Dict[str, str]:
    """Function name -> the text of its kernel-doc's Context: line(s)."""
    found: Dict[str, str] = {}
    for block in DOC_BLOCK.finditer(source):
        text = block.group(0)
        ctx = CONTEXT.search(text)
        if ctx:
            found[block.group(1)] = ' '.join(part.strip(' *\t')
                                             for part in ctx.group(1).splitlines()).strip()
    return found


def context_set(text: str) -> FrozenSet[str]:
    """The contexts a Context: line names; raises ValueError if it says
    something the check does not know."""
    low = text.lower()
    for phrase, contexts in DOC_PHRASES:
        if low.startswith(phrase):
            return contexts
    raise ValueError(f'Context: "{text}" is none of the phrases the matrix knows')


def table_rows(table: str) -> List[Tuple[str, FrozenSet[str]]]:
    """(row name, contexts) of each row of the table."""
    rows = []
    for match in ROW.finditer(table):
        if match.group(2) not in TABLE_MASKS:
            raise ValueError(f'row {match.group(1)}: unknown mask {match.group(2)}')
        rows.append((match.group(1), TABLE_MASKS[match.group(2)]))
    return rows


def compare(header: str, source: str, table: str) -> List[str]:
    """What disagrees, one line each; empty when the table matches."""
    problems: List[str] = []
    api = api_functions(header)
    docs = doc_contexts(source)
    try:
        rows = table_rows(table)
    except ValueError as err:
        return [str(err)]
    covered = set()
    for name, row_ctx in rows:
        funcs = name.split('+')
        allowed = set(ANY)
        for func in funcs:
            if func not in api:
                problems.append(f'row {name}: {func} is not a function of the API')
                continue
            if func not in docs:
                problems.append(f'{func}: its kernel-doc has no Context: line')
                continue
            try:
                allowed &= context_set(docs[func])
            except ValueError as err:
                problems.append(f'{func}: {err}')
            covered.add(func)
        if frozenset(allowed) != row_ctx:
            problems.append(f'row {name}: contexts {sorted(row_ctx)}, the kernel-doc '
                            f'allows {sorted(allowed)}')
    for func in api:
        if func not in covered:
            problems.append(f'{func}: no row of the contract matrix calls it')
    return problems


def check(tree: Path, repo: Path) -> CheckResult:
    """make check's step: the prepared tree's header and source against
    the repository's table."""
    header = (tree / 'include/linux/lockless_ring_buffer.h').read_text()
    source = (tree / 'lib/lockless_ring_buffer.c').read_text()
    table = (repo / 'kunit/lrb_contract_lrb.c').read_text()
    problems = compare(header, source, table)
    rows = len(table_rows(table)) if not problems else 0
    name = f'contract matrix rows = kernel-doc Context: lines ({rows} rows)'
    return CheckResult(name, not problems, problems)
