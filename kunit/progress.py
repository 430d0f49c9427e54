# SPDX-License-Identifier: GPL-2.0
"""One progress line at a steady pace while a kernel builds.

kunit.py prints "Building KUnit Kernel ..." and nothing more until make
ends, which can be ten minutes on this machine. While a build runs, this
prints every PERIOD seconds the objects built so far, of the number the
last build of that build dir had (or "first build"), the time elapsed and
an estimate of the rest. Only on a terminal, or with PROGRESS=1, so that
CI logs stay short.
"""

import os
import sys
import threading
import time
from typing import Optional

import stamp

PERIOD = 10.0


def wanted() -> bool:
	env = os.environ.get('PROGRESS', '')
	if env:
		return env not in ('0', 'n', 'no')
	return sys.stdout.isatty()


def _clock(seconds: float) -> str:
	m, s = divmod(int(seconds), 60)
	return f'{m}m{s:02d}s' if m else f'{s}s'


def line(what: str, done: int, total: Optional[int], elapsed: float) -> str:
	"""The progress line: objects done of the last build's, elapsed, estimate."""
	if not total:
		return f'{what}: {done} objects built (first build), {_clock(elapsed)}'
	text = f'{what}: {done} of {total} objects, {_clock(elapsed)}'
	if 0 < done < total:
		text += f', about {_clock(elapsed * (total - done) / done)} left'
	return text


class Progress:
	"""A context: prints the line every PERIOD seconds until it exits."""

	def __init__(self, what: str, build: str, period: float = PERIOD) -> None:
		self.what, self.build, self.period = what, build, period
		self.total = stamp.objects(build)
		self.start = time.time()
		self.stop = threading.Event()
		self.thread: Optional[threading.Thread] = None

	def _loop(self) -> None:
		while not self.stop.wait(self.period):
			done = stamp.count_objects(self.build, self.start)
			print(line(self.what, done, self.total, time.time() - self.start), flush=True)

	def __enter__(self) -> 'Progress':
		if wanted():
			self.thread = threading.Thread(target=self._loop, daemon=True)
			self.thread.start()
		return self

	def __exit__(self, *exc) -> None:
		self.stop.set()
		if self.thread:
			self.thread.join()
