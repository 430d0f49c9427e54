/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A PCI function for KUnit cases to lend a driver's code: the cells boot
 * QEMU with a device no driver of theirs binds (an e1000e), whose BARs,
 * MSI and MSI-X are real.
 */

#ifndef _KUNIT_PCI_LENDER_H
#define _KUNIT_PCI_LENDER_H

#include <linux/pci.h>

/**
 * kunit_pci_find_lender() - a PCI function no driver holds, with MSI and MSI-X
 *
 * Return: the first such function, with a reference (pci_dev_put() it),
 * or NULL.
 */
static inline struct pci_dev *kunit_pci_find_lender(void)
{
	struct pci_dev *pdev = NULL;

	for_each_pci_dev(pdev)
		if (!pdev->dev.driver && pci_find_capability(pdev, PCI_CAP_ID_MSI) &&
		    pci_find_capability(pdev, PCI_CAP_ID_MSIX))
			return pdev;
	return NULL;
}

/**
 * kunit_pci_lender_enable() - the lender, enabled once for a suite
 *
 * For a suite's suite_init: the function's first enable can be slow (on
 * x86 it evaluates the ACPI _PRT, which a debug kernel under TCG runs
 * into its 30 s AML loop timeout), so the cases share one.
 *
 * Return: the function, enabled and with a reference, or NULL: the cases
 * skip.
 */
static inline struct pci_dev *kunit_pci_lender_enable(void)
{
	struct pci_dev *pdev = kunit_pci_find_lender();

	if (pdev && pci_enable_device_mem(pdev)) {
		pci_dev_put(pdev);
		pdev = NULL;
	}
	return pdev;
}

/**
 * kunit_pci_lender_release() - give back what kunit_pci_lender_enable() took
 * @pdev: the function, or NULL
 *
 * For the suite's suite_exit.
 */
static inline void kunit_pci_lender_release(struct pci_dev *pdev)
{
	if (!pdev)
		return;
	pci_disable_device(pdev);
	pci_dev_put(pdev);
}

#endif /* _KUNIT_PCI_LENDER_H */
