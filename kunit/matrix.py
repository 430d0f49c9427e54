#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The test matrix, declared once: base kernels, architectures, the
overlay's folders, and the legs make check runs over them.

Every tool imports it; the Makefile, kunit/setup and kunit/checkpatch ask
it from the shell:

  kunit/matrix.py kernels | arches | main-kernel | overlay-dirs | check-dirs
  kunit/matrix.py packages [KERNEL...]   the Debian packages of those bases
  kunit/matrix.py cells [--full]         the results cells make check judges

A boot is one line of kunit/boots (KUnit) or kunit/integration/boots (the
integration leg); those two files are the only lists of boots.
"""

import os
import re
import sys
from dataclasses import dataclass
from typing import Dict, List, Tuple

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
DEFAULT_KERNEL = '6.12'
# make check runs the debug leg and the kept reverts on this base and
# arch only; make check-full on every base.
MAIN_KERNEL = '6.12'
DEBUG_ARCH = 'x86_64'

# -cpu max, so that TCG offers AVX2/AES-NI on x86_64 and the SM4, AES
# and PMULL extensions on arm64, and the SIMD crypto drivers run. 6.12's
# kunit.py boots arm64 that way already; 6.1's boots a Cortex-A57, which
# has no SM4 (QEMU takes the last -cpu). pauth-impdef keeps pointer
# authentication cheap under TCG, as 6.12's kunit.py has it. x86_64's
# CPU has no 5-level paging (la57=off): 6.12's identify_cpu() clears the
# capability words it then reads again, and pgtable_l5_enabled() reads
# them until the alternatives are patched, so an interrupt in that window
# sees a 4-level address space: under KASAN every per-CPU access of its
# handler is a wild-memory-access report, a storm that stalled a debug
# boot under TCG. An e1000e,
# which no cell builds a driver for, lends aacraid's shutdown cases its
# MSI and MSI-X vectors (aacraid_kunit.c); QEMU has no aacraid card. Its
# network is QEMU's user one, cut off from the host (restrict=on): a NIC
# without one makes QEMU warn.
LENDER = ['-netdev user,id=lend,restrict=on', '-device e1000e,netdev=lend']
ARCHES: Dict[str, Arch] = {
	'x86_64': Arch('x86_64', '', ['-cpu max,la57=off', *LENDER]),
	'arm64': Arch('arm64', 'aarch64-linux-gnu-', ['-cpu max,pauth-impdef=on', *LENDER]),
}
DEFAULT_ARCH = 'x86_64'

# The folders of the repo laid over the kernel tree file for file, and
# those whose C files checkpatch reads besides (the guest programs).
OVERLAY_DIRS: Tuple[str, ...] = ('kernel', 'crypto', 'drivers/scsi', 'security/apparmor',
				 'include/kunit')
CHECK_DIRS: Tuple[str, ...] = OVERLAY_DIRS + ('kunit/integration',)

# The packages every base needs, besides its linux-source-<version>.
PACKAGES: Tuple[str, ...] = (
	'gcc', 'libc6-dev', 'make', 'flex', 'bison', 'bc', 'libelf-dev', 'libssl-dev',
	'python3', 'perl', 'ccache', 'cpio', 'patch', 'xz-utils', 'git', 'python3-ply',
	'python3-git', 'python3-yaml', 'python3-jsonschema', 'python3-pyelftools', 'graphviz',
	'qemu-system-x86', 'qemu-system-arm', 'gcc-aarch64-linux-gnu',
	'binutils-aarch64-linux-gnu', 'libc6-dev-arm64-cross', 'apparmor', 'python3-clang')

BOOTS_FILE = os.path.join(REPO, 'kunit', 'boots')
INTEGRATION_BOOTS_FILE = os.path.join(REPO, 'kunit', 'integration', 'boots')

# The legs, as results cells are named (<kernel>-<arch>[-<leg>][-<boot>]).
DEBUG = 'debug'
INTEGRATION = 'integration'


class UsageError(Exception):
	"""Bad input: the message is the one line the user sees."""


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


def boot_words(words: List[str]) -> Tuple[List[str], List[str]]:
	"""The kernel arguments and the QEMU options of a boot line's words:
	a word that starts with '-' is a QEMU option written -option=value
	(-smp=2 is QEMU's -smp 2), each other word a kernel argument."""
	kernel = [w for w in words if not w.startswith('-')]
	qemu = [' '.join(w.split('=', 1)) for w in words if w.startswith('-')]
	return kernel, qemu


def integration_cell(cell: str, boot: str) -> str:
	"""<cell>-integration for the default boot, -integration-<boot> else."""
	return f'{cell}-{INTEGRATION}' + ('' if boot == 'default' else f'-{boot}')


def cells(full: bool = False) -> List[str]:
	"""The results cells make check judges (make check-full: full)."""
	boots = [w[0] for w in boot_rows(BOOTS_FILE, 1, 'name ...')]
	int_boots = [w[0] for w in boot_rows(INTEGRATION_BOOTS_FILE, 1, 'name ...')]
	out: List[str] = []
	for k in KERNELS:
		for a in ARCHES:
			out.append(f'{k}-{a}')
			out.extend(f'{k}-{a}-{b}' for b in boots)
	for k in KERNELS:
		for a in ARCHES:
			out.extend(integration_cell(f'{k}-{a}', b) for b in int_boots)
	out.extend(f'{k}-{DEBUG_ARCH}-{DEBUG}' for k in (KERNELS if full else [MAIN_KERNEL]))
	return out


def packages(versions: List[str]) -> List[str]:
	"""The packages of the bases named (every base: none named)."""
	for v in versions:
		if v not in KERNELS:
			raise UsageError(f"unknown kernel '{v}'; valid: {' '.join(KERNELS)}")
	return list(PACKAGES) + [KERNELS[v].package for v in versions or KERNELS]


def main(argv: List[str]) -> int:
	what, rest = (argv[0], argv[1:]) if argv else ('', [])
	simple = {
		'kernels': lambda: list(KERNELS),
		'arches': lambda: list(ARCHES),
		'main-kernel': lambda: [MAIN_KERNEL],
		'debug-arch': lambda: [DEBUG_ARCH],
		'overlay-dirs': lambda: list(OVERLAY_DIRS),
		'check-dirs': lambda: list(CHECK_DIRS),
	}
	try:
		if what in simple and not rest:
			words = simple[what]()
		elif what == 'packages':
			words = packages(rest)
		elif what == 'cells' and rest in ([], ['--full']):
			words = cells(full=bool(rest))
		else:
			print(f"matrix: usage: matrix.py {'|'.join(simple)}|packages [K...]|cells [--full]",
			      file=sys.stderr)
			return 2
	except UsageError as e:
		print(f'matrix: {e}', file=sys.stderr)
		return 2
	print(' '.join(words))
	return 0


if __name__ == '__main__':
	sys.exit(main(sys.argv[1:]))
