// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the CFB mode (NIST SP 800-38A, section 6.3), CFB128:
 * the template crypto/cfb.c and every driver of cfb(aes) and cfb(sm4).
 *
 * crypto_cfb runs the SP 800-38A Appendix F.3 CFB128-AES vectors on
 * every AES row, then checks every row against a CFB built here from
 * ecb(<cipher>-generic) over lengths that end inside a block, and
 * checks that each driver the kernel registered for cfb(aes) or
 * cfb(sm4) has a row. A row whose driver is not built, or whose CPU
 * lacks the instructions it needs, is skipped with the reason.
 *
 * The cfb template left the kernel in v6.8: there, every case is
 * skipped and says so.
 */

#include <crypto/aes.h>
#include <crypto/skcipher.h>
#include <crypto/sm4.h>
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "internal.h"
#include "kunit_cpu.h"
#include "kunit_skcipher.h"

#define CFB_BLOCK_SIZE	16

struct cfb_impl {
	const char *alg;	/* cfb(aes) or cfb(sm4) */
	const char *driver;
	const char *ecb;	/* the generic ECB the row is checked against */
	bool built;		/* its Kconfig symbols are set */
	const char *config;
	bool (*cpu_ok)(void);	/* NULL: runs on any CPU */
	const char *cpu_needs;
	bool other_arch;	/* a driver of another architecture: no row */
};

/*
 * A template instance over a cipher driver, which exists once something
 * asks for it, or a driver of its own; the template must be built too.
 */
#define CFB_GENERIC(a, drv, e, CONFIG_sym)					\
	{ .alg = a, .driver = drv, .ecb = e,					\
	  .built = IS_ENABLED(CONFIG_CRYPTO_CFB) && IS_ENABLED(CONFIG_sym),	\
	  .config = "CONFIG_CRYPTO_CFB and " #CONFIG_sym }
#define CFB_ARCH(a, drv, e, CONFIG_arch, CONFIG_sym, cpu, needs)		\
	{ .alg = a, .driver = drv, .ecb = e,					\
	  .built = IS_ENABLED(CONFIG_CRYPTO_CFB) && IS_ENABLED(CONFIG_sym),	\
	  .config = "CONFIG_CRYPTO_CFB and " #CONFIG_sym,			\
	  .cpu_ok = cpu, .cpu_needs = needs, .other_arch = !IS_ENABLED(CONFIG_arch) }

#define ECB_AES "ecb(aes-generic)"
#define ECB_SM4 "ecb(sm4-generic)"

static const struct cfb_impl cfb_impls[] = {
	CFB_GENERIC("cfb(aes)", "cfb(aes-generic)", ECB_AES, CONFIG_CRYPTO_AES),
	CFB_ARCH("cfb(aes)", "cfb(aes-aesni)", ECB_AES, CONFIG_X86_64, CONFIG_CRYPTO_AES_NI_INTEL,
		 kunit_cpu_x86_aes, KUNIT_CPU_X86_AES),
	CFB_ARCH("cfb(aes)", "cfb(aes-arm64)", ECB_AES, CONFIG_ARM64, CONFIG_CRYPTO_AES_ARM64,
		 NULL, NULL),
	CFB_ARCH("cfb(aes)", "cfb(aes-ce)", ECB_AES, CONFIG_ARM64, CONFIG_CRYPTO_AES_ARM64_CE,
		 kunit_cpu_arm64_aes, KUNIT_CPU_ARM64_AES),

	CFB_GENERIC("cfb(sm4)", "cfb(sm4-generic)", ECB_SM4, CONFIG_CRYPTO_SM4_GENERIC),
	CFB_ARCH("cfb(sm4)", "cfb-sm4-aesni-avx", ECB_SM4, CONFIG_X86_64,
		 CONFIG_CRYPTO_SM4_AESNI_AVX_X86_64, kunit_cpu_x86_avx, KUNIT_CPU_X86_AVX),
	CFB_ARCH("cfb(sm4)", "cfb-sm4-aesni-avx2", ECB_SM4, CONFIG_X86_64,
		 CONFIG_CRYPTO_SM4_AESNI_AVX2_X86_64, kunit_cpu_x86_avx2, KUNIT_CPU_X86_AVX2),
	CFB_ARCH("cfb(sm4)", "cfb(sm4-ce)", ECB_SM4, CONFIG_ARM64, CONFIG_CRYPTO_SM4_ARM64_CE,
		 kunit_cpu_arm64_sm4, KUNIT_CPU_ARM64_SM4),
	CFB_ARCH("cfb(sm4)", "cfb-sm4-ce", ECB_SM4, CONFIG_ARM64, CONFIG_CRYPTO_SM4_ARM64_CE_BLK,
		 kunit_cpu_arm64_sm4, KUNIT_CPU_ARM64_SM4),
	CFB_ARCH("cfb(sm4)", "cfb-sm4-neon", ECB_SM4, CONFIG_ARM64,
		 CONFIG_CRYPTO_SM4_ARM64_NEON_BLK, kunit_cpu_arm64_neon, KUNIT_CPU_ARM64_NEON),
};

static const void *cfb_next_impl(const void *prev, char *desc, const char *alg)
{
	const struct cfb_impl *impl = prev ? (const struct cfb_impl *)prev + 1 : cfb_impls;

	for (; impl < cfb_impls + ARRAY_SIZE(cfb_impls); impl++) {
		if (!impl->other_arch && (!alg || !strcmp(impl->alg, alg))) {
			strscpy(desc, impl->driver, KUNIT_PARAM_DESC_SIZE);
			return impl;
		}
	}
	return NULL;
}

static const void *cfb_any_gen_params(const void *prev, char *desc)
{
	return cfb_next_impl(prev, desc, NULL);
}

static const void *cfb_aes_gen_params(const void *prev, char *desc)
{
	return cfb_next_impl(prev, desc, "cfb(aes)");
}

/* Every case: a kernel without the template says why it has none. */
static void cfb_need_template(struct kunit *test)
{
	if (!IS_ENABLED(CONFIG_CRYPTO_CFB))
		kunit_skip(test, "no cfb template (removed in v6.8, or CRYPTO_CFB unset)");
}

static void cfb_free_tfm(void *tfm)
{
	crypto_free_skcipher(tfm);
}

static struct crypto_skcipher *cfb_alloc(struct kunit *test, const char *driver)
{
	struct crypto_skcipher *tfm = crypto_alloc_skcipher(driver, 0, 0);

	KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, tfm, "%s is not usable", driver);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, cfb_free_tfm, tfm), 0);
	return tfm;
}

