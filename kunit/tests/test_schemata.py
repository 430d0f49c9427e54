# SPDX-License-Identifier: GPL-2.0
"""kunit/schemata.py: the schema files of a cell, the mutants gcc blames,
the equivalent list and the report."""

import contextlib
import io
import os
import subprocess
import tempfile
import threading
import time
import unittest
from unittest import mock

import helpers  # noqa: F401  (kunit/ on the path)

import common
import mutagen
import results
import schemata
import share
import targets

# A constant expression (the case label, the array size) cannot take a
# run-time choice; the rest can.
CONST_C = """\
#define READ_ONCE(x) (*(volatile typeof(x) *)&(x))
#define unlikely(x) __builtin_expect(!!(x), 0)
#define do_twice(x) do { x; x; } while (0)
#define EINVAL 22
int g(int);

int f(int a)
{
	static const int k[2] = { 3, 4 };
	int buf[5] = { 0 };
	int s = 0;

	switch (a) {
	case 1 + 1:
		s = k[1] + buf[a & 3];
		break;
	}
	do_twice(g(a));
	if (a > 2)
		g(s);
	else
		g(-s);
	return s + a;
}
"""


class Schemata(unittest.TestCase):
	def setUp(self):
		tmp = tempfile.TemporaryDirectory()
		self.addCleanup(tmp.cleanup)
		self.tree = tmp.name
		os.makedirs(os.path.join(self.tree, 'lib'))
		with open(os.path.join(self.tree, 'lib', 'c.c'), 'w', encoding='utf-8') as f:
			f.write(CONST_C)
		self.target = targets.Target('lib/c.c', 'f', 'c*')
		self.found = schemata.generate(self.tree, self.tree, [self.target])

	def compile(self, plan: schemata.Plan):
		path = os.path.join(self.tree, 'lib', 's.c')
		with open(path, 'wb') as f:
			f.write(plan.files['lib/c.c'].replace(schemata.DEFINE, b'unsigned int kunit_mutant;\n'))
		p = subprocess.run(['gcc', '-c', '-o', '/dev/null', '-Wno-dangling-else',
				    *schemata.FLAGS, path],
				   capture_output=True, text=True, check=False, cwd=self.tree)
		return p.returncode, p.stderr.replace('lib/s.c', 'lib/c.c')

	def test_ids_name_the_file_as_the_tree_does(self):
		self.assertTrue(self.found)
		for m, _ in self.found:
			self.assertTrue(m.id.startswith('lib/c.c:f:'), m.id)

	def test_a_statement_macro_is_removed_once_and_its_insides_not_mutated(self):
		dels = [m for m, _ in self.found if m.operator == 'del' and 'do_twice' in m.original]
		self.assertEqual(len(dels), 1)
		self.assertFalse([m for m, _ in self.found
				  if m.operator in ('neg', 'true', 'false') and m.original == '0'])

	def test_mutants_are_numbered_from_one_and_the_first_file_holds_the_parameter(self):
		plan = schemata.rewrite(schemata.originals(self.tree, self.found), self.found, {})
		self.assertEqual([e.number for e in plan.entries], list(range(1, len(plan.entries) + 1)))
		text = plan.files['lib/c.c']
		self.assertTrue(text.startswith(schemata.HEADER))
		self.assertTrue(text.endswith(schemata.DEFINE))
		self.assertIn('+++ b/lib/c.c', plan.patch())

	def test_the_parameter_is_defined_in_a_c_file_never_in_a_header(self):
		# in a header, every file that includes it would define it
		os.makedirs(os.path.join(self.tree, 'include'))
		os.makedirs(os.path.join(self.tree, 'lib', 'kunit'))
		with open(os.path.join(self.tree, 'include', 'h.h'), 'w', encoding='utf-8') as f:
			f.write(CONST_C.replace('int f(', 'static inline int f('))
		with open(os.path.join(self.tree, schemata.DEFINE_HOST), 'w', encoding='utf-8') as f:
			f.write('/* KUnit */\n')
		header = schemata.generate(self.tree, self.tree, [targets.Target('include/h.h', 'f', 'c*')])
		self.assertTrue(header)
		plan = schemata.rewrite(schemata.originals(self.tree, header), header, {})
		self.assertFalse(plan.files['include/h.h'].endswith(schemata.DEFINE))
		self.assertEqual(plan.files[schemata.DEFINE_HOST], b'/* KUnit */\n' + schemata.DEFINE)
		self.assertIn('+++ b/' + schemata.DEFINE_HOST, plan.patch())
		both = header + self.found
		plan = schemata.rewrite(schemata.originals(self.tree, both), both, {})
		self.assertTrue(plan.files['lib/c.c'].endswith(schemata.DEFINE))
		self.assertNotIn(schemata.DEFINE_HOST, plan.files)

	def test_the_choices_gcc_blames_are_left_out_until_it_compiles(self):
		dropped = {}
		for _ in range(10):
			plan = schemata.rewrite(schemata.originals(self.tree, self.found), self.found, dropped)
			rc, err = self.compile(plan)
			if rc == 0:
				break
			blamed, stray = schemata.failing_numbers('lib/c.c', plan.files['lib/c.c'], err)
			self.assertTrue(blamed, err)
			self.assertEqual(stray, [])
			by_number = {e.number: e for e in plan.entries}
			dropped.update({by_number[n].mutant.id: why for n, why in blamed.items()})
		self.assertEqual(rc, 0, err)
		out = {(m.operator, m.original) for m, _, _ in plan.left_out.values()}
		# the constants of the array sizes (a local one would make a VLA)
		# and of the static initializer (the case label's are never
		# made), no more
		self.assertEqual(out, {('const', '2'), ('const', '3'), ('const', '4'), ('const', '5')})
		self.assertTrue(any(e.mutant.operator == 'del' for e in plan.entries))

	def test_choice_lines_span_the_mutant_side(self):
		text = b'int a = (kunit_mutant_is(2) ? (1 +\n2) : (kunit_mutant_is(3) ? (0) : (3)));\n'
		self.assertEqual(schemata.choice_lines(text), {2: (1, 2), 3: (2, 2)})
		# an error at the "0" of line 2 is mutant 3's
		blamed, stray = schemata.failing_numbers(
			'x.c', text, 'a/x.c:2:30: error: bad\na/x.c:9:1: error: elsewhere\n'
			'a/x.c:1:1: error: not constant\n')
		# and one at the start of line 1, outside every choice, the first one's
		self.assertEqual(blamed, {3: 'bad', 2: 'not constant'})
		self.assertEqual(stray, ['a/x.c:9:1: error: elsewhere'])

	def test_a_header_compiles_through_the_first_object_that_includes_it(self):
		with tempfile.TemporaryDirectory() as build:
			for rel, deps in (('drivers/scsi/.scsi_lib.o.cmd', '../src/include/scsi/scsi.h'),
					  ('block/.bsg.o.cmd', '../src/include/scsi/scsi.h \\'),
					  ('block/.blk.o.cmd', '../src/include/scsi/scsi.hx'),
					  ('arch/.a.o.cmd', '../src/include/uapi/scsi/scsi.h')):
				os.makedirs(os.path.join(build, os.path.dirname(rel)), exist_ok=True)
				with open(os.path.join(build, rel), 'w', encoding='utf-8') as f:
					f.write(f'deps_x := \\\n  {deps}\n')
			self.assertEqual(schemata.including(build, 'include/scsi/scsi.h'), 'block/bsg.o')
			with self.assertRaises(common.UsageError):
				schemata.including(build, 'include/scsi/sg.h')

	def test_schema_in_a_tree(self):
		with tempfile.TemporaryDirectory() as tree:
			ts = [targets.Target('a.c', 'f', 's'), targets.Target('gone.c', 'g', 's')]
			with open(os.path.join(tree, 'a.c'), 'wb') as f:
				f.write(b'int f(void) { return 0; }\n')
			self.assertFalse(schemata.schema_in(tree, ts))
			with open(os.path.join(tree, 'a.c'), 'wb') as f:
				f.write(schemata.HEADER + b'int f(void) { return 0; }\n')
			self.assertTrue(schemata.schema_in(tree, ts))

	def test_chosen_targets(self):
		ts = [targets.Target('a.c', 'f', 's'), targets.Target('a.c', 'g', 's', ('6.1',)),
		      targets.Target('b.c', 'h', 's')]
		self.assertEqual([t.function for t in schemata.chosen(ts, '6.12', None)], ['f', 'h'])
		self.assertEqual([t.function for t in schemata.chosen(ts, '6.1', 'a.c')], ['f', 'g'])
		self.assertEqual([t.function for t in schemata.chosen(ts, '6.12', 'h')], ['h'])
		with self.assertRaisesRegex(common.UsageError, "TARGET 'g' is no target"):
			schemata.chosen(ts, '6.12', 'g')
		self.assertEqual([t.function for t in schemata.chosen(ts, '6.12', 'h,a.c')], ['f', 'h'])
		with self.assertRaisesRegex(common.UsageError, "TARGET 'g' is no target"):
			schemata.chosen(ts, '6.12', 'h,g')

	def test_only_named_mutants(self):
		t = targets.Target('a.c', 'f', 's')
		found = [(mutagen.Mutant(f'a.c:f:ror:{h}', 'a.c', 'f', 'ror', 1, 0, 1, '<', '<='), t)
			 for h in ('0123456789', 'abcdef0123', '9999999999')]
		ids = [m.id for m, _ in schemata.only(found, 'a.c:f:ror:abcdef0123,9999999999')]
		self.assertEqual(ids, ['a.c:f:ror:abcdef0123', 'a.c:f:ror:9999999999'])
		with self.assertRaisesRegex(common.UsageError, "MUTANT 'a.c:g:ror:0123456789' is no mutant"):
			schemata.only(found, 'a.c:g:ror:0123456789')
		with self.assertRaisesRegex(common.UsageError, "MUTANT 'ror' is no mutant"):
			schemata.only(found, 'ror')


