// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for what aa_unpack() (policy_unpack.c) makes of a load
 * besides each profile's rules: the version header of each profile of a
 * blob (verify_header()) and the records it audits, the namespace it
 * hands back, and what the module parameters a user sets do to a load:
 * the policy hashes (apparmor.hash_policy) and the copy of the blob that
 * apparmorfs serves (apparmor.export_binary,
 * apparmor.rawdata_compression_level).
 *
 * Included at the end of net_kunit.c, after net_ops_kunit.c, whose
 * policy and audit helpers it uses.
 */

#include <crypto/hash.h>
#include <crypto/sha1.h>
#include <crypto/sha2.h>
#include <linux/vmalloc.h>
#include <linux/zlib.h>
#include <linux/zstd.h>

#include "include/crypto.h"

/* The module parameters a load reads (lsm.c). */
struct aa_kunit_load_params {
	bool hash;		/* apparmor.hash_policy */
	bool export;		/* apparmor.export_binary */
	int level;		/* apparmor.rawdata_compression_level */
};

static void aa_kunit_load_params_set(const struct aa_kunit_load_params *p)
{
	aa_g_hash_policy = p->hash;
	aa_g_export_binary = p->export;
	aa_g_rawdata_compression_level = p->level;
}

static void aa_kunit_load_params_restore(void *saved)
{
	aa_kunit_load_params_set(saved);
}

/* The parameters @p until the case ends; the level as booted if @keep_level. */
static void aa_kunit_load_params(struct kunit *test, const struct aa_kunit_load_params *p,
				 bool keep_level)
{
	struct aa_kunit_load_params *saved = kunit_kzalloc(test, sizeof(*saved), GFP_KERNEL);
	struct aa_kunit_load_params set = *p;

	KUNIT_ASSERT_NOT_NULL(test, saved);
	saved->hash = aa_g_hash_policy;
	saved->export = aa_g_export_binary;
	saved->level = aa_g_rawdata_compression_level;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, aa_kunit_load_params_restore, saved),
			0);
	if (keep_level)
		set.level = saved->level;
	aa_kunit_load_params_set(&set);
}

/*
 * @len bytes at @src decompress to the @size bytes of @want, as
 * apparmorfs.c reads them back: zstd on 6.12 (v6.2, with
 * AA_DEFAULT_CLEVEL, decompress_zstd()), zlib's inflate on 6.1
 * (deflate_decompress()), every byte of @len taken.
 */
static void aa_kunit_expect_unpacks_to(struct kunit *test, const void *src, size_t len,
				       const u8 *want, size_t size)
{
#ifdef AA_DEFAULT_CLEVEL
	size_t wksp_len = zstd_dctx_workspace_bound();
	void *wksp = kvzalloc(wksp_len, GFP_KERNEL);
	u8 *out = vzalloc(size);
	size_t got = 0;
	zstd_dctx *ctx;

	if (out && wksp) {
		ctx = zstd_init_dctx(wksp, wksp_len);
		got = ctx ? zstd_decompress_dctx(ctx, out, size, src, len) : 0;
	}
	kvfree(wksp);
	if (!out)
		KUNIT_FAIL(test, "no room to decompress into");
	else if (zstd_is_error(got))
		KUNIT_FAIL(test, "zstd: %s", zstd_get_error_name(got));
	else if (got != size || memcmp(out, want, size))
		KUNIT_FAIL(test, "%zu bytes decompress to %zu, not the %zu loaded", len, got, size);
	vfree(out);
#else
	struct z_stream_s strm = { .next_in = src, .avail_in = len };
	u8 *out = vzalloc(size);
	int err = Z_MEM_ERROR;

	strm.workspace = kvzalloc(zlib_inflate_workspacesize(), GFP_KERNEL);
	if (out && strm.workspace && zlib_inflateInit(&strm) == Z_OK) {
		strm.next_out = out;
		strm.avail_out = size;
		err = zlib_inflate(&strm, Z_FINISH);
		zlib_inflateEnd(&strm);
	}
	kvfree(strm.workspace);
	if (!out)
		KUNIT_FAIL(test, "no room to decompress into");
	else if (err != Z_STREAM_END)
		KUNIT_FAIL(test, "%zu bytes do not inflate to %zu: zlib %d", len, size, err);
	else if (strm.total_in != len || strm.total_out != size || memcmp(out, want, size))
		KUNIT_FAIL(test, "%lu of %zu bytes inflate to %lu, not the %zu loaded",
			   strm.total_in, len, strm.total_out, size);
	vfree(out);
#endif
}

/*
 * The policy hash of @len bytes at @data, through the crypto API as
 * apparmor_tfm is: SHA-256 on 6.12, SHA-1 on 6.1 (crypto.c), told apart
 * by aa_hash_size().
 */
static void aa_kunit_hash(struct kunit *test, const u8 *data, size_t len, u8 *out)
{
	const char *alg = aa_hash_size() == SHA1_DIGEST_SIZE ? "sha1" : "sha256";
	struct crypto_shash *tfm = crypto_alloc_shash(alg, 0, 0);
	int err;

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(tfm), "%s: %ld", alg, PTR_ERR(tfm));
	KUNIT_ASSERT_EQ(test, crypto_shash_digestsize(tfm), aa_hash_size());
	err = crypto_shash_tfm_digest(tfm, data, len, out);
	crypto_free_shash(tfm);
	KUNIT_ASSERT_EQ(test, err, 0);
}

static void aa_kunit_vfree(void *p)
{
	vfree(p);
}

/* @size zeroed bytes until the case ends, past KMALLOC_MAX_SIZE too. */
static u8 *aa_kunit_vzalloc(struct kunit *test, size_t size)
{
	u8 *p = vzalloc(size);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, aa_kunit_vfree, p), 0);
	return p;
}