/* The row's transform, or a skip that says why there is none. */
static struct crypto_skcipher *cfb_alloc_impl(struct kunit *test,
					      const struct cfb_impl *impl)
{
	cfb_need_template(test);
	if (!impl->built)
		kunit_skip(test, "not built (%s is not set)", impl->config);
	if (impl->cpu_ok && !impl->cpu_ok())
		kunit_skip(test, "built, but this CPU lacks %s", impl->cpu_needs);
	return cfb_alloc(test, impl->driver);
}

/* ------------------------------------------------ SP 800-38A vectors */

struct cfb_vec {
	const char *desc;
	bool enc;
	const u8 *key;
	unsigned int klen;
};

/* NIST SP 800-38A, Appendix F.3.13 - F.3.18: the keys of F.1 (ECB). */
static const u8 cfb_key128[] = {
	0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
	0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c,
};

static const u8 cfb_key192[] = {
	0x8e, 0x73, 0xb0, 0xf7, 0xda, 0x0e, 0x64, 0x52,
	0xc8, 0x10, 0xf3, 0x2b, 0x80, 0x90, 0x79, 0xe5,
	0x62, 0xf8, 0xea, 0xd2, 0x52, 0x2c, 0x6b, 0x7b,
};

static const u8 cfb_key256[] = {
	0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe,
	0x2b, 0x73, 0xae, 0xf0, 0x85, 0x7d, 0x77, 0x81,
	0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61, 0x08, 0xd7,
	0x2d, 0x98, 0x10, 0xa3, 0x09, 0x14, 0xdf, 0xf4,
};

