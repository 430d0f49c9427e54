// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for what AppArmor mediates after a socket exists: each
 * operation hook of lsm.c asks aa_sk_perm() for one permission, against
 * the socket's family and type; the profile's mode and its audit and
 * quiet bits decide the answer and the audit record, which the suite
 * reads the way auditd's readers do.
 *
 * Included at the end of net_kunit.c, whose policy helpers it uses.
 */

#include <linux/audit.h>
#include <linux/in.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

/*
 * The accept entry (accept table, or with @shift 7 the quiet half of
 * accept2) that the parser writes for a policydb state, ABI v5 to v8:
 * bits 0-6 hold the low permissions as they are, bits 14-20 ("other")
 * the ones map_other() (6.12: policy_compat.c, 6.1: lib.c) moves up to
 * SETATTR, GETATTR, ACCEPT, BIND, LISTEN, SETOPT and GETOPT.
 */
static u32 aa_kunit_accept_entry(u32 perms, int shift)
{
	u32 other = ((perms & (AA_MAY_SETATTR | AA_MAY_GETATTR)) >> 8) |
		    ((perms & (AA_MAY_ACCEPT | AA_MAY_BIND | AA_MAY_LISTEN)) >> 18) |
		    ((perms & (AA_MAY_SETOPT | AA_MAY_GETOPT)) >> 19);

	return ((perms & 0x7f) | other << 14) << shift;
}

/*
 * net_inet_stream with the permissions of its (inet, stream) state
 * replaced: the state is the one the kernel's own match of the original
 * policy ends in, and its accept entries are rewritten in a copy of the
 * blob, which then goes through aa_unpack() as the parser's would.
 */
static struct aa_profile *aa_kunit_profile_perms(struct kunit *test, u32 allow, u32 audit,
						 u32 quiet)
{
	__be16 buffer[2] = { cpu_to_be16(AF_INET), cpu_to_be16(SOCK_STREAM) };
	const unsigned int *start;
	struct aa_kunit_policy *p;
	struct aa_kunit_dfa dfa;
	struct aa_dfa *dfa_of_orig;
	struct aa_profile *orig;
	u8 *accept, *accept2;
	u32 state;

	orig = aa_kunit_profile(test, net_inet_stream_blob, sizeof(net_inet_stream_blob),
				"net_inet_stream");
	dfa_of_orig = aa_kunit_policydb(orig, &start);
	state = aa_dfa_match_len(dfa_of_orig, start[AA_CLASS_NET], (char *)buffer,
				 sizeof(buffer));

	p = aa_kunit_policy(test, net_inet_stream_blob, sizeof(net_inet_stream_blob));
	aa_kunit_dfa_find(test, p->udata.data, p->udata.size, &dfa);
	accept = aa_dfa_entry(&dfa, YYTD_ID_ACCEPT, state);
	accept2 = aa_dfa_entry(&dfa, YYTD_ID_ACCEPT2, state);
	KUNIT_ASSERT_NOT_NULL(test, accept);
	KUNIT_ASSERT_NOT_NULL(test, accept2);
	/* the parser's own entry allows every operation */
	KUNIT_ASSERT_EQ(test, get_unaligned_be32(accept) & aa_kunit_accept_entry(NET_PERMS_MASK, 0),
			aa_kunit_accept_entry(NET_PERMS_MASK, 0));
	put_unaligned_be32(aa_kunit_accept_entry(allow, 0), accept);
	put_unaligned_be32(aa_kunit_accept_entry(audit, 0) | aa_kunit_accept_entry(quiet, 7),
			   accept2);
	return aa_kunit_profile_of(test, p, "net_inet_stream", APPARMOR_ENFORCE);
}

/*
 * Audit records as auditd's readers get them: a kernel netlink socket in
 * the group AUDIT_NLGRP_READLOG, to which kauditd_thread() sends a copy
 * of every record in the order they were logged, with or without an
 * auditd (kauditd_send_multicast_skb(), kernel/audit.c).
 */
#define AA_AUDIT_LEN	1024
#define AA_FIELD_LEN	64

/* apparmor= of a record: aa_audit_type[] of audit.c */
#define AA_DENIED	"\"DENIED\""
#define AA_ALLOWED	"\"ALLOWED\""
#define AA_AUDIT	"\"AUDIT\""

struct aa_kunit_audit {
	struct socket *sock;
	char *buf;
	char rec[AA_AUDIT_LEN];		/* the last AppArmor record read */
};

static struct aa_kunit_audit *aa_kunit_audit_open(struct kunit *test)
{
	struct sockaddr_nl addr = {
		.nl_family = AF_NETLINK,
		.nl_groups = BIT(AUDIT_NLGRP_READLOG - 1),
	};
	struct aa_kunit_audit *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, a);
	a->buf = kunit_kzalloc(test, AA_AUDIT_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a->buf);
	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_NETLINK, SOCK_RAW, NETLINK_AUDIT,
					       &a->sock), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, aa_kunit_sock_release, a->sock), 0);
	KUNIT_ASSERT_EQ(test, kernel_bind(a->sock, (struct sockaddr *)&addr, sizeof(addr)), 0);
	a->sock->sk->sk_rcvtimeo = 10 * HZ;
	return a;
}

/*
 * The AppArmor records (AUDIT_AVC, "apparmor=") logged since the last
 * call: logs a marker record and reads up to it. Returns how many there
 * were, and keeps the last in @a->rec.
 */
static int aa_kunit_audit_read(struct kunit *test, struct aa_kunit_audit *a)
{
	static unsigned int serial;
	char marker[32];
	int n = 0;

	snprintf(marker, sizeof(marker), "aa_kunit_marker=%u", ++serial);
	audit_log(NULL, GFP_KERNEL, AUDIT_KERNEL_OTHER, "%s", marker);
	a->rec[0] = '\0';
	for (;;) {
		struct kvec iov = { .iov_base = a->buf, .iov_len = AA_AUDIT_LEN - 1 };
		struct nlmsghdr *nlh = (struct nlmsghdr *)a->buf;
		struct msghdr msg = { };
		int len = kernel_recvmsg(a->sock, &msg, &iov, 1, iov.iov_len, 0);

		if (len < NLMSG_HDRLEN) {
			KUNIT_FAIL(test, "audit: no marker record (%d)", len);
			return n;
		}
		a->buf[len] = '\0';
		if (strstr(nlmsg_data(nlh), marker))
			return n;
		if (nlh->nlmsg_type == AUDIT_AVC && strstr(nlmsg_data(nlh), "apparmor=")) {
			strscpy(a->rec, nlmsg_data(nlh), sizeof(a->rec));
			n++;
		}
	}
}

/* @rec has the field @key with the value @fmt (quoted if a string). */
static __printf(4, 5) void aa_kunit_expect_field(struct kunit *test, const char *rec,
						  const char *key, const char *fmt, ...)
{
	char want[AA_FIELD_LEN], have[AA_AUDIT_LEN + 2];
	int len = scnprintf(want, sizeof(want), " %s=", key);
	va_list args;

	va_start(args, fmt);
	len += vscnprintf(want + len, sizeof(want) - len, fmt, args);
	va_end(args);
	scnprintf(want + len, sizeof(want) - len, " ");
	scnprintf(have, sizeof(have), " %s ", rec);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(have, want), "'%s' not in: %s", want, rec);
}

static void aa_kunit_expect_no_field(struct kunit *test, const char *rec, const char *key)
{
	char want[AA_FIELD_LEN];

	scnprintf(want, sizeof(want), " %s=", key);
	KUNIT_EXPECT_NULL_MSG(test, strstr(rec, want), "'%s' in: %s", want, rec);
}

