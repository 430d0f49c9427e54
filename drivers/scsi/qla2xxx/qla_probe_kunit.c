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
	unsigned int loop_ids_reserved;	/* the bits set in the loop ID map */
	bool vp_list_empty;
	unsigned int dif_good_listed, dif_unusable_listed;	/* DIF bundling buffers kept */
	unsigned int dif_crossing;	/* of those kept, the ones that cross 4 GiB */
	struct fc_els_ls_rjt elsrej;	/* what the ELS reject buffer holds */
	char pools[320];		/* the function's sysfs file "pools", if read */
	struct kmem_cache *ctx_cachep;	/* the driver's CT6 cache */
	struct kmem_cache *ctx_pool_cache;	/* the one the CT6 pool takes from */
};

/*
 * A base whose driver has EDIF_CAP() (6.12, not 6.1) allocates the virtual
 * port map for it, and an NVMe LS reject buffer.
 */
#ifdef EDIF_CAP
#define QLA_PROBE_VP_MAP
#endif

static unsigned int qla_probe_listed(struct list_head *head)
{
	struct list_head *pos;
	unsigned int n = 0;

	list_for_each(pos, head)
		n++;
	return n;
}

/* Read by the replaced init: one case runs at a time. */
static struct qla_probe_seen *qla_probe_seen;
/* The page the replaced init reads "pools" into, set aside by the case */
static char *qla_probe_pools_page;

/*
 * The function's DMA pools as its sysfs file "pools" shows them (name,
 * blocks in use, blocks, block size, pages), read through sysfs's own
 * show operation, as a read(2) of the file would; @text is left empty
 * when there is no such file.
 */
static void qla_probe_read_pools(struct pci_dev *pdev, char *text, size_t size)
{
	struct kobject *kobj = &pdev->dev.kobj;
	struct kernfs_node *kn;
	ssize_t len;

	if (!qla_probe_pools_page)
		return;
	kn = kernfs_find_and_get(kobj->sd, "pools");
	if (!kn)
		return;
	len = kobj->ktype->sysfs_ops->show(kobj, kn->priv, qla_probe_pools_page);
	kernfs_put(kn);
	if (len > 0)
		strscpy(text, qla_probe_pools_page, min_t(size_t, size, len + 1));
}

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
	if (ha->loop_id_map)
		s->loop_ids_reserved = bitmap_weight(ha->loop_id_map, LOOPID_MAP_SIZE);
	s->vp_list_empty = list_empty(&ha->vp_list);
	if (ha->dif_bundl_pool) {
		struct dsd_dma *dsd;

		s->dif_good_listed = qla_probe_listed(&ha->pool.good.head);
		s->dif_unusable_listed = qla_probe_listed(&ha->pool.unusable.head);
		list_for_each_entry(dsd, &ha->pool.unusable.head, list)
			s->dif_crossing += upper_32_bits(dsd->dsd_list_dma) !=
				upper_32_bits(dsd->dsd_list_dma + DIF_BUNDLING_DMA_POOL_SIZE);
	}
	if (ha->elsrej.c)
		s->elsrej = *ha->elsrej.c;
	qla_probe_read_pools(pdev, s->pools, sizeof(s->pools));
	s->ctx_cachep = ctx_cachep;
	if (ha->ctx_mempool)
		s->ctx_pool_cache = ha->ctx_mempool->pool_data;
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
	/* What qla2x00_mem_alloc() gives the family besides what all get */
	bool sns_cmd;			/* an SNS command buffer, not an MS IOCB */
	bool ex_init_cb;		/* an extended init control block (81xx on) */
	bool sf_init_cb;		/* a special features control block (27xx on) */
	bool ctx_pool;			/* a CT6 context pool (27xx) */
	bool edif;			/* encryption of data in flight with ql2xsecenable (28xx) */
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
	.optrom_size = OPTROM_SIZE_2300, QLA_PROBE_NO_FLASH, .sg_tablesize = 32, .sns_cmd = true,
};

static const struct qla_probe_isp qla_probe_isp2200 = {
	.ops = &qla2100_isp_ops, .mbx_count = MAILBOX_REGISTER_COUNT_2200,
	.req_length = REQUEST_ENTRY_CNT_2200, .rsp_length = RESPONSE_ENTRY_CNT_2100,
	.max_loop_id = SNS_LAST_LOOP_ID_2100, .max_fibre_devices = MAX_FIBRE_DEVICES_2100,
	.init_cb_size = sizeof(init_cb_t), .gid_list_info_size = 4,
	.optrom_size = OPTROM_SIZE_2300, QLA_PROBE_NO_FLASH, .sns_cmd = true,
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
	.nvram_conf_off = ~0, .nvram_data_off = ~0, .ex_init_cb = true,
};

/* The 83xx and later: queue registers in the MQ BAR, flash offsets of their own */
#define QLA_PROBE_MQ(isp_ops, optrom, flash)					\
	.ops = (isp_ops), .mq_regs = true, QLA_PROBE_FWI2,			\
	.req_length = REQUEST_ENTRY_CNT_83XX, .rsp_length = RESPONSE_ENTRY_CNT_83XX, \
	.nvram_npiv_size = QLA_MAX_VPORTS_QLA25XX, .atio_q_length = ATIO_ENTRY_CNT_24XX, \
	.init_cb_size = sizeof(struct mid_init_cb_81xx), .optrom_size = (optrom), \
	.flash_conf_off = FARX_ACCESS_FLASH_CONF_##flash,			\
	.flash_data_off = FARX_ACCESS_FLASH_DATA_##flash,			\
	.nvram_conf_off = ~0, .nvram_data_off = ~0, .ex_init_cb = true

static const struct qla_probe_isp qla_probe_isp83xx = {
	QLA_PROBE_MQ(&qla83xx_isp_ops, OPTROM_SIZE_83XX, 81XX)
};

static const struct qla_probe_isp qla_probe_isp27xx = {
	QLA_PROBE_MQ(&qla27xx_isp_ops, OPTROM_SIZE_83XX, 81XX), .sf_init_cb = true,
	.ctx_pool = true,
};

static const struct qla_probe_isp qla_probe_isp28xx = {
	QLA_PROBE_MQ(&qla27xx_isp_ops, OPTROM_SIZE_28XX, 28XX), .sf_init_cb = true,
	.edif = true,
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
	int secenable;		/* ql2xsecenable */
	bool target;		/* qlini_mode=exclusive, not its default "enabled" */
};

