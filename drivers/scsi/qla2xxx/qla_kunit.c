// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of two qla2xxx fixes, included at the end of qla_os.c.
 *
 * "scsi: qla2xxx: Fix small memory leak in qla2x00_probe_one on probe
 * failure" (commit 6d6340672ba3): qla2x00_free_req_que() and
 * qla2x00_free_rsp_que() returned early while ha->req_q_map / rsp_q_map
 * did not exist yet, so a probe that failed before qla2x00_alloc_queues()
 * leaked queue zero. Suite qla2xxx_queues: the free helpers release the
 * queue, its ring and outstanding_cmds with or without the maps, and
 * qla2x00_alloc_queues() failing at each of its allocations leaves queue
 * zero for them to free once. Suite qla2xxx_probe (qla_probe_kunit.c):
 * qla2x00_probe_one() itself, failing at each step.
 *
 * "scsi: qla2xxx: Fix race condition between iocb timeout and
 * initialisation" (commit e74e7d95878d): the IOCB timer was armed before
 * what its function needs was set up. Now qla2x00_init_async_sp() only sets
 * it up and qla2x00_start_sp() arms it once the IOCB is queued. Suite
 * qla2xxx_iocb_timer.
 *
 * QEMU emulates no QLogic adapter: but for the probe's, the cases build the
 * qla_hw_data, queues and queue pair the code reads by hand. Frees are observed for real,
 * through the kfree and dma_free tracepoints, counted per pointer for the
 * test's own task only.
 */

#include <kunit/fail_nth.h>
#include <kunit/pci_lender.h>
#include <kunit/test.h>
#include <linux/dma-mapping.h>
#include <linux/kernfs.h>
#include <linux/kthread.h>
#include <linux/mempool.h>
#include <linux/sched/task.h>
#include <trace/events/kmem.h>
#include <trace/events/qla.h>

#include "qla_kunit_log.h"

/*
 * The DMA API's tracepoints came after 6.1, the older base of the
 * project: there, the rings' frees are not counted, and a case says so.
 */
#if __has_include("trace/events/dma.h")
#include <trace/events/dma.h>
#define QLA_TEST_DMA_TRACED	1
#else
#define QLA_TEST_DMA_TRACED	0
#endif

#define QLA_TEST_TRACKED	20
#define QLA_TEST_MAX_NTH	16
/* The request queue of the abort cases, and what their command holds of the firmware's */
#define QLA_TEST_REQ_ID		3
#define QLA_TEST_CMD_IOCBS	2

/* Frees of the tracked pointers, seen by the tracepoint probes. */
struct qla_test_frees {
	struct task_struct *task;
	struct task_struct *helper;
	const void *ptr[QLA_TEST_TRACKED];
	atomic_t kfrees[QLA_TEST_TRACKED];
	atomic_t dma_frees[QLA_TEST_TRACKED];
	int n;
	/*
	 * Pointer arrays (the queue maps) whose entries still set are
	 * counted when they are freed: what a freed map held is otherwise
	 * gone.
	 */
	const void *const *array[2];
	unsigned int array_len[2];
	int array_set[2];	/* -1: not freed yet */
};

/* The slot of a tracked pointer, or -1. */
static int qla_test_index(struct qla_test_frees *f, const void *ptr)
{
	int i;

	for (i = 0; i < f->n; i++)
		if (f->ptr[i] == ptr)
			return i;
	return -1;
}

/*
 * The slot a probe counts a free in: the test's own task, a helper task
 * it set, or a timer's softirq (where an IOCB timeout releases an SRB).
 */
static int qla_test_slot(struct qla_test_frees *f, const void *ptr)
{
	if (!ptr || (current != f->task && current != f->helper && !in_serving_softirq()))
		return -1;
	return qla_test_index(f, ptr);
}

static void qla_test_probe_kfree(void *data, unsigned long call_site,
				 const void *ptr)
{
	struct qla_test_frees *f = data;
	int i = qla_test_slot(f, ptr);
	unsigned int a, e;

	if (i < 0)
		return;
	atomic_inc(&f->kfrees[i]);
	for (a = 0; a < ARRAY_SIZE(f->array); a++) {
		if (f->array[a] != ptr)
			continue;
		/* trace_kfree() runs before the memory goes */
		f->array_set[a] = 0;
		for (e = 0; e < f->array_len[a]; e++)
			f->array_set[a] += !!f->array[a][e];
	}
}

#if QLA_TEST_DMA_TRACED
static void qla_test_probe_dma_free(void *data, struct device *dev,
				    void *virt_addr, dma_addr_t dma_addr,
				    size_t size, enum dma_data_direction dir,
				    unsigned long attrs)
{
	int i = qla_test_slot(data, virt_addr);

	if (i >= 0)
		atomic_inc(&((struct qla_test_frees *)data)->dma_frees[i]);
}

static int qla_test_dma_probe(struct qla_test_frees *f)
{
	return register_trace_dma_free(qla_test_probe_dma_free, f);
}

static void qla_test_dma_unprobe(struct qla_test_frees *f)
{
	unregister_trace_dma_free(qla_test_probe_dma_free, f);
}
#else
static int qla_test_dma_probe(struct qla_test_frees *f)
{
	return 0;
}

static void qla_test_dma_unprobe(struct qla_test_frees *f)
{
}
#endif

static void qla_test_frees_stop(void *data)
{
	qla_test_dma_unprobe(data);
	unregister_trace_kfree(qla_test_probe_kfree, data);
	tracepoint_synchronize_unregister();
}

static struct qla_test_frees *qla_test_frees_start(struct kunit *test)
{
	struct qla_test_frees *f;

	f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, f);
	f->task = current;
	KUNIT_ASSERT_EQ(test, 0,
			register_trace_kfree(qla_test_probe_kfree, f));
	if (qla_test_dma_probe(f)) {
		unregister_trace_kfree(qla_test_probe_kfree, f);
		KUNIT_FAIL_AND_ABORT(test, "cannot probe dma_free");
	}
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, qla_test_frees_stop, f));
	if (!QLA_TEST_DMA_TRACED)
		kunit_info(test, "no dma_free tracepoint in this kernel: ring frees not counted");
	return f;
}

static void qla_test_track(struct kunit *test, struct qla_test_frees *f,
			   const void *ptr)
{
	KUNIT_ASSERT_LT(test, f->n, QLA_TEST_TRACKED);
	if (ptr)
		f->ptr[f->n++] = ptr;
}

/* Count the entries of the tracked @len-pointer array @arr still set when freed. */
static void qla_test_track_array(struct kunit *test, struct qla_test_frees *f,
				 const void *arr, unsigned int len)
{
	unsigned int a;

	qla_test_track(test, f, arr);
	for (a = 0; a < ARRAY_SIZE(f->array) && f->array[a]; a++)
		;
	KUNIT_ASSERT_LT(test, a, ARRAY_SIZE(f->array));
	f->array_len[a] = len;
	f->array_set[a] = -1;
	f->array[a] = (const void *const *)arr;
}

static int qla_test_kfrees(struct qla_test_frees *f, const void *ptr)
{
	int i = qla_test_index(f, ptr);

	return i < 0 ? -1 : atomic_read(&f->kfrees[i]);
}

static int qla_test_dma_frees(struct qla_test_frees *f, const void *ptr)
{
	int i = qla_test_index(f, ptr);

	return i < 0 ? -1 : atomic_read(&f->dma_frees[i]);
}

static void qla_test_pdev_release(struct device *dev)
{
}

static void qla_test_put_device(void *dev)
{
	put_device(dev);
}

/*
 * A PCI device that is never registered, with a DMA mask so that the
 * rings come from the real dma_alloc_coherent().
 */
static struct pci_dev *qla_test_pdev(struct kunit *test)
{
	struct pci_dev *pdev;

	pdev = kunit_kzalloc(test, sizeof(*pdev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pdev);
	device_initialize(&pdev->dev);
	pdev->dev.release = qla_test_pdev_release;
	pdev->dev.dma_mask = &pdev->dma_mask;
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, qla_test_put_device,
						  &pdev->dev));
	KUNIT_ASSERT_EQ(test, 0, dev_set_name(&pdev->dev, "qla2xxx_kunit"));
	KUNIT_ASSERT_EQ(test, 0, dma_set_mask_and_coherent(&pdev->dev,
							   DMA_BIT_MASK(64)));
	return pdev;
}

static struct qla_hw_data *qla_test_ha(struct kunit *test)
{
	struct qla_hw_data *ha;

	ha = kunit_kzalloc(test, sizeof(*ha), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ha);
	ha->pdev = qla_test_pdev(test);
	spin_lock_init(&ha->hardware_lock);
	ha->max_req_queues = 1;
	ha->max_rsp_queues = 1;
	return ha;
}

/* Queue zero as qla2x00_mem_alloc() leaves it, and the frees it expects. */
#define QLA_TEST_RING_LEN	16

/* A ring of QLA_TEST_RING_LEN + 1 entries, as qla2x00_mem_alloc() sizes it. */
static void *qla_test_ring(struct kunit *test, struct qla_hw_data *ha,
			   struct qla_test_frees *f, size_t entry_size,
			   dma_addr_t *dma)
{
	void *ring = dma_alloc_coherent(&ha->pdev->dev,
					(QLA_TEST_RING_LEN + 1) * entry_size,
					dma, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ring);
	qla_test_track(test, f, ring);
	return ring;
}

static struct req_que *qla_test_req(struct kunit *test,
				    struct qla_hw_data *ha,
				    struct qla_test_frees *f, bool ring,
				    bool outstanding_cmds)
{
	struct req_que *req = kzalloc(sizeof(*req), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, req);
	qla_test_track(test, f, req);
	req->length = QLA_TEST_RING_LEN;
	if (ring)
		req->ring = qla_test_ring(test, ha, f, sizeof(request_t),
					  &req->dma);
	if (outstanding_cmds) {
		req->num_outstanding_cmds = 4;
		req->outstanding_cmds = kcalloc(req->num_outstanding_cmds,
						sizeof(srb_t *), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, req->outstanding_cmds);
		qla_test_track(test, f, req->outstanding_cmds);
	}
	return req;
}

