# SPDX-License-Identifier: GPL-2.0
# x86_64 target of the harness: kunit.py's x86_64.py plus 4 CPUs.
# Loaded by kunit.py --qemu_config; kunit.py adds -m 1024, -nodefaults,
# -no-reboot, -nographic and the kernel/append options.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='x86_64',
			   kconfig='''
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_SMP=y''',
			   qemu_arch='x86_64',
			   kernel_path='arch/x86/boot/bzImage',
			   kernel_command_line='console=ttyS0 printk.time=1',
			   # qboot is faster than SeaBIOS (Debian's qemu-system-data ships it).
			   extra_qemu_params=['-bios', 'qboot.rom', '-smp', '4'])
