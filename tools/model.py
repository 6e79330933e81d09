#!/usr/bin/env python3
"""SPIN on model/lrb.pml: the configurations, the mutations' trails, and the
lrb_nesting replays of the writer-only trails.

    tools/model.py run [--deep] [NAME ...]   make model / make model-deep
    tools/model.py trail NAME                make model-trail M=NAME
    tools/model.py trail --all               every mutation
    tools/model.py nesting-trails            write kunit/lrb_nesting_trails.h

run exits 1 when a property fails, a search is not exhaustive or spin/gcc
is missing; trail exits 1 when SPIN does not refute the mutation.
"""

import argparse
import sys
import time
from pathlib import Path
from typing import List, Optional, Sequence

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
MUTATION_TIMEOUT_S = 300


def say(line: str) -> None:
    print(line, flush=True)


def verify(config: mc.Config, timeout_s: int) -> model_pan.PanResult:
    cflags = model_pan.LIVENESS_CFLAGS if config.liveness else model_pan.SAFETY_CFLAGS
    pan = model_pan.build(MODEL, WORK / config.name, config.all_defines(), cflags)
    return model_pan.run(pan, timeout_s,
                         model_pan.LIVENESS_ARGS if config.liveness else ())


def run_configs(configs: Sequence[mc.Config], timeout_s: int) -> bool:
    """Each configuration in turn; True when all are exhaustive and hold."""
    missing = model_pan.missing_tools()
    if missing:
        say('model: FAIL: missing ' + ', '.join(missing) + ' (make deps installs them)')
        return False
    start = time.monotonic()
    ok = True
    for config in configs:
        res = verify(config, timeout_s)
        verdict = 'ok  ' if res.ok else 'FAIL'
        say(f'  {verdict} {config.name}: {model_pan.figures(res)}')
        if res.violation:
            say(f'       {res.violation} (trail: {WORK / config.name})')
        ok = ok and res.ok
    say(f'model: {"all properties hold, every search exhaustive" if ok else "FAILED"} '
        f'({len(configs)} configurations, {time.monotonic() - start:.0f}s)')
    return ok


def run_ci() -> bool:
    """What make model and make test run."""
    say('model: SPIN on model/lrb.pml, exhaustive (no -DBITSTATE): gcc ' +
        ' '.join(model_pan.PAN_CFLAGS) + ', safety ' + ' '.join(model_pan.SAFETY_CFLAGS) +
        ', LTL ' + ' '.join(model_pan.LIVENESS_CFLAGS) + ' pan ' +
        ' '.join(model_pan.PAN_ARGS + model_pan.LIVENESS_ARGS))
    return run_configs(mc.CI, CI_TIMEOUT_S)


def refute(mutation: mc.Mutation) -> List[model_trail.Step]:
    """The mutation's counterexample, replayed; raises if SPIN finds none."""
    defines = mutation.all_defines()
    workdir = WORK / ('mutation-' + mutation.name)
    shortest = mutation.shortest
    pan = model_pan.build(MODEL, workdir, defines, model_pan.SAFETY_CFLAGS +
                          (model_pan.SHORTEST_CFLAGS if shortest else []))
    res = model_pan.run(pan, MUTATION_TIMEOUT_S, model_pan.SHORTEST_ARGS if shortest else ())
    if not res.errors:
        raise model_pan.ModelError(f'{mutation.name}: SPIN found no violation '
                                   f'({model_pan.figures(res)})')
    text = model_trail.replay(workdir, MODEL.name, defines)
    steps = model_trail.parse(text)
    say(f'== {mutation.name}: {mutation.what}')
    say(f'   spin {" ".join(model_pan.define_args(defines))}')
    say(f'   refuted: {res.violation}; {len(steps)} steps'
        f'{" (the shortest)" if shortest else ""}; states {res.states:,}, {res.seconds:.1f}s')
    return steps


def cmd_trail(names: Sequence[str], everything: bool) -> int:
    chosen = mc.MUTATIONS if everything else [mc.by_name(n) for n in names]
    for mutation in chosen:
        steps = refute(mutation)
        for line in model_trail.render(steps):
            say('   ' + line)
        say('')
    return 0


def cmd_nesting() -> int:
    replays = []
    for mutation in mc.MUTATIONS:
        if not mutation.writer_only:
            continue
        steps = refute(mutation)
        defines = mutation.all_defines()
        replays.append(model_nesting.convert(steps, mutation.name + '_1', mutation.plant,
                                             defines['PAGES'], bool(defines['OVERWRITE'])))
    TRAILS_H.write_text(model_nesting.header(replays))
    say(f'wrote {TRAILS_H.relative_to(REPO)}: {len(replays)} replays')
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    run = sub.add_parser('run', help='verify the configurations')
    run.add_argument('--deep', action='store_true', help='make model-deep')
    run.add_argument('names', nargs='*')
    trail = sub.add_parser('trail', help='refute a mutation and print its trail')
    trail.add_argument('--all', action='store_true')
    trail.add_argument('names', nargs='*')
    sub.add_parser('nesting-trails', help='write ' + str(TRAILS_H.relative_to(REPO)))
    args = ap.parse_args(argv)
    try:
        if args.cmd == 'run':
            pool = mc.DEEP if args.deep else mc.CI
            chosen = [c for c in pool if not args.names or c.name in args.names]
            timeout_s = DEEP_TIMEOUT_S if args.deep else CI_TIMEOUT_S
            return 0 if run_configs(chosen, timeout_s) else 1
        if args.cmd == 'trail':
            return cmd_trail(args.names, args.all)
        return cmd_nesting()
    except (model_pan.ModelError, model_nesting.NotReplayable, KeyError) as err:
        print(f'model: {err}', file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main())
