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

static struct kunit_case timekeeping_sleep_cases[] = {
	KUNIT_CASE_PARAM(tk_sleep_test, tk_sleep_gen_params),
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

	do {
		seq = read_seqcount_begin(&tk_core.seq);
		l->mono = ktime_add_ns(tk->tkr_mono.base, timekeeping_get_ns(&tk->tkr_mono));
		l->raw = ktime_add_ns(tk->tkr_raw.base, timekeeping_get_ns(&tk->tkr_raw));
		l->offs_real = tk->offs_real;
		l->offs_boot = tk->offs_boot;
		l->suspended = tk->time_suspended;
	} while (read_seqcount_retry(&tk_core.seq, seq));
	do {
		seq = read_seqcount_begin(&jiffies_seq);
		l->next_period = tick_next_period;
	} while (read_seqcount_retry(&jiffies_seq, seq));
	l->jiffies = get_jiffies_64();
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

static void tk_live_test(struct kunit *test, bool mono, void (*resume)(const struct timespec64 *))
{
	struct timespec64 slept = TK_LIVE_SLEPT;
	ktime_t d = timespec64_to_ktime(slept), moved = mono ? d : 0;
	struct tk_live b, a;
	ktime_t active;

	if (timekeeping_monotonic_suspend() != mono)
		kunit_skip(test, "needs a boot with monotonic_suspend=%s", mono ? "on" : "off");

	tk_live_read(&b);
	resume(&slept);
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
	 * The jiffies did not count the time slept, and the tick is on time.
	 * Both: a tick that was not forwarded shows at once in the jiffies
	 * when the tick is one-shot (tick-sched catches up), but only later
	 * when it is periodic on a periodic clock event device (x86's early
	 * boot), where each tick adds one period to tick_next_period and the
	 * jump comes at the switch to one-shot mode.
	 */
	KUNIT_EXPECT_LT(test, a.jiffies - b.jiffies, (u64)div_s64(TK_LIVE_SLACK, TICK_NSEC));
	/*
	 * The next period is within a tick of now: at most one ahead, and
	 * behind only by the ticks not yet taken (a tick that has not run yet,
	 * or an idle CPU's stopped tick).
	 */
	KUNIT_EXPECT_LE(test, ktime_sub(a.next_period, a.mono), TICK_NSEC + TK_LIVE_SLACK);
	KUNIT_EXPECT_GT(test, ktime_sub(a.next_period, a.mono), -TK_LIVE_SLACK);

	tk_expect_vdso(test);
}

/* The RTC's resume path: rtc_resume() injects the time slept. */
static void tk_live_rtc_resume(const struct timespec64 *slept)
{
#if defined(CONFIG_PM_SLEEP) && defined(CONFIG_RTC_HCTOSYS_DEVICE)
	timekeeping_inject_sleeptime64(slept);
#endif
}

/*
 * The syscore path on the one CPU online: the tick stops (tick_suspend()),
 * timekeeping_resume() injects the time slept, the tick restarts
 * (tick_resume()). The clocksource and the clock event devices stay up.
 */
static void tk_live_tick_resume(const struct timespec64 *slept)
{
	struct timekeeper *tk = &tk_core.timekeeper;
	unsigned long flags;

	local_irq_save(flags);
	tick_suspend_local();

	raw_spin_lock(&timekeeper_lock);
	write_seqcount_begin(&tk_core.seq);
	timekeeping_forward_now(tk);
	__timekeeping_inject_sleeptime(tk, slept);
	timekeeping_update(tk, TK_MIRROR | TK_CLOCK_WAS_SET);
	write_seqcount_end(&tk_core.seq);
	raw_spin_unlock(&timekeeper_lock);

	tick_resume_local();
	local_irq_restore(flags);
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

static struct kunit_case timekeeping_live_cases[] = {
	KUNIT_CASE(tk_live_mode_on),
	KUNIT_CASE_SLOW(tk_live_rtc_off),
	KUNIT_CASE_SLOW(tk_live_rtc_on),
	KUNIT_CASE_SLOW(tk_live_tick_off),
	KUNIT_CASE_SLOW(tk_live_tick_on),
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
