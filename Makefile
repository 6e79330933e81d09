# Build and test harness of the lockless ring buffer project.
# `make help` lists the targets. Variables:
#   KERNEL_SRC=DIR  kernel tree to use (default ~/.cache/lrb/linux-source-6.12)
#   FORCE=1         let the tree step discard work in the kernel tree
#   FRESH=1         make test runs the model, sparse, W=1 and make even when a pass
#                   or a build with the same inputs is recorded (resultcache.py,
#                   buildstamp.py in tools/lrb_harness/)
#   ARCH=LIST       x86_64, arm64, arm64-lse, arm64-llsc, riscv64, i386, arm, all
#                   (comma-separated; all: every one of these);
#                   make bench also arm64-nopac (arm64 without pointer authentication),
#                   x86_64-icount, arm64-icount, riscv64-icount, i386-icount, arm-icount
#                   (QEMU counting instructions)
#   PROFILE=NAME    tools/profiles/NAME.config (default: default; make bench: bench,
#                   or bench-debug)
#   GLOB=GLOBS      kunit.py filter globs, space-separated (suite or suite.case)
#   S=CASE          lrb_design case for `make scenario`
#   IMPL=NAME       `make scenarios`/`make scenario` on lrb or kernel only (default: both)
#   JOBS=N          make --jobs for the kernel build (default: number of CPUs)
#   KERNEL_ARGS=..  extra kernel arguments for `make run`, e.g. lrb_kunit.lrb_stress_ms=60000
#   DIR=DIR         where `make series` writes the series (default: results/series)
#   NOBUILD=1       `make series` without the git am onto the base and the build
#   M=NAME          mutation of model/lrb.pml for `make model-trail`
#   BASE=LIST       `make upstream`: 6.12, 6.1 (default both); RUNS=N boots per build (10);
#                   LEAN=1 builds with tools/qemu_configs/lean.config, as make test's pass

PYTHON   ?= python3
WRAPPER  := $(PYTHON) tools/kunit-wrapper.py
DEPS     := bash tools/deps.sh
CACHE    := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/lrb

export KERNEL_SRC FORCE

ARCH_OPT    = $(if $(ARCH),--arch $(ARCH))
PROFILE_OPT = $(if $(PROFILE),--profile $(PROFILE))
JOBS_OPT    = $(if $(JOBS),--jobs $(JOBS))
RUN_OPTS    = $(PROFILE_OPT) $(JOBS_OPT)

.PHONY: help deps deps-check tree prepare status export list test test-quick test-sanitizers \
	test-x86_64 test-arm64 run bench planted-bugs kernel-fix upstream check w1 unit-tests mypy series scenarios scenario \
	scenarios-doc profiles model model-deep model-trail model-barriers clean distclean

