// SPDX-License-Identifier: GPL-2.0
/*
 * Suspend and the clocks: read CLOCK_MONOTONIC, CLOCK_BOOTTIME and
 * CLOCK_REALTIME, suspend until an RTC alarm 3 s later, read them
 * again. The kernel argument integration_suspend= says which mode the
 * runner booted (monotonic_suspend= of kernel/time/timekeeping.c):
 *   off: BOOTTIME - MONOTONIC and REALTIME - MONOTONIC grow by the time
 *        slept, and a timerfd armed on CLOCK_MONOTONIC for 4 s before the
 *        suspend fires 4 s of awake time later;
 *   on:  both differences hold, and the timerfd fires 4 s after it was
 *        armed, the time slept included.
 * The suspend is to RAM (mem_sleep "deep", ACPI S3 on x86_64): QEMU only
 * lets its RTC alarm wake a guest it has suspended, so a suspend to idle,
 * during which the guest keeps running, would never end. A kernel with
 * no deep state (arm64 virt: no PSCI SYSTEM_SUSPEND in this QEMU) skips.
 * The power:suspend_resume event syscore_suspend (timekeeping_suspend()
 * is a syscore op) says the clocks were suspended.
 *
 * CLOCK_MONOTONIC_ACTIVE (id 12, this series' include/uapi/linux/time.h)
 * exists only with the mode on: then it can be read, and moves by the
 * time awake only, and the other operations give what they give a clock
 * without them; with the mode off every one gives EINVAL.
 *
 * In both modes the boot time holds: /proc/stat's btime is the same
 * after the resume, it is REALTIME - BOOTTIME, and a task forked after
 * the resume starts, by btime + its start time in /proc/<pid>/stat (what
 * ps shows), when the wall clock says it did.
 *
 * In both modes the jiffies (times(), in USER_HZ ticks) count the time
 * awake only: MONOTONIC's with the mode off, ACTIVE's with it on. With
 * more than one CPU (the mono-suspend boot has two), the others go
 * offline for S3 and come back through CPU hotplug, their ticks forwarded.
 */

#define _GNU_SOURCE		/* clock_adjtime() */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <sys/times.h>
#include <sys/timex.h>
#include <sys/wait.h>
#include <time.h>

#include "files.h"
#include "ktap.h"

#define TRACING		"/sys/kernel/tracing"
#define RTC		"/sys/class/rtc/rtc0"
#define TIMER_S		4.0
#define LAG_READS	10	/* reads of how far the jiffies are behind, ... */
#define LAG_GAP_NS	30000000	/* ... 30 ms apart */

#ifndef CLOCK_MONOTONIC_ACTIVE
#define CLOCK_MONOTONIC_ACTIVE	12
#endif

struct clocks {
	double mono, boot, real, active;
	long cpus;		/* online */
};

/* 0 for a clock this kernel does not have (CLOCK_MONOTONIC_ACTIVE, mode off) */
static double now(clockid_t id)
{
	struct timespec ts = { 0, 0 };

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void read_clocks(struct clocks *c)
{
	c->mono = now(CLOCK_MONOTONIC);
	c->boot = now(CLOCK_BOOTTIME);
	c->real = now(CLOCK_REALTIME);
	c->active = now(CLOCK_MONOTONIC_ACTIVE);
	c->cpus = sysconf(_SC_NPROCESSORS_ONLN);
}

/*
 * How far the jiffies (times(), in USER_HZ ticks) are behind @id, in
 * seconds: the least of LAG_READS reads 30 ms apart. Each read of a CPU
 * whose tick runs is behind by less than a jiffy plus the USER_HZ
 * rounding. Under TCG a slow hrtimer interrupt makes hrtimer_interrupt()
 * put the next tick off by as long as it took, up to 100 ms (58 ms and
 * 120 ms seen in make check), and a read in that time is behind by it.
 * The least of reads spread past 100 ms is the jiffies' own lag, not a
 * late tick's.
 */
static double jiffies_behind(clockid_t id, double hz)
{
	const struct timespec gap = { 0, LAG_GAP_NS };
	double least = 0, behind;
	struct tms t;
	clock_t ticks;
	int i;

	for (i = 0; i < LAG_READS; i++) {
		if (i)
			nanosleep(&gap, NULL);
		ticks = times(&t);
		behind = now(id) - ticks / hz;
		if (!i || behind < least)
			least = behind;
	}
	return least;
}

/* Each operation on CLOCK_MONOTONIC_ACTIVE: 0 or the errno it gives. */
static int active_gettime(void)
{
	struct timespec ts;

	return clock_gettime(CLOCK_MONOTONIC_ACTIVE, &ts) ? errno : 0;
}

static int active_getres(void)
{
	struct timespec ts = { 0, 0 };

	if (clock_getres(CLOCK_MONOTONIC_ACTIVE, &ts))
		return errno;
	return ts.tv_sec == 0 && ts.tv_nsec > 0 ? 0 : ERANGE;
}

static int active_settime(void)
{
	struct timespec ts = { 1, 0 };

	return clock_settime(CLOCK_MONOTONIC_ACTIVE, &ts) ? errno : 0;
}

static int active_adjtime(void)
{
	struct timex tx = { .modes = 0 };

	return clock_adjtime(CLOCK_MONOTONIC_ACTIVE, &tx) < 0 ? errno : 0;
}

static int active_timer_create(void)
{
	struct sigevent sev = { .sigev_notify = SIGEV_NONE };
	timer_t t;

	if (timer_create(CLOCK_MONOTONIC_ACTIVE, &sev, &t))
		return errno;
	timer_delete(t);
	return 0;
}

static int active_nanosleep(void)
{
	struct timespec ts = { 0, 1000 };

	/* returns the error, errno untouched */
	return clock_nanosleep(CLOCK_MONOTONIC_ACTIVE, 0, &ts, NULL);
}

static int active_timerfd(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC_ACTIVE, 0);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

struct active_op {
	const char *name;
	int (*op)(void);
	int on;			/* with the mode on; EINVAL with it off */
};

/* What posix-timers.c gives a clock without the operation. */
static const struct active_op active_ops[] = {
	{ "clock_gettime()", active_gettime, 0 },
	{ "clock_getres()", active_getres, 0 },
	{ "clock_settime()", active_settime, EINVAL },
	{ "clock_adjtime()", active_adjtime, EOPNOTSUPP },
	{ "timer_create()", active_timer_create, EOPNOTSUPP },
	{ "clock_nanosleep()", active_nanosleep, EOPNOTSUPP },
	{ "timerfd_create()", active_timerfd, EINVAL },
};

static void check_active_ops(bool on)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(active_ops); i++) {
		int want = on ? active_ops[i].on : EINVAL, got = active_ops[i].op();

		ktap_ok(got == want, "CLOCK_MONOTONIC_ACTIVE: %s gives %s (%s)", active_ops[i].name,
			want ? strerror(want) : "0", got ? strerror(got) : "0");
	}
}

