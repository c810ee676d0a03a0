# padpack — see README.md. `make` builds ./padpack; `make check` installs
# what is missing and runs every test; `make demo` runs the main job.

VERSION := 0.1.0
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(PREFIX)/bin
MANDIR := $(PREFIX)/share/man
# padpack split's control-templates/ and scripts/
DATADIR := $(PREFIX)/share/padpack

CC ?= cc
PKG_CONFIG ?= pkg-config
PKGS := libarchive zlib liblzma libzstd openssl libconfig libelf

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

.PHONY: all check demo bench install clean deps unit deb fuzz fuzz-build openblas
all: $(PADPACK) $(B)/unit-tests

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
# chooses the variants (default pthread-haswell; "*" for all six).
openblas: deps
	$(MAKE) all
	bash tests/openblas.sh | tee build/openblas.log
	! grep -q '^not ok' build/openblas.log

install: padpack
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 0755 padpack $(DESTDIR)$(BINDIR)/padpack
	install -m 0644 doc/padpack.1 $(DESTDIR)$(MANDIR)/man1/padpack.1
	install -d $(DESTDIR)$(DATADIR)/control-templates $(DESTDIR)$(DATADIR)/scripts
	install -m 0644 control-templates/*.control $(DESTDIR)$(DATADIR)/control-templates
	install -m 0644 scripts/*.preinst scripts/*.postinst $(DESTDIR)$(DATADIR)/scripts

# libFuzzer over the OpenPGP packet, keyring, armor and cleartext parsers
# (tests/fuzz/); make check runs it for a minute (tests/integration/
# pgp-fuzz.sh), make fuzz for FUZZ_SECONDS, keeping what it finds in
# build-fuzz/corpus.
FUZZ_SECONDS ?= 300
FUZZ_CC ?= clang
FUZZ_CFLAGS := -std=c11 -g -O1 -Wall -Wextra -fno-sanitize-recover=undefined \
	       -fsanitize=fuzzer-no-link,address,undefined \
	       $(shell $(PKG_CONFIG) --cflags openssl 2>/dev/null)
FUZZ_SRC := $(sort $(wildcard src/lib/pgp-*.c)) src/lib/error.c \
	    src/lib/fsutil.c src/lib/strbuf.c src/lib/xalloc.c \
	    tests/fuzz/fuzz-pgp.c
FUZZ_OBJ := $(FUZZ_SRC:%.c=build-fuzz/%.o)

build-fuzz/%.o: %.c $(wildcard src/lib/*.h) Makefile
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<

build-fuzz/fuzz-pgp: $(FUZZ_OBJ)
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -o $@ $^ \
		$(shell $(PKG_CONFIG) --libs openssl 2>/dev/null)

fuzz-build: build-fuzz/fuzz-pgp

fuzz: deps
	$(MAKE) fuzz-build
	@mkdir -p build-fuzz/corpus
	build-fuzz/fuzz-pgp -max_total_time=$(FUZZ_SECONDS) -max_len=4096 \
		-dict=tests/fuzz/pgp.dict build-fuzz/corpus tests/fuzz/corpus

clean:
	rm -rf build build-asan build-fuzz padpack
