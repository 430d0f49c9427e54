// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the aacraid command thread guards.
 *
 * "scsi: aacraid: Insure command thread is not recursively stopped"
 * (commit 1c6b41fb9293): a reset issued from the error handler after a
 * first one (the recursive IOP_RESET) called kthread_stop() on the command
 * thread that the first reset had already stopped, and oopsed. Since then
 * _aac_reset_adapter() stops the thread only if aac->thread is set and is
 * not the current task, and clears aac->thread after kthread_stop();
 * __aac_shutdown() stops it only under aac->aif_thread and clears it too.
 *
 * QEMU emulates no aacraid adapter: each case builds the aac_dev the two
 * paths read by hand, with adapter_ops that do nothing, and runs a real
 * kthread in the place of aac_command_thread().
 */

#include <kunit/pci_lender.h>
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/blk-mq.h>
#include <linux/completion.h>
#include <linux/dma-mapping.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/kthread.h>
#include <linux/pci.h>
#include <linux/sched/task.h>
#include <scsi/scsi_cmnd.h>
#include <scsi/scsi_device.h>
#include <scsi/scsi_host.h>
#include <trace/events/kmem.h>
#include <trace/events/sched.h>

/* The DMA API's tracepoints came after 6.1: there, DMA frees are not counted. */
#if __has_include("trace/events/dma.h")
#include <trace/events/dma.h>
#define AAC_TEST_DMA_TRACED	1
#else
#define AAC_TEST_DMA_TRACED	0
#endif

#include "aacraid.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Time the test waits for a thread to reach a point it always reaches. */
#define AAC_TEST_WAIT	(10 * HZ)

/* The FIBs a card logs, in the order it is sent them. */
#define AAC_TEST_CARD_LOG	8

/* One FIB a card was sent: its command and the first two words of its data. */
struct aac_test_sent {
	u16 command;
	u32 word0, word1;
};

/*
 * The card that a reset brings back (aac_test_init()), as far as the
 * reset asks it things: it answers each FIB from a work item, as its
 * interrupt would, through aac_intr_normal().
 */
struct aac_test_card {
	struct work_struct work;
	spinlock_t lock;	/* fib */
	struct fib *fib;	/* sent, not answered yet */
	u32 config_response;	/* CT_GET_CONFIG_STATUS's answer: ST_OK or not */
	u32 config_action;	/* and its action */
	u32 containers;		/* CT_GET_CONTAINER_COUNT's answer */
	int nr_sent;
	struct aac_test_sent sent[AAC_TEST_CARD_LOG];
	int name_serves;	/* VM_NameServe and VM_NameServe64 FIBs */
};

/*
 * An aac_dev whose adapter_ops count their calls. It is the hostdata of
 * its SCSI host, as scsi_host_alloc() lays an adapter out: the container
 * probe finds the aac_dev there.
 */
struct aac_test_dev {
	struct aac_dev aac;
	struct Scsi_Host *host;
	struct pci_dev pdev;
	int disable_int_calls;
	int restart_calls;
	int restart_ret;
	int check_health_ret;
	int check_health_calls;
	int ioremap_calls;
	u32 ioremap_size;
	int restart_bled;	/* what the last adapter_restart() was given */
	u8 restart_type;
	int init_calls;
	int init_ret;
	int rescans;
	void *irq_dev_id;	/* what the fake interrupt was requested with */
	struct aac_test_card card;
	bool no_card;		/* the init sets up no FIBs: it allocates nothing */
};

static struct aac_test_dev *to_test_dev(struct aac_dev *aac)
{
	return container_of(aac, struct aac_test_dev, aac);
}

static void aac_test_disable_int(struct aac_dev *aac)
{
	to_test_dev(aac)->disable_int_calls++;
}

static int aac_test_check_health(struct aac_dev *aac)
{
	struct aac_test_dev *tdev = to_test_dev(aac);

	tdev->check_health_calls++;
	return tdev->check_health_ret;
}

static int aac_test_restart(struct aac_dev *aac, int bled, u8 reset_type)
{
	struct aac_test_dev *tdev = to_test_dev(aac);

	tdev->restart_calls++;
	tdev->restart_bled = bled;
	tdev->restart_type = reset_type;
	return tdev->restart_ret;
}

/* The unmap of the registers before a reset re-initialises the adapter. */
static int aac_test_ioremap(struct aac_dev *aac, u32 size)
{
	struct aac_test_dev *tdev = to_test_dev(aac);

	tdev->ioremap_calls++;
	tdev->ioremap_size = size;
	return 0;
}

static struct aac_test_dev *aac_test_dev_alloc(struct kunit *test)
{
	struct aac_test_dev *tdev;
	struct Scsi_Host *host;

	/* Only the fields the two paths read: no SCSI host is registered. */
	BUILD_BUG_ON(offsetof(struct aac_test_dev, aac));
	BUILD_BUG_ON(__alignof__(struct aac_test_dev) > __alignof__(unsigned long));
	host = kunit_kzalloc(test, sizeof(*host) + sizeof(*tdev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, host);
	tdev = shost_priv(host);
	tdev->host = host;
	spin_lock_init(&tdev->host->default_lock);
	tdev->host->host_lock = &tdev->host->default_lock;
	tdev->host->can_queue = 4;
	mutex_init(&tdev->aac.ioctl_mutex);
	spin_lock_init(&tdev->aac.fib_lock);
	tdev->aac.scsi_host_ptr = tdev->host;
	tdev->aac.pdev = &tdev->pdev;
	tdev->pdev.error_state = pci_channel_io_normal;
	tdev->aac.a_ops.adapter_disable_int = aac_test_disable_int;
	tdev->aac.a_ops.adapter_check_health = aac_test_check_health;
	tdev->aac.a_ops.adapter_restart = aac_test_restart;
	tdev->aac.a_ops.adapter_ioremap = aac_test_ioremap;
	/*
	 * The adapter does not come back: _aac_reset_adapter() takes its
	 * error exit right after the thread decision, before it touches
	 * any hardware resource.
	 */
	tdev->restart_ret = -ENODEV;
	/* A sick adapter: aac_send_shutdown() sends it no FIB. */
	tdev->check_health_ret = 1;
	return tdev;
}

/*
 * _aac_reset_adapter() is entered with the host lock held, as
 * aac_reset_adapter() and aac_check_health() call it.
 */
static int aac_test_reset_as(struct aac_dev *aac, int forced, u8 reset_type)
{
	int ret;

	spin_lock_irq(aac->scsi_host_ptr->host_lock);
	ret = _aac_reset_adapter(aac, forced, reset_type);
	spin_unlock_irq(aac->scsi_host_ptr->host_lock);
	return ret;
}

/* The error handler's reset: forced, hardware and soft. */
static int aac_test_reset(struct aac_dev *aac)
{
	return aac_test_reset_as(aac, 1, IOP_HWSOFT_RESET);
}

/* The kthread that stands in for aac_command_thread(). */
struct aac_test_thread {
	struct aac_dev *aac;
	struct task_struct *task;
	bool reset_from_thread;
	bool unlocked;		/* and without the host lock, as aac_check_health() */
	struct completion started;
	struct completion reset_done;
	int reset_ret;
	struct task_struct *thread_after_reset;
	bool exited;
	bool stuck;
};

static int aac_test_thread_fn(void *data)
{
	struct aac_test_thread *t = data;

	/* As aac_command_thread() does, with no adapter queues to wait on. */
	t->aac->aif_thread = 1;
	complete(&t->started);

	if (t->reset_from_thread) {
		t->reset_ret = t->unlocked ? _aac_reset_adapter(t->aac, 1, IOP_HWSOFT_RESET) :
					     aac_test_reset(t->aac);
		t->thread_after_reset = t->aac->thread;
		complete(&t->reset_done);
	}

	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}

	t->aac->aif_thread = 0;
	t->exited = true;
	return 0;
}

/*
 * Stop the thread at the end of the case unless the code under test did
 * (the thread returns only once asked to stop) or it is stuck in a
 * kthread_stop() of itself, which can never return.
 */
static void aac_test_thread_release(void *data)
{
	struct aac_test_thread *t = data;

	if (t->stuck)
		return;
	if (!t->exited)
		kthread_stop(t->task);
	put_task_struct(t->task);
}

static struct aac_test_thread *aac_test_thread_start(struct kunit *test,
						     struct aac_dev *aac,
						     bool reset_from_thread, bool unlocked)
{
	struct aac_test_thread *t;
	struct task_struct *task;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	t->aac = aac;
	t->reset_from_thread = reset_from_thread;
	t->unlocked = unlocked;
	init_completion(&t->started);
	init_completion(&t->reset_done);

	task = kthread_create(aac_test_thread_fn, t, "aac_kunit");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, task);
	/* Keep the task_struct for the checks after the thread has exited. */
	get_task_struct(task);
	t->task = task;
	aac->thread = task;
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, aac_test_thread_release,
						  t));
	wake_up_process(task);
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&t->started,
							    AAC_TEST_WAIT));
	return t;
}

