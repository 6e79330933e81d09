# SPDX-License-Identifier: GPL-2.0
# 32-bit arm target of the harness: kunit.py's arm.py (ARMv7, QEMU virt,
# whose default CPU is a Cortex-A15, PL011 console) plus SMP and 4 CPUs,
# brought up through PSCI. Its atomics are LL/SC (ldrex/strex, ldrexd/strexd
# for local64_t: lrb's write word and time stamp, the kernel's time stamps);
# no NMI.
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
			   kernel_command_line='console=ttyAMA0 printk.time=1',
			   extra_qemu_params=['-machine', 'virt', '-smp', '4'])