/* The operations, each as a task reaches its hook through the syscall. */
static int aa_kunit_op_bind(struct socket *sock)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(7) };

	return security_socket_bind(sock, (struct sockaddr *)&sin, sizeof(sin));
}

static int aa_kunit_op_connect(struct socket *sock)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(7),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};

	return security_socket_connect(sock, (struct sockaddr *)&sin, sizeof(sin));
}

static int aa_kunit_op_listen(struct socket *sock)
{
	return security_socket_listen(sock, 1);
}

/* AppArmor reads only the listening socket; the new one stands in. */
static int aa_kunit_op_accept(struct socket *sock)
{
	return security_socket_accept(sock, sock);
}

/* A sendmsg() of one byte with @flags, to 127.0.0.1:7 if @to. */
static int aa_kunit_sendmsg(struct socket *sock, unsigned int flags, bool to)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(7),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct msghdr msg = { .msg_flags = flags };

	if (to) {
		msg.msg_name = &sin;
		msg.msg_namelen = sizeof(sin);
	}
	return security_socket_sendmsg(sock, &msg, 1);
}

static int aa_kunit_op_sendmsg(struct socket *sock)
{
	return aa_kunit_sendmsg(sock, 0, false);
}

/* sendto(MSG_FASTOPEN) on TCP: a send that also connects. */
static int aa_kunit_op_fastopen(struct socket *sock)
{
	return aa_kunit_sendmsg(sock, MSG_FASTOPEN, true);
}

static int aa_kunit_op_recvmsg(struct socket *sock)
{
	struct msghdr msg = { };

	return security_socket_recvmsg(sock, &msg, 1, 0);
}

static int aa_kunit_op_getsockname(struct socket *sock)
{
	return security_socket_getsockname(sock);
}

static int aa_kunit_op_getpeername(struct socket *sock)
{
	return security_socket_getpeername(sock);
}

static int aa_kunit_op_getsockopt(struct socket *sock)
{
	return security_socket_getsockopt(sock, SOL_SOCKET, SO_TYPE);
}

static int aa_kunit_op_setsockopt(struct socket *sock)
{
	return security_socket_setsockopt(sock, SOL_SOCKET, SO_KEEPALIVE);
}

static int aa_kunit_op_shutdown(struct socket *sock)
{
	return security_socket_shutdown(sock, SHUT_RDWR);
}

struct aa_net_op_case {
	const char *desc;
	int (*call)(struct socket *sock);
	u32 request;		/* every permission the operation needs */
	const char *op;		/* the record of a refusal: operation= */
	const char *mask;	/* requested_mask= and denied_mask= */
};

/*
 * What each hook asks for: lsm.c of 6.12 (and of 6.1, the same), the
 * af_select() fallback of apparmor_socket_<op>() to aa_sk_perm(OP_x,
 * AA_MAY_x); the mask names are net_mask_names of net.c.
 */
static const struct aa_net_op_case aa_net_op_cases[] = {
	{ "bind: AA_MAY_BIND", aa_kunit_op_bind, AA_MAY_BIND, OP_BIND, "bind" },
	{ "connect: AA_MAY_CONNECT", aa_kunit_op_connect, AA_MAY_CONNECT, OP_CONNECT,
	  "connect" },
	{ "listen: AA_MAY_LISTEN", aa_kunit_op_listen, AA_MAY_LISTEN, OP_LISTEN, "listen" },
	{ "accept: AA_MAY_ACCEPT", aa_kunit_op_accept, AA_MAY_ACCEPT, OP_ACCEPT, "accept" },
	{ "sendmsg: AA_MAY_SEND", aa_kunit_op_sendmsg, AA_MAY_SEND, OP_SENDMSG, "send" },
	/* apparmor_socket_sendmsg(): then aa_sk_perm(OP_CONNECT, AA_MAY_CONNECT) */
	{ "sendmsg MSG_FASTOPEN: AA_MAY_SEND, then AA_MAY_CONNECT", aa_kunit_op_fastopen,
	  AA_MAY_SEND | AA_MAY_CONNECT, OP_SENDMSG, "send" },
	{ "recvmsg: AA_MAY_RECEIVE", aa_kunit_op_recvmsg, AA_MAY_RECEIVE, OP_RECVMSG,
	  "receive" },
	{ "getsockname: AA_MAY_GETATTR", aa_kunit_op_getsockname, AA_MAY_GETATTR,
	  OP_GETSOCKNAME, "getattr" },
	{ "getpeername: AA_MAY_GETATTR", aa_kunit_op_getpeername, AA_MAY_GETATTR,
	  OP_GETPEERNAME, "getattr" },
	{ "getsockopt: AA_MAY_GETOPT", aa_kunit_op_getsockopt, AA_MAY_GETOPT, OP_GETSOCKOPT,
	  "getopt" },
	{ "setsockopt: AA_MAY_SETOPT", aa_kunit_op_setsockopt, AA_MAY_SETOPT, OP_SETSOCKOPT,
	  "setopt" },
	{ "shutdown: AA_MAY_SHUTDOWN", aa_kunit_op_shutdown, AA_MAY_SHUTDOWN, OP_SHUTDOWN,
	  "shutdown" },
};

KUNIT_ARRAY_PARAM_DESC(aa_net_op, aa_net_op_cases, desc);

/* @t's operation on @sock by a task under @profile (NULL: unconfined). */
static int aa_kunit_op(struct kunit *test, const struct aa_net_op_case *t,
		       struct aa_profile *profile, struct socket *sock)
{
	const struct cred *old;
	int err;

	if (!profile)
		return t->call(sock);
	old = aa_kunit_confine(test, profile);
	err = t->call(sock);
	aa_kunit_unconfine(old);
	return err;
}

static struct socket *aa_kunit_socket(struct kunit *test, int family, int type, bool kern)
{
	struct socket *sock;

	if (kern)
		KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, family, type, 0, &sock), 0);
	else
		KUNIT_ASSERT_EQ(test, sock_create(family, type, 0, &sock), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, aa_kunit_sock_release, sock), 0);
	return sock;
}

/* One DENIED record for @t on an inet socket of @type: every field. */
static void aa_kunit_expect_denied(struct kunit *test, struct aa_kunit_audit *a,
				   const struct aa_net_op_case *t, const char *type,
				   int protocol)
{
	KUNIT_EXPECT_EQ(test, aa_kunit_audit_read(test, a), 1);
	aa_kunit_expect_field(test, a->rec, "apparmor", "%s", AA_DENIED);
	aa_kunit_expect_field(test, a->rec, "operation", "\"%s\"", t->op);
	aa_kunit_expect_field(test, a->rec, "profile", "\"net_inet_stream\"");
	aa_kunit_expect_field(test, a->rec, "family", "\"inet\"");
	aa_kunit_expect_field(test, a->rec, "sock_type", "\"%s\"", type);
	aa_kunit_expect_field(test, a->rec, "protocol", "%d", protocol);
	aa_kunit_expect_field(test, a->rec, "requested_mask", "\"%s\"", t->mask);
	aa_kunit_expect_field(test, a->rec, "denied_mask", "\"%s\"", t->mask);
}

/*
 * Each operation on a task's inet stream socket, under net_inet_stream
 * with its permissions edited: allowed when the profile allows create and
 * the operation's permissions alone, refused with -EACCES and a DENIED
 * record naming the operation, the socket and the masks when it allows
 * everything else, and refused when any one of its permissions is
 * missing. The same operation on an inet dgram socket, which the profile
 * does not allow, is refused; on a kernel socket, or by an unconfined
 * task, it is never mediated.
 */
