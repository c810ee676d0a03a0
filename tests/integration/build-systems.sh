#!/bin/bash
# padpack build beyond CMake (build.system): a plain Makefile, autotools,
# meson and the spec's own commands, each on a tiny project generated here
# and built in two variants: the variant's flags and settings reach the
# build, DESTDIR staging, the log, a no-change rebuild that compiles
# nothing, a failing build and its reproduce line; and padpack split of
# the meson one. Each project builds in a second or two.
source "$(dirname "$0")/../lib.sh"

export SOURCE_DATE_EPOCH=1700000000
LIBDIR=usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)
cd "$WORK" || exit 1

# spec NAME SYSTEM-AND-BUILD-SETTINGS VALUE1-SETTINGS VALUE2-SETTINGS: a
# spec of project NAME (source $WORK/NAME), one axis with values plain
# and loud.
spec() {
	cat >"$WORK/$1.cfg" <<-EOF
	name = "$1";
	version = "1.0";
	maintainer = "Padpack Tests <tests@example.org>";
	homepage = "https://example.org/$1";
	summary = "a tiny $1 project to test padpack build";
	description = "It builds in a second.";
	source = "$1";
	build = { $2 };
	axes = ( { name = "flavor"; values = (
		{ name = "plain"; suffix = ""; $3 },
		{ name = "loud"; suffix = "loud"; $4 } ); } );
	EOF
	echo "$WORK/$1.cfg"
}

# The program each project builds: it prints its greeting and the macros
# the variant's flags defined.
greet_c() {
	cat <<-'EOF'
	#include <stdio.h>
	#ifndef GREETING
	#define GREETING "hello"
	#endif
	int main(void) {
	#ifdef FROM_CFLAGS
		puts("cflags");
	#endif
	#ifdef FROM_CPPFLAGS
		puts("cppflags");
	#endif
		puts(GREETING);
		return 0;
	}
	EOF
}

# matches NAME PATTERN TEXT: TEXT, its lines joined by spaces, matches
# the grep -E PATTERN.
matches() {
	if printf '%s' "$3" | tr '\n' ' ' | grep -Eq -- "$2"; then ok "$1"; else
		not_ok "$1" "wanted pattern: $2" "$(printf '%s' "$3" | tail -n 20)"
	fi
}

compiles() { # LOG: how many compiler runs the log shows
	grep -cE '(^| )(cc|gcc)( .*)? -c |(^| )(cc|gcc) .* -o [a-z]+ ' "$1" || true
}

# ---- a plain Makefile --------------------------------------------------
mkdir -p mk
greet_c >mk/greet.c
cat >mk/Makefile <<'EOF'
PREFIX ?= /usr/local
GREETING ?= hello
ifdef BREAK
$(error broken on purpose)
endif
all: greet
greet: greet.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -DGREETING='"$(GREETING)"' -o $@ greet.c $(LDFLAGS)
check: greet
	./greet | grep -qx '$(GREETING)'
install: greet
	install -D -m 755 greet $(DESTDIR)$(PREFIX)/bin/greet
