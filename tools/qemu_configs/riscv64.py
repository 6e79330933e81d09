# SPDX-License-Identifier: GPL-2.0
# riscv64 target of the harness: kunit.py's riscv.py (QEMU virt, rv64,
# OpenSBI from qemu-system-data) plus SMP and 4 CPUs (its config has none).
# 6.12's cmpxchg is an LR/SC loop there (no Zacas in QEMU 7.2 nor in
# bookworm's binutils), local_t updates are AMOs; no NMI. No efficient
# unaligned access: both buffers lay payloads out 8-byte aligned.
# NONPORTABLE: without it PORTABLE selects EFI, which lean.config turns off
# (QEMU's virt machine boots through OpenSBI, not UEFI).
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
			   kernel_command_line='console=ttyS0 printk.time=1',
			   extra_qemu_params=['-machine', 'virt', '-cpu', 'rv64', '-bios', OPENSBI_PATH,
					      '-smp', '4'])
