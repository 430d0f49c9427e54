# SPDX-License-Identifier: GPL-2.0
"""Judge kunit.py results: a suite x cell table and one closing line.

A cell is one kernel x arch run: results/<cell>.json (kunit.py --json)
and results/<cell>.status.json (kunit/run: exit code, expected suites).
A cell fails, besides failing cases, when its JSON is missing, when
kunit.py exited non-zero with no failing case to show for it (a crash,
a hang, a build failure), or when an expected suite did not report.
In an extra boot (kunit/boots, status 'no_skips'), a skipped case fails.
"""

import json
import os
import re
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Tuple

PASS, FAIL, SKIP = 'passed', 'failed', 'skipped'
_STATUS = {'PASS': PASS, 'SKIP': SKIP}	# anything else (FAIL, ERROR) fails


@dataclass
class Counts:
	passed: int = 0
	failed: int = 0
	skipped: int = 0

	def add(self, what: str, n: int = 1) -> None:
		setattr(self, what, getattr(self, what) + n)

	def __iadd__(self, other: 'Counts') -> 'Counts':
		for what in (PASS, FAIL, SKIP):
			self.add(what, getattr(other, what))
		return self

	def __str__(self) -> str:
		return f'{self.passed}/{self.failed}/{self.skipped}'


@dataclass
class Cell:
	"""The verdict on one kernel x arch run."""
	name: str
	suites: Dict[str, Counts] = field(default_factory=dict)
	failures: List[str] = field(default_factory=list)	# failed case names
	problems: List[str] = field(default_factory=list)	# cell-level failures
	missing: List[str] = field(default_factory=list)	# expected, not reported
	skips: List[Tuple[Tuple[str, ...], str]] = field(default_factory=list)	# (path, reason)
	rows: Dict[str, Dict[str, List[str]]] = field(default_factory=dict)	# case: verdict: rows

	def total(self) -> Counts:
		t = Counts()
		for c in self.suites.values():
			t += c
		t.add(FAIL, len(self.problems) + len(self.missing))
		return t


def _leaves(group: dict, prefix: str) -> Iterable[Tuple[str, str]]:
	for case in group.get('test_cases', []):
		yield f"{prefix}.{case['name']}", _STATUS.get(case['status'], FAIL)
	for sub in group.get('sub_groups', []):
		yield from _leaves(sub, f"{prefix}.{sub['name']}")


_TIME = re.compile(r'^\[[\s\d.]+\] ?')
# A KTAP subtest header and a result line (indent, name[, SKIP reason]).
SUBTEST = re.compile(r'^(\s*)# Subtest: (.*)$')
RESULT_LINE = re.compile(r'^(\s*)(?:not )?ok \d+ (.*?)(?: # SKIP\s*(.*))?$')


# A kernel report in the log fails its cell even when every case passed.
_REPORT = re.compile(r'\bBUG: |\bKASAN: |\bUBSAN: |\bWARNING: |possible recursive locking|'
		     r'\bODEBUG: |kernel BUG|\bOops\b|\bpanic\b')
_RESULT = re.compile(r'^\s*(?:not )?ok \d+ ')
# The kernel's echo of its own command line (which may say panic=-1).
_CMDLINE = re.compile(r'^(?:Kernel )?[Cc]ommand line: ')


def reports(log: str) -> List[Tuple[str, str]]:
	"""(suite, line) of every kernel report in a log; suite '(boot)' before any."""
	suite, out = '(boot)', []
	for raw in log.splitlines():
		line = _TIME.sub('', raw)
		m = SUBTEST.match(line)
		if m and len(m.group(1)) <= 4:
			suite = m.group(2).strip()
			continue
		if not _RESULT.match(line) and not _CMDLINE.match(line) and _REPORT.search(line):
			out.append((suite, line.strip()))
	return out


def skipped(log: str) -> List[Tuple[Tuple[str, ...], str]]:
	"""((suite, case[, param]), reason) of every skip in a KTAP log that
	gives a reason: a case or suite whose every row or case skipped is
	reported as skipped with none, and its rows say why."""
	stack: List[Tuple[int, str]] = []
	out = []
	for raw in log.splitlines():
		line = _TIME.sub('', raw)
		m = SUBTEST.match(line)
		if m:
			depth = len(m.group(1))
			while stack and stack[-1][0] >= depth:
				stack.pop()
			stack.append((depth, m.group(2).strip()))
			continue
		m = RESULT_LINE.match(line)
		if not m:
			continue
		depth = len(m.group(1))
		while stack and stack[-1][0] > depth:
			stack.pop()
		if m.group(3):
			out.append((tuple([n for _, n in stack] + [m.group(2)]), m.group(3)))
	return out


