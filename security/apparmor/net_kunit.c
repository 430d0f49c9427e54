// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for AppArmor socket mediation: the family and type name
 * tables that the Makefile generates into net_names.h, the network
 * features that apparmorfs serves, and aa_profile_af_perm() decisions
 * for policy compiled by apparmor_parser and unpacked by aa_unpack().
 *
 * Included at the end of net.c, so net_names.h's static tables are in
 * scope. The blobs in net_kunit_policy.h come from kunit/apparmor/ in the
 * project repo (`make apparmor-blobs`).
 */

#include <kunit/fail_nth.h>
#include <kunit/test.h>
#include <linux/prandom.h>
/* <asm/unaligned.h> moved to <linux/unaligned.h> in v6.12 */
#if __has_include("linux/unaligned.h")
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#include "include/apparmorfs.h"
#include "include/policy_ns.h"
#include "include/policy_unpack.h"
#include "net_kunit_policy.h"

/*
 * The suite builds on both bases of the project, which it tells apart by
 * what their headers define: 6.12 keeps a profile's policy in rulesets
 * (v6.2, with the aa_state_t of match.h) and passes the subject's cred
 * to aa_af_perm() (v6.7, with the aad_of_va() of audit.h); 6.1 has
 * neither.
 */
static bool aa_kunit_mediates_net(struct aa_profile *profile)
{
#ifdef aa_state_t
	struct aa_ruleset *rules = list_first_entry(&profile->rules, typeof(*rules), list);

	return RULE_MEDIATES(rules, AA_CLASS_NET);
#else
	return PROFILE_MEDIATES(profile, AA_CLASS_NET);
#endif
}

static int aa_kunit_af_perm(struct aa_label *label, u16 family, int type)
{
#ifdef aad_of_va
	return aa_af_perm(current_cred(), label, OP_CREATE, AA_MAY_CREATE, family, type, 0);
#else
	return aa_af_perm(label, OP_CREATE, AA_MAY_CREATE, family, type, 0);
#endif
}

struct aa_net_name {
	int value;
	const char *name;
	const char *desc;
};

#define AA_NAME(prefix, x, n) { .value = prefix##x, .name = (n), .desc = #prefix #x }

/*
 * The families of include/linux/socket.h of 6.12 in index order, each
 * with the name AppArmor policy uses for it. AF_LOCAL (= AF_UNIX) and
 * AF_ROUTE (= AF_NETLINK) are aliases and must not get entries of their
 * own; AF_DECnet is the one mixed-case name.
 */
static const struct aa_net_name aa_kunit_families[] = {
	AA_NAME(AF_, UNSPEC, "unspec"),
	AA_NAME(AF_, UNIX, "unix"),
	AA_NAME(AF_, INET, "inet"),
	AA_NAME(AF_, AX25, "ax25"),
	AA_NAME(AF_, IPX, "ipx"),
	AA_NAME(AF_, APPLETALK, "appletalk"),
	AA_NAME(AF_, NETROM, "netrom"),
	AA_NAME(AF_, BRIDGE, "bridge"),
	AA_NAME(AF_, ATMPVC, "atmpvc"),
	AA_NAME(AF_, X25, "x25"),
	AA_NAME(AF_, INET6, "inet6"),
	AA_NAME(AF_, ROSE, "rose"),
	AA_NAME(AF_, DECnet, "decnet"),
	AA_NAME(AF_, NETBEUI, "netbeui"),
	AA_NAME(AF_, SECURITY, "security"),
	AA_NAME(AF_, KEY, "key"),
	AA_NAME(AF_, NETLINK, "netlink"),
	AA_NAME(AF_, PACKET, "packet"),
	AA_NAME(AF_, ASH, "ash"),
	AA_NAME(AF_, ECONET, "econet"),
	AA_NAME(AF_, ATMSVC, "atmsvc"),
	AA_NAME(AF_, RDS, "rds"),
	AA_NAME(AF_, SNA, "sna"),
	AA_NAME(AF_, IRDA, "irda"),
	AA_NAME(AF_, PPPOX, "pppox"),
	AA_NAME(AF_, WANPIPE, "wanpipe"),
	AA_NAME(AF_, LLC, "llc"),
	AA_NAME(AF_, IB, "ib"),
	AA_NAME(AF_, MPLS, "mpls"),
	AA_NAME(AF_, CAN, "can"),
	AA_NAME(AF_, TIPC, "tipc"),
	AA_NAME(AF_, BLUETOOTH, "bluetooth"),
	AA_NAME(AF_, IUCV, "iucv"),
	AA_NAME(AF_, RXRPC, "rxrpc"),
	AA_NAME(AF_, ISDN, "isdn"),
	AA_NAME(AF_, PHONET, "phonet"),
	AA_NAME(AF_, IEEE802154, "ieee802154"),
	AA_NAME(AF_, CAIF, "caif"),
	AA_NAME(AF_, ALG, "alg"),
	AA_NAME(AF_, NFC, "nfc"),
	AA_NAME(AF_, VSOCK, "vsock"),
	AA_NAME(AF_, KCM, "kcm"),
	AA_NAME(AF_, QIPCRTR, "qipcrtr"),
	AA_NAME(AF_, SMC, "smc"),
	AA_NAME(AF_, XDP, "xdp"),
	AA_NAME(AF_, MCTP, "mctp"),
};

/* enum sock_type of include/linux/net.h of 6.12: 7 to 9 are unused. */
static const struct aa_net_name aa_kunit_types[] = {
	AA_NAME(SOCK_, STREAM, "stream"),
	AA_NAME(SOCK_, DGRAM, "dgram"),
	AA_NAME(SOCK_, RAW, "raw"),
	AA_NAME(SOCK_, RDM, "rdm"),
	AA_NAME(SOCK_, SEQPACKET, "seqpacket"),
	AA_NAME(SOCK_, DCCP, "dccp"),
	AA_NAME(SOCK_, PACKET, "packet"),
};

static void aa_net_name_desc(const struct aa_net_name *t, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s is \"%s\"", t->desc, t->name);
}

KUNIT_ARRAY_PARAM(aa_family, aa_kunit_families, aa_net_name_desc);
KUNIT_ARRAY_PARAM(aa_type, aa_kunit_types, aa_net_name_desc);

/* Each family's name sits at its number in address_family_names[]. */
static void aa_family_name_test(struct kunit *test)
{
	const struct aa_net_name *t = test->param_value;

	KUNIT_ASSERT_LT(test, t->value, ARRAY_SIZE(address_family_names));
	KUNIT_EXPECT_STREQ(test, address_family_names[t->value], t->name);
}

/* Each socket type's name sits at its number in sock_type_names[]. */
static void aa_type_name_test(struct kunit *test)
{
	const struct aa_net_name *t = test->param_value;

	KUNIT_ASSERT_LT(test, t->value, ARRAY_SIZE(sock_type_names));
	KUNIT_EXPECT_STREQ(test, sock_type_names[t->value], t->name);
}

/*
 * The tables are exactly as long as AF_MAX and SOCK_MAX (the last family
 * and type are there, nothing past them), and the test's own family
 * table covers 0 .. AF_MAX - 1 in order, so the rows above see them all.
 */
static void aa_table_size_test(struct kunit *test)
{
	int i;

	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(address_family_names), AF_MAX);
	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(aa_kunit_families), AF_MAX);
	for (i = 0; i < ARRAY_SIZE(aa_kunit_families); i++)
		KUNIT_EXPECT_EQ_MSG(test, aa_kunit_families[i].value, i,
				    "%s out of order", aa_kunit_families[i].desc);

	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(sock_type_names), SOCK_MAX);
	KUNIT_EXPECT_EQ(test, aa_kunit_types[ARRAY_SIZE(aa_kunit_types) - 1].value,
			SOCK_MAX - 1);
}

