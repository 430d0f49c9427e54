// SPDX-License-Identifier: GPL-2.0
/*
 * scsi_dh by name through sysfs: the dh_state file of the scsi_debug
 * disk takes a real handler's name, and refuses an empty string and a
 * bogus name with a clear error (EINVAL) and no handler attached; no
 * oops on the way (the runner fails the cell on any kernel report).
 * hp_sw is the handler that attaches to scsi_debug: it only needs TEST
 * UNIT READY; alua, emc and rdac want inquiry data scsi_debug lacks.
 */

#include <stdlib.h>

#include "files.h"
#include "ktap.h"
#include "scsi_debug.h"

struct dh_step {
	const char *what;
	const char *buf;
	size_t len;
	int want;		/* errno of the write, or 0 */
	const char *state;	/* dh_state after it */
};

static const struct dh_step steps[] = {
	{ "a bogus name is refused", "no_such_handler", 15, EINVAL, "detached" },
	{ "an empty name is refused", "", 1, EINVAL, "detached" },
	{ "a newline alone is refused", "\n", 1, EINVAL, "detached" },
	{ "hp_sw attaches by name", "hp_sw", 5, 0, "hp_sw" },
	{ "another name once attached is refused", "alua", 4, EINVAL, "hp_sw" },
	{ "the attached handler activates", "activate", 8, 0, "hp_sw" },
	{ "detach is refused (handlers stay until the device goes)", "detach", 6, EINVAL,
	  "hp_sw" },
};

#define NSTEPS ARRAY_SIZE(steps)

static void dh_state(const char *path, char *buf, size_t size)
{
	read_file(path, buf, size);
	buf[strcspn(buf, "\n")] = '\0';
}

int main(void)
{
	struct sdebug_disk disk;
	char path[400], state[64];
	unsigned int i;

	ktap_begin("integration_scsi_dh", 1 + NSTEPS);
	if (sdebug_find(&disk)) {
		ktap_skip_rest("no scsi_debug disk");
		return ktap_end();
	}
	snprintf(path, sizeof(path), "%s/dh_state", disk.dir);
	dh_state(path, state, sizeof(state));
	ktap_ok(!strcmp(state, "detached"), "%s starts detached (%s)", path, state);
	for (i = 0; i < NSTEPS; i++) {
		const struct dh_step *s = &steps[i];
		int err = write_file(path, s->buf, s->len);

		dh_state(path, state, sizeof(state));
		if (err != s->want || strcmp(state, s->state))
			ktap_diag("wrote %zu bytes: %s, dh_state %s", s->len,
				  err ? strerror(err) : "ok", state);
		ktap_ok(err == s->want && !strcmp(state, s->state), "%s", s->what);
	}
	return ktap_end();
}
