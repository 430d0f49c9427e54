# SPDX-License-Identifier: GPL-2.0
"""A cell's results in the formats other tools read: JUnit XML, which
forges render, and KCIDB v5 JSON (kernelci/kcidb-io, schema v5.0).

kunit.py's JSON has the verdicts but no durations and no logs; both come
from the cell's console log. A case's duration is the time between the
console timestamps ([  12.345678], printk.time=1) of the result line
before it and its own; its log is the console lines in between. A log
without timestamps gives no durations.
"""

import hashlib
import json
import os
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Tuple

import results

ORIGIN = 'kernel_overlay'
KCIDB_VERSION = {'major': 5, 'minor': 0}
# kunit.py's statuses to KCIDB's: a case that crashed is an ERROR.
KCIDB_STATUS = {'PASS': 'PASS', 'FAIL': 'FAIL', 'SKIP': 'SKIP', 'ERROR': 'ERROR'}
EXCERPT_MAX = 16384	# KCIDB's maxLength of log_excerpt
SUFFIXES = ('.junit.xml', '.kcidb.json')

Path = Tuple[str, ...]

_TIME = re.compile(r'^\[\s*(\d+\.\d+)\] ?')
# The KTAP lines results.skipped() reads too, with the same patterns.
_SUBTEST = results.SUBTEST
_RESULT = results.RESULT_LINE
_KTAP = re.compile(r'^(\s*)K?TAP version \d+$')


@dataclass
class Timed:
	"""What the log says of one result line."""
	duration: Optional[float] = None
	lines: List[str] = field(default_factory=list)
	reason: str = ''
	line: int = -1		# its line in the log


@dataclass
class Leaf:
	"""One reported case or parameter row."""
	path: Path		# (suite, case) or (suite, case, row)
	status: str		# kunit.py's: PASS, FAIL, SKIP, ERROR
	timed: Timed


def _level(indent: str) -> int:
	return len(indent.expandtabs()) // 4


def log_results(log: str) -> Dict[Path, Timed]:
	"""Every result line of a KTAP console log, by path: its duration and
	the console lines since the result before it at its level."""
	stack: List[str] = []	# the open groups; stack[k] holds results at level k+1
	marks: Dict[int, Tuple[int, Optional[float]]] = {}	# level: (line, time) of the last mark
	lines: List[str] = []
	out: Dict[Path, Timed] = {}
	for raw in log.splitlines():
		m = _TIME.match(raw)
		t = float(m.group(1)) if m else None
		line = raw[m.end():] if m else raw
		lines.append(line)
		here = len(lines) - 1
		k = _KTAP.match(line)
		if k:
			marks[_level(k.group(1))] = (here, t)
			continue
		s = _SUBTEST.match(line)
		if s:
			level = _level(s.group(1))
			del stack[max(level - 1, 0):]
			stack.append(s.group(2).strip())
			marks.setdefault(level, (here, t))
			continue
		r = _RESULT.match(line)
		if not r:
			continue
		level = _level(r.group(1))
		del stack[level:]
		start, t0 = marks.get(level, (here, t))
		duration = round(t - t0, 6) if t is not None and t0 is not None else None
		out[tuple(stack) + (r.group(2),)] = Timed(duration, lines[start + 1:here + 1],
							   r.group(3) or '', here)
		marks[level] = (here, t)
		for deeper in [x for x in marks if x > level]:
			del marks[deeper]
	return out


def leaves(result: dict, timed: Dict[Path, Timed]) -> List[Leaf]:
	"""The cases and rows of kunit.py's JSON, with what the log adds
	(timed: its log_results()), in the order the log has them (the JSON
	lists a suite's plain cases before its parameterised ones)."""
	out: List[Leaf] = []

	def walk(group: dict, path: Path) -> None:
		for case in group.get('test_cases', []):
			p = path + (case['name'],)
			out.append(Leaf(p, case['status'], timed.get(p, Timed())))
		for sub in group.get('sub_groups', []):
			walk(sub, path + (sub['name'],))
	for suite in result.get('sub_groups', []):
		walk(suite, (suite['name'],))
	# A suite with no cases (it failed in init) is reported as a case.
	for case in result.get('test_cases', []):
		p = (case['name'],)
		out.append(Leaf(p, case['status'], timed.get(p, Timed())))
	# Those the log does not have go last.
	return sorted(out, key=lambda x: (x.timed.line < 0, x.timed.line))


