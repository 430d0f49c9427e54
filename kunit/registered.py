# SPDX-License-Identifier: GPL-2.0
"""The KUnit suites a built kernel registers, read from its vmlinux.

kunit_test_suites() puts a pointer to each struct kunit_suite between
__kunit_suites_start and __kunit_suites_end (include/asm-generic/
vmlinux.lds.h, v6.0 on), and a suite's first member is its name, a
char[256]. From v6.7, kunit_test_init_section_suites() puts its suites
in a table of their own, between __kunit_init_suites_start and _end,
which the executor runs first (lib/kunit/executor.c); before, they are
in the one table. Reading them from the ELF file needs no boot and no
list kept by hand: a suite whose config symbol is set but that did not
report is a missing suite, whatever registered it.
"""

from __future__ import annotations

import os
import re
import struct
from typing import TYPE_CHECKING, Dict, List, Optional

if TYPE_CHECKING:
	from elftools.elf.elffile import ELFFile

NAME_MAX = 256


class NoSuites(Exception):
	"""The file is not a kernel with KUnit suites: one line saying why."""


def _read(elf: ELFFile, addr: int, size: int) -> bytes:
	for sec in elf.iter_sections():
		start = sec['sh_addr']
		if start and start <= addr and addr + size <= start + sec['sh_size']:
			if sec['sh_type'] == 'SHT_NOBITS':
				return b'\0' * size
			off = sec['sh_offset'] + addr - start
			elf.stream.seek(off)
			return elf.stream.read(size)
	raise NoSuites(f'address {addr:#x} is in no section')


BOUNDS = ('__kunit_suites_start', '__kunit_suites_end')
INIT_BOUNDS = ('__kunit_init_suites_start', '__kunit_init_suites_end')
SAME_LINK = 60.0	# seconds between System.map and vmlinux of one link


def _relocated(elf: ELFFile, start: int, end: int) -> Dict[int, int]:
	"""Pointer slot -> value, for the slots in [start, end) that a
	relocatable kernel leaves to its boot-time relocation (arm64 links
	with --no-apply-dynamic-relocs: the slot holds 0 and an
	R_AARCH64_RELATIVE entry of .rela.dyn holds the address)."""
	rela = elf.get_section_by_name('.rela.dyn')
	if rela is None or elf.elfclass != 64:
		return {}
	fmt = '<QQQ' if elf.little_endian else '>QQQ'	# the addend as an address
	out = {}
	for offset, _, addend in struct.iter_unpack(fmt, rela.data()):
		if start <= offset < end:
			out[offset] = addend
	return out


def _system_map(vmlinux: str) -> Optional[Dict[str, int]]:
	"""The bounds from the System.map kbuild writes beside vmlinux (a text
	scan, much cheaper than reading the ELF symbol table), or None when
	there is none or it is not of the same link."""
	path = os.path.join(os.path.dirname(vmlinux), 'System.map')
	try:
		# link-vmlinux.sh writes both in one link, System.map just before.
		if abs(os.stat(path).st_mtime - os.stat(vmlinux).st_mtime) > SAME_LINK:
			return None
		with open(path, encoding='ascii', errors='replace') as f:
			text = f.read()
	except FileNotFoundError:
		return None
	found = {m.group(2): int(m.group(1), 16) for m in re.finditer(
		r'^([0-9a-f]+) \w (__kunit_(?:init_)?suites_(?:start|end))$', text, re.M)}
	return found if all(x in found for x in BOUNDS) else None


def _symtab(elf: ELFFile, vmlinux: str) -> Dict[str, int]:
	symtab = elf.get_section_by_name('.symtab')
	if symtab is None:
		raise NoSuites(f'{vmlinux} has no symbol table')
	bounds = {}
	for name in BOUNDS + INIT_BOUNDS:
		sym = symtab.get_symbol_by_name(name)
		if sym:
			bounds[name] = sym[0]['st_value']
		elif name in BOUNDS:
			raise NoSuites(f'{vmlinux} has no {name} (no KUnit, or older than v6.0)')
	return bounds


def suites(vmlinux: str) -> List[str]:
	"""The names of the suites vmlinux registers, in link order."""
	# python3-pyelftools comes with make setup, which the Makefile's own
	# listings (kunit/run --list-boots) run before: imported here, not at
	# the top, so that those need nothing but Python's standard library.
	from elftools.common.exceptions import ELFError
	from elftools.elf.elffile import ELFFile

	with open(vmlinux, 'rb') as f:
		try:
			elf = ELFFile(f)
		except ELFError as e:
			raise NoSuites(f'{vmlinux} is not an ELF file: {e}') from e
		bounds = _system_map(vmlinux) or _symtab(elf, vmlinux)
		out = []
		for first, last in (INIT_BOUNDS, BOUNDS):
			if first in bounds and last in bounds:
				out.extend(_table(elf, bounds[first], bounds[last]))
		return out


def _table(elf: ELFFile, start: int, end: int) -> List[str]:
	"""The names of the suites whose pointers fill [start, end)."""
	width = elf.elfclass // 8
	order = 'little' if elf.little_endian else 'big'
	table = _read(elf, start, end - start) if end > start else b''
	relocs = _relocated(elf, start, end)
	out = []
	for at in range(0, len(table), width):
		ptr = relocs.get(start + at) or int.from_bytes(table[at:at + width], order)
		out.append(_read(elf, ptr, NAME_MAX).split(b'\0', 1)[0].decode())
	return out