/* The reset from another task stops the thread once and forgets it. */
static void aac_reset_stops_thread_once_test(struct kunit *test)
{
	struct aac_test_dev *tdev = aac_test_dev_alloc(test);
	struct aac_dev *aac = &tdev->aac;
	struct aac_test_thread *t = aac_test_thread_start(test, aac, false, false);

	KUNIT_EXPECT_EQ(test, aac_test_reset(aac), -ENODEV);
	KUNIT_EXPECT_EQ(test, tdev->restart_calls, 1);
	KUNIT_EXPECT_EQ(test, tdev->disable_int_calls, 1);
	KUNIT_EXPECT_TRUE(test, t->exited);
	KUNIT_EXPECT_EQ(test, aac->in_reset, 0);
	/* A second reset must not find the stopped thread. */
	KUNIT_ASSERT_NULL(test, aac->thread);

	/* The seed's recursive IOP_RESET: no thread left to stop. */
	KUNIT_EXPECT_EQ(test, aac_test_reset(aac), -ENODEV);
	KUNIT_EXPECT_EQ(test, tdev->restart_calls, 2);
	KUNIT_EXPECT_NULL(test, aac->thread);
}

/* A reset with no command thread at all touches no thread. */
static void aac_reset_without_thread_test(struct kunit *test)
{
	struct aac_test_dev *tdev = aac_test_dev_alloc(test);
	struct aac_dev *aac = &tdev->aac;

	KUNIT_EXPECT_EQ(test, aac_test_reset(aac), -ENODEV);
	KUNIT_EXPECT_EQ(test, tdev->restart_calls, 1);
	KUNIT_EXPECT_NULL(test, aac->thread);
}

/* The reset from the command thread itself does not stop that thread. */
static void aac_reset_from_command_thread_test(struct kunit *test)
{
	struct aac_test_dev *tdev = aac_test_dev_alloc(test);
	struct aac_dev *aac = &tdev->aac;
	struct aac_test_thread *t = aac_test_thread_start(test, aac, true, false);

	if (!wait_for_completion_timeout(&t->reset_done, AAC_TEST_WAIT)) {
		/* It is waiting in kthread_stop() for its own exit. */
		t->stuck = true;
		KUNIT_FAIL(test, "the command thread's reset did not return");
		return;
	}
	KUNIT_EXPECT_EQ(test, t->reset_ret, -ENODEV);
	KUNIT_EXPECT_EQ(test, tdev->restart_calls, 1);
	KUNIT_EXPECT_PTR_EQ(test, t->thread_after_reset, t->task);
	KUNIT_EXPECT_PTR_EQ(test, aac->thread, t->task);
	KUNIT_EXPECT_FALSE(test, t->exited);
}

/*
 * What the reset hands adapter_restart(): the reset type it was given,
 * and as bled 0 when forced, else what aac_adapter_check_health() says:
 * the adapter's own answer (a positive value is its panic code, which
 * the restart reports), or -1 without asking it when its PCI channel is
 * offline or a PCI error is being handled.
 */
struct aac_restart_case {
	const char *name;
	int forced;
	int health;
	u8 reset_type;
	int bled;
	pci_channel_state_t error_state;
	bool handle_pci_error;
};

static const struct aac_restart_case aac_restart_cases[] = {
	{ "forced, hardware and soft", 1, 0xbad, IOP_HWSOFT_RESET, 0, pci_channel_io_normal },
	{ "forced, soft only", 1, 0, HW_SOFT_RESET, 0, pci_channel_io_normal },
	{ "not forced, healthy", 0, 0, IOP_HWSOFT_RESET, 0, pci_channel_io_normal },
	{ "not forced, panicked", 0, 0xbad, IOP_HWSOFT_RESET, 0xbad, pci_channel_io_normal },
	{ "not forced, unhealthy", 0, -1, HW_IOP_RESET, -1, pci_channel_io_normal },
	{ "not forced, PCI channel frozen", 0, 0, IOP_HWSOFT_RESET, -1, pci_channel_io_frozen },
	{ "not forced, PCI error being handled", 0, 0, IOP_HWSOFT_RESET, -1,
	  pci_channel_io_normal, true },
	{ "forced, PCI channel frozen", 1, 0, IOP_HWSOFT_RESET, 0, pci_channel_io_frozen },
};

KUNIT_ARRAY_PARAM_DESC(aac_restart, aac_restart_cases, name);

static void aac_reset_restart_test(struct kunit *test)
{
	const struct aac_restart_case *c = test->param_value;
	struct aac_test_dev *tdev = aac_test_dev_alloc(test);
	struct aac_dev *aac = &tdev->aac;

	tdev->check_health_ret = c->health;
	tdev->pdev.error_state = c->error_state;
	aac->handle_pci_error = c->handle_pci_error;
	KUNIT_EXPECT_EQ(test, aac_test_reset_as(aac, c->forced, c->reset_type), -ENODEV);
	KUNIT_EXPECT_EQ(test, tdev->restart_calls, 1);
	KUNIT_EXPECT_EQ(test, tdev->restart_bled, c->bled);
	KUNIT_EXPECT_EQ(test, tdev->restart_type, c->reset_type);
}

struct aac_test_resetter {
	struct aac_dev *aac;
	int ret;
	struct completion done;
};

static int aac_test_resetter_fn(void *data)
{
	struct aac_test_resetter *r = data;

	r->ret = aac_test_reset(r->aac);
	complete(&r->done);
	return 0;
}

/*
 * A reset from a task started after the command thread (a pid above the
 * thread's, where the case's own task has one below) stops it too.
 */
static void aac_reset_from_later_task_test(struct kunit *test)
{
	struct aac_test_dev *tdev = aac_test_dev_alloc(test);
	struct aac_dev *aac = &tdev->aac;
	struct aac_test_thread *t = aac_test_thread_start(test, aac, false, false);
	struct aac_test_resetter *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct task_struct *task;

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->aac = aac;
	init_completion(&r->done);
	task = kthread_run(aac_test_resetter_fn, r, "aac_kunit_reset");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&r->done, AAC_TEST_WAIT));
	KUNIT_EXPECT_GT(test, task->pid, t->task->pid);
	KUNIT_EXPECT_EQ(test, r->ret, -ENODEV);
	KUNIT_EXPECT_TRUE(test, t->exited);
	KUNIT_EXPECT_NULL(test, aac->thread);
}

static irqreturn_t aac_test_irq_handler(int irq, void *dev_id)
{
	return IRQ_NONE;
}

static void aac_test_irq_release(void *data)
{
	struct aac_test_dev *tdev = data;
	unsigned int irq = tdev->pdev.irq;

	if (irq_has_action(irq))
		free_irq(irq, tdev->irq_dev_id);
	irq_free_desc(irq);
}

/*
 * __aac_shutdown() ends with free_irq() of the adapter's interrupt: give
 * the fake adapter a software interrupt of its own to free, requested
 * with @dev_id as the card type's init requests it: the aac_dev, or on
 * SRC cards its first MSI-X context.
 */
static void aac_test_request_irq_as(struct kunit *test, struct aac_test_dev *tdev,
				    void *dev_id)
{
	int irq = irq_alloc_descs(-1, 1, 1, NUMA_NO_NODE);

	KUNIT_ASSERT_GT(test, irq, 0);
	irq_set_chip_and_handler(irq, &dummy_irq_chip, handle_simple_irq);
	tdev->pdev.irq = irq;
	tdev->irq_dev_id = dev_id;
	if (request_irq(irq, aac_test_irq_handler, 0, "aacraid_kunit", dev_id)) {
		irq_free_desc(irq);
		KUNIT_FAIL_AND_ABORT(test, "no software interrupt");
	}
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, aac_test_irq_release,
						  tdev));
}

static void aac_test_request_irq(struct kunit *test, struct aac_test_dev *tdev)
{
	aac_test_request_irq_as(test, tdev, &tdev->aac);
}

static void aac_shutdown_without_thread_test(struct kunit *test)
{
	struct aac_test_dev *tdev = aac_test_dev_alloc(test);
	struct aac_dev *aac = &tdev->aac;

	aac_test_request_irq(test, tdev);
	/* No AIF thread and no FIB array: nothing to complete or stop. */
	__aac_shutdown(aac);

	KUNIT_EXPECT_EQ(test, aac->adapter_shutdown, 1);
	KUNIT_EXPECT_EQ(test, tdev->disable_int_calls, 1);
	KUNIT_EXPECT_NULL(test, aac->thread);
	KUNIT_EXPECT_FALSE(test, irq_has_action(tdev->pdev.irq));
}

/*
 * The FIBs a reset or a shutdown completes, so that their waiters wake:
 * those that expect a response, not async and not "no response
 * expected"; a reset also those a caller waits on (FIB_CONTEXT_FLAG_WAIT).
 */
