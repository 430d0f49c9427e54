# SPDX-License-Identifier: GPL-2.0
"""Kept reverts of the seed fixes: each must make its suites fail.

A mutant is a -p1 patch under kunit/mutants/, which every base kernel
runs, or under kunit/mutants/<kernel>/, which only that base runs (where
the code it reverts differs between the bases, each has its own); a
name is in one of the two places, never both. Its header:

  Mutant: what it breaks
  Seed: the seed document whose fix it undoes
  Suites: the kunit.py filter glob of the suites that must catch it
  Boot: (optional) an extra boot of kunit/boots to run instead, for a
        mutant that only a case of that boot can see; its filter is used
  Flavour: (optional) debug: run in the debug leg's build dir and config,
        for a mutant that only a debug kernel (KASAN, fault injection)
        can see; the next debug run rebuilds what it changed

It is applied through the sync, on top of the series: the sync's journal
and manifest then know the mutated files, so that a mutant run that is
interrupted, however hard, is undone by the next make sync or make test.
"""

import os
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional

import common
import overlay
import results
import runner

MUTANTS = os.path.join(common.REPO, 'kunit', 'mutants')
FLAVOUR = 'mutants'

KILLED, SURVIVED = 'killed', 'SURVIVED'
NO_APPLY, NO_BUILD = 'did not apply', 'did not build'


@dataclass
class Mutant:
	path: str
	what: str
	seed: str
	suites: str
	boot: str = ''
	flavour: str = ''

	@property
	def name(self) -> str:
		return os.path.basename(self.path)[:-len('.patch')]


@dataclass
class Outcome:
	mutant: Mutant
	verdict: str
	detail: List[str] = field(default_factory=list)


def parse(path: str) -> Mutant:
	"""A mutant's header; a missing field is an error naming the file."""
	fields: Dict[str, str] = {}
	with open(path, encoding='utf-8') as f:
		for line in f:
			if line.startswith(('---', 'diff ')):
				break
			m = re.match(r'(Mutant|Seed|Suites|Boot|Flavour):\s*(.+)', line)
			if m:
				fields[m.group(1)] = m.group(2).strip()
	missing = [k for k in ('Mutant', 'Seed', 'Suites') if k not in fields]
	if missing:
		raise common.UsageError(f"{os.path.relpath(path, common.REPO)}: no {', '.join(missing)}: "
					'header line')
	if 'Boot' in fields:
		runner.boot(fields['Boot'])	# an unknown one is an error here
	if fields.get('Flavour', runner.DEBUG) != runner.DEBUG:
		raise common.UsageError(f"{os.path.relpath(path, common.REPO)}: unknown Flavour: "
					f"{fields['Flavour']}; valid: {runner.DEBUG}")
	return Mutant(path, fields['Mutant'], fields['Seed'], fields['Suites'],
		      fields.get('Boot', ''), fields.get('Flavour', ''))


def _patches(where: str) -> Dict[str, str]:
	"""name.patch: path of the mutants directly in where."""
	if not os.path.isdir(where):
		return {}
	return {f: os.path.join(where, f) for f in os.listdir(where) if f.endswith('.patch')}


def find(k: common.Kernel, names: Optional[List[str]] = None) -> List[Mutant]:
	"""The mutants of base k: the shared ones and its own, by name."""
	shared, own = _patches(MUTANTS), _patches(os.path.join(MUTANTS, k.version))
	both = sorted(set(shared) & set(own))
	if both:
		raise common.UsageError(f'{os.path.relpath(own[both[0]], common.REPO)}: also in '
					'kunit/mutants/ (every base runs those); keep one')
	found = [parse(p) for _, p in sorted({**shared, **own}.items())]
	if names:
		known = {m.name: m for m in found}
		bad = [n for n in names if n not in known]
		if bad:
			raise common.UsageError(f"unknown mutant '{bad[0]}'; valid: {' '.join(known)}")
		found = [known[n] for n in names]
	return found


def apply(k: common.Kernel, mutant: Optional[Mutant]) -> None:
	"""Sync the tree to the series plus mutant (None: the series alone)."""
	source = overlay.Source(common.package_tarball(k.package),
				common.package_version(k.package), k.package)
	files = overlay.overlay_files(common.REPO, common.OVERLAY_DIRS)
	patches = common.series(k)
	overlay.sync(common.tree_dir(k), source, files,
		     patches + ([mutant.path] if mutant else []))


