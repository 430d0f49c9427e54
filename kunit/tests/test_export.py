# SPDX-License-Identifier: GPL-2.0
"""kunit/export.py: the JUnit XML and KCIDB v5 JSON of a cell.

data/export/ holds a known-good sample: a console log (with a
parameterised case, a kernel message between two rows, a failure, a
skip), kunit.py's JSON of it (made by the tree's kunit_parser) and a
meta.json (what the runner knew: results.Meta) naming a suite that did
not report, with the JUnit and KCIDB
files that cell must give. The KCIDB output is also validated against
data/kcidb-v5.schema.json (python3-jsonschema), the JUnit output
against the rules forges read it by.
"""

import copy
import json
import os
import shutil
import tempfile
import unittest
import xml.etree.ElementTree as ET

import helpers  # noqa: F401  (puts kunit/ on sys.path)
import export
import results

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data')
SAMPLE = os.path.join(DATA, 'export')
CELL = '6.1-x86_64'
PACKAGE = 'linux-source-6.1 6.1.192-3'


def kcidb_validator():
	import jsonschema  # python3-jsonschema (make setup)
	with open(os.path.join(DATA, 'kcidb-v5.schema.json'), encoding='utf-8') as f:
		schema = json.load(f)
	jsonschema.Draft202012Validator.check_schema(schema)
	return jsonschema.Draft202012Validator(schema)


def junit_problems(root: ET.Element) -> list:
	"""What a JUnit consumer would trip on: counts that do not add up, a
	case without a name, a time that is not a number, two verdicts."""
	out = []
	if root.tag != 'testsuites':
		out.append(f'root is <{root.tag}>')
	totals = dict.fromkeys(('tests', 'failures', 'errors', 'skipped'), 0)
	for suite in root.findall('testsuite'):
		cases = suite.findall('testcase')
		counts = {'tests': len(cases),
			  'failures': sum(c.find('failure') is not None for c in cases),
			  'errors': sum(c.find('error') is not None for c in cases),
			  'skipped': sum(c.find('skipped') is not None for c in cases)}
		for k, v in counts.items():
			totals[k] += v
			if suite.get(k) != str(v):
				out.append(f"suite {suite.get('name')}: {k}={suite.get(k)}, has {v}")
		for c in cases:
			if not c.get('name') or not c.get('classname'):
				out.append(f'a case of {suite.get("name")} has no name or classname')
			if c.get('time') is not None and float(c.get('time')) < 0:
				out.append(f"{c.get('name')}: negative time")
			if len([x for x in c if x.tag in ('failure', 'error', 'skipped')]) > 1:
				out.append(f"{c.get('name')}: more than one verdict")
	for k, v in totals.items():
		if root.get(k) != str(v):
			out.append(f'testsuites: {k}={root.get(k)}, has {v}')
	return out