#define QLA_PROBE_PARAMS	{ 1, MAX_Q_DEPTH, 2, MAX_LUNS, 0, false }

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
	bool early;			/* fails before it allocates the adapter's memory */
	bool msgs;			/* its walk sees every failure message of it */
	bool log;			/* with the init class of debug messages on */
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
	  .isp = &qla_probe_isp2100, .irq = QLA_PROBE_INTX, QLA_PROBE_DEFAULT, .log = true },
	{ "ISP2200: INTx", PCI_DEVICE_ID_QLOGIC_ISP2200, 0, 0, 0,
	  .isp = &qla_probe_isp2200, .irq = QLA_PROBE_INTX, QLA_PROBE_DEFAULT, .walk = true },
	{ "ISP2312: INTx", PCI_DEVICE_ID_QLOGIC_ISP2312, 0, 0, 0,
	  .isp = &qla_probe_isp2312, .irq = QLA_PROBE_INTX, QLA_PROBE_DEFAULT },
	{ "ISP2322: its larger option ROM", PCI_DEVICE_ID_QLOGIC_ISP2322, 0, 0, 0,
	  .isp = &qla_probe_isp2322, .irq = QLA_PROBE_INTX, QLA_PROBE_DEFAULT },
	{ "ISP2312, ql2xmaxlun=0x10000: 16-bit LUNs", PCI_DEVICE_ID_QLOGIC_ISP2312, 0, 0, 0,
	  .isp = &qla_probe_isp2312, .irq = QLA_PROBE_INTX,
	  .params = { 1, MAX_Q_DEPTH, 2, 0x10000 }, .max_cmd_len = MAX_CMDSZ,
	  .max_lun = 0xffff, .max_q_depth = MAX_Q_DEPTH, .enabledif = 2 },
	{ "ISP2432 rev 3: MSI-X", PCI_DEVICE_ID_QLOGIC_ISP2432, 3, 0, 0,
	  .isp = &qla_probe_isp24xx, .irq = QLA_PROBE_MSIX, QLA_PROBE_DEFAULT, .log = true },
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
	  .max_lun = MAX_LUNS, .max_q_depth = MAX_Q_DEPTH, .enabledif = 0, .log = true },
	{ "ISP2031, ql2xenabledif=1: reset to 2", PCI_DEVICE_ID_QLOGIC_ISP2031, 0, 0, 0,
	  .isp = &qla_probe_isp83xx, .irq = QLA_PROBE_MSIX,
	  .params = { 1, MAX_Q_DEPTH, 1, MAX_LUNS }, .max_cmd_len = 32,
	  .max_lun = MAX_LUNS, .max_q_depth = MAX_Q_DEPTH, .enabledif = 2 },
	{ "ISP8001: MSI-X", PCI_DEVICE_ID_QLOGIC_ISP8001, 0, 0, 0,
	  .isp = &qla_probe_isp81xx, .irq = QLA_PROBE_MSIX, QLA_PROBE_DEFAULT },
	{ "ISP2031: MSI-X, T10 PI", PCI_DEVICE_ID_QLOGIC_ISP2031, 0, 0, 0,
	  .isp = &qla_probe_isp83xx, .irq = QLA_PROBE_MSIX, QLA_PROBE_PI },
	{ "ISP2071: MSI-X", PCI_DEVICE_ID_QLOGIC_ISP2071, 0, 0, 0,
	  .isp = &qla_probe_isp27xx, .irq = QLA_PROBE_MSIX, QLA_PROBE_PI, .log = true },
	{ "ISP2281: MSI-X", PCI_DEVICE_ID_QLOGIC_ISP2281, 0, 0, 0,
	  .isp = &qla_probe_isp28xx, .irq = QLA_PROBE_MSIX, QLA_PROBE_PI },
	{ "ISP2312, qlini_mode=exclusive: target mode", PCI_DEVICE_ID_QLOGIC_ISP2312, 0, 0, 0,
	  .isp = &qla_probe_isp2312, .irq = QLA_PROBE_INTX,
	  .params = { 1, MAX_Q_DEPTH, 2, MAX_LUNS, 0, true },
	  .max_cmd_len = MAX_CMDSZ, .max_lun = MAX_LUNS, .max_q_depth = MAX_Q_DEPTH,
	  .enabledif = 2, .walk = true },
	{ "ISP2312, ql2xenabledif=0: no DIF pools", PCI_DEVICE_ID_QLOGIC_ISP2312, 0, 0, 0,
	  .isp = &qla_probe_isp2312, .irq = QLA_PROBE_INTX,
	  .params = { 1, MAX_Q_DEPTH, 0, MAX_LUNS }, .max_cmd_len = MAX_CMDSZ,
	  .max_lun = MAX_LUNS, .max_q_depth = MAX_Q_DEPTH, .enabledif = 0, .walk = true },
	{ "ISP2281, ql2xsecenable=1, ql2xenabledif=0: EDIF",
	  PCI_DEVICE_ID_QLOGIC_ISP2281, 0, 0, 0, .isp = &qla_probe_isp28xx, .irq = QLA_PROBE_MSIX,
	  .params = { 1, MAX_Q_DEPTH, 0, MAX_LUNS, 1, false },
	  .max_cmd_len = MAX_CMDSZ, .max_lun = MAX_LUNS, .max_q_depth = MAX_Q_DEPTH,
	  .enabledif = 0, .log = true },
	{ "ISPF001: BAR 0 too small", PCI_DEVICE_ID_QLOGIC_ISPF001, 0, 0, 0,
	  .isp = &qla_probe_ispfx00, .err = -ENOMEM, QLA_PROBE_DEFAULT, .walk = true,
	  .early = true },
	{ "ISP2532, ql2xenablemsix=0, no INTx line: no interrupt", PCI_DEVICE_ID_QLOGIC_ISP2532,
	  0, 0, 0, .isp = &qla_probe_isp25xx, .no_intx = true, .err = -ENOTCONN,
	  .params = { 0, MAX_Q_DEPTH, 2, MAX_LUNS }, .walk = true, .msgs = true },
	{ "ISP2071, ql2xenablemsix=0: INTx", PCI_DEVICE_ID_QLOGIC_ISP2071, 0, 0, 0,
	  .isp = &qla_probe_isp27xx, .irq = QLA_PROBE_INTX,
	  .params = { 0, MAX_Q_DEPTH, 2, MAX_LUNS }, .max_cmd_len = 32,
	  .max_lun = MAX_LUNS, .max_q_depth = MAX_Q_DEPTH, .enabledif = 2, .walk = true },
};

KUNIT_ARRAY_PARAM_DESC(qla_probe_one, qla_probe_one_cases, name);

/* The row's adapter encrypts data in flight: a 28xx with ql2xsecenable */
static bool qla_probe_edif(const struct qla_probe_one_case *c)
{
	return c->isp->edif && c->params.secenable;
}

/* It gets a CT6 context pool: a 27xx, or with EDIF */
static bool qla_probe_ctx_pool(const struct qla_probe_one_case *c)
{
	return c->isp->ctx_pool || qla_probe_edif(c);
}

