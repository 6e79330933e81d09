# SPDX-License-Identifier: GPL-2.0
# arm64 with LSE atomics and without pointer authentication: the kernel image
# of arm64-lse.py, booted on a CPU without FEAT_PAuth, so that the paciasp /
# autiasp pairs of every non-leaf function run as the NOPs they are on such
# a CPU. TCG emulates pointer authentication with helper calls (about a
# hundred ns per signed frame even with pauth-impdef=on): a benchmark-only
# target (make bench ARCH=arm64-nopac) that shows how much of the arm64
# figures that emulation is. Same kconfig as arm64-lse.py.
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
			   extra_qemu_params=['-machine', 'virt', '-cpu', 'max,pauth=off',
					      '-smp', '4'])