struct aac_fib_case {
	const char *name;
	u32 xfer_state;
	u32 flags;
	bool reset;		/* completed by _aac_reset_adapter() */
	bool shutdown;		/* completed by __aac_shutdown() */
};

static const struct aac_fib_case aac_fib_cases[] = {
	{ "response expected", ResponseExpected, 0, true, true },
	{ "idle", 0, 0, false, false },
	{ "async", ResponseExpected | Async, 0, false, false },
	{ "no response expected", ResponseExpected | NoResponseExpected, 0, false, false },
	{ "async, no response expected", ResponseExpected | NoResponseExpected | Async, 0,
	  false, false },
	{ "waited on", 0, FIB_CONTEXT_FLAG_WAIT, true, false },
	{ "async, waited on", ResponseExpected | Async, FIB_CONTEXT_FLAG_WAIT, true, false },
};

#define AAC_FIB_IDLE	1	/* the row of a FIB nothing waits on */

/*
 * The adapter's FIB array, each FIB of the class of row i % rows (the
 * first, FIB 0, one that is completed), or all idle.
 */
static void aac_test_fibs(struct kunit *test, struct aac_dev *aac, bool idle)
{
	int nr_fibs = aac->scsi_host_ptr->can_queue + AAC_NUM_MGT_FIB;
	int i;

	aac->fibs = kunit_kcalloc(test, nr_fibs, sizeof(*aac->fibs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, aac->fibs);
	for (i = 0; i < nr_fibs; i++) {
		const struct aac_fib_case *c = &aac_fib_cases[idle ? AAC_FIB_IDLE :
							       i % ARRAY_SIZE(aac_fib_cases)];
		struct fib *fib = &aac->fibs[i];

		fib->hw_fib_va = kunit_kzalloc(test, sizeof(*fib->hw_fib_va), GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fib->hw_fib_va);
		fib->hw_fib_va->header.XferState = cpu_to_le32(c->xfer_state);
		fib->flags = c->flags;
		spin_lock_init(&fib->event_lock);
		init_completion(&fib->event_wait);
	}
}

/* Each FIB completed or not, as the rows say for a reset or a shutdown. */
static void aac_test_expect_fibs(struct kunit *test, struct aac_dev *aac, bool idle,
				 bool reset)
{
	int nr_fibs = aac->scsi_host_ptr->can_queue + AAC_NUM_MGT_FIB;
	int i;

	for (i = 0; i < nr_fibs; i++) {
		const struct aac_fib_case *c = &aac_fib_cases[idle ? AAC_FIB_IDLE :
							       i % ARRAY_SIZE(aac_fib_cases)];

		KUNIT_EXPECT_EQ_MSG(test, completion_done(&aac->fibs[i].event_wait),
				    reset ? c->reset : c->shutdown, "fib %d: %s", i, c->name);
	}
}

static void aac_shutdown_stops_aif_thread_test(struct kunit *test)
{
	struct aac_test_dev *tdev = aac_test_dev_alloc(test);
	struct aac_dev *aac = &tdev->aac;
	struct aac_test_thread *t;

	aac_test_fibs(test, aac, false);
	aac_test_request_irq(test, tdev);
	t = aac_test_thread_start(test, aac, false, false);
	KUNIT_ASSERT_EQ(test, aac->aif_thread, 1);

	__aac_shutdown(aac);

	aac_test_expect_fibs(test, aac, false, false);
	KUNIT_EXPECT_TRUE(test, t->exited);
	KUNIT_EXPECT_EQ(test, aac->aif_thread, 0);
	KUNIT_EXPECT_NULL(test, aac->thread);
	KUNIT_EXPECT_EQ(test, aac->adapter_shutdown, 1);
	KUNIT_EXPECT_FALSE(test, irq_has_action(tdev->pdev.irq));
}

/*
 * The interrupt __aac_shutdown() frees, as the card type's init requested
 * it: the aac_dev's on the older cards, the first MSI-X context's on the
 * SRC cards (PMC series 6, 7 and 8) with one vector or none. Freed with
 * another dev_id, the interrupt keeps its handler (and free_irq() warns).
 * Each shutdown sends the adapter its shutdown FIB (aac_send_shutdown()),
 * which asks the adapter's health first: a sick one gets none, a healthy
 * one with no FIB free gets none either. The vectors of an SRC card with
 * more than one, and the MSI or MSI-X that the shutdown disables, are
 * aac_shutdown_msi_test's: they need a PCI function with them enabled.
 */
struct aac_shutdown_case {
	const char *name;
	unsigned short device;
	u32 max_msix;
	bool msix_context;	/* the interrupt's dev_id is aac->aac_msix[0] */
	int health;
};

static const struct aac_shutdown_case aac_shutdown_cases[] = {
	{ "Lancer (0x286), sick", 0x0286, 0, false, 1 },
	{ "Lancer (0x286), healthy, no FIB free", 0x0286, 0, false, 0 },
	{ "SRC series 6 (0x28b), no MSI-X", PMC_DEVICE_S6, 0, true, 1 },
	{ "SRC series 7 (0x28c), one vector", PMC_DEVICE_S7, 1, true, 1 },
	{ "SRC series 8 (0x28d), one vector, healthy", PMC_DEVICE_S8, 1, true, 0 },
	{ "0x28a, below SRC, one vector", 0x028a, 1, false, 1 },
	{ "0x28e, above SRC", 0x028e, 0, false, 1 },
};

KUNIT_ARRAY_PARAM_DESC(aac_shutdown, aac_shutdown_cases, name);

static void aac_shutdown_irq_test(struct kunit *test)
{
	const struct aac_shutdown_case *c = test->param_value;
	struct aac_test_dev *tdev = aac_test_dev_alloc(test);
	struct aac_dev *aac = &tdev->aac;

	tdev->pdev.device = c->device;
	tdev->check_health_ret = c->health;
	aac->max_msix = c->max_msix;
	aac_test_request_irq_as(test, tdev, c->msix_context ? (void *)&aac->aac_msix[0] : aac);

	__aac_shutdown(aac);

	KUNIT_EXPECT_FALSE(test, irq_has_action(tdev->pdev.irq));
	KUNIT_EXPECT_EQ(test, tdev->check_health_calls, 1);
	KUNIT_EXPECT_EQ(test, tdev->disable_int_calls, 1);
	KUNIT_EXPECT_EQ(test, aac->adapter_shutdown, 1);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&aac->ioctl_mutex));
}

struct aac_test_shutdown {
	struct aac_dev *aac;
	struct completion done;
};

static void aac_test_put_task(void *task)
{
	put_task_struct(task);
}

static int aac_test_shutdown_fn(void *data)
{
	struct aac_test_shutdown *s = data;

	__aac_shutdown(s->aac);
	complete(&s->done);
	return 0;
}

/*
 * The shutdown flag is set under the ioctl mutex, so that an ioctl that
 * holds it finishes before the adapter is shut down: with the mutex held,
 * the shutdown waits for it and has set nothing.
 */
static void aac_shutdown_waits_for_ioctl_test(struct kunit *test)
{
	struct aac_test_dev *tdev = aac_test_dev_alloc(test);
	struct aac_dev *aac = &tdev->aac;
	struct aac_test_shutdown *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct task_struct *task;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	aac_test_request_irq(test, tdev);
	s->aac = aac;
	init_completion(&s->done);

	task = kthread_create(aac_test_shutdown_fn, s, "aac_kunit_shutdown");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, task);
	/* Its state is read until it has returned */
	get_task_struct(task);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, aac_test_put_task, task));
	mutex_lock(&aac->ioctl_mutex);
	wake_up_process(task);
	/* Until it sleeps on the mutex, or returns without it */
	for (i = 0; i < AAC_TEST_WAIT && !completion_done(&s->done); i++) {
		if (READ_ONCE(task->__state) == TASK_UNINTERRUPTIBLE)
			break;
		schedule_timeout_uninterruptible(1);
	}
	KUNIT_EXPECT_FALSE_MSG(test, completion_done(&s->done),
			       "the shutdown did not wait for the ioctl mutex");
	KUNIT_EXPECT_EQ(test, aac->adapter_shutdown, 0);
	KUNIT_EXPECT_EQ(test, tdev->disable_int_calls, 0);
	mutex_unlock(&aac->ioctl_mutex);

	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&s->done, AAC_TEST_WAIT), 0UL);
	KUNIT_EXPECT_EQ(test, aac->adapter_shutdown, 1);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&aac->ioctl_mutex));
	KUNIT_EXPECT_FALSE(test, irq_has_action(tdev->pdev.irq));
}

