# SPDX-License-Identifier: GPL-2.0
# x86_64 under QEMU's instruction counting (-icount shift=0): the guest's
# clocks advance by exactly 1 ns per instruction executed, so a time the guest
# measures is an instruction count, the same on every run and on any host.
# vCPUs then run in turn on one host thread, so only what runs on one CPU at a
# time means anything (lrb_bench.serial=1, on the command line here, skips the
# other cases). sleep=off: idle time is skipped, not waited for. Benchmark
# only.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='x86_64',
			   kconfig='''
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_SMP=y''',
			   qemu_arch='x86_64',
			   kernel_path='arch/x86/boot/bzImage',
			   kernel_command_line='console=ttyS0 printk.time=1 lrb_bench.serial=1',
			   extra_qemu_params=['-bios', 'qboot.rom', '-smp', '4',
					      '-icount', 'shift=0,sleep=off'])
