// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the device-info quirks, included at the end of
 * scsi_devinfo.c: what scsi_get_device_flags_keyed() gives for the
 * vendor and model strings as INQUIRY returns them (space-padded to 8
 * and 16 bytes).
 *
 * The Microsoft iSCSI target ("MSFT", "Virtual HD") came in with the
 * scsi-fixes merge f0d98d85831b: it takes at most 1024 sectors per
 * command and fails REPORT SUPPORTED OPERATION CODES.
 */
#include <kunit/test.h>

struct scsi_devinfo_case {
	const char *desc;
	char vendor[9];		/* INQUIRY bytes 8 - 15 */
	char model[17];		/* INQUIRY bytes 16 - 31 */
	blist_flags_t want;
};

static const struct scsi_devinfo_case scsi_devinfo_cases[] = {
	{ "MSFT Virtual HD",	"MSFT    ", "Virtual HD      ", BLIST_MAX_1024 | BLIST_NO_RSOC },
	/* leading spaces are skipped, as in scsi_dev_info_list_find() */
	{ "MSFT, leading space", " MSFT   ", "Virtual HD      ", BLIST_MAX_1024 | BLIST_NO_RSOC },
	/* the model is matched as a prefix */
	{ "MSFT Virtual HDD",	"MSFT    ", "Virtual HDD     ", BLIST_MAX_1024 | BLIST_NO_RSOC },
	/* near misses */
	{ "MSFT Virtual H",	"MSFT    ", "Virtual H       ", 0 },
	{ "MSFT Virtual Disk",	"MSFT    ", "Virtual Disk    ", 0 },
	{ "MSFT Virtual_HD",	"MSFT    ", "Virtual_HD      ", 0 },
	{ "Msft Virtual HD",	"Msft    ", "Virtual HD      ", 0 },
	{ "MSFTX Virtual HD",	"MSFTX   ", "Virtual HD      ", 0 },
	{ "Microsoft Virtual HD", "Microsof", "Virtual HD      ", 0 },
	/* unrelated devices get nothing */
	{ "QEMU HARDDISK",	"QEMU    ", "QEMU HARDDISK   ", 0 },
};

KUNIT_ARRAY_PARAM_DESC(scsi_devinfo, scsi_devinfo_cases, desc);

static void scsi_devinfo_flags_test(struct kunit *test)
{
	const struct scsi_devinfo_case *c = test->param_value;
	struct scsi_device *sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);
	blist_flags_t got;

	KUNIT_ASSERT_NOT_NULL(test, sdev);
	KUNIT_ASSERT_EQ_MSG(test, (blist_flags_t)scsi_default_dev_flags, (blist_flags_t)0,
			    "scsi_mod.default_dev_flags is set");
	got = scsi_get_device_flags_keyed(sdev, c->vendor, c->model, SCSI_DEVINFO_GLOBAL);
	KUNIT_EXPECT_EQ_MSG(test, got, c->want, "flags %#llx, want %#llx",
			    (unsigned long long)got, (unsigned long long)c->want);
}

static struct kunit_case scsi_devinfo_test_cases[] = {
	KUNIT_CASE_PARAM(scsi_devinfo_flags_test, scsi_devinfo_gen_params),
	{}
};

static struct kunit_suite scsi_devinfo_test_suite = {
	.name = "scsi_devinfo",
	.test_cases = scsi_devinfo_test_cases,
};

kunit_test_suite(scsi_devinfo_test_suite);
