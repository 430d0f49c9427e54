// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for qla2x00_handle_dif_error(), included at the end of
 * qla_isr.c: what a T10 protection information (DIF) error in a status
 * IOCB makes of the command's result, sense data and residual.
 *
 * The command is built by hand, as the SCSI midlayer lays it out: a
 * struct request with the scsi_cmnd behind it (scsi_cmd_to_rq()), a
 * sense buffer, and a scsi_device for the sector size. The status
 * entry carries the tags as the firmware leaves them after
 * qla2x00_status_entry()'s swab32: the actual tags at data[12], the
 * expected ones at data[20], each as app tag (le16), guard (le16),
 * reference tag (le32).
 */

#include <kunit/test.h>
#include <linux/scatterlist.h>
#include <linux/t10-pi.h>
#include <scsi/scsi_common.h>

#include "qla_kunit_log.h"

#define QLA_PROT_SGS	3

struct qla_dif_cmd {
	struct request rq;
	struct scsi_cmnd cmd;		/* right behind its request */
};

struct qla_dif_tags {
	u16 app;
	u16 guard;
	u32 ref;
};

struct qla_dif_case {
	const char *desc;
	unsigned char prot_type;
	unsigned int sector_size;
	struct qla_dif_tags actual, expected;
	int ret;			/* what qla2x00_handle_dif_error() returns */
	u8 host;			/* host byte of the result */
	bool sense;			/* CHECK CONDITION with sense data, or GOOD */
	u8 asc, ascq;
	unsigned int resid;
	/*
	 * The protection scatterlist: how many 8-byte tuples each entry
	 * holds (none: no list), and the one the driver marks escaped (its
	 * index over the whole list), or -1 for none.
	 */
	unsigned int prot[QLA_PROT_SGS];
	int escaped;
};

#define QLA_LBA		1000
#define QLA_BLOCKS	10
#define QLA_ESC_APP	0xffff
#define QLA_ESC_REF	0xffffffff

/*
 * SBC-3 4.18.1 and SPC-4 Annex D name the three checks: ASC 10h with
 * ASCQ 01h (LOGICAL BLOCK GUARD CHECK FAILED), 03h (LOGICAL BLOCK
 * REFERENCE TAG CHECK FAILED) and 02h (LOGICAL BLOCK APPLICATION TAG
 * CHECK FAILED). SBC-3 reports them with the ABORTED COMMAND sense key;
 * qla2xxx, as 6.12 has it, says ILLEGAL REQUEST, in descriptor format,
 * with DID_ABORT in the host byte, so that the midlayer retries, and the
 * status byte CHECK CONDITION (02h). Before "scsi: qla2xxx: Correct
 * setting of SAM_STAT_CHECK_CONDITION" (merged by commit f0d98d85831b)
 * the status was shifted left by one: 04h, CONDITION MET, which reads
 * as success.
 *
 * An application tag of FFFFh (and for type 3 a reference tag of
 * FFFFFFFFh too) marks a block that must not be checked (SBC-3 4.18.2):
 * the driver then ends the command as GOOD with the blocks before the
 * escaped one done, the rest as residual.
 */