/* Whether the trace holds @what. */
static bool traced(const char *what)
{
	char line[512];
	bool found = false;
	FILE *f = fopen(TRACING "/trace", "r");

	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, what);
	if (f)
		fclose(f);
	return found;
}

/* /proc/stat's btime: the real time of boot, in seconds; -1 if unread. */
static long long btime(void)
{
	char buf[4096], *p = NULL;

	if (read_file("/proc/stat", buf, sizeof(buf)) > 0)
		p = strstr(buf, "\nbtime ");
	return p ? atoll(p + 7) : -1;
}

/*
 * The wall time a task forked now starts at as ps computes it: btime +
 * field 22 (starttime, in clock ticks since boot) of its /proc/<pid>/stat;
 * and in @forked, the wall clock when it was forked. -1 if unread.
 */
static double child_start(double *forked)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	int fds[2], i;
	double t = -1;
	pid_t pid;

	if (pipe(fds))
		return -1;
	*forked = now(CLOCK_REALTIME);
	pid = fork();
	if (!pid) {
		char c;

		close(fds[1]);
		_exit(read(fds[0], &c, 1) < 0);
	}
	close(fds[0]);
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	p = pid > 0 && read_file(path, buf, sizeof(buf)) > 0 ? strrchr(buf, ')') : NULL;
	if (p) {
		/* field 3, the state, follows ") " */
		for (p += 2, i = 3; p && i < 22; i++)
			p = strchr(p, ' ') ? strchr(p, ' ') + 1 : NULL;
		if (p) {
			start = strtoull(p, NULL, 10);
			t = btime() + (double)start / sysconf(_SC_CLK_TCK);
		}
	}
	close(fds[1]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return t;
}

