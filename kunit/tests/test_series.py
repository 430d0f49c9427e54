# SPDX-License-Identifier: GPL-2.0
"""kunit/series.py on a fake tree: the mail series and its git am round trip."""

import os

from helpers import KCONFIG_PATCH, MAKEFILE_PATCH, SCSI_PATCH, FakeTreeCase

import overlay
import series

IDENT = ('Ada Lovelace', 'ada@kernel.org')


class Series(FakeTreeCase):
	def make(self):
		files = overlay.overlay_files(self.repo, ('kernel', 'crypto', 'drivers/scsi'))
		patches = overlay.read_series(self.series)
		out = os.path.join(self.tmp, 'out')
		return files, patches, series.make(self.tree, self.repo, files, patches, out, '6.12',
						   IDENT)

	def test_overlay_file_no_patch_carries_is_an_error_naming_it(self):
		self.sync()
		with self.assertRaisesRegex(series.SeriesError,
					    'kernel/time/new/deep_kunit.c is carried by no patch'):
			self.make()

	def test_round_trip_gives_the_synced_tree(self):
		self.remove_overlay('kernel/time/new/deep_kunit.c')
		self.sync()
		files, patches, made = self.make()
		self.assertEqual([os.path.basename(p)[:5] for p in made],
				 ['0000-', '0001-', '0002-'])
		with open(made[2], encoding='utf-8') as f:
			text = f.read()
		self.assertIn('Subject: [PATCH 2/2] crypto: build the SM4 KUnit suite', text)
		self.assertIn('crypto/sm4_kunit.c', text)	# carried by the Makefile patch
		self.assertIn(' 2 files changed', text)	# the diffstat
		self.assertEqual(series.roundtrip(self.tree, files, patches, made), [])

	def test_round_trip_notices_a_difference(self):
		self.remove_overlay('kernel/time/new/deep_kunit.c')
		self.sync()
		files, patches, made = self.make()
		self.write('crypto/sm4_kunit.c', 'edited after the series was made\n')
		self.assertEqual(series.roundtrip(self.tree, files, patches, made),
				 ['crypto/sm4_kunit.c'])

	def test_empty_patch_is_an_error_naming_it(self):
		self.remove_overlay('kernel/time/new/deep_kunit.c')
		self.sync()
		with open(os.path.join(self.series, 'empty.patch'), 'w', encoding='utf-8') as f:
			f.write('Subject: [PATCH] nothing\n\nNo hunks.\n')
		with self.assertRaisesRegex(series.SeriesError, 'empty.patch would be an empty patch'):
			series.make(self.tree, self.repo, {}, [os.path.join(self.series, 'empty.patch')],
				    os.path.join(self.tmp, 'out'), '6.12', IDENT)

	def test_file_carried_by_two_patches_is_an_error(self):
		self.remove_overlay('kernel/time/new/deep_kunit.c')
		self.add_overlay('drivers/scsi/scsi_lib_kunit.c', 'x\n')
		self.set_series({'scsi.patch': SCSI_PATCH,
				 'again.patch': SCSI_PATCH.replace('scsi 29', 'scsi 28')})
		with self.assertRaisesRegex(series.SeriesError, 'carried by both scsi.patch and again'):
			series.carried(overlay.read_series(self.series), ['drivers/scsi/scsi_lib_kunit.c'])

	def test_header_included_by_a_carried_file_goes_with_it(self):
		self.remove_overlay('kernel/time/new/deep_kunit.c')
		self.add_overlay('crypto/sm4_kunit_vectors.h', 'static const u8 v[] = { 1 };\n')
		self.add_overlay('crypto/sm4_kunit.c', '#include "sm4_kunit_vectors.h"\n')
		self.sync()
		files, patches, made = self.make()
		owned = series.carried(patches, files, files)
		self.assertIn('crypto/sm4_kunit_vectors.h', owned[patches[1]])
		self.assertEqual(series.roundtrip(self.tree, files, patches, made), [])

	def test_include_header_goes_with_the_first_patch_that_includes_it(self):
		self.remove_overlay('kernel/time/new/deep_kunit.c')
		self.add_overlay('include/kunit/walk.h', 'int kunit_walk(void);\n')
		self.add_overlay('crypto/sm4_kunit.c', '#include <kunit/walk.h>\n')
		self.add_overlay('drivers/scsi/scsi_lib_kunit.c', '#include <kunit/walk.h>\n')
		self.set_series({'scsi.patch': SCSI_PATCH, 'kconfig.patch': KCONFIG_PATCH,
				 'makefile.patch': MAKEFILE_PATCH})
		files = overlay.overlay_files(self.repo, ('crypto', 'drivers/scsi', 'include/kunit'))
		patches = overlay.read_series(self.series)
		owned = series.carried(patches, files, files)
		by = {os.path.basename(p): sorted(owned[p]) for p in patches}
		self.assertEqual(by['scsi.patch'], ['drivers/scsi/scsi_lib_kunit.c',
						    'include/kunit/walk.h'])
		self.assertEqual(by['makefile.patch'], ['crypto/sm4_kunit.c'])

	def test_header_no_file_includes_is_still_an_error(self):
		self.remove_overlay('kernel/time/new/deep_kunit.c')
		self.add_overlay('crypto/orphan.h', 'x\n')
		self.sync()
		with self.assertRaisesRegex(series.SeriesError, 'crypto/orphan.h is carried by no patch'):
			self.make()


