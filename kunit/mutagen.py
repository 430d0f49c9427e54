# SPDX-License-Identifier: GPL-2.0
"""Generated mutants of one function, read with libclang.

The standard operators, each a small edit of the source text of one
expression or statement inside the function's body:

  ror     a relational or equality operator replaced by each other one
          (two pointers' == and != only by each other: the order of
          pointers to distinct objects is undefined, C11 6.5.8p5, and
          would pin where the allocator put them)
  aor     an arithmetic operator by another (+ -, * /, % *), a shift by
          the other
  lcr     && and || swapped
  neg     an if or loop condition negated
  true, false
          an if or loop condition forced
  const   an integer literal plus one, minus one, and 0
  del     a call or an assignment statement removed (not a check that
          compiles to nothing in the mutation kernels: NO_CODE)
  ret     a returned value replaced by 0, 1, -1, -EINVAL (a bool's by 0 and
          1, a pointer's by NULL), never by its own value: return OK;
          where OK is 0 gets no 0
  index   an array index plus and minus one

A mutant that makes a constant index of a fixed-size array point past
it (x[3] of u32 x[4] becoming x[4]) is left out: that is undefined
behaviour (C11 6.5.6p8), and GCC may keep the array in registers and
drop the access, so whether a suite sees it depends on the build (one
schema kernel's stack protector caught it, another's code had no such
store), not on the suites.

Each mutant has an id that survives edits outside its function:
file:function:operator:hash, the hash taken over the original text, the
replacement and the position inside the function (line and column
counted from the function's first line). Code that a macro expands to
is left alone: its text is not in the file.
"""

import ast
import ctypes
import hashlib
import os
import re
from dataclasses import dataclass
from typing import Iterable, List, Optional, Tuple

RELATIONAL = ('<', '<=', '>', '>=', '==', '!=')
ARITHMETIC = {'+': ('-',), '-': ('+',), '*': ('/',), '/': ('*',), '%': ('*',),
	      '<<': ('>>',), '>>': ('<<',)}
RETURNS = ('0', '1', '-1', '-EINVAL')
VALUES = {'0': 0, '1': 1, '-1': -1, '-EINVAL': -22, 'NULL': 0}	# EINVAL is 22 on Linux
# Statement macros that compile to nothing in the cells' kernels, where
# the mutants run: removing one changes no byte of the kernel.
NO_CODE = {
	'AA_BUG': 'without CONFIG_SECURITY_APPARMOR_DEBUG_ASSERTS',
	'lockdep_assert_held': 'without CONFIG_LOCKDEP (the debug leg has it)',
}


@dataclass(frozen=True)
class Mutant:
	"""One edit: bytes [start, end) of @path become @replacement."""
	id: str
	path: str
	function: str
	operator: str
	line: int
	start: int
	end: int
	original: str
	replacement: str
	scope: tuple = ()	# (start, end) of the expression a schema wraps; () = the edit
	template: str = ''	# the replacement around the original ("{}"), if it holds it

	@property
	def wrap(self) -> tuple:
		return self.scope or (self.start, self.end)

	def diff_line(self) -> str:
		"""The one-line diff a report shows."""
		return f'{self.original} -> {self.replacement}'

	def apply(self, text: bytes) -> bytes:
		return text[:self.start] + self.replacement.encode() + text[self.end:]


def _ci():
	import clang.cindex as ci	# pylint: disable=import-outside-toplevel
	return ci


_EVAL_INT = 1	# CXEval_Int


def _value(cur) -> Optional[int]:
	"""The value of a constant integer expression, a macro's included
	(libclang's clang_Cursor_Evaluate, which cindex.py does not wrap);
	None when it is not one."""
	lib = _ci().conf.lib
	if not getattr(lib, '_kunit_eval', False):
		lib.clang_Cursor_Evaluate.argtypes = [_ci().Cursor]
		lib.clang_Cursor_Evaluate.restype = ctypes.c_void_p
		lib.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
		lib.clang_EvalResult_getKind.restype = ctypes.c_int
		lib.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
		lib.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
		lib.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]
		lib._kunit_eval = True
	result = lib.clang_Cursor_Evaluate(cur)
	if not result:
		return None
	try:
		if lib.clang_EvalResult_getKind(result) != _EVAL_INT:
			return None
		return lib.clang_EvalResult_getAsLongLong(result)
	finally:
		lib.clang_EvalResult_dispose(result)


