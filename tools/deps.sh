#!/bin/bash
# Debian packages the harness needs.
#   tools/deps.sh check     verify only; name what is missing (exit 1 if anything is)
#   tools/deps.sh install   install what is missing (sudo when not root); idempotent
# apt-get update runs only when a missing package has no install candidate.
set -euo pipefail

PACKAGES=(
	linux-source-6.12 linux-source-6.1 qemu-system-x86 qemu-system-arm qemu-system-misc qemu-system-data
	gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf gcc-riscv64-linux-gnu gcc make flex bison bc libelf-dev libssl-dev
	python3 python3-ply python3-git ccache rsync git xz-utils libtraceevent-dev pkg-config
	gnuplot-nox perl spin python3-mypy sparse
)

missing() {
	local pkg status
	for pkg in "${PACKAGES[@]}"; do
		status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)
		[[ $status == ii* ]] || echo "$pkg"
	done
}

as_root() {
	if [[ $(id -u) -eq 0 ]]; then
		"$@"
	elif command -v sudo >/dev/null; then
		sudo "$@"
	else
		echo "deps: not root and no sudo: run as root: $*" >&2
		exit 1
	fi
}

no_candidate() {
	local pkg
	for pkg in "$@"; do
		apt-cache policy "$pkg" 2>/dev/null | grep -q 'Candidate: [^(]' || return 0
	done
	return 1
}

mode=${1:-check}
mapfile -t todo < <(missing)
case $mode in
check)
	if [[ ${#todo[@]} -gt 0 ]]; then
		echo "deps: missing Debian packages: ${todo[*]}" >&2
		echo "deps: run 'make deps' to install them" >&2
		exit 1
	fi
	echo "deps: all ${#PACKAGES[@]} packages installed"
	;;
install)
	if [[ ${#todo[@]} -eq 0 ]]; then
		echo "deps: all ${#PACKAGES[@]} packages installed, nothing to do"
		exit 0
	fi
	echo "deps: installing ${todo[*]}"
	export DEBIAN_FRONTEND=noninteractive
	if no_candidate "${todo[@]}"; then
		as_root apt-get update -q
	fi
	as_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends "${todo[@]}"
	mapfile -t still < <(missing)
	if [[ ${#still[@]} -gt 0 ]]; then
		echo "deps: still missing after install: ${still[*]}" >&2
		exit 1
	fi
	echo "deps: installed ${#todo[@]} packages"
	;;
*)
	echo "usage: $0 check|install" >&2
	exit 2
	;;
esac
