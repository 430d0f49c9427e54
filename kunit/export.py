# SPDX-License-Identifier: GPL-2.0
"""A cell's record (results.py) in the formats other tools read: JUnit
XML, which forges render, and KCIDB v5 JSON (kernelci/kcidb-io, schema
v5.0). Durations and console lines come from the record (printk.time=1
timestamps); a log without timestamps gives no durations.
"""

import json
import os
import re
import xml.etree.ElementTree as ET
from typing import Dict, Iterable, List, Optional

import results

ORIGIN = 'kernel_overlay'
KCIDB_VERSION = {'major': 5, 'minor': 0}
# kunit.py's statuses to KCIDB's: a case that crashed is an ERROR.
KCIDB_STATUS = {'PASS': 'PASS', 'FAIL': 'FAIL', 'SKIP': 'SKIP', 'ERROR': 'ERROR'}
EXCERPT_MAX = 16384	# KCIDB's maxLength of log_excerpt
SUFFIXES = ('.junit.xml', '.kcidb.json')


def excerpt(lines: Iterable[str]) -> str:
	text = '\n'.join(lines).strip('\n') + '\n'
	return text[-EXCERPT_MAX:] if len(text) > EXCERPT_MAX else text


# ------------------------------------------------------------------ JUnit

def _case_name(path: results.Path) -> str:
	return path[1] + (f'[{".".join(path[2:])}]' if len(path) > 2 else '') if len(path) > 1 \
		else path[0]


def junit(d: results.Run) -> ET.ElementTree:
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

	for leaf in d.cases:
		tc = ET.SubElement(suite(leaf.path[0]), 'testcase', classname=f'{d.name}.{leaf.path[0]}',
				   name=_case_name(leaf.path))
		if leaf.seconds is not None:
			tc.set('time', f'{leaf.seconds:.6f}')
		if leaf.status == results.SKIP:
			ET.SubElement(tc, 'skipped', message=leaf.reason)
		elif leaf.status != results.PASS:
			tag = 'failure' if leaf.status == results.FAIL else 'error'
			el = ET.SubElement(tc, tag, message=f'{leaf.status}: {"/".join(leaf.path)}')
			el.text = excerpt(leaf.log)
	for p in d.of_kind(results.MISSING):
		tc = ET.SubElement(suite(p.where), 'testcase', classname=f'{d.name}.{p.where}',
				   name='(suite)')
		ET.SubElement(tc, 'error', message=p.text)
	others = cell_problems(d)
	if others:
		tc = ET.SubElement(suite('(cell)'), 'testcase', classname=d.name, name='(boot)')
		el = ET.SubElement(tc, 'error', message=others[0])
		el.text = '\n'.join(others) + '\n'
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


def cell_problems(d: results.Run) -> List[str]:
	"""The problems of the whole cell: all but the missing suites."""
	return [p.text for p in d.problems if p.kind != results.MISSING]


MUTATION_STATUS = {'killed': 'PASS', 'SURVIVED': 'FAIL', 'equivalent': 'SKIP', 'not run': 'SKIP'}


