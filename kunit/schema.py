# SPDX-License-Identifier: GPL-2.0
"""Mutant schemata: every mutant of a file compiled in, one chosen at run time.

Each mutant's expression (its wrap range: the operator's whole binary
expression, a condition, a literal, a returned value, an index, a call
or assignment statement) becomes a choice between the mutant and the
original, taken by CHOOSE(n), where n is the mutant's number in the
schema: with no number chosen every choice takes the original, and the
file behaves as before. A statement's removal is a statement of its own,
"if (!CHOOSE(n)) statement; else (void)0", so that a statement macro
can be removed too. Choices nest: a mutant inside another's
expression is a choice inside the other's original. The other's own
branch holds the text it wraps as written: one mutant is chosen at a
time, so none inside it can be, and the file grows with the number of
mutants, where nesting choices in both branches doubled it at each
level (a chain of 20 || took qla2x00_probe_one() to 500 MB). A mutant
whose range crosses another's without nesting is left out, with the
reason.
"""

from dataclasses import dataclass, field
from typing import Dict, List, Tuple

from mutagen import Mutant

CHOOSE = 'kunit_mutant_is'


@dataclass
class _Node:
	start: int
	end: int
	mutants: List[Mutant] = field(default_factory=list)
	children: List['_Node'] = field(default_factory=list)


@dataclass
class Schema:
	"""A rewritten file: its text, the number of each mutant in it, and
	the mutants left out with why."""
	text: bytes
	numbers: Dict[str, int]
	left_out: Dict[str, str]


def _tree(ms: List[Mutant], left_out: Dict[str, str]) -> List[_Node]:
	groups: Dict[Tuple[int, int], _Node] = {}
	for m in ms:
		a, b = m.wrap
		groups.setdefault((a, b), _Node(a, b)).mutants.append(m)
	roots: List[_Node] = []
	stack: List[_Node] = []
	for node in sorted(groups.values(), key=lambda n: (n.start, -n.end)):
		while stack and stack[-1].end <= node.start:
			stack.pop()
		if stack and node.end > stack[-1].end:
			for m in node.mutants:
				left_out[m.id] = 'its expression crosses another mutant\'s'
			continue
		(stack[-1].children if stack else roots).append(node)
		stack.append(node)
	return roots


class _Render:
	def __init__(self, text: str, numbers: Dict[str, int], choose: str):
		self.text = text
		self.numbers = numbers
		self.choose = choose

	def span(self, lo: int, hi: int, children: List[_Node]) -> str:
		"""Original text [lo, hi) with the nodes in it rendered."""
		out, at = [], lo
		for c in children:
			if c.start >= lo and c.end <= hi:
				out += [self.text[at:c.start], self.node(c)]
				at = c.end
		return ''.join(out + [self.text[at:hi]])

	def mutated(self, node: _Node, m: Mutant) -> str:
		"""The node's text with @m applied, and no other choice in it."""
		repl = m.template.format(self.text[m.start:m.end]) if m.template else m.replacement
		return self.text[node.start:m.start] + repl + self.text[m.end:node.end]

	def node(self, node: _Node) -> str:
		dels = [m for m in node.mutants if m.operator == 'del']
		others = [m for m in node.mutants if m.operator != 'del']
		expr = f'({self.span(node.start, node.end, node.children)})'
		for m in reversed(others):
			expr = f'({self.choose}({self.numbers[m.id]}) ? ({self.mutated(node, m)}) : {expr})'
		if not dels:
			return expr
		# A statement: it runs unless the boot chose its removal. A
		# statement macro (do ... while (0)) is no expression, and the
		# else keeps a dangling else of the code bound as it was.
		cond = ' || '.join(f'{self.choose}({self.numbers[m.id]})' for m in dels)
		body = expr if others else self.span(node.start, node.end, node.children)
		return f'if (!({cond})) {body}; else (void)0'


def rewrite(text: bytes, ms: List[Mutant], first: int = 1, choose: str = CHOOSE) -> Schema:
	"""@text (one file) with @ms compiled in, numbered from @first in order."""
	left_out: Dict[str, str] = {}
	roots = _tree(ms, left_out)
	numbers = {}
	for m in ms:
		if m.id not in left_out:
			numbers[m.id] = first + len(numbers)
	# byte offsets: work on latin-1 so that one char is one byte
	r = _Render(text.decode('latin-1'), numbers, choose)
	return Schema(r.span(0, len(text), roots).encode('latin-1'), numbers, left_out)