/* Every family has a name; the unused socket types have none. */
static void aa_table_holes_test(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(address_family_names); i++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, address_family_names[i],
					  "family %d has no name", i);

	KUNIT_EXPECT_NULL(test, sock_type_names[0]);
	for (i = SOCK_DCCP + 1; i < SOCK_PACKET; i++)
		KUNIT_EXPECT_NULL_MSG(test, sock_type_names[i], "type %d", i);
}

/*
 * The aliases share their number with the family they alias, so the
 * generator must skip them: a "local" or "route" entry would override
 * "unix" or "netlink" in the designated initializer, and appear twice in
 * af_mask.
 */
static void aa_family_alias_test(struct kunit *test)
{
	static const char * const skipped[] = { "local", "route", "max" };
	int i, j;

	KUNIT_EXPECT_EQ(test, AF_LOCAL, AF_UNIX);
	KUNIT_EXPECT_EQ(test, AF_ROUTE, AF_NETLINK);
	KUNIT_EXPECT_STREQ(test, address_family_names[AF_LOCAL], "unix");
	KUNIT_EXPECT_STREQ(test, address_family_names[AF_ROUTE], "netlink");

	for (i = 0; i < ARRAY_SIZE(address_family_names); i++)
		for (j = 0; j < ARRAY_SIZE(skipped); j++)
			KUNIT_EXPECT_FALSE_MSG(test, address_family_names[i] &&
					       !strcmp(address_family_names[i], skipped[j]),
					       "family %d is \"%s\"", i, skipped[j]);
}

/*
 * af_mask (the string userspace reads from features/network_v8) lists
 * every family name in index order, one space between names, none at
 * either end.
 */
static void aa_af_mask_test(struct kunit *test)
{
	size_t len = 0;
	char *want;
	int i;

	for (i = 0; i < ARRAY_SIZE(aa_kunit_families); i++)
		len += strlen(aa_kunit_families[i].name) + 1;
	want = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	for (i = 0; i < ARRAY_SIZE(aa_kunit_families); i++) {
		if (i)
			strcat(want, " ");
		strcat(want, aa_kunit_families[i].name);
	}

	KUNIT_EXPECT_STREQ(test, AA_SFS_AF_MASK, want);
	KUNIT_EXPECT_NULL(test, strstr(AA_SFS_AF_MASK, "  "));
	KUNIT_EXPECT_NE(test, AA_SFS_AF_MASK[0], ' ');
	KUNIT_EXPECT_NE(test, AA_SFS_AF_MASK[strlen(AA_SFS_AF_MASK) - 1], ' ');
}

static const struct aa_sfs_entry *aa_sfs_find(const struct aa_sfs_entry *dir,
					      const char *name)
{
	for (; dir->name; dir++)
		if (!strcmp(dir->name, name))
			return dir;
	return NULL;
}

/*
 * The network features, read from the tables apparmorfs serves:
 * features/network_v8 is the network table with af_mask in it, and
 * policy/versions has v8. There is no features/network in 6.12: the
 * parser takes that directory for the older out-of-tree network
 * mediation, which this kernel does not have.
 */
static void aa_network_features_test(struct kunit *test)
{
	const struct aa_sfs_entry *net, *e;

	net = aa_sfs_find(aa_sfs_entry_features, "network_v8");
	KUNIT_ASSERT_NOT_NULL(test, net);
	KUNIT_EXPECT_EQ(test, net->v_type, AA_SFS_TYPE_DIR);
	KUNIT_EXPECT_PTR_EQ(test, net->v.files, &aa_sfs_entry_network[0]);

	e = aa_sfs_find(aa_sfs_entry_network, "af_mask");
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, e->v_type, AA_SFS_TYPE_STRING);
	KUNIT_EXPECT_STREQ(test, e->v.string, AA_SFS_AF_MASK);

	KUNIT_EXPECT_NULL(test, aa_sfs_find(aa_sfs_entry_features, "network"));

	e = aa_sfs_find(aa_sfs_entry_features, "policy");
	KUNIT_ASSERT_NOT_NULL(test, e);
	e = aa_sfs_find(e->v.files, "versions");
	KUNIT_ASSERT_NOT_NULL(test, e);
	e = aa_sfs_find(e->v.files, "v8");
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_EQ(test, e->v_type, AA_SFS_TYPE_BOOLEAN);
	KUNIT_EXPECT_TRUE(test, e->v.boolean);
}

/* Unpacked policy and the load data it came from, freed at test exit. */
struct aa_kunit_policy {
	struct aa_loaddata udata;
	struct list_head ents;
	const char *ns;		/* the namespace the headers name, or NULL */
};

static void aa_kunit_policy_free(void *data)
{
	struct aa_kunit_policy *p = data;
	struct aa_load_ent *ent, *tmp;

	list_for_each_entry_safe(ent, tmp, &p->ents, list) {
		list_del_init(&ent->list);
		/*
		 * Break the refcount cycle between a profile that never went
		 * live and its proxy, as aa_replace_profiles() does for one
		 * it skips; without this, aa_put_profile() leaves both.
		 */
		if (ent->new) {
			aa_put_proxy(ent->new->label.proxy);
			ent->new->label.proxy = NULL;
		}
		aa_load_ent_free(ent);
	}
	kfree(p->ns);
	kfree(p->udata.hash);
	kvfree(p->udata.data);
	kfree(p);
}

/*
 * Load data holding a copy of the first @size bytes of @blob, for a test
 * to break before aa_kunit_unpack(); the copy lives in kvmalloc memory
 * because unpack may compress it in place.
 */
static struct aa_kunit_policy *aa_kunit_policy(struct kunit *test, const u8 *blob,
					       size_t size)
{
	struct aa_kunit_policy *p;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	INIT_LIST_HEAD(&p->ents);
	p->udata.data = kvmalloc(size, GFP_KERNEL);
	p->udata.size = size;
	if (!p->udata.data)
		kfree(p);
	KUNIT_ASSERT_NOT_NULL(test, p->udata.data);
	memcpy(p->udata.data, blob, size);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, aa_kunit_policy_free, p), 0);
	return p;
}

static int aa_kunit_unpack(struct aa_kunit_policy *p)
{
	return aa_unpack(&p->udata, &p->ents, &p->ns);
}

/* The one profile of policy @p, unpacked, with the name and mode it was compiled with. */
static struct aa_profile *aa_kunit_profile_of(struct kunit *test, struct aa_kunit_policy *p,
					      const char *name, enum profile_mode mode)
{
	struct aa_load_ent *ent;

	KUNIT_ASSERT_EQ(test, aa_kunit_unpack(p), 0);
	KUNIT_ASSERT_TRUE(test, list_is_singular(&p->ents));
	ent = list_first_entry(&p->ents, struct aa_load_ent, list);
	KUNIT_ASSERT_STREQ(test, ent->new->base.name, name);
	KUNIT_ASSERT_EQ(test, ent->new->mode, mode);
	/* Audit names the namespace; loading would put it in this one. */
	ent->new->ns = aa_get_ns(root_ns);
	return ent->new;
}

/* The one profile of a compiled blob, in enforce mode. */
static struct aa_profile *aa_kunit_profile(struct kunit *test, const u8 *blob,
					   size_t size, const char *name)
{
	return aa_kunit_profile_of(test, aa_kunit_policy(test, blob, size), name,
				   APPARMOR_ENFORCE);
}

/* aa_profile_af_perm()'s decision on creating a @family @type socket. */
static int aa_kunit_create(struct aa_profile *profile, u16 family, int type)
{
	DEFINE_AUDIT_NET(ad, OP_CREATE, NULL, family, type, 0);

	return aa_profile_af_perm(profile, &ad, AA_MAY_CREATE, family, type);
}

