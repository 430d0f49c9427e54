// SPDX-License-Identifier: GPL-2.0
/*
 * The debug leg's self-test: a KUnit case that reads one byte past a
 * global array when the kernel is booted with debug_canary_kunit.oob=1,
 * and the last byte of the array otherwise.
 * With the parameter, KASAN must report the read and the leg must fail
 * (kunit/run --canary checks both); without it, the same read in bounds
 * must give no report, so the case passes in every normal debug run.
 */

#include <kunit/test.h>
#include <linux/moduleparam.h>

static bool oob;
module_param(oob, bool, 0444);
MODULE_PARM_DESC(oob, "Read one byte past the buffer (the debug leg's self-test)");

#define DEBUG_CANARY_SIZE	8

/*
 * A global, not a heap buffer: KFENCE may serve any kmalloc(), and reads
 * past a KFENCE object within its page go unseen. The compiler puts a
 * redzone after each global that KASAN generic checks.
 */
static char debug_canary_buf[DEBUG_CANARY_SIZE];

static void debug_canary_test(struct kunit *test)
{
	size_t i = oob ? DEBUG_CANARY_SIZE : DEBUG_CANARY_SIZE - 1;

	/* Keep the compiler from seeing the index, as the KASAN tests do */
	OPTIMIZER_HIDE_VAR(i);
	KUNIT_EXPECT_EQ(test, READ_ONCE(debug_canary_buf[i]), 0);
	if (oob)
		kunit_info(test, "read byte %zu of a %d-byte array: KASAN must report it",
			   i, DEBUG_CANARY_SIZE);
}

static struct kunit_case debug_canary_cases[] = {
	KUNIT_CASE(debug_canary_test),
	{}
};

static struct kunit_suite debug_canary_suite = {
	.name = "debug_canary",
	.test_cases = debug_canary_cases,
};

kunit_test_suite(debug_canary_suite);

MODULE_DESCRIPTION("Deliberate out-of-bounds read that the debug leg must catch");
MODULE_LICENSE("GPL");
