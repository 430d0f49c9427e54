# SPDX-License-Identifier: GPL-2.0
"""Run kunit.py in the synced tree for one kernel x arch cell.

The command is kunit.py's own; this module only chooses its arguments
(the .kunitconfig beside each suite, the fragments of kunit/configs/, the
cached build dir, ccache, the JSON result file) and records the run
(results.record): kunit.py's exit code, and the suites the built kernel
registers (registered.py), each of which must report.
"""

import fnmatch
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Tuple

import common
import export
import matrix
import overlay
import progress
import registered
import results
import stamp

CONFIGS = os.path.join(common.REPO, 'kunit', 'configs')
BOOTS = matrix.BOOTS_FILE
INTEGRATION = matrix.INTEGRATION


# The debug leg: its own build dir, with kunit/configs/debug.config on top
# (KASAN, UBSAN, KFENCE, lockdep, debug objects, fault injection), every
# KASAN report printed, not only the first.
DEBUG = matrix.DEBUG
# kasan_multi_shot: every report printed. monotonic_suspend=off: the
# debug kernel is built with the mode on (debug.config); the boot turns
# it off, the other direction of the override from the mono-suspend boot.
DEBUG_KERNEL_ARGS = ['kasan_multi_shot', 'monotonic_suspend=off']
# A kept revert's boot: whatever the mutant breaks ends the boot at once.
# An Oops or a KASAN report can leave the guest hung until the timeout
# (apparmor-alloc-profile-rules-late: 600 s); a panic reboots it, and a
# crash kills the mutant as a failed case does.
MUTANT_KERNEL_ARGS = ['oops=panic', 'panic=-1']
MUTANT_DEBUG_KERNEL_ARGS = ['kasan.fault=panic']

# The debug leg's self-test: the canary suite reads past a buffer when
# booted with this argument, and the cell must fail with a KASAN report.
CANARY = 'canary'

# The schema kernels of make mutation: the cell's fragments, INJECT's among
# them (every cell has it, so that a schema kernel takes every object but
# its targets' from the ccache of the cell's build).
MUTATION = 'mutation'
INJECT = 'inject'
CANARY_SUITE = 'debug_canary'
CANARY_ARG = 'debug_canary_kunit.oob=1'


def suite_configs() -> List[str]:
	"""The .kunitconfig beside each suite: one per overlay folder that has
	suites, as drivers/gpu/drm/tests/.kunitconfig is in the kernel."""
	out = []
	for d in matrix.OVERLAY_DIRS:
		for root, subdirs, names in os.walk(os.path.join(common.REPO, d)):
			subdirs.sort()
			if '.kunitconfig' in names:
				out.append(os.path.join(root, '.kunitconfig'))
	return out


def kunitconfigs(k: common.Kernel, a: common.Arch, flavour: str = '') -> List[str]:
	"""The kunitconfig files of a cell: the suites' own; the fragments of
	what no cell uses (slim), its kernel (options only one base has),
	arch, and kernel-arch; then
	the debug leg's, or the integration leg's (in the normal build, so
	that the leg boots the kernel that make test built, and in the
	mutants' and mutation's); and in every build, what lets suites
	reach allocation failures and module requests."""
	fragments = ['slim', k.version, a.name, f'{k.version}-{a.name}']
	fragments.append(DEBUG if flavour == DEBUG else INTEGRATION)
	fragments.append(INJECT)
	paths = [os.path.join(CONFIGS, f'{name}.config') for name in fragments]
	return suite_configs() + [p for p in paths if os.path.exists(p)]


_ROWS = re.compile(r'^#\s*@rows\s+(\S+)\s*$', re.M)


def row_cases(paths: List[str]) -> List[str]:
	"""The SUITE.CASE of each "# @rows SUITE.CASE" line of the kunitconfigs:
	the results table lists which rows of that case ran and which skipped."""
	out = []
	for path in paths:
		with open(path, encoding='utf-8') as f:
			out.extend(_ROWS.findall(f.read()))
	return out


@dataclass
class Boot:
	"""An extra boot of a cell's kernel: kunit/boots."""
	name: str
	filter: str
	kernel_args: List[str]
	qemu_args: List[str] = field(default_factory=list)

	def args(self) -> List[str]:
		return [self.filter, *(f'--kernel_args={x}' for x in self.kernel_args),
			*(f'--qemu_args={x}' for x in self.qemu_args)]


