# SPDX-License-Identifier: GPL-2.0
"""kunit/results.py: counting cases and failing the cells that lie."""

import unittest

import helpers  # noqa: F401  (puts kunit/ on sys.path)
import results


def judge(name, result, status, log=''):
	"""The record of a run from kunit.py's JSON, what its runner knew
	(status: rc, expected suites, boot, no_skips, rows, problems) and
	its console."""
	if status is None:
		return results.load('/nonexistent', name)
	meta = results.Meta(rc=status.get('rc', 0), log=status.get('log', ''),
			    expected=status.get('expected_suites', []), boot=status.get('boot', ''),
			    no_skips=status.get('no_skips', False), rows=status.get('rows', []))
	extra = [results.Problem(results.HUNG, '', p) for p in status.get('problems', [])]
	return results.build(name, meta, result, log, extra)


def texts(run):
	return [p.text for p in run.problems if p.kind != results.MISSING]


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
		cell = judge('6.12-x86_64', RESULT, STATUS)
		self.assertEqual(str(cell.suites()['sm4']), '2/1/1')
		self.assertEqual(str(cell.suites()['scsi_lib']), '1/1/0')
		self.assertEqual(cell.failures(), ['sm4.ecb.neon', 'scsi_lib.b'])
		self.assertEqual(cell.problems, [])

	def test_missing_suite_fails_the_cell(self):
		status = dict(STATUS, rc=0, expected_suites=['sm4', 'scsi_lib', 'apparmor_net'])
		cell = judge('c', RESULT, status)
		self.assertEqual(cell.missing(), ['apparmor_net'])
		t = cell.total()
		self.assertEqual((t.failed, t.crashed, t.errors, t.bad()), (1, 1, 1, 3))

	def test_nonzero_exit_without_failures_is_a_crash(self):
		ok = {'name': 'x', 'test_cases': [], 'sub_groups': [suite('sm4', [('a', 'PASS')])]}
		cell = judge('c', ok, dict(STATUS, expected_suites=['sm4']))
		self.assertEqual(len(cell.problems), 1)
		self.assertEqual(cell.problems[0].kind, results.EXIT)
		self.assertIn('crashed, hung', cell.problems[0].text)
		self.assertFalse(results.ok([cell]))

	def test_no_json_is_a_failure(self):
		cell = judge('c', None, STATUS)
		self.assertEqual(cell.problems[0].kind, results.NO_RESULTS)
		self.assertIn('no results', cell.problems[0].text)
		self.assertEqual((cell.total().errors, cell.total().bad()), (1, 1))

	def test_no_status_is_a_failure(self):
		cell = judge('c', RESULT, None)
		self.assertEqual(cell.problems[0].kind, results.NOT_RUN)
		self.assertEqual(cell.total().bad(), 1)

	def test_suite_that_crashed_in_init_counts_as_failed(self):
		crashed = {'name': 'x', 'test_cases': [{'name': 'aa_net', 'status': 'ERROR'}],
			   'sub_groups': []}
		cell = judge('c', crashed, dict(STATUS, expected_suites=['aa_net']))
		self.assertEqual(cell.missing(), [])
		self.assertEqual(str(cell.suites()['aa_net']), '0/1/0')

	def test_green_cell(self):
		ok = {'name': 'x', 'test_cases': [], 'sub_groups': [suite('sm4', [('a', 'PASS')])]}
		cell = judge('c', ok, {'rc': 0, 'expected_suites': ['sm4']})
		self.assertTrue(results.ok([cell]))

	def test_skip_in_an_extra_boot_fails_the_cell(self):
		ok = {'name': 'x', 'test_cases': [], 'sub_groups': [
			suite('tk_live', [('a_on', 'PASS'), ('b_on', 'SKIP')])]}
		log = ('[ 1.0]     # Subtest: tk_live\n[ 1.1]     ok 1 a_on\n'
		       '[ 1.2]     ok 2 b_on # SKIP needs a boot with m=on\n')
		status = {'rc': 0, 'expected_suites': ['tk_live']}
		self.assertTrue(results.ok([judge('c', ok, status, log)]))
		cell = judge('c-mono', ok, dict(status, boot='mono', no_skips=True), log)
		self.assertFalse(results.ok([cell]))
		self.assertEqual(cell.problems[0].kind, results.SKIP_IN_BOOT)
		self.assertIn('tk_live.b_on skipped in boot mono', cell.problems[0].text)
		self.assertIn('needs a boot with m=on', cell.problems[0].text)


def skipped(log):
	return [(p, t.reason) for p, t in results.scan(log).results.items() if t.reason]


def reports(log):
	return results.scan(log).reports