static struct rsp_que *qla_test_rsp(struct kunit *test,
				    struct qla_hw_data *ha,
				    struct qla_test_frees *f, bool ring)
{
	struct rsp_que *rsp = kzalloc(sizeof(*rsp), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rsp);
	qla_test_track(test, f, rsp);
	rsp->length = QLA_TEST_RING_LEN;
	if (ring)
		rsp->ring = qla_test_ring(test, ha, f, sizeof(response_t),
					  &rsp->dma);
	return rsp;
}

/* Each of req, rsp and what hangs off them freed exactly once. */
static void qla_test_expect_freed_once(struct kunit *test,
				       struct qla_test_frees *f,
				       const void *req, const void *req_ring,
				       const void *cmds, const void *rsp,
				       const void *rsp_ring)
{
	if (req)
		KUNIT_EXPECT_EQ_MSG(test, qla_test_kfrees(f, req), 1, "req");
	if (req_ring && QLA_TEST_DMA_TRACED)
		KUNIT_EXPECT_EQ_MSG(test, qla_test_dma_frees(f, req_ring), 1,
				    "req->ring");
	if (cmds)
		KUNIT_EXPECT_EQ_MSG(test, qla_test_kfrees(f, cmds), 1,
				    "req->outstanding_cmds");
	if (rsp)
		KUNIT_EXPECT_EQ_MSG(test, qla_test_kfrees(f, rsp), 1, "rsp");
	if (rsp_ring && QLA_TEST_DMA_TRACED)
		KUNIT_EXPECT_EQ_MSG(test, qla_test_dma_frees(f, rsp_ring), 1,
				    "rsp->ring");
}

/* qla2x00_free_req_que() / qla2x00_free_rsp_que() on their own. */
struct qla_free_case {
	const char *name;
	bool maps;	/* ha->req_q_map and ha->rsp_q_map allocated */
	bool ring;
	bool outstanding_cmds;
};

static const struct qla_free_case qla_free_cases[] = {
	{ "no queue maps yet, rings and outstanding_cmds", false, true, true },
	{ "no queue maps yet, rings only", false, true, false },
	{ "no queue maps yet, no rings", false, false, false },
	{ "queue maps, rings and outstanding_cmds", true, true, true },
	{ "queue maps, no rings", true, false, false },
};

KUNIT_ARRAY_PARAM_DESC(qla_free, qla_free_cases, name);

static void qla_free_que_test(struct kunit *test)
{
	const struct qla_free_case *c = test->param_value;
	struct qla_test_frees *f = qla_test_frees_start(test);
	struct qla_hw_data *ha = qla_test_ha(test);
	struct req_que *req;
	struct rsp_que *rsp;
	void *req_ring, *cmds, *rsp_ring;

	if (c->maps) {
		/* Maps that do not list the queues: only the helpers free. */
		ha->req_q_map = kunit_kcalloc(test, 1, sizeof(*ha->req_q_map),
					      GFP_KERNEL);
		ha->rsp_q_map = kunit_kcalloc(test, 1, sizeof(*ha->rsp_q_map),
					      GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, ha->req_q_map);
		KUNIT_ASSERT_NOT_NULL(test, ha->rsp_q_map);
	}
	req = qla_test_req(test, ha, f, c->ring, c->outstanding_cmds);
	rsp = qla_test_rsp(test, ha, f, c->ring);
	req_ring = req->ring;
	cmds = req->outstanding_cmds;
	rsp_ring = rsp->ring;

	qla2x00_free_req_que(ha, req);
	qla2x00_free_rsp_que(ha, rsp);

	/* The values only: the tracepoints saw them go. */
	qla_test_expect_freed_once(test, f, req, req_ring, cmds, rsp, rsp_ring);
}

/* A NULL queue, as the probe passes once it no longer owns one. */
static void qla_free_null_que_test(struct kunit *test)
{
	struct qla_test_frees *f = qla_test_frees_start(test);
	struct qla_hw_data *ha = qla_test_ha(test);

	qla2x00_free_req_que(ha, NULL);
	qla2x00_free_rsp_que(ha, NULL);
	KUNIT_EXPECT_EQ(test, f->n, 0);
}

/*
 * qla2x00_disown_queues(): the probe gives up queue zero only where
 * qla2x00_alloc_queues() recorded it (the maps exist, id 0's bit is set
 * and the map holds that very queue); otherwise the probe frees it.
 */
enum qla_own {
	QLA_OWN_BIT_CLEAR,	/* map[0] is the probe's queue, id 0's bit clear */
	QLA_OWN_OTHER,		/* id 0's bit set, map[0] another queue */
	QLA_OWN_RECORDED,	/* id 0's bit set, map[0] the probe's queue */
};

struct qla_disown_case {
	const char *name;
	bool maps;
	enum qla_own req, rsp;
};

static const struct qla_disown_case qla_disown_cases[] = {
	{ "no maps: the probe keeps both", false, QLA_OWN_RECORDED, QLA_OWN_RECORDED },
	{ "both recorded: both disowned", true, QLA_OWN_RECORDED, QLA_OWN_RECORDED },
	{ "id 0's bit clear: both kept", true, QLA_OWN_BIT_CLEAR, QLA_OWN_BIT_CLEAR },
	{ "map[0] another queue: both kept", true, QLA_OWN_OTHER, QLA_OWN_OTHER },
	{ "request recorded, response bit clear", true, QLA_OWN_RECORDED, QLA_OWN_BIT_CLEAR },
	{ "request another queue, response recorded", true, QLA_OWN_OTHER, QLA_OWN_RECORDED },
};

KUNIT_ARRAY_PARAM_DESC(qla_disown, qla_disown_cases, name);

static void qla_disown_queues_test(struct kunit *test)
{
	const struct qla_disown_case *c = test->param_value;
	struct qla_hw_data *ha = qla_test_ha(test);
	struct req_que req0 = {}, req_other = {}, *req = &req0;
	struct rsp_que rsp0 = {}, rsp_other = {}, *rsp = &rsp0;
	struct req_que *req_map[1];
	struct rsp_que *rsp_map[1];

	if (c->maps) {
		ha->req_q_map = req_map;
		ha->rsp_q_map = rsp_map;
	}
	req_map[0] = c->req == QLA_OWN_OTHER ? &req_other : &req0;
	rsp_map[0] = c->rsp == QLA_OWN_OTHER ? &rsp_other : &rsp0;
	if (c->req != QLA_OWN_BIT_CLEAR)
		set_bit(0, ha->req_qid_map);
	if (c->rsp != QLA_OWN_BIT_CLEAR)
		set_bit(0, ha->rsp_qid_map);

	qla2x00_disown_queues(ha, &req, &rsp);

	KUNIT_EXPECT_PTR_EQ(test, req, c->maps && c->req == QLA_OWN_RECORDED ? NULL : &req0);
	KUNIT_EXPECT_PTR_EQ(test, rsp, c->maps && c->rsp == QLA_OWN_RECORDED ? NULL : &rsp0);
	/* The maps are only read */
	KUNIT_EXPECT_PTR_EQ(test, req_map[0], c->req == QLA_OWN_OTHER ? &req_other : &req0);
	KUNIT_EXPECT_PTR_EQ(test, rsp_map[0], c->rsp == QLA_OWN_OTHER ? &rsp_other : &rsp0);
	KUNIT_EXPECT_EQ(test, test_bit(0, ha->req_qid_map), c->req != QLA_OWN_BIT_CLEAR);
	KUNIT_EXPECT_EQ(test, test_bit(0, ha->rsp_qid_map), c->rsp != QLA_OWN_BIT_CLEAR);
}

/*
 * qla2x00_free_queues() as qla2x00_free_device() calls it: every queue
 * whose id bit is set below max_req_queues / max_rsp_queues is freed with
 * its ring, its bit cleared and its map entry emptied before the map
 * goes; the queue pair maps and the base queue pair are freed and their
 * pointers cleared. An id past the maximum is not looked at.
 */
struct qla_free_queues_case {
	const char *name;
	u16 max_req, max_rsp;
	unsigned long req_ids, rsp_ids;	/* the ids with a queue, as bits */
	bool qpairs;	/* queue_pair_map, qp_cpu_map and base_qpair */
};

static const struct qla_free_queues_case qla_free_queues_cases[] = {
	{ "queue zero only", 1, 1, BIT(0), BIT(0), false },
	{ "queue zero, queue pairs", 1, 1, BIT(0), BIT(0), true },
	{ "requests 0 and 2 of 3, responses 0 and 1 of 2, queue pairs", 3, 2,
	  BIT(0) | BIT(2), BIT(0) | BIT(1), true },
	{ "a request at id 3 of 3 and a response at 2 of 2: left alone", 3, 2,
	  BIT(0) | BIT(3), BIT(0) | BIT(2), false },
	{ "no queue recorded", 2, 2, 0, 0, false },
};

KUNIT_ARRAY_PARAM_DESC(qla_free_queues, qla_free_queues_cases, name);

#define QLA_TEST_QUEUES	4

