# SPDX-License-Identifier: GPL-2.0
"""Lay the overlay and its patch series over a pristine kernel tree.

The tree is unpacked from the tarball of a linux-source package and
committed once into a git repository of its own (.git inside the tree),
so that pristine content and hand edits are cheap to find. The sync then:

  1. computes, in memory and in a scratch directory, the content every
     managed path must have: overlay files as they are in the repo,
     patched files as the series leaves their pristine content, and
     pristine content for paths the overlay no longer touches;
  2. refuses, changing nothing, when a patch does not apply or the tree
     was edited outside the sync (unless forced);
  3. writes only the paths whose content differs, each atomically, with
     a journal naming them so that a sync killed half-way is repaired by
     the next one; unchanged files keep their mtime.
"""

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Set, Tuple

STATE = 'kernel-overlay'	# directory under the tree's .git
TMP_SUFFIX = '.kernel-overlay-tmp'


class SyncError(Exception):
	"""The sync refused: the message is one line, the tree is unchanged."""


@dataclass
class Content:
	"""What one path must hold: bytes and mode, or data None for absent."""
	data: Optional[bytes]
	mode: int = 0o644

	def sha(self) -> Optional[str]:
		if self.data is None:
			return None
		return hashlib.sha256(self.data).hexdigest()


@dataclass
class Plan:
	"""The outcome of a sync, computed before anything is written."""
	writes: Dict[str, Content] = field(default_factory=dict)
	manifest: Dict[str, Optional[str]] = field(default_factory=dict)
	unpack: bool = False

	def lines(self) -> List[str]:
		out = []
		for path, c in sorted(self.writes.items()):
			if c.data is None:
				out.append(f'delete  {path}')
			elif path in self.manifest:
				out.append(f'write   {path}')
			else:
				out.append(f'restore {path}')
		return out


def _git(tree: str, *args: str, data: Optional[bytes] = None) -> bytes:
	cmd = ['git', '-C', tree, '-c', 'core.quotepath=off', *args]
	proc = subprocess.run(cmd, input=data, capture_output=True, check=False)
	if proc.returncode != 0:
		err = proc.stderr.decode(errors='replace').strip().splitlines()
		raise SyncError(f"git {args[0]} failed in {tree}: {err[-1] if err else proc.returncode}")
	return proc.stdout


def _state(tree: str) -> str:
	return os.path.join(tree, '.git', STATE)


def _read_json(path: str, default):
	try:
		with open(path, encoding='utf-8') as f:
			return json.load(f)
	except FileNotFoundError:
		return default


def _write_atomic(path: str, data: bytes, mode: int = 0o644) -> None:
	tmp = path + TMP_SUFFIX
	with open(tmp, 'wb') as f:
		f.write(data)
	os.chmod(tmp, mode)
	os.replace(tmp, path)


def _write_json(path: str, obj) -> None:
	_write_atomic(path, (json.dumps(obj, indent=1, sort_keys=True) + '\n').encode())


def sha_file(path: str) -> Optional[str]:
	try:
		with open(path, 'rb') as f:
			return hashlib.sha256(f.read()).hexdigest()
	except FileNotFoundError:
		return None


# ---------------------------------------------------------------- the tree

def tree_version(tree: str) -> Optional[str]:
	"""The package version the tree was unpacked from, or None."""
	try:
		with open(os.path.join(_state(tree), 'version'), encoding='utf-8') as f:
			return f.read().strip()
	except FileNotFoundError:
		return None


