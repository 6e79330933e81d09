#!/usr/bin/env python3
"""SPIN on model/lrb.pml: the configurations, the mutations' trails, and the
lrb_nesting replays of the writer-only trails.

    tools/model.py run [--deep] [NAME ...]   make model / make model-deep
    tools/model.py trail NAME                make model-trail M=NAME
    tools/model.py trail --all               every mutation, and the variants
                                             SPIN must not refute
    tools/model.py nesting-trails            write kunit/lrb_nesting_trails.h

run exits 1 when a property fails, a search is not exhaustive, spin/gcc is
missing, or (all of make model's configurations) model code that no
configuration reaches is not listed with a reason; trail exits 1 when SPIN
does not refute a mutation with the property it names, or refutes a variant
listed as unrefuted.
"""

import argparse
import re
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

import model_configs as mc  # noqa: E402
import model_nesting  # noqa: E402
import model_pan  # noqa: E402
import model_trail  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
MODEL = REPO / 'model' / 'lrb.pml'
WORK = REPO / 'results' / 'model'
TRAILS_H = REPO / 'kunit' / 'lrb_nesting_trails.h'
CI_TIMEOUT_S = 150          # per configuration; make model's total stays under 3 minutes
DEEP_TIMEOUT_S = 4 * 3600
MUTATION_TIMEOUT_S = 600
# make model's configurations searched side by side: pan is single-threaded,
# the machine has two cores, and each search stays under 600 MB; make
# model-deep searches one at a time (its figures are a search alone)
CI_SEARCHES = 2


def say(line: str) -> None:
    print(line, flush=True)


def describe(config: mc.Config) -> str:
    d = config.all_defines()
    parts = []
    if d.get('WEAK'):
        parts.append('weak: ' + mc.weak_names(d['WEAK']))
    if d.get('ANYWHERE'):
        parts.append('interrupts anywhere')
    if d.get('RDCPU'):
        parts.append("reader on the writers' CPU")
    if config.liveness:
        parts.append('LTL' if config.fair else 'LTL, no fairness needed')
    return f' [{"; ".join(parts)}]' if parts else ''


PROCTYPES = ('Writer', 'Reader', 'Loads', 'init')


class Coverage:
    """Statements of the model each configuration has, and those it reached."""

    def __init__(self) -> None:
        self.present: Set[model_pan.Statement] = set()
        self.reached: Set[model_pan.Statement] = set()

    def add(self, present: Dict[model_pan.Place, Tuple[int, str]],
            unreached: FrozenSet[model_pan.Place]) -> None:
        for place, (line, text) in present.items():
            if place[0] not in PROCTYPES:
                continue                        # the LTL claim's own states
            stmt = (place[0], line, text)
            self.present.add(stmt)
            if place not in unreached:
                self.reached.add(stmt)

    def unexplained(self) -> List[model_pan.Statement]:
        """Lines of the model no configuration reached (none of their
        statements) and UNREACHED_OK does not list: one statement of each,
        its numbers (the configurations' defines) replaced by '#'."""
        reached = {(proc, line) for proc, line, _ in self.reached}
        source = MODEL.read_text().splitlines()
        out: Dict[Tuple[str, int], model_pan.Statement] = {}
        for stmt in sorted(self.present):
            proc, line, text = normal(stmt)
            if (proc, line) in reached or (proc, line) in out or text.startswith('printf('):
                continue                        # printf: the step lines of a trail
            src = source[line - 1] if 0 < line <= len(source) else ''
            if any(p == proc and (re.search(pat, src) or re.search(pat, text))
                   for p, pat, _ in mc.UNREACHED_OK):
                continue
            out[(proc, line)] = (proc, line, text)
        return sorted(out.values())


def normal(stmt: model_pan.Statement) -> model_pan.Statement:
    """A statement with its numbers replaced by '#'."""
    proc, line, text = stmt
    return proc, line, re.sub(r'\b\d+\b', '#', text)


def liveness_args(config: mc.Config) -> List[str]:
    """pan -a, with -f (weak fairness) where the configuration asks for it."""
    return model_pan.LIVENESS_ARGS if config.fair else ['-a']


def build(config: mc.Config) -> Path:
    cflags = model_pan.LIVENESS_CFLAGS if config.liveness else model_pan.SAFETY_CFLAGS
    opt = model_pan.OPT_BIG if config.big else model_pan.OPT_SMALL
    return model_pan.build(MODEL, WORK / config.name, config.all_defines(), cflags, opt)


Present = Dict[model_pan.Place, Tuple[int, str]]


