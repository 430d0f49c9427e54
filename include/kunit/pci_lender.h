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

#endif /* _KUNIT_PCI_LENDER_H */
