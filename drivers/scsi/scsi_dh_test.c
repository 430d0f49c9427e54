// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for scsi_dh_lookup() and scsi_dh_attach(), included at the
 * end of scsi_dh.c so that the static function can be called.
 *
 * Commit 2ee5671e3ae3 ("scsi: scsi_dh: Don't look for NULL devices
 * handlers by name") made a NULL or empty name fail fast: before it,
 * dm-multipath asked for "scsi_dh_(null)" and __scsi_dh_lookup() fed the
 * NULL to strncmp().
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <scsi/scsi_host.h>

struct scsi_dh_lookup_case {
	const char *desc;
	const char *name;
	const char *want;	/* the handler found, NULL for none */
};

static const struct scsi_dh_lookup_case scsi_dh_lookup_cases[] = {
	/* the seed fix: the empty name finds nothing (NULL: see the last case) */
	{ "empty",			"",		NULL },
	{ "unknown",			"nosuchdh",	NULL },
	{ "one letter short",		"alu",		NULL },
	{ "upper case",			"ALUA",		NULL },
	{ "module name, not handler",	"scsi_dh_alua",	NULL },
	/* the handlers .kunitconfig builds in */
	{ "alua",			"alua",		"alua" },
	{ "emc",			"emc",		"emc" },
	{ "hp_sw",			"hp_sw",	"hp_sw" },
	{ "rdac",			"rdac",		"rdac" },
	/*
	 * Trailing garbage still finds the handler: __scsi_dh_lookup()
	 * compares strlen(handler name) bytes only.
	 */
	{ "alua + garbage",		"alua_garbage",	"alua" },
	{ "rdac + newline",		"rdac\n",	"rdac" },
};

KUNIT_ARRAY_PARAM_DESC(scsi_dh_lookup, scsi_dh_lookup_cases, desc);

static void scsi_dh_lookup_test(struct kunit *test)
{
	const struct scsi_dh_lookup_case *c = test->param_value;
	int preempt = preempt_count();
	struct scsi_device_handler *dh = scsi_dh_lookup(c->name);

	/* The list lock taken and dropped: preemption as it was */
	KUNIT_EXPECT_EQ(test, preempt_count(), preempt);
	if (!c->want) {
		KUNIT_EXPECT_NULL_MSG(test, dh, "found %s", dh ? dh->name : "");
		return;
	}
	KUNIT_ASSERT_NOT_NULL_MSG(test, dh, "no handler for \"%s\"", c->name);
	KUNIT_EXPECT_STREQ(test, dh->name, c->want);
}

/*
 * The module requests scsi_dh_lookup() makes, seen through the
 * module_request tracepoint (kernel/module/kmod.c, __request_module()).
 * Without CONFIG_MODULES, request_module() is a stub that returns
 * -ENOSYS and leaves no trace: the debug leg and the mutation kernels
 * (kunit/configs/inject.config) have modules, and count.
 */
#ifdef CONFIG_MODULES
#include <trace/events/module.h>

#define SCSI_DH_TEST_PREFIX	"scsi_dh_"

static struct {
	atomic_t count;
	char name[MODULE_NAME_LEN];	/* the last one */
	/* registered by the request of its module, as loading it would */
	struct scsi_device_handler *load;
} scsi_dh_test_requests;

static void scsi_dh_test_module_request(void *data, char *name, bool wait, unsigned long ip)
{
	struct scsi_device_handler *load = READ_ONCE(scsi_dh_test_requests.load);

	if (strncmp(name, SCSI_DH_TEST_PREFIX, strlen(SCSI_DH_TEST_PREFIX)))
		return;
	strscpy(scsi_dh_test_requests.name, name, sizeof(scsi_dh_test_requests.name));
	atomic_inc(&scsi_dh_test_requests.count);
	if (load && !strcmp(name + strlen(SCSI_DH_TEST_PREFIX), load->name) &&
	    cmpxchg(&scsi_dh_test_requests.load, load, NULL) == load)
		scsi_register_device_handler(load);
}

static int scsi_dh_test_modules_init(void)
{
	return register_trace_module_request(scsi_dh_test_module_request, NULL);
}

static void scsi_dh_test_modules_exit(void)
{
	unregister_trace_module_request(scsi_dh_test_module_request, NULL);
}

/*
 * Each lookup asks for the module scsi_dh_<name> once when no handler
 * of that name is registered, and never when one is, or when the name
 * is empty or NULL: the seed fix, which stops dm-multipath's lookups of
 * a path without a handler from asking modprobe for "scsi_dh_".
 */
static void scsi_dh_module_request_test(struct kunit *test)
{
	const struct scsi_dh_lookup_case *c = test->param_value;
	bool asks = c->name[0] && !__scsi_dh_lookup(c->name);

	atomic_set(&scsi_dh_test_requests.count, 0);
	scsi_dh_test_requests.name[0] = '\0';
	scsi_dh_lookup(c->name);
	KUNIT_EXPECT_EQ(test, atomic_read(&scsi_dh_test_requests.count), asks ? 1 : 0);
	if (asks)
		KUNIT_EXPECT_STREQ(test, scsi_dh_test_requests.name + strlen(SCSI_DH_TEST_PREFIX),
				   c->name);

	atomic_set(&scsi_dh_test_requests.count, 0);
	scsi_dh_lookup(NULL);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&scsi_dh_test_requests.count), 0, "NULL name");
}