static const struct qla_dif_case qla_dif_cases[] = {
	{ "guard mismatch: guard check failed", 1, 512,
	  { 0x1234, 0xaaaa, QLA_LBA + 2 }, { 0x1234, 0xbbbb, QLA_LBA + 2 },
	  1, DID_ABORT, true, 0x10, 0x01 },
	{ "guard mismatch, the actual one above", 1, 512,
	  { 0x1234, 0xbbbb, QLA_LBA + 2 }, { 0x1234, 0xaaaa, QLA_LBA + 2 },
	  1, DID_ABORT, true, 0x10, 0x01 },
	{ "reference tag mismatch: reference check failed", 1, 512,
	  { 0x1234, 0xaaaa, QLA_LBA + 3 }, { 0x1234, 0xaaaa, QLA_LBA + 2 },
	  1, DID_ABORT, true, 0x10, 0x03 },
	{ "reference tag mismatch, the actual one below", 1, 512,
	  { 0x1234, 0xaaaa, QLA_LBA + 1 }, { 0x1234, 0xaaaa, QLA_LBA + 2 },
	  1, DID_ABORT, true, 0x10, 0x03 },
	{ "application tag mismatch: application check failed", 2, 512,
	  { 0x1235, 0xaaaa, QLA_LBA + 2 }, { 0x1234, 0xaaaa, QLA_LBA + 2 },
	  1, DID_ABORT, true, 0x10, 0x02 },
	{ "application tag mismatch, the actual one below", 2, 512,
	  { 0x1233, 0xaaaa, QLA_LBA + 2 }, { 0x1234, 0xaaaa, QLA_LBA + 2 },
	  1, DID_ABORT, true, 0x10, 0x02 },
	{ "guard and reference mismatch: the guard is reported", 1, 512,
	  { 0x1234, 0xaaaa, QLA_LBA + 3 }, { 0x1234, 0xbbbb, QLA_LBA + 2 },
	  1, DID_ABORT, true, 0x10, 0x01 },
	{ "reference and application mismatch: the reference is reported", 1, 4096,
	  { 0x1235, 0xaaaa, QLA_LBA + 3 }, { 0x1234, 0xaaaa, QLA_LBA + 2 },
	  1, DID_ABORT, true, 0x10, 0x03 },
	{ "type 3, app escape but no ref escape: the tags are checked", 3, 512,
	  { QLA_ESC_APP, 0xaaaa, QLA_LBA + 2 }, { 0x1234, 0xbbbb, QLA_LBA + 2 },
	  1, DID_ABORT, true, 0x10, 0x01 },
	{ "all tags match: error left as it was", 1, 512,
	  { 0x1234, 0xaaaa, QLA_LBA + 2 }, { 0x1234, 0xaaaa, QLA_LBA + 2 },
	  1, DID_ERROR, false },
	{ "type 1 app escape at block 3: GOOD, the blocks after it residual", 1, 512,
	  { QLA_ESC_APP, 0xaaaa, 7 }, { 0x1234, 0xaaaa, QLA_LBA + 2 },
	  0, DID_OK, false, .resid = (QLA_BLOCKS - 3) * 512 },
	{ "type 2 app escape at block 1 of 4096: GOOD, the blocks after it residual", 2, 4096,
	  { QLA_ESC_APP, 0xbbbb, 7 }, { 0x1234, 0xaaaa, QLA_LBA },
	  0, DID_OK, false, .resid = (QLA_BLOCKS - 1) * 4096 },
	{ "type 3 app and ref escape at the last block: GOOD, no residual", 3, 512,
	  { QLA_ESC_APP, 0xaaaa, QLA_ESC_REF }, { 0x1234, 0xaaaa, QLA_LBA + QLA_BLOCKS - 1 },
	  0, DID_OK, false, .resid = 0 },
	/*
	 * With protection information in memory, the escaped block's tuple
	 * is marked too: its app tag (and for type 3 its ref tag) set to
	 * the escape, the tuples around it left alone. Entries of 2, 2 and 4
	 * tuples: block 3 is the first of the second entry.
	 */
	{ "type 1 app escape at block 3, tuples 2+2+4: tuple 2 escaped", 1, 512,
	  { QLA_ESC_APP, 0xaaaa, 7 }, { 0x1234, 0xaaaa, QLA_LBA + 2 },
	  0, DID_OK, false, .resid = (QLA_BLOCKS - 3) * 512, .prot = { 2, 2, 4 }, .escaped = 2 },
	{ "type 1 app escape at block 2, the last tuple of the first entry", 1, 512,
	  { QLA_ESC_APP, 0xaaaa, 7 }, { 0x1234, 0xaaaa, QLA_LBA + 1 },
	  0, DID_OK, false, .resid = (QLA_BLOCKS - 2) * 512, .prot = { 2, 2, 4 }, .escaped = 1 },
	{ "type 1 app escape at block 1, the first tuple", 1, 512,
	  { QLA_ESC_APP, 0xaaaa, 7 }, { 0x1234, 0xaaaa, QLA_LBA },
	  0, DID_OK, false, .resid = (QLA_BLOCKS - 1) * 512, .prot = { 2, 2, 4 }, .escaped = 0 },
	{ "type 2 app escape at block 4, the last tuple of the second entry", 2, 4096,
	  { QLA_ESC_APP, 0xaaaa, 7 }, { 0x1234, 0xaaaa, QLA_LBA + 3 },
	  0, DID_OK, false, .resid = (QLA_BLOCKS - 4) * 4096, .prot = { 2, 2, 4 },
	  .escaped = 3 },
	{ "type 3 escape at the last block, one entry: app and ref escaped", 3, 512,
	  { QLA_ESC_APP, 0xaaaa, QLA_ESC_REF }, { 0x1234, 0xaaaa, QLA_LBA + QLA_BLOCKS - 1 },
	  0, DID_OK, false, .resid = 0, .prot = { QLA_BLOCKS }, .escaped = QLA_BLOCKS - 1 },
	{ "type 3 escape at block 5, tuples 2+2+4: app and ref escaped", 3, 512,
	  { QLA_ESC_APP, 0xaaaa, QLA_ESC_REF }, { 0x1234, 0xaaaa, QLA_LBA + 4 },
	  0, DID_OK, false, .resid = (QLA_BLOCKS - 5) * 512, .prot = { 2, 2, 4 },
	  .escaped = 4 },
	/* A list with fewer tuples than blocks done: warned, ended GOOD anyway, nothing marked. */
	{ "type 1 app escape at block 9, tuples 8+2: the second entry's first", 1, 512,
	  { QLA_ESC_APP, 0xaaaa, 7 }, { 0x1234, 0xaaaa, QLA_LBA + 8 },
	  0, DID_OK, false, .resid = (QLA_BLOCKS - 9) * 512, .prot = { 8, 2 }, .escaped = 8 },
	{ "app escape at block 6, 4 tuples in memory: no tuple to mark", 1, 512,
	  { QLA_ESC_APP, 0xaaaa, 7 }, { 0x1234, 0xaaaa, QLA_LBA + 5 },
	  1, DID_OK, false, .resid = (QLA_BLOCKS - 6) * 512, .prot = { 2, 2 }, .escaped = -1 },
};

