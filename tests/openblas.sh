#!/bin/bash
# OpenBLAS from Debian 12's source through pkg/openblas.cfg (build.system
# "make"): fetch, padpack build of the variants asked for, what they
# staged and compute, a rebuild that compiles nothing, padpack split.
#
# Not part of `make check`: one variant compiles for minutes on two cores
# (see README). Run by `make openblas`; OPENBLAS_VARIANTS chooses the
# variants (globs; default pthread-haswell, "*" for all six).
#
# The source comes from the Debian mirror through a private apt
# configuration (tests/tools/apt-private.sh) into
# /var/tmp/padpack-openblas/src-VERSION; the build trees are kept in
# /var/tmp/padpack-openblas/build-KEY (KEY: source version and compiler),
# where padpack build's own rebuild redoes only what changed.
source "$(dirname "$0")/lib.sh"

export SOURCE_DATE_EPOCH=1700000000
CACHE=/var/tmp/padpack-openblas
MIRROR="[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main"
SPEC=$TOP/pkg/openblas.cfg
LIBDIR=usr/lib/x86_64-linux-gnu
read -r -a PATTERNS <<<"${OPENBLAS_VARIANTS:-pthread-haswell}"

apt_private() { # ARGS...: apt-get with the private configuration
	"$TOP/tests/tools/apt-private.sh" "$CACHE/apt" "deb $MIRROR
deb-src $MIRROR" "$@"
}

# The 0.3.21 source bookworm has now, once per Debian version.
fetch() {
	local ver
	mkdir -p "$CACHE"
	apt_private update >"$CACHE/apt.log" 2>&1 || return 1
	ver=$(APT_CONFIG=$CACHE/apt/apt.conf apt-cache showsrc openblas |
		awk '/^Version: 0\.3\.21/ { print $2; exit }')
	[ -n "$ver" ] || return 1
	SRC=$CACHE/src-$ver
	if [ ! -f "$SRC/complete" ]; then
		rm -rf "$SRC" && mkdir -p "$SRC" &&
		(cd "$SRC" && apt_private source "openblas=$ver") >>"$CACHE/apt.log" 2>&1 &&
		touch "$SRC/complete" || return 1
	fi
	VERSION=$ver
	SRC=$(ls -d "$SRC"/openblas-*/ | head -n 1)
	SRC=${SRC%/}
}

build() { # ARGS...: padpack build of the chosen variants, nice
	local v args=()
	for v in "${PATTERNS[@]}"; do args+=(--variant "$v"); done
	nice -n 19 "$PADPACK" build -c "$SPEC" --source "$SRC" -B "$B" "${args[@]}" "$@"
}

if ! fetch; then
	not_ok "openblas: its Debian source from the mirror" "$(tail -n 5 "$CACHE/apt.log")"
	exit 1
fi
ok "openblas $VERSION: its Debian source (cached in ${SRC%/*})"
B=$CACHE/build-$( { echo "$VERSION"; cc --version; } | sha256sum | cut -c1-16)

start=$SECONDS
out=$(build --json 2>"$WORK/build.err")
rc=$?
printf '%s\n' "$out" >"$WORK/build.json"
check "padpack build ${PATTERNS[*]} ($((SECONDS - start)) s, nice)" test "$rc" = 0
[ "$rc" = 0 ] || { cat "$WORK/build.err"; exit 1; }
mapfile -t BUILT < <(/usr/bin/python3 -c "
import json
for v in json.load(open('$WORK/build.json'))['variants']:
    if v['status'] == 'done': print(v['name'])")

cat >"$WORK/dgemm.c" <<'EOF'
#include <cblas.h>
#include <stdio.h>
/* 2x2 times 2x2 in double precision, and the library's own description */
int main(void) {
	double a[] = { 1, 2, 3, 4 }, b[] = { 5, 6, 7, 8 }, c[4] = { 0 };
	cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0,
		    a, 2, b, 2, 0.0, c, 2);
	printf("%g %g %g %g\n", c[0], c[1], c[2], c[3]);
	printf("%s\n", openblas_get_config());
	return 0;
}
EOF
for v in "${BUILT[@]}"; do
	s=$B/$v/stage
	check "$v: libopenblas.so.0, cblas.h and openblas.pc staged" bash -c "
		test -e '$s/$LIBDIR/libopenblas.so.0' &&
		test -f '$s/usr/include/x86_64-linux-gnu/openblas/cblas.h' &&
		test -f '$s/$LIBDIR/pkgconfig/openblas.pc'"
	check_fails "$v: a program linked with the staged library computes dgemm" 0 \
		'^19 22 43 50$' bash -c "
		cc -I'$s/usr/include/x86_64-linux-gnu/openblas' -o '$WORK/dgemm-$v' \
			'$WORK/dgemm.c' -L'$s/$LIBDIR' -lopenblas &&
		LD_LIBRARY_PATH='$s/$LIBDIR' '$WORK/dgemm-$v' | head -n 1"
	case $v in
	*-haswell)
		check_fails "$v: built for Haswell, with AVX2 code" 0 'AVX2' bash -c "
			LD_LIBRARY_PATH='$s/$LIBDIR' '$WORK/dgemm-$v' | tail -n 1 | grep -qi haswell &&
			'$PADPACK' isa '$s/$LIBDIR/libopenblas.so.0'" ;;
	*-dynamic)
		check_fails "$v: DYNAMIC_ARCH, kernels for several CPUs" 0 'DYNAMIC_ARCH' \
			bash -c "LD_LIBRARY_PATH='$s/$LIBDIR' '$WORK/dgemm-$v' | tail -n 1" ;;
	esac
done

start=$SECONDS
build -q
check "a second padpack build compiles nothing ($((SECONDS - start)) s)" bash -c "
	for v in ${BUILT[*]}; do
		grep -q '^==> padpack: done' '$B/'\$v/build.log || exit 1
		! grep -qE '(^| )(cc|gcc) .* -c ' '$B/'\$v/build.log || exit 1
	done"

# split needs the copyright file: the source package's
sed "s|^\trevision = \"1\";|&\n\tcopyright = \"$SRC/debian/copyright\";|" "$SPEC" \
	>"$WORK/openblas.cfg"
start=$SECONDS
out=$("$PADPACK" split -c "$WORK/openblas.cfg" -B "$B" -o "$WORK/debs" 2>&1)
rc=$?
check "padpack split of ${BUILT[*]} ($((SECONDS - start)) s)" test "$rc" = 0
printf '%s\n' "$out" | sed 's/^/# /'
for v in "${BUILT[@]}"; do
	check "$v: its runtime package holds the library" bash -c "
		ls '$WORK/debs'/libopenblas0-${v%-dynamic}_*.deb '$WORK/debs'/libopenblas0-${v}_*.deb 2>/dev/null |
		head -n 1 | xargs -r dpkg-deb -c | grep -q '/$LIBDIR/libopenblas.so.0'"
done
