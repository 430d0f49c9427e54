# SPDX-License-Identifier: GPL-2.0
"""The record of a run, and the verdict on it: the one results model.

A run (a cell: one kernel x arch, boot or leg) is recorded once, by
record(), in results/<cell>.run.json: what was run (Meta), every case
and parameter row with its status, skip reason, duration and console
lines (Case), and what fails the cell besides its cases (Problem, typed:
no results, kunit.py's exit, a missing suite, a kernel report, a skip in
a boot that is there to run it, a guest that hung or crashed). The
table, the JUnit and KCIDB files, the kept reverts and the integration
leg all read that record through load(); none reads another's text.

The record is built from kunit.py's JSON, which is kunit_parser's tree
of the console (the structure), and from one pass over the console for
what kunit_parser drops: the timestamps (printk.time=1), skip reasons,
each result's console lines, and the kernel reports.
"""

import hashlib
import json
import os
import re
from dataclasses import asdict, dataclass, field
from typing import Dict, Iterable, List, Optional, Tuple

Path = Tuple[str, ...]

# A case's status, as kunit.py's JSON names kunit_parser's TestStatus:
# SUCCESS, SKIPPED, TEST_CRASHED, and FAIL for the rest.
PASS, FAIL, SKIP, ERROR = 'PASS', 'FAIL', 'SKIP', 'ERROR'

# The kinds of problem that fail a cell besides its cases.
NOT_RUN = 'not-run'		# no record: the run never happened
NO_RESULTS = 'no-results'	# kunit.py exited before any test ran
EXIT = 'exit'			# kunit.py exited non-zero, no case to show for it
MISSING = 'missing-suite'	# a registered suite did not report
SUITES_UNKNOWN = 'suites-unknown'	# the kernel's registered suites could not be read
REPORT = 'kernel-report'	# BUG, KASAN, UBSAN, WARNING, ... in the console
SKIP_IN_BOOT = 'skip-in-boot'	# a skip in a boot that is there to run it
HUNG = 'hung'			# the guest ran out of time
CRASHED = 'crashed'		# the guest died without powering off

SUFFIX = '.run.json'


@dataclass
class Meta:
	"""What was run, known before the console is read."""
	kernel: str = ''
	arch: str = ''
	package: str = ''
	boot: str = ''
	rc: int = 0
	log: str = ''			# the console log's path
	filter: str = ''
	expected: List[str] = field(default_factory=list)	# suites that must report
	rows: List[str] = field(default_factory=list)	# SUITE.CASE whose rows to list
	no_skips: bool = False
	seconds: Optional[float] = None
	build: str = ''			# the build's stamp key (runner.build_key)


@dataclass
class Case:
	"""One case or parameter row, as it reported."""
	path: Path
	status: str
	reason: str = ''
	seconds: Optional[float] = None
	log: List[str] = field(default_factory=list)

	@property
	def name(self) -> str:
		return '.'.join(self.path)


@dataclass
class Problem:
	kind: str
	where: str	# the suite or case it is about; '' for the whole cell
	text: str	# the one line the table shows


@dataclass
class Counts:
	"""kunit_parser's TestCounts: crashed cases and cell-level errors
	apart from failures; the table folds them into its failed column."""
	passed: int = 0
	failed: int = 0
	crashed: int = 0
	skipped: int = 0
	errors: int = 0

	def add(self, status: str, n: int = 1) -> None:
		what = {PASS: 'passed', SKIP: 'skipped', ERROR: 'crashed'}.get(status, 'failed')
		setattr(self, what, getattr(self, what) + n)

	def __iadd__(self, other: 'Counts') -> 'Counts':
		for k in ('passed', 'failed', 'crashed', 'skipped', 'errors'):
			setattr(self, k, getattr(self, k) + getattr(other, k))
		return self

	def bad(self) -> int:
		return self.failed + self.crashed + self.errors

	def __str__(self) -> str:
		return f'{self.passed}/{self.bad()}/{self.skipped}'


