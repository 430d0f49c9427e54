// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation failures on demand for KUnit cases: a case sets
 * current->fail_nth to N and the N-th allocation of its task fails
 * (lib/fault-inject.c), as fuzzers do through /proc/self/fail-nth.
 *
 * failslab and fail_page_alloc only consider allocations that cannot
 * sleep, and fail_page_alloc only those of order 1 or more, unless told
 * otherwise through their debugfs files. After the late_initcalls that
 * create those files and before KUnit runs, this sets them as fuzzers do
 * (ignore-gfp-wait=N, min-order=0) and silences the report of each
 * injected failure (verbose=0). Only for kernels built to run tests.
 *
 * Nothing in the kernel writes a debugfs file: kernel_write() needs
 * write_iter, which the simple debugfs files lack. The value is set where
 * the file keeps it, the data pointer that debugfs_create_bool(),
 * debugfs_create_u32() and fault_create_debugfs_attr() gave the inode.
 */

#include <linux/debugfs.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/printk.h>

enum kunit_fault_type { KUNIT_FAULT_BOOL, KUNIT_FAULT_U32, KUNIT_FAULT_ULONG };

struct kunit_fault_setting {
	const char *dir;
	const char *file;
	enum kunit_fault_type type;
	unsigned long value;
};

static const struct kunit_fault_setting kunit_fault_settings[] __initconst = {
	{ "failslab", "ignore-gfp-wait", KUNIT_FAULT_BOOL, 0 },
	{ "failslab", "verbose", KUNIT_FAULT_ULONG, 0 },
	{ "fail_page_alloc", "ignore-gfp-wait", KUNIT_FAULT_BOOL, 0 },
	{ "fail_page_alloc", "min-order", KUNIT_FAULT_U32, 0 },
	{ "fail_page_alloc", "verbose", KUNIT_FAULT_ULONG, 0 },
};

static int __init kunit_fault_set(const char *dir, const char *file,
				  enum kunit_fault_type type, unsigned long value)
{
	struct dentry *d = debugfs_lookup(dir, NULL);
	struct dentry *f;
	void *data;

	if (!d)
		return -ENOENT;
	f = debugfs_lookup(file, d);
	dput(d);
	if (!f)
		return -ENOENT;
	data = d_inode(f)->i_private;
	switch (type) {
	case KUNIT_FAULT_BOOL:
		WRITE_ONCE(*(bool *)data, value);
		break;
	case KUNIT_FAULT_U32:
		WRITE_ONCE(*(u32 *)data, value);
		break;
	case KUNIT_FAULT_ULONG:
		WRITE_ONCE(*(unsigned long *)data, value);
		break;
	}
	dput(f);
	return 0;
}

static int __init kunit_fault_injection_init(void)
{
	int i, err;

	for (i = 0; i < ARRAY_SIZE(kunit_fault_settings); i++) {
		err = kunit_fault_set(kunit_fault_settings[i].dir, kunit_fault_settings[i].file,
				      kunit_fault_settings[i].type, kunit_fault_settings[i].value);
		if (err) {
			pr_err("kunit: fault injection: no debugfs file %s/%s: %d\n",
			       kunit_fault_settings[i].dir, kunit_fault_settings[i].file, err);
			return err;
		}
	}
	pr_info("kunit: fault injection: failslab and fail_page_alloc take every allocation\n");
	return 0;
}
late_initcall_sync(kunit_fault_injection_init);
