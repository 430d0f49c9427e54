# SPDX-License-Identifier: GPL-2.0
"""A small fake kernel tree, repo and series for the tools' own tests."""

import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest
from typing import Dict

KUNIT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, KUNIT)

import overlay  # noqa: E402

PRISTINE: Dict[str, str] = {
	'Makefile': 'all:\n',
	'crypto/Kconfig': 'config CRYPTO_SM4\n\ttristate\n\nconfig CRYPTO_SM4_GENERIC\n\ttristate\n',
	'crypto/Makefile': 'obj-$(CONFIG_CRYPTO_SM4) += sm4.o\n',
	'crypto/sm4.c': ''.join(f'line {i}\n' for i in range(40)),
	'drivers/scsi/scsi_lib.c': ''.join(f'scsi {i}\n' for i in range(30)),
	'scripts/run.sh': '#!/bin/sh\n',
}

KCONFIG_PATCH = """\
Subject: [PATCH] crypto: add the SM4 KUnit symbol

The symbol of the suite.
---
diff --git a/crypto/Kconfig b/crypto/Kconfig
--- a/crypto/Kconfig
+++ b/crypto/Kconfig
@@ -3,2 +3,5 @@
 config CRYPTO_SM4_GENERIC
 	tristate
+
+config CRYPTO_SM4_KUNIT_TEST
+	tristate
"""

MAKEFILE_PATCH = """\
Subject: [PATCH] crypto: build the SM4 KUnit suite
---
--- a/crypto/Makefile
+++ b/crypto/Makefile
@@ -1 +1,2 @@
 obj-$(CONFIG_CRYPTO_SM4) += sm4.o
+obj-$(CONFIG_CRYPTO_SM4_KUNIT_TEST) += sm4_kunit.o
"""

SCSI_PATCH = """\
--- a/drivers/scsi/scsi_lib.c
+++ b/drivers/scsi/scsi_lib.c
@@ -29,1 +29,4 @@
 scsi 29
+#if IS_ENABLED(CONFIG_SCSI_KUNIT)
+#include "scsi_lib_kunit.c"
+#endif
"""

BAD_PATCH = """\
--- a/crypto/sm4.c
+++ b/crypto/sm4.c
@@ -10,2 +10,2 @@
 this line is not there
-line 11
+line eleven
"""


def make_tarball(path: str, files: Dict[str, str], top: str = 'linux-source-6.12') -> None:
	with tarfile.open(path, 'w:xz') as tar:
		for name, text in files.items():
			data = text.encode()
			info = tarfile.TarInfo(f'{top}/{name}')
			info.size = len(data)
			info.mode = 0o755 if name.endswith('.sh') else 0o644
			tar.addfile(info, io.BytesIO(data))