/* Profile b compiled for 6.12, and for 6.12 without network_v8. */
#define AA_BLOB(b)	.blob = b##_blob, .size = sizeof(b##_blob), .profile = #b
#define AA_BLOB_NONET(b) \
	.blob = b##_nonet_blob, .size = sizeof(b##_nonet_blob), .profile = #b

struct aa_net_perm_case {
	const char *desc;
	const u8 *blob;
	size_t size;
	const char *profile;
	u16 family;
	int type;
	bool mediates;
	int error;
};

/*
 * Create requests against compiled profiles (kunit/apparmor/profiles/).
 * The lookup feeds family and type to the DFA as two big-endian 16-bit
 * values, so the inet stream rows fail if the order or byte order of the
 * buffer changes: unix (1) dgram (2) is denied by net_inet_stream.
 */
static const struct aa_net_perm_case aa_net_perm_cases[] = {
	{ "inet stream allowed by network inet stream",
	  AA_BLOB(net_inet_stream), AF_INET, SOCK_STREAM, true, 0 },
	{ "inet dgram denied by network inet stream",
	  AA_BLOB(net_inet_stream), AF_INET, SOCK_DGRAM, true, -EACCES },
	{ "inet raw denied by network inet stream",
	  AA_BLOB(net_inet_stream), AF_INET, SOCK_RAW, true, -EACCES },
	{ "inet6 stream denied by network inet stream",
	  AA_BLOB(net_inet_stream), AF_INET6, SOCK_STREAM, true, -EACCES },
	{ "unix stream denied by network inet stream",
	  AA_BLOB(net_inet_stream), AF_UNIX, SOCK_STREAM, true, -EACCES },
	{ "unix dgram (inet stream swapped) denied by network inet stream",
	  AA_BLOB(net_inet_stream), AF_UNIX, SOCK_DGRAM, true, -EACCES },
	{ "netlink raw denied by network inet stream",
	  AA_BLOB(net_inet_stream), AF_NETLINK, SOCK_RAW, true, -EACCES },
	{ "inet6 stream denied: deny network inet6 wins over network",
	  AA_BLOB(net_deny_inet6), AF_INET6, SOCK_STREAM, true, -EACCES },
	{ "inet6 dgram denied: deny network inet6 wins over network",
	  AA_BLOB(net_deny_inet6), AF_INET6, SOCK_DGRAM, true, -EACCES },
	{ "inet stream allowed by network next to deny network inet6",
	  AA_BLOB(net_deny_inet6), AF_INET, SOCK_STREAM, true, 0 },
	{ "unix dgram allowed by network next to deny network inet6",
	  AA_BLOB(net_deny_inet6), AF_UNIX, SOCK_DGRAM, true, 0 },
	{ "mctp dgram (last family) allowed by network",
	  AA_BLOB(net_deny_inet6), AF_MCTP, SOCK_DGRAM, true, 0 },
	/*
	 * Compiled for a kernel with network_v8, a profile without network
	 * rules still mediates the class: the parser adds the class start
	 * state, so every socket is denied.
	 */
	{ "inet stream denied with no network rule (network_v8 kernel)",
	  AA_BLOB(net_none), AF_INET, SOCK_STREAM, true, -EACCES },
	{ "unix stream denied with no network rule (network_v8 kernel)",
	  AA_BLOB(net_none), AF_UNIX, SOCK_STREAM, true, -EACCES },
	/*
	 * Compiled for a kernel without network_v8, the same profile does
	 * not mediate AA_CLASS_NET, and aa_profile_af_perm() allows.
	 */
	{ "inet stream allowed with no network rule (no network_v8)",
	  AA_BLOB_NONET(net_none), AF_INET, SOCK_STREAM, false, 0 },
	{ "unix dgram allowed with no network rule (no network_v8)",
	  AA_BLOB_NONET(net_none), AF_UNIX, SOCK_DGRAM, false, 0 },
};

KUNIT_ARRAY_PARAM_DESC(aa_net_perm, aa_net_perm_cases, desc);

static void aa_net_perm_test(struct kunit *test)
{
	const struct aa_net_perm_case *t = test->param_value;
	struct aa_profile *profile;

	profile = aa_kunit_profile(test, t->blob, t->size, t->profile);
	KUNIT_EXPECT_EQ(test, aa_kunit_mediates_net(profile), t->mediates);

	KUNIT_EXPECT_EQ(test, aa_kunit_create(profile, t->family, t->type), t->error);
	KUNIT_EXPECT_EQ(test, aa_kunit_af_perm(&profile->label, t->family, t->type),
			t->error);
}

/*
 * The unconfined profile of the root namespace, and a compiled profile
 * put in unconfined mode, are never denied, for any family and type.
 */
static void aa_net_unconfined_test(struct kunit *test)
{
	struct aa_label *unconfined = &root_ns->unconfined->label;
	struct aa_profile *profile;
	int family, type;

	profile = aa_kunit_profile(test, net_inet_stream_blob,
				   sizeof(net_inet_stream_blob), "net_inet_stream");
	profile->mode = APPARMOR_UNCONFINED;

	for (family = 0; family < AF_MAX; family++)
		for (type = 0; type < SOCK_MAX; type++) {
			KUNIT_EXPECT_EQ_MSG(test, aa_kunit_af_perm(unconfined, family, type), 0,
					    "unconfined label, %d/%d", family, type);
			KUNIT_EXPECT_EQ_MSG(test, aa_kunit_create(profile, family, type), 0,
					    "unconfined mode, %d/%d", family, type);
		}
}

/*
 * The socket types apparmor_parser 3.0.8 has names for (its sock_types
 * table): a rule naming a family and no type covers these. DCCP (6) is
 * not among them, so "deny network inet6," leaves inet6 DCCP sockets to
 * "network,", which allows them, as it allows the unused numbers.
 */
static bool aa_kunit_parser_type(int type)
{
	return type == SOCK_STREAM || type == SOCK_DGRAM || type == SOCK_RAW ||
	       type == SOCK_RDM || type == SOCK_SEQPACKET || type == SOCK_PACKET;
}

/*
 * Every family of af_mask (aa_kunit_families, which aa_af_mask_test holds
 * to it) with every socket type: network inet stream, allows inet stream
 * alone, and deny network inet6, next to network, refuses inet6 of every
 * type the parser names.
 */
static void aa_net_family_test(struct kunit *test)
{
	const struct aa_net_name *f = test->param_value;
	struct aa_profile *stream, *deny6;
	int type;

	stream = aa_kunit_profile(test, net_inet_stream_blob, sizeof(net_inet_stream_blob),
				  "net_inet_stream");
	deny6 = aa_kunit_profile(test, net_deny_inet6_blob, sizeof(net_deny_inet6_blob),
				 "net_deny_inet6");
	for (type = 0; type < SOCK_MAX; type++) {
		bool denied6 = f->value == AF_INET6 && aa_kunit_parser_type(type);

		KUNIT_EXPECT_EQ_MSG(test, aa_kunit_create(stream, f->value, type),
				    f->value == AF_INET && type == SOCK_STREAM ? 0 : -EACCES,
				    "network inet stream, type %d", type);
		KUNIT_EXPECT_EQ_MSG(test, aa_kunit_create(deny6, f->value, type),
				    denied6 ? -EACCES : 0, "deny network inet6, type %d", type);
	}
}

/*
 * The current task under @profile's label until aa_kunit_unconfine():
 * an override of its creds. Both run in the case itself, not as a
 * clean-up action, which runs in another thread; nothing between them
 * may abort the case.
 */
static const struct cred *aa_kunit_confine(struct kunit *test, struct aa_profile *profile)
{
	struct cred *cred = prepare_creds();
	const struct cred *old;

	KUNIT_ASSERT_NOT_NULL(test, cred);
	aa_put_label(cred_label(cred));
	set_cred_label(cred, aa_get_label(&profile->label));
	old = override_creds(cred);
	put_cred(cred);		/* the override holds it */
	return old;
}

