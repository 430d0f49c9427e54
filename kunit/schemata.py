# SPDX-License-Identifier: GPL-2.0
"""make mutation: the generated mutants of the targets, in one schema kernel.

  plan()      every mutant of the chosen targets (mutagen), numbered from
              1, each file rewritten as one schema (schema.rewrite); the
              first file holds the boot parameter kunit_mutant=; the
              whole is a -p1 patch over the series
  compile     each schema file is built alone in the mutation build dir
              (kbuild's single-object target); a mutant whose choice
              does not compile (a constant expression, a static
              initializer, a type the choice cannot have) is left out
              with gcc's message, and the file is rewritten without it
  run         the schema kernel boots once with no mutant, where it must
              give every case the normal cell gave; then once per mutant,
              kunit_mutant=<n> panic=-1, with its target's suites: the
              mutant is killed when a case fails (the boot ends there),
              the kernel crashes (a panic ends the boot at once) or it
              hangs
  report      a table per function, every survivor with its place and
              diff, the closing line; results/mutation-<cell>.json keeps
              the kill matrix

The schema goes through the sync as an extra patch after the series, like
a kept revert, so that an interrupted run is undone by the next sync.
"""

import concurrent.futures
import dataclasses
import difflib
import hashlib
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Tuple

import common
import mutagen
import mutants
import registered
import results
import runner
import schema
import share
import targets

FLAVOUR = runner.MUTATION
# The choice, at the top of each schema file (its uses expand where the
# file's own includes have brought READ_ONCE() and unlikely()), and the
# boot parameter, at the end of the first C file (a header would define
# it in each file that includes it; with headers only, in DEFINE_HOST,
# which every cell builds): with no kunit_mutant= (0) every place takes
# the original.
HEADER = (b'extern unsigned int kunit_mutant;\n'
	  b'#define ' + schema.CHOOSE.encode() + b'(n) unlikely(READ_ONCE(kunit_mutant) == (n))\n')
DEFINE = (b'\n#include <linux/moduleparam.h>\n'
	  b'unsigned int kunit_mutant;\n'
	  b'core_param(kunit_mutant, kunit_mutant, uint, 0444);\n')
DEFINE_HOST = 'lib/kunit/test.c'
EQUIVALENT = os.path.join(common.REPO, 'kunit', 'mutation', 'equivalent')


@dataclass
class Entry:
	"""A mutant compiled into the schema kernel, and its number there."""
	number: int
	mutant: mutagen.Mutant
	target: targets.Target


@dataclass
class Plan:
	"""The schema kernel of one cell: its mutants, those left out with
	why, and the rewritten files."""
	entries: List[Entry] = field(default_factory=list)
	left_out: Dict[str, Tuple[mutagen.Mutant, targets.Target, str]] = field(default_factory=dict)
	files: Dict[str, bytes] = field(default_factory=dict)	# path: rewritten text
	originals: Dict[str, bytes] = field(default_factory=dict)

	def patch(self) -> str:
		"""The schema as a -p1 patch over the synced tree."""
		out = []
		for path in sorted(self.files):
			a = self.originals[path].decode('latin-1').splitlines(True)
			b = self.files[path].decode('latin-1').splitlines(True)
			out += difflib.unified_diff(a, b, f'a/{path}', f'b/{path}', n=1)
		return ''.join(out)


def chosen(ts: Iterable[targets.Target], kernel: str, want: Optional[str],
	   arch: Optional[str] = None) -> List[targets.Target]:
	"""The targets of @kernel (and @arch); with @want, those of the files
	and functions it names, separated by commas."""
	out = [t for t in ts if t.on(kernel, arch)]
	if not want:
		return out
	names = [x for x in want.split(',') if x]
	for name in names:
		if not any(name in (t.path, t.function) for t in out):
			raise common.UsageError(f"TARGET '{name}' is no target file or function of "
						f'{kernel}{" " + arch if arch else ""} '
						'(kunit/mutation/targets)')
	return [t for t in out if t.path in names or t.function in names]