/* @copies of net_inet_stream, the first with its header, the rest without. */
static u8 *aa_kunit_many(struct kunit *test, unsigned int copies, size_t *size)
{
	const size_t body = sizeof(net_inet_stream_blob) - AA_KUNIT_HEADER;
	unsigned int i;
	u8 *blob;

	*size = AA_KUNIT_HEADER + copies * body;
	blob = aa_kunit_vzalloc(test, *size);
	memcpy(blob, net_inet_stream_blob, AA_KUNIT_HEADER);
	for (i = 0; i < copies; i++)
		memcpy(blob + AA_KUNIT_HEADER + i * body, net_inet_stream_blob + AA_KUNIT_HEADER,
		       body);
	return blob;
}

struct aa_load_params_case {
	const char *desc;
	struct aa_kunit_load_params params;
	bool booted_level;	/* the level as booted, not .level */
	unsigned int copies;	/* of net_inet_stream's profile in the blob */
};

/*
 * One load under each value a user can give the load parameters. The
 * profile's hash is that of its ABI version (le32) and of its bytes
 * after the header, the load's of the whole blob, each only with
 * hash_policy; export_binary keeps a copy of the blob, compressed at
 * any level but 0 (negative levels are zstd's fast ones). 4000 profiles
 * (4.3 MB) take compress_zstd()'s staging buffer past KMALLOC_MAX_SIZE
 * (4 MB on x86_64 and arm64), into vmalloc.
 */
static const struct aa_load_params_case aa_load_params_cases[] = {
	{ "as booted: hashed, compressed", { true, true }, true, 1 },
	{ "hash_policy=0: no hash", { false, true }, true, 1 },
	{ "export_binary=0: no copy", { true, false }, true, 1 },
	{ "rawdata_compression_level=0: kept as it is", { true, true, 0 }, false, 1 },
	{ "rawdata_compression_level=1", { true, true, 1 }, false, 1 },
	{ "rawdata_compression_level=9", { true, true, 9 }, false, 1 },
	{ "rawdata_compression_level=-1", { true, true, -1 }, false, 1 },
	{ "all off", { false, false, 0 }, false, 1 },
	{ "two profiles: each hashed", { true, true }, true, 2 },
	{ "4000 profiles: a staging buffer past kmalloc", { true, true }, true, 4000 },
};

KUNIT_ARRAY_PARAM_DESC(aa_load_params, aa_load_params_cases, desc);

static void aa_load_params_test(struct kunit *test)
{
	const struct aa_load_params_case *t = test->param_value;
	const size_t body = sizeof(net_inet_stream_blob) - AA_KUNIT_HEADER;
	u8 digest[SHA256_DIGEST_SIZE], *blob, *hashed;
	struct aa_kunit_policy *p;
	struct aa_load_ent *ent;
	unsigned int n = 0;
	size_t size;

	aa_kunit_load_params(test, &t->params, t->booted_level);
	blob = aa_kunit_many(test, t->copies, &size);
	p = aa_kunit_policy(test, blob, size);
	KUNIT_ASSERT_EQ(test, aa_kunit_unpack(p), 0);
	KUNIT_EXPECT_EQ(test, list_count_nodes(&p->ents), t->copies);

	hashed = kunit_kzalloc(test, 4 + body, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hashed);
	memcpy(hashed, net_inet_stream_blob + AA_KUNIT_VERSION, 4);
	memcpy(hashed + 4, net_inet_stream_blob + AA_KUNIT_HEADER, body);
	aa_kunit_hash(test, hashed, 4 + body, digest);
	list_for_each_entry(ent, &p->ents, list) {
		if (!t->params.hash) {
			KUNIT_EXPECT_NULL(test, ent->new->hash);
		} else if (n++ < 2) {
			KUNIT_ASSERT_NOT_NULL(test, ent->new->hash);
			KUNIT_EXPECT_MEMEQ(test, ent->new->hash, digest, aa_hash_size());
		}
	}
	if (t->params.hash) {
		aa_kunit_hash(test, blob, size, digest);
		KUNIT_ASSERT_NOT_NULL(test, p->udata.hash);
		KUNIT_EXPECT_MEMEQ(test, p->udata.hash, digest, aa_hash_size());
	} else {
		KUNIT_EXPECT_NULL(test, p->udata.hash);
	}

	KUNIT_EXPECT_EQ(test, p->udata.size, size);
	if (!t->params.export) {
		KUNIT_EXPECT_EQ(test, p->udata.compressed_size, 0);
		KUNIT_EXPECT_MEMEQ(test, p->udata.data, blob, size);
	} else if (!aa_g_rawdata_compression_level) {
		KUNIT_EXPECT_EQ(test, p->udata.compressed_size, size);
		KUNIT_EXPECT_MEMEQ(test, p->udata.data, blob, size);
	} else {
		KUNIT_EXPECT_GT(test, p->udata.compressed_size, 0);
		KUNIT_EXPECT_LT(test, p->udata.compressed_size, size);
		aa_kunit_expect_unpacks_to(test, p->udata.data, p->udata.compressed_size, blob,
					   size);
	}
}

/*
 * The level the load compresses at, as a row gives it: the extremes a
 * user can set (lsm.c clamps to them) are zstd's on 6.12, deflate's on
 * 6.1, where the lowest, 0, does not compress at all.
 */
#define AA_KUNIT_LEVEL_MIN	INT_MIN
#define AA_KUNIT_LEVEL_MAX	INT_MAX

