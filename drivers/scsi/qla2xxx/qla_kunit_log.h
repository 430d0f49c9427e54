/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the qla2xxx KUnit suites read of the driver's messages, for
 * qla_kunit.c (included in qla_os.c) and qla_isr_kunit.c (in qla_isr.c).
 */

#ifndef _QLA_KUNIT_LOG_H
#define _QLA_KUNIT_LOG_H

#include <kunit/test.h>
#include <trace/events/printk.h>

/*
 * The driver's messages as the console has them: its debug messages of
 * the classes a case turns on (ql2xextended_error_logging, the module
 * parameter "logging"), and its log messages, each with its message id.
 * The console tracepoint sees each printed line.
 */
struct qla_test_log {
	spinlock_t lock;	/* the tracepoint runs in any context */
	size_t len;
	char text[32768];	/* a probe's debug messages of one class fit */
};

static void qla_test_console(void *data, const char *buf, size_t len)
{
	struct qla_test_log *log = data;
	unsigned long flags;

	if (!strnstr(buf, "qla2xxx [", len))
		return;
	spin_lock_irqsave(&log->lock, flags);
	len = min(len, sizeof(log->text) - 1 - log->len);
	memcpy(log->text + log->len, buf, len);
	log->len += len;
	spin_unlock_irqrestore(&log->lock, flags);
}

static void qla_test_log_stop(void *data)
{
	struct qla_test_log *log = data;

	unregister_trace_console(qla_test_console, log);
	tracepoint_synchronize_unregister();
}

/* A module parameter of the driver, set to @value until the case ends. */
struct qla_test_param {
	int *param;
	int saved;
};

static void qla_test_param_restore(void *data)
{
	struct qla_test_param *p = data;

	*p->param = p->saved;
}

static void qla_test_param_set(struct kunit *test, int *param, int value)
{
	struct qla_test_param *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	p->param = param;
	p->saved = *param;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, qla_test_param_restore, p), 0);
	*param = value;
}

static struct qla_test_log *qla_test_log_start(struct kunit *test, int classes)
{
	struct qla_test_log *log = kunit_kzalloc(test, sizeof(*log), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, log);
	spin_lock_init(&log->lock);
	qla_test_param_set(test, &ql2xextended_error_logging, classes);
	/*
	 * A debug message that the driver's tracepoint takes too is printed
	 * with its id past ql_dbg_offset, one that it does not with its id:
	 * the tracepoint takes the same classes.
	 */
	qla_test_param_set(test, &ql2xextended_error_logging_ktrace, classes);
	KUNIT_ASSERT_EQ(test, register_trace_console(qla_test_console, log), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, qla_test_log_stop, log), 0);
	return log;
}

static bool qla_test_logged(struct qla_test_log *log, const char *want)
{
	unsigned long flags;
	bool found;

	spin_lock_irqsave(&log->lock, flags);
	log->text[log->len] = '\0';
	found = strstr(log->text, want);
	spin_unlock_irqrestore(&log->lock, flags);
	return found;
}

/*
 * Whether a line of message @id (as printed: a debug message's past
 * QLA_TEST_DBG_OFFSET) holds @want, whatever the host or function it
 * names.
 */
static bool qla_test_logged_id(struct qla_test_log *log, u16 id, const char *want)
{
	unsigned long flags;
	bool found = false;
	const char *p, *eol;
	char tag[12];

	scnprintf(tag, sizeof(tag), "]-%04x:", id);
	spin_lock_irqsave(&log->lock, flags);
	log->text[log->len] = '\0';
	for (p = log->text; !found && (p = strstr(p, tag)); p = eol) {
		eol = strchrnul(p, '\n');
		found = strnstr(p, want, eol - p);
	}
	spin_unlock_irqrestore(&log->lock, flags);
	return found;
}

/* ql_dbg() prints a message's id past the offset qla_dbg.c keeps, ql_dbg_offset. */
#define QLA_TEST_DBG_OFFSET	0x800

/*
 * A line of debug message @id saying @fmt was printed by the case's
 * task or one it waits for. (The timeout's own message, printed from the
 * timer's softirq, reaches the console but not, in these boots, this
 * tracepoint's probe: it is not looked for.)
 */
static void qla_test_expect_line(struct kunit *test, struct qla_test_log *log, const char *want)
{
	unsigned long deadline = jiffies + HZ;

	while (!qla_test_logged(log, want) && time_before(jiffies, deadline))
		schedule_timeout_uninterruptible(1);
	KUNIT_EXPECT_TRUE_MSG(test, qla_test_logged(log, want), "no \"%s\" in:\n%s", want,
			      log->text);
}

static inline __printf(4, 5) void qla_test_expect_logged(struct kunit *test,
							 struct qla_test_log *log,
							 u16 id, const char *fmt, ...)
{
	char want[128];
	va_list args;
	int n;

	n = scnprintf(want, sizeof(want), "]-%04x:0: ", id + QLA_TEST_DBG_OFFSET);
	va_start(args, fmt);
	vscnprintf(want + n, sizeof(want) - n, fmt, args);
	va_end(args);
	qla_test_expect_line(test, log, want);
}

#endif /* _QLA_KUNIT_LOG_H */