class Sample(unittest.TestCase):
	def setUp(self):
		self.dir = tempfile.mkdtemp()
		self.addCleanup(shutil.rmtree, self.dir)
		for name in os.listdir(SAMPLE):
			shutil.copy(os.path.join(SAMPLE, name), self.dir)
		with open(os.path.join(SAMPLE, 'meta.json'), encoding='utf-8') as f:
			meta = results.Meta(**json.load(f))
		meta.log = os.path.join(self.dir, meta.log)
		meta.package = PACKAGE
		run = results.record(self.dir, CELL, meta, os.path.join(self.dir, CELL + '.json'))
		self.paths = export.write(self.dir, run)

	def read(self, path):
		with open(path, encoding='utf-8') as f:
			return f.read()

	def test_both_files_are_the_known_good_ones(self):
		for path in self.paths:
			with self.subTest(file=os.path.basename(path)):
				self.assertEqual(self.read(path),
						 self.read(os.path.join(SAMPLE, os.path.basename(path))))

	def test_kcidb_is_valid_v5(self):
		data = json.loads(self.read(self.paths[1]))
		errors = [e.message for e in kcidb_validator().iter_errors(data)]
		self.assertEqual(errors, [])

	def test_schema_refuses_what_v5_refuses(self):
		good = json.loads(self.read(self.paths[1]))
		validator = kcidb_validator()
		broken = {
			'unknown status': ('status', 'BROKEN'),
			'path with a space': ('path', 'kunit.exec.sm4 lib'),
			'id without origin': ('id', 'no-origin'),
			'null duration': ('duration', None),
			'unknown property': ('verdict', 'PASS'),
			'log excerpt over 16 KiB': ('log_excerpt', 'x' * 16385),
		}
		for what, (key, value) in broken.items():
			with self.subTest(what=what):
				data = copy.deepcopy(good)
				data['tests'][0][key] = value
				self.assertFalse(validator.is_valid(data))
		data = copy.deepcopy(good)
		del data['tests'][0]['build_id']
		self.assertFalse(validator.is_valid(data))

	def test_the_cells_kcidb_carries_its_kill_matrix(self):
		mutant = {'file': 'crypto/sm4.c', 'function': 'sm4_expandkey', 'line': 7,
			  'operator': 'ror', 'diff': '< -> <=', 'suites': 'sm4*', 'seconds': 3.0}
		matrix = {'cell': CELL, 'mutants': [
			dict(mutant, id='crypto/sm4.c:sm4_expandkey:ror:0a1b2c3d4e', number=1,
			     verdict='killed', detail=['sm4_lib.sm4_expandkey_test']),
			dict(mutant, id='crypto/sm4.c:sm4_expandkey:ror:5f6a7b8c9d', number=2,
			     verdict='SURVIVED', detail=[]),
			dict(mutant, id='crypto/sm4.c:sm4_expandkey:ror:000000000f', number=3,
			     verdict='equivalent', detail=['the loop ends at 32 either way'])]}
		with open(export.mutation_path(self.dir, CELL), 'w', encoding='utf-8') as f:
			json.dump(matrix, f)
		run = results.load(self.dir, CELL)
		data = json.loads(self.read(export.write(self.dir, run)[1]))
		self.assertEqual(list(kcidb_validator().iter_errors(data)), [])
		got = {t['path']: t for t in data['tests'] if t['path'].startswith('mutation.')}
		self.assertEqual({p: t['status'] for p, t in got.items()}, {
			'mutation.crypto_sm4_c.sm4_expandkey.ror.0a1b2c3d4e': 'PASS',
			'mutation.crypto_sm4_c.sm4_expandkey.ror.5f6a7b8c9d': 'FAIL',
			'mutation.crypto_sm4_c.sm4_expandkey.ror.000000000f': 'SKIP'})
		killed = got['mutation.crypto_sm4_c.sm4_expandkey.ror.0a1b2c3d4e']
		self.assertEqual(killed['misc']['detail'], ['sm4_lib.sm4_expandkey_test'])
		self.assertEqual(killed['comment'], 'crypto/sm4.c:7 ror < -> <=')
		self.assertEqual(killed['build_id'], data['builds'][0]['id'])

	def test_kcidb_paths_statuses_durations_excerpts(self):
		tests = {t['path']: t for t in json.loads(self.read(self.paths[1]))['tests']}
		row = tests['kunit.exec.crypto_cfb.cfb_nist_test.F_3_15_F_3_16_CFB128-AES192']
		self.assertEqual(row['status'], 'PASS')
		# From the row before it, over the kernel message between them
		self.assertAlmostEqual(row['duration'], 0.05)
		failed = tests['kunit.exec.scsi_dh.scsi_dh_name_test']
		self.assertEqual(failed['status'], 'FAIL')
		self.assertIn('EXPECTATION FAILED at drivers/scsi/scsi_dh_test.c:42',
			      failed['log_excerpt'])
		self.assertNotIn('scsi_dh_attach_test', failed['log_excerpt'])
		skipped = tests['kunit.exec.scsi_dh.scsi_dh_alua_test']
		self.assertEqual((skipped['status'], skipped['misc']['skip_reason']),
				 ('SKIP', 'built, but this CPU lacks AVX2'))
		self.assertNotIn('log_excerpt', skipped)
		self.assertEqual(tests['kunit.exec.sm4_lib']['status'], 'MISS')
		self.assertEqual(tests['kunit.exec']['status'], 'FAIL')
		env = failed['environment']['misc']
		self.assertEqual((env['kernel'], env['arch']), ('6.1', 'x86_64'))
		ids = [t['id'] for t in tests.values()]
		self.assertEqual(len(ids), len(set(ids)))

	def test_junit_is_consistent(self):
		root = ET.parse(self.paths[0]).getroot()
		self.assertEqual(junit_problems(root), [])
		self.assertEqual(root.get('tests'), '8')
		case = root.find("testsuite[@name='scsi_dh']/testcase[@name='scsi_dh_name_test']")
		self.assertIn('Expected scsi_dh_find_driver(sdev) != NULL', case.find('failure').text)
		self.assertEqual(case.get('time'), '0.200000')

	def test_junit_checker_sees_wrong_counts(self):
		root = ET.parse(self.paths[0]).getroot()
		root.find('testsuite').set('failures', '3')
		self.assertTrue(junit_problems(root))


class Log(unittest.TestCase):
	def test_results_without_timestamps_have_no_duration(self):
		log = 'KTAP version 1\n1..1\n    # Subtest: s\n    1..1\n    ok 1 c\nok 1 s\n'
		timed = results.scan(log).results
		self.assertIsNone(timed[('s', 'c')].seconds)
		self.assertEqual(timed[('s', 'c')].lines[-1], '    ok 1 c')

	def test_nested_rows_and_their_case(self):
		log = ('[ 1.0] KTAP version 1\n[ 1.0] 1..1\n[ 1.0]     KTAP version 1\n'
		       '[ 1.0]     # Subtest: s\n[ 1.0]     1..1\n[ 1.5]         KTAP version 1\n'
		       '[ 1.5]         # Subtest: c\n[ 2.0]         ok 1 r1\n'
		       '[ 4.0]         not ok 2 r2\n[ 4.0]     not ok 1 c\n[ 4.0] not ok 1 s\n')
		timed = results.scan(log).results
		self.assertEqual(timed[('s', 'c', 'r1')].seconds, 0.5)
		self.assertEqual(timed[('s', 'c', 'r2')].seconds, 2.0)
		self.assertEqual(timed[('s', 'c')].seconds, 3.0)
		self.assertEqual(timed[('s',)].seconds, 3.0)

	def test_path_parts_are_kcidb_names(self):
		self.assertEqual(export.path_part('on: 1.5 s, 1 day'), 'on_1_5_s_1_day')
		self.assertEqual(export.path_part('ecb(sm4) ecb-sm4-neon'), 'ecb_sm4_ecb-sm4-neon')
		self.assertEqual(export.path_part('::'), '_')

	def test_excerpt_keeps_the_last_16_kib(self):
		text = export.excerpt(['a' * 20000, 'end'])
		self.assertEqual(len(text), export.EXCERPT_MAX)
		self.assertTrue(text.endswith('end\n'))


if __name__ == '__main__':
	unittest.main()