static void qla_free_queues_test(struct kunit *test)
{
	const struct qla_free_queues_case *c = test->param_value;
	struct qla_test_frees *f = qla_test_frees_start(test);
	struct qla_hw_data *ha = qla_test_ha(test);
	struct req_que *req[QLA_TEST_QUEUES] = {};
	struct rsp_que *rsp[QLA_TEST_QUEUES] = {};
	void *req_ring[QLA_TEST_QUEUES] = {}, *rsp_ring[QLA_TEST_QUEUES] = {};
	void *req_map, *rsp_map, *qpairs[3] = {};
	unsigned int id;
	bool kept;

	ha->max_req_queues = c->max_req;
	ha->max_rsp_queues = c->max_rsp;
	/* One entry more than the driver's, for an id past the maximum */
	ha->req_q_map = kcalloc(QLA_TEST_QUEUES, sizeof(*ha->req_q_map), GFP_KERNEL);
	ha->rsp_q_map = kcalloc(QLA_TEST_QUEUES, sizeof(*ha->rsp_q_map), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ha->req_q_map);
	KUNIT_ASSERT_NOT_NULL(test, ha->rsp_q_map);
	req_map = ha->req_q_map;
	rsp_map = ha->rsp_q_map;
	qla_test_track_array(test, f, req_map, QLA_TEST_QUEUES);
	qla_test_track_array(test, f, rsp_map, QLA_TEST_QUEUES);
	for (id = 0; id < QLA_TEST_QUEUES; id++) {
		if (c->req_ids & BIT(id)) {
			req[id] = qla_test_req(test, ha, f, true, false);
			req_ring[id] = req[id]->ring;
			ha->req_q_map[id] = req[id];
			set_bit(id, ha->req_qid_map);
		}
		if (c->rsp_ids & BIT(id)) {
			rsp[id] = qla_test_rsp(test, ha, f, true);
			rsp_ring[id] = rsp[id]->ring;
			ha->rsp_q_map[id] = rsp[id];
			set_bit(id, ha->rsp_qid_map);
		}
	}
	if (c->qpairs) {
		ha->queue_pair_map = kcalloc(2, sizeof(*ha->queue_pair_map), GFP_KERNEL);
		ha->qp_cpu_map = kcalloc(2, sizeof(*ha->qp_cpu_map), GFP_KERNEL);
		ha->base_qpair = kzalloc(sizeof(*ha->base_qpair), GFP_KERNEL);
		qpairs[0] = ha->queue_pair_map;
		qpairs[1] = ha->qp_cpu_map;
		qpairs[2] = ha->base_qpair;
		KUNIT_ASSERT_NOT_NULL(test, qpairs[0]);
		KUNIT_ASSERT_NOT_NULL(test, qpairs[1]);
		KUNIT_ASSERT_NOT_NULL(test, qpairs[2]);
		for (id = 0; id < ARRAY_SIZE(qpairs); id++)
			qla_test_track(test, f, qpairs[id]);
	}

	qla2x00_free_queues(ha);

	for (id = 0; id < QLA_TEST_QUEUES; id++) {
		kept = id >= c->max_req;
		if (req[id]) {
			KUNIT_EXPECT_EQ_MSG(test, qla_test_kfrees(f, req[id]), !kept,
					    "request queue %u", id);
			if (!kept)
				qla_test_expect_freed_once(test, f, NULL, req_ring[id], NULL,
							   NULL, NULL);
		}
		KUNIT_EXPECT_EQ_MSG(test, test_bit(id, ha->req_qid_map),
				    kept && (c->req_ids & BIT(id)), "request id %u", id);
		kept = id >= c->max_rsp;
		if (rsp[id]) {
			KUNIT_EXPECT_EQ_MSG(test, qla_test_kfrees(f, rsp[id]), !kept,
					    "response queue %u", id);
			if (!kept)
				qla_test_expect_freed_once(test, f, NULL, NULL, NULL, NULL,
							   rsp_ring[id]);
		}
		KUNIT_EXPECT_EQ_MSG(test, test_bit(id, ha->rsp_qid_map),
				    kept && (c->rsp_ids & BIT(id)), "response id %u", id);
	}
	KUNIT_EXPECT_EQ(test, qla_test_kfrees(f, req_map), 1);
	KUNIT_EXPECT_EQ(test, qla_test_kfrees(f, rsp_map), 1);
	/* Emptied before they went, but for the ids past the maximum */
	KUNIT_EXPECT_EQ(test, f->array_set[0], hweight_long(c->req_ids >> c->max_req));
	KUNIT_EXPECT_EQ(test, f->array_set[1], hweight_long(c->rsp_ids >> c->max_rsp));
	KUNIT_EXPECT_NULL(test, ha->req_q_map);
	KUNIT_EXPECT_NULL(test, ha->rsp_q_map);
	KUNIT_EXPECT_NULL(test, ha->queue_pair_map);
	KUNIT_EXPECT_NULL(test, ha->qp_cpu_map);
	KUNIT_EXPECT_NULL(test, ha->base_qpair);
	for (id = 0; id < ARRAY_SIZE(qpairs); id++)
		if (qpairs[id])
			KUNIT_EXPECT_EQ_MSG(test, qla_test_kfrees(f, qpairs[id]), 1,
					    "queue pair allocation %u", id);
	/* The test's to free: the queues past the maximum */
	for (id = 0; id < QLA_TEST_QUEUES; id++) {
		if (req[id] && id >= c->max_req)
			qla2x00_free_req_que(ha, req[id]);
		if (rsp[id] && id >= c->max_rsp)
			qla2x00_free_rsp_que(ha, rsp[id]);
	}
}

/*
 * What the probe's error labels do with the queues, in their order, to
 * undo a walk of qla2x00_alloc_queues(): probe_failed's
 * qla2x00_disown_queues(), then qla2x00_free_device(), whose part for the
 * queues is qla2x00_free_queues(); then probe_hw_failed's frees.
 */
static void qla_test_error_labels(struct qla_hw_data *ha, struct req_que *req,
				  struct rsp_que *rsp)
{
	qla2x00_disown_queues(ha, &req, &rsp);
	qla2x00_free_queues(ha);
	qla2x00_free_req_que(ha, req);
	qla2x00_free_rsp_que(ha, rsp);
}

#ifdef CONFIG_KUNIT_FAULT_INJECTION
/* The queues and what qla2x00_alloc_queues() is walked with. */
struct qla_test_nth {
	struct qla_test_frees *f;
	struct qla_hw_data *ha;
	struct req_que *req;
	struct rsp_que *rsp;
	void *req_ring, *rsp_ring;
};

static void qla_alloc_queues_nth_setup(struct kunit *test, void *ctx)
{
	struct qla_test_nth *w = ctx;
	scsi_qla_host_t *vha;

	w->f = qla_test_frees_start(test);
	w->ha = qla_test_ha(test);
	w->req = qla_test_req(test, w->ha, w->f, true, false);
	w->rsp = qla_test_rsp(test, w->ha, w->f, true);
	w->req_ring = w->req->ring;
	w->rsp_ring = w->rsp->ring;
	vha = kunit_kzalloc(test, sizeof(*vha), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, vha);
	vha->hw = w->ha;
	pci_set_drvdata(w->ha->pdev, vha);
}

static int qla_alloc_queues_nth_call(struct kunit *test, void *ctx)
{
	struct qla_test_nth *w = ctx;

	return qla2x00_alloc_queues(w->ha, w->req, w->rsp);
}

/*
 * An error leaves nothing in the maps; a failure may be absorbed by a
 * fallback (a slab page of a lower order), so the call may succeed. Then
 * the probe's error labels free each queue exactly once.
 */
static void qla_alloc_queues_nth_undo(struct kunit *test, void *ctx, int err,
				      unsigned int nth, bool failed)
{
	struct qla_test_nth *w = ctx;
	struct qla_hw_data *ha = w->ha;

	if (err) {
		KUNIT_EXPECT_NULL(test, ha->req_q_map);
		KUNIT_EXPECT_NULL(test, ha->rsp_q_map);
		KUNIT_EXPECT_NULL(test, ha->base_qpair);
	} else {
		KUNIT_EXPECT_NOT_NULL_MSG(test, ha->req_q_map, "allocation %u failed", nth);
		KUNIT_EXPECT_NOT_NULL_MSG(test, ha->rsp_q_map, "allocation %u failed", nth);
	}
	qla_test_error_labels(ha, w->req, w->rsp);
	qla_test_expect_freed_once(test, w->f, w->req, w->req_ring, NULL, w->rsp,
				   w->rsp_ring);
}

/*
 * qla2x00_alloc_queues() with each of its allocations failed in turn
 * (current->fail_nth), then the probe's error labels: an error and
 * nothing left in the maps, or success; either way every queue and every
 * allocation of the call freed exactly once.
 */
static void qla_alloc_queues_fail_nth_test(struct kunit *test)
{
	static const struct kunit_fail_nth walk = {
		.what = "qla2x00_alloc_queues()",
		.max = QLA_TEST_MAX_NTH,
		.setup = qla_alloc_queues_nth_setup,
		.call = qla_alloc_queues_nth_call,
		.undo = qla_alloc_queues_nth_undo,
	};
	struct qla_test_nth w = {};

	kunit_fail_nth_walk(test, &walk, &w);
}
#endif /* CONFIG_KUNIT_FAULT_INJECTION */

static struct kunit_case qla2xxx_queues_test_cases[] = {
	KUNIT_CASE_PARAM(qla_free_que_test, qla_free_gen_params),
	KUNIT_CASE(qla_free_null_que_test),
	KUNIT_CASE_PARAM(qla_disown_queues_test, qla_disown_gen_params),
	KUNIT_CASE_PARAM(qla_free_queues_test, qla_free_queues_gen_params),
#ifdef CONFIG_KUNIT_FAULT_INJECTION
	KUNIT_CASE(qla_alloc_queues_fail_nth_test),
#endif
	{}
};

static struct kunit_suite qla2xxx_queues_test_suite = {
	.name = "qla2xxx_queues",
	.test_cases = qla2xxx_queues_test_cases,
};

/*
 * The IOCB timer. One request queue with a ring of QLA_TEST_RING_LEN
 * entries whose firmware out index lives in memory (a shadow register),
 * and a queue pair whose SRBs come from a kmalloc mempool, so that the
 * SRB's release is a kfree.
 */