/*
 * A reset whose adapter comes back (adapter_restart() succeeds) goes on to
 * re-initialise it: it wakes the waiters of the FIBs (and gives ioctls
 * two seconds), frees the interrupt, the communication area, the queues
 * and the containers, sets the DMA masks the card type's quirks ask
 * for, and calls the card type's init. QEMU has no aacraid adapter: the
 * init fails at once on registers that cannot be mapped (a base address
 * whose range wraps, which ioremap() refuses without a warning), which
 * is where these cases stop. What comes after a working init (the
 * command thread started again, the adapter's info, S/G limits, the
 * rescan) needs an adapter: no leg here has one.
 */
#define AAC_TEST_NO_BAR		((resource_size_t)-16)

struct aac_reinit_case {
	const char *name;
	int cardtype;		/* its row of aac_drivers[] (linit.c) */
	int (*init)(struct aac_dev *dev);
	u32 quirks;		/* those that choose the DMA masks */
	u64 dma_mask, coherent_mask;
	bool idle;		/* no FIB to complete: no pause for ioctls */
	bool no_dma;		/* a device that takes no DMA mask: -EIO, no init */
};

static const struct aac_reinit_case aac_reinit_cases[] = {
	{ "PERC 2/Si, aac_rx_init: 31-bit coherent DMA, FIBs waited on", 0, aac_rx_init,
	  AAC_QUIRK_31BIT, DMA_BIT_MASK(32), DMA_BIT_MASK(31), false },
	{ "PERC 2/Si, no FIB waited on: no pause", 0, aac_rx_init, AAC_QUIRK_31BIT,
	  DMA_BIT_MASK(32), DMA_BIT_MASK(31), true },
	{ "ASR-2230S, aac_rkt_init: 32-bit DMA", 20, aac_rkt_init, 0,
	  DMA_BIT_MASK(32), DMA_BIT_MASK(64), true },
	{ "Adaptec 5400S, aac_sa_init: 32-bit DMA", 53, aac_sa_init, 0,
	  DMA_BIT_MASK(32), DMA_BIT_MASK(64), true },
	{ "PMC Series 6, aac_src_init: 32-bit coherent DMA", 62, aac_src_init, AAC_QUIRK_SRC,
	  DMA_BIT_MASK(64), DMA_BIT_MASK(32), true },
	{ "ASR-2230S, no DMA mask to set: -EIO before the init", 20, aac_rkt_init, 0,
	  DMA_BIT_MASK(64), DMA_BIT_MASK(64), true, true },
};

KUNIT_ARRAY_PARAM_DESC(aac_reinit, aac_reinit_cases, name);

/* The size of the adapter's FIB pool, as aac_fib_map_free() computes it. */
static size_t aac_test_fib_pool_size(struct aac_dev *aac)
{
	return (aac->max_fib_size + sizeof(struct aac_fib_xporthdr)) *
	       (aac->scsi_host_ptr->can_queue + AAC_NUM_MGT_FIB) + ALIGN32 - 1;
}

static void aac_test_free_comm(void *data)
{
	struct aac_test_dev *tdev = data;
	struct aac_dev *aac = &tdev->aac;

	if (aac->comm_addr)
		dma_free_coherent(&tdev->pdev.dev, aac->comm_size, aac->comm_addr,
				  aac->comm_phys);
	if (aac->hw_fib_va)
		dma_free_coherent(&tdev->pdev.dev, aac_test_fib_pool_size(aac), aac->hw_fib_va,
				  aac->hw_fib_pa);
	kfree(aac->queues);
	kfree(aac->fsa_dev);
}

/* The most MSI-X vectors a case lends an adapter (an e1000e has 5). */
#define AAC_TEST_VECTORS	4

/*
 * What a reset or a shutdown frees, seen by the kfree and dma_free
 * tracepoints: how often the case's own task freed each of the adapter's
 * communication area, queues and containers, and the handler (the
 * irqaction) of each interrupt vector.
 */
enum {
	AAC_FREE_COMM,
	AAC_FREE_QUEUES,
	AAC_FREE_FSA_DEV,
	AAC_FREE_IRQ0,
	AAC_FREES = AAC_FREE_IRQ0 + AAC_TEST_VECTORS
};

struct aac_test_frees {
	struct task_struct *task;
	const void *ptr[AAC_FREES];
	atomic_t n[AAC_FREES];
};

static void aac_test_count_free(struct aac_test_frees *f, const void *ptr)
{
	int i;

	if (!ptr || current != f->task)
		return;
	for (i = 0; i < AAC_FREES; i++)
		if (f->ptr[i] == ptr)
			atomic_inc(&f->n[i]);
}

static void aac_test_probe_kfree(void *data, unsigned long call_site, const void *ptr)
{
	aac_test_count_free(data, ptr);
}

#if AAC_TEST_DMA_TRACED
static void aac_test_probe_dma_free(void *data, struct device *dev, void *virt_addr,
				    dma_addr_t dma_addr, size_t size,
				    enum dma_data_direction dir, unsigned long attrs)
{
	aac_test_count_free(data, virt_addr);
}
#endif

static void aac_test_frees_stop(void *data)
{
#if AAC_TEST_DMA_TRACED
	unregister_trace_dma_free(aac_test_probe_dma_free, data);
#endif
	unregister_trace_kfree(aac_test_probe_kfree, data);
	tracepoint_synchronize_unregister();
}

static struct aac_test_frees *aac_test_frees_start(struct kunit *test, struct aac_dev *aac)
{
	struct aac_test_frees *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->task = current;
	f->ptr[AAC_FREE_COMM] = aac->comm_addr;
	f->ptr[AAC_FREE_QUEUES] = aac->queues;
	f->ptr[AAC_FREE_FSA_DEV] = aac->fsa_dev;
	KUNIT_ASSERT_EQ(test, 0, register_trace_kfree(aac_test_probe_kfree, f));
#if AAC_TEST_DMA_TRACED
	if (register_trace_dma_free(aac_test_probe_dma_free, f)) {
		unregister_trace_kfree(aac_test_probe_kfree, f);
		KUNIT_FAIL_AND_ABORT(test, "cannot probe dma_free");
	}
#endif
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, aac_test_frees_stop, f));
	return f;
}

static void aac_test_expect_freed(struct kunit *test, struct aac_test_frees *f)
{
	if (AAC_TEST_DMA_TRACED)
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&f->n[AAC_FREE_COMM]), 1,
				    "the communication area's frees");
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&f->n[AAC_FREE_QUEUES]), 1, "the queues' frees");
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&f->n[AAC_FREE_FSA_DEV]), 1,
			    "the containers' frees");
}

/*
 * The PCI function that lends the cases their MSI or MSI-X vectors,
 * enabled once for the suite (kunit_pci_lender_enable()).
 */
static struct pci_dev *aac_test_lender_pdev;

static int aac_test_suite_init(struct kunit_suite *suite)
{
	aac_test_lender_pdev = kunit_pci_lender_enable();	/* NULL: the cases skip */
	return 0;
}

static void aac_test_suite_exit(struct kunit_suite *suite)
{
	kunit_pci_lender_release(aac_test_lender_pdev);
	aac_test_lender_pdev = NULL;
}

/*
 * What a case borrows of the suite's function: its MSI or MSI-X vectors,
 * as an aacraid card's init enables them (aac_define_int_mode()), and the
 * device ID of the row's card for as long as the case runs, which
 * aac_is_src() reads. Given back in reverse: the handlers the shutdown
 * left, the vectors, the device ID.
 */
struct aac_test_lender {
	struct pci_dev *pdev;
	unsigned short device;	/* its own */
	unsigned int vectors;
	int irq[AAC_TEST_VECTORS];
	void *dev_id[AAC_TEST_VECTORS];
};

static void aac_test_lender_release(void *data)
{
	struct aac_test_lender *l = data;
	unsigned int i;

	for (i = 0; i < l->vectors; i++)
		if ((l->pdev->msi_enabled || l->pdev->msix_enabled) && irq_has_action(l->irq[i]))
			free_irq(l->irq[i], l->dev_id[i]);
	pci_free_irq_vectors(l->pdev);
	l->pdev->device = l->device;
}

struct aac_shutdown_msi_case {
	const char *name;
	unsigned short device;
	bool msi;		/* aac->msi: one MSI vector; else MSI-X */
	u32 vectors;		/* aac->max_msix, and the vectors enabled */
	bool msix_context;	/* vector i's dev_id is aac->aac_msix[i], else the aac_dev */
};

/*
 * An SRC card (PMC series 6, 7, 8) with more than one MSI-X vector has
 * each freed with its own context as dev_id, then MSI-X disabled; a card
 * on MSI has its one interrupt freed as on INTx (the first context's on
 * SRC cards, the aac_dev's before them), then MSI disabled.
 */
static const struct aac_shutdown_msi_case aac_shutdown_msi_cases[] = {
	{ "SRC series 7 (0x28c), 4 MSI-X vectors", PMC_DEVICE_S7, false, 4, true },
	{ "SRC series 8 (0x28d), 2 MSI-X vectors", PMC_DEVICE_S8, false, 2, true },
	{ "SRC series 6 (0x28b), MSI", PMC_DEVICE_S6, true, 1, true },
	{ "Lancer (0x286), MSI", 0x0286, true, 1, false },
};