static int aa_kunit_level(int level)
{
#ifdef AA_DEFAULT_CLEVEL
	const int min = AA_MIN_CLEVEL, max = AA_MAX_CLEVEL;
#else
	const int min = Z_BEST_SPEED, max = Z_BEST_COMPRESSION;
#endif

	if (level == AA_KUNIT_LEVEL_MIN)
		return min;
	if (level == AA_KUNIT_LEVEL_MAX)
		return max;
	return level;
}

#define AA_KUNIT_DATA_KEY	"blob"

/*
 * net_bare (no rule, no DFA) carrying one "data" entry of @n
 * pseudo-random bytes, which no compressor shrinks, or of @n zeros when
 * not @noise, which every compressor does. unpack_profile()
 * reads the entry from the end of the profile: NAME "data", STRUCT,
 * STRING key, BLOB (le32 size, bytes), STRUCTEND; the profile's own
 * STRUCTEND closes the blob.
 */
static u8 *aa_kunit_bare_data(struct kunit *test, size_t n, bool noise, size_t *size)
{
	static const char name[] = "data", key[] = AA_KUNIT_DATA_KEY;
	const size_t head = sizeof(net_bare_blob) - 1;
	struct rnd_state rnd;
	u8 *blob, *at;

	*size = sizeof(net_bare_blob) + 3 + sizeof(name) + 1 + 3 + sizeof(key) + 5 + n + 1;
	blob = aa_kunit_vzalloc(test, *size);
	KUNIT_ASSERT_EQ(test, net_bare_blob[head], AA_STRUCTEND);
	memcpy(blob, net_bare_blob, head);
	at = blob + head;
	at = aa_kunit_put_str(at, AA_NAME, name);
	*at++ = AA_STRUCT;
	at = aa_kunit_put_str(at, AA_STRING, key);
	*at++ = AA_BLOB;
	put_unaligned_le32(n, at);
	at += 4;
	if (noise) {
		prandom_seed_state(&rnd, 1);
		prandom_bytes_state(&rnd, at, n);
	}
	at += n;
	*at++ = AA_STRUCTEND;
	*at++ = AA_STRUCTEND;
	KUNIT_ASSERT_PTR_EQ(test, at, blob + *size);
	return blob;
}

/*
 * The size @size bytes at @src compress to at @level, with the calls the
 * load compresses with: zstd_get_params() of the size on 6.12
 * (compress_zstd()), zlib_deflateInit() on 6.1 (deflate_compress()).
 */
static size_t aa_kunit_compressed_len(struct kunit *test, int level, const u8 *src,
				      size_t size)
{
#ifdef AA_DEFAULT_CLEVEL
	const zstd_parameters params = zstd_get_params(level, size);
	size_t wksp_len = zstd_cctx_workspace_bound(&params.cParams);
	size_t out_len = zstd_compress_bound(size), got = 0;
	void *wksp = kvzalloc(wksp_len, GFP_KERNEL);
	void *out = kvzalloc(out_len, GFP_KERNEL);
	zstd_cctx *ctx;

	if (wksp && out) {
		ctx = zstd_init_cctx(wksp, wksp_len);
		got = ctx ? zstd_compress_cctx(ctx, out, out_len, src, size, &params) : 0;
	}
	kvfree(out);
	kvfree(wksp);
	KUNIT_ASSERT_FALSE_MSG(test, !got || zstd_is_error(got), "zstd at level %d failed", level);
	return got;
#else
	struct z_stream_s strm = { .next_in = src, .avail_in = size };
	size_t out_len = deflateBound(size);
	void *out = kvzalloc(out_len, GFP_KERNEL);
	int err = Z_MEM_ERROR;

	strm.workspace = kvzalloc(zlib_deflate_workspacesize(MAX_WBITS, MAX_MEM_LEVEL),
				  GFP_KERNEL);
	if (out && strm.workspace && zlib_deflateInit(&strm, level) == Z_OK) {
		strm.next_out = out;
		strm.avail_out = out_len;
		err = zlib_deflate(&strm, Z_FINISH);
		zlib_deflateEnd(&strm);
	}
	kvfree(strm.workspace);
	kvfree(out);
	KUNIT_ASSERT_EQ_MSG(test, err, Z_STREAM_END, "deflate at level %d failed", level);
	return strm.total_out;
#endif
}

struct aa_load_incompressible_case {
	const char *desc;
	int level;		/* apparmor.rawdata_compression_level */
	size_t n;		/* bytes of data in net_bare, or the most searched */
	int delta;		/* compressed size - size sought, or 1: no search */
};

/*
 * A policy the compressor cannot shrink loads, and its copy is kept as
 * it came (compressed size == size, which apparmorfs's decompress reads
 * as "copy it"), at every level; one it shrinks keeps the compressed
 * form. The boundary rows search the length of net_bare's data for a
 * blob that deflate (6.1) compresses to exactly its own size, and to one
 * byte less: each random byte costs it a little more than a byte, the
 * profile's zeroed fields save a few dozen. zstd (6.12) never lands
 * there: it stores a block as it is (9 bytes more) unless compressing
 * saves size / 64 + 2 bytes, and then the profile's fields alone save
 * some 27.
 */
static const struct aa_load_incompressible_case aa_load_incompressible_cases[] = {
	{ "32 KiB of noise, the lowest level", AA_KUNIT_LEVEL_MIN, SZ_32K, 1 },
	{ "32 KiB of noise, level 1", 1, SZ_32K, 1 },
	{ "32 KiB of noise, level 3", 3, SZ_32K, 1 },
	{ "32 KiB of noise, level 9", 9, SZ_32K, 1 },
	{ "32 KiB of noise, the highest level", AA_KUNIT_LEVEL_MAX, SZ_32K, 1 },
	{ "compressed to its own size: kept as it came", 9, SZ_2K, 0 },
	{ "compressed to one byte less: kept compressed", 9, SZ_2K, -1 },
	{ "compressed to its own size, level 1", 1, SZ_2K, 0 },
};

