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
	const char *ns;

	return aa_unpack(&p->udata, &p->ents, &ns);
}

/* The one profile of a compiled blob, with the name it was compiled with. */
static struct aa_profile *aa_kunit_profile(struct kunit *test, const u8 *blob,
					   size_t size, const char *name)
{
	struct aa_kunit_policy *p = aa_kunit_policy(test, blob, size);
	struct aa_load_ent *ent;

	KUNIT_ASSERT_EQ(test, aa_kunit_unpack(p), 0);
	KUNIT_ASSERT_TRUE(test, list_is_singular(&p->ents));
	ent = list_first_entry(&p->ents, struct aa_load_ent, list);
	KUNIT_ASSERT_STREQ(test, ent->new->base.name, name);
	KUNIT_ASSERT_EQ(test, ent->new->mode, APPARMOR_ENFORCE);
	/* Audit names the namespace; loading would put it in this one. */
	ent->new->ns = aa_get_ns(root_ns);
	return ent->new;
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
	DEFINE_AUDIT_NET(ad, OP_CREATE, NULL, t->family, t->type, 0);

	profile = aa_kunit_profile(test, t->blob, t->size, t->profile);
	KUNIT_EXPECT_EQ(test, aa_kunit_mediates_net(profile), t->mediates);

	KUNIT_EXPECT_EQ(test, aa_profile_af_perm(profile, &ad, AA_MAY_CREATE,
						 t->family, t->type), t->error);
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
			DEFINE_AUDIT_NET(ad, OP_CREATE, NULL, family, type, 0);

			KUNIT_EXPECT_EQ_MSG(test, aa_kunit_af_perm(unconfined, family, type), 0,
					    "unconfined label, %d/%d", family, type);
			KUNIT_EXPECT_EQ_MSG(test, aa_profile_af_perm(profile, &ad,
								     AA_MAY_CREATE,
								     family, type), 0,
					    "unconfined mode, %d/%d", family, type);
		}
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
 * 0x02 (u32) at 11, the ABI version (v7 with flags) at 12 .. 15.
 */
static const struct aa_unpack_bad_case aa_unpack_bad_cases[] = {
	{ "truncated inside the version name", .cut = 6, .at = -1 },
	{ "truncated inside the version value", .cut = 14, .at = -1 },
	{ "truncated after the header", .cut = 16, .at = -1 },
	{ "truncated halfway", .cut = -(long)(sizeof(net_inet_stream_blob) / 2), .at = -1 },
	{ "truncated by its last byte", .cut = -1, .at = -1 },
	{ "ABI v10, newer than the kernel knows", .at = 12, .byte = 10 },
	{ "ABI v4, older than the kernel takes", .at = 12, .byte = 4 },
	{ "first element not named version", .at = 3, .byte = 'x' },
	{ "policydb DFA with a bad magic", .at = -1, .dfa_magic = true },
};

KUNIT_ARRAY_PARAM_DESC(aa_unpack_bad, aa_unpack_bad_cases, desc);

/* Broken policy is refused with an error, and unpack returns no profile. */
static void aa_unpack_bad_test(struct kunit *test)
{
	static const u8 magic[] = { 0x1b, 0x5e, 0x78, 0x3d };	/* YYTH_MAGIC */
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
		size_t i = 0;

		while (i + sizeof(magic) <= size && memcmp(blob + i, magic, sizeof(magic)))
			i++;
		KUNIT_ASSERT_LE(test, i + sizeof(magic), size);
		blob[i] ^= 0xff;
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

#ifdef CONFIG_KUNIT_FAULT_INJECTION
#define AA_MAX_NTH	256

struct aa_unpack_nth_case {
	const char *desc;
	long cut;		/* bytes dropped from the end of net_inet_stream */
};

static const struct aa_unpack_nth_case aa_unpack_nth_cases[] = {
	{ "whole blob", 0 },
	{ "blob truncated halfway", sizeof(net_inet_stream_blob) / 2 },
	{ "blob truncated by its last byte", 1 },
};

KUNIT_ARRAY_PARAM_DESC(aa_unpack_nth, aa_unpack_nth_cases, desc);

struct aa_unpack_nth {
	const struct aa_unpack_nth_case *t;
	struct aa_kunit_policy *p;
};

static void aa_unpack_nth_setup(struct kunit *test, void *ctx)
{
	struct aa_unpack_nth *w = ctx;

	w->p = aa_kunit_policy(test, net_inet_stream_blob,
			       sizeof(net_inet_stream_blob) - w->t->cut);
}

static int aa_unpack_nth_call(struct kunit *test, void *ctx)
{
	struct aa_unpack_nth *w = ctx;

	return aa_kunit_unpack(w->p);
}

/*
 * A whole blob loads when no allocation failed, and may when one did that
 * has a fallback (kvmalloc() tries vmalloc()); a truncated one never does.
 */
static void aa_unpack_nth_undo(struct kunit *test, void *ctx, int err,
			       unsigned int nth, bool failed)
{
	struct aa_unpack_nth *w = ctx;

	/* The caller's blob, or the compressed copy that replaced it */
	KUNIT_EXPECT_NOT_NULL_MSG(test, w->p->udata.data, "allocation %u failed", nth);
	if (err)
		KUNIT_EXPECT_TRUE_MSG(test, list_empty(&w->p->ents), "allocation %u failed", nth);
	else
		KUNIT_EXPECT_TRUE_MSG(test, list_is_singular(&w->p->ents),
				      "allocation %u failed", nth);
	kunit_release_action(test, aa_kunit_policy_free, w->p);
}

/*
 * aa_unpack() with each of its allocations failed in turn
 * (current->fail_nth): an error and no profile, or for a whole blob the
 * profile when the failure had a fallback; every allocation freed once
 * the policy is (profiles go through RCU), and the debug leg's KASAN and
 * debug objects watch the error paths.
 */
static void aa_unpack_fail_nth_test(struct kunit *test)
{
	struct aa_unpack_nth w = { .t = test->param_value };
	const struct kunit_fail_nth walk = {
		.what = "aa_unpack()",
		.max = AA_MAX_NTH,
		.fails = w.t->cut > 0,
		.setup = aa_unpack_nth_setup,
		.call = aa_unpack_nth_call,
		.undo = aa_unpack_nth_undo,
	};

	kunit_fail_nth_walk(test, &walk, &w);
}
#endif /* CONFIG_KUNIT_FAULT_INJECTION */

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
	KUNIT_CASE(aa_unpack_good_test),
	KUNIT_CASE_PARAM(aa_unpack_bad_test, aa_unpack_bad_gen_params),
#ifdef CONFIG_KUNIT_FAULT_INJECTION
	KUNIT_CASE_PARAM(aa_unpack_fail_nth_test, aa_unpack_nth_gen_params),
#endif
	{}
};

static struct kunit_suite aa_net_perm_suite = {
	.name = "apparmor_net_perm",
	.test_cases = aa_net_perm_cases_list,
};

kunit_test_suites(&aa_net_names_suite, &aa_net_perm_suite);