def suite_durations(timed: Dict[Path, Timed]) -> Dict[str, float]:
	return {p[0]: t.duration for p, t in timed.items()
		if len(p) == 1 and t.duration is not None}


def excerpt(lines: Iterable[str]) -> str:
	text = '\n'.join(lines).strip('\n') + '\n'
	return text[-EXCERPT_MAX:] if len(text) > EXCERPT_MAX else text


@dataclass
class CellData:
	"""Everything the two formats are made from."""
	name: str
	kernel: str
	arch: str
	package: str
	boot: str
	cell: results.Cell
	leaves: List[Leaf]
	suite_seconds: Dict[str, float]
	log: str


def load(results_dir: str, name: str, package: str = '') -> Optional[CellData]:
	"""A cell's files, or None when it has no status file."""
	result, status, log = results.read_files(results_dir, name)
	if status is None:
		return None
	timed = log_results(log)
	return CellData(name, status.get('kernel', ''), status.get('arch', ''), package,
			status.get('boot', ''), results.judge(name, result, status, log),
			leaves(result or {}, timed), suite_durations(timed), log)


# ------------------------------------------------------------------ JUnit

def _case_name(path: Path) -> str:
	return path[1] + (f'[{".".join(path[2:])}]' if len(path) > 2 else '') if len(path) > 1 \
		else path[0]


def junit(d: CellData) -> ET.ElementTree:
	"""<testsuites> for the cell, a <testsuite> per KUnit suite, a
	<testcase> per case or row; cell-level problems and suites that did
	not report are errors of their own."""
	root = ET.Element('testsuites', name=d.name)
	suites: Dict[str, ET.Element] = {}

	def suite(name: str) -> ET.Element:
		if name not in suites:
			suites[name] = ET.SubElement(root, 'testsuite', name=name)
			if name in d.suite_seconds:
				suites[name].set('time', f'{d.suite_seconds[name]:.6f}')
		return suites[name]

	for leaf in d.leaves:
		tc = ET.SubElement(suite(leaf.path[0]), 'testcase', classname=f'{d.name}.{leaf.path[0]}',
				   name=_case_name(leaf.path))
		if leaf.timed.duration is not None:
			tc.set('time', f'{leaf.timed.duration:.6f}')
		if leaf.status == 'SKIP':
			ET.SubElement(tc, 'skipped', message=leaf.timed.reason)
		elif leaf.status != 'PASS':
			tag = 'failure' if leaf.status == 'FAIL' else 'error'
			el = ET.SubElement(tc, tag, message=f'{leaf.status}: {"/".join(leaf.path)}')
			el.text = excerpt(leaf.timed.lines)
	for name in d.cell.missing:
		tc = ET.SubElement(suite(name), 'testcase', classname=f'{d.name}.{name}',
				   name='(suite)')
		ET.SubElement(tc, 'error', message=f'suite {name} enabled but did not report')
	if d.cell.problems:
		tc = ET.SubElement(suite('(cell)'), 'testcase', classname=d.name, name='(boot)')
		el = ET.SubElement(tc, 'error', message=d.cell.problems[0])
		el.text = '\n'.join(d.cell.problems) + '\n'
	totals = {'tests': 0, 'failures': 0, 'errors': 0, 'skipped': 0}
	for s in suites.values():
		cases = s.findall('testcase')
		counts = {'tests': len(cases),
			  'failures': sum(1 for c in cases if c.find('failure') is not None),
			  'errors': sum(1 for c in cases if c.find('error') is not None),
			  'skipped': sum(1 for c in cases if c.find('skipped') is not None)}
		for k, v in counts.items():
			s.set(k, str(v))
			totals[k] += v
	for k, v in totals.items():
		root.set(k, str(v))
	ET.indent(root)
	return ET.ElementTree(root)