KUNIT_ARRAY_PARAM_DESC(aa_load_incompressible, aa_load_incompressible_cases, desc);

static void aa_load_incompressible_test(struct kunit *test)
{
	const struct aa_load_incompressible_case *t = test->param_value;
	const struct aa_kunit_load_params params = { true, true, aa_kunit_level(t->level) };
	const char *key = AA_KUNIT_DATA_KEY;
	size_t size, n = t->n, want = 0;
	struct aa_kunit_policy *p;
	struct aa_load_ent *ent;
	struct aa_data *data;
	char *given;
	u8 *blob;

	aa_kunit_load_params(test, &params, false);
	if (t->delta > 0) {
		blob = aa_kunit_bare_data(test, n, true, &size);
	} else {
#ifdef AA_DEFAULT_CLEVEL
		kunit_skip(test, "zstd compresses no profile to its own size (see above)");
#endif
		for (n = 0; n <= t->n; n++) {
			blob = aa_kunit_bare_data(test, n, true, &size);
			want = size + t->delta;
			if (aa_kunit_compressed_len(test, params.level, blob, size) == want)
				break;
			kunit_release_action(test, aa_kunit_vfree, blob);
		}
		KUNIT_ASSERT_LE_MSG(test, n, t->n, "no blob compresses to its size %+d", t->delta);
	}

	p = aa_kunit_policy(test, blob, size);
	given = p->udata.data;
	KUNIT_ASSERT_EQ(test, aa_kunit_unpack(p), 0);
	KUNIT_ASSERT_EQ(test, list_count_nodes(&p->ents), 1);
	ent = list_first_entry(&p->ents, struct aa_load_ent, list);
	KUNIT_EXPECT_STREQ(test, ent->new->base.hname, "net_bare");
	KUNIT_ASSERT_NOT_NULL(test, ent->new->data);
	data = rhashtable_lookup_fast(ent->new->data, &key, ent->new->data->p);
	KUNIT_ASSERT_NOT_NULL(test, data);
	KUNIT_ASSERT_EQ(test, data->size, n);
	KUNIT_EXPECT_MEMEQ(test, data->data, blob + size - 2 - n, n);

	KUNIT_EXPECT_EQ(test, p->udata.size, size);
	if (want && want < size) {
		KUNIT_EXPECT_EQ(test, p->udata.compressed_size, want);
		aa_kunit_expect_unpacks_to(test, p->udata.data, p->udata.compressed_size, blob,
					   size);
		return;
	}
	KUNIT_EXPECT_EQ_MSG(test, p->udata.compressed_size, size, "not kept as it came");
	KUNIT_EXPECT_PTR_EQ(test, p->udata.data, given);
	KUNIT_EXPECT_MEMEQ(test, p->udata.data, blob, size);
}

/* The parts a blob of the headers table is made of. */
enum aa_kunit_part {
	AA_PART_NONE,
	AA_PART_WHOLE,		/* the profile with its header */
	AA_PART_BODY,		/* without it */
	AA_PART_CUT,		/* with it, cut short in its rules */
	AA_PART_NS_EMPTY,	/* net_ns_a, its header naming the namespace "" */
	AA_PART_V4,		/* with its header, of version 4 */
};

struct aa_load_header_case {
	const char *desc;
	enum aa_kunit_part first, second;	/* net_inet_stream, net_deny_inet6 */
	int error;
	unsigned int profiles;
	const char *info;	/* the one STATUS record's info=, or NULL: none */
};

/*
 * The first profile of a blob must have a version header; a later one
 * may leave it out, and then takes the version before it. Every refusal
 * frees the profiles unpacked before it and is audited with why.
 */
static const struct aa_load_header_case aa_load_header_cases[] = {
	{ "one profile with its header", AA_PART_WHOLE, AA_PART_NONE, 0, 1, NULL },
	{ "one profile without a header: invalid profile format", AA_PART_BODY, AA_PART_NONE,
	  -EPROTONOSUPPORT, 0, "invalid profile format" },
	{ "two, each with a header", AA_PART_WHOLE, AA_PART_WHOLE, 0, 2, NULL },
	{ "a second without a header: the first's version", AA_PART_WHOLE, AA_PART_BODY, 0, 2,
	  NULL },
	{ "a first without a header, then one with: refused", AA_PART_BODY, AA_PART_WHOLE,
	  -EPROTONOSUPPORT, 0, "invalid profile format" },
	{ "a second cut short: the first freed too", AA_PART_WHOLE, AA_PART_CUT, -EPROTO, 0,
	  NULL },
	{ "a namespace named \"\": invalid namespace name", AA_PART_NS_EMPTY, AA_PART_NONE,
	  -EPROTONOSUPPORT, 0, "invalid namespace name" },
	{ "a second naming \"\": refused", AA_PART_WHOLE, AA_PART_NS_EMPTY, -EPROTONOSUPPORT, 0,
	  "invalid namespace name" },
	{ "version 4: unsupported interface version", AA_PART_V4, AA_PART_NONE,
	  -EPROTONOSUPPORT, 0, "unsupported interface version" },
	{ "a second of version 4: refused", AA_PART_WHOLE, AA_PART_V4, -EPROTONOSUPPORT, 0,
	  "unsupported interface version" },
};

KUNIT_ARRAY_PARAM_DESC(aa_load_header, aa_load_header_cases, desc);