static void aa_kunit_unconfine(const struct cred *old)
{
	revert_creds(old);
}

struct aa_net_hook_case {
	const char *desc;
	u16 family;
	int type;
	int kern;
	int error;
};

/*
 * security_socket_create() for a task under net_inet_stream: AppArmor's
 * socket_create hook (lsm.c, apparmor_socket_create()) mediates what
 * the task asks for, and never a kernel socket (kern = 1), whatever the
 * profile says.
 */
static const struct aa_net_hook_case aa_net_hook_cases[] = {
	{ "inet stream for the task: allowed", AF_INET, SOCK_STREAM, 0, 0 },
	{ "inet dgram for the task: denied", AF_INET, SOCK_DGRAM, 0, -EACCES },
	{ "unix stream for the task: denied", AF_UNIX, SOCK_STREAM, 0, -EACCES },
	{ "inet6 stream for the task: denied", AF_INET6, SOCK_STREAM, 0, -EACCES },
	{ "inet dgram for the kernel: not mediated", AF_INET, SOCK_DGRAM, 1, 0 },
	{ "unix stream for the kernel: not mediated", AF_UNIX, SOCK_STREAM, 1, 0 },
	{ "netlink raw for the kernel: not mediated", AF_NETLINK, SOCK_RAW, 1, 0 },
	{ "mctp dgram for the kernel: not mediated", AF_MCTP, SOCK_DGRAM, 1, 0 },
};

KUNIT_ARRAY_PARAM_DESC(aa_net_hook, aa_net_hook_cases, desc);

static void aa_net_hook_test(struct kunit *test)
{
	const struct aa_net_hook_case *t = test->param_value;
	struct aa_profile *profile;
	const struct cred *old;
	int err;

	profile = aa_kunit_profile(test, net_inet_stream_blob, sizeof(net_inet_stream_blob),
				   "net_inet_stream");
	old = aa_kunit_confine(test, profile);
	err = security_socket_create(t->family, t->type, 0, t->kern);
	aa_kunit_unconfine(old);
	KUNIT_EXPECT_EQ(test, err, t->error);
	/* Unconfined again, the task is not mediated. */
	KUNIT_EXPECT_EQ(test, security_socket_create(t->family, t->type, 0, t->kern), 0);
}

static void aa_kunit_sock_release(void *sock)
{
	sock_release(sock);
}

/*
 * Sockets carry a label from their creation (apparmor_socket_post_create()):
 * the creating task's, or kernel_t for a kernel socket, and each later
 * operation is checked against it and the current task's label
 * (aa_sk_perm()): a task under net_inet_stream connects its inet stream
 * socket, but may not send on an inet dgram socket it got from before,
 * and a kernel socket is never mediated. The socket holds one reference
 * to its label, dropped when it is freed.
 */
static void aa_net_sock_label_test(struct kunit *test)
{
	struct socket *stream = NULL, *dgram = NULL, *kern = NULL;
	struct aa_profile *profile;
	const struct cred *old;
	unsigned int refs;
	int err[3], perm[3];

	profile = aa_kunit_profile(test, net_inet_stream_blob, sizeof(net_inet_stream_blob),
				   "net_inet_stream");
	KUNIT_ASSERT_EQ(test, sock_create(AF_INET, SOCK_DGRAM, 0, &dgram), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, aa_kunit_sock_release, dgram), 0);
	refs = kref_read(&profile->label.count.count);

	old = aa_kunit_confine(test, profile);	/* the creds hold one more */
	err[0] = sock_create(AF_INET, SOCK_STREAM, 0, &stream);
	err[1] = sock_create_kern(&init_net, AF_INET, SOCK_DGRAM, 0, &kern);
	err[2] = sock_create(AF_INET, SOCK_DGRAM, 0, &dgram);	/* not again */
	perm[0] = err[0] ? 0 : aa_sk_perm(OP_CONNECT, AA_MAY_CONNECT, stream->sk);
	perm[1] = err[1] ? 0 : aa_sk_perm(OP_SENDMSG, AA_MAY_SEND, kern->sk);
	perm[2] = aa_sk_perm(OP_SENDMSG, AA_MAY_SEND, dgram->sk);
	aa_kunit_unconfine(old);
	rcu_barrier();		/* the creds, and their reference, are freed */

	KUNIT_EXPECT_EQ(test, err[0], 0);
	KUNIT_EXPECT_EQ(test, err[1], 0);
	KUNIT_EXPECT_EQ(test, err[2], -EACCES);
	KUNIT_EXPECT_EQ(test, perm[0], 0);
	KUNIT_EXPECT_EQ(test, perm[1], 0);
	KUNIT_EXPECT_EQ(test, perm[2], -EACCES);
	KUNIT_EXPECT_PTR_EQ(test, aa_sock(dgram->sk)->label, &root_ns->unconfined->label);
	if (!err[1]) {
		KUNIT_EXPECT_PTR_EQ(test, aa_sock(kern->sk)->label, kernel_t);
		sock_release(kern);
	}
	if (err[0])
		return;
	KUNIT_EXPECT_PTR_EQ(test, aa_sock(stream->sk)->label, &profile->label);
	KUNIT_EXPECT_EQ(test, kref_read(&profile->label.count.count), refs + 1);
	sock_release(stream);
	rcu_barrier();
	KUNIT_EXPECT_EQ(test, kref_read(&profile->label.count.count), refs);
}

/*
 * The policydb DFA of a blob, as aa_dfa_unpack() reads it: a table set
 * header (YYTH_MAGIC, header size, set size, flags at byte 12), then
 * tables, each a struct table_header (with YYTD_ID_x + 1 as its id) and
 * td_lolen big-endian entries of td_flags bytes, padded to 8 bytes.
 */
struct aa_kunit_dfa {
	u8 *set;				/* the table set header */
	size_t end;				/* the set's end in the blob */
	u8 *tables[YYTD_ID_TSIZE];		/* each table's header, or NULL */
	u32 states;				/* the base table's td_lolen */
};

/* Where the @len bytes of @needle first stand in @buf, or @size if nowhere. */
static size_t aa_kunit_find(const u8 *buf, size_t size, const void *needle, size_t len)
{
	size_t at;

	for (at = 0; at + len <= size; at++)
		if (!memcmp(buf + at, needle, len))
			return at;
	return size;
}

/*
 * Reads the first DFA of @blob into @dfa; false if there is none, or it
 * is cut short, or a table's id or size is not one aa_dfa_unpack() knows.
 */
static bool aa_dfa_parse(u8 *blob, size_t size, struct aa_kunit_dfa *dfa)
{
	static const u8 magic[] = { 0x1b, 0x5e, 0x78, 0x3d };	/* YYTH_MAGIC */
	size_t pos = aa_kunit_find(blob, size, magic, sizeof(magic)), len;

	memset(dfa, 0, sizeof(*dfa));
	if (pos + 16 > size)
		return false;
	dfa->set = blob + pos;
	dfa->end = pos + get_unaligned_be32(dfa->set + 8);
	if (dfa->end > size)
		return false;

	pos += get_unaligned_be32(dfa->set + 4);
	while (pos + sizeof(struct table_header) <= dfa->end) {
		u8 *th = blob + pos;
		u16 id = get_unaligned_be16(th) - 1, width = get_unaligned_be16(th + 2);

		if (id >= ARRAY_SIZE(dfa->tables) || !is_power_of_2(width) || width > 8)
			return false;
		len = table_size(get_unaligned_be32(th + 8), width);
		if (len > dfa->end - pos)
			return false;
		dfa->tables[id] = th;
		pos += len;
	}
	if (!dfa->tables[YYTD_ID_BASE] || !dfa->tables[YYTD_ID_DEF])
		return false;
	dfa->states = get_unaligned_be32(dfa->tables[YYTD_ID_BASE] + 8);
	return true;
}

