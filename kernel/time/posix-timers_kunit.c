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
#include <linux/nsproxy.h>
#include <linux/sched/task.h>
#include <linux/time_namespace.h>

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

/*
 * Which clock answers to an id (clock_gettime(2), "Clock IDs", and
 * include/uapi/linux/time.h): a negative id names a CPU clock
 * (make_process_cpuclock()) unless its low three bits are CLOCKFD, which
 * names a dynamic clock by file descriptor; a non-negative one indexes
 * posix_clocks[], where a hole or an id past the end is no clock.
 */
struct tk_clock_id {
	const char *name;
	clockid_t id;
	const struct k_clock *kc;
	bool needs_mode;	/* NULL without monotonic_suspend=on */
};

static const struct tk_clock_id tk_clock_ids[] = {
	{ "CLOCK_REALTIME, the first", CLOCK_REALTIME, &clock_realtime },
	{ "CLOCK_MONOTONIC", CLOCK_MONOTONIC, &clock_monotonic },
	{ "CLOCK_BOOTTIME", CLOCK_BOOTTIME, &clock_boottime },
	{ "CLOCK_TAI", CLOCK_TAI, &clock_tai },
	{ "10, the removed CLOCK_SGI_CYCLE", 10, NULL },
	{ "CLOCK_MONOTONIC_ACTIVE, the last", CLOCK_MONOTONIC_ACTIVE,
	  &clock_monotonic_active, true },
	{ "one past the table", ARRAY_SIZE(posix_clocks), NULL },
	{ "two past the table", ARRAY_SIZE(posix_clocks) + 1, NULL },
	{ "INT_MAX", INT_MAX, NULL },
	/* the ids of make_process_cpuclock() and friends, ~pid << 3 | low bits */
	{ "-6: pid 0, CPUCLOCK_SCHED", -6, &clock_posix_cpu },
	{ "-4: thread 0, CPUCLOCK_PROF", -4, &clock_posix_cpu },
	{ "-1: low bits 7", -1, &clock_posix_cpu },
	{ "INT_MIN: low bits 0", INT_MIN, &clock_posix_cpu },
	{ "-29: fd 3, a dynamic clock", -29, &clock_posix_dynamic },
	{ "-5: low bits CLOCKFD", -5, &clock_posix_dynamic },
};

KUNIT_ARRAY_PARAM_DESC(tk_clock_ids, tk_clock_ids, name);

static void tk_clock_id_on(struct kunit *test)
{
	const struct tk_clock_id *p = test->param_value;
	const struct k_clock *want = p->kc;

	KUNIT_EXPECT_EQ(test, make_process_cpuclock(0, CPUCLOCK_SCHED), -6);
	KUNIT_EXPECT_EQ(test, make_thread_cpuclock(0, CPUCLOCK_PROF), -4);
	KUNIT_EXPECT_EQ(test, fd_to_clockid(3), -29);
	if (p->needs_mode && !timekeeping_monotonic_suspend())
		want = NULL;
	KUNIT_EXPECT_PTR_EQ(test, clockid_to_kclock(p->id), want);
}

/*
 * In a time namespace, CLOCK_MONOTONIC_ACTIVE reads with the namespace's
 * monotonic offset, as CLOCK_MONOTONIC does (time_namespaces(7)). The case
 * gives its own thread a namespace of its own, as unshare(CLONE_NEWTIME)
 * and a fork would, and reads the clock's getter there; the thread's exit
 * puts it if an assertion stops the case first.
 */
#define TK_ACTIVE_NS_OFFSET	TK_ACTIVE_TS(1000, 500000000)

static void tk_clock_active_timens_on(struct kunit *test)
{
	struct nsproxy *old = current->nsproxy, *nsp = NULL;
	ktime_t off = timespec64_to_ktime(TK_ACTIVE_NS_OFFSET);
	ktime_t before, got, after;

	before = ktime_get_active();
	got = tk_active_read(test, &clock_monotonic_active);
	after = ktime_get_active();
	KUNIT_EXPECT_LE(test, before, got);
	KUNIT_EXPECT_LE(test, got, after);

	if (!IS_ENABLED(CONFIG_TIME_NS))
		kunit_skip(test, "needs CONFIG_TIME_NS");
	KUNIT_ASSERT_EQ(test, unshare_nsproxy_namespaces(CLONE_NEWTIME, &nsp, NULL, NULL), 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, nsp);
	/* what timens_on_fork() does for the child, less the vDSO's pages */
	put_time_ns(nsp->time_ns);
	nsp->time_ns = get_time_ns(nsp->time_ns_for_children);
	nsp->time_ns->offsets.monotonic = TK_ACTIVE_NS_OFFSET;
	get_nsproxy(old);
	switch_task_namespaces(current, nsp);

	before = ktime_get_active();
	got = tk_active_read(test, &clock_monotonic_active);
	after = ktime_get_active();

	switch_task_namespaces(current, old);
	KUNIT_EXPECT_LE(test, ktime_add(before, off), got);
	KUNIT_EXPECT_LE(test, got, ktime_add(after, off));
}

static struct kunit_case timekeeping_live_active_cases[] = {
	KUNIT_CASE(tk_clock_active_on),
	KUNIT_CASE_PARAM(tk_clock_id_on, tk_clock_ids_gen_params),
	KUNIT_CASE(tk_clock_active_timens_on),
	{}
};

static struct kunit_suite timekeeping_live_active_suite = {
	.name = "timekeeping_live_active",
	.test_cases = timekeeping_live_active_cases,
};

kunit_test_suite(timekeeping_live_active_suite);
