/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the crypto KUnit suites ask of the CPU before they run a driver
 * of an architecture: the checks that driver's glue makes before it
 * registers (arch/x86/crypto/aesni-intel_glue.c, sm4_aesni_avx*_glue.c,
 * arch/arm64/crypto/aes-glue.c, sm4-ce*-glue.c, sm4-neon-glue.c), each
 * with the words a skipped row gives. On another architecture each
 * check is false; the rows of that architecture are left out anyway.
 */

#ifndef _CRYPTO_KUNIT_CPU_H
#define _CRYPTO_KUNIT_CPU_H

#include <linux/cpufeature.h>
#include <linux/types.h>

#ifdef CONFIG_X86
#include <asm/fpu/api.h>
#endif

#define KUNIT_CPU_X86_AES	"AES-NI (QEMU: -cpu max)"
#define KUNIT_CPU_X86_AVX	"AVX, AES-NI and OSXSAVE (QEMU: -cpu max)"
#define KUNIT_CPU_X86_AVX2	"AVX2, AES-NI and OSXSAVE (QEMU: -cpu max)"
#define KUNIT_CPU_ARM64_AES	"the ARMv8 AES extension"
#define KUNIT_CPU_ARM64_SM4	"the ARMv8.2 SM4 extension"
#define KUNIT_CPU_ARM64_SM4_PMULL	"the ARMv8.2 SM4 and PMULL extensions"
#define KUNIT_CPU_ARM64_NEON	"NEON"

#ifdef CONFIG_X86
static inline bool kunit_cpu_x86_aes(void)
{
	return boot_cpu_has(X86_FEATURE_AES);
}

static inline bool kunit_cpu_x86_avx(void)
{
	return boot_cpu_has(X86_FEATURE_AVX) && boot_cpu_has(X86_FEATURE_AES) &&
	       boot_cpu_has(X86_FEATURE_OSXSAVE) &&
	       cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM, NULL);
}

static inline bool kunit_cpu_x86_avx2(void)
{
	return kunit_cpu_x86_avx() && boot_cpu_has(X86_FEATURE_AVX2);
}
#else
static inline bool kunit_cpu_x86_aes(void) { return false; }
static inline bool kunit_cpu_x86_avx(void) { return false; }
static inline bool kunit_cpu_x86_avx2(void) { return false; }
#endif

#ifdef CONFIG_ARM64
static inline bool kunit_cpu_arm64_aes(void)
{
	return cpu_have_named_feature(AES);
}

static inline bool kunit_cpu_arm64_sm4(void)
{
	return cpu_have_named_feature(SM4);
}

static inline bool kunit_cpu_arm64_sm4_pmull(void)
{
	return cpu_have_named_feature(SM4) && cpu_have_named_feature(PMULL);
}

static inline bool kunit_cpu_arm64_neon(void)
{
	return cpu_have_named_feature(ASIMD);
}
#else
static inline bool kunit_cpu_arm64_aes(void) { return false; }
static inline bool kunit_cpu_arm64_sm4(void) { return false; }
static inline bool kunit_cpu_arm64_sm4_pmull(void) { return false; }
static inline bool kunit_cpu_arm64_neon(void) { return false; }
#endif

#endif /* _CRYPTO_KUNIT_CPU_H */
