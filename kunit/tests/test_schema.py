# SPDX-License-Identifier: GPL-2.0
"""kunit/schema.py: a file with every mutant compiled in behaves as the
original with no mutant chosen, and as each mutant when it is chosen."""

import os
import subprocess
import tempfile
import unittest

import helpers  # noqa: F401  (kunit/ on the path)

import mutagen
import schema
from test_mutagen import SMALL_C

HARNESS = """\
#include <stdio.h>
#include <stdlib.h>
#define EINVAL 22
static int kunit_mutant_id;
static int kunit_mutant_is(int n)
{
	return kunit_mutant_id == n;
}
int g(int x)
{
	return printf("g%d ", x);
}
"""

MAIN = """\
int main(int argc, char **argv)
{
	static const int in[][2] = { { 1, 2 }, { 5, 3 }, { 2, 9 }, { 0, 0 }, { 40, 41 } };
	unsigned int i;

	kunit_mutant_id = argc > 1 ? atoi(argv[1]) : 0;
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		printf("%d ", f(in[i][0], in[i][1]));
	printf("%d %d\\n", p(0) == tab, p(1) == tab);
	return 0;
}
"""


class Schemata(unittest.TestCase):
	def setUp(self):
		tmp = tempfile.TemporaryDirectory()
		self.addCleanup(tmp.cleanup)
		self.dir = tmp.name
		# tab with room on both sides: the index and bound mutants read
		# next to it, and must read the same in both builds
		body = (SMALL_C.replace('#define NULL ((void *)0)\n', '').replace('int g(int);\n', '')
			.replace('int tab[4];\n', 'int room[12];\n#define tab (room + 4)\n'))
		self.src = self.write('m.c', (HARNESS + body + MAIN).encode())
		self.mutants = (mutagen.mutants(self.src, 'f') + mutagen.mutants(self.src, 'p'))

	def write(self, name: str, data: bytes) -> str:
		path = os.path.join(self.dir, name)
		with open(path, 'wb') as f:
			f.write(data)
		return path

	def build(self, name: str, data: bytes) -> str:
		src = self.write(name + '.c', data)
		exe = os.path.join(self.dir, name)
		proc = subprocess.run(['gcc', '-w', '-o', exe, src], capture_output=True, text=True,
				      check=False)
		self.assertEqual(proc.returncode, 0, proc.stderr)
		return exe

	@staticmethod
	def run_it(exe: str, *args: str):
		try:
			proc = subprocess.run([exe, *args], capture_output=True, text=True, timeout=2,
					      check=False)
		except subprocess.TimeoutExpired:
			return 'hang'
		return proc.stdout if proc.returncode == 0 else f'rc {proc.returncode}'

	def test_no_mutant_chosen_is_the_original_and_each_chosen_is_that_mutant(self):
		with open(self.src, 'rb') as f:
			text = f.read()
		s = schema.rewrite(text, self.mutants)
		self.assertEqual(s.left_out, {})
		self.assertEqual(sorted(s.numbers.values()), list(range(1, len(self.mutants) + 1)))
		exe = self.build('schema', s.text)
		self.assertEqual(self.run_it(exe), self.run_it(self.build('orig', text)))
		for m in self.mutants:
			with self.subTest(mutant=m.id, edit=m.diff_line()):
				want = self.run_it(self.build('one', m.apply(text)))
				if want.startswith(('hang', 'rc')):
					continue	# undefined behaviour may differ
				self.assertEqual(self.run_it(exe, str(s.numbers[m.id])), want)

	def test_a_chain_of_operators_grows_the_file_linearly(self):
		# qla2x00_probe_one()'s 20 "pdev->device == X ||": each || swapped
		# holds the chain on its left as written, not with its choices
		terms = 16
		cond = ' || '.join(f'x == {i}' for i in range(terms))
		src = self.write('chain.c', (HARNESS + f'int f(int x)\n{{\n\tif ({cond})\n'
					     '\t\treturn 1;\n\treturn 0;\n}\n').encode())
		ms = mutagen.mutants(src, 'f')
		self.assertGreater(len([m for m in ms if m.operator == 'lcr']), terms - 2)
		with open(src, 'rb') as f:
			text = f.read()
		s = schema.rewrite(text, ms)
		self.assertEqual(s.left_out, {})
		self.assertLess(len(s.text), 100 * len(text) + 2 * len(cond) * len(ms))
		main = b'int main(int c, char **v)\n{\n\tkunit_mutant_id = atoi(v[1]);\n' \
		       b'\treturn f(atoi(v[2]));\n}\n'
		exe = self.build('chain', s.text + main)
		xs = ('-1', '0', '7', str(terms - 1))
		for x in xs:
			self.assertEqual(subprocess.run([exe, '0', x], check=False).returncode,
					 0 if x == '-1' else 1)
		# the first and the last || swapped, and a comparison inside both
		swaps = [m for m in ms if m.operator == 'lcr']
		for m in [swaps[0], swaps[-1]] + [m for m in ms if m.diff_line() == 'x == 7 -> x != 7']:
			one = self.build('one', m.apply(text) + main)
			for x in xs:
				with self.subTest(mutant=m.diff_line(), x=x):
					self.assertEqual(subprocess.run([exe, str(s.numbers[m.id]), x],
									check=False).returncode,
							 subprocess.run([one, '0', x], check=False).returncode)

	def test_crossing_ranges_are_left_out_with_why(self):
		a = mutagen.Mutant('a', 'x.c', 'f', 'const', 1, 0, 5, '12345', '0')
		b = mutagen.Mutant('b', 'x.c', 'f', 'const', 1, 3, 8, '45678', '0')
		s = schema.rewrite(b'123456789', [a, b])
		self.assertEqual(s.numbers, {'a': 1})
		self.assertIn('crosses', s.left_out['b'])


if __name__ == '__main__':
	unittest.main()