def unpack(tree: str, tarball: str, version: str) -> None:
	"""Unpack tarball into tree afresh and commit it as the pristine base.

	The new tree is made beside the old one and swapped in by rename, so
	an unpack killed half-way leaves either the old tree or none.
	"""
	new, old = tree + '.new', tree + '.old'
	for stale in (new, old):
		shutil.rmtree(stale, ignore_errors=True)
	os.makedirs(new)
	# -m: files get the unpack time, newer than any object built from an
	# older tree, so that a point release rebuilds what it changed.
	subprocess.run(['tar', '-xf', tarball, '-m', '--strip-components=1',
			'-C', new], check=True)
	env = dict(os.environ, GIT_AUTHOR_NAME=STATE, GIT_AUTHOR_EMAIL='none',
		   GIT_COMMITTER_NAME=STATE, GIT_COMMITTER_EMAIL='none')
	for cmd in (['init', '-q'],
		    ['config', 'core.looseCompression', '0'],
		    ['config', 'gc.auto', '0'],
		    ['add', '-A', '-f'],
		    ['commit', '-q', '--no-verify', '-m', f'pristine {version}']):
		subprocess.run(['git', '-C', new, *cmd], check=True, env=env,
			       stdout=subprocess.DEVNULL)
	os.makedirs(_state(new))
	with open(os.path.join(_state(new), 'version'), 'w', encoding='utf-8') as f:
		f.write(version + '\n')
	if os.path.exists(tree):
		os.rename(tree, old)
	os.rename(new, tree)
	shutil.rmtree(old, ignore_errors=True)


def pristine(tree: str, paths: Iterable[str]) -> Dict[str, Content]:
	"""Content of paths in the pristine commit (data None where absent)."""
	paths = sorted(set(paths))
	if not paths:
		return {}
	modes: Dict[str, int] = {}
	for rec in _git(tree, 'ls-tree', '-z', 'HEAD', '--', *paths).split(b'\0'):
		if rec:
			meta, _, name = rec.partition(b'\t')
			modes[name.decode()] = 0o755 if meta.startswith(b'100755') else 0o644
	out = _git(tree, 'cat-file', '--batch',
		   data=''.join(f'HEAD:{p}\n' for p in paths).encode())
	result: Dict[str, Content] = {}
	pos = 0
	for p in paths:
		nl = out.index(b'\n', pos)
		header = out[pos:nl].split()
		pos = nl + 1
		if header[-1] == b'missing':
			result[p] = Content(None)
			continue
		size = int(header[2])
		blob = header[1] == b'blob' and p in modes
		result[p] = Content(out[pos:pos + size] if blob else None, modes.get(p, 0o644))
		pos += size + 1
	return result


def changed_paths(tree: str) -> Set[str]:
	"""Tracked paths whose content is not the pristine one."""
	out = _git(tree, 'diff', '--name-only', '--no-renames', '-z')
	return {p.decode() for p in out.split(b'\0') if p}


# ---------------------------------------------------------- the overlay

def overlay_files(repo: str, dirs: Iterable[str]) -> Dict[str, Content]:
	"""Every file under the overlay directories of the repo."""
	files: Dict[str, Content] = {}
	for d in dirs:
		top = os.path.join(repo, d)
		for root, subdirs, names in os.walk(top):
			subdirs.sort()
			for name in sorted(names):
				path = os.path.join(root, name)
				rel = os.path.relpath(path, repo)
				if os.path.islink(path) or not os.path.isfile(path):
					raise SyncError(f'overlay file {rel} is not a regular file')
				with open(path, 'rb') as f:
					data = f.read()
				mode = 0o755 if os.stat(path).st_mode & 0o100 else 0o644
				files[rel] = Content(data, mode)
	return files


def read_series(series_dir: str, common_dir: Optional[str] = None) -> List[str]:
	"""The patch files of a quilt series, in order.

	A name is looked up beside the series file, then in common_dir (the
	patches every base shares, e.g. patches/common/); a name in both
	places is an error, so that a shared patch has one copy.
	"""
	series = os.path.join(series_dir, 'series')
	if not os.path.exists(series):
		return []
	patches = []
	with open(series, encoding='utf-8') as f:
		for n, line in enumerate(f, 1):
			words = line.split('#', 1)[0].split()
			if not words:
				continue
			if words[1:] not in ([], ['-p1']):
				raise SyncError(f'{series}:{n}: only -p1 patches are supported')
			found = [path for path in (os.path.join(d, words[0])
						   for d in (series_dir, common_dir) if d)
				 if os.path.isfile(path)]
			if not found:
				raise SyncError(f'{series}:{n}: {words[0]} does not exist')
			if len(found) > 1:
				raise SyncError(f'{series}:{n}: {words[0]} is in both {series_dir} and '
						f'{common_dir}: keep it in one place')
			patches.append(found[0])
	return patches