help:
	@echo 'make deps          install the missing Debian packages (sudo when not root)'
	@echo 'make tree          unpack + patch the kernel tree, copy kunit/ into it'
	@echo 'make status        show unexported work in the kernel tree'
	@echo 'make export        write the tree commits back to kernel-patch/, the patches of'
	@echo '                   kunit/ and bench/ from those directories (+ edited tests)'
	@echo 'make series        the series for a mailing list in results/series/ (DIR=): cover'
	@echo '                   letter with the last make test, checkpatch, git am + build'
	@echo 'make list          suites and cases, read from kunit/'
	@echo 'make test          check, all targets (x86_64, arm64-lse, arm64-llsc, riscv64, i386,'
	@echo '                   arm), W=1, kbuffer-check, model (skipped when a pass with the same'
	@echo '                   inputs is recorded, as sparse and W=1 are, and make is on an'
	@echo '                   up-to-date build; FRESH=1 runs them all), the upstream pass'
	@echo '                   (kernel-patch/upstream-6.12 on x86_64: checkpatch, cover letter,'
	@echo '                   its suite fixed, unfixed and head-unfixed, one boot each),'
	@echo '                   kcsan+lockdep+ftrace on x86_64, pages64k on arm64 (LSE and'
	@echo '                   LL/SC); KCSAN on arm64 is in make test-sanitizers'
	@echo 'make test-quick    the same without the upstream pass and the passes after the'
	@echo '                   default profile'
	@echo 'make test-sanitizers  kcsan, kasan, lockdep, kmemleak on x86_64 and arm64-lse'
	@echo 'make test-x86_64   build and boot x86_64 only   (GLOB=, PROFILE=)'
	@echo 'make test-arm64    build arm64, boot LSE and LL/SC (GLOB=, PROFILE=)'
	@echo 'make run           run ARCH= PROFILE= GLOB= (default: all targets); every build'
	@echo '                   is lean (tools/qemu_configs/lean.config) but PROFILE=full:'
	@echo '                   Kconfig defaults; PROFILE=pages64k: arm64 with 64K pages'
	@echo 'make bench         lrb_bench on x86_64, arm64-lse, arm64-nopac, then counting'
	@echo '                   instructions (-icount) on x86_64, arm64, riscv64, i386, arm:'
	@echo '                   docs/bench.md, docs/bench.png (PROFILE=bench-debug:'
	@echo '                   with CONFIG_LOCKLESS_RING_BUFFER_DEBUG, report beside its logs)'
	@echo 'make planted-bugs  plant a bug per sanitizer (NAMES=), check its profile catches it'
	@echo 'make kernel-fix    lrb_kernel_rb on the kernel with the fix of docs/upstream/ (ARCH=)'
	@echo 'make upstream      the standalone series of kernel-patch/upstream-6.12, -6.1: git am,'
	@echo '                   checkpatch, cover letter, its KUnit suite fixed and unfixed on'
	@echo '                   x86_64 and arm64 (BASE= ARCH= RUNS=; docs/upstream/README.md);'
	@echo '                   make test runs BASE=6.12 ARCH=x86_64 LEAN=1, fixed + unfixed +'
	@echo '                   head-unfixed, one boot each'
	@echo 'make check         checkpatch --strict, kernel-doc, kunit/ and bench/ against'
	@echo '                   their patches, mypy --strict, unit tests, sparse (x86_64, arm64)'
	@echo 'make w1            W=1 build of the series objects, lib/lrb_kunit/, lib/lrb_bench/'
	@echo 'make mypy          mypy --strict on tools/ (mypy.ini)'
	@echo 'make scenarios     the design-document scenarios with their diagrams, on lrb and on'
	@echo '                   the kernel ring buffer (x86_64; ARCH=, IMPL=lrb or IMPL=kernel)'
	@echo 'make scenario S=X  one lrb_design case, on both (IMPL= one of them)'
	@echo 'make scenarios-doc docs/scenarios.md from the last scenarios run'
	@echo 'make profiles      list tools/profiles/'
	@echo 'make model         SPIN on model/lrb.pml, exhaustive, the CI configurations: weak'
	@echo '                   memory, interrupts anywhere, the reader on the writers CPU (<3 min)'
	@echo 'make model-deep    larger rings, depths and weak sets (hours; figures in docs/model.md)'
	@echo 'make model-trail M=NAME  refute a mutation by the property it names, print its trail'
	@echo '                   (M=all: every one, and the variants listed as not refuted)'
	@echo 'make model-barriers  the barriers of lib/lockless_ring_buffer.c, pairs, lines, mutations'
	@echo 'make clean         remove build dirs and results/'
	@echo 'make distclean     clean, plus the kernel tree and ccache'
	@echo 'variables: KERNEL_SRC= FORCE=1 ARCH= PROFILE= GLOB= S= JOBS= M= DIR= NOBUILD=1 BASE= RUNS= LEAN='

deps:
	@$(DEPS) install

deps-check:
	@$(DEPS) check

tree prepare: deps-check
	@$(WRAPPER) prepare

export: deps-check
	@$(WRAPPER) export

status:
	@$(WRAPPER) status

list:
	@$(WRAPPER) list $(GLOB)

profiles:
	@$(WRAPPER) profiles

test: deps-check
	@$(if $(FRESH),LRB_NO_RESULT_CACHE=1 LRB_NO_BUILD_STAMP=1 )$(WRAPPER) test $(ARCH_OPT) $(RUN_OPTS)

test-quick: deps-check
	@$(WRAPPER) test --no-sanitizers $(ARCH_OPT) $(RUN_OPTS)

test-sanitizers: deps-check
	@$(WRAPPER) sanitizers $(JOBS_OPT)

test-x86_64: deps-check
	@$(WRAPPER) run --arch x86_64 $(RUN_OPTS) $(GLOB)