/* Entry @i of table @id, or NULL if it has no such entry. */
static u8 *aa_dfa_entry(const struct aa_kunit_dfa *dfa, int id, u32 i)
{
	u8 *th = dfa->tables[id];

	if (!th || i >= get_unaligned_be32(th + 8))
		return NULL;
	return th + sizeof(struct table_header) + i * get_unaligned_be16(th + 2);
}

/*
 * Make @state differentially encoded with @def as its default (the state
 * whose transitions it inherits), as the parser's -O diff-encode does;
 * false if the DFA has no such state.
 */
static bool aa_dfa_diff_encode(const struct aa_kunit_dfa *dfa, u32 state, u16 def)
{
	u8 *base = aa_dfa_entry(dfa, YYTD_ID_BASE, state);
	u8 *dflt = aa_dfa_entry(dfa, YYTD_ID_DEF, state);

	if (!base || !dflt)
		return false;
	put_unaligned_be32(get_unaligned_be32(base) | MATCH_FLAG_DIFF_ENCODE, base);
	put_unaligned_be16(def, dflt);
	put_unaligned_be16(get_unaligned_be16(dfa->set + 12) | YYTH_FLAG_DIFF_ENCODE,
			   dfa->set + 12);
	return true;
}

static void aa_kunit_dfa_find(struct kunit *test, u8 *blob, size_t size,
			      struct aa_kunit_dfa *dfa)
{
	KUNIT_ASSERT_TRUE(test, aa_dfa_parse(blob, size, dfa));
}

struct aa_unpack_bad_case {
	const char *desc;
	long cut;		/* bytes kept (0: all), or dropped if < 0 */
	long at;		/* byte to overwrite (-1: none), ... */
	u8 byte;		/* ... with this */
	bool dfa_magic;		/* overwrite the first byte of the DFA magic */
};

/*
 * The blob of net_inet_stream, broken in one place each. It opens with
 * the "version" element: code 0x04 (name), length 8, "version\0", code
 * 0x02 (u32) at 11, the ABI version (v7 with flags) at 12 .. 15; the
 * versions out of range are rows of aa_unpack_abi_cases.
 */
static const struct aa_unpack_bad_case aa_unpack_bad_cases[] = {
	{ "truncated inside the version name", .cut = 6, .at = -1 },
	{ "truncated inside the version value", .cut = 14, .at = -1 },
	{ "truncated after the header", .cut = 16, .at = -1 },
	{ "truncated halfway", .cut = -(long)(sizeof(net_inet_stream_blob) / 2), .at = -1 },
	{ "truncated by its last byte", .cut = -1, .at = -1 },
	{ "first element not named version", .at = 3, .byte = 'x' },
	{ "policydb DFA with a bad magic", .at = -1, .dfa_magic = true },
};

KUNIT_ARRAY_PARAM_DESC(aa_unpack_bad, aa_unpack_bad_cases, desc);

/* Broken policy is refused with an error, and unpack returns no profile. */
static void aa_unpack_bad_test(struct kunit *test)
{
	const struct aa_unpack_bad_case *t = test->param_value;
	size_t size = sizeof(net_inet_stream_blob);
	struct aa_kunit_policy *p;
	u8 *blob;

	if (t->cut > 0)
		size = t->cut;
	else if (t->cut < 0)
		size += t->cut;
	p = aa_kunit_policy(test, net_inet_stream_blob, size);
	blob = p->udata.data;
	if (t->at >= 0)
		blob[t->at] = t->byte;
	if (t->dfa_magic) {
		struct aa_kunit_dfa dfa;

		aa_kunit_dfa_find(test, blob, size, &dfa);
		dfa.set[0] ^= 0xff;
	}

	KUNIT_EXPECT_LT(test, aa_kunit_unpack(p), 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&p->ents));
}

/* The unbroken blob unpacks, so the rows above fail for their own reason. */
static void aa_unpack_good_test(struct kunit *test)
{
	aa_kunit_profile(test, net_inet_stream_blob, sizeof(net_inet_stream_blob),
			 "net_inet_stream");
}

/*
 * The newest policy ABI unpack takes: 6.12 names v9 in policy_compat.h
 * (v6.2, with the xbits of the policydb); 6.1 takes up to v8, although
 * its apparmorfs lists v9 in policy/versions.
 */
#if __has_include("include/policy_compat.h")
#include "include/policy_compat.h"
#define AA_KUNIT_ABI_MAX	v9
#else
#define AA_KUNIT_ABI_MAX	8
#endif

/* The header apparmor_parser writes first: the name "version", a u32. */
#define AA_KUNIT_HEADER		16
#define AA_KUNIT_VERSION	12	/* where its le32 value is */

struct aa_unpack_abi_case {
	const char *desc;
	u32 version;		/* the version word of the blob's header */
	enum profile_mode mode;
};

/*
 * The version word of net_inet_stream's header (le32 at byte 12) set to
 * each ABI around the range unpack takes, v5 to AA_KUNIT_ABI_MAX: the low
 * ten bits (K_ABI_MASK) are the ABI, the bits above are flags, of which
 * 0x800 (FORCE_COMPLAIN_FLAG) loads every profile in complain mode.
 */
static const struct aa_unpack_abi_case aa_unpack_abi_cases[] = {
	{ "v4: older than the kernel takes", 4 },
	{ "v5: the oldest", 5 },
	{ "v6", 6 },
	{ "v7: what apparmor_parser 3.0.8 writes", 7 },
	{ "v8", 8 },
	{ "v9", 9 },
	{ "v10: newer than either base takes", 10 },
	{ "v7 + 0x100: the ABI bits go up to 0x3ff", 0x107 },
	{ "v7 with the parser's flags 0x202000", 0x202007 },
	{ "v7 with flag 0x400, outside the ABI bits", 0x407 },
	{ "v7 with FORCE_COMPLAIN_FLAG: complain mode", 0x807, APPARMOR_COMPLAIN },
};

KUNIT_ARRAY_PARAM_DESC(aa_unpack_abi, aa_unpack_abi_cases, desc);

/*
 * Every ABI unpack takes loads the network policy as it is (inet stream
 * allowed, inet dgram refused, or allowed in complain mode) and records
 * the ABI in the load data; the first ABIs outside the range on each side
 * are refused with no profile.
 */
static void aa_unpack_abi_test(struct kunit *test)
{
	const struct aa_unpack_abi_case *t = test->param_value;
	u32 abi = t->version & 0x3ff;
	struct aa_kunit_policy *p;
	struct aa_profile *profile;

	p = aa_kunit_policy(test, net_inet_stream_blob, sizeof(net_inet_stream_blob));
	KUNIT_ASSERT_EQ(test, get_unaligned_le32(p->udata.data + AA_KUNIT_VERSION), 0x202007);
	put_unaligned_le32(t->version, p->udata.data + AA_KUNIT_VERSION);
	if (abi < 5 || abi > AA_KUNIT_ABI_MAX) {
		KUNIT_EXPECT_EQ(test, aa_kunit_unpack(p), -EPROTONOSUPPORT);
		KUNIT_EXPECT_TRUE(test, list_empty(&p->ents));
		return;
	}
	profile = aa_kunit_profile_of(test, p, "net_inet_stream", t->mode);
	KUNIT_EXPECT_EQ(test, p->udata.abi, abi);
	KUNIT_EXPECT_EQ(test, aa_kunit_create(profile, AF_INET, SOCK_STREAM), 0);
	KUNIT_EXPECT_EQ(test, aa_kunit_create(profile, AF_INET, SOCK_DGRAM),
			t->mode == APPARMOR_COMPLAIN ? 0 : -EACCES);
	KUNIT_EXPECT_EQ(test, aa_kunit_create(profile, AF_INET6, SOCK_STREAM),
			t->mode == APPARMOR_COMPLAIN ? 0 : -EACCES);
}

