# SPDX-License-Identifier: GPL-2.0
"""The KUnit suites a built kernel registers, read from its vmlinux.

kunit_test_suites() puts a pointer to each struct kunit_suite between
__kunit_suites_start and __kunit_suites_end (include/asm-generic/
vmlinux.lds.h, v6.0 on), and a suite's first member is its name, a
char[256]. Reading them from the ELF file needs no boot and no list kept
by hand: a suite whose config symbol is set but that did not report is
a missing suite, whatever registered it.
"""

from typing import List

from elftools.elf.elffile import ELFFile  # python3-pyelftools (make setup)

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


def suites(vmlinux: str) -> List[str]:
	"""The names of the suites vmlinux registers, in link order."""
	with open(vmlinux, 'rb') as f:
		elf = ELFFile(f)
		symtab = elf.get_section_by_name('.symtab')
		if symtab is None:
			raise NoSuites(f'{vmlinux} has no symbol table')
		bounds = {}
		for name in ('__kunit_suites_start', '__kunit_suites_end'):
			sym = symtab.get_symbol_by_name(name)
			if not sym:
				raise NoSuites(f'{vmlinux} has no {name} (no KUnit, or older than v6.0)')
			bounds[name] = sym[0]['st_value']
		width = elf.elfclass // 8
		order = 'little' if elf.little_endian else 'big'
		start, end = bounds['__kunit_suites_start'], bounds['__kunit_suites_end']
		table = _read(elf, start, end - start) if end > start else b''
		out = []
		for at in range(0, len(table), width):
			ptr = int.from_bytes(table[at:at + width], order)
			name = _read(elf, ptr, NAME_MAX).split(b'\0', 1)[0].decode()
			out.append(name)
		return out

