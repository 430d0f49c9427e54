# SPDX-License-Identifier: GPL-2.0
"""kunit/overlay.py on a fake tree: the sync's promises, one test each."""

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import unittest

from helpers import BAD_PATCH, KCONFIG_PATCH, KUNIT, MAKEFILE_PATCH, PRISTINE, \
	SCSI_PATCH, FakeTreeCase, make_tarball

import overlay


class FirstSync(FakeTreeCase):
	def test_lays_overlay_and_applies_series(self):
		self.sync()
		self.assertEqual(self.read('crypto/sm4_kunit.c'), '// SPDX-License-Identifier: GPL-2.0\n')
		self.assertEqual(self.read('kernel/time/new/deep_kunit.c'), 'deep\n')
		self.assertIn('config CRYPTO_SM4_KUNIT_TEST', self.read('crypto/Kconfig'))
		self.assertIn('sm4_kunit.o', self.read('crypto/Makefile'))
		self.assertEqual(self.read('crypto/sm4.c'), PRISTINE['crypto/sm4.c'])
		self.assertEqual(overlay.tree_version(self.tree), '6.12.1-1')

	def test_pristine_commit_holds_the_tarball(self):
		self.sync()
		self.assertEqual(sorted(self.git('ls-files').split()), sorted(PRISTINE))
		self.assertTrue(os.stat(os.path.join(self.tree, 'scripts/run.sh')).st_mode & 0o100)

	def test_no_state_outside_tree_and_its_git(self):
		self.sync()
		cache = os.path.dirname(self.tree)
		self.assertEqual(sorted(os.listdir(cache)), ['src', 'src.lock'])


class Idempotent(FakeTreeCase):
	def test_second_sync_writes_nothing_and_keeps_mtimes(self):
		self.sync()
		self.age()
		before = self.snapshot()
		result = self.sync()
		self.assertEqual(result.writes, {})
		self.assertEqual(self.snapshot(), before)

	def test_changed_overlay_file_is_the_only_write(self):
		self.sync()
		self.age()
		before = self.snapshot()
		self.add_overlay('crypto/sm4_kunit.c', '// changed\n')
		result = self.sync()
		self.assertEqual(sorted(result.writes), ['crypto/sm4_kunit.c'])
		after = self.snapshot()
		changed = sorted(p for p in after if after[p] != before.get(p))
		self.assertEqual([p for p in changed if not p.startswith('.git')],
				 ['crypto/sm4_kunit.c'])

	def test_dry_run_changes_nothing(self):
		self.sync()
		self.add_overlay('crypto/sm4_kunit.c', '// changed\n')
		self.remove_overlay('kernel/time/new/deep_kunit.c')
		before = self.snapshot()
		result = self.sync(dry_run=True)
		self.assertEqual(result.lines(), ['write   crypto/sm4_kunit.c',
						  'delete  kernel/time/new/deep_kunit.c'])
		self.assertEqual(self.snapshot(), before)

	def test_dry_run_before_unpack_says_so(self):
		self.assertTrue(self.sync(dry_run=True).unpack)
		self.assertFalse(os.path.exists(self.tree))


class PristineRestore(FakeTreeCase):
	def test_file_leaving_overlay_is_deleted_with_its_new_dirs(self):
		self.sync()
		self.remove_overlay('kernel/time/new/deep_kunit.c')
		self.sync()
		self.assertFalse(os.path.exists(os.path.join(self.tree, 'kernel')))

	def test_patch_leaving_series_restores_file(self):
		self.sync()
		self.set_series({'kconfig.patch': KCONFIG_PATCH})
		self.sync()
		self.assertEqual(self.read('crypto/Makefile'), PRISTINE['crypto/Makefile'])
		self.assertIn('CRYPTO_SM4_KUNIT_TEST', self.read('crypto/Kconfig'))

	def test_patch_that_stops_touching_a_file_restores_it(self):
		self.sync()
		with open(os.path.join(self.series, 'makefile.patch'), 'w', encoding='utf-8') as f:
			f.write(SCSI_PATCH)
		self.sync()
		self.assertEqual(self.read('crypto/Makefile'), PRISTINE['crypto/Makefile'])
		self.assertIn('scsi_lib_kunit.c', self.read('drivers/scsi/scsi_lib.c'))

	def test_empty_overlay_and_series_give_pristine_tree(self):
		self.sync()
		self.remove_overlay('crypto/sm4_kunit.c')
		self.remove_overlay('kernel/time/new/deep_kunit.c')
		self.set_series({})
		self.sync()
		self.assertEqual(self.git('status', '--porcelain', '--ignored', '-uall'), '')
		for path, text in PRISTINE.items():
			self.assertEqual(self.read(path), text)