test-arm64: deps-check
	@$(WRAPPER) run --arch arm64 $(RUN_OPTS) $(GLOB)

run: deps-check
	@$(WRAPPER) run $(ARCH_OPT) $(RUN_OPTS) $(foreach a,$(KERNEL_ARGS),--kernel-arg $(a)) $(GLOB)

check: deps-check
	@$(WRAPPER) check

planted-bugs: deps-check
	@$(PYTHON) tools/planted_bugs.py $(NAMES)

kernel-fix: deps-check
	@$(PYTHON) tools/kernel_fix.py $(ARCH_OPT) $(JOBS_OPT)

upstream: deps-check
	@$(PYTHON) tools/upstream.py $(if $(BASE),--base $(BASE)) $(ARCH_OPT) $(if $(RUNS),--runs $(RUNS)) $(if $(filter-out 0,$(LEAN)),--lean) $(JOBS_OPT)

bench: deps-check
	@$(WRAPPER) bench $(ARCH_OPT) $(PROFILE_OPT) $(JOBS_OPT) $(foreach a,$(KERNEL_ARGS),--kernel-arg $(a))

unit-tests:
	@$(PYTHON) -m unittest discover -s tools/tests -t tools

# Debian's python3 has python3-mypy; a python3 of one's own may not.
mypy:
	@PATH=/usr/bin:$$PATH python3 -m mypy --config-file mypy.ini

series: deps-check
	@$(WRAPPER) series $(if $(DIR),--dir $(DIR)) $(if $(NOBUILD),--no-build) $(JOBS_OPT)

w1: deps-check
	@$(WRAPPER) w1 $(ARCH_OPT) $(RUN_OPTS)

# The lrb_design suites of IMPL: lrb_design (lrb), lrb_design_kernel (kernel)
DESIGN_SUITES = $(if $(IMPL),$(if $(filter lrb,$(IMPL)),lrb_design,lrb_design_kernel),lrb_design*)
IMPL_CHECK = @case '$(IMPL)' in ''|lrb|kernel) ;; \
	*) echo "unknown IMPL '$(IMPL)': lrb, kernel, or none for both"; exit 2;; esac

scenarios: deps-check
	$(IMPL_CHECK)
	@$(WRAPPER) run --arch $(or $(ARCH),x86_64) --show-log $(RUN_OPTS) '$(DESIGN_SUITES)'

scenarios-doc:
	@$(PYTHON) tools/scenarios_doc.py results/latest/$(or $(ARCH),x86_64).log docs/scenarios.md

scenario: deps-check
	@test -n "$(S)" || { echo 'usage: make scenario S=<lrb_design case> [IMPL=lrb|kernel]'; exit 2; }
	$(IMPL_CHECK)
	@$(WRAPPER) run --arch $(or $(ARCH),x86_64) --show-log $(RUN_OPTS) '$(DESIGN_SUITES).$(S)'

model:
	@$(PYTHON) tools/model.py run

model-deep:
	@$(PYTHON) tools/model.py run --deep

model-trail:
	@test -n "$(M)" || { echo 'usage: make model-trail M=<mutation> (M=all: every one)'; exit 2; }
	@$(PYTHON) tools/model.py trail $(if $(filter all,$(M)),--all,$(M))

model-barriers:
	@$(PYTHON) tools/model_barriers.py

clean:
	rm -rf results/ '$(CACHE)/build'

# The kernel tree is removed only when it is the default one under the cache
# (a KERNEL_SRC tree is the developer's) and holds no unexported work.
distclean: clean
	@if [ -n "$(KERNEL_SRC)" ]; then \
		echo "distclean: leaving KERNEL_SRC=$(KERNEL_SRC) alone"; \
	elif [ -d '$(CACHE)/linux-source-6.12/.git' ] && [ -z "$(FORCE)" ] && \
	     ! $(WRAPPER) status; then \
		echo 'distclean: the tree has work in it: make export first, or FORCE=1'; exit 2; \
	else \
		echo "rm -rf $(CACHE)/linux-source-6.12 $(CACHE)/series-check $(CACHE)/ccache"; \
		rm -rf '$(CACHE)/linux-source-6.12' '$(CACHE)/series-check' '$(CACHE)/ccache'; \
	fi
	rmdir '$(CACHE)' 2>/dev/null || true