def build_and_verify(config: mc.Config, timeout_s: int,
                     check_reach: bool) -> Tuple[model_pan.PanResult, Present, float]:
    """One configuration whole: its result, its statements (check_reach),
    its wall time."""
    t0 = time.monotonic()
    pan = build(config)
    res = model_pan.run(pan, timeout_s, liveness_args(config) if config.liveness else ())
    present = model_pan.statements(pan) if check_reach else {}
    return res, present, time.monotonic() - t0


def run_configs(configs: Sequence[mc.Config], timeout_s: int, check_reach: bool,
                searches: int = 1) -> bool:
    """Every configuration, `searches` at a time; True when all are exhaustive
    and hold, and (check_reach) every statement no configuration reached is
    listed. Reported in the configurations' order."""
    missing = model_pan.missing_tools()
    if missing:
        say('model: FAIL: missing ' + ', '.join(missing) + ' (make deps installs them)')
        return False
    start = time.monotonic()
    ok = True
    coverage = Coverage() if check_reach else None
    with ThreadPoolExecutor(max_workers=searches) as pool:
        runs: List[Future[Tuple[model_pan.PanResult, Present, float]]] = [
            pool.submit(build_and_verify, c, timeout_s, check_reach) for c in configs]
        for config, job in zip(configs, runs):
            res, present, took = job.result()
            if coverage is not None:
                coverage.add(present, res.unreached)
            verdict = 'ok  ' if res.ok else 'FAIL'
            say(f'  {verdict} {config.name}{describe(config)}: {model_pan.figures(res)}, '
                f'{took:.0f}s')
            if res.violation:
                say(f'       {res.violation} (trail: {WORK / config.name})')
            ok = ok and res.ok
    if coverage is not None:
        never = coverage.unexplained()
        for proc, line, text in never:
            say(f'  FAIL unreached in every configuration: {proc} lrb.pml:{line} "{text}" '
                '(reach it, or list it in model_configs.UNREACHED_OK with the reason)')
        ok = ok and not never
    say(f'model: {"all properties hold, every search exhaustive" if ok else "FAILED"} '
        f'({len(configs)} configurations, {searches} at a time, '
        f'{time.monotonic() - start:.0f}s)')
    return ok


def run_ci() -> bool:
    """What make model and make test run."""
    say('model: SPIN on model/lrb.pml, exhaustive (no -DBITSTATE): gcc ' +
        ' '.join(model_pan.PAN_CFLAGS) + ', safety ' + ' '.join(model_pan.SAFETY_CFLAGS) +
        ', LTL ' + ' '.join(model_pan.LIVENESS_CFLAGS) + ' pan ' +
        ' '.join(model_pan.PAN_ARGS + model_pan.LIVENESS_ARGS))
    return run_configs(mc.CI, CI_TIMEOUT_S, True, CI_SEARCHES)


def search(mutation: mc.Mutation) -> Tuple[model_pan.PanResult, Path]:
    defines = mutation.all_defines()
    workdir = WORK / ('mutation-' + mutation.name)
    liveness = bool(defines.get('LTL_SETTLES'))
    shortest = mutation.shortest and not liveness
    cflags = (model_pan.LIVENESS_CFLAGS if liveness else model_pan.SAFETY_CFLAGS) + \
        (model_pan.SHORTEST_CFLAGS if shortest else [])
    pan = model_pan.build(MODEL, workdir, defines, cflags,
                          model_pan.OPT_BIG if mutation.config.big else model_pan.OPT_SMALL)
    args: List[str] = []
    if liveness:
        args += liveness_args(mutation.config)
    if shortest:
        args += model_pan.SHORTEST_ARGS
    return model_pan.run(pan, MUTATION_TIMEOUT_S, args), workdir


def refute(mutation: mc.Mutation) -> Tuple[List[model_trail.Step], model_pan.PanResult]:
    """The mutation's counterexample, replayed; raises if SPIN finds none or
    finds one that breaks another property than the one it names."""
    res, workdir = search(mutation)
    if not res.errors:
        raise model_pan.ModelError(f'{mutation.name}: SPIN found no violation '
                                   f'({model_pan.figures(res)})')
    if not mutation.property.broken_by(res.violation):
        raise model_pan.ModelError(
            f'{mutation.name}: refuted by "{res.violation}", not by {mutation.breaks} '
            f'({mutation.property.what}): the mutation must break the property it names')
    text = model_trail.replay(workdir, MODEL.name, mutation.all_defines())
    return model_trail.parse(text), res