LOG = """\
[    1.000000] KTAP version 1
[    1.000001] 1..2
[    1.000002]     # Subtest: sm4_drivers
[    1.000003]     1..2
[    1.000004]         # Subtest: sm4_kat_test
[    1.000005]         ok 1 ecb(sm4) ecb(sm4-generic)
[    1.000006]         ok 2 ofb(sm4) ofb(sm4-generic) # SKIP no ofb template
[    1.000007]     ok 1 sm4_kat_test
[    1.000008]     ok 2 sm4_bad_key_test # SKIP no key
[    1.000009] ok 1 sm4_drivers
[    1.000010]     # Subtest: time_test_cases
[    1.000011]     ok 1 time64_to_tm_test_date_range # SKIP slow
[    1.000012] ok 2 time_test_cases
"""


class Skips(unittest.TestCase):
	def test_reasons_with_their_full_names(self):
		self.assertEqual(skipped(LOG), [
			(('sm4_drivers', 'sm4_kat_test', 'ofb(sm4) ofb(sm4-generic)'), 'no ofb template'),
			(('sm4_drivers', 'sm4_bad_key_test'), 'no key'),
			(('time_test_cases', 'time64_to_tm_test_date_range'), 'slow'),
		])

	def test_plain_ok_lines_are_not_skips(self):
		self.assertEqual(skipped('ok 1 a\n    ok 2 b # TODO x\n'), [])

	def test_same_row_in_two_cases_is_one_line(self):
		cell = results.Run('c', results.Meta(), [
			results.Case(('s', 'kat', 'ofb'), results.SKIP, 'gone'),
			results.Case(('s', 'bad_key', 'ofb'), results.SKIP, 'gone')])
		self.assertEqual(results.skip_lines(cell), ['skipped c: s: ofb: gone (kat, bad_key)'])

	def test_row_names_with_dots_and_aggregate_skips(self):
		log = ('    # Subtest: crypto_cfb\n        # Subtest: cfb_nist_test\n'
		       '        ok 1 F.3.13/F.3.14 CFB128-AES128 # SKIP no cfb\n'
		       '    ok 1 cfb_nist_test # SKIP\nok 1 crypto_cfb # SKIP\n')
		cell = results.Run('c', results.Meta(), [results.Case(p, results.SKIP, r)
						       for p, r in skipped(log)])
		self.assertEqual(results.skip_lines(cell), [
			'skipped c: crypto_cfb: F.3.13/F.3.14 CFB128-AES128: no cfb (cfb_nist_test)'])


class Reports(unittest.TestCase):
	def test_report_fails_a_green_cell_and_names_its_suite(self):
		log = LOG.replace('[    1.000005]         ok 1 ecb(sm4) ecb(sm4-generic)\n',
				  '[    1.000005] BUG: KASAN: slab-use-after-free in sm4_crypt_sg+0x10\n'
				  '[    1.000005]         ok 1 ecb(sm4) ecb(sm4-generic)\n')
		ok = {'name': 'x', 'test_cases': [], 'sub_groups': [suite('sm4_drivers', [('a', 'PASS')])]}
		cell = judge('c', ok, {'rc': 0, 'expected_suites': []}, log)
		self.assertEqual(texts(cell), ['kernel report in sm4_drivers: BUG: KASAN: '
					       'slab-use-after-free in sm4_crypt_sg+0x10'])
		self.assertEqual((cell.problems[0].kind, cell.problems[0].where),
				 (results.REPORT, 'sm4_drivers'))
		self.assertFalse(results.ok([cell]))

	def test_every_kind_of_report(self):
		for line in ('WARNING: CPU: 0 PID: 1 at x.c:1', 'UBSAN: shift-out-of-bounds in y.c',
			     'ODEBUG: free active (active state 0) object', 'kernel BUG at z.c:3!',
			     'Oops: 0000 [#1] PREEMPT', 'Kernel panic - not syncing: x',
			     'WARNING: possible recursive locking detected'):
			with self.subTest(line=line):
				self.assertEqual(reports(f'[ 0.1] {line}\n'), [('(boot)', line)])

	def test_clean_log_and_result_lines_are_not_reports(self):
		self.assertEqual(reports(LOG), [])
		self.assertEqual(reports('    ok 1 kunit_panic_test\nok 2 bug_on\n'), [])

	def test_the_command_line_is_not_a_report(self):
		log = ('[    0.000000] Command line: rdinit=/init panic=-1 console=ttyS0\n'
		       '[    0.010000] Kernel command line: rdinit=/init panic=-1\n')
		self.assertEqual(reports(log), [])
		self.assertEqual(reports('[ 0.2] Kernel panic - not syncing: VFS\n'),
				 [('(boot)', 'Kernel panic - not syncing: VFS')])

	def test_guest_problems_of_the_status_fail_the_cell(self):
		ok = {'name': 'x', 'test_cases': [], 'sub_groups': [suite('integration_scsi_dh', [('a', 'PASS')])]}
		status = {'rc': 124, 'expected_suites': [],
			  'problems': ['the guest did not power off within 300 s; its last console '
				       'lines: PM: suspend entry (deep)']}
		cell = judge('c', ok, status, '')
		self.assertEqual(texts(cell), status['problems'])
		self.assertFalse(results.ok([cell]))


