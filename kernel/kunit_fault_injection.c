// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation failures on demand for KUnit cases: a case sets
 * current->fail_nth to N and the N-th allocation of its task fails
 * (lib/fault-inject.c), as fuzzers do through /proc/self/fail-nth.
 *
 * failslab only considers allocations that cannot sleep unless told
 * otherwise through its debugfs files. After the late_initcalls that
 * create those files and before KUnit runs, this sets it as fuzzers do
 * (ignore-gfp-wait=N) and silences the report of each injected failure
 * (verbose=0). Only for kernels built to run tests.
 *
 * Page allocations are left out (fail_page_alloc's min-order above any
 * order): KASAN's stack depot and slab refills allocate pages now and
 * then, and one that took the count would shift the walk, so that a run
 * could skip the allocation a bug hides behind.
 *
 * Nothing in the kernel writes a debugfs file: kernel_write() needs
 * write_iter, which the simple debugfs files lack. The value is set where
 * the file keeps it, the data pointer that debugfs_create_bool(),
 * debugfs_create_u32() and fault_create_debugfs_attr() gave the inode.
 *
 * kunit_fail_nth_walk() walks a call with each of its allocations failed
 * in turn and checks that every kmalloc() the call made is freed exactly
 * once, from any context, once the case has undone the call: the kmalloc,
 * kfree and kmem_cache tracepoints see them. A walk may ask for two more
 * things, for the fallbacks that one failed allocation cannot get past
 * (kvmalloc() falls back to vmalloc(), whose own allocations then have to
 * fail too):
 *
 * - page allocations from an order up count as allocations (min-order,
 *   lowered while the walk runs), so that a kvmalloc() past the slab
 *   caches can fail;
 * - every allocation from the nth on fails, not the nth alone: the task's
 *   make_it_fail picks it out for failslab's and fail_page_alloc's
 *   probability of 100 once fail_nth has run out. No other task sets it.
 */

#include <kunit/fail_nth.h>
#include <kunit/test.h>
#include <linux/debugfs.h>
#include <linux/dcache.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/mmzone.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <trace/events/kmem.h>

enum kunit_fault_type {
	KUNIT_FAULT_BOOL, KUNIT_FAULT_U32, KUNIT_FAULT_ULONG, KUNIT_FAULT_ATOMIC
};

struct kunit_fault_setting {
	const char *dir;
	const char *file;
	enum kunit_fault_type type;
	unsigned long value;
	u32 **keep;		/* a U32 a walk changes: where its address is kept */
};

/* fail_page_alloc's min-order, which a walk lowers while it runs. */
static u32 *kunit_fault_page_order;

/*
 * Above any page order: MAX_PAGE_ORDER (v6.8) is the largest order;
 * before it, MAX_ORDER was one past the largest (v6.1).
 */
#ifdef MAX_PAGE_ORDER
#define KUNIT_FAULT_PAGE_ORDER_NONE	(MAX_PAGE_ORDER + 1)
#else
#define KUNIT_FAULT_PAGE_ORDER_NONE	MAX_ORDER
#endif

/*
 * kvfree_rcu_barrier() came in v6.12; a base before it defines
 * KUNIT_FAULT_NO_KVFREE_RCU_BARRIER in kernel/Makefile. None of the
 * walked paths of such a base frees through kfree_rcu(), whose batches
 * would outlast KUNIT_ALLOCS_WAIT_MS and show up as leaks.
 */
#ifdef KUNIT_FAULT_NO_KVFREE_RCU_BARRIER
#define kunit_kvfree_rcu_barrier()	do { } while (0)
#else
#define kunit_kvfree_rcu_barrier()	kvfree_rcu_barrier()
#endif

/*
 * Past current->fail_nth, a task with make_it_fail set fails every
 * allocation (task-filter, a probability of 100, no limit on the times);
 * no task has it but a walk's.
 */
static const struct kunit_fault_setting kunit_fault_settings[] __initconst = {
	{ "failslab", "ignore-gfp-wait", KUNIT_FAULT_BOOL, 0 },
	{ "failslab", "verbose", KUNIT_FAULT_ULONG, 0 },
	{ "failslab", "task-filter", KUNIT_FAULT_BOOL, 1 },
	{ "failslab", "probability", KUNIT_FAULT_ULONG, 100 },
	{ "failslab", "times", KUNIT_FAULT_ATOMIC, -1 },
#ifdef CONFIG_FAIL_PAGE_ALLOC
	{ "fail_page_alloc", "ignore-gfp-wait", KUNIT_FAULT_BOOL, 0 },
	{ "fail_page_alloc", "min-order", KUNIT_FAULT_U32, KUNIT_FAULT_PAGE_ORDER_NONE,
	  &kunit_fault_page_order },
	{ "fail_page_alloc", "verbose", KUNIT_FAULT_ULONG, 0 },
	{ "fail_page_alloc", "task-filter", KUNIT_FAULT_BOOL, 1 },
	{ "fail_page_alloc", "probability", KUNIT_FAULT_ULONG, 100 },
	{ "fail_page_alloc", "times", KUNIT_FAULT_ATOMIC, -1 },
#endif
};

