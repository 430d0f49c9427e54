// SPDX-License-Identifier: GPL-2.0
/*
 * CONDITION MET through the block layer: PRE-FETCH (10) of a range the
 * scsi_debug disk has completes with SAM status CONDITION MET (SBC-4
 * 5.9: the blocks fit in its cache), over SG_IO on the sg node and on
 * the block device. On the block device the command is a passthrough
 * request, and its block status must not be an error: the
 * block_rq_complete tracepoint shows it ([0], not [-5]). That status is
 * scsi_result_to_blk_status()'s, which only recognizes CONDITION MET
 * since f4abab3f182b.
 */

#include <scsi/sg.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "files.h"
#include "ktap.h"
#include "scsi_debug.h"

#define TRACING		"/sys/kernel/tracing"
#define SAM_STAT_CONDITION_MET	0x04

/* PRE-FETCH (10) of block 0, one block, IMMED clear; 0 or an errno. */
static int prefetch(const char *dev, struct sg_io_hdr *h)
{
	static unsigned char cdb[10] = { 0x34, 0, 0, 0, 0, 0, 0, 0, 1, 0 };
	static unsigned char sense[32];
	int fd = open(dev, O_RDWR), err = 0;

	if (fd < 0)
		return errno;
	memset(h, 0, sizeof(*h));
	h->interface_id = 'S';
	h->dxfer_direction = SG_DXFER_NONE;
	h->cmd_len = sizeof(cdb);
	h->cmdp = cdb;
	h->mx_sb_len = sizeof(sense);
	h->sbp = sense;
	h->timeout = 10000;
	if (ioctl(fd, SG_IO, h) < 0)
		err = errno;
	close(fd);
	return err;
}

static void expect_condition_met(const char *dev, const char *via)
{
	struct sg_io_hdr h;
	int err = prefetch(dev, &h);

	if (err)
		ktap_diag("SG_IO on %s: %s", dev, strerror(err));
	else
		ktap_diag("%s: status 0x%02x host 0x%x driver 0x%x", dev, h.status,
			  h.host_status, h.driver_status);
	ktap_ok(!err && h.status == SAM_STAT_CONDITION_MET && !h.host_status &&
		!h.driver_status, "PRE-FETCH (10) over SG_IO on the %s node: CONDITION MET", via);
}

/*
 * The block status of the passthrough PRE-FETCH on the block device,
 * from the block_rq_complete lines of @dev: "[0]" for none.
 */
static void expect_blk_status_ok(const char *dev)
{
	char want[64], line[512], status[16] = "";
	struct stat st;
	int n = 0;
	FILE *f;

	if (stat(dev, &st) ||
	    write_str(TRACING "/events/block/block_rq_complete/enable", "1") ||
	    truncate_file(TRACING "/trace")) {
		ktap_ok(false, "block_rq_complete of the passthrough PRE-FETCH: %s",
			strerror(errno));
		return;
	}
	expect_condition_met(dev, "block");
	write_str(TRACING "/events/block/block_rq_complete/enable", "0");
	snprintf(want, sizeof(want), "block_rq_complete: %u,%u N ", major(st.st_rdev),
		 minor(st.st_rdev));
	f = fopen(TRACING "/trace", "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *b;

		if (!strstr(line, want))
			continue;
		n++;
		b = strrchr(line, '[');
		if (b)
			snprintf(status, sizeof(status), "%.*s", (int)strcspn(b, "\n"), b);
		ktap_diag("%.*s", (int)strcspn(line, "\n"), line);
	}
	if (f)
		fclose(f);
	ktap_ok(n == 1 && !strcmp(status, "[0]"),
		"its passthrough request completed with no block error (%d traced, status %s)",
		n, status[0] ? status : "none");
}

int main(void)
{
	struct sdebug_disk disk;

	ktap_begin("integration_scsi_condition_met", 3);
	if (sdebug_find(&disk) || !disk.block[0] || !disk.sg[0]) {
		ktap_diag("no scsi_debug disk with a block and an sg node");
		ktap_skip_rest("no scsi_debug disk");
		return ktap_end();
	}
	ktap_diag("scsi_debug disk %s, %s, %s", disk.dir, disk.block, disk.sg);
	expect_condition_met(disk.sg, "sg");
	expect_blk_status_ok(disk.block);
	return ktap_end();
}