struct qla_test_iocb {
	struct qla_hw_data *ha;
	scsi_qla_host_t *vha;
	struct qla_qpair *qpair;
	struct req_que *req;
	u16 out_index;
	__le32 req_q_in;
	struct qla_test_frees *frees;
	atomic_t done_calls;
	int done_res;
	atomic_t timeout_calls;
};

static void qla_test_mempool_destroy(void *pool)
{
	mempool_destroy(pool);
}

static struct qla_test_iocb *qla_test_iocb_env(struct kunit *test)
{
	struct qla_test_iocb *env;
	struct qla_hw_data *ha;
	struct req_que *req;
	struct qla_qpair *qp;

	env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, env);
	env->frees = qla_test_frees_start(test);
	ha = qla_test_ha(test);
	env->ha = ha;
	/* Read by qla2x00_sp_timeout(): all zero is a connected adapter. */
	ha->iobase = (__force device_reg_t __iomem *)
		kunit_kzalloc(test, sizeof(device_reg_t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, (__force void *)ha->iobase);
	ha->mqenable = 1;

	env->vha = kunit_kzalloc(test, sizeof(*env->vha), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, env->vha);
	env->vha->hw = ha;
	init_waitqueue_head(&env->vha->vref_waitq);
	pci_set_drvdata(ha->pdev, env->vha);

	req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	env->req = req;
	KUNIT_ASSERT_NOT_NULL(test, req);
	req->length = QLA_TEST_RING_LEN;
	req->cnt = 0;
	req->ring = kunit_kcalloc(test, req->length, sizeof(request_t),
				  GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req->ring);
	req->ring_ptr = req->ring;
	req->out_ptr = &env->out_index;
	req->req_q_in = (__force __le32 __iomem *)&env->req_q_in;
	req->num_outstanding_cmds = 4;
	/* And a guard slot past the end, which no lookup may read */
	req->outstanding_cmds = kunit_kcalloc(test, req->num_outstanding_cmds + 1,
					      sizeof(srb_t *), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req->outstanding_cmds);

	qp = kunit_kzalloc(test, sizeof(*qp), GFP_KERNEL);
	env->qpair = qp;
	KUNIT_ASSERT_NOT_NULL(test, qp);
	spin_lock_init(&qp->qp_lock);
	qp->qp_lock_ptr = &qp->qp_lock;
	qp->hw = ha;
	qp->vha = env->vha;
	qp->req = req;
	qp->use_shadow_reg = 1;
	qp->srb_mempool = mempool_create_kmalloc_pool(0, sizeof(srb_t));
	KUNIT_ASSERT_NOT_NULL(test, qp->srb_mempool);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, qla_test_mempool_destroy,
						  qp->srb_mempool));
	ha->base_qpair = qp;
	return env;
}

static struct qla_test_iocb *qla_test_env_of(srb_t *sp)
{
	return (struct qla_test_iocb *)sp->priv;
}

/* The async_done callback: drops the INIT reference, as the driver's do. */
static void qla_test_async_done(srb_t *sp, int res)
{
	struct qla_test_iocb *env = qla_test_env_of(sp);

	env->done_res = res;
	atomic_inc(&env->done_calls);
	kref_put(&sp->cmd_kref, qla2x00_sp_release);
}

/* Stands in for qla2x00_async_iocb_timeout(), which aborts the command. */
static void qla_test_iocb_timeout(void *data)
{
	srb_t *sp = data;

	atomic_inc(&qla_test_env_of(sp)->timeout_calls);
}

static srb_t *qla_test_sp(struct kunit *test, struct qla_test_iocb *env)
{
	srb_t *sp = qla2x00_get_sp(env->vha, NULL, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sp);
	qla_test_track(test, env->frees, sp);
	sp->type = SRB_MARKER;
	sp->name = "kunit";
	sp->priv = env;
	return sp;
}

/*
 * qla2x00_init_async_sp(), then the test's stand-in for the abort that a
 * timeout sends. A timer armed this early is disarmed before the case
 * fails, so that it cannot fire into the driver's real timeout handler.
 */
static void qla_test_init_sp(struct kunit *test, srb_t *sp, unsigned long tmo)
{
	qla2x00_init_async_sp(sp, tmo, qla_test_async_done);
	if (timer_pending(&sp->u.iocb_cmd.timer)) {
		del_timer_sync(&sp->u.iocb_cmd.timer);
		KUNIT_FAIL_AND_ABORT(test, "the IOCB timer is armed before the IOCB is queued");
	}
	sp->u.iocb_cmd.timeout = qla_test_iocb_timeout;
}

static void qla_init_async_sp_test(struct kunit *test)
{
	struct qla_test_iocb *env = qla_test_iocb_env(test);
	srb_t *sp = qla_test_sp(test, env);
	struct timer_list *timer = &sp->u.iocb_cmd.timer;
	unsigned long before, after;

	before = jiffies;
	qla2x00_init_async_sp(sp, 10, qla_test_async_done);
	after = jiffies;

	/* Set up, not armed: nothing it needs may be missing yet. */
	if (timer_pending(timer)) {
		del_timer_sync(timer);
		KUNIT_FAIL(test, "the IOCB timer is armed before the IOCB is queued");
	}
	/* Function pointers, compared as pointers. */
	KUNIT_EXPECT_PTR_EQ(test, (void *)timer->function,
			    (void *)qla2x00_sp_timeout);
	KUNIT_EXPECT_PTR_EQ(test, (void *)sp->async_done,
			    (void *)qla_test_async_done);
	KUNIT_EXPECT_PTR_NE(test, (void *)sp->done,
			    (void *)qla_test_async_done);
	KUNIT_EXPECT_PTR_EQ(test, (void *)sp->free, (void *)qla2x00_sp_free);
	KUNIT_EXPECT_PTR_EQ(test, (void *)sp->u.iocb_cmd.timeout,
			    (void *)qla2x00_async_iocb_timeout);
	KUNIT_EXPECT_EQ(test, kref_read(&sp->cmd_kref), 1);

	/* The INIT reference is the only one: the SRB goes back at once. */
	kref_put(&sp->cmd_kref, qla2x00_sp_release);
	KUNIT_EXPECT_EQ(test, qla_test_kfrees(env->frees, sp), 1);
}

/* Timeout and completion of one IOCB, in either order. */
struct qla_race_case {
	const char *name;
	bool timeout_first;
};

static const struct qla_race_case qla_race_cases[] = {
	{ "completion before the timeout", false },
	{ "timeout before the completion", true },
};

KUNIT_ARRAY_PARAM_DESC(qla_race, qla_race_cases, name);

/* Waits up to @timeout jiffies for @v to be non-zero; returns it. */
static int qla_test_wait_atomic(atomic_t *v, unsigned long timeout)
{
	unsigned long deadline = jiffies + timeout;

	while (!atomic_read(v) && time_before(jiffies, deadline))
		schedule_timeout_uninterruptible(1);
	return atomic_read(v);
}

static void qla_timeout_completion_race_test(struct kunit *test)
{
	const struct qla_race_case *c = test->param_value;
	struct qla_test_iocb *env = qla_test_iocb_env(test);
	srb_t *sp = qla_test_sp(test, env);

	qla_test_init_sp(test, sp, c->timeout_first ? 0 : 60);
	KUNIT_ASSERT_EQ(test, qla2x00_start_sp(sp), QLA_SUCCESS);

	if (c->timeout_first) {
		KUNIT_ASSERT_EQ(test, qla_test_wait_atomic(&env->timeout_calls, 10 * HZ), 1);
		/* Let qla2x00_sp_timeout() finish: it drops its reference. */
		del_timer_sync(&sp->u.iocb_cmd.timer);
		KUNIT_EXPECT_EQ(test, kref_read(&sp->cmd_kref), 1);
		KUNIT_EXPECT_EQ(test, qla_test_kfrees(env->frees, sp), 0);
	}

	/* Whichever comes second frees the SRB, exactly once. */
	sp->done(sp, QLA_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->done_calls), 1);
	KUNIT_EXPECT_EQ(test, qla_test_kfrees(env->frees, sp), 1);
	if (!c->timeout_first) {
		msleep(jiffies_to_msecs(2));
		KUNIT_EXPECT_EQ(test, atomic_read(&env->timeout_calls), 0);
	}
}

/*
 * An abort (qla24xx_async_abort_cmd()) of a queued command, whose firmware
 * answer and IOCB timeout race: "scsi: qla2xxx: Avoid double completion
 * of abort command" (seed 001). Whichever of the two takes the abort's
 * handle out of outstanding_cmds completes the abort: the timeout
 * (qla24xx_abort_iocb_timeout()) takes the aborted command's too and
 * completes it with QLA_OS_TIMER_EXPIRED, and an answer that comes after
 * finds no handle (qla24xx_abort_iocb_entry()); an answer that comes
 * first cancels the timer (qla2x00_async_done()). The abort's SRB is
 * released once, after both; a waiting caller wakes once.
 *
 * The aborted command stands for a SCSI command, whose SRB lives in its
 * scsi_cmnd: its done callback only counts, and the case releases it.
 */
struct qla_test_abort {
	struct qla_test_iocb *env;
	struct rsp_que *rsp;
	u32 rsp_in, rsp_out;
	srb_t *cmd;
	atomic_t cmd_done;
	int cmd_res;
	struct completion waited;
	int wait_rval;
};

static struct qla_test_abort *qla_test_abort_of(srb_t *sp)
{
	return (struct qla_test_abort *)sp->priv;
}

static void qla_test_cmd_done(srb_t *sp, int res)
{
	struct qla_test_abort *a = qla_test_abort_of(sp);

	a->cmd_res = res;
	atomic_inc(&a->cmd_done);
}

/*
 * The IOCB environment with a response ring for the firmware's answers,
 * the base queue pair's lock as qla2x00_mem_alloc() sets it (the
 * adapter's hardware_lock, which the interrupt handler holds), and a
 * command queued on it with a 60 s timer.
 */
