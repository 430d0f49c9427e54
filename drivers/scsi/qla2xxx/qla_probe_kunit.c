// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of qla2x00_probe_one() itself, included at the end of
 * qla_kunit.c (and so of qla_os.c).
 *
 * QEMU emulates no QLogic adapter, but the cells boot with an e1000e that
 * no driver holds (kunit/matrix.py). A case borrows it, gives it the
 * row's QLogic device ID and revision for as long as it runs, and probes
 * it. The probe maps its BARs, sets the adapter up, allocates its queues
 * and asks for its interrupts for real. The adapter's init, the first
 * step that talks to the firmware, is replaced for the case by one that
 * records what the probe handed it and fails, as an adapter that does not
 * answer does: the probe must then undo all of it, queue zero included
 * ("scsi: qla2xxx: Fix small memory leak in qla2x00_probe_one on probe
 * failure", commit 6d6340672ba3).
 *
 * Left out: the P3P adapters (ISP8021, ISP8044), whose I/O space set-up
 * and error path reach CRB registers far past any BAR of QEMU's functions.
 */

/* What the probe had set up when it handed the adapter to its init. */
struct qla_probe_seen {
	unsigned int calls;
	struct qla_hw_data ha;
	struct Scsi_Host host;
	struct req_que req;
	struct rsp_que rsp;
	struct req_que *req_ptr;
	struct rsp_que *rsp_ptr;
	struct req_que *req_map0;
	struct rsp_que *rsp_map0;
	scsi_qla_host_t *vha_ptr;
	scsi_qla_host_t vha;
	void *drvdata;
	int enable_cnt;		/* the suite's enable and the probe's */
	bool msi, msix, needs_freset;
	int irqs_with_action;	/* of the vectors the function has enabled */
	bool mgmt_reserved;	/* the management server's bit in the loop ID map */
};

/* Read by the replaced init: one case runs at a time. */
static struct qla_probe_seen *qla_probe_seen;

static int qla_probe_count_irqs(struct pci_dev *pdev)
{
	int i, irq, n = 0;

	if (!pdev->msi_enabled && !pdev->msix_enabled)
		return irq_has_action(pdev->irq) ? 1 : 0;
	for (i = 0; (irq = pci_irq_vector(pdev, i)) > 0; i++)
		n += irq_has_action(irq);
	return n;
}

static int qla_probe_init_fails(scsi_qla_host_t *vha)
{
	struct qla_probe_seen *s = qla_probe_seen;
	struct qla_hw_data *ha = vha->hw;
	struct pci_dev *pdev = ha->pdev;

	s->calls++;
	s->ha = *ha;
	s->host = *vha->host;
	s->vha_ptr = vha;
	s->vha = *vha;
	s->req_ptr = vha->req;
	s->req = *vha->req;
	s->rsp_ptr = vha->req->rsp;
	if (s->rsp_ptr)
		s->rsp = *s->rsp_ptr;
	s->req_map0 = ha->req_q_map ? ha->req_q_map[0] : NULL;
	s->rsp_map0 = ha->rsp_q_map ? ha->rsp_q_map[0] : NULL;
	/* The map has max_fibre_devices bits: 512 before the 24xx */
	s->mgmt_reserved = ha->loop_id_map && NPH_MGMT_SERVER < ha->max_fibre_devices &&
			   test_bit(NPH_MGMT_SERVER, ha->loop_id_map);
	s->drvdata = pci_get_drvdata(pdev);
	s->enable_cnt = atomic_read(&pdev->enable_cnt);
	s->needs_freset = pdev->needs_freset;
	s->msi = pdev->msi_enabled;
	s->msix = pdev->msix_enabled;
	s->irqs_with_action = qla_probe_count_irqs(pdev);
	return QLA_FUNCTION_FAILED;
}

/* The most allocations a probe that fails at the adapter's init makes */
#define QLA_PROBE_MAX_NTH	1000

enum qla_probe_irq { QLA_PROBE_INTX, QLA_PROBE_MSI, QLA_PROBE_MSIX };

/*
 * What qla2x00_probe_one() sets for an ISP family: its operations, the
 * ring lengths, the firmware's limits and the flash and NVRAM offsets.
 */
struct qla_probe_isp {
	struct isp_operations *ops;
	bool mem_only;
	u16 req_length, rsp_length;
	u8 mbx_count;
	u16 max_loop_id, max_fibre_devices, nvram_npiv_size, atio_q_length;
	int init_cb_size, gid_list_info_size;
	u32 optrom_size;
	u32 flash_conf_off, flash_data_off, nvram_conf_off, nvram_data_off;
	unsigned short sg_tablesize;	/* 0: the template's */
	bool mq_regs;			/* queue registers in the MQ BAR (83xx on) */
	bool freset;			/* needs a fundamental reset on EEH */
};

#define QLA_PROBE_NO_FLASH	.flash_conf_off = ~0, .flash_data_off = ~0,	\
				.nvram_conf_off = ~0, .nvram_data_off = ~0
#define QLA_PROBE_FARX		.flash_conf_off = FARX_ACCESS_FLASH_CONF,	\
				.flash_data_off = FARX_ACCESS_FLASH_DATA,	\
				.nvram_conf_off = FARX_ACCESS_NVRAM_CONF,	\
				.nvram_data_off = FARX_ACCESS_NVRAM_DATA
/* The families of firmware interface 2 */
#define QLA_PROBE_FWI2		.mem_only = true, .mbx_count = MAILBOX_REGISTER_COUNT,	\
				.max_loop_id = SNS_LAST_LOOP_ID_2300,		\
				.max_fibre_devices = MAX_FIBRE_DEVICES_2400,	\
				.gid_list_info_size = 8, .sg_tablesize = QLA_SG_ALL,	\
				.freset = true

static const struct qla_probe_isp qla_probe_isp2100 = {
	.ops = &qla2100_isp_ops, .mbx_count = MAILBOX_REGISTER_COUNT_2100,
	.req_length = REQUEST_ENTRY_CNT_2100, .rsp_length = RESPONSE_ENTRY_CNT_2100,
	.max_loop_id = SNS_LAST_LOOP_ID_2100, .max_fibre_devices = MAX_FIBRE_DEVICES_2100,
	.init_cb_size = sizeof(init_cb_t), .gid_list_info_size = 4,
	.optrom_size = OPTROM_SIZE_2300, QLA_PROBE_NO_FLASH, .sg_tablesize = 32,
};

static const struct qla_probe_isp qla_probe_isp2200 = {
	.ops = &qla2100_isp_ops, .mbx_count = MAILBOX_REGISTER_COUNT_2200,
	.req_length = REQUEST_ENTRY_CNT_2200, .rsp_length = RESPONSE_ENTRY_CNT_2100,
	.max_loop_id = SNS_LAST_LOOP_ID_2100, .max_fibre_devices = MAX_FIBRE_DEVICES_2100,
	.init_cb_size = sizeof(init_cb_t), .gid_list_info_size = 4,
	.optrom_size = OPTROM_SIZE_2300, QLA_PROBE_NO_FLASH,
};

/* The 23xx, with an option ROM of their own size */
#define QLA_PROBE_23XX(optrom)							\
	.ops = &qla2300_isp_ops, .mbx_count = MAILBOX_REGISTER_COUNT,		\
	.req_length = REQUEST_ENTRY_CNT_2200, .rsp_length = RESPONSE_ENTRY_CNT_2300, \
	.max_loop_id = SNS_LAST_LOOP_ID_2300, .max_fibre_devices = MAX_FIBRE_DEVICES_2100, \
	.init_cb_size = sizeof(init_cb_t), .gid_list_info_size = 6,		\
	.optrom_size = (optrom), QLA_PROBE_NO_FLASH

static const struct qla_probe_isp qla_probe_isp2312 = { QLA_PROBE_23XX(OPTROM_SIZE_2300) };
static const struct qla_probe_isp qla_probe_isp2322 = { QLA_PROBE_23XX(OPTROM_SIZE_2322) };

static const struct qla_probe_isp qla_probe_isp24xx = {
	.ops = &qla24xx_isp_ops, QLA_PROBE_FWI2,
	.req_length = REQUEST_ENTRY_CNT_24XX, .rsp_length = RESPONSE_ENTRY_CNT_2300,
	.nvram_npiv_size = QLA_MAX_VPORTS_QLA24XX, .atio_q_length = ATIO_ENTRY_CNT_24XX,
	.init_cb_size = sizeof(struct mid_init_cb_24xx), .optrom_size = OPTROM_SIZE_24XX,
	QLA_PROBE_FARX,
};

static const struct qla_probe_isp qla_probe_isp25xx = {
	.ops = &qla25xx_isp_ops, QLA_PROBE_FWI2,
	.req_length = REQUEST_ENTRY_CNT_24XX, .rsp_length = RESPONSE_ENTRY_CNT_2300,
	.nvram_npiv_size = QLA_MAX_VPORTS_QLA25XX, .atio_q_length = ATIO_ENTRY_CNT_24XX,
	.init_cb_size = sizeof(struct mid_init_cb_24xx), .optrom_size = OPTROM_SIZE_25XX,
	QLA_PROBE_FARX,
};

static const struct qla_probe_isp qla_probe_isp81xx = {
	.ops = &qla81xx_isp_ops, QLA_PROBE_FWI2,
	.req_length = REQUEST_ENTRY_CNT_24XX, .rsp_length = RESPONSE_ENTRY_CNT_2300,
	.nvram_npiv_size = QLA_MAX_VPORTS_QLA25XX, .atio_q_length = ATIO_ENTRY_CNT_24XX,
	.init_cb_size = sizeof(struct mid_init_cb_81xx), .optrom_size = OPTROM_SIZE_81XX,
	.flash_conf_off = FARX_ACCESS_FLASH_CONF_81XX,
	.flash_data_off = FARX_ACCESS_FLASH_DATA_81XX,
	.nvram_conf_off = ~0, .nvram_data_off = ~0,
};

/* The 83xx and later: queue registers in the MQ BAR, flash offsets of their own */
#define QLA_PROBE_MQ(isp_ops, optrom, flash)					\
	.ops = (isp_ops), .mq_regs = true, QLA_PROBE_FWI2,			\
	.req_length = REQUEST_ENTRY_CNT_83XX, .rsp_length = RESPONSE_ENTRY_CNT_83XX, \
	.nvram_npiv_size = QLA_MAX_VPORTS_QLA25XX, .atio_q_length = ATIO_ENTRY_CNT_24XX, \
	.init_cb_size = sizeof(struct mid_init_cb_81xx), .optrom_size = (optrom), \
	.flash_conf_off = FARX_ACCESS_FLASH_CONF_##flash,			\
	.flash_data_off = FARX_ACCESS_FLASH_DATA_##flash,			\
	.nvram_conf_off = ~0, .nvram_data_off = ~0

static const struct qla_probe_isp qla_probe_isp83xx = {
	QLA_PROBE_MQ(&qla83xx_isp_ops, OPTROM_SIZE_83XX, 81XX)
};

static const struct qla_probe_isp qla_probe_isp27xx = {
	QLA_PROBE_MQ(&qla27xx_isp_ops, OPTROM_SIZE_83XX, 81XX)
};

static const struct qla_probe_isp qla_probe_isp28xx = {
	QLA_PROBE_MQ(&qla27xx_isp_ops, OPTROM_SIZE_28XX, 28XX)
};

static const struct qla_probe_isp qla_probe_ispfx00 = {
	.ops = &qlafx00_isp_ops, .mem_only = true,
};

/*
 * The module parameters a probe reads, as a user sets them. The rows
 * give every one; QLA_PROBE_PARAMS are the defaults.
 */
struct qla_probe_params {
	int enablemsix;		/* ql2xenablemsix */
	int maxqdepth;		/* ql2xmaxqdepth */
	int enabledif;		/* ql2xenabledif */
	u64 maxlun;		/* ql2xmaxlun */
};

#define QLA_PROBE_PARAMS	{ 1, MAX_Q_DEPTH, 2, MAX_LUNS }

/*
 * A device ID (and revision, and subsystem) to probe with the module
 * parameters of the row, and what the probe hands the adapter's init.
 */
struct qla_probe_one_case {
	const char *name;
	unsigned short device;
	u8 revision;
	unsigned short subsystem_vendor, subsystem_device;
	struct qla_probe_params params;
	const struct qla_probe_isp *isp;
	int err;			/* the probe fails before the init: its error */
	bool no_intx;			/* the function has no INTx line */
	enum qla_probe_irq irq;
	unsigned short max_cmd_len;
	u64 max_lun;
	int max_q_depth;
	int enabledif;			/* ql2xenabledif after the probe */
	bool walk;			/* walked allocation by allocation too */
};

/* The parameters' defaults; what they give on an adapter without T10 PI */
#define QLA_PROBE_DEFAULT	.params = QLA_PROBE_PARAMS, .max_cmd_len = MAX_CMDSZ,	\
				.max_lun = MAX_LUNS, .max_q_depth = MAX_Q_DEPTH,	\
				.enabledif = 2
/* ... and on one with T10 PI: 32-byte CDBs */
#define QLA_PROBE_PI		.params = QLA_PROBE_PARAMS, .max_cmd_len = 32,		\
				.max_lun = MAX_LUNS, .max_q_depth = MAX_Q_DEPTH,	\
				.enabledif = 2

static const struct qla_probe_one_case qla_probe_one_cases[] = {
	{ "ISP2100: INTx, 32 S/G entries", PCI_DEVICE_ID_QLOGIC_ISP2100, 0, 0, 0,
	  .isp = &qla_probe_isp2100, .irq = QLA_PROBE_INTX, QLA_PROBE_DEFAULT },
	{ "ISP2200: INTx", PCI_DEVICE_ID_QLOGIC_ISP2200, 0, 0, 0,
	  .isp = &qla_probe_isp2200, .irq = QLA_PROBE_INTX, QLA_PROBE_DEFAULT },
	{ "ISP2312: INTx", PCI_DEVICE_ID_QLOGIC_ISP2312, 0, 0, 0,
	  .isp = &qla_probe_isp2312, .irq = QLA_PROBE_INTX, QLA_PROBE_DEFAULT, .walk = true },
	{ "ISP2322: its larger option ROM", PCI_DEVICE_ID_QLOGIC_ISP2322, 0, 0, 0,
	  .isp = &qla_probe_isp2322, .irq = QLA_PROBE_INTX, QLA_PROBE_DEFAULT },
	{ "ISP2312, ql2xmaxlun=0x10000: 16-bit LUNs", PCI_DEVICE_ID_QLOGIC_ISP2312, 0, 0, 0,
	  .isp = &qla_probe_isp2312, .irq = QLA_PROBE_INTX,
	  .params = { 1, MAX_Q_DEPTH, 2, 0x10000 }, .max_cmd_len = MAX_CMDSZ,
	  .max_lun = 0xffff, .max_q_depth = MAX_Q_DEPTH, .enabledif = 2 },
	{ "ISP2432 rev 3: MSI-X", PCI_DEVICE_ID_QLOGIC_ISP2432, 3, 0, 0,
	  .isp = &qla_probe_isp24xx, .irq = QLA_PROBE_MSIX, QLA_PROBE_DEFAULT },
	{ "ISP2432 rev 2: MSI, MSI-X needs rev 3", PCI_DEVICE_ID_QLOGIC_ISP2432, 2, 0, 0,
	  .isp = &qla_probe_isp24xx, .irq = QLA_PROBE_MSI, QLA_PROBE_DEFAULT },
	{ "ISP2432 of HP 0x7040: INTx", PCI_DEVICE_ID_QLOGIC_ISP2432, 3,
	  PCI_VENDOR_ID_HP, 0x7040,
	  .isp = &qla_probe_isp24xx, .irq = QLA_PROBE_INTX, QLA_PROBE_DEFAULT },
	{ "ISP2432 of HP 0x1705: INTx", PCI_DEVICE_ID_QLOGIC_ISP2432, 3,
	  PCI_VENDOR_ID_HP, 0x1705,
	  .isp = &qla_probe_isp24xx, .irq = QLA_PROBE_INTX, QLA_PROBE_DEFAULT },
	{ "ISP2432 of HP 0x7042: MSI-X", PCI_DEVICE_ID_QLOGIC_ISP2432, 3,
	  PCI_VENDOR_ID_HP, 0x7042,
	  .isp = &qla_probe_isp24xx, .irq = QLA_PROBE_MSIX, QLA_PROBE_DEFAULT },
	{ "ISP2432, ql2xmaxqdepth=100", PCI_DEVICE_ID_QLOGIC_ISP2432, 3, 0, 0,
	  .isp = &qla_probe_isp24xx, .irq = QLA_PROBE_MSIX,
	  .params = { 1, 100, 2, MAX_LUNS }, .max_cmd_len = MAX_CMDSZ,
	  .max_lun = MAX_LUNS, .max_q_depth = 100, .enabledif = 2 },
	{ "ISP2432, ql2xmaxqdepth=0xffff", PCI_DEVICE_ID_QLOGIC_ISP2432, 3, 0, 0,
	  .isp = &qla_probe_isp24xx, .irq = QLA_PROBE_MSIX,
	  .params = { 1, 0xffff, 2, MAX_LUNS }, .max_cmd_len = MAX_CMDSZ,
	  .max_lun = MAX_LUNS, .max_q_depth = 0xffff, .enabledif = 2 },
	{ "ISP2432, ql2xmaxqdepth=0x10000: the default", PCI_DEVICE_ID_QLOGIC_ISP2432, 3, 0, 0,
	  .isp = &qla_probe_isp24xx, .irq = QLA_PROBE_MSIX,
	  .params = { 1, 0x10000, 2, MAX_LUNS }, .max_cmd_len = MAX_CMDSZ,
	  .max_lun = MAX_LUNS, .max_q_depth = MAX_Q_DEPTH, .enabledif = 2 },
	{ "ISP2432, ql2xmaxqdepth=0: the default", PCI_DEVICE_ID_QLOGIC_ISP2432, 3, 0, 0,
	  .isp = &qla_probe_isp24xx, .irq = QLA_PROBE_MSIX,
	  .params = { 1, 0, 2, MAX_LUNS }, .max_cmd_len = MAX_CMDSZ,
	  .max_lun = MAX_LUNS, .max_q_depth = MAX_Q_DEPTH, .enabledif = 2 },
	{ "ISP2432, ql2xmaxlun=0x10000: FWI2 keeps it", PCI_DEVICE_ID_QLOGIC_ISP2432, 3, 0, 0,
	  .isp = &qla_probe_isp24xx, .irq = QLA_PROBE_MSIX,
	  .params = { 1, MAX_Q_DEPTH, 2, 0x10000 }, .max_cmd_len = MAX_CMDSZ,
	  .max_lun = 0x10000, .max_q_depth = MAX_Q_DEPTH, .enabledif = 2 },
	{ "ISP2532: MSI-X", PCI_DEVICE_ID_QLOGIC_ISP2532, 0, 0, 0,
	  .isp = &qla_probe_isp25xx, .irq = QLA_PROBE_MSIX, QLA_PROBE_DEFAULT },
	{ "ISP2532, ql2xenablemsix=2: MSI", PCI_DEVICE_ID_QLOGIC_ISP2532, 0, 0, 0,
	  .isp = &qla_probe_isp25xx, .irq = QLA_PROBE_MSI,
	  .params = { 2, MAX_Q_DEPTH, 2, MAX_LUNS }, .max_cmd_len = MAX_CMDSZ,
	  .max_lun = MAX_LUNS, .max_q_depth = MAX_Q_DEPTH, .enabledif = 2 },
	{ "ISP2532, ql2xenablemsix=0: INTx", PCI_DEVICE_ID_QLOGIC_ISP2532, 0, 0, 0,
	  .isp = &qla_probe_isp25xx, .irq = QLA_PROBE_INTX,
	  .params = { 0, MAX_Q_DEPTH, 2, MAX_LUNS }, .max_cmd_len = MAX_CMDSZ,
	  .max_lun = MAX_LUNS, .max_q_depth = MAX_Q_DEPTH, .enabledif = 2 },
	{ "ISP2031, ql2xenabledif=0: 16-byte CDBs", PCI_DEVICE_ID_QLOGIC_ISP2031, 0, 0, 0,
	  .isp = &qla_probe_isp83xx, .irq = QLA_PROBE_MSIX,
	  .params = { 1, MAX_Q_DEPTH, 0, MAX_LUNS }, .max_cmd_len = MAX_CMDSZ,
	  .max_lun = MAX_LUNS, .max_q_depth = MAX_Q_DEPTH, .enabledif = 0 },
	{ "ISP2031, ql2xenabledif=1: reset to 2", PCI_DEVICE_ID_QLOGIC_ISP2031, 0, 0, 0,
	  .isp = &qla_probe_isp83xx, .irq = QLA_PROBE_MSIX,
	  .params = { 1, MAX_Q_DEPTH, 1, MAX_LUNS }, .max_cmd_len = 32,
	  .max_lun = MAX_LUNS, .max_q_depth = MAX_Q_DEPTH, .enabledif = 2 },
	{ "ISP8001: MSI-X", PCI_DEVICE_ID_QLOGIC_ISP8001, 0, 0, 0,
	  .isp = &qla_probe_isp81xx, .irq = QLA_PROBE_MSIX, QLA_PROBE_DEFAULT },
	{ "ISP2031: MSI-X, T10 PI", PCI_DEVICE_ID_QLOGIC_ISP2031, 0, 0, 0,
	  .isp = &qla_probe_isp83xx, .irq = QLA_PROBE_MSIX, QLA_PROBE_PI },
	{ "ISP2071: MSI-X", PCI_DEVICE_ID_QLOGIC_ISP2071, 0, 0, 0,
	  .isp = &qla_probe_isp27xx, .irq = QLA_PROBE_MSIX, QLA_PROBE_PI },
	{ "ISP2281: MSI-X", PCI_DEVICE_ID_QLOGIC_ISP2281, 0, 0, 0,
	  .isp = &qla_probe_isp28xx, .irq = QLA_PROBE_MSIX, QLA_PROBE_PI },
	{ "ISPF001: BAR 0 too small", PCI_DEVICE_ID_QLOGIC_ISPF001, 0, 0, 0,
	  .isp = &qla_probe_ispfx00, .err = -ENOMEM, QLA_PROBE_DEFAULT, .walk = true },
	{ "ISP2532, ql2xenablemsix=0, no INTx line: no interrupt", PCI_DEVICE_ID_QLOGIC_ISP2532,
	  0, 0, 0, .isp = &qla_probe_isp25xx, .no_intx = true, .err = -ENOTCONN,
	  .params = { 0, MAX_Q_DEPTH, 2, MAX_LUNS }, .walk = true },
};

KUNIT_ARRAY_PARAM_DESC(qla_probe_one, qla_probe_one_cases, name);

/*
 * The PCI function the cases probe, enabled once for the suite. On x86 its
 * first enable routes its INTx line through the ACPI _PRT, whose AML a
 * debug kernel under TCG runs for seconds, up to its 30 s loop timeout;
 * the probe's own enable only counts then, and its disable must bring the
 * count back to the suite's.
 */
static struct pci_dev *qla_probe_pdev;

static int qla_probe_suite_init(struct kunit_suite *suite)
{
	struct pci_dev *pdev = kunit_pci_find_lender();

	if (!pdev)
		return 0;	/* the cases skip */
	if (pci_enable_device_mem(pdev)) {
		pci_dev_put(pdev);
		return 0;
	}
	/*
	 * Its INTx line, which pci_device_probe() maps before a driver's
	 * probe where the firmware has not (arm64's device tree).
	 */
	if (!pdev->irq)
		pci_assign_irq(pdev);
	qla_probe_pdev = pdev;
	return 0;
}

static void qla_probe_suite_exit(struct kunit_suite *suite)
{
	if (!qla_probe_pdev)
		return;
	pci_disable_device(qla_probe_pdev);
	pci_dev_put(qla_probe_pdev);
	qla_probe_pdev = NULL;
}

/* What a case changes of the suite's function, given back as it was. */
struct qla_probe_lender {
	struct pci_dev *pdev;
	unsigned short device, subsystem_vendor, subsystem_device;
	unsigned int irq;
	u8 revision;
	unsigned int needs_freset:1;
};

static void qla_probe_lender_release(void *data)
{
	struct qla_probe_lender *l = data;
	struct pci_dev *pdev = l->pdev;

	/* The driver core clears it after a failed probe. */
	pci_set_drvdata(pdev, NULL);
	pdev->device = l->device;
	pdev->subsystem_vendor = l->subsystem_vendor;
	pdev->subsystem_device = l->subsystem_device;
	pdev->revision = l->revision;
	pdev->irq = l->irq;
	pdev->needs_freset = l->needs_freset;
	while (atomic_read(&pdev->enable_cnt) > 1)
		pci_disable_device(pdev);
}

static struct pci_dev *qla_probe_borrow(struct kunit *test, const struct qla_probe_one_case *c)
{
	struct pci_dev *pdev = qla_probe_pdev;
	struct qla_probe_lender *l;

	if (!IS_ENABLED(CONFIG_PCI_MSI))
		kunit_skip(test, "no CONFIG_PCI_MSI");
	if (!pdev)
		kunit_skip(test, "no PCI function with MSI and MSI-X free to lend");
	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	l->pdev = pdev;
	l->device = pdev->device;
	l->subsystem_vendor = pdev->subsystem_vendor;
	l->subsystem_device = pdev->subsystem_device;
	l->revision = pdev->revision;
	l->irq = pdev->irq;
	l->needs_freset = pdev->needs_freset;
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, qla_probe_lender_release, l));
	KUNIT_ASSERT_EQ_MSG(test, atomic_read(&pdev->enable_cnt), 1, "%s is in use",
			    pci_name(pdev));
	pdev->device = c->device;
	pdev->revision = c->revision;
	if (c->subsystem_vendor) {
		pdev->subsystem_vendor = c->subsystem_vendor;
		pdev->subsystem_device = c->subsystem_device;
	}
	if (c->no_intx)
		pdev->irq = IRQ_NOTCONNECTED;
	return pdev;
}