@dataclass
class Run:
	"""The record of one run."""
	name: str
	meta: Meta
	cases: List[Case] = field(default_factory=list)	# in the console's order
	problems: List[Problem] = field(default_factory=list)
	suite_seconds: Dict[str, float] = field(default_factory=dict)
	console_sha: str = ''	# sha256 of the console log: the run's identity

	def suites(self) -> Dict[str, Counts]:
		out: Dict[str, Counts] = {}
		for c in self.cases:
			out.setdefault(c.path[0], Counts()).add(c.status)
		return out

	def failures(self) -> List[str]:
		return [c.name for c in self.cases if c.status not in (PASS, SKIP)]

	def missing(self) -> List[str]:
		return [p.where for p in self.problems if p.kind == MISSING]

	def of_kind(self, *kinds: str) -> List[Problem]:
		return [p for p in self.problems if p.kind in kinds]

	def total(self) -> Counts:
		t = Counts()
		for c in self.suites().values():
			t += c
		t.errors += len(self.problems)
		return t

	def skips(self) -> List[Case]:
		return [c for c in self.cases if c.status == SKIP and c.reason]

	def rows(self) -> Dict[str, Dict[str, List[str]]]:
		"""SUITE.CASE of meta.rows -> verdict -> the names of its rows."""
		out: Dict[str, Dict[str, List[str]]] = {}
		for name in self.meta.rows:
			want = tuple(name.split('.', 1))
			for c in self.cases:
				if len(c.path) == 3 and c.path[:2] == want:
					out.setdefault(name, {}).setdefault(_VERDICT[c.status], []).append(c.path[2])
		return out


_VERDICT = {PASS: 'passed', SKIP: 'skipped', FAIL: 'failed', ERROR: 'failed'}

# ------------------------------------------------------- the console, once

_TIME = re.compile(r'^\[\s*(\d+\.\d+)\] ?')
_TIME_ANY = re.compile(r'^\[[\s\d.]+\] ?')
_KTAP = re.compile(r'^(\s*)K?TAP version \d+$')
SUBTEST = re.compile(r'^(\s*)# Subtest: (.*)$')
RESULT_LINE = re.compile(r'^(\s*)(?:not )?ok \d+ (.*?)(?: # SKIP\s*(.*))?$')
# A kernel report in the log fails its cell even when every case passed.
_REPORT = re.compile(r'\bBUG: |\bKASAN: |\bUBSAN: |\bWARNING: |possible recursive locking|'
		     r'\bODEBUG: |kernel BUG|\bOops\b|\bpanic\b')
# The kernel's echo of its own command line (which may say panic=-1).
_CMDLINE = re.compile(r'^(?:Kernel )?[Cc]ommand line: ')
BOOT_SUITE = '(boot)'


@dataclass
class Timed:
	"""What the console says of one result line."""
	seconds: Optional[float] = None
	lines: List[str] = field(default_factory=list)
	reason: str = ''
	line: int = -1		# its line in the console


@dataclass
class Console:
	"""One pass over a console log: each result line by path, and the
	kernel reports with the suite they came in."""
	results: Dict[Path, Timed] = field(default_factory=dict)
	reports: List[Tuple[str, str]] = field(default_factory=list)

	def suite_seconds(self) -> Dict[str, float]:
		return {p[0]: t.seconds for p, t in self.results.items()
			if len(p) == 1 and t.seconds is not None}


def _level(indent: str) -> int:
	return len(indent.expandtabs()) // 4


def scan(log: str) -> Console:
	"""Every result line of a KTAP console with its duration (the time
	since the result before it at its level), its reason and the console
	lines since that result; every kernel report with its suite (the last
	top-level subtest begun, '(boot)' before any)."""
	stack: List[str] = []	# the open groups; stack[k] holds results at level k+1
	marks: Dict[int, Tuple[int, Optional[float]]] = {}	# level: (line, time) of the last mark
	lines: List[str] = []
	out = Console()
	suite = BOOT_SUITE
	for raw in log.splitlines():
		m = _TIME.match(raw)
		t = float(m.group(1)) if m else None
		line = raw[m.end():] if m else _TIME_ANY.sub('', raw)
		lines.append(line)
		here = len(lines) - 1
		k = _KTAP.match(line)
		if k:
			marks[_level(k.group(1))] = (here, t)
			continue
		s = SUBTEST.match(line)
		if s:
			level = _level(s.group(1))
			del stack[max(level - 1, 0):]
			stack.append(s.group(2).strip())
			marks.setdefault(level, (here, t))
			if len(s.group(1)) <= 4:
				suite = s.group(2).strip()
			continue
		r = RESULT_LINE.match(line)
		if not r:
			if not _CMDLINE.match(line) and _REPORT.search(line):
				out.reports.append((suite, line.strip()))
			continue
		level = _level(r.group(1))
		del stack[level:]
		start, t0 = marks.get(level, (here, t))
		seconds = round(t - t0, 6) if t is not None and t0 is not None else None
		out.results[tuple(stack) + (r.group(2),)] = Timed(
			seconds, lines[start + 1:here + 1], r.group(3) or '', here)
		marks[level] = (here, t)
		for deeper in [x for x in marks if x > level]:
			del marks[deeper]
	return out


