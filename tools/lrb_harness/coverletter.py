"""The series' cover letter: kernel-patch/cover-letter.txt filled in.

The template's first line is the subject, the rest is the body, in which
@KERNEL@ stands for the kernel the series applies to, and @RESULTS@,
@KUNITCONFIG@ and @MAINTAINERS@, each on a line of its own, for the
figures of the last `make test` (results/latest/summary.json), the options
that run the suites (.kunitconfig) and scripts/get_maintainer.pl's answer.
"""

import textwrap
from typing import Dict, List, Sequence, Tuple

from .errors import HarnessError

MARKERS = ('@KERNEL@', '@RESULTS@', '@KUNITCONFIG@', '@MAINTAINERS@')
INDENT = '  '
WIDTH = 72
Summary = Dict[str, object]


def _int(data: Summary, key: str) -> int:
    value = data.get(key)
    return value if isinstance(value, int) else 0


def _str(data: Summary, key: str) -> str:
    value = data.get(key)
    return value if isinstance(value, str) else ''


def _dicts(data: Summary, key: str) -> List[Summary]:
    value = data.get(key)
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def duration(seconds: int) -> str:
    return f'{seconds // 60} min {seconds % 60} s' if seconds >= 60 else f'{seconds} s'


def counts(data: Summary) -> str:
    return f'{_int(data, "passed")} passed, {_int(data, "failed")} failed, ' \
           f'{_int(data, "skipped")} skipped'


def columns(rows: Sequence[Sequence[str]]) -> List[str]:
    """Left-aligned text, right-aligned figures."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [cell.rjust(w) if cell[:1].isdigit() else cell.ljust(w)
                 for cell, w in zip(row, widths)]
        out.append(INDENT + '  '.join(cells).rstrip())
    return out


def boots_table(passes: List[Summary]) -> List[str]:
    rows = [['pass', 'target', 'passed', 'failed', 'skipped', 'CPUs', 'atomics']]
    for run in passes:
        for boot in _dicts(run, 'boots'):
            cpus = boot.get('cpus')
            rows.append([_str(run, 'profile'), _str(boot, 'target'), str(_int(boot, 'passed')),
                         str(_int(boot, 'failed')), str(_int(boot, 'skipped')),
                         str(cpus) if isinstance(cpus, int) else '?',
                         _str(boot, 'atomics') or '?'])
    return columns(rows)


def _suite_cell(statuses: List[str]) -> str:
    cell = str(statuses.count('PASS'))
    failed = sum(s in ('FAIL', 'CRASHED') for s in statuses)
    if statuses.count('SKIP'):
        cell += f' +{statuses.count("SKIP")}s'
    if failed:
        cell += f' +{failed}F'
    return cell


def suites_table(boots: List[Summary]) -> List[str]:
    """Cases per suite and target of one pass, in the order they ran."""
    targets = [_str(b, 'target') for b in boots]
    per: Dict[str, Dict[str, List[str]]] = {}
    for boot in boots:
        for case in _dicts(boot, 'cases'):
            per.setdefault(_str(case, 'suite'), {}).setdefault(_str(boot, 'target'), []).append(
                _str(case, 'status'))
    if not per:
        return []
    rows = [['suite'] + targets]
    for suite, by_target in per.items():
        rows.append([suite] + [_suite_cell(by_target.get(t, [])) for t in targets])
    return columns(rows)


def results_lines(summary: Summary, where: str) -> List[str]:
    """The figures of a summary.json: a whole `make test` when it has its
    "test" section, else the one run it describes, saying so."""
    test = summary.get('test')
    boots = _dicts(summary, 'boots')
    if isinstance(test, dict):
        lines = textwrap.wrap(f'{_str(test, "command") or "make test"} of '
                              f'{_str(test, "date")[:10]} (repository '
                              f'{_str(test, "repo_commit") or "?"}, {_str(test, "kernel")}): '
                              f'{counts(test)} in {duration(_int(test, "elapsed_s"))}.',
                              WIDTH, break_on_hyphens=False) + ['']
        lines += boots_table(_dicts(test, 'passes'))
        checks = _dicts(test, 'checks')
        clean = sum(c.get('ok') is True for c in checks)
        lines += ['', f'Harness checks ({clean} of {len(checks)} clean):', '']
        lines += [f'{INDENT}{"ok  " if c.get("ok") is True else "FAIL"}  {_str(c, "name")}'
                  for c in checks]
    else:
        lines = [f'A run other than make test ({where}): {counts(summary)}.', '']
        lines += boots_table([{'profile': where.rsplit('-', 1)[-1], 'boots': boots}])
    table = suites_table(boots)
    if table:
        lines += ['', 'Cases per suite in the first pass (+Ns: skipped, +NF: failed):', '']
        lines += table
    return lines


def kunitconfig_lines(text: str) -> List[str]:
    return [INDENT + line.strip() for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith('#')]


def fill(template: str, values: Dict[str, str]) -> Tuple[str, str]:
    """(subject, body) of the template with every marker replaced."""
    missing = [m for m in MARKERS if m not in values]
    if missing:
        raise HarnessError(f'cover letter: no value for {", ".join(missing)}')
    subject, _, body = template.partition('\n')
    body = body.lstrip('\n')
    for marker in MARKERS:
        body = body.replace(marker, values[marker])
    return subject.strip(), body.rstrip('\n') + '\n'


def into_git_letter(letter: str, subject: str, body: str) -> str:
    """git format-patch's 0000-cover-letter.patch with its two
    placeholders replaced."""
    if '*** SUBJECT HERE ***' not in letter or '*** BLURB HERE ***' not in letter:
        raise HarnessError('git format-patch wrote a cover letter without its placeholders')
    return letter.replace('*** SUBJECT HERE ***', subject).replace('*** BLURB HERE ***',
                                                                  body.rstrip('\n'))