#define SCSI_DH_MODULE_REQUEST_CASE \
	KUNIT_CASE_PARAM(scsi_dh_module_request_test, scsi_dh_lookup_gen_params)
#define SCSI_DH_MODULE_LOAD_CASE KUNIT_CASE(scsi_dh_module_load_test),
#else
static int scsi_dh_test_modules_init(void)
{
	return 0;
}

static void scsi_dh_test_modules_exit(void)
{
}

static void scsi_dh_module_request_test(struct kunit *test)
{
	kunit_skip(test, "request_module() is a stub without CONFIG_MODULES (debug leg counts)");
}

#define SCSI_DH_MODULE_REQUEST_CASE KUNIT_CASE(scsi_dh_module_request_test)
#define SCSI_DH_MODULE_LOAD_CASE
#endif

/*
 * Two handlers of the suite's own, registered by the cases that use them,
 * as a hardware handler module registers its own: "kunit_dh", whose attach
 * answers what the case asks and whose activate completes at once, and
 * "kunitpassive", which has no activate. Neither name is a prefix of
 * another handler's (__scsi_dh_lookup() compares the handler's length).
 */
#include <trace/events/printk.h>

#define SCSI_DH_FAKE		"kunit_dh"
#define SCSI_DH_FAKE_PASSIVE	"kunitpassive"
#define SCSI_DH_FAKE_FAILED	SCSI_DH_FAKE ": Attach failed ("

static struct {
	int attach;		/* what attach answers */
	int attached, detached, activated;
	atomic_t logged;	/* console lines of a failed attach */
	char line[128];		/* the last one */
} scsi_dh_fake;

static int scsi_dh_fake_attach(struct scsi_device *sdev)
{
	scsi_dh_fake.attached++;
	return scsi_dh_fake.attach;
}

static void scsi_dh_fake_detach(struct scsi_device *sdev)
{
	scsi_dh_fake.detached++;
}

static int scsi_dh_fake_activate(struct scsi_device *sdev, activate_complete fn, void *data)
{
	scsi_dh_fake.activated++;
	if (fn)
		fn(data, SCSI_DH_OK);
	return SCSI_DH_OK;
}

static struct scsi_device_handler scsi_dh_fake_handler = {
	.name = SCSI_DH_FAKE,
	.module = THIS_MODULE,
	.attach = scsi_dh_fake_attach,
	.detach = scsi_dh_fake_detach,
	.activate = scsi_dh_fake_activate,
};

static struct scsi_device_handler scsi_dh_fake_passive = {
	.name = SCSI_DH_FAKE_PASSIVE,
	.module = THIS_MODULE,
	.attach = scsi_dh_fake_attach,
	.detach = scsi_dh_fake_detach,
};

static void scsi_dh_test_console(void *ignore, const char *buf, size_t len)
{
	if (!strnstr(buf, SCSI_DH_FAKE_FAILED, len))
		return;
	strscpy(scsi_dh_fake.line, buf, min(len + 1, sizeof(scsi_dh_fake.line)));
	atomic_inc(&scsi_dh_fake.logged);
}

static void scsi_dh_fake_reset(int attach)
{
	memset(&scsi_dh_fake, 0, sizeof(scsi_dh_fake));
	scsi_dh_fake.attach = attach;
}

