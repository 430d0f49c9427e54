# SPDX-License-Identifier: GPL-2.0
"""Paths and knobs shared by the overlay tools (the matrix: matrix.py).

Every tool takes its knobs from the environment (the Makefile exports
them) or from its own command line, and fails with one line naming the
valid choices when a knob is out of range.
"""

import os
import subprocess
import sys
from typing import List, NoReturn, Optional

import matrix
import overlay

PROJECT = 'kernel-overlay'
REPO = matrix.REPO
Kernel, Arch = matrix.Kernel, matrix.Arch
KERNELS, ARCHES, OVERLAY_DIRS = matrix.KERNELS, matrix.ARCHES, matrix.OVERLAY_DIRS
UsageError, boot_rows = matrix.UsageError, matrix.boot_rows


def die(tool: str, msg: str) -> NoReturn:
	print(f'{tool}: {msg}', file=sys.stderr)
	sys.exit(2)


def kernel(version: Optional[str]) -> Kernel:
	version = version or os.environ.get('KERNEL') or matrix.DEFAULT_KERNEL
	if version not in KERNELS:
		raise UsageError(f"unknown kernel '{version}'; valid: {' '.join(KERNELS)}")
	return KERNELS[version]


def arch(name: Optional[str]) -> Arch:
	name = name or os.environ.get('ARCH') or matrix.DEFAULT_ARCH
	if name not in ARCHES:
		raise UsageError(f"unknown ARCH '{name}'; valid: {' '.join(ARCHES)}")
	return ARCHES[name]


def cache_dir() -> str:
	cache = os.environ.get('CACHE')
	if not cache:
		xdg = os.environ.get('XDG_CACHE_HOME') or os.path.join(
			os.path.expanduser('~'), '.cache')
		cache = os.path.join(xdg, PROJECT)
	return os.path.abspath(cache)


def kernel_dir(k: Kernel) -> str:
	return os.path.join(cache_dir(), k.version)


def tree_dir(k: Kernel) -> str:
	"""The unpacked, synced source tree of kernel k."""
	return os.path.join(kernel_dir(k), 'src')


def build_dir(k: Kernel, a: Arch, flavour: str = '') -> str:
	name = a.name + (('-' + flavour) if flavour else '')
	return os.path.join(kernel_dir(k), 'build', name)


def results_dir() -> str:
	return os.path.join(cache_dir(), 'results')


def cell(k: Kernel, a: Arch) -> str:
	"""The name of one kernel x arch cell, as results files are named."""
	return f'{k.version}-{a.name}'


def series_dir(k: Kernel) -> str:
	return os.path.join(REPO, 'patches', k.version)


# The patches that are the same change on every base: a base's series
# names them, and patch applies them at that base's offsets (fuzz 0).
COMMON_PATCHES = os.path.join(REPO, 'patches', 'common')


def series(k: Kernel) -> List[str]:
	"""The patch files of k's series, in order (kunit/overlay.py)."""
	return overlay.read_series(series_dir(k), COMMON_PATCHES)


def package_version(package: str) -> Optional[str]:
	"""The installed version of a Debian package, or None."""
	try:
		out = subprocess.run(
			['dpkg-query', '-W', '-f=${Status}\t${Version}', package],
			capture_output=True, text=True, check=False)
	except FileNotFoundError:
		return None
	if out.returncode != 0:
		return None
	status, _, version = out.stdout.partition('\t')
	if not status.endswith(' installed'):
		return None
	return version


def package_tarball(package: str) -> Optional[str]:
	"""The source tarball a linux-source package installs (dpkg -L)."""
	out = subprocess.run(['dpkg', '-L', package], capture_output=True,
			     text=True, check=False)
	for line in out.stdout.splitlines():
		if line.startswith('/usr/src/') and line.endswith('.tar.xz'):
			return line
	return None
