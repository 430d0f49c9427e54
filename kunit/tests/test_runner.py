# SPDX-License-Identifier: GPL-2.0
"""kunit/runner.py and the command lines: arguments and bad input."""

import contextlib
import io
import os
import re
import subprocess
import tempfile
import time
import unittest
from unittest import mock

from helpers import KUNIT, declared_suites, kconfig

import common
import results
import runner
import stamp


def cli(tool, *args, env=None):
	return subprocess.run([os.path.join(KUNIT, tool), *args], capture_output=True, text=True,
			      env=dict(os.environ, **(env or {})), check=False)


class Arguments(unittest.TestCase):
	def test_arm64_cross_compiles_with_ccache(self):
		k, a = common.kernel('6.12'), common.arch('arm64')
		args = runner.kunit_args(k, a, '/b', '/r.json', 3, 60, [])
		self.assertIn('--arch=arm64', args)
		self.assertIn('--cross_compile=aarch64-linux-gnu-', args)
		self.assertIn('--make_options=CC=ccache aarch64-linux-gnu-gcc', args)
		self.assertIn('--jobs=3', args)
		self.assertIn('--json=/r.json', args)
		# 6.1's kunit.py boots a Cortex-A57: no SM4 extension
		self.assertIn('--qemu_args=-cpu max,pauth-impdef=on', args)

	def test_ccache_runs_in_depend_mode_without_inode_cache(self):
		env = runner.ccache_env({})
		self.assertEqual(env['CCACHE_DEPEND'], '1')
		self.assertEqual(env['CCACHE_NOINODECACHE'], '1')
		self.assertTrue(env['CCACHE_NAMESPACE'])
		self.assertEqual(env['CCACHE_NOHASHDIR'], '1')
		self.assertEqual(runner.ccache_env({'CCACHE_DIR': '/c'})['CCACHE_DIR'], '/c')

	def test_x86_64_boots_with_cpu_max(self):
		args = runner.kunit_args(common.kernel('6.12'), common.arch('x86_64'), '/b', None, 2, 60, [])
		self.assertIn('--qemu_args=-cpu max,la57=off', args)
		for path in runner.suite_configs():
			self.assertIn(f'--kunitconfig={path}', args)
		self.assertIn('--make_options=CC=ccache gcc', args)

	def test_expected_suites_come_from_the_build(self):
		with tempfile.TemporaryDirectory() as build:
			self.assertEqual(runner.expected_suites(build, []), ([], []))
			with open(os.path.join(build, 'vmlinux'), 'w', encoding='utf-8') as f:
				f.write('not a kernel')
			suites, problems = runner.expected_suites(build, [])
			self.assertEqual(suites, [])
			self.assertEqual([p.kind for p in problems], [results.SUITES_UNKNOWN])

	def test_filter_glob_narrows_expected_suites(self):
		self.assertEqual(runner.filter_suites(['sm4', 'scsi_lib', 'sm4_modes'], ['sm4*']),
				 ['sm4', 'sm4_modes'])
		self.assertEqual(runner.filter_suites(['sm4', 'x'], ['--raw_output']), ['sm4', 'x'])
		self.assertEqual(runner.filter_suites(['sm4', 'x'], ['x.case']), ['x'])


