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


KUNITCONFIG = '.kunitconfig'


class SeriesError(Exception):
	"""The series cannot be made: the message is one line."""


def _run(cwd: str, *args: str, env=None) -> str:
	proc = subprocess.run(['git', '-C', cwd, *args], capture_output=True, text=True,
			      env=env, check=False)
	if proc.returncode != 0:
		err = (proc.stderr or proc.stdout).strip().splitlines()
		raise SeriesError(f"git {args[0]} failed: {err[-1] if err else proc.returncode}")
	return proc.stdout


# An identity no list would take: a reserved domain (RFC 2606, RFC 6761),
# a no-reply address, or none at all.
_PLACEHOLDER = re.compile(r'(?:^|[@.])(?:example(?:\.(?:com|org|net))?|invalid|test|localhost|local)$'
			  r'|noreply|no-reply|^none$|^$', re.I)

# The identity of make check's round trip, which mails nothing.
CHECK_IDENTITY = ('kernel-overlay series check', 'series-check@kernel-overlay.invalid')


def identity(repo: str, env: Optional[Dict[str, str]] = None) -> Tuple[str, str]:
	"""(name, email) that git gives the author in repo (its config and the
	GIT_AUTHOR_* variables); an error when it is unset or a placeholder."""
	proc = subprocess.run(['git', '-C', repo, 'var', 'GIT_AUTHOR_IDENT'], capture_output=True,
			      text=True, env=env, check=False)
	m = re.match(r'(.*?) <(.*)> \d+ [-+]\d{4}$', proc.stdout.strip())
	if proc.returncode != 0 or not m or not m.group(1).strip():
		raise SeriesError('no git identity: set yours with git config user.name and '
				  'user.email (the series is signed off with it)')
	name, email = m.group(1).strip(), m.group(2).strip()
	if _PLACEHOLDER.search(email.rpartition('@')[2]) or _PLACEHOLDER.search(email) or \
	   '@' not in email:
		raise SeriesError(f'git identity {name} <{email}> is a placeholder: set yours '
				  'with git config user.name and user.email (the series is signed '
				  'off with it)')
	return name, email


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
	# A suite directory's .kunitconfig goes with the first patch that
	# declares a symbol it sets.
	for path in sorted(f for f in files if os.path.basename(f) == KUNITCONFIG):
		if path in owner or not contents:
			continue
		syms = re.findall(r'^CONFIG_(\w+)=', (contents[path].data or b'').decode(), re.M)
		for p in patches:
			if any(re.match(rf'\s*config ({"|".join(syms)})\s*$', line)
			       for line in added_lines(p)):
				owner[path] = p
				out[p].append(path)
				break
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


def header(patch: str) -> Tuple[str, str]:
	"""(subject, body) of a quilt patch in mail form. Its author is whoever
	makes the series: a From: or Signed-off-by: line is an error."""
	subject, body, in_body = '', [], False
	with open(patch, encoding='utf-8') as f:
		for line in f:
			if line.startswith(('---', 'diff ')):
				break
			if line.startswith(('From: ', 'Signed-off-by: ')):
				raise SeriesError(f'{os.path.basename(patch)}: no {line.split(":")[0]}: '
						  'in a patch of the repo (make series adds yours)')
			if in_body:
				body.append(line)
			elif line.startswith('Subject: '):
				subject = re.sub(r'^\[PATCH[^\]]*\]\s*', '', line[9:].strip())
			elif not line.strip() and subject:
				in_body = True
	if not subject:
		raise SeriesError(f'{os.path.basename(patch)} has no Subject: line')
	return subject, ''.join(body).strip() + '\n'


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
	 outdir: str, kernel: str, ident: Tuple[str, str]) -> List[str]:
	"""Write the series into outdir, authored and signed off by ident
	(name, email); return the patch files, cover letter first."""
	owned = carried(patches, files, files)
	for p in patches:
		if not owned[p] and not overlay.patch_paths(p):
			raise SeriesError(f'{os.path.basename(p)} would be an empty patch')
	shutil.rmtree(outdir, ignore_errors=True)
	os.makedirs(outdir)
	env = dict(os.environ, GIT_COMMITTER_NAME=ident[0], GIT_COMMITTER_EMAIL=ident[1],
		   GIT_AUTHOR_NAME=ident[0], GIT_AUTHOR_EMAIL=ident[1])
	with Worktree(tree, touched(patches, files)) as wt:
		base = _run(wt.dir, 'rev-parse', 'HEAD').strip()
		for p in patches:
			subject, body = header(p)
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
			_run(wt.dir, 'commit', '-q', '--no-verify', '--signoff', '-F', msg, env=env)
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


SUBJECT_MAX = 75
_FIXES = re.compile(r'^Fixes: [0-9a-f]{12,40} \("[^"\n]+"\)$', re.M)
_CITE = re.compile(r'\bcommit\s+([0-9a-f]{7,40})\b(\s*\("[^"]+"\))?', re.S)
_FIX_SUBJECT = re.compile(r'^(?:[\w./ -]+: )*(?:Fix|Revert)\b')
_KERNEL_LINK = re.compile(r'git\.kernel\.org/\S*/c/[0-9a-f]|/commit/\?id=')


def mail_problems(path: str, ident: Tuple[str, str],
		  placeholder_ok: bool = False) -> List[str]:
	"""What a maintainer would send back of one format-patch mail: a long
	subject, a fix without a Fixes: tag, a malformed tag, an upstream
	commit cited by link or without its subject, a stable Cc without the
	commit it fixes, or an author or sign-off that is not ident."""
	with open(path, encoding='utf-8') as f:
		text = f.read()
	head, _, _ = text.partition('\n---\n')
	name = os.path.basename(path)
	subject = ''
	m = re.search(r'^Subject: (?:\[PATCH[^\]]*\] )?(.*(?:\n .*)*)', head, re.M)
	if m:
		subject = ' '.join(x.strip() for x in m.group(1).split('\n'))
	out = []
	if len(subject) > SUBJECT_MAX:
		out.append(f'{name}: subject has {len(subject)} characters (at most {SUBJECT_MAX})')
	tags = re.findall(r'^Fixes:.*$', head, re.M)
	if _FIX_SUBJECT.match(subject) and not tags:
		out.append(f'{name}: a fix without Fixes: <12 chars> ("subject")')
	for tag in tags:
		if not _FIXES.match(tag):
			out.append(f'{name}: malformed tag: {tag} (want Fixes: <12 chars> ("subject"))')
	if re.search(r'^Cc: stable@vger\.kernel\.org', head, re.M) and not tags:
		out.append(f'{name}: Cc: stable without the Fixes: tag of the commit it fixes')
	for cite in _CITE.finditer(head):
		if len(cite.group(1)) < 12 or not cite.group(2):
			out.append(f'{name}: cite commit {cite.group(1)} as commit <12 chars> ("subject")')
	if _KERNEL_LINK.search(head):
		out.append(f'{name}: an upstream commit cited by link; cite it as commit <sha> ("subject")')
	who = f'{ident[0]} <{ident[1]}>'
	if not re.search(rf'^From: {re.escape(who)}$', head, re.M):
		out.append(f'{name}: not authored by {who}')
	if not re.search(rf'^Signed-off-by: {re.escape(who)}$', head, re.M):
		out.append(f'{name}: not signed off by {who}')
	if not placeholder_ok and _PLACEHOLDER.search(ident[1].rpartition('@')[2]):
		out.append(f'{name}: {who} is a placeholder identity')
	return out