/* Appends @part of @blob to @to; returns the bytes appended. */
static size_t aa_kunit_part(struct kunit *test, u8 *to, enum aa_kunit_part part,
			    const u8 *blob, size_t size)
{
	/* net_ns_a's header: version, then "namespace" and its string "ns_a" */
	const size_t string = AA_KUNIT_HEADER + 13, rest = string + 8;

	switch (part) {
	case AA_PART_NONE:
		return 0;
	case AA_PART_WHOLE:
		memcpy(to, blob, size);
		return size;
	case AA_PART_V4:
		memcpy(to, blob, size);
		put_unaligned_le32(4, to + AA_KUNIT_VERSION);
		return size;
	case AA_PART_BODY:
		memcpy(to, blob + AA_KUNIT_HEADER, size - AA_KUNIT_HEADER);
		return size - AA_KUNIT_HEADER;
	case AA_PART_CUT:
		memcpy(to, blob, size / 2);
		return size / 2;
	case AA_PART_NS_EMPTY:
		KUNIT_ASSERT_EQ(test, net_ns_a_blob[string], AA_STRING);
		KUNIT_ASSERT_EQ(test, memcmp(net_ns_a_blob + string + 3, "ns_a", 5), 0);
		memcpy(to, net_ns_a_blob, string + 1);
		put_unaligned_le16(1, to + string + 1);
		to[string + 3] = '\0';
		memcpy(to + string + 4, net_ns_a_blob + rest, sizeof(net_ns_a_blob) - rest);
		return string + 4 + sizeof(net_ns_a_blob) - rest;
	}
	return 0;
}

static void aa_load_header_test(struct kunit *test)
{
	const struct aa_load_header_case *t = test->param_value;
	size_t size, room = sizeof(net_inet_stream_blob) + sizeof(net_deny_inet6_blob) +
			    sizeof(net_ns_a_blob);
	struct aa_kunit_audit *a = aa_kunit_audit_open(test);
	struct aa_kunit_policy *p;
	struct aa_load_ent *ent;
	u8 *blob;
	int err;

	blob = kunit_kzalloc(test, room, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, blob);
	size = aa_kunit_part(test, blob, t->first, net_inet_stream_blob,
			     sizeof(net_inet_stream_blob));
	size += aa_kunit_part(test, blob + size, t->second, net_deny_inet6_blob,
			      sizeof(net_deny_inet6_blob));
	p = aa_kunit_policy(test, blob, size);

	aa_kunit_audit_read(test, a);
	err = aa_kunit_unpack(p);
	KUNIT_EXPECT_EQ(test, err, t->error);
	KUNIT_EXPECT_EQ(test, list_count_nodes(&p->ents), t->profiles);
	if (t->profiles) {
		ent = list_first_entry(&p->ents, struct aa_load_ent, list);
		KUNIT_EXPECT_STREQ(test, ent->new->base.name, "net_inet_stream");
		KUNIT_EXPECT_EQ(test, p->udata.abi, 7);
	}
	if (t->profiles == 2) {
		ent = list_last_entry(&p->ents, struct aa_load_ent, list);
		KUNIT_EXPECT_STREQ(test, ent->new->base.name, "net_deny_inet6");
	}
	if (t->info) {
		KUNIT_EXPECT_EQ(test, aa_kunit_audit_read(test, a), 1);
		aa_kunit_expect_field(test, a->rec, "apparmor", "\"STATUS\"");
		aa_kunit_expect_field(test, a->rec, "info", "\"%s\"", t->info);
		aa_kunit_expect_field(test, a->rec, "error", "%d", t->error);
	} else if (!t->error) {
		KUNIT_EXPECT_EQ(test, aa_kunit_audit_read(test, a), 0);
	}
}

/*
 * verify_profile() runs once a profile is unpacked: an exec transition
 * of a file rule that names an entry past its transition table refuses
 * the load. Since v6.2 the check reads the permission table that
 * aa_compat_map_file() (policy_compat.c) builds from the accept table.
 */
#if __has_include("include/policy_compat.h")
#define AA_KUNIT_XINDEX_INFO	"Unpack: Invalid perm index"
#else
#define AA_KUNIT_XINDEX_INFO	"Invalid named transition"
#endif

/*
 * net_exec's second DFA is its file DFA (the first is the policydb's),
 * with no transition table. An accept entry's bits 10-13 are the old
 * exec index: 15 is entry 11 of the table (dfa_map_xindex()).
 */
static void aa_load_verify_test(struct kunit *test)
{
	struct aa_kunit_audit *a = aa_kunit_audit_open(test);
	struct aa_kunit_policy *p = aa_kunit_policy(test, net_exec_blob, sizeof(net_exec_blob));
	struct aa_kunit_dfa policy, file;
	u8 *blob = p->udata.data, *accept;

	aa_kunit_dfa_find(test, blob, p->udata.size, &policy);
	aa_kunit_dfa_find(test, blob + policy.end, p->udata.size - policy.end, &file);
	KUNIT_ASSERT_EQ(test, get_unaligned_be16(file.tables[YYTD_ID_ACCEPT] + 2), YYTD_DATA32);
	accept = aa_dfa_entry(&file, YYTD_ID_ACCEPT, 1);
	KUNIT_ASSERT_NOT_NULL(test, accept);
	put_unaligned_be32(get_unaligned_be32(accept) | 0x3c00, accept);

	aa_kunit_audit_read(test, a);
	KUNIT_EXPECT_EQ(test, aa_kunit_unpack(p), -EPROTO);
	KUNIT_EXPECT_TRUE(test, list_empty(&p->ents));
	KUNIT_EXPECT_EQ(test, aa_kunit_audit_read(test, a), 1);
	aa_kunit_expect_field(test, a->rec, "apparmor", "\"STATUS\"");
	aa_kunit_expect_field(test, a->rec, "info", "\"%s\"", AA_KUNIT_XINDEX_INFO);
	aa_kunit_expect_field(test, a->rec, "name", "\"net_exec\"");
	aa_kunit_expect_field(test, a->rec, "error", "%d", -EPROTO);
}