class Debug(unittest.TestCase):
	def test_debug_leg_adds_its_fragment_and_kasan_multi_shot(self):
		k, a = common.kernel('6.12'), common.arch('x86_64')
		args = runner.kunit_args(k, a, '/b', None, 2, 60, ['sm4*'], runner.DEBUG)
		self.assertIn(f"--kunitconfig={os.path.join(runner.CONFIGS, 'debug.config')}", args)
		self.assertIn('--kernel_args=kasan_multi_shot', args)
		self.assertEqual(args[-1], 'sm4*')
		plain = runner.kunit_args(k, a, '/b', None, 2, 60, [], 'mutants')
		self.assertFalse(any('debug.config' in x or 'kasan' in x for x in plain))

	def test_a_mutant_boot_ends_at_its_first_oops_or_kasan_report(self):
		self.assertEqual(runner.mutant_args('mutants'),
				 ['--kernel_args=oops=panic', '--kernel_args=panic=-1'])
		self.assertEqual(runner.mutant_args(runner.DEBUG)[-1],
				 '--kernel_args=kasan.fault=panic')

	def test_debug_fragment_has_the_checkers_of_the_leg(self):
		k, a = common.kernel('6.12'), common.arch('x86_64')
		syms = kconfig(runner.kunitconfigs(k, a, runner.DEBUG))
		for sym in ('KASAN', 'KASAN_GENERIC', 'UBSAN_BOUNDS', 'UBSAN_SHIFT', 'KFENCE',
			    'PROVE_LOCKING', 'DEBUG_OBJECTS_TIMERS', 'DEBUG_ATOMIC_SLEEP',
			    'FAILSLAB', 'FAIL_PAGE_ALLOC', 'DEBUG_CANARY_KUNIT_TEST'):
			self.assertIn(sym, syms)

	def test_every_build_reaches_allocation_failures_and_module_requests(self):
		# an allocation's error branch and a free are killed by the fail_nth
		# walks; scsi_dh_lookup()'s module requests by their tracepoint
		for k in common.KERNELS.values():
			for a in common.ARCHES.values():
				for flavour in ('', runner.MUTATION, runner.DEBUG):
					with self.subTest(cell=common.cell(k, a), flavour=flavour):
						syms = kconfig(runner.kunitconfigs(k, a, flavour))
						for sym in ('KUNIT_FAULT_INJECTION', 'FAILSLAB', 'MODULES'):
							self.assertEqual(syms.get(sym), 'y', sym)

	def test_a_mutation_kernel_has_the_cells_config(self):
		# so that ccache serves the schema kernel the cell's objects
		for k in common.KERNELS.values():
			for a in common.ARCHES.values():
				with self.subTest(cell=common.cell(k, a)):
					self.assertEqual(runner.kunitconfigs(k, a, runner.MUTATION),
							 runner.kunitconfigs(k, a))
					self.assertNotIn('KASAN', kconfig(runner.kunitconfigs(k, a)))

	def test_only_the_debug_leg_builds_the_canary(self):
		k, a = common.kernel('6.12'), common.arch('arm64')
		self.assertEqual(kconfig(runner.kunitconfigs(k, a, runner.DEBUG)).get(
			'DEBUG_CANARY_KUNIT_TEST'), 'y')
		self.assertNotIn('DEBUG_CANARY_KUNIT_TEST', kconfig(runner.kunitconfigs(k, a)))

	def test_canary_is_caught_only_by_a_kasan_report_in_its_suite(self):
		def run(*problems):
			return results.Run('c', results.Meta(), problems=list(problems))

		def report(suite, line):
			return results.Problem(results.REPORT, suite, f'kernel report in {suite}: {line}')
		kasan = report('debug_canary', 'BUG: KASAN: slab-out-of-bounds in debug_canary_test+0x1')
		other = results.Problem(results.EXIT, '', 'x')
		self.assertEqual(runner.canary_caught(run(other, kasan)), kasan.text)
		self.assertIsNone(runner.canary_caught(run()))
		self.assertIsNone(runner.canary_caught(
			run(report('sm4_lib', 'BUG: KASAN: use-after-free in x'))))
		self.assertIsNone(runner.canary_caught(
			run(report('debug_canary', 'WARNING: CPU: 0 PID: 1 at x'))))
		self.assertIsNone(runner.canary_caught(run(results.Problem(
			results.EXIT, 'debug_canary', 'kernel report in debug_canary: BUG: KASAN: x'))))


