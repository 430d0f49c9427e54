// SPDX-License-Identifier: GPL-2.0
/*
 * AppArmor socket mediation from userspace, with the audit records a
 * reader of the audit log gets. The compiled profiles of
 * kunit/apparmor/profiles/ are loaded: net_inet_stream ("network inet
 * stream," only), net_complain (the same, in complain mode), net_before
 * (every network access, and a change to net_exec at the exec of this
 * program) and net_exec (net_inet_stream that may map this program).
 *
 * A child changes to net_inet_stream and works its sockets: inet stream
 * ones are created, bound, connected over loopback and sent on; an inet
 * dgram socket is refused at create, and the one it opened before the
 * change is refused at connect, sendto, bind and write. Another child in
 * net_complain creates the dgram socket, allowed and audited. A third
 * opens both kinds under net_before and execs this program into net_exec
 * (change_onexec): the dgram socket is revalidated and replaced at exec
 * (aa_inherit_files()), the stream one is kept.
 * The children write nothing (the profiles allow no console): their
 * results go through shared memory. The parent reads the records from
 * the audit multicast group and matches each field.
 */

#include <linux/audit.h>
#include <linux/netlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "files.h"
#include "ktap.h"

#define AA		"/sys/kernel/security/apparmor"
#define SELF		"/bin/apparmor_net"

static const char *const profiles[] = {
	"net_inet_stream", "net_complain", "net_before", "net_exec",
};

#define NPROFILES ARRAY_SIZE(profiles)

static const char *const families[] = { "unix", "inet", "inet6", "netlink", "packet" };

#define NFAMILIES ARRAY_SIZE(families)

/* What a child did, each an errno (0: it worked), and where it was. */
enum step {
	CHANGED,		/* changed to the profile */
	CREATE_STREAM,
	CREATE_DGRAM,
	CREATE_INET6,
	CONNECT_STREAM,
	SEND_STREAM,
	BIND_STREAM,
	CONNECT_DGRAM,
	SENDTO_DGRAM,
	BIND_DGRAM,
	WRITE_DGRAM,
	COMPLAIN_CHANGED,
	COMPLAIN_DGRAM,
	EXEC_CHANGED,		/* change_onexec written, in net_before */
	EXEC_DGRAM_GONE,	/* 0: the inherited dgram fd is no socket */
	EXEC_STREAM_KEPT,	/* 0: the inherited stream fd is a socket */
	NSTEPS
};

struct step_case {
	enum step step;
	int want;
	const char *name;
};

static const struct step_case steps[] = {
	{ CHANGED, 0, "changed to net_inet_stream" },
	{ CREATE_STREAM, 0, "socket(AF_INET, SOCK_STREAM) allowed" },
	{ CREATE_DGRAM, EACCES, "socket(AF_INET, SOCK_DGRAM) refused with EACCES" },
	{ CREATE_INET6, EACCES, "socket(AF_INET6, SOCK_STREAM) refused with EACCES" },
	{ CONNECT_STREAM, 0, "connect() of inet stream over loopback allowed" },
	{ SEND_STREAM, 0, "send() on inet stream allowed" },
	{ BIND_STREAM, 0, "bind() of inet stream allowed" },
	{ CONNECT_DGRAM, EACCES, "connect() of inet dgram from before refused with EACCES" },
	{ SENDTO_DGRAM, EACCES, "sendto() on inet dgram from before refused with EACCES" },
	{ BIND_DGRAM, EACCES, "bind() of inet dgram from before refused with EACCES" },
	{ WRITE_DGRAM, EACCES, "write() on inet dgram from before refused with EACCES" },
	{ COMPLAIN_CHANGED, 0, "changed to net_complain" },
	{ COMPLAIN_DGRAM, 0, "socket(AF_INET, SOCK_DGRAM) allowed in complain mode" },
	{ EXEC_CHANGED, 0, "change_onexec to net_exec, then changed to net_before" },
	{ EXEC_DGRAM_GONE, 0, "exec: the inherited inet dgram socket is replaced" },
	{ EXEC_STREAM_KEPT, 0, "exec: the inherited inet stream socket is kept" },
};