/*
 * What aa_unpack() hands back in *ns is the namespace the headers name,
 * or NULL when none does, whatever the caller's pointer held; a later
 * header naming another is audited ("invalid ns change") and loads.
 */
static void aa_load_ns_test(struct kunit *test)
{
	struct aa_kunit_audit *a = aa_kunit_audit_open(test);
	size_t size = 0, room = 2 * sizeof(net_ns_a_blob);
	static const char stale[] = "stale";
	struct aa_kunit_policy *p;
	u8 *blob;

	p = aa_kunit_policy(test, net_inet_stream_blob, sizeof(net_inet_stream_blob));
	p->ns = stale;
	KUNIT_EXPECT_EQ(test, aa_kunit_unpack(p), 0);
	KUNIT_EXPECT_NULL(test, p->ns);
	if (p->ns == stale)
		p->ns = NULL;	/* not aa_unpack()'s: not to be freed */

	blob = kunit_kzalloc(test, room, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, blob);
	size += aa_kunit_ns_profile(test, blob, "ns_a");
	size += aa_kunit_ns_profile(test, blob + size, "ns_b");
	p = aa_kunit_policy(test, blob, size);
	aa_kunit_audit_read(test, a);
	KUNIT_EXPECT_EQ(test, aa_kunit_unpack(p), 0);
	KUNIT_EXPECT_EQ(test, aa_kunit_audit_read(test, a), 1);
	aa_kunit_expect_field(test, a->rec, "info", "\"invalid ns change\"");
	KUNIT_ASSERT_NOT_NULL(test, p->ns);
	KUNIT_EXPECT_STREQ(test, p->ns, "ns_a");

	/* a byte above 0x7f does not end a name (char is signed on 6.1's x86) */
	size = aa_kunit_ns_profile(test, blob, "\xc3\xa9_a");
	p = aa_kunit_policy(test, blob, size);
	KUNIT_EXPECT_EQ(test, aa_kunit_unpack(p), 0);
	KUNIT_ASSERT_NOT_NULL(test, p->ns);
	KUNIT_EXPECT_STREQ(test, p->ns, "\xc3\xa9_a");
}

/*
 * A profile named :ns:name is unpacked as name, for the namespace ns
 * (aa_splitn_fqname()), which its load entry carries; the profile after
 * it in the blob names none.
 */
static void aa_load_ns_name_test(struct kunit *test)
{
	size_t room = sizeof(net_inet_stream_blob) + sizeof(net_deny_inet6_blob), at;
	struct aa_kunit_policy *p;
	struct aa_load_ent *ent;
	u8 *blob;

	blob = kunit_kzalloc(test, room, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, blob);
	memcpy(blob, net_inet_stream_blob, sizeof(net_inet_stream_blob));
	memcpy(blob + sizeof(net_inet_stream_blob), net_deny_inet6_blob,
	       sizeof(net_deny_inet6_blob));
	at = aa_kunit_find(blob, sizeof(net_inet_stream_blob), "net_inet_stream", 15);
	KUNIT_ASSERT_LE(test, at + 15, sizeof(net_inet_stream_blob));
	memcpy(blob + at, ":ns:inet_stream", 15);
	p = aa_kunit_policy(test, blob, room);

	KUNIT_ASSERT_EQ(test, aa_kunit_unpack(p), 0);
	KUNIT_ASSERT_EQ(test, list_count_nodes(&p->ents), 2);
	ent = list_first_entry(&p->ents, struct aa_load_ent, list);
	KUNIT_EXPECT_STREQ(test, ent->new->base.name, "inet_stream");
	KUNIT_ASSERT_NOT_NULL(test, ent->ns_name);
	KUNIT_EXPECT_STREQ(test, ent->ns_name, "ns");
	ent = list_last_entry(&p->ents, struct aa_load_ent, list);
	KUNIT_EXPECT_STREQ(test, ent->new->base.name, "net_deny_inet6");
	KUNIT_EXPECT_NULL(test, ent->ns_name);
}

/*
 * aa_alloc_profile() (policy.c), which unpack_profile() calls for each
 * profile: the name in its policy base and in its label, a label of one
 * profile flagged as one, an empty first ruleset (6.12), and a proxy of
 * its own that points back at it, or a reference on the one it is given.
 */
static void aa_load_alloc_test(struct kunit *test)
{
	struct aa_profile *other, *own, *shared;
	struct aa_proxy *proxy;
	unsigned int refs;

	other = aa_kunit_profile(test, net_inet_stream_blob, sizeof(net_inet_stream_blob),
				 "net_inet_stream");
	proxy = other->label.proxy;
	refs = kref_read(&proxy->count.count);
	own = aa_alloc_profile("kunit//own", NULL, GFP_KERNEL);
	shared = aa_alloc_profile("shared", proxy, GFP_KERNEL);

	KUNIT_EXPECT_NOT_NULL(test, own);
	KUNIT_EXPECT_NOT_NULL(test, shared);
	if (own) {
		KUNIT_EXPECT_STREQ(test, own->base.hname, "kunit//own");
		KUNIT_EXPECT_STREQ(test, own->base.name, "own");
		KUNIT_EXPECT_PTR_EQ(test, own->label.hname, own->base.hname);
		KUNIT_EXPECT_TRUE(test, own->label.flags & FLAG_PROFILE);
		KUNIT_EXPECT_EQ(test, own->label.size, 1);
		KUNIT_EXPECT_PTR_EQ(test, own->label.vec[0], own);
#ifdef aa_state_t
		KUNIT_EXPECT_TRUE(test, list_is_singular(&own->rules));
#endif
		KUNIT_EXPECT_NOT_NULL(test, own->label.proxy);
		KUNIT_EXPECT_PTR_NE(test, own->label.proxy, proxy);
		if (own->label.proxy) {
			KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(own->label.proxy->label),
					    &own->label);
			KUNIT_EXPECT_EQ(test, kref_read(&own->label.proxy->count.count), 1);
		}
		aa_free_profile(own);
	}
	if (shared) {
		KUNIT_EXPECT_PTR_EQ(test, shared->label.proxy, proxy);
		KUNIT_EXPECT_EQ(test, kref_read(&proxy->count.count), refs + 1);
		aa_free_profile(shared);
	}
	KUNIT_EXPECT_EQ(test, kref_read(&proxy->count.count), refs);
}