def only(found: List[Tuple[mutagen.Mutant, targets.Target]],
	 want: str) -> List[Tuple[mutagen.Mutant, targets.Target]]:
	"""The mutants of @found that @want names, separated by commas: each
	by its id or the hash that ends it (a survivor's line prints both)."""
	names = [x for x in want.split(',') if x]
	for name in names:
		if not any(name in (m.id, m.id.rsplit(':', 1)[-1]) for m, _ in found):
			raise common.UsageError(f"MUTANT '{name}' is no mutant of the targets run")
	return [(m, t) for m, t in found if m.id in names or m.id.rsplit(':', 1)[-1] in names]


def generate(tree: str, build: str, ts: List[targets.Target]) -> List[Tuple[mutagen.Mutant, targets.Target]]:
	"""Every mutant of each target, read from the synced tree with the
	flags kbuild compiled its file with in @build."""
	out = []
	for t in ts:
		path = os.path.join(tree, t.path)
		flags = targets.compile_flags(build, t.path)
		for m in mutagen.mutants(path, t.function, flags):
			# ids name the file as the tree does, wherever the tree is
			out.append((dataclasses.replace(m, id=t.path + m.id[len(path):]), t))
	return out


def originals(tree: str, found: List[Tuple[mutagen.Mutant, targets.Target]]) -> Dict[str, bytes]:
	"""The text of each file of @found in the synced tree, before any schema."""
	out = {}
	for _, t in found:
		if t.path not in out:
			with open(os.path.join(tree, t.path), 'rb') as f:
				out[t.path] = f.read()
	if not any(p.endswith('.c') for p in out):
		with open(os.path.join(tree, DEFINE_HOST), 'rb') as f:
			out[DEFINE_HOST] = f.read()
	return out


def rewrite(texts: Dict[str, bytes], found: List[Tuple[mutagen.Mutant, targets.Target]],
	    dropped: Dict[str, str]) -> Plan:
	"""The schema files of @found (their @texts, originals()) less the
	mutants in @dropped (id: why)."""
	plan = Plan()
	by_file: Dict[str, List[Tuple[mutagen.Mutant, targets.Target]]] = {}
	for m, t in found:
		if m.id in dropped:
			plan.left_out[m.id] = (m, t, dropped[m.id])
		else:
			by_file.setdefault(t.path, []).append((m, t))
	first = 1
	host = min([p for p in by_file if p.endswith('.c')] or [DEFINE_HOST])
	for path in sorted(by_file):
		text = texts[path]
		pairs = by_file[path]
		s = schema.rewrite(text, [m for m, _ in pairs], first)
		for m, t in pairs:
			if m.id in s.left_out:
				plan.left_out[m.id] = (m, t, s.left_out[m.id])
			else:
				plan.entries.append(Entry(s.numbers[m.id], m, t))
		first += len(s.numbers)
		plan.originals[path] = text
		plan.files[path] = HEADER + s.text + (DEFINE if path == host else b'')
	if host not in by_file and by_file:
		plan.originals[host] = texts[host]
		plan.files[host] = texts[host] + DEFINE
	plan.entries.sort(key=lambda e: e.number)
	return plan


_CHOICE = re.compile(rb'\(' + schema.CHOOSE.encode() + rb'\((\d+)\) \? ')


def _close(text: bytes, i: int) -> int:
	"""The offset after the parenthesis that closes the one at @i."""
	depth = 0
	for j in range(i, len(text)):
		c = text[j:j + 1]
		if c == b'(':
			depth += 1
		elif c == b')':
			depth -= 1
			if depth == 0:
				return j + 1
	return len(text)


def choices(text: bytes) -> Dict[int, Tuple[int, int]]:
	"""Number: the byte offsets [start, end) of its mutant's side of the
	choice in a schema file's text."""
	out: Dict[int, Tuple[int, int]] = {}
	for m in _CHOICE.finditer(text):
		i = m.end()
		if text.startswith(b'(void)0', i):
			j = i + len(b'(void)0')
		else:
			j = _close(text, i + len(b'(void)') if text.startswith(b'(void)(', i) else i)
		out[int(m.group(1))] = (i, j)
	return out


