# SPDX-License-Identifier: GPL-2.0
#
# The front door: `make` sets up and runs the x86_64 KUnit job, `make check`
# runs every test. `make help` lists the targets and knobs.

# The matrix (kernels, arches, the main base) is declared once, in
# kunit/matrix.py; the Makefile asks it.
MATRIX  := /usr/bin/python3 kunit/matrix.py
KERNELS := $(shell $(MATRIX) kernels)
ARCHES  := $(shell $(MATRIX) arches)
# make check runs the debug leg and the mutants on this base only; make
# check-full on every base.
MAIN_KERNEL := $(shell $(MATRIX) main-kernel)
DEBUG_ARCH  := $(shell $(MATRIX) debug-arch)
KERNEL  ?= $(MAIN_KERNEL)
ARCH    ?= x86_64
JOBS    ?= $(shell nproc)
TIMEOUT ?= 600
FILTER  ?=
FORCE   ?=
MUTANTS ?=
TARGET  ?=
RECORD  ?=
BOOT    ?=
DEBUG   ?=

ifneq ($(CACHE),)
export CACHE := $(abspath $(CACHE))
endif
export TIMEOUT

SYNC    := kunit/sync --kernel $(KERNEL)
RUN     := kunit/run --kernel $(KERNEL) --jobs $(JOBS)
SUMMARY := kunit/summary
BOOTS   := $(shell /usr/bin/python3 kunit/run --list-boots)
INT_BOOTS := $(shell /usr/bin/python3 kunit/run --list-integration-boots)
int_cell   = $(1)-integration$(if $(filter default,$(2)),,-$(2))

.PHONY: all help setup sync tree test check check-full check-debug check-tools checkpatch picture \
	mutants mutation series bench clean apparmor-blobs integration canary list-cells

all: test