_DIFF_FILE = re.compile(rb'^(---|\+\+\+) (\S+)')


def patch_paths(patch: str) -> List[str]:
	"""The tree paths a -p1 patch touches."""
	with open(patch, 'rb') as f:
		return paths_of_patch(f.read())


def paths_of_patch(text: bytes) -> List[str]:
	"""The tree paths a -p1 patch's text touches."""
	paths: List[str] = []
	for line in text.splitlines():
		m = _DIFF_FILE.match(line)
		if not m or m.group(2) == b'/dev/null':
			continue
		name = m.group(2).decode().split('/', 1)
		if len(name) == 2 and name[1] not in paths:
			paths.append(name[1])
	return paths


def _patch_error(patch: str, output: str) -> str:
	"""One line naming the patch and the file it failed on."""
	current, reason = '?', 'does not apply'
	for line in output.splitlines():
		m = re.match(r'(?:checking|patching) file (.+)', line)
		if m:
			current = m.group(1).strip("'")
		elif 'FAILED' in line and 'hunk' in line.lower():
			reason = line.strip().rstrip('.') if line.startswith('Hunk') else reason
			break
		elif "can't find file" in line:
			reason = 'the file does not exist'
			break
		elif 'previously applied' in line:
			reason = 'already applied (reversed or previously applied patch)'
			break
	return f'{os.path.basename(patch)} does not apply to {current}: {reason}'


def apply_series(base: Dict[str, Content], patches: List[str]) -> Dict[str, Content]:
	"""Apply patches in a scratch directory laid with base; return results."""
	with tempfile.TemporaryDirectory(prefix='kernel-overlay-') as scratch:
		for path, c in base.items():
			if c.data is not None:
				dest = os.path.join(scratch, path)
				os.makedirs(os.path.dirname(dest), exist_ok=True)
				with open(dest, 'wb') as f:
					f.write(c.data)
		for patch in patches:
			for dry in (True, False):
				cmd = ['patch', '-p1', '--batch', '--forward', '--fuzz=0',
				       '--no-backup-if-mismatch', '--reject-file=-',
				       '-d', scratch, '-i', os.path.abspath(patch)]
				proc = subprocess.run(cmd + (['--dry-run'] if dry else []),
						      capture_output=True, text=True, check=False)
				if proc.returncode != 0:
					raise SyncError(_patch_error(patch, proc.stdout + proc.stderr))
		result = {}
		for path, c in base.items():
			dest = os.path.join(scratch, path)
			if os.path.exists(dest):
				with open(dest, 'rb') as f:
					result[path] = Content(f.read(), c.mode)
			else:
				result[path] = Content(None)
		return result


# ---------------------------------------------------------------- the sync

def _current(tree: str, path: str) -> Tuple[Optional[bytes], int]:
	full = os.path.join(tree, path)
	try:
		with open(full, 'rb') as f:
			data = f.read()
	except FileNotFoundError:
		return None, 0
	return data, 0o755 if os.stat(full).st_mode & 0o100 else 0o644


def plan(tree: str, overlay: Dict[str, Content], patches: List[str],
	 force: bool = False) -> Plan:
	"""Work out every write of a sync, refusing on bad input."""
	state = _state(tree)
	manifest: Dict[str, Optional[str]] = _read_json(os.path.join(state, 'manifest.json'), {})
	journal: List[str] = _read_json(os.path.join(state, 'journal.json'), {}).get('paths', [])

	touched: Dict[str, str] = {}
	for patch in patches:
		for path in patch_paths(patch):
			if path in overlay:
				raise SyncError(f'{path} is an overlay file and is patched by '
						f'{os.path.basename(patch)}: keep it in one place')
			touched.setdefault(path, patch)

	# Every path whose content is not pristine must be one we wrote.
	edited = changed_paths(tree)
	known = set(manifest) | set(journal)
	dirty = sorted(edited - known)
	for path in sorted(set(manifest) - set(journal)):
		if sha_file(os.path.join(tree, path)) != manifest[path]:
			dirty.append(path)
	if dirty and not force:
		more = f' and {len(dirty) - 1} more' if len(dirty) > 1 else ''
		raise SyncError(f'tree is dirty: {dirty[0]}{more} changed outside the sync '
				'(make sync FORCE=1 resets it)')

	managed = set(overlay) | set(touched) | known | set(dirty)
	base = pristine(tree, managed)
	desired = dict(base)
	desired.update(overlay)
	if patches:
		desired.update(apply_series({p: base[p] for p in touched}, patches))

	result = Plan()
	for path in sorted(managed):
		want = desired[path]
		if path in overlay or path in touched:
			if want.data != base[path].data or want.mode != base[path].mode:
				result.manifest[path] = want.sha()
		data, mode = _current(tree, path)
		if data != want.data or (data is not None and mode != want.mode):
			result.writes[path] = want
	return result


