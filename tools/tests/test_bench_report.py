"""tools/bench_report.py: parsing lrb_bench log lines, the markdown page and
the gnuplot script, without a kernel."""

import json
import shutil
import unittest
from pathlib import Path
from typing import Dict

import bench_report as br

from .helpers import DATA, TempDirTest

LOG = DATA / 'bench' / 'x86_64.log'


def run_of_log() -> br.Run:
    return br.parse_log(LOG.read_text(), 'x86_64')


class ParseTest(unittest.TestCase):
    def test_figure_line(self) -> None:
        run = br.Run('x86_64')
        br.parse_line('[ 2.0]     # write_local: lrb-bench impl=kernel case=write payload=8 '
                      'mode=overwrite reader=none ns_per_event=100.5 spread=3.5% reps=7 '
                      'events=100000 dropped=2', run)
        fig = run.figures[0]
        self.assertEqual(('kernel', 'write', 8, 'overwrite', 'none', 0),
                         (fig.impl, fig.case, fig.payload, fig.mode, fig.reader, fig.cpus))
        self.assertEqual(('ns_per_event', 100.5, 3.5, 7, 100000, 2),
                         (fig.unit, fig.value, fig.spread, fig.reps, fig.events, fig.dropped))

    def test_rate_ratio_config_and_version(self) -> None:
        run = run_of_log()
        self.assertEqual('6.12.118', run.kernel)
        self.assertEqual('x86_64', run.config['arch'])
        self.assertEqual('0', run.config['smoke'])
        agg = run.figure(('aggregate', 64, 'overwrite', 'none', 2), 'lrb')
        self.assertIsNotNone(agg)
        assert agg is not None
        self.assertEqual(('events_per_s', 19e6), (agg.unit, agg.value))
        ratio = run.ratio(('write', 8, 'overwrite', 'none', 0))
        assert ratio is not None
        self.assertEqual((0.5, 0.62), (ratio.lrb_kernel, ratio.lrb_locked))
        self.assertEqual(23, len(run.figures))

    def test_best_ratios(self) -> None:
        run = br.Run('x86_64')
        br.parse_line('lrb-bench-ratio case=write payload=8 mode=overwrite reader=none '
                      'lrb_kernel=0.70 lrb_locked=0.90 best_lrb_kernel=0.61 '
                      'best_lrb_locked=0.85', run)
        ratio = run.ratios[0]
        self.assertEqual((0.61, 0.85), (ratio.best_kernel, ratio.best_locked))
        self.assertEqual('0.70 ✗ (0.61)', br.fmt_ratio(0.70, 0.6, 0.61))

    def test_other_lines_ignored(self) -> None:
        run = br.Run('x86_64')
        for line in ('ok 1 setup', 'lrb-benchmark is not us', '# Subtest: lrb_bench'):
            br.parse_line(line, run)
        self.assertEqual([], run.figures)

    def test_malformed_line(self) -> None:
        with self.assertRaises(br.ReportError):
            br.parse_line('lrb-bench impl=lrb case=write ns_per_event=abc', br.Run('x'))

    def test_empty_log(self) -> None:
        with self.assertRaises(br.ReportError):
            br.parse_log('Linux version 6.12\n', 'arm64')

    def test_key_order(self) -> None:
        keys = run_of_log().keys(br.WRITE_CASES)
        self.assertEqual([('write', 8, 'overwrite', 'none', 0),
                          ('write', 64, 'overwrite', 'none', 0),
                          ('write', 64, 'prodcons', 'drain', 0),
                          ('write_reader', 64, 'overwrite', 'consume', 0)], keys)