static int __init kunit_fault_set(const struct kunit_fault_setting *s)
{
	struct dentry *d = debugfs_lookup(s->dir, NULL);
	struct dentry *f;
	void *data;

	if (!d)
		return -ENOENT;
	f = debugfs_lookup(s->file, d);
	dput(d);
	if (!f)
		return -ENOENT;
	data = d_inode(f)->i_private;
	switch (s->type) {
	case KUNIT_FAULT_BOOL:
		WRITE_ONCE(*(bool *)data, s->value);
		break;
	case KUNIT_FAULT_U32:
		WRITE_ONCE(*(u32 *)data, s->value);
		if (s->keep)
			*s->keep = data;
		break;
	case KUNIT_FAULT_ULONG:
		WRITE_ONCE(*(unsigned long *)data, s->value);
		break;
	case KUNIT_FAULT_ATOMIC:
		atomic_set(data, (int)s->value);
		break;
	}
	dput(f);
	return 0;
}

static int __init kunit_fault_injection_init(void)
{
	int i, err;

	for (i = 0; i < ARRAY_SIZE(kunit_fault_settings); i++) {
		err = kunit_fault_set(&kunit_fault_settings[i]);
		if (err) {
			pr_err("kunit: fault injection: no debugfs file %s/%s: %d\n",
			       kunit_fault_settings[i].dir, kunit_fault_settings[i].file, err);
			return err;
		}
	}
	pr_info("kunit: fault injection: failslab takes every slab allocation, fail_page_alloc none unless a walk asks\n");
	return 0;
}
late_initcall_sync(kunit_fault_injection_init);

#define KUNIT_ALLOCS		512
#define KUNIT_ALLOCS_REPORTS	8
#define KUNIT_ALLOCS_WAIT_MS	2000

/* One kmalloc() of the call under test. */
struct kunit_alloc {
	const void *ptr;
	unsigned long call_site;
	size_t bytes;
	gfp_t gfp;
	unsigned int frees;
	bool reused;	/* handed out again after a free: later frees are not its */
};

/*
 * The kmalloc()s the task makes while @record is set, and the frees of
 * them from any context. Every probe of the tracepoints takes @lock.
 */
struct kunit_allocs {
	raw_spinlock_t lock;
	struct task_struct *task;
	bool record;
	bool overflow;
	unsigned int n;
	struct kunit_alloc alloc[KUNIT_ALLOCS];
};

/*
 * A pointer handed out again after its free closes the slots it had. One
 * still live is the same allocation traced twice, as a large kmalloc()
 * is (__kmalloc_large_node_noprof(), then __do_kmalloc_node()): its
 * slot takes the outer call site. Return: whether it was such a repeat.
 */
static bool kunit_allocs_handed_out(struct kunit_allocs *a, const void *ptr,
				    unsigned long call_site)
{
	bool repeat = false;
	unsigned int i;

	for (i = 0; i < a->n; i++) {
		if (a->alloc[i].ptr != ptr || a->alloc[i].reused)
			continue;
		if (a->alloc[i].frees) {
			a->alloc[i].reused = true;
		} else {
			a->alloc[i].call_site = call_site;
			repeat = true;
		}
	}
	return repeat;
}

static void kunit_allocs_kmalloc(void *data, unsigned long call_site,
				 const void *ptr, size_t bytes_req,
				 size_t bytes_alloc, gfp_t gfp_flags, int node)
{
	struct kunit_allocs *a = data;
	unsigned long flags;

	if (!ptr)
		return;
	raw_spin_lock_irqsave(&a->lock, flags);
	if (!kunit_allocs_handed_out(a, ptr, call_site) &&
	    a->record && in_task() && current == a->task) {
		if (a->n < KUNIT_ALLOCS)
			a->alloc[a->n++] = (struct kunit_alloc) {
				.ptr = ptr, .call_site = call_site, .bytes = bytes_req,
				.gfp = gfp_flags,
			};
		else
			a->overflow = true;
	}
	raw_spin_unlock_irqrestore(&a->lock, flags);
}

/* A slab cache may be merged with a kmalloc cache and reuse its objects. */
static void kunit_allocs_cache_alloc(void *data, unsigned long call_site,
				     const void *ptr, struct kmem_cache *s,
				     gfp_t gfp_flags, int node)
{
	struct kunit_allocs *a = data;
	unsigned long flags;

	if (!ptr)
		return;
	raw_spin_lock_irqsave(&a->lock, flags);
	kunit_allocs_handed_out(a, ptr, call_site);
	raw_spin_unlock_irqrestore(&a->lock, flags);
}

