// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the time slept in a resume, in both modes of
 * monotonic_suspend=: by default the time slept goes into CLOCK_REALTIME
 * and CLOCK_BOOTTIME only (6.12); with the mode on it goes into
 * CLOCK_MONOTONIC too, and REALTIME - MONOTONIC stays as it was (4.17-rc,
 * commit d6ed449afdb3, reverted before the release).
 *
 * timekeeping_sleep works on copies of the timekeeper. timekeeping_live
 * injects time slept into the live one through the resume paths, so it
 * runs in a boot of its own for each mode: its _on cases skip unless the
 * kernel was booted with monotonic_suspend=on, its _off cases unless not.
 *
 * Included at the end of timekeeping.c.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/log2.h>
#include <linux/mount.h>
#include <linux/seq_file.h>
#include <linux/uio.h>
#ifdef CONFIG_GENERIC_TIME_VSYSCALL
#include <vdso/datapage.h>
#include <vdso/helpers.h>
#ifdef TIMEKEEPING_KUNIT_VDSO_EXTERN
/*
 * x86's <asm/vdso/vsyscall.h> of 6.1 defines the vDSO data, for
 * kernel/time/vsyscall.c alone: the 6.1 series' hook asks to declare it.
 */
extern struct vdso_data _vdso_data[CS_BASES];
#define tk_kunit_vdso_data()	_vdso_data
#else
#include <vdso/vsyscall.h>
#define tk_kunit_vdso_data()	__arch_get_k_vdso_data()
#endif
#endif

#define TK_SEC(s)		((s64)(s) * NSEC_PER_SEC)
#define TK_TS(s, ns)		((struct timespec64){ .tv_sec = (s), .tv_nsec = (ns) })
#define TK_HOUR			3600
#define TK_DAY			(24 * TK_HOUR)

/* What a timekeeper gives, at its cycle_last. */
struct tk_clocks {
	/* Read the way ktime_get() and the offsets do */
	ktime_t mono, raw, real, boot, active, boot_time;
	struct timespec64 mono_to_boot;
	ktime_t offs_boot, suspended;
	/* Read from the fields that update_vsyscall() copies to the vDSO */
	ktime_t vdso_mono, vdso_boot, vdso_raw, vdso_real;
	/* The shifted nanoseconds, below a second once normalized */
	u64 mono_nsec, raw_nsec, mono_second, raw_second;
};

static ktime_t tk_kunit_ns(u64 sec, u64 shifted_nsec, u32 shift)
{
	return ktime_add_ns(ktime_set(sec, 0), shifted_nsec >> shift);
}

static void tk_kunit_read(const struct timekeeper *tk, struct tk_clocks *c)
{
	u32 shift = tk->tkr_mono.shift;
	u64 sec = tk->xtime_sec + tk->wall_to_monotonic.tv_sec;
	u64 nsec = tk->tkr_mono.xtime_nsec + ((u64)tk->wall_to_monotonic.tv_nsec << shift);

	c->mono = ktime_add_ns(tk->tkr_mono.base, tk->tkr_mono.xtime_nsec >> shift);
	c->raw = ktime_add_ns(tk->tkr_raw.base, tk->tkr_raw.xtime_nsec >> tk->tkr_raw.shift);
	c->real = ktime_add(c->mono, tk->offs_real);
	c->boot = ktime_add(c->mono, tk->offs_boot);
	c->active = ktime_sub(c->mono, tk->time_suspended);
	c->boot_time = ktime_sub(c->real, c->boot);
	c->mono_to_boot = tk->monotonic_to_boot;
	c->offs_boot = tk->offs_boot;
	c->suspended = tk->time_suspended;

	c->vdso_mono = tk_kunit_ns(sec, nsec, shift);
	c->vdso_boot = tk_kunit_ns(sec + tk->monotonic_to_boot.tv_sec,
				   nsec + ((u64)tk->monotonic_to_boot.tv_nsec << shift), shift);
	c->vdso_raw = tk_kunit_ns(tk->raw_sec, tk->tkr_raw.xtime_nsec, tk->tkr_raw.shift);
	c->vdso_real = tk_kunit_ns(tk->xtime_sec, tk->tkr_mono.xtime_nsec, shift);

	c->mono_nsec = tk->tkr_mono.xtime_nsec;
	c->raw_nsec = tk->tkr_raw.xtime_nsec;
	c->mono_second = (u64)NSEC_PER_SEC << shift;
	c->raw_second = (u64)NSEC_PER_SEC << tk->tkr_raw.shift;
}

/* A copy of the live timekeeper, as booted in its mode: nothing slept yet. */
static struct timekeeper *tk_kunit_copy(struct kunit *test)
{
	struct timekeeper *tk = kunit_kzalloc(test, sizeof(*tk), GFP_KERNEL);
	unsigned int seq;

	KUNIT_ASSERT_NOT_NULL(test, tk);
	do {
		seq = read_seqcount_begin(&tk_core.seq);
		*tk = tk_core.timekeeper;
	} while (read_seqcount_retry(&tk_core.seq, seq));

	tk->offs_boot = 0;
	tk->monotonic_to_boot = TK_TS(0, 0);
	tk->time_suspended = 0;
	return tk;
}

struct tk_sleep_case {
	const char *desc;
	bool mono;			/* monotonic_suspend=on */
	unsigned int n;
	struct timespec64 slept[4];	/* one per suspend, in order */
};

static const struct tk_sleep_case tk_sleep_cases[] = {
	{ "off: 1 s", false, 1, { TK_TS(1, 0) } },
	{ "off: 1 ns", false, 1, { TK_TS(0, 1) } },
	{ "off: 100 s 999999999 ns, a carry into the seconds", false, 1,
	  { TK_TS(100, 999999999) } },
	{ "off: 1.5 s, 1 day, 1 ns, 3 days", false, 4,
	  { TK_TS(1, 500000000), TK_TS(TK_DAY, 0), TK_TS(0, 1), TK_TS(3 * TK_DAY, 7) } },
	{ "on: 1 s", true, 1, { TK_TS(1, 0) } },
	{ "on: 1 ns", true, 1, { TK_TS(0, 1) } },
	{ "on: 100 s 999999999 ns, a carry into the seconds", true, 1,
	  { TK_TS(100, 999999999) } },
	{ "on: 1.5 s, 1 day, 1 ns, 3 days", true, 4,
	  { TK_TS(1, 500000000), TK_TS(TK_DAY, 0), TK_TS(0, 1), TK_TS(3 * TK_DAY, 7) } },
	{ "on: four suspends of 1 hour", true, 4,
	  { TK_TS(TK_HOUR, 0), TK_TS(TK_HOUR, 0), TK_TS(TK_HOUR, 0), TK_TS(TK_HOUR, 0) } },
};

