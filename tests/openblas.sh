#!/bin/bash
# OpenBLAS from Debian 12's source through pkg/openblas.cfg (build.system
# "make"): fetch, padpack build of the variants asked for, what they
# staged and compute, a rebuild that compiles nothing, padpack split.
#
# Not part of `make check`: one variant compiles for minutes on two cores
# (see doc/openblas.md). Run by `make openblas`; OPENBLAS_VARIANTS chooses
# the variants (globs; default "pthread-*": pthread-dynamic and
# pthread-haswell; "*" for all six).
#
# Then, the co-installable set (pkg/openblas.cfg: packages.variants,
# packages.alternatives) judged by the real tools: lintian, and in a clean
# Debian 12 root (tests/tools/debian-root.sh) apt from a padpack
# repository, a C program linked with -lblas, Debian's python3-numpy,
# update-alternatives between two variants, removal, purge, the haswell
# package's CPU guard; and the ISA proof of the dynamic variants.
#
# The source comes from the Debian mirror through a private apt
# configuration (tests/tools/apt-private.sh) into
# /var/tmp/padpack-openblas/src-VERSION; the build trees are kept in
# /var/tmp/padpack-openblas/build-KEY (KEY: source version and compiler),
# where padpack build's own rebuild redoes only what changed.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/tools/debian-root.sh"

export SOURCE_DATE_EPOCH=1700000000
CACHE=/var/tmp/padpack-openblas
MIRROR="[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main"
SPEC=$TOP/pkg/openblas.cfg
LIBDIR=usr/lib/x86_64-linux-gnu
read -r -a PATTERNS <<<"${OPENBLAS_VARIANTS:-pthread-*}"

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

# The variants the patterns name, one a line (from a dry run).
variants() {
	local v args=()
	for v in "${PATTERNS[@]}"; do args+=(--variant "$v"); done
	"$PADPACK" build -c "$SPEC" --source "$SRC" -B "$B" "${args[@]}" --dry-run |
		sed -n 's/^# //p'
}

# padpack build of the chosen variants, nice, one at a time with every
# CPU: make's jobs (MAKE_NB_JOBS=@jobs@) are among the variables that
# make a tree start afresh, so builds sharing the CPUs (-j1 each) would
# not reuse a tree built alone. ARGS... go to each build; with --json the
# documents are merged into one.
build() {
	local v rc=0 out=()
	for v in $(variants); do
		nice -n 19 "$PADPACK" build -c "$SPEC" --source "$SRC" -B "$B" \
			--variant "$v" -j "$(nproc)" "$@" >"$WORK/build-$v.out" || rc=1
		out+=("$WORK/build-$v.out")
	done
	if [ "${1:-}" = --json ]; then
		/usr/bin/python3 -c '
import json, sys
print(json.dumps({"variants": [v for f in sys.argv[1:] for v in json.load(open(f))["variants"]]}))' "${out[@]}"
	else
		cat "${out[@]}"
	fi
	return $rc
}

if ! fetch; then
	not_ok "openblas: its Debian source from the mirror" "$(tail -n 5 "$CACHE/apt.log")"
	exit 1
fi
ok "openblas $VERSION: its Debian source (cached in ${SRC%/*})"
# "variant directories": the key of the layout with a directory per
# variant (build trees of the earlier layout stay where they are)
B=$CACHE/build-$( { echo "$VERSION"; cc --version; echo "variant directories"; } | sha256sum | cut -c1-16)

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
suffix_of() { local v=${1%-dynamic}; echo "$v"; }
for v in "${BUILT[@]}"; do
	s=$B/$v/stage
	d=$LIBDIR/openblas-$(suffix_of "$v")
	check "$v: libopenblas.so.0, libblas.so.3, cblas.h and openblas.pc in its own directories" bash -c "
		test -e '$s/$d/libopenblas.so.0' &&
		readelf -d '$s/$d/libblas.so.3' | grep -q 'Library soname: \[libblas.so.3\]' &&
		test -f '$s/usr/include/x86_64-linux-gnu/openblas-$(suffix_of "$v")/cblas.h' &&
		grep -qx 'libdir=/$d' '$s/$d/pkgconfig/openblas.pc'"
	check_fails "$v: a program linked with the staged library computes dgemm" 0 \
		'^19 22 43 50$' bash -c "
		cc -I'$s/usr/include/x86_64-linux-gnu/openblas-$(suffix_of "$v")' -o '$WORK/dgemm-$v' \
			'$WORK/dgemm.c' -L'$s/$d' -lopenblas &&
		LD_LIBRARY_PATH='$s/$d' '$WORK/dgemm-$v' | head -n 1"
	case $v in
	*-haswell)
		check_fails "$v: built for Haswell, with AVX2 code" 0 'AVX2' bash -c "
			LD_LIBRARY_PATH='$s/$d' '$WORK/dgemm-$v' | tail -n 1 | grep -qi haswell &&
			'$PADPACK' isa '$s/$d/libopenblas.so.0'" ;;
	*-dynamic)
		check_fails "$v: DYNAMIC_ARCH, kernels for several CPUs" 0 'DYNAMIC_ARCH' \
			bash -c "LD_LIBRARY_PATH='$s/$d' '$WORK/dgemm-$v' | tail -n 1" ;;
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
	check "$v: its runtime package holds libopenblas.so.0 and libblas.so.3, and no empty usr/bin" bash -c "
		c=\$(dpkg-deb -c '$WORK/debs'/libopenblas0-$(suffix_of "$v")_*.deb) &&
		grep -q '/$LIBDIR/openblas-$(suffix_of "$v")/libopenblas.so.0' <<<\"\$c\" &&
		grep -q '/$LIBDIR/openblas-$(suffix_of "$v")/libblas.so.3' <<<\"\$c\" &&
		! grep -q '/usr/bin/' <<<\"\$c\" && ! ls '$WORK/debs'/openblas-*.deb 2>/dev/null"