static void aa_net_op_test(struct kunit *test)
{
	const struct aa_net_op_case *t = test->param_value;
	struct aa_profile *full, *only, *but;
	struct socket *stream, *dgram, *kern;
	struct aa_kunit_audit *a;
	u32 bit;

	a = aa_kunit_audit_open(test);
	stream = aa_kunit_socket(test, AF_INET, SOCK_STREAM, false);
	dgram = aa_kunit_socket(test, AF_INET, SOCK_DGRAM, false);
	kern = aa_kunit_socket(test, AF_INET, SOCK_STREAM, true);
	full = aa_kunit_profile(test, net_inet_stream_blob, sizeof(net_inet_stream_blob),
				"net_inet_stream");
	only = aa_kunit_profile_perms(test, AA_MAY_CREATE | t->request, 0, 0);
	but = aa_kunit_profile_perms(test, NET_PERMS_MASK & ~t->request, 0, 0);
	aa_kunit_audit_read(test, a);

	KUNIT_EXPECT_EQ(test, aa_kunit_op(test, t, full, stream), 0);
	KUNIT_EXPECT_EQ(test, aa_kunit_op(test, t, only, stream), 0);
	KUNIT_EXPECT_EQ(test, aa_kunit_op(test, t, NULL, stream), 0);
	KUNIT_EXPECT_EQ(test, aa_kunit_op(test, t, but, kern), 0);
	KUNIT_EXPECT_EQ(test, aa_kunit_audit_read(test, a), 0);

	KUNIT_EXPECT_EQ(test, aa_kunit_op(test, t, but, stream), -EACCES);
	aa_kunit_expect_denied(test, a, t, "stream", IPPROTO_TCP);
	KUNIT_EXPECT_EQ(test, aa_kunit_op(test, t, full, dgram), -EACCES);
	aa_kunit_expect_denied(test, a, t, "dgram", IPPROTO_UDP);

	for (bit = 1; bit; bit <<= 1) {
		struct aa_profile *one;

		if (!(t->request & bit))
			continue;
		one = aa_kunit_profile_perms(test, NET_PERMS_MASK & ~bit, 0, 0);
		KUNIT_EXPECT_EQ_MSG(test, aa_kunit_op(test, t, one, stream), -EACCES,
				    "permission %#x refused", bit);
	}
}

struct aa_net_mode_case {
	const char *desc;
	const u8 *blob;
	size_t size;
	const char *profile;
	enum profile_mode mode;
	u16 family;
	int type;
	int error;
	const char *record;	/* apparmor= of the one record, or NULL: none */
};

/*
 * connect() under each profile mode and audit rule of a compiled profile
 * (kunit/apparmor/profiles/): enforce refuses, complain allows what it
 * would refuse and audits it as ALLOWED, an audit rule audits what it
 * allows, a deny rule is quiet unless it is an audit deny, and a
 * refusal no rule covers is audited (aa_check_perms(), lib.c).
 */
static const struct aa_net_mode_case aa_net_mode_cases[] = {
	{ "enforce, allowed: no record", AA_BLOB(net_inet_stream), APPARMOR_ENFORCE,
	  AF_INET, SOCK_STREAM, 0, NULL },
	{ "enforce, no rule: refused, DENIED", AA_BLOB(net_inet_stream), APPARMOR_ENFORCE,
	  AF_INET, SOCK_DGRAM, -EACCES, AA_DENIED },
	{ "complain, allowed: no record", AA_BLOB(net_complain), APPARMOR_COMPLAIN,
	  AF_INET, SOCK_STREAM, 0, NULL },
	{ "complain, no rule: allowed, ALLOWED", AA_BLOB(net_complain), APPARMOR_COMPLAIN,
	  AF_INET, SOCK_DGRAM, 0, AA_ALLOWED },
	{ "complain, no rule for inet6: allowed, ALLOWED", AA_BLOB(net_complain),
	  APPARMOR_COMPLAIN, AF_INET6, SOCK_STREAM, 0, AA_ALLOWED },
	{ "audit rule: allowed, AUDIT", AA_BLOB(net_audit), APPARMOR_ENFORCE,
	  AF_INET, SOCK_STREAM, 0, AA_AUDIT },
	{ "deny rule: refused, quiet", AA_BLOB(net_audit), APPARMOR_ENFORCE,
	  AF_INET, SOCK_DGRAM, -EACCES, NULL },
	{ "audit deny rule: refused, DENIED", AA_BLOB(net_audit), APPARMOR_ENFORCE,
	  AF_INET6, SOCK_STREAM, -EACCES, AA_DENIED },
	{ "no rule next to audit rules: refused, DENIED", AA_BLOB(net_audit),
	  APPARMOR_ENFORCE, AF_INET6, SOCK_DGRAM, -EACCES, AA_DENIED },
	{ "deny rule wins over network: refused, quiet", AA_BLOB(net_deny_inet6),
	  APPARMOR_ENFORCE, AF_INET6, SOCK_STREAM, -EACCES, NULL },
	{ "network, next to a deny rule: allowed, no record", AA_BLOB(net_deny_inet6),
	  APPARMOR_ENFORCE, AF_INET, SOCK_DGRAM, 0, NULL },
};

KUNIT_ARRAY_PARAM_DESC(aa_net_mode, aa_net_mode_cases, desc);

/*
 * connect() on @sock by a task under @profile: @error, and one record
 * with apparmor=@record, or none if @record is NULL. The audit reader
 * is opened first and drained, so the records counted are connect()'s.
 */
static void aa_kunit_expect_connect(struct kunit *test, struct aa_kunit_audit *a,
				    struct aa_profile *profile, struct socket *sock,
				    int error, const char *record)
{
	aa_kunit_audit_read(test, a);
	KUNIT_EXPECT_EQ(test, aa_kunit_op(test, &aa_net_op_cases[1], profile, sock), error);
	KUNIT_EXPECT_EQ(test, aa_kunit_audit_read(test, a), record ? 1 : 0);
	if (record)
		aa_kunit_expect_field(test, a->rec, "apparmor", "%s", record);
}

static void aa_net_mode_test(struct kunit *test)
{
	const struct aa_net_mode_case *t = test->param_value;
	struct aa_kunit_audit *a = aa_kunit_audit_open(test);
	struct socket *sock = aa_kunit_socket(test, t->family, t->type, false);
	struct aa_profile *profile;

	profile = aa_kunit_profile_of(test, aa_kunit_policy(test, t->blob, t->size), t->profile,
				      t->mode);
	aa_kunit_expect_connect(test, a, profile, sock, t->error, t->record);
	if (!t->record)
		return;
	aa_kunit_expect_field(test, a->rec, "operation", "\"connect\"");
	aa_kunit_expect_field(test, a->rec, "profile", "\"%s\"", t->profile);
	aa_kunit_expect_field(test, a->rec, "requested_mask", "\"connect\"");
	if (t->error || t->mode == APPARMOR_COMPLAIN)
		aa_kunit_expect_field(test, a->rec, "denied_mask", "\"connect\"");
	else
		aa_kunit_expect_no_field(test, a->rec, "denied_mask");
}

/*
 * The audit and quiet bits of a state, set by hand: an allowed operation
 * is audited when its permission is in audit, a refused one unless it is
 * in quiet, whatever the others are.
 */
struct aa_net_bits_case {
	const char *desc;
	u32 allow, audit, quiet;
	int error;
	const char *record;
	enum audit_mode global;		/* apparmor.audit= (AUDIT_NORMAL: 0) */
};