static void tk_sleep_case_desc(const struct tk_sleep_case *t, char *desc)
{
	strscpy(desc, t->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tk_sleep, tk_sleep_cases, tk_sleep_case_desc);

/* What every update leaves true, in both modes. */
static void tk_expect_consistent(struct kunit *test, const struct tk_clocks *c)
{
	struct timespec64 mono_to_boot = ktime_to_timespec64(c->offs_boot);

	/* The vDSO's clocks are the syscall ones. */
	KUNIT_EXPECT_EQ(test, c->vdso_mono, c->mono);
	KUNIT_EXPECT_EQ(test, c->vdso_boot, c->boot);
	KUNIT_EXPECT_EQ(test, c->vdso_raw, c->raw);
	KUNIT_EXPECT_EQ(test, c->vdso_real, c->real);
	KUNIT_EXPECT_EQ(test, c->mono_to_boot.tv_sec, mono_to_boot.tv_sec);
	KUNIT_EXPECT_EQ(test, c->mono_to_boot.tv_nsec, mono_to_boot.tv_nsec);
	/* Whole seconds are carried into the seconds (tk_normalize_xtime()) */
	KUNIT_EXPECT_LT(test, c->mono_nsec, c->mono_second);
	KUNIT_EXPECT_LT(test, c->raw_nsec, c->raw_second);
}

/*
 * One suspend of @d from @b to @a. Both modes: REALTIME and BOOTTIME move
 * by @d, the active monotonic time does not. Off (6.12): MONOTONIC and
 * MONOTONIC_RAW stay, REALTIME - MONOTONIC grows by @d, the boot time
 * stays. On: MONOTONIC and MONOTONIC_RAW move by @d and MONOTONIC is
 * BOOTTIME, REALTIME - MONOTONIC stays, time_suspended grows by @d. In
 * both, the boot time (REALTIME - BOOTTIME, what getboottime64() must
 * give) stays.
 */
static void tk_expect_slept(struct kunit *test, const struct tk_clocks *b,
			    const struct tk_clocks *a, ktime_t d, bool mono)
{
	ktime_t moved = mono ? d : 0;

	tk_expect_consistent(test, a);
	KUNIT_EXPECT_EQ(test, ktime_sub(a->real, b->real), d);
	KUNIT_EXPECT_EQ(test, ktime_sub(a->boot, b->boot), d);
	KUNIT_EXPECT_EQ(test, a->active, b->active);
	KUNIT_EXPECT_EQ(test, ktime_sub(a->mono, b->mono), moved);
	KUNIT_EXPECT_EQ(test, ktime_sub(a->raw, b->raw), moved);
	KUNIT_EXPECT_EQ(test, ktime_sub(a->real, a->mono),
			ktime_add(ktime_sub(b->real, b->mono), ktime_sub(d, moved)));
	KUNIT_EXPECT_EQ(test, ktime_sub(a->suspended, b->suspended), moved);
	KUNIT_EXPECT_EQ(test, a->boot_time, b->boot_time);
	if (mono) {
		KUNIT_EXPECT_EQ(test, a->boot, a->mono);
		KUNIT_EXPECT_EQ(test, a->offs_boot, 0);
	} else {
		KUNIT_EXPECT_EQ(test, a->suspended, 0);
	}
}

static void tk_sleep_test(struct kunit *test)
{
	const struct tk_sleep_case *t = test->param_value;
	struct timekeeper *tk = tk_kunit_copy(test);
	struct tk_clocks first, b, a;
	ktime_t total = 0;
	unsigned int i;

	tk_update_ktime_data(tk);
	tk_kunit_read(tk, &first);
	tk_expect_consistent(test, &first);
	b = first;
	for (i = 0; i < t->n; i++) {
		ktime_t d = timespec64_to_ktime(t->slept[i]);

		tk_inject_sleeptime(tk, &t->slept[i], t->mono);
		tk_update_ktime_data(tk);
		tk_kunit_read(tk, &a);
		tk_expect_slept(test, &b, &a, d, t->mono);
		total = ktime_add(total, d);
		b = a;
	}
	/* Over the whole sequence, too */
	tk_expect_slept(test, &first, &a, total, t->mono);
}

/*
 * __timekeeping_inject_sleeptime() takes only a valid time slept
 * (timespec64_valid_strict()): anything else is refused with a warning
 * and leaves every clock as it was. In the boot's mode.
 */
struct tk_inject_case {
	const char *desc;
	struct timespec64 slept;
	bool valid;
};

static const struct tk_inject_case tk_inject_cases[] = {
	{ "1 s", TK_TS(1, 0), true },
	{ "0", TK_TS(0, 0), true },
	{ "999999999 ns, the largest nanoseconds", TK_TS(0, 999999999), true },
	{ "-1 s", TK_TS(-1, 0), false },
	{ "-1 ns", TK_TS(0, -1), false },
	{ "1000000000 ns, nanoseconds of a whole second", TK_TS(0, NSEC_PER_SEC), false },
	{ "KTIME_SEC_MAX s, past what ktime_t holds", TK_TS(KTIME_SEC_MAX, 0), false },
};

KUNIT_ARRAY_PARAM_DESC(tk_inject, tk_inject_cases, desc);

static void tk_inject_test(struct kunit *test)
{
	const struct tk_inject_case *t = test->param_value;
	struct timekeeper *tk = tk_kunit_copy(test);
	bool mono = timekeeping_monotonic_suspend();
	struct tk_clocks b, a;

	tk_update_ktime_data(tk);
	tk_kunit_read(tk, &b);
	__timekeeping_inject_sleeptime(tk, &t->slept);
	tk_update_ktime_data(tk);
	tk_kunit_read(tk, &a);
	if (t->valid) {
		tk_expect_slept(test, &b, &a, timespec64_to_ktime(t->slept), mono);
		return;
	}
	KUNIT_EXPECT_EQ(test, a.mono, b.mono);
	KUNIT_EXPECT_EQ(test, a.raw, b.raw);
	KUNIT_EXPECT_EQ(test, a.real, b.real);
	KUNIT_EXPECT_EQ(test, a.boot, b.boot);
	KUNIT_EXPECT_EQ(test, a.suspended, b.suspended);
}

static struct kunit_case timekeeping_sleep_cases[] = {
	KUNIT_CASE_PARAM(tk_sleep_test, tk_sleep_gen_params),
	KUNIT_CASE_PARAM(tk_inject_test, tk_inject_gen_params),
	{}
};

static struct kunit_suite timekeeping_sleep_suite = {
	.name = "timekeeping_sleep",
	.test_cases = timekeeping_sleep_cases,
};

/*
 * The live timekeeper. The time slept is far more than a test takes, so
 * that a jiffies count fast forwarded by it cannot be mistaken for the
 * ticks of the test.
 */
#define TK_LIVE_SLEPT		TK_TS(100, 123456789)
#define TK_LIVE_SLACK		TK_SEC(2)	/* the most a case takes under TCG */

struct tk_live {
	ktime_t mono, raw, offs_real, offs_boot, suspended, next_period;
	struct timespec64 boot_time;
	u64 jiffies;
};

static void tk_live_read(struct tk_live *l)
{
	struct timekeeper *tk = &tk_core.timekeeper;
	unsigned int seq;

	/*
	 * The jiffies and the tick's clock, updated together; before the
	 * time, so that the next period is at most a period past it.
	 */
	do {
		seq = read_seqcount_begin(&jiffies_seq);
		l->next_period = tick_next_period;
		l->jiffies = jiffies_64;
	} while (read_seqcount_retry(&jiffies_seq, seq));
	do {
		seq = read_seqcount_begin(&tk_core.seq);
		l->mono = ktime_add_ns(tk->tkr_mono.base, timekeeping_get_ns(&tk->tkr_mono));
		l->raw = ktime_add_ns(tk->tkr_raw.base, timekeeping_get_ns(&tk->tkr_raw));
		l->offs_real = tk->offs_real;
		l->offs_boot = tk->offs_boot;
		l->suspended = tk->time_suspended;
	} while (read_seqcount_retry(&tk_core.seq, seq));
	getboottime64(&l->boot_time);
}

/* The time between two reads that is not the time slept: ticks of the test. */
static void tk_expect_elapsed(struct kunit *test, ktime_t from, ktime_t to, ktime_t slept)
{
	ktime_t e = ktime_sub(ktime_sub(to, from), slept);

	KUNIT_EXPECT_GE(test, e, 0);
	KUNIT_EXPECT_LT(test, e, TK_LIVE_SLACK);
}

/* The vDSO's bases are the timekeeper's, in either mode. */
static void tk_expect_vdso(struct kunit *test)
{
#ifdef CONFIG_GENERIC_TIME_VSYSCALL
	const struct vdso_data *vd = tk_kunit_vdso_data();
	const struct vdso_timestamp *ts = vd[CS_HRES_COARSE].basetime;
	const struct vdso_timestamp *rts = vd[CS_RAW].basetime;
	struct timekeeper *tk = &tk_core.timekeeper;
	ktime_t mono, boot, raw, vmono, vboot, vraw;
	unsigned int seq;
	u32 shift;

	if (vd[CS_HRES_COARSE].clock_mode == VDSO_CLOCKMODE_NONE) {
		kunit_info(test, "vDSO not checked: it does not read clocksource %s",
			   tk->tkr_mono.clock->name);
		return;
	}
	do {
		seq = read_seqcount_begin(&tk_core.seq);
		shift = tk->tkr_mono.shift;
		mono = ktime_add_ns(tk->tkr_mono.base, tk->tkr_mono.xtime_nsec >> shift);
		boot = ktime_add(mono, tk->offs_boot);
		raw = ktime_add_ns(tk->tkr_raw.base, tk->tkr_raw.xtime_nsec >> tk->tkr_raw.shift);
		vmono = tk_kunit_ns(ts[CLOCK_MONOTONIC].sec, ts[CLOCK_MONOTONIC].nsec, shift);
		vboot = tk_kunit_ns(ts[CLOCK_BOOTTIME].sec, ts[CLOCK_BOOTTIME].nsec, shift);
		vraw = tk_kunit_ns(rts[CLOCK_MONOTONIC_RAW].sec, rts[CLOCK_MONOTONIC_RAW].nsec,
				   tk->tkr_raw.shift);
	} while (read_seqcount_retry(&tk_core.seq, seq));

	KUNIT_EXPECT_EQ(test, vmono, mono);
	KUNIT_EXPECT_EQ(test, vboot, boot);
	KUNIT_EXPECT_EQ(test, vraw, raw);
#else
	kunit_info(test, "vDSO not checked: no generic vDSO data");
#endif
}

/*
 * The tick in one-shot mode on every CPU, as it runs after boot, where
 * tick-sched updates the jiffies: x86 switches once its TSC is calibrated,
 * which can be after the suites start, and each CPU switches on its own
 * tick. Before that the tick is periodic. The first jiffies update after
 * the first switch moves tick_next_period by a period more than the
 * jiffies (tick_init_jiffy_update() starts last_jiffies_update at the next
 * period), so the wait ends a sleep after the last switch.
 */
static bool tk_live_all_oneshot(void)
{
	int cpu;

	for_each_online_cpu(cpu)
		if (tick_get_device(cpu)->mode != TICKDEV_MODE_ONESHOT)
			return false;
	return true;
}

static void tk_live_wait_oneshot(struct kunit *test)
{
	int i;

	for (i = 0; i < 250 && !tk_live_all_oneshot(); i++)
		msleep(20);
	if (!tk_live_all_oneshot())
		kunit_info(test, "the tick is periodic");
	/* the jiffies move at least once in a sleep: it ends on a timer of the wheel */
	msleep(20);
}

/*
 * Every CPU's tick device runs again after the resume, in its tick's mode:
 * one-shot (or stopped, on an idle CPU with nothing to wait for) for a
 * one-shot tick, with a one-shot handler; periodic, or one-shot driven by
 * the periodic handler on a device that has no periodic mode, for a
 * periodic one; none left shut down.
 */
static void tk_expect_ticks_resumed(struct kunit *test)
{
	int cpu;

	for_each_online_cpu(cpu) {
		struct tick_device *td = tick_get_device(cpu);
		struct clock_event_device *dev = td->evtdev;
		bool ok;

		if (!dev)
			continue;
		if (td->mode == TICKDEV_MODE_ONESHOT)
			ok = (clockevent_state_oneshot(dev) ||
			      clockevent_state_oneshot_stopped(dev)) &&
			     dev->event_handler != tick_handle_periodic;
		else
			ok = clockevent_state_periodic(dev) ||
			     dev->event_handler == tick_handle_periodic;
		KUNIT_EXPECT_TRUE_MSG(test, ok, "CPU %d's tick device %s: state %d in %s mode", cpu,
				      dev->name, dev->state_use_accessors,
				      td->mode == TICKDEV_MODE_ONESHOT ? "one-shot" : "periodic");
	}
}

static void tk_live_test(struct kunit *test, bool mono, void (*resume)(const struct timespec64 *))
{
	struct timespec64 slept = TK_LIVE_SLEPT;
	ktime_t d = timespec64_to_ktime(slept), moved = mono ? d : 0;
	struct tk_live b, a;
	ktime_t active, forwarded;
	s64 counted;
	int preempt;

	if (timekeeping_monotonic_suspend() != mono)
		kunit_skip(test, "needs a boot with monotonic_suspend=%s", mono ? "on" : "off");
	/*
	 * In both modes: a switch to one-shot inside the case moves
	 * tick_next_period by a part of a period (tick_init_jiffy_update()
	 * rounds it up), which the count below would take for the case's.
	 */
	tk_live_wait_oneshot(test);

	tk_live_read(&b);
	preempt = preempt_count();
	resume(&slept);
	/* The timekeeper's and the jiffies' locks each taken and dropped */
	KUNIT_EXPECT_EQ(test, preempt_count(), preempt);
	/* Let the tick run: a few periods, far fewer than the time slept */
	msleep(100);
	tk_live_read(&a);
	active = ktime_get_active();

	tk_expect_elapsed(test, b.mono, a.mono, moved);
	tk_expect_elapsed(test, b.raw, a.raw, moved);
	KUNIT_EXPECT_EQ(test, ktime_sub(a.offs_real, b.offs_real), ktime_sub(d, moved));
	KUNIT_EXPECT_EQ(test, ktime_sub(a.offs_boot, b.offs_boot), ktime_sub(d, moved));
	KUNIT_EXPECT_EQ(test, ktime_sub(a.suspended, b.suspended), moved);
	/*
	 * getboottime64() is CLOCK_REALTIME - CLOCK_BOOTTIME, in both modes:
	 * /proc/stat's btime, to which ps adds a task's start_boottime.
	 */
	KUNIT_EXPECT_EQ(test, timespec64_to_ktime(a.boot_time),
			ktime_sub(a.offs_real, a.offs_boot));
	KUNIT_EXPECT_EQ(test, timespec64_to_ktime(a.boot_time), timespec64_to_ktime(b.boot_time));
	if (mono) {
		/* CLOCK_MONOTONIC is CLOCK_BOOTTIME */
		KUNIT_EXPECT_EQ(test, a.offs_boot, 0);
		KUNIT_EXPECT_EQ(test, ktime_mono_to_any(a.mono, TK_OFFS_BOOT), a.mono);
	}
	tk_expect_elapsed(test, ktime_sub(a.mono, a.suspended), active, 0);

	/*
	 * The jiffies count the time awake, in ticks, on every CPU's tick,
	 * exactly: the tick's clock, tick_next_period, moved by a period for
	 * each jiffy and, in the mode, by the time slept rounded up to a
	 * period, once however many CPUs forwarded it. Neither fast
	 * forwarded by the time slept nor short, a tick that has not run yet
	 * or an idle CPU's stopped tick included, since it is read with the
	 * jiffies. And the tick is on time. Both: a tick that was not
	 * forwarded shows at once in the jiffies when the tick is one-shot
	 * (tick-sched catches up), but only later when it is periodic on a
	 * periodic clock event device (x86's early boot), where each tick
	 * adds one period to tick_next_period and the jump comes at the
	 * switch to one-shot mode.
	 */
	counted = a.jiffies - b.jiffies;
	forwarded = mono ? roundup(d, TICK_NSEC) : 0;
	KUNIT_EXPECT_EQ_MSG(test, ktime_sub(a.next_period, b.next_period),
			    counted * TICK_NSEC + forwarded,
			    "%d CPUs: %lld jiffies in %lld ns awake, %lld ns slept",
			    num_online_cpus(), counted,
			    ktime_sub(ktime_sub(a.mono, b.mono), moved), d);
	KUNIT_EXPECT_LT(test, counted, div_s64(TK_LIVE_SLACK, TICK_NSEC));
	/*
	 * The next period is at most two ahead of now (the jiffies update
	 * sets it a period past a time that has come, the forwarding up to
	 * a period past the time slept), and behind only by the ticks not
	 * yet taken (a tick that has not run yet, or an idle CPU's stopped
	 * tick).
	 */
	KUNIT_EXPECT_LE(test, ktime_sub(a.next_period, a.mono), 2 * TICK_NSEC);
	KUNIT_EXPECT_GT(test, ktime_sub(a.next_period, a.mono), -TK_LIVE_SLACK);

	tk_expect_ticks_resumed(test);
	tk_expect_vdso(test);
}

/*
 * The RTC's resume path: rtc_resume() injects the time slept, after a
 * timekeeping_suspend() that left it to the RTC (no persistent clock, no
 * clocksource that counts in suspend).
 */
static void tk_live_rtc_resume(const struct timespec64 *slept)
{
#if defined(CONFIG_PM_SLEEP) && defined(CONFIG_RTC_HCTOSYS_DEVICE)
	suspend_timing_needed = true;
	timekeeping_inject_sleeptime64(slept);
#endif
}

/* Whether another RTC's rtc_resume() would inject the time slept again */
static bool tk_live_rtc_skipresume(void)
{
#if defined(CONFIG_PM_SLEEP) && defined(CONFIG_RTC_HCTOSYS_DEVICE)
	return timekeeping_rtc_skipresume();
#else
	return true;
#endif
}

/*
 * The syscore path, on every CPU online, as a suspend to idle takes it
 * (tick_freeze(), tick_unfreeze()) and S3 on the boot CPU with the others
 * offline: every CPU's tick stops (tick_suspend_local()), the first CPU
 * injects the time slept as timekeeping_resume() does and restarts its
 * tick (tick_resume_local()), then the others restart theirs. The
 * clocksource and the clock event devices stay up. stop_machine() runs
 * it on every CPU online, interrupts off.
 */
struct tk_live_freeze {
	const struct timespec64 *slept;
	unsigned int first;
	atomic_t stopped, resumed;
};

static void tk_live_wait(atomic_t *v, int n)
{
	while (atomic_read(v) < n)
		cpu_relax();
}

static int tk_live_freeze_cpu(void *data)
{
	struct tk_live_freeze *f = data;
	struct timekeeper *tk = &tk_core.timekeeper;

	tick_suspend_local();
	atomic_inc(&f->stopped);
	tk_live_wait(&f->stopped, num_online_cpus());

	if (smp_processor_id() == f->first) {
		raw_spin_lock(&timekeeper_lock);
		write_seqcount_begin(&tk_core.seq);
		timekeeping_forward_now(tk);
		__timekeeping_inject_sleeptime(tk, f->slept);
		timekeeping_update(tk, TK_MIRROR | TK_CLOCK_WAS_SET);
		write_seqcount_end(&tk_core.seq);
		raw_spin_unlock(&timekeeper_lock);
	} else {
		tk_live_wait(&f->resumed, 1);
	}
	tick_resume_local();
	atomic_inc(&f->resumed);
	return 0;
}

static void tk_live_tick_resume(const struct timespec64 *slept)
{
	struct tk_live_freeze f = {
		.slept = slept,
		.first = cpumask_first(cpu_online_mask),
	};

	stop_machine(tk_live_freeze_cpu, &f, cpu_online_mask);
}

static void tk_live_needs_rtc(struct kunit *test)
{
	if (!IS_ENABLED(CONFIG_PM_SLEEP) || !IS_ENABLED(CONFIG_RTC_HCTOSYS))
		kunit_skip(test, "needs CONFIG_PM_SLEEP and CONFIG_RTC_HCTOSYS");
}

static void tk_live_rtc_off(struct kunit *test)
{
	tk_live_needs_rtc(test);
	tk_live_test(test, false, tk_live_rtc_resume);
}

static void tk_live_rtc_on(struct kunit *test)
{
	tk_live_needs_rtc(test);
	tk_live_test(test, true, tk_live_rtc_resume);
}

static void tk_live_tick_off(struct kunit *test)
{
	tk_live_test(test, false, tk_live_tick_resume);
}

static void tk_live_tick_on(struct kunit *test)
{
	tk_live_test(test, true, tk_live_tick_resume);
}

/*
 * Another CPU's tick on the RTC's path. rtc_resume() injects the time
 * slept with the ticks of the other CPUs running: a tick that updates the
 * jiffies after CLOCK_MONOTONIC has jumped and before the tick is
 * forwarded counts the time slept. A thread on another CPU stands for
 * that tick. While this CPU injects, inside the timekeeper's update (the
 * pvclock notifier, which timekeeping_update() calls), it tells the
 * thread to take jiffies_lock, as tick_do_update_jiffies64() does, and
 * waits until the thread has it or found it taken. Holding it, the thread
 * reads CLOCK_MONOTONIC and tick_next_period: what the tick would count
 * is how far the clock is past the tick's next period. The window is
 * closed when that is at most a period, and the thread could only have
 * the lock after the forwarding.
 *
 * The thread's CPU takes no interrupt from before the injection until it
 * has answered: a tick there would wait for jiffies_lock or the
 * timekeeper's seqcount, which the injection holds while it waits for the
 * thread, and the round would only time out. Every CPU's tick is on the
 * same grid, and this task's sleeps often end on its own CPU's tick: the
 * injection would often start as the other CPU's tick does.
 */
#define TK_LIVE_ROUNDS	5

enum {
	TK_CPU_IDLE,
	TK_CPU_READY,	/* the thread runs, interrupts on */
	TK_CPU_ARM,	/* this task asks it to turn them off */
	TK_CPU_ARMED,	/* it did and waits for the notifier */
	TK_CPU_GO,	/* the notifier tells it to take jiffies_lock */
	TK_CPU_HELD,	/* it had it at once */
	TK_CPU_BUSY,	/* it found it taken */
	TK_CPU_DONE,
};

struct tk_live_cpu {
	struct notifier_block nb;
	unsigned int cpu;	/* the injecting CPU */
	atomic_t state;
	bool armed;
	ktime_t ahead;		/* CLOCK_MONOTONIC past tick_next_period */
	bool held;		/* the thread had jiffies_lock in the window */
	ktime_t suspended;	/* the timekeeper's time_suspended before */
	bool late;		/* the thread did not answer the notifier in time */
};

/*
 * At most about @us microseconds for @v to reach @n or more, spinning: for
 * the thread, which must be running when the notifier tells it to go, and
 * for the notifier, which cannot sleep.
 */
static bool tk_live_wait_us(atomic_t *v, int n, unsigned int us)
{
	while (atomic_read(v) < n && us--)
		udelay(1);
	return atomic_read(v) >= n;
}

/*
 * About @ms milliseconds or more for @v to reach @n or more, sleeping: for the
 * injecting task, outside the injection. A stop_machine() (a clocksource
 * change: the TSC's refined calibration) holds the thread's CPU in its
 * stopper until this CPU's stopper has run too, which with PREEMPT_NONE
 * is when this task sleeps.
 */
static bool tk_live_sleep_ms(atomic_t *v, int n, unsigned int ms)
{
	while (atomic_read(v) < n && ms--)
		usleep_range(USEC_PER_MSEC, 2 * USEC_PER_MSEC);
	return atomic_read(v) >= n;
}

static int tk_live_cpu_thread(void *data)
{
	struct tk_live_cpu *t = data;
	unsigned long flags;

	atomic_set(&t->state, TK_CPU_READY);
	if (!tk_live_wait_us(&t->state, TK_CPU_ARM, 10 * USEC_PER_SEC))
		goto done;
	local_irq_save(flags);
	atomic_set(&t->state, TK_CPU_ARMED);
	/* Not told in time: give up, unless the notifier has just told it */
	if (tk_live_wait_us(&t->state, TK_CPU_GO, USEC_PER_SEC) ||
	    atomic_cmpxchg(&t->state, TK_CPU_ARMED, TK_CPU_DONE) != TK_CPU_ARMED) {
		t->held = raw_spin_trylock(&jiffies_lock);
		atomic_set(&t->state, t->held ? TK_CPU_HELD : TK_CPU_BUSY);
		if (!t->held)
			raw_spin_lock(&jiffies_lock);
		t->ahead = ktime_sub(ktime_get(), tick_next_period);
		raw_spin_unlock(&jiffies_lock);
	}
	local_irq_restore(flags);
done:
	atomic_set(&t->state, TK_CPU_DONE);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static int tk_live_cpu_notify(struct notifier_block *nb, unsigned long action, void *priv)
{
	struct tk_live_cpu *t = container_of(nb, struct tk_live_cpu, nb);
	struct timekeeper *tk = priv;

	/* The update of the injection: the time slept is in */
	if (!READ_ONCE(t->armed) || smp_processor_id() != t->cpu ||
	    tk->time_suspended == t->suspended)
		return NOTIFY_DONE;
	WRITE_ONCE(t->armed, false);
	/* The thread gave up waiting */
	if (atomic_cmpxchg(&t->state, TK_CPU_ARMED, TK_CPU_GO) != TK_CPU_ARMED) {
		t->late = true;
		return NOTIFY_DONE;
	}
	t->late = !tk_live_wait_us(&t->state, TK_CPU_HELD, USEC_PER_SEC);
	return NOTIFY_DONE;
}

static void tk_live_cpu_unregister(void *nb)
{
	pvclock_gtod_unregister_notifier(nb);
}

/*
 * One injection with the thread on @other standing for its tick. False
 * when the thread was not armed in time, or answered too late to tell: a
 * thread held off between the notifier's call and its try (the
 * stop_machine() of a clocksource change, when the TSC is recalibrated)
 * takes the lock after the injection, whichever order the injection keeps.
 */
static bool tk_live_rtc_round(struct kunit *test, struct tk_live_cpu *t, unsigned int other)
{
	struct timespec64 slept = TK_LIVE_SLEPT;
	struct task_struct *thread;
	bool injected;
	ktime_t lag = 0;

	atomic_set(&t->state, TK_CPU_IDLE);
	t->late = false;
	thread = kthread_create_on_cpu(tk_live_cpu_thread, t, other, "tk_live_cpu/%u");
	if (IS_ERR(thread)) {
		KUNIT_FAIL(test, "no thread on CPU %u: %ld", other, PTR_ERR(thread));
		return true;
	}
	wake_up_process(thread);
	tk_live_sleep_ms(&t->state, TK_CPU_READY, 10 * MSEC_PER_SEC);
	/* The thread's CPU with interrupts off, or a late round */
	injected = atomic_cmpxchg(&t->state, TK_CPU_READY, TK_CPU_ARM) == TK_CPU_READY &&
		   tk_live_sleep_ms(&t->state, TK_CPU_ARMED, MSEC_PER_SEC) &&
		   atomic_read(&t->state) == TK_CPU_ARMED;
	if (injected) {
		t->suspended = timekeeping_time_suspended();
		/* Ticks that have not run yet: time awake the tick still counts */
		lag = max_t(ktime_t, ktime_sub(ktime_get(), READ_ONCE(tick_next_period)), 0);
		WRITE_ONCE(t->armed, true);
		timekeeping_inject_sleeptime64(&slept);
	}
	tk_live_sleep_ms(&t->state, TK_CPU_DONE, 10 * MSEC_PER_SEC);
	kthread_stop(thread);

	if (atomic_read(&t->state) != TK_CPU_DONE || READ_ONCE(t->armed)) {
		KUNIT_FAIL(test, "the thread on CPU %u did not run, or the notifier was not called",
			   other);
		return true;
	}
	if (!injected || t->late)
		return false;
	KUNIT_EXPECT_LE_MSG(test, t->ahead, lag + TICK_NSEC + TK_LIVE_SLACK,
			    "CPU %u's tick, %s jiffies_lock while CPU %u injected %lld s slept, saw CLOCK_MONOTONIC %lld ns past tick_next_period: it would count the time slept",
			    other, t->held ? "taking" : "waiting for", t->cpu,
			    (s64)slept.tv_sec, t->ahead);
	KUNIT_EXPECT_FALSE_MSG(test, t->held,
			       "jiffies_lock was free while CLOCK_MONOTONIC jumped");
	return true;
}

static void tk_live_rtc_smp_on(struct kunit *test)
{
	struct tk_live_cpu *t;
	unsigned int other;
	int round;

	tk_live_needs_rtc(test);
	if (!timekeeping_monotonic_suspend())
		kunit_skip(test, "needs a boot with monotonic_suspend=on");
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs (the mono-suspend boot has -smp 2)");

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->nb.notifier_call = tk_live_cpu_notify;
	KUNIT_ASSERT_EQ(test, pvclock_gtod_register_notifier(&t->nb), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tk_live_cpu_unregister, &t->nb), 0);

	migrate_disable();
	t->cpu = smp_processor_id();
	other = cpumask_any_but(cpu_online_mask, t->cpu);
	for (round = 0; round < TK_LIVE_ROUNDS; round++)
		if (tk_live_rtc_round(test, t, other))
			break;
	migrate_enable();
	if (round == TK_LIVE_ROUNDS)
		KUNIT_FAIL(test, "the thread on CPU %u answered late %d times", other, round);
	else if (round)
		kunit_info(test, "the thread answered late %d times", round);
}

/*
 * The RTC's path, once the time slept is injected: no other RTC injects it
 * again, and the timekeeper's update is as its listeners get it (the
 * pvclock notifier, KVM's on x86): once, from the injecting task with
 * interrupts off, as every update is made, flagged as a clock set, and
 * with the time slept already in: the offset of CLOCK_BOOTTIME (mode off)
 * or the time suspended that CLOCK_MONOTONIC counts (mode on) grows by
 * it. Updates of the ticks (interrupts) and of other CPUs are not the
 * injection's. Then clock_was_set() brings the hrtimers' copy of the
 * offsets up to date on every CPU at once (when this CPU's timers are high
 * resolution or the tick is tickless; else its next tick does): a timer
 * on CLOCK_BOOTTIME expires by the new time. A tick between the
 * injection and the read would do it too, so a missing clock_was_set()
 * shows but most of the time.
 */
DECLARE_PER_CPU(struct hrtimer_cpu_base, hrtimer_bases);	/* hrtimer.c */

struct tk_live_update {
	struct notifier_block nb;
	unsigned int cpu;
	int calls;
	bool irqs_off;
	unsigned long was_set;
	ktime_t slept;		/* offs_boot + time_suspended the listener saw */
};

static int tk_live_update_notify(struct notifier_block *nb, unsigned long was_set, void *priv)
{
	struct tk_live_update *u = container_of(nb, struct tk_live_update, nb);
	struct timekeeper *tk = priv;

	if (smp_processor_id() != READ_ONCE(u->cpu) || !in_task())
		return NOTIFY_DONE;
	u->calls++;
	u->irqs_off = irqs_disabled();
	u->was_set = was_set;
	u->slept = ktime_add(tk->offs_boot, tk->time_suspended);
	return NOTIFY_DONE;
}

static void tk_live_rtc_update_on(struct kunit *test)
{
	struct timespec64 slept = TK_LIVE_SLEPT;
	struct hrtimer_cpu_base *base;
	struct tk_live_update *u;
	struct tk_live b, a;
	ktime_t timer_offs;
	bool updated;

	tk_live_needs_rtc(test);
	tk_live_wait_oneshot(test);	/* tickless: clock_was_set() has the hrtimers to update */
	u = kunit_kzalloc(test, sizeof(*u), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, u);
	u->nb.notifier_call = tk_live_update_notify;
	u->cpu = UINT_MAX;	/* the registration's own call is not counted */
	KUNIT_ASSERT_EQ(test, pvclock_gtod_register_notifier(&u->nb), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tk_live_cpu_unregister, &u->nb), 0);

	migrate_disable();
	base = raw_cpu_ptr(&hrtimer_bases);
	updated = base->hres_active || tick_nohz_active;
	WRITE_ONCE(u->cpu, smp_processor_id());
	tk_live_read(&b);
	tk_live_rtc_resume(&slept);
	timer_offs = READ_ONCE(base->clock_base[HRTIMER_BASE_BOOTTIME].offset);
	WRITE_ONCE(u->cpu, UINT_MAX);
	migrate_enable();
	tk_live_read(&a);

	KUNIT_EXPECT_TRUE_MSG(test, tk_live_rtc_skipresume(),
			      "a second RTC would inject the time slept again");
	KUNIT_EXPECT_EQ(test, u->calls, 1);
	KUNIT_EXPECT_TRUE(test, u->irqs_off);
	KUNIT_EXPECT_EQ(test, u->was_set, 1);
	KUNIT_EXPECT_EQ(test, u->slept,
			ktime_add(ktime_add(b.offs_boot, b.suspended), timespec64_to_ktime(slept)));
	if (updated)
		KUNIT_EXPECT_EQ_MSG(test, timer_offs, a.offs_boot,
				    "the hrtimers' CLOCK_BOOTTIME offset is not the new one");
	else
		kunit_info(test, "periodic low resolution tick: its next tick updates the hrtimers");
}