/* It gets the DSD list and FCP command pools: with DIF, or with EDIF */
static bool qla_probe_dl_pools(const struct qla_probe_one_case *c)
{
	return c->enabledif || qla_probe_edif(c);
}

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
	struct pci_dev *pdev = kunit_pci_lender_enable();

	/*
	 * Its INTx line, which pci_device_probe() maps before a driver's
	 * probe where the firmware has not (arm64's device tree).
	 */
	if (pdev && !pdev->irq)
		pci_assign_irq(pdev);
	qla_probe_pdev = pdev;
	return 0;
}

static void qla_probe_suite_exit(struct kunit_suite *suite)
{
	kunit_pci_lender_release(qla_probe_pdev);
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

#if QLA_TEST_DMA_TRACED
/*
 * The DMA buffers a probe allocates for the function and frees, through
 * the DMA API's tracepoints (6.12 on): coherent buffers and the pages of
 * its DMA pools. A failed probe must leave none.
 */
#define QLA_PROBE_DMA_MAX	256
#define QLA_PROBE_DMA_FAILED	4

struct qla_probe_dma {
	struct device *dev;
	spinlock_t lock;	/* the tracepoints may run in any context */
	unsigned int n;		/* buffers live */
	unsigned int strays;	/* frees of no live buffer */
	unsigned int resized;	/* frees of another size than the buffer's */
	bool overflow;
	void *live[QLA_PROBE_DMA_MAX];
	size_t size[QLA_PROBE_DMA_MAX];
	unsigned int failed;	/* allocations that gave no buffer */
	size_t failed_size[QLA_PROBE_DMA_FAILED];
};

static void qla_probe_dma_alloc(void *data, struct device *dev, void *virt, dma_addr_t dma,
				size_t size, enum dma_data_direction dir, gfp_t gfp,
				unsigned long attrs)
{
	struct qla_probe_dma *d = data;
	unsigned long flags;

	if (dev != d->dev)
		return;
	spin_lock_irqsave(&d->lock, flags);
	if (!virt) {
		if (d->failed < QLA_PROBE_DMA_FAILED)
			d->failed_size[d->failed] = size;
		d->failed++;
	} else if (d->n < QLA_PROBE_DMA_MAX) {
		d->live[d->n] = virt;
		d->size[d->n++] = size;
	} else {
		d->overflow = true;
	}
	spin_unlock_irqrestore(&d->lock, flags);
}

static void qla_probe_dma_free(void *data, struct device *dev, void *virt, dma_addr_t dma,
			       size_t size, enum dma_data_direction dir, unsigned long attrs)
{
	struct qla_probe_dma *d = data;
	unsigned long flags;
	unsigned int i;

	/* dma_free_coherent() of NULL frees nothing, as kfree(NULL) */
	if (dev != d->dev || !virt)
		return;
	spin_lock_irqsave(&d->lock, flags);
	for (i = 0; i < d->n && d->live[i] != virt; i++)
		;
	if (i < d->n) {
		d->resized += d->size[i] != size;
		d->n--;
		d->live[i] = d->live[d->n];
		d->size[i] = d->size[d->n];
	} else {
		d->strays++;
	}
	spin_unlock_irqrestore(&d->lock, flags);
}

static void qla_probe_dma_stop(void *data)
{
	unregister_trace_dma_free(qla_probe_dma_free, data);
	unregister_trace_dma_alloc(qla_probe_dma_alloc, data);
	tracepoint_synchronize_unregister();
}

static struct qla_probe_dma *qla_probe_dma_start(struct kunit *test, struct device *dev)
{
	struct qla_probe_dma *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	d->dev = dev;
	spin_lock_init(&d->lock);
	KUNIT_ASSERT_EQ(test, register_trace_dma_alloc(qla_probe_dma_alloc, d), 0);
	if (register_trace_dma_free(qla_probe_dma_free, d)) {
		unregister_trace_dma_alloc(qla_probe_dma_alloc, d);
		KUNIT_FAIL_AND_ABORT(test, "cannot probe dma_free");
	}
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, qla_probe_dma_stop, d), 0);
	return d;
}

static void qla_probe_dma_reset(struct qla_probe_dma *d)
{
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	d->n = 0;
	d->strays = 0;
	d->resized = 0;
	d->overflow = false;
	d->failed = 0;
	spin_unlock_irqrestore(&d->lock, flags);
}

/* The sizes of the buffers the DMA API failed to give since the last reset */
static unsigned int qla_probe_dma_failed(const struct qla_probe_dma *d, const size_t **sizes)
{
	*sizes = d->failed_size;
	return min_t(unsigned int, d->failed, QLA_PROBE_DMA_FAILED);
}

static void qla_probe_expect_dma_freed(struct kunit *test, struct qla_probe_dma *d)
{
	KUNIT_EXPECT_FALSE_MSG(test, d->overflow, "more than %d DMA buffers", QLA_PROBE_DMA_MAX);
	KUNIT_EXPECT_EQ_MSG(test, d->n, 0, "DMA buffers not freed, the first of %zu bytes",
			    d->n ? d->size[0] : 0);
	KUNIT_EXPECT_EQ_MSG(test, d->strays, 0, "DMA frees of no buffer of the probe");
	KUNIT_EXPECT_EQ_MSG(test, d->resized, 0, "DMA frees of another size than allocated");
}
#else
struct qla_probe_dma;

static struct qla_probe_dma *qla_probe_dma_start(struct kunit *test, struct device *dev)
{
	return NULL;
}

static void qla_probe_dma_reset(struct qla_probe_dma *d)
{
}

static unsigned int qla_probe_dma_failed(const struct qla_probe_dma *d, const size_t **sizes)
{
	return 0;
}

static void qla_probe_expect_dma_freed(struct kunit *test, struct qla_probe_dma *d)
{
}
#endif

/*
 * The messages of the allocations a walked probe makes, which it prints
 * when one fails: taken from the driver's own tracepoint, which every log
 * message reaches, and the debug messages of the classes in
 * ql2xextended_error_logging_ktrace, with nothing printed to the console.
 * A walk must have seen each of those its row's probe can print.
 */
#define QLA_PROBE_MSGS		20
#define QLA_PROBE_DMA_MSGS	6

struct qla_probe_msg {
	u16 id;
	const char *text;
	char tag[12];		/* "]-<id>:", a debug message's past QLA_TEST_DBG_OFFSET */
};

/* A DMA buffer of qla2x00_mem_alloc() that it names when the buffer fails */
struct qla_probe_dma_msg {
	size_t size;
	struct qla_probe_msg msg;
	bool seen;		/* in this step */
};

struct qla_probe_msgs {
	spinlock_t lock;	/* the tracepoint may run in any context */
	unsigned int n;
	struct qla_probe_msg want[QLA_PROBE_MSGS];
	bool seen[QLA_PROBE_MSGS];
	unsigned int n_dma;
	struct qla_probe_dma_msg dma[QLA_PROBE_DMA_MSGS];
	bool mem_failed;	/* in this step: qla2x00_mem_alloc() said it failed */
};