struct qla_probe_env {
	struct pci_dev *pdev;
	struct pci_device_id id;
	struct qla_probe_seen *seen;
	struct isp_operations *ops;
	int (*init)(scsi_qla_host_t *vha);
	struct qla_probe_params params;	/* the user's, given back */
	const struct qla_probe_one_case *row;
};

static void qla_probe_params_set(const struct qla_probe_params *p)
{
	ql2xenablemsix = p->enablemsix;
	ql2xmaxqdepth = p->maxqdepth;
	ql2xenabledif = p->enabledif;
	ql2xmaxlun = p->maxlun;
}

static void qla_probe_restore(void *data)
{
	struct qla_probe_env *e = data;

	e->ops->initialize_adapter = e->init;
	qla_probe_params_set(&e->params);
	qla_probe_seen = NULL;
}

static struct qla_probe_env *qla_probe_env(struct kunit *test, const struct qla_probe_one_case *c)
{
	struct qla_probe_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	e->seen = kunit_kzalloc(test, sizeof(*e->seen), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e->seen);
	e->pdev = qla_probe_borrow(test, c);
	e->id.vendor = PCI_VENDOR_ID_QLOGIC;
	e->id.device = c->device;
	e->ops = c->isp->ops;
	e->row = c;
	e->init = e->ops->initialize_adapter;
	e->params = (struct qla_probe_params){ ql2xenablemsix, ql2xmaxqdepth, ql2xenabledif,
					       ql2xmaxlun };
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, qla_probe_restore, e));
	e->ops->initialize_adapter = qla_probe_init_fails;
	qla_probe_params_set(&c->params);
	qla_probe_seen = e->seen;
	return e;
}