/*
 * The records the children's decisions must leave, each field with the
 * value it must have (pid= is the child's). protocol= is what socket()
 * was asked for at create, the socket's own protocol later.
 */
struct record_case {
	const char *name;
	int child;		/* which child's pid */
	const char *fields[10];
};

enum { ENFORCE, COMPLAIN, EXEC, NCHILDREN };

static const struct record_case records[] = {
	{ "refused create", ENFORCE, { "apparmor=\"DENIED\"", "operation=\"create\"",
	  "profile=\"net_inet_stream\"", "family=\"inet\"", "sock_type=\"dgram\"", "protocol=0",
	  "requested_mask=\"create\"", "denied_mask=\"create\"" } },
	{ "refused connect", ENFORCE, { "apparmor=\"DENIED\"", "operation=\"connect\"",
	  "profile=\"net_inet_stream\"", "family=\"inet\"", "sock_type=\"dgram\"", "protocol=17",
	  "requested_mask=\"connect\"", "denied_mask=\"connect\"" } },
	{ "refused sendmsg", ENFORCE, { "apparmor=\"DENIED\"", "operation=\"sendmsg\"",
	  "profile=\"net_inet_stream\"", "family=\"inet\"", "sock_type=\"dgram\"", "protocol=17",
	  "requested_mask=\"send\"", "denied_mask=\"send\"" } },
	{ "refused bind", ENFORCE, { "apparmor=\"DENIED\"", "operation=\"bind\"",
	  "profile=\"net_inet_stream\"", "family=\"inet\"", "sock_type=\"dgram\"", "protocol=17",
	  "requested_mask=\"bind\"", "denied_mask=\"bind\"" } },
	{ "complain create", COMPLAIN, { "apparmor=\"ALLOWED\"", "operation=\"create\"",
	  "profile=\"net_complain\"", "family=\"inet\"", "sock_type=\"dgram\"", "protocol=0",
	  "requested_mask=\"create\"", "denied_mask=\"create\"" } },
	{ "refused inherit at exec", EXEC, { "apparmor=\"DENIED\"", "operation=\"file_inherit\"",
	  "profile=\"net_exec\"", "family=\"inet\"", "sock_type=\"dgram\"", "protocol=17",
	  "requested_mask=\"send receive\"", "denied_mask=\"send receive\"" } },
};

#define NRECORDS ARRAY_SIZE(records)

static int *shared;		/* NSTEPS results, shared with the children */
static struct sockaddr_in listen_addr;

/* The loopback device up, as a boot's first ifconfig brings it. */
static int loopback_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM, 0), err = 0;

	if (fd < 0)
		return errno;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		err = errno;
	ifr.ifr_flags |= IFF_UP;
	if (!err && ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		err = errno;
	close(fd);
	return err;
}

/* A listening inet stream socket on 127.0.0.1, its address in listen_addr. */
static int listener(void)
{
	socklen_t len = sizeof(listen_addr);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	listen_addr = (struct sockaddr_in){
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	if (fd < 0 || bind(fd, (struct sockaddr *)&listen_addr, sizeof(listen_addr)) ||
	    listen(fd, 4) || getsockname(fd, (struct sockaddr *)&listen_addr, &len))
		return -errno;
	return fd;
}

/* The audit multicast group: every record, as kauditd sends it. */
static int audit_reader(void)
{
	struct sockaddr_nl addr = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1u << (AUDIT_NLGRP_READLOG - 1),
	};
	struct timeval tv = { .tv_sec = 2 };
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT);

	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		return -errno;
	return fd;
}

/* Writes "@how @profile" to the task's AppArmor attribute @attr (current, exec). */
static int change_profile(const char *attr, const char *how, const char *profile)
{
	char cmd[64], path[64];

	snprintf(cmd, sizeof(cmd), "%s %s", how, profile);
	snprintf(path, sizeof(path), "/proc/self/attr/apparmor/%s", attr);
	if (!write_str(path, cmd))
		return 0;
	snprintf(path, sizeof(path), "/proc/self/attr/%s", attr);
	return write_str(path, cmd);
}