def _array_size(cur) -> Optional[int]:
	"""The size of the fixed-size array that @cur, an index's base, names
	(through the implicit decay to a pointer), None for a pointer."""
	ci = _ci()
	while cur is not None:
		t = cur.type.get_canonical()
		if t.kind == ci.TypeKind.CONSTANTARRAY:
			return t.get_array_size()
		kids = list(cur.get_children())
		cur = kids[0] if cur.kind == ci.CursorKind.UNEXPOSED_EXPR and len(kids) == 1 else None
	return None


_C_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
	  ast.Mult: lambda a, b: a * b,
	  ast.Div: lambda a, b: int(a / b), ast.Mod: lambda a, b: a - b * int(a / b),
	  ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b}


def _constant(text: str) -> Optional[int]:
	"""The value of @text if it is integer literals and + - * / % << >>
	only (C's division, which truncates), else None."""
	if not re.fullmatch(r'[0-9xXa-fA-F\s+\-*/%<>()]+', text):
		return None
	try:
		tree = ast.parse(text, mode='eval')
	except SyntaxError:
		return None

	def value(node) -> int:
		if isinstance(node, ast.Constant) and isinstance(node.value, int):
			return node.value
		if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
			v = value(node.operand)
			return -v if isinstance(node.op, ast.USub) else v
		if isinstance(node, ast.BinOp):
			if type(node.op) in _C_OPS:
				return _C_OPS[type(node.op)](value(node.left), value(node.right))
		raise ValueError(ast.dump(node))

	try:
		return value(tree.body)
	except (ValueError, ZeroDivisionError):
		return None


def _function(tu, path: str, name: str):
	ci = _ci()
	for cur in tu.cursor.get_children():
		if (cur.kind == ci.CursorKind.FUNCTION_DECL and cur.is_definition() and
		    cur.spelling == name and cur.location.file and
		    os.path.samefile(cur.location.file.name, path)):
			return cur
	return None


