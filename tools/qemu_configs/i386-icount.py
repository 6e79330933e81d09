# SPDX-License-Identifier: GPL-2.0
# i386 under QEMU's instruction counting (-icount shift=0), as
# x86_64-icount.py: the guest's clocks advance by 1 ns per instruction, so
# the bench's times are instruction counts; vCPUs run in turn on one host
# thread (lrb_bench.serial=1). Benchmark only.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='i386',
			   kconfig='''
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_SMP=y''',
			   qemu_arch='i386',
			   kernel_path='arch/x86/boot/bzImage',
			   kernel_command_line='console=ttyS0 printk.time=1 lrb_bench.serial=1',
			   extra_qemu_params=['-bios', 'qboot.rom', '-smp', '4',
					      '-icount', 'shift=0,sleep=off'])
