# SPDX-License-Identifier: GPL-2.0
"""AppArmor's net_names.h generator (the sed of its Makefile) and the test blobs.

The generator is taken from security/apparmor/Makefile of the synced 6.12
tree (so our patches count) and run by make on a small hand-made
socket.h and net.h: gaps, aliases, comments, a mixed-case name, AF_MAX.
"""

import os
import re
import subprocess
import tempfile
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import common  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

SOCKET_H = """\
/* Supported address families. */
#define AF_UNSPEC	0
#define AF_UNIX		1	/* Unix domain sockets 		*/
#define AF_LOCAL	1	/* POSIX name for AF_UNIX	*/
#define AF_INET		2	/* Internet IP Protocol 	*/
#define AF_DECnet	12	/* Reserved for DECnet project	*/
#define AF_NETLINK	16
#define AF_ROUTE	AF_NETLINK /* Alias to emulate 4.4BSD */
/* #define AF_OLD	20	commented out, but sed sees no #define at 0 */
#define AF_MCTP		45	/* Management component transport protocol */

#define AF_MAX		46	/* For now.. */

/* Protocol families, same as address families. */
#define PF_UNSPEC	AF_UNSPEC
#define PF_INET		AF_INET
#define PF_MAX		AF_MAX
"""

NET_H = """\
enum sock_type {
	SOCK_STREAM	= 1,
	SOCK_DGRAM	= 2,
	SOCK_PACKET	= 10,
};

/* Mask which covers at least up to SOCK_MASK-1. */
#define SOCK_MAX (SOCK_PACKET + 1)
"""

NET_NAMES_H = """\
static const char *address_family_names[] = {
[0] = "unspec",
[1] = "unix",
[2] = "inet",
[12] = "decnet",
[16] = "netlink",
[45] = "mctp",
};
#define AA_SFS_AF_MASK "unspec unix inet decnet netlink mctp"
static const char *sock_type_names[] = {
[1] = "stream",
[2] = "dgram",
[10] = "packet",
};
"""


def recipe(makefile: str, name: str) -> str:
	"""The definition of cmd_<name>, continuation lines and all."""
	m = re.search(rf'^cmd_{re.escape(name)} =.*?[^\\]\n', makefile, re.M | re.S)
	if not m:
		raise AssertionError(f'no cmd_{name} in security/apparmor/Makefile')
	return m.group(0)


def generate(makefile: str, socket_h: str, net_h: str) -> str:
	with tempfile.TemporaryDirectory() as tmp:
		for name, text in (('socket.h', socket_h), ('net.h', net_h)):
			with open(os.path.join(tmp, name), 'w', encoding='utf-8') as f:
				f.write(text)
		with open(os.path.join(tmp, 'Makefile'), 'w', encoding='utf-8') as f:
			f.write(recipe(makefile, 'make-af') + recipe(makefile, 'make-sock') +
				'net_names.h: socket.h net.h\n\t@$(cmd_make-af)\n\t@$(cmd_make-sock)\n')
		subprocess.run(['make', '-s', '-C', tmp, 'net_names.h'], check=True,
			       capture_output=True)
		with open(os.path.join(tmp, 'net_names.h'), encoding='utf-8') as f:
			return f.read()


class NetNamesGenerator(unittest.TestCase):
	def setUp(self):
		path = os.path.join(common.tree_dir(common.kernel('6.12')),
				    'security', 'apparmor', 'Makefile')
		if not os.path.exists(path):
			self.skipTest('no synced 6.12 tree (make sync)')
		with open(path, encoding='utf-8') as f:
			self.makefile = f.read()

	def test_families_at_their_numbers_aliases_and_max_dropped(self):
		self.assertEqual(generate(self.makefile, SOCKET_H, NET_H), NET_NAMES_H)

	def test_af_mask_has_single_spaces_and_no_empty_names(self):
		out = generate(self.makefile, SOCKET_H, NET_H)
		mask = re.search(r'AA_SFS_AF_MASK "(.*)"', out).group(1)
		self.assertEqual(mask.split(' '), [n for n in mask.split(' ') if n])

	def test_the_last_family_is_kept_when_max_follows_it_directly(self):
		text = SOCKET_H.replace('#define AF_MCTP\t\t45', '#define AF_XDP\t\t44\n#define AF_MCTP\t\t45')
		out = generate(self.makefile, text, NET_H)
		self.assertIn('[44] = "xdp",\n[45] = "mctp",\n};', out)
		self.assertIn(' xdp mctp"', out)


class Blobs(unittest.TestCase):
	def test_committed_blobs_are_what_the_parser_compiles(self):
		if not os.access('/usr/sbin/apparmor_parser', os.X_OK):
			self.skipTest('apparmor_parser missing (make setup installs apparmor)')
		proc = subprocess.run([os.path.join(REPO, 'kunit', 'apparmor', 'blobs'), '--check'],
				      capture_output=True, text=True, check=False)
		self.assertEqual(proc.returncode, 0, proc.stderr)


if __name__ == '__main__':
	unittest.main()
