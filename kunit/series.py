# SPDX-License-Identifier: GPL-2.0
"""The overlay as a mailable patch series, and its git am round trip.

One commit per quilt patch of the series: the patch's own hunks plus the
overlay files it carries, that is, the new files its added lines name
(the `sm4_kunit.o` of a Makefile line, the `#include "scsi_dh_test.c"`
at the end of a .c file). Every overlay file must be carried by exactly
one patch, so that nothing of the overlay is left out of the series.

The commits are made in a sparse git worktree of the tree's pristine
commit, then written out by git format-patch with a cover letter.
"""

import os
import re
import shutil
import subprocess
import tempfile
from typing import Dict, Iterable, List, Optional, Tuple

import overlay


class SeriesError(Exception):
	"""The series cannot be made: the message is one line."""


def _run(cwd: str, *args: str, env=None) -> str:
	proc = subprocess.run(['git', '-C', cwd, *args], capture_output=True, text=True,
			      env=env, check=False)
	if proc.returncode != 0:
		err = (proc.stderr or proc.stdout).strip().splitlines()
		raise SeriesError(f"git {args[0]} failed: {err[-1] if err else proc.returncode}")
	return proc.stdout


def _config(repo: str, key: str) -> str:
	proc = subprocess.run(['git', '-C', repo, 'config', key], capture_output=True,
			      text=True, check=False)
	return proc.stdout.strip()


def added_lines(patch: str) -> List[str]:
	with open(patch, encoding='utf-8') as f:
		return [line[1:] for line in f if line.startswith('+') and not line.startswith('+++')]


def _names(stem: str) -> 're.Pattern[str]':
	return re.compile(rf'(?<![\w/]){re.escape(stem)}\.[cho]\b')


def _includer(path: str, owner: Dict[str, str], patches: List[str],
	      contents: Dict[str, overlay.Content]) -> Optional[str]:
	"""A carried file that includes the header @path, or None."""
	if path.startswith('include/'):
		angle = re.compile(rf'#include\s*<{re.escape(path[len("include/"):])}>')
		users = [by for by in owner
			 if angle.search((contents[by].data or b'').decode('utf-8', 'replace'))]
		users.sort(key=lambda by: (patches.index(owner[by]), by))
		return users[0] if users else None
	word = _names(os.path.splitext(os.path.basename(path))[0])
	for by in sorted(owner):
		data = contents[by].data or b''
		if (os.path.dirname(by) == os.path.dirname(path) and
		    word.search(data.decode('utf-8', 'replace'))):
			return by
	return None


def carried(patches: List[str], files: Iterable[str],
	    contents: Optional[Dict[str, overlay.Content]] = None) -> Dict[str, List[str]]:
	"""Quilt patch -> the overlay files its added lines name.

	An overlay file that no patch names goes with the one that names it
	(the test data header that a carried suite #includes), when contents
	are given; a header under include/ goes with the first patch that
	carries a file which #includes it as <path>, so that every commit
	of the series builds.
	"""
	out: Dict[str, List[str]] = {p: [] for p in patches}
	owner: Dict[str, str] = {}
	for path in sorted(files):
		word = _names(os.path.splitext(os.path.basename(path))[0])
		for p in patches:
			if any(word.search(line) for line in added_lines(p)):
				if path in owner:
					raise SeriesError(f'overlay file {path} is carried by both '
							  f'{os.path.basename(owner[path])} and '
							  f'{os.path.basename(p)}')
				owner[path] = p
				out[p].append(path)
	grew = True
	while contents and grew:
		grew = False
		for path in sorted(set(files) - set(owner)):
			by = _includer(path, owner, patches, contents)
			if by:
				owner[path] = owner[by]
				out[owner[by]].append(path)
				grew = True
	for path in sorted(files):
		if path not in owner:
			raise SeriesError(f'overlay file {path} is carried by no patch of the series '
					  '(no added line names it)')
	return out


def header(patch: str) -> Tuple[str, str, str]:
	"""(author, subject, body) of a quilt patch in mail form."""
	author, subject, body, in_body = '', '', [], False
	with open(patch, encoding='utf-8') as f:
		for line in f:
			if line.startswith(('---', 'diff ')):
				break
			if in_body:
				body.append(line)
			elif line.startswith('From: '):
				author = line[6:].strip()
			elif line.startswith('Subject: '):
				subject = re.sub(r'^\[PATCH[^\]]*\]\s*', '', line[9:].strip())
			elif not line.strip() and subject:
				in_body = True
	if not subject:
		raise SeriesError(f'{os.path.basename(patch)} has no Subject: line')
	return author, subject, ''.join(body).strip() + '\n'