EOF
f=$(spec mk 'system = "make"; make_vars = [ "PREFIX=/usr" ];
	make_test_target = "check"; cflags = [ "-O1" ];
	cppflags = [ "-DFROM_CPPFLAGS" ]; ldflags = [ "-Wl,-z,now" ];' \
	'make_vars = [ "GREETING=plain" ];' \
	'make_vars = [ "GREETING=loud" ]; cflags = [ "-DFROM_CFLAGS" ];')
out=$("$PADPACK" build -c "$f" -B "$WORK/mb" -j2 2>&1)
check "make: both variants built (exit 0)" test $? = 0
check_fails "make: each variant's make variables and flags" 0 \
	'^cppflags plain$' bash -c "'$WORK/mb/plain/stage/usr/bin/greet' | tr '\n' ' ' | sed 's/ \$//'"
check_fails "make: ... the other variant's flags are its own" 0 \
	'^cflags cppflags loud$' bash -c "'$WORK/mb/loud/stage/usr/bin/greet' | tr '\n' ' ' | sed 's/ \$//'"
check "make: LDFLAGS reached the link (BIND_NOW)" bash -c \
	"readelf -d '$WORK/mb/loud/stage/usr/bin/greet' | grep -q BIND_NOW"
check "make: the source is copied into the build tree, the source stays clean" \
	bash -c "test -x '$WORK/mb/plain/obj/greet' && test ! -e '$WORK/mk/greet'"
check "make: the log has copy, build (make -C obj -j1 VARS), test, install" bash -c "
	grep -q '^==> padpack: copy: rsync -a --modify-window=-1 --exclude=/.git $WORK/mk/ $WORK/mb/plain/obj/' '$WORK/mb/plain/build.log' &&
	grep -q '^==> padpack: build: env .* make -C $WORK/mb/plain/obj -j1 PREFIX=/usr GREETING=plain\$' '$WORK/mb/plain/build.log' &&
	grep -q '^==> padpack: test: .* make -C $WORK/mb/plain/obj PREFIX=/usr GREETING=plain check\$' '$WORK/mb/plain/build.log' &&
	grep -q '^==> padpack: install: .* make -C .* DESTDIR=$WORK/mb/plain/stage install\$' '$WORK/mb/plain/build.log'"
"$PADPACK" build -q -c "$f" -B "$WORK/mb" -j2
check_fails "make: a second run compiles nothing" 0 '^0$' compiles "$WORK/mb/plain/build.log"
touch mk/greet.c
"$PADPACK" build -q -c "$f" -B "$WORK/mb" --variant plain
check_fails "make: a changed source is compiled again" 0 '^1$' compiles "$WORK/mb/plain/build.log"
f2=$(spec mk 'system = "make"; make_vars = [ "PREFIX=/usr" ];' \
	'make_vars = [ "GREETING=changed" ];' '')
"$PADPACK" build -q -c "$f2" -B "$WORK/mb" --variant plain
check_fails "make: changed variables start the copy afresh, and build with them" 0 \
	'^changed$' "$WORK/mb/plain/stage/usr/bin/greet"
# A source replaced by an older file (a release unpacked over the last,
# cp -p) looks older than the objects made from what it replaced: make
# rebuilds nothing; --fresh removes the build tree and builds from nothing.
cp -p mk/greet.c "$WORK/greet.c.orig"
sed -i 's/puts(GREETING);/puts("replaced"); puts(GREETING);/' mk/greet.c
touch -d '2001-01-01' mk/greet.c
"$PADPACK" build -q -c "$f2" -B "$WORK/mb" --variant plain
check_fails "make: a source older than its objects: make rebuilds nothing" 0 \
	'^changed$' "$WORK/mb/plain/stage/usr/bin/greet"
"$PADPACK" build -q -c "$f2" -B "$WORK/mb" --variant plain --fresh
check_fails "make: ... --fresh builds from nothing" 0 '^replaced changed$' \
	bash -c "'$WORK/mb/plain/stage/usr/bin/greet' | tr '\n' ' ' | sed 's/ \$//'"
check_fails "make: ... the log shows the compile" 0 '^1$' compiles "$WORK/mb/plain/build.log"
cp "$WORK/greet.c.orig" mk/greet.c
f=$(spec mk 'system = "make"; make_vars = [ "PREFIX=/usr" ];' '' \
	'make_vars = [ "BREAK=1" ];')
out=$("$PADPACK" build -c "$f" -B "$WORK/mf" 2>&1)
check "make: a failing build: exit 5" test $? = 5
matches "make: ... names the variant and step, shows the log's end" \
	"variant loud: build failed \(exit status 2\) after .* \| Makefile:4: \*\*\* broken on purpose" "$out"
matches "make: ... and the command that reproduces it" \
	"to reproduce: +(env .* )?make -C $WORK/mf/loud/obj -j1 PREFIX=/usr BREAK=1" "$out"

# A build directory inside the source tree (the spec beside the Makefile,
# -B build there): the copy leaves it out, not copying it into itself.
cp -r mk mkin
cat >mkin/in.cfg <<-EOF
	name = "mkin";
	version = "1.0";
	maintainer = "Padpack Tests <tests@example.org>";
	build = { system = "make"; make_vars = [ "PREFIX=/usr" ]; };
EOF
(cd mkin && "$PADPACK" build -q -c in.cfg -B build && "$PADPACK" build -q -c in.cfg -B build)
check "make: a build directory in the source is not copied into itself" bash -c "
	test -x '$WORK/mkin/build/default/stage/usr/bin/greet' &&
	test ! -e '$WORK/mkin/build/default/obj/build' &&
	grep -q -- '--exclude=/build $WORK/mkin/ ' '$WORK/mkin/build/default/build.log'"
# Objects built in the source tree would be taken as built by make in
# the copy, whatever the variant's flags: refused, saying which.
: >mkin/greet.o
check_fails "make: objects built in the source tree: exit 3, naming one" 3 \
	"source tree '$WORK/mkin' holds 1 object file built in place \(greet\.o\): .* run 'make clean'" \
	bash -c "cd '$WORK/mkin' && '$PADPACK' build -q -c in.cfg -B build"
check_fails "make: ... and says how to keep objects the source ships" 3 \
	"or list the objects it ships on purpose in build.prebuilt_objects" \
	bash -c "cd '$WORK/mkin' && '$PADPACK' build -q -c in.cfg -B build"
rm mkin/greet.o
# Objects the source ships on purpose (a vendor's blob, test data), named
# by build.prebuilt_objects: let be; any other is still refused.
mkdir -p mkin/blobs/x86
: >mkin/blobs/x86/vendor.o
sed 's/^build = { /build = { prebuilt_objects = [ "blobs\/*.o" ]; /' mkin/in.cfg >mkin/pre.cfg
check "make: objects named by build.prebuilt_objects are let be" \
	bash -c "cd '$WORK/mkin' && '$PADPACK' build -q -c pre.cfg -B build &&
		test -e build/default/obj/blobs/x86/vendor.o"
: >mkin/greet.o
check_fails "make: ... any other is still refused" 3 \
	"holds 1 object file built in place \(greet\.o\)" \
	bash -c "cd '$WORK/mkin' && '$PADPACK' build -q -c pre.cfg -B build"
check_fails "make: ... and did not mean without it" 3 \
	"holds 2 object files built in place \((blobs/x86/vendor|greet)\.o \.\.\.\)" \
	bash -c "cd '$WORK/mkin' && '$PADPACK' build -q -c in.cfg -B build"
rm -r mkin/greet.o mkin/blobs

# ---- CMake: Debian's directories by default -----------------------------
# A spec with no CMAKE_INSTALL_* of its own stages under /usr and the
# multiarch libdir, as autotools and meson; its own -D comes after and wins.
mkdir -p cmk
greet_c >cmk/greet.c
cat >cmk/CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.18)
project(cmk C)
include(GNUInstallDirs)
add_library(cmk STATIC greet.c)
install(TARGETS cmk ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES greet.c DESTINATION ${CMAKE_INSTALL_SYSCONFDIR})
EOF
f=$(spec cmk 'test = false;' '' 'cmake = [ "-DCMAKE_INSTALL_PREFIX=/opt/loud" ];')
"$PADPACK" build -q -c "$f" -B "$WORK/kb" -j2
check "cmake: /usr, the multiarch libdir and /etc unless the spec says" bash -c "
	test -f '$WORK/kb/plain/stage/$LIBDIR/libcmk.a' &&
	test -f '$WORK/kb/plain/stage/etc/greet.c' && test ! -e '$WORK/kb/plain/stage/usr/local' &&
	grep -q '^==> padpack: configure: .* cmake -S $WORK/cmk -B $WORK/kb/plain/obj -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_INSTALL_LIBDIR=${LIBDIR#usr/} -DCMAKE_INSTALL_SYSCONFDIR=/etc -DCMAKE_INSTALL_LOCALSTATEDIR=/var -DCMAKE_BUILD_RPATH_USE_ORIGIN=ON\$' '$WORK/kb/plain/build.log'"