static struct qla_test_abort *qla_test_abort_env(struct kunit *test)
{
	struct qla_test_abort *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	struct qla_test_iocb *env;
	struct rsp_que *rsp;

	KUNIT_ASSERT_NOT_NULL(test, a);
	env = qla_test_iocb_env(test);
	a->env = env;
	env->qpair->qp_lock_ptr = &env->ha->hardware_lock;
	env->qpair->cpu_mapped = 1;
	env->ha->flags.fw_started = 1;

	rsp = kunit_kzalloc(test, sizeof(*rsp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rsp);
	rsp->length = QLA_TEST_RING_LEN;
	rsp->ring = kunit_kcalloc(test, rsp->length, sizeof(response_t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rsp->ring);
	rsp->ring_ptr = rsp->ring;
	rsp->rsp_q_in = (__force __le32 __iomem *)&a->rsp_in;
	rsp->rsp_q_out = (__force __le32 __iomem *)&a->rsp_out;
	rsp->req = env->req;
	rsp->qpair = env->qpair;
	rsp->hw = env->ha;
	env->qpair->rsp = rsp;
	a->rsp = rsp;
	init_completion(&a->waited);

	/* Not 0, so that the queue number the abort IOCB carries shows. */
	env->req->id = QLA_TEST_REQ_ID;

	a->cmd = qla_test_sp(test, env);
	a->cmd->priv = a;
	qla2x00_init_async_sp(a->cmd, 60, qla_test_cmd_done);
	KUNIT_ASSERT_EQ(test, qla2x00_start_sp(a->cmd), QLA_SUCCESS);
	/*
	 * The firmware resources a SCSI command holds while it is out
	 * (qla24xx_start_scsi(), with ql2xenforce_iocb_limit at 2: the
	 * adapter's count as well as the queue pair's).
	 */
	a->cmd->iores.res_type = RESOURCE_HA | RESOURCE_IOCB | RESOURCE_EXCH;
	a->cmd->iores.iocb_cnt = QLA_TEST_CMD_IOCBS;
	a->cmd->iores.exch_cnt = 1;
	env->qpair->fwres.iocbs_used = QLA_TEST_CMD_IOCBS;
	env->qpair->fwres.exch_used = 1;
	atomic_set(&env->ha->fwres.iocb_used, QLA_TEST_CMD_IOCBS);
	atomic_set(&env->ha->fwres.exch_used, 1);
	return a;
}

/*
 * The firmware resources the aborted command holds: @held of them, or
 * none once they were given back.
 */
static void qla_test_expect_cmd_resources(struct kunit *test, struct qla_test_abort *a,
					  bool held)
{
	struct qla_test_iocb *env = a->env;

	KUNIT_EXPECT_EQ(test, env->qpair->fwres.iocbs_used, held ? QLA_TEST_CMD_IOCBS : 0);
	KUNIT_EXPECT_EQ(test, env->qpair->fwres.exch_used, held ? 1 : 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->ha->fwres.iocb_used),
			held ? QLA_TEST_CMD_IOCBS : 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->ha->fwres.exch_used), held ? 1 : 0);
}

/* The abort's SRB and its IOCB on the request ring, once it is queued. */
static srb_t *qla_test_abort_sp(struct qla_test_abort *a, struct abort_entry_24xx **iocb)
{
	struct req_que *req = a->env->req;
	u32 i;

	for (i = 1; i < req->num_outstanding_cmds; i++) {
		srb_t *sp = req->outstanding_cmds[i];

		if (sp && sp->type == SRB_ABT_CMD) {
			*iocb = (struct abort_entry_24xx *)&req->ring[req->ring_index - 1];
			return sp;
		}
	}
	return NULL;
}

/*
 * The firmware's answer to the abort IOCB @iocb: an ABORT_IOCB_TYPE
 * entry with its handle and @status on the response ring, processed as
 * the interrupt handler does, under the hardware lock.
 */
static void qla_test_fw_abort_answer(struct qla_test_abort *a, u32 handle, u16 status)
{
	struct abort_entry_24xx *pkt = (struct abort_entry_24xx *)a->rsp->ring_ptr;
	unsigned long flags;

	memset(pkt, 0, sizeof(response_t));
	pkt->entry_type = ABORT_IOCB_TYPE;
	pkt->entry_count = 1;
	pkt->handle = handle;
	pkt->comp_status = cpu_to_le16(status);
	a->rsp_in = (a->rsp->ring_index + 1) % a->rsp->length;
	spin_lock_irqsave(&a->env->ha->hardware_lock, flags);
	qla24xx_process_response_queue(a->env->vha, a->rsp);
	spin_unlock_irqrestore(&a->env->ha->hardware_lock, flags);
}

/* The abort's IOCB timer, fired now instead of in 42 s. */
static void qla_test_fire_timer(struct kunit *test, srb_t *sp)
{
	KUNIT_ASSERT_TRUE(test, timer_pending(&sp->u.iocb_cmd.timer));
	mod_timer(&sp->u.iocb_cmd.timer, jiffies);
}

/*
 * The abort's IOCB timer taken off its list as it expires, so that an
 * answer that comes now finds it running and cannot cancel it
 * (qla2x00_async_done()): its function is then run by the case's task.
 */
static void qla_test_expire_timer(struct kunit *test, srb_t *sp)
{
	KUNIT_ASSERT_TRUE(test, del_timer_sync(&sp->u.iocb_cmd.timer));
}

static void qla_test_run_timer(srb_t *sp)
{
	struct timer_list *t = &sp->u.iocb_cmd.timer;

	t->function(t);
}

static int qla_test_abort_waiter(void *data)
{
	struct qla_test_abort *a = data;

	a->wait_rval = qla24xx_async_abort_cmd(a->cmd, true);
	complete(&a->waited);
	return 0;
}

/* The command's own timer cancelled and its SRB released, as the midlayer's completion would. */
static void qla_test_cmd_release(struct kunit *test, struct qla_test_abort *a)
{
	struct req_que *req = a->env->req;

	if (del_timer_sync(&a->cmd->u.iocb_cmd.timer))
		kref_put(&a->cmd->cmd_kref, qla2x00_sp_release);
	if (req->outstanding_cmds[a->cmd->handle] == a->cmd)
		req->outstanding_cmds[a->cmd->handle] = NULL;
	KUNIT_EXPECT_EQ(test, kref_read(&a->cmd->cmd_kref), 1);
	kref_put(&a->cmd->cmd_kref, qla2x00_sp_release);
}

/*
 * qla2x00_start_sp() of an SRB set up by qla2x00_init_async_sp(), with
 * ql2xenforce_iocb_limit at 2 (its default): the firmware's IOCBs (and
 * exchanges) it takes, for the queue pair and the adapter, and gives back
 * when the IOCB is not queued; the ring, the timer and its reference. A
 * marker (RESOURCE_FORCE) always gets its IOCB; a login only within the
 * limits, which the adapter of these cases has at 0 unless a row gives
 * it room; an ELS pass-through carries the SRB's handle.
 */
struct qla_start_case {
	const char *name;
	u8 type;		/* sp->type */
	bool start_timer;	/* as qla2x00_init_async_sp() leaves it, or cleared */
	bool eeh_busy;		/* the PCI channel is in error recovery */
	bool ring_full;
	bool room;		/* firmware limits with room for one more */
	int ret;
	u16 iocbs, exchs;	/* held once it returns */
	bool logged;		/* "qla2x00_alloc_iocbs failed." (0x700c) */
};

static const struct qla_start_case qla_start_cases[] = {
	{ "marker, queued: timer armed, its IOCB counted", SRB_MARKER, true, .iocbs = 1 },
	{ "marker, start_timer cleared: queued, no timer", SRB_MARKER, false, .iocbs = 1 },
	{ "EEH busy: -EIO, nothing queued or counted", SRB_MARKER, true, .eeh_busy = true,
	  .ret = -EIO },
	{ "ring full: -EAGAIN, the IOCB given back, warned", SRB_MARKER, true,
	  .ring_full = true, .ret = -EAGAIN, .logged = true },
	{ "login past the firmware's limits: -EAGAIN, nothing queued", SRB_LOGIN_CMD, true,
	  .ret = -EAGAIN },
	{ "ELS pass-through within the limits: queued with the SRB's handle",
	  SRB_ELS_CMD_HST_NOLOGIN, true, .room = true, .iocbs = 1, .exchs = 1 },
};

KUNIT_ARRAY_PARAM_DESC(qla_start, qla_start_cases, name);

#define QLA_TEST_FW_ROOM	16