/*
 * What a failed probe leaves: the function's enable count as it found it
 * (the suite's), its BARs and interrupts free.
 */
static void qla_probe_expect_undone(struct kunit *test, struct pci_dev *pdev)
{
	int bar;

	KUNIT_EXPECT_EQ(test, atomic_read(&pdev->enable_cnt), 1);
	KUNIT_EXPECT_FALSE(test, pdev->msi_enabled);
	KUNIT_EXPECT_FALSE(test, pdev->msix_enabled);
	KUNIT_EXPECT_FALSE(test, irq_has_action(pdev->irq));
	for (bar = 0; bar < PCI_STD_NUM_BARS; bar++)
		KUNIT_EXPECT_NULL_MSG(test, pdev->resource[bar].child,
				      "BAR %d still requested", bar);
}

/* The adapter as its family sets it up. */
static void qla_probe_expect_isp(struct kunit *test, const struct qla_probe_isp *isp,
				 const struct qla_probe_seen *s)
{
	KUNIT_EXPECT_PTR_EQ(test, s->ha.isp_ops, isp->ops);
	KUNIT_EXPECT_EQ(test, s->ha.mem_only, isp->mem_only);
	KUNIT_EXPECT_EQ(test, s->ha.mbx_count, isp->mbx_count);
	KUNIT_EXPECT_EQ(test, s->ha.max_loop_id, isp->max_loop_id);
	KUNIT_EXPECT_EQ(test, s->ha.max_fibre_devices, isp->max_fibre_devices);
	KUNIT_EXPECT_EQ(test, s->ha.nvram_npiv_size, isp->nvram_npiv_size);
	KUNIT_EXPECT_EQ(test, s->ha.tgt.atio_q_length, isp->atio_q_length);
	KUNIT_EXPECT_EQ(test, s->ha.init_cb_size, isp->init_cb_size);
	KUNIT_EXPECT_EQ(test, s->ha.gid_list_info_size, isp->gid_list_info_size);
	KUNIT_EXPECT_EQ(test, s->ha.optrom_size, isp->optrom_size);
	KUNIT_EXPECT_EQ(test, s->ha.flash_conf_off, isp->flash_conf_off);
	KUNIT_EXPECT_EQ(test, s->ha.flash_data_off, isp->flash_data_off);
	KUNIT_EXPECT_EQ(test, s->ha.nvram_conf_off, isp->nvram_conf_off);
	KUNIT_EXPECT_EQ(test, s->ha.nvram_data_off, isp->nvram_data_off);
	KUNIT_EXPECT_EQ(test, s->req.length, isp->req_length);
	KUNIT_EXPECT_EQ(test, s->rsp.length, isp->rsp_length);
	KUNIT_EXPECT_EQ(test, s->host.sg_tablesize,
			isp->sg_tablesize ?: qla2xxx_driver_template.sg_tablesize);
	KUNIT_EXPECT_EQ(test, s->host.max_id, isp->max_fibre_devices);
	KUNIT_EXPECT_EQ(test, s->needs_freset, isp->freset);
	/* A management server loop ID reserved on the mid-range and later ISPs */
	if (isp->mem_only) {
		KUNIT_EXPECT_EQ(test, s->vha.mgmt_svr_loop_id, NPH_MGMT_SERVER);
		KUNIT_EXPECT_TRUE(test, s->mgmt_reserved);
	} else {
		KUNIT_EXPECT_EQ(test, s->vha.mgmt_svr_loop_id, MANAGEMENT_SERVER);
		KUNIT_EXPECT_FALSE(test, s->mgmt_reserved);
	}
	/* Where the queues' in and out pointers are */
	if (isp->mq_regs) {
		KUNIT_EXPECT_PTR_EQ(test, s->req.req_q_in, &s->ha.mqiobase->isp25mq.req_q_in);
		KUNIT_EXPECT_PTR_EQ(test, s->req.req_q_out, &s->ha.mqiobase->isp25mq.req_q_out);
		KUNIT_EXPECT_PTR_EQ(test, s->rsp.rsp_q_in, &s->ha.mqiobase->isp25mq.rsp_q_in);
		KUNIT_EXPECT_PTR_EQ(test, s->rsp.rsp_q_out, &s->ha.mqiobase->isp25mq.rsp_q_out);
	} else {
		KUNIT_EXPECT_PTR_EQ(test, s->req.req_q_in, &s->ha.iobase->isp24.req_q_in);
		KUNIT_EXPECT_PTR_EQ(test, s->req.req_q_out, &s->ha.iobase->isp24.req_q_out);
		KUNIT_EXPECT_PTR_EQ(test, s->rsp.rsp_q_in, &s->ha.iobase->isp24.rsp_q_in);
		KUNIT_EXPECT_PTR_EQ(test, s->rsp.rsp_q_out, &s->ha.iobase->isp24.rsp_q_out);
	}
}

