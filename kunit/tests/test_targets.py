# SPDX-License-Identifier: GPL-2.0
"""kunit/targets.py: the mutation targets cover what the series change."""

import fnmatch
import os
import subprocess
import tempfile
import unittest

import helpers  # noqa: F401  (kunit/ on the path)

import common
import matrix
import schemata
import targets

SMALL_C = """\
static int helper(int x)
{
	return x + 1;
}

int twice(int x)
{
	int y = helper(x);

	return y * 2;
}

int declared_only(int x);

SYSCALL_DEFINE2(clock_getres, int, which, void *, tp)
{
	return 0;
}
"""


class Parse(unittest.TestCase):
	def test_rows_kernels_and_exempt_files(self):
		t = targets.parse('# c\ncrypto/sm4.c sm4_expandkey sm4*\n'
				  'a.c f suite* 6.12  # tail\n! lib/x.c not ours\n')
		self.assertEqual(t.targets, [targets.Target('crypto/sm4.c', 'sm4_expandkey', 'sm4*'),
					     targets.Target('a.c', 'f', 'suite*', ('6.12',))])
		self.assertEqual(t.exempt, {'lib/x.c': 'not ours'})
		self.assertTrue(t.targets[0].on('6.1'))
		self.assertFalse(t.targets[1].on('6.1'))

	def test_an_arch_drivers_glue_is_a_target_of_its_arch(self):
		t = targets.parse('g.c f s* x86_64\nh.c f s* 6.12,arm64\n').targets
		self.assertEqual(t[0], targets.Target('g.c', 'f', 's*', (), ('x86_64',)))
		self.assertEqual(t[1], targets.Target('h.c', 'f', 's*', ('6.12',), ('arm64',)))
		self.assertTrue(t[0].on('6.1', 'x86_64'))
		self.assertFalse(t[0].on('6.1', 'arm64'))
		self.assertTrue(t[0].on('6.1'))
		self.assertFalse(t[1].on('6.1', 'arm64'))
		self.assertTrue(t[1].on('6.12', 'arm64'))
		self.assertEqual([x.path for x in schemata.chosen(t, '6.12', None, 'x86_64')], ['g.c'])
		with self.assertRaisesRegex(common.UsageError, "'h.c' is no target .* 6.12 x86_64"):
			schemata.chosen(t, '6.12', 'h.c', 'x86_64')

	def test_bad_lines_name_their_line(self):
		for text in ('a.c f\n', 'a.c f s 6.1 extra\n', 'a.c 1f s\n', '! a.c\n'):
			with self.subTest(text=text):
				with self.assertRaisesRegex(common.UsageError, r'targets:1: want'):
					targets.parse(text, 'targets')
		with self.assertRaisesRegex(common.UsageError, r'targets:1: riscv is no base or arch'):
			targets.parse('a.c f s 6.1,riscv\n', 'targets')

	def test_the_project_file_parses_and_names_known_bases(self):
		t = targets.load()
		self.assertTrue(t.targets)
		for target in t.targets:
			for k in target.kernels:
				self.assertIn(k, matrix.KERNELS, target)

	def test_each_target_is_run_by_suites_of_the_project(self):
		# An upstream suite of a like name (scsi_lib) kills nothing of ours
		ours = helpers.declared_suites()
		for target in targets.load().targets:
			glob = target.suites.split('.', 1)[0]
			self.assertTrue(fnmatch.filter(ours, glob),
					f'{target.path} {target.function}: {glob} is no suite of the project')


class Definitions(unittest.TestCase):
	def setUp(self):
		tmp = tempfile.TemporaryDirectory()
		self.addCleanup(tmp.cleanup)
		self.dir = tmp.name
		self.path = os.path.join(tmp.name, 'small.c')
		with open(self.path, 'w', encoding='utf-8') as f:
			f.write(SMALL_C)

	def test_extents_of_definitions_only(self):
		self.assertEqual(targets.definitions(self.path, []),
				 {'helper': (1, 4), 'twice': (6, 11), 'sys_clock_getres': (15, 18)})

	def test_changed_lines_map_to_their_functions(self):
		def git(*args):
			subprocess.run(['git', '-C', self.dir, *args], check=True, capture_output=True)
		git('init', '-q')
		git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', 'small.c')
		git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base')
		with open(self.path, 'w', encoding='utf-8') as f:
			f.write(SMALL_C.replace('return y * 2;', 'return y * 3;'))
		self.assertEqual(targets.changed_lines(self.dir), {'small.c': [(10, 10)]})
		self.assertEqual(targets.changed_functions(self.dir, self.dir), {'small.c': {'twice'}})


class Series(unittest.TestCase):
	"""Every function a series changes is a target, and every target is
	defined where the file says, in each base's synced tree (libclang,
	with the flags of each arch's cell whose build dir there is: an arch
	glue target is looked for in its arch's build only)."""

	def check(self, version: str):
		k = common.kernel(version)
		tree = common.tree_dir(k)
		if not os.path.isdir(os.path.join(tree, '.git')):
			self.skipTest(f'no synced {version} tree (make sync)')
		if schemata.schema_in(tree, targets.load().targets):
			self.skipTest(f'the {version} tree holds a mutation schema (make mutation)')
		builds = {a: common.build_dir(k, common.arch(a)) for a in common.ARCHES}
		builds = {a: b for a, b in builds.items() if os.path.isdir(b)}
		if 'x86_64' not in builds:
			self.skipTest(f'no {version} x86_64 build dir (make test)')
		for a, build in builds.items():
			with self.subTest(arch=a):
				untargeted, gone = targets.missing(version, tree, build, arch=a)
				self.assertEqual(untargeted, [], f'{version}: changed by the series, '
						 'not in kunit/mutation/targets')
				self.assertEqual(gone, [], f'{version} {a}: targets not defined in '
						 'their file')

	def test_6_1(self):
		self.check('6.1')

	def test_6_12(self):
		self.check('6.12')


if __name__ == '__main__':
	unittest.main()