class Stale(unittest.TestCase):
	"""make mutation checks its schema kernel against the cell's normal run:
	a record of a filtered run or of another build is no baseline."""

	def setUp(self):
		self.dir = tempfile.TemporaryDirectory()
		self.addCleanup(self.dir.cleanup)
		saved = (common.results_dir, runner.check_tree, runner.build_key)
		self.addCleanup(lambda: (setattr(common, 'results_dir', saved[0]),
					 setattr(runner, 'check_tree', saved[1]),
					 setattr(runner, 'build_key', saved[2])))
		common.results_dir = lambda: self.dir.name
		runner.check_tree = lambda tree: None
		runner.build_key = lambda k, a, tree, args: 'key-now'
		self.k, self.a = common.kernel('6.12'), common.arch('x86_64')

	def record(self, **meta):
		case = results.Case(('s', 'c'), results.PASS)
		results.write(self.dir.name, results.Run(common.cell(self.k, self.a),
							 results.Meta(**meta), [case]))

	def test_whole_run_of_this_build_is_current(self):
		self.record(build='key-now')
		self.assertIsNone(runner.stale(self.k, self.a))

	def test_no_record(self):
		self.assertEqual(runner.stale(self.k, self.a), 'it has no record')

	def test_filtered_run(self):
		self.record(build='key-now', filter='tick*')
		self.assertEqual(runner.stale(self.k, self.a), 'its record is of tick* only')

	def test_other_build(self):
		self.record(build='key-then')
		self.assertEqual(runner.stale(self.k, self.a), 'its record is of another build')
		self.record()
		self.assertEqual(runner.stale(self.k, self.a), 'its record is of another build')


# A stand-in for kunit.py: starts a "guest" that prints its arguments and
# then would run for a minute, relays its lines, and says how it ended.
FAKE_GUEST = 'import sys, time\nfor x in sys.argv[1:]:\n\tprint(x, flush=True)\n' \
	     'time.sleep(60)\nprint("[00:00:09] [PASSED] late", flush=True)\n'
FAKE_KUNIT = 'import subprocess, sys\n' \
	     'guest = subprocess.Popen([sys.executable, sys.argv[1], *sys.argv[2:]],\n' \
	     '\t\t\t stdout=subprocess.PIPE, text=True)\n' \
	     'for line in guest.stdout:\n\tprint(line, end="", flush=True)\n' \
	     'print("guest ended", guest.wait(), flush=True)\n'


class FirstFailure(unittest.TestCase):
	"""A mutant's boot ends at its first failed case: kunit.py's guest is
	stopped, and kunit.py itself ends as after a crash."""

	def run_fake(self, lines, quiet=False):
		with tempfile.TemporaryDirectory() as tmp:
			paths = [os.path.join(tmp, x) for x in ('kunit.py', 'guest.py', 'out')]
			for path, text in zip(paths, (FAKE_KUNIT, FAKE_GUEST)):
				with open(path, 'w', encoding='utf-8') as f:
					f.write(text)
			with open(paths[2], 'w', encoding='utf-8') as f:
				saved = os.dup(1)
				os.dup2(f.fileno(), 1)
				try:
					rc = runner.kunit_py(tmp, tmp, [paths[0], paths[1], *lines], 'run',
							     first_failure=True, quiet=quiet)
				finally:
					os.dup2(saved, 1)
					os.close(saved)
			with open(paths[2], encoding='utf-8') as f:
				return rc, f.read()

	def test_failed_case_stops_the_guest(self):
		rc, out = self.run_fake(['[00:00:01] [PASSED] a', '[00:00:02] [FAILED] b'])
		self.assertEqual(rc, 0)
		self.assertIn('[FAILED] b', out)
		self.assertIn('the first failure ends the boot', out)
		self.assertIn('guest ended -15', out)
		self.assertNotIn('late', out)

	def test_a_quiet_boot_prints_nothing_and_still_stops(self):
		started = time.monotonic()
		rc, out = self.run_fake(['[00:00:01] [PASSED] a', '[00:00:02] [FAILED] b'], quiet=True)
		self.assertEqual((rc, out), (0, ''))
		self.assertLess(time.monotonic() - started, 30)	# the guest sleeps 60 s

	def test_expectation_lines_do_not_stop_it(self):
		self.assertFalse(runner.FAILED_LINE.match('[00:00:01]     # b: EXPECTATION FAILED at x.c:1'))
		self.assertTrue(runner.FAILED_LINE.match('[00:00:01] ====== [FAILED] suite ======'))

	def test_children_of_a_process(self):
		proc = subprocess.Popen(['sleep', '30'])
		self.addCleanup(proc.wait)
		self.addCleanup(proc.kill)
		self.assertIn(proc.pid, runner.children(os.getpid()))
		self.assertNotIn(os.getpid(), runner.children(os.getpid()))