def choice_lines(text: bytes) -> Dict[int, Tuple[int, int]]:
	"""Number: the first and last line of its mutant's side of the choice."""
	return {n: (text.count(b'\n', 0, a) + 1, text.count(b'\n', 0, b) + 1)
		for n, (a, b) in choices(text).items()}


# gcc's columns in bytes, so that a place is an offset in the file; and a
# choice in an array's bound, which would make the array a VLA with
# another stack layout than the mutant's own, an error that leaves it out
FLAGS = ['-fdiagnostics-column-unit=byte', '-Werror=vla']
_DIAG = re.compile(r'^(?P<path>[^\s:]+):(?P<line>\d+):(?P<col>\d+): '
		   r'(?:error|note: in expansion of macro)')


def failing_numbers(path: str, text: bytes, stderr: str) -> Tuple[Dict[int, str], List[str]]:
	"""The mutants of schema file @path (its @text) whose choices gcc's
	@stderr blames (the innermost choice around each error's place, else
	the first of its line), each with its first error; and the errors no
	choice holds."""
	spans = choices(text)
	starts = [0] + [i + 1 for i, c in enumerate(text) if c == 0x0a]
	blamed: Dict[int, str] = {}
	stray: List[str] = []
	first_error = ''
	for line in stderr.splitlines():
		m = _DIAG.match(line)
		if not m:
			continue
		if ': error:' in line:
			first_error = line.split(': error:', 1)[1].strip()
		if not m.group('path').endswith(path):
			continue
		n = int(m.group('line'))
		at = (starts[n - 1] if n <= len(starts) else len(text)) + int(m.group('col')) - 1
		inside = [(b - a, k) for k, (a, b) in spans.items() if a <= at < b]
		if not inside:
			# A place outside every choice (a declaration whose size or
			# initializer is no longer constant): the first choice of its
			# line; another round finds the next.
			lo = starts[n - 1] if n <= len(starts) else len(text)
			hi = starts[n] if n < len(starts) else len(text)
			inside = [(a, k) for k, (a, b) in spans.items() if a < hi and b > lo]
		if inside:
			blamed.setdefault(min(inside)[1], first_error or line)
		elif ': error:' in line:
			stray.append(line)
	return blamed, stray


def including(build: str, header: str) -> str:
	"""The first object, in path order, whose kbuild dependencies (its
	.<name>.o.cmd) list @header (relative to the tree)."""
	found = []
	for root, _, names in os.walk(build):
		for name in names:
			if not (name.startswith('.') and name.endswith('.o.cmd')):
				continue
			with open(os.path.join(root, name), encoding='utf-8', errors='replace') as f:
				if re.search(r'[ /]' + re.escape(header) + r'\b', f.read()):
					found.append(os.path.relpath(os.path.join(root, name[1:-4]), build))
	if not found:
		raise common.UsageError(f'no object of {build} includes {header}')
	return min(found)


def compile_one(k: common.Kernel, a: common.Arch, tree: str, build: str, path: str,
		jobs: int) -> Tuple[int, str]:
	"""kbuild's single-object target for @path in @build (a header's: the
	first object that includes it): rc, stderr."""
	obj = os.path.splitext(path)[0] + '.o' if not path.endswith('.h') else including(build, path)
	cmd = ['make', f'ARCH={a.name}', f'O={build}', f'-j{jobs}', f'CC=ccache {a.cross_compile}gcc',
	       'HOSTCC=ccache gcc', f'KCFLAGS={" ".join(FLAGS)}', obj]
	if a.cross_compile:
		cmd.append(f'CROSS_COMPILE={a.cross_compile}')
	p = subprocess.run(cmd, cwd=tree, capture_output=True, text=True, errors='replace',
			   check=False)
	return p.returncode, p.stderr


def stale_equivalent(equivalent: Dict[str, str],
		     found: List[Tuple[mutagen.Mutant, targets.Target]]) -> List[str]:
	"""The entries of @equivalent that name a function of @found (file:function:...)
	but none of its mutants."""
	known = {m.id for m, _ in found}
	functions = {f'{t.path}:{t.function}' for _, t in found}
	return sorted(x for x in equivalent if x.rsplit(':', 2)[0] in functions and x not in known)


