# SPDX-License-Identifier: GPL-2.0
# i386 target of the harness: kunit.py's i386.py plus SMP and 4 CPUs (its
# config has no SMP: "CPU limit of 1 reached"). Built by the host's x86_64
# gcc (-m32). The kernel's buffer has a 32-bit local_t there (20-bit write
# index, 12-bit update counter) and local64_t time stamps (cmpxchg8b); x86
# has NMIs. lrb's write word and time stamp are local64_t there too.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='i386',
			   kconfig='''
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_SMP=y''',
			   qemu_arch='i386',
			   kernel_path='arch/x86/boot/bzImage',
			   kernel_command_line='console=ttyS0 printk.time=1',
			   extra_qemu_params=['-bios', 'qboot.rom', '-smp', '4'])