#ifdef CONFIG_KUNIT_FAULT_INJECTION
#define AA_MAX_NTH	256

struct aa_load_nth_case {
	const char *desc;
	const u8 *blob;
	size_t size;
	struct aa_kunit_load_params params;
	const char *ns;		/* the namespace its header names */
	unsigned int copies;	/* of the blob, one after the other (0: one) */
	int first_err;		/* what a failed first allocation returns (0: any) */
	size_t cut;		/* bytes dropped from the end: the load fails anyway */
	size_t bare;		/* not @blob: net_bare with this much data, ... */
	bool noise;		/* ... of noise, else of zeros */
	bool from_nth;		/* every allocation from the nth on fails */
	unsigned int page_order;	/* pages from this order up fail too (0: none) */
};

/*
 * The allocations a load makes for what the parameters ask, and for a
 * namespace: its name is the load's first allocation (verify_header(),
 * -ENOMEM), and a second header naming it again allocates it no more.
 * A truncated blob fails wherever its allocations fail.
 */
static const struct aa_load_nth_case aa_load_nth_cases[] = {
	{ "no parameters", net_inet_stream_blob, sizeof(net_inet_stream_blob),
	  { false, false, 0 } },
	{ "blob truncated halfway", net_inet_stream_blob, sizeof(net_inet_stream_blob),
	  { false, false, 0 }, .cut = sizeof(net_inet_stream_blob) / 2 },
	{ "blob truncated by its last byte", net_inet_stream_blob, sizeof(net_inet_stream_blob),
	  { false, false, 0 }, .cut = 1 },
	{ "a namespace's name", net_ns_a_blob, sizeof(net_ns_a_blob), { false, false, 0 },
	  "ns_a", .first_err = -ENOMEM },
	{ "a namespace named twice", net_ns_a_blob, sizeof(net_ns_a_blob), { false, false, 0 },
	  "ns_a", .copies = 2, .first_err = -ENOMEM },
	{ "hash_policy=1", net_inet_stream_blob, sizeof(net_inet_stream_blob),
	  { true, false, 0 } },
	{ "export_binary=1, level 0", net_inet_stream_blob, sizeof(net_inet_stream_blob),
	  { false, true, 0 } },
	{ "export_binary=1, level 3", net_inet_stream_blob, sizeof(net_inet_stream_blob),
	  { false, true, 3 } },
	{ "all three", net_ns_a_blob, sizeof(net_ns_a_blob), { true, true, 9 }, "ns_a" },
	{ "export_binary=1, level 3, a blob that does not compress", NULL, 0, { false, true, 3 },
	  .bare = SZ_32K, .noise = true },
	{ "export_binary=1, level 3, compressed from past KMALLOC_MAX_SIZE", NULL, 0,
	  { false, true, 3 }, .bare = KMALLOC_MAX_SIZE },
	{ "export_binary=1, level 3, past KMALLOC_MAX_SIZE, memory runs out", NULL, 0,
	  { false, true, 3 }, .bare = KMALLOC_MAX_SIZE, .from_nth = true },
	{ "export_binary=1, level 3, memory runs out, large pages too", NULL, 0,
	  { false, true, 3 }, .bare = SZ_64K, .from_nth = true, .page_order = 4 },
	{ "no parameters, memory runs out", net_inet_stream_blob, sizeof(net_inet_stream_blob),
	  { false, false, 0 }, .from_nth = true },
};

KUNIT_ARRAY_PARAM_DESC(aa_load_nth, aa_load_nth_cases, desc);

struct aa_load_nth {
	const struct aa_load_nth_case *t;
	const u8 *blob;		/* the row's blob, in as many copies as it says */
	size_t size;		/* of the load: the copies, less the cut */
	unsigned int profiles;
	struct aa_kunit_policy *p;
};

static void aa_load_nth_setup(struct kunit *test, void *ctx)
{
	struct aa_load_nth *w = ctx;

	w->p = aa_kunit_policy(test, w->blob, w->size);
}

static int aa_load_nth_call(struct kunit *test, void *ctx)
{
	struct aa_load_nth *w = ctx;

	return aa_kunit_unpack(w->p);
}

/* The @size bytes at @got are @want's; else the first that is not (no dump of megabytes). */
static void aa_load_nth_expect_blob(struct kunit *test, const u8 *got, const u8 *want,
				    size_t size, unsigned int nth)
{
	size_t i = 0;

	if (!memcmp(got, want, size))
		return;
	while (got[i] == want[i])
		i++;
	KUNIT_FAIL(test, "allocation %u failed: byte %zu of %zu is %#x, not %#x",
		   nth, i, size, got[i], want[i]);
}

/*
 * A load refused for want of memory says so: -ENOMEM, or -EPROTO where
 * unpack_profile() folds it into "failed to unpack profile".
 * It hands back no profile, no error pointer for a hash, and
 * the caller's blob as it was (a failed compression keeps it, with its
 * own size as the compressed one on 6.12); the namespace's name, if it
 * got that far, is the caller's to free. A load that went through
 * despite a failed allocation (kvmalloc() falls back to vmalloc()) has
 * all of it.
 */
