# SPDX-License-Identifier: GPL-2.0
"""The integration leg: the cell's kernel booted with a small initramfs.

The kernel is the one make test built (the build dir of the cell; the
integration config fragment is in the normal build). The initramfs holds the
project's static C programs of kunit/integration/ (init and one program
per case, built with the arch's gcc) and the AppArmor profile the
apparmor_net case loads, compiled by apparmor_parser. It is cached under
a name that hashes its inputs, so it is only rebuilt when one changes;
the archive is made by the tree's own usr/gen_init_cpio.

QEMU boots straight into init (rdinit=/init, KUnit off), which runs the
cases of the boot and powers off. The console output is parsed by the
tree's tools/testing/kunit/kunit_parser.py and written as kunit.py's
JSON, so that kunit/summary folds the leg into the same table.
"""

import functools
import hashlib
import importlib.machinery
import importlib.util
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import common
import matrix
import results
import runner

SRC = os.path.join(common.REPO, 'kunit', 'integration')
BOOTS = os.path.join(SRC, 'boots')
BLOBS = os.path.join(common.REPO, 'kunit', 'apparmor', 'blobs')
PROFILES = os.path.join(common.REPO, 'kunit', 'apparmor', 'profiles')
# The profiles the cases load, from kunit/apparmor/profiles/.
GUEST_PROFILES = ['net_inet_stream', 'net_complain', 'net_before', 'net_exec']
# Debian's name of each arch, for busybox-static.
DEB_ARCH = {'x86_64': 'amd64', 'arm64': 'arm64'}
LEG = 'integration'
# The last console lines shown when the guest hangs or panics.
TAIL = 15
# Seconds a boot may take at most, whatever the runner's timeout.
MAX_TIMEOUT = 300


@dataclass
class Boot:
	"""One boot of the leg: its cases and kernel arguments."""
	name: str
	cases: List[str]
	kernel_args: List[str]
	qemu_args: List[str] = field(default_factory=list)


def boot_table(path: str = BOOTS) -> Dict[str, Boot]:
	return {w[0]: Boot(w[0], w[1].split(','), *matrix.boot_words(w[2:]))
		for w in common.boot_rows(path, 2, 'name case,case... kernel-arg...')}


def boot(name: Optional[str], path: str = BOOTS) -> Boot:
	table = boot_table(path)
	name = name or 'default'
	if name not in table:
		raise common.UsageError(f"unknown integration boot '{name}'; valid: {' '.join(table)}")
	return table[name]


def run_name(k: common.Kernel, a: common.Arch, b: Boot) -> str:
	"""results/<kernel>-<arch>-integration[-<boot>]."""
	return '-'.join([common.cell(k, a), LEG] + ([b.name] if b.name != 'default' else []))


def programs() -> List[str]:
	"""init and every case program: the .c files of kunit/integration/."""
	return sorted(f[:-2] for f in os.listdir(SRC) if f.endswith('.c'))


def busybox(k: common.Kernel, a: common.Arch) -> str:
	"""The guest's shell: /bin/busybox of Debian's busybox-static for the
	arch, taken from its .deb (apt-get download, dpkg-deb -x) once."""
	top = os.path.join(common.kernel_dir(k), LEG, 'busybox', DEB_ARCH[a.name])
	exe = os.path.join(top, 'bin', 'busybox')
	if os.path.exists(exe):
		return exe
	with tempfile.TemporaryDirectory() as tmp:
		os.chmod(tmp, 0o755)	# apt's _apt user writes the download there
		pkg = f'busybox-static:{DEB_ARCH[a.name]}'
		proc = subprocess.run(['apt-get', 'download', pkg], cwd=tmp, capture_output=True,
				      text=True, check=False)
		debs = [f for f in os.listdir(tmp) if f.endswith('.deb')]
		if proc.returncode or len(debs) != 1:
			lines = (proc.stderr or proc.stdout).strip().splitlines()
			raise common.UsageError(f'apt-get download {pkg} failed: '
						f'{lines[-1] if lines else proc.returncode} (run make setup)')
		_run(['dpkg-deb', '-x', os.path.join(tmp, debs[0]), os.path.join(tmp, 'x')],
		     f'dpkg-deb -x {debs[0]}')
		os.makedirs(os.path.dirname(exe), exist_ok=True)
		os.replace(os.path.join(tmp, 'x', 'bin', 'busybox'), exe)
	return exe


def _inputs(a: common.Arch, shell: str) -> List[Tuple[str, bytes]]:
	"""What the initramfs is made of, for its cache key."""
	out = [('arch', a.name.encode())]
	with open(shell, 'rb') as f:
		out.append(('busybox', f.read()))
	for name in sorted(os.listdir(SRC)):
		if name.endswith(('.c', '.h')):
			with open(os.path.join(SRC, name), 'rb') as f:
				out.append((name, f.read()))
	for name in GUEST_PROFILES:
		with open(os.path.join(PROFILES, name), 'rb') as f:
			out.append((name, f.read()))
	with open(_blobs().FEATURES, 'rb') as f:
		out.append(('features', f.read()))
	cc = subprocess.run([a.cross_compile + 'gcc', '--version'], capture_output=True,
			    text=True, check=False).stdout
	out.append(('cc', cc.encode()))
	return out