check "cmake: ... the spec's own -DCMAKE_INSTALL_PREFIX wins" \
	test -f "$WORK/kb/loud/stage/opt/loud/${LIBDIR#usr/}/libcmk.a"
f=$(spec cmk 'prebuilt_objects = [ "*.o" ];' '' '')
check_fails "cmake: build.prebuilt_objects is for make and autotools: a spec error" 3 \
	"cmk.cfg:8: setting 'build.prebuilt_objects': the cmake build system \(build.system\) does not read it; it is for make and autotools" \
	"$PADPACK" build -c "$f" -B "$WORK/kb"

# ---- autotools ---------------------------------------------------------
mkdir -p at
greet_c >at/greet.c
cat >at/configure.ac <<'EOF'
AC_INIT([greet], [1.0])
AM_INIT_AUTOMAKE([foreign])
AC_PROG_CC
AC_PROG_RANLIB
AC_ARG_ENABLE([loud], [AS_HELP_STRING([--enable-loud], [shout])],
	[AC_DEFINE([GREETING], ["loud"], [the greeting])])
AC_CONFIG_HEADERS([config.h])
AC_CONFIG_FILES([Makefile])
AC_OUTPUT
EOF
cat >at/Makefile.am <<'EOF'
bin_PROGRAMS = greet
greet_CPPFLAGS = -include config.h
lib_LIBRARIES = libgreet.a
libgreet_a_SOURCES = greet.c
EOF
if (cd at && autoreconf -fi) >"$WORK/autoreconf.log" 2>&1; then
	f=$(spec at 'system = "autotools"; buildflags = true;
		make_vars = [ "V=1" ];' '' 'configure_args = [ "--enable-loud" ];')
	out=$("$PADPACK" build -c "$f" -B "$WORK/ab" -j2 2>&1)
	check "autotools: both variants built (exit 0)" test $? = 0
	check_fails "autotools: the variant's configure arguments" 0 '^loud$' \
		"$WORK/ab/loud/stage/usr/bin/greet"
	check_fails "autotools: ... and the other's" 0 '^hello$' \
		"$WORK/ab/plain/stage/usr/bin/greet"
	check "autotools: configure in the build tree with /usr and the multiarch libdir" \
		grep -q "^==> padpack: configure: cd $WORK/ab/plain/obj && env .* $WORK/at/configure --prefix=/usr --libdir=/$LIBDIR --sysconfdir=/etc --localstatedir=/var --disable-silent-rules\$" \
		"$WORK/ab/plain/build.log"
	check "autotools: libdir staged, the source tree untouched" bash -c "
		test -f '$WORK/ab/plain/stage/$LIBDIR/libgreet.a' &&
		test ! -e '$WORK/at/config.status' && test ! -e '$WORK/at/greet'"
	check "autotools: dpkg-buildflags' flags (buildflags = true)" \
		grep -q -- "-fstack-protector-strong.*-D_FORTIFY_SOURCE=2\|-D_FORTIFY_SOURCE=2.*-fstack-protector-strong" \
		"$WORK/ab/plain/build.log"
	"$PADPACK" build -q -c "$f" -B "$WORK/ab" -j2
	check "autotools: a second run configures and compiles nothing" bash -c "
		grep -q 'configure (up to date, skipped)' '$WORK/ab/loud/build.log' &&
		test \$(grep -c 'gcc .* -c' '$WORK/ab/loud/build.log') = 0"
	# A source path through ".." (or a symbolic link) is used as its real
	# path, the one dpkg-buildflags' -ffile-prefix-map names: the
	# program's debug information holds ./greet.c, not the source's path.
	"$PADPACK" build -q -c "$f" -B "$WORK/ab" --source "$WORK/ab/../at" --variant plain
	check "autotools: the source's real path, so -ffile-prefix-map applies" bash -c "
		grep -q '^==> padpack: configure[ (a-z,)]*: cd .* $WORK/at/configure ' '$WORK/ab/plain/build.log' &&
		readelf --debug-dump=info '$WORK/ab/plain/obj/greet' | grep -q 'DW_AT_name.*: \\./greet\\.c' &&
		! grep -q '$WORK/at' '$WORK/ab/plain/obj/greet'"
	# Configured in place: configure refuses to configure it again out of
	# it, and make through VPATH would take its objects as built.
	: >at/config.status
	check_fails "autotools: a source configured in place: exit 3, before configure" 3 \
		"source tree '$WORK/at' is configured in place \($WORK/at/config.status\): .*run 'make distclean' there" \
		"$PADPACK" build -c "$f" -B "$WORK/ab2"
	rm at/config.status
	: >at/greet.o
	check_fails "autotools: objects built in the source tree: exit 3" 3 \
		"source tree '$WORK/at' holds 1 object file built in place \(greet\.o\)" \
		"$PADPACK" build -c "$f" -B "$WORK/ab2"
	rm at/greet.o
else
	not_ok "autotools: autoreconf -fi of the generated project" \
		"$(tail -n 5 "$WORK/autoreconf.log")"
fi

# ---- meson -------------------------------------------------------------
mkdir -p me
cat >me/meson.build <<'EOF'
project('me', 'c', version: '1.0')
lib = shared_library('me', 'me.c', version: '1.0.0', soversion: '1',
	c_args: get_option('loud') ? ['-DGREETING="loud"'] : [], install: true)
executable('me', 'main.c', link_with: lib, install: true)
install_headers('me.h')
test('runs', executable('me-test', 'main.c', link_with: lib))
EOF
echo "option('loud', type: 'boolean', value: false)" >me/meson_options.txt
cat >me/me.h <<'EOF'
const char *me_greeting(void);
EOF
cat >me/me.c <<'EOF'
#include "me.h"
#ifndef GREETING
#define GREETING "hello"
#endif
const char *me_greeting(void) { return GREETING; }
EOF
cat >me/main.c <<'EOF'
#include <stdio.h>
#include "me.h"
int main(void) { puts(me_greeting()); return 0; }
EOF
f=$(spec me 'system = "meson"; cflags = [ "-g", "-O2" ];' '' \
	'meson_args = [ "-Dloud=true" ];')
cat >>"$f" <<'EOF'
packages = { copyright = "me.copyright"; title = "greeting library"; };
EOF
cat >"$WORK/me.copyright" <<'EOF'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: me

Files: *
Copyright: 2024 Padpack Tests
License: MIT
 Permission is hereby granted, free of charge, to any person obtaining a copy.
EOF
out=$("$PADPACK" build -c "$f" -B "$WORK/eb" -j2 2>&1)
check "meson: both variants built, tests run (exit 0)" test $? = 0
check_fails "meson: the variant's meson arguments" 0 '^loud$' env \
	LD_LIBRARY_PATH="$WORK/eb/loud/stage/$LIBDIR" "$WORK/eb/loud/stage/usr/bin/me"
check "meson: library, SONAME link and header staged under the multiarch libdir" bash -c "
	test -f '$WORK/eb/plain/stage/$LIBDIR/libme.so.1.0.0' &&
	test -L '$WORK/eb/plain/stage/$LIBDIR/libme.so.1' &&
	test -f '$WORK/eb/plain/stage/usr/include/me.h'"
check "meson: setup, compile, test, install --destdir in the log" bash -c "
	grep -q \"^==> padpack: configure: env 'CFLAGS=-ffile-prefix-map=$WORK/me=. -ffile-prefix-map=../../../me/=./ -ffile-prefix-map=$WORK/eb/plain/obj=./obj-plain -g -O2' .* meson setup --prefix=/usr --libdir=${LIBDIR#usr/} --buildtype=plain --wrap-mode=nodownload $WORK/eb/plain/obj $WORK/me\\$\" '$WORK/eb/plain/build.log' &&
	grep -q 'meson test -C $WORK/eb/plain/obj --num-processes 1 --print-errorlogs' '$WORK/eb/plain/build.log' &&
	grep -q 'meson install -C $WORK/eb/plain/obj --destdir $WORK/eb/plain/stage' '$WORK/eb/plain/build.log'"
# meson test runs as many tests at once as there are CPUs unless told:
# it gets the variant's share of -j, as meson compile does.
"$PADPACK" build -q -c "$f" -B "$WORK/eb-j3" -j3 --no-ccache
check "meson: -j3, two variants: compile and test with 2 jobs, and 1" bash -c "
	grep -q 'meson compile -C $WORK/eb-j3/plain/obj -j2 --verbose' '$WORK/eb-j3/plain/build.log' &&
	grep -q 'meson test -C $WORK/eb-j3/plain/obj --num-processes 2 ' '$WORK/eb-j3/plain/build.log' &&
	grep -q 'meson test -C $WORK/eb-j3/loud/obj --num-processes 1 ' '$WORK/eb-j3/loud/build.log'"
check "meson: the log shows each compiler command, the variant's arguments in it" \
	grep -qE '(^|/| )cc .*-DGREETING=.*loud.* -c [^ ]*me\.c( |$)' "$WORK/eb/loud/build.log"
"$PADPACK" build -q -c "$f" -B "$WORK/eb" -j2
check "meson: a second run configures and compiles nothing" bash -c "
	grep -q 'configure (up to date, skipped)' '$WORK/eb/plain/build.log' &&
	grep -q 'ninja: no work to do' '$WORK/eb/plain/build.log'"
# -B through ".." that is not there yet names the same tree as on the
# next run, when it is: the second run configures nothing.
"$PADPACK" build -q -c "$f" -B "$WORK/eb/../eb-dots" --variant plain --no-test
"$PADPACK" build -q -c "$f" -B "$WORK/eb/../eb-dots" --variant plain --no-test
check "meson: -B with '..', not there on the first run: the second configures nothing" \
	grep -q "configure (up to date, skipped): .* meson setup .* $WORK/eb-dots/plain/obj " \
	"$WORK/eb-dots/plain/build.log"
# meson finds ccache by itself: --no-ccache keeps it out all the same.
if command -v ccache >/dev/null; then
	CCACHE_DIR=$WORK/ccache "$PADPACK" build -q -c "$f" -B "$WORK/eb-nocc" \
		--variant plain --no-ccache
	check "meson: --no-ccache: nothing compiled through ccache" bash -c "
		test -x '$WORK/eb-nocc/plain/stage/usr/bin/me' &&
		test \$(find '$WORK/ccache' -type f 2>/dev/null | wc -l) = 0"
fi
out=$("$PADPACK" split -q -c "$f" -B "$WORK/eb" -o "$WORK/edebs" 2>&1)
check "meson: padpack split of both variants (exit 0)" test $? = 0
check "meson: ... a runtime package per variant, with the library" bash -c "
	dpkg-deb -c '$WORK/edebs/libme1_1.0-1_amd64.deb' | grep -q '/$LIBDIR/libme.so.1.0.0' &&
	dpkg-deb -c '$WORK/edebs/libme1-loud_1.0-1_amd64.deb' | grep -q '/$LIBDIR/libme.so.1.0.0'"

# ---- the spec's commands -----------------------------------------------
mkdir -p cm
greet_c >cm/greet.c
f=$(spec cm 'system = "commands"; cflags = [ "-O1" ]; commands = {
	configure = [ "echo \"$SRC\" >configured-from", "test -n \"$JOBS\"" ];
	build = [ "cc $CFLAGS -o greet \"$SRC/greet.c\"" ];
	test = [ "./greet | grep -q .", "test \"$TEST_BREAK\" != yes" ];
	install = [ "install -D -m 755 greet \"$DESTDIR/usr/bin/greet\"" ]; };' \
	'env = { TEST_BREAK = "no"; };' \
	'cflags = [ "-DGREETING=\"loud\"" ]; env = { TEST_BREAK = "no"; };')
out=$("$PADPACK" build -c "$f" -B "$WORK/cb" -j2 2>&1)
check "commands: both variants built (exit 0)" test $? = 0
check_fails "commands: \$CFLAGS with the variant's flags, installed to \$DESTDIR" 0 \
	'^loud$' "$WORK/cb/loud/stage/usr/bin/greet"
check_fails "commands: run in the build tree with \$SRC" 0 "^$WORK/cm\$" \
	cat "$WORK/cb/plain/obj/configured-from"
"$PADPACK" build -q -c "$f" -B "$WORK/cb"
check "commands: a second run skips the configure commands" \
	grep -q 'configure (up to date, skipped)' "$WORK/cb/plain/build.log"
f=$(spec cm 'system = "commands"; commands = {
	build = [ "cc -o greet \"$SRC/greet.c\"" ];
	test = [ "test \"$TEST_BREAK\" != yes" ];
	install = [ "install -D greet \"$DESTDIR/usr/bin/greet\"" ]; };' \
	'' 'env = { TEST_BREAK = "yes"; };')
out=$("$PADPACK" build -c "$f" -B "$WORK/cf" 2>&1)
check "commands: a failing test: exit 5" test $? = 5
matches "commands: ... the step, and the commands that reproduce it" \
	"variant loud: test failed \(exit status 1\).*to reproduce: +cd $WORK/cf/loud/obj && env TEST_BREAK=yes .*SRC=$WORK/cm BUILD=$WORK/cf/loud/obj JOBS=1 sh -ec 'test \"\\\$TEST_BREAK\" != yes'" \
	"$out"

# ---- reproducible wherever the build directory is ------------------------
# The same sources built with two build directories (-B; the second
# deeper, through a symbolic link, not there yet) give byte-identical
# packages, -dbgsym too: the build tree's path (DW_AT_comp_dir, generated
# files' names, __FILE__ in them, meson's relative way to the source)
# and the source's are mapped by -ffile-prefix-map, for every system.
mkdir -p "$WORK/elsewhere"
ln -s elsewhere "$WORK/link"
where_c() { # the program: its own __FILE__ and a generated file's
	cat <<-'EOF'
	#include <stdio.h>
	const char *gen_where(void);
	int main(void) { printf("%s %s\n", __FILE__, gen_where()); return 0; }
	EOF
}
GEN_C='const char *gen_where(void) { return __FILE__; }'
# reproducible NAME: builds and splits NAME's spec with build directories
# $WORK/NAME-b1 and $WORK/link/deeper/NAME-b2; compares the packages.
reproducible() {
	local n=$1 d b2=$WORK/link/deeper/$1-b2
	printf '%s\n' 'packages = { copyright = "me.copyright"; title = "test program"; };' \
		>>"$WORK/$n.cfg"
	"$PADPACK" build -q -c "$WORK/$n.cfg" -B "$WORK/$n-b1" -j2 --no-ccache &&
	"$PADPACK" build -q -c "$WORK/$n.cfg" -B "$b2" -j2 --no-ccache &&
	"$PADPACK" split -q -c "$WORK/$n.cfg" -B "$WORK/$n-b1" -o "$WORK/$n-d1" &&
	"$PADPACK" split -q -c "$WORK/$n.cfg" -B "$b2" -o "$WORK/$n-d2" || return 1
	ls "$WORK/$n-d1" | grep -q -- '-dbgsym_.*\.deb$' ||
		{ echo "no -dbgsym package: $(ls "$WORK/$n-d1")"; return 1; }
	for d in "$WORK/$n-d1"/*.deb; do
		cmp "$d" "$WORK/$n-d2/${d##*/}" || return 1
		! dpkg-deb --fsys-tarfile "$d" | grep -qa "$WORK" ||
			{ echo "$WORK in ${d##*/}"; return 1; }
	done
}

