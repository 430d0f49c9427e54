# SPDX-License-Identifier: GPL-2.0
""".github/workflows/kunit.yml: valid YAML, and a job for every cell that
make check runs, each running that cell's boots and integration leg and
uploading its results."""

import os
import subprocess
import unittest

import helpers  # noqa: F401  (puts kunit/ on sys.path)
import common
import matrix
import runner

WORKFLOW = os.path.join(common.REPO, '.github', 'workflows', 'kunit.yml')


def load() -> dict:
	import yaml  # python3-yaml (make setup)
	with open(WORKFLOW, encoding='utf-8') as f:
		return yaml.safe_load(f)


def make_cells() -> set:
	out = subprocess.run(['make', '-s', '--no-print-directory', 'list-cells'], cwd=common.REPO,
			     capture_output=True, text=True, check=True).stdout
	return set(out.split())


def runs(job: dict) -> str:
	return '\n'.join(step.get('run', '') for step in job.get('steps', []))


class Workflow(unittest.TestCase):
	def setUp(self):
		self.wf = load()
		self.cell = self.wf['jobs']['cell']

	def test_is_a_workflow(self):
		# PyYAML reads the key "on" as True (YAML 1.1).
		self.assertTrue({'on', True} & set(self.wf))
		for name, job in self.wf['jobs'].items():
			with self.subTest(job=name):
				self.assertIn('runs-on', job)
				self.assertTrue(job['steps'])

	def test_one_job_per_cell_of_make_check(self):
		include = self.cell['strategy']['matrix']['include']
		cells = [f"{x['kernel']}-{x['arch']}" for x in include]
		self.assertEqual(len(cells), len(set(cells)), 'a cell twice')
		self.assertEqual(set(cells), make_cells())
		for x in include:
			self.assertIsInstance(x['kernel'], str, 'quote the kernel: 6.10 is not 6.1')
			common.kernel(x['kernel'])
			common.arch(x['arch'])

	def test_each_cell_runs_its_tests_boots_and_integration(self):
		cmds = runs(self.cell)
		cell = 'KERNEL=${{ matrix.kernel }} ARCH=${{ matrix.arch }}'
		self.assertIn(f'make test {cell}\n', cmds + '\n')
		for boot in runner.boot_table():
			with self.subTest(boot=boot):
				self.assertIn(f'make test {cell} BOOT={boot}', cmds)
		self.assertIn(f'make integration {cell}', cmds)

	def test_debug_leg_and_mutants_of_the_main_kernel(self):
		cmds = runs(self.wf['jobs']['debug-and-mutants'])
		k, a = matrix.MAIN_KERNEL, matrix.DEBUG_ARCH
		for cmd in (f'make test KERNEL={k} ARCH={a} DEBUG=1', f'make canary KERNEL={k}',
			    f'make mutants KERNEL={k}'):
			self.assertIn(cmd, cmds)
		self.assertIn('make check-tools checkpatch', runs(self.wf['jobs']['tools']))

	def test_caches_ccache_and_tree_and_uploads_results(self):
		steps = self.cell['steps']
		cache = next(s for s in steps if str(s.get('uses', '')).startswith('actions/cache'))
		self.assertIn('/ccache', cache['with']['path'])
		self.assertIn('${{ matrix.kernel }}/src', cache['with']['path'])
		upload = next(s for s in steps
			      if str(s.get('uses', '')).startswith('actions/upload-artifact'))
		self.assertEqual(upload['if'], 'always()')
		self.assertTrue(upload['with']['path'].rstrip('/').endswith('/results'))
		self.assertEqual(self.wf['env']['CACHE'], '${{ github.workspace }}/.kernel-overlay-cache')


if __name__ == '__main__':
	unittest.main()