static void qla_start_sp_test(struct kunit *test)
{
	const struct qla_start_case *c = test->param_value;
	struct qla_test_iocb *env = qla_test_iocb_env(test);
	struct qla_test_log *log = qla_test_log_start(test, ql_dbg_async);
	srb_t *sp = qla_test_sp(test, env);
	bool queued = !c->ret, timer;
	unsigned long flags;
	int ret;

	qla_test_param_set(test, &ql2xenforce_iocb_limit, 2);
	sp->type = c->type;
	/* An IOCB that is not queued gets a timer due at once, were it armed */
	qla_test_init_sp(test, sp, queued ? 60 : 0);
	sp->start_timer = c->start_timer;
	env->ha->flags.eeh_busy = c->eeh_busy;
	if (c->ring_full)
		env->out_index = 1;	/* the firmware took one entry since it was empty */
	if (c->room) {
		env->qpair->fwres.iocbs_qp_limit = QLA_TEST_FW_ROOM;
		env->qpair->fwres.iocbs_total = QLA_TEST_FW_ROOM;
		env->qpair->fwres.exch_limit = QLA_TEST_FW_ROOM;
		env->ha->fwres.iocb_limit = QLA_TEST_FW_ROOM;
		env->ha->fwres.exch_limit = QLA_TEST_FW_ROOM;
	}

	ret = qla2x00_start_sp(sp);
	timer = timer_pending(&sp->u.iocb_cmd.timer);
	if (timer && !queued)
		del_timer_sync(&sp->u.iocb_cmd.timer);

	KUNIT_EXPECT_EQ(test, ret, c->ret);
	KUNIT_EXPECT_FALSE(test, irqs_disabled());
	if (spin_trylock_irqsave(env->qpair->qp_lock_ptr, flags))
		spin_unlock_irqrestore(env->qpair->qp_lock_ptr, flags);
	else
		KUNIT_FAIL(test, "the queue pair's lock is still held");
	KUNIT_EXPECT_EQ(test, env->req->ring_index, queued);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(env->req_q_in), queued);
	KUNIT_EXPECT_EQ(test, timer, queued && c->start_timer);
	KUNIT_EXPECT_EQ(test, kref_read(&sp->cmd_kref), 1 + (queued && c->start_timer));
	KUNIT_EXPECT_EQ(test, env->qpair->fwres.iocbs_used, c->iocbs);
	KUNIT_EXPECT_EQ(test, env->qpair->fwres.exch_used, c->exchs);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->ha->fwres.iocb_used), c->iocbs);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->ha->fwres.exch_used), c->exchs);
	if (queued) {
		KUNIT_EXPECT_PTR_EQ(test, env->req->outstanding_cmds[sp->handle], sp);
		if (c->type == SRB_ELS_CMD_HST_NOLOGIN)
			KUNIT_EXPECT_EQ(test, ((struct els_entry_24xx *)env->req->ring)->handle,
					sp->handle);
	}
	if (c->logged)
		qla_test_expect_line(test, log, "]-700c:0: qla2x00_alloc_iocbs failed.");
	else
		KUNIT_EXPECT_FALSE(test, qla_test_logged(log, "qla2x00_alloc_iocbs failed."));

	if (queued) {
		/* The firmware's answer: cancels the timer, then the callback. */
		sp->done(sp, QLA_SUCCESS);
		KUNIT_EXPECT_EQ(test, atomic_read(&env->done_calls), 1);
	} else {
		/* The caller drops its reference: freed once, no timeout later. */
		kref_put(&sp->cmd_kref, qla2x00_sp_release);
		msleep(jiffies_to_msecs(2));
		KUNIT_EXPECT_EQ(test, atomic_read(&env->timeout_calls), 0);
	}
	KUNIT_EXPECT_EQ(test, qla_test_kfrees(env->frees, sp), 1);
}

/*
 * qla2x00_sp_timeout() runs the SRB's timeout, drops the timer's
 * reference, and, when the adapter's registers read all ones (the PCI
 * link gone), says so (0x9008) and hands the EEH recovery to the DPC
 * thread (DO_EEH_RECOVERY, the thread woken), unless the adapter is in it
 * already: it is a timer callback, and qla_pci_set_eeh_busy() takes a
 * mutex. Nothing of the recovery happens in the callback: no chip reset
 * counted, the queue pairs online. One row fires the real timer, in
 * softirq context; the debug leg (CONFIG_DEBUG_ATOMIC_SLEEP) reports
 * whatever sleeps there.
 */
struct qla_timeout_case {
	const char *name;
	u32 host_status;	/* what the status register reads */
	bool eeh_busy;		/* the adapter in EEH recovery already */
	bool softirq;		/* the timer fired, else run from the case's task */
	bool disconnect;	/* seen as disconnected */
	bool handed;		/* DO_EEH_RECOVERY set, the DPC thread woken */
};

static const struct qla_timeout_case qla_timeout_cases[] = {
	{ "registers read: nothing more", 0, false, false, false, false },
	{ "registers read all ones: the DPC thread recovers", ISP_REG_DISCONNECT, false, false,
	  true, true },
	{ "all ones, in EEH recovery already: nothing handed", ISP_REG_DISCONNECT, true, false,
	  true, false },
	{ "all ones, the timer fired: the DPC thread recovers", ISP_REG_DISCONNECT, false, true,
	  true, true },
	{ "registers read, the timer fired: nothing more", 0, false, true, false, false },
};

KUNIT_ARRAY_PARAM_DESC(qla_timeout, qla_timeout_cases, name);

/* The adapter's DPC thread: it counts its wake-ups. */
struct qla_test_dpc {
	struct qla_hw_data *ha;
	struct task_struct *task;
	atomic_t wakeups;
};

static int qla_test_dpc_fn(void *data)
{
	struct qla_test_dpc *dpc = data;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
		atomic_inc(&dpc->wakeups);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void qla_test_dpc_stop(void *data)
{
	struct qla_test_dpc *dpc = data;

	dpc->ha->dpc_thread = NULL;
	kthread_stop(dpc->task);
	put_task_struct(dpc->task);
}

/* Starts the adapter's DPC thread and waits until it sleeps. */
static struct qla_test_dpc *qla_test_dpc_start(struct kunit *test, struct qla_hw_data *ha)
{
	struct qla_test_dpc *dpc = kunit_kzalloc(test, sizeof(*dpc), GFP_KERNEL);
	struct task_struct *task;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, dpc);
	dpc->ha = ha;
	task = kthread_run(qla_test_dpc_fn, dpc, "qla_kunit_dpc");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, task);
	get_task_struct(task);
	dpc->task = task;
	ha->dpc_thread = task;
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, qla_test_dpc_stop, dpc));
	for (i = 0; i < 10 * HZ && READ_ONCE(task->__state) != TASK_INTERRUPTIBLE; i++)
		schedule_timeout_uninterruptible(1);
	KUNIT_ASSERT_EQ(test, READ_ONCE(task->__state), TASK_INTERRUPTIBLE);
	return dpc;
}

static void qla_sp_timeout_test(struct kunit *test)
{
	const struct qla_timeout_case *c = test->param_value;
	struct qla_test_iocb *env = qla_test_iocb_env(test);
	struct qla_test_log *log = qla_test_log_start(test, ql_dbg_async);
	struct qla_hw_data *ha = env->ha;
	srb_t *sp = qla_test_sp(test, env);
	struct timer_list *timer = &sp->u.iocb_cmd.timer;
	struct qla_test_dpc *dpc;
	bool handed;

	/* What qla_pci_error_cleanup() would go through: no port, no vport */
	spin_lock_init(&env->vha->work_lock);
	INIT_LIST_HEAD(&env->vha->qp_list);
	INIT_LIST_HEAD(&env->vha->vp_fcports);
	mutex_init(&ha->mq_lock);
	spin_lock_init(&ha->vport_slock);
	INIT_LIST_HEAD(&ha->vp_list);
	ha->isp_type = DT_ISP2422;
	ha->chip_reset = 7;
	ha->flags.eeh_busy = c->eeh_busy;
	env->qpair->online = 1;
	writel(c->host_status, &ha->iobase->isp24.host_status);
	dpc = qla_test_dpc_start(test, ha);

	qla_test_init_sp(test, sp, 60);
	kref_get(&sp->cmd_kref);	/* ref: TMR, as qla2x00_start_sp() takes it */
	if (c->softirq) {
		mod_timer(timer, jiffies);
		qla_test_wait_atomic(&env->timeout_calls, 10 * HZ);
		/* Until the callback has returned */
		del_timer_sync(timer);
	} else {
		qla_test_run_timer(sp);
	}

	KUNIT_EXPECT_EQ(test, atomic_read(&env->timeout_calls), 1);
	KUNIT_EXPECT_EQ(test, kref_read(&sp->cmd_kref), 1);
	handed = test_bit(DO_EEH_RECOVERY, &env->vha->dpc_flags);
	KUNIT_EXPECT_EQ(test, handed, c->handed);
	/* Woken at once: it has run within two seconds */
	KUNIT_EXPECT_EQ(test, handed ? qla_test_wait_atomic(&dpc->wakeups, 2 * HZ) :
				       atomic_read(&dpc->wakeups), c->handed);
	KUNIT_EXPECT_EQ(test, !!ha->flags.eeh_busy, c->eeh_busy);
	KUNIT_EXPECT_EQ(test, ha->chip_reset, 7);
	KUNIT_EXPECT_EQ(test, env->qpair->chip_reset, 0);
	KUNIT_EXPECT_TRUE(test, env->qpair->online);
	if (c->disconnect)
		qla_test_expect_line(test, log, "]-9008:0: PCI/Register disconnect.");
	else
		KUNIT_EXPECT_FALSE(test, qla_test_logged(log, "PCI/Register disconnect"));

	kref_put(&sp->cmd_kref, qla2x00_sp_release);
	KUNIT_EXPECT_EQ(test, qla_test_kfrees(env->frees, sp), 1);
}

/*
 * qla2x00_init_async_sp() initialises the completion an FX00 adapter's
 * DCMD IOCB waits on, and touches the rest of the SRB's command union
 * for no other adapter or type (the union is each type's own).
 */
struct qla_init_fx_case {
	const char *name;
	bool fx00;
	u8 type;
	bool comp;	/* the completion initialised */
};

static const struct qla_init_fx_case qla_init_fx_cases[] = {
	{ "FX00, DCMD: the completion initialised", true, SRB_FXIOCB_DCMD, true },
	{ "FX00, BCMD: union untouched", true, SRB_FXIOCB_BCMD, false },
	{ "FX00, login: union untouched", true, SRB_LOGIN_CMD, false },
	{ "ISP24xx, DCMD: union untouched", false, SRB_FXIOCB_DCMD, false },
};

KUNIT_ARRAY_PARAM_DESC(qla_init_fx, qla_init_fx_cases, name);

#define QLA_TEST_POISON	0xa5