def boot_table(path: str = BOOTS) -> Dict[str, Boot]:
	return {w[0]: Boot(w[0], w[1], *matrix.boot_words(w[2:]))
		for w in common.boot_rows(path, 3, 'name filter-glob kernel-arg...')}


def boot(name: str, path: str = BOOTS) -> Boot:
	table = boot_table(path)
	if name not in table:
		raise common.UsageError(f"unknown boot '{name}'; valid: {' '.join(table)}")
	return table[name]


def expected_suites(build: str, extra: List[str]) -> Tuple[List[str], List[results.Problem]]:
	"""The suites the kernel in build registers that the filter lets run,
	each of which must report (none of a kernel that did not build), and
	the problem when the kernel cannot say which it registers."""
	vmlinux = os.path.join(build, 'vmlinux')
	if not os.path.exists(vmlinux):
		return [], []
	try:
		return filter_suites(registered.suites(vmlinux), extra), []
	except (OSError, registered.NoSuites) as e:
		return [], [results.Problem(results.SUITES_UNKNOWN, '', 'cannot tell which suites '
					    f'the kernel registers: {e}')]


def filter_suites(suites: List[str], extra: List[str]) -> List[str]:
	"""The suites a kunit.py filter_glob among extra arguments lets run."""
	globs = [x for x in extra if not x.startswith('-')]
	if not globs:
		return suites
	suite_glob = globs[0].split('.', 1)[0]
	return [s for s in suites if fnmatch.fnmatchcase(s, suite_glob)]


def ccache_env(env: Mapping[str, str]) -> Dict[str, str]:
	"""A copy of env with ccache in the cache; hits across build dirs of
	the same depth.

	Depend mode: a miss compiles once and takes the include files from
	the compiler's own -MMD output (kbuild's -Wp,-MMD), where the default
	mode runs the preprocessor first to hash its output. On this
	machine that made a cold build of 6.12 arm64 take 298 s instead of
	216 s (no ccache: 212 s); hits are direct-mode hits either way
	(docs/timings.md).

	No inode cache: the sync replaces a file by a rename, so a file
	and the one it replaces can share an inode number, and ccache 4.7
	then took the hash of the old content for the new. A kept revert
	that changes a digit (sm4-ck) survived one run in two that way,
	built from the cached object of the unmutated file; without the
	inode cache, in none of six. A wrong hash also stored objects under
	keys of content they were not built from, and those stay in a
	cache: the namespace keeps every entry made before this change out
	of reach."""
	cache = common.cache_dir()
	env = dict(env)
	env.setdefault('CCACHE_DIR', os.path.join(cache, 'ccache'))
	env.setdefault('CCACHE_BASEDIR', cache)
	env.setdefault('CCACHE_NOHASHDIR', '1')
	env.setdefault('CCACHE_MAXSIZE', '10G')
	env.setdefault('CCACHE_DEPEND', '1')
	env.setdefault('CCACHE_NOINODECACHE', '1')
	env.setdefault('CCACHE_NAMESPACE', 'kernel-overlay-1')
	return env


def kunit_args(k: common.Kernel, a: common.Arch, build: str, json_path: Optional[str],
	       jobs: int, timeout: int, extra: List[str], flavour: str = '') -> List[str]:
	"""The kunit.py run command line, relative to the tree."""
	cc = a.cross_compile + 'gcc'
	args = ['./tools/testing/kunit/kunit.py', 'run',
		*(f'--kunitconfig={p}' for p in kunitconfigs(k, a, flavour)),
		f'--arch={a.name}',
		f'--build_dir={build}',
		f'--jobs={jobs}',
		f'--timeout={timeout}',
		f'--make_options=CC=ccache {cc}',
		'--make_options=HOSTCC=ccache gcc']
	if a.cross_compile:
		args.append(f'--cross_compile={a.cross_compile}')
	args.extend(f'--qemu_args={q}' for q in a.qemu_args)
	if json_path:
		args.append(f'--json={json_path}')
	# Console timestamps, from which the JUnit and KCIDB files take
	# each case's duration.
	args.append('--kernel_args=printk.time=1')
	if flavour == DEBUG:
		args.extend(f'--kernel_args={x}' for x in DEBUG_KERNEL_ARGS)
	return args + extra