class BootDir(unittest.TestCase):
	"""Boots at once of one build: each from a dir of its own."""

	def test_links_all_of_the_build_but_its_log_and_stamp(self):
		with tempfile.TemporaryDirectory() as tmp:
			build = os.path.join(tmp, 'x86_64-mutation')
			os.makedirs(os.path.join(build, 'arch', 'x86', 'boot'))
			for name in ('.config', 'vmlinux', 'test.log', stamp.NAME,
				     'arch/x86/boot/bzImage'):
				with open(os.path.join(build, name), 'w', encoding='utf-8') as f:
					f.write(name)
			path = runner.boot_dir(build, 1)
			self.assertEqual(path, build + '.boot1')
			self.assertEqual(sorted(os.listdir(path)), ['.config', 'arch', 'vmlinux'])
			with open(os.path.join(path, 'arch/x86/boot/bzImage'), encoding='utf-8') as f:
				self.assertEqual(f.read(), 'arch/x86/boot/bzImage')
			with open(os.path.join(path, 'test.log'), 'w', encoding='utf-8') as f:
				f.write('boot 1')	# its own log, not the build's
			with open(os.path.join(build, 'test.log'), encoding='utf-8') as f:
				self.assertEqual(f.read(), 'test.log')
			os.unlink(os.path.join(build, 'vmlinux'))
			runner.boot_dir(build, 1)	# made afresh: nothing of the last one
			self.assertEqual(sorted(os.listdir(path)), ['.config', 'arch'])


class StampAfterBuild(unittest.TestCase):
	"""The stamp names the tree the build read: none when the tree changed
	while it built (another run's sync, an edit)."""

	def run_cell(self, keys, slot=None, current=False):
		def fake_kunit_py(tree, build, args, what, **kw):
			self.seen = (build, args, kw)
			json_path = next(x for x in args if x.startswith('--json=')).split('=', 1)[1]
			with open(json_path, 'w', encoding='utf-8') as f:
				f.write('{}')
			return 0
		k, a = common.kernel('6.12'), common.arch('x86_64')
		with tempfile.TemporaryDirectory() as tmp, \
		     mock.patch.object(common, 'results_dir', return_value=tmp), \
		     mock.patch.object(common, 'build_dir', return_value=os.path.join(tmp, 'b')), \
		     mock.patch.multiple(runner, check_tree=mock.DEFAULT, write_exports=mock.DEFAULT,
					 ended=mock.DEFAULT,
					 build_key=mock.Mock(side_effect=keys),
					 kunit_py=mock.Mock(side_effect=fake_kunit_py),
					 expected_suites=mock.Mock(return_value=([], []))), \
		     mock.patch.object(runner.results, 'record'), \
		     mock.patch.object(runner.stamp, 'current', return_value=current), \
		     mock.patch.object(runner.stamp, 'write') as write, \
		     contextlib.redirect_stdout(io.StringIO()) as self.out:
			os.makedirs(os.path.join(tmp, 'b'))
			runner.run(k, a, 1, 60, [], slot=slot)
			return write, tmp

	def test_a_build_of_an_unchanged_tree_is_stamped(self):
		write, tmp = self.run_cell(['k1', 'k1'])
		write.assert_called_once_with(os.path.join(tmp, 'b'), 'k1')

	def test_a_tree_changed_while_it_built_leaves_no_stamp(self):
		write, _ = self.run_cell(['k1', 'k2'])
		write.assert_not_called()
		self.assertIn('the tree changed while it built', self.out.getvalue())

	def test_a_slot_boots_the_build_from_its_own_dir_quietly(self):
		write, tmp = self.run_cell(['k1'], slot=2, current=True)
		build, args, kw = self.seen
		self.assertEqual(build, os.path.join(tmp, 'b.boot2'))
		self.assertEqual(args[1], 'exec')
		self.assertIn(f'--build_dir={build}', args)
		self.assertTrue(kw['quiet'])
		write.assert_not_called()
		self.assertEqual(self.out.getvalue(), '')

	def test_a_slot_never_builds(self):
		with self.assertRaisesRegex(common.UsageError, 'is not built'):
			self.run_cell(['k1'], slot=1)


