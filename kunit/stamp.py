# SPDX-License-Identifier: GPL-2.0
"""Whether a build dir holds the kernel of the inputs it is asked for.

After a build that booted, the runner writes a stamp into the build dir:
a hash of everything the build reads (the tree's content, the kunitconfig
files, the build's arguments, the compilers) and what the build left
(its .config and vmlinux). When the same inputs come again and the build
dir still holds what the stamp says, kunit.py exec boots the kernel
without kbuild's walk of the tree; any difference at all (a file, a
config line, a package update of a compiler, a build dir touched by
hand) falls back to the normal build.
"""

import hashlib
import json
import os
import shutil
from typing import Iterable, Optional

import overlay

NAME = '.kernel-overlay-stamp'


def _tool(name: str) -> str:
	path = shutil.which(name)
	if not path:
		return f'{name}: none'
	real = os.path.realpath(path)
	st = os.stat(real)
	return f'{name}: {real} {st.st_size} {st.st_mtime_ns}'


def inputs(tree: Optional[str], configs: Iterable[str], args: Iterable[str],
	   tools: Iterable[str]) -> str:
	"""The hash of what a build reads (tree None: all of it but the tree)."""
	h = hashlib.sha256(overlay.tree_key(tree).encode() if tree is not None else b'')
	for path in configs:	# their content, wherever the repo is cloned
		h.update(f'\0config {overlay.sha_file(path)}'.encode())
	for x in args:
		h.update(f'\0arg {x}'.encode())
	for t in tools:
		h.update(f'\0{_tool(t)}'.encode())
	return h.hexdigest()


def _outputs(build: str) -> dict:
	vmlinux = os.path.join(build, 'vmlinux')
	try:
		st = os.stat(vmlinux)
		image = [st.st_size, st.st_mtime_ns]
	except FileNotFoundError:
		image = None
	return {'config': overlay.sha_file(os.path.join(build, '.config')), 'vmlinux': image}


def _read(build: str) -> dict:
	try:
		with open(os.path.join(build, NAME), encoding='utf-8') as f:
			return json.load(f)
	except (FileNotFoundError, json.JSONDecodeError):
		return {}


def current(build: str, key: str) -> bool:
	"""The build dir holds the kernel of key, as its last build left it."""
	old = _read(build)
	return bool(old) and old.get('inputs') == key and old.get('outputs') == _outputs(build) \
		and old['outputs']['vmlinux'] is not None


def objects(build: str) -> Optional[int]:
	"""The number of objects the last stamped build of this dir had."""
	return _read(build).get('objects')


def count_objects(build: str, since: float = 0.0) -> int:
	n = 0
	for root, _, names in os.walk(build):
		for name in names:
			if name.endswith('.o'):
				try:
					if os.stat(os.path.join(root, name)).st_mtime >= since:
						n += 1
				except FileNotFoundError:
					pass
	return n


def write(build: str, key: str) -> None:
	data = {'inputs': key, 'outputs': _outputs(build), 'objects': count_objects(build)}
	tmp = os.path.join(build, NAME + '.tmp')
	with open(tmp, 'w', encoding='utf-8') as f:
		json.dump(data, f)
	os.replace(tmp, os.path.join(build, NAME))


def forget(build: str) -> None:
	try:
		os.unlink(os.path.join(build, NAME))
	except FileNotFoundError:
		pass