# In a mutants build dir: the runner.config_key() of its last prime.
PRIMED = '.kernel-overlay-primed'


def _primed(k: common.Kernel, a: common.Arch, flavour: str) -> bool:
	build = common.build_dir(k, a, flavour)
	try:
		with open(os.path.join(build, PRIMED), encoding='utf-8') as f:
			key = f.read().strip()
	except FileNotFoundError:
		return False
	return os.path.exists(os.path.join(build, 'vmlinux')) and \
		key == runner.config_key(k, a, flavour)


def prime(k: common.Kernel, a: common.Arch, todo: List[Mutant], jobs: int) -> int:
	"""Build each build dir the mutants use that has no kernel yet, or
	whose configuration changed since it was last primed, from the tree
	without a mutant, through ccache: a kept revert's own build runs
	without ccache (docs/mutants.md), and the first one into an empty or
	reconfigured build dir would compile the whole kernel, where this one
	mostly takes the objects of the cell's normal build from ccache. Each
	mutant's build then recompiles only what it and the sync touched."""
	stale = [f for f in sorted({m.flavour or FLAVOUR for m in todo}) if not _primed(k, a, f)]
	if stale:
		apply(k, None)
	for flavour in stale:
		rc = runner.build(k, a, jobs, flavour)
		if rc:
			return rc
		with open(os.path.join(common.build_dir(k, a, flavour), PRIMED), 'w',
			  encoding='utf-8') as f:
			f.write(runner.config_key(k, a, flavour) + '\n')
	return 0


def run_one(k: common.Kernel, a: common.Arch, m: Mutant, jobs: int, timeout: int) -> Outcome:
	try:
		apply(k, m)
	except overlay.SyncError as e:
		return Outcome(m, NO_APPLY, [str(e)])
	b = runner.boot(m.boot) if m.boot else None
	# A debug mutant borrows the debug build dir; its results stay apart.
	flavour = m.flavour or FLAVOUR
	name = runner.run_name(k, a, '-'.join(x for x in (FLAVOUR, m.flavour) if x), b)
	try:
		runner.run(k, a, jobs, timeout, [] if b else [m.suites], flavour, b, name, mutant=True)
	finally:
		apply(k, None)
	run = results.load(common.results_dir(), name)
	if run.of_kind(results.NO_RESULTS, results.NOT_RUN):
		return Outcome(m, NO_BUILD, [p.text for p in run.problems])
	why = caught(run)
	if why:
		return Outcome(m, KILLED, why)
	if not run.cases:
		return Outcome(m, SURVIVED, [f'no suite matched {b.filter if b else m.suites}'])
	return Outcome(m, SURVIVED, [f'{m.suites}: {run.total()} passed/failed/skipped'])


def caught(run: results.Run) -> List[str]:
	"""What in the run of a mutated kernel caught the mutant: the failed
	cases and the problems (a crash, a hang, a kernel report), or nothing.
	kunit/mutate's kept reverts and make mutation's generated mutants."""
	if not run.cases and run.problems:
		return ['the kernel crashed before any suite reported'] + [p.text for p in run.problems]
	if run.total().bad():
		# The boot ended at the first failed case (runner.kunit_py): the
		# cases after it were cut off there, the suites after it never ran.
		return run.failures()[:1] + [p.text for p in run.problems
					     if p.kind != results.MISSING]
	return []


def table(outcomes: List[Outcome]) -> List[str]:
	width = max([len(o.mutant.name) for o in outcomes] + [6])
	lines = [f"{'mutant'.ljust(width)}  verdict        caught by / why", '-' * (width + 40)]
	for o in outcomes:
		detail = ', '.join(o.detail[:3]) + (f' (+{len(o.detail) - 3} more)'
						     if len(o.detail) > 3 else '')
		lines.append(f'{o.mutant.name.ljust(width)}  {o.verdict.ljust(13)}  {detail}')
	killed = sum(o.verdict == KILLED for o in outcomes)
	lines.append(f'mutants: {killed} killed, {len(outcomes) - killed} survived')
	return lines
