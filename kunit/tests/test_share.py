# SPDX-License-Identifier: GPL-2.0
"""kunit/share.py: the scores file, the commit the share counts from,
the functions changed since, and the draw."""

import os
import subprocess
import tempfile
import unittest

import helpers

import common
import mutagen
import share
import targets

SCORE = share.Score('6.12-x86_64', 'lib/c.c', 'f', 10, 7, 1, 1, 1, 42)

C_FILE = """\
int g(int a)
{
	return a + 1;
}

int f(int a)
{
	return g(a) * 2;
}
"""

F_PATCH = """\
--- a/lib/c.c
+++ b/lib/c.c
@@ -7,3 +7,3 @@
 {
-	return g(a) * 2;
+	return g(a) * 3;
 }
"""

G_PATCH = """\
--- a/lib/c.c
+++ b/lib/c.c
@@ -2,3 +2,3 @@
 {
-	return a + 1;
+	return a + 2;
 }
"""

TAIL_PATCH = """\
--- a/lib/c.c
+++ b/lib/c.c
@@ -9,1 +9,2 @@
 }
+/* a comment outside every function */
"""


class Scores(unittest.TestCase):
	def setUp(self):
		tmp = tempfile.TemporaryDirectory()
		self.addCleanup(tmp.cleanup)
		self.path = os.path.join(tmp.name, 'scores')

	def test_record_replaces_the_functions_it_names_and_keeps_the_rest(self):
		other = share.Score('6.12-x86_64', 'lib/c.c', 'g', 3, 3, 0, 0, 0, 9)
		share.record([SCORE, other], self.path)
		better = share.Score('6.12-x86_64', 'lib/c.c', 'f', 10, 9, 0, 1, 0, 40)
		share.record([better], self.path)
		got = share.load_scores(self.path)
		self.assertEqual(got, {('6.12-x86_64', 'lib/c.c', 'f'): better,
				       ('6.12-x86_64', 'lib/c.c', 'g'): other})
		self.assertEqual(share.cleared('6.12-x86_64', got), {('lib/c.c', 'f'), ('lib/c.c', 'g')})
		self.assertEqual(share.cleared('6.12-arm64', got), set())

	def test_a_function_with_a_survivor_or_no_kill_is_not_cleared(self):
		none_killed = share.Score('6.12-x86_64', 'lib/c.c', 'g', 2, 0, 0, 2, 0, 1)
		share.record([SCORE, none_killed], self.path)
		self.assertEqual(share.cleared('6.12-x86_64', share.load_scores(self.path)), set())

	def test_a_bad_line_is_an_error(self):
		for line in ('6.12-x86_64 lib/c.c f 10 7 1 1\n',
			     '6.12-x86_64 lib/c.c f 10 7 1 1 x 4\n',
			     '6.12-x86_64 lib/c.c f 10 7 1 1 0 4\n'):
			with open(self.path, 'w', encoding='utf-8') as f:
				f.write(line)
			with self.assertRaises(common.UsageError, msg=line):
				share.load_scores(self.path)

	def test_the_project_file_parses(self):
		for s in share.load_scores().values():
			self.assertIn(s.cell, [f'{k}-{a}' for k in common.KERNELS for a in common.ARCHES])


def _mutant(fn: str, i: int) -> mutagen.Mutant:
	return mutagen.Mutant(f'lib/c.c:{fn}:const:{i:010x}', 'lib/c.c', fn, 'const', 1, 0, 1, '1',
			      str(i))