/* SP 800-38A, F.3.13 - F.3.18: the IV and the plaintext of all six. */
static const u8 cfb_iv[CFB_BLOCK_SIZE] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
};

static const u8 cfb_ptext[64] = {
	0x6b, 0xc1, 0xbe, 0xe2, 0x2e, 0x40, 0x9f, 0x96,
	0xe9, 0x3d, 0x7e, 0x11, 0x73, 0x93, 0x17, 0x2a,
	0xae, 0x2d, 0x8a, 0x57, 0x1e, 0x03, 0xac, 0x9c,
	0x9e, 0xb7, 0x6f, 0xac, 0x45, 0xaf, 0x8e, 0x51,
	0x30, 0xc8, 0x1c, 0x46, 0xa3, 0x5c, 0xe4, 0x11,
	0xe5, 0xfb, 0xc1, 0x19, 0x1a, 0x0a, 0x52, 0xef,
	0xf6, 0x9f, 0x24, 0x45, 0xdf, 0x4f, 0x9b, 0x17,
	0xad, 0x2b, 0x41, 0x7b, 0xe6, 0x6c, 0x37, 0x10,
};

/* SP 800-38A, F.3.13 CFB128-AES128 (and F.3.14, its decryption). */
static const u8 cfb_ctext128[64] = {
	0x3b, 0x3f, 0xd9, 0x2e, 0xb7, 0x2d, 0xad, 0x20,
	0x33, 0x34, 0x49, 0xf8, 0xe8, 0x3c, 0xfb, 0x4a,
	0xc8, 0xa6, 0x45, 0x37, 0xa0, 0xb3, 0xa9, 0x3f,
	0xcd, 0xe3, 0xcd, 0xad, 0x9f, 0x1c, 0xe5, 0x8b,
	0x26, 0x75, 0x1f, 0x67, 0xa3, 0xcb, 0xb1, 0x40,
	0xb1, 0x80, 0x8c, 0xf1, 0x87, 0xa4, 0xf4, 0xdf,
	0xc0, 0x4b, 0x05, 0x35, 0x7c, 0x5d, 0x1c, 0x0e,
	0xea, 0xc4, 0xc6, 0x6f, 0x9f, 0xf7, 0xf2, 0xe6,
};

/* SP 800-38A, F.3.15 CFB128-AES192 (and F.3.16). */
static const u8 cfb_ctext192[64] = {
	0xcd, 0xc8, 0x0d, 0x6f, 0xdd, 0xf1, 0x8c, 0xab,
	0x34, 0xc2, 0x59, 0x09, 0xc9, 0x9a, 0x41, 0x74,
	0x67, 0xce, 0x7f, 0x7f, 0x81, 0x17, 0x36, 0x21,
	0x96, 0x1a, 0x2b, 0x70, 0x17, 0x1d, 0x3d, 0x7a,
	0x2e, 0x1e, 0x8a, 0x1d, 0xd5, 0x9b, 0x88, 0xb1,
	0xc8, 0xe6, 0x0f, 0xed, 0x1e, 0xfa, 0xc4, 0xc9,
	0xc0, 0x5f, 0x9f, 0x9c, 0xa9, 0x83, 0x4f, 0xa0,
	0x42, 0xae, 0x8f, 0xba, 0x58, 0x4b, 0x09, 0xff,
};

/* SP 800-38A, F.3.17 CFB128-AES256 (and F.3.18). */
static const u8 cfb_ctext256[64] = {
	0xdc, 0x7e, 0x84, 0xbf, 0xda, 0x79, 0x16, 0x4b,
	0x7e, 0xcd, 0x84, 0x86, 0x98, 0x5d, 0x38, 0x60,
	0x39, 0xff, 0xed, 0x14, 0x3b, 0x28, 0xb1, 0xc8,
	0x32, 0x11, 0x3c, 0x63, 0x31, 0xe5, 0x40, 0x7b,
	0xdf, 0x10, 0x13, 0x24, 0x15, 0xe5, 0x4b, 0x92,
	0xa1, 0x3e, 0xd0, 0xa8, 0x26, 0x7a, 0xe2, 0xf9,
	0x75, 0xa3, 0x85, 0x74, 0x1a, 0xb9, 0xce, 0xf8,
	0x20, 0x31, 0x62, 0x3d, 0x55, 0xb1, 0xe4, 0x71,
};

