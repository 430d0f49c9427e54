# SPDX-License-Identifier: GPL-2.0
"""kunit/stamp.py and kunit/progress.py: a rerun boots the kernel it has
only when nothing the build reads changed; a build says how far it is."""

import os

from helpers import FakeTreeCase

import progress
import stamp


class Stamp(FakeTreeCase):
	def setUp(self):
		super().setUp()
		self.sync()
		self.build = os.path.join(self.tmp, 'build')
		os.makedirs(self.build)
		self.config = os.path.join(self.tmp, 'x.config')
		with open(self.config, 'w', encoding='utf-8') as f:
			f.write('CONFIG_KUNIT=y\n')
		self.built()

	def built(self, vmlinux: str = 'ELF', config: str = 'CONFIG_KUNIT=y\n'):
		for name, text in (('vmlinux', vmlinux), ('.config', config), ('a.o', '')):
			with open(os.path.join(self.build, name), 'w', encoding='utf-8') as f:
				f.write(text)

	def add_config_line(self):
		with open(self.config, 'a', encoding='utf-8') as f:
			f.write('CONFIG_X=y\n')

	def key(self, args=('--arch=x86_64',), tools=('sh',)):
		return stamp.inputs(self.tree, [self.config], args, tools)

	def test_same_inputs_and_outputs_are_current(self):
		stamp.write(self.build, self.key())
		self.assertTrue(stamp.current(self.build, self.key()))
		self.assertEqual(stamp.objects(self.build), 1)

	def test_every_change_falls_back_to_the_build(self):
		stamp.write(self.build, self.key())
		changes = {
			'an overlay file': lambda: (self.add_overlay('crypto/sm4_kunit.c', '// x\n'),
						    self.sync()),
			'a hand edit of an upstream file': lambda: self.write('crypto/sm4.c', 'edited\n'),
			'a hand edit of a synced file': lambda: self.write('crypto/Makefile', 'x\n'),
			'a kunitconfig line': self.add_config_line,
		}
		for what, change in changes.items():
			with self.subTest(change=what):
				key = self.key()
				change()
				self.assertNotEqual(self.key(), key)
				self.assertFalse(stamp.current(self.build, self.key()))
		self.assertNotEqual(self.key(args=('--arch=arm64',)), self.key())
		self.assertNotEqual(self.key(tools=('sh', 'cat')), self.key())

	def test_a_build_dir_changed_behind_the_stamp_is_not_current(self):
		key = self.key()
		stamp.write(self.build, key)
		self.built(config='CONFIG_KUNIT=y\nCONFIG_X=y\n')
		self.assertFalse(stamp.current(self.build, key))
		stamp.write(self.build, key)
		os.unlink(os.path.join(self.build, 'vmlinux'))
		self.assertFalse(stamp.current(self.build, key))

	def test_no_stamp_or_forgotten_is_not_current(self):
		self.assertFalse(stamp.current(self.build, self.key()))
		stamp.write(self.build, self.key())
		stamp.forget(self.build)
		self.assertFalse(stamp.current(self.build, self.key()))
		self.assertIsNone(stamp.objects(self.build))


class Progress(FakeTreeCase):
	def test_line_with_and_without_a_last_build(self):
		self.assertEqual(progress.line('run: building', 30, None, 75),
				 'run: building: 30 objects built (first build), 1m15s')
		self.assertEqual(progress.line('run: building', 100, 400, 60),
				 'run: building: 100 of 400 objects, 1m00s, about 3m00s left')
		self.assertEqual(progress.line('b', 0, 400, 5), 'b: 0 of 400 objects, 5s')

	def test_only_on_a_terminal_unless_asked(self):
		old = os.environ.pop('PROGRESS', None)
		try:
			self.assertFalse(progress.wanted())	# unittest's stdout is no terminal
			os.environ['PROGRESS'] = '1'
			self.assertTrue(progress.wanted())
			os.environ['PROGRESS'] = '0'
			self.assertFalse(progress.wanted())
		finally:
			os.environ.pop('PROGRESS', None)
			if old is not None:
				os.environ['PROGRESS'] = old