def _remove_empty_parents(tree: str, path: str) -> None:
	parent = os.path.dirname(path)
	while parent:
		full = os.path.join(tree, parent)
		if os.path.isdir(full) and not os.listdir(full) and \
		   not _git(tree, 'ls-tree', '-d', 'HEAD', '--', parent).strip():
			os.rmdir(full)
			parent = os.path.dirname(parent)
		else:
			break


def execute(tree: str, p: Plan) -> None:
	"""Carry out a plan: journal first, then the writes, then the manifest."""
	state = _state(tree)
	journal = os.path.join(state, 'journal.json')
	old = _read_json(journal, {}).get('paths', [])
	if p.writes:
		_write_json(journal, {'paths': sorted(set(old) | set(p.writes))})
	for path, c in sorted(p.writes.items()):
		full = os.path.join(tree, path)
		if c.data is None:
			if os.path.lexists(full):
				os.unlink(full)
			_remove_empty_parents(tree, path)
			continue
		os.makedirs(os.path.dirname(full), exist_ok=True)
		_write_atomic(full, c.data, c.mode)
	manifest = os.path.join(state, 'manifest.json')
	if _read_json(manifest, None) != p.manifest:
		_write_json(manifest, p.manifest)
	for path in old:
		tmp = os.path.join(tree, path + TMP_SUFFIX)
		if os.path.exists(tmp):
			os.unlink(tmp)
	if os.path.exists(journal):
		os.unlink(journal)


@dataclass
class Source:
	"""Where a tree comes from: a tarball and the package version."""
	tarball: Optional[str]
	version: Optional[str]
	package: str = 'linux-source'


def sync(tree: str, source: Source, overlay: Dict[str, Content],
	 patches: List[str], dry_run: bool = False, force: bool = False) -> Plan:
	"""Bring tree to pristine + overlay + series; return what was done."""
	if not source.version or not source.tarball:
		raise SyncError(f'{source.package} is not installed (make setup installs it)')
	if not os.path.isfile(source.tarball):
		raise SyncError(f'{source.tarball} of {source.package} is missing; reinstall the package')
	os.makedirs(os.path.dirname(tree), exist_ok=True)
	with open(tree + '.lock', 'w', encoding='utf-8') as lock:
		fcntl.flock(lock, fcntl.LOCK_EX)
		if tree_version(tree) != source.version:
			if dry_run:
				return Plan(unpack=True)
			unpack(tree, source.tarball, source.version)
		result = plan(tree, overlay, patches, force)
		if not dry_run:
			execute(tree, result)
		return result


def tree_key(tree: str) -> str:
	"""A hash of the tree's content: the package version, every change to
	a tracked file (git diff, which only reads files whose stat changed)
	and every file the sync manages. Any edit, by the sync or by hand, of
	a tracked or managed file changes it."""
	h = hashlib.sha256()
	h.update((tree_version(tree) or '').encode() + b'\0')
	h.update(_git(tree, 'diff', '--no-ext-diff', '--no-renames', '--binary'))
	manifest = _read_json(os.path.join(_state(tree), 'manifest.json'), {})
	for path in sorted(manifest):
		h.update(b'\0' + path.encode() + b'\0' + (sha_file(os.path.join(tree, path)) or '').encode())
	return h.hexdigest()