static int result(int ret)
{
	return ret < 0 ? errno : 0;
}

/* The enforce child: net_inet_stream, with @dgram opened before. */
static void enforce_child(int dgram)
{
	struct sockaddr_in any = { .sin_family = AF_INET };
	int fd;

	shared[CHANGED] = change_profile("current", "changeprofile", "net_inet_stream");
	if (shared[CHANGED])
		_exit(1);

	fd = socket(AF_INET, SOCK_STREAM, 0);
	shared[CREATE_STREAM] = result(fd);
	shared[CONNECT_STREAM] = result(connect(fd, (struct sockaddr *)&listen_addr,
						sizeof(listen_addr)));
	shared[SEND_STREAM] = result(send(fd, "x", 1, 0));
	fd = socket(AF_INET, SOCK_STREAM, 0);
	shared[BIND_STREAM] = result(bind(fd, (struct sockaddr *)&any, sizeof(any)));
	shared[CREATE_DGRAM] = result(socket(AF_INET, SOCK_DGRAM, 0));
	shared[CREATE_INET6] = result(socket(AF_INET6, SOCK_STREAM, 0));

	shared[CONNECT_DGRAM] = result(connect(dgram, (struct sockaddr *)&listen_addr,
					       sizeof(listen_addr)));
	shared[SENDTO_DGRAM] = result(sendto(dgram, "x", 1, 0, (struct sockaddr *)&listen_addr,
					     sizeof(listen_addr)));
	shared[BIND_DGRAM] = result(bind(dgram, (struct sockaddr *)&any, sizeof(any)));
	shared[WRITE_DGRAM] = result(write(dgram, "x", 1));
	_exit(0);
}

static void complain_child(void)
{
	shared[COMPLAIN_CHANGED] = change_profile("current", "changeprofile", "net_complain");
	if (!shared[COMPLAIN_CHANGED])
		shared[COMPLAIN_DGRAM] = result(socket(AF_INET, SOCK_DGRAM, 0));
	_exit(0);
}

/*
 * The exec child: under net_before (every network access), opens an inet
 * dgram and an inet stream socket, then execs this program into net_exec
 * with both. A socket opened while unconfined would not do: AppArmor
 * does not revalidate files an unconfined task delegates.
 */
static void exec_child(void)
{
	char d[16], s[16];
	int dgram, stream;

	shared[EXEC_CHANGED] = change_profile("exec", "exec", "net_exec");
	if (!shared[EXEC_CHANGED])
		shared[EXEC_CHANGED] = change_profile("current", "changeprofile", "net_before");
	dgram = socket(AF_INET, SOCK_DGRAM, 0);
	stream = socket(AF_INET, SOCK_STREAM, 0);
	snprintf(d, sizeof(d), "%d", dgram);
	snprintf(s, sizeof(s), "%d", stream);
	execl(SELF, SELF, "--inherited", d, s, (char *)NULL);
	_exit(127);
}

static bool is_socket(const char *fd)
{
	struct stat st;

	return !fstat(atoi(fd), &st) && S_ISSOCK(st.st_mode);
}

/* After the exec: exit status bit 0 when the dgram fd is gone, 1 when the stream one is not. */
static int inherited(const char *dgram, const char *stream)
{
	return (is_socket(dgram) ? 1 : 0) | (is_socket(stream) ? 0 : 2);
}

static pid_t spawn(int child, int dgram)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	if (child == ENFORCE)
		enforce_child(dgram);
	else if (child == COMPLAIN)
		complain_child();
	exec_child();
	return 0;
}