#define TK_PARAM "monotonic_suspend="

/*
 * The mode is the one the boot asked for: the last monotonic_suspend= of
 * the command line, else CONFIG_TIME_MONOTONIC_SUSPEND. Each direction of
 * the override is booted: the mono-suspend boot turns the mode on over a
 * kernel built without it, and the debug leg, built with
 * CONFIG_TIME_MONOTONIC_SUSPEND=y, boots with monotonic_suspend=off
 * (kunit/configs/debug.config, kunit/runner.py). Named _on so that the
 * mono-suspend boot's filter takes it; it runs, and never skips, in
 * every boot that passes "on", "off" or nothing.
 */
static void tk_live_mode_on(struct kunit *test)
{
	bool want = IS_ENABLED(CONFIG_TIME_MONOTONIC_SUSPEND);
	const char *p = saved_command_line, *arg = NULL;

	while ((p = strstr(p, TK_PARAM))) {
		p += strlen(TK_PARAM);
		arg = p;
	}
	if (arg) {
		size_t len = strcspn(arg, " ");

		if (len == 2 && !strncmp(arg, "on", 2))
			want = true;
		else if (len == 3 && !strncmp(arg, "off", 3))
			want = false;
		else
			kunit_skip(test, "booted with %s%.*s, not on or off", TK_PARAM,
				   (int)len, arg);
	}
	KUNIT_EXPECT_EQ_MSG(test, timekeeping_monotonic_suspend(), want,
			    "booted with %s, built with CONFIG_TIME_MONOTONIC_SUSPEND=%c",
			    arg ? arg - strlen(TK_PARAM) : "no " TK_PARAM,
			    IS_ENABLED(CONFIG_TIME_MONOTONIC_SUSPEND) ? 'y' : 'n');
}