def load_equivalent(path: str = EQUIVALENT, kernel: Optional[str] = None) -> Dict[str, str]:
	"""kunit/mutation/equivalent: mutant id: why it cannot change behaviour.
	An entry may name the bases it holds on after its id (6.12 or 6.1,6.12):
	a function's text differs between bases, and so do its mutants' ids.
	With @kernel, the entries that hold on it only."""
	out: Dict[str, str] = {}
	if not os.path.exists(path):
		return out
	with open(path, encoding='utf-8') as f:
		for n, line in enumerate(f, 1):
			line = '' if line.lstrip().startswith('#') else line.strip()
			if not line:
				continue
			words = line.split(None, 1)
			if len(words) < 2 or words[0].count(':') < 3:
				raise common.UsageError(f'{path}:{n}: want "file:function:operator:hash '
							'[bases] reason"')
			why = words[1]
			bases = re.match(r'(\d+\.\d+(?:,\d+\.\d+)*)\s+(.*)', why)
			if bases:
				why = bases.group(2)
				if kernel is not None and kernel not in bases.group(1).split(','):
					continue
			out[words[0]] = why
	return out


KILLED, SURVIVED, EQUIVALENT, NOT_RUN = 'killed', 'SURVIVED', 'equivalent', 'not run'


@dataclass
class Outcome:
	"""What became of one mutant: its verdict, the cases that killed it (or
	what the guest did), or why it was not run."""
	mutant: mutagen.Mutant
	target: targets.Target
	verdict: str
	detail: List[str] = field(default_factory=list)
	number: int = 0
	seconds: float = 0.0	# the boots it took


def report(outcomes: List[Outcome]) -> List[str]:
	"""The table per function, the survivors, the closing line."""
	rows: Dict[Tuple[str, str], Dict[str, int]] = {}
	for o in outcomes:
		r = rows.setdefault((o.target.path, o.target.function), {})
		r[o.verdict] = r.get(o.verdict, 0) + 1
	out = [f'{"function":<44} {"mutants":>7} {"killed":>6} {"survived":>8} '
	       f'{"equiv":>5} {"not run":>7} {"score":>6}']
	for (path, fn), r in sorted(rows.items()):
		total = sum(r.values())
		judged = r.get(KILLED, 0) + r.get(SURVIVED, 0)
		score = f'{100 * r.get(KILLED, 0) / judged:.0f} %' if judged else '-'
		out.append(f'{os.path.basename(path) + ":" + fn:<44} {total:>7} {r.get(KILLED, 0):>6} '
			   f'{r.get(SURVIVED, 0):>8} {r.get(EQUIVALENT, 0):>5} {r.get(NOT_RUN, 0):>7} '
			   f'{score:>6}')
	not_run = [o for o in outcomes if o.verdict == NOT_RUN]
	if not_run:
		out.append('not run:')
		out += [f'  {o.mutant.id} ({o.target.path}:{o.mutant.line}): {o.detail[0]}'
			for o in not_run]
	survivors = [o for o in outcomes if o.verdict == SURVIVED]
	if survivors:
		out.append('survivors:')
		out += [f'  {o.target.path}:{o.mutant.line} {o.mutant.operator} '
			f'{o.mutant.diff_line()}  [{o.mutant.id}]' for o in survivors]
	count = {v: sum(1 for o in outcomes if o.verdict == v) for v in (KILLED, SURVIVED, EQUIVALENT)}
	out.append(f'mutation: {count[KILLED]} killed, {count[SURVIVED]} survived, '
		   f'{count[EQUIVALENT]} equivalent')
	return out