class Baseline(unittest.TestCase):
	@staticmethod
	def run_of(*cases):
		return results.Run('c', results.Meta(),
				   [results.Case(tuple(n.split('.')), s) for n, s in cases])

	def test_every_case_keeps_its_verdict(self):
		want = self.run_of(('s.a', 'PASS'), ('s.b', 'SKIP'), ('s.c', 'FAIL'))
		self.assertEqual(schemata.differences(want, self.run_of(
			('s.a', 'PASS'), ('s.b', 'SKIP'), ('s.c', 'FAIL'), ('s.new', 'PASS'))), [])
		self.assertEqual(schemata.differences(want, self.run_of(('s.a', 'FAIL'), ('s.b', 'SKIP'))),
				 ['s.a: PASS in the normal kernel, FAIL here',
				  's.c: FAIL in the normal kernel, missing here'])

	def test_a_case_skipped_for_want_of_inject_config_may_run(self):
		# scsi_dh_module_request_test: a stub SKIP without CONFIG_MODULES,
		# rows of its own with it
		want = self.run_of(('s.m', 'SKIP'), ('s.n', 'SKIP'))
		self.assertEqual(schemata.differences(want, self.run_of(
			('s.m.empty', 'PASS'), ('s.m.alua', 'PASS'), ('s.n', 'PASS'))), [])
		self.assertEqual(schemata.differences(want, self.run_of(
			('s.m.empty', 'FAIL'), ('s.n', 'FAIL'))),
				 ['s.m: SKIP in the normal kernel, missing here',
				  's.n: SKIP in the normal kernel, FAIL here',
				  's.m.empty: not in the normal kernel, FAIL here'])

	def test_a_case_only_the_schema_kernel_has_must_not_fail(self):
		want = self.run_of(('s.a', 'PASS'))
		self.assertEqual(schemata.differences(want, self.run_of(
			('s.a', 'PASS'), ('s.nth', 'PASS'), ('s.x', 'SKIP'))), [])
		self.assertEqual(schemata.differences(want, self.run_of(
			('s.a', 'PASS'), ('s.nth', 'FAIL'))), ['s.nth: not in the normal kernel, FAIL here'])