/*
 * ktime_get_active() with interrupts off, where no tick of this CPU can
 * update the timekeeper under it: one read, CLOCK_MONOTONIC less the
 * time slept that it counts.
 */
static void tk_live_active_no_irqs(struct kunit *test)
{
	ktime_t before, active, after, suspended;
	unsigned long flags;

	local_irq_save(flags);
	before = ktime_get();
	active = ktime_get_active();
	after = ktime_get();
	local_irq_restore(flags);
	suspended = timekeeping_time_suspended();

	KUNIT_EXPECT_GE(test, ktime_add(active, suspended), before);
	KUNIT_EXPECT_LE(test, ktime_add(active, suspended), after);
}

/*
 * The time slept as debugfs shows it (/sys/kernel/debug/sleep_time,
 * timekeeping_debug.c): each injection of a valid time counts once, in
 * the bin of its whole seconds (0 - 1, 1 - 2, ... 2^30 - 2^31 and up),
 * whichever mode the boot has; a time refused counts nowhere. The case
 * mounts debugfs for itself and reads the file as a user would.
 */
#define TK_SLEEP_BINS	32

struct tk_sleep_bin_case {
	const char *desc;
	struct timespec64 slept;
	int bin;		/* the bin it counts in, -1: refused */
};

static const struct tk_sleep_bin_case tk_sleep_bin_cases[] = {
	{ "0 s: 0 - 1",			TK_TS(0, 0),			0 },
	{ "500 ms: 0 - 1",		TK_TS(0, 500000000),		0 },
	{ "1 s: 1 - 2",			TK_TS(1, 0),			1 },
	{ "3.999999999 s: 2 - 4",	TK_TS(3, 999999999),		2 },
	{ "4 s: 4 - 8",			TK_TS(4, 0),			3 },
	{ "100.123456789 s: 64 - 128",	TK_LIVE_SLEPT,		7 },
	{ "one second of nanoseconds: refused", TK_TS(0, NSEC_PER_SEC), -1 },
	{ "a negative second: refused",	TK_TS(-1, 0),			-1 },
};