class Pick(unittest.TestCase):
	def setUp(self):
		self.tf, self.tg, self.th = (targets.Target('lib/c.c', fn, 'c*') for fn in 'fgh')
		self.found = ([(_mutant('f', i), self.tf) for i in range(5)] +
			      [(_mutant('g', i), self.tg) for i in range(40)] +
			      [(_mutant('h', i), self.th) for i in range(40)])

	def test_every_mutant_of_a_changed_function_and_n_drawn_from_the_pool(self):
		got = share.pick(self.found, {('lib/c.c', 'f')}, {('lib/c.c', 'g')}, 'abc', n=6)
		self.assertEqual([m for m, _ in got[:5]], [m for m, _ in self.found[:5]])
		self.assertEqual(len(got), 11)
		self.assertTrue(all(t is self.tg for _, t in got[5:]))

	def test_the_draw_is_the_commit_ids(self):
		pool = {('lib/c.c', 'g'), ('lib/c.c', 'h')}
		one = share.pick(self.found, set(), pool, 'abc', n=8)
		self.assertEqual(one, share.pick(list(reversed(self.found)), set(), pool, 'abc', n=8))
		self.assertNotEqual(one, share.pick(self.found, set(), pool, 'abd', n=8))

	def test_equivalent_ones_are_not_drawn_and_a_small_pool_is_drawn_whole(self):
		skip = [m.id for m, _ in self.found[5:44]]
		got = share.pick(self.found, set(), {('lib/c.c', 'g')}, 'abc', skip, n=6)
		self.assertEqual([m.id for m, _ in got], [self.found[44][0].id])


class Changed(helpers.FakeTreeCase):
	"""A repo with history over a fake tree: the base commit and the
	functions whose text changed since."""

	def git(self, *args: str) -> str:
		return subprocess.run(['git', '-C', self.repo, *args], capture_output=True, text=True,
				      check=True).stdout.strip()

	def commit(self, message: str, patches=None, files=None) -> str:
		if patches is not None:
			for name in os.listdir(self.series):
				os.unlink(os.path.join(self.series, name))
			self.set_series(patches)
		for path, text in (files or {}).items():
			self.add_overlay(path, text)
		self.git('add', '-A')
		self.git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', message)
		return self.git('rev-parse', 'HEAD')

	def setUp(self):
		helpers.PRISTINE['lib/c.c'] = C_FILE
		self.addCleanup(helpers.PRISTINE.pop, 'lib/c.c')
		super().setUp()
		self.git('init', '-q')
		self.targets = [targets.Target('lib/c.c', fn, 'c*') for fn in ('f', 'g')]
		self.files = {'lib/c.c'}

	def changed(self, commit: str):
		self.sync()
		return [t.function for t in share.changed(self.repo, commit, '6.12', self.tree, self.tmp,
							  self.targets)]

	def test_the_base_is_the_newest_commit_that_touched_no_target(self):
		first = self.commit('one')
		self.commit('f', {'f.patch': F_PATCH})
		self.assertEqual(share.base(self.repo, self.files.__contains__), first)
		docs = self.commit('docs', files={'README': 'x\n'})
		self.assertEqual(share.base(self.repo, self.files.__contains__), docs)
		self.commit('g', {'f.patch': F_PATCH, 'g.patch': G_PATCH})
		self.assertEqual(share.base(self.repo, self.files.__contains__), docs)

	def test_dropping_a_patch_touches_its_files(self):
		self.commit('f', {'f.patch': F_PATCH})
		self.commit('none', {})
		head = self.git('rev-parse', 'HEAD')
		self.assertTrue(share.touches(self.repo, head, self.files.__contains__))

	def test_only_the_functions_whose_text_changed(self):
		first = self.commit('f', {'f.patch': F_PATCH})
		self.assertEqual(self.changed(first), [])
		self.commit('g', {'f.patch': F_PATCH, 'g.patch': G_PATCH})
		self.assertEqual(self.changed(first), ['g'])
		self.commit('no f', {'g.patch': G_PATCH})
		self.assertEqual(self.changed(first), ['f', 'g'])

	def test_a_change_outside_every_function_changes_none(self):
		first = self.commit('f', {'f.patch': F_PATCH})
		self.commit('tail', {'f.patch': F_PATCH, 'tail.patch': TAIL_PATCH})
		self.assertEqual(self.changed(first), [])