help:
	@echo 'Targets:'
	@echo '  make              set up, sync and run the KUnit suites on $$ARCH (x86_64)'
	@echo '  make check        all tests: every kernel x arch cell (KUnit, its extra boots,'
	@echo '                    integration), the debug leg and a share of the kept reverts and'
	@echo '                    generated mutants of $(MAIN_KERNEL) on x86_64, tool tests, checkpatch'
	@echo '                    (what CI runs)'
	@echo '  make check-full   make check with every kept revert and generated mutant instead of'
	@echo '                    the shares, and the debug leg and mutants of every other base (hours)'
	@echo '  make setup        install missing Debian packages (as root; else prints the line)'
	@echo '  make sync         lay the overlay and patches over the cached tree'
	@echo '                    (SYNC_ARGS=--dry-run shows what would change)'
	@echo '  make tree         print the synced tree'"'"'s path'
	@echo '  make test         sync, then kunit.py run for $$KERNEL on $$ARCH, then the table'
	@echo '                    (BOOT=NAME: the same kernel booted as kunit/boots says instead)'
	@echo '  make check-debug  every suite under KASAN, UBSAN, KFENCE, lockdep, debug objects'
	@echo '                    and fault injection on every kernel x arch, and the leg'"'"'s canary'
	@echo '                    (make check runs it on $(MAIN_KERNEL) x86_64; make test DEBUG=1 for one)'
	@echo '  make canary       the debug leg'"'"'s canary on $$KERNEL and $$ARCH: a KASAN report must fail it'
	@echo '  make integration  the kernel of $$ARCH booted with an initramfs of the project'"'"'s'
	@echo '                    C programs (kunit/integration/), each boot of its boots file'
	@echo '                    (BOOT=NAME: only that one; make check runs both arches)'
	@echo '  make check-tools  the tools'"'"' own tests (python3 -m unittest)'
	@echo '  make checkpatch   scripts/checkpatch.pl --strict over overlay C files and patches'
	@echo '  make mutants      apply each kept revert of a seed fix of $$KERNEL'
	@echo '                    (kunit/mutants/ and kunit/mutants/<kernel>/), expect its suites to fail'
	@echo '                    (MUTANTS="a b" picks some)'
	@echo '  make mutation     generated mutants of every target function (kunit/mutation/targets)'
	@echo '                    in one schema kernel, one boot each; a table per function and'
	@echo '                    every survivor (TARGET=FILE|FUNCTION[,...] picks some; RECORD=1 writes'
	@echo '                    the scores to kunit/mutation/scores); two boots at once, one per'
	@echo '                    core; a mutant booted before over the same tree keeps its outcome'
	@echo '                    (FRESH=1 boots it again); MUTANT=ID[,...] boots only those (a'
	@echo '                    survivor again; ID or its hash); make check runs a share, check-full all'
	@echo '  make series       the overlay as a git format-patch series (prints its directory);'
	@echo '                    make check also git-ams it onto the pristine tree'
	@echo '  make apparmor-blobs  compile kunit/apparmor/profiles/ with apparmor_parser into'
	@echo '                    security/apparmor/net_kunit_policy.h (make check-tools compares)'
	@echo '  make list-cells   the kernel-arch cells make check runs, one per line'
	@echo '  make picture      redraw docs/flow.svg, the README'"'"'s picture, from docs/flow.dot'
	@echo '  make bench        the speed figures of the pipeline (takes ~30 min)'
	@echo '  make clean        remove build dirs and results of $$KERNEL from the cache'
	@echo 'Knobs:'
	@echo '  ARCH=A                architecture: $(ARCHES) (default x86_64)'
	@echo '  KERNEL=K              base kernel: $(KERNELS) (default $(MAIN_KERNEL))'
	@echo '  CACHE=DIR             tree, build dirs, ccache, results'
	@echo '                        (default $${XDG_CACHE_HOME:-~/.cache}/kernel-overlay)'
	@echo '  JOBS=N                parallel build jobs (default nproc = $(JOBS))'
	@echo '  TIMEOUT=S             seconds a booted kernel may run (default 600)'
	@echo '  FILTER=GLOB           kunit.py filter glob for make test, e.g. "sm4*"'
	@echo '  DEBUG=1               make test runs the debug leg (kunit/configs/debug.config)'
	@echo '  BOOT=NAME             make test boots with kunit/boots'"'"' arguments: $(BOOTS)'
	@echo '  FORCE=1               make sync resets files edited by hand in the tree'
	@echo '  MUTANTS=NAMES         make mutants runs only these'

setup:
	@kunit/setup $(KERNELS)

sync:
	@$(SYNC) $(if $(FORCE),--force) $(SYNC_ARGS)

tree:
	@$(SYNC) --print-tree

test: setup
	@$(SYNC) -q
	@$(RUN) --arch $(ARCH) $(if $(filter 1 y yes,$(DEBUG)),--debug) $(if $(BOOT),--boot $(BOOT)) $(FILTER); \
	[ $$? -ne 2 ] || exit 2; \
	$(SUMMARY) $(KERNEL)-$(ARCH)$(if $(filter 1 y yes,$(DEBUG)),-debug)$(if $(BOOT),-$(BOOT))

# The debug leg: each suite under the kernel's checkers, then the canary
# that proves a KASAN report fails it.
check-debug: setup
	@rc=0; \
	for k in $(KERNELS); do kunit/sync -q --kernel $$k || exit 2; done; \
	for k in $(KERNELS); do for a in $(ARCHES); do \
		kunit/run --kernel $$k --arch $$a --jobs $(JOBS) --debug || true; \
		kunit/run --kernel $$k --arch $$a --jobs $(JOBS) --canary || rc=1; \
	done; done; \
	$(SUMMARY) $(foreach k,$(KERNELS),$(foreach a,$(ARCHES),$(k)-$(a)-debug)) || rc=1; \
	exit $$rc