class Equivalent(unittest.TestCase):
	def write(self, text: str) -> str:
		f = tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False)
		f.write(text)
		f.close()
		self.addCleanup(os.unlink, f.name)
		return f.name

	def test_entries_have_an_id_and_a_reason(self):
		path = self.write('# why\n\na.c:f:ror:0123456789 the bound is never reached\n')
		self.assertEqual(schemata.load_equivalent(path),
				 {'a.c:f:ror:0123456789': 'the bound is never reached'})

	def test_an_entry_may_hold_on_some_bases_only(self):
		path = self.write('a.c:f:ror:0123456789 6.12 the bound is never reached\n'
				  'a.c:g:ror:0123456789 6.1,6.12 dead on both\n'
				  'a.c:h:const:0123456789 0 * 4 is 0 whatever the 4\n')
		self.assertEqual(schemata.load_equivalent(path, '6.1'),
				 {'a.c:g:ror:0123456789': 'dead on both',
				  'a.c:h:const:0123456789': '0 * 4 is 0 whatever the 4'})
		self.assertEqual(len(schemata.load_equivalent(path, '6.12')), 3)
		self.assertEqual(schemata.load_equivalent(path)['a.c:f:ror:0123456789'],
				 'the bound is never reached')

	def test_an_entry_without_reason_is_an_error(self):
		path = self.write('a.c:f:ror:0123456789\n')
		with self.assertRaisesRegex(common.UsageError, ':1: want'):
			schemata.load_equivalent(path)

	def test_the_project_list_parses(self):
		schemata.load_equivalent()

	def test_an_entry_of_a_generated_function_that_it_no_longer_has_is_stale(self):
		t = targets.Target('k/a.c', 'f', 's*')
		m = mutagen.Mutant('k/a.c:f:ror:0000000001', 'a.c', 'f', 'ror', 1, 0, 1, '<', '<=')
		equivalent = {m.id: 'same', 'k/a.c:f:ror:0000000002': 'gone',
			      'k/a.c:g:ror:0000000003': 'not generated this run'}
		self.assertEqual(schemata.stale_equivalent(equivalent, [(m, t)]),
				 ['k/a.c:f:ror:0000000002'])