def scores(cell: str, outcomes: List[Outcome]) -> List[share.Score]:
	"""The score of each function of @outcomes, for kunit/mutation/scores."""
	by: Dict[Tuple[str, str], List[Outcome]] = {}
	for o in outcomes:
		by.setdefault((o.target.path, o.target.function), []).append(o)
	return [share.Score(cell, path, fn, len(group),
			    *(sum(1 for o in group if o.verdict == v)
			      for v in (KILLED, SURVIVED, EQUIVALENT, NOT_RUN)),
			    round(sum(o.seconds for o in group)))
		for (path, fn), group in sorted(by.items())]


def matrix(cell: str, outcomes: List[Outcome]) -> dict:
	"""results/mutation-<cell>.json: each mutant, its verdict and the
	cases that killed it."""
	return {'cell': cell, 'mutants': [{
		'id': o.mutant.id, 'number': o.number, 'file': o.target.path,
		'function': o.target.function, 'line': o.mutant.line,
		'operator': o.mutant.operator, 'diff': o.mutant.diff_line(),
		'suites': o.target.suites, 'verdict': o.verdict, 'detail': o.detail,
		'seconds': round(o.seconds, 1),
	} for o in outcomes]}


MAX_ROUNDS = 20
# A boot under TCG besides its suites: the cells' kernels reach their
# first suite in about a second of guest time (x86_64 and arm64), so 15 s
# is a wide margin, and what a hanging mutant costs.
BOOT_SECONDS = 15


def schema_in(tree: str, ts: Iterable[targets.Target]) -> bool:
	"""Whether a file of the targets in @tree holds a schema (make mutation
	owns the tree until its next sync)."""
	for path in sorted({t.path for t in ts}):
		try:
			with open(os.path.join(tree, path), 'rb') as f:
				if f.read(len(HEADER)) == HEADER:
					return True
		except FileNotFoundError:
			pass
	return False


def apply_schema(k: common.Kernel, patch: Optional[str]) -> None:
	"""Sync the tree to the series plus the schema patch (None: the series)."""
	mutants.apply(k, mutants.Mutant(patch, 'schema', '', '') if patch else None)


def compile_schema(k: common.Kernel, a: common.Arch, found, jobs: int) -> Plan:
	"""The schema with every mutant whose choice compiles: each file built
	alone, the mutants that gcc blames left out, until all compile."""
	tree, build = common.tree_dir(k), common.build_dir(k, a, FLAVOUR)
	patch = os.path.join(common.cache_dir(), 'mutation', f'{common.cell(k, a)}.patch')
	os.makedirs(os.path.dirname(patch), exist_ok=True)
	dropped: Dict[str, str] = {}
	apply_schema(k, None)
	texts = originals(tree, found)
	for _ in range(MAX_ROUNDS):
		plan = rewrite(texts, found, dropped)
		with open(patch, 'w', encoding='latin-1') as f:
			f.write(plan.patch())
		apply_schema(k, patch)
		by_number = {e.number: e for e in plan.entries}
		more = False
		for path, text in sorted(plan.files.items()):
			rc, err = compile_one(k, a, tree, build, path, 1)
			if rc == 0:
				continue
			blamed, stray = failing_numbers(path, text, err)
			if not blamed:
				raise common.UsageError(f'the schema of {path} does not compile, and no '
							'mutant is to blame:\n' + '\n'.join(stray or
											  err.splitlines()[-20:]))
			for n, why in blamed.items():
				dropped[by_number[n].mutant.id] = f'does not compile as a run-time choice: {why}'
			more = True
		print(f'mutation: {len(plan.entries)} mutants compiled in, {len(plan.left_out)} left out',
		      flush=True)
		if not more:
			return plan
	raise common.UsageError(f'the schema still does not compile after {MAX_ROUNDS} rounds')


class Cell:
	"""What the mutants' boots need to know of the schema kernel: the
	suites it registers and how long each took with no mutant."""

	def __init__(self, k: common.Kernel, a: common.Arch, base: results.Run):
		vmlinux = os.path.join(common.build_dir(k, a, FLAVOUR), 'vmlinux')
		self.suites = registered.suites(vmlinux)
		self.seconds = base.suite_seconds

	def boots(self, glob: str) -> List[Optional[runner.Boot]]:
		"""The normal boot, and each extra boot that runs a suite of @glob."""
		mine = runner.filter_suites(self.suites, [glob])
		return [None] + [b for b in runner.boot_table().values()
				 if runner.filter_suites(mine, [b.filter])]

	def timeout(self, glob: str) -> int:
		"""A hang is a kill: three times the suites' time with no mutant,
		and the boot."""
		mine = runner.filter_suites(self.suites, [glob])
		return int(BOOT_SECONDS + 3 * sum(self.seconds.get(x, 0) for x in mine))