struct cfb_nist_case {
	const char *desc;
	const u8 *key;
	unsigned int klen;
	const u8 *ctext;
};

static const struct cfb_nist_case cfb_nist_cases[] = {
	{ "F.3.13/F.3.14 CFB128-AES128", cfb_key128, sizeof(cfb_key128), cfb_ctext128 },
	{ "F.3.15/F.3.16 CFB128-AES192", cfb_key192, sizeof(cfb_key192), cfb_ctext192 },
	{ "F.3.17/F.3.18 CFB128-AES256", cfb_key256, sizeof(cfb_key256), cfb_ctext256 },
};

/* A vector run through the row: each way, in place and not, then the IV out. */
static void cfb_nist_one(struct kunit *test, const struct cfb_impl *impl,
			 const struct cfb_nist_case *v)
{
	struct crypto_skcipher *tfm = cfb_alloc_impl(test, impl);
	u8 *buf = kunit_kzalloc(test, 2 * sizeof(cfb_ptext), GFP_KERNEL);
	u8 iv[CFB_BLOCK_SIZE];
	int enc;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, crypto_skcipher_setkey(tfm, v->key, v->klen), 0);
	for (enc = 1; enc >= 0; enc--) {
		const u8 *in = enc ? cfb_ptext : v->ctext;
		const u8 *want = enc ? v->ctext : cfb_ptext;
		int inplace;

		for (inplace = 0; inplace <= 1; inplace++) {
			u8 *out = buf + (inplace ? 0 : sizeof(cfb_ptext));

			memcpy(buf, in, sizeof(cfb_ptext));
			memcpy(iv, cfb_iv, sizeof(iv));
			KUNIT_ASSERT_EQ(test, kunit_skcipher_crypt(tfm, enc, iv, buf, out,
								   sizeof(cfb_ptext)), 0);
			KUNIT_EXPECT_MEMEQ_MSG(test, out, want, sizeof(cfb_ptext),
					       "%s %s, %s", impl->driver,
					       enc ? "encrypt" : "decrypt",
					       inplace ? "in place" : "out of place");
			/* The IV out is the last ciphertext block, to chain on. */
			KUNIT_EXPECT_MEMEQ_MSG(test, iv, v->ctext + sizeof(cfb_ptext) -
					       CFB_BLOCK_SIZE, CFB_BLOCK_SIZE,
					       "%s %s: IV out", impl->driver,
					       enc ? "encrypt" : "decrypt");
		}
	}
}

KUNIT_ARRAY_PARAM_DESC(cfb_nist, cfb_nist_cases, desc);

/* One SP 800-38A vector on every AES row that this kernel and CPU have. */
static void cfb_nist_test(struct kunit *test)
{
	const struct cfb_nist_case *v = test->param_value;
	char desc[KUNIT_PARAM_DESC_SIZE];
	const void *impl = NULL;
	unsigned int ran = 0;

	cfb_need_template(test);
	while ((impl = cfb_aes_gen_params(impl, desc))) {
		const struct cfb_impl *i = impl;

		if (!i->built || (i->cpu_ok && !i->cpu_ok()))
			continue;
		cfb_nist_one(test, i, v);
		ran++;
	}
	/* cfb(aes-generic) at least */
	KUNIT_EXPECT_GE(test, ran, 1U);
	kunit_info(test, "%u AES drivers", ran);
}

/* ------------------------------------------------ cross-check with ECB */

/*
 * CFB128 from its definition (SP 800-38A, 6.3) over the generic ECB:
 * O_j = E(I_j), C_j = P_j ^ O_j, I_1 = IV, I_j+1 = C_j; a last partial
 * block takes the leading bytes of its O_j. Decryption knows every I_j
 * up front, so one ECB request makes all of O; encryption makes one
 * block at a time.
 */
