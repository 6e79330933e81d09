# SPDX-License-Identifier: GPL-2.0
# riscv64 under QEMU's instruction counting (-icount shift=0), as
# x86_64-icount.py: the guest's clocks advance by 1 ns per instruction, so
# the bench's times are instruction counts; vCPUs run in turn on one host
# thread (lrb_bench.serial=1). Benchmark only.
# kunit.py loads each config file on its own, by path: this one runs
# riscv64.py's code, then adds -icount and lrb_bench.serial=1 to its target.
import dataclasses
import os.path

_BASE = os.path.join(os.path.dirname(__file__), 'riscv64.py')
with open(_BASE, encoding='utf-8') as _base:
	exec(compile(_base.read(), _BASE, 'exec'))  # defines QEMU_ARCH, the base target

QEMU_ARCH = dataclasses.replace(
	QEMU_ARCH,
	kernel_command_line=QEMU_ARCH.kernel_command_line + ' lrb_bench.serial=1',
	extra_qemu_params=[*QEMU_ARCH.extra_qemu_params,
			   '-icount', 'shift=0,sleep=off'])
