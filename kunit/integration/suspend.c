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
 */

#include <stdlib.h>
#include <sys/timerfd.h>
#include <time.h>

#include "files.h"
#include "ktap.h"

#define TRACING		"/sys/kernel/tracing"
#define RTC		"/sys/class/rtc/rtc0"
#define TIMER_S		4.0

struct clocks {
	double mono, boot, real;
};

static double now(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void read_clocks(struct clocks *c)
{
	c->mono = now(CLOCK_MONOTONIC);
	c->boot = now(CLOCK_BOOTTIME);
	c->real = now(CLOCK_REALTIME);
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

int main(void)
{
	const char *mode = getenv("integration_suspend");
	bool on = mode && !strcmp(mode, "on");
	struct itimerspec its = { .it_value = { (time_t)TIMER_S, 0 } };
	double armed, fired, slept, real_gain, span;
	struct clocks a, b;
	unsigned long long ticks;
	int tfd, err;

	char sleep_states[128];

	ktap_begin("integration_suspend", 5);
	ktap_diag("monotonic_suspend expected %s", on ? "on" : "off");
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
	write_str(TRACING "/events/power/suspend_resume/enable", "1");
	truncate_file(TRACING "/trace");
	tfd = timerfd_create(CLOCK_MONOTONIC, 0);
	write_str(RTC "/wakealarm", "0");
	err = write_str(RTC "/wakealarm", "+3");
	read_clocks(&a);
	armed = a.boot;
	timerfd_settime(tfd, 0, &its, NULL);
	if (!err)
		err = write_str("/sys/power/state", "mem");
	read_clocks(&b);
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
	return ktap_end();
}