def tree_key(k: common.Kernel, a: common.Arch) -> str:
	"""What the outcome of a mutant's boot depends on besides the mutant:
	the synced tree with no schema, the mutation build's kunitconfig files
	and arguments, the compilers, and the extra boots (kunit/boots)."""
	build = common.build_dir(k, a, FLAVOUR)
	args = runner.kunit_args(k, a, build, None, 1, 0, [], FLAVOUR)
	with open(runner.BOOTS, 'rb') as f:
		args.append('boots ' + hashlib.sha256(f.read()).hexdigest())
	return runner.build_key(k, a, common.tree_dir(k), args)


class Done:
	"""The outcome of each mutant booted over one tree, written as each
	boot ends, so that a run cut off (^C, a session's end) goes on where
	it stopped: a mutant of the same id and suites over the same tree
	(tree_key()) is not booted again. Another tree starts afresh."""

	def __init__(self, path: str, key: str, fresh: bool = False) -> None:
		self.path, self.key = path, key
		self.lock = threading.Lock()
		self.outcomes: Dict[str, dict] = {}
		try:
			with open(path, encoding='utf-8') as f:
				data = json.load(f)
		except (OSError, ValueError):
			data = {}
		if not fresh and data.get('tree') == key:
			self.outcomes = data.get('outcomes', {})

	def get(self, e: Entry) -> Optional[Outcome]:
		o = self.outcomes.get(e.mutant.id)
		if not o or o.get('suites') != e.target.suites:
			return None
		return Outcome(e.mutant, e.target, o['verdict'], o['detail'], e.number, o['seconds'])

	def put(self, o: Outcome) -> None:
		with self.lock:
			self.outcomes[o.mutant.id] = {'suites': o.target.suites, 'verdict': o.verdict,
						      'detail': o.detail, 'seconds': round(o.seconds, 1)}
			with open(self.path + '.tmp', 'w', encoding='utf-8') as f:
				json.dump({'tree': self.key, 'outcomes': self.outcomes}, f, indent=1)
			os.replace(self.path + '.tmp', self.path)


def done_path(results_dir: str, cell: str) -> str:
	return os.path.join(results_dir, f'mutation-{cell}.done.json')


def boot_all(k: common.Kernel, a: common.Arch, cell: Cell, entries: List[Entry],
	     jobs: int, boots: int, total: int, done: Optional[Done] = None) -> List[Outcome]:
	"""boot_mutant() of each entry, @boots of them at once (a guest has
	one CPU under TCG, so as many as the machine has cores), in the order
	of the entries; a line as each starts and, when several run at once,
	one as each ends. total: the number of the last entry. done: the
	outcomes kept over this tree, which are not booted again, and where
	each new one is kept."""
	kept = {e.number: done.get(e) for e in entries} if done else {}
	kept = {n: o for n, o in kept.items() if o}
	if kept:
		print(f'mutation: {len(kept)} of {len(entries)} mutants booted before over this tree '
		      'keep their outcome (FRESH=1 boots them again)', flush=True)

	def record(o: Outcome) -> Outcome:
		if done:
			done.put(o)
		return o

	todo = [e for e in entries if e.number not in kept]
	lock = threading.Lock()

	def say(line: str) -> None:
		with lock:	# print() of one thread would split another's line
			sys.stdout.write(line + '\n')
			sys.stdout.flush()

	def starts(e: Entry) -> None:
		say(f'mutation: {e.number}/{total} {e.mutant.id} {e.mutant.diff_line()}')

	if boots <= 1:
		out = []
		for e in todo:
			starts(e)
			out.append(record(boot_mutant(k, a, cell, e, jobs)))
		return sorted(out + list(kept.values()), key=lambda o: o.number)
	free: queue.SimpleQueue = queue.SimpleQueue()
	for slot in range(boots):
		free.put(slot)

	def one(e: Entry) -> Outcome:
		slot = free.get()
		try:
			starts(e)
			o = record(boot_mutant(k, a, cell, e, jobs, slot))
			why = f": {o.detail[0]}" if o.detail else ""
			say(f'mutation: {e.number}/{total} {o.verdict} in {o.seconds:.0f} s{why}')
			return o
		finally:
			free.put(slot)

	with concurrent.futures.ThreadPoolExecutor(max_workers=boots) as pool:
		return sorted(list(pool.map(one, todo)) + list(kept.values()), key=lambda o: o.number)


