# SPDX-License-Identifier: GPL-2.0
"""The project's own patch series: a change that is the same on every base
lives once, in patches/common/; every patch is named by a series."""

import os
import re
import unittest

import helpers  # noqa: F401  (puts kunit/ on sys.path)
import common

# What differs between two copies of one change that patch takes in its
# stride: the hunks' line numbers and the diff's index and git lines.
_NOISE = re.compile(r'^(?:index |diff --git |@@ )')


def change(path: str) -> str:
	"""A patch without its line numbers: message, context and edits."""
	with open(path, encoding='utf-8') as f:
		return ''.join(line for line in f if not _NOISE.match(line))


def per_base() -> dict:
	"""kernel -> {name: path} of the patches in patches/<kernel>/."""
	out = {}
	for k in common.KERNELS.values():
		d = common.series_dir(k)
		out[k.version] = {n: os.path.join(d, n) for n in os.listdir(d) if n.endswith('.patch')}
	return out


class Patches(unittest.TestCase):
	def test_no_per_base_patch_is_another_bases_change(self):
		bases = per_base()
		seen = {}
		for kernel, patches in sorted(bases.items()):
			for name, path in sorted(patches.items()):
				text = change(path)
				with self.subTest(patch=f'{kernel}/{name}'):
					self.assertNotIn(text, seen, f'patches/{kernel}/{name} is the same change '
							 f'as patches/{seen.get(text)}: move it to patches/common/')
				seen[text] = f'{kernel}/{name}'

	def test_every_series_resolves_and_every_patch_is_used(self):
		used = set()
		for k in common.KERNELS.values():
			with self.subTest(kernel=k.version):
				used.update(common.series(k))
		every = [os.path.join(common.COMMON_PATCHES, n)
			 for n in os.listdir(common.COMMON_PATCHES)]
		for paths in per_base().values():
			every.extend(paths.values())
		for path in sorted(every):
			with self.subTest(patch=os.path.relpath(path, common.REPO)):
				self.assertIn(path, used, 'no series names it')

	def test_a_common_patch_has_no_per_base_twin(self):
		for name in os.listdir(common.COMMON_PATCHES):
			for kernel, patches in per_base().items():
				with self.subTest(patch=name, kernel=kernel):
					self.assertNotIn(name, patches)

	def test_series_keeps_the_order_of_its_file(self):
		for k in common.KERNELS.values():
			with self.subTest(kernel=k.version):
				names = [os.path.basename(p) for p in common.series(k)]
				with open(os.path.join(common.series_dir(k), 'series'), encoding='utf-8') as f:
					listed = [w[0] for w in (line.split('#', 1)[0].split() for line in f) if w]
				self.assertEqual(names, listed)


if __name__ == '__main__':
	unittest.main()
