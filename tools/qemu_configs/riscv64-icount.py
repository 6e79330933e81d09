# SPDX-License-Identifier: GPL-2.0
# riscv64 under QEMU's instruction counting (-icount shift=0), as
# x86_64-icount.py: the guest's clocks advance by 1 ns per instruction, so
# the bench's times are instruction counts; vCPUs run in turn on one host
# thread (lrb_bench.serial=1). Benchmark only.
import os.path
import sys

from ..qemu_config import QemuArchParams

OPENSBI_PATH = '/usr/share/qemu/opensbi-riscv64-generic-fw_dynamic.bin'

if not os.path.isfile(OPENSBI_PATH):
	sys.exit(f'{OPENSBI_PATH} is missing: it is in qemu-system-data (make deps)')

QEMU_ARCH = QemuArchParams(linux_arch='riscv',
			   kconfig='''
CONFIG_ARCH_VIRT=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_SERIAL_OF_PLATFORM=y
CONFIG_RISCV_SBI_V01=y
CONFIG_SERIAL_EARLYCON_RISCV_SBI=y
CONFIG_NONPORTABLE=y
CONFIG_SMP=y''',
			   qemu_arch='riscv64',
			   kernel_path='arch/riscv/boot/Image',
			   kernel_command_line='console=ttyS0 printk.time=1 lrb_bench.serial=1',
			   extra_qemu_params=['-machine', 'virt', '-cpu', 'rv64', '-bios', OPENSBI_PATH,
					      '-smp', '4',
					      '-icount', 'shift=0,sleep=off'])
