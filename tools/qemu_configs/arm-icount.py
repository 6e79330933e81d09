# SPDX-License-Identifier: GPL-2.0
# ARMv7 (arm) under QEMU's instruction counting (-icount shift=0), as
# x86_64-icount.py: the guest's clocks advance by 1 ns per instruction, so
# the bench's times are instruction counts; vCPUs run in turn on one host
# thread (lrb_bench.serial=1). Benchmark only.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='arm',
			   kconfig='''
CONFIG_ARCH_VIRT=y
CONFIG_SERIAL_AMBA_PL010=y
CONFIG_SERIAL_AMBA_PL010_CONSOLE=y
CONFIG_SERIAL_AMBA_PL011=y
CONFIG_SERIAL_AMBA_PL011_CONSOLE=y
CONFIG_SMP=y''',
			   qemu_arch='arm',
			   kernel_path='arch/arm/boot/zImage',
			   kernel_command_line='console=ttyAMA0 printk.time=1 lrb_bench.serial=1',
			   extra_qemu_params=['-machine', 'virt', '-smp', '4',
					      '-icount', 'shift=0,sleep=off'])