static void qla_probe_one_test(struct kunit *test)
{
	const struct qla_probe_one_case *c = test->param_value;
	struct qla_probe_env *e = qla_probe_env(test, c);
	struct qla_probe_seen *s = e->seen;
	int ret;

	ret = qla2x00_probe_one(e->pdev, &e->id);

	qla_probe_expect_undone(test, e->pdev);
	if (c->err) {
		KUNIT_EXPECT_EQ(test, ret, c->err);
		KUNIT_EXPECT_EQ(test, s->calls, 0);
		return;
	}
	KUNIT_EXPECT_EQ(test, ret, -ENODEV);
	KUNIT_ASSERT_EQ(test, s->calls, 1);
	qla_probe_expect_isp(test, c->isp, s);
	KUNIT_EXPECT_EQ(test, s->req.max_q_depth, c->max_q_depth);
	KUNIT_EXPECT_EQ(test, ql2xenabledif, c->enabledif);

	KUNIT_EXPECT_EQ(test, s->enable_cnt, 2);
	KUNIT_EXPECT_PTR_EQ(test, s->drvdata, (void *)s->vha_ptr);
	KUNIT_EXPECT_EQ(test, s->msix, c->irq == QLA_PROBE_MSIX);
	KUNIT_EXPECT_EQ(test, s->msi, c->irq == QLA_PROBE_MSI);
	KUNIT_EXPECT_EQ(test, !!s->ha.flags.msix_enabled, c->irq == QLA_PROBE_MSIX);
	KUNIT_EXPECT_EQ(test, !!s->ha.flags.msi_enabled, c->irq == QLA_PROBE_MSI);
	KUNIT_EXPECT_GT(test, s->irqs_with_action, 0);

	KUNIT_EXPECT_PTR_EQ(test, s->rsp.req, s->req_ptr);
	KUNIT_EXPECT_PTR_EQ(test, s->req.rsp, s->rsp_ptr);
	KUNIT_EXPECT_PTR_EQ(test, s->req_map0, s->req_ptr);
	KUNIT_EXPECT_PTR_EQ(test, s->rsp_map0, s->rsp_ptr);
	KUNIT_EXPECT_TRUE(test, test_bit(PFLG_DRIVER_PROBING, &s->vha.pci_flags));
	KUNIT_EXPECT_NOT_NULL(test, s->ha.wq);
	KUNIT_EXPECT_NOT_NULL(test, s->ha.iobase);
	KUNIT_EXPECT_EQ(test, s->ha.bars,
			pci_select_bars(e->pdev, c->isp->mem_only ? IORESOURCE_MEM :
					IORESOURCE_MEM | IORESOURCE_IO));
	/* The first mailbox command does not wait for one before it */
	KUNIT_EXPECT_EQ(test, s->ha.mbx_cmd_comp.done, 1);
	KUNIT_EXPECT_TRUE(test, test_bit(0, s->ha.vp_idx_map));
	KUNIT_EXPECT_EQ(test, s->ha.link_data_rate, PORT_SPEED_UNKNOWN);
	KUNIT_EXPECT_EQ(test, s->ha.max_exchg, FW_MAX_EXCHANGES_CNT);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->ha.zio_threshold), DEFAULT_ZIO_THRESHOLD);
	KUNIT_EXPECT_EQ(test, s->ha.last_zio_threshold, DEFAULT_ZIO_THRESHOLD);
	/* The template of the fcports the adapter reports */
	KUNIT_EXPECT_PTR_EQ(test, s->ha.mr.fcport.vha, s->vha_ptr);
	KUNIT_EXPECT_EQ(test, s->ha.mr.fcport.port_type, FCT_UNKNOWN);
	KUNIT_EXPECT_EQ(test, s->ha.mr.fcport.loop_id, FC_NO_LOOP_ID);
	KUNIT_EXPECT_EQ(test, atomic_read(&s->ha.mr.fcport.state), FCS_UNCONFIGURED);
	KUNIT_EXPECT_EQ(test, s->ha.mr.fcport.supported_classes, FC_COS_UNSPECIFIED);
	KUNIT_EXPECT_EQ(test, s->ha.mr.fcport.scan_state, 1);

	KUNIT_EXPECT_EQ(test, s->host.cmd_per_lun, 3);
	KUNIT_EXPECT_EQ(test, s->host.unique_id, s->host.host_no);
	KUNIT_EXPECT_EQ(test, s->host.max_cmd_len, c->max_cmd_len);
	KUNIT_EXPECT_EQ(test, s->host.max_channel, MAX_BUSES - 1);
	KUNIT_EXPECT_EQ(test, s->host.max_lun, c->max_lun);
	KUNIT_EXPECT_PTR_EQ(test, s->host.transportt, qla2xxx_transport_template);
	KUNIT_EXPECT_EQ(test, qla2xxx_driver_template.vendor_id,
			SCSI_NL_VID_TYPE_PCI | PCI_VENDOR_ID_QLOGIC);
}