def cells():
	return [(k, a) for k in common.KERNELS.values() for a in common.ARCHES.values()]


class Configs(unittest.TestCase):
	def test_every_suite_has_a_kunitconfig_beside_it(self):
		configs = {os.path.dirname(p) for p in runner.suite_configs()}
		for suite, path in declared_suites().items():
			if suite == runner.CANARY_SUITE:
				continue	# the debug leg's, in kunit/configs/debug.config
			with self.subTest(suite=suite):
				self.assertIn(os.path.dirname(os.path.join(common.REPO, path)), configs)

	def test_each_suite_kunitconfig_builds_a_test_of_its_folder(self):
		for path in runner.suite_configs():
			with self.subTest(config=os.path.relpath(path, common.REPO)):
				syms = [x for x, v in kconfig([path]).items()
					if v == 'y' and re.search(r'_TEST$', x)]
				self.assertTrue(syms)

	def test_rows_name_a_case_of_a_declared_suite(self):
		rows = runner.row_cases(runner.suite_configs())
		self.assertIn('sm4_drivers.sm4_kat_test', rows)
		for row in rows:
			with self.subTest(row=row):
				self.assertIn(row.split('.')[0], declared_suites())

	def test_kernel_and_kernel_arch_fragments_join_their_cells_only(self):
		names = {(k.version, a.name): [os.path.basename(p) for p in runner.kunitconfigs(k, a)]
			 for k, a in cells()}
		suites = ['.kunitconfig'] * len(runner.suite_configs())
		self.assertEqual(names[('6.1', 'x86_64')],
				 suites + ['slim.config', '6.1.config', 'x86_64.config', 'integration.config',
					   'inject.config'])
		self.assertEqual(names[('6.12', 'arm64')],
				 suites + ['slim.config', '6.12.config', 'arm64.config', '6.12-arm64.config',
					   'integration.config', 'inject.config'])
		self.assertNotIn('CRYPTO_CFB', kconfig(
			runner.kunitconfigs(common.kernel('6.12'), common.arch('x86_64'))))

	def test_slim_fragments_only_turn_off(self):
		# slim.config and the arch fragments' slim part turn groups off;
		# the only y lines are EXPERT and the defaults EXPERT flips back.
		kept_on = {'EXPERT', 'NAMESPACES', 'DEBUG_MEMORY_INIT'}
		syms = kconfig([os.path.join(runner.CONFIGS, 'slim.config')])
		self.assertEqual({x for x, v in syms.items() if v == 'y'}, kept_on)
		self.assertIn('IO_URING', syms)
		self.assertEqual({v for x, v in syms.items() if x not in kept_on}, {'n'})
		for k, a in cells():
			for flavour in ('', runner.DEBUG):
				with self.subTest(cell=common.cell(k, a), flavour=flavour):
					self.assertIn('slim.config', [os.path.basename(p) for p in
								       runner.kunitconfigs(k, a, flavour)])

	def test_debug_options_of_expert_are_off_outside_the_debug_leg(self):
		k, a = common.kernel('6.12'), common.arch('x86_64')
		for sym in ('DEBUG_MISC', 'SCHED_DEBUG', 'RCU_TRACE'):
			with self.subTest(sym=sym):
				self.assertEqual(kconfig(runner.kunitconfigs(k, a)).get(sym), 'n')
				self.assertNotIn(sym, kconfig(runner.kunitconfigs(k, a, runner.DEBUG)))

	def test_fragments_of_a_cell_do_not_contradict_each_other(self):
		for k, a in cells():
			for flavour in ('', runner.DEBUG):
				seen = {}
				for path in runner.kunitconfigs(k, a, flavour):
					for sym, val in kconfig([path]).items():
						with self.subTest(cell=common.cell(k, a), path=path, sym=sym):
							self.assertEqual(seen.setdefault(sym, val), val)


