// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for tick_period_forward(), the period arithmetic that
 * forwards tick_next_period after a resume: the first boundary at or
 * after now on the grid next + k * period; and for tick_resume_local(),
 * what a resume hands the CPU's tick device.
 *
 * Included at the end of tick-common.c.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
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

/*
 * tick_resume_local() on a fake tick device that counts what it is asked
 * to do. The QEMU machines' own devices hide most of it: they have no
 * tick_resume() callback, and the device's setup reprograms what a
 * missing step would have left.
 */
struct tick_fake {
	struct clock_event_device dev;
	int resumed;		/* tick_resume() calls */
	int periodic;		/* set_state_periodic() calls */
	int oneshot;		/* set_state_oneshot() calls */
	int programmed;		/* events programmed, or the device stopped */
	ktime_t first;		/* the first event programmed */
};

static struct tick_fake *tick_fake_of(struct clock_event_device *dev)
{
	return container_of(dev, struct tick_fake, dev);
}

static int tick_fake_resume(struct clock_event_device *dev)
{
	tick_fake_of(dev)->resumed++;
	return 0;
}

static int tick_fake_periodic(struct clock_event_device *dev)
{
	tick_fake_of(dev)->periodic++;
	return 0;
}

static int tick_fake_oneshot(struct clock_event_device *dev)
{
	tick_fake_of(dev)->oneshot++;
	return 0;
}

static int tick_fake_stopped(struct clock_event_device *dev)
{
	tick_fake_of(dev)->programmed++;
	return 0;
}

static int tick_fake_shutdown(struct clock_event_device *dev)
{
	return 0;
}

static int tick_fake_next_event(unsigned long delta, struct clock_event_device *dev)
{
	struct tick_fake *f = tick_fake_of(dev);

	if (!f->programmed++)
		f->first = dev->next_event;
	return 0;
}

static void tick_fake_handler(struct clock_event_device *dev)
{
}

struct tick_resume_case {
	const char *desc;
	enum tick_device_mode mode;	/* the tick's */
	unsigned int features;		/* the device's */
	int periodic, oneshot;		/* set_state_*() calls */
	int programmed;			/* by the tick, before the hrtimers' */
	bool on_grid;			/* its first event on tick_next_period's grid */
};

static const struct tick_resume_case tick_resume_cases[] = {
	/* tick_resume_oneshot(): one-shot, an event now */
	{ "one-shot tick", TICKDEV_MODE_ONESHOT,
	  CLOCK_EVT_FEAT_ONESHOT | CLOCK_EVT_FEAT_PERIODIC, 0, 1, 1, false },
	/* tick_setup_periodic(): the periodic tick emulated, next period */
	{ "periodic tick, one-shot device", TICKDEV_MODE_PERIODIC,
	  CLOCK_EVT_FEAT_ONESHOT, 0, 1, 1, true },
	/* tick_setup_periodic(): the device's periodic mode */
	{ "periodic tick, periodic device", TICKDEV_MODE_PERIODIC,
	  CLOCK_EVT_FEAT_ONESHOT | CLOCK_EVT_FEAT_PERIODIC, 1, 0, 0, false },
};

KUNIT_ARRAY_PARAM_DESC(tick_resume, tick_resume_cases, desc);

static void tick_resume_local_test(struct kunit *test)
{
	const struct tick_resume_case *t = test->param_value;
	struct tick_fake f = {
		.dev = {
			.name = "tick_kunit_fake",
			.features = t->features,
			.mult = 1,
			.shift = 0,
			.min_delta_ns = 1000,
			.max_delta_ns = NSEC_PER_SEC,
			.min_delta_ticks = 1000,
			.max_delta_ticks = NSEC_PER_SEC,
			.tick_resume = tick_fake_resume,
			.set_state_periodic = tick_fake_periodic,
			.set_state_oneshot = tick_fake_oneshot,
			.set_state_oneshot_stopped = tick_fake_stopped,
			.set_state_shutdown = tick_fake_shutdown,
			.set_next_event = tick_fake_next_event,
			.event_handler = tick_fake_handler,
		},
	};
	struct tick_device *td;
	struct clock_event_device *real;
	enum tick_device_mode mode;
	unsigned long flags;
	ktime_t start, next;
	int preempt, preempt_after;
	bool hres;
	u64 rem;
	int i;

	/*
	 * Under high-resolution timers the hrtimers' resume programs the
	 * device too. Wait for the switch to them, which x86_64 makes once
	 * the TSC is calibrated, seconds after the suites start.
	 */
	for (i = 0; i < 250 && hrtimer_resolution >= TICK_NSEC; i++)
		msleep(20);
	hres = hrtimer_resolution < TICK_NSEC;
	if (!hres)
		kunit_info(test, "no high-resolution timers");
	if (hres && t->periodic)
		kunit_skip(test, "under high-resolution timers no tick device is periodic");

	clockevent_set_state(&f.dev, CLOCK_EVT_STATE_SHUTDOWN);
	local_irq_save(flags);
	td = this_cpu_ptr(&tick_cpu_device);
	real = td->evtdev;
	mode = td->mode;
	if (!real) {
		local_irq_restore(flags);
		kunit_skip(test, "this CPU has no tick device");
	}
	td->evtdev = &f.dev;
	td->mode = t->mode;
	next = READ_ONCE(tick_next_period);
	start = ktime_get();
	preempt = preempt_count();

	tick_resume_local();

	/* The real device back, and resumed as the syscore resume would */
	td->evtdev = real;
	td->mode = mode;
	tick_resume_local();
	/* The jiffies lock, when it forwards the tick, taken and dropped */
	preempt_after = preempt_count();
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, preempt_after, preempt);

	KUNIT_EXPECT_EQ(test, f.resumed, 1);
	KUNIT_EXPECT_EQ(test, f.periodic, t->periodic);
	KUNIT_EXPECT_EQ(test, f.oneshot, t->oneshot);
	KUNIT_EXPECT_EQ(test, f.programmed, t->programmed + hres);
	KUNIT_EXPECT_EQ(test, clockevent_get_state(&f.dev),
			t->periodic ? CLOCK_EVT_STATE_PERIODIC : CLOCK_EVT_STATE_ONESHOT);
	KUNIT_EXPECT_PTR_EQ(test, f.dev.event_handler,
			    t->mode == TICKDEV_MODE_PERIODIC ? tick_handle_periodic :
							       tick_fake_handler);
	if (!f.programmed)
		return;
	KUNIT_EXPECT_GE(test, f.first, start);
	if (t->on_grid) {
		div64_u64_rem(abs(f.first - next), TICK_NSEC, &rem);
		KUNIT_EXPECT_EQ_MSG(test, rem, 0, "first event %lld, tick_next_period %lld",
				    f.first, next);
	}
}

static struct kunit_case tick_period_test_cases[] = {
	KUNIT_CASE_PARAM(tick_period_forward_test, tick_period_gen_params),
	KUNIT_CASE(tick_period_walk_test),
	KUNIT_CASE_PARAM(tick_resume_local_test, tick_resume_gen_params),
	{}
};

static struct kunit_suite tick_period_suite = {
	.name = "tick_period",
	.test_cases = tick_period_test_cases,
};

kunit_test_suite(tick_period_suite);