def judge(name: str, result: Optional[dict], status: Optional[dict],
	  log: str = '') -> Cell:
	"""Fold one cell's JSON and status into a verdict."""
	cell = Cell(name)
	if status is None:
		cell.problems.append('not run (no status file)')
		return cell
	if result is None:
		cell.problems.append(f"no results: kunit.py exited {status.get('rc')} before "
				     f"running tests (see {status.get('log')})")
		return cell
	for suite in result.get('sub_groups', []):
		counts = cell.suites.setdefault(suite['name'], Counts())
		for case, verdict in _leaves(suite, suite['name']):
			counts.add(verdict)
			if verdict == FAIL:
				cell.failures.append(case)
	# A suite with no cases at all (it crashed in init) shows as a case.
	for case in result.get('test_cases', []):
		verdict = _STATUS.get(case['status'], FAIL)
		cell.suites.setdefault(case['name'], Counts()).add(verdict)
		if verdict == FAIL:
			cell.failures.append(case['name'])
	cell.missing = [s for s in status.get('expected_suites', []) if s not in cell.suites]
	cell.skips = skipped(log)
	if status.get('no_skips'):
		for case, reason in cell.skips:
			cell.problems.append(f"{'.'.join(case)} skipped in boot {status.get('boot')}, "
					     f"which is there to run it: {reason}")
	for suite, line in reports(log):
		cell.problems.append(f'kernel report in {suite}: {line}')
	for name in status.get('rows', []):
		suite, _, case = name.partition('.')
		for s in result.get('sub_groups', []):
			for g in s.get('sub_groups', []) if s['name'] == suite else []:
				if g['name'] == case:
					rows = cell.rows.setdefault(name, {})
					for r in g.get('test_cases', []):
						verdict = _STATUS.get(r['status'], FAIL)
						rows.setdefault(verdict, []).append(r['name'])
	cell.problems.extend(status.get('problems', []))
	if status.get('rc') and not cell.failures and not status.get('problems'):
		cell.problems.append(f"kunit.py exited {status['rc']}: the kernel crashed, hung "
				     f"or did not build (see {status.get('log')})")
	return cell


def read_files(results_dir: str, name: str) -> Tuple[Optional[dict], Optional[dict], str]:
	"""A cell's kunit.py JSON, status and console log; None or '' when missing."""
	def read(path: str) -> Optional[dict]:
		try:
			with open(path, encoding='utf-8') as f:
				return json.load(f)
		except (FileNotFoundError, json.JSONDecodeError):
			return None
	status = read(os.path.join(results_dir, name + '.status.json'))
	log = ''
	if status and status.get('log'):
		try:
			with open(status['log'], encoding='utf-8', errors='replace') as f:
				log = f.read()
		except FileNotFoundError:
			pass
	return read(os.path.join(results_dir, name + '.json')), status, log


def load(results_dir: str, name: str) -> Cell:
	result, status, log = read_files(results_dir, name)
	return judge(name, result, status, log)


_KERNEL = re.compile(r'^(\d+\.\d+)-(.+)$')


def split_cell(name: str) -> Tuple[str, str]:
	"""(kernel, run) of a cell name: 6.1-arm64-mono-suspend gives
	('6.1', 'arm64-mono-suspend'); a name without a kernel, ('', name)."""
	m = _KERNEL.match(name)
	return (m.group(1), m.group(2)) if m else ('', name)


def _version_key(kernel: str) -> Tuple[int, ...]:
	return tuple(int(x) for x in kernel.split('.')) if kernel else ()


def table(cells: List[Cell]) -> List[str]:
	"""The kernel x suite by run table (passed/failed/skipped), problems,
	closing line. Each base kernel has its rows; a column is one run (arch,
	boot, leg) of every kernel that has it."""
	runs: List[str] = []
	kernels: List[str] = []
	by_name: Dict[Tuple[str, str], Cell] = {}
	for c in cells:
		kernel, run = split_cell(c.name)
		by_name[(kernel, run)] = c
		if run not in runs:
			runs.append(run)
		if kernel not in kernels:
			kernels.append(kernel)
	kernels.sort(key=_version_key)
	head = ['kernel', 'suite'] + runs
	rows = [head]
	for kernel in kernels:
		mine = [c for (k, _), c in by_name.items() if k == kernel]
		suites: List[str] = []
		for c in mine:
			suites.extend(s for s in list(c.suites) + c.missing if s not in suites)
		for s in sorted(suites):
			row = [kernel, s]
			for run in runs:
				c = by_name.get((kernel, run))
				if c is None:
					row.append('')
				elif s in c.suites:
					row.append(str(c.suites[s]))
				elif s in c.missing:
					row.append('MISSING')
				else:
					row.append('-')
			rows.append(row)
		rows.append([kernel, 'total'] + [str(by_name[(kernel, r)].total())
						 if (kernel, r) in by_name else '' for r in runs])
	widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
	rule = '  '.join('-' * w for w in widths)
	lines = [rule if r is None else '  '.join(v.ljust(w) for v, w in zip(r, widths)).rstrip()
		 for r in [rows[0], None] + [x for row in rows[1:]
					     for x in ([row, None] if row[1] == 'total' else [row])]]
	lines.append('(passed/failed/skipped cases; MISSING: an enabled suite did not report; '
		     'empty: no such run)')
	total = Counts()
	for c in cells:
		total += c.total()
		for case, verdicts in c.rows.items():
			for verdict, names in verdicts.items():
				lines.append(f"rows    {c.name}: {case}: {verdict}: {', '.join(names)}")
		lines.extend(skip_lines(c))
		for f in c.failures:
			lines.append(f'FAILED  {c.name}: {f}')
		for m in c.missing:
			lines.append(f'FAILED  {c.name}: suite {m} enabled but did not report')
		for p in c.problems:
			lines.append(f'FAILED  {c.name}: {p}')
	lines.append(f'kunit: {total.passed} passed, {total.failed} failed, {total.skipped} skipped')
	return lines


def skip_lines(c: Cell) -> List[str]:
	"""One line per skipped row and reason, naming the cases it skipped in."""
	rows: Dict[Tuple[str, str, str], List[str]] = {}
	for parts, reason in c.skips:
		key = (parts[0], parts[-1], reason)
		where = '.'.join(parts[1:-1]) or parts[0]
		if where not in rows.setdefault(key, []):
			rows[key].append(where)
	return [f"skipped {c.name}: {suite}: {row}: {reason} ({', '.join(cases)})"
		for (suite, row, reason), cases in rows.items()]


def ok(cells: List[Cell]) -> bool:
	return all(c.total().failed == 0 for c in cells)
