# padpack — see README.md. `make` builds ./padpack; `make check` installs
# what is missing and runs every test; `make demo` runs the main job.

VERSION := 0.1.0
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(PREFIX)/bin
MANDIR := $(PREFIX)/share/man
# padpack split's control-templates/ and scripts/
DATADIR := $(PREFIX)/share/padpack
COMPLETIONDIR := $(PREFIX)/share/bash-completion/completions

CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := libarchive zlib liblzma libzstd openssl libconfig libelf jansson

ifeq ($(SANITIZE),1)
B := build-asan
OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
       -fno-sanitize-recover=undefined
else
B := build
OPT := -O2 -g
endif

CPPFLAGS += -D_GNU_SOURCE -DPADPACK_VERSION='"$(VERSION)"'
CFLAGS ?=
CFLAGS += -std=c11 -Wall -Wextra -Werror $(OPT) \
	  $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
# libconfig exports its own strbuf_release/strbuf_append: keep ours hidden
# so that libconfig's calls never land in padpack's strbuf (and crash).
CFLAGS += -fvisibility=hidden
LDLIBS += $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null) -lZydis -lZycore -lpthread
LDFLAGS += $(if $(filter 1,$(SANITIZE)),-fsanitize=address$(,)undefined)
, := ,

LIB_SRC := $(sort $(wildcard src/lib/*.c))
CMD_SRC := src/padpack.c $(sort $(wildcard src/cmd/*.c))
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
CMD_OBJ := $(CMD_SRC:%.c=$(B)/%.o)
UNIT_OBJ := $(UNIT_SRC:%.c=$(B)/%.o)

# The binary of a sanitized build lives in build-asan/, the plain one here.
PADPACK := $(if $(filter 1,$(SANITIZE)),$(B)/padpack,padpack)

.PHONY: all check demo bench install clean deps unit deb fuzz fuzz-build fidelity openblas man html
all: $(PADPACK) $(B)/unit-tests man

$(B)/%.o: %.c $(wildcard src/lib/*.h src/cmd/*.h tests/unit/*.h) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(B)/libpadpack.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(PADPACK): $(CMD_OBJ) $(B)/libpadpack.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/unit-tests: $(UNIT_OBJ) $(B)/libpadpack.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

deps:
	scripts/install-deps.sh

# The man pages: written once in scdoc (doc/man/NAME.SECTION.scd), made
# into roff under build/man/manSECTION/ (a MANPATH: man -M build/man).
# Dated by SOURCE_DATE_EPOCH, else the last commit, so they are reproducible.
MAN_SRC := $(sort $(wildcard doc/man/*.scd))
MAN_PAGES := $(foreach f,$(MAN_SRC:doc/man/%.scd=%),build/man/man$(subst .,,$(suffix $(f)))/$(f))
MAN_EPOCH := $(or $(SOURCE_DATE_EPOCH),$(shell git log -1 --format=%ct 2>/dev/null))
man: $(MAN_PAGES)

build/man/man1/%.1: doc/man/%.1.scd
	@mkdir -p $(dir $@)
	$(if $(MAN_EPOCH),SOURCE_DATE_EPOCH=$(MAN_EPOCH)) scdoc <$< >$@.tmp && mv $@.tmp $@

build/man/man5/%.5: doc/man/%.5.scd
	@mkdir -p $(dir $@)
	$(if $(MAN_EPOCH),SOURCE_DATE_EPOCH=$(MAN_EPOCH)) scdoc <$< >$@.tmp && mv $@.tmp $@

# The man pages as HTML for doc/ (build/html/NAME.SECTION.html), by
# mandoc; a warning fails the page. scripts/scdoc-mandoc.awk first drops
# the paragraph macros scdoc writes where mandoc would skip them.
HTML_PAGES := $(MAN_SRC:doc/man/%.scd=build/html/%.html)
html: $(HTML_PAGES)

MANDOC_HTML = @mkdir -p $(dir $@); awk -f scripts/scdoc-mandoc.awk $< | \
	mandoc -T html -W warning -O man=%N.%S.html >$@.tmp && \
	mv $@.tmp $@ || { rm -f $@.tmp; exit 1; }

build/html/%.1.html: build/man/man1/%.1 scripts/scdoc-mandoc.awk
	$(MANDOC_HTML)

build/html/%.5.html: build/man/man5/%.5 scripts/scdoc-mandoc.awk
	$(MANDOC_HTML)

# Every test: the plain build, then the unit and format tests again under
# AddressSanitizer and UndefinedBehaviorSanitizer. The last line printed
# is "N passed, N failed".
# With SANITIZE=1, only the sanitized build, and every suite runs with it.
check: deps
ifeq ($(SANITIZE),1)
	$(MAKE) SANITIZE=1 all
	PADPACK=$(CURDIR)/build-asan/padpack UNIT_TESTS=build-asan/unit-tests \
		SANITIZED_ONLY=1 tests/run.sh
else
	$(MAKE) all
	$(MAKE) SANITIZE=1 all
	tests/run.sh
endif

demo: deps
	$(MAKE) all
	scripts/demo.sh

bench:
	scripts/install-deps.sh bench
	$(MAKE) all
	tests/bench/run.sh $(PARTS)

# OpenBLAS from Debian 12's source through pkg/openblas.cfg: minutes of
# compiling a variant, so not part of check. OPENBLAS_VARIANTS="GLOB..."
# chooses the variants (default openmp-dynamic pthread-haswell
# serial-haswell, the ones cached here; "*" for all six). doc/openblas.md.
openblas: deps
	$(MAKE) all
	bash tests/openblas.sh | tee build/openblas.log
	! grep -q '^not ok' build/openblas.log

# padpack split on the real-world corpus (tests/corpus/), each project's
# packages through piuparts (install, adequate, purge in a copy of the
# clean Debian 12 root), scored against Debian's own packages; fails
# when a project fails piuparts, and while issue 13's thresholds are not
# met.
fidelity: deps
	$(MAKE) all
	tests/corpus/corpus.sh -o build/corpus

install: padpack man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	install -m 0755 padpack $(DESTDIR)$(BINDIR)/padpack
	install -m 0644 $(filter %.1,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man1
	install -m 0644 $(filter %.5,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man5
	install -d $(DESTDIR)$(DATADIR)/control-templates $(DESTDIR)$(DATADIR)/scripts
	install -m 0644 control-templates/*.control $(DESTDIR)$(DATADIR)/control-templates
	install -m 0644 scripts/*.preinst scripts/*.postinst scripts/*.prerm $(DESTDIR)$(DATADIR)/scripts
	install -d $(DESTDIR)$(COMPLETIONDIR)
	install -m 0644 completion/padpack $(DESTDIR)$(COMPLETIONDIR)/padpack

# libFuzzer targets, one per parser of outside input (tests/fuzz/fuzz-*.c:
# pgp, ar, deb, tar, control, version, release, repo-db, spec, elf, isa),
# linked against the library built with ASan and UBSan. make check runs
# each briefly (tests/integration/fuzz.sh); make fuzz runs each for
# FUZZ_SECONDS (FUZZ_TARGETS picks some), keeping what it finds in
# build-fuzz/corpus/NAME.
FUZZ_SECONDS ?= 300
FUZZ_CC ?= clang
FUZZ_CFLAGS := -std=c11 -g -O1 -Wall -Wextra -fno-sanitize-recover=undefined \
	       -fsanitize=fuzzer-no-link,address,undefined \
	       $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
FUZZ_ALL := $(patsubst tests/fuzz/fuzz-%.c,%,$(sort $(wildcard tests/fuzz/fuzz-*.c)))
FUZZ_TARGETS ?= $(FUZZ_ALL)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=build-fuzz/%.o)

# -fvisibility=hidden as for the plain build (libconfig's strbuf).
build-fuzz/src/lib/%.o: src/lib/%.c $(wildcard src/lib/*.h) Makefile
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fvisibility=hidden -c -o $@ $<

build-fuzz/tests/fuzz/%.o: tests/fuzz/%.c $(wildcard src/lib/*.h tests/fuzz/*.h) Makefile
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) \
		-DFUZZ_KEY_DIR='"$(CURDIR)/tests/fuzz/deb-key"' -c -o $@ $<

build-fuzz/libpadpack-fuzz.a: $(FUZZ_LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

build-fuzz/fuzz-%: build-fuzz/tests/fuzz/fuzz-%.o build-fuzz/libpadpack-fuzz.a
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -o $@ $^ $(LDLIBS)

fuzz-build: $(FUZZ_ALL:%=build-fuzz/fuzz-%)

fuzz: deps
	$(MAKE) all fuzz-build
	tests/fuzz/make-seeds.sh
	@rc=0; for t in $(FUZZ_TARGETS); do \
		tests/fuzz/run.sh $$t $(FUZZ_SECONDS) || rc=1; \
	done; exit $$rc

clean:
	rm -rf build build-asan build-fuzz padpack