class _Walk:
	"""The mutants of one function's body."""

	def __init__(self, path: str, function: str, text: bytes, fn):
		self.path = path
		self.function = function
		self.text = text
		self.first = fn.extent.start.line
		self.out: List[Mutant] = []
		self.seen: set = set()
		self.bounds: List[Tuple[int, int, int]] = []	# a fixed-size array's index: start, end, size

	def src(self, cur) -> Optional[str]:
		"""The source text of @cur, None if it is not plainly in the file."""
		a, b = cur.extent.start, cur.extent.end
		if (not a.file or not b.file or a.file.name != b.file.name or
		    not os.path.samefile(a.file.name, self.path) or b.offset <= a.offset):
			return None
		return self.text[a.offset:b.offset].decode(errors='replace')

	def add(self, op: str, cur_or_range, original: str, replacement: str,
		start: Optional[int] = None, end: Optional[int] = None, line: Optional[int] = None,
		scope: tuple = (), template: str = ''):
		if start is None:
			start, end = cur_or_range.extent.start.offset, cur_or_range.extent.end.offset
			line = cur_or_range.extent.start.line
			col = cur_or_range.extent.start.column
		else:
			col = start - self.text.rfind(b'\n', 0, start)
		if (start, end, replacement) in self.seen:
			return	# a macro's expansion, seen again through its invocation
		self.seen.add((start, end, replacement))
		where = f'{line - self.first}:{col}'
		h = hashlib.sha1(f'{op}\0{original}\0{replacement}\0{where}'.encode()).hexdigest()[:10]
		self.out.append(Mutant(f'{self.path}:{self.function}:{op}:{h}', self.path,
				       self.function, op, line, start, end, original, replacement,
				       scope, template))

	def operator_token(self, cur):
		"""The operator token of a binary operator cursor, between its operands."""
		kids = list(cur.get_children())
		if len(kids) != 2:
			return None
		lhs_end = kids[0].extent.end.offset
		for tok in cur.get_tokens():
			if tok.extent.start.offset >= lhs_end:
				return tok
		return None

	@staticmethod
	def pointers(cur) -> bool:
		"""Both operands of a binary operator are pointers."""
		kind = _ci().TypeKind.POINTER
		kids = list(cur.get_children())
		return len(kids) == 2 and all(k.type.get_canonical().kind == kind for k in kids)

	def binary(self, cur):
		if self.src(cur) is None:
			return
		tok = self.operator_token(cur)
		if tok is None:
			return
		op = tok.spelling
		a, b = tok.extent.start.offset, tok.extent.end.offset
		if self.text[a:b].decode() != op:
			return
		if op in ('==', '!=') and self.pointers(cur):
			repl, name = ['!=' if op == '==' else '=='], 'ror'
		elif op in RELATIONAL:
			repl, name = [o for o in RELATIONAL if o != op], 'ror'
		elif op in ARITHMETIC:
			repl, name = list(ARITHMETIC[op]), 'aor'
		elif op in ('&&', '||'):
			repl, name = ['||' if op == '&&' else '&&'], 'lcr'
		else:
			return
		scope = (cur.extent.start.offset, cur.extent.end.offset)
		for r in repl:
			self.add(name, None, op, r, a, b, tok.extent.start.line, scope)

	def condition(self, cur):
		"""An if, while, do or for statement's condition."""
		ci = _ci()
		kids = list(cur.get_children())
		keyword = {ci.CursorKind.DO_STMT: 'do', ci.CursorKind.FOR_STMT: 'for',
			   ci.CursorKind.IF_STMT: 'if', ci.CursorKind.WHILE_STMT: 'while'}[cur.kind]
		if not re.match(keyword + r'\b', self.src(cur) or ''):
			return	# a statement a macro expands to
		if cur.kind == ci.CursorKind.DO_STMT:
			cond = kids[1] if len(kids) > 1 else None
		elif cur.kind == ci.CursorKind.FOR_STMT:
			cond = self.for_condition(cur, kids)
		else:
			cond = kids[0] if kids else None
		if cond is None:
			return
		text = self.src(cond)
		if text is None:
			return
		self.add('neg', cond, text, f'!({text})', template='!({})')
		self.add('true', cond, text, '1')
		self.add('false', cond, text, '0')

	def for_condition(self, cur, kids):
		"""The middle clause of a for: the child between the two semicolons."""
		toks = [t for t in cur.get_tokens()]
		semis = [t.extent.start.offset for t in toks if t.spelling == ';'][:2]
		if len(semis) < 2:
			return None
		for k in kids:
			if semis[0] < k.extent.start.offset < semis[1]:
				return k
		return None

	def literal(self, cur):
		text = self.src(cur)
		if text is None or not re.fullmatch(r'(0x[0-9a-fA-F]+|\d+)[uUlL]*', text):
			return
		value = int(re.match(r'0x[0-9a-fA-F]+|\d+', text).group(0), 0)
		for r in sorted({value + 1, value - 1, 0} - {value}):
			self.add('const', cur, text, str(r))

	def statement(self, cur):
		"""A call or an assignment that is a statement of a compound."""
		ci = _ci()
		text = self.src(cur)
		if text is None:
			return
		if cur.kind != ci.CursorKind.CALL_EXPR:
			tok = self.operator_token(cur)
			if not tok or not tok.spelling.endswith('=') or tok.spelling in RELATIONAL:
				return
		self.add('del', cur, text, '(void)0')

	def ret(self, cur, returns: Tuple[str, ...]):
		kids = list(cur.get_children())
		if not kids:
			return
		text = self.src(kids[0])
		if text is None:
			return
		value = _value(kids[0])	# return OK; where OK is 0: no ret 0
		for r in returns:
			if r != text and VALUES[r] != value:
				self.add('ret', kids[0], text, r)

	def index(self, cur):
		kids = list(cur.get_children())
		if len(kids) != 2:
			return
		text = self.src(kids[1])
		if text is None:
			return
		size = _array_size(kids[0])
		if size is not None:
			self.bounds.append((kids[1].extent.start.offset, kids[1].extent.end.offset, size))
		for t in ('({}) + 1', '({}) - 1'):
			self.add('index', kids[1], text, t.format(text), template=t)

	def out_of_bounds(self, m: Mutant) -> bool:
		"""@m makes a constant index of a fixed-size array point outside it."""
		for start, end, size in self.bounds:
			if start <= m.start and m.end <= end:
				text = self.text[start:end].decode(errors='replace')
				value = _constant(text[:m.start - start] + m.replacement + text[m.end - start:])
				if value is not None and not 0 <= value < size:
					return True
		return False

	def statements(self, cur) -> list:
		"""The children of @cur that stand as statements: those of a block,
		and the bodies of if, else, while, do and for (not their conditions
		or a for's header)."""
		ci = _ci()
		kids = list(cur.get_children())
		if cur.kind == ci.CursorKind.COMPOUND_STMT:
			return kids
		if cur.kind == ci.CursorKind.IF_STMT:
			return kids[1:]
		if cur.kind in (ci.CursorKind.WHILE_STMT, ci.CursorKind.FOR_STMT):
			return kids[-1:]
		if cur.kind == ci.CursorKind.DO_STMT:
			return kids[:1]
		return []

	def walk(self, cur, returns: Tuple[str, ...], in_case: bool = False):
		ci = _ci()
		k = cur.kind
		if k in (ci.CursorKind.CASE_STMT,):
			kids = list(cur.get_children())
			for child in kids[1:]:
				self.walk(child, returns)
			return
		if k == ci.CursorKind.UNEXPOSED_EXPR and cur.spelling == 'sizeof':
			return
		if k == ci.CursorKind.COMPOUND_STMT and not (self.src(cur) or '').startswith('{'):
			return	# the statements of a macro's expansion: ({ ... })
		for child in self.statements(cur):
			if child.kind in (ci.CursorKind.CALL_EXPR, ci.CursorKind.BINARY_OPERATOR,
					  ci.CursorKind.COMPOUND_ASSIGNMENT_OPERATOR):
				self.statement(child)
			elif (child.kind == ci.CursorKind.DO_STMT and
			      not re.match(r'do\b', self.src(child) or 'do')):
				# a statement macro: do { ... } while (0)
				text = self.src(child)
				if text.split('(', 1)[0].strip() not in NO_CODE:
					self.add('del', child, text, '(void)0')
		if k == ci.CursorKind.BINARY_OPERATOR:
			self.binary(cur)
		elif k in (ci.CursorKind.IF_STMT, ci.CursorKind.WHILE_STMT,
			   ci.CursorKind.DO_STMT, ci.CursorKind.FOR_STMT):
			self.condition(cur)
		elif k == ci.CursorKind.INTEGER_LITERAL and not in_case:
			self.literal(cur)
		elif k == ci.CursorKind.RETURN_STMT:
			self.ret(cur, returns)
		elif k == ci.CursorKind.ARRAY_SUBSCRIPT_EXPR:
			self.index(cur)
		for child in cur.get_children():
			self.walk(child, returns, in_case)


def mutants(path: str, function: str, flags: Iterable[str] = ()) -> List[Mutant]:
	"""Every mutant of @function in C file @path, in source order."""
	ci = _ci()
	tu = ci.Index.create().parse(path, args=list(flags) + ['-w', '-ferror-limit=0'])
	fn = _function(tu, path, function)
	if fn is None:
		return []
	with open(path, 'rb') as f:
		text = f.read()
	w = _Walk(path, function, text, fn)
	kind = fn.result_type.get_canonical().kind
	# a bool function hands back 0 or 1 whatever it returns
	returns = {ci.TypeKind.POINTER: ('NULL',), ci.TypeKind.BOOL: ('0', '1')}.get(kind, RETURNS)
	for child in fn.get_children():
		if child.kind == ci.CursorKind.COMPOUND_STMT:
			w.walk(child, returns)
	return sorted((m for m in w.out if not w.out_of_bounds(m)),
		      key=lambda m: (m.start, m.operator, m.replacement))