class Worktree:
	"""A sparse worktree of the tree's pristine commit, holding only paths."""

	def __init__(self, tree: str, paths: Iterable[str]) -> None:
		self.tree = tree
		self.dir = tempfile.mkdtemp(prefix='kernel-overlay-series-')
		os.rmdir(self.dir)
		_run(tree, 'worktree', 'add', '-q', '--detach', '--no-checkout', self.dir, 'HEAD')
		_run(self.dir, 'sparse-checkout', 'set', '--no-cone', *sorted(set(paths)))
		_run(self.dir, 'checkout', '-q', 'HEAD')

	def __enter__(self) -> 'Worktree':
		return self

	def __exit__(self, *exc) -> None:
		subprocess.run(['git', '-C', self.tree, 'worktree', 'remove', '--force', self.dir],
			       capture_output=True, check=False)
		shutil.rmtree(self.dir, ignore_errors=True)
		subprocess.run(['git', '-C', self.tree, 'worktree', 'prune'], capture_output=True,
			       check=False)


def touched(patches: List[str], files: Iterable[str]) -> List[str]:
	paths = set(files)
	for p in patches:
		paths.update(overlay.patch_paths(p))
	return sorted(paths)


def make(tree: str, repo: str, files: Dict[str, overlay.Content], patches: List[str],
	 outdir: str, kernel: str) -> List[str]:
	"""Write the series into outdir; return the patch files, cover letter first."""
	owned = carried(patches, files, files)
	for p in patches:
		if not owned[p] and not overlay.patch_paths(p):
			raise SeriesError(f'{os.path.basename(p)} would be an empty patch')
	shutil.rmtree(outdir, ignore_errors=True)
	os.makedirs(outdir)
	identity = all(_config(repo, k) for k in ('user.name', 'user.email'))
	env = None if identity else dict(os.environ, GIT_COMMITTER_NAME='kernel-overlay',
					  GIT_COMMITTER_EMAIL='none', GIT_AUTHOR_NAME='kernel-overlay',
					  GIT_AUTHOR_EMAIL='none')
	with Worktree(tree, touched(patches, files)) as wt:
		base = _run(wt.dir, 'rev-parse', 'HEAD').strip()
		for p in patches:
			author, subject, body = header(p)
			if overlay.patch_paths(p):
				_run(wt.dir, 'apply', '--index', '--whitespace=nowarn', os.path.abspath(p))
			for path in owned[p]:
				dest = os.path.join(wt.dir, path)
				os.makedirs(os.path.dirname(dest), exist_ok=True)
				with open(dest, 'wb') as f:
					f.write(files[path].data or b'')
				os.chmod(dest, files[path].mode)
				_run(wt.dir, 'add', '--sparse', '-f', path)
			msg = os.path.join(wt.dir, '.git-msg')
			with open(msg, 'w', encoding='utf-8') as f:
				f.write(f'{subject}\n\n{body}')
			args = ['commit', '-q', '--no-verify', '-F', msg]
			if identity:
				args.append('--signoff')	# git config's user, when set
			if author:
				args.append(f'--author={author}')
			_run(wt.dir, *args, env=env)
			os.unlink(msg)
		_run(wt.dir, 'format-patch', '-q', '--cover-letter', '--no-signature',
		     '-o', outdir, f'{base}..HEAD')
	out = sorted(os.path.join(outdir, f) for f in os.listdir(outdir))
	_fill_cover(out[0], kernel, len(patches))
	return out


def _fill_cover(cover: str, kernel: str, n: int) -> None:
	with open(cover, encoding='utf-8') as f:
		text = f.read()
	text = text.replace('*** SUBJECT HERE ***',
			    f'kernel-overlay: KUnit suites and fixes for linux-source-{kernel}')
	text = text.replace('*** BLURB HERE ***',
			    f'These {n} patches carry the kernel-overlay project onto the\n'
			    f'linux-source-{kernel} tree that Debian ships: KUnit suites that pin\n'
			    'down the behaviour of upstream fixes, each with the Kconfig and\n'
			    'Makefile hooks it needs. Each patch names the upstream change it\n'
			    'derives from. They apply with git am in this order, and every\n'
			    'prefix of the series stands on its own.')
	with open(cover, 'w', encoding='utf-8') as f:
		f.write(text)


def roundtrip(tree: str, files: Iterable[str], patches: List[str],
	      series: List[str]) -> List[str]:
	"""git am the series on the pristine tree; paths that differ from the synced tree."""
	paths = touched(patches, files)
	with Worktree(tree, paths) as wt:
		env = dict(os.environ, GIT_COMMITTER_NAME='kernel-overlay',
			   GIT_COMMITTER_EMAIL='none')
		_run(wt.dir, 'am', '-q', *[os.path.abspath(p) for p in series[1:]], env=env)
		bad = []
		for path in paths:
			want = os.path.join(tree, path)
			got = os.path.join(wt.dir, path)
			if os.path.exists(want) != os.path.exists(got):
				bad.append(path)
			elif os.path.exists(want):
				with open(want, 'rb') as a, open(got, 'rb') as b:
					if a.read() != b.read():
						bad.append(path)
		return bad