KUNIT_ARRAY_PARAM_DESC(tk_sleep_bin, tk_sleep_bin_cases, desc);

static void tk_live_mntput(void *mnt)
{
	mntput(mnt);
}

static void tk_live_fput(void *f)
{
	fput(f);
}

/* debugfs, mounted for the case until it ends */
static struct vfsmount *tk_live_mount_debugfs(struct kunit *test)
{
	struct file_system_type *type = get_fs_type("debugfs");
	struct vfsmount *mnt;

	KUNIT_ASSERT_NOT_NULL(test, type);
	mnt = vfs_kern_mount(type, 0, "debugfs", NULL);
	put_filesystem(type);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mnt), "cannot mount debugfs: %ld", PTR_ERR(mnt));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tk_live_mntput, mnt), 0);
	return mnt;
}

static void tk_live_read_sleep_bins(struct kunit *test, struct vfsmount *mnt,
				    unsigned int *bins)
{
	unsigned int lo, hi, count;
	char *buf, *line, *next;
	struct iov_iter iter;
	int fields;
	struct kiocb kiocb;
	struct kvec kv;
	struct file *f;
	ssize_t n;

	f = file_open_root_mnt(mnt, "sleep_time", O_RDONLY, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(f), "no sleep_time in debugfs: %ld", PTR_ERR(f));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tk_live_fput, f), 0);
	buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	kv.iov_base = buf;
	kv.iov_len = PAGE_SIZE - 1;
	/*
	 * debugfs's proxy of the file has no read_iter, which kernel_read()
	 * needs; its open opened the seq_file the proxy reads from.
	 */
	init_sync_kiocb(&kiocb, f);
	iov_iter_kvec(&iter, READ, &kv, 1, kv.iov_len);
	n = seq_read_iter(&kiocb, &iter);
	KUNIT_ASSERT_GT(test, n, 0);
	kunit_release_action(test, tk_live_fput, f);

	memset(bins, 0, TK_SLEEP_BINS * sizeof(*bins));
	/* Two lines of heading, then "%10u - %-10u %4u" for each bin counted */
	line = strchr(buf, '\n');
	KUNIT_ASSERT_NOT_NULL(test, line);
	line = strchr(line + 1, '\n');
	KUNIT_ASSERT_NOT_NULL(test, line);
	for (line++; *line; line = next) {
		next = strchrnul(line, '\n');
		if (*next)
			*next++ = '\0';
		fields = sscanf(line, "%u - %u %u", &lo, &hi, &count);
		KUNIT_ASSERT_EQ_MSG(test, fields, 3, "sleep_time: \"%s\"", line);
		KUNIT_ASSERT_TRUE_MSG(test, is_power_of_2(hi) && lo == hi / 2 &&
				      ilog2(hi) < TK_SLEEP_BINS, "sleep_time: \"%s\"", line);
		bins[ilog2(hi)] = count;
	}
}

