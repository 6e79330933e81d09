# SPDX-License-Identifier: GPL-2.0
# arm64 (LSE atomics, pointer authentication) under QEMU's instruction
# counting (-icount shift=0): the guest's clocks advance by exactly 1 ns per
# instruction executed, so a time the guest measures is an instruction count,
# the same on every run and on any host. vCPUs then run in turn on one host
# thread, so only what runs on one CPU at a time means anything
# (lrb_bench.serial=1, on the command line here, skips the other cases).
# sleep=off: idle time is skipped, not waited for. Benchmark only; the kernel
# image of arm64-lse.py.
# kunit.py loads each config file on its own, by path: this one runs
# arm64-lse.py's code, then adds -icount and lrb_bench.serial=1 to its target.
import dataclasses
import os.path

_BASE = os.path.join(os.path.dirname(__file__), 'arm64-lse.py')
with open(_BASE, encoding='utf-8') as _base:
	exec(compile(_base.read(), _BASE, 'exec'))  # defines QEMU_ARCH, the base target

QEMU_ARCH = dataclasses.replace(
	QEMU_ARCH,
	kernel_command_line=QEMU_ARCH.kernel_command_line + ' lrb_bench.serial=1',
	extra_qemu_params=[*QEMU_ARCH.extra_qemu_params,
			   '-icount', 'shift=0,sleep=off'])