class Report(unittest.TestCase):
	def outcome(self, fn: str, verdict: str, line: int = 3) -> schemata.Outcome:
		m = mutagen.Mutant(f'a.c:{fn}:ror:{line:010d}', 'a.c', fn, 'ror', line, 0, 1, '<', '<=')
		return schemata.Outcome(m, targets.Target('k/a.c', fn, 's*'), verdict,
					['s.c1'] if verdict == schemata.KILLED else ['why'], line, 2.5)

	def test_scores_count_each_verdict_and_the_time_per_function(self):
		out = [self.outcome('f', schemata.KILLED), self.outcome('f', schemata.SURVIVED, 7),
		       self.outcome('f', schemata.KILLED, 9), self.outcome('g', schemata.EQUIVALENT),
		       self.outcome('g', schemata.NOT_RUN)]
		self.assertEqual(schemata.scores('c', out),
				 [share.Score('c', 'k/a.c', 'f', 3, 2, 1, 0, 0, 8),
				  share.Score('c', 'k/a.c', 'g', 2, 0, 0, 1, 1, 5)])

	def test_table_survivors_and_closing_line(self):
		out = [self.outcome('f', schemata.KILLED), self.outcome('f', schemata.SURVIVED, 7),
		       self.outcome('g', schemata.EQUIVALENT), self.outcome('g', schemata.NOT_RUN)]
		lines = schemata.report(out)
		self.assertRegex(lines[1], r'^a\.c:f\s+2\s+1\s+1\s+0\s+0\s+50 %$')
		self.assertRegex(lines[2], r'^a\.c:g\s+2\s+0\s+0\s+1\s+1\s+-$')
		self.assertIn('  k/a.c:7 ror < -> <=  [a.c:f:ror:0000000007]', lines)
		self.assertEqual(lines[-1], 'mutation: 1 killed, 1 survived, 1 equivalent')

	def test_matrix_keeps_what_killed_each(self):
		m = schemata.matrix('6.12-x86_64', [self.outcome('f', schemata.KILLED)])
		self.assertEqual(m['cell'], '6.12-x86_64')
		self.assertEqual(m['mutants'][0]['detail'], ['s.c1'])
		self.assertEqual(m['mutants'][0]['verdict'], 'killed')