static void cfb_reference(struct kunit *test, struct crypto_skcipher *ecb, bool enc,
			  const u8 *iv, const u8 *in, u8 *out, unsigned int len)
{
	unsigned int nblocks = DIV_ROUND_UP(len, CFB_BLOCK_SIZE), j, k;
	u8 *inputs = kunit_kzalloc(test, nblocks * CFB_BLOCK_SIZE, GFP_KERNEL);
	u8 *o = kunit_kzalloc(test, nblocks * CFB_BLOCK_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, inputs);
	KUNIT_ASSERT_NOT_NULL(test, o);
	memcpy(inputs, iv, CFB_BLOCK_SIZE);
	if (!enc) {
		memcpy(inputs + CFB_BLOCK_SIZE, in, (nblocks - 1) * CFB_BLOCK_SIZE);
		KUNIT_ASSERT_EQ(test, kunit_skcipher_crypt(ecb, true, NULL, inputs, o,
							   nblocks * CFB_BLOCK_SIZE), 0);
		for (k = 0; k < len; k++)
			out[k] = in[k] ^ o[k];
		return;
	}
	for (j = 0; j < nblocks; j++) {
		unsigned int off = j * CFB_BLOCK_SIZE;

		KUNIT_ASSERT_EQ(test, kunit_skcipher_crypt(ecb, true, NULL, inputs + off,
							   o + off, CFB_BLOCK_SIZE), 0);
		for (k = off; k < min(len, off + CFB_BLOCK_SIZE); k++)
			out[k] = in[k] ^ o[k];
		if (j + 1 < nblocks)
			memcpy(inputs + off + CFB_BLOCK_SIZE, out + off, CFB_BLOCK_SIZE);
	}
}

/* Lengths around the block size and the drivers' 8- and 16-block batches. */
static const unsigned int cfb_cross_lens[] = {
	1, 15, 16, 17, 31, 32, 100, 127, 128, 129, 255, 256, 257, 1000, 4096, 4099,
};

/*
 * The row against CFB over the generic ECB, with a random key of each
 * size its cipher takes: each length each way, then, for whole blocks,
 * two requests chained through the IV out give one request's output.
 */
static void cfb_cross_test(struct kunit *test)
{
	static const unsigned int aes_klens[] = { AES_KEYSIZE_128, AES_KEYSIZE_192,
						  AES_KEYSIZE_256 };
	static const unsigned int sm4_klens[] = { SM4_KEY_SIZE };
	const struct cfb_impl *impl = test->param_value;
	struct crypto_skcipher *tfm = cfb_alloc_impl(test, impl);
	struct crypto_skcipher *ecb = cfb_alloc(test, impl->ecb);
	bool aes = !strcmp(impl->alg, "cfb(aes)");
	const unsigned int *klens = aes ? aes_klens : sm4_klens;
	unsigned int nklens = aes ? ARRAY_SIZE(aes_klens) : ARRAY_SIZE(sm4_klens);
	const unsigned int max = 4099;
	u8 *in = kunit_kzalloc(test, max, GFP_KERNEL);
	u8 *out = kunit_kzalloc(test, max, GFP_KERNEL);
	u8 *want = kunit_kzalloc(test, max, GFP_KERNEL);
	u8 key[AES_MAX_KEY_SIZE], iv[CFB_BLOCK_SIZE], iv0[CFB_BLOCK_SIZE];
	struct rnd_state rnd;
	unsigned int kl, l, checks = 0;
	int enc, err;

	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_NOT_NULL(test, want);
	prandom_seed_state(&rnd, 38);
	for (kl = 0; kl < nklens; kl++) {
		prandom_bytes_state(&rnd, key, klens[kl]);
		KUNIT_ASSERT_EQ(test, crypto_skcipher_setkey(tfm, key, klens[kl]), 0);
		KUNIT_ASSERT_EQ(test, crypto_skcipher_setkey(ecb, key, klens[kl]), 0);
		for (l = 0; l < ARRAY_SIZE(cfb_cross_lens); l++) {
			unsigned int len = cfb_cross_lens[l];

			for (enc = 1; enc >= 0; enc--) {
				prandom_bytes_state(&rnd, iv0, sizeof(iv0));
				prandom_bytes_state(&rnd, in, len);
				cfb_reference(test, ecb, enc, iv0, in, want, len);

				memcpy(iv, iv0, sizeof(iv));
				err = kunit_skcipher_crypt(tfm, enc, iv, in, out, len);
				KUNIT_ASSERT_EQ(test, err, 0);
				KUNIT_EXPECT_MEMEQ_MSG(test, out, want, len,
						       "%u-bit key, %u bytes, %s", klens[kl] * 8,
						       len, enc ? "encrypt" : "decrypt");
				checks++;
				if (len % CFB_BLOCK_SIZE || len < 2 * CFB_BLOCK_SIZE)
					continue;

				/* The same stream as two requests, split at a block. */
				memset(out, 0, len);
				memcpy(iv, iv0, sizeof(iv));
				err = kunit_skcipher_crypt(tfm, enc, iv, in, out, CFB_BLOCK_SIZE);
				KUNIT_ASSERT_EQ(test, err, 0);
				err = kunit_skcipher_crypt(tfm, enc, iv, in + CFB_BLOCK_SIZE,
							   out + CFB_BLOCK_SIZE,
							   len - CFB_BLOCK_SIZE);
				KUNIT_ASSERT_EQ(test, err, 0);
				KUNIT_EXPECT_MEMEQ_MSG(test, out, want, len,
						       "%u-bit key, %u bytes, %s in two requests",
						       klens[kl] * 8, len,
						       enc ? "encrypt" : "decrypt");
				checks++;
			}
		}
	}
	kunit_info(test, "%u checks against %s", checks, impl->ecb);
}