# ------------------------------------------------------------------ KCIDB

_PATH_PART = re.compile(r'[^A-Za-z0-9_-]+')


def path_part(name: str) -> str:
	"""A name as a KCIDB path component ([a-zA-Z0-9_-]+)."""
	return _PATH_PART.sub('_', name).strip('_') or '_'


def kcidb(d: CellData) -> dict:
	"""A KCIDB v5 submission: the checkout (the base kernel package with
	the overlay), the build of the cell, a test per case or row under
	kunit.exec.<suite>.<case>[.<row>], a MISS per suite that did not
	report, and kunit.exec for the whole boot."""
	run = hashlib.sha256(d.log.encode()).hexdigest()[:12]
	checkout = f'{ORIGIN}:{d.kernel}'
	build = f'{ORIGIN}:{d.name}:{run}'
	env = {'comment': f'QEMU {d.arch}, kernel {d.kernel}' +
		(f' ({d.package})' if d.package else '') + (f', boot {d.boot}' if d.boot else ''),
	       'misc': {'kernel': d.kernel, 'arch': d.arch, 'boot': d.boot or 'default',
			'cell': d.name}}
	tests: List[dict] = []
	seen: Dict[str, int] = {}

	def test(path: str, status: str, **extra) -> None:
		n = seen[path] = seen.get(path, 0) + 1
		tid = f'{build}:{path}' + (f':{n}' if n > 1 else '')
		tests.append({'id': tid, 'build_id': build, 'origin': ORIGIN, 'path': path,
			      'status': status, 'environment': env, **extra})

	for leaf in d.leaves:
		extra: dict = {'comment': '/'.join(leaf.path)}
		if leaf.timed.duration is not None:
			extra['duration'] = leaf.timed.duration
		if leaf.status not in ('PASS', 'SKIP'):
			extra['log_excerpt'] = excerpt(leaf.timed.lines)
		if leaf.status == 'SKIP' and leaf.timed.reason:
			extra['misc'] = {'skip_reason': leaf.timed.reason}
		test('.'.join(['kunit', 'exec'] + [path_part(p) for p in leaf.path]),
		     KCIDB_STATUS.get(leaf.status, 'ERROR'), **extra)
	for name in d.cell.missing:
		test(f'kunit.exec.{path_part(name)}', 'MISS',
		     comment=f'suite {name} enabled but did not report')
	verdict = d.cell.total()
	status = 'ERROR' if d.cell.problems else 'FAIL' if verdict.failed else \
		'PASS' if verdict.passed else 'SKIP'
	whole: dict = {'comment': f'{d.name}: {verdict.passed} passed, {verdict.failed} failed, '
			f'{verdict.skipped} skipped'}
	if d.cell.problems:
		whole['log_excerpt'] = excerpt(d.cell.problems)
	if d.suite_seconds:
		whole['duration'] = round(sum(d.suite_seconds.values()), 6)
	test('kunit.exec', status, **whole)
	return {
		'version': KCIDB_VERSION,
		'checkouts': [{'id': checkout, 'origin': ORIGIN, 'valid': True,
			       'comment': d.package or f'linux-source-{d.kernel}'}],
		'builds': [{'id': build, 'checkout_id': checkout, 'origin': ORIGIN,
			    'architecture': d.arch, 'config_name': d.name,
			    'status': 'PASS' if d.leaves else 'ERROR'}],
		'tests': tests,
	}


def write(results_dir: str, name: str, package: str = '') -> List[str]:
	"""results/<name>.junit.xml and results/<name>.kcidb.json of a cell."""
	d = load(results_dir, name, package)
	if d is None:
		return []
	paths = [os.path.join(results_dir, name + x) for x in SUFFIXES]
	junit(d).write(paths[0], encoding='utf-8', xml_declaration=True)
	with open(paths[1], 'w', encoding='utf-8') as f:
		json.dump(kcidb(d), f, indent=1)
		f.write('\n')
	return paths