class BootAll(unittest.TestCase):
	"""The mutants' boots, several at once: each in a slot no other boot
	holds meanwhile, the outcomes in the entries' order."""

	def boot(self, boots, n=6, done=None):
		lock = threading.Lock()
		held, seen = set(), []

		def fake(k, a, cell, e, jobs, slot=None):
			with lock:
				self.assertNotIn(slot, held)
				held.add(slot)
				seen.append((e.number, slot, len(held)))
			time.sleep(0.05 * (e.number % 3))	# ends out of order
			with lock:
				held.remove(slot)
			verdict = schemata.KILLED if e.number % 2 else schemata.SURVIVED
			return schemata.Outcome(e.mutant, e.target, verdict, ['s.c'], e.number, 1.0)

		target = targets.Target('a.c', 'f', 'c*')
		entries = [schemata.Entry(i, mutagen.Mutant(f'a.c:f:ror:{i:010d}', 'a.c', 'f', 'ror', i, 0, 1, '<', '<='),
					  target) for i in range(1, n + 1)]
		with mock.patch.object(schemata, 'boot_mutant', side_effect=fake), \
		     contextlib.redirect_stdout(io.StringIO()) as out:
			got = schemata.boot_all(None, None, None, entries, 2, boots, n, done)
		return got, seen, out.getvalue()

	def test_outcomes_keep_the_entries_order(self):
		got, seen, out = self.boot(2)
		self.assertEqual([o.number for o in got], [1, 2, 3, 4, 5, 6])
		self.assertEqual({s for _, s, _ in seen}, {0, 1})
		self.assertEqual(max(c for _, _, c in seen), 2)
		self.assertIn('mutation: 3/6 killed in 1 s: s.c', out)

	def test_one_boot_at_a_time_boots_from_the_build_dir(self):
		got, seen, out = self.boot(1)
		self.assertEqual([s for _, s, _ in seen], [None] * 6)
		self.assertEqual([o.number for o in got], [1, 2, 3, 4, 5, 6])
		self.assertIn('mutation: 6/6 a.c:f:ror', out)

	def test_a_run_cut_off_goes_on_where_it_stopped(self):
		with tempfile.TemporaryDirectory() as tmp:
			path = os.path.join(tmp, 'done.json')
			first = schemata.Done(path, 'tree1')
			got, seen, _ = self.boot(2, n=3, done=first)
			self.assertEqual(len(seen), 3)
			# the next run over the same tree boots only the new mutants
			got, seen, out = self.boot(2, n=5, done=schemata.Done(path, 'tree1'))
			self.assertEqual(sorted(n for n, _, _ in seen), [4, 5])
			self.assertIn('3 of 5 mutants booted before', out)
			self.assertEqual([(o.number, o.verdict, o.detail, o.seconds) for o in got],
					 [(i, schemata.KILLED if i % 2 else schemata.SURVIVED, ['s.c'], 1.0)
					  for i in range(1, 6)])
			# another tree, or FRESH=1: every mutant again
			_, seen, _ = self.boot(2, n=5, done=schemata.Done(path, 'tree2'))
			self.assertEqual(len(seen), 5)
			_, seen, _ = self.boot(2, n=5, done=schemata.Done(path, 'tree2', fresh=True))
			self.assertEqual(len(seen), 5)

	def test_an_outcome_of_other_suites_is_not_kept(self):
		with tempfile.TemporaryDirectory() as tmp:
			path = os.path.join(tmp, 'done.json')
			m = mutagen.Mutant('a.c:f:ror:0000000001', 'a.c', 'f', 'ror', 1, 0, 1, '<', '<=')
			done = schemata.Done(path, 't')
			done.put(schemata.Outcome(m, targets.Target('a.c', 'f', 'c*'), schemata.KILLED,
						  ['c.x'], 1, 2.0))
			again = schemata.Done(path, 't')
			self.assertIsNotNone(again.get(schemata.Entry(1, m, targets.Target('a.c', 'f', 'c*'))))
			self.assertIsNone(again.get(schemata.Entry(1, m, targets.Target('a.c', 'f', 'd*'))))

	def test_the_tree_key_covers_the_extra_boots(self):
		k, a = common.kernel('6.12'), common.arch('x86_64')
		with tempfile.TemporaryDirectory() as tmp, \
		     mock.patch.object(schemata.runner, 'build_key',
				       side_effect=lambda k, a, tree, args: repr(args)):
			boots = os.path.join(tmp, 'boots')
			keys = []
			for text in ('a x y\n', 'a x z\n'):
				with open(boots, 'w', encoding='utf-8') as f:
					f.write(text)
				with mock.patch.object(schemata.runner, 'BOOTS', boots):
					keys.append(schemata.tree_key(k, a))
			self.assertNotEqual(keys[0], keys[1])
			self.assertIn('inject.config', keys[0])	# the mutation build's config