class MarkdownTest(unittest.TestCase):
    def setUp(self) -> None:
        insn: Dict[str, Dict[str, object]] = {'x86_64': {'lrb': {'reserve': 60, 'commit': 20, 'total': 80,
                                   'functions': ['lrb_lock_reserve']},
                           'kernel': {'reserve': 100, 'commit': 60, 'total': 160,
                                      'functions': ['ring_buffer_lock_reserve']}}}
        env = br.Env('make bench', {'x86_64': '7.2.22'}, insn)
        self.md = br.render_markdown([run_of_log()], env)

    def test_header_and_environment(self) -> None:
        self.assertIn('Command: `make bench`', self.md)
        self.assertIn('only the ratios', self.md)
        self.assertIn('## x86_64', self.md)
        self.assertIn('- kernel: 6.12.118', self.md)
        self.assertIn('- QEMU: 7.2.22', self.md)

    def test_write_row(self) -> None:
        self.assertIn('| write | 64 | overwrite | none | 70.0 ±2% | 100.0 ±4% | 90.0 ±1% '
                      '| 0.70 ✗ | 0.77 |', self.md)
        self.assertIn('| write_reader | 64 | overwrite | consume | 75.0 ±4% | 110.0 ±4% '
                      '| 200.0 ±9% | 0.68 | 0.37 |', self.md)

    def test_floor_row(self) -> None:
        self.assertIn('### What the loop costs without a buffer', self.md)
        self.assertIn('| 64 | overwrite | 10.0 ±5% | 30.0 ±5% | 60.0 | 90.0 | 80.0 '
                      '| 0.67 ✗ | 0.75 | 0.57 |', self.md)
        self.assertIn('net of the loop and the payload copy', self.md)
        self.assertIn('≤ 0.6 in 0 of 1 cases (worst 0.67)', self.md)

    def test_floor_lost_in_noise(self) -> None:
        run = run_of_log()
        key = ('write', 64, 'overwrite', 'none', 0)
        self.assertIsNone(br._net(run, key, 'lrb', 'floor_missing'))
        run.figures.append(br.Figure('floor_copy', 'write', 8, 'overwrite', 'none', 0,
                                     'ns_per_event', 1e6, 0, 7, 1, 0))
        self.assertIsNone(br._net(run, ('write', 8, 'overwrite', 'none', 0), 'lrb',
                                  'floor_copy'))

    def test_rates_and_targets(self) -> None:
        self.assertIn('| 2 | 19.00 M ±1% | 13.00 M ±1% | 15.00 M ±1% | 0.68 | 0.79 |', self.md)
        self.assertIn('| read_consume | 5.00 M ±2%', self.md)
        self.assertIn('met in 2 of 3 cases (worst 0.70)', self.md)
        self.assertIn('met in 1 of 1 cases (worst 0.37)', self.md)
        self.assertIn('lrb is slower than the locked baseline (median ratio above 1) in: '
                      'read_consume 64 prodcons.', self.md)

    def test_insn(self) -> None:
        self.assertIn('| lrb | 60 | 20 | 80 | ? | lrb_lock_reserve |', self.md)
        self.assertIn('lrb/kernel: 0.50', self.md)
        self.assertIn('## Static instruction count: method', self.md)

    def test_smoke_marked(self) -> None:
        run = run_of_log()
        run.config['smoke'] = '1'
        md = br.render_markdown([run], br.Env('make test', {}))
        self.assertIn('smoke run', md)


