// SPDX-License-Identifier: GPL-2.0
/*
 * SM4 from userspace: AF_ALG skcipher ecb(sm4), cbc(sm4), ctr(sm4) and
 * aead gcm(sm4) give the published results, and /proc/crypto lists every
 * SM4 driver of the arch with its self-test passed.
 */

#include <linux/if_alg.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "ktap.h"

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

struct vec {
	const char *type, *alg, *name;
	const char *key, *iv, *aad, *pt, *ct;	/* ct: ciphertext, then tag */
	unsigned int klen, ivlen, alen, len, taglen;
};

#define KEY1 "\x01\x23\x45\x67\x89\xab\xcd\xef\xfe\xdc\xba\x98\x76\x54\x32\x10"
#define RIBOSE_IV "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"
/* draft-ribose-cfrg-sm4-10 A.2.1 - A.2.2: the 32-byte plaintext. */
#define RIBOSE_PT32 "\xaa\xaa\xaa\xaa\xbb\xbb\xbb\xbb\xcc\xcc\xcc\xcc\xdd\xdd\xdd\xdd" \
		    "\xee\xee\xee\xee\xff\xff\xff\xff\xaa\xaa\xaa\xaa\xbb\xbb\xbb\xbb"
/* draft-ribose-cfrg-sm4-10 A.2.5 and RFC 8998 A.1: the 64-byte plaintexts. */
#define RIBOSE_PT64 "\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xbb\xbb\xbb\xbb\xbb\xbb\xbb\xbb" \
		    "\xcc\xcc\xcc\xcc\xcc\xcc\xcc\xcc\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd" \
		    "\xee\xee\xee\xee\xee\xee\xee\xee\xff\xff\xff\xff\xff\xff\xff\xff" \
		    "\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xbb\xbb\xbb\xbb\xbb\xbb\xbb\xbb"
#define RFC8998_PT  "\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xbb\xbb\xbb\xbb\xbb\xbb\xbb\xbb" \
		    "\xcc\xcc\xcc\xcc\xcc\xcc\xcc\xcc\xdd\xdd\xdd\xdd\xdd\xdd\xdd\xdd" \
		    "\xee\xee\xee\xee\xee\xee\xee\xee\xff\xff\xff\xff\xff\xff\xff\xff" \
		    "\xee\xee\xee\xee\xee\xee\xee\xee\xaa\xaa\xaa\xaa\xaa\xaa\xaa\xaa"

static const struct vec vecs[] = {
	{
		/* GB/T 32907-2016 Appendix A, Example 1: the key is the plaintext */
		"skcipher", "ecb(sm4)", "GB/T 32907-2016 A Example 1",
		KEY1, NULL, NULL, KEY1,
		"\x68\x1e\xdf\x34\xd2\x06\x96\x5e\x86\xb3\xe9\x4f\x53\x6e\x42\x46",
		16, 0, 0, 16, 0,
	}, {
		/* draft-ribose-cfrg-sm4-10 A.2.2.1 */
		"skcipher", "cbc(sm4)", "draft-ribose-cfrg-sm4-10 A.2.2.1",
		KEY1, RIBOSE_IV, NULL, RIBOSE_PT32,
		"\x78\xeb\xb1\x1c\xc4\x0b\x0a\x48\x31\x2a\xae\xb2\x04\x02\x44\xcb"
		"\x4c\xb7\x01\x69\x51\x90\x92\x26\x97\x9b\x0d\x15\xdc\x6a\x8f\x6d",
		16, 16, 0, 32, 0,
	}, {
		/* draft-ribose-cfrg-sm4-10 A.2.5.1 */
		"skcipher", "ctr(sm4)", "draft-ribose-cfrg-sm4-10 A.2.5.1",
		KEY1, RIBOSE_IV, NULL, RIBOSE_PT64,
		"\xac\x32\x36\xcb\x97\x0c\xc2\x07\x91\x36\x4c\x39\x5a\x13\x42\xd1"
		"\xa3\xcb\xc1\x87\x8c\x6f\x30\xcd\x07\x4c\xce\x38\x5c\xdd\x70\xc7"
		"\xf2\x34\xbc\x0e\x24\xc1\x19\x80\xfd\x12\x86\x31\x0c\xe3\x7b\x92"
		"\x6e\x02\xfc\xd0\xfa\xa0\xba\xf3\x8b\x29\x33\x85\x1d\x82\x45\x14",
		16, 16, 0, 64, 0,
	}, {
		/* RFC 8998 Appendix A.1: SM4-GCM */
		"aead", "gcm(sm4)", "RFC 8998 A.1 (SM4-GCM)",
		KEY1, "\x00\x00\x12\x34\x56\x78\x00\x00\x00\x00\xab\xcd",
		"\xfe\xed\xfa\xce\xde\xad\xbe\xef\xfe\xed\xfa\xce\xde\xad\xbe\xef"
		"\xab\xad\xda\xd2", RFC8998_PT,
		"\x17\xf3\x99\xf0\x8c\x67\xd5\xee\x19\xd0\xdc\x99\x69\xc4\xbb\x7d"
		"\x5f\xd4\x6f\xd3\x75\x64\x89\x06\x91\x57\xb2\x82\xbb\x20\x07\x35"
		"\xd8\x27\x10\xca\x5c\x22\xf0\xcc\xfa\x7c\xbf\x93\xd4\x96\xac\x15"
		"\xa5\x68\x34\xcb\xcf\x98\xc3\x97\xb4\x02\x4a\x26\x91\x23\x3b\x8d"
		"\x83\xde\x35\x41\xe4\xc2\xb5\x81\x77\xe0\x65\xa9\xbf\x7b\x62\xec",
		16, 12, 20, 64, 16,
	},
};

