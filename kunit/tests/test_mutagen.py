# SPDX-License-Identifier: GPL-2.0
"""kunit/mutagen.py: each operator on a small C file, and ids that
survive edits outside the function."""

import os
import subprocess
import tempfile
import unittest

import helpers  # noqa: F401  (kunit/ on the path)

import mutagen

SMALL_C = """\
#define NULL ((void *)0)
int g(int);
int tab[4];

int f(int a, int b)
{
	int s = 0, i;

	if (a < b && b != 3)
		s = a + b;
	for (i = 0; i < 4; i++)
		s += tab[i];
	g(s);
	while (s > 10)
		s = s >> 1;
	switch (a) {
	case 2:
		return -1;
	}
	return s * 2;
}

int *p(int x)
{
	return x ? tab : NULL;
}

#define OK ((unsigned char)0)
#define ONE (2 - 1)

unsigned char ok(int x)
{
	if (x)
		return ONE;
	return OK;
}

int *none(void)
{
	return NULL;
}

_Bool yes(int x)
{
	if (x)
		return 1;
	return x > 2;
}
"""


class Operators(unittest.TestCase):
	def setUp(self):
		tmp = tempfile.TemporaryDirectory()
		self.addCleanup(tmp.cleanup)
		self.dir = tmp.name
		self.path = self.write('m.c', SMALL_C)

	def write(self, name: str, text: str) -> str:
		path = os.path.join(self.dir, name)
		with open(path, 'w', encoding='utf-8') as f:
			f.write(text)
		return path

	def edits(self, op: str, function: str = 'f'):
		return [(m.line, m.original, m.replacement)
			for m in mutagen.mutants(self.path, function) if m.operator == op]

	def test_relational_replaced_by_each_other(self):
		self.assertEqual([r for line, o, r in self.edits('ror') if line == 14],
				 ['!=', '<', '<=', '==', '>='])

	def test_pointers_compared_for_equality_only(self):
		path = self.write('ptr.c', 'int *q;\nint e(int *a)\n{\n\treturn a != q && a;\n}\n')
		self.assertEqual([(m.line, m.original, m.replacement) for m in mutagen.mutants(path, 'e')
				  if m.operator == 'ror'], [(4, '!=', '==')])

	def test_arithmetic_and_shift(self):
		self.assertEqual(self.edits('aor'), [(10, '+', '-'), (15, '>>', '<<'), (20, '*', '/')])

	def test_logical_connectors_swapped(self):
		self.assertEqual(self.edits('lcr'), [(9, '&&', '||')])

	def test_conditions_negated_and_forced(self):
		cond = 'a < b && b != 3'
		for op, want in (('neg', f'!({cond})'), ('true', '1'), ('false', '0')):
			with self.subTest(op=op):
				self.assertIn((9, cond, want), self.edits(op))
				self.assertIn(11, [line for line, _, _ in self.edits(op)], 'for condition')
				self.assertIn(14, [line for line, _, _ in self.edits(op)], 'while condition')

	def test_constants_plus_minus_and_zero_not_case_labels(self):
		self.assertEqual([r for line, o, r in self.edits('const') if line == 14], ['0', '11', '9'])
		self.assertNotIn(17, [line for line, _, _ in self.edits('const')])

	def test_calls_and_assignments_removed(self):
		self.assertEqual(self.edits('del'), [(10, 's = a + b', '(void)0'),
						     (12, 's += tab[i]', '(void)0'),
						     (13, 'g(s)', '(void)0'),
						     (15, 's = s >> 1', '(void)0')])

	def test_returns_replaced_by_type(self):
		self.assertEqual([r for line, o, r in self.edits('ret') if line == 20],
				 ['-1', '-EINVAL', '0', '1'])
		self.assertEqual(self.edits('ret', 'p'), [(25, 'x ? tab : NULL', 'NULL')])

	def test_no_return_replaced_by_its_own_value(self):
		# return OK; where OK is 0 is return 0;, a macro's value included
		self.assertEqual(self.edits('ret', 'ok'), [(34, 'ONE', '-1'), (34, 'ONE', '-EINVAL'),
							   (34, 'ONE', '0'), (35, 'OK', '-1'),
							   (35, 'OK', '-EINVAL'), (35, 'OK', '1')])
		self.assertEqual(self.edits('ret', 'none'), [])

	def test_bool_returns_replaced_by_0_and_1_only(self):
		self.assertEqual(self.edits('ret', 'yes'), [(46, '1', '0'), (47, 'x > 2', '0'),
							    (47, 'x > 2', '1')])

	def test_checks_that_compile_to_nothing_are_not_removed(self):
		path = self.write('macros.c', '#define AA_BUG(x) do { } while (0)\n'
				  '#define CHECK(x) do { g(x); } while (0)\n'
				  'int g(int);\n'
				  'void h(int a)\n{\n\tAA_BUG(a > 1);\n\tCHECK(a);\n}\n')
		self.assertIn('AA_BUG', mutagen.NO_CODE)
		self.assertEqual([(m.line, m.original) for m in mutagen.mutants(path, 'h')
				  if m.operator == 'del'], [(7, 'CHECK(a)')])

	def test_indexes_off_by_one(self):
		self.assertEqual(self.edits('index'), [(12, 'i', '(i) + 1'), (12, 'i', '(i) - 1')])

	def test_no_constant_index_past_a_fixed_size_array(self):
		# x[4] of int x[4] is undefined: GCC may drop the store, so whether
		# a suite sees it depends on the build (sm4_crypt_block's x[3] = ...)
		path = self.write('arr.c', 'int *p;\nint e(int i)\n{\n\tint x[4];\n\n'
				  '\tx[3] = i;\n\tx[3 - 3] = i;\n\treturn x[0] + p[3] + x[i];\n}\n')
		got = [(m.line, m.original, m.replacement) for m in mutagen.mutants(path, 'e')
		       if m.operator in ('const', 'index', 'aor') and m.line > 4]
		self.assertEqual(got, [(6, '3', '0'), (6, '3', '2'), (6, '3', '(3) - 1'),
				       # 3 + 3, 2 - 3, 0 - 3, 3 - 4, (3 - 3) - 1: gone
				       (7, '3', '4'), (7, '3 - 3', '(3 - 3) + 1'),
				       (7, '3', '0'), (7, '3', '2'),
				       (8, '0', '1'), (8, '0', '(0) + 1'), (8, '+', '-'),
				       (8, '3', '0'), (8, '3', '2'), (8, '3', '4'),	# p is a pointer
				       (8, '3', '(3) + 1'), (8, '3', '(3) - 1'), (8, '+', '-'),
				       (8, 'i', '(i) + 1'), (8, 'i', '(i) - 1')])

	def test_each_mutant_compiles_and_changes_the_text(self):
		with open(self.path, 'rb') as f:
			text = f.read()
		for m in mutagen.mutants(self.path, 'f'):
			with self.subTest(mutant=m.id):
				out = m.apply(text)
				self.assertNotEqual(out, text)
				src = self.write('x.c', out.decode().replace('-EINVAL', '-22'))
				proc = subprocess.run(['gcc', '-fsyntax-only', '-w', src], capture_output=True,
						      text=True, check=False)
				self.assertEqual(proc.returncode, 0, proc.stderr)

	def test_ids_are_unique_and_survive_edits_outside_the_function(self):
		before = [m.id for m in mutagen.mutants(self.path, 'f')]
		self.assertEqual(len(before), len(set(before)))
		self.write('m.c', SMALL_C.replace('int tab[4];\n', 'int tab[4];\n\nint h(int x)\n'
						  '{\n\treturn x < 2;\n}\n'))
		self.assertEqual([m.id for m in mutagen.mutants(self.path, 'f')], before)

	def test_an_unknown_function_has_none(self):
		self.assertEqual(mutagen.mutants(self.path, 'nope'), [])


if __name__ == '__main__':
	unittest.main()