# The integration leg: builds the cell's kernel if make test has not.
integration: setup
	@$(SYNC) -q
	@rc=0; \
	for b in $(if $(BOOT),$(BOOT),$(INT_BOOTS)); do \
		$(RUN) --arch $(ARCH) --integration --boot $$b; [ $$? -ne 2 ] || exit 2; \
	done; \
	$(SUMMARY) $(foreach b,$(if $(BOOT),$(BOOT),$(INT_BOOTS)),$(call int_cell,$(KERNEL)-$(ARCH),$(b)))

canary: setup
	@$(SYNC) -q
	@$(RUN) --arch $(ARCH) --canary

list-cells:
	@for k in $(KERNELS); do for a in $(ARCHES); do echo $$k-$$a; done; done

mutants: setup
	@$(SYNC) -q
	@kunit/mutate --kernel $(KERNEL) --arch $(ARCH) --jobs $(JOBS) $(MUTANTS)

mutation: setup
	@$(SYNC) -q
	@kunit/mutation-run --kernel $(KERNEL) --arch $(ARCH) --jobs $(JOBS) \
		$(if $(TARGET),--target $(TARGET)) $(if $(MUTANT),--mutant $(MUTANT)) \
		$(if $(RECORD),--record) $(if $(FRESH),--fresh)

series: setup
	@$(SYNC) -q
	@kunit/series --kernel $(KERNEL)

check-tools:
	@/usr/bin/python3 -m unittest discover -s kunit/tests 2>&1

checkpatch:
	@for k in $(KERNELS); do kunit/checkpatch $$k || exit 1; done

# Every cell runs even when one fails; the summary's closing line is the
# verdict over all of them and comes last. make check runs a share of
# $(MAIN_KERNEL)'s kept reverts and generated mutants (kunit/share.py);
# FULL=1 (make check-full) runs all of them, and the debug leg, kept
# reverts and generated mutants of every other base too.
check: setup
	@rc=0; \
	for k in $(KERNELS); do kunit/sync -q --kernel $$k || exit 2; done; \
	$(MAKE) --no-print-directory check-tools || rc=1; \
	$(MAKE) --no-print-directory checkpatch || rc=1; \
	for k in $(KERNELS); do kunit/series --kernel $$k --check || rc=1; done; \
	for k in $(KERNELS); do for a in $(ARCHES); do \
		kunit/run --kernel $$k --arch $$a --jobs $(JOBS) || true; \
		for b in $(BOOTS); do \
			kunit/run --kernel $$k --arch $$a --jobs $(JOBS) --boot $$b || true; \
		done; \
		for b in $(INT_BOOTS); do \
			kunit/run --kernel $$k --arch $$a --jobs $(JOBS) --integration --boot $$b || true; \
		done; \
	done; done; \
	for k in $(if $(FULL),$(KERNELS),$(MAIN_KERNEL)); do \
		kunit/run --kernel $$k --arch $(DEBUG_ARCH) --jobs $(JOBS) --debug || true; \
		kunit/run --kernel $$k --arch $(DEBUG_ARCH) --jobs $(JOBS) --canary || rc=1; \
		kunit/mutate --kernel $$k --arch $(DEBUG_ARCH) --jobs $(JOBS) \
			$(if $(FULL),,--share) || rc=1; \
		kunit/mutation-run --kernel $$k --arch $(DEBUG_ARCH) --jobs $(JOBS) \
			$(if $(FULL),,--share) || rc=1; \
	done; \
	$(SUMMARY) $$($(MATRIX) cells $(if $(FULL),--full)) || rc=1; \
	exit $$rc

check-full:
	@$(MAKE) --no-print-directory check FULL=1

bench: setup
	@$(SYNC) -q
	@kunit/bench --kernel $(KERNEL)

apparmor-blobs: setup
	@kunit/apparmor/blobs

# The README's picture of the flow, drawn by graphviz from docs/flow.dot.
picture:
	@dot -Tsvg docs/flow.dot -o docs/flow.svg && echo 'picture: docs/flow.svg'

clean:
	@tree=$$($(SYNC) --print-tree); rm -rf "$${tree%/src}/build" "$${tree%/$(KERNEL)/src}/results"
