// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's shell, busybox-static of the arch from its Debian package
 * (/bin/sh -> busybox): it runs, so that `rdinit=/bin/sh` gives a shell
 * in the integration kernel for a look around.
 */

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"

/* The exit status of /bin/sh -c @script, or -1. */
static int run_sh(const char *script)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", script, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int main(void)
{
	ktap_begin("integration_shell", 2);
	ktap_ok(run_sh("exit 7") == 7, "/bin/sh runs a script");
	ktap_ok(run_sh("[ -d /proc/self ] && test \"$(echo a b | wc -w)\" -eq 2") == 0,
		"its applets run (test, echo, wc)");
	return ktap_end();
}