class FakeTreeCase(unittest.TestCase):
	"""A temp dir with a tarball, a repo (overlay + series) and a cache."""

	def setUp(self) -> None:
		self.tmp = tempfile.mkdtemp(prefix='kernel-overlay-test-')
		self.addCleanup(shutil.rmtree, self.tmp, True)
		self.tarball = os.path.join(self.tmp, 'linux-source-6.12.tar.xz')
		make_tarball(self.tarball, PRISTINE)
		self.repo = os.path.join(self.tmp, 'repo')
		self.series = os.path.join(self.repo, 'patches', '6.12')
		self.common = os.path.join(self.repo, 'patches', 'common')
		os.makedirs(self.series)
		os.makedirs(self.common)
		self.tree = os.path.join(self.tmp, 'cache', '6.12', 'src')
		self.source = overlay.Source(self.tarball, '6.12.1-1', 'linux-source-6.12')
		self.add_overlay('crypto/sm4_kunit.c', '// SPDX-License-Identifier: GPL-2.0\n')
		self.add_overlay('kernel/time/new/deep_kunit.c', 'deep\n')
		self.set_series({'kconfig.patch': KCONFIG_PATCH,
				 'makefile.patch': MAKEFILE_PATCH})

	def add_overlay(self, path: str, text: str) -> None:
		full = os.path.join(self.repo, path)
		os.makedirs(os.path.dirname(full), exist_ok=True)
		with open(full, 'w', encoding='utf-8') as f:
			f.write(text)

	def remove_overlay(self, path: str) -> None:
		os.unlink(os.path.join(self.repo, path))

	def set_series(self, patches: Dict[str, str]) -> None:
		for name, text in patches.items():
			with open(os.path.join(self.series, name), 'w', encoding='utf-8') as f:
				f.write(text)
		with open(os.path.join(self.series, 'series'), 'w', encoding='utf-8') as f:
			f.write('# test series\n' + ''.join(f'{n}\n' for n in patches))

	def sync(self, **kw) -> overlay.Plan:
		files = overlay.overlay_files(self.repo, ('kernel', 'crypto', 'drivers/scsi'))
		patches = overlay.read_series(self.series, self.common)
		return overlay.sync(self.tree, self.source, files, patches, **kw)

	def read(self, path: str) -> str:
		with open(os.path.join(self.tree, path), encoding='utf-8') as f:
			return f.read()

	def write(self, path: str, text: str) -> None:
		with open(os.path.join(self.tree, path), 'w', encoding='utf-8') as f:
			f.write(text)

	def snapshot(self) -> Dict[str, tuple]:
		"""Content and mtime of every file of the tree (and its state)."""
		snap = {}
		for root, _, names in os.walk(self.tree):
			rel = os.path.relpath(root, self.tree)
			if rel.split(os.sep)[0] == '.git' and overlay.STATE not in rel:
				continue
			for n in names:
				full = os.path.join(root, n)
				with open(full, 'rb') as f:
					snap[os.path.relpath(full, self.tree)] = (f.read(), os.stat(full).st_mtime_ns)
		return snap

	def age(self) -> None:
		"""Set every tree file's mtime to an hour ago, to see what gets rewritten."""
		for root, _, names in os.walk(self.tree):
			for n in names:
				full = os.path.join(root, n)
				st = os.stat(full)
				os.utime(full, ns=(st.st_atime_ns, st.st_mtime_ns - 3600 * 10**9))

	def git(self, *args: str) -> str:
		return subprocess.run(['git', '-C', self.tree, *args], capture_output=True,
				      text=True, check=True).stdout


def kconfig(paths) -> Dict[str, str]:
	"""CONFIG_ symbol -> value over kconfig fragments, parsed by the synced
	6.12 tree's tools/testing/kunit/kunit_config.py (later files win)."""
	import common  # pylint: disable=import-outside-toplevel
	tool = os.path.join(common.tree_dir(common.kernel('6.12')), 'tools', 'testing', 'kunit')
	if not os.path.isfile(os.path.join(tool, 'kunit_config.py')):
		raise unittest.SkipTest(f'no synced tree with kunit_config.py at {tool} (make sync)')
	if tool not in sys.path:
		sys.path.append(tool)
	import kunit_config  # pylint: disable=import-outside-toplevel
	out: Dict[str, str] = {}
	for path in paths:
		for entry in kunit_config.parse_file(path).as_entries():
			out[entry.name] = entry.value
	return out


def declared_suites() -> Dict[str, str]:
	"""Suite name -> the overlay C file that declares it."""
	import re  # pylint: disable=import-outside-toplevel
	import common  # pylint: disable=import-outside-toplevel
	out: Dict[str, str] = {}
	for d in common.OVERLAY_DIRS:
		for root, _, names in os.walk(os.path.join(common.REPO, d)):
			for name in names:
				if name.endswith('.c'):
					with open(os.path.join(root, name), encoding='utf-8') as f:
						text = f.read()
					for m in re.finditer(r'struct kunit_suite \w+ = \{\s*\.name = "([^"]+)"',
							     text):
						out[m.group(1)] = os.path.relpath(os.path.join(root, name),
										  common.REPO)
	return out
