# SPDX-License-Identifier: GPL-2.0
"""Mutation targets: the functions the changes touch, and the suites that check them.

kunit/mutation/targets lists one target per line: a file of the tree, a
function defined in it, the kunit.py filter glob of the suites that
check it, and, when not every cell has it, the bases and arches that
do (comma-separated, in one word: 6.12, arm64, 6.12,arm64): an arch
driver's glue is a target of its arch only. A function is a target when a seed change or one of
the project's patches adds or changes it, or when a suite checks what
it hands back.

The functions a series changes are found in the synced tree: git diff
of the tree against its one commit (the package content) gives the
changed lines of each upstream C file, and libclang (Debian's
python3-clang, fed the flags of the cell's compile_commands.json) gives
the extent of each function definition. kunit/tests/test_targets.py
fails when a changed function is not a target, or a target is not
defined where the file says.
"""

import functools
import os
import re
import shlex
import subprocess
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Set, Tuple

import common

TARGETS = os.path.join(common.REPO, 'kunit', 'mutation', 'targets')


@dataclass(frozen=True)
class Target:
	"""One function of the tree that mutants may change."""
	path: str
	function: str
	suites: str
	kernels: Tuple[str, ...] = ()	# empty: every base
	arches: Tuple[str, ...] = ()	# empty: every arch

	def on(self, kernel: str, arch: Optional[str] = None) -> bool:
		"""A target of @kernel (and of @arch, when given)."""
		return ((not self.kernels or kernel in self.kernels) and
			(arch is None or not self.arches or arch in self.arches))


@dataclass
class Targets:
	"""A targets file: the targets, and the files kept out with why."""
	targets: List[Target]
	exempt: Dict[str, str]


def parse(text: str, where: str = TARGETS) -> Targets:
	"""The targets of a targets file's text; a bad line is a UsageError."""
	out = Targets([], {})
	for n, line in enumerate(text.splitlines(), 1):
		line = line.split('#', 1)[0].strip()
		if not line:
			continue
		words = line.split()
		if words[0] == '!':
			if len(words) < 3:
				raise common.UsageError(f'{where}:{n}: want "! file reason"')
			out.exempt[words[1]] = ' '.join(words[2:])
			continue
		if len(words) not in (3, 4) or not re.fullmatch(r'[A-Za-z_]\w*', words[1]):
			raise common.UsageError(f'{where}:{n}: want "file function suites '
						'[bases,arches]"')
		where_ = words[3].split(',') if len(words) == 4 else []
		arches = tuple(w for w in where_ if w in common.ARCHES)
		kernels = tuple(w for w in where_ if w not in arches)
		bad = [w for w in kernels if not re.fullmatch(r'\d+\.\d+', w)]
		if bad:
			raise common.UsageError(f'{where}:{n}: {bad[0]} is no base or arch '
						f'(arches: {", ".join(common.ARCHES)})')
		out.targets.append(Target(words[0], words[1], words[2], kernels, arches))
	return out


def load(path: str = TARGETS) -> Targets:
	with open(path, encoding='utf-8') as f:
		return parse(f.read(), path)


def changed_lines(tree: str) -> Dict[str, List[Tuple[int, int]]]:
	"""Per upstream C file the series changed: the changed line ranges of
	the file as it is now (a pure deletion is the line after it)."""
	out = subprocess.run(['git', '-C', tree, 'diff', '-U0', '--no-color', 'HEAD', '--', '*.c'],
			     capture_output=True, text=True, check=True).stdout
	ranges: Dict[str, List[Tuple[int, int]]] = {}
	path = None
	for line in out.splitlines():
		if line.startswith('+++ '):
			path = line[6:] if line.startswith('+++ b/') else None
		elif line.startswith('@@') and path:
			m = re.match(r'@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@', line)
			start, count = int(m.group(1)), int(m.group(2) or 1)
			ranges.setdefault(path, []).append((start, start + max(count, 1) - 1))
	return ranges