static void qla_init_async_sp_fx_test(struct kunit *test)
{
	const struct qla_init_fx_case *c = test->param_value;
	struct qla_test_iocb *env = qla_test_iocb_env(test);
	srb_t *sp = qla_test_sp(test, env);
	struct completion *comp = &sp->u.iocb_cmd.u.fxiocb.fxiocb_comp;
	u8 *u = (u8 *)&sp->u.iocb_cmd.u;
	size_t i, changed = 0;

	env->ha->isp_type = c->fx00 ? DT_ISPFX00 : DT_ISP2422;
	sp->type = c->type;
	memset(u, QLA_TEST_POISON, sizeof(sp->u.iocb_cmd.u));

	qla_test_init_sp(test, sp, 60);

	for (i = 0; i < sizeof(sp->u.iocb_cmd.u); i++)
		changed += u[i] != QLA_TEST_POISON;
	if (c->comp) {
		KUNIT_EXPECT_FALSE(test, completion_done(comp));
		KUNIT_EXPECT_TRUE(test, list_empty(&comp->wait.task_list));
	} else {
		KUNIT_EXPECT_EQ(test, changed, 0);
	}
	KUNIT_EXPECT_TRUE(test, sp->start_timer);
	kref_put(&sp->cmd_kref, qla2x00_sp_release);
	KUNIT_EXPECT_EQ(test, qla_test_kfrees(env->frees, sp), 1);
}

struct qla_abort_case {
	const char *name;
	bool wait;
	bool timeout_first;
	u16 status;		/* of the firmware's answer */
	bool cmd_done_first;	/* the command completed before the timeout */
	bool timer_in_task;	/* the timeout first, its function run by the case's task */
	bool timer_running;	/* the answer while the timer runs */
	bool nvme;		/* an NVMe command, on a port that waits for the ABTS */
	bool abts_nowait;	/* ... with the module parameter ql2xabts_wait_nvme off */
	bool no_cmd;		/* the abort's SRB without its command when answered */
};

static const struct qla_abort_case qla_abort_cases[] = {
	{ "no wait, answer then timeout", false, false, CS_COMPLETE },
	{ "no wait, timeout then answer", false, true, CS_COMPLETE },
	{ "no wait, command done, then timeout", false, true, CS_COMPLETE, true },
	{ "no wait, answer refused", false, false, CS_ABORTED },
	{ "wait, answer then timeout", true, false, CS_COMPLETE },
	{ "wait, timeout then answer", true, true, CS_COMPLETE },
	{ "wait, answer refused", true, false, CS_ABORTED },
	{ "no wait, timeout run by the task", false, true, CS_COMPLETE, false, true },
	{ "no wait, answer while the timer runs", false, false, CS_COMPLETE, false, false,
	  true },
	{ "wait, answer while the timer runs", true, false, CS_COMPLETE, false, false, true },
	{ "wait, refused while the timer runs", true, false, CS_ABORTED, false, false, true },
	{ .name = "no wait, NVMe, answer then timeout", .status = CS_COMPLETE, .nvme = true },
	{ .name = "no wait, NVMe, timeout then answer", .timeout_first = true,
	  .status = CS_COMPLETE, .nvme = true },
	{ .name = "wait, NVMe, refused", .wait = true, .status = CS_ABORTED, .nvme = true },
	{ .name = "no wait, NVMe, ql2xabts_wait_nvme=0", .status = CS_COMPLETE, .nvme = true,
	  .abts_nowait = true },
	/* The answer reads the aborted command only through the abort's cmd_sp */
	{ .name = "no wait, the abort's command gone: answered all the same",
	  .status = CS_ABORTED, .no_cmd = true },
};

KUNIT_ARRAY_PARAM_DESC(qla_abort, qla_abort_cases, name);

#define QLA_TEST_R_A_TOV	100	/* R_A_TOV, in tenths of a second */
#define QLA_TEST_LOOP_ID	0x81
#define QLA_TEST_PORT_ID	0x010203

/*
 * The aborted command an NVMe one, on a port whose firmware can wait for
 * the ABTS (fw_attributes_ext[0] bit 14), with ql2xabts_wait_nvme on or
 * off. With both, the abort IOCB asks for 2 retries and an answer within
 * 2 R_A_TOV, and the command's reference that qla_nvme_abort_work() keeps
 * for the abort is dropped when the abort completes
 * (qla24xx_abort_sp_done()); else the IOCB has no options and the
 * reference is left to the caller.
 */
static void qla_test_abort_nvme(struct kunit *test, struct qla_test_abort *a, bool wait)
{
	struct qla_test_iocb *env = a->env;
	fc_port_t *fcport = kunit_kzalloc(test, sizeof(*fcport), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fcport);
	qla_test_param_set(test, &ql2xabts_wait_nvme, wait);
	fcport->vha = env->vha;
	fcport->loop_id = QLA_TEST_LOOP_ID;
	fcport->d_id.b24 = QLA_TEST_PORT_ID;
	a->cmd->fcport = fcport;
	a->cmd->type = SRB_NVME_CMD;
	env->ha->fw_attributes_ext[0] |= BIT_14;
	env->ha->r_a_tov = QLA_TEST_R_A_TOV;
	kref_get(&a->cmd->cmd_kref);
}

/*
 * What qla_nvme_abort_process_comp_status() logs of the firmware's answer
 * to an NVMe abort, on a port that waits for the ABTS: an error status,
 * under ql_dbg_async (a success only with ql_dbg_verbose too). Nothing
 * for any other abort.
 */
static void qla_test_expect_nvme_abort_logged(struct kunit *test, struct qla_test_log *log,
					      const struct qla_abort_case *c)
{
	if (c->nvme && !c->abts_nowait && c->status != CS_COMPLETE)
		qla_test_expect_logged(test, log, 0xf09d,
				       "Abort I/O IOCB completed with error, comp_status=%x",
				       c->status);
	else
		KUNIT_EXPECT_FALSE(test, qla_test_logged(log, "comp_status="));
}

/* The abort IOCB's options, and the port it is sent to */
static void qla_test_expect_abort_options(struct kunit *test, const struct qla_abort_case *c,
					  struct abort_entry_24xx *iocb)
{
	bool opts = c->nvme && !c->abts_nowait;

	KUNIT_EXPECT_EQ(test, le16_to_cpu(iocb->options),
			opts ? AOF_ABTS_RTY_CNT | AOF_RSP_TIMEOUT : 0);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(iocb->drv.abts_rty_cnt), opts ? 2 : 0);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(iocb->drv.rsp_timeout),
			opts ? 2 * (QLA_TEST_R_A_TOV / 10) : 0);
	if (!c->nvme)
		return;
	KUNIT_EXPECT_EQ(test, le16_to_cpu(iocb->nport_handle), QLA_TEST_LOOP_ID);
	KUNIT_EXPECT_EQ(test, iocb->port_id[0], QLA_TEST_PORT_ID & 0xff);
	KUNIT_EXPECT_EQ(test, iocb->port_id[1], (QLA_TEST_PORT_ID >> 8) & 0xff);
	KUNIT_EXPECT_EQ(test, iocb->port_id[2], QLA_TEST_PORT_ID >> 16);
}

