// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for CLOCK_MONOTONIC_ACTIVE, which exists only with
 * monotonic_suspend=on. Included at the end of posix-timers.c, for
 * clockid_to_kclock(), which every clock syscall starts from.
 *
 * The case runs in every boot and checks the mode the boot has: the
 * mono-suspend boot (kunit/boots) runs it with the mode on, the others
 * with it off; its name ends in _on for that boot's filter.
 */

#include <kunit/test.h>

#define TK_ACTIVE_SLEPT		TK_ACTIVE_TS(50, 250000000)
#define TK_ACTIVE_TS(s, ns)	((struct timespec64){ .tv_sec = (s), .tv_nsec = (ns) })
#define TK_ACTIVE_SLACK		(2 * NSEC_PER_SEC)	/* the most a case takes under TCG */

static ktime_t tk_active_read(struct kunit *test, const struct k_clock *kc)
{
	struct timespec64 ts = { -1, -1 };

	KUNIT_EXPECT_EQ(test, kc->clock_get_timespec(CLOCK_MONOTONIC_ACTIVE, &ts), 0);
	return timespec64_to_ktime(ts);
}

/*
 * Without the mode, no clock answers to the id: every syscall on it gives
 * -EINVAL. With it, the clock reads ktime_get_active() (the init time
 * namespace adds nothing), has the hrtimer resolution, and has no timer,
 * sleep, set or adjust operation, so the syscalls give what they give any
 * clock without them. Across a resume (the RTC's path injects the time
 * slept), it moves by the time awake only, and CLOCK_MONOTONIC - it grows
 * by the time slept.
 */
static void tk_clock_active_on(struct kunit *test)
{
	const struct k_clock *kc = clockid_to_kclock(CLOCK_MONOTONIC_ACTIVE);
	struct timespec64 slept = TK_ACTIVE_SLEPT, res = { -1, -1 };
	ktime_t before, got, after, mono_a, mono_b, active_a, active_b, d;

	if (!timekeeping_monotonic_suspend()) {
		KUNIT_EXPECT_NULL(test, kc);
		return;
	}
	KUNIT_ASSERT_NOT_NULL(test, kc);
	KUNIT_EXPECT_PTR_EQ(test, kc, clockid_to_kclock(CLOCK_MONOTONIC_ACTIVE));
	before = ktime_get_active();
	got = tk_active_read(test, kc);
	after = ktime_get_active();
	KUNIT_EXPECT_LE(test, before, got);
	KUNIT_EXPECT_LE(test, got, after);

	KUNIT_EXPECT_EQ(test, kc->clock_getres(CLOCK_MONOTONIC_ACTIVE, &res), 0);
	KUNIT_EXPECT_EQ(test, res.tv_sec, 0);
	KUNIT_EXPECT_EQ(test, res.tv_nsec, (long)hrtimer_resolution);

	KUNIT_EXPECT_NULL(test, kc->clock_set);
	KUNIT_EXPECT_NULL(test, kc->clock_adj);
	KUNIT_EXPECT_NULL(test, kc->timer_create);
	KUNIT_EXPECT_NULL(test, kc->nsleep);
	KUNIT_EXPECT_NULL(test, kc->clock_get_ktime);

	if (!IS_ENABLED(CONFIG_PM_SLEEP) || !IS_ENABLED(CONFIG_RTC_HCTOSYS)) {
		kunit_info(test, "no resume checked: needs CONFIG_PM_SLEEP and CONFIG_RTC_HCTOSYS");
		return;
	}
	d = timespec64_to_ktime(slept);
	mono_b = ktime_get();
	active_b = tk_active_read(test, kc);
	timekeeping_inject_sleeptime64(&slept);
	active_a = tk_active_read(test, kc);
	mono_a = ktime_get();

	KUNIT_EXPECT_GE(test, ktime_sub(active_a, active_b), 0);
	KUNIT_EXPECT_LT(test, ktime_sub(active_a, active_b), TK_ACTIVE_SLACK);
	KUNIT_EXPECT_GE(test, ktime_sub(ktime_sub(mono_a, mono_b), d), 0);
	KUNIT_EXPECT_LT(test, ktime_sub(ktime_sub(mono_a, mono_b), d), TK_ACTIVE_SLACK);
	/* MONOTONIC - ACTIVE, each read next to the other: grows by d */
	d = ktime_sub(ktime_sub(ktime_sub(mono_a, active_a), ktime_sub(mono_b, active_b)), d);
	KUNIT_EXPECT_GT(test, d, -TK_ACTIVE_SLACK);
	KUNIT_EXPECT_LT(test, d, TK_ACTIVE_SLACK);
}

static struct kunit_case timekeeping_live_active_cases[] = {
	KUNIT_CASE(tk_clock_active_on),
	{}
};

static struct kunit_suite timekeeping_live_active_suite = {
	.name = "timekeeping_live_active",
	.test_cases = timekeeping_live_active_cases,
};

kunit_test_suite(timekeeping_live_active_suite);