# What a build reads besides the tree and the kunitconfig files: the
# arguments that reach make, and the compilers.
_BUILD_ARGS = ('--arch=', '--build_dir=', '--make_options=', '--cross_compile=')


def _build_inputs(args: List[str]) -> Tuple[List[str], List[str]]:
	"""The kunitconfig files and the build arguments of a kunit.py line."""
	return ([x.split('=', 1)[1] for x in args if x.startswith('--kunitconfig=')],
		[x for x in args if x.startswith(_BUILD_ARGS)])


def config_key(k: common.Kernel, a: common.Arch, flavour: str = '') -> str:
	"""stamp.inputs() of what a build dir's .config comes from, the tree
	aside: the kunitconfig files' content and the arguments that reach
	make. When it changes, kbuild rebuilds every object."""
	configs, args = _build_inputs(kunit_args(k, a, common.build_dir(k, a, flavour), None, 1, 0,
						 [], flavour))
	return stamp.inputs(None, configs, args, [])


def build_key(k: common.Kernel, a: common.Arch, tree: str, args: List[str]) -> str:
	"""stamp.inputs() of the build that args ask for."""
	configs, build_args = _build_inputs(args)
	return stamp.inputs(tree, configs, build_args,
			    [a.cross_compile + 'gcc', a.cross_compile + 'ld', 'gcc', 'ccache'])


# kunit.py's line for a case or a suite that failed: "[hh:mm:ss] ... [FAILED] name"
FAILED_LINE = re.compile(r'^\[\d\d:\d\d:\d\d\] .*\[FAILED\] ')


def kunit_py(tree: str, build: str, args: List[str], what: str, cache: bool = True,
	     first_failure: bool = False, quiet: bool = False) -> int:
	"""kunit.py with args in the tree, a progress line while it builds.
	cache False: no ccache (a kept revert's build, see docs/mutants.md).
	first_failure: a mutant's boot ends at its first failed case (the
	guest is stopped; kunit.py parses what it printed up to there).
	quiet (with first_failure): none of kunit.py's lines, for boots that
	run at once (their console logs are kept, see run())."""
	if not quiet:
		print(f'{what}: cd {tree} && {" ".join(shlex.quote(x) for x in args)}', flush=True)
	env = ccache_env(os.environ)
	if not cache:
		env['CCACHE_DISABLE'] = '1'
	with progress.Progress(f'{what}: building', build):
		if not first_failure:
			return subprocess.run([sys.executable, *args], cwd=tree, env=env,
					      check=False).returncode
		with subprocess.Popen([sys.executable, *args], cwd=tree, env=env, text=True,
				      stdout=subprocess.PIPE, errors='replace') as proc:
			stopped = False
			for line in proc.stdout:
				if not quiet:
					sys.stdout.write(line)
				if not stopped and FAILED_LINE.match(line):
					stopped = stop_children(proc.pid)
					if stopped and not quiet:
						print(f'{what}: the first failure ends the boot', flush=True)
			return proc.wait()


def children(pid: int) -> List[int]:
	"""The processes whose parent is @pid."""
	out = []
	for entry in os.listdir('/proc'):
		if not entry.isdigit():
			continue
		try:
			with open(f'/proc/{entry}/stat', encoding='ascii', errors='replace') as f:
				stat = f.read()
		except OSError:
			continue
		# pid (comm) state ppid ...: comm may hold spaces and parentheses
		if int(stat[stat.rindex(')') + 2:].split()[1]) == pid:
			out.append(int(entry))
	return out


def stop_children(pid: int) -> bool:
	"""SIGTERM to kunit.py's children (the guest's QEMU): kunit.py reads
	the end of its output, parses it and writes its JSON as after a
	crash. Whether there was one to stop."""
	stopped = False
	for child in children(pid):
		try:
			os.kill(child, signal.SIGTERM)
			stopped = True
		except ProcessLookupError:
			pass
	return stopped