/* A state number counted from the DFA's end: AA_STATES + n is n past it. */
#define AA_STATES	0x40000000u
#define AA_LAST		(AA_STATES - 1)

static u32 aa_kunit_state(u32 v, u32 states)
{
	return v >= AA_STATES - 0x100 && v < AA_STATES + 0x100 ? states + (v - AA_STATES) : v;
}

/*
 * A copy of net_inet_stream with the u32 element @name = @value put right
 * after its policydb DFA, where unpack reads the optional start states.
 */
/*
 * Writes @s, NUL included, at @at as an element of the policy encoding
 * of type @code (AA_NAME or AA_STRING: code, le16 length, bytes).
 * Returns the position after it.
 */
static u8 *aa_kunit_put_str(u8 *at, enum aa_code code, const char *s)
{
	size_t len = strlen(s) + 1;

	*at++ = code;
	put_unaligned_le16(len, at);
	memcpy(at + 2, s, len);
	return at + 2 + len;
}

static struct aa_kunit_policy *aa_kunit_policy_u32(struct kunit *test, const char *name,
						   u32 value)
{
	size_t size = sizeof(net_inet_stream_blob), len = strlen(name) + 1;
	size_t extra = 3 + len + 5;
	struct aa_kunit_dfa dfa;
	u8 *blob, *at;

	blob = kunit_kzalloc(test, size + extra, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, blob);
	memcpy(blob, net_inet_stream_blob, size);
	aa_kunit_dfa_find(test, blob, size, &dfa);
	value = aa_kunit_state(value, dfa.states);

	at = blob + dfa.end;
	memmove(at + extra, at, size - dfa.end);
	at = aa_kunit_put_str(at, AA_NAME, name);
	*at++ = AA_U32;
	put_unaligned_le32(value, at);
	return aa_kunit_policy(test, blob, size + extra);
}

/* Every family and type is decided by @a as by @b. */
static void aa_kunit_same_decisions(struct kunit *test, struct aa_profile *a,
				    struct aa_profile *b)
{
	int family, type;

	for (family = 0; family < AF_MAX; family++)
		for (type = 0; type < SOCK_MAX; type++)
			KUNIT_EXPECT_EQ_MSG(test, aa_kunit_create(a, family, type),
					    aa_kunit_create(b, family, type),
					    "family %d type %d", family, type);
}

#define AA_MAX_LINKS	4

struct aa_dfa_cve_case {
	const char *desc;
	const char *elem;	/* a u32 element put after the DFA, or NULL */
	u32 value;		/* its value */
	struct {
		u32 state;	/* 0 ends the list */
		u32 def;
	} links[AA_MAX_LINKS];	/* states made diff-encoded, with their default */
	bool all;		/* every state but 0 diff-encoded to 0 */
	bool no_flag;		/* YYTH_FLAG_DIFF_ENCODE left out of the header */
	bool loads;		/* unpack takes it, or refuses it */
	bool same;		/* and decides every socket as the parser's blob */
	bool pdb;		/* needs 6.12's unpack_pdb() (v6.2), which reads dfa_start */
};

/*
 * net_inet_stream (8 states, every default 0) broken as the malformed
 * policy of each 2026 unpack CVE was (docs/apparmor-cves.md): the fixed
 * kernel refuses it, and the unfixed one reads out of bounds (KASAN,
 * the debug leg) or loads it. Rows that must load pin the check's other
 * side, so that a check refusing too much fails too. The loops keep
 * out of state 1, where unpack starts its class lookups: the unfixed
 * kernel would spin there, not load.
 */
static const struct aa_dfa_cve_case aa_dfa_cve_cases[] = {
	/* CVE-2026-23269, 9063d7e2615f: start states checked in unpack_pdb() */
	{ "CVE-2026-23269: start one past the last state refused",
	  .elem = "start", .value = AA_STATES },
	{ "CVE-2026-23269: start U32_MAX refused", .elem = "start", .value = U32_MAX },
	{ "CVE-2026-23269: start at the last state loads",
	  .elem = "start", .value = AA_LAST, .loads = true },
	{ "CVE-2026-23269: start DFA_START, given, loads as the default",
	  .elem = "start", .value = DFA_START, .loads = true, .same = true },
	{ "CVE-2026-23269: dfa_start one past the last state refused",
	  .elem = "dfa_start", .value = AA_STATES },
	{ "CVE-2026-23269: dfa_start at the last state loads",
	  .elem = "dfa_start", .value = AA_LAST, .loads = true, .pdb = true },
	/* CVE-2026-23407, d352873bbefa: every DEFAULT entry bounds-checked */
	{ "CVE-2026-23407: diff-encoded default one past the last state refused",
	  .links = { { 2, AA_STATES } } },
	{ "CVE-2026-23407: diff-encoded default U16_MAX refused",
	  .links = { { 2, U16_MAX } } },
	{ "CVE-2026-23407: diff-encoded default the last state loads",
	  .links = { { 2, AA_LAST } }, .loads = true },
	/* CVE-2026-23409, 39440b137546: diff-encode chains must end */
	{ "CVE-2026-23409: two-state loop 2-3-2 refused",
	  .links = { { 2, 3 }, { 3, 2 } } },
	{ "CVE-2026-23409: three-state loop 2-3-4-2 refused",
	  .links = { { 2, 3 }, { 3, 4 }, { 4, 2 } } },
	{ "CVE-2026-23409: chain 5-3 into loop 3-4-3 refused",
	  .links = { { 5, 3 }, { 3, 4 }, { 4, 3 } } },
	{ "CVE-2026-23409: self loop 2-2 refused", .links = { { 2, 2 } } },
	{ "CVE-2026-23409: chain 4-3-2-0 loads",
	  .links = { { 4, 3 }, { 3, 2 }, { 2, 0 } }, .loads = true },
	{ "CVE-2026-23409: chain 3-1 into verified chain 2-1-0 loads",
	  .links = { { 1, 0 }, { 2, 1 }, { 3, 1 } }, .loads = true },
	{ "diff-encoded state without the header flag refused",
	  .links = { { 2, 0 } }, .no_flag = true },
	/*
	 * CVE-2026-23406, 8756b68edae3: match_char() took *str++, which a
	 * diff-encode chain evaluated once per step. Each state diff-encoded
	 * to state 0 (its default already) changes no decision, and a chain
	 * step on every mismatch reads past aa_profile_af_perm()'s 4 bytes.
	 */
	{ "CVE-2026-23406: every state diff-encoded to 0 decides as before",
	  .all = true, .loads = true, .same = true },
};

KUNIT_ARRAY_PARAM_DESC(aa_dfa_cve, aa_dfa_cve_cases, desc);