/* Waits for @pid: its exit status, or -1 if it did not exit. */
static int reap(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* @text has " @field" followed by a space or its end. */
static bool has_field(const char *text, const char *field)
{
	size_t len = strlen(field);
	const char *p;

	for (p = strstr(text, field); p; p = strstr(p + 1, field))
		if (p > text && p[-1] == ' ' && (p[len] == ' ' || p[len] == '\0'))
			return true;
	return false;
}

static bool matches(const char *text, const struct record_case *r, pid_t pid)
{
	char pidf[32];
	unsigned int i;

	snprintf(pidf, sizeof(pidf), "pid=%d", (int)pid);
	if (!has_field(text, pidf))
		return false;
	for (i = 0; i < ARRAY_SIZE(r->fields) && r->fields[i]; i++)
		if (!has_field(text, r->fields[i]))
			return false;
	return true;
}

/* Reads records until each of records[] is matched, or 2 s of silence. */
static void read_records(int fd, const pid_t *pids, bool *found)
{
	static char buf[8192];
	unsigned int i, left = NRECORDS;
	ssize_t n;

	while (left && (n = recv(fd, buf, sizeof(buf) - 1, 0)) > 0) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
		char *text = (char *)NLMSG_DATA(nlh);

		if ((size_t)n < NLMSG_HDRLEN || nlh->nlmsg_type != AUDIT_AVC)
			continue;
		buf[n] = '\0';
		for (i = 0; i < NRECORDS; i++) {
			if (found[i] || !matches(text, &records[i], pids[records[i].child]))
				continue;
			found[i] = true;
			left--;
		}
		if (strstr(text, "apparmor="))
			ktap_diag("%s", text);
	}
}

static int load_profiles(void)
{
	static char blob[65536];
	char path[64];
	unsigned int i;
	ssize_t n;
	int err;

	for (i = 0; i < NPROFILES; i++) {
		snprintf(path, sizeof(path), "/apparmor/%s", profiles[i]);
		n = read_file(path, blob, sizeof(blob));
		err = n < 0 ? -n : write_file(AA "/.load", blob, n);
		if (err) {
			ktap_diag("load %s: %s", path, strerror(err));
			return err;
		}
	}
	return 0;
}

static void check_af_mask(void)
{
	char mask[4096];
	unsigned int i;
	ssize_t n;

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
}

int main(int argc, char **argv)
{
	bool found[NRECORDS] = { false };
	int audit, listen_fd, dgram, status[NCHILDREN], i;
	pid_t pids[NCHILDREN];
	unsigned int s;

	if (argc == 4 && !strcmp(argv[1], "--inherited"))
		return inherited(argv[2], argv[3]);

	ktap_begin("integration_apparmor_net", NFAMILIES + 1 + ARRAY_SIZE(steps) + NRECORDS);
	check_af_mask();
	ktap_ok(!load_profiles(), "profiles loaded");

	shared = mmap(NULL, NSTEPS * sizeof(int), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		ktap_diag("mmap: %s", strerror(errno));
		ktap_skip_rest("no shared memory");
		return ktap_end();
	}
	for (s = 0; s < NSTEPS; s++)
		shared[s] = -1;
	audit = audit_reader();
	if (audit < 0)
		ktap_diag("audit multicast: %s", strerror(-audit));
	if (loopback_up())
		ktap_diag("lo: %s", strerror(errno));
	listen_fd = listener();
	if (listen_fd < 0)
		ktap_diag("listener: %s", strerror(-listen_fd));
	dgram = socket(AF_INET, SOCK_DGRAM, 0);

	for (i = 0; i < NCHILDREN; i++) {
		pids[i] = spawn(i, dgram);
		status[i] = reap(pids[i]);
	}
	if (status[EXEC] >= 0 && status[EXEC] < 4) {
		shared[EXEC_DGRAM_GONE] = status[EXEC] & 1 ? EEXIST : 0;
		shared[EXEC_STREAM_KEPT] = status[EXEC] & 2 ? ENOTSOCK : 0;
	} else {
		ktap_diag("exec child: status %d", status[EXEC]);
	}

	for (s = 0; s < ARRAY_SIZE(steps); s++) {
		int got = shared[steps[s].step];

		if (got != steps[s].want)
			ktap_diag("%s: got %s", steps[s].name, got < 0 ? "nothing" : strerror(got));
		ktap_ok(got == steps[s].want, "%s", steps[s].name);
	}
	if (audit >= 0)
		read_records(audit, pids, found);
	for (s = 0; s < NRECORDS; s++)
		ktap_ok(found[s], "audit record: %s", records[s].name);
	return ktap_end();
}