static int scsi_dh_test_suite_init(struct kunit_suite *suite)
{
	int ret = register_trace_console(scsi_dh_test_console, NULL);

	if (ret)
		return ret;
	ret = scsi_dh_test_modules_init();
	if (ret)
		unregister_trace_console(scsi_dh_test_console, NULL);
	return ret;
}

/* No list_lock here: the NULL name case, last, may leave it held. */
static void scsi_dh_test_suite_exit(struct kunit_suite *suite)
{
	scsi_dh_test_modules_exit();
	unregister_trace_console(scsi_dh_test_console, NULL);
	tracepoint_synchronize_unregister();
}

static void scsi_dh_fake_unregister(void *unused)
{
	scsi_unregister_device_handler(&scsi_dh_fake_passive);
	scsi_unregister_device_handler(&scsi_dh_fake_handler);
}

/* The case's own handlers, registered until it ends. */
static void scsi_dh_fake_register(struct kunit *test, int attach)
{
	scsi_dh_fake_reset(attach);
	KUNIT_ASSERT_EQ(test, scsi_register_device_handler(&scsi_dh_fake_handler), 0);
	if (scsi_register_device_handler(&scsi_dh_fake_passive)) {
		scsi_unregister_device_handler(&scsi_dh_fake_handler);
		KUNIT_FAIL_AND_ABORT(test, "cannot register %s", SCSI_DH_FAKE_PASSIVE);
	}
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, scsi_dh_fake_unregister, NULL), 0);
}

/* The handlers looked up by name are the ones registered, once each. */
static void scsi_dh_registered_test(struct kunit *test)
{
	static const char * const names[] = { "alua", "emc", "hp_sw", "rdac" };
	struct scsi_device_handler *tmp;
	unsigned int i, n;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		n = 0;
		spin_lock(&list_lock);
		list_for_each_entry(tmp, &scsi_dh_list, list)
			n += !strcmp(tmp->name, names[i]);
		spin_unlock(&list_lock);
		KUNIT_EXPECT_EQ_MSG(test, n, 1U, "%s registered %u times", names[i], n);
		KUNIT_EXPECT_PTR_EQ(test, scsi_dh_lookup(names[i]), __scsi_dh_lookup(names[i]));
	}
}

static int scsi_dh_test_is_debug_sdev(struct device *dev, const void *data)
{
	return scsi_is_sdev_device(dev) &&
	       !strcmp(to_scsi_device(dev)->host->hostt->proc_name, "scsi_debug");
}

static void scsi_dh_test_put_sdev(void *sdev)
{
	put_device(&((struct scsi_device *)sdev)->sdev_gendev);
}

/* The disk scsi_debug (built in by .kunitconfig) made at boot. */
static struct scsi_device *scsi_dh_test_sdev(struct kunit *test)
{
	struct device *dev = bus_find_device(&scsi_bus_type, NULL, NULL,
					     scsi_dh_test_is_debug_sdev);

	KUNIT_ASSERT_NOT_NULL_MSG(test, dev, "no scsi_debug device (CONFIG_SCSI_DEBUG=y?)");
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, scsi_dh_test_put_sdev,
							to_scsi_device(dev)), 0);
	return to_scsi_device(dev);
}

/*
 * scsi_dh_attach() on a real device with a name no handler has: -EINVAL,
 * and the device is left without a handler.
 */
static const struct scsi_dh_lookup_case scsi_dh_attach_cases[] = {
	{ "empty",		"" },
	{ "unknown",		"nosuchdh" },
	{ "one letter short",	"alu" },
};

KUNIT_ARRAY_PARAM_DESC(scsi_dh_attach, scsi_dh_attach_cases, desc);

static void scsi_dh_attach_test(struct kunit *test)
{
	const struct scsi_dh_lookup_case *c = test->param_value;
	struct scsi_device *sdev = scsi_dh_test_sdev(test);

	KUNIT_ASSERT_NULL(test, sdev->handler);
	KUNIT_EXPECT_EQ(test, scsi_dh_attach(sdev->request_queue, c->name), -EINVAL);
	KUNIT_EXPECT_NULL(test, sdev->handler);
	KUNIT_EXPECT_NULL(test, scsi_dh_attached_handler_name(sdev->request_queue, GFP_KERNEL));
}