class AllOrNothing(FakeTreeCase):
	def test_bad_patch_names_patch_and_file_and_changes_nothing(self):
		self.sync()
		self.add_overlay('crypto/sm4_kunit.c', '// changed\n')
		self.set_series({'kconfig.patch': KCONFIG_PATCH, 'scsi.patch': SCSI_PATCH,
				 'bad.patch': BAD_PATCH})
		before = self.snapshot()
		with self.assertRaises(overlay.SyncError) as e:
			self.sync()
		msg = str(e.exception)
		self.assertNotIn('\n', msg)
		self.assertIn('bad.patch', msg)
		self.assertIn('crypto/sm4.c', msg)
		self.assertEqual(self.snapshot(), before)

	def test_bad_patch_on_first_sync_leaves_pristine_tree(self):
		self.set_series({'bad.patch': BAD_PATCH})
		with self.assertRaises(overlay.SyncError):
			self.sync()
		self.assertEqual(self.git('status', '--porcelain', '--ignored', '-uall'), '')

	def test_patch_already_applied_is_an_error(self):
		self.set_series({'kconfig.patch': KCONFIG_PATCH, 'again.patch': KCONFIG_PATCH})
		with self.assertRaisesRegex(overlay.SyncError, 'again.patch .*crypto/Kconfig'):
			self.sync()

	def test_patch_of_missing_file_is_an_error(self):
		self.set_series({'ghost.patch': BAD_PATCH.replace('crypto/sm4.c', 'crypto/ghost.c')})
		with self.assertRaisesRegex(overlay.SyncError, 'ghost.patch'):
			self.sync()

	def test_series_naming_missing_patch_is_an_error(self):
		with open(os.path.join(self.series, 'series'), 'a', encoding='utf-8') as f:
			f.write('nothere.patch\n')
		with self.assertRaisesRegex(overlay.SyncError, 'nothere.patch does not exist'):
			self.sync()

	def test_series_takes_a_shared_patch_from_the_common_dir(self):
		os.rename(os.path.join(self.series, 'makefile.patch'),
			  os.path.join(self.common, 'makefile.patch'))
		self.sync()
		self.assertIn('sm4_kunit.o', self.read('crypto/Makefile'))
		self.assertIn('CRYPTO_SM4_KUNIT_TEST', self.read('crypto/Kconfig'))

	def test_patch_in_both_base_and_common_dir_is_an_error(self):
		shutil.copy(os.path.join(self.series, 'makefile.patch'), self.common)
		with self.assertRaisesRegex(overlay.SyncError,
					    r'makefile.patch is in both .*: keep it in one place'):
			self.sync()

	def test_overlay_file_that_is_also_patched_is_an_error(self):
		self.add_overlay('crypto/Makefile', 'copy of upstream\n')
		with self.assertRaisesRegex(overlay.SyncError, 'crypto/Makefile is an overlay file'):
			self.sync()

	def test_missing_package_is_a_one_line_error(self):
		self.source = overlay.Source(None, None, 'linux-source-6.12')
		with self.assertRaisesRegex(overlay.SyncError, 'linux-source-6.12 is not installed'):
			self.sync()


class Dirty(FakeTreeCase):
	def test_hand_edit_of_upstream_file_is_refused(self):
		self.sync()
		self.write('crypto/sm4.c', 'reverted by hand\n')
		self.add_overlay('crypto/sm4_kunit.c', '// changed\n')
		before = self.snapshot()
		with self.assertRaisesRegex(overlay.SyncError, r'tree is dirty: crypto/sm4.c .*FORCE=1'):
			self.sync()
		self.assertEqual(self.snapshot(), before)

	def test_hand_edit_of_synced_file_is_refused(self):
		self.sync()
		self.write('crypto/Kconfig', 'edited\n')
		with self.assertRaisesRegex(overlay.SyncError, 'tree is dirty: crypto/Kconfig'):
			self.sync()

	def test_force_resets_hand_edits(self):
		self.sync()
		self.write('crypto/sm4.c', 'reverted by hand\n')
		self.write('crypto/sm4_kunit.c', 'edited\n')
		self.sync(force=True)
		self.assertEqual(self.read('crypto/sm4.c'), PRISTINE['crypto/sm4.c'])
		self.assertEqual(self.read('crypto/sm4_kunit.c'), '// SPDX-License-Identifier: GPL-2.0\n')
		self.assertEqual(self.sync().writes, {})


class NewPackageVersion(FakeTreeCase):
	def test_new_version_unpacks_afresh_and_relays(self):
		self.sync()
		changed = dict(PRISTINE, **{'crypto/sm4.c': 'point release fix\n'})
		make_tarball(self.tarball, changed)
		self.source = overlay.Source(self.tarball, '6.12.2-1', 'linux-source-6.12')
		self.sync()
		self.assertEqual(overlay.tree_version(self.tree), '6.12.2-1')
		self.assertEqual(self.read('crypto/sm4.c'), 'point release fix\n')
		self.assertIn('CRYPTO_SM4_KUNIT_TEST', self.read('crypto/Kconfig'))


