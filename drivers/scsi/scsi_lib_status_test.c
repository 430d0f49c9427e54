// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for scsi_result_to_blk_status(), included at the end of
 * scsi_lib.c so that the static function can be called.
 *
 * The result word is, from the low byte up: the SAM status byte, the
 * scsi-ml byte (SCSIML_STAT_*), the host byte (DID_*) and the unused old
 * driver byte. The scsi-ml byte wins; then DID_OK asks
 * scsi_status_is_good(), which counts GOOD and CONDITION MET (commit
 * f4abab3f182b, "scsi: core: Make scsi_result_to_blk_status() recognize
 * CONDITION MET") and the obsolete intermediate statuses; the two
 * transport host bytes map to BLK_STS_TRANSPORT; everything else is an
 * I/O error.
 */
#include <kunit/test.h>

#include <scsi/scsi.h>
#include <scsi/scsi_proto.h>
#include <scsi/scsi_status.h>

/* v6.5 renamed BLK_STS_NEXUS, the status of a reservation conflict. */
#ifndef BLK_STS_RESV_CONFLICT
#define BLK_STS_RESV_CONFLICT BLK_STS_NEXUS
#endif

/* A result word from its bytes. */
#define RES(host, ml, status) (((host) << 16) | ((ml) << 8) | (status))

struct scsi_status_case {
	const char *name;
	int result;
	blk_status_t want;
};

/* Every host byte the kernel defines, with a good status. */
static const struct scsi_status_case scsi_host_byte_cases[] = {
	{ "DID_OK",		RES(DID_OK, 0, SAM_STAT_GOOD),		BLK_STS_OK },
	/* DID_NO_CONNECT and the rest: a host error, whatever the status */
	{ "DID_NO_CONNECT",	RES(DID_NO_CONNECT, 0, SAM_STAT_GOOD),	BLK_STS_IOERR },
	{ "DID_BUS_BUSY",	RES(DID_BUS_BUSY, 0, SAM_STAT_GOOD),	BLK_STS_IOERR },
	{ "DID_TIME_OUT",	RES(DID_TIME_OUT, 0, SAM_STAT_GOOD),	BLK_STS_IOERR },
	{ "DID_BAD_TARGET",	RES(DID_BAD_TARGET, 0, SAM_STAT_GOOD),	BLK_STS_IOERR },
	{ "DID_ABORT",		RES(DID_ABORT, 0, SAM_STAT_GOOD),	BLK_STS_IOERR },
	{ "DID_PARITY",		RES(DID_PARITY, 0, SAM_STAT_GOOD),	BLK_STS_IOERR },
	{ "DID_ERROR",		RES(DID_ERROR, 0, SAM_STAT_GOOD),	BLK_STS_IOERR },
	{ "DID_RESET",		RES(DID_RESET, 0, SAM_STAT_GOOD),	BLK_STS_IOERR },
	{ "DID_BAD_INTR",	RES(DID_BAD_INTR, 0, SAM_STAT_GOOD),	BLK_STS_IOERR },
	{ "DID_PASSTHROUGH",	RES(DID_PASSTHROUGH, 0, SAM_STAT_GOOD),	BLK_STS_IOERR },
	{ "DID_SOFT_ERROR",	RES(DID_SOFT_ERROR, 0, SAM_STAT_GOOD),	BLK_STS_IOERR },
	{ "DID_IMM_RETRY",	RES(DID_IMM_RETRY, 0, SAM_STAT_GOOD),	BLK_STS_IOERR },
	{ "DID_REQUEUE",	RES(DID_REQUEUE, 0, SAM_STAT_GOOD),	BLK_STS_IOERR },
	{ "DID_TRANSPORT_DISRUPTED", RES(DID_TRANSPORT_DISRUPTED, 0, SAM_STAT_GOOD),
	  BLK_STS_IOERR },
	/* the transport class failed the I/O fast: the path, not the target */
	{ "DID_TRANSPORT_FAILFAST", RES(DID_TRANSPORT_FAILFAST, 0, SAM_STAT_GOOD),
	  BLK_STS_TRANSPORT },
	/* 0x10 - 0x13: the retired DID_TARGET_FAILURE .. DID_MEDIUM_ERROR */
	{ "retired 0x10",	RES(0x10, 0, SAM_STAT_GOOD),		BLK_STS_IOERR },
	{ "retired 0x11",	RES(0x11, 0, SAM_STAT_GOOD),		BLK_STS_IOERR },
	{ "retired 0x12",	RES(0x12, 0, SAM_STAT_GOOD),		BLK_STS_IOERR },
	{ "retired 0x13",	RES(0x13, 0, SAM_STAT_GOOD),		BLK_STS_IOERR },
	{ "DID_TRANSPORT_MARGINAL", RES(DID_TRANSPORT_MARGINAL, 0, SAM_STAT_GOOD),
	  BLK_STS_TRANSPORT },
	/* past the last DID_*: unknown host bytes are errors */
	{ "0x15, unknown",	RES(0x15, 0, SAM_STAT_GOOD),		BLK_STS_IOERR },
	{ "0xff, unknown",	RES(0xff, 0, SAM_STAT_GOOD),		BLK_STS_IOERR },
};

/* Every SAM status byte under DID_OK. */
static const struct scsi_status_case scsi_sam_status_cases[] = {
	{ "GOOD",			RES(DID_OK, 0, SAM_STAT_GOOD),		BLK_STS_OK },
	{ "CHECK_CONDITION",		RES(DID_OK, 0, SAM_STAT_CHECK_CONDITION), BLK_STS_IOERR },
	/* the seed fix: CONDITION MET completes a PRE-FETCH normally */
	{ "CONDITION_MET",		RES(DID_OK, 0, SAM_STAT_CONDITION_MET),	BLK_STS_OK },
	{ "BUSY",			RES(DID_OK, 0, SAM_STAT_BUSY),		BLK_STS_IOERR },
	/* obsolete in SAM-4, still counted good */
	{ "INTERMEDIATE",		RES(DID_OK, 0, SAM_STAT_INTERMEDIATE),	BLK_STS_OK },
	{ "INTERMEDIATE_CONDITION_MET",	RES(DID_OK, 0, SAM_STAT_INTERMEDIATE_CONDITION_MET),
	  BLK_STS_OK },
	/* as a status byte only; scsi-ml turns it into SCSIML_STAT_RESV_CONFLICT */
	{ "RESERVATION_CONFLICT",	RES(DID_OK, 0, SAM_STAT_RESERVATION_CONFLICT),
	  BLK_STS_IOERR },
	/* obsolete in SAM-3, still counted good */
	{ "COMMAND_TERMINATED",		RES(DID_OK, 0, SAM_STAT_COMMAND_TERMINATED), BLK_STS_OK },
	{ "TASK_SET_FULL",		RES(DID_OK, 0, SAM_STAT_TASK_SET_FULL),	BLK_STS_IOERR },
	{ "ACA_ACTIVE",			RES(DID_OK, 0, SAM_STAT_ACA_ACTIVE),	BLK_STS_IOERR },
	{ "TASK_ABORTED",		RES(DID_OK, 0, SAM_STAT_TASK_ABORTED),	BLK_STS_IOERR },
	/* a good status does not rescue a host error */
	{ "CONDITION_MET, DID_ERROR",	RES(DID_ERROR, 0, SAM_STAT_CONDITION_MET), BLK_STS_IOERR },
	{ "CONDITION_MET, DID_NO_CONNECT", RES(DID_NO_CONNECT, 0, SAM_STAT_CONDITION_MET),
	  BLK_STS_IOERR },
};

/* The scsi-ml byte overrides the host and status bytes. */
static const struct scsi_status_case scsi_ml_byte_cases[] = {
	{ "RESV_CONFLICT",	RES(DID_OK, SCSIML_STAT_RESV_CONFLICT, SAM_STAT_GOOD),
	  BLK_STS_RESV_CONFLICT },
	{ "RESV_CONFLICT over FAILFAST", RES(DID_TRANSPORT_FAILFAST, SCSIML_STAT_RESV_CONFLICT,
	  SAM_STAT_GOOD), BLK_STS_RESV_CONFLICT },
	{ "NOSPC",		RES(DID_OK, SCSIML_STAT_NOSPC, SAM_STAT_GOOD),	BLK_STS_NOSPC },
	{ "NOSPC over DID_ERROR", RES(DID_ERROR, SCSIML_STAT_NOSPC, SAM_STAT_CHECK_CONDITION),
	  BLK_STS_NOSPC },
	{ "MED_ERROR",		RES(DID_OK, SCSIML_STAT_MED_ERROR, SAM_STAT_CHECK_CONDITION),
	  BLK_STS_MEDIUM },
	{ "TGT_FAILURE",	RES(DID_OK, SCSIML_STAT_TGT_FAILURE, SAM_STAT_CHECK_CONDITION),
	  BLK_STS_TARGET },
	{ "TGT_FAILURE over MARGINAL", RES(DID_TRANSPORT_MARGINAL, SCSIML_STAT_TGT_FAILURE,
	  SAM_STAT_GOOD), BLK_STS_TARGET },
#ifdef BLK_STS_DURATION_LIMIT
	/* command duration limits came with v6.5 */
	{ "DL_TIMEOUT",		RES(DID_OK, SCSIML_STAT_DL_TIMEOUT, SAM_STAT_GOOD),
	  BLK_STS_DURATION_LIMIT },
#endif
	/* an unknown scsi-ml byte leaves the answer to the host byte */
	{ "unknown 0x06, DID_OK", RES(DID_OK, 0x06, SAM_STAT_GOOD),	BLK_STS_OK },
	{ "unknown 0xff, FAILFAST", RES(DID_TRANSPORT_FAILFAST, 0xff, SAM_STAT_GOOD),
	  BLK_STS_TRANSPORT },
};

/* The edges of scsi_status_is_good() as the function meets them. */
static const struct scsi_status_case scsi_good_edge_cases[] = {
	/* negative: bit 31 set, though every byte below reads DID_OK/GOOD */
	{ "negative, GOOD",	(int)(0x80000000u | SAM_STAT_GOOD),	BLK_STS_IOERR },
	{ "negative, CONDITION_MET", (int)(0x80000000u | SAM_STAT_CONDITION_MET),
	  BLK_STS_IOERR },
	/* bit 0 is reserved in SCSI-2 and masked off */
	{ "GOOD | bit 0",	RES(DID_OK, 0, SAM_STAT_GOOD | 1),	BLK_STS_OK },
	{ "CONDITION_MET | bit 0", RES(DID_OK, 0, SAM_STAT_CONDITION_MET | 1), BLK_STS_OK },
	{ "CHECK_CONDITION | bit 0", RES(DID_OK, 0, SAM_STAT_CHECK_CONDITION | 1),
	  BLK_STS_IOERR },
	{ "INTERMEDIATE | bit 0", RES(DID_OK, 0, SAM_STAT_INTERMEDIATE | 1), BLK_STS_OK },
	{ "INTERMEDIATE_CONDITION_MET | bit 0",
	  RES(DID_OK, 0, SAM_STAT_INTERMEDIATE_CONDITION_MET | 1),		BLK_STS_OK },
	{ "COMMAND_TERMINATED | bit 0", RES(DID_OK, 0, SAM_STAT_COMMAND_TERMINATED | 1),
	  BLK_STS_OK },
	/* the bits above bit 0 of a good status are not masked */
	{ "GOOD | bit 1 (CHECK_CONDITION)", RES(DID_OK, 0, SAM_STAT_GOOD | 2), BLK_STS_IOERR },
	/* bits 24 - 30, the old driver byte, change nothing */
	{ "driver byte 0x01, GOOD", (int)(0x01000000u | SAM_STAT_GOOD),	BLK_STS_OK },
	{ "driver byte 0x7f, CONDITION_MET", (int)(0x7f000000u | SAM_STAT_CONDITION_MET),
	  BLK_STS_OK },
	{ "driver byte 0x08, CHECK_CONDITION", (int)(0x08000000u | SAM_STAT_CHECK_CONDITION),
	  BLK_STS_IOERR },
	{ "driver byte 0x7f, FAILFAST", (int)(0x7f000000u | RES(DID_TRANSPORT_FAILFAST, 0, 0)),
	  BLK_STS_TRANSPORT },
	{ "driver byte 0x7f, NOSPC", (int)(0x7f000000u | RES(DID_OK, SCSIML_STAT_NOSPC, 0)),
	  BLK_STS_NOSPC },
};

KUNIT_ARRAY_PARAM_DESC(scsi_host_byte, scsi_host_byte_cases, name);
KUNIT_ARRAY_PARAM_DESC(scsi_sam_status, scsi_sam_status_cases, name);
KUNIT_ARRAY_PARAM_DESC(scsi_ml_byte, scsi_ml_byte_cases, name);
KUNIT_ARRAY_PARAM_DESC(scsi_good_edge, scsi_good_edge_cases, name);

static void scsi_status_check(struct kunit *test)
{
	const struct scsi_status_case *c = test->param_value;

	KUNIT_EXPECT_EQ_MSG(test, scsi_result_to_blk_status(c->result), c->want,
			    "result %#010x", c->result);
}

/* One case per table, each named after it. */
#define SCSI_STATUS_TABLE_TEST(table)						\
	static void table##_test(struct kunit *test)				\
	{									\
		scsi_status_check(test);					\
	}

SCSI_STATUS_TABLE_TEST(scsi_host_byte)
SCSI_STATUS_TABLE_TEST(scsi_sam_status)
SCSI_STATUS_TABLE_TEST(scsi_ml_byte)
SCSI_STATUS_TABLE_TEST(scsi_good_edge)

/* The statuses scsi_result_to_blk_status() may return. */
static const blk_status_t scsi_known_statuses[] = {
	BLK_STS_OK, BLK_STS_IOERR, BLK_STS_TRANSPORT, BLK_STS_RESV_CONFLICT,
	BLK_STS_NOSPC, BLK_STS_MEDIUM, BLK_STS_TARGET,
#ifdef BLK_STS_DURATION_LIMIT
	BLK_STS_DURATION_LIMIT,
#endif
};

static bool scsi_known_blk_status(blk_status_t sts)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(scsi_known_statuses); i++)
		if (sts == scsi_known_statuses[i])
			return true;
	return false;
}