static void scsi_dh_test_detach(void *sdev)
{
	struct scsi_device *s = sdev;

	/* What scsi_dh_release_device() does, then no handler again. */
	if (s->handler) {
		scsi_dh_handler_detach(s);
		s->handler = NULL;
	}
}

struct scsi_dh_test_activation {
	int calls;
	int status;
};

static void scsi_dh_test_activated(void *data, int status)
{
	struct scsi_dh_test_activation *a = data;

	a->calls++;
	a->status = status;
}

/*
 * The states of scsi_dh_attach() and scsi_dh_activate() on the scsi_debug
 * disk, as dm-multipath (drivers/md/dm-mpath.c, parse_path()) relies on
 * them: with no handler, activation reports SCSI_DH_NOSYS through the
 * callback; attaching a handler by name attaches it (hp_sw: the handler
 * whose attach only needs TEST UNIT READY, which scsi_debug answers);
 * asking again for the same handler succeeds and attaches nothing new;
 * another handler is refused with -EBUSY and an unknown name with -EINVAL,
 * both leaving the first in place; activation then goes to the handler,
 * which reports SCSI_DH_OK for an active path.
 */
static void scsi_dh_attach_states_test(struct kunit *test)
{
	struct scsi_device *sdev = scsi_dh_test_sdev(test);
	struct request_queue *q = sdev->request_queue;
	struct scsi_dh_test_activation act = { 0, -1 };
	const char *name;
	void *data;

	KUNIT_ASSERT_NULL(test, sdev->handler);
	KUNIT_EXPECT_EQ(test, scsi_dh_activate(q, scsi_dh_test_activated, &act), SCSI_DH_NOSYS);
	KUNIT_EXPECT_EQ(test, act.calls, 1);
	KUNIT_EXPECT_EQ(test, act.status, SCSI_DH_NOSYS);

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, scsi_dh_test_detach, sdev), 0);
	KUNIT_ASSERT_EQ(test, scsi_dh_attach(q, "hp_sw"), 0);
	KUNIT_ASSERT_NOT_NULL(test, sdev->handler);
	KUNIT_EXPECT_STREQ(test, sdev->handler->name, "hp_sw");
	KUNIT_ASSERT_NOT_NULL(test, sdev->handler_data);
	data = sdev->handler_data;
	name = scsi_dh_attached_handler_name(q, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, name);
	KUNIT_EXPECT_STREQ(test, name, "hp_sw");
	kfree(name);

	KUNIT_EXPECT_EQ(test, scsi_dh_attach(q, "hp_sw"), 0);
	KUNIT_EXPECT_PTR_EQ(test, sdev->handler_data, data);
	KUNIT_EXPECT_EQ(test, scsi_dh_attach(q, "alua"), -EBUSY);
	KUNIT_EXPECT_EQ(test, scsi_dh_attach(q, "nosuchdh"), -EINVAL);
	KUNIT_EXPECT_EQ(test, scsi_dh_attach(q, ""), -EINVAL);
	KUNIT_ASSERT_NOT_NULL(test, sdev->handler);
	KUNIT_EXPECT_STREQ(test, sdev->handler->name, "hp_sw");
	KUNIT_EXPECT_PTR_EQ(test, sdev->handler_data, data);

	act.calls = 0;
	KUNIT_EXPECT_EQ(test, scsi_dh_activate(q, scsi_dh_test_activated, &act), 0);
	KUNIT_EXPECT_EQ(test, act.calls, 1);
	KUNIT_EXPECT_EQ(test, act.status, SCSI_DH_OK);
}

/*
 * What scsi_dh_attach() makes of each answer of a handler's attach
 * (scsi_dh_handler_attach()): the handler is the device's only when it
 * attached; each failure is an errno, and all but "not for this device"
 * (-ENODEV: SCSI_DH_DEV_UNSUPP, SCSI_DH_NOSYS) say so on the console.
 */
struct scsi_dh_attach_answer {
	const char *desc;
	int attach;
	int want;
	bool logs;
};

