# SPDX-License-Identifier: GPL-2.0
"""The README a newcomer reads first: short, the picture at its top and
current, every page it links there."""

import os
import re
import shutil
import subprocess
import unittest

import helpers  # noqa: F401  (puts kunit/ on sys.path)
import common

README = os.path.join(common.REPO, 'README.md')
DOCS = os.path.join(common.REPO, 'docs')


def read(path: str) -> str:
	with open(path, encoding='utf-8') as f:
		return f.read()


class Readme(unittest.TestCase):
	def test_at_most_200_lines_with_the_picture_first(self):
		lines = read(README).splitlines()
		self.assertLessEqual(len(lines), 200)
		first = next(x for x in lines[1:] if x.startswith(('![', '## ')))
		self.assertTrue(first.startswith('![') and '(docs/flow.svg)' in first, first)

	def test_every_link_to_a_page_of_the_repo_exists(self):
		for page in [README] + [os.path.join(DOCS, n) for n in os.listdir(DOCS)
					if n.endswith('.md')]:
			for link in re.findall(r'\]\(([^)#:]+)\)', read(page)):
				with self.subTest(page=os.path.basename(page), link=link):
					self.assertTrue(os.path.exists(os.path.join(os.path.dirname(page), link)))

	def test_module_map_names_every_tool(self):
		text = read(README)
		for name in os.listdir(os.path.join(common.REPO, 'kunit')):
			if name.endswith('.py') or name in ('run', 'sync', 'summary', 'mutate', 'series', 'mutation-run'):
				with self.subTest(tool=name):
					self.assertTrue(f'`kunit/{name}`' in text, f'kunit/{name} is not in the module map')

	def test_picture_is_drawn_from_its_source(self):
		if not shutil.which('dot'):
			self.skipTest('no dot (make setup installs graphviz)')
		out = subprocess.run(['dot', '-Tsvg', os.path.join(DOCS, 'flow.dot')],
				     capture_output=True, text=True, check=True).stdout
		self.assertEqual(out, read(os.path.join(DOCS, 'flow.svg')), 'run make picture')


if __name__ == '__main__':
	unittest.main()