/* ------------------------------------------------ every driver has a row */

static bool cfb_listed(const char *driver)
{
	const struct cfb_impl *impl;

	for (impl = cfb_impls; impl < cfb_impls + ARRAY_SIZE(cfb_impls); impl++)
		if (!impl->other_arch && !strcmp(impl->driver, driver))
			return true;
	return false;
}

/*
 * After cfb(aes) and cfb(sm4) are instantiated, each driver registered
 * for either is a row of cfb_impls, so the cases above ran it.
 */
static void cfb_registered_test(struct kunit *test)
{
	static const char * const algs[] = { "cfb(aes)", "cfb(sm4)" };
	struct crypto_alg *alg;
	unsigned int i, found = 0;

	cfb_need_template(test);
	for (i = 0; i < ARRAY_SIZE(algs); i++)
		cfb_alloc(test, algs[i]);

	down_read(&crypto_alg_sem);
	list_for_each_entry(alg, &crypto_alg_list, cra_list) {
		if (alg->cra_flags & (CRYPTO_ALG_LARVAL | CRYPTO_ALG_DEAD))
			continue;
		for (i = 0; i < ARRAY_SIZE(algs); i++) {
			if (strcmp(alg->cra_name, algs[i]))
				continue;
			found++;
			if (!cfb_listed(alg->cra_driver_name))
				KUNIT_FAIL(test, "%s driver %s has no row in cfb_impls",
					   algs[i], alg->cra_driver_name);
		}
	}
	up_read(&crypto_alg_sem);
	KUNIT_EXPECT_GE(test, found, ARRAY_SIZE(algs));
	kunit_info(test, "%u drivers registered for cfb(aes) and cfb(sm4)", found);
}

static struct kunit_case cfb_cases[] = {
	KUNIT_CASE_PARAM(cfb_nist_test, cfb_nist_gen_params),
	KUNIT_CASE_PARAM(cfb_cross_test, cfb_any_gen_params),
	KUNIT_CASE(cfb_registered_test),
	{}
};

static struct kunit_suite cfb_suite = {
	.name = "crypto_cfb",
	.test_cases = cfb_cases,
};

kunit_test_suite(cfb_suite);

MODULE_DESCRIPTION("KUnit tests for the CFB mode and its AES and SM4 drivers");
MODULE_LICENSE("GPL");
