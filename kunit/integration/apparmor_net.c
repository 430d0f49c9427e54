// SPDX-License-Identifier: GPL-2.0
/*
 * AppArmor socket mediation from userspace: load the compiled profile
 * net_inet_stream (kunit/integration/profiles/, "network inet stream,"
 * only), change to it, and create sockets: inet stream is allowed, inet
 * dgram and inet6 are refused with EACCES. The af_mask feature file
 * (features/network_v8/af_mask) names the address families.
 */

#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "files.h"
#include "ktap.h"

#define AA		"/sys/kernel/security/apparmor"
#define PROFILE		"net_inet_stream"
#define BLOB		"/apparmor/" PROFILE

struct sock_case {
	const char *name;
	int family, type;
	int want;		/* 0 or the errno */
};

static const struct sock_case socks[] = {
	{ "socket(AF_INET, SOCK_STREAM) allowed", AF_INET, SOCK_STREAM, 0 },
	{ "socket(AF_INET, SOCK_DGRAM) refused with EACCES", AF_INET, SOCK_DGRAM, EACCES },
	{ "socket(AF_INET6, SOCK_STREAM) refused with EACCES", AF_INET6, SOCK_STREAM, EACCES },
	{ "socket(AF_INET6, SOCK_DGRAM) refused with EACCES", AF_INET6, SOCK_DGRAM, EACCES },
};

#define NSOCKS ARRAY_SIZE(socks)

static const char *const families[] = { "unix", "inet", "inet6", "netlink", "packet" };

#define NFAMILIES ARRAY_SIZE(families)

/* Load the compiled profile through the .load interface: 0 or an errno. */
static int load_profile(void)
{
	static char blob[65536];
	ssize_t n = read_file(BLOB, blob, sizeof(blob));

	if (n < 0)
		return -n;
	return write_file(AA "/.load", blob, n);
}

/*
 * In a child confined by the profile, try each socket; the exit status
 * has bit i set when socket i did what it should. The child writes
 * nothing: the profile allows no file access, not even to the console.
 */
static int confined_sockets(void)
{
	static const char change[] = "changeprofile " PROFILE;
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -errno;
	if (!pid) {
		unsigned int i, bits = 0;

		if (write_file("/proc/self/attr/apparmor/current", change, strlen(change)) &&
		    write_file("/proc/self/attr/current", change, strlen(change)))
			_exit(0x80);
		for (i = 0; i < NSOCKS; i++) {
			int fd = socket(socks[i].family, socks[i].type, 0);
			int got = fd < 0 ? errno : 0;

			if (fd >= 0)
				close(fd);
			if (got == socks[i].want)
				bits |= 1u << i;
		}
		_exit(bits);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -ECHILD;
	return WEXITSTATUS(status);
}

int main(void)
{
	char mask[4096];
	unsigned int i;
	ssize_t n;
	int err, bits;

	ktap_begin("integration_apparmor_net", NFAMILIES + 2 + NSOCKS);
	n = read_file(AA "/features/network_v8/af_mask", mask, sizeof(mask));
	if (n < 0) {
		ktap_diag("%s/features/network_v8/af_mask: %s", AA, strerror(-n));
		mask[0] = '\0';
	}
	for (i = 0; i < NFAMILIES; i++) {
		char word[32];
		const char *p = mask;
		bool found = false;

		while (!found && sscanf(p, "%31s", word) == 1) {
			found = !strcmp(word, families[i]);
			p = strstr(p, word) + strlen(word);
		}
		ktap_ok(found, "af_mask names %s", families[i]);
	}
	err = load_profile();
	if (err)
		ktap_diag("load %s: %s", BLOB, strerror(err));
	ktap_ok(!err, "profile %s loaded", PROFILE);
	bits = confined_sockets();
	if (bits < 0 || (bits & 0x80))
		ktap_diag("cannot change to profile %s", PROFILE);
	ktap_ok(bits >= 0 && !(bits & 0x80), "changed to profile %s", PROFILE);
	for (i = 0; i < NSOCKS; i++)
		ktap_ok(bits >= 0 && !(bits & 0x80) && (bits & (1u << i)), "%s", socks[i].name);
	return ktap_end();
}