def kcidb(d: results.Run, mutation: Optional[dict] = None) -> dict:
	"""A KCIDB v5 submission: the checkout (the base kernel package with
	the overlay), the build of the cell, a test per case or row under
	kunit.exec.<suite>.<case>[.<row>], a MISS per suite that did not
	report, and kunit.exec for the whole boot. With the cell's kill
	matrix (results/mutation-<cell>.json), a test per mutant under
	mutation.<file>.<function>.<operator>.<hash>: PASS when a case killed
	it, FAIL when it survived, SKIP when equivalent or not run; its misc
	names the mutant and what killed it."""
	m = d.meta
	run = d.console_sha[:12]
	checkout = f'{ORIGIN}:{m.kernel}'
	build = f'{ORIGIN}:{d.name}:{run}'
	env = {'comment': f'QEMU {m.arch}, kernel {m.kernel}' +
		(f' ({m.package})' if m.package else '') + (f', boot {m.boot}' if m.boot else ''),
	       'misc': {'kernel': m.kernel, 'arch': m.arch, 'boot': m.boot or 'default',
			'cell': d.name}}
	tests: List[dict] = []
	seen: Dict[str, int] = {}

	def test(path: str, status: str, **extra) -> None:
		n = seen[path] = seen.get(path, 0) + 1
		tid = f'{build}:{path}' + (f':{n}' if n > 1 else '')
		tests.append({'id': tid, 'build_id': build, 'origin': ORIGIN, 'path': path,
			      'status': status, 'environment': env, **extra})

	for leaf in d.cases:
		extra: dict = {'comment': '/'.join(leaf.path)}
		if leaf.seconds is not None:
			extra['duration'] = leaf.seconds
		if leaf.status not in (results.PASS, results.SKIP):
			extra['log_excerpt'] = excerpt(leaf.log)
		if leaf.status == results.SKIP and leaf.reason:
			extra['misc'] = {'skip_reason': leaf.reason}
		test('.'.join(['kunit', 'exec'] + [path_part(p) for p in leaf.path]),
		     KCIDB_STATUS.get(leaf.status, 'ERROR'), **extra)
	for p in d.of_kind(results.MISSING):
		test(f'kunit.exec.{path_part(p.where)}', 'MISS', comment=p.text)
	verdict = d.total()
	others = cell_problems(d)
	status = 'ERROR' if others else 'FAIL' if verdict.bad() else \
		'PASS' if verdict.passed else 'SKIP'
	whole: dict = {'comment': f'{d.name}: {verdict.passed} passed, {verdict.bad()} failed, '
			f'{verdict.skipped} skipped'}
	if others:
		whole['log_excerpt'] = excerpt(others)
	if d.suite_seconds:
		whole['duration'] = round(sum(d.suite_seconds.values()), 6)
	test('kunit.exec', status, **whole)
	for mt in (mutation or {}).get('mutants', []):
		place = mt['id'].split(':')
		test('.'.join(['mutation'] + [path_part(p) for p in place]),
		     MUTATION_STATUS.get(mt['verdict'], 'ERROR'),
		     comment=f"{mt['file']}:{mt['line']} {mt['operator']} {mt['diff']}",
		     misc={'mutant': mt['id'], 'number': mt['number'], 'verdict': mt['verdict'],
			   'detail': mt['detail']})
	return {
		'version': KCIDB_VERSION,
		'checkouts': [{'id': checkout, 'origin': ORIGIN, 'valid': True,
			       'comment': m.package or f'linux-source-{m.kernel}'}],
		'builds': [{'id': build, 'checkout_id': checkout, 'origin': ORIGIN,
			    'architecture': m.arch, 'config_name': d.name,
			    'status': 'PASS' if d.cases else 'ERROR'}],
		'tests': tests,
	}


def mutation_path(results_dir: str, name: str) -> str:
	"""The kill matrix of make mutation for cell @name."""
	return os.path.join(results_dir, f'mutation-{name}.json')


def write(results_dir: str, d: results.Run) -> List[str]:
	"""results/<name>.junit.xml and results/<name>.kcidb.json of a run;
	a cell's KCIDB file carries its kill matrix, when it has one."""
	name = d.name
	paths = [os.path.join(results_dir, name + x) for x in SUFFIXES]
	junit(d).write(paths[0], encoding='utf-8', xml_declaration=True)
	mutation = None
	if os.path.exists(mutation_path(results_dir, name)):
		with open(mutation_path(results_dir, name), encoding='utf-8') as f:
			mutation = json.load(f)
	with open(paths[1], 'w', encoding='utf-8') as f:
		json.dump(kcidb(d, mutation), f, indent=1)
		f.write('\n')
	return paths