static const struct aa_net_bits_case aa_net_bits_cases[] = {
	{ "allowed, audit bit: AUDIT", NET_PERMS_MASK, AA_MAY_CONNECT, 0, 0, AA_AUDIT },
	{ "allowed, other audit bits: no record", NET_PERMS_MASK,
	  NET_PERMS_MASK & ~AA_MAY_CONNECT, 0, 0, NULL },
	{ "allowed, quiet bit: no record", NET_PERMS_MASK, 0, AA_MAY_CONNECT, 0, NULL },
	{ "refused: DENIED", NET_PERMS_MASK & ~AA_MAY_CONNECT, 0, 0, -EACCES, AA_DENIED },
	{ "refused, quiet bit: quiet", NET_PERMS_MASK & ~AA_MAY_CONNECT, 0, AA_MAY_CONNECT,
	  -EACCES, NULL },
	{ "refused, other quiet bits: DENIED", NET_PERMS_MASK & ~AA_MAY_CONNECT, 0,
	  NET_PERMS_MASK & ~AA_MAY_CONNECT, -EACCES, AA_DENIED },
	{ "refused, audit and quiet bits: quiet", NET_PERMS_MASK & ~AA_MAY_CONNECT,
	  AA_MAY_CONNECT, AA_MAY_CONNECT, -EACCES, NULL },
	/* apparmor.audit= (/sys/module/apparmor/parameters/audit) over the bits */
	{ "audit=quiet_denied, refused: quiet", NET_PERMS_MASK & ~AA_MAY_CONNECT, 0, 0,
	  -EACCES, NULL, AUDIT_QUIET_DENIED },
	{ "audit=quiet_denied, allowed, audit bit: AUDIT", NET_PERMS_MASK, AA_MAY_CONNECT, 0,
	  0, AA_AUDIT, AUDIT_QUIET_DENIED },
	{ "audit=quiet, refused: quiet", NET_PERMS_MASK & ~AA_MAY_CONNECT, 0, 0, -EACCES,
	  NULL, AUDIT_QUIET },
	{ "audit=quiet, allowed, audit bit: no record", NET_PERMS_MASK, AA_MAY_CONNECT, 0, 0,
	  NULL, AUDIT_QUIET },
	{ "audit=noquiet, refused, quiet bit: DENIED", NET_PERMS_MASK & ~AA_MAY_CONNECT, 0,
	  AA_MAY_CONNECT, -EACCES, AA_DENIED, AUDIT_NOQUIET },
	{ "audit=noquiet, allowed: no record", NET_PERMS_MASK, 0, 0, 0, NULL, AUDIT_NOQUIET },
	{ "audit=all, allowed: AUDIT", NET_PERMS_MASK, 0, 0, 0, AA_AUDIT, AUDIT_ALL },
	{ "audit=all, refused, quiet bit: DENIED", NET_PERMS_MASK & ~AA_MAY_CONNECT, 0,
	  AA_MAY_CONNECT, -EACCES, AA_DENIED, AUDIT_ALL },
};

KUNIT_ARRAY_PARAM_DESC(aa_net_bits, aa_net_bits_cases, desc);

static void aa_kunit_audit_mode_restore(void *mode)
{
	aa_g_audit = (uintptr_t)mode;
}

/* apparmor.audit=@mode until the case ends. */
static void aa_kunit_audit_mode(struct kunit *test, enum audit_mode mode)
{
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, aa_kunit_audit_mode_restore,
							(void *)(uintptr_t)aa_g_audit), 0);
	aa_g_audit = mode;
}

static void aa_net_bits_test(struct kunit *test)
{
	const struct aa_net_bits_case *t = test->param_value;
	struct aa_kunit_audit *a = aa_kunit_audit_open(test);
	struct socket *sock = aa_kunit_socket(test, AF_INET, SOCK_STREAM, false);

	aa_kunit_audit_mode(test, t->global);
	aa_kunit_expect_connect(test, a, aa_kunit_profile_perms(test, t->allow, t->audit, t->quiet),
				sock, t->error, t->record);
}

/* The loopback device up, as the first ifconfig of a boot brings it. */
static void aa_kunit_loopback_up(struct kunit *test)
{
	int err;

	rtnl_lock();
	err = dev_open(init_net.loopback_dev, NULL);
	rtnl_unlock();
	KUNIT_ASSERT_EQ(test, err, 0);
}

/* The label references held by @label (its kref). */
static unsigned int aa_kunit_label_refs(struct aa_label *label)
{
	return kref_read(&label->count.count);
}

/*
 * Waits until @label is back to @refs references; a closed TCP socket is
 * freed from softirq and RCU, after its close returns.
 */
static unsigned int aa_kunit_label_refs_wait(struct aa_label *label, unsigned int refs)
{
	int i;

	for (i = 0; i < 100 && aa_kunit_label_refs(label) != refs; i++) {
		rcu_barrier();
		msleep(20);
	}
	return aa_kunit_label_refs(label);
}

/*
 * A connection accepted on a listening socket carries the listener's
 * label, whoever accepts it: TCP clones the listener's sock for it when
 * the handshake completes (apparmor_sk_clone_security()), and
 * apparmor_sock_graft() labels with the accepting task's label only a
 * sock that has none. The clone holds one more reference to the label,
 * dropped when the accepted socket is freed.
 */
static void aa_net_accept_label_test(struct kunit *test)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	struct socket *listener = NULL, *client, *accepted;
	struct aa_profile *profile;
	const struct cred *old;
	unsigned int refs;
	int err;

	aa_kunit_loopback_up(test);
	profile = aa_kunit_profile(test, net_inet_stream_blob, sizeof(net_inet_stream_blob),
				   "net_inet_stream");
	old = aa_kunit_confine(test, profile);
	err = sock_create(AF_INET, SOCK_STREAM, 0, &listener);
	aa_kunit_unconfine(old);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, aa_kunit_sock_release, listener), 0);
	sock_no_linger(listener->sk);
	KUNIT_ASSERT_EQ(test, kernel_bind(listener, (struct sockaddr *)&sin, sizeof(sin)), 0);
	KUNIT_ASSERT_EQ(test, kernel_listen(listener, 1), 0);
	KUNIT_ASSERT_EQ(test, kernel_getsockname(listener, (struct sockaddr *)&sin),
			(int)sizeof(sin));

	client = aa_kunit_socket(test, AF_INET, SOCK_STREAM, false);
	sock_no_linger(client->sk);
	rcu_barrier();
	refs = aa_kunit_label_refs(&profile->label);
	KUNIT_ASSERT_EQ(test, kernel_connect(client, (struct sockaddr *)&sin, sizeof(sin), 0), 0);
	KUNIT_ASSERT_EQ(test, kernel_accept(listener, &accepted, 0), 0);

	KUNIT_EXPECT_PTR_EQ(test, aa_sock(listener->sk)->label, &profile->label);
	KUNIT_EXPECT_PTR_EQ(test, aa_sock(client->sk)->label, &root_ns->unconfined->label);
	KUNIT_EXPECT_PTR_EQ(test, aa_sock(accepted->sk)->label, &profile->label);
	KUNIT_EXPECT_EQ(test, aa_kunit_label_refs(&profile->label), refs + 1);

	sock_no_linger(accepted->sk);
	sock_release(accepted);
	KUNIT_EXPECT_EQ(test, aa_kunit_label_refs_wait(&profile->label, refs), refs);
}

/* The permissions a lookup hands aa_apply_modes_to_perms(), each field its own bits. */
#define AA_IN_AUDIT	0x000000f0
#define AA_IN_QUIET	0x00000f00
#define AA_IN_KILL	0x00001000
#define AA_IN_COMPLAIN	0x00002000
#define AA_IN_PROMPT	0x00004000

struct aa_modes_case {
	const char *desc;
	enum profile_mode mode;
	enum audit_mode global;		/* apparmor.audit= */
	enum audit_mode profile;	/* the profile's own: flags=(audit) is AUDIT_ALL */
	u32 audit, quiet, kill, complain, prompt;	/* what it hands back */
};