static bool qla_probe_msg_is(const struct qla_probe_msg *w, const char *buf, const char *text)
{
	return strstr(buf, w->tag) && strstr(text, w->text);
}

static void qla_probe_msg_traced(void *data, const char *buf, struct va_format *vaf)
{
	struct qla_probe_msgs *m = data;
	unsigned long flags;
	char text[96];
	unsigned int i;
	va_list ap;

	va_copy(ap, *vaf->va);	/* the trace event itself reads it too */
	vsnprintf(text, sizeof(text), vaf->fmt, ap);
	va_end(ap);
	spin_lock_irqsave(&m->lock, flags);
	for (i = 0; i < m->n; i++)
		if (qla_probe_msg_is(&m->want[i], buf, text))
			m->seen[i] = true;
	for (i = 0; i < m->n_dma; i++)
		if (qla_probe_msg_is(&m->dma[i].msg, buf, text))
			m->dma[i].seen = true;
	/* Its last words, or the DIF bundling's failed dsd, which returns at once */
	if (strstr(text, "Memory allocation failure.") || strstr(text, "failed alloc dsd"))
		m->mem_failed = true;
	spin_unlock_irqrestore(&m->lock, flags);
}

static void qla_probe_msgs_stop(void *data)
{
	unregister_trace_ql_dbg_log(qla_probe_msg_traced, data);
	tracepoint_synchronize_unregister();
}

static void qla_probe_msg_set(struct qla_probe_msg *w, u16 id, bool dbg, const char *text)
{
	w->id = id;
	w->text = text;
	scnprintf(w->tag, sizeof(w->tag), "]-%04x:", id + (dbg ? QLA_TEST_DBG_OFFSET : 0));
}

static void qla_probe_msg_want(struct qla_probe_msgs *m, bool when, u16 id, bool dbg,
			       const char *text)
{
	if (when && !WARN_ON(m->n == QLA_PROBE_MSGS))
		qla_probe_msg_set(&m->want[m->n++], id, dbg, text);
}

static void qla_probe_dma_msg_want(struct qla_probe_msgs *m, size_t size, u16 id, bool dbg,
				   const char *text)
{
	struct qla_probe_dma_msg *w;

	if (WARN_ON(m->n_dma == QLA_PROBE_DMA_MSGS))
		return;
	w = &m->dma[m->n_dma++];
	w->size = size;
	qla_probe_msg_set(&w->msg, id, dbg, text);
}

/*
 * The DMA buffers of qla2x00_mem_alloc() that name themselves when they
 * fail, told apart by their sizes, which differ.
 */
static void qla_probe_dma_msgs_want(struct kunit *test, struct qla_probe_msgs *m,
				    const struct qla_probe_isp *isp)
{
	unsigned int i, j;

	qla_probe_dma_msg_want(m, (isp->req_length + 1) * sizeof(request_t), 0x0029, false,
			       "Failed to allocate memory for req_ring.");
	qla_probe_dma_msg_want(m, (isp->rsp_length + 1) * sizeof(response_t), 0x002b, false,
			       "Failed to allocate memory for rsp_ring.");
	qla_probe_dma_msg_want(m, SFP_DEV_SIZE, 0x011b, true,
			       "Unable to allocate memory for SFP read-data.");
	qla_probe_dma_msg_want(m, sizeof(struct qla_flt_header) + FLT_REGIONS_SIZE, 0x011b, true,
			       "Unable to allocate memory for FLT.");
	qla_probe_dma_msg_want(m, sizeof(struct fc_els_ls_rjt) + 16, 0xffff, true,
			       "Alloc failed for els reject cmd.");
#ifdef QLA_PROBE_VP_MAP
	qla_probe_dma_msg_want(m, sizeof(struct fcnvme_ls_rjt), 0xffff, true,
			       "Alloc failed for nvme fc reject cmd.");
#endif
	for (i = 0; i < m->n_dma; i++)
		for (j = 0; j < i; j++)
			KUNIT_ASSERT_NE_MSG(test, m->dma[i].size, m->dma[j].size, "\"%s\", \"%s\"",
					    m->dma[i].msg.text, m->dma[j].msg.text);
}

/*
 * In a step that failed one of those buffers (the DMA API's tracepoint
 * says which, by its size), qla2x00_mem_alloc() named it.
 */
static void qla_probe_expect_dma_msgs(struct kunit *test, struct qla_probe_msgs *m,
				      const struct qla_probe_dma *d, unsigned int nth)
{
	unsigned int i, j, n;
	const size_t *sizes;

	n = qla_probe_dma_failed(d, &sizes);
	for (i = 0; i < n; i++)
		for (j = 0; j < m->n_dma; j++)
			KUNIT_EXPECT_TRUE_MSG(test, m->dma[j].size != sizes[i] || m->dma[j].seen,
					      "allocation %u failed: no message %04x \"%s\"", nth,
					      m->dma[j].msg.id, m->dma[j].msg.text);
}

/*
 * What qla2x00_mem_alloc() prints when a slab allocation of it fails;
 * with @cover, a walk of slab allocations must have seen each. The
 * messages of its DMA buffers are checked step by step instead, in the
 * steps that failed one (see qla_probe_one_dma_fail_nth_test()).
 */
static struct qla_probe_msgs *qla_probe_msgs_start(struct kunit *test,
						   const struct qla_probe_one_case *c, bool cover)
{
	const struct qla_probe_isp *isp = c->isp;
	bool edif = qla_probe_edif(c);
	struct qla_probe_msgs *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	bool dif = c->params.enabledif;	/* which the probe takes from 1 to 2 only */

	KUNIT_ASSERT_NOT_NULL(test, m);
	spin_lock_init(&m->lock);
	if (cover) {
		qla_probe_msg_want(m, dif || edif, 0x0023, false,
				   "Failed to allocate memory for dl_dma_pool.");
		qla_probe_msg_want(m, dif || edif, 0x0024, false,
				   "Failed to allocate memory for fcp_cmnd_dma_pool.");
		qla_probe_msg_want(m, dif, 0x0024, true,
				   "qla2x00_mem_alloc: failed create dif_bundl_pool");
		qla_probe_msg_want(m, dif, 0xe0ee, true, "qla2x00_mem_alloc: failed alloc dsd");
		qla_probe_msg_want(m, dif, 0xe0ee, true,
				   "qla2x00_mem_alloc: failed alloc ->dsd_addr");
		qla_probe_msg_want(m, true, 0x0028, false, "Failed to allocate memory for req.");
		qla_probe_msg_want(m, true, 0x002a, false, "Failed to allocate memory for rsp.");
		qla_probe_msg_want(m, isp->nvram_npiv_size, 0x002d, false,
				   "Failed to allocate memory for npiv_info.");
		qla_probe_msg_want(m, true, 0x011b, true, "Unable to allocate purex_dma_pool.");
		qla_probe_msg_want(m, true, 0x0030, false, "Memory allocation failure.");
	}
	qla_probe_dma_msgs_want(test, m, isp);
	qla_test_param_set(test, &ql2xextended_error_logging_ktrace, ql_dbg_init);
	KUNIT_ASSERT_EQ(test, register_trace_ql_dbg_log(qla_probe_msg_traced, m), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, qla_probe_msgs_stop, m), 0);
	return m;
}

