# SPDX-License-Identifier: GPL-2.0
"""Judge kunit.py results: a suite x cell table and one closing line.

A cell is one kernel x arch run: results/<cell>.json (kunit.py --json)
and results/<cell>.status.json (kunit/run: exit code, expected suites).
A cell fails, besides failing cases, when its JSON is missing, when
kunit.py exited non-zero with no failing case to show for it (a crash,
a hang, a build failure), or when an expected suite did not report.
"""

import json
import os
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


def judge(name: str, result: Optional[dict], status: Optional[dict]) -> Cell:
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
	if status.get('rc') and not cell.failures:
		cell.problems.append(f"kunit.py exited {status['rc']}: the kernel crashed, hung "
				     f"or did not build (see {status.get('log')})")
	return cell


def load(results_dir: str, name: str) -> Cell:
	def read(path: str) -> Optional[dict]:
		try:
			with open(path, encoding='utf-8') as f:
				return json.load(f)
		except (FileNotFoundError, json.JSONDecodeError):
			return None
	return judge(name, read(os.path.join(results_dir, name + '.json')),
		     read(os.path.join(results_dir, name + '.status.json')))


def table(cells: List[Cell]) -> List[str]:
	"""The suite x cell table (passed/failed/skipped), problems, closing line."""
	suites: List[str] = []
	for c in cells:
		suites.extend(s for s in list(c.suites) + c.missing if s not in suites)
	suites.sort()
	head = ['suite'] + [c.name for c in cells]
	rows = [head]
	for s in suites:
		row = [s]
		for c in cells:
			if s in c.suites:
				row.append(str(c.suites[s]))
			elif s in c.missing:
				row.append('MISSING')
			else:
				row.append('-')
		rows.append(row)
	rows.append(['total'] + [str(c.total()) for c in cells])
	widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
	lines = ['  '.join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in rows]
	lines.insert(1, '  '.join('-' * w for w in widths))
	lines.insert(len(lines) - 1, lines[1])
	lines.append('(cells: passed/failed/skipped cases; MISSING: an enabled suite did not report)')
	total = Counts()
	for c in cells:
		total += c.total()
		for f in c.failures:
			lines.append(f'FAILED  {c.name}: {f}')
		for m in c.missing:
			lines.append(f'FAILED  {c.name}: suite {m} enabled but did not report')
		for p in c.problems:
			lines.append(f'FAILED  {c.name}: {p}')
	lines.append(f'kunit: {total.passed} passed, {total.failed} failed, {total.skipped} skipped')
	return lines


def ok(cells: List[Cell]) -> bool:
	return all(c.total().failed == 0 for c in cells)