static void kunit_allocs_kfree(void *data, unsigned long call_site,
			       const void *ptr)
{
	struct kunit_allocs *a = data;
	unsigned long flags;
	unsigned int i;

	if (!ptr)
		return;
	raw_spin_lock_irqsave(&a->lock, flags);
	for (i = 0; i < a->n; i++)
		if (a->alloc[i].ptr == ptr && !a->alloc[i].reused)
			a->alloc[i].frees++;
	raw_spin_unlock_irqrestore(&a->lock, flags);
}

static void kunit_allocs_cache_free(void *data, unsigned long call_site,
				    const void *ptr, const struct kmem_cache *s)
{
	kunit_allocs_kfree(data, call_site, ptr);
}

static void kunit_allocs_stop(void *data)
{
	unregister_trace_kmem_cache_free(kunit_allocs_cache_free, data);
	unregister_trace_kfree(kunit_allocs_kfree, data);
	unregister_trace_kmem_cache_alloc(kunit_allocs_cache_alloc, data);
	unregister_trace_kmalloc(kunit_allocs_kmalloc, data);
	tracepoint_synchronize_unregister();
}

static struct kunit_allocs *kunit_allocs_start(struct kunit *test)
{
	struct kunit_allocs *a;
	int err;

	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	raw_spin_lock_init(&a->lock);
	a->task = current;
	err = register_trace_kmalloc(kunit_allocs_kmalloc, a);
	if (!err) {
		err = register_trace_kmem_cache_alloc(kunit_allocs_cache_alloc, a);
		if (err)
			unregister_trace_kmalloc(kunit_allocs_kmalloc, a);
	}
	if (!err) {
		err = register_trace_kfree(kunit_allocs_kfree, a);
		if (err) {
			unregister_trace_kmem_cache_alloc(kunit_allocs_cache_alloc, a);
			unregister_trace_kmalloc(kunit_allocs_kmalloc, a);
		}
	}
	if (!err) {
		err = register_trace_kmem_cache_free(kunit_allocs_cache_free, a);
		if (err) {
			unregister_trace_kfree(kunit_allocs_kfree, a);
			unregister_trace_kmem_cache_alloc(kunit_allocs_cache_alloc, a);
			unregister_trace_kmalloc(kunit_allocs_kmalloc, a);
		}
	}
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "cannot probe the kmem tracepoints");
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, kunit_allocs_stop, a));
	return a;
}

static void kunit_allocs_record(struct kunit_allocs *a, bool on)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&a->lock, flags);
	if (on) {
		a->n = 0;
		a->overflow = false;
	}
	a->record = on;
	raw_spin_unlock_irqrestore(&a->lock, flags);
}

/* The first recorded allocation not freed yet, or -1. */
static int kunit_allocs_live(struct kunit_allocs *a)
{
	unsigned long flags;
	unsigned int i;
	int live = -1;

	raw_spin_lock_irqsave(&a->lock, flags);
	for (i = 0; i < a->n && live < 0; i++)
		if (!a->alloc[i].frees)
			live = i;
	raw_spin_unlock_irqrestore(&a->lock, flags);
	return live;
}

/*
 * Every allocation recorded freed exactly once. Frees may come late:
 * through RCU callbacks, kfree_rcu() batches and deferred vfree() work.
 */
static void kunit_allocs_expect_freed(struct kunit *test, struct kunit_allocs *a,
				      const char *what, unsigned int nth)
{
	unsigned int i, reports = 0, waited;
	unsigned long flags;
	struct kunit_alloc x;

	if (kunit_allocs_live(a) >= 0) {
		rcu_barrier();
		kunit_kvfree_rcu_barrier();
	}
	for (waited = 0; waited < KUNIT_ALLOCS_WAIT_MS && kunit_allocs_live(a) >= 0; waited += 20)
		msleep(20);

	KUNIT_EXPECT_FALSE_MSG(test, a->overflow,
			       "%s: more than %u allocations, allocation %u failed",
			       what, KUNIT_ALLOCS, nth);
	for (i = 0; i < a->n && reports < KUNIT_ALLOCS_REPORTS; i++) {
		raw_spin_lock_irqsave(&a->lock, flags);
		x = a->alloc[i];
		raw_spin_unlock_irqrestore(&a->lock, flags);
		if (x.frees == 1)
			continue;
		reports++;
		KUNIT_FAIL(test, "%s: allocation %u failed: %zu bytes from %pS freed %u times",
			   what, nth, x.bytes, (void *)x.call_site, x.frees);
	}
}