class Identity(FakeTreeCase):
	"""make series signs with the user's git identity, never a placeholder."""

	def ident(self, name: str, email: str):
		env = dict(os.environ, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email)
		return series.identity(self.repo, env)

	def test_takes_the_git_identity(self):
		self.assertEqual(self.ident('Ada Lovelace', 'ada@kernel.org'), IDENT)

	def test_refuses_placeholders(self):
		for email in ('maintainers@users.noreply.a-seed.example', 'me@example.com',
			      'dev@kernel-overlay.invalid', 'root@localhost', 'none'):
			with self.subTest(email=email):
				with self.assertRaisesRegex(series.SeriesError, 'placeholder'):
					self.ident('Someone', email)


MAIL = """\
From: Ada Lovelace <ada@kernel.org>
Subject: [PATCH 1/1] {subject}

Body.
{trailers}
Signed-off-by: Ada Lovelace <ada@kernel.org>
---
"""


class MailRules(FakeTreeCase):
	def problems(self, subject: str, trailers: str = '', ident=IDENT) -> list:
		path = os.path.join(self.tmp, '0001-x.patch')
		with open(path, 'w', encoding='utf-8') as f:
			f.write(MAIL.format(subject=subject, trailers=trailers))
		return [x.split(': ', 1)[1] for x in series.mail_problems(path, ident)]

	def test_a_good_fix_passes(self):
		self.assertEqual(self.problems('scsi: qla2xxx: Fix a leak',
					       'See commit 6d6340672ba3 ("scsi: qla2xxx: Fix small\n'
					       'memory leak").\n\nFixes: 6d6340672ba3 ("scsi: x")\n'
					       'Cc: stable@vger.kernel.org'), [])

	def test_rows(self):
		rows = [
			('long subject', 'crypto: sm4 - ' + 'x' * 62, '', 'subject has 76 characters'),
			('fix without Fixes', 'apparmor: Fix a leak', '', 'a fix without Fixes:'),
			('short Fixes sha', 'apparmor: Fix a leak', 'Fixes: 6d63406 ("x")',
			 'malformed tag'),
			('Fixes without subject', 'apparmor: Fix a leak', 'Fixes: 6d6340672ba3',
			 'malformed tag'),
			('stable without Fixes', 'apparmor: Add x', 'Cc: stable@vger.kernel.org',
			 'Cc: stable without'),
			('commit without subject', 'tick: Add x', 'See commit 6d6340672ba3.',
			 'cite commit 6d6340672ba3'),
			('commit by link', 'tick: Add x',
			 'Link: https://git.kernel.org/torvalds/c/6d6340672ba3', 'an upstream commit cited by link'),
		]
		for name, subject, trailers, want in rows:
			with self.subTest(row=name):
				got = self.problems(subject, trailers + '\n')
				self.assertEqual(len(got), 1, got)
				self.assertTrue(got[0].startswith(want), got)

	def test_other_author_or_placeholder(self):
		got = self.problems('tick: Add x', ident=('Bob', 'bob@kernel.org'))
		self.assertEqual(got, ['not authored by Bob <bob@kernel.org>',
				       'not signed off by Bob <bob@kernel.org>'])
		with open(os.path.join(self.tmp, '0001-x.patch'), 'w', encoding='utf-8') as f:
			f.write(MAIL.format(subject='tick: Add x', trailers='').replace(
				'ada@kernel.org', 'ada@x.example'))
		self.assertIn('placeholder identity', ' '.join(series.mail_problems(
			os.path.join(self.tmp, '0001-x.patch'), ('Ada Lovelace', 'ada@x.example'))))

	def test_repo_patch_with_a_from_line_is_an_error(self):
		path = os.path.join(self.series, 'kconfig.patch')
		with open(path, encoding='utf-8') as f:
			text = f.read()
		with open(path, 'w', encoding='utf-8') as f:
			f.write('From: Test <test@kernel.org>\n' + text)
		with self.assertRaisesRegex(series.SeriesError, 'no From: in a patch of the repo'):
			series.header(path)