class Boots(unittest.TestCase):
	def table(self, text):
		with tempfile.NamedTemporaryFile('w', suffix='.boots', delete=False) as f:
			f.write(text)
		self.addCleanup(os.unlink, f.name)
		return f.name

	def test_kept_boots_have_a_filter_that_matches_a_declared_suite(self):
		enabled = sorted(declared_suites())
		boots = runner.boot_table()
		self.assertIn('mono-suspend', boots)
		for b in boots.values():
			with self.subTest(boot=b.name):
				self.assertTrue(runner.filter_suites(enabled, [b.filter]))

	def test_boot_runs_its_filter_with_its_kernel_args(self):
		path = self.table('# comment\n\nmono\tt_live.*_on\ta=on b  # why\n')
		b = runner.boot('mono', path)
		self.assertEqual(b.args(), ['t_live.*_on', '--kernel_args=a=on', '--kernel_args=b'])
		k, a = common.kernel('6.12'), common.arch('arm64')
		self.assertEqual(runner.run_name(k, a, '', b), '6.12-arm64-mono')
		self.assertEqual(runner.run_name(k, a, 'mutants', b), '6.12-arm64-mutants-mono')
		self.assertEqual(runner.run_name(k, a), '6.12-arm64')

	def test_boot_passes_its_qemu_options(self):
		path = self.table('smp\tt_live.*_on\ta=on -smp=2 -cpu=max,x=on\n')
		b = runner.boot('smp', path)
		self.assertEqual(b.kernel_args, ['a=on'])
		self.assertEqual(b.args(), ['t_live.*_on', '--kernel_args=a=on',
					    '--qemu_args=-smp 2', '--qemu_args=-cpu max,x=on'])

	def test_mono_suspend_boot_has_two_cpus(self):
		self.assertIn('-smp 2', runner.boot('mono-suspend').qemu_args)

	def test_unknown_boot_lists_the_valid_ones(self):
		path = self.table('one f a=1\ntwo g b=2\n')
		with self.assertRaisesRegex(common.UsageError, r"unknown boot 'three'; valid: one two"):
			runner.boot('three', path)

	def test_line_without_kernel_args_is_an_error_with_its_line(self):
		path = self.table('one f a=1\ntwo g\n')
		with self.assertRaisesRegex(common.UsageError, r':2: want: name filter-glob kernel-arg'):
			runner.boot_table(path)

	def test_boot_refuses_a_second_filter(self):
		b = runner.Boot('mono', 'x.*_on', ['m=on'])
		with self.assertRaisesRegex(common.UsageError, r'boot mono has its own filter'):
			runner.run(common.kernel('6.12'), common.arch('x86_64'), 1, 1, ['sm4*'], '', b)


class BadInput(unittest.TestCase):
	def setUp(self):
		self.cache = tempfile.mkdtemp(prefix='kernel-overlay-test-')
		self.env = {'CACHE': self.cache, 'KERNEL': '', 'ARCH': ''}

	def tearDown(self):
		os.rmdir(self.cache)

	def one_line_error(self, proc, pattern):
		self.assertEqual(proc.returncode, 2)
		self.assertEqual(proc.stdout, '')
		self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
		self.assertRegex(proc.stderr, pattern)

	def test_unknown_arch(self):
		self.one_line_error(cli('run', '--arch', 'sparc', env=self.env),
				    r"^run: unknown ARCH 'sparc'; valid: x86_64 arm64$")

	def test_unknown_arch_from_environment(self):
		self.one_line_error(cli('run', env=dict(self.env, ARCH='riscv')),
				    r"unknown ARCH 'riscv'; valid: x86_64 arm64")

	def test_unknown_kernel(self):
		for tool in ('run', 'sync'):
			with self.subTest(tool=tool):
				self.one_line_error(cli(tool, '--kernel', '5.4', env=self.env),
						    rf"^{tool}: unknown kernel '5.4'; valid: 6.1 6.12$")

	def test_run_without_synced_tree(self):
		self.one_line_error(cli('run', '--arch', 'arm64', env=self.env),
				    r'^run: no synced tree at .* \(run make sync\)$')

	def test_summary_without_results(self):
		self.one_line_error(cli('summary', env=self.env), r'^summary: no results in ')

	def test_setup_unknown_kernel(self):
		proc = cli('setup', '4.19')
		self.assertEqual(proc.returncode, 2)
		self.assertEqual(proc.stderr, "setup: unknown kernel '4.19'; valid: 6.1 6.12\n")