/* Each recorded allocation made with the flags the call's caller allowed. */
static void kunit_allocs_expect_gfp(struct kunit *test, struct kunit_allocs *a,
				    const struct kunit_fail_nth *walk, unsigned int nth)
{
	bool reclaim = walk->gfp == KUNIT_FAIL_NTH_GFP_RECLAIM;
	struct kunit_alloc x;
	unsigned long flags;
	unsigned int i;

	if (walk->gfp == KUNIT_FAIL_NTH_GFP_ANY)
		return;
	for (i = 0; i < a->n; i++) {
		raw_spin_lock_irqsave(&a->lock, flags);
		x = a->alloc[i];
		raw_spin_unlock_irqrestore(&a->lock, flags);
		if (!!(x.gfp & __GFP_DIRECT_RECLAIM) == reclaim)
			continue;
		KUNIT_FAIL(test,
			   "%s: allocation %u failed: %zu bytes from %pS with %pGg, though its caller %s sleep",
			   walk->what, nth, x.bytes, (void *)x.call_site, &x.gfp,
			   reclaim ? "may" : "may not");
		return;
	}
}

static void kunit_fault_page_order_set(void *order)
{
	WRITE_ONCE(*kunit_fault_page_order, (u32)(uintptr_t)order);
}

/**
 * kunit_fail_nth_walk() - walk a call with each of its allocations failed
 * @test: the case
 * @walk: the call, what to run before it and how to undo it
 * @ctx: passed to the callbacks
 *
 * Run @walk->call with its first allocation failed (current->fail_nth), then
 * its second, until it makes fewer allocations than the one to fail; with
 * @walk->from_nth, every allocation after that one fails as well. Page
 * allocations of @walk->page_order and above count when it is set, of every
 * order with @walk->all_pages. An
 * error is only allowed when an allocation was failed, and a must when
 * @walk->fails says the call fails anyway. Each kmalloc() of the call
 * may reclaim, or may not, as @walk->gfp says. After each
 * @walk->undo every kmalloc() that the call made from the case's task must
 * have been freed exactly once.
 *
 * Return: how many allocations the call made.
 */
unsigned int kunit_fail_nth_walk(struct kunit *test,
				 const struct kunit_fail_nth *walk, void *ctx)
{
	struct kunit_allocs *a = kunit_allocs_start(test);
	unsigned int nth;
	void *order;
	bool failed;
	int err;

	if (walk->page_order || walk->all_pages) {
		KUNIT_ASSERT_TRUE_MSG(test, walk->all_pages || walk->page_order >= 4,
				      "%s: smaller pages come and go (all_pages takes them)",
				      walk->what);
		KUNIT_ASSERT_NOT_NULL_MSG(test, kunit_fault_page_order, "no fail_page_alloc");
		order = (void *)(uintptr_t)READ_ONCE(*kunit_fault_page_order);
		err = kunit_add_action_or_reset(test, kunit_fault_page_order_set, order);
		KUNIT_ASSERT_EQ(test, err, 0);
		WRITE_ONCE(*kunit_fault_page_order, walk->all_pages ? 0 : walk->page_order);
	}
	for (nth = 1; nth <= walk->max + 1; nth++) {
		if (walk->setup)
			walk->setup(test, ctx);
		kunit_allocs_record(a, true);
		current->fail_nth = nth;
		current->make_it_fail = walk->from_nth;
		err = walk->call(test, ctx);
		failed = !current->fail_nth;
		current->make_it_fail = 0;
		current->fail_nth = 0;
		kunit_allocs_record(a, false);
		if (walk->fails)
			KUNIT_EXPECT_LT_MSG(test, err, 0, "%s: allocation %u failed",
					    walk->what, nth);
		else if (!failed)
			KUNIT_EXPECT_EQ_MSG(test, err, 0, "%s: no allocation failed",
					    walk->what);
		kunit_allocs_expect_gfp(test, a, walk, nth);
		walk->undo(test, ctx, err, nth, failed);
		kunit_allocs_expect_freed(test, a, walk->what, nth);
		/*
		 * The first allocation whose failure is mishandled says it:
		 * the ones after it would mostly repeat it, each waiting out
		 * KUNIT_ALLOCS_WAIT_MS when it leaks.
		 */
		if (!failed || test->status == KUNIT_FAILURE)
			break;
	}
	KUNIT_EXPECT_LE_MSG(test, nth - 1, walk->max, "%s: more than %u allocations",
			    walk->what, walk->max);
	kunit_info(test, "%s: %u allocations, each failed %s", walk->what, nth - 1,
		   walk->from_nth ? "with all after it" : "once");
	return nth - 1;
}
EXPORT_SYMBOL_GPL(kunit_fail_nth_walk);