static void tk_live_sleep_time_test(struct kunit *test)
{
	const struct tk_sleep_bin_case *c = test->param_value;
	unsigned int *before, *after;
	struct vfsmount *mnt;
	int bin;

	tk_live_needs_rtc(test);
	if (!IS_ENABLED(CONFIG_DEBUG_FS))
		kunit_skip(test, "needs CONFIG_DEBUG_FS");
	before = kunit_kcalloc(test, 2 * TK_SLEEP_BINS, sizeof(*before), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, before);
	after = before + TK_SLEEP_BINS;

	mnt = tk_live_mount_debugfs(test);
	tk_live_read_sleep_bins(test, mnt, before);
	timekeeping_inject_sleeptime64(&c->slept);
	tk_live_read_sleep_bins(test, mnt, after);
	for (bin = 0; bin < TK_SLEEP_BINS; bin++)
		KUNIT_EXPECT_EQ_MSG(test, after[bin], before[bin] + (bin == c->bin),
				    "the bin %u - %u", bin ? 1U << (bin - 1) : 0, 1U << bin);
}

static struct kunit_case timekeeping_live_cases[] = {
	KUNIT_CASE(tk_live_mode_on),
	KUNIT_CASE(tk_live_active_no_irqs),
	KUNIT_CASE_SLOW(tk_live_rtc_off),
	KUNIT_CASE_SLOW(tk_live_rtc_on),
	KUNIT_CASE_SLOW(tk_live_tick_off),
	KUNIT_CASE_SLOW(tk_live_tick_on),
	KUNIT_CASE_SLOW(tk_live_rtc_smp_on),
	KUNIT_CASE_SLOW(tk_live_rtc_update_on),
	KUNIT_CASE_PARAM(tk_live_sleep_time_test, tk_sleep_bin_gen_params),
	{}
};

