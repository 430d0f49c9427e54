# SPDX-License-Identifier: GPL-2.0
"""kunit/mutants.py: the kept mutants parse, and a mutant never outlives a sync."""

import os
import re
import tempfile
import unittest
from unittest import mock

import helpers
from helpers import PRISTINE, FakeTreeCase

import common
import mutants
import overlay
import results
import runner

MUTANT = """\
Mutant: line 11 of crypto/sm4.c changed
Seed: 010-commit-747c8ce4e710 (crypto: sm4)
Suites: sm4_*

--- a/crypto/sm4.c
+++ b/crypto/sm4.c
@@ -11,1 +11,1 @@
-line 10
+line ten
"""


def all_mutants():
	return [m for k in common.KERNELS.values() for m in mutants.find(k)]


class KeptMutants(unittest.TestCase):
	def test_every_mutant_has_its_header(self):
		for k in common.KERNELS.values():
			with self.subTest(kernel=k.version):
				self.assertGreaterEqual(len(mutants.find(k)), 5)
		for m in all_mutants():
			with self.subTest(mutant=m.name):
				self.assertRegex(m.seed, r'^(\d{3}-(commit-[0-9a-f]{12}|article)|none) \(.+\)$')
				self.assertTrue(m.what)

	def test_every_mutant_names_suites_that_are_declared(self):
		declared = sorted(helpers.declared_suites())
		for m in all_mutants():
			with self.subTest(mutant=m.name):
				self.assertTrue(runner.filter_suites(declared, [m.suites]),
						f'{m.suites} matches no suite of the overlay')

	def test_every_mutant_touches_only_upstream_files(self):
		for m in all_mutants():
			with self.subTest(mutant=m.name):
				for path in overlay.patch_paths(m.path):
					self.assertFalse(os.path.exists(os.path.join(common.REPO, path)),
							 f'{path} is an overlay file')

	def test_header_without_suites_is_an_error_naming_the_file(self):
		with tempfile.NamedTemporaryFile('w', suffix='.patch', dir=common.REPO,
						 delete=False) as f:
			f.write(MUTANT.replace('Suites: sm4_*\n', ''))
		self.addCleanup(os.unlink, f.name)
		with self.assertRaisesRegex(common.UsageError, r'\.patch: no Suites: header line'):
			mutants.parse(f.name)

	def test_unknown_flavour_is_an_error_naming_the_file(self):
		with tempfile.NamedTemporaryFile('w', suffix='.patch', dir=common.REPO,
						 delete=False) as f:
			f.write(MUTANT.replace('Suites: sm4_*\n', 'Suites: sm4_*\nFlavour: kasan\n'))
		self.addCleanup(os.unlink, f.name)
		with self.assertRaisesRegex(common.UsageError,
					    r'\.patch: unknown Flavour: kasan; valid: debug'):
			mutants.parse(f.name)

	def test_debug_mutants_name_a_debug_only_case_or_checker(self):
		"""Only the debug kernel can see a debug mutant: it names a fault
		injection case or the module request count (CONFIG_MODULES is on in
		the debug leg alone), or says which of the debug kernel's checkers
		sees it."""
		for m in all_mutants():
			if m.flavour:
				with self.subTest(mutant=m.name):
					self.assertEqual(m.flavour, runner.DEBUG)
					self.assertTrue('fail_nth' in m.suites or
							'module_request' in m.suites or
							re.search(r'\b(KASAN|UBSAN|KFENCE|lockdep)\b', m.what),
							m.what)

	def test_unknown_mutant_name_lists_the_valid_ones(self):
		with self.assertRaisesRegex(common.UsageError, r"unknown mutant 'nope'; valid: .*sm4-sbox"):
			mutants.find(common.kernel('6.12'), ['nope'])

	def mutants_in(self, files: dict) -> None:
		"""kunit/mutants/ holding files (relative path: content) for this test."""
		where = tempfile.TemporaryDirectory()
		self.addCleanup(where.cleanup)
		for path, text in files.items():
			os.makedirs(os.path.dirname(os.path.join(where.name, path)), exist_ok=True)
			with open(os.path.join(where.name, path), 'w', encoding='utf-8') as f:
				f.write(text)
		old = mutants.MUTANTS
		mutants.MUTANTS = where.name
		self.addCleanup(setattr, mutants, 'MUTANTS', old)

	def test_shared_mutants_run_on_every_base_and_own_ones_on_theirs(self):
		self.mutants_in({'shared.patch': MUTANT, '6.1/old.patch': MUTANT,
				 '6.12/new.patch': MUTANT})
		self.assertEqual([m.name for m in mutants.find(common.kernel('6.1'))],
				 ['old', 'shared'])
		self.assertEqual([m.name for m in mutants.find(common.kernel('6.12'))],
				 ['new', 'shared'])

	def test_mutant_both_shared_and_own_is_an_error_naming_it(self):
		self.mutants_in({'x.patch': MUTANT, '6.1/x.patch': MUTANT})
		with self.assertRaisesRegex(common.UsageError,
					    r'^.*6\.1/x\.patch: also in kunit/mutants/ .*; keep one$'):
			mutants.find(common.kernel('6.1'))
		self.assertEqual([m.name for m in mutants.find(common.kernel('6.12'))], ['x'])

	def test_caught_by_the_first_failure_only(self):
		cases = [results.Case(('s', 'a'), results.PASS), results.Case(('s', 'b'), results.FAIL),
			 results.Case(('s', 'c'), results.FAIL), results.Case(('s', ''), results.ERROR)]
		problems = [results.Problem(results.MISSING, 't', 'suite t did not report'),
			    results.Problem(results.REPORT, 's', 'KASAN: slab-out-of-bounds')]
		run = results.Run('r', results.Meta(), cases, problems)
		self.assertEqual(mutants.caught(run), ['s.b', 'KASAN: slab-out-of-bounds'])
		self.assertEqual(mutants.caught(results.Run('r', results.Meta(), cases[:1])), [])

	def test_table_closing_line(self):
		m = mutants.Mutant('/x/a.patch', 'w', 's', 'g')
		lines = mutants.table([mutants.Outcome(m, mutants.KILLED, ['t.c']),
				       mutants.Outcome(m, mutants.SURVIVED),
				       mutants.Outcome(m, mutants.NO_APPLY, ['a.patch does not apply'])])
		self.assertEqual(lines[-1], 'mutants: 1 killed, 2 survived')
		self.assertTrue(re.search(r'^a\s+did not apply\s+a.patch does not apply$', lines[-2]))