/*
 * aa_apply_modes_to_perms() (lib.c) for each audit mode, set by the
 * module parameter or by the profile (the parameter wins unless it is
 * normal), and each profile mode: the fields it sets, the rest as the
 * lookup left them.
 */
static const struct aa_modes_case aa_modes_cases[] = {
	{ "enforce, audit normal: as looked up", APPARMOR_ENFORCE, AUDIT_NORMAL, AUDIT_NORMAL,
	  AA_IN_AUDIT, AA_IN_QUIET, AA_IN_KILL, AA_IN_COMPLAIN, AA_IN_PROMPT },
	{ "audit=quiet_denied: every refusal quiet", APPARMOR_ENFORCE, AUDIT_QUIET_DENIED,
	  AUDIT_NORMAL, AA_IN_AUDIT, ALL_PERMS_MASK, AA_IN_KILL, AA_IN_COMPLAIN, AA_IN_PROMPT },
	{ "audit=quiet: nothing audited, everything quiet", APPARMOR_ENFORCE, AUDIT_QUIET,
	  AUDIT_NORMAL, 0, ALL_PERMS_MASK, AA_IN_KILL, AA_IN_COMPLAIN, AA_IN_PROMPT },
	{ "audit=noquiet: nothing quiet", APPARMOR_ENFORCE, AUDIT_NOQUIET, AUDIT_NORMAL,
	  AA_IN_AUDIT, 0, AA_IN_KILL, AA_IN_COMPLAIN, AA_IN_PROMPT },
	{ "audit=all: everything audited, nothing quiet", APPARMOR_ENFORCE, AUDIT_ALL,
	  AUDIT_NORMAL, ALL_PERMS_MASK, 0, AA_IN_KILL, AA_IN_COMPLAIN, AA_IN_PROMPT },
	{ "profile flags=(audit): everything audited", APPARMOR_ENFORCE, AUDIT_NORMAL, AUDIT_ALL,
	  ALL_PERMS_MASK, 0, AA_IN_KILL, AA_IN_COMPLAIN, AA_IN_PROMPT },
	{ "profile quiet: nothing audited", APPARMOR_ENFORCE, AUDIT_NORMAL, AUDIT_QUIET,
	  0, ALL_PERMS_MASK, AA_IN_KILL, AA_IN_COMPLAIN, AA_IN_PROMPT },
	{ "audit=noquiet over profile flags=(audit)", APPARMOR_ENFORCE, AUDIT_NOQUIET,
	  AUDIT_ALL, AA_IN_AUDIT, 0, AA_IN_KILL, AA_IN_COMPLAIN, AA_IN_PROMPT },
	{ "complain: every permission complains", APPARMOR_COMPLAIN, AUDIT_NORMAL, AUDIT_NORMAL,
	  AA_IN_AUDIT, AA_IN_QUIET, AA_IN_KILL, ALL_PERMS_MASK, AA_IN_PROMPT },
	{ "kill: every permission kills", APPARMOR_KILL, AUDIT_NORMAL, AUDIT_NORMAL,
	  AA_IN_AUDIT, AA_IN_QUIET, ALL_PERMS_MASK, AA_IN_COMPLAIN, AA_IN_PROMPT },
#ifdef USER_MODE
	{ "user: every permission prompts", APPARMOR_USER, AUDIT_NORMAL, AUDIT_NORMAL,
	  AA_IN_AUDIT, AA_IN_QUIET, AA_IN_KILL, AA_IN_COMPLAIN, ALL_PERMS_MASK },
#endif
	{ "unconfined: no mode bits", APPARMOR_UNCONFINED, AUDIT_NORMAL, AUDIT_NORMAL,
	  AA_IN_AUDIT, AA_IN_QUIET, AA_IN_KILL, AA_IN_COMPLAIN, AA_IN_PROMPT },
};

KUNIT_ARRAY_PARAM_DESC(aa_modes, aa_modes_cases, desc);

static void aa_modes_test(struct kunit *test)
{
	const struct aa_modes_case *t = test->param_value;
	struct aa_perms in, want, got;
	struct aa_profile *profile;

	profile = aa_kunit_profile(test, net_inet_stream_blob, sizeof(net_inet_stream_blob),
				   "net_inet_stream");
	profile->mode = t->mode;
	profile->audit = t->profile;
	aa_kunit_audit_mode(test, t->global);

	memset(&in, 0x5a, sizeof(in));
	in.audit = AA_IN_AUDIT;
	in.quiet = AA_IN_QUIET;
	in.kill = AA_IN_KILL;
	in.complain = AA_IN_COMPLAIN;
	in.prompt = AA_IN_PROMPT;
	got = in;
	aa_apply_modes_to_perms(profile, &got);

	KUNIT_EXPECT_EQ(test, got.audit, t->audit);
	KUNIT_EXPECT_EQ(test, got.quiet, t->quiet);
	KUNIT_EXPECT_EQ(test, got.kill, t->kill);
	KUNIT_EXPECT_EQ(test, got.complain, t->complain);
	KUNIT_EXPECT_EQ(test, got.prompt, t->prompt);
	want = in;
	want.audit = t->audit;
	want.quiet = t->quiet;
	want.kill = t->kill;
	want.complain = t->complain;
	want.prompt = t->prompt;
	KUNIT_EXPECT_MEMEQ_MSG(test, &got, &want, sizeof(got), "a field it does not set changed");
}

/* The audit data of a net request, as 6.12 (v6.7) and 6.1 keep it. */
#ifdef aad_of_va
#define AA_KUNIT_AD(name)	(&(name))
#else
#define AA_KUNIT_AD(name)	aad(&(name))
#endif

struct aa_net_record_case {
	const char *desc;
	u16 family;
	int type;
	int protocol;
	u32 request, denied;
	bool peer;
	const char *family_name, *type_name;	/* the record's, unquoted */
	const char *requested, *denied_mask;	/* NULL: no such field */
};

/*
 * The net fields of an AppArmor record (audit_net_cb(), net.c): the
 * names of net_names.h, which the Makefile generates from
 * include/linux/socket.h and net.h (types 0 and 7 to 9 have none), the
 * net permissions of the request and of the refusal by the names of
 * net_mask_names, and the peer's label. Only the net permissions are
 * named: a request or refusal of none has no mask field.
 */
