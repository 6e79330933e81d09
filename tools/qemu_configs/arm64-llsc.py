# SPDX-License-Identifier: GPL-2.0
# arm64 with LL/SC atomics: cortex-a57 (ARMv8.0) has no LSE, so the same
# kernel image as arm64-lse.py runs its LL/SC (ldxr/stxr) atomics.
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
			   kernel_command_line='console=ttyAMA0 printk.time=1',
			   extra_qemu_params=['-machine', 'virt', '-cpu', 'cortex-a57', '-smp', '4'])
