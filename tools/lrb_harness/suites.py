"""`list`: suites and cases read from the kunit/ and bench/ C sources, without a build."""

import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List

from .srcdirs import SOURCE_DIRS

COMMENTS = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
CASE_ARRAY = re.compile(r'struct\s+kunit_case\s+(\w+)\s*\[\s*\w*\s*\]\s*=\s*\{(.*?)\}\s*;', re.S)
CASE_ENTRY = re.compile(r'\b(KUNIT_CASE(?:_SLOW|_PARAM|_PARAM_ATTR|_ATTR)?)\s*\(\s*(\w+)')
SUITE = re.compile(r'struct\s+kunit_suite\s+(\w+)\s*=\s*\{(.*?)\}\s*;', re.S)
SUITE_NAME = re.compile(r'\.name\s*=\s*"([^"]+)"')
SUITE_CASES = re.compile(r'\.test_cases\s*=\s*(\w+)')


@dataclass
class Case:
    name: str
    macro: str

    @property
    def kind(self) -> str:
        tags = []
        if 'PARAM' in self.macro:
            tags.append('param')
        if self.macro.endswith('SLOW'):
            tags.append('slow')
        if self.macro.endswith('ATTR'):
            tags.append('attr')
        return ','.join(tags)


@dataclass
class Suite:
    name: str
    source: str
    cases: List[Case] = field(default_factory=list)


def parse_source(text: str, source: str) -> List[Suite]:
    text = COMMENTS.sub(' ', text)
    arrays: Dict[str, List[Case]] = {}
    for match in CASE_ARRAY.finditer(text):
        arrays[match.group(1)] = [Case(m.group(2), m.group(1))
                                  for m in CASE_ENTRY.finditer(match.group(2))]
    suites = []
    for match in SUITE.finditer(text):
        body = match.group(2)
        name = SUITE_NAME.search(body)
        cases = SUITE_CASES.search(body)
        if name:
            suites.append(Suite(name.group(1), source,
                                arrays.get(cases.group(1), []) if cases else []))
    return suites


def find_suites(kunit_dir: Path) -> List[Suite]:
    suites: List[Suite] = []
    if not kunit_dir.is_dir():
        return suites
    for path in sorted(kunit_dir.rglob('*.c')):
        suites.extend(parse_source(path.read_text(errors='replace'),
                                   path.relative_to(kunit_dir.parent).as_posix()))
    return suites


def repo_suites(repo: Path) -> List[Suite]:
    """The suites of every directory the series carries (the benchmark is
    a KUnit suite too)."""
    return [suite for sdir in SOURCE_DIRS for suite in find_suites(sdir.src(repo))]


def glob_matches(glob: str, suite: str, case: str = '') -> bool:
    """kunit.filter_glob semantics: 'suite_glob' or 'suite_glob.case_glob'."""
    suite_glob, _, case_glob = glob.partition('.')
    if not fnmatch.fnmatchcase(suite, suite_glob):
        return False
    return not case_glob or not case or fnmatch.fnmatchcase(case, case_glob)


def selected_cases(suites: List[Suite], glob: str) -> Dict[str, List[str]]:
    """Suite -> the cases a boot with this filter glob runs, in order."""
    chosen: Dict[str, List[str]] = {}
    for suite in suites:
        if glob and not glob_matches(glob, suite.name):
            continue
        names = [c.name for c in suite.cases
                 if not glob or glob_matches(glob, suite.name, c.name)]
        chosen[suite.name] = names
    return chosen


def format_list(suites: List[Suite], globs: List[str]) -> List[str]:
    out: List[str] = []
    for suite in suites:
        if globs and not any(glob_matches(g, suite.name) for g in globs):
            continue
        cases = [c for c in suite.cases
                 if not globs or any(glob_matches(g, suite.name, c.name) for g in globs)]
        out.append(f'{suite.name}  ({suite.source}, {len(cases)} cases)')
        for case in cases:
            tag = f'  [{case.kind}]' if case.kind else ''
            out.append(f'  {suite.name}.{case.name}{tag}')
    return out
