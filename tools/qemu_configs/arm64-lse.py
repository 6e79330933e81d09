# SPDX-License-Identifier: GPL-2.0
# arm64 with LSE atomics: -cpu max has FEAT_LSE, so the kernel's alternatives
# patch in the LSE atomics at boot ("CPU features: detected: LSE atomic
# instructions"). Same kconfig as arm64-llsc.py: both boot one kernel image.
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
			   extra_qemu_params=['-machine', 'virt', '-cpu', 'max,pauth-impdef=on',
					      '-smp', '4'])