/* Every host byte with every status, then every scsi-ml byte: known values only. */
static void scsi_result_to_blk_status_range_test(struct kunit *test)
{
	unsigned int host, status, ml, ok = 0, bad = 0;

	for (host = 0; host <= 0xff; host++) {
		for (status = 0; status <= 0xff; status++) {
			int result = RES(host, 0, status);
			blk_status_t sts = scsi_result_to_blk_status(result);

			if (!scsi_known_blk_status(sts) && bad++ < 8)
				KUNIT_FAIL(test, "result %#x gave blk_status_t %u", result,
					   (__force unsigned int)sts);
			ok += sts == BLK_STS_OK;
		}
	}
	for (ml = 0; ml <= 0xff; ml++) {
		blk_status_t sts = scsi_result_to_blk_status(RES(DID_OK, ml, SAM_STAT_GOOD));

		if (!scsi_known_blk_status(sts) && bad++ < 8)
			KUNIT_FAIL(test, "scsi-ml byte %#x gave blk_status_t %u", ml,
				   (__force unsigned int)sts);
	}
	KUNIT_EXPECT_EQ(test, bad, 0U);
	/* Only DID_OK with the five good statuses, each with bit 0 either way. */
	KUNIT_EXPECT_EQ(test, ok, 10U);
	kunit_info(test, "%u results, %u of them BLK_STS_OK", 0x100 * 0x100 + 0x100, ok);
}

static struct kunit_case scsi_result_to_blk_status_cases[] = {
	KUNIT_CASE_PARAM(scsi_host_byte_test, scsi_host_byte_gen_params),
	KUNIT_CASE_PARAM(scsi_sam_status_test, scsi_sam_status_gen_params),
	KUNIT_CASE_PARAM(scsi_ml_byte_test, scsi_ml_byte_gen_params),
	KUNIT_CASE_PARAM(scsi_good_edge_test, scsi_good_edge_gen_params),
	KUNIT_CASE(scsi_result_to_blk_status_range_test),
	{}
};

static struct kunit_suite scsi_result_to_blk_status_suite = {
	.name = "scsi_result_to_blk_status",
	.test_cases = scsi_result_to_blk_status_cases,
};

kunit_test_suite(scsi_result_to_blk_status_suite);
