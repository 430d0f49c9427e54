# SPDX-License-Identifier: GPL-2.0
"""kunit/integration.py: the boots file, the guest's arguments, its programs."""

import os
import shutil
import subprocess
import tempfile
import unittest

import helpers
from helpers import KUNIT

import common
import integration
import runner


class Boots(unittest.TestCase):
	def write(self, text):
		fd, path = tempfile.mkstemp()
		with os.fdopen(fd, 'w') as f:
			f.write(text)
		self.addCleanup(os.unlink, path)
		return path

	def test_default_boot_runs_every_case_program_once(self):
		cases = integration.boot('default').cases
		self.assertEqual(sorted(cases), [p for p in integration.programs() if p != 'init'])
		self.assertEqual(len(cases), len(set(cases)))

	def test_every_boot_runs_programs_that_exist(self):
		for b in integration.boot_table().values():
			with self.subTest(boot=b.name):
				self.assertTrue(set(b.cases) <= set(integration.programs()) - {'init'})

	def test_mono_suspend_boot_asks_for_the_mode_and_expects_it(self):
		b = integration.boot('mono-suspend')
		self.assertEqual(b.cases, ['suspend'])
		self.assertIn('monotonic_suspend=on', b.kernel_args)
		self.assertIn('integration_suspend=on', b.kernel_args)
		# the KUnit boot of the same name passes the same mode argument
		self.assertIn('monotonic_suspend=on', runner.boot('mono-suspend').kernel_args)

	def test_mono_suspend_boot_has_two_cpus_and_the_default_one(self):
		self.assertEqual(integration.boot('mono-suspend').qemu_args, ['-smp 2'])
		self.assertEqual(integration.boot('default').qemu_args, [])

	def test_qemu_options_reach_the_command_after_the_arch_ones(self):
		k, a = common.kernel('6.12'), common.arch('x86_64')
		b = integration.Boot('b', ['suspend'], ['x=1'], ['-smp 2'])
		cmd = integration.qemu_command(k, a, '/b', '/i.cpio', integration.kernel_args(b),
					       b.qemu_args)
		self.assertEqual(cmd[-2:], ['-smp', '2'])
		self.assertEqual(cmd[cmd.index('-cpu'):][:2], ['-cpu', 'max,la57=off'])
		self.assertIn('e1000e,netdev=lend', cmd)

	def test_default_boot_expects_the_mode_off(self):
		self.assertIn('integration_suspend=off', integration.boot('default').kernel_args)

	def test_unknown_boot_names_the_valid_ones(self):
		with self.assertRaisesRegex(common.UsageError, "unknown integration boot 'nope'; valid: "
					    "default mono-suspend"):
			integration.boot('nope')

	def test_bad_line_names_file_and_line(self):
		path = self.write('# comment\nBad!Name suspend\n')
		with self.assertRaisesRegex(common.UsageError, f'{path}:2: want: name case'):
			integration.boot_table(path)

	def test_cases_are_a_comma_list(self):
		path = self.write('two\ta,b\tx=1 y=2\n')
		b = integration.boot('two', path)
		self.assertEqual((b.cases, b.kernel_args), (['a', 'b'], ['x=1', 'y=2']))


class Guest(unittest.TestCase):
	def test_results_names(self):
		k, a = common.kernel('6.12'), common.arch('arm64')
		self.assertEqual(integration.run_name(k, a, integration.boot('default')),
				 '6.12-arm64-integration')
		self.assertEqual(integration.run_name(k, a, integration.boot('mono-suspend')),
				 '6.12-arm64-integration-mono-suspend')

	def test_kernel_args_boot_into_init_with_kunit_off(self):
		args = integration.kernel_args(integration.boot('mono-suspend'))
		self.assertEqual(args[:3], ['rdinit=/init', 'kunit.enable=0', 'panic=-1'])
		self.assertIn('integration_cases=suspend', args)
		self.assertFalse(any(x.startswith('kunit_shutdown') for x in args))

	def test_integration_config_is_in_the_normal_build_not_the_debug_one(self):
		k, a = common.kernel('6.12'), common.arch('x86_64')
		cfg = os.path.join(runner.CONFIGS, 'integration.config')
		for flavour in ('', 'mutants'):
			with self.subTest(flavour=flavour):
				self.assertIn(cfg, runner.kunitconfigs(k, a, flavour))
		self.assertNotIn(cfg, runner.kunitconfigs(k, a, runner.DEBUG))
		self.assertEqual(helpers.kconfig([cfg])['BLK_DEV_INITRD'], 'y')

	def test_initramfs_key_follows_every_source_and_the_arch(self):
		names = [n for n, _ in integration._inputs(common.arch('x86_64'), __file__)]  # pylint: disable=protected-access
		for src in os.listdir(integration.SRC):
			if src.endswith(('.c', '.h')):
				self.assertIn(src, names)
		self.assertIn('net_inet_stream', names)
		self.assertIn('features', names)
		self.assertIn('busybox', names)
		self.assertNotEqual(integration._inputs(common.arch('x86_64'), __file__)[0],  # pylint: disable=protected-access
				    integration._inputs(common.arch('arm64'), __file__)[0])  # pylint: disable=protected-access


class Console(unittest.TestCase):
	CONSOLE = [
		'Linux version 6.12', 'KTAP version 1', '1..2',
		'    KTAP version 1',
		'tsc: Refined TSC clocksource calibration: 2599.998 MHz',
		'    # Subtest: integration_scsi_dh', '    1..1',
		'sd 0:0:0:0: hp_sw: attached to active path',
		'    # dh_state hp_sw', '    ok 1 hp_sw attaches by name',
		'ok 1 integration_scsi_dh', 'ACPI: PM: Preparing to enter system sleep state S5',
		'not ok 2 integration_suspend', 'reboot: Power down',
	]

	def test_kernel_messages_are_left_out(self):
		self.assertEqual(integration.ktap_lines(self.CONSOLE), [
			'KTAP version 1', '1..2', '    KTAP version 1',
			'    # Subtest: integration_scsi_dh', '    1..1', '    # dh_state hp_sw',
			'    ok 1 hp_sw attaches by name', 'ok 1 integration_scsi_dh',
			'not ok 2 integration_suspend'])


class Programs(unittest.TestCase):
	"""The guest programs build cleanly for every arch whose compiler is here."""

	def test_programs_compile_without_warnings(self):
		for a in common.ARCHES.values():
			cc = a.cross_compile + 'gcc'
			if not shutil.which(cc):
				continue
			for prog in integration.programs():
				with self.subTest(arch=a.name, program=prog):
					proc = subprocess.run(
						[cc, '-fsyntax-only', '-Wall', '-Wextra', '-Werror',
						 os.path.join(integration.SRC, prog + '.c')],
						capture_output=True, text=True, check=False)
					self.assertEqual(proc.returncode, 0, proc.stderr)

	def test_list_integration_boots(self):
		proc = subprocess.run([os.path.join(KUNIT, 'run'), '--list-integration-boots'],
				      capture_output=True, text=True, check=False)
		self.assertEqual(proc.stdout.split(), list(integration.boot_table()))


if __name__ == '__main__':
	unittest.main()
