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

	def build(self, text: str) -> str:
		src, out = os.path.join(self.dir, 'k.c'), os.path.join(self.dir, 'vmlinux')
		with open(src, 'w', encoding='utf-8') as f:
			f.write(text)
		subprocess.run(['gcc', '-O0', '-static', '-nostdlib', '-no-pie', '-o', out, src],
			       check=True)
		return out

	def test_names_in_link_order(self):
		self.assertEqual(registered.suites(self.build(PROGRAM)), ['alpha_suite', 'beta.with.dots'])

	def test_no_suites_is_an_empty_list(self):
		text = PROGRAM.replace('suites + 2 * 8', 'suites')
		self.assertEqual(registered.suites(self.build(text)), [])

	def test_a_program_without_kunit_says_so(self):
		path = self.build('void _start(void) { for (;;) ; }\n')
		with self.assertRaisesRegex(registered.NoSuites, 'no __kunit_suites_start'):
			registered.suites(path)


if __name__ == '__main__':
	unittest.main()