static struct kunit_suite timekeeping_live_suite = {
	.name = "timekeeping_live",
	.test_cases = timekeeping_live_cases,
};

kunit_test_suites(&timekeeping_sleep_suite, &timekeeping_live_suite);

/*
 * timekeeping_param: what monotonic_suspend=<value> does to the mode,
 * for every kind of value a user can write on the command line. The
 * handler is the early_param itself (__init, like the variable it
 * writes is __ro_after_init): this is an init-section suite, run before
 * the kernel frees its init memory and write-protects its
 * __ro_after_init data. Each case puts the boot's value back.
 */
struct tk_param_case {
	const char *desc;
	const char *str;	/* after "monotonic_suspend=", NULL: no "=" */
	bool before;		/* the mode before the parameter */
	int ret;		/* what the handler returns to the early-param code */
	bool after;		/* the mode after it */
};

static const struct tk_param_case tk_param_cases[] = {
	{ "on",			"on",		false,	0,	 true },
	{ "off",		"off",		true,	0,	 false },
	{ "ON, any case",	"ON",		false,	0,	 true },
	{ "Off, any case",	"Off",		true,	0,	 false },
	{ "1",			"1",		false,	0,	 true },
	{ "0",			"0",		true,	0,	 false },
	{ "y",			"y",		false,	0,	 true },
	{ "n",			"n",		true,	0,	 false },
	{ "Y",			"Y",		false,	0,	 true },
	{ "N",			"N",		true,	0,	 false },
	{ "yes",		"yes",		false,	0,	 true },
	{ "no",			"no",		true,	0,	 false },
	{ "true",		"true",		false,	0,	 true },
	{ "false",		"false",	true,	0,	 false },
	{ "on again, no change", "on",		true,	0,	 true },
	{ "off again, no change", "off",	false,	0,	 false },
	/* Refused: the boot prints "Malformed early option", mode stays */
	{ "empty, mode off",	"",		false,	-EINVAL, false },
	{ "empty, mode on",	"",		true,	-EINVAL, true },
	{ "no =, mode off",	NULL,		false,	-EINVAL, false },
	{ "no =, mode on",	NULL,		true,	-EINVAL, true },
	{ "o alone",		"o",		true,	-EINVAL, true },
	{ "2",			"2",		false,	-EINVAL, false },
	{ "garbage, mode off",	"garbage",	false,	-EINVAL, false },
	{ "garbage, mode on",	"garbage",	true,	-EINVAL, true },
	{ "leading space",	" on",		false,	-EINVAL, false },
};