# --------------------------------------------------------------- the record

def _leaves(result: dict) -> Iterable[Tuple[Path, str]]:
	def walk(group: dict, path: Path) -> Iterable[Tuple[Path, str]]:
		for case in group.get('test_cases', []):
			yield path + (case['name'],), case['status']
		for sub in group.get('sub_groups', []):
			yield from walk(sub, path + (sub['name'],))
	for suite in result.get('sub_groups', []):
		yield from walk(suite, (suite['name'],))
	# A suite with no cases at all (it crashed in init) shows as a case.
	for case in result.get('test_cases', []):
		yield (case['name'],), case['status']


def build(name: str, meta: Meta, result: Optional[dict], log: str,
	  problems: Iterable[Problem] = ()) -> Run:
	"""The record of a run from kunit.py's JSON (None: there was none),
	its console log and the problems its runner saw (a guest that hung)."""
	run = Run(name, meta, console_sha=hashlib.sha256(log.encode()).hexdigest())
	if result is None:
		run.problems.append(Problem(NO_RESULTS, '', f'no results: kunit.py exited {meta.rc} '
					    f'before running tests (see {meta.log})'))
		return run
	console = scan(log)
	cases = []
	for path, status in _leaves(result):
		t = console.results.get(path, Timed())
		cases.append((t.line < 0, t.line, Case(path, status if status in (PASS, SKIP, ERROR)
							else FAIL, t.reason if status == SKIP else '',
							t.seconds, t.lines)))
	# The console's order; those it lacks last, in the JSON's order.
	run.cases = [c for _, _, c in sorted(cases, key=lambda x: (x[0], x[1]))]
	run.suite_seconds = console.suite_seconds()
	reported = set(run.suites())
	for s in meta.expected:
		if s not in reported:
			run.problems.append(Problem(MISSING, s, f'suite {s} enabled but did not report'))
	if meta.no_skips:
		for path, t in console.results.items():
			if t.reason:
				run.problems.append(Problem(
					SKIP_IN_BOOT, '.'.join(path), f"{'.'.join(path)} skipped in boot "
					f'{meta.boot}, which is there to run it: {t.reason}'))
	for suite, line in console.reports:
		run.problems.append(Problem(REPORT, suite, f'kernel report in {suite}: {line}'))
	run.problems.extend(problems)
	if meta.rc and not run.failures() and not any(p.kind in (HUNG, CRASHED) for p in run.problems):
		run.problems.append(Problem(EXIT, '', f'kunit.py exited {meta.rc}: the kernel crashed, '
					    f'hung or did not build (see {meta.log})'))
	return run


def _path(results_dir: str, name: str) -> str:
	return os.path.join(results_dir, name + SUFFIX)


def write(results_dir: str, run: Run) -> str:
	path = _path(results_dir, run.name)
	with open(path, 'w', encoding='utf-8') as f:
		json.dump(asdict(run), f, indent=1)
		f.write('\n')
	return path


def record(results_dir: str, name: str, meta: Meta, json_path: str,
	   problems: Iterable[Problem] = ()) -> Run:
	"""Build a run's record from its files (kunit.py's JSON, the console
	log of meta.log) and write it."""
	result = None
	try:
		with open(json_path, encoding='utf-8') as f:
			result = json.load(f)
	except (FileNotFoundError, json.JSONDecodeError):
		pass
	log = ''
	try:
		with open(meta.log, encoding='utf-8', errors='replace') as f:
			log = f.read()
	except (FileNotFoundError, TypeError):
		pass
	run = build(name, meta, result, log, problems)
	write(results_dir, run)
	return run


def load(results_dir: str, name: str) -> Run:
	"""A run's record; a run without one was not run."""
	try:
		with open(_path(results_dir, name), encoding='utf-8') as f:
			d = json.load(f)
	except (FileNotFoundError, json.JSONDecodeError):
		return Run(name, Meta(), problems=[Problem(NOT_RUN, '', 'not run (no record)')])
	return Run(d['name'], Meta(**d['meta']),
		   [Case(tuple(c['path']), c['status'], c['reason'], c['seconds'], c['log'])
		    for c in d['cases']],
		   [Problem(**p) for p in d['problems']], d['suite_seconds'], d['console_sha'])


