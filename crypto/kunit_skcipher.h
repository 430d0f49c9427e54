/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One skcipher request for the crypto KUnit suites, on linear buffers
 * and waited for: from @in to @out, in place if they are the same. @iv
 * is the caller's buffer, so that it holds the IV the request hands back
 * (the chaining value of CBC, CFB and OFB, CTR's next counter).
 */

#ifndef _CRYPTO_KUNIT_SKCIPHER_H
#define _CRYPTO_KUNIT_SKCIPHER_H

#include <crypto/skcipher.h>
#include <linux/scatterlist.h>

static inline int kunit_skcipher_crypt(struct crypto_skcipher *tfm, bool enc, u8 *iv,
				       const u8 *in, u8 *out, unsigned int len)
{
	struct skcipher_request *req = skcipher_request_alloc(tfm, GFP_KERNEL);
	struct scatterlist src, dst;
	DECLARE_CRYPTO_WAIT(wait);
	int err;

	if (!req)
		return -ENOMEM;
	sg_init_one(&src, in, len);
	sg_init_one(&dst, out, len);
	skcipher_request_set_callback(req, CRYPTO_TFM_REQ_MAY_BACKLOG |
				      CRYPTO_TFM_REQ_MAY_SLEEP, crypto_req_done, &wait);
	skcipher_request_set_crypt(req, &src, in == out ? &src : &dst, len, iv);
	err = crypto_wait_req(enc ? crypto_skcipher_encrypt(req) :
			      crypto_skcipher_decrypt(req), &wait);
	skcipher_request_free(req);
	return err;
}

#endif /* _CRYPTO_KUNIT_SKCIPHER_H */