static const struct aa_net_record_case aa_net_record_cases[] = {
	{ "inet stream tcp, connect refused", AF_INET, SOCK_STREAM, IPPROTO_TCP,
	  AA_MAY_CONNECT, AA_MAY_CONNECT, false, "inet", "stream", "connect", "connect" },
	{ "unspec (first family), type 0 (no name)", AF_UNSPEC, 0, 0, AA_MAY_CREATE,
	  AA_MAY_CREATE, false, "unspec", "unknown(0)", "create", "create" },
	{ "mctp (last family), packet (10, last type)", AF_MCTP, SOCK_PACKET, 1,
	  AA_MAY_CREATE, AA_MAY_CREATE, false, "mctp", "packet", "create", "create" },
	{ "inet6 dccp (6, before the types with no name)", AF_INET6, SOCK_DCCP, IPPROTO_DCCP,
	  AA_MAY_BIND, AA_MAY_BIND, false, "inet6", "dccp", "bind", "bind" },
	{ "type 7: no name", AF_INET, 7, 0, AA_MAY_CREATE, AA_MAY_CREATE, false, "inet",
	  "unknown(7)", "create", "create" },
	{ "type 9: no name, the last before packet", AF_UNIX, 9, 0, AA_MAY_CREATE,
	  AA_MAY_CREATE, false, "unix", "unknown(9)", "create", "create" },
	{ "decnet (the mixed-case family) seqpacket", AF_DECnet, SOCK_SEQPACKET, 0,
	  AA_MAY_LISTEN, AA_MAY_LISTEN, false, "decnet", "seqpacket", "listen", "listen" },
	{ "two asked, one refused", AF_INET, SOCK_DGRAM, IPPROTO_UDP,
	  AA_MAY_SEND | AA_MAY_CONNECT, AA_MAY_CONNECT, false, "inet", "dgram", "send connect",
	  "connect" },
	{ "nothing refused: no denied_mask", AF_INET, SOCK_DGRAM, IPPROTO_UDP, AA_MAY_SEND, 0,
	  false, "inet", "dgram", "send", NULL },
	{ "no net permission asked: no masks", AF_INET, SOCK_STREAM, IPPROTO_TCP, AA_MAY_EXEC,
	  AA_MAY_EXEC, false, "inet", "stream", NULL, NULL },
	{ "no net permission refused: no denied_mask", AF_INET, SOCK_STREAM, IPPROTO_TCP,
	  AA_MAY_CONNECT | AA_MAY_EXEC, AA_MAY_EXEC, false, "inet", "stream", "connect", NULL },
	{ "a peer: peer= its label", AF_INET, SOCK_STREAM, IPPROTO_TCP, AA_MAY_CONNECT,
	  AA_MAY_CONNECT, true, "inet", "stream", "connect", "connect" },
};

KUNIT_ARRAY_PARAM_DESC(aa_net_record, aa_net_record_cases, desc);

static void aa_kunit_expect_mask(struct kunit *test, const char *rec, const char *key,
				 const char *mask)
{
	if (mask)
		aa_kunit_expect_field(test, rec, key, "\"%s\"", mask);
	else
		aa_kunit_expect_no_field(test, rec, key);
}

static void aa_net_record_test(struct kunit *test)
{
	const struct aa_net_record_case *t = test->param_value;
	struct aa_kunit_audit *a = aa_kunit_audit_open(test);
	struct aa_profile *profile, *peer;
	DEFINE_AUDIT_NET(ad, OP_CONNECT, NULL, t->family, t->type, t->protocol);

	profile = aa_kunit_profile(test, net_inet_stream_blob, sizeof(net_inet_stream_blob),
				   "net_inet_stream");
	peer = aa_kunit_profile(test, net_audit_blob, sizeof(net_audit_blob), "net_audit");
	AA_KUNIT_AD(ad)->request = t->request;
	AA_KUNIT_AD(ad)->denied = t->denied;
	AA_KUNIT_AD(ad)->error = -EACCES;
	if (t->peer)
		AA_KUNIT_AD(ad)->peer = &peer->label;

	aa_kunit_audit_read(test, a);
	KUNIT_EXPECT_EQ(test, aa_audit(AUDIT_APPARMOR_DENIED, profile, &ad, audit_net_cb),
			-EACCES);
	KUNIT_ASSERT_EQ(test, aa_kunit_audit_read(test, a), 1);
	aa_kunit_expect_field(test, a->rec, "operation", "\"connect\"");
	aa_kunit_expect_field(test, a->rec, "family", "\"%s\"", t->family_name);
	aa_kunit_expect_field(test, a->rec, "sock_type", "\"%s\"", t->type_name);
	aa_kunit_expect_field(test, a->rec, "protocol", "%d", t->protocol);
	aa_kunit_expect_mask(test, a->rec, "requested_mask", t->requested);
	aa_kunit_expect_mask(test, a->rec, "denied_mask", t->denied_mask);
	aa_kunit_expect_mask(test, a->rec, "peer", t->peer ? "net_audit" : NULL);
}

#ifdef aad_of_va
#define AA_KUNIT_SUBJ(name)	(AA_KUNIT_AD(name)->subj_label)
#else
#define AA_KUNIT_SUBJ(name)	(AA_KUNIT_AD(name)->label)
#endif

#define AA_C	AA_MAY_CONNECT
#define AA_S	AA_MAY_SEND

struct aa_check_case {
	const char *desc;
	struct aa_perms perms;
	u32 request;
	bool ad;		/* with audit data */
	int error;		/* what it returns */
	const char *record;	/* apparmor= of the one record, or NULL: none */
	u32 audited;		/* the request and denied it leaves in the audit data */
	u32 denied;
	int ad_error;
};

/*
 * aa_check_perms() (lib.c) for each class of permissions a lookup and
 * aa_apply_modes_to_perms() hand it: what it returns, the record it
 * logs, and the request, refusal and error it leaves in the caller's
 * audit data. Explicit denials win over complain mode (quiet ones stay
 * refused), kill over complain, hide turns a refusal of all of a request
 * into -ENOENT; without audit data there is no record, and complain mode
 * does not allow.
 */
static const struct aa_check_case aa_check_cases[] = {
	{ "allowed: no record", { .allow = AA_C }, AA_C, true, 0, NULL },
	{ "allowed, audited: AUDIT", { .allow = AA_C, .audit = AA_C }, AA_C, true, 0, AA_AUDIT,
	  AA_C, 0, 0 },
	{ "allowed, two asked, one audited", { .allow = AA_C | AA_S, .audit = AA_S },
	  AA_C | AA_S, true, 0, AA_AUDIT, AA_S, 0, 0 },
	{ "allowed, another audited: no record", { .allow = AA_C | AA_S, .audit = AA_S }, AA_C,
	  true, 0, NULL },
	{ "not allowed: DENIED", { .allow = AA_S }, AA_C, true, -EACCES, AA_DENIED, AA_C, AA_C,
	  -EACCES },
	{ "allowed and denied: DENIED", { .allow = AA_C, .deny = AA_C }, AA_C, true, -EACCES,
	  AA_DENIED, AA_C, AA_C, -EACCES },
	{ "one of two not allowed: DENIED for it", { .allow = AA_S }, AA_C | AA_S, true,
	  -EACCES, AA_DENIED, AA_C | AA_S, AA_C, -EACCES },
	{ "quiet: refused, no record", { .quiet = AA_C }, AA_C, true, -EACCES, NULL },
	{ "one of two quiet: DENIED for the other", { .quiet = AA_C }, AA_C | AA_S, true,
	  -EACCES, AA_DENIED, AA_C | AA_S, AA_S, -EACCES },
	{ "complain: allowed, ALLOWED", { .complain = AA_C }, AA_C, true, 0, AA_ALLOWED, AA_C,
	  AA_C, -EACCES },
	{ "complain for one of two: DENIED", { .complain = AA_C }, AA_C | AA_S, true, -EACCES,
	  AA_DENIED, AA_C | AA_S, AA_C | AA_S, -EACCES },
	{ "complain, quiet: refused, no record", { .complain = AA_C, .quiet = AA_C }, AA_C,
	  true, -EACCES, NULL },
	{ "kill: KILLED", { .kill = AA_C }, AA_C, true, -EACCES, "\"KILLED\"", AA_C, AA_C,
	  -EACCES },
	{ "kill of one of two: KILLED", { .kill = AA_S }, AA_C | AA_S, true, -EACCES,
	  "\"KILLED\"", AA_C | AA_S, AA_C | AA_S, -EACCES },
	{ "kill over complain: KILLED", { .kill = AA_C, .complain = AA_C }, AA_C, true, -EACCES,
	  "\"KILLED\"", AA_C, AA_C, -EACCES },
	{ "hide: -ENOENT", { .hide = AA_C }, AA_C, true, -ENOENT, AA_DENIED, AA_C, AA_C,
	  -ENOENT },
	{ "hide of one of two: -EACCES", { .hide = AA_C }, AA_C | AA_S, true, -EACCES, AA_DENIED,
	  AA_C | AA_S, AA_C | AA_S, -EACCES },
	{ "nothing asked: allowed, no record", { .audit = AA_C }, 0, true, 0, NULL },
	{ "no audit data, allowed and audited", { .allow = AA_C, .audit = AA_C }, AA_C, false, 0,
	  NULL },
	{ "no audit data, not allowed", { .allow = AA_S }, AA_C, false, -EACCES, NULL },
	{ "no audit data, complain: refused", { .complain = AA_C }, AA_C, false, -EACCES, NULL },
	{ "no audit data, hide: -ENOENT", { .hide = AA_C }, AA_C, false, -ENOENT, NULL },
};