KUNIT_ARRAY_PARAM_DESC(aac_shutdown_msi, aac_shutdown_msi_cases, name);

static void aac_shutdown_msi_test(struct kunit *test)
{
	const struct aac_shutdown_msi_case *c = test->param_value;
	struct aac_test_dev *tdev = aac_test_dev_alloc(test);
	struct aac_dev *aac = &tdev->aac;
	struct pci_dev *pdev = aac_test_lender_pdev;
	struct aac_test_lender *l;
	struct aac_test_frees *f;
	unsigned int i;
	int n;

	if (!IS_ENABLED(CONFIG_PCI_MSI))
		kunit_skip(test, "no CONFIG_PCI_MSI");
	if (!pdev)
		kunit_skip(test, "no PCI function with MSI and MSI-X free to lend");
	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	l->pdev = pdev;
	l->device = pdev->device;
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, aac_test_lender_release, l));
	n = pci_alloc_irq_vectors(pdev, c->vectors, c->vectors,
				  c->msi ? PCI_IRQ_MSI : PCI_IRQ_MSIX);
	KUNIT_ASSERT_EQ_MSG(test, n, c->vectors, "the vectors of %s", pci_name(pdev));

	f = aac_test_frees_start(test, aac);
	for (i = 0; i < c->vectors; i++) {
		l->irq[i] = pci_irq_vector(pdev, i);
		l->dev_id[i] = c->msix_context ? (void *)&aac->aac_msix[i] : aac;
		KUNIT_ASSERT_GT(test, l->irq[i], 0);
		KUNIT_ASSERT_EQ(test, 0, request_irq(l->irq[i], aac_test_irq_handler, 0,
						     "aacraid_kunit", l->dev_id[i]));
		l->vectors = i + 1;
		f->ptr[AAC_FREE_IRQ0 + i] = irq_to_desc(l->irq[i])->action;
	}
	pdev->device = c->device;
	aac->pdev = pdev;
	aac->msi = c->msi;
	aac->max_msix = c->vectors;

	__aac_shutdown(aac);

	for (i = 0; i < c->vectors; i++)
		KUNIT_EXPECT_EQ_MSG(test, atomic_read(&f->n[AAC_FREE_IRQ0 + i]), 1,
				    "the frees of vector %u's handler", i);
	KUNIT_EXPECT_FALSE(test, pdev->msi_enabled);
	KUNIT_EXPECT_FALSE(test, pdev->msix_enabled);
	KUNIT_EXPECT_EQ(test, tdev->check_health_calls, 1);
	KUNIT_EXPECT_EQ(test, tdev->disable_int_calls, 1);
	KUNIT_EXPECT_EQ(test, aac->adapter_shutdown, 1);
}

/*
 * A fake adapter of card type @cardtype whose restart succeeds, with
 * what a reset frees (communication area, FIB pool, queues, containers,
 * interrupt), its FIBs (all idle if @idle), DMA masks of 64 bits to be
 * narrowed, and a command thread: the reset drops the host lock, as
 * aac_reset_adapter()'s does, and may sleep.
 */
static struct aac_test_thread *aac_test_reinit_setup(struct kunit *test,
						     struct aac_test_dev *tdev, int cardtype,
						     bool idle, bool from_thread)
{
	struct aac_dev *aac = &tdev->aac;
	struct aac_test_thread *t;

	tdev->restart_ret = 0;
	aac->cardtype = cardtype;
	if (!aac->name)
		aac->name = "aac_kunit";
	aac->base_start = AAC_TEST_NO_BAR;
	aac->base_size = 2 * PAGE_SIZE;
	tdev->pdev.resource[2].start = AAC_TEST_NO_BAR;
	tdev->pdev.resource[2].end = (resource_size_t)-1;
	tdev->pdev.dma_mask = DMA_BIT_MASK(64);
	tdev->pdev.dev.dma_mask = &tdev->pdev.dma_mask;
	tdev->pdev.dev.coherent_dma_mask = DMA_BIT_MASK(64);
	aac->max_fib_size = sizeof(struct hw_fib);
	aac->max_cmd_size = aac->max_fib_size;

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, aac_test_free_comm, tdev));
	aac->comm_size = PAGE_SIZE;
	aac->comm_addr = dma_alloc_coherent(&tdev->pdev.dev, aac->comm_size, &aac->comm_phys,
					    GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, aac->comm_addr);
	aac->hw_fib_va = dma_alloc_coherent(&tdev->pdev.dev, aac_test_fib_pool_size(aac),
					    &aac->hw_fib_pa, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, aac->hw_fib_va);
	aac->queues = kzalloc(sizeof(*aac->queues), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, aac->queues);
	aac->fsa_dev = kzalloc(sizeof(*aac->fsa_dev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, aac->fsa_dev);
	aac_test_fibs(test, aac, idle);
	aac_test_request_irq(test, tdev);
	aac->in_reset = 1;
	t = aac_test_thread_start(test, aac, from_thread, from_thread);
	return t;
}

static void aac_reset_reinit_test(struct kunit *test)
{
	const struct aac_reinit_case *c = test->param_value;
	struct aac_test_dev *tdev = aac_test_dev_alloc(test);
	struct aac_dev *aac = &tdev->aac;
	const u32 quirks = AAC_QUIRK_31BIT | AAC_QUIRK_SRC;
	struct aac_driver_ident *ident = aac_get_driver_ident(c->cardtype);
	struct aac_test_frees *frees;
	struct aac_test_thread *t;
	unsigned long start;
	int ret;

	KUNIT_ASSERT_PTR_EQ(test, (void *)ident->init, (void *)c->init);
	KUNIT_ASSERT_EQ(test, ident->quirks & quirks, c->quirks);
	t = aac_test_reinit_setup(test, tdev, c->cardtype, c->idle, false);
	if (c->no_dma)
		tdev->pdev.dev.dma_mask = NULL;
	frees = aac_test_frees_start(test, aac);

	start = jiffies;
	ret = aac_test_reset(aac);

	/* The card type's init could not map the registers */
	KUNIT_EXPECT_EQ(test, ret, c->no_dma ? -EIO : -1);
	KUNIT_EXPECT_EQ(test, tdev->restart_calls, 1);
	KUNIT_EXPECT_EQ(test, aac->in_reset, 0);
	KUNIT_EXPECT_TRUE(test, t->exited);
	KUNIT_EXPECT_NULL(test, aac->thread);
	aac_test_expect_fibs(test, aac, c->idle, true);
	/* Two seconds for ioctls, when a FIB was waited on */
	if (c->idle) {
		KUNIT_EXPECT_LT(test, jiffies - start, 2UL * HZ);
	} else {
		KUNIT_EXPECT_GE(test, jiffies - start, 2UL * HZ);
		KUNIT_EXPECT_LT(test, jiffies - start, 3UL * HZ);
	}
	/* What the old adapter had is gone, before the init */
	KUNIT_EXPECT_FALSE(test, irq_has_action(tdev->pdev.irq));
	KUNIT_EXPECT_NULL(test, aac->comm_addr);
	KUNIT_EXPECT_EQ(test, aac->comm_phys, 0);
	KUNIT_EXPECT_NULL(test, aac->hw_fib_va);
	KUNIT_EXPECT_EQ(test, aac->hw_fib_pa, 0);
	KUNIT_EXPECT_NULL(test, aac->queues);
	KUNIT_EXPECT_NULL(test, aac->fsa_dev);
	aac_test_expect_freed(test, frees);
	KUNIT_EXPECT_EQ(test, tdev->ioremap_calls, 1);
	KUNIT_EXPECT_EQ(test, tdev->ioremap_size, 0);
	/* The card's init ran (it set its own ops), unless a mask failed */
	KUNIT_EXPECT_EQ(test, aac->a_ops.adapter_ioremap == aac_test_ioremap, c->no_dma);
	/* The masks the quirks ask for */
	KUNIT_EXPECT_EQ(test, tdev->pdev.dma_mask, c->dma_mask);
	KUNIT_EXPECT_EQ(test, tdev->pdev.dev.coherent_dma_mask, c->coherent_mask);
}

/* What the card answers: its firmware's revision, and its buses. */
#define AAC_TEST_KERNELREV	0x05020700
#define AAC_TEST_BUSES		2
#define AAC_TEST_TARGETS	8
/* Its one container, the first: a volume (container_types[1]) of 4 GiB. */
#define AAC_TEST_VOLUME		1
#define AAC_TEST_CAPACITY	0x800000