def boot_mutant(k: common.Kernel, a: common.Arch, cell: Cell, e: Entry,
		jobs: int, slot: Optional[int] = None) -> Outcome:
	"""One boot of the schema kernel with mutant e, with its target's
	suites; then each extra boot that runs one of them, while it survives.
	slot: which of the boots that run at once (runner.run())."""
	name = f'{common.cell(k, a)}-{FLAVOUR}-mutant' + (f'-{slot}' if slot is not None else '')
	# A panic (a mutant can break what boot needs) ends the boot at once,
	# as QEMU runs with -no-reboot, instead of waiting out the timeout.
	args = [f'--kernel_args=kunit_mutant={e.number}', '--kernel_args=panic=-1']
	timeout = cell.timeout(e.target.suites)
	ran = 0
	started = time.monotonic()
	for b in cell.boots(e.target.suites):
		extra = args if b else [e.target.suites, *args]
		runner.run(k, a, jobs, timeout, extra, FLAVOUR, b, name, mutant=True, slot=slot)
		run = results.load(common.results_dir(), name)
		why = mutants.caught(run)
		if why:
			return Outcome(e.mutant, e.target, KILLED, why, e.number,
				       time.monotonic() - started)
		ran += len(run.cases)
	verdict, why = (SURVIVED, []) if ran else (NOT_RUN, [f'no case of {e.target.suites} ran'])
	return Outcome(e.mutant, e.target, verdict, why, e.number, time.monotonic() - started)


def baseline(k: common.Kernel, a: common.Arch, jobs: int,
	     timeout: int) -> Tuple[results.Run, List[str]]:
	"""The schema kernel with no mutant against the normal cell: every
	case must have the verdict it has there. The run, and the differences."""
	name = f'{common.cell(k, a)}-{FLAVOUR}'
	runner.run(k, a, jobs, timeout, [], FLAVOUR, None, name)
	got = results.load(common.results_dir(), name)
	want = results.load(common.results_dir(), common.cell(k, a))
	if not want.cases:
		return got, [f'no results of {common.cell(k, a)} to compare with (run make test first)']
	return got, differences(want, got) + [p.text for p in got.problems]


def differences(want: results.Run, got: results.Run) -> List[str]:
	"""The cases of the normal cell @want whose verdict the schema kernel's
	run @got does not have. A case the normal cell skips for want of what
	the mutation kernels add (kunit/configs/inject.config) may pass here,
	or pass as the rows it has once it runs; a case the normal cell does
	not have must not fail here."""
	have = {c.name: c.status for c in got.cases}
	out = []
	for c in want.cases:
		status = have.get(c.name)
		if status == c.status:
			continue
		if c.status == results.SKIP:
			rows = [s for n, s in have.items() if n.startswith(c.name + '.')]
			if status == results.PASS or (status is None and rows and
						       all(s == results.PASS for s in rows)):
				continue
		out.append(f'{c.name}: {c.status} in the normal kernel, {status or "missing"} here')
	# the cases only the schema kernel has (inject.config's) must not fail:
	# every mutant of their suites would look killed
	known = {c.name for c in want.cases}
	for c in got.cases:
		if c.status not in (results.PASS, results.SKIP) and c.name not in known:
			out.append(f'{c.name}: not in the normal kernel, {c.status} here')
	return out