static const struct scsi_dh_attach_answer scsi_dh_attach_answers[] = {
	{ "SCSI_DH_OK: attached",		SCSI_DH_OK,		0,	false },
	{ "SCSI_DH_NOMEM: -ENOMEM",		SCSI_DH_NOMEM,		-ENOMEM, true },
	{ "SCSI_DH_RES_TEMP_UNAVAIL: -EAGAIN",	SCSI_DH_RES_TEMP_UNAVAIL, -EAGAIN, true },
	{ "SCSI_DH_DEV_UNSUPP: -ENODEV, quiet",	SCSI_DH_DEV_UNSUPP,	-ENODEV, false },
	{ "SCSI_DH_NOSYS: -ENODEV, quiet",	SCSI_DH_NOSYS,		-ENODEV, false },
	{ "SCSI_DH_DEV_FAILED: -EINVAL",	SCSI_DH_DEV_FAILED,	-EINVAL, true },
	{ "SCSI_DH_IO: -EINVAL",		SCSI_DH_IO,		-EINVAL, true },
	{ "-1, no SCSI_DH_*: -EINVAL",		-1,			-EINVAL, true },
};

KUNIT_ARRAY_PARAM_DESC(scsi_dh_attach_answers, scsi_dh_attach_answers, desc);

static void scsi_dh_attach_answer_test(struct kunit *test)
{
	const struct scsi_dh_attach_answer *c = test->param_value;
	struct scsi_device *sdev = scsi_dh_test_sdev(test);
	char code[16];

	KUNIT_ASSERT_NULL(test, sdev->handler);
	scsi_dh_fake_register(test, c->attach);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, scsi_dh_test_detach, sdev), 0);
	KUNIT_EXPECT_EQ(test, scsi_dh_attach(sdev->request_queue, SCSI_DH_FAKE), c->want);
	KUNIT_EXPECT_EQ(test, scsi_dh_fake.attached, 1);
	KUNIT_EXPECT_PTR_EQ(test, sdev->handler, c->want ? NULL : &scsi_dh_fake_handler);
	KUNIT_EXPECT_EQ(test, atomic_read(&scsi_dh_fake.logged), c->logs ? 1 : 0);
	if (c->logs) {
		snprintf(code, sizeof(code), "(%d)", c->attach);
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(scsi_dh_fake.line, code),
					  "logged: %s", scsi_dh_fake.line);
	}
	if (c->want)
		return;
	/* attached: another handler is refused, wherever it lies in memory */
	KUNIT_EXPECT_EQ(test, scsi_dh_attach(sdev->request_queue, "alua"), -EBUSY);
	KUNIT_EXPECT_EQ(test, scsi_dh_attach(sdev->request_queue, "rdac"), -EBUSY);
	KUNIT_EXPECT_EQ(test, scsi_dh_attach(sdev->request_queue, SCSI_DH_FAKE_PASSIVE), -EBUSY);
	KUNIT_EXPECT_EQ(test, scsi_dh_attach(sdev->request_queue, SCSI_DH_FAKE), 0);
	KUNIT_EXPECT_EQ(test, scsi_dh_fake.attached, 1);
}

/*
 * scsi_dh_activate() in each state of the device, as dm-multipath calls
 * it to switch paths: the callback hears every outcome, once, unless the
 * handler took the activation (it calls back) or has no activate (a
 * handler that only attaches: nothing to call back, and the function
 * hands back what it last set, SCSI_DH_DEV_OFFLINED). A device being
 * deleted is not connected, an offline one is offlined; every other state
 * activates. A NULL callback is allowed.
 */
struct scsi_dh_activation {
	const char *desc;
	enum scsi_device_state state;
	struct scsi_device_handler *handler;
	bool callback;
	int want;		/* returned, and called back when called */
	int calls;		/* of the callback */
	int activated;		/* calls of the handler's activate */
};

