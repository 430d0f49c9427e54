# SPDX-License-Identifier: GPL-2.0
"""make check's share of make mutation, and the record of whole runs.

  scores      kunit/mutation/scores: per cell and target function, the
              last whole run of its mutants (make mutation RECORD=1):
              mutants, killed, survived, equivalent, not run, seconds
  base()      the newest commit on HEAD's first-parent line that
              touched no target: it changed no patch that patches a
              target's file, and no target file of the overlay
  changed()   the target functions whose text in the synced tree is not
              their text at that commit (the series of the commit laid
              over the pristine files, as the sync would)
  pick()      the share: every mutant of a changed function, and a
              sample of the mutants of the cleared functions (a score
              line with no survivor), drawn by the commit id

A function that has no whole run with no survivor yet is not sampled:
it has known survivors, which make mutation TARGET= lists. Once it is
cleared and recorded, every commit's sample may draw it, and a change to
it runs all of its mutants.

make check's share of the kept reverts (kunit/mutate --share) is drawn
the same way, by directory instead of function, since a suite lives
beside the code it tests:

  kept_base() the newest commit that touched no kept revert and nothing
              in a directory that one patches
  kept_pick() every kept revert that changed since, or whose directories
              hold a file that changed (the overlay's, or one a patch of
              the series patches), and a sample of the others drawn by
              the commit id
"""

import os
import random
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Callable, Dict, Iterable, List, Optional, Set, Tuple

import common
import mutagen
import overlay
import targets

SCORES = os.path.join(common.REPO, 'kunit', 'mutation', 'scores')
SAMPLE = 16	# mutants drawn by the commit id, besides the changed functions'
SAMPLE_KEPT = 6	# kept reverts drawn by the commit id, besides the changed ones
WALK = 500	# commits looked back for one that touched no target

Key = Tuple[str, str]	# (file, function)


@dataclass(frozen=True)
class Score:
	"""The last whole run of one target function's mutants in one cell."""
	cell: str
	path: str
	function: str
	mutants: int
	killed: int
	survived: int
	equivalent: int
	not_run: int
	seconds: int

	def line(self) -> str:
		return '\t'.join(str(x) for x in (self.cell, self.path, self.function, self.mutants,
						   self.killed, self.survived, self.equivalent,
						   self.not_run, self.seconds))

	@property
	def cleared(self) -> bool:
		return self.survived == 0 and self.killed > 0


HEADER = """\
# The last whole make mutation run of each target function, per cell,
# written by make mutation RECORD=1 (kunit/share.py). make check samples
# the mutants of the functions with no survivor here.
# cell	file	function	mutants	killed	survived	equivalent	not-run	seconds
"""


def load_scores(path: str = SCORES) -> Dict[Tuple[str, str, str], Score]:
	"""(cell, file, function): its score; a bad line is a UsageError."""
	out: Dict[Tuple[str, str, str], Score] = {}
	if not os.path.exists(path):
		return out
	with open(path, encoding='utf-8') as f:
		for n, line in enumerate(f, 1):
			words = line.split('#', 1)[0].split()
			if not words:
				continue
			if len(words) != 9 or not all(w.isdigit() for w in words[3:]):
				raise common.UsageError(f'{path}:{n}: want "cell file function mutants killed '
							'survived equivalent not-run seconds"')
			s = Score(*words[:3], *(int(w) for w in words[3:]))
			if s.killed + s.survived + s.equivalent + s.not_run != s.mutants:
				raise common.UsageError(f'{path}:{n}: the counts do not add up to {s.mutants}')
			out[(s.cell, s.path, s.function)] = s
	return out


def record(new: Iterable[Score], path: str = SCORES) -> None:
	"""Replace the lines of @new's functions in the scores file."""
	scores = load_scores(path)
	for s in new:
		scores[(s.cell, s.path, s.function)] = s
	with open(path, 'w', encoding='utf-8') as f:
		f.write(HEADER)
		for key in sorted(scores):
			f.write(scores[key].line() + '\n')