@functools.lru_cache(maxsize=None)
def _blobs():
	"""kunit/apparmor/blobs, for its profile compiler."""
	loader = importlib.machinery.SourceFileLoader('blobs', BLOBS)
	spec = importlib.util.spec_from_loader('blobs', loader)
	mod = importlib.util.module_from_spec(spec)
	loader.exec_module(mod)
	return mod


def _run(args: List[str], what: str) -> None:
	proc = subprocess.run(args, capture_output=True, text=True, check=False)
	if proc.returncode:
		lines = (proc.stderr or proc.stdout).strip().splitlines()
		raise common.UsageError(f'{what} failed: {lines[0] if lines else proc.returncode}')


def gen_init_cpio(k: common.Kernel) -> str:
	"""The tree's usr/gen_init_cpio, built once per kernel."""
	src = os.path.join(common.tree_dir(k), 'usr', 'gen_init_cpio.c')
	out = os.path.join(common.kernel_dir(k), LEG, 'gen_init_cpio')
	if not os.path.exists(src):
		raise common.UsageError(f'no {src} (run make sync)')
	if not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(src):
		os.makedirs(os.path.dirname(out), exist_ok=True)
		_run(['gcc', '-O2', '-o', out, src], 'building usr/gen_init_cpio')
	return out


def initramfs(k: common.Kernel, a: common.Arch) -> str:
	"""The cached initramfs of an arch, rebuilt only when an input changed."""
	shell = busybox(k, a)
	key = hashlib.sha256()
	for name, data in _inputs(a, shell):
		key.update(name.encode() + b'\0' + hashlib.sha256(data).digest())
	top = os.path.join(common.kernel_dir(k), LEG, a.name)
	path = os.path.join(top, f'initramfs-{key.hexdigest()[:16]}.cpio')
	if os.path.exists(path):
		return path
	os.makedirs(top, exist_ok=True)
	for old in os.listdir(top):
		if old.startswith('initramfs-'):
			os.unlink(os.path.join(top, old))
	cpio = gen_init_cpio(k)
	blobs = _blobs()
	with tempfile.TemporaryDirectory() as tmp:
		spec = ['dir /dev 0755 0 0', 'nod /dev/console 0600 0 0 c 5 1',
			'dir /bin 0755 0 0', 'dir /apparmor 0755 0 0',
			'dir /proc 0755 0 0', 'dir /sys 0755 0 0',
			f'file /bin/busybox {shell} 0755 0 0', 'slink /bin/sh busybox 0777 0 0']
		for prog in programs():
			exe = os.path.join(tmp, prog)
			_run([a.cross_compile + 'gcc', '-static', '-O2', '-Wall', '-Wextra', '-Werror',
			      '-o', exe, os.path.join(SRC, prog + '.c')], f'compiling {prog}.c')
			spec.append(f"file {'/init' if prog == 'init' else '/bin/' + prog} {exe} 0755 0 0")
		for name in GUEST_PROFILES:
			blob = os.path.join(tmp, name + '.aa')
			with open(blob, 'wb') as f:
				f.write(blobs.compile_profile(os.path.join(PROFILES, name), blobs.FEATURES))
			spec.append(f'file /apparmor/{name} {blob} 0644 0 0')
		with open(os.path.join(tmp, 'spec'), 'w', encoding='utf-8') as f:
			f.write('\n'.join(spec) + '\n')
		with open(path + '.tmp', 'wb') as out:
			proc = subprocess.run([cpio, os.path.join(tmp, 'spec')], stdout=out,
					      stderr=subprocess.PIPE, text=False, check=False)
		if proc.returncode:
			os.unlink(path + '.tmp')
			raise common.UsageError(f'gen_init_cpio failed: {proc.stderr.decode().strip()}')
		os.replace(path + '.tmp', path)
	return path


def _kunit_tool(k: common.Kernel):
	"""The tree's kunit_parser and kunit_json modules."""
	tool = os.path.join(common.tree_dir(k), 'tools', 'testing', 'kunit')
	if tool not in sys.path:
		sys.path.insert(0, tool)
	import kunit_json  # noqa: E402 pylint: disable=import-outside-toplevel
	import kunit_parser  # noqa: E402 pylint: disable=import-outside-toplevel
	return kunit_parser, kunit_json


def qemu_params(k: common.Kernel, a: common.Arch):
	"""The arch's QemuArchParams, from the tree's qemu_configs/<arch>.py:
	the file kunit.py's --qemu_config takes. kunit_kernel's public
	LinuxSourceTree.run_kernel() cannot boot this leg (it appends
	kunit.enable=1 and kunit_shutdown=reboot, which would end the boot
	before init ran), so the leg reads the same parameters and starts
	QEMU as kunit_kernel does."""
	configs = os.path.join(common.tree_dir(k), 'tools', 'testing', 'kunit', 'qemu_configs')
	path = os.path.join(configs, a.name + '.py')
	if not os.path.isfile(path):
		raise common.UsageError(f'no {path} in the tree')
	# Named as kunit_kernel names it, so that its relative import works.
	spec = importlib.util.spec_from_file_location(
		'.' + os.path.join('qemu_configs', os.path.basename(path)), path)
	config = importlib.util.module_from_spec(spec)
	_kunit_tool(k)	# qemu_config.py on the path
	spec.loader.exec_module(config)
	return config.QEMU_ARCH