# A sync in a child process that SIGKILLs itself after its N-th write of
# a tree file, or at the N-th rename of an unpack.
KILLER = textwrap.dedent('''\
	import os, signal, sys
	sys.path.insert(0, {kunit!r})
	import overlay
	n = [0]
	def dying(real):
		def wrapper(*a, **k):
			n[0] += 1
			if n[0] == {at}:
				os.kill(os.getpid(), signal.SIGKILL)
			return real(*a, **k)
		return wrapper
	if {unpack}:
		overlay.os.rename = dying(os.rename)
	else:
		overlay._write_atomic = dying(overlay._write_atomic)
	files = overlay.overlay_files({repo!r}, ('kernel', 'crypto', 'drivers/scsi'))
	patches = overlay.read_series({series!r})
	overlay.sync({tree!r}, overlay.Source({tarball!r}, {version!r}), files, patches)
''')


class Interrupted(FakeTreeCase):
	def killed_sync(self, at: int, unpack: bool = False) -> int:
		code = KILLER.format(kunit=KUNIT, at=at, unpack=unpack, repo=self.repo,
				     series=self.series, tree=self.tree, tarball=self.tarball,
				     version=self.source.version)
		return subprocess.run([sys.executable, '-c', code], check=False).returncode

	def expected(self) -> dict:
		"""The tree a clean sync gives, from a sync in a second cache."""
		good = FakeTreeCase('run')
		good.tmp, good.repo, good.series, good.common = self.tmp, self.repo, self.series, self.common
		good.source = self.source
		good.tree = os.path.join(self.tmp, 'good', '6.12', 'src')
		good.sync()
		return {p: v[0] for p, v in good.snapshot().items() if not p.startswith('.git')}

	def test_kill_at_every_write_is_repaired(self):
		self.sync()
		self.add_overlay('crypto/sm4_kunit.c', '// changed\n')
		self.add_overlay('drivers/scsi/scsi_lib_kunit.c', 'new\n')
		self.remove_overlay('kernel/time/new/deep_kunit.c')
		self.set_series({'kconfig.patch': KCONFIG_PATCH, 'scsi.patch': SCSI_PATCH})
		want = self.expected()
		# Writes: journal, then each changed file, then the manifest.
		for at in range(1, 8):
			with self.subTest(killed_at=at):
				rc = self.killed_sync(at)
				self.sync()
				got = {p: v[0] for p, v in self.snapshot().items() if not p.startswith('.git')}
				self.assertEqual(got, want)
				self.assertFalse(os.path.exists(os.path.join(
					self.tree, '.git', overlay.STATE, 'journal.json')))
				self.assertEqual(self.sync().writes, {})
				self.assertIn(rc, (-signal.SIGKILL, 0))
				# Back to the old state for the next kill point.
				self.set_series({'kconfig.patch': KCONFIG_PATCH,
						 'makefile.patch': MAKEFILE_PATCH})
				self.add_overlay('kernel/time/new/deep_kunit.c', 'deep\n')
				self.remove_overlay('drivers/scsi/scsi_lib_kunit.c')
				self.sync()
				self.add_overlay('drivers/scsi/scsi_lib_kunit.c', 'new\n')
				self.remove_overlay('kernel/time/new/deep_kunit.c')
				self.set_series({'kconfig.patch': KCONFIG_PATCH, 'scsi.patch': SCSI_PATCH})

	def test_kill_during_unpack_of_a_new_version_is_repaired(self):
		self.sync()
		make_tarball(self.tarball, dict(PRISTINE, **{'crypto/sm4.c': 'point release\n'}))
		self.source = overlay.Source(self.tarball, '6.12.2-1', 'linux-source-6.12')
		want = self.expected()
		for at in (1, 2):
			with self.subTest(killed_at_rename=at):
				self.assertEqual(self.killed_sync(at, unpack=True), -signal.SIGKILL)
				self.sync()
				got = {p: v[0] for p, v in self.snapshot().items() if not p.startswith('.git')}
				self.assertEqual(got, want)
				self.assertEqual(overlay.tree_version(self.tree), '6.12.2-1')
				self.assertEqual(sorted(os.listdir(os.path.dirname(self.tree))),
						 ['src', 'src.lock'])
				# Back to the old version for the next kill point.
				self.source = overlay.Source(self.tarball, '6.12.1-1', 'linux-source-6.12')
				self.sync()
				self.source = overlay.Source(self.tarball, '6.12.2-1', 'linux-source-6.12')


if __name__ == '__main__':
	unittest.main()
