/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KTAP output of one integration case, as a subtest of the run that
 * init prints: kunit_parser.py reads both. A case program calls
 * ktap_begin(), one ktap_ok()/ktap_skip() per test, then ktap_end(),
 * whose value is its exit status: 0 passed, 1 failed, 2 skipped.
 */

#ifndef KTAP_H
#define KTAP_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define KTAP_INDENT	"    "
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define KTAP_EXIT_SKIP	2

static int ktap_plan, ktap_run, ktap_failed, ktap_skipped;

static inline void ktap_begin(const char *suite, int plan)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	ktap_plan = plan;
	printf(KTAP_INDENT "KTAP version 1\n" KTAP_INDENT "# Subtest: %s\n"
	       KTAP_INDENT "1..%d\n", suite, plan);
}

static inline void ktap_vprint(const char *prefix, const char *fmt, va_list ap)
{
	char line[512];

	vsnprintf(line, sizeof(line), fmt, ap);
	printf(KTAP_INDENT "%s%s\n", prefix, line);
}

/* A diagnostic line: what a failing test saw. */
static inline void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ktap_vprint("# ", fmt, ap);
	va_end(ap);
}

/* One test: ok when @ok; @fmt names it. Returns @ok. */
static inline bool ktap_ok(bool ok, const char *fmt, ...)
{
	char prefix[32];
	va_list ap;

	ktap_run++;
	if (!ok)
		ktap_failed++;
	snprintf(prefix, sizeof(prefix), "%sok %d ", ok ? "" : "not ", ktap_run);
	va_start(ap, fmt);
	ktap_vprint(prefix, fmt, ap);
	va_end(ap);
	return ok;
}

/* One test that cannot run here, with the reason. */
static inline void ktap_skip(const char *name, const char *reason)
{
	ktap_run++;
	ktap_skipped++;
	printf(KTAP_INDENT "ok %d %s # SKIP %s\n", ktap_run, name, reason);
}

/* The rest of the plan, skipped for @reason. */
static inline void ktap_skip_rest(const char *reason)
{
	while (ktap_run < ktap_plan)
		ktap_skip("not run", reason);
}

static inline int ktap_end(void)
{
	if (ktap_run != ktap_plan) {
		ktap_diag("planned %d tests, ran %d", ktap_plan, ktap_run);
		return 1;
	}
	if (ktap_failed)
		return 1;
	return ktap_skipped == ktap_run ? KTAP_EXIT_SKIP : 0;
}

#endif /* KTAP_H */