def names(results_dir: str) -> List[str]:
	"""Every run with a record, sorted."""
	try:
		return sorted(f[:-len(SUFFIX)] for f in os.listdir(results_dir) if f.endswith(SUFFIX))
	except FileNotFoundError:
		return []


# ---------------------------------------------------------------- the table

_KERNEL = re.compile(r'^(\d+\.\d+)-(.+)$')


def split_cell(name: str) -> Tuple[str, str]:
	"""(kernel, run) of a cell name: 6.1-arm64-mono-suspend gives
	('6.1', 'arm64-mono-suspend'); a name without a kernel, ('', name)."""
	m = _KERNEL.match(name)
	return (m.group(1), m.group(2)) if m else ('', name)


def _version_key(kernel: str) -> Tuple[int, ...]:
	return tuple(int(x) for x in kernel.split('.')) if kernel else ()


def table(runs: List[Run]) -> List[str]:
	"""The kernel x suite by run table (passed/failed/skipped), problems,
	closing line. Each base kernel has its rows; a column is one run (arch,
	boot, leg) of every kernel that has it."""
	columns: List[str] = []
	kernels: List[str] = []
	by_name: Dict[Tuple[str, str], Run] = {}
	for r in runs:
		kernel, column = split_cell(r.name)
		by_name[(kernel, column)] = r
		if column not in columns:
			columns.append(column)
		if kernel not in kernels:
			kernels.append(kernel)
	kernels.sort(key=_version_key)
	counts = {id(r): r.suites() for r in runs}
	missing = {id(r): r.missing() for r in runs}
	head = ['kernel', 'suite'] + columns
	rows = [head]
	for kernel in kernels:
		mine = [r for (k, _), r in by_name.items() if k == kernel]
		suites: List[str] = []
		for r in mine:
			suites.extend(s for s in list(counts[id(r)]) + missing[id(r)] if s not in suites)
		for s in sorted(suites):
			row = [kernel, s]
			for column in columns:
				r = by_name.get((kernel, column))
				if r is None:
					row.append('')
				elif s in counts[id(r)]:
					row.append(str(counts[id(r)][s]))
				elif s in missing[id(r)]:
					row.append('MISSING')
				else:
					row.append('-')
			rows.append(row)
		rows.append([kernel, 'total'] + [str(by_name[(kernel, c)].total())
						 if (kernel, c) in by_name else '' for c in columns])
	widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
	rule = '  '.join('-' * w for w in widths)
	lines = [rule if r is None else '  '.join(v.ljust(w) for v, w in zip(r, widths)).rstrip()
		 for r in [rows[0], None] + [x for row in rows[1:]
					     for x in ([row, None] if row[1] == 'total' else [row])]]
	lines.append('(passed/failed/skipped cases; MISSING: an enabled suite did not report; '
		     'empty: no such run)')
	total = Counts()
	for r in runs:
		total += r.total()
		for case, verdicts in r.rows().items():
			for verdict, names_ in verdicts.items():
				lines.append(f"rows    {r.name}: {case}: {verdict}: {', '.join(names_)}")
		lines.extend(skip_lines(r))
		for f in r.failures():
			lines.append(f'FAILED  {r.name}: {f}')
		for p in r.of_kind(MISSING):
			lines.append(f'FAILED  {r.name}: {p.text}')
		for p in r.problems:
			if p.kind != MISSING:
				lines.append(f'FAILED  {r.name}: {p.text}')
	lines.append(f'kunit: {total.passed} passed, {total.bad()} failed, {total.skipped} skipped')
	return lines


def skip_lines(r: Run) -> List[str]:
	"""One line per skipped row and reason, naming the cases it skipped in."""
	rows: Dict[Tuple[str, str, str], List[str]] = {}
	for c in r.skips():
		parts = c.path
		key = (parts[0], parts[-1], c.reason)
		where = '.'.join(parts[1:-1]) or parts[0]
		if where not in rows.setdefault(key, []):
			rows[key].append(where)
	return [f"skipped {r.name}: {suite}: {row}: {reason} ({', '.join(cases)})"
		for (suite, row, reason), cases in rows.items()]


def ok(runs: List[Run]) -> bool:
	return all(r.total().bad() == 0 for r in runs)