class Record(unittest.TestCase):
	def test_written_and_read_back_unchanged(self):
		import tempfile
		log = LOG.replace('[    1.000005]         ok 1 ecb(sm4) ecb(sm4-generic)\n',
				  '[    1.000005] WARNING: at x.c:1\n'
				  '[    1.000005]         ok 1 ecb(sm4) ecb(sm4-generic)\n')
		ok = {'name': 'x', 'test_cases': [], 'sub_groups': [
			suite('sm4_drivers', [('sm4_bad_key_test', 'SKIP')],
			      [suite('sm4_kat_test', [('ecb(sm4) ecb(sm4-generic)', 'PASS')])])]}
		run = judge('6.12-x86_64', ok, dict(STATUS, rows=['sm4_drivers.sm4_kat_test']), log)
		with tempfile.TemporaryDirectory() as d:
			results.write(d, run)
			self.assertEqual(results.names(d), ['6.12-x86_64'])
			self.assertEqual(results.load(d, '6.12-x86_64'), run)
		self.assertEqual([c.path for c in run.cases],
				 [('sm4_drivers', 'sm4_kat_test', 'ecb(sm4) ecb(sm4-generic)'),
				  ('sm4_drivers', 'sm4_bad_key_test')])
		self.assertEqual(run.cases[1].reason, 'no key')
		self.assertEqual(run.cases[0].seconds, 0.000001)
		self.assertEqual([p.kind for p in run.problems],
				 [results.MISSING, results.MISSING, results.REPORT, results.EXIT])


class Rows(unittest.TestCase):
	def test_rows_of_named_case_are_listed(self):
		status = dict(STATUS, rc=0, rows=['sm4.ecb'])
		lines = results.table([judge('6.12-arm64', RESULT, status)])
		self.assertIn('rows    6.12-arm64: sm4.ecb: passed: generic', lines)
		self.assertIn('rows    6.12-arm64: sm4.ecb: failed: neon', lines)


class Table(unittest.TestCase):
	def test_closing_line_sums_all_cells(self):
		a = judge('6.12-x86_64', RESULT, STATUS)
		b = judge('6.12-arm64', None, STATUS)
		lines = results.table([a, b])
		self.assertEqual(lines[-1], 'kunit: 3 passed, 3 failed, 1 skipped')
		self.assertEqual(lines[0].split(), ['kernel', 'suite', 'x86_64', 'arm64'])
		self.assertIn('FAILED  6.12-x86_64: sm4.ecb.neon', lines)
		self.assertTrue(any(line.startswith('FAILED  6.12-arm64: no results') for line in lines))

	def test_missing_suite_shows_in_its_cell(self):
		status = dict(STATUS, rc=0, expected_suites=['apparmor_net'])
		lines = results.table([judge('6.12-x86_64', RESULT, status)])
		row = next(line for line in lines if line.split()[1] == 'apparmor_net')
		self.assertEqual(row.split(), ['6.12', 'apparmor_net', 'MISSING'])

	def test_each_kernel_has_its_rows_and_runs_are_columns(self):
		cells = [judge(n, RESULT, dict(STATUS, rc=0))
			 for n in ('6.12-x86_64', '6.1-x86_64', '6.1-arm64-mono-suspend')]
		lines = results.table(cells)
		self.assertEqual(lines[0].split(), ['kernel', 'suite', 'x86_64', 'arm64-mono-suspend'])
		kernels = [line.split()[0] for line in lines[2:] if line.split()[1:2] == ['total']]
		self.assertEqual(kernels, ['6.1', '6.12'])
		total = next(line for line in lines if line.startswith('6.12') and 'total' in line)
		self.assertEqual(total.split(), ['6.12', 'total', '3/2/1'])
		self.assertEqual(lines[-1], 'kunit: 9 passed, 6 failed, 3 skipped')

	def test_cell_names_split_into_kernel_and_run(self):
		self.assertEqual(results.split_cell('6.1-arm64-integration-mono-suspend'),
				 ('6.1', 'arm64-integration-mono-suspend'))
		self.assertEqual(results.split_cell('6.12-x86_64'), ('6.12', 'x86_64'))
		self.assertEqual(results.split_cell('c'), ('', 'c'))


if __name__ == '__main__':
	unittest.main()
