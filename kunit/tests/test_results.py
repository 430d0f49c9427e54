# SPDX-License-Identifier: GPL-2.0
"""kunit/results.py: counting cases and failing the cells that lie."""

import unittest

import helpers  # noqa: F401  (puts kunit/ on sys.path)
import results


def suite(name, cases=(), groups=()):
	return {'name': name, 'test_cases': [{'name': n, 'status': s} for n, s in cases],
		'sub_groups': list(groups)}


RESULT = {'name': 'KUnit Test Group', 'test_cases': [], 'sub_groups': [
	suite('sm4', [('expandkey', 'PASS'), ('avx2', 'SKIP')],
	      [suite('ecb', [('generic', 'PASS'), ('neon', 'FAIL')])]),
	suite('scsi_lib', [('a', 'PASS'), ('b', 'ERROR')]),
]}
STATUS = {'rc': 1, 'expected_suites': ['sm4', 'scsi_lib'], 'log': '/x/test.log'}


class Judge(unittest.TestCase):
	def test_counts_leaves_of_params_and_cases(self):
		cell = results.judge('6.12-x86_64', RESULT, STATUS)
		self.assertEqual(str(cell.suites['sm4']), '2/1/1')
		self.assertEqual(str(cell.suites['scsi_lib']), '1/1/0')
		self.assertEqual(cell.failures, ['sm4.ecb.neon', 'scsi_lib.b'])
		self.assertEqual(cell.problems, [])

	def test_missing_suite_fails_the_cell(self):
		status = dict(STATUS, rc=0, expected_suites=['sm4', 'scsi_lib', 'apparmor_net'])
		cell = results.judge('c', RESULT, status)
		self.assertEqual(cell.missing, ['apparmor_net'])
		self.assertEqual(cell.total().failed, 3)

	def test_nonzero_exit_without_failures_is_a_crash(self):
		ok = {'name': 'x', 'test_cases': [], 'sub_groups': [suite('sm4', [('a', 'PASS')])]}
		cell = results.judge('c', ok, dict(STATUS, expected_suites=['sm4']))
		self.assertEqual(len(cell.problems), 1)
		self.assertIn('crashed, hung', cell.problems[0])
		self.assertFalse(results.ok([cell]))

	def test_no_json_is_a_failure(self):
		cell = results.judge('c', None, STATUS)
		self.assertIn('no results', cell.problems[0])
		self.assertEqual(cell.total().failed, 1)

	def test_no_status_is_a_failure(self):
		self.assertEqual(results.judge('c', RESULT, None).total().failed, 1)

	def test_suite_that_crashed_in_init_counts_as_failed(self):
		crashed = {'name': 'x', 'test_cases': [{'name': 'aa_net', 'status': 'ERROR'}],
			   'sub_groups': []}
		cell = results.judge('c', crashed, dict(STATUS, expected_suites=['aa_net']))
		self.assertEqual(cell.missing, [])
		self.assertEqual(str(cell.suites['aa_net']), '0/1/0')

	def test_green_cell(self):
		ok = {'name': 'x', 'test_cases': [], 'sub_groups': [suite('sm4', [('a', 'PASS')])]}
		cell = results.judge('c', ok, {'rc': 0, 'expected_suites': ['sm4']})
		self.assertTrue(results.ok([cell]))


class Table(unittest.TestCase):
	def test_closing_line_sums_all_cells(self):
		a = results.judge('6.12-x86_64', RESULT, STATUS)
		b = results.judge('6.12-arm64', None, STATUS)
		lines = results.table([a, b])
		self.assertEqual(lines[-1], 'kunit: 3 passed, 3 failed, 1 skipped')
		self.assertTrue(lines[0].startswith('suite'))
		self.assertIn('6.12-arm64', lines[0])
		self.assertIn('FAILED  6.12-x86_64: sm4.ecb.neon', lines)
		self.assertTrue(any(line.startswith('FAILED  6.12-arm64: no results') for line in lines))

	def test_missing_suite_shows_in_its_cell(self):
		status = dict(STATUS, rc=0, expected_suites=['apparmor_net'])
		lines = results.table([results.judge('6.12-x86_64', RESULT, status)])
		row = next(line for line in lines if line.startswith('apparmor_net'))
		self.assertIn('MISSING', row)


if __name__ == '__main__':
	unittest.main()