KUNIT_ARRAY_PARAM_DESC(aa_check, aa_check_cases, desc);

static void aa_check_test(struct kunit *test)
{
	const struct aa_check_case *t = test->param_value;
	struct aa_kunit_audit *a = aa_kunit_audit_open(test);
	struct aa_perms perms = t->perms;
	struct aa_profile *profile;
	DEFINE_AUDIT_NET(ad, OP_CONNECT, NULL, AF_INET, SOCK_STREAM, IPPROTO_TCP);

	profile = aa_kunit_profile(test, net_inet_stream_blob, sizeof(net_inet_stream_blob),
				   "net_inet_stream");
	AA_KUNIT_AD(ad)->request = 0xdead;
	AA_KUNIT_AD(ad)->denied = 0xdead;
	AA_KUNIT_AD(ad)->error = 0xdead;
	aa_kunit_audit_read(test, a);
	KUNIT_EXPECT_EQ(test, aa_check_perms(profile, &perms, t->request, t->ad ? &ad : NULL,
					     audit_net_cb), t->error);
	KUNIT_EXPECT_EQ(test, aa_kunit_audit_read(test, a), t->record ? 1 : 0);
	if (!t->record) {
		/* no record: the audit data as the caller left it */
		KUNIT_EXPECT_EQ(test, AA_KUNIT_AD(ad)->request, 0xdead);
		KUNIT_EXPECT_EQ(test, AA_KUNIT_AD(ad)->error, 0xdead);
		return;
	}
	aa_kunit_expect_field(test, a->rec, "apparmor", "%s", t->record);
	aa_kunit_expect_field(test, a->rec, "profile", "\"net_inet_stream\"");
	KUNIT_EXPECT_PTR_EQ(test, AA_KUNIT_SUBJ(ad), &profile->label);
	KUNIT_EXPECT_EQ(test, AA_KUNIT_AD(ad)->request, t->audited);
	KUNIT_EXPECT_EQ(test, AA_KUNIT_AD(ad)->denied, t->denied);
	KUNIT_EXPECT_EQ(test, AA_KUNIT_AD(ad)->error, t->ad_error);
}

/* @old replaced by @new, as aa_replace_profiles() does for a loaded profile. */
static void aa_kunit_replace(struct aa_profile *old, struct aa_profile *new)
{
	struct aa_labelset *ls = labels_set(&old->label);
	unsigned long flags;

	write_lock_irqsave(&ls->lock, flags);
	__aa_proxy_redirect(&old->label, &new->label);
	write_unlock_irqrestore(&ls->lock, flags);
}

/*
 * A task whose profile is replaced is mediated by the replacement from
 * its next socket operation on: the hooks follow the stale label to the
 * newest (begin_current_label_crit_section()) and drop the reference
 * they took for that, even when they cannot update the task's cred (here
 * overridden, as in an io_uring worker or an NFS server); a socket it
 * creates carries the replacement's label.
 */
static void aa_net_replaced_test(struct kunit *test)
{
	struct socket *dgram = aa_kunit_socket(test, AF_INET, SOCK_DGRAM, false);
	int before, after, again, create, made;
	struct aa_profile *stream, *deny6;
	unsigned int refs, refs_after;
	struct socket *sock = NULL;
	const struct cred *old;

	stream = aa_kunit_profile(test, net_inet_stream_blob, sizeof(net_inet_stream_blob),
				  "net_inet_stream");
	deny6 = aa_kunit_profile(test, net_deny_inet6_blob, sizeof(net_deny_inet6_blob),
				 "net_deny_inet6");

	old = aa_kunit_confine(test, stream);
	before = aa_kunit_op_connect(dgram);
	aa_kunit_replace(stream, deny6);
	refs = aa_kunit_label_refs(&deny6->label);
	after = aa_kunit_op_connect(dgram);
	again = aa_kunit_op_sendmsg(dgram);
	create = security_socket_create(AF_INET, SOCK_DGRAM, 0, 0);
	refs_after = aa_kunit_label_refs(&deny6->label);
	made = sock_create(AF_INET, SOCK_DGRAM, 0, &sock);
	aa_kunit_unconfine(old);

	KUNIT_EXPECT_EQ_MSG(test, before, -EACCES, "net_inet_stream refuses inet dgram");
	KUNIT_EXPECT_EQ_MSG(test, after, 0, "net_deny_inet6 allows inet dgram");
	KUNIT_EXPECT_EQ(test, again, 0);
	KUNIT_EXPECT_EQ(test, create, 0);
	KUNIT_EXPECT_EQ_MSG(test, refs_after, refs, "a hook kept a reference");
	KUNIT_ASSERT_EQ(test, made, 0);
	KUNIT_EXPECT_PTR_EQ(test, aa_sock(sock->sk)->label, &deny6->label);
	KUNIT_EXPECT_EQ(test, aa_kunit_label_refs(&deny6->label), refs + 1);
	sock_release(sock);
	KUNIT_EXPECT_EQ(test, aa_kunit_label_refs_wait(&deny6->label, refs), refs);
}

struct aa_net_fastopen_case {
	const char *desc;
	u16 family;
	int type;
	u16 protocol;		/* sk_protocol during the call; 0: the socket's own */
	unsigned int flags;	/* msg_flags */
	bool name;		/* a destination address */
	bool connect;		/* the implicit connect is mediated too */
};

/*
 * Which sendmsg() apparmor_socket_sendmsg() also mediates as a connect:
 * MSG_FASTOPEN with a destination on a TCP or MPTCP socket, v4 or v6.
 * MPTCP, which no cell builds, and SCTP are stood in for by a TCP
 * socket whose sk_protocol is theirs for the call: the hook reads only
 * sk_family, sk_type and sk_protocol. IPPROTO_MPTCP (262) is the highest
 * protocol number, SOCK_STREAM (1) the lowest type.
 */
static const struct aa_net_fastopen_case aa_net_fastopen_cases[] = {
	{ "tcp, MSG_FASTOPEN to an address: connect", AF_INET, SOCK_STREAM, 0, MSG_FASTOPEN,
	  true, true },
	{ "tcp6, MSG_FASTOPEN to an address: connect", AF_INET6, SOCK_STREAM, 0, MSG_FASTOPEN,
	  true, true },
	{ "tcp, to an address without MSG_FASTOPEN: send only", AF_INET, SOCK_STREAM, 0, 0, true,
	  false },
	{ "tcp, MSG_FASTOPEN without an address: send only", AF_INET, SOCK_STREAM, 0,
	  MSG_FASTOPEN, false, false },
	{ "mptcp, MSG_FASTOPEN to an address: connect", AF_INET, SOCK_STREAM, IPPROTO_MPTCP,
	  MSG_FASTOPEN, true, true },
	{ "mptcp6, MSG_FASTOPEN to an address: connect", AF_INET6, SOCK_STREAM, IPPROTO_MPTCP,
	  MSG_FASTOPEN, true, true },
	{ "mptcp, without MSG_FASTOPEN: send only", AF_INET, SOCK_STREAM, IPPROTO_MPTCP, 0, true,
	  false },
	{ "sctp stream (132, below mptcp): send only", AF_INET, SOCK_STREAM, IPPROTO_SCTP,
	  MSG_FASTOPEN, true, false },
	{ "udp, MSG_FASTOPEN to an address: send only", AF_INET, SOCK_DGRAM, 0, MSG_FASTOPEN,
	  true, false },
	{ "inet dgram with the mptcp protocol: send only", AF_INET, SOCK_DGRAM, IPPROTO_MPTCP,
	  MSG_FASTOPEN, true, false },
	{ "netlink with the mptcp protocol: send only", AF_NETLINK, SOCK_RAW, IPPROTO_MPTCP,
	  MSG_FASTOPEN, true, false },
	{ "netlink, MSG_FASTOPEN to an address: send only", AF_NETLINK, SOCK_RAW, 0,
	  MSG_FASTOPEN, true, false },
};