KUNIT_ARRAY_PARAM_DESC(tk_param, tk_param_cases, desc);

static void tk_param_restore(void *saved)
{
	monotonic_suspend = *(bool *)saved;
}

static void __init tk_param_test(struct kunit *test)
{
	const struct tk_param_case *c = test->param_value;
	bool *saved = kunit_kzalloc(test, sizeof(*saved), GFP_KERNEL);
	char *str = NULL;

	KUNIT_ASSERT_NOT_NULL(test, saved);
	*saved = monotonic_suspend;
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, tk_param_restore, saved));
	/* The command line is writable: hand the handler a copy, as the boot does */
	if (c->str) {
		size_t size = strlen(c->str) + 1;

		str = kunit_kzalloc(test, size, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, str);
		strscpy(str, c->str, size);
	}

	monotonic_suspend = c->before;
	KUNIT_EXPECT_EQ(test, monotonic_suspend_setup(str), c->ret);
	KUNIT_EXPECT_EQ(test, monotonic_suspend, c->after);
	KUNIT_EXPECT_EQ(test, timekeeping_monotonic_suspend(), c->after);
}

static struct kunit_case __refdata timekeeping_param_cases[] = {
	KUNIT_CASE_PARAM(tk_param_test, tk_param_gen_params),
	{}
};

static struct kunit_suite timekeeping_param_suite = {
	.name = "timekeeping_param",
	.test_cases = timekeeping_param_cases,
};

kunit_test_init_section_suites(&timekeeping_param_suite);