KUNIT_ARRAY_PARAM_DESC(qla_dif, qla_dif_cases, desc);

static void qla_dif_put(u8 *at, const struct qla_dif_tags *t)
{
	put_unaligned_le16(t->app, at);
	put_unaligned_le16(t->guard, at + 2);
	put_unaligned_le32(t->ref, at + 4);
}

/*
 * The tuples of @t's protection list in @sdb, each entry followed by a
 * tuple of no entry, so that a tuple reached through the wrong entry is
 * told apart; each holds its place in memory as ref tag. @n: how many.
 */
static struct t10_pi_tuple *qla_dif_prot(struct kunit *test, const struct qla_dif_case *t,
					 struct scsi_data_buffer *sdb, unsigned int *n)
{
	struct t10_pi_tuple *pi;
	struct scatterlist *sg;
	unsigned int i, at = 0;

	for (i = 0, *n = 0; i < QLA_PROT_SGS && t->prot[i]; i++)
		*n += t->prot[i] + 1;
	pi = kunit_kcalloc(test, *n, sizeof(*pi), GFP_KERNEL);
	sg = kunit_kcalloc(test, i, sizeof(*sg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pi);
	KUNIT_ASSERT_NOT_NULL(test, sg);
	sg_init_table(sg, i);
	sdb->table.sgl = sg;
	sdb->table.nents = i;
	sdb->table.orig_nents = i;
	for (i = 0; i < *n; i++) {
		pi[i].guard_tag = cpu_to_be16(0xaaaa);
		pi[i].app_tag = cpu_to_be16(0x1234);
		pi[i].ref_tag = cpu_to_be32(i);
	}
	for (i = 0; i < sdb->table.nents; i++) {
		sg_set_buf(&sg[i], &pi[at], t->prot[i] * sizeof(*pi));
		sg_dma_len(&sg[i]) = t->prot[i] * sizeof(*pi);
		sdb->length += sg_dma_len(&sg[i]);
		at += t->prot[i] + 1;
	}
	return pi;
}

/* Where tuple @tuple of the list (-1: none) is in memory, past the gaps. */
static int qla_dif_slot(const struct qla_dif_case *t, int tuple)
{
	unsigned int i;
	int slot = tuple;

	for (i = 0; i < QLA_PROT_SGS && t->prot[i] && tuple >= (int)t->prot[i]; i++) {
		tuple -= t->prot[i];
		slot++;
	}
	return slot;
}

/* Every tuple as qla_dif_prot() made it but the escaped one. */
static void qla_dif_expect_prot(struct kunit *test, const struct qla_dif_case *t,
				const struct t10_pi_tuple *pi, unsigned int n)
{
	int slot = t->escaped < 0 ? -1 : qla_dif_slot(t, t->escaped);
	unsigned int i;
	bool esc;

	for (i = 0; i < n; i++) {
		esc = (int)i == slot;
		KUNIT_EXPECT_EQ_MSG(test, be16_to_cpu(pi[i].guard_tag), 0xaaaa, "tuple %u", i);
		KUNIT_EXPECT_EQ_MSG(test, be16_to_cpu(pi[i].app_tag),
				    esc ? QLA_ESC_APP : 0x1234, "tuple %u", i);
		KUNIT_EXPECT_EQ_MSG(test, be32_to_cpu(pi[i].ref_tag),
				    esc && t->prot_type == 3 ? QLA_ESC_REF : i, "tuple %u", i);
	}
}

/*
 * What an administrator reads with the I/O debug messages on (no host:
 * the SRB of these cases has none): the status IOCB, then every tag,
 * actual and expected, of the READ(16) at QLA_LBA; and a warning where
 * the escaped block has no tuple in the list.
 */
static void qla_dif_expect_logged(struct kunit *test, struct qla_test_log *log,
				  const struct qla_dif_case *t)
{
	char want[200];

	qla_test_expect_line(test, log, "-3823: : iocb(s) ");
	scnprintf(want, sizeof(want),
		  "-3824: : DIF ERROR in cmd 0x88 lba 0x%x act ref tag=0x%x, exp ref_tag=0x%x, act app tag=0x%x, exp app tag=0x%x, act guard=0x%x, exp guard=0x%x.",
		  QLA_LBA, t->actual.ref, t->expected.ref, t->actual.app, t->expected.app,
		  t->actual.guard, t->expected.guard);
	qla_test_expect_line(test, log, want);
	if (t->prot[0] && t->escaped < 0) {
		scnprintf(want, sizeof(want), "-302f: : unexpected tag values tag:lba=%x:%x)",
			  t->expected.ref, QLA_LBA);
		qla_test_expect_line(test, log, want);
	} else {
		KUNIT_EXPECT_FALSE(test, qla_test_logged(log, "unexpected tag values"));
	}
}

static void qla_dif_error_test(struct kunit *test)
{
	const struct qla_dif_case *t = test->param_value;
	struct qla_test_log *log = qla_test_log_start(test, ql_dbg_io);
	struct scsi_data_buffer *prot = NULL;
	struct t10_pi_tuple *pi = NULL;
	unsigned int tuples = 0;
	struct scsi_sense_hdr sshdr;
	struct sts_entry_24xx *sts;
	struct scsi_device *sdev;
	struct qla_dif_cmd *c;
	struct scsi_cmnd *cmd;
	srb_t *sp;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	sdev = kunit_kzalloc(test, sizeof(*sdev), GFP_KERNEL);
	sts = kunit_kzalloc(test, sizeof(*sts), GFP_KERNEL);
	sp = kunit_kzalloc(test, sizeof(*sp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_NOT_NULL(test, sdev);
	KUNIT_ASSERT_NOT_NULL(test, sts);
	KUNIT_ASSERT_NOT_NULL(test, sp);
	cmd = &c->cmd;
	KUNIT_ASSERT_PTR_EQ(test, scsi_cmd_to_rq(cmd), &c->rq);
	cmd->sense_buffer = kunit_kzalloc(test, SCSI_SENSE_BUFFERSIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cmd->sense_buffer);

	sdev->sector_size = t->sector_size;
	cmd->device = sdev;
	cmd->cmnd[0] = READ_16;
	cmd->cmd_len = 16;
	cmd->prot_type = t->prot_type;
	cmd->sdb.length = QLA_BLOCKS * t->sector_size;
	c->rq.__sector = (sector_t)QLA_LBA * (t->sector_size >> SECTOR_SHIFT);
	sp->u.scmd.cmd = cmd;
	qla_dif_put(&sts->data[12], &t->actual);
	qla_dif_put(&sts->data[20], &t->expected);
	if (t->prot[0]) {
		prot = kunit_kzalloc(test, sizeof(*prot), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, prot);
		pi = qla_dif_prot(test, t, prot, &tuples);
		cmd->prot_sdb = prot;
	}

	KUNIT_ASSERT_EQ(test, scsi_get_lba(cmd), (sector_t)QLA_LBA);
	/* What qla2x00_status_entry() made of the status before */
	cmd->result = DID_ERROR << 16;
	KUNIT_EXPECT_EQ(test, qla2x00_handle_dif_error(sp, sts), t->ret);
	qla_dif_expect_logged(test, log, t);
	KUNIT_EXPECT_EQ(test, host_byte(cmd->result), t->host);
	KUNIT_EXPECT_EQ(test, get_status_byte(cmd),
			t->sense ? SAM_STAT_CHECK_CONDITION : SAM_STAT_GOOD);
	KUNIT_EXPECT_NE(test, get_status_byte(cmd), SAM_STAT_CONDITION_MET);
	KUNIT_EXPECT_EQ(test, scsi_get_resid(cmd), t->resid);
	if (pi)
		qla_dif_expect_prot(test, t, pi, tuples);
	if (!t->sense) {
		KUNIT_EXPECT_EQ(test, cmd->sense_buffer[0], 0);
		return;
	}
	KUNIT_ASSERT_TRUE(test, scsi_normalize_sense(cmd->sense_buffer, SCSI_SENSE_BUFFERSIZE,
						     &sshdr));
	KUNIT_EXPECT_EQ(test, sshdr.response_code, 0x72);	/* current, descriptor */
	KUNIT_EXPECT_EQ(test, sshdr.sense_key, ILLEGAL_REQUEST);
	KUNIT_EXPECT_EQ(test, sshdr.asc, t->asc);
	KUNIT_EXPECT_EQ(test, sshdr.ascq, t->ascq);
}

static struct kunit_case qla_dif_cases_list[] = {
	KUNIT_CASE_PARAM(qla_dif_error_test, qla_dif_gen_params),
	{}
};

static struct kunit_suite qla_dif_suite = {
	.name = "qla2xxx_dif_status",
	.test_cases = qla_dif_cases_list,
};

kunit_test_suite(qla_dif_suite);