done

# ---- the packages judged by Debian's tools ------------------------------
D=$WORK/debs
lint=$(cd "$D" && nice lintian --display-level '>=warning' ./*.changes 2>&1 | grep -v '^running with root')
if printf '%s\n' "$lint" | grep -q '^E: '; then
	not_ok "lintian: no error on any of the $(ls "$D"/*.deb | wc -l) packages" "$(printf '%s\n' "$lint" | grep '^E: ')"
else
	ok "lintian: no error on any of the $(ls "$D"/*.deb | wc -l) packages (warnings: $(printf '%s\n' "$lint" | awk '/^W: / { print $3 }' | sort -u | tr '\n' ' '))"
fi

# The ISA proof of the dynamic variants: the AVX2 and AVX-512 kernels are
# there (isa_require) but exempt (isa_dispatch), listed by --explain; the
# package's level is what the rest of the code needs.
for v in "${BUILT[@]}"; do
	case $v in *-dynamic) ;; *) continue ;; esac
	check_fails "$v: --explain lists the exempt AVX2 and AVX-512 kernels; the package needs x86-64-v2 (SSE3) only" 0 \
		'isa: x86-64-v2 SSE3 .*exempt: AVX2, [0-9]+ instructions, first in [a-z0-9_]+ .*exempt: AVX-512F, [0-9]+ instructions, first in [a-z0-9_]+ .*Isa-Level: x86-64-v2 \(SSE3\)' \
		bash -c "'$PADPACK' split -c '$WORK/openblas.cfg' -B '$B' --explain 2>/dev/null |
		sed -n '/openblas-$(suffix_of "$v")\/libopenblasp\?o\?-r0.3.21.so\$/,/^[a-z]/p' | tr '\n' ' ';
		dpkg-deb -f '$D'/libopenblas0-$(suffix_of "$v")_*.deb Isa-Level | tr '\n' ' '"
done

# ---- in a clean Debian 12 root, from a padpack repository ---------------
in_root() { # SCRIPT on stdin, in a fresh overlay with $D as /debs
	local name
	name=t-$(date +%s%N).sh
	cat >"$D/$name"
	debian_root_run "$D" "sh -e /debs/$name"
}
if ! debian_root_prepare; then
	not_ok "a clean Debian 12 root (mmdebstrap)" "see above"
	exit 1
fi
if "$PADPACK" key generate --uid "OpenBLAS Tests <tests@example.org>" --out "$WORK/key" >"$WORK/repo.log" 2>&1 &&
   "$PADPACK" repo init "$D/repo" --origin OpenBLAS --label OpenBLAS --key "$WORK/key/secret.pem" \
	--uri file:/debs/repo >>"$WORK/repo.log" 2>&1 &&
   "$PADPACK" repo add --publish "$D/repo" "$D"/*.deb >>"$WORK/repo.log" 2>&1; then
	ok "the set published in a signed padpack repository"
else
	not_ok "the set published in a signed padpack repository" "$(cat "$WORK/repo.log")"
fi
# Debian has packages of these names (libopenblas0-pthread 0.3.21+ds-4),
# whose version sorts after ours (0.3.21-1): apt is told which to take.
OURS=$(dpkg-deb -f "$(ls "$D"/libopenblas0-*.deb | head -n 1)" Version)
REPO='install -m 0644 /debs/repo/*-archive-keyring.gpg /usr/share/keyrings/
cp /debs/repo/stable.sources /etc/apt/sources.list.d/openblas.sources
apt-get update -o Dir::Etc::SourceList=/dev/null -o APT::Get::List-Cleanup=0 >/dev/null 2>&1
inst() { apt-get install -y -q --no-install-recommends "$@" >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }; }
maps() { python3 -c "import numpy
a = numpy.arange(4096.0).reshape(64, 64); b = numpy.dot(a, a)
assert b[3][5] == sum(a[3][k] * a[k][5] for k in range(64))
print(sorted(set(l.split()[-1] for l in open(\"/proc/self/maps\") if \"blas\" in l)))"; }'
cat >"$D/dgemm.c" <<'EOF'
#include <cblas.h>
#include <stdio.h>
/* dgemm and sgemm through the generic libblas.so.3 */
int main(void) {
	double a[] = { 1, 2, 3, 4 }, b[] = { 5, 6, 7, 8 }, c[4] = { 0 };
	float x[] = { 1, 2, 3, 4 }, y[] = { 1, 0, 0, 1 }, z[4] = { 0 };
	cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0,
		    a, 2, b, 2, 0.0, c, 2);
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0f,
		    x, 2, y, 2, 0.0f, z, 2);
	printf("dgemm %g %g %g %g sgemm %g %g %g %g\n", c[0], c[1], c[2], c[3],
	       z[0], z[1], z[2], z[3]);
	return 0;
}
EOF
for v in "${BUILT[@]}"; do
	[ "$v" = pthread-haswell ] && [ "${#BUILT[@]}" -gt 1 ] && continue
	sx=$(suffix_of "$v")
	check_fails "$v from the repository: a C program linked -lblas computes dgemm and sgemm; numpy.dot runs on the variant's library" 0 \
		"^dgemm 19 22 43 50 sgemm 1 2 3 4 \\| libblas.so.3 => /usr/lib/x86_64-linux-gnu/libblas.so.3 .*\\| numpy: .*'/usr/lib/x86_64-linux-gnu/openblas-$sx/libblas.so.3', '/usr/lib/x86_64-linux-gnu/openblas-$sx/libopenblas" \
		in_root <<-EOF
		$REPO
		inst libopenblas0-$sx=$OURS libopenblas-dev-$sx=$OURS python3-numpy gcc libc6-dev
		gcc -o /tmp/dgemm /debs/dgemm.c -lblas
		printf '%s | ' "\$(/tmp/dgemm)" "\$(ldd /tmp/dgemm | grep -o 'libblas.so.3 => [^ ]*')"
		echo "numpy: \$(maps)"
		EOF
