#!/bin/bash
# OpenBLAS from Debian 12's source through pkg/openblas.cfg (build.system
# "make"): fetch, padpack build of the variants asked for, what they
# staged and compute, a rebuild that compiles nothing, padpack split.
#
# Not part of `make check`: one variant compiles for minutes on two cores
# (see doc/openblas.md). Run by `make openblas`; OPENBLAS_VARIANTS chooses
# the variants (globs; "*" for all six). The default is the three whose
# build trees this machine's cache holds whole, openmp-dynamic,
# pthread-haswell and serial-haswell: the three threading values and both
# CPU values (each other variant compiles for 10 to 40 minutes on two
# cores).
#
# Then, the co-installable set (pkg/openblas.cfg: packages.variants,
# packages.alternatives) judged by the real tools: lintian, piuparts, and
# in clean Debian 12 roots (tests/tools/debian-root.sh) apt from a padpack
# repository, a C program linked with -lblas, Debian's python3-numpy,
# adequate, update-alternatives between two variants, removal, purge, the
# haswell package's CPU guard, apt-get upgrade to the next revision; the
# ISA proof of the dynamic variants; the files and symbols against
# Debian's own packages of the same source.
#
# The source comes from the Debian mirror through a private apt
# configuration (tests/tools/apt-private.sh) into
# /var/tmp/padpack-openblas/src-VERSION; the build trees are kept in
# /var/tmp/padpack-openblas/build-KEY (KEY: source version and compiler),
# where padpack build's own rebuild redoes only what changed.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/tools/debian-root.sh"
source "$(dirname "$0")/tools/lighttpd.sh"

export SOURCE_DATE_EPOCH=1700000000
CACHE=/var/tmp/padpack-openblas
MIRROR="[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main"
SPEC=$TOP/pkg/openblas.cfg
LIBDIR=usr/lib/x86_64-linux-gnu
read -r -a PATTERNS <<<"${OPENBLAS_VARIANTS:-openmp-dynamic pthread-haswell serial-haswell}"

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
build -q --no-test
check "a second padpack build compiles nothing ($((SECONDS - start)) s; --no-test)" bash -c "
	for v in ${BUILT[*]}; do
		grep -q '^==> padpack: done' '$B/'\$v/build.log || exit 1
		! grep -qE '(^| )(cc|gcc) .* -c ' '$B/'\$v/build.log || exit 1
	done"

# split needs the copyright file: the source package's
sed "s|^\trevision = \"1\";|&\n\tcopyright = \"$SRC/debian/copyright\";|" "$SPEC" \
	>"$WORK/openblas.cfg"