/* The answer to @fib, written over its data as the card's firmware does. */
static void aac_test_card_reply(struct aac_test_card *card, struct fib *fib)
{
	struct hw_fib *hw_fib = fib->hw_fib_va;
	__le32 *data = fib_data(fib);
	u16 command = le16_to_cpu(hw_fib->header.Command);
	u32 word0 = le32_to_cpu(data[0]), word1 = le32_to_cpu(data[1]);

	if (card->nr_sent < AAC_TEST_CARD_LOG)
		card->sent[card->nr_sent] = (struct aac_test_sent){ command, word0, word1 };
	card->nr_sent++;
	hw_fib->header.XferState |= cpu_to_le32(AdapterProcessed);

	if (command == RequestAdapterInfo) {
		struct aac_adapter_info *info = fib_data(fib);

		info->kernelrev = cpu_to_le32(AAC_TEST_KERNELREV);
	} else if (command != ContainerCommand) {
		return;
	} else if (word0 == VM_Ioctl) {
		struct aac_bus_info_response *bus = fib_data(fib);

		bus->Status = cpu_to_le32(ST_OK);
		bus->BusCount = cpu_to_le32(AAC_TEST_BUSES);
		bus->TargetsPerBus = cpu_to_le32(AAC_TEST_TARGETS);
	} else if (word0 == VM_ContainerConfig && word1 == CT_GET_CONFIG_STATUS) {
		struct aac_get_config_status_resp *status = fib_data(fib);

		status->response = cpu_to_le32(card->config_response);
		status->status = cpu_to_le32(CT_OK);
		status->data.action = cpu_to_le32(card->config_action);
	} else if (word0 == VM_ContainerConfig && word1 == CT_GET_CONTAINER_COUNT) {
		struct aac_get_container_count_resp *count = fib_data(fib);

		count->response = cpu_to_le32(ST_OK);
		count->ContainerSwitchEntries = cpu_to_le32(card->containers);
	} else if (word0 == VM_NameServe || word0 == VM_NameServe64) {
		struct aac_query_mount *query = fib_data(fib);
		struct aac_mount *mount = fib_data(fib);
		bool present = !le32_to_cpu(query->count);

		card->name_serves++;
		memset(mount, 0, sizeof(*mount));
		mount->status = cpu_to_le32(ST_OK);
		mount->type = cpu_to_le32(FT_FILESYS);
		mount->count = cpu_to_le32(present);
		if (present) {
			mount->mnt[0].vol = cpu_to_le32(AAC_TEST_VOLUME);
			mount->mnt[0].capacity = cpu_to_le32(AAC_TEST_CAPACITY);
		}
	}
}

/* The card's interrupt: the FIB sent last is answered. */
static void aac_test_card_work(struct work_struct *work)
{
	struct aac_test_card *card = container_of(work, struct aac_test_card, work);
	struct aac_dev *aac = &container_of(card, struct aac_test_dev, card)->aac;
	unsigned long flags;
	struct fib *fib;

	spin_lock_irqsave(&card->lock, flags);
	fib = card->fib;
	card->fib = NULL;
	spin_unlock_irqrestore(&card->lock, flags);
	if (!fib)
		return;
	aac_test_card_reply(card, fib);
	local_irq_save(flags);
	aac_intr_normal(aac, fib - aac->fibs, 0, 0, NULL);
	local_irq_restore(flags);
}

/* adapter_deliver: the card takes one FIB at a time, as the reset sends them. */
static int aac_test_card_deliver(struct fib *fib)
{
	struct aac_dev *aac = fib->dev;
	struct aac_test_card *card = &to_test_dev(aac)->card;
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&card->lock, flags);
	if (card->fib)
		ret = -EBUSY;
	else
		card->fib = fib;
	spin_unlock_irqrestore(&card->lock, flags);
	if (ret)
		return ret;
	atomic_inc(&aac->queues->queue[AdapNormCmdQueue].numpending);
	queue_work(system_wq, &card->work);
	return 0;
}

static void aac_test_card_stop(void *data)
{
	cancel_work_sync(data);
}

/* A card that comes back and answers: its settings, and its FIBs answered. */
static void aac_test_card_start(struct kunit *test, struct aac_test_dev *tdev)
{
	struct aac_test_card *card = &tdev->card;

	spin_lock_init(&card->lock);
	INIT_WORK(&card->work, aac_test_card_work);
	card->config_response = ST_OK;
	card->config_action = CFACT_CONTINUE;
	card->containers = MAXIMUM_NUM_CONTAINERS;
	/* Healthy: aac_fib_send() asks while it waits for the first answer */
	tdev->check_health_ret = 0;
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, aac_test_card_stop,
							   &card->work));
}

/*
 * The card's init: it counts, and marks an AIF thread present, so that
 * the command thread the reset starts again (the real aac_command_thread())
 * returns at once, as it does for a second thread of an adapter, instead
 * of waiting on queues no card set up. An init that succeeds sets up what
 * the card type's init would for FIBs: the queues, the FIB pool
 * (aac_fib_setup()), the delivery to the card (aac_test_card_deliver()),
 * and a raw I/O interface, which leaves the S/G limits to the quirks.
 */
static int aac_test_init(struct aac_dev *aac)
{
	struct aac_test_dev *tdev = to_test_dev(aac);

	tdev->init_calls++;
	aac->aif_thread = 1;
	if (tdev->init_ret || tdev->no_card)
		return tdev->init_ret;
	aac->queues = kzalloc(sizeof(*aac->queues), GFP_KERNEL);
	if (!aac->queues)
		return -ENOMEM;
	aac->a_ops.adapter_deliver = aac_test_card_deliver;
	aac->raw_io_interface = 1;
	return aac_fib_setup(aac);
}

struct aac_test_ident {
	struct aac_driver_ident *ident;
	int (*init)(struct aac_dev *dev);
};

static void aac_test_ident_restore(void *data)
{
	struct aac_test_ident *saved = data;

	saved->ident->init = saved->init;
}

static void aac_test_rescan(struct work_struct *work)
{
	struct aac_dev *aac = container_of(to_delayed_work(work), struct aac_dev,
					   src_reinit_aif_worker);

	to_test_dev(aac)->rescans++;
}

static void aac_test_rescan_cancel(void *data)
{
	cancel_delayed_work_sync(data);
}

/*
 * A reset whose adapter comes back and whose init succeeds (the card
 * type's init replaced by aac_test_init() for the case): the command
 * thread started again, the S/G limits of the card's quirks (and the
 * largest transfer they allow), the card asked for its info, its
 * configuration (committed) and its containers (aac_test_expect_asked()),
 * a bus rescan scheduled; an init that fails, or a thread that does not
 * start, asks nothing and schedules nothing.
 */
struct aac_comeback_case {
	const char *name;
	int cardtype;
	int (*init)(struct aac_dev *dev);
	int init_ret;
	unsigned short sg_before, sg_after;
	unsigned int max_sectors_after;
	int ret;
	bool no_thread_memory;	/* the thread's allocation failed (fail_nth) */
	bool from_thread;	/* the reset from the command thread, unlocked */
};

#define AAC_TEST_MAX_SECTORS	1024

static const struct aac_comeback_case aac_comeback_cases[] = {
	{ "Adaptec 5400S: 34 S/G at most", 53, aac_sa_init, 0, 64, 34, 34 * 8 + 112, 0 },
	{ "Adaptec 5400S, 34 S/G already", 53, aac_sa_init, 0, 34, 34, AAC_TEST_MAX_SECTORS,
	  0 },
	{ "AAR-2410SA: 17 S/G at most", 37, aac_rx_init, 0, 64, 17, 17 * 8 + 112, 0 },
	{ "AAR-2410SA, 17 S/G already", 37, aac_rx_init, 0, 17, 17, AAC_TEST_MAX_SECTORS, 0 },
	{ "Adaptec 5400S, 35 S/G: 34", 53, aac_sa_init, 0, 35, 34, 34 * 8 + 112, 0 },
	{ "Adaptec 5400S, 16 S/G: kept", 53, aac_sa_init, 0, 16, 16, AAC_TEST_MAX_SECTORS, 0 },
	{ "AAR-2410SA, 18 S/G: 17", 37, aac_rx_init, 0, 18, 17, 17 * 8 + 112, 0 },
	{ "AAR-2410SA, 8 S/G: kept", 37, aac_rx_init, 0, 8, 8, AAC_TEST_MAX_SECTORS, 0 },
	{ "ASR-2230S: no S/G limit", 20, aac_rkt_init, 0, 64, 64, AAC_TEST_MAX_SECTORS, 0 },
	{ "ASR-2230S, init fails", 20, aac_rkt_init, -EIO, 64, 64, AAC_TEST_MAX_SECTORS,
	  -EIO },
	{ "Adaptec 5400S, from the command thread: it goes on", 53, aac_sa_init, 0, 64, 34,
	  34 * 8 + 112, 0, false, true },
#ifdef CONFIG_KUNIT_FAULT_INJECTION
	{ "ASR-2230S, no memory for the command thread", 20, aac_rkt_init, 0, 64, 64,
	  AAC_TEST_MAX_SECTORS, -ENOMEM, true },
#endif
};