static const struct scsi_dh_activation scsi_dh_activations[] = {
	{ "no handler", SDEV_RUNNING, NULL, true, SCSI_DH_NOSYS, 1, 0 },
	{ "no handler, no callback", SDEV_RUNNING, NULL, false, SCSI_DH_NOSYS, 0, 0 },
	{ "SDEV_CREATED", SDEV_CREATED, &scsi_dh_fake_handler, true, SCSI_DH_OK, 1, 1 },
	{ "SDEV_RUNNING", SDEV_RUNNING, &scsi_dh_fake_handler, true, SCSI_DH_OK, 1, 1 },
	{ "SDEV_RUNNING, no callback", SDEV_RUNNING, &scsi_dh_fake_handler, false,
	  SCSI_DH_OK, 0, 1 },
	{ "SDEV_CANCEL", SDEV_CANCEL, &scsi_dh_fake_handler, true, SCSI_DH_NOTCONN, 1, 0 },
	{ "SDEV_DEL", SDEV_DEL, &scsi_dh_fake_handler, true, SCSI_DH_NOTCONN, 1, 0 },
	{ "SDEV_QUIESCE", SDEV_QUIESCE, &scsi_dh_fake_handler, true, SCSI_DH_OK, 1, 1 },
	{ "SDEV_OFFLINE", SDEV_OFFLINE, &scsi_dh_fake_handler, true, SCSI_DH_DEV_OFFLINED, 1, 0 },
	{ "SDEV_OFFLINE, no callback", SDEV_OFFLINE, &scsi_dh_fake_handler, false,
	  SCSI_DH_DEV_OFFLINED, 0, 0 },
	{ "SDEV_TRANSPORT_OFFLINE", SDEV_TRANSPORT_OFFLINE, &scsi_dh_fake_handler, true,
	  SCSI_DH_OK, 1, 1 },
	{ "SDEV_BLOCK", SDEV_BLOCK, &scsi_dh_fake_handler, true, SCSI_DH_OK, 1, 1 },
	{ "SDEV_CREATED_BLOCK", SDEV_CREATED_BLOCK, &scsi_dh_fake_handler, true,
	  SCSI_DH_OK, 1, 1 },
	{ "handler without activate", SDEV_RUNNING, &scsi_dh_fake_passive, true,
	  SCSI_DH_DEV_OFFLINED, 0, 0 },
};

KUNIT_ARRAY_PARAM_DESC(scsi_dh_activations, scsi_dh_activations, desc);

static void scsi_dh_activation_test(struct kunit *test)
{
	const struct scsi_dh_activation *c = test->param_value;
	struct scsi_device *sdev = scsi_dh_test_sdev(test);
	struct scsi_dh_test_activation act = { 0, -1 };
	enum scsi_device_state saved;
	int ret;

	KUNIT_ASSERT_NULL(test, sdev->handler);
	scsi_dh_fake_register(test, SCSI_DH_OK);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, scsi_dh_test_detach, sdev), 0);
	if (c->handler) {
		KUNIT_ASSERT_EQ(test, scsi_dh_attach(sdev->request_queue, c->handler->name), 0);
		KUNIT_ASSERT_PTR_EQ(test, sdev->handler, c->handler);
	}
	/* only the state's value is read: no command goes to the disk meanwhile */
	saved = sdev->sdev_state;
	WRITE_ONCE(sdev->sdev_state, c->state);
	ret = scsi_dh_activate(sdev->request_queue,
			       c->callback ? scsi_dh_test_activated : NULL, &act);
	WRITE_ONCE(sdev->sdev_state, saved);

	KUNIT_EXPECT_EQ(test, ret, c->want);
	KUNIT_EXPECT_EQ(test, act.calls, c->calls);
	if (c->calls)
		KUNIT_EXPECT_EQ(test, act.status, c->want);
	KUNIT_EXPECT_EQ(test, scsi_dh_fake.activated, c->activated);
	KUNIT_EXPECT_PTR_EQ(test, sdev->handler, c->handler);
}

/*
 * A queue of no SCSI device (dm-multipath's path may be any block
 * device): scsi_device_from_queue() reads only its mq_ops, so a zeroed
 * one stands for it. No handler attaches, and activation reports
 * SCSI_DH_NOSYS, to the callback too.
 */
static void scsi_dh_not_scsi_test(struct kunit *test)
{
	struct request_queue *q = kunit_kzalloc(test, sizeof(*q), GFP_KERNEL);
	struct scsi_dh_test_activation act = { 0, -1 };

	KUNIT_ASSERT_NOT_NULL(test, q);
	KUNIT_EXPECT_EQ(test, scsi_dh_attach(q, "hp_sw"), -ENODEV);
	KUNIT_EXPECT_EQ(test, scsi_dh_activate(q, scsi_dh_test_activated, &act), SCSI_DH_NOSYS);
	KUNIT_EXPECT_EQ(test, act.calls, 1);
	KUNIT_EXPECT_EQ(test, act.status, SCSI_DH_NOSYS);
	KUNIT_EXPECT_EQ(test, scsi_dh_activate(q, NULL, NULL), SCSI_DH_NOSYS);
	KUNIT_EXPECT_NULL(test, scsi_dh_attached_handler_name(q, GFP_KERNEL));
}