/*
 * The SM4 drivers each arch's kernel config builds (kunit/configs/), with
 * the release that brought them where that is later than 6.1, the older
 * base of the project: an older kernel skips them and says so.
 */
#define DRIVER(n)			{ .name = n }
#define DRIVER_SINCE(n, major, minor)	{ .name = n, .since_major = major, .since_minor = minor }

static const struct driver {
	const char *name;
	int since_major, since_minor;
} drivers[] = {
	DRIVER("sm4-generic"),
#if defined(__x86_64__)
	DRIVER("ecb-sm4-aesni-avx"), DRIVER("cbc-sm4-aesni-avx"), DRIVER("ctr-sm4-aesni-avx"),
	DRIVER("ecb-sm4-aesni-avx2"), DRIVER("cbc-sm4-aesni-avx2"), DRIVER("ctr-sm4-aesni-avx2"),
#elif defined(__aarch64__)
	DRIVER("sm4-ce"), DRIVER("ecb-sm4-ce"), DRIVER("cbc-sm4-ce"), DRIVER("ctr-sm4-ce"),
	DRIVER("ecb-sm4-neon"), DRIVER("cbc-sm4-neon"), DRIVER("ctr-sm4-neon"),
	DRIVER_SINCE("xts-sm4-ce", 6, 2), DRIVER_SINCE("gcm-sm4-ce", 6, 2),
	DRIVER_SINCE("ccm-sm4-ce", 6, 2),
#endif
};

#define NDRIVERS ARRAY_SIZE(drivers)

/* Whether the running kernel is @major.@minor or later (uname's release). */
static bool kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return true;
	return ma > major || (ma == major && mi >= minor);
}

#define NVECS ARRAY_SIZE(vecs)

/* Encrypt @v through AF_ALG into @out; 0 or an errno. */
static int alg_encrypt(const struct vec *v, unsigned char *out, size_t outlen)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	char cbuf[CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(struct af_alg_iv) + 16) +
		  CMSG_SPACE(sizeof(int))] = {};
	struct iovec iov = { (void *)v->pt, v->len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct af_alg_iv *ivp;
	struct cmsghdr *c;
	int tfm, op, err = 0;
	ssize_t n;

	snprintf((char *)sa.salg_type, sizeof(sa.salg_type), "%s", v->type);
	snprintf((char *)sa.salg_name, sizeof(sa.salg_name), "%s", v->alg);
	tfm = socket(AF_ALG, SOCK_SEQPACKET, 0);
	if (tfm < 0)
		return errno;
	if (bind(tfm, (struct sockaddr *)&sa, sizeof(sa)) ||
	    setsockopt(tfm, SOL_ALG, ALG_SET_KEY, v->key, v->klen) ||
	    (v->taglen && setsockopt(tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, v->taglen))) {
		err = errno;
		goto out_tfm;
	}
	op = accept(tfm, NULL, 0);
	if (op < 0) {
		err = errno;
		goto out_tfm;
	}

	msg.msg_control = cbuf;
	msg.msg_controllen = sizeof(cbuf);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	*(int *)CMSG_DATA(c) = ALG_OP_ENCRYPT;
	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_IV;
	c->cmsg_len = CMSG_LEN(sizeof(*ivp) + 16);
	ivp = (struct af_alg_iv *)CMSG_DATA(c);
	ivp->ivlen = v->ivlen;
	if (v->ivlen)
		memcpy(ivp->iv, v->iv, v->ivlen);
	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	*(int *)CMSG_DATA(c) = v->alen;

	/* An AEAD takes the AAD, then the plaintext, and gives both back */
	if (v->alen) {
		struct iovec two[2] = { { (void *)v->aad, v->alen }, { (void *)v->pt, v->len } };

		msg.msg_iov = two;
		msg.msg_iovlen = 2;
		n = sendmsg(op, &msg, 0);
	} else {
		n = sendmsg(op, &msg, 0);
	}
	if (n < 0) {
		err = errno;
		goto out_op;
	}
	n = read(op, out, outlen);
	if (n < 0)
		err = errno;
	else if ((size_t)n != outlen)
		err = EMSGSIZE;
out_op:
	close(op);
out_tfm:
	close(tfm);
	return err;
}