/* The command thread a reset starts again: it exits at once (aac_test_init()). */
#define AAC_TEST_CMD_THREAD	"aac_kunit_cmd"

struct aac_test_exit {
	struct completion done;
};

static void aac_test_probe_exit(void *data, struct task_struct *p)
{
	struct aac_test_exit *w = data;

	if (!strcmp(p->comm, AAC_TEST_CMD_THREAD))
		complete(&w->done);
}

static void aac_test_exit_unwatch(void *data)
{
	unregister_trace_sched_process_exit(aac_test_probe_exit, data);
	tracepoint_synchronize_unregister();
}

/* Completes when the restarted command thread exits. */
static struct aac_test_exit *aac_test_exit_watch(struct kunit *test)
{
	struct aac_test_exit *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, w);
	init_completion(&w->done);
	KUNIT_ASSERT_EQ(test, register_trace_sched_process_exit(aac_test_probe_exit, w), 0);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, aac_test_exit_unwatch, w));
	return w;
}

/*
 * A command in flight on the adapter's host when it is reset: the host's
 * tag set, a queue on it and one request started, whose SCSI command the
 * reset completes (scsi_host_complete_all_commands()) through the tag
 * set's complete op. One the reset leaves in flight is ended at the end
 * of the case.
 */
struct aac_test_cmd {
	struct Scsi_Host *host;
	struct scsi_device sdev;
	struct request_queue *q;
	struct request *rq;
	struct completion done;
	int result;		/* the command's, when it was completed */
};

static blk_status_t aac_test_queue_rq(struct blk_mq_hw_ctx *hctx,
				      const struct blk_mq_queue_data *bd)
{
	struct scsi_cmnd *cmd = blk_mq_rq_to_pdu(bd->rq);
	struct aac_test_cmd *c = hctx->queue->queuedata;

	memset(cmd, 0, sizeof(*cmd));
	cmd->device = &c->sdev;
	cmd->submitter = SUBMITTED_BY_BLOCK_LAYER;
	blk_mq_start_request(bd->rq);
	return BLK_STS_OK;
}

static void aac_test_complete_rq(struct request *rq)
{
	struct aac_test_cmd *c = rq->q->queuedata;

	c->result = ((struct scsi_cmnd *)blk_mq_rq_to_pdu(rq))->result;
	c->rq = NULL;
	blk_mq_end_request(rq, BLK_STS_OK);
	complete(&c->done);
}

static const struct blk_mq_ops aac_test_mq_ops = {
	.queue_rq = aac_test_queue_rq,
	.complete = aac_test_complete_rq,
};

static void aac_test_cmd_release(void *data)
{
	struct aac_test_cmd *c = data;

	if (c->q) {
		if (c->rq && !wait_for_completion_timeout(&c->done, HZ / 10))
			blk_mq_end_request(c->rq, BLK_STS_IOERR);
		blk_mq_destroy_queue(c->q);
		blk_put_queue(c->q);
	}
	blk_mq_free_tag_set(&c->host->tag_set);
}

static struct aac_test_cmd *aac_test_cmd_start(struct kunit *test, struct aac_test_dev *tdev)
{
	struct aac_test_cmd *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	struct blk_mq_tag_set *set = &tdev->host->tag_set;
	struct request_queue *q;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->host = tdev->host;
	c->sdev.host = tdev->host;
	init_completion(&c->done);
	set->ops = &aac_test_mq_ops;
	set->nr_hw_queues = 1;
	set->queue_depth = 2;
	set->numa_node = NUMA_NO_NODE;
	set->cmd_size = sizeof(struct scsi_cmnd);
	KUNIT_ASSERT_EQ(test, blk_mq_alloc_tag_set(set), 0);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, aac_test_cmd_release, c));
	/*
	 * blk_mq_alloc_queue() came in v6.9 and replaced blk_mq_init_queue();
	 * the queue features (BLK_FEAT_*) came after it, in v6.11.
	 */
#ifdef BLK_FEAT_WRITE_CACHE
	q = blk_mq_alloc_queue(set, NULL, c);
#else
	q = blk_mq_init_queue(set);
	if (!IS_ERR(q))
		q->queuedata = c;
#endif
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, q);
	c->q = q;
	c->rq = blk_mq_alloc_request(q, REQ_OP_DRV_IN, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c->rq);
	blk_execute_rq_nowait(c->rq, false);
	return c;
}

/* The command in flight: completed by the reset with @host_byte, or not. */
static void aac_test_expect_cmd(struct kunit *test, struct aac_test_cmd *c, bool completed,
				int host_byte)
{
	if (!completed) {
		KUNIT_EXPECT_EQ(test, wait_for_completion_timeout(&c->done, HZ / 10), 0UL);
		return;
	}
	KUNIT_ASSERT_NE(test, wait_for_completion_timeout(&c->done, AAC_TEST_WAIT), 0UL);
	KUNIT_EXPECT_EQ(test, c->result, host_byte << 16);
}

/*
 * A reset of a card of type @cardtype (whose init is @init) that comes
 * back: its init replaced by aac_test_init(), its rescan counted, and
 * its FIBs answered (aac_test_card_start()).
 */
static struct aac_test_thread *aac_test_comeback_setup(struct kunit *test,
						       struct aac_test_dev *tdev, int cardtype,
						       int (*init)(struct aac_dev *dev),
						       bool from_thread)
{
	struct aac_dev *aac = &tdev->aac;
	struct aac_test_ident *saved = kunit_kzalloc(test, sizeof(*saved), GFP_KERNEL);
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, saved);
	saved->ident = aac_get_driver_ident(cardtype);
	saved->init = saved->ident->init;
	KUNIT_ASSERT_PTR_EQ(test, (void *)saved->init, (void *)init);
	saved->ident->init = aac_test_init;
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, aac_test_ident_restore, saved));
	INIT_DELAYED_WORK(&aac->src_reinit_aif_worker, aac_test_rescan);
	ret = kunit_add_action_or_reset(test, aac_test_rescan_cancel, &aac->src_reinit_aif_worker);
	KUNIT_ASSERT_EQ(test, ret, 0);
	aac->name = AAC_TEST_CMD_THREAD;
	/* Before the thread, which may reset at once */
	aac_test_card_start(test, tdev);
	return aac_test_reinit_setup(test, tdev, cardtype, true, from_thread);
}

/*
 * What the reset asked the card that came back, in order: its info
 * (aac_get_adapter_info(): the adapter's, then its buses), its
 * configuration's status, the commit when @committed
 * (aac_get_config_status()), the number of its containers, then a query
 * of each container (aac_get_containers()): two for each container but
 * the first, which the card has (VM_NameServe, then VM_NameServe64). And
 * what the answers set: the adapter's info, its buses and targets, and
 * @containers containers, the first of them valid.
 */
static void aac_test_expect_asked(struct kunit *test, struct aac_test_dev *tdev,
				  bool committed, int containers)
{
	const struct aac_test_sent sent[] = {
		{ RequestAdapterInfo, 0, 0 },
		{ ContainerCommand, VM_Ioctl, FT_DRIVE },
		{ ContainerCommand, VM_ContainerConfig, CT_GET_CONFIG_STATUS },
		{ ContainerCommand, VM_ContainerConfig, CT_COMMIT_CONFIG },
		{ ContainerCommand, VM_ContainerConfig, CT_GET_CONTAINER_COUNT },
		{ ContainerCommand, VM_NameServe, FT_FILESYS },
	};
	const struct aac_test_card *card = &tdev->card;
	struct aac_dev *aac = &tdev->aac;
	int i, j = 0;

	KUNIT_EXPECT_EQ(test, card->nr_sent, ARRAY_SIZE(sent) - !committed + 2 * containers - 2);
	KUNIT_EXPECT_EQ(test, card->name_serves, 2 * containers - 1);
	for (i = 0; i < ARRAY_SIZE(sent) && j < card->nr_sent; i++) {
		if (!committed && sent[i].word1 == CT_COMMIT_CONFIG)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, card->sent[j].command, sent[i].command, "FIB %d", j);
		KUNIT_EXPECT_EQ_MSG(test, card->sent[j].word0, sent[i].word0, "FIB %d", j);
		KUNIT_EXPECT_EQ_MSG(test, card->sent[j].word1, sent[i].word1, "FIB %d", j);
		j++;
	}
	KUNIT_EXPECT_EQ(test, le32_to_cpu(aac->adapter_info.kernelrev), AAC_TEST_KERNELREV);
	KUNIT_EXPECT_EQ(test, aac->maximum_num_channels, AAC_TEST_BUSES);
	KUNIT_EXPECT_EQ(test, aac->maximum_num_physicals, AAC_TEST_TARGETS);
	KUNIT_EXPECT_EQ(test, aac->maximum_num_containers, containers);
	KUNIT_ASSERT_NOT_NULL(test, aac->fsa_dev);
	KUNIT_EXPECT_EQ(test, aac->fsa_dev[0].valid, 1);
	KUNIT_EXPECT_EQ(test, aac->fsa_dev[0].type, AAC_TEST_VOLUME);
	KUNIT_EXPECT_EQ(test, aac->fsa_dev[0].size, AAC_TEST_CAPACITY);
	for (i = 1; i < containers; i++)
		KUNIT_EXPECT_EQ_MSG(test, aac->fsa_dev[i].valid, 0, "container %d", i);
}