#ifdef CONFIG_KUNIT_FAULT_INJECTION
static void qla_probe_nth_setup(struct kunit *test, void *ctx)
{
	struct qla_probe_env *e = ctx;

	memset(e->seen, 0, sizeof(*e->seen));
}

static int qla_probe_nth_call(struct kunit *test, void *ctx)
{
	struct qla_probe_env *e = ctx;

	return qla2x00_probe_one(e->pdev, &e->id);
}

/* Whichever step failed, the probe fails and undoes all it did. */
static void qla_probe_nth_undo(struct kunit *test, void *ctx, int err, unsigned int nth,
			       bool failed)
{
	struct qla_probe_env *e = ctx;

	KUNIT_EXPECT_LT_MSG(test, err, 0, "allocation %u failed", nth);
	if (!failed)
		KUNIT_EXPECT_EQ(test, e->seen->calls, e->row->err ? 0 : 1);
	qla_probe_expect_undone(test, e->pdev);
}

/*
 * qla2x00_probe_one() with each of its allocations failed in turn, then
 * with none, when the init fails: each time the probe fails, every
 * kmalloc() of it is freed once (kunit_fail_nth_walk()), queue zero's
 * too at every step from qla2x00_mem_alloc() on, and the function is
 * left disabled with its BARs and interrupts free.
 */
