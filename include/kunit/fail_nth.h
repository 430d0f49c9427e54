/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Walking an error path allocation by allocation, for KUnit cases
 * (CONFIG_KUNIT_FAULT_INJECTION, kernel/kunit_fault_injection.c).
 */

#ifndef _KUNIT_FAIL_NTH_H
#define _KUNIT_FAIL_NTH_H

#include <kunit/test.h>

/**
 * enum kunit_fail_nth_gfp - what the call's allocations may do, as its
 *	caller allowed (a crypto request's CRYPTO_TFM_REQ_MAY_SLEEP, say)
 * @KUNIT_FAIL_NTH_GFP_ANY: not checked
 * @KUNIT_FAIL_NTH_GFP_RECLAIM: the caller may sleep; each allocation may
 *	reclaim (__GFP_DIRECT_RECLAIM), as one made atomic for no reason
 *	fails where the caller would have waited for memory
 * @KUNIT_FAIL_NTH_GFP_ATOMIC: the caller may not sleep; none may reclaim
 */
enum kunit_fail_nth_gfp {
	KUNIT_FAIL_NTH_GFP_ANY,
	KUNIT_FAIL_NTH_GFP_RECLAIM,
	KUNIT_FAIL_NTH_GFP_ATOMIC,
};

/**
 * struct kunit_fail_nth - a call walked with each of its allocations failed
 * @what: names the call in the messages of the walk
 * @max: the most allocations the call may make; more fails the case
 * @fails: the call fails even when no allocation is failed (bad input)
 * @from_nth: every allocation after the failed one fails too, as when
 *	memory runs out: fallbacks (kvmalloc()'s vmalloc()) fail with it
 * @page_order: page allocations of this order and above count as
 *	allocations too, from 4 up (0: none): kmalloc()s past the slab caches
 *	and kvmalloc()s of a large size. Smaller pages are left alone: slab
 *	refills and KASAN's stack depot take them at any time.
 * @all_pages: page allocations of every order count (@page_order aside):
 *	the DMA buffers dma_alloc_coherent() takes from the page allocator.
 *	Slab refills then count as they come, so that the steps of a walk
 *	can differ from one run to the next; each still fails one allocation.
 * @gfp: what the flags of each kmalloc() of the call must allow
 * @setup: optional, run before each call; its allocations are not tracked
 * @call: the call under test; returns 0 or a negative errno
 * @undo: checks the outcome of @call and frees what it made. @err is what
 *	@call returned, @failed whether its @nth allocation was failed; a
 *	failure may be absorbed by a fallback, so @err may be 0 even then.
 */
struct kunit_fail_nth {
	const char *what;
	unsigned int max;
	bool fails;
	bool from_nth;
	unsigned int page_order;
	bool all_pages;
	enum kunit_fail_nth_gfp gfp;
	void (*setup)(struct kunit *test, void *ctx);
	int (*call)(struct kunit *test, void *ctx);
	void (*undo)(struct kunit *test, void *ctx, int err, unsigned int nth,
		     bool failed);
};

unsigned int kunit_fail_nth_walk(struct kunit *test,
				 const struct kunit_fail_nth *walk, void *ctx);

#endif /* _KUNIT_FAIL_NTH_H */
