# SPDX-License-Identifier: GPL-2.0
"""Paths, kernels and architectures shared by the overlay tools.

Every tool takes its knobs from the environment (the Makefile exports
them) or from its own command line, and fails with one line naming the
valid choices when a knob is out of range.
"""

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from typing import Dict, List, NoReturn, Optional

PROJECT = 'kernel-overlay'
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The directories of the repo that are laid over the kernel tree as they
# are, file for file.
OVERLAY_DIRS = ('kernel', 'crypto', 'drivers/scsi', 'security/apparmor', 'include/kunit')


@dataclass(frozen=True)
class Kernel:
	"""A base kernel: the Debian package that ships its source."""
	version: str
	package: str


@dataclass(frozen=True)
class Arch:
	"""An architecture kunit.py runs under QEMU."""
	name: str
	cross_compile: str
	qemu_args: List[str]


KERNELS: Dict[str, Kernel] = {
	'6.1': Kernel('6.1', 'linux-source-6.1'),
	'6.12': Kernel('6.12', 'linux-source-6.12'),
}

# -cpu max, so that TCG offers AVX2/AES-NI on x86_64 and the SM4, AES
# and PMULL extensions on arm64, and the SIMD crypto drivers run. 6.12's
# kunit.py boots arm64 that way already; 6.1's boots a Cortex-A57, which
# has no SM4 (QEMU takes the last -cpu). pauth-impdef keeps pointer
# authentication cheap under TCG, as 6.12's kunit.py has it.
ARCHES: Dict[str, Arch] = {
	'x86_64': Arch('x86_64', '', ['-cpu max']),
	'arm64': Arch('arm64', 'aarch64-linux-gnu-', ['-cpu max,pauth-impdef=on']),
}


class UsageError(Exception):
	"""Bad input: the message is the one line the user sees."""


def die(tool: str, msg: str) -> NoReturn:
	print(f'{tool}: {msg}', file=sys.stderr)
	sys.exit(2)


def boot_rows(path: str, min_words: int, want: str) -> List[List[str]]:
	"""The words of each line of a boots file (kunit/boots and the
	integration leg's), comments dropped; each line a lower-case name and
	at least min_words words, or an error naming the file, line and want."""
	rows = []
	with open(path, encoding='utf-8') as f:
		for n, line in enumerate(f, 1):
			words = line.split('#', 1)[0].split()
			if not words:
				continue
			if len(words) < min_words or not re.fullmatch(r'[a-z0-9][-a-z0-9]*', words[0]):
				raise UsageError(f'{path}:{n}: want: {want}')
			rows.append(words)
	return rows


def kernel(version: Optional[str]) -> Kernel:
	version = version or os.environ.get('KERNEL') or '6.12'
	if version not in KERNELS:
		raise UsageError(f"unknown kernel '{version}'; valid: {' '.join(KERNELS)}")
	return KERNELS[version]


def arch(name: Optional[str]) -> Arch:
	name = name or os.environ.get('ARCH') or 'x86_64'
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