KUNIT_ARRAY_PARAM_DESC(aa_net_fastopen, aa_net_fastopen_cases, desc);

/*
 * Under a profile in complain mode that has no network rule, each
 * permission asked is allowed and leaves an ALLOWED record: the send's,
 * and the connect's after it when the hook mediates one.
 */
static void aa_net_fastopen_test(struct kunit *test)
{
	const struct aa_net_fastopen_case *t = test->param_value;
	struct aa_kunit_audit *a = aa_kunit_audit_open(test);
	struct socket *sock = aa_kunit_socket(test, t->family, t->type, false);
	u16 protocol = sock->sk->sk_protocol;
	struct aa_profile *profile;
	const struct cred *old;
	int err;

	profile = aa_kunit_profile(test, net_none_blob, sizeof(net_none_blob), "net_none");
	profile->mode = APPARMOR_COMPLAIN;
	aa_kunit_audit_read(test, a);
	if (t->protocol)
		sock->sk->sk_protocol = t->protocol;
	old = aa_kunit_confine(test, profile);
	err = aa_kunit_sendmsg(sock, t->flags, t->name);
	aa_kunit_unconfine(old);
	sock->sk->sk_protocol = protocol;

	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, aa_kunit_audit_read(test, a), t->connect ? 2 : 1);
	aa_kunit_expect_field(test, a->rec, "apparmor", "%s", AA_ALLOWED);
	aa_kunit_expect_field(test, a->rec, "operation", "\"%s\"",
			      t->connect ? OP_CONNECT : OP_SENDMSG);
}

/* @sock's label and peer replaced by @label and @peer (may be NULL). */
static void aa_kunit_sock_labels(struct socket *sock, struct aa_label *label,
				 struct aa_label *peer)
{
	struct aa_sk_ctx *ctx = aa_sock(sock->sk);

	aa_put_label(ctx->label);
	ctx->label = aa_get_label(label);
	aa_put_label(ctx->peer);
	ctx->peer = aa_get_label(peer);
}

/*
 * The hooks that label a sock that exists already: security_sk_clone()
 * gives it the label and peer of the sock it is cloned from, each with a
 * reference of its own, and drops what it had (TIPC's accept clones onto
 * a socket the hooks have seen); security_socket_post_create() gives it
 * the creating task's label and drops the one it had; security_sock_graft()
 * labels it with the grafting task's label only when it has none.
 */
static void aa_net_relabel_test(struct kunit *test)
{
	struct socket *parent = aa_kunit_socket(test, AF_INET, SOCK_STREAM, false);
	struct socket *sock = aa_kunit_socket(test, AF_INET, SOCK_STREAM, false);
	struct aa_profile *p[3];
	struct aa_label *l[3];
	unsigned int refs[3];
	const struct cred *old;
	int i, err;

	p[0] = aa_kunit_profile(test, net_inet_stream_blob, sizeof(net_inet_stream_blob),
				"net_inet_stream");
	p[1] = aa_kunit_profile(test, net_deny_inet6_blob, sizeof(net_deny_inet6_blob),
				"net_deny_inet6");
	p[2] = aa_kunit_profile(test, net_audit_blob, sizeof(net_audit_blob), "net_audit");
	for (i = 0; i < 3; i++) {
		l[i] = &p[i]->label;
		refs[i] = aa_kunit_label_refs(l[i]);
	}

	aa_kunit_sock_labels(parent, l[0], l[1]);
	aa_kunit_sock_labels(sock, l[2], l[2]);
	security_sk_clone(parent->sk, sock->sk);
	KUNIT_EXPECT_PTR_EQ(test, aa_sock(sock->sk)->label, l[0]);
	KUNIT_EXPECT_PTR_EQ(test, aa_sock(sock->sk)->peer, l[1]);
	KUNIT_EXPECT_EQ(test, aa_kunit_label_refs(l[0]), refs[0] + 2);
	KUNIT_EXPECT_EQ(test, aa_kunit_label_refs(l[1]), refs[1] + 2);
	KUNIT_EXPECT_EQ(test, aa_kunit_label_refs(l[2]), refs[2]);

	/* cloned from a sock with no peer, it has none */
	aa_kunit_sock_labels(parent, l[0], NULL);
	security_sk_clone(parent->sk, sock->sk);
	KUNIT_EXPECT_NULL(test, aa_sock(sock->sk)->peer);
	KUNIT_EXPECT_EQ(test, aa_kunit_label_refs(l[1]), refs[1]);

	old = aa_kunit_confine(test, p[2]);
	err = security_socket_post_create(sock, AF_INET, SOCK_STREAM, 0, 0);
	security_sock_graft(sock->sk, sock);
	aa_kunit_unconfine(old);
	rcu_barrier();		/* the override's cred and its label reference */
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_PTR_EQ(test, aa_sock(sock->sk)->label, l[2]);
	KUNIT_EXPECT_EQ(test, aa_kunit_label_refs(l[0]), refs[0] + 1);

	aa_kunit_sock_labels(sock, NULL, NULL);
	old = aa_kunit_confine(test, p[1]);
	security_sock_graft(sock->sk, sock);
	aa_kunit_unconfine(old);
	rcu_barrier();
	KUNIT_EXPECT_PTR_EQ(test, aa_sock(sock->sk)->label, l[1]);
	KUNIT_EXPECT_EQ(test, aa_kunit_label_refs(l[1]), refs[1] + 1);
	KUNIT_EXPECT_EQ(test, aa_kunit_label_refs(l[2]), refs[2]);
}

static struct kunit_case aa_net_ops_cases[] = {
	KUNIT_CASE_PARAM(aa_net_op_test, aa_net_op_gen_params),
	KUNIT_CASE_PARAM(aa_net_mode_test, aa_net_mode_gen_params),
	KUNIT_CASE_PARAM(aa_net_bits_test, aa_net_bits_gen_params),
	KUNIT_CASE(aa_net_accept_label_test),
	KUNIT_CASE_PARAM(aa_modes_test, aa_modes_gen_params),
	KUNIT_CASE_PARAM(aa_net_record_test, aa_net_record_gen_params),
	KUNIT_CASE_PARAM(aa_check_test, aa_check_gen_params),
	KUNIT_CASE(aa_net_replaced_test),
	KUNIT_CASE_PARAM(aa_net_fastopen_test, aa_net_fastopen_gen_params),
	KUNIT_CASE(aa_net_relabel_test),
	{}
};

static struct kunit_suite aa_net_ops_suite = {
	.name = "apparmor_net_ops",
	.test_cases = aa_net_ops_cases,
};

kunit_test_suites(&aa_net_ops_suite);