#define MAX_ENTRIES	64

/* A /proc/crypto entry of an SM4 driver. */
struct entry {
	char driver[128];
	char selftest[64];
};

/* The /proc/crypto entries whose driver is SM4's: how many, or -errno. */
static int read_proc_crypto(struct entry *e, unsigned int max)
{
	char line[256], driver[128] = "", selftest[64] = "";
	FILE *f = fopen("/proc/crypto", "r");
	unsigned int n = 0;
	bool more = true;

	if (!f)
		return -errno;
	while (more) {
		char *v;

		more = fgets(line, sizeof(line), f);
		/* An entry ends where the next begins, or at the end */
		if ((!more || !strncmp(line, "name ", 5)) && strstr(driver, "sm4") && n < max) {
			snprintf(e[n].driver, sizeof(e[n].driver), "%s", driver);
			snprintf(e[n].selftest, sizeof(e[n].selftest), "%s", selftest);
			n++;
		}
		if (!more || !strncmp(line, "name ", 5)) {
			driver[0] = '\0';
			selftest[0] = '\0';
		}
		v = more ? strchr(line, ':') : NULL;
		if (!v)
			continue;
		v += 2;
		v[strcspn(v, "\n")] = '\0';
		if (!strncmp(line, "driver ", 7))
			snprintf(driver, sizeof(driver), "%s", v);
		else if (!strncmp(line, "selftest ", 9))
			snprintf(selftest, sizeof(selftest), "%s", v);
	}
	fclose(f);
	return n;
}

int main(void)
{
	static struct entry entries[MAX_ENTRIES];
	unsigned char out[128];
	int err[NVECS], n;
	bool match[NVECS];
	unsigned int i, j;

	/* The AF_ALG tests first: they instantiate the templates /proc/crypto lists */
	for (i = 0; i < NVECS; i++) {
		const struct vec *v = &vecs[i];

		memset(out, 0, sizeof(out));
		err[i] = alg_encrypt(v, out, v->alen + v->len + v->taglen);
		match[i] = !err[i] && !memcmp(out + v->alen, v->ct, v->len + v->taglen);
	}
	n = read_proc_crypto(entries, MAX_ENTRIES);

	ktap_begin("integration_sm4_af_alg", NVECS + (n < 0 ? 1 : n) + NDRIVERS);
	for (i = 0; i < NVECS; i++) {
		if (err[i])
			ktap_diag("%s: %s", vecs[i].alg, strerror(err[i]));
		ktap_ok(match[i], "AF_ALG %s %s: %s", vecs[i].type, vecs[i].alg, vecs[i].name);
	}
	if (n < 0)
		ktap_ok(false, "/proc/crypto: %s", strerror(-n));
	for (j = 0; n > 0 && j < (unsigned int)n; j++) {
		const struct entry *e = &entries[j];

		ktap_ok(!strcmp(e->selftest, "passed"), "/proc/crypto %s selftest %s", e->driver,
			e->selftest[0] ? e->selftest : "missing");
	}
	for (i = 0; i < NDRIVERS; i++) {
		const struct driver *d = &drivers[i];
		char why[64];
		bool seen = false;

		if (d->since_major && !kernel_at_least(d->since_major, d->since_minor)) {
			snprintf(why, sizeof(why), "%s came in v%d.%d", d->name, d->since_major,
				 d->since_minor);
			ktap_skip(d->name, why);
			continue;
		}
		for (j = 0; n > 0 && j < (unsigned int)n; j++)
			seen |= !strcmp(entries[j].driver, d->name);
		ktap_ok(seen, "/proc/crypto lists %s", d->name);
	}
	ktap_diag("%d SM4 drivers in /proc/crypto", n);
	return ktap_end();
}