def cleared(cell: str, scores: Dict[Tuple[str, str, str], Score]) -> Set[Key]:
	return {(p, fn) for (c, p, fn), s in scores.items() if c == cell and s.cleared}


# ------------------------------------------------------------ what changed

def _git(repo: str, *args: str) -> bytes:
	return subprocess.run(['git', '-C', repo, *args], capture_output=True, check=True).stdout


def head(repo: str) -> str:
	return _git(repo, 'rev-parse', 'HEAD').decode().strip()


def _show(repo: str, rev: str, path: str) -> Optional[bytes]:
	p = subprocess.run(['git', '-C', repo, 'show', f'{rev}:{path}'], capture_output=True,
			   check=False)
	return p.stdout if p.returncode == 0 else None


Hit = Callable[[str], bool]	# whether a path (repo or tree) is one watched


def _is_patch(name: str) -> bool:
	return name.startswith('patches/') and name.endswith('.patch')


def touches(repo: str, commit: str, hit: Hit) -> bool:
	"""Whether @commit changed a path that @hit watches, or a patch that
	patches one (before or after it)."""
	names = _git(repo, 'diff-tree', '--no-commit-id', '--name-only', '-r', '--root',
		     commit).decode().split()
	parent = commit + '^'
	for name in names:
		if hit(name):
			return True
		if _is_patch(name):
			for rev in (commit, parent):
				text = _show(repo, rev, name)
				if text is not None and any(map(hit, overlay.paths_of_patch(text))):
					return True
	return False


def base(repo: str, hit: Hit) -> Optional[str]:
	"""The newest commit of HEAD's first-parent line that touched no path
	@hit watches (HEAD itself when it touched none); None when the last
	WALK commits all did."""
	for commit in _git(repo, 'rev-list', '--first-parent', f'--max-count={WALK}',
			   'HEAD').decode().split():
		if not touches(repo, commit, hit):
			return commit
	return None


def files_at(repo: str, commit: str, version: str, tree: str,
	     paths: Iterable[str]) -> Dict[str, Optional[bytes]]:
	"""The text of @paths in base @version's @tree as the sync of @commit
	lays it: the pristine files, the commit's overlay, its series applied."""
	paths = set(paths)
	with tempfile.TemporaryDirectory(prefix='kernel-overlay-share-') as d:
		archive = _git(repo, 'archive', '--format=tar', commit, 'patches')
		subprocess.run(['tar', '-x', '-C', d], input=archive, check=True)
		patches = overlay.read_series(os.path.join(d, 'patches', version),
					      os.path.join(d, 'patches', 'common'))
		touched = set().union(*(overlay.patch_paths(p) for p in patches)) if patches else set()
		content = overlay.pristine(tree, touched | paths)
		for p in paths:
			mine = _show(repo, commit, p)
			if mine is not None:
				content[p] = overlay.Content(mine)
		if patches:
			content.update(overlay.apply_series({p: content[p] for p in touched}, patches))
	return {p: content[p].data for p in paths}


def _texts(path: str, flags: List[str]) -> Dict[str, bytes]:
	"""Function name: its definition's text, in C file @path."""
	with open(path, 'rb') as f:
		lines = f.read().splitlines(True)
	return {name: b''.join(lines[a - 1:b])
		for name, (a, b) in targets.definitions(path, flags).items()}


def changed(repo: str, commit: str, version: str, tree: str, build: str,
	    ts: List[targets.Target]) -> List[targets.Target]:
	"""The targets of @ts whose definition in the synced @tree differs
	from the one the sync of @commit lays (or that it did not have);
	@build gives the flags each file is compiled with."""
	then = files_at(repo, commit, version, tree, {t.path for t in ts})
	out = []
	for path in sorted({t.path for t in ts}):
		full = os.path.join(tree, path)
		with open(full, 'rb') as f:
			if f.read() == then[path]:
				continue
		flags = targets.compile_flags(build, path)
		now = _texts(full, flags)
		old: Dict[str, bytes] = {}
		if then[path] is not None:
			# the old text beside nothing of the tree: its own
			# directory's headers come through -I
			with tempfile.TemporaryDirectory(prefix='kernel-overlay-share-') as d:
				copy = os.path.join(d, os.path.basename(path))
				with open(copy, 'wb') as f:
					f.write(then[path])
				old = _texts(copy, flags + ['-I' + os.path.dirname(full)])
		out += [t for t in ts if t.path == path and now.get(t.function) != old.get(t.function)]
	return out