static void qla_abort_race_test(struct kunit *test)
{
	const struct qla_abort_case *c = test->param_value;
	struct qla_test_abort *a = qla_test_abort_env(test);
	struct qla_test_iocb *env = a->env;
	struct abort_entry_24xx *iocb = NULL;
	struct task_struct *waiter = NULL;
	unsigned long deadline = jiffies + 10 * HZ;
	unsigned long issued = jiffies;
	struct qla_test_log *log = qla_test_log_start(test, ql_dbg_async);
	srb_t *abt;
	u32 handle, abt_handle;
	u16 abt_type;

	if (c->nvme)
		qla_test_abort_nvme(test, a, !c->abts_nowait);
	if (c->wait) {
		waiter = kthread_run(qla_test_abort_waiter, a, "qla_test_abort");
		KUNIT_ASSERT_FALSE(test, IS_ERR(waiter));
		env->frees->helper = waiter;
	} else {
		KUNIT_ASSERT_EQ(test, qla24xx_async_abort_cmd(a->cmd, false), QLA_SUCCESS);
	}
	while (!(abt = qla_test_abort_sp(a, &iocb)) && time_before(jiffies, deadline))
		schedule_timeout_uninterruptible(1);
	KUNIT_ASSERT_NOT_NULL(test, abt);
	qla_test_track(test, env->frees, abt);

	/* The IOCB the firmware gets names the command it aborts, and its queue. */
	KUNIT_EXPECT_EQ(test, iocb->entry_type, ABORT_IOCB_TYPE);
	KUNIT_EXPECT_EQ(test, iocb->handle, make_handle(env->req->id, abt->handle));
	KUNIT_EXPECT_EQ(test, iocb->handle_to_abort, make_handle(env->req->id, a->cmd->handle));
	KUNIT_EXPECT_EQ(test, le16_to_cpu(iocb->req_que_no), QLA_TEST_REQ_ID);
	qla_test_expect_abort_options(test, c, iocb);
	KUNIT_EXPECT_PTR_EQ(test, abt->cmd_sp, a->cmd);
	KUNIT_EXPECT_PTR_EQ(test, abt->qpair, a->cmd->qpair);
	KUNIT_EXPECT_STREQ(test, abt->name, "abort");
	KUNIT_EXPECT_EQ(test, !!(abt->flags & SRB_WAKEUP_ON_COMP), c->wait);
	/* "FW can send 2 x ABTS's timeout/20s": the timer is 42 s out */
	KUNIT_EXPECT_GE(test, abt->u.iocb_cmd.timer.expires, issued + 42 * HZ);
	KUNIT_EXPECT_LE(test, abt->u.iocb_cmd.timer.expires, jiffies + 42 * HZ);
	/* The adapter is busy with both SRBs: its removal waits for them */
	KUNIT_EXPECT_EQ(test, atomic_read(&env->vha->vref_count), 2);
	handle = iocb->handle;
	/* INIT and TMR */
	KUNIT_EXPECT_EQ(test, kref_read(&abt->cmd_kref), 2);
	qla_test_expect_logged(test, log, 0x507c, "Abort command issued - hdl=%x, type=%x",
			       a->cmd->handle, a->cmd->type);

	if (c->no_cmd)
		abt->cmd_sp = NULL;
	/* Its handle taken back, as the command's own completion would */
	if (c->cmd_done_first)
		env->req->outstanding_cmds[a->cmd->handle] = NULL;
	abt_handle = abt->handle;
	abt_type = abt->type;
	if (c->timeout_first) {
		if (c->timer_in_task) {
			qla_test_expire_timer(test, abt);
			qla_test_run_timer(abt);
			/* What an administrator reads: both commands' handles and types */
			qla_test_expect_logged(test, log, 0x507c,
					       "Abort timeout - cmd hdl=%x, cmd type=%x hdl=%x, type=%x",
					       a->cmd->handle, a->cmd->type, abt_handle, abt_type);
		} else {
			qla_test_fire_timer(test, abt);
		}
		deadline = jiffies + 10 * HZ;
		while (!qla_test_kfrees(env->frees, abt) && time_before(jiffies, deadline))
			schedule_timeout_uninterruptible(1);
		/*
		 * Both handles taken back, the command completed as timed out
		 * and its firmware resources given back; a command that
		 * completed on its own is neither completed nor given back again.
		 */
		KUNIT_EXPECT_NULL(test, env->req->outstanding_cmds[a->cmd->handle]);
		KUNIT_EXPECT_EQ(test, atomic_read(&a->cmd_done), !c->cmd_done_first);
		if (!c->cmd_done_first)
			KUNIT_EXPECT_EQ(test, a->cmd_res, QLA_OS_TIMER_EXPIRED);
		KUNIT_EXPECT_EQ(test, qla_test_kfrees(env->frees, abt), 1);
		qla_test_expect_cmd_resources(test, a, c->cmd_done_first);
		/* The late answer finds no handle: nothing completes twice */
		qla_test_fw_abort_answer(a, handle, c->status);
	} else if (c->timer_running) {
		qla_test_expire_timer(test, abt);
		qla_test_fw_abort_answer(a, handle, c->status);
		qla_test_expect_nvme_abort_logged(test, log, c);
		/* The answer took the abort's handle: put the abort in the guard slot */
		KUNIT_EXPECT_NULL(test, env->req->outstanding_cmds[abt_handle]);
		env->req->outstanding_cmds[env->req->num_outstanding_cmds] = abt;
		KUNIT_EXPECT_EQ(test, qla_test_kfrees(env->frees, abt), 0);
		/*
		 * The timer, running, still holds the abort (ref: TMR). It finds
		 * the command still out: it takes the command's handle and
		 * completes it as timed out, and it neither completes the
		 * answered abort again nor reads past the handles.
		 */
		qla_test_run_timer(abt);
		env->req->outstanding_cmds[env->req->num_outstanding_cmds] = NULL;
		KUNIT_EXPECT_NULL(test, env->req->outstanding_cmds[a->cmd->handle]);
		KUNIT_EXPECT_EQ(test, a->cmd_res, QLA_OS_TIMER_EXPIRED);
		qla_test_expect_cmd_resources(test, a, false);
		if (!c->wait)
			KUNIT_EXPECT_EQ(test, qla_test_kfrees(env->frees, abt), 1);
	} else {
		qla_test_fw_abort_answer(a, handle, c->status);
		qla_test_expect_nvme_abort_logged(test, log, c);
		if (!c->wait)
			KUNIT_EXPECT_EQ(test, qla_test_kfrees(env->frees, abt), 1);
		/* The answer cancelled the timer: it never fires */
		msleep(jiffies_to_msecs(2));
		KUNIT_EXPECT_EQ(test, atomic_read(&a->cmd_done), 0);
		KUNIT_EXPECT_PTR_EQ(test, env->req->outstanding_cmds[a->cmd->handle], a->cmd);
		/* The command is still out, with its resources */
		qla_test_expect_cmd_resources(test, a, true);
	}

	if (c->wait) {
		KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&a->waited, 10 * HZ), 0UL);
		KUNIT_EXPECT_EQ(test, a->wait_rval,
				!c->timeout_first && c->status == CS_COMPLETE ?
				QLA_SUCCESS : QLA_ERR_FROM_FW);
	}
	KUNIT_EXPECT_EQ(test, qla_test_kfrees(env->frees, abt), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->cmd_done),
			(c->timeout_first || c->timer_running) && !c->cmd_done_first);
	/* The NVMe abort's reference, left to its caller without the wait */
	if (c->nvme && c->abts_nowait)
		KUNIT_EXPECT_FALSE(test, kref_put(&a->cmd->cmd_kref, qla2x00_sp_release));
	qla_test_cmd_release(test, a);
	KUNIT_EXPECT_EQ(test, qla_test_kfrees(env->frees, a->cmd), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->vha->vref_count), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->qpair->ref_count), 0);
}

/*
 * No room on the request ring for the abort IOCB: the start's error
 * (-EAGAIN) handed back, nothing sent, and the abort's SRB released at
 * once, the adapter and queue pair no busier than before.
 */
static void qla_abort_no_ring_space_test(struct kunit *test)
{
	struct qla_test_abort *a = qla_test_abort_env(test);
	struct qla_test_iocb *env = a->env;
	struct abort_entry_24xx *iocb = NULL;

	/* The firmware has taken only one entry past the command's (cnt: read it again) */
	env->out_index = env->req->ring_index + 1;
	env->req->cnt = 0;
	KUNIT_EXPECT_EQ(test, qla24xx_async_abort_cmd(a->cmd, false), -EAGAIN);
	KUNIT_EXPECT_NULL(test, qla_test_abort_sp(a, &iocb));
	KUNIT_EXPECT_EQ(test, env->req->ring_index, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->vha->vref_count), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&env->qpair->ref_count), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->cmd_done), 0);
	qla_test_cmd_release(test, a);
}

#ifdef CONFIG_KUNIT_FAULT_INJECTION
struct qla_test_abort_nth {
	struct qla_test_abort *a;
	int rval;
};

static int qla_abort_nth_call(struct kunit *test, void *ctx)
{
	struct qla_test_abort_nth *w = ctx;

	w->rval = qla24xx_async_abort_cmd(w->a->cmd, false);
	return w->rval == QLA_SUCCESS ? 0 : -ENOMEM;
}

/*
 * No SRB for the abort: QLA_MEMORY_ALLOC_FAILED and nothing sent, the
 * adapter no busier than before; else the abort is out, and its answer
 * releases it.
 */
static void qla_abort_nth_undo(struct kunit *test, void *ctx, int err, unsigned int nth,
			       bool failed)
{
	struct qla_test_abort_nth *w = ctx;
	struct qla_test_abort *a = w->a;
	struct abort_entry_24xx *iocb = NULL;
	srb_t *abt = qla_test_abort_sp(a, &iocb);

	if (err) {
		KUNIT_EXPECT_EQ_MSG(test, w->rval, QLA_MEMORY_ALLOC_FAILED,
				    "allocation %u failed", nth);
		KUNIT_EXPECT_NULL_MSG(test, abt, "allocation %u failed", nth);
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&a->env->vha->vref_count), 1,
				    "allocation %u failed", nth);
		/* The command's reference only: none is left behind */
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&a->env->qpair->ref_count), 1,
				    "allocation %u failed", nth);
		return;
	}
	KUNIT_ASSERT_NOT_NULL(test, abt);
	qla_test_fw_abort_answer(a, iocb->handle, CS_COMPLETE);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->env->vha->vref_count), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&a->env->qpair->ref_count), 1);
}

/* qla24xx_async_abort_cmd() with its SRB's allocation failed (GFP_ATOMIC). */
static void qla_abort_fail_nth_test(struct kunit *test)
{
	static const struct kunit_fail_nth walk = {
		.what = "qla24xx_async_abort_cmd()",
		.max = QLA_TEST_MAX_NTH,
		.call = qla_abort_nth_call,
		.undo = qla_abort_nth_undo,
	};
	struct qla_test_abort_nth w = { .a = qla_test_abort_env(test) };

	KUNIT_EXPECT_EQ(test, kunit_fail_nth_walk(test, &walk, &w), 1U);
	qla_test_cmd_release(test, w.a);
}
#endif /* CONFIG_KUNIT_FAULT_INJECTION */

static struct kunit_case qla2xxx_iocb_timer_test_cases[] = {
	KUNIT_CASE(qla_init_async_sp_test),
	KUNIT_CASE_PARAM(qla_start_sp_test, qla_start_gen_params),
	KUNIT_CASE_PARAM(qla_init_async_sp_fx_test, qla_init_fx_gen_params),
	KUNIT_CASE_PARAM(qla_sp_timeout_test, qla_timeout_gen_params),
	KUNIT_CASE_PARAM(qla_timeout_completion_race_test,
			 qla_race_gen_params),
	{}
};

static struct kunit_suite qla2xxx_iocb_timer_test_suite = {
	.name = "qla2xxx_iocb_timer",
	.test_cases = qla2xxx_iocb_timer_test_cases,
};

static struct kunit_case qla2xxx_abort_test_cases[] = {
	KUNIT_CASE_PARAM(qla_abort_race_test, qla_abort_gen_params),
	KUNIT_CASE(qla_abort_no_ring_space_test),
#ifdef CONFIG_KUNIT_FAULT_INJECTION
	KUNIT_CASE(qla_abort_fail_nth_test),
#endif
	{}
};

static struct kunit_suite qla2xxx_abort_test_suite = {
	.name = "qla2xxx_abort",
	.test_cases = qla2xxx_abort_test_cases,
};

kunit_test_suites(&qla2xxx_queues_test_suite, &qla2xxx_iocb_timer_test_suite,
		  &qla2xxx_abort_test_suite);

#include "qla_probe_kunit.c"