int main(void)
{
	const char *mode = getenv("integration_suspend");
	bool on = mode && !strcmp(mode, "on");
	struct itimerspec its = { .it_value = { (time_t)TIMER_S, 0 } };
	double armed, fired, slept, real_gain, span, behind, lag, hz = sysconf(_SC_CLK_TCK);
	clockid_t awake = CLOCK_MONOTONIC;
	struct clocks a, b;
	unsigned long long ticks;
	long long btime_a, btime_b;
	double forked = 0, started;
	int tfd, err;

	char sleep_states[128];

	ktap_begin("integration_suspend", 11 + ARRAY_SIZE(active_ops));
	ktap_diag("monotonic_suspend expected %s; %ld CPUs online", on ? "on" : "off",
		  sysconf(_SC_NPROCESSORS_ONLN));
	check_active_ops(on);
	if (access(RTC "/wakealarm", W_OK)) {
		ktap_skip_rest("no RTC with a wake alarm");
		return ktap_end();
	}
	read_file("/sys/power/mem_sleep", sleep_states, sizeof(sleep_states));
	sleep_states[strcspn(sleep_states, "\n")] = '\0';
	ktap_diag("mem_sleep: %s", sleep_states);
	if (!strstr(sleep_states, "deep") || write_str("/sys/power/mem_sleep", "deep")) {
		ktap_skip_rest("no suspend to RAM (mem_sleep deep); QEMU's RTC cannot wake s2idle");
		return ktap_end();
	}
	if (on)
		awake = CLOCK_MONOTONIC_ACTIVE;
	behind = jiffies_behind(awake, hz);
	write_str(TRACING "/events/power/suspend_resume/enable", "1");
	truncate_file(TRACING "/trace");
	tfd = timerfd_create(CLOCK_MONOTONIC, 0);
	write_str(RTC "/wakealarm", "0");
	err = write_str(RTC "/wakealarm", "+3");
	read_clocks(&a);
	btime_a = btime();
	armed = a.boot;
	timerfd_settime(tfd, 0, &its, NULL);
	if (!err)
		err = write_str("/sys/power/state", "mem");
	read_clocks(&b);
	btime_b = btime();
	write_str(TRACING "/events/power/suspend_resume/enable", "0");
	span = b.boot - a.boot;
	ktap_diag("suspend: %s; BOOTTIME advanced %.3f s, MONOTONIC %.3f s, REALTIME %.3f s",
		  err ? strerror(err) : "ok", span, b.mono - a.mono, b.real - a.real);
	/*
	 * The alarm is 3 s away in whole RTC seconds, and the kernel takes the
	 * time slept from the RTC too: BOOTTIME may show as little as 1.x s.
	 */
	if (!ktap_ok(!err && span >= 1.0, "suspended to RAM until the RTC alarm")) {
		ktap_skip_rest("no suspend");
		return ktap_end();
	}
	ktap_ok(traced("syscore_suspend"), "the clocks were suspended (syscore_suspend)");

	slept = span - (b.mono - a.mono);
	real_gain = (b.real - a.real) - (b.mono - a.mono);
	if (on) {
		ktap_ok(slept < 0.1 && slept > -0.1,
			"BOOTTIME - MONOTONIC holds (changed by %.3f s)", slept);
		ktap_ok(real_gain < 0.1 && real_gain > -0.1,
			"REALTIME - MONOTONIC holds (changed by %.3f s)", real_gain);
	} else {
		ktap_ok(slept >= 1.0, "BOOTTIME - MONOTONIC grows by the time slept (%.3f s)",
			slept);
		ktap_ok(real_gain > slept - 1.0 && real_gain < slept + 1.0,
			"REALTIME - MONOTONIC grows by it too (%.3f s)", real_gain);
	}

	if (on)
		ktap_ok(b.active - a.active >= 0 && b.active - a.active < span - 1.0 &&
			(b.mono - b.active) - (a.mono - a.active) >= 1.0,
			"ACTIVE moves by the time awake (%.3f s), MONOTONIC - ACTIVE by the time slept (%.3f s)",
			b.active - a.active, (b.mono - b.active) - (a.mono - a.active));
	else
		ktap_ok(active_gettime() == EINVAL, "MONOTONIC_ACTIVE refused after the resume");

	ktap_ok(b.cpus == a.cpus, "every CPU is back online after the resume (%ld of %ld)",
		b.cpus, a.cpus);
	/* btime is whole seconds, REALTIME - BOOTTIME is not */
	ktap_ok(btime_a > 0 && btime_b == btime_a,
		"/proc/stat btime holds across the suspend (%lld, then %lld)", btime_a, btime_b);
	ktap_ok(btime_b > 0 && b.real - b.boot - btime_b > -1.0 && b.real - b.boot - btime_b < 1.0,
		"btime is REALTIME - BOOTTIME (%.3f s apart)", b.real - b.boot - btime_b);
	started = child_start(&forked);
	ktap_ok(started > 0 && started - forked > -1.5 && started - forked < 1.5,
		"a task forked after the resume starts at btime + its start time (%.3f s from the wall clock)",
		started - forked);

	if (read(tfd, &ticks, sizeof(ticks)) != sizeof(ticks))
		ticks = 0;
	fired = now(CLOCK_BOOTTIME) - armed;
	if (on)
		ktap_ok(ticks && fired < TIMER_S + 1.0,
			"a %.0f s CLOCK_MONOTONIC timerfd fires %.0f s after it was armed (%.3f s)",
			TIMER_S, TIMER_S, fired);
	else
		ktap_ok(ticks && fired >= TIMER_S + slept - 0.5,
			"a %.0f s CLOCK_MONOTONIC timerfd fires %.0f s of awake time later (%.3f s, slept %.3f s)",
			TIMER_S, TIMER_S, fired, slept);

	/*
	 * Read after the timerfd, which the reads would put off. Between
	 * the two, the jiffies fall behind by up to a jiffy more or less,
	 * and by a jiffy when the resume forwarded the tick to a period
	 * boundary (HZ 100 at the least): within 4 USER_HZ ticks, where
	 * the time slept is a second or more.
	 */
	lag = (jiffies_behind(awake, hz) - behind) * hz;
	ktap_ok(lag < 4 && lag > -4,
		"the jiffies count the time awake (%s): %.1f ticks behind it, not the %.3f s slept",
		on ? "ACTIVE" : "MONOTONIC", lag,
		on ? (b.mono - b.active) - (a.mono - a.active) : slept);
	return ktap_end();
}
