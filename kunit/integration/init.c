// SPDX-License-Identifier: GPL-2.0
/*
 * The integration guest's init: mount what the cases read, run each case
 * program named by the kernel argument integration_cases= (a comma list,
 * e.g. suspend,sm4_af_alg) as a KTAP subtest, then power off. The kernel
 * hands unknown name=value arguments to init as its environment.
 */

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"

/* Seconds a case may take before it is killed and fails. */
#define CASE_TIMEOUT	120

struct mnt {
	const char *src, *dir, *type;
};

static const struct mnt mounts[] = {
	{ "proc", "/proc", "proc" },
	{ "sysfs", "/sys", "sysfs" },
	{ "devtmpfs", "/dev", "devtmpfs" },
	{ "securityfs", "/sys/kernel/security", "securityfs" },
	{ "tracefs", "/sys/kernel/tracing", "tracefs" },
};

/*
 * Keep the console to warnings and worse while the cases print: a kernel
 * message between two KTAP lines can split a test header, and reports
 * (BUG, WARNING, KASAN, Oops) still show.
 */
static void quiet_console(void)
{
	int fd = open("/proc/sys/kernel/printk", O_WRONLY);

	if (fd < 0 || write(fd, "5", 1) != 1)
		printf("# init: console loglevel: %s\n", strerror(errno));
	if (fd >= 0)
		close(fd);
}

static void mount_all(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mounts); i++) {
		mkdir(mounts[i].dir, 0755);
		if (mount(mounts[i].src, mounts[i].dir, mounts[i].type, 0, NULL) && errno != EBUSY)
			printf("# init: mount %s: %s\n", mounts[i].dir, strerror(errno));
	}
}

/* Run /bin/<name>; print its result line as test @n of the run. */
static void run_case(const char *name, int n)
{
	char path[128], suite[128];
	int status;
	pid_t pid;

	snprintf(path, sizeof(path), "/bin/%s", name);
	snprintf(suite, sizeof(suite), "integration_%s", name);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		alarm(CASE_TIMEOUT);
		execl(path, path, (char *)NULL);
		printf("# init: %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		printf("not ok %d %s # init: %s\n", n, suite, strerror(errno));
	} else if (WIFEXITED(status) &&
		   (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == KTAP_EXIT_SKIP)) {
		/* Skipped tests say why themselves: the case is ok */
		printf("ok %d %s\n", n, suite);
	} else if (WIFSIGNALED(status)) {
		printf("# init: %s killed by signal %d%s\n", name, WTERMSIG(status),
		       WTERMSIG(status) == SIGALRM ? " (timed out)" : "");
		printf("not ok %d %s\n", n, suite);
	} else {
		printf("not ok %d %s\n", n, suite);
	}
}

int main(void)
{
	const char *env = getenv("integration_cases");
	char cases[512], *name, *save;
	int n = 0, plan = 1;
	const char *p;

	setvbuf(stdout, NULL, _IOLBF, 0);
	mount_all();
	quiet_console();
	snprintf(cases, sizeof(cases), "%s", env ?: "");
	for (p = cases; *p; p++)
		plan += *p == ',';
	if (!cases[0])
		plan = 0;
	printf("KTAP version 1\n1..%d\n", plan);
	for (name = strtok_r(cases, ",", &save); name; name = strtok_r(NULL, ",", &save))
		run_case(name, ++n);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