static void qla_probe_expect_msgs(struct kunit *test, struct qla_probe_msgs *m)
{
	unsigned int i;

	for (i = 0; i < m->n; i++)
		KUNIT_EXPECT_TRUE_MSG(test, m->seen[i], "no message %04x \"%s\" in the walk",
				      m->want[i].id, m->want[i].text);
}

struct qla_probe_env {
	struct pci_dev *pdev;
	struct pci_device_id id;
	struct qla_probe_seen *seen;
	struct isp_operations *ops;
	int (*init)(scsi_qla_host_t *vha);
	struct qla_probe_params params;	/* the user's, given back */
	int ini_mode;			/* the user's qlini_mode, as ql2x_ini_mode keeps it */
	const struct qla_probe_one_case *row;
	struct qla_test_log *log;
	struct qla_probe_dma *dma;
	struct qla_probe_msgs *msgs;	/* a walk's */
	char *pools_page;
};

static void qla_probe_params_set(const struct qla_probe_params *p)
{
	ql2xenablemsix = p->enablemsix;
	ql2xmaxqdepth = p->maxqdepth;
	ql2xenabledif = p->enabledif;
	ql2xmaxlun = p->maxlun;
	ql2xsecenable = p->secenable;
	ql2x_ini_mode = p->target ? QLA2XXX_INI_MODE_EXCLUSIVE : QLA2XXX_INI_MODE_ENABLED;
}

static void qla_probe_restore(void *data)
{
	struct qla_probe_env *e = data;

	e->ops->initialize_adapter = e->init;
	qla_probe_params_set(&e->params);
	ql2x_ini_mode = e->ini_mode;
	qla_probe_seen = NULL;
	qla_probe_pools_page = NULL;
}

static struct qla_probe_env *qla_probe_env(struct kunit *test, const struct qla_probe_one_case *c)
{
	struct qla_probe_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	e->seen = kunit_kzalloc(test, sizeof(*e->seen), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e->seen);
	e->pools_page = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e->pools_page);
	e->pdev = qla_probe_borrow(test, c);
	e->id.vendor = PCI_VENDOR_ID_QLOGIC;
	e->id.device = c->device;
	e->ops = c->isp->ops;
	e->row = c;
	e->init = e->ops->initialize_adapter;
	e->params = (struct qla_probe_params){ ql2xenablemsix, ql2xmaxqdepth, ql2xenabledif,
					       ql2xmaxlun, ql2xsecenable };
	e->ini_mode = ql2x_ini_mode;
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, qla_probe_restore, e));
	e->ops->initialize_adapter = qla_probe_init_fails;
	qla_probe_params_set(&c->params);
	qla_probe_seen = e->seen;
	qla_probe_pools_page = e->pools_page;
	if (c->log)
		e->log = qla_test_log_start(test, ql_dbg_init);
	e->dma = qla_probe_dma_start(test, &e->pdev->dev);
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

/*
 * The DMA pools qla2x00_mem_alloc() created, each named after the driver
 * and the device ID, as their sysfs file shows them to the user: the
 * small blocks' (the MS IOCB, the EX-INIT-CB, the SF-INIT-CB and the
 * async port database of the families that have them, in use), the DSD
 * list's and FCP command's (DIF or EDIF), the DIF bundling buffers' (the
 * unusable ones in use) and the PUREX one.
 */