def cmd_trail(names: Sequence[str], everything: bool) -> int:
    chosen = mc.MUTATIONS if everything else [mc.by_name(n) for n in names]
    unrefuted = dict((m.name, why) for m, why in mc.UNREFUTED)
    rows: List[Tuple[str, str, int, int, float]] = []
    failed = 0
    for mutation in chosen:
        if mutation.name in unrefuted:
            failed += not check_unrefuted(mutation, unrefuted[mutation.name])
            continue
        try:
            steps, res = refute(mutation)
        except model_pan.ModelError as err:
            say(f'== {mutation.name}: FAIL: {err}')
            failed += 1
            continue
        say(f'== {mutation.name}: {mutation.what}')
        say(f'   spin {" ".join(model_pan.define_args(mutation.all_defines()))}')
        say(f'   refuted by {mutation.breaks} ({mutation.property.what}): {res.violation}; '
            f'{len(steps)} steps{" (the shortest)" if mutation.shortest else ""}; '
            f'states {res.states:,}, {res.seconds:.1f}s')
        for line in model_trail.render(steps):
            say('   ' + line)
        say('')
        rows.append((mutation.name, mutation.breaks, len(steps), res.states, res.seconds))
    if everything:
        for mutation, why in mc.UNREFUTED:
            failed += not check_unrefuted(mutation, why)
        say('mutation                  property            steps       states      time')
        for name, prop, nsteps, states, secs in rows:
            say(f'{name:<25} {prop:<18} {nsteps:>6} {states:>12,} {secs:>8.1f}s')
    say(f'model-trail: {len(rows)} refuted by the property each names, {failed} failed')
    return 1 if failed else 0


def check_unrefuted(mutation: mc.Mutation, why: str) -> bool:
    """A variant listed as unrefuted: its search completes with no violation."""
    res, _ = search(mutation)
    if res.errors:
        say(f'== {mutation.name}: FAIL: listed as not refuted, but SPIN refutes it '
            f'({res.violation}): move it to MUTATIONS')
        return False
    say(f'== {mutation.name}: not refuted, as listed ({model_pan.figures(res)}): {why}')
    return res.ok


def cmd_nesting() -> int:
    replays = []
    for mutation in mc.MUTATIONS:
        if not mutation.writer_only or not mutation.plant:
            continue
        if mutation.name in model_nesting.PINNED:
            replay, why = model_nesting.PINNED[mutation.name]
            say(f'{mutation.name}: the replay pinned in tools/model_nesting.py ({why})')
            replays.append(replay)
            continue
        steps, _ = refute(mutation)
        defines = mutation.all_defines()
        replays.append(model_nesting.convert(steps, mutation.name + '_1', mutation.plant,
                                             defines['PAGES'], bool(defines['OVERWRITE'])))
    TRAILS_H.write_text(model_nesting.header(replays))
    say(f'wrote {TRAILS_H.relative_to(REPO)}: {len(replays)} replays')
    return 0


def pick(pool: Sequence[mc.Config], names: Sequence[str]) -> List[mc.Config]:
    """The configurations of pool named (in the order named), or all of it."""
    if not names:
        return list(pool)
    by_name = {c.name: c for c in pool}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise KeyError(f'no configuration {", ".join(unknown)}; known: {", ".join(by_name)}')
    return [by_name[n] for n in names]


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    run = sub.add_parser('run', help='verify the configurations')
    run.add_argument('--deep', action='store_true', help='make model-deep')
    run.add_argument('--timeout', type=int, default=0,
                     help='seconds per configuration (default: 150, --deep 4 hours)')
    run.add_argument('names', nargs='*', help='configurations, run in this order')
    trail = sub.add_parser('trail', help='refute a mutation and print its trail')
    trail.add_argument('--all', action='store_true')
    trail.add_argument('names', nargs='*')
    sub.add_parser('nesting-trails', help='write ' + str(TRAILS_H.relative_to(REPO)))
    args = ap.parse_args(argv)
    try:
        if args.cmd == 'run':
            if not args.deep and not args.names and not args.timeout:
                return 0 if run_ci() else 1
            chosen = pick(mc.DEEP if args.deep else mc.CI + mc.DEEP, args.names)
            timeout_s = args.timeout or (DEEP_TIMEOUT_S if args.deep else CI_TIMEOUT_S)
            return 0 if run_configs(chosen, timeout_s, False) else 1
        if args.cmd == 'trail':
            return cmd_trail(args.names, args.all)
        return cmd_nesting()
    except (model_pan.ModelError, model_nesting.NotReplayable, KeyError) as err:
        print(f'model: {err}', file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main())