static void aa_dfa_cve_test(struct kunit *test)
{
	const struct aa_dfa_cve_case *t = test->param_value;
	struct aa_kunit_policy *p;
	struct aa_kunit_dfa dfa;
	struct aa_load_ent *ent;
	int i;

#ifndef aa_state_t
	if (t->pdb)
		kunit_skip(test, "6.1 reads no dfa_start in the policydb");
#endif
	if (t->elem)
		p = aa_kunit_policy_u32(test, t->elem, t->value);
	else
		p = aa_kunit_policy(test, net_inet_stream_blob, sizeof(net_inet_stream_blob));
	aa_kunit_dfa_find(test, p->udata.data, p->udata.size, &dfa);
	for (i = 0; i < AA_MAX_LINKS && t->links[i].state; i++)
		KUNIT_ASSERT_TRUE(test, aa_dfa_diff_encode(&dfa, t->links[i].state,
							   aa_kunit_state(t->links[i].def,
									  dfa.states)));
	for (i = 1; t->all && i < dfa.states; i++)
		KUNIT_ASSERT_TRUE(test, aa_dfa_diff_encode(&dfa, i, 0));
	if (t->no_flag)
		put_unaligned_be16(get_unaligned_be16(dfa.set + 12) & ~YYTH_FLAG_DIFF_ENCODE,
				   dfa.set + 12);

	if (!t->loads) {
		KUNIT_EXPECT_EQ(test, aa_kunit_unpack(p), -EPROTO);
		KUNIT_EXPECT_TRUE(test, list_empty(&p->ents));
		return;
	}
	KUNIT_ASSERT_EQ(test, aa_kunit_unpack(p), 0);
	KUNIT_ASSERT_TRUE(test, list_is_singular(&p->ents));
	ent = list_first_entry(&p->ents, struct aa_load_ent, list);
	ent->new->ns = aa_get_ns(root_ns);
	if (t->same)
		aa_kunit_same_decisions(test, ent->new,
					aa_kunit_profile(test, net_inet_stream_blob,
							 sizeof(net_inet_stream_blob),
							 "net_inet_stream"));
}

/*
 * Appends to @to a profile in namespace @ns (net_ns_a, its namespace
 * renamed: a 4-byte name), or with none if @ns is "" (net_inet_stream);
 * returns the bytes appended.
 */
static size_t aa_kunit_ns_profile(struct kunit *test, u8 *to, const char *ns)
{
	size_t at;

	if (!*ns) {
		memcpy(to, net_inet_stream_blob, sizeof(net_inet_stream_blob));
		return sizeof(net_inet_stream_blob);
	}
	KUNIT_ASSERT_EQ(test, strlen(ns), 4);
	memcpy(to, net_ns_a_blob, sizeof(net_ns_a_blob));
	/* The header's "namespace" string is the first "ns_a" of the blob. */
	at = aa_kunit_find(to, sizeof(net_ns_a_blob), "ns_a", 4);
	KUNIT_ASSERT_LE(test, at + 4, sizeof(net_ns_a_blob));
	memcpy(to + at, ns, 4);
	return sizeof(net_ns_a_blob);
}

struct aa_unpack_ns_case {
	const char *desc;
	const char *first;	/* the first profile's namespace; "": none */
	const char *second;	/* a second profile's, or NULL */
	const char *ns;		/* what aa_unpack() hands back */
};

/*
 * One blob of one or two profiles, each with its own header. The first
 * namespace a header names is the one aa_unpack() hands back: a later
 * header that names another or none is audited ("invalid ns change"),
 * and does not change it. CVE-2026-23403, e38c55d9f834: verify_header()
 * set *ns to NULL on each header, leaking the first name and handing
 * back the last header's.
 */
static const struct aa_unpack_ns_case aa_unpack_ns_cases[] = {
	{ "no namespace hands back NULL", "", NULL, NULL },
	{ "ns_a hands back ns_a", "ns_a", NULL, "ns_a" },
	{ "ns_a twice hands back ns_a", "ns_a", "ns_a", "ns_a" },
	{ "none, then ns_a hands back ns_a", "", "ns_a", "ns_a" },
	{ "CVE-2026-23403: ns_a, then ns_b hands back ns_a", "ns_a", "ns_b", "ns_a" },
	{ "CVE-2026-23403: ns_a, then none hands back ns_a", "ns_a", "", "ns_a" },
};

KUNIT_ARRAY_PARAM_DESC(aa_unpack_ns, aa_unpack_ns_cases, desc);

static void aa_unpack_ns_test(struct kunit *test)
{
	const struct aa_unpack_ns_case *t = test->param_value;
	size_t size = 0, room = 2 * max(sizeof(net_ns_a_blob), sizeof(net_inet_stream_blob));
	struct aa_kunit_policy *p;
	u8 *blob;

	blob = kunit_kzalloc(test, room, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, blob);
	size += aa_kunit_ns_profile(test, blob, t->first);
	if (t->second)
		size += aa_kunit_ns_profile(test, blob + size, t->second);
	p = aa_kunit_policy(test, blob, size);

	KUNIT_ASSERT_EQ(test, aa_kunit_unpack(p), 0);
	KUNIT_EXPECT_EQ(test, list_count_nodes(&p->ents), t->second ? 2U : 1U);
	if (!t->ns) {
		KUNIT_EXPECT_NULL(test, p->ns);
		return;
	}
	KUNIT_ASSERT_NOT_NULL(test, p->ns);
	KUNIT_EXPECT_STREQ(test, p->ns, t->ns);
}

/* The class start states and DFA of a profile's policy. */
static struct aa_dfa *aa_kunit_policydb(struct aa_profile *profile, const unsigned int **start)
{
#ifdef aa_state_t
	struct aa_ruleset *rules = list_first_entry(&profile->rules, typeof(*rules), list);

	*start = rules->policy->start;
	return rules->policy->dfa;
#else
	*start = profile->policy.start;
	return profile->policy.dfa;
#endif
}

/*
 * The fuzz loop: AA_FUZZ_INPUTS blobs, each a parser blob of
 * net_kunit_policy.h with one to three random edits, from a fixed seed
 * (printed, so that a run can be repeated).
 */
#define AA_FUZZ_SEED	0x20260310ULL	/* the date of the CrackArmor advisory */
#define AA_FUZZ_INPUTS	10000
#define AA_FUZZ_EDITS	3

static const struct {
	const u8 *blob;
	size_t size;
} aa_fuzz_corpus[] = {
	{ net_inet_stream_blob, sizeof(net_inet_stream_blob) },
	{ net_deny_inet6_blob, sizeof(net_deny_inet6_blob) },
	{ net_none_blob, sizeof(net_none_blob) },
	{ net_none_nonet_blob, sizeof(net_none_nonet_blob) },
	{ net_ns_a_blob, sizeof(net_ns_a_blob) },
};

/* The values that length, offset and state fields are set to. */
static u32 aa_fuzz_edge(struct rnd_state *rnd, u32 states)
{
	static const u32 edges[] = {
		0, 1, 2, 7, 8, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff,
		0x10000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
	};
	u32 r = prandom_u32_state(rnd) % (ARRAY_SIZE(edges) + 3);

	if (r < ARRAY_SIZE(edges))
		return edges[r];
	return states + r - ARRAY_SIZE(edges) - 1;	/* the last state, and past it */
}

/*
 * One random edit of @blob, which keeps its first @size bytes: a flipped
 * bit, a random byte, a length of the unpack stream (the u16 after a
 * name, string or array code, the u32 after a blob code) or a field
 * of the DFA's headers set to an edge, a DFA table entry set to an edge
 * (past the state count, the base's flag bits), a state diff-encoded to
 * a random default, or the blob cut short. Returns the new size.
 */
