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

/*
 * scsi_dev_info_list_find() on a list of the case's own (its key is no
 * SCSI_DEVINFO_*), laid out as scsi_dev_info_list_add_keyed() lays the
 * entries: "compatible" ones (the static table's, NUL-padded) at the
 * tail, in order, the others (space-padded, as scsi_mod.dev_flags adds
 * them) at the head. A compatible entry matches the vendor exactly and
 * the model as a prefix, both with their spaces around skipped; any
 * other matches the 8 and 16 bytes as they are. The first match wins.
 * Vendor, model, revision and the vendor specific bytes lie in one
 * buffer, as in the INQUIRY data, and only a space is skipped: not a
 * tab, not a NUL, not past the model.
 */
#define SCSI_DEVINFO_TEST_KEY	((enum scsi_devinfo_key)0x6b75)

static const struct {
	int compatible;
	char *vendor, *model;
	blist_flags_t flags;
} scsi_devinfo_test_list[] = {
	{ 1, "ACME",	"Disk",		BLIST_NOLUN },
	{ 1, "ACME",	"DiskPro",	BLIST_FORCELUN },	/* "Disk" comes first */
	{ 0, "RAW",	"Exact",	BLIST_BORKEN },
	{ 1, "",	"",		BLIST_KEY },		/* no vendor: blanks only */
	{ 1, "BLANKM",	"",		BLIST_SINGLELUN },	/* any model */
	{ 1, "TRAIL",	"AB ",		BLIST_NOTQ },		/* a space in its model */
};

struct scsi_devinfo_find_case {
	const char *desc;
	char inquiry[37];	/* vendor (8 bytes), model (16), revision (4), more (8) */
	int key;
	blist_flags_t want;	/* the entry found, by its flags */
	int err;		/* or the error */
};

static const struct scsi_devinfo_find_case scsi_devinfo_find_cases[] = {
	{ "exact",		"ACME    Disk            ", 1, BLIST_NOLUN },
	{ "vendor, spaces before", "  ACME  Disk            ", 1, BLIST_NOLUN },
	{ "model, spaces before", "ACME      Disk          ", 1, BLIST_NOLUN },
	{ "model, no space after", "ACME    Disk000000000000", 1, BLIST_NOLUN },
	{ "a longer model: the first prefix", "ACME    DiskPro         ", 1, BLIST_NOLUN },
	{ "vendor longer",	"ACMEX   Disk            ", 1, 0, -ENOENT },
	{ "vendor shorter",	"ACM     Disk            ", 1, 0, -ENOENT },
	{ "vendor, another case", "acme    Disk            ", 1, 0, -ENOENT },
	{ "model shorter",	"ACME    Dis             ", 1, 0, -ENOENT },
	{ "model differs",	"ACME    Disc            ", 1, 0, -ENOENT },
	{ "space padded, exact", "RAW     Exact           ", 1, BLIST_BORKEN },
	{ "space padded, a space before", " RAW    Exact           ", 1, 0, -ENOENT },
	{ "space padded, model longer", "RAW     Exact2          ", 1, 0, -ENOENT },
	{ "space padded, model shorter", "RAW     Exac            ", 1, 0, -ENOENT },
	{ "vendor, a tab before", "\tACME   Disk            ", 1, 0, -ENOENT },
	{ "model, a tab before", "ACME    \tDisk           ", 1, 0, -ENOENT },
	{ "blank vendor",	"        anything        ", 1, BLIST_KEY },
	{ "blank vendor, model spaced", "          anything      ", 1, BLIST_KEY },
	{ "blank model, spaced revision", "BLANKM                    01", 1, BLIST_SINGLELUN },
	{ "blank model, no entry", "ACME                    0001", 1, 0, -ENOENT },
	{ "blank model, a model after it", "ACME                        Disk    ", 1, 0, -ENOENT },
	{ "blank model, a model-like revision", "ACME                    Disk", 1, 0, -ENOENT },
	{ "vendor, a tab after", "ACME\t   Disk            ", 1, 0, -ENOENT },
	{ "vendor, a NUL after", "ACME\0   Disk            ", 1, 0, -ENOENT },
	{ "model's space, blanks after", "TRAIL   AB              ", 1, 0, -ENOENT },
	{ "model's space, a tab after", "TRAIL   AB \t            ", 1, BLIST_NOTQ },
	{ "model's space, more after", "TRAIL   AB X            ", 1, BLIST_NOTQ },
	{ "no such list",	"ACME    Disk            ", 0, 0, -EINVAL },
};

KUNIT_ARRAY_PARAM_DESC(scsi_devinfo_find, scsi_devinfo_find_cases, desc);

static void scsi_devinfo_test_remove_list(void *unused)
{
	scsi_dev_info_remove_list(SCSI_DEVINFO_TEST_KEY);
}

static void scsi_devinfo_find_test(struct kunit *test)
{
	const struct scsi_devinfo_find_case *c = test->param_value;
	enum scsi_devinfo_key key = c->key ? SCSI_DEVINFO_TEST_KEY : SCSI_DEVINFO_TEST_KEY + 1;
	struct scsi_dev_info_list *found;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, scsi_dev_info_add_list(SCSI_DEVINFO_TEST_KEY, "kunit"), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, scsi_devinfo_test_remove_list,
							NULL), 0);
	for (i = 0; i < ARRAY_SIZE(scsi_devinfo_test_list); i++) {
		typeof(scsi_devinfo_test_list[0]) *e = &scsi_devinfo_test_list[i];

		KUNIT_ASSERT_EQ(test, scsi_dev_info_list_add_keyed(e->compatible, e->vendor,
								   e->model, NULL, e->flags,
								   SCSI_DEVINFO_TEST_KEY), 0);
	}

	found = scsi_dev_info_list_find(c->inquiry, c->inquiry + 8, key);
	KUNIT_ASSERT_NOT_NULL(test, found);
	if (c->err) {
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(found), c->err);
		return;
	}
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(found), "error %ld", PTR_ERR(found));
	KUNIT_EXPECT_EQ(test, found->flags, c->want);
}

static struct kunit_case scsi_devinfo_test_cases[] = {
	KUNIT_CASE_PARAM(scsi_devinfo_flags_test, scsi_devinfo_gen_params),
	KUNIT_CASE_PARAM(scsi_devinfo_find_test, scsi_devinfo_find_gen_params),
	{}
};

static struct kunit_suite scsi_devinfo_test_suite = {
	.name = "scsi_devinfo",
	.test_cases = scsi_devinfo_test_cases,
};

kunit_test_suite(scsi_devinfo_test_suite);