/*
 * The seed fix itself: a NULL name. Last in the suite, because without
 * the fix __scsi_dh_lookup() oopses with list_lock held, and every later
 * lookup would spin on it.
 */
static void scsi_dh_null_name_test(struct kunit *test)
{
	struct scsi_device *sdev = scsi_dh_test_sdev(test);

	KUNIT_EXPECT_NULL(test, scsi_dh_lookup(NULL));
	KUNIT_EXPECT_EQ(test, scsi_dh_attach(sdev->request_queue, NULL), -EINVAL);
	KUNIT_EXPECT_NULL(test, sdev->handler);
}

#ifdef CONFIG_MODULES
#define SCSI_DH_FAKE_LOADABLE	"kunit_loadable"

static struct scsi_device_handler scsi_dh_fake_loadable = {
	.name = SCSI_DH_FAKE_LOADABLE,
	.module = THIS_MODULE,
	.attach = scsi_dh_fake_attach,
	.detach = scsi_dh_fake_detach,
};

static void scsi_dh_fake_loadable_gone(void *unused)
{
	WRITE_ONCE(scsi_dh_test_requests.load, NULL);
	scsi_unregister_device_handler(&scsi_dh_fake_loadable);
}

/*
 * A handler whose module the lookup's request loads (the request
 * registers it, as the module's init would) is the one the lookup hands
 * back; the next lookup finds it without asking again.
 */
static void scsi_dh_module_load_test(struct kunit *test)
{
	int preempt = preempt_count();

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, scsi_dh_fake_loadable_gone, NULL),
			0);
	atomic_set(&scsi_dh_test_requests.count, 0);
	WRITE_ONCE(scsi_dh_test_requests.load, &scsi_dh_fake_loadable);
	KUNIT_EXPECT_PTR_EQ(test, scsi_dh_lookup(SCSI_DH_FAKE_LOADABLE), &scsi_dh_fake_loadable);
	KUNIT_EXPECT_EQ(test, atomic_read(&scsi_dh_test_requests.count), 1);
	KUNIT_EXPECT_NULL(test, READ_ONCE(scsi_dh_test_requests.load));
	KUNIT_EXPECT_PTR_EQ(test, scsi_dh_lookup(SCSI_DH_FAKE_LOADABLE), &scsi_dh_fake_loadable);
	KUNIT_EXPECT_EQ(test, atomic_read(&scsi_dh_test_requests.count), 1);
	KUNIT_EXPECT_EQ(test, preempt_count(), preempt);
}
#endif

static struct kunit_case scsi_dh_test_cases[] = {
	KUNIT_CASE_PARAM(scsi_dh_lookup_test, scsi_dh_lookup_gen_params),
	SCSI_DH_MODULE_REQUEST_CASE,
	SCSI_DH_MODULE_LOAD_CASE
	KUNIT_CASE(scsi_dh_registered_test),
	KUNIT_CASE_PARAM(scsi_dh_attach_test, scsi_dh_attach_gen_params),
	KUNIT_CASE(scsi_dh_attach_states_test),
	KUNIT_CASE_PARAM(scsi_dh_attach_answer_test, scsi_dh_attach_answers_gen_params),
	KUNIT_CASE_PARAM(scsi_dh_activation_test, scsi_dh_activations_gen_params),
	KUNIT_CASE(scsi_dh_not_scsi_test),
	KUNIT_CASE(scsi_dh_null_name_test),
	{}
};

static struct kunit_suite scsi_dh_test_suite = {
	.name = "scsi_dh",
	.suite_init = scsi_dh_test_suite_init,
	.suite_exit = scsi_dh_test_suite_exit,
	.test_cases = scsi_dh_test_cases,
};

kunit_test_suite(scsi_dh_test_suite);

#ifndef MODULE
/*
 * The suites run once the initcalls are done, while scsi_debug's host may
 * still be scanned and sd still probing its disk, both asynchronous. Wait
 * for them: the cases want the disk, and sd's messages would otherwise
 * land inside the suites' KTAP output, where a line between a suite's
 * "KTAP version 1" and its "# Subtest:" line breaks kunit.py's parse.
 */
static int __init scsi_dh_test_wait_for_disk(void)
{
	wait_for_device_probe();
	return 0;
}
late_initcall_sync(scsi_dh_test_wait_for_disk);
#endif