mkdir -p rcm
where_c >rcm/main.c
cat >rcm/CMakeLists.txt <<EOF
cmake_minimum_required(VERSION 3.18)
project(rcm C)
file(WRITE \${CMAKE_BINARY_DIR}/gen.c "$GEN_C\\n")
add_library(rcmgen SHARED \${CMAKE_BINARY_DIR}/gen.c)
set_target_properties(rcmgen PROPERTIES VERSION 1.0.0 SOVERSION 1)
add_executable(rcm main.c)
target_link_libraries(rcm rcmgen)
install(TARGETS rcm rcmgen)
EOF
spec rcm 'test = false; cflags = [ "-g", "-O2" ];' '' 'cflags = [ "-DLOUD" ];' >/dev/null
check "reproducible: cmake (a shared library, generated source): the same packages for two build directories" \
	reproducible rcm

mkdir -p rme
where_c >rme/main.c
echo "$GEN_C" >rme/gen.c.in
cat >rme/meson.build <<'EOF'
project('rme', 'c', version: '1.0')
gen = configure_file(output: 'gen.c', input: 'gen.c.in', copy: true)
lib = shared_library('rmegen', gen, version: '1.0.0', soversion: '1', install: true)
executable('rme', 'main.c', link_with: lib, install: true)
EOF
spec rme 'system = "meson"; test = false; buildflags = true;' '' 'cflags = [ "-DLOUD" ];' >/dev/null
check "reproducible: meson (relative paths to the source): the same packages for two build directories" \
	reproducible rme