KUNIT_ARRAY_PARAM_DESC(aac_comeback, aac_comeback_cases, name);

static void aac_reset_comeback_test(struct kunit *test)
{
	const struct aac_comeback_case *c = test->param_value;
	struct aac_test_dev *tdev = aac_test_dev_alloc(test);
	struct aac_dev *aac = &tdev->aac;
	struct aac_test_exit *exit = aac_test_exit_watch(test);
	struct aac_test_cmd *cmd = aac_test_cmd_start(test, tdev);
	struct aac_test_thread *t;
	int ret;

	tdev->init_ret = c->init_ret;
	tdev->host->sg_tablesize = c->sg_before;
	tdev->host->max_sectors = AAC_TEST_MAX_SECTORS;
	t = aac_test_comeback_setup(test, tdev, c->cardtype, c->init, c->from_thread);
	if (c->from_thread) {
		/* As aac_check_health() from the thread: no host lock, no thread stopped */
		KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&t->reset_done,
								    AAC_TEST_WAIT));
		KUNIT_EXPECT_EQ(test, t->reset_ret, c->ret);
		KUNIT_EXPECT_FALSE(test, t->exited);
		KUNIT_EXPECT_PTR_EQ(test, t->thread_after_reset, t->task);
		KUNIT_EXPECT_EQ(test, tdev->init_calls, 1);
		KUNIT_EXPECT_EQ(test, aac->in_reset, 0);
		KUNIT_EXPECT_TRUE(test, delayed_work_pending(&aac->src_reinit_aif_worker));
		KUNIT_EXPECT_EQ(test, tdev->host->sg_tablesize, c->sg_after);
		KUNIT_EXPECT_EQ(test, tdev->host->max_sectors, c->max_sectors_after);
		aac_test_expect_asked(test, tdev, true, MAXIMUM_NUM_CONTAINERS);
		aac_test_expect_cmd(test, cmd, true, DID_RESET);
		return;
	}

#ifdef CONFIG_KUNIT_FAULT_INJECTION
	/*
	 * The reset's first allocation is then the new thread's
	 * (kthread_create()): the card's init sets up no FIBs.
	 */
	if (c->no_thread_memory) {
		tdev->no_card = true;
		current->fail_nth = 1;
	}
#endif
	ret = aac_test_reset(aac);
#ifdef CONFIG_KUNIT_FAULT_INJECTION
	if (c->no_thread_memory) {
		KUNIT_EXPECT_EQ(test, current->fail_nth, 0);
		current->fail_nth = 0;
	}
#endif

	KUNIT_EXPECT_EQ(test, ret, c->ret);
	KUNIT_EXPECT_EQ(test, tdev->init_calls, 1);
	KUNIT_EXPECT_EQ(test, aac->in_reset, 0);
	KUNIT_EXPECT_TRUE(test, t->exited);
	if (c->ret) {
		KUNIT_EXPECT_NULL(test, aac->thread);
		KUNIT_EXPECT_FALSE(test, delayed_work_pending(&aac->src_reinit_aif_worker));
	} else {
		/* A new thread, which has exited or will: the pointer is only compared */
		KUNIT_EXPECT_FALSE(test, IS_ERR_OR_NULL(aac->thread));
		KUNIT_EXPECT_PTR_NE(test, aac->thread, t->task);
		KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&exit->done, AAC_TEST_WAIT), 0UL);
		KUNIT_EXPECT_TRUE(test, delayed_work_pending(&aac->src_reinit_aif_worker));
	}
	aac->thread = NULL;
	KUNIT_EXPECT_EQ(test, tdev->host->sg_tablesize, c->sg_after);
	KUNIT_EXPECT_EQ(test, tdev->host->max_sectors, c->max_sectors_after);
	KUNIT_EXPECT_EQ(test, tdev->rescans, 0);
	if (c->ret)
		KUNIT_EXPECT_EQ(test, tdev->card.nr_sent, 0);
	else
		aac_test_expect_asked(test, tdev, true, MAXIMUM_NUM_CONTAINERS);
	aac_test_expect_cmd(test, cmd, !c->ret, DID_RESET);
}

/*
 * What a reset's answers from the card change: the configuration is
 * committed when the card says it can go on or pause, whatever the
 * commit= parameter says, not when it says abort or refuses the
 * question; at least MAXIMUM_NUM_CONTAINERS containers are probed, more
 * if the card has more.
 */
struct aac_asked_case {
	const char *name;
	u32 config_response, config_action;
	int commit;		/* the commit= parameter (aac_commit) */
	u32 containers;		/* the card says */
	bool committed;
	int probed;		/* containers */
};

static const struct aac_asked_case aac_asked_cases[] = {
	{ "configuration to go on: committed", ST_OK, CFACT_CONTINUE, -1, 32, true, 32 },
	{ "configuration paused: committed", ST_OK, CFACT_PAUSE, -1, 32, true, 32 },
	{ "configuration to abort: not committed", ST_OK, CFACT_ABORT, -1, 32, false, 32 },
	{ "status refused: not committed", ST_PERM, CFACT_CONTINUE, -1, 32, false, 32 },
	{ "commit=0: committed all the same", ST_OK, CFACT_CONTINUE, 0, 32, true, 32 },
	{ "commit=1, configuration to abort: not committed", ST_OK, CFACT_ABORT, 1, 32, false,
	  32 },
	{ "40 containers: 40 probed", ST_OK, CFACT_CONTINUE, -1, 40, true, 40 },
	{ "33 containers: 33 probed", ST_OK, CFACT_CONTINUE, -1, 33, true, 33 },
	{ "8 containers: 32 probed", ST_OK, CFACT_CONTINUE, -1, 8, true, 32 },
};

KUNIT_ARRAY_PARAM_DESC(aac_asked, aac_asked_cases, name);

static void aac_test_commit_restore(void *data)
{
	aac_commit = (long)data;
}

static void aac_reset_asks_card_test(struct kunit *test)
{
	const struct aac_asked_case *c = test->param_value;
	struct aac_test_dev *tdev = aac_test_dev_alloc(test);
	struct aac_test_exit *exit = aac_test_exit_watch(test);
	int ret;

	ret = kunit_add_action_or_reset(test, aac_test_commit_restore, (void *)(long)aac_commit);
	KUNIT_ASSERT_EQ(test, ret, 0);
	aac_commit = c->commit;
	aac_test_comeback_setup(test, tdev, 20, aac_rkt_init, false);
	tdev->card.config_response = c->config_response;
	tdev->card.config_action = c->config_action;
	tdev->card.containers = c->containers;

	KUNIT_EXPECT_EQ(test, aac_test_reset(&tdev->aac), 0);

	aac_test_expect_asked(test, tdev, c->committed, c->probed);
	/* The command thread started again, which exits at once */
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&exit->done, AAC_TEST_WAIT), 0UL);
	tdev->aac.thread = NULL;
}

static struct kunit_case aacraid_thread_test_cases[] = {
	KUNIT_CASE(aac_reset_stops_thread_once_test),
	KUNIT_CASE(aac_reset_without_thread_test),
	KUNIT_CASE(aac_reset_from_command_thread_test),
	KUNIT_CASE_PARAM(aac_reset_restart_test, aac_restart_gen_params),
	KUNIT_CASE(aac_reset_from_later_task_test),
	KUNIT_CASE(aac_shutdown_without_thread_test),
	KUNIT_CASE(aac_shutdown_stops_aif_thread_test),
	KUNIT_CASE_PARAM(aac_shutdown_irq_test, aac_shutdown_gen_params),
	KUNIT_CASE(aac_shutdown_waits_for_ioctl_test),
	KUNIT_CASE_PARAM(aac_shutdown_msi_test, aac_shutdown_msi_gen_params),
	KUNIT_CASE_PARAM_ATTR(aac_reset_reinit_test, aac_reinit_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_PARAM(aac_reset_comeback_test, aac_comeback_gen_params),
	KUNIT_CASE_PARAM(aac_reset_asks_card_test, aac_asked_gen_params),
	{}
};

static struct kunit_suite aacraid_thread_test_suite = {
	.name = "aacraid_thread",
	.suite_init = aac_test_suite_init,
	.suite_exit = aac_test_suite_exit,
	.test_cases = aacraid_thread_test_cases,
};

kunit_test_suite(aacraid_thread_test_suite);

MODULE_DESCRIPTION("KUnit tests of the aacraid command thread guards");
MODULE_LICENSE("GPL");