class BeforeSetup(unittest.TestCase):
	"""What the Makefile asks while it is read runs before make setup.

	On a new machine, the first make reads the Makefile before setup has
	installed anything: its listings (the matrix, the boots) must need
	nothing but Python's standard library, or the boots come out empty and
	make check skips them without a word.
	"""

	NOT_YET = ('elftools', 'git', 'yaml', 'jsonschema', 'clang')

	def listings(self):
		with open(os.path.join(KUNIT, '..', 'Makefile'), encoding='utf-8') as f:
			text = f.read()
		matrix = re.search(r'^MATRIX\s*:=\s*(.*)$', text, re.M).group(1)
		for cmd in re.findall(r'^\w+\s*[:?]=\s*\$\(shell (.*)\)$', text, re.M):
			if 'nproc' not in cmd:
				yield cmd.replace('$(MATRIX)', matrix)

	def test_listings_need_only_the_standard_library(self):
		with tempfile.TemporaryDirectory() as missing:
			for name in self.NOT_YET:
				os.mkdir(os.path.join(missing, name))
				with open(os.path.join(missing, name, '__init__.py'), 'w',
					  encoding='utf-8') as f:
					f.write(f'raise ImportError("no module named {name}")\n')
			cmds = list(self.listings())
			self.assertIn('/usr/bin/python3 kunit/run --list-boots', cmds)
			for cmd in cmds:
				with self.subTest(cmd=cmd):
					proc = subprocess.run(cmd, shell=True, capture_output=True, text=True,
							      cwd=os.path.join(KUNIT, '..'), check=False,
							      env=dict(os.environ, PYTHONPATH=missing))
					self.assertEqual((proc.returncode, proc.stderr), (0, ''))
					self.assertTrue(proc.stdout.strip())


class SetupAsUser(unittest.TestCase):
	"""As non-root with something missing, setup prints the root command."""

	def setup_as_user(self, foreign: str) -> subprocess.CompletedProcess:
		with tempfile.TemporaryDirectory() as bin_dir:
			for name, body in (('id', 'echo 1000'),
					   ('dpkg-query', 'for p; do case $p in -*|ccache) ;; '
					    '*) echo "$p install ok installed" ;; esac; done'),
					   ('dpkg', f'printf "{foreign}"'),
					   ('apt-get', 'echo apt-get must not run >&2; exit 99'),
					   ('sudo', 'echo sudo must not run >&2; exit 99')):
				path = os.path.join(bin_dir, name)
				with open(path, 'w', encoding='utf-8') as f:
					f.write(f'#!/bin/sh\n{body}\n')
				os.chmod(path, 0o755)
			return cli('setup', env={'PATH': bin_dir + os.pathsep + os.environ['PATH']})

	def test_prints_apt_line_and_fails(self):
		proc = self.setup_as_user('arm64\\n')
		self.assertEqual(proc.returncode, 1)
		self.assertEqual(proc.stderr,
				 'setup: missing packages; run as root: apt-get install -y ccache\n')

	def test_prints_arm64_line_and_fails(self):
		proc = self.setup_as_user('')
		self.assertEqual(proc.returncode, 1)
		self.assertEqual(proc.stderr,
				 'setup: apt does not know arm64 packages; run as root: '
				 'dpkg --add-architecture arm64 && apt-get update\n'
				 'setup: missing packages; run as root: apt-get install -y ccache\n')

if __name__ == '__main__':
	unittest.main()