static void aa_load_nth_undo(struct kunit *test, void *ctx, int err, unsigned int nth,
			     bool failed)
{
	const struct aa_load_nth *w = ctx;
	const struct aa_load_nth_case *t = w->t;
	struct aa_kunit_policy *p = w->p;
	struct aa_load_ent *ent;

	if (err) {
		if (nth == 1 && failed && t->first_err)
			KUNIT_EXPECT_EQ_MSG(test, err, t->first_err, "allocation 1 failed");
		if (failed && !t->cut)
			KUNIT_EXPECT_TRUE_MSG(test, err == -ENOMEM || err == -EPROTO,
					      "allocation %u failed: %d", nth, err);
		KUNIT_EXPECT_TRUE_MSG(test, list_empty(&p->ents), "allocation %u failed", nth);
		KUNIT_EXPECT_FALSE_MSG(test, IS_ERR(p->udata.hash), "allocation %u failed", nth);
		KUNIT_EXPECT_NOT_NULL_MSG(test, p->udata.data, "allocation %u failed", nth);
		if (p->udata.data)
			aa_load_nth_expect_blob(test, p->udata.data, w->blob, w->size, nth);
		if (p->udata.compressed_size)
			KUNIT_EXPECT_EQ_MSG(test, p->udata.compressed_size, w->size,
					    "allocation %u failed", nth);
	} else {
		KUNIT_ASSERT_EQ_MSG(test, list_count_nodes(&p->ents), w->profiles,
				    "allocation %u failed", nth);
		list_for_each_entry(ent, &p->ents, list)
			KUNIT_EXPECT_EQ_MSG(test, !!ent->new->hash, t->params.hash,
					    "allocation %u failed", nth);
		KUNIT_EXPECT_EQ_MSG(test, !!p->udata.hash, t->params.hash,
				    "allocation %u failed", nth);
		if (t->noise)
			KUNIT_EXPECT_EQ_MSG(test, p->udata.compressed_size, w->size,
					    "allocation %u failed", nth);
		if (t->params.export && t->params.level && !t->noise)
			aa_kunit_expect_unpacks_to(test, p->udata.data, p->udata.compressed_size,
						   w->blob, w->size);
		else
			aa_load_nth_expect_blob(test, p->udata.data, w->blob, w->size, nth);
		if (t->ns) {
			KUNIT_ASSERT_NOT_NULL_MSG(test, p->ns, "allocation %u failed", nth);
			KUNIT_EXPECT_STREQ_MSG(test, p->ns, t->ns, "allocation %u failed", nth);
		}
	}
	if (!t->ns)
		KUNIT_EXPECT_NULL_MSG(test, p->ns, "allocation %u failed", nth);
	kunit_release_action(test, aa_kunit_policy_free, p);
}

/*
 * aa_unpack() with each of its allocations failed in turn, under the
 * load parameters of the row: the namespace's name (verify_header()),
 * the hashes, the compressor's buffers. Past KMALLOC_MAX_SIZE the
 * staging buffer comes from vmalloc() and the compressed data is copied
 * out of it; when memory runs out, kvmalloc()'s fallback to vmalloc()
 * fails too, and so, past KMALLOC_MAX_SIZE, does the buffer the data is
 * copied into (a krealloc() that shrinks a kmalloc'd one never fails).
 */
static void aa_load_fail_nth_test(struct kunit *test)
{
	const struct aa_load_nth_case *t = test->param_value;
	struct aa_load_nth w = { .t = t, .profiles = max(t->copies, 1U) };
	const struct kunit_fail_nth walk = {
		.what = "aa_unpack()",
		.max = AA_MAX_NTH,
		.fails = t->cut > 0,
		.from_nth = t->from_nth,
		.page_order = t->page_order,
		.setup = aa_load_nth_setup,
		.call = aa_load_nth_call,
		.undo = aa_load_nth_undo,
	};
	const u8 *one = t->blob;
	size_t size = t->size;
	unsigned int i;
	u8 *blob;

	if (t->bare)
		one = aa_kunit_bare_data(test, t->bare, t->noise, &size);
	blob = aa_kunit_vzalloc(test, size * w.profiles);
	for (i = 0; i < w.profiles; i++)
		memcpy(blob + i * size, one, size);
	w.blob = blob;
	w.size = size * w.profiles - t->cut;
	aa_kunit_load_params(test, &t->params, false);
	kunit_fail_nth_walk(test, &walk, &w);
}
#endif /* CONFIG_KUNIT_FAULT_INJECTION */

static struct kunit_case aa_net_load_cases[] = {
	KUNIT_CASE_PARAM(aa_load_params_test, aa_load_params_gen_params),
	KUNIT_CASE_PARAM(aa_load_incompressible_test, aa_load_incompressible_gen_params),
	KUNIT_CASE_PARAM(aa_load_header_test, aa_load_header_gen_params),
	KUNIT_CASE(aa_load_verify_test),
	KUNIT_CASE(aa_load_ns_test),
	KUNIT_CASE(aa_load_ns_name_test),
	KUNIT_CASE(aa_load_alloc_test),
#ifdef CONFIG_KUNIT_FAULT_INJECTION
	KUNIT_CASE_PARAM(aa_load_fail_nth_test, aa_load_nth_gen_params),
#endif
	{}
};

static struct kunit_suite aa_net_load_suite = {
	.name = "apparmor_net_load",
	.test_cases = aa_net_load_cases,
};

kunit_test_suites(&aa_net_load_suite);