class KeptShare(unittest.TestCase):
	"""make check's share of the kept reverts: the base commit, the paths
	changed since, and the pick."""

	def git(self, *args: str) -> str:
		return subprocess.run(['git', '-C', self.repo, *args], capture_output=True, text=True,
				      check=True).stdout.strip()

	def write(self, files) -> None:
		for path, text in files.items():
			full = os.path.join(self.repo, path)
			os.makedirs(os.path.dirname(full), exist_ok=True)
			with open(full, 'w', encoding='utf-8') as f:
				f.write(text)

	def commit(self, message: str, files) -> str:
		self.write(files)
		self.git('add', '-A')
		self.git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', message)
		return self.git('rev-parse', 'HEAD')

	def setUp(self):
		d = tempfile.TemporaryDirectory(prefix='test-share-')
		self.addCleanup(d.cleanup)
		self.repo = d.name
		self.git('init', '-q')
		self.first = self.commit('one', {'lib/c.c': C_FILE, 'lib/c_kunit.c': 'x\n',
						 'kunit/mutants/f.patch': F_PATCH,
						 'crypto/other.c': 'y\n', 'README': 'r\n'})
		self.ks = [share.kept('f', os.path.join(self.repo, 'kunit/mutants/f.patch'), self.repo),
			   share.Kept('o', 'kunit/mutants/o.patch', ('crypto',))]

	def test_a_kept_revert_knows_its_patch_and_the_directories_it_patches(self):
		self.assertEqual(self.ks[0], share.Kept('f', 'kunit/mutants/f.patch', ('lib',)))

	def test_the_base_is_the_newest_commit_that_left_them_and_their_directories_alone(self):
		self.assertIsNone(share.kept_base(self.repo, self.ks))
		docs = self.commit('docs', {'README': 's\n'})
		self.assertEqual(share.kept_base(self.repo, self.ks), docs)
		self.commit('suite', {'lib/c_kunit.c': 'z\n'})
		self.assertEqual(share.kept_base(self.repo, self.ks), docs)
		docs = self.commit('docs', {'README': 't\n'})
		self.assertEqual(share.kept_base(self.repo, self.ks), docs)
		self.commit('revert', {'kunit/mutants/f.patch': F_PATCH + ' \n'})
		self.assertEqual(share.kept_base(self.repo, self.ks), docs)
		self.commit('series', {'patches/6.12/g.patch': G_PATCH})
		self.assertEqual(share.kept_base(self.repo, self.ks), docs)

	def test_changed_paths_take_the_work_tree_new_files_and_what_a_patch_patches(self):
		self.assertEqual(share.changed_paths(self.repo, self.first), set())
		self.write({'crypto/other.c': 'w\n', 'kernel/new.c': 'n\n',
			    'patches/6.12/g.patch': G_PATCH})
		self.assertEqual(share.changed_paths(self.repo, self.first),
				 {'crypto/other.c', 'kernel/new.c', 'patches/6.12/g.patch', 'lib/c.c'})

	def test_every_changed_one_and_n_drawn_from_the_others(self):
		many = [share.Kept(f'k{i:02}', f'kunit/mutants/k{i:02}.patch', (f'd{i % 4}',))
			for i in range(20)]
		mine, drawn = share.kept_pick(many, {'d1/x_kunit.c', 'kunit/mutants/k02.patch'},
					      'abc', n=3)
		self.assertEqual([k.name for k in mine], ['k01', 'k02', 'k05', 'k09', 'k13', 'k17'])
		self.assertEqual(len(drawn), 3)
		self.assertFalse(set(drawn) & set(mine))
		self.assertEqual(drawn, sorted(drawn, key=many.index))

	def test_the_draw_is_the_commit_ids_and_no_base_runs_them_all(self):
		many = [share.Kept(f'k{i:02}', f'p{i}', ('d',)) for i in range(20)]
		one = share.kept_pick(many, set(), 'abc')
		self.assertEqual(set(one[1]), set(share.kept_pick(many[::-1], set(), 'abc')[1]))
		self.assertNotEqual(one, share.kept_pick(many, set(), 'abd'))
		self.assertEqual(len(one[1]), share.SAMPLE_KEPT)
		self.assertEqual(share.kept_pick(many, None, 'abc'), (many, []))
		self.assertEqual(share.kept_pick(many[:2], set(), 'abc'), ([], many[:2]))


if __name__ == '__main__':
	unittest.main()