def compile_flags(build: str, path: str) -> List[str]:
	"""The include and define flags kbuild compiled @path with in @build,
	from the object's .cmd file; none for a file the config leaves out."""
	base = os.path.splitext(path)[0]
	cmd = os.path.join(build, os.path.dirname(base), '.' + os.path.basename(base) + '.o.cmd')
	try:
		with open(cmd, encoding='utf-8') as f:
			line = f.readline()
	except FileNotFoundError:
		return []
	return _keep(shlex.split(line.split(':=', 1)[1]), build) if ':=' in line else []


def _keep(args: List[str], directory: str) -> List[str]:
	keep: List[str] = []
	it = iter(args)
	for a in it:
		if a in ('-include', '-isystem', '-I'):
			v = next(it, '')
			keep += [a, v if os.path.isabs(v) else os.path.join(directory, v)]
		elif a.startswith('-I'):
			v = a[2:]
			keep.append('-I' + (v if os.path.isabs(v) else os.path.join(directory, v)))
		elif a.startswith(('-D', '-U', '-std=')) or a == '-nostdinc':
			keep.append(a)
	return keep


def definitions(path: str, flags: Iterable[str]) -> Dict[str, Tuple[int, int]]:
	"""The function definitions of C file @path: name -> (first, last) line."""
	return dict(_definitions(path, tuple(flags), os.stat(path).st_mtime_ns))


@functools.lru_cache(maxsize=None)
def _definitions(path: str, flags: Tuple[str, ...], mtime: int) -> Tuple:
	"""definitions(), parsed once per file version (changed_functions() and
	missing() both read the changed files)."""
	del mtime	# part of the cache key only
	import clang.cindex as ci	# pylint: disable=import-outside-toplevel

	index = ci.Index.create()
	tu = index.parse(path, args=list(flags) + ['-w', '-ferror-limit=0'])
	out = {}
	for cur in tu.cursor.get_children():
		if (cur.kind == ci.CursorKind.FUNCTION_DECL and cur.is_definition() and
		    cur.location.file and os.path.samefile(cur.location.file.name, path)):
			out[_name(cur)] = (cur.extent.start.line, cur.extent.end.line)
	return tuple(out.items())


def _name(cur) -> str:
	"""A definition's name; a SYSCALL_DEFINEn(name, ...) is sys_name,
	whether the macro was expanded (__do_sys_name, ...) or not."""
	m = re.fullmatch(r'__(?:se|do|\w+?)_((?:compat_)?sys_\w+)', cur.spelling)
	if m:
		return m.group(1)
	if re.fullmatch(r'(COMPAT_)?SYSCALL_DEFINE\d', cur.spelling):
		words = [t.spelling for t in cur.get_tokens()][:4]
		if len(words) > 2 and words[1] == '(':
			return ('compat_sys_' if words[0].startswith('COMPAT') else 'sys_') + words[2]
	return cur.spelling


def changed_functions(tree: str, build: str) -> Dict[str, Set[str]]:
	"""Per upstream C file of @tree: the functions its series changed."""
	out: Dict[str, Set[str]] = {}
	for path, ranges in changed_lines(tree).items():
		defs = definitions(os.path.join(tree, path), compile_flags(build, path))
		hit = {name for name, (a, b) in defs.items()
		       if any(lo <= b and hi >= a for lo, hi in ranges)}
		if hit:
			out[path] = hit
	return out


def missing(kernel: str, tree: str, build: str, targets: Optional[Targets] = None,
	    arch: Optional[str] = None) -> Tuple[List[str], List[str]]:
	"""(functions the series changed that are not targets, targets not
	defined where they say), each as file:function, for @kernel's tree
	as @build (of @arch: its targets only) compiles it."""
	targets = load() if targets is None else targets
	mine = [t for t in targets.targets if t.on(kernel, arch)]
	names = {(t.path, t.function) for t in mine}
	untargeted = sorted(f'{p}:{fn}' for p, fns in changed_functions(tree, build).items()
			    if p not in targets.exempt for fn in fns if (p, fn) not in names)
	gone = []
	by_file: Dict[str, List[Target]] = {}
	for t in mine:
		by_file.setdefault(t.path, []).append(t)
	for path, ts in sorted(by_file.items()):
		full = os.path.join(tree, path)
		defs = definitions(full, compile_flags(build, path)) if os.path.exists(full) else {}
		gone += [f'{path}:{t.function}' for t in ts if t.function not in defs]
	return untargeted, gone
