// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit test for tick_sched_forward_next_period(), which restarts the
 * jiffies update of tick-sched after a resume. Included at the end of
 * tick-sched.c, for last_jiffies_update.
 *
 * Each row puts its value in last_jiffies_update, calls the function and
 * puts the old value back, all under jiffies_lock and the jiffies sequence
 * count with interrupts off, as tick_forward_end() calls it: no CPU
 * updates the jiffies or reads a row's value meanwhile. The state before
 * tick-sched's first one-shot switch (last_jiffies_update still 0) is over
 * before the suites run on every cell, so only a row can give it.
 */

#include <kunit/test.h>

struct tick_sched_fwd {
	const char *name;
	ktime_t last;	/* last_jiffies_update before the call */
	ktime_t next;	/* the period boundary the tick was forwarded to */
	ktime_t want;	/* last_jiffies_update after it */
};

static const struct tick_sched_fwd tick_sched_fwds[] = {
	/* tick_init_jiffy_update() starts it from tick_next_period later */
	{ "not started: stays 0", 0, 100 * TICK_NSEC, 0 },
	{ "started, 100 s slept: a period before next", 7 * TICK_NSEC,
	  7 * TICK_NSEC + 100 * NSEC_PER_SEC, 6 * TICK_NSEC + 100 * NSEC_PER_SEC },
	{ "started, nothing slept: unchanged", 7 * TICK_NSEC, 8 * TICK_NSEC, 7 * TICK_NSEC },
	{ "started at one period: a period before next", TICK_NSEC, 3 * TICK_NSEC,
	  2 * TICK_NSEC },
};

KUNIT_ARRAY_PARAM_DESC(tick_sched_fwds, tick_sched_fwds, name);

static void tick_sched_forward_test(struct kunit *test)
{
	const struct tick_sched_fwd *p = test->param_value;
	unsigned long flags;
	ktime_t saved, got;

	raw_spin_lock_irqsave(&jiffies_lock, flags);
	write_seqcount_begin(&jiffies_seq);
	saved = last_jiffies_update;
	last_jiffies_update = p->last;
	tick_sched_forward_next_period(p->next);
	got = last_jiffies_update;
	last_jiffies_update = saved;
	write_seqcount_end(&jiffies_seq);
	raw_spin_unlock_irqrestore(&jiffies_lock, flags);

	KUNIT_EXPECT_EQ(test, got, p->want);
}

static struct kunit_case tick_sched_forward_cases[] = {
	KUNIT_CASE_PARAM(tick_sched_forward_test, tick_sched_fwds_gen_params),
	{}
};

static struct kunit_suite tick_sched_forward_suite = {
	.name = "tick_sched_forward",
	.test_cases = tick_sched_forward_cases,
};

kunit_test_suite(tick_sched_forward_suite);