static void qla_probe_expect_pools(struct kunit *test, const struct qla_probe_one_case *c,
				   const struct qla_probe_seen *s)
{
	const struct qla_probe_isp *isp = c->isp;
	struct {
		unsigned int size, active;
		bool want, found;
	} pools[] = {
		{ DMA_POOL_SIZE, !isp->sns_cmd + isp->ex_init_cb + isp->sf_init_cb + !isp->mem_only,
		  true },
		{ DSD_LIST_DMA_POOL_SIZE, 0, qla_probe_dl_pools(c) },
		{ FCP_CMND_DMA_POOL_SIZE, 0, qla_probe_dl_pools(c) },
		{ DIF_BUNDLING_DMA_POOL_SIZE, s->ha.pool.unusable.count, !!c->enabledif },
		{ ELS_MAX_PAYLOAD, 0, true },
	};
	unsigned int i, active, size;
	char name[20], want[20];
	const char *line;

	KUNIT_EXPECT_TRUE_MSG(test, s->pools[0], "no \"pools\" file");
	if (!s->pools[0])
		return;
	snprintf(want, sizeof(want), "%s_%d", QLA2XXX_DRIVER_NAME, c->device);
	KUNIT_EXPECT_TRUE(test, str_has_prefix(s->pools, "poolinfo - 0.1\n"));
	for (line = strchr(s->pools, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
		int fields = sscanf(line + 1, "%19s %u %*u %u", name, &active, &size);

		KUNIT_ASSERT_EQ_MSG(test, fields, 3, "in:\n%s", s->pools);
		KUNIT_EXPECT_STREQ(test, name, want);
		for (i = 0; i < ARRAY_SIZE(pools); i++) {
			if (pools[i].want && !pools[i].found && pools[i].size == size &&
			    pools[i].active == active) {
				pools[i].found = true;
				break;
			}
		}
		KUNIT_EXPECT_LT_MSG(test, i, ARRAY_SIZE(pools),
				    "a pool of %u-byte blocks, %u in use, in:\n%s", size, active,
				    s->pools);
	}
	for (i = 0; i < ARRAY_SIZE(pools); i++)
		KUNIT_EXPECT_EQ_MSG(test, pools[i].found, pools[i].want,
				    "the pool of %u-byte blocks, %u in use, in:\n%s", pools[i].size,
				    pools[i].active, s->pools);
}

/*
 * What qla2x00_mem_alloc() handed the init: what every adapter gets, what
 * its family and the module parameters add, and the rest left NULL.
 */
static void qla_probe_expect_mem(struct kunit *test, const struct qla_probe_one_case *c,
				 const struct qla_probe_seen *s, bool failed)
{
	const struct qla_probe_isp *isp = c->isp;
	const struct qla_hw_data *ha = &s->ha;
	bool tgt = c->params.target;

	KUNIT_EXPECT_EQ_MSG(test, !!ha->tgt.atio_ring, tgt, "the ATIO ring");
	KUNIT_EXPECT_NOT_NULL(test, ha->init_cb);
	KUNIT_EXPECT_NOT_NULL(test, ha->host_map.h.mempool);
	KUNIT_EXPECT_NOT_NULL(test, ha->gid_list);
	KUNIT_EXPECT_NOT_NULL(test, ha->srb_mempool);
	KUNIT_EXPECT_EQ_MSG(test, !!ha->ctx_mempool, qla_probe_ctx_pool(c), "the CT6 pool");
	if (ha->ctx_mempool) {
		KUNIT_EXPECT_NOT_NULL(test, s->ctx_cachep);
		KUNIT_EXPECT_PTR_EQ(test, s->ctx_pool_cache, s->ctx_cachep);
	}
	KUNIT_EXPECT_NOT_NULL(test, ha->nvram);
	KUNIT_EXPECT_NOT_NULL(test, ha->s_dma_pool);
	KUNIT_EXPECT_EQ_MSG(test, !!ha->dl_dma_pool, qla_probe_dl_pools(c), "the DSD list pool");
	KUNIT_EXPECT_EQ_MSG(test, !!ha->fcp_cmnd_dma_pool, qla_probe_dl_pools(c),
			    "the FCP command pool");
	KUNIT_EXPECT_EQ_MSG(test, !!ha->dif_bundl_pool, !!c->enabledif, "the DIF bundling pool");
	if (ha->dif_bundl_pool) {
		/*
		 * 128 buffers tried: those that cross 4 GiB kept, the rest given
		 * back; one the pool failed to give (@failed) is not counted.
		 */
		unsigned int tried = ha->pool.good.count + ha->pool.unusable.count;

		KUNIT_EXPECT_LE(test, tried, 128);
		KUNIT_EXPECT_GE(test, tried, 128 - failed);
		KUNIT_EXPECT_EQ(test, s->dif_good_listed, 0);
		KUNIT_EXPECT_EQ(test, s->dif_unusable_listed, ha->pool.unusable.count);
		KUNIT_EXPECT_EQ(test, s->dif_crossing, ha->pool.unusable.count);
		KUNIT_EXPECT_EQ(test, ha->dif_bundle_kallocs, ha->pool.unusable.count);
		KUNIT_EXPECT_EQ(test, ha->dif_bundle_dma_allocs, ha->pool.unusable.count);
	}
	KUNIT_EXPECT_EQ_MSG(test, !!ha->sns_cmd, isp->sns_cmd, "the SNS command");
	KUNIT_EXPECT_EQ_MSG(test, !!ha->ms_iocb, !isp->sns_cmd, "the MS IOCB");
	KUNIT_EXPECT_EQ_MSG(test, !!ha->ct_sns, !isp->sns_cmd, "the CT SNS command");
	KUNIT_EXPECT_NOT_NULL(test, s->req.ring);
	KUNIT_EXPECT_NOT_NULL(test, s->rsp.ring);
	KUNIT_EXPECT_PTR_EQ(test, s->rsp.hw, s->vha.hw);
	KUNIT_EXPECT_EQ_MSG(test, !!ha->npiv_info, !!isp->nvram_npiv_size, "the NPIV entries");
	KUNIT_EXPECT_EQ_MSG(test, !!ha->ex_init_cb, isp->ex_init_cb, "the EX-INIT-CB");
	KUNIT_EXPECT_EQ_MSG(test, !!ha->sf_init_cb, isp->sf_init_cb, "the SF-INIT-CB");
	KUNIT_EXPECT_EQ_MSG(test, !!ha->async_pd, !isp->mem_only, "the async port database");
	KUNIT_EXPECT_TRUE(test, s->vp_list_empty);
	/*
	 * Before firmware interface 2 the loop IDs below the first SNS one,
	 * the management server's and the broadcast's are taken; after it
	 * only the management server's (NPH_MGMT_SERVER, by the probe).
	 */
	KUNIT_EXPECT_EQ(test, s->loop_ids_reserved, isp->mem_only ? 1 : SNS_FIRST_LOOP_ID + 2);
	KUNIT_EXPECT_NOT_NULL(test, ha->sfp_data);
	KUNIT_EXPECT_NOT_NULL(test, ha->flt);
	KUNIT_EXPECT_NOT_NULL(test, ha->purex_dma_pool);
	KUNIT_EXPECT_EQ(test, ha->elsrej.size, sizeof(struct fc_els_ls_rjt) + 16);
	KUNIT_EXPECT_NOT_NULL(test, ha->elsrej.c);
	KUNIT_EXPECT_EQ(test, s->elsrej.er_cmd, ELS_LS_RJT);
	KUNIT_EXPECT_EQ(test, s->elsrej.er_reason, ELS_RJT_LOGIC);
	KUNIT_EXPECT_EQ(test, s->elsrej.er_explan, ELS_EXPL_UNAB_DATA);
	qla_probe_expect_pools(test, c, s);
#ifdef QLA_PROBE_VP_MAP
	KUNIT_EXPECT_EQ_MSG(test, !!ha->vp_map, tgt || qla_probe_edif(c), "the virtual port map");
	KUNIT_EXPECT_EQ(test, ha->lsrjt.size, sizeof(struct fcnvme_ls_rjt));
	KUNIT_EXPECT_NOT_NULL(test, ha->lsrjt.c);
#endif
}

/*
 * With the init class of debug messages on, qla2x00_mem_alloc() names
 * each block it got as it gets it, and only those; qla2x00_free_irqs_of()
 * says when it disabled MSI-X.
 */
static void qla_probe_expect_log(struct kunit *test, const struct qla_probe_one_case *c,
				 const struct qla_probe_seen *s, struct qla_test_log *log)
{
	const struct qla_probe_isp *isp = c->isp;
	const struct {
		u16 id;
		const char *text;
		bool want;
	} lines[] = {
		{ 0x0021, "ctx_cachep=", qla_probe_ctx_pool(c) },
		{ 0x0022, "init_cb=", true },
		{ 0x0024, "qla2x00_mem_alloc: dif dma pool (good=", !!c->enabledif },
		{ 0x0025, "dl_dma_pool=", qla_probe_dl_pools(c) },
		{ 0x0026, "sns_cmd: ", isp->sns_cmd },
		{ 0x0027, "ms_iocb=", !isp->sns_cmd },
		{ 0x002c, "req=", true },
		{ 0x002e, "ex_init_cb=", isp->ex_init_cb },
		{ 0x0199, "sf_init_cb=", isp->sf_init_cb },
		{ 0x002f, "async_pd=", !isp->mem_only },
		{ 0x0123, "loop_id_map=", true },
		{ 0x0042, "Disabled MSI-X.", c->irq == QLA_PROBE_MSIX },
	};
	unsigned int i;

	KUNIT_EXPECT_LT_MSG(test, log->len, sizeof(log->text) - 1, "messages were left out");
	for (i = 0; i < ARRAY_SIZE(lines); i++)
		KUNIT_EXPECT_EQ_MSG(test, qla_test_logged_id(log, lines[i].id + QLA_TEST_DBG_OFFSET,
							     lines[i].text),
				    lines[i].want, "message %04x \"%s\" in:\n%s", lines[i].id,
				    lines[i].text, log->text);
}

static void qla_probe_one_test(struct kunit *test)
{
	const struct qla_probe_one_case *c = test->param_value;
	struct qla_probe_env *e = qla_probe_env(test, c);
	struct qla_probe_seen *s = e->seen;
	struct kmem_cache *cache = ctx_cachep;
	int ret;

	ret = qla2x00_probe_one(e->pdev, &e->id);

	qla_probe_expect_undone(test, e->pdev);
	qla_probe_expect_dma_freed(test, e->dma);
	/*
	 * The CT6 cache, made by the first probe that needs it, outlives
	 * the adapter: the module's exit destroys it. A later probe takes
	 * it as it is.
	 */
	if (cache)
		KUNIT_EXPECT_PTR_EQ(test, ctx_cachep, cache);
	else if (qla_probe_ctx_pool(c))
		KUNIT_EXPECT_PTR_EQ(test, ctx_cachep, s->ctx_cachep);
	else
		KUNIT_EXPECT_NULL(test, ctx_cachep);
	if (c->err) {
		KUNIT_EXPECT_EQ(test, ret, c->err);
		KUNIT_EXPECT_EQ(test, s->calls, 0);
		return;
	}
	KUNIT_EXPECT_EQ(test, ret, -ENODEV);
	KUNIT_ASSERT_EQ(test, s->calls, 1);
	qla_probe_expect_isp(test, c->isp, s);
	qla_probe_expect_mem(test, c, s, false);
	if (e->log)
		qla_probe_expect_log(test, c, s, e->log);
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

/*
 * qla2x00_free_irqs_of() on the suite's function, with the interrupts a
 * probe leaves: MSI-X vectors, of which the adapter's (msix_count) with a
 * handler (have_irq) are freed through their own dev_id, each affinity
 * notifier cleared first; or an INTx or MSI handler with response queue
 * zero as its dev_id, freed when the caller hands that queue (none was
 * requested when it cannot). The vectors are given back either way.
 */
struct qla_free_irqs_case {
	const char *name;
	enum qla_probe_irq irq;
	bool rsp;		/* the caller hands response queue zero */
};

static const struct qla_free_irqs_case qla_free_irqs_cases[] = {
	{ "MSI-X: the vectors with a handler, through their own dev_id", QLA_PROBE_MSIX, true },
	{ "MSI: the handler of response queue zero", QLA_PROBE_MSI, true },
	{ "INTx: the handler of response queue zero", QLA_PROBE_INTX, true },
	{ "MSI, no response queue: no handler was requested", QLA_PROBE_MSI, false },
};

KUNIT_ARRAY_PARAM_DESC(qla_free_irqs, qla_free_irqs_cases, name);

/*
 * MSI-X: the adapter's two vectors, the second without a handler, and an
 * entry past them (a third vector) that claims one: the function must not
 * read it.
 */
#define QLA_FREE_IRQS_VECTORS	3
#define QLA_FREE_IRQS_ADAPTER	2

struct qla_free_irqs_vec {
	int irq;
	bool requested;		/* by the case, with this as dev_id */
	bool notified;		/* an affinity notifier set by the case */
	bool released;		/* and released since */
	struct irq_affinity_notify notify;
};

struct qla_free_irqs_env {
	struct pci_dev *pdev;
	struct qla_free_irqs_vec vec[QLA_FREE_IRQS_VECTORS];
	struct rsp_que rsp;
	struct qla_hw_data ha;
	scsi_qla_host_t vha;
	void *entries;		/* the MSI-X entries */
	bool entries_freed;
	int rsp_irq;		/* where rsp's handler is, or 0 */
};

static irqreturn_t qla_free_irqs_handler(int irq, void *dev_id)
{
	return IRQ_NONE;
}

static void qla_free_irqs_notify(struct irq_affinity_notify *notify, const cpumask_t *mask)
{
}

static void qla_free_irqs_release(struct kref *ref)
{
	struct irq_affinity_notify *n = container_of(ref, struct irq_affinity_notify, kref);

	container_of(n, struct qla_free_irqs_vec, notify)->released = true;
}

/* What the function under test left of the case's: notifiers, handlers, vectors. */
static void qla_free_irqs_undo(void *data)
{
	struct qla_free_irqs_env *e = data;
	unsigned int i;

	if (e->pdev->msix_enabled) {
		for (i = 0; i < QLA_FREE_IRQS_VECTORS; i++) {
			struct qla_free_irqs_vec *v = &e->vec[i];

			if (v->notified && !v->released)
				irq_set_affinity_notifier(v->irq, NULL);
			if (v->requested && irq_has_action(v->irq))
				free_irq(v->irq, v);
		}
	}
	if (e->rsp_irq && irq_has_action(e->rsp_irq))
		free_irq(e->rsp_irq, &e->rsp);
	pci_free_irq_vectors(e->pdev);
	if (!e->entries_freed)
		kfree(e->entries);
}

static void qla_free_irqs_msix(struct kunit *test, struct qla_free_irqs_env *e)
{
	struct qla_hw_data *ha = &e->ha;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, pci_alloc_irq_vectors(e->pdev, QLA_FREE_IRQS_VECTORS,
						    QLA_FREE_IRQS_VECTORS, PCI_IRQ_MSIX),
			QLA_FREE_IRQS_VECTORS);
	e->entries = kcalloc(QLA_FREE_IRQS_VECTORS, sizeof(*ha->msix_entries), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e->entries);
	ha->msix_entries = e->entries;
	ha->msix_count = QLA_FREE_IRQS_ADAPTER;
	ha->flags.msix_enabled = 1;
	for (i = 0; i < QLA_FREE_IRQS_VECTORS; i++) {
		struct qla_free_irqs_vec *v = &e->vec[i];
		struct qla_msix_entry *q = &ha->msix_entries[i];

		v->irq = pci_irq_vector(e->pdev, i);
		KUNIT_ASSERT_GT(test, v->irq, 0);
		q->vector = v->irq;
		q->entry = i;
		q->handle = v;
		if (i == 1)
			continue;	/* the adapter's vector without a handler */
		q->have_irq = 1;
		if (i < QLA_FREE_IRQS_ADAPTER) {
			KUNIT_ASSERT_EQ(test, request_irq(v->irq, qla_free_irqs_handler, 0,
							  "qla2xxx_kunit", v), 0);
			v->requested = true;
		}
		v->notify.notify = qla_free_irqs_notify;
		v->notify.release = qla_free_irqs_release;
		KUNIT_ASSERT_EQ(test, irq_set_affinity_notifier(v->irq, &v->notify), 0);
		v->notified = true;
	}
}

static void qla_free_irqs_of_test(struct kunit *test)
{
	const struct qla_free_irqs_case *c = test->param_value;
	struct pci_dev *pdev = qla_probe_pdev;
	struct qla_free_irqs_env *e;
	struct qla_test_frees *f;
	struct qla_test_log *log;

	if (!IS_ENABLED(CONFIG_PCI_MSI) || !IS_ENABLED(CONFIG_SMP))
		kunit_skip(test, "no CONFIG_PCI_MSI, or no CONFIG_SMP for affinity notifiers");
	if (!pdev)
		kunit_skip(test, "no PCI function with MSI and MSI-X free to lend");
	e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	e->pdev = pdev;
	e->ha.pdev = pdev;
	e->vha.hw = &e->ha;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, qla_free_irqs_undo, e), 0);
	log = qla_test_log_start(test, ql_dbg_init);
	f = qla_test_frees_start(test);

	if (c->irq == QLA_PROBE_MSIX) {
		qla_free_irqs_msix(test, e);
		qla_test_track(test, f, e->entries);
	} else {
		if (c->irq == QLA_PROBE_MSI) {
			KUNIT_ASSERT_EQ(test, pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI), 1);
			e->ha.flags.msi_enabled = 1;
		}
		if (c->rsp) {
			unsigned long flags = c->irq == QLA_PROBE_INTX ? IRQF_SHARED : 0;

			e->rsp_irq = pci_irq_vector(pdev, 0);
			KUNIT_ASSERT_GT(test, e->rsp_irq, 0);
			KUNIT_ASSERT_EQ(test, request_irq(e->rsp_irq, qla_free_irqs_handler, flags,
							  "qla2xxx_kunit", &e->rsp), 0);
		}
	}

	qla2x00_free_irqs_of(&e->vha, c->rsp ? &e->rsp : NULL);

	e->entries_freed = e->entries && qla_test_kfrees(f, e->entries) > 0;
	if (e->rsp_irq)
		KUNIT_EXPECT_FALSE(test, irq_has_action(e->rsp_irq));
	KUNIT_EXPECT_FALSE(test, pdev->msi_enabled);
	KUNIT_EXPECT_FALSE(test, pdev->msix_enabled);
	KUNIT_EXPECT_FALSE(test, e->ha.flags.msix_enabled);
	KUNIT_EXPECT_NULL(test, e->ha.msix_entries);
	KUNIT_EXPECT_EQ(test, qla_test_logged_id(log, 0x0042 + QLA_TEST_DBG_OFFSET,
						 "Disabled MSI-X."), c->irq == QLA_PROBE_MSIX);
	if (c->irq != QLA_PROBE_MSIX)
		return;
	KUNIT_EXPECT_EQ(test, qla_test_kfrees(f, e->entries), 1);
	/* The handler went, its notifier cleared first; the entry past was not read */
	KUNIT_EXPECT_TRUE(test, e->vec[0].released);
	KUNIT_EXPECT_FALSE(test, e->vec[2].released);
}