static void qla_probe_one_fail_nth_test(struct kunit *test)
{
	const struct qla_probe_one_case *c = test->param_value;
	static const struct kunit_fail_nth walk = {
		.what = "qla2x00_probe_one()",
		.max = QLA_PROBE_MAX_NTH,
		.fails = true,
		.setup = qla_probe_nth_setup,
		.call = qla_probe_nth_call,
		.undo = qla_probe_nth_undo,
	};

	kunit_fail_nth_walk(test, &walk, qla_probe_env(test, c));
}

/*
 * The rows marked for a walk: an adapter before firmware interface 2 on
 * INTx, one after it without an INTx line (it fails at its interrupts),
 * and one whose I/O space set-up fails.
 */
static const void *qla_probe_nth_gen_params(const void *prev, char *desc)
{
	const struct qla_probe_one_case *c = prev;

	for (c = c ? c + 1 : qla_probe_one_cases;
	     c < qla_probe_one_cases + ARRAY_SIZE(qla_probe_one_cases); c++) {
		if (c->walk) {
			strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
			return c;
		}
	}
	return NULL;
}
#endif /* CONFIG_KUNIT_FAULT_INJECTION */

static struct kunit_case qla2xxx_probe_test_cases[] = {
	KUNIT_CASE_PARAM(qla_probe_one_test, qla_probe_one_gen_params),
#ifdef CONFIG_KUNIT_FAULT_INJECTION
	KUNIT_CASE_PARAM_ATTR(qla_probe_one_fail_nth_test, qla_probe_nth_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
#endif
	{}
};

static struct kunit_suite qla2xxx_probe_test_suite = {
	.name = "qla2xxx_probe",
	.suite_init = qla_probe_suite_init,
	.suite_exit = qla_probe_suite_exit,
	.test_cases = qla2xxx_probe_test_cases,
};

kunit_test_suite(qla2xxx_probe_test_suite);