mkdir -p rmk
where_c >rmk/main.c
cat >rmk/Makefile <<EOF
all: rmk
gen.c:
	echo '$GEN_C' >\$@
rmk: main.c gen.c
	\$(CC) \$(CPPFLAGS) \$(CFLAGS) -o \$@ main.c gen.c \$(LDFLAGS)
install: rmk
	install -D -m 755 rmk \$(DESTDIR)/usr/bin/rmk
EOF
spec rmk 'system = "make"; buildflags = true;' '' 'cflags = [ "-DLOUD" ];' >/dev/null
check "reproducible: make: the same packages for two build directories" \
	reproducible rmk

mkdir -p rat
where_c >rat/main.c
echo "$GEN_C" >rat/gen.c.in
cat >rat/configure.ac <<'EOF'
AC_INIT([rat], [1.0])
AM_INIT_AUTOMAKE([foreign])
AC_PROG_CC
AC_CONFIG_FILES([Makefile gen.c])
AC_OUTPUT
EOF
cat >rat/Makefile.am <<'EOF'
bin_PROGRAMS = rat
rat_SOURCES = main.c
nodist_rat_SOURCES = gen.c
EOF
if (cd rat && autoreconf -fi) >"$WORK/autoreconf.log" 2>&1; then
	spec rat 'system = "autotools"; cflags = [ "-g", "-O2" ];' '' \
		'cflags = [ "-DLOUD" ];' >/dev/null
	check "reproducible: autotools: the same packages for two build directories" \
		reproducible rat
else
	not_ok "reproducible: autotools: autoreconf -fi" "$(tail -n 5 "$WORK/autoreconf.log")"
fi

mkdir -p rcd
where_c >rcd/main.c
spec rcd "system = \"commands\"; cflags = [ \"-g\", \"-O2\" ]; commands = {
	configure = [ \"echo '$GEN_C' >gen.c\" ];
	build = [ \"cc \$CFLAGS -o rcd \\\"\$SRC/main.c\\\" gen.c\" ];
	install = [ \"install -D -m 755 rcd \\\"\$DESTDIR/usr/bin/rcd\\\"\" ]; };" \
	'' 'cflags = [ "-DLOUD" ];' >/dev/null
check "reproducible: commands: the same packages for two build directories" \
	reproducible rcd