#ifdef CONFIG_KUNIT_FAULT_INJECTION
static void qla_probe_nth_setup(struct kunit *test, void *ctx)
{
	struct qla_probe_env *e = ctx;

	memset(e->seen, 0, sizeof(*e->seen));
	qla_probe_dma_reset(e->dma);
	if (e->msgs) {
		unsigned int i;

		e->msgs->mem_failed = false;
		for (i = 0; i < e->msgs->n_dma; i++)
			e->msgs->dma[i].seen = false;
	}
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
	/* The adapter's memory not allocated: the probe says so */
	if (e->msgs && e->msgs->mem_failed)
		KUNIT_EXPECT_EQ_MSG(test, err, -ENOMEM, "allocation %u failed", nth);
	if (e->msgs)
		qla_probe_expect_dma_msgs(test, e->msgs, e->dma, nth);
	/* Whatever failed, the init gets all it would have had */
	if (e->seen->calls)
		qla_probe_expect_mem(test, e->row, e->seen, failed);
	qla_probe_expect_undone(test, e->pdev);
	qla_probe_expect_dma_freed(test, e->dma);
}

/*
 * qla2x00_probe_one() with each of its allocations failed in turn (its DMA
 * buffers' pages too, where the DMA API has tracepoints to count their
 * frees), then with none, when the init fails: each time the
 * probe fails, every kmalloc() of it is freed once (kunit_fail_nth_walk()),
 * and every DMA buffer, queue zero's too at every step from
 * qla2x00_mem_alloc() on, and the function is left disabled with its BARs
 * and interrupts free. When it reaches the init all the same, the init
 * gets all it would have had. Over the walk, qla2x00_mem_alloc() says
 * which of its allocations failed, each in its own message.
 */