def qemu_command(k: common.Kernel, a: common.Arch, build: str, cpio: str,
		 args: List[str], qemu_args: Sequence[str] = ()) -> List[str]:
	"""The QEMU command of kunit.py for the arch, with the initramfs, and
	without kunit_shutdown=: KUnit is off here, and its shutdown would
	come before init ran."""
	q = qemu_params(k, a)
	extra = list(q.extra_qemu_params)
	# qboot cannot resume from S3, which the suspend case needs: the
	# default firmware (SeaBIOS) can.
	if '-bios' in extra:
		at = extra.index('-bios')
		del extra[at:at + 2]
	for x in [*a.qemu_args, *qemu_args]:
		extra.extend(shlex.split(x))
	return ['qemu-system-' + q.qemu_arch, '-nodefaults', '-m', '1024',
		'-kernel', os.path.join(build, q.kernel_path), '-initrd', cpio,
		'-append', ' '.join(args + [q.kernel_command_line]),
		# 6.1's QemuArchParams has no serial: kunit.py uses stdio there.
		'-no-reboot', '-nographic', '-serial', getattr(q, 'serial', 'stdio')] + extra


# A line the guest's programs print; the console has kernel messages too.
_KTAP = re.compile(r'^\s*(?:KTAP version \d+|# |\d+\.\.\d+$|(?:not )?ok \d+ )')


def ktap_lines(console: List[str]) -> List[str]:
	"""The KTAP lines of the console: a kernel message between a test's
	KTAP version line and its "# Subtest:" line would hide the header from
	kunit_parser, which takes the lines in between as that test's log."""
	return [x for x in console if _KTAP.match(x)]


def kernel_args(b: Boot) -> List[str]:
	"""Straight into init, KUnit off, a panic ends the boot."""
	return ['rdinit=/init', 'kunit.enable=0', 'panic=-1',
		'integration_cases=' + ','.join(b.cases)] + b.kernel_args


def run(k: common.Kernel, a: common.Arch, b: Boot, timeout: int) -> int:
	"""Boot the cell's kernel with the initramfs; write results/<name>.*."""
	build = common.build_dir(k, a)
	name = run_name(k, a, b)
	json_path, log_path = runner.result_paths(name)
	print(f'cell {name}: started', flush=True)
	cell_started = time.monotonic()
	cpio = initramfs(k, a)
	if not os.path.exists(os.path.join(build, '.config')):
		raise common.UsageError(f'no kernel built in {build} (run make test ARCH={a.name})')
	problems: List[results.Problem] = []
	cmd = qemu_command(k, a, build, cpio, kernel_args(b), b.qemu_args)
	print(f'integration: {" ".join(shlex.quote(x) for x in cmd)}', flush=True)
	started = time.monotonic()
	proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
				stderr=subprocess.STDOUT, text=True, errors='backslashreplace')
	try:
		text, _ = proc.communicate(timeout=min(timeout, MAX_TIMEOUT))
		rc = proc.returncode
	except subprocess.TimeoutExpired:
		proc.kill()
		text, _ = proc.communicate()
		rc = 124
		problems.append(results.Problem(results.HUNG, '', 'the guest did not power off '
						f'within {min(timeout, MAX_TIMEOUT)} s'))
	seconds = time.monotonic() - started
	with open(log_path, 'w', encoding='utf-8') as f:
		f.write(text)
	lines = text.splitlines()
	if 'reboot: Power down' not in text and not problems:
		problems.append(results.Problem(results.CRASHED, '',
						'the guest did not power off (panic or crash)'))
		rc = rc or 1
	if problems:
		problems[-1].text += '; its last console lines: ' + ' | '.join(
			x.strip() for x in lines[-TAIL:])
	kunit_parser, kunit_json = _kunit_tool(k)
	test = kunit_parser.parse_run_tests([x + '\n' for x in ktap_lines(lines)])
	with open(json_path, 'w', encoding='utf-8') as f:
		f.write(kunit_json.get_json_result(
			test, kunit_json.Metadata(arch=a.name, def_config=LEG, build_dir=build)))
	meta = results.Meta(kernel=k.version, arch=a.name, package=runner.package(k), boot=b.name,
			    rc=rc, log=log_path, expected=[f'integration_{c}' for c in b.cases],
			    seconds=round(seconds, 1))
	run_ = results.record(common.results_dir(), name, meta, json_path, problems)
	runner.write_exports(run_)
	runner.ended(run_, cell_started)
	print(f'integration: {name}: boot to verdict {seconds:.1f} s', flush=True)
	return 0 if test.ok_status() and not problems else 1