done

if [ -e "$B/pthread-dynamic/stage" ] && [ -e "$B/pthread-haswell/stage" ]; then
	check_fails "two variants together: haswell (105) before dynamic (100); --set switches numpy; removing the selected one falls back; purge leaves nothing" 0 \
		"^both: .*openblas-pthread-haswell/libblas.so.3.* \\| set: .*openblas-pthread/libblas.so.3.* \\| removed: .*openblas-pthread-haswell/libblas.so.3.* \\| purged: nothing left\$" \
		in_root <<-EOF
		$REPO
		inst python3-numpy libopenblas0-pthread=$OURS libopenblas0-pthread-haswell libopenblas-dev-pthread=$OURS libopenblas-dev-pthread-haswell
		printf 'both: %s | ' "\$(maps)"
		update-alternatives --set libblas.so.3-x86_64-linux-gnu /usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 >/dev/null
		printf 'set: %s | ' "\$(maps)"
		apt-get remove -y -q libopenblas0-pthread libopenblas-dev-pthread >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
		printf 'removed: %s | ' "\$(maps)"
		dpkg -P python3-numpy liblapack3 libopenblas-dev-pthread-haswell libopenblas0-pthread-haswell libopenblas0-pthread libopenblas-dev-pthread >/dev/null 2>&1
		left=\$(ls /etc/alternatives /var/lib/dpkg/alternatives | grep -i -e blas -e cblas -e f77 -e openblas || true)
		left="\$left\$(ls -d /usr/lib/x86_64-linux-gnu/openblas-* /usr/include/x86_64-linux-gnu/openblas-* /usr/lib/x86_64-linux-gnu/libblas* /usr/lib/x86_64-linux-gnu/libopenblas* 2>/dev/null || true)"
		echo "purged: \${left:-nothing left}"
		EOF
fi

if [ -e "$B/pthread-haswell/stage" ]; then
	awk '/^flags/ { s = $0; n = split(s, w, " "); s = "";
		for (i = 1; i <= n; i++) if (w[i] !~ /^(avx.*|fma|f16c)$/) s = s " " w[i];
		print substr(s, 2); next } { print }' /proc/cpuinfo >"$D/t-cpuinfo"
	check_fails "a CPU without AVX2: libopenblas0-pthread-haswell refuses to install, naming the dynamic variant" 0 \
		'E: libopenblas0-pthread-haswell needs a CPU with .*AVX2.*lacks: .*avx2.*Install libopenblas0-pthread .*refused: [1-9]' \
		in_root <<-EOF
		mount --bind /debs/t-cpuinfo /proc/cpuinfo
		rc=0; dpkg -i /debs/libopenblas0-pthread-haswell_*.deb >/tmp/out 2>&1 || rc=\$?
		tr '\n' ' ' </tmp/out; echo refused: \$rc
		EOF
fi
