# SPDX-License-Identifier: GPL-2.0
"""kunit/registered.py: the suites a kernel registers, read from its ELF
file, on a small program laid out as kunit_test_suites() lays a kernel."""

import os
import shutil
import subprocess
import tempfile
import unittest

import helpers  # noqa: F401  (puts kunit/ on sys.path)
import registered

# Two suites, a pointer to each between the two symbols, as
# include/asm-generic/vmlinux.lds.h places the .kunit_test_suites section.
PROGRAM = r'''
struct kunit_suite { const char name[256]; int (*init)(void); };
struct kunit_suite alpha = { .name = "alpha_suite" };
struct kunit_suite beta = { .name = "beta.with.dots" };
struct kunit_suite *suites[] __attribute__((used)) = { &alpha, &beta };
__asm__(".globl __kunit_suites_start\n.set __kunit_suites_start, suites\n"
	".globl __kunit_suites_end\n.set __kunit_suites_end, suites + 2 * 8\n");
void _start(void) { for (;;) ; }
'''


class Registered(unittest.TestCase):
	def setUp(self):
		self.dir = tempfile.mkdtemp()
		self.addCleanup(shutil.rmtree, self.dir)

	def build(self, text: str, cc=('gcc', '-static', '-no-pie')) -> str:
		src, out = os.path.join(self.dir, 'k.c'), os.path.join(self.dir, 'vmlinux')
		with open(src, 'w', encoding='utf-8') as f:
			f.write(text)
		subprocess.run([*cc, '-O0', '-nostdlib', '-o', out, src], check=True)
		return out

	def test_names_in_link_order(self):
		self.assertEqual(registered.suites(self.build(PROGRAM)), ['alpha_suite', 'beta.with.dots'])

	def test_pointers_left_to_the_boot_time_relocation(self):
		# arm64 kernels link with --no-apply-dynamic-relocs: the table holds
		# zeros and .rela.dyn the addresses.
		cc = 'aarch64-linux-gnu-gcc'
		if not shutil.which(cc):
			self.skipTest(f'no {cc} (make setup installs gcc-aarch64-linux-gnu)')
		path = self.build(PROGRAM, (cc, '-fpie', '-static-pie',
					    '-Wl,--no-apply-dynamic-relocs'))
		self.assertEqual(registered.suites(path), ['alpha_suite', 'beta.with.dots'])

	def test_system_map_of_the_same_link_is_used(self):
		path = self.build(PROGRAM)
		with open(os.path.join(self.dir, 'System.map'), 'w', encoding='ascii') as f:
			f.write('0000000000401000 T _start\n')
		self.assertIsNone(registered._system_map(path))	# pylint: disable=protected-access
		with open(os.path.join(self.dir, 'System.map'), 'w', encoding='ascii') as f:
			f.write('00000000004c0000 D __kunit_suites_start\n'
				'00000000004c0010 D __kunit_suites_end\n')
		self.assertEqual(registered._system_map(path),	# pylint: disable=protected-access
				 {'__kunit_suites_start': 0x4c0000, '__kunit_suites_end': 0x4c0010})
		old = os.stat(path).st_mtime - 2 * registered.SAME_LINK
		os.utime(os.path.join(self.dir, 'System.map'), (old, old))
		self.assertIsNone(registered._system_map(path))	# pylint: disable=protected-access

	def test_init_section_suites_come_first(self):
		# v6.7 on: kunit_test_init_section_suites() has a table of its own,
		# which the executor runs before the other.
		text = PROGRAM.replace('void _start',
			'struct kunit_suite gamma = { .name = "gamma_init" };\n'
			'struct kunit_suite *init_suites[] __attribute__((used)) = { &gamma };\n'
			'__asm__(".globl __kunit_init_suites_start\\n"\n'
			'\t".set __kunit_init_suites_start, init_suites\\n"\n'
			'\t".globl __kunit_init_suites_end\\n"\n'
			'\t".set __kunit_init_suites_end, init_suites + 8\\n");\n'
			'void _start')
		self.assertEqual(registered.suites(self.build(text)),
				 ['gamma_init', 'alpha_suite', 'beta.with.dots'])

	def test_no_suites_is_an_empty_list(self):
		text = PROGRAM.replace('suites + 2 * 8', 'suites')
		self.assertEqual(registered.suites(self.build(text)), [])

	def test_a_program_without_kunit_says_so(self):
		path = self.build('void _start(void) { for (;;) ; }\n')
		with self.assertRaisesRegex(registered.NoSuites, 'no __kunit_suites_start'):
			registered.suites(path)


if __name__ == '__main__':
	unittest.main()