# --------------------------------------------------------------- the share

def pick(found: List[Tuple[mutagen.Mutant, targets.Target]], changed_keys: Set[Key],
	 pool: Set[Key], seed: str, equivalent: Iterable[str] = (),
	 n: int = SAMPLE) -> List[Tuple[mutagen.Mutant, targets.Target]]:
	"""Every mutant of @changed_keys, and @n of the others of @pool drawn
	by @seed (the commit id); the equivalent ones are never drawn."""
	skip = set(equivalent)
	mine = [(m, t) for m, t in found if (t.path, t.function) in changed_keys]
	rest = sorted(((m, t) for m, t in found if (t.path, t.function) in pool - changed_keys
		       and m.id not in skip), key=lambda x: x[0].id)
	drawn = random.Random(seed).sample(rest, min(n, len(rest)))
	return mine + sorted(drawn, key=lambda x: x[0].id)


# ------------------------------------------------- the kept reverts' share

@dataclass(frozen=True)
class Kept:
	"""A kept revert as the share sees it: its patch (a repo path) and
	the directories of the files it patches."""
	name: str
	patch: str
	dirs: Tuple[str, ...]


def kept(name: str, path: str, repo: str = common.REPO) -> Kept:
	with open(path, 'rb') as f:
		dirs = sorted({os.path.dirname(p) for p in overlay.paths_of_patch(f.read())})
	return Kept(name, os.path.relpath(path, repo), tuple(dirs))


def _kept_hit(ks: List[Kept]) -> Hit:
	dirs = {d for k in ks for d in k.dirs}
	patches = {k.patch for k in ks}
	return lambda p: p in patches or os.path.dirname(p) in dirs


def kept_base(repo: str, ks: List[Kept]) -> Optional[str]:
	"""The newest commit that touched no kept revert of @ks and nothing
	in a directory one of them patches."""
	return base(repo, _kept_hit(ks))


def changed_paths(repo: str, commit: str) -> Set[str]:
	"""The paths that differ between @commit and the work tree (new
	files too), and the tree paths a changed patch patches before or
	after."""
	names = set(_git(repo, 'diff', '--name-only', commit).decode().split())
	names |= set(_git(repo, 'ls-files', '--others', '--exclude-standard').decode().split())
	out = set(names)
	for name in names:
		if not _is_patch(name):
			continue
		for text in (_show(repo, commit, name), _read(os.path.join(repo, name))):
			if text is not None:
				out |= set(overlay.paths_of_patch(text))
	return out


def _read(path: str) -> Optional[bytes]:
	try:
		with open(path, 'rb') as f:
			return f.read()
	except FileNotFoundError:
		return None


def kept_pick(ks: List[Kept], paths: Optional[Set[str]], seed: str,
	      n: int = SAMPLE_KEPT) -> Tuple[List[Kept], List[Kept]]:
	"""The kept reverts of @ks that changed or whose directories hold one
	of @paths (None: no base was found, every one), and @n of the others
	drawn by @seed, each list in @ks' order."""
	if paths is None:
		return list(ks), []
	mine = [k for k in ks if k.patch in paths or
		any(os.path.dirname(p) in k.dirs for p in paths)]
	rest = sorted((k for k in ks if k not in mine), key=lambda k: k.name)
	drawn = set(random.Random(seed).sample(rest, min(n, len(rest))))
	return mine, [k for k in ks if k in drawn]