# only the variants built now (a stage of another may be older)
SPLIT_ARGS=()
for v in "${BUILT[@]}"; do SPLIT_ARGS+=(--variant "$v"); done
start=$SECONDS
out=$("$PADPACK" split -c "$WORK/openblas.cfg" -B "$B" -o "$WORK/debs" "${SPLIT_ARGS[@]}" 2>&1)
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
# lintian takes minutes: it runs beside the checks in the roots below
(cd "$D" && nice lintian --display-level '>=warning' ./*.changes >"$WORK/lintian.out" 2>&1) &
LINTIAN=$!
check "the packages that hold the alternatives' links ship the links' directories (usr/lib/.../pkgconfig/, cmake/openblas/)" bash -c "
	for f in '$D'/libopenblas-dev-*.deb; do
		c=\$(dpkg-deb -c \"\$f\" | awk '{ print \$6 }')
		grep -qx './$LIBDIR/pkgconfig/' <<<\"\$c\" && grep -qx './$LIBDIR/cmake/openblas/' <<<\"\$c\" &&
		grep -qx './usr/include/x86_64-linux-gnu/' <<<\"\$c\" || { echo \"\$f\"; exit 1; }
	done"

# The ISA proof of the dynamic variants: the AVX2 and AVX-512 kernels are
# there (isa_require) but exempt (isa_dispatch): --explain lists the
# exempt code of the library by extension with the function it starts
# in, and every exempt function, each of which the spec's isa_dispatch
# globs must name; the package's level is what the rest of the code needs.
DISPATCH_GLOBS=$(sed -n '/^\tisa_dispatch = (/,/^\t);/p' "$SPEC" | sed -n '/symbols/,/ \];/p' |
	grep -o '"[^"]*"' | tr -d '"' | tr '\n' ' ')
exempt_functions() { # VARIANT: --explain's isa and exempt lines of its library; "not dispatch code" for a function no glob names
	local v=$1 lines fn g named nr_dispatch=0
	lines=$("$PADPACK" split -c "$WORK/openblas.cfg" -B "$B" --variant "$v" --explain 2>/dev/null |
		sed -n "/openblas-$(suffix_of "$v")\\/libopenblas[a-z_]*-r0\\.3\\.21\\.so\$/,/^[a-z]/p" |
		grep -E '^ +(isa|exempt): |^ +exempt functions that need |^ {13}[^ ]')
	# the names (lines indented 13) are checked, not printed
	printf '%s\n' "$lines" | grep -v '^ \{13\}[^ ]'
	for fn in $( (printf '%s\n' "$lines" | sed -n 's/.*, first in \([A-Za-z0-9_]*\).*/\1/p'
		printf '%s\n' "$lines" | grep '^ \{13\}[^ ]' | tr ' ' '\n') | sort -u); do
		named=
		for g in $DISPATCH_GLOBS; do
			# shellcheck disable=SC2053 # g is a glob
			[[ $fn == $g ]] && named=$g
		done
		if [ -n "$named" ]; then nr_dispatch=$((nr_dispatch + 1)); else echo "not dispatch code: $fn"; fi
	done
	[ "$nr_dispatch" = 0 ] || echo "dispatch code: $nr_dispatch functions, each named by a glob"
	dpkg-deb -f "$D"/libopenblas0-"$(suffix_of "$v")"_*.deb Isa-Level
}
for v in "${BUILT[@]}"; do
	case $v in *-dynamic) ;; *) continue ;; esac
	exempt_functions "$v" >"$WORK/explain-$v" 2>&1
	sed 's/^/# /' "$WORK/explain-$v"
	check "$v: --explain lists the exempt AVX2 and AVX-512 code and every exempt function, each one isa_dispatch names; the package needs x86-64-v2 (SSE3) only" bash -c "
		grep -q '^ *isa: x86-64-v2 SSE3 ' '$WORK/explain-$v' &&
		grep -Eq '^ *exempt: AVX2, [0-9]+ instructions, first in ' '$WORK/explain-$v' &&
		grep -Eq '^ *exempt: AVX-512F, [0-9]+ instructions, first in ' '$WORK/explain-$v' &&
		grep -Eq '^ *exempt functions that need [^(]*AVX2[^(]* \([0-9]+\):\$' '$WORK/explain-$v' &&
		grep -Eq '^ *exempt functions that need [^(]*AVX-512F[^(]* \([0-9]+\):\$' '$WORK/explain-$v' &&
		grep -q '^dispatch code: ' '$WORK/explain-$v' && ! grep -q '^not dispatch code' '$WORK/explain-$v' &&
		grep -qx 'x86-64-v2 (SSE3)' '$WORK/explain-$v'"
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
publish() { # REPO DEB...: a signed padpack repository at $D/REPO
	local repo=$1; shift
	[ -d "$WORK/key" ] || "$PADPACK" key generate --uid "OpenBLAS Tests <tests@example.org>" --out "$WORK/key" || return 1
	"$PADPACK" repo init "$D/$repo" --origin OpenBLAS --label OpenBLAS --key "$WORK/key/secret.pem" \
		--uri "file:/debs/$repo" && "$PADPACK" repo add --publish "$D/$repo" "$@"
}
if publish repo "$D"/*.deb >"$WORK/repo.log" 2>&1; then
	ok "the set published in a signed padpack repository"
else
	not_ok "the set published in a signed padpack repository" "$(cat "$WORK/repo.log")"
fi
# Debian has packages of some of these names (libopenblas0-pthread,
# libopenblas0-openmp 0.3.21+ds-4) whose version sorts after ours
# (0.3.21-1): apt is pinned to the padpack repository for them, as a user
# of such a repository would (the pin doc/openblas.md gives users).
cat >"$D/openblas.pref" <<'EOF'
Package: libopenblas*
Pin: release o=OpenBLAS
Pin-Priority: 990
EOF
REPO='install -m 0644 /debs/repo/*-archive-keyring.gpg /usr/share/keyrings/
cp /debs/repo/stable.sources /etc/apt/sources.list.d/openblas.sources
install -m 0644 /debs/openblas.pref /etc/apt/preferences.d/openblas
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

# One variant of each threading value built: apt installs it, a C program
# linked -lblas computes dgemm and sgemm, numpy.dot runs on it, and
# adequate finds nothing wrong with its packages.
declare -A SEEN=()
for v in "${BUILT[@]}"; do
	[ -n "${SEEN[${v%%-*}]:-}" ] && continue
	SEEN[${v%%-*}]=1
	sx=$(suffix_of "$v")
	check_fails "$v from the repository: a C program linked -lblas computes dgemm and sgemm through the variant's libblas.so.3; numpy.dot runs on it; adequate finds nothing" 0 \
		"^dgemm 19 22 43 50 sgemm 1 2 3 4 \\| libblas.so.3 => /usr/lib/x86_64-linux-gnu/openblas-$sx/libblas.so.3 \\| numpy: .*'/usr/lib/x86_64-linux-gnu/openblas-$sx/libblas.so.3', '/usr/lib/x86_64-linux-gnu/openblas-$sx/libopenblas.*\\| adequate: clean\$" \
		in_root <<-EOF
		$REPO
		inst libopenblas0-$sx libopenblas-dev-$sx python3-numpy adequate
		gcc -o /tmp/dgemm /debs/dgemm.c -lblas
		printf '%s | ' "\$(/tmp/dgemm)" "libblas.so.3 => \$(readlink -f "\$(ldd /tmp/dgemm | awk '/libblas.so.3 =>/ { print \$3 }')")"
		printf 'numpy: %s | ' "\$(maps)"
		a=\$(adequate libopenblas0-$sx libopenblas-dev-$sx 2>&1)
		echo "adequate: \${a:-clean}"
		EOF
done

# The update-alternatives priority of a variant (pkg/openblas.cfg).
priority() {
	local p
	case $1 in pthread-*) p=100 ;; openmp-*) p=95 ;; *) p=90 ;; esac
	case $1 in *-haswell) p=$((p + 3)) ;; esac
	echo "$p"
}
ALTS="libblas.so.3-x86_64-linux-gnu libblas.so-x86_64-linux-gnu libopenblas.so-x86_64-linux-gnu"
# Nothing of ours after a purge: no alternative naming a file of ours, no
# dangling link in /etc/alternatives, no file dpkg knows, no file at all
# (but the test's apt source, pin and key of the repository).
LEFT='left=$(grep -rl openblas /var/lib/dpkg/alternatives /etc/alternatives 2>/dev/null || true)
left="$left$(find /etc/alternatives -xtype l)"
left="$left$(dpkg -S openblas 2>/dev/null || true)"
left="$left$(find / -xdev \( -path /debs -o -path /proc -o -path /etc/apt -o -path /usr/share/keyrings \) -prune -o -iname "*openblas*" -print)"'
if [ "${#BUILT[@]}" -ge 2 ]; then
	HI=${BUILT[0]} LO=${BUILT[1]}
	[ "$(priority "$LO")" -gt "$(priority "$HI")" ] && HI=${BUILT[1]} LO=${BUILT[0]}
	HS=$(suffix_of "$HI") LS=$(suffix_of "$LO")
	check_fails "$HI and $LO together: $HI ($(priority "$HI")) chosen; --set switches what numpy loads to $LO; removing $LO falls back to $HI; purge leaves nothing" 0 \
		"^both: .*openblas-$HS/libblas.so.3.* \\| set: .*openblas-$LS/libblas.so.3.*openblas-$LS/libopenblas.* \\| removed: .*openblas-$HS/libblas.so.3.* \\| purged: nothing left\$" \
		in_root <<-EOF
		$REPO
		inst python3-numpy libopenblas0-$HS libopenblas0-$LS libopenblas-dev-$HS libopenblas-dev-$LS
		printf 'both: %s | ' "\$(maps)"
		update-alternatives --set libblas.so.3-x86_64-linux-gnu /usr/lib/x86_64-linux-gnu/openblas-$LS/libblas.so.3 >/dev/null
		printf 'set: %s | ' "\$(maps)"
		apt-get remove -y -q libopenblas0-$LS libopenblas-dev-$LS >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
		printf 'removed: %s | ' "\$(maps)"
		apt-get purge -y -q --autoremove python3-numpy 'libopenblas*' >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
		$LEFT
		echo "purged: \${left:-nothing left}"
		EOF
fi

# A haswell package on a CPU without AVX2 (a /proc/cpuinfo without the
# flags, bound over the real one): its preinst refuses, naming the package
# to install instead.
for v in "${BUILT[@]}"; do
	case $v in *-haswell) ;; *) continue ;; esac
	awk '/^flags/ { s = $0; n = split(s, w, " "); s = "";
		for (i = 1; i <= n; i++) if (w[i] !~ /^(avx.*|fma|f16c)$/) s = s " " w[i];
		print substr(s, 2); next } { print }' /proc/cpuinfo >"$D/t-cpuinfo"
	check_fails "a CPU without AVX2: libopenblas0-$(suffix_of "$v") refuses to install, naming a dynamic variant" 0 \
		"E: libopenblas0-$(suffix_of "$v") needs a CPU with .*AVX2.*lacks: .*avx2.*Install libopenblas0-[a-z]+ \\(the [a-z]+-dynamic variant\\) .*refused: [1-9]" \
		in_root <<-EOF
		mount --bind /debs/t-cpuinfo /proc/cpuinfo
		rc=0; dpkg -i /debs/libopenblas0-$(suffix_of "$v")_*.deb >/tmp/out 2>&1 || rc=\$?
		tr '\n' ' ' </tmp/out; echo refused: \$rc
		EOF
	break
done

# The next revision, split again from the same trees (nothing compiled),
# in a second padpack repository: apt-get upgrade takes every package to
# it; the alternatives and the administrator's choice are what they were.
# (piuparts' upgrade test below starts from revision 1 too.)
sed 's/^\trevision = "1";/\trevision = "2";/' "$WORK/openblas.cfg" >"$WORK/openblas-2.cfg"
if "$PADPACK" split -q -c "$WORK/openblas-2.cfg" -B "$B" -o "$WORK/debs2" "${SPLIT_ARGS[@]}" >"$WORK/split2.log" 2>&1 &&
   publish repo2 "$D"/*.deb "$WORK/debs2"/*.deb >>"$WORK/split2.log" 2>&1; then
	ok "revision 2 split from the same trees and published beside revision 1"
else
	not_ok "revision 2 split from the same trees and published beside revision 1" "$(tail -n 15 "$WORK/split2.log")"
fi
if [ "${#BUILT[@]}" -ge 2 ]; then
	check_fails "apt-get upgrade from revision 1 to 2 in a padpack repository: all four packages upgraded, the alternatives and the choice of $LO intact" 0 \
		'^before: .*openblas-'"$LS"'/libblas.so.3.* \| after: .*openblas-'"$LS"'/libblas.so.3.* \| versions: (0\.3\.21-2 ){4}\| alternatives: same \| .*manual mode' \
		in_root <<-EOF
		$REPO
		inst python3-numpy libopenblas0-$HS libopenblas0-$LS libopenblas-dev-$HS libopenblas-dev-$LS
		update-alternatives --set libblas.so.3-x86_64-linux-gnu /usr/lib/x86_64-linux-gnu/openblas-$LS/libblas.so.3 >/dev/null
		printf 'before: %s | ' "\$(maps)"
		for a in $ALTS; do update-alternatives --query \$a; done >/tmp/alt-before
		sed -i 's|/debs/repo\$|/debs/repo2|; s|/debs/repo |/debs/repo2 |' /etc/apt/sources.list.d/openblas.sources
		apt-get update -o Dir::Etc::SourceList=/dev/null -o APT::Get::List-Cleanup=0 >/dev/null 2>&1
		apt-get upgrade -y -q >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
		printf 'after: %s | ' "\$(maps)"
		printf 'versions: %s| ' "\$(dpkg-query -W -f '\${Version} ' libopenblas0-$HS libopenblas0-$LS libopenblas-dev-$HS libopenblas-dev-$LS)"
		for a in $ALTS; do update-alternatives --query \$a; done >/tmp/alt-after
		cmp -s /tmp/alt-before /tmp/alt-after && printf 'alternatives: same | ' || { diff /tmp/alt-before /tmp/alt-after; exit 1; }
		update-alternatives --display libblas.so.3-x86_64-linux-gnu | head -n 1
		EOF
fi

# ---- compared with Debian's own packages of the same source -------------
# Debian's libopenblas0-T and libopenblas-T-dev (T the threading of a
# dynamic variant built here), fetched once into the cache: the files
# each has that the other has not (doc/openblas.md explains them; not
# usr/share/doc or lintian's overrides, which are named after each
# package and say things of the packaging, not the library), and
# the symbols of libblas.so.3 and libopenblas.so.0.
compare_debian() { # THREADING
	local t=$1 dir=$CACHE/debian-$VERSION
	if [ ! -f "$dir/complete-$t" ]; then
		mkdir -p "$dir" &&
		(cd "$dir" && apt_private download "libopenblas0-$t=$VERSION" "libopenblas-$t-dev=$VERSION") >>"$CACHE/apt.log" 2>&1 &&
		touch "$dir/complete-$t" || return 1
	fi
	/usr/bin/python3 - "$D" "$dir" "$t" <<'EOF'
import glob, os, subprocess, sys, tempfile
ours_dir, theirs_dir, t = sys.argv[1:]
def deb(d, name):
    return glob.glob(os.path.join(d, name + "_*.deb"))[0]
def files(path):
    tar = subprocess.run(["dpkg-deb", "--fsys-tarfile", path], check=True, capture_output=True).stdout
    names = subprocess.run(["tar", "-tf", "-"], input=tar, check=True, capture_output=True).stdout.decode().split("\n")
    return {n[1:] for n in names if n and not n.endswith("/") and "/usr/share/doc/" not in n
            and "/usr/share/lintian/overrides/" not in n}
def symbols(path, lib):
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["dpkg-deb", "-x", path, tmp], check=True)
        out = subprocess.run(["nm", "-D", "--defined-only", os.path.join(tmp, "usr/lib/x86_64-linux-gnu/openblas-" + t, lib)],
                             check=True, capture_output=True).stdout.decode()
    return {l.split()[-1] for l in out.splitlines()}
for ours, theirs in (("libopenblas0-" + t, "libopenblas0-" + t), ("libopenblas-dev-" + t, "libopenblas-%s-dev" % t)):
    a, b = files(deb(ours_dir, ours)), files(deb(theirs_dir, theirs))
    print("%s against %s: only Debian's: %s; only padpack's: %s" % (ours, theirs,
          " ".join(sorted(os.path.basename(f) for f in b - a)) or "none",
          " ".join(sorted(os.path.basename(f) for f in a - b)) or "none"))
ours, theirs = deb(ours_dir, "libopenblas0-" + t), deb(theirs_dir, "libopenblas0-" + t)
a, b = symbols(ours, "libblas.so.3"), symbols(theirs, "libblas.so.3")
print("libblas.so.3: %d symbols, Debian's %d, %s" % (len(a), len(b), "the same" if a == b else "different"))
a, b = symbols(ours, "libopenblas.so.0"), symbols(theirs, "libopenblas.so.0")
print("libopenblas.so.0: %d symbols, Debian's %d, %d of ours not in Debian's" % (len(a), len(b), len(a - b)))
EOF
}
for v in "${BUILT[@]}"; do
	case $v in *-dynamic) ;; *) continue ;; esac
	t=${v%%-*}
	compare_debian "$t" >"$WORK/compare-$t" 2>&1
	sed 's/^/# /' "$WORK/compare-$t"
	check "$v against Debian's libopenblas0-$t and libopenblas-$t-dev $VERSION: the same files but LAPACK's, the same libblas.so.3 symbols, no libopenblas.so.0 symbol Debian's lacks" bash -c "
		grep -qx 'libopenblas0-$t against libopenblas0-$t: only Debian.s: liblapack.so.3; only padpack.s: none' '$WORK/compare-$t' &&
		grep -qx 'libopenblas-dev-$t against libopenblas-$t-dev: only Debian.s: blas-openblas.pc lapack-openblas.pc libblas.a liblapack.a liblapack.so; only padpack.s: none' '$WORK/compare-$t' &&
		grep -q '^libblas.so.3: .*, the same\$' '$WORK/compare-$t' &&
		grep -q '^libopenblas.so.0: .*, 0 of ours not in Debian.s\$' '$WORK/compare-$t'"
	break
done

# piuparts: install, purge and what is left of each variant's runtime and
# -dev packages of revision 2, then its own upgrade test: revision 1
# installed by apt from the signed padpack repository (served by lighttpd
# on 127.0.0.1), upgraded to revision 2 from the files, purged. It starts
# from a user's root: the cached clean root with the repository's key and
# pin (the layer under $WORK/user-layer, a read-only overlay piuparts
# copies); without the pin apt takes Debian's libopenblas0-T 0.3.21+ds-4,
# whose version sorts after ours, and the upgrade test fails. Debian's
# mirror supplies the dependencies, as in the roots above.
mkdir -p "$WORK/user-layer/usr/share/keyrings" "$WORK/user-layer/etc/apt/preferences.d" "$WORK/user-root"
install -m 0644 "$D"/repo/*-archive-keyring.gpg "$WORK/user-layer/usr/share/keyrings/"
install -m 0644 "$D/openblas.pref" "$WORK/user-layer/etc/apt/preferences.d/openblas"
KEYRING=/usr/share/keyrings/$(basename "$D"/repo/*-archive-keyring.gpg)
piuparts_user_root() { # ARGS...: piuparts from the user's root
	unshare --mount sh -ec '
		mount --make-rprivate /
		mount -t overlay overlay -o "ro,lowerdir=$1:$2" "$3"
		root=$3; shift 3
		exec nice piuparts --existing-chroot="$root" "$@"
	' sh "$WORK/user-layer" "$DEBIAN_ROOT" "$WORK/user-root" "$@"
}
# Its log: both PASS lines, and each package fetched at OLD from the
# repository on 127.0.0.1, then unpacked at NEW over OLD.
piuparts_upgraded() { # LOG OLD NEW PACKAGE...
	local log=$1 old=$2 new=$3 p
	shift 3
	grep -q 'INFO: PASS: Installation and purging test\.$' "$log" &&
	grep -q 'INFO: PASS: Installation, upgrade and purging tests\.$' "$log" || return 1
	for p in "$@"; do
		grep -Fq " http://127.0.0.1:$LIGHTTPD_PORT stable/main amd64 $p amd64 $old [" "$log" &&
		grep -Fq "Unpacking $p:amd64 ($new) over ($old) ..." "$log" || return 1
	done
}
if ! command -v piuparts >/dev/null; then
	not_ok "piuparts: install, purge and upgrade" "piuparts is not installed (scripts/install-deps.sh)"
elif ! lighttpd_start "$D/repo" "$WORK"; then
	not_ok "lighttpd serves the padpack repository on 127.0.0.1 for piuparts" \
		"$(cat "$WORK/lighttpd.out" "$WORK/lighttpd.err" 2>/dev/null)"
else
	trap 'lighttpd_stop; rm -rf "$WORK"' EXIT
	for v in "${BUILT[@]}"; do
		sx=$(suffix_of "$v")
		old=$(dpkg-deb -f "$D"/libopenblas0-"$sx"_*.deb Version)
		new=$(dpkg-deb -f "$WORK"/debs2/libopenblas0-"$sx"_*.deb Version)
		log=$WORK/piuparts-$v.log
		start=$SECONDS
		rc=0
		piuparts_user_root -d bookworm -m http://deb.debian.org/debian \
			--extra-repo "deb [signed-by=$KEYRING] http://127.0.0.1:$LIGHTTPD_PORT stable main" \
			"$WORK"/debs2/libopenblas0-"$sx"_*.deb "$WORK"/debs2/libopenblas-dev-"$sx"_*.deb >"$log" 2>&1 || rc=$?
		if [ "$rc" = 0 ] && piuparts_upgraded "$log" "$old" "$new" "libopenblas0-$sx" "libopenblas-dev-$sx"; then
			ok "piuparts: libopenblas0-$sx and libopenblas-dev-$sx $new install and purge; upgrade from $old, installed by apt from the padpack repository on 127.0.0.1 (pinned), to $new: PASS ($((SECONDS - start)) s)"
		else
			not_ok "piuparts: libopenblas0-$sx and libopenblas-dev-$sx $new install and purge; upgrade from $old in the padpack repository to $new" \
				"$(grep -E 'ERROR|FAIL|127\.0\.0\.1 .*libopenblas|Unpacking libopenblas|Depends: libopenblas' "$log" | tail -n 20)"
		fi
	done
	lighttpd_stop
fi

wait "$LINTIAN"
lint=$(grep -v '^running with root' "$WORK/lintian.out")
if printf '%s\n' "$lint" | grep -q '^E: '; then
	not_ok "lintian: no error on any of the $(ls "$D"/*.deb | wc -l) packages" "$(printf '%s\n' "$lint" | grep '^E: ')"
else
	ok "lintian: no error on any of the $(ls "$D"/*.deb | wc -l) packages (warnings: $(printf '%s\n' "$lint" | awk '/^W: / { print $3 }' | sort -u | tr '\n' ' '))"
fi