class Prime(unittest.TestCase):
	"""The build dirs of the mutants are built without a mutant, through
	ccache, while they have no kernel or their configuration changed."""

	def setUp(self):
		self.k, self.a = common.kernel('6.12'), common.arch('x86_64')
		d = tempfile.TemporaryDirectory()
		self.addCleanup(d.cleanup)
		env = mock.patch.dict(os.environ, {'CACHE': d.name})
		env.start()
		self.addCleanup(env.stop)

	def prime(self, built=(), key=None):
		todo = [mutants.Mutant('/m/a.patch', 'a', '', 'x*'),
			mutants.Mutant('/m/b.patch', 'b', '', 'y*', flavour=runner.DEBUG),
			mutants.Mutant('/m/c.patch', 'c', '', 'z*')]
		def build_one(k, a, jobs, flavour):
			os.makedirs(common.build_dir(k, a, flavour), exist_ok=True)
			open(os.path.join(common.build_dir(k, a, flavour), 'vmlinux'), 'w').close()
			return 0

		for flavour in built:
			build_one(self.k, self.a, 2, flavour)
		with mock.patch.object(mutants, 'apply') as apply, \
		     mock.patch.object(runner, 'build', side_effect=build_one) as build, \
		     mock.patch.object(runner, 'config_key', return_value=key or 'configs'):
			self.assertEqual(mutants.prime(self.k, self.a, todo, 2), 0)
		got = [c.args[3] for c in build.call_args_list]
		# the tree is synced without a mutant once, for all the builds
		self.assertEqual(apply.call_args_list, [mock.call(self.k, None)] if got else [])
		return got

	def test_each_empty_build_dir_once_without_a_mutant(self):
		self.assertEqual(self.prime(), [runner.DEBUG, mutants.FLAVOUR])
		self.assertEqual(self.prime(), [])

	def test_a_build_dir_primed_with_these_configs_is_left_alone(self):
		self.assertEqual(self.prime(), [runner.DEBUG, mutants.FLAVOUR])
		self.assertEqual(self.prime(key='other configs'), [runner.DEBUG, mutants.FLAVOUR])
		self.assertEqual(self.prime(key='other configs'), [])

	def test_a_kernel_never_primed_is_primed_once(self):
		# a build dir from before the mark (or built by hand)
		self.assertEqual(self.prime(built=[runner.DEBUG, mutants.FLAVOUR]),
				 [runner.DEBUG, mutants.FLAVOUR])
		self.assertEqual(self.prime(), [])

	def test_the_key_follows_the_configs_not_the_tree(self):
		key = runner.config_key(self.k, self.a, mutants.FLAVOUR)
		self.assertEqual(key, runner.config_key(self.k, self.a, mutants.FLAVOUR))
		self.assertNotEqual(key, runner.config_key(self.k, self.a, runner.DEBUG))
		self.assertNotEqual(key, runner.config_key(self.k, common.arch('arm64'), mutants.FLAVOUR))


class MutantInTree(FakeTreeCase):
	def setUp(self):
		super().setUp()
		self.mutant = os.path.join(self.tmp, 'm.patch')
		with open(self.mutant, 'w', encoding='utf-8') as f:
			f.write(MUTANT)

	def test_next_sync_undoes_a_mutant(self):
		files = overlay.overlay_files(self.repo, ('kernel', 'crypto', 'drivers/scsi'))
		patches = overlay.read_series(self.series)
		overlay.sync(self.tree, self.source, files, patches + [self.mutant])
		self.assertIn('line ten', self.read('crypto/sm4.c'))
		result = self.sync()
		self.assertEqual(sorted(result.writes), ['crypto/sm4.c'])
		self.assertEqual(self.read('crypto/sm4.c'), PRISTINE['crypto/sm4.c'])

	def test_mutant_that_does_not_apply_changes_nothing(self):
		with open(self.mutant, 'w', encoding='utf-8') as f:
			f.write(MUTANT.replace('-line 10', '-line 99'))
		self.sync()
		before = self.snapshot()
		files = overlay.overlay_files(self.repo, ('kernel', 'crypto', 'drivers/scsi'))
		patches = overlay.read_series(self.series)
		with self.assertRaisesRegex(overlay.SyncError, 'm.patch does not apply to crypto/sm4.c'):
			overlay.sync(self.tree, self.source, files, patches + [self.mutant])
		self.assertEqual(self.snapshot(), before)


if __name__ == '__main__':
	unittest.main()
