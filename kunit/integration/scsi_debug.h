/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The disk of scsi_debug (built in, one host and disk by default): its
 * SCSI device directory in sysfs and its block and sg device nodes.
 */

#ifndef SCSI_DEBUG_H
#define SCSI_DEBUG_H

#include <dirent.h>
#include <stdio.h>

#include "files.h"

struct sdebug_disk {
	char dir[300];		/* /sys/bus/scsi/devices/H:C:T:L */
	char block[270];		/* /dev/sdX */
	char sg[270];		/* /dev/sgN */
};

/* The one entry of @sub under @dir, as /dev/<entry>, or "". */
static inline void sdebug_node(const char *dir, const char *sub, char *out, size_t size)
{
	char path[600];
	struct dirent *e;
	DIR *d;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(out, size, "/dev/%s", e->d_name);
			break;
		}
	closedir(d);
}

/* Find the scsi_debug disk: 0, or -1 when there is none. */
static inline int sdebug_find(struct sdebug_disk *disk)
{
	const char *top = "/sys/bus/scsi/devices";
	struct dirent *e;
	DIR *d = opendir(top);
	int found = -1;

	if (!d)
		return -1;
	while (found && (e = readdir(d))) {
		char path[300], model[64];

		snprintf(path, sizeof(path), "%s/%s/model", top, e->d_name);
		if (read_file(path, model, sizeof(model)) <= 0 || strncmp(model, "scsi_debug", 10))
			continue;
		snprintf(disk->dir, sizeof(disk->dir), "%s/%s", top, e->d_name);
		sdebug_node(disk->dir, "block", disk->block, sizeof(disk->block));
		sdebug_node(disk->dir, "scsi_generic", disk->sg, sizeof(disk->sg));
		found = 0;
	}
	closedir(d);
	return found;
}

#endif /* SCSI_DEBUG_H */