def build(k: common.Kernel, a: common.Arch, jobs: int, flavour: str = '') -> int:
	"""kunit.py build of a cell's kernel (the normal build dir, or the
	flavour's): nothing to do when make test built it and nothing changed
	since."""
	tree = common.tree_dir(k)
	check_tree(tree)
	build_dir = common.build_dir(k, a, flavour)
	run_args = kunit_args(k, a, build_dir, None, jobs, 0, [], flavour)
	keep = ('--kunitconfig=', '--arch=', '--build_dir=', '--jobs=', '--make_options=',
		'--cross_compile=')
	args = [run_args[0], 'build'] + [x for x in run_args[2:] if x.startswith(keep)]
	key = build_key(k, a, tree, args)
	if stamp.current(build_dir, key):
		print(f'build: {common.cell(k, a)}: nothing changed since its last build', flush=True)
		return 0
	stamp.forget(build_dir)
	rc = kunit_py(tree, build_dir, args, 'build')
	if rc == 0:
		stamp.write(build_dir, key)
	return rc


def stale(k: common.Kernel, a: common.Arch) -> Optional[str]:
	"""Why the record of the cell's normal run is not the whole run of the
	kernel its build would be now, or None when it is."""
	tree = common.tree_dir(k)
	check_tree(tree)
	got = results.load(common.results_dir(), common.cell(k, a))
	run_args = kunit_args(k, a, common.build_dir(k, a), None, 1, 0, [])
	if not got.cases:
		return 'it has no record'
	if got.meta.filter:
		return f'its record is of {got.meta.filter} only'
	if got.meta.build != build_key(k, a, tree, run_args):
		return 'its record is of another build'
	return None


def check_tree(tree: str) -> None:
	if overlay.tree_version(tree) is None:
		raise common.UsageError(f'no synced tree at {tree} (run make sync)')
	if os.path.exists(os.path.join(tree, '.git', overlay.STATE, 'journal.json')):
		raise common.UsageError(f'tree {tree} is half-synced (run make sync)')


def run_name(k: common.Kernel, a: common.Arch, flavour: str = '',
	     b: Optional[Boot] = None) -> str:
	"""The results name of a run: <kernel>-<arch>[-<flavour>][-<boot>]."""
	return '-'.join([common.cell(k, a)] + [x for x in (flavour, b.name if b else '') if x])


def result_paths(name: str) -> Tuple[str, str]:
	"""results/<name>.json and .log, none of them (nor the record and the
	exports) left from an earlier run."""
	out = common.results_dir()
	os.makedirs(out, exist_ok=True)
	paths = tuple(os.path.join(out, name + x) for x in ('.json', '.log'))
	for stale in paths + tuple(os.path.join(out, name + x)
				   for x in (results.SUFFIX,) + export.SUFFIXES):
		if os.path.exists(stale):
			os.unlink(stale)
	return paths


def mutant_args(flavour: str = '') -> List[str]:
	"""The kernel arguments of a mutant's boot (MUTANT_KERNEL_ARGS)."""
	args = MUTANT_KERNEL_ARGS + (MUTANT_DEBUG_KERNEL_ARGS if flavour == DEBUG else [])
	return [f'--kernel_args={x}' for x in args]