class SerialTest(unittest.TestCase):
    """A run under QEMU -icount: its times are instruction counts."""

    def setUp(self) -> None:
        text = (DATA / 'bench' / 'x86_64-icount.log').read_text()
        self.serial_run = br.parse_log(text, 'x86_64-icount')
        self.md = br.render_markdown([self.serial_run], br.Env('make bench', {}))

    def test_static_count_where_no_timed_section_has_the_kernel(self) -> None:
        """An -icount section shows its kernel's static count only when no
        timed section boots that kernel (riscv64-icount: yes; x86_64-icount
        beside x86_64, and arm64-icount beside arm64-nopac: no)."""
        runs = [br.Run('x86_64'), br.Run('x86_64-icount', {'serial': '1'}),
                br.Run('arm64-nopac'), br.Run('arm64-icount', {'serial': '1'}),
                br.Run('riscv64-icount', {'serial': '1'})]
        self.assertEqual(br.serial_only(runs), frozenset({'riscv64-icount'}))
        insn: Dict[str, object] = {'lrb': {'reserve': 135, 'commit': 40, 'total': 175,
                                           'clock': 51, 'functions': ['lrb_lock_reserve']}}
        run = br.parse_log((DATA / 'bench' / 'x86_64-icount.log').read_text(), 'riscv64-icount')
        alone = br.render_markdown([run], br.Env('make bench', {}, {'riscv64-icount': insn}))
        self.assertIn('### Static instruction count of the write fast path', alone)
        beside = br.render_markdown([br.Run('riscv64'), run],
                                    br.Env('make bench', {}, {'riscv64-icount': insn}))
        self.assertNotIn('### Static instruction count of the write fast path', beside)

    def test_serial_from_config(self) -> None:
        self.assertTrue(self.serial_run.serial)
        self.assertFalse(run_of_log().serial)

    def test_instructions_not_times(self) -> None:
        self.assertIn('### Writes (instructions per event, median ± spread)', self.md)
        self.assertIn('| write | 64 | overwrite | none | 250.0 ±0.1% | 418.0 ±0.0% '
                      '| 220.0 ±0.2% | 0.59 (0.59) | 1.13 (1.13) |', self.md)
        self.assertIn('(instructions per event): met in 1 of 1 cases', self.md)
        self.assertIn('lrb executes more instructions than the locked baseline', self.md)
        self.assertNotIn('ns/ev', self.md)

    def test_rates_become_instructions_per_event(self) -> None:
        self.assertIn('### Reader cost', self.md)
        self.assertIn('| read_consume | 200.0 ±0.2% | 250.0 ±0.2% | 100.0 ±0.3% |', self.md)

    def test_what_was_not_measured(self) -> None:
        self.assertIn('with a reader running: not measured here', self.md)
        self.assertNotIn('### Aggregate', self.md)
        self.assertNotIn('### Static instruction count of the write fast path', self.md)

    def test_chart_middle_panel_is_net(self) -> None:
        writes, middle, agg = br.chart_rows(self.serial_run)
        self.assertEqual([[64, '250.0', '418.0', '220.0']], writes)
        self.assertEqual([[64, '195.0', '363.0', '165.0']], middle)
        self.assertEqual([], agg)
        script = br.gnuplot_script([self.serial_run], 'x.png')
        self.assertIn('instructions per event, lower is better', script)
        self.assertNotIn('writer CPUs', script)
        self.assertIn('set multiplot next', script)


class ChartTest(TempDirTest):
    def test_script(self) -> None:
        script = br.gnuplot_script([run_of_log()], 'out.png')
        self.assertIn("set output 'out.png'", script)
        self.assertIn('set multiplot layout 1,3', script)
        self.assertIn('$w0 << EOD\n8 50.0 100.0 80.0\n64 70.0 100.0 90.0\nEOD', script)
        self.assertIn('$m0 << EOD\n64 75.0 110.0 200.0\nEOD', script)
        self.assertIn('a reader consuming on another CPU', script)
        self.assertIn('$a0 << EOD\n1 10.000 7.000 8.000\n2 19.000 13.000 15.000\nEOD', script)

    def test_main_writes_files(self) -> None:
        out = self.tmp / 'bench.md'
        args = ['--log', f'x86_64={LOG}', '--qemu', 'x86_64=7.2.22', '--out', str(out),
                '--png', str(self.tmp / 'bench.png')]
        if shutil.which('gnuplot') is None:
            args.append('--no-png')
        self.assertEqual(0, br.main(args))
        self.assertIn('## x86_64', out.read_text())
        if shutil.which('gnuplot'):
            self.assertEqual(b'\x89PNG', (self.tmp / 'bench.png').read_bytes()[:4])

    def test_main_refuses_smoke(self) -> None:
        log = self.tmp / 'smoke.log'
        log.write_text(LOG.read_text().replace('smoke=0', 'smoke=1'))
        self.assertEqual(1, br.main(['--log', f'x86_64={log}', '--no-png',
                                     '--out', str(self.tmp / 'x.md')]))

    def test_insn_json(self) -> None:
        insn = self.tmp / 'insn.json'
        insn.write_text(json.dumps({'lrb': {'total': 1}, 'kernel': {'total': 2}}))
        out = self.tmp / 'b.md'
        self.assertEqual(0, br.main(['--log', f'x86_64={LOG}', '--insn', f'x86_64={insn}',
                                     '--qemu', 'x86_64=q', '--no-png', '--out', str(out)]))
        self.assertIn('lrb/kernel: 0.50', out.read_text())


if __name__ == '__main__':
    unittest.main()