static size_t aa_fuzz_edit(u8 *blob, size_t size, struct rnd_state *rnd)
{
	static const u8 tables[] = { YYTD_ID_BASE, YYTD_ID_DEF, YYTD_ID_NXT, YYTD_ID_CHK };
	static const u8 set_fields[] = { 4, 8, 12 };
	static const u8 table_fields[] = { 0, 2, 4, 8 };
	struct aa_kunit_dfa dfa;
	u32 at = prandom_u32_state(rnd) % size, i, n;
	u8 *th, *e;

	switch (prandom_u32_state(rnd) % 8) {
	case 0:
		blob[at] ^= 1 << (prandom_u32_state(rnd) % 8);
		return size;
	case 1:
		blob[at] = prandom_u32_state(rnd);
		return size;
	case 2:
		return at;
	case 3:
		for (i = 0; i < size; i++, at = (at + 1) % size) {
			if ((blob[at] == AA_NAME || blob[at] == AA_STRING ||
			     blob[at] == AA_ARRAY) && at + 3 <= size) {
				put_unaligned_le16(aa_fuzz_edge(rnd, 0), blob + at + 1);
				break;
			}
			if (blob[at] == AA_BLOB && at + 5 <= size) {
				put_unaligned_le32(aa_fuzz_edge(rnd, 0), blob + at + 1);
				break;
			}
		}
		return size;
	}

	/* The rest edit the first DFA, if the blob still has one whole. */
	if (!aa_dfa_parse(blob, size, &dfa) || !dfa.states)
		return size;
	i = tables[prandom_u32_state(rnd) % ARRAY_SIZE(tables)];
	th = dfa.tables[i];
	e = aa_dfa_entry(&dfa, i, prandom_u32_state(rnd) % dfa.states);

	switch (prandom_u32_state(rnd) % 4) {
	case 0:
		n = set_fields[prandom_u32_state(rnd) % ARRAY_SIZE(set_fields)];
		put_unaligned_be32(aa_fuzz_edge(rnd, dfa.states), dfa.set + n);
		break;
	case 1:
		n = table_fields[prandom_u32_state(rnd) % ARRAY_SIZE(table_fields)];
		if (th)
			put_unaligned_be16(aa_fuzz_edge(rnd, dfa.states), th + n);
		break;
	case 2:
		if (e && i == YYTD_ID_BASE)
			put_unaligned_be32(get_unaligned_be32(e) ^
					   (prandom_u32_state(rnd) & MATCH_FLAGS_MASK), e);
		else if (e)
			put_unaligned_be16(aa_fuzz_edge(rnd, dfa.states), e);
		break;
	case 3:
		aa_dfa_diff_encode(&dfa, prandom_u32_state(rnd) % dfa.states,
				   prandom_u32_state(rnd) % (dfa.states + 1));
		break;
	}
	return size;
}

/*
 * A profile unpack took must keep what verify_dfa() promises: every class
 * starts inside the DFA, and matching any bytes from there (the socket
 * lookup's 4, and a string) ends inside it. Expectations, not assertions:
 * the case goes on to print the input; a class that starts outside the
 * DFA is not matched from.
 */
static void aa_fuzz_check(struct kunit *test, struct aa_profile *profile, struct rnd_state *rnd)
{
	const unsigned int *start;
	struct aa_dfa *dfa = aa_kunit_policydb(profile, &start);
	u32 states, bytes[2];
	int class;

	KUNIT_EXPECT_NOT_NULL(test, profile->base.name);
	if (!dfa)
		return;
	states = dfa->tables[YYTD_ID_BASE]->td_lolen;
	for (class = 0; class <= AA_CLASS_LAST; class++) {
		KUNIT_EXPECT_LT_MSG(test, start[class], states, "class %d", class);
		if (start[class] >= states)
			return;
		bytes[0] = prandom_u32_state(rnd);
		bytes[1] = 0;
		KUNIT_EXPECT_LT_MSG(test, aa_dfa_match_len(dfa, start[class], (char *)bytes, 4),
				    states, "class %d", class);
		KUNIT_EXPECT_LT_MSG(test, aa_dfa_match(dfa, start[class], (char *)bytes),
				    states, "class %d", class);
	}
}

/*
 * Hostile policy: every fuzzed blob is refused, or unpacks into profiles
 * that pass aa_fuzz_check() and free cleanly. A kernel report (KASAN,
 * UBSAN: the debug leg) fails the running case, so the first input that
 * makes one, or fails a check, is printed in hex between markers, to
 * become a row of aa_dfa_cve_cases or aa_unpack_bad_cases.
 */
static void aa_unpack_fuzz_test(struct kunit *test)
{
	size_t room = 0, size;
	struct rnd_state rnd;
	unsigned int loaded = 0, n, k;
	struct aa_kunit_policy *p;
	struct aa_load_ent *ent;
	u8 *input;

	for (k = 0; k < ARRAY_SIZE(aa_fuzz_corpus); k++)
		room = max(room, aa_fuzz_corpus[k].size);
	input = kunit_kmalloc(test, room, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, input);

	prandom_seed_state(&rnd, AA_FUZZ_SEED);
	kunit_info(test, "seed %#llx, %d inputs\n", AA_FUZZ_SEED, AA_FUZZ_INPUTS);
	for (n = 0; n < AA_FUZZ_INPUTS; n++) {
		k = prandom_u32_state(&rnd) % ARRAY_SIZE(aa_fuzz_corpus);
		size = aa_fuzz_corpus[k].size;
		memcpy(input, aa_fuzz_corpus[k].blob, size);
		for (k = 1 + prandom_u32_state(&rnd) % AA_FUZZ_EDITS; k && size; k--)
			size = aa_fuzz_edit(input, size, &rnd);
		if (!size)
			continue;

		p = aa_kunit_policy(test, input, size);
		if (!aa_kunit_unpack(p)) {
			loaded++;
			list_for_each_entry(ent, &p->ents, list)
				aa_fuzz_check(test, ent->new, &rnd);
		}
		kunit_release_action(test, aa_kunit_policy_free, p);

		if (test->status == KUNIT_FAILURE) {
			kunit_err(test, "input %u of seed %#llx, %zu bytes:\n", n, AA_FUZZ_SEED,
				  size);
			pr_err("# aa_unpack_fuzz input begin\n");
			print_hex_dump(KERN_ERR, "", DUMP_PREFIX_OFFSET, 16, 1, input, size, false);
			pr_err("# aa_unpack_fuzz input end\n");
			return;
		}
		cond_resched();
	}
	kunit_info(test, "%u of %d inputs loaded\n", loaded, AA_FUZZ_INPUTS);
}

#include "net_ops_kunit.c"
#include "net_load_kunit.c"

static struct kunit_case aa_net_names_cases[] = {
	KUNIT_CASE_PARAM(aa_family_name_test, aa_family_gen_params),
	KUNIT_CASE_PARAM(aa_type_name_test, aa_type_gen_params),
	KUNIT_CASE(aa_table_size_test),
	KUNIT_CASE(aa_table_holes_test),
	KUNIT_CASE(aa_family_alias_test),
	KUNIT_CASE(aa_af_mask_test),
	KUNIT_CASE(aa_network_features_test),
	{}
};

static struct kunit_suite aa_net_names_suite = {
	.name = "apparmor_net_names",
	.test_cases = aa_net_names_cases,
};

static struct kunit_case aa_net_perm_cases_list[] = {
	KUNIT_CASE_PARAM(aa_net_perm_test, aa_net_perm_gen_params),
	KUNIT_CASE(aa_net_unconfined_test),
	KUNIT_CASE_PARAM(aa_net_family_test, aa_family_gen_params),
	KUNIT_CASE_PARAM(aa_net_hook_test, aa_net_hook_gen_params),
	KUNIT_CASE(aa_net_sock_label_test),
	KUNIT_CASE(aa_unpack_good_test),
	KUNIT_CASE_PARAM(aa_unpack_bad_test, aa_unpack_bad_gen_params),
	KUNIT_CASE_PARAM(aa_unpack_abi_test, aa_unpack_abi_gen_params),
	KUNIT_CASE_PARAM(aa_dfa_cve_test, aa_dfa_cve_gen_params),
	KUNIT_CASE_PARAM(aa_unpack_ns_test, aa_unpack_ns_gen_params),
	KUNIT_CASE_SLOW(aa_unpack_fuzz_test),
	{}
};

static struct kunit_suite aa_net_perm_suite = {
	.name = "apparmor_net_perm",
	.test_cases = aa_net_perm_cases_list,
};

kunit_test_suites(&aa_net_names_suite, &aa_net_perm_suite);
