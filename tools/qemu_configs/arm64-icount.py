# SPDX-License-Identifier: GPL-2.0
# arm64 (LSE atomics, pointer authentication) under QEMU's instruction
# counting (-icount shift=0): the guest's clocks advance by exactly 1 ns per
# instruction executed, so a time the guest measures is an instruction count,
# the same on every run and on any host. vCPUs then run in turn on one host
# thread, so only what runs on one CPU at a time means anything
# (lrb_bench.serial=1, on the command line here, skips the other cases).
# sleep=off: idle time is skipped, not waited for. Benchmark only; the kernel
# image of arm64-lse.py.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='arm64',
			   kconfig='''
CONFIG_SERIAL_AMBA_PL010=y
CONFIG_SERIAL_AMBA_PL010_CONSOLE=y
CONFIG_SERIAL_AMBA_PL011=y
CONFIG_SERIAL_AMBA_PL011_CONSOLE=y
CONFIG_SMP=y''',
			   qemu_arch='aarch64',
			   kernel_path='arch/arm64/boot/Image.gz',
			   kernel_command_line='console=ttyAMA0 printk.time=1 lrb_bench.serial=1',
			   extra_qemu_params=['-machine', 'virt', '-cpu', 'max,pauth-impdef=on',
					      '-smp', '4', '-icount', 'shift=0,sleep=off'])