static void qla_probe_walk(struct kunit *test, bool all_pages)
{
	const struct qla_probe_one_case *c = test->param_value;
	const struct kunit_fail_nth walk = {
		.what = "qla2x00_probe_one()",
		.max = QLA_PROBE_MAX_NTH,
		.fails = true,
		.all_pages = all_pages,
		.setup = qla_probe_nth_setup,
		.call = qla_probe_nth_call,
		.undo = qla_probe_nth_undo,
	};
	struct qla_probe_env *e = qla_probe_env(test, c);

	if (!c->early)
		e->msgs = qla_probe_msgs_start(test, c, c->msgs && !all_pages);
	kunit_fail_nth_walk(test, &walk, e);
	if (e->msgs)
		qla_probe_expect_msgs(test, e->msgs);
}

static void qla_probe_one_fail_nth_test(struct kunit *test)
{
	qla_probe_walk(test, false);
}

/*
 * The walk again with the pages of the probe's DMA buffers failed too
 * (where the DMA API has tracepoints, 6.12 on, their frees are counted).
 * Slab refills then take pages as they come, so that one step may fail
 * an allocation the next does not reach: each step is checked as above,
 * but not that every message came; a step whose failed page was a DMA
 * buffer's that qla2x00_mem_alloc() names (the tracepoint gives its
 * size) must have printed that name.
 */
static void qla_probe_one_dma_fail_nth_test(struct kunit *test)
{
	qla_probe_walk(test, true);
}

/*
 * The rows marked for a walk: an ISP2200 on INTx (its SNS command
 * buffer), an adapter before firmware interface 2 on INTx in target mode,
 * and without DIF (its error path then has no DIF pools to undo),
 * a 27xx on INTx (its own blocks), one after firmware interface 2 without
 * an INTx line (it fails at its interrupts), and one whose I/O space
 * set-up fails. MSI and MSI-X are not walked: a failed allocation of
 * register_irq_proc() makes freeing the vector's descriptor warn.
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
	KUNIT_CASE_PARAM(qla_free_irqs_of_test, qla_free_irqs_gen_params),
#ifdef CONFIG_KUNIT_FAULT_INJECTION
	KUNIT_CASE_PARAM_ATTR(qla_probe_one_fail_nth_test, qla_probe_nth_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_PARAM_ATTR(qla_probe_one_dma_fail_nth_test, qla_probe_nth_gen_params,
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