def run(k: common.Kernel, a: common.Arch, jobs: int, timeout: int,
	extra: List[str], flavour: str = '', b: Optional[Boot] = None,
	name: Optional[str] = None, mutant: bool = False, slot: Optional[int] = None) -> int:
	"""Run one cell; write results/<name>.{json,log,run.json} and the exports.
	mutant: the run of a kept revert, which must fail.
	slot: one of the boots of an up-to-date build that run at once, each
	from a directory of its own (boot_dir()); quiet, as their lines would
	interleave: the caller says what each found."""
	if b and any(not x.startswith('-') for x in extra):
		raise common.UsageError(f'boot {b.name} has its own filter ({b.filter})')
	tree = common.tree_dir(k)
	check_tree(tree)
	build = common.build_dir(k, a, flavour)
	os.makedirs(os.path.dirname(build), exist_ok=True)
	name = name or run_name(k, a, flavour, b)
	if b:
		extra = b.args() + extra
	if mutant:
		extra = extra + mutant_args(flavour)
	json_path, log_path = result_paths(name)
	args = kunit_args(k, a, build, json_path, jobs, timeout, extra, flavour)
	started = time.monotonic()
	if slot is None:
		print(f'cell {name}: started', flush=True)
	key = build_key(k, a, tree, args)
	where = build
	if stamp.current(build, key):
		# Nothing the build reads changed: boot the kernel it left.
		if slot is None:
			print(f'run: {name}: nothing changed since the last build of {build}', flush=True)
		args = [args[0], 'exec'] + [x for x in args[2:] if not x.startswith('--jobs=')]
		if slot is not None:
			where = boot_dir(build, slot)
			args = [f'--build_dir={where}' if x.startswith('--build_dir=') else x
				for x in args]
	elif slot is not None:
		raise common.UsageError(f'{build} is not built: boot {slot} of {name} builds nothing')
	else:
		stamp.forget(build)
	rc = kunit_py(tree, where, args, 'run', cache=not mutant, first_failure=mutant,
		      quiet=slot is not None)
	if args[1] == 'run' and os.path.exists(json_path):
		if build_key(k, a, tree, args) == key:
			stamp.write(build, key)	# it built, and booted
		else:
			print(f'run: {name}: the tree changed while it built; no stamp', flush=True)
	# The build dir's log is the last boot's: keep this one's beside its results.
	log = os.path.join(where, 'test.log')
	if os.path.exists(log):
		shutil.copyfile(log, log_path)
	expected, problems = expected_suites(build, extra)
	meta = results.Meta(kernel=k.version, arch=a.name, package=package(k),
			    boot=b.name if b else '', rc=rc, log=log_path, filter=' '.join(extra),
			    expected=expected, rows=row_cases(kunitconfigs(k, a, flavour)),
			    no_skips=bool(b), build=key)
	run_ = results.record(common.results_dir(), name, meta, json_path, problems)
	write_exports(run_)
	if slot is None:
		ended(run_, started, mutant)
	return rc


def boot_dir(build: str, slot: int) -> str:
	"""A directory from which kunit.py exec boots build's kernel beside
	another boot of it: kunit.py writes its console log (test.log) into
	its build dir, so each boot at once needs a dir of its own. It links
	every entry of build but the log and the stamp."""
	path = f'{build}.boot{slot}'
	shutil.rmtree(path, ignore_errors=True)
	os.makedirs(path)
	for entry in os.listdir(build):
		if entry not in ('test.log', stamp.NAME):
			os.symlink(os.path.join(build, entry), os.path.join(path, entry))
	return path


def ended(run_: results.Run, started: float, mutant: bool = False) -> None:
	"""The line that closes a cell in make check's output."""
	bad = run_.total().bad()
	if mutant:
		verdict = f'red ({bad} failed), the mutant is killed' if bad else \
			'green: the mutant SURVIVED'
	else:
		verdict = 'passed' if not bad else f'FAILED ({bad} failed)'
	print(f'cell {run_.name}: {verdict} in {time.monotonic() - started:.0f} s', flush=True)


def package(k: common.Kernel) -> str:
	"""The base's package and its installed version, as the exports name it."""
	version = common.package_version(k.package)
	return f'{k.package} {version}' if version else k.package


def write_exports(run: results.Run) -> None:
	"""The run's JUnit XML and KCIDB JSON beside its record."""
	export.write(common.results_dir(), run)


def canary_caught(run: results.Run) -> Optional[str]:
	"""The KASAN report of the canary suite in a canary run, if any."""
	for p in run.of_kind(results.REPORT):
		if p.where == CANARY_SUITE and 'KASAN' in p.text:
			return p.text
	return None


def canary(k: common.Kernel, a: common.Arch, jobs: int, timeout: int) -> int:
	"""The debug leg's self-test: the deliberate out-of-bounds read must fail it."""
	b = Boot(CANARY, CANARY_SUITE, [CANARY_ARG])
	name = run_name(k, a, DEBUG, b)
	run(k, a, jobs, timeout, [], DEBUG, b, name)
	run_ = results.load(common.results_dir(), name)
	caught = canary_caught(run_)
	if caught:
		print(f'canary: {name}: the deliberate out-of-bounds read failed the leg: {caught}')
		return 0
	print(f'canary: {name}: FAILED: the deliberate out-of-bounds read went unreported '
	      f"({'; '.join([p.text for p in run_.problems] + run_.failures()) or 'the run passed'})")
	return 1
