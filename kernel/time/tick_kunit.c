// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for tick_period_forward(), the period arithmetic that
 * forwards tick_next_period after a resume: the first boundary at or
 * after now on the grid next + k * period.
 *
 * Included at the end of tick-common.c.
 */

#include <kunit/test.h>
#include <linux/math64.h>

/*
 * TICK_NSEC of kernels built with CONFIG_HZ=100, 250, 300 and 1000:
 * (NSEC_PER_SEC + HZ / 2) / HZ (include/linux/jiffies.h). 300 does not
 * divide 10^9, so its period is rounded.
 */
#define TICK_NSEC_HZ100		10000000ULL
#define TICK_NSEC_HZ250		4000000ULL
#define TICK_NSEC_HZ300		3333333ULL
#define TICK_NSEC_HZ1000	1000000ULL

struct tick_period_case {
	const char *desc;
	ktime_t next;
	ktime_t now;
	u64 period;
};

#define HOUR_NS		(3600 * NSEC_PER_SEC)
#define DAY_NS		(24 * HOUR_NS)
#define BASE_NS		(1000 * NSEC_PER_SEC)	/* 1000 s of uptime */

/* The largest boundary of the grid 0 + k * p that ktime_t holds. */
#define LAST_BOUNDARY(p)	(KTIME_MAX - KTIME_MAX % (p))

static const struct tick_period_case tick_period_cases[] = {
	{ "now on next", BASE_NS, BASE_NS, TICK_NSEC_HZ1000 },
	{ "now 1 ns after next", BASE_NS, BASE_NS + 1, TICK_NSEC_HZ1000 },
	{ "now 1 ns before a later boundary", BASE_NS, BASE_NS + 3 * TICK_NSEC_HZ1000 - 1,
	  TICK_NSEC_HZ1000 },
	{ "now on a boundary 3 periods later", BASE_NS, BASE_NS + 3 * TICK_NSEC_HZ1000,
	  TICK_NSEC_HZ1000 },
	{ "now a few periods and a bit later", BASE_NS, BASE_NS + 7 * TICK_NSEC_HZ1000 + 123,
	  TICK_NSEC_HZ1000 },
	/* Negative deltas: next is ahead of now. */
	{ "now before next by less than a period", BASE_NS, BASE_NS - 1, TICK_NSEC_HZ1000 },
	{ "now before next by exactly a period", BASE_NS, BASE_NS - TICK_NSEC_HZ1000,
	  TICK_NSEC_HZ1000 },
	{ "now before next by 2.5 periods", BASE_NS, BASE_NS - 5 * TICK_NSEC_HZ1000 / 2,
	  TICK_NSEC_HZ1000 },
	/* Suspends. */
	{ "1 hour of suspend, HZ=250", BASE_NS, BASE_NS + HOUR_NS + 17, TICK_NSEC_HZ250 },
	{ "3 days of suspend, HZ=250", BASE_NS, BASE_NS + 3 * DAY_NS + 999, TICK_NSEC_HZ250 },
	{ "400 days of suspend, HZ=300", BASE_NS + 1, BASE_NS + 400 * DAY_NS, TICK_NSEC_HZ300 },
	/* The periods of the usual HZ values; 300 does not divide 10^9. */
	{ "HZ=100, 1 s later", BASE_NS, BASE_NS + NSEC_PER_SEC + 1, TICK_NSEC_HZ100 },
	{ "HZ=250, 1 s later", BASE_NS, BASE_NS + NSEC_PER_SEC + 1, TICK_NSEC_HZ250 },
	{ "HZ=300, 1 s later", BASE_NS, BASE_NS + NSEC_PER_SEC, TICK_NSEC_HZ300 },
	{ "HZ=1000, 1 s later", BASE_NS, BASE_NS + NSEC_PER_SEC + 1, TICK_NSEC_HZ1000 },
	/* The edge of ktime_t: the answer is the last boundary it holds. */
	{ "now on the last boundary before KTIME_MAX, HZ=300", 0,
	  LAST_BOUNDARY(TICK_NSEC_HZ300), TICK_NSEC_HZ300 },
	{ "now 1 ns before the last boundary before KTIME_MAX, HZ=300", 0,
	  LAST_BOUNDARY(TICK_NSEC_HZ300) - 1, TICK_NSEC_HZ300 },
	{ "now on the last boundary before KTIME_MAX, HZ=1000", 0,
	  LAST_BOUNDARY(TICK_NSEC_HZ1000), TICK_NSEC_HZ1000 },
};

KUNIT_ARRAY_PARAM_DESC(tick_period, tick_period_cases, desc);

/*
 * The reference, written differently from the helper: unsigned
 * distance and a rounded-up quotient when now is after next, a
 * rounded-down one when it is before.
 */
static ktime_t tick_period_reference(ktime_t next, ktime_t now, u64 period)
{
	u64 d, k, rem;

	if (now >= next) {
		d = (u64)now - (u64)next;
		k = div64_u64_rem(d, period, &rem) + (rem ? 1 : 0);
		return (ktime_t)((u64)next + k * period);
	}
	d = (u64)next - (u64)now;
	k = div64_u64(d, period);
	return (ktime_t)((u64)next - k * period);
}

static void tick_period_forward_test(struct kunit *test)
{
	const struct tick_period_case *t = test->param_value;
	ktime_t got = tick_period_forward(t->next, t->now, t->period);
	ktime_t want = tick_period_reference(t->next, t->now, t->period);
	u64 off, rem;

	KUNIT_EXPECT_EQ(test, got, want);
	/* The answer is at or after now, less than a period after it ... */
	KUNIT_EXPECT_GE(test, got, t->now);
	KUNIT_EXPECT_LT(test, (u64)got - (u64)t->now, t->period);
	/* ... and on the grid of next. */
	off = got >= t->next ? (u64)got - (u64)t->next : (u64)t->next - (u64)got;
	div64_u64_rem(off, t->period, &rem);
	KUNIT_EXPECT_EQ(test, rem, 0);
}

/* Small deltas against a step-by-step walk of the grid, both directions. */
static void tick_period_walk_test(struct kunit *test)
{
	static const struct {
		unsigned int hz;
		u64 period;
	} periods[] = {
		{ 100, TICK_NSEC_HZ100 }, { 250, TICK_NSEC_HZ250 },
		{ 300, TICK_NSEC_HZ300 }, { 1000, TICK_NSEC_HZ1000 },
	};
	int i, j;

	for (i = 0; i < ARRAY_SIZE(periods); i++) {
		u64 p = periods[i].period;

		KUNIT_EXPECT_EQ(test, p, (NSEC_PER_SEC + periods[i].hz / 2) / periods[i].hz);

		for (j = -40; j <= 40; j++) {
			ktime_t now = BASE_NS + j * (s64)p / 4 + (j & 1);
			ktime_t want = BASE_NS;

			while (want < now)
				want += p;
			while (want - (s64)p >= now)
				want -= p;
			KUNIT_EXPECT_EQ_MSG(test, tick_period_forward(BASE_NS, now, p), want,
					    "period %llu, now %lld", p, now);
		}
	}
}

static struct kunit_case tick_period_test_cases[] = {
	KUNIT_CASE_PARAM(tick_period_forward_test, tick_period_gen_params),
	KUNIT_CASE(tick_period_walk_test),
	{}
};

static struct kunit_suite tick_period_suite = {
	.name = "tick_period",
	.test_cases = tick_period_test_cases,
};

kunit_test_suite(tick_period_suite);
