# sgbench: sg_ring vs sg_table on Linux 6.1, built both ways, measured side by side.
#
#   make test                 build both kernels, boot each in QEMU, run the tests
#   make test-full            make test plus the fast reliability subset on the
#                             debug kernels (two more kernel builds)
#   make bench                the A/B benchmark; results under results/<run-id>/
#                             (CONFIG=<name>: a named configuration of
#                             bench/configs/, e.g. bench-qemu-disks;
#                             KERNEL=os: on the -Os kernels, built first)
#   make attrib CONFIG=name   exact instructions per I/O by function from the
#                             TCG plugin (bench/attrib.sh), one named
#                             configuration of bench/configs/attrib-*.conf;
#                             the IOMMU ones build the iommu kernels first,
#                             the KERNEL=os ones the -Os kernels
#   make plugin-check         the insncount plugin on a known path, and whether
#                             its counts repeat (tests/plugin.sh); its total
#                             against QEMU's icount clock, and that this check
#                             fails on a wrong mark (tests/plugin-clock.sh;
#                             make test runs the clock check too)
#   make shell VARIANT=name   boot one kernel with scsi_debug to a shell
#   make build | image        just build the kernels / guest images
#   make report RUN=dir       regenerate a run's REPORT.md (and DECISION.md) from its raw files
#   make decision RUN=dir     (re)collect the decision evidence for a run from the trees
#   make check-patches        checkpatch --strict on every patch, then every
#                             prefix of the sg_ring series: the project kernel
#                             and the compile-test set build, no new warning,
#                             and the prefix kernel boots (scsi_debug smoke,
#                             virtio-scsi and pvscsi disks); PREFIXES="9-15",
#                             PREFIX_BOOTS=all|smoke|none (slow: see docs/patches.md)
#   make check-build          the compile test: both trees build every SCSI,
#                             ATA, USB-storage and Fusion object and every other
#                             user of the accessors the series changes
#                             (x86_64 allmodconfig), with no new warning
#   make bench-multihost-selftest  the multi-host bench recipe of docs/bench.md (GNU
#                             parallel over ssh) against this machine as its
#                             own remote (an sshd of its own on 127.0.0.1),
#                             checked against the same matrix run locally
#   make reliability          the full reliability suite on the debug kernels
#                             (DMA-API debugging, every emulated host adapter,
#                             the IOMMU run) and the soak on the normal ones;
#                             results/reliability-<date>/REPORT.md
#   make debug-image          just build the debug kernels and their images
#
# Variables: VARIANTS (default: the variants whose variants/<name>/variant
# says "default yes"), MODE
# (auto|tcg|kvm|icount), JOBS (make -j for the kernels; check-build and
# check-patches default to 2).
SHELL := /bin/bash
# the variants whose file says "default yes" (common/lib.sh variants)
ifndef VARIANTS
VARIANTS := $(shell top=$(CURDIR) bash -c '. common/lib.sh && variants')
endif
MODE ?= auto
export MODE JOBS VARIANTS

.PHONY: all deps base build image test test-full bench attrib attrib-config plugin-check iommu-image os-image bench-multihost-selftest shell report decision check-patches check-build clean debug-build debug-image reliability
all: test

deps:
	@common/deps.sh

base: deps
	@common/tree.sh base

build: base
	@for v in $(VARIANTS); do common/build.sh $$v || exit 1; done

image: build
	@t0=$$(date +%s); \
	for v in $(VARIANTS); do common/image/build.sh $$v && common/image/debian.sh $$v || exit 1; done; \
	printf 'sgbench: phase images: %d s\n' $$(( $$(date +%s) - t0 )) >&2

test: image
	@tests/run.sh

test-full: image debug-image
	@tests/run.sh --full

# the debug flavour of each kernel (common/debug.config): build/<v>-debug
debug-build: base
	@for v in $(VARIANTS); do common/build.sh $$v debug || exit 1; done

debug-image: debug-build
	@for v in $(VARIANTS); do common/image/build.sh $$v debug || exit 1; done

reliability: debug-image image
	@VARIANTS="$(VARIANTS)" tests/reliability/run.sh --full | tee build/reliability-full.txt; \
		! grep -q '	failed	' build/reliability-full.txt

bench: image
	@if [ "$(KERNEL)" = os ]; then $(MAKE) --no-print-directory os-image; fi
	@bench/run.sh

# the kernels of a flavour, for make attrib: iommu-image, the IOMMU class
# (bench/iommu.config); os-image, the -Os kernels of KERNEL=os
# (bench/os.config)
iommu-image os-image: base
	@for v in $(VARIANTS); do common/build.sh $$v $(@:-image=) && common/image/build.sh $$v $(@:-image=) || exit 1; done

# the named configuration first, before anything is built
attrib-config:
	@[ -f "bench/configs/$(CONFIG).conf" ] || { echo "sgbench: error: say which attribution: make attrib CONFIG=<$$(cd bench/configs && ls attrib-*.conf | sed 's/\.conf$$//' | tr '\n' ' ')>" >&2; exit 1; }

attrib: attrib-config image
	@if grep -q '^IOMMU_KERNEL=iommu' "bench/configs/$(CONFIG).conf"; then $(MAKE) --no-print-directory iommu-image; fi
	@if grep -q '^KERNEL=os' "bench/configs/$(CONFIG).conf"; then $(MAKE) --no-print-directory os-image; fi
	@CONFIG=$(CONFIG) bench/attrib.sh

plugin-check: image
	@rc=0; tests/plugin.sh || rc=1; tests/plugin-clock.sh || rc=1; WRONG_MARK=1 tests/plugin-clock.sh || rc=1; exit $$rc

bench-multihost-selftest: image
	@tests/multihost.sh

shell:
	@[ -n "$(VARIANT)" ] || { echo "sgbench: error: say which kernel: make shell VARIANT=<$(VARIANTS)>" >&2; exit 1; }
	@[ -f "variants/$(VARIANT)/variant" ] || { echo "sgbench: error: unknown variant '$(VARIANT)': choose one of $(VARIANTS)" >&2; exit 1; }
	@$(MAKE) --no-print-directory image VARIANTS=$(VARIANT)
	@qemu/run.sh -s -v $(VARIANT) -p qemu/shell-plan.sh -o build/shell-$(VARIANT) -m $(MODE)

report:
	@[ -n "$(RUN)" ] || { echo "sgbench: error: say which run: make report RUN=results/<run-id>" >&2; exit 1; }
	@/usr/bin/python3 -m bench.report "$(RUN)"
	@if [ -d "$(RUN)/raw/decision" ]; then /usr/bin/python3 -m bench.decision render "$(RUN)"; fi

decision: deps
	@[ -n "$(RUN)" ] || { echo "sgbench: error: say which run: make decision RUN=results/<run-id>" >&2; exit 1; }
	@/usr/bin/python3 -m bench.decision collect "$(RUN)"
	@/usr/bin/python3 -m bench.decision render "$(RUN)"

check-patches: base
	@common/check-patches.sh --prefixes

check-build: base
	@common/check-build.sh

clean:
	rm -rf build/*/obj build/*/prefix-obj build/*/modules build/image build/test-runs build/reliability-* build/check-build
