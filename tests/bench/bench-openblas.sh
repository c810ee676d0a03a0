#!/bin/bash
# Part of `make bench` (PARTS=openblas): padpack split of the OpenBLAS
# variant set in one run against debhelper building the same variants,
# one dpkg-buildpackage -b per variant as Debian builds a variant (issue
# 15: the whole set <= 0.5x the sum of debhelper's runs).
#
# The staged trees are those `make openblas` (tests/openblas.sh) built and
# cached in /var/tmp/padpack-openblas/build-KEY; compiling them takes an
# hour or more here, so this part never builds: without the cache it says
# so and prints nothing else (OPENBLAS_CACHE: another cache directory).
# OPENBLAS_VARIANTS chooses the variants
# (default: the three the cache holds whole).
#
# debhelper gets, per variant, a debian/ directory generated from the
# packages padpack makes of that variant alone (split -Z none): one stanza
# per package but -dbgsym (dh_strip makes those), PKG.install with its
# files and PKG.dirs with its directories, padpack's maintainer scripts
# (update-alternatives, the CPU guard) as PKG.postinst/prerm/preinst, and
# debian/tmp a link to the variant's stage; dh with the upstream build
# and install steps empty (the tree is staged already), dh_strip with
# automatic -dbgsym packages, dh_makeshlibs, dh_shlibdeps, dh_builddeb
# (xz -6, as padpack). Both run one after the other, RUNS times; medians.
# A last row: padpack --threads 2 --memory-limit at the peak RSS of the
# largest debhelper process of the run (the packs' xz encoders held under
# it: one at a time at xz -6), the wall time this memory costs.
#   RUNS=1 JOBS=2 make bench PARTS=openblas
set -eu
shopt -s nullglob
cd "$(dirname "$0")/../.."
. tests/bench/lib-debhelper.sh
RUNS=${RUNS:-1}
JOBS=${JOBS:-$(nproc)}
export SOURCE_DATE_EPOCH=1700000000
CACHE=${OPENBLAS_CACHE:-/var/tmp/padpack-openblas}
read -r -a VARIANTS <<<"${OPENBLAS_VARIANTS:-openmp-dynamic pthread-haswell serial-haswell}"

echo "## The OpenBLAS variant set: padpack split against debhelper"
echo

# The cache tests/openblas.sh keys: source version, compiler, layout.
find_cache() {
	local srcs=("$CACHE"/src-*/openblas-*/debian/copyright) src v
	[ ${#srcs[@]} -gt 0 ] || return 1
	src=${srcs[-1]%/debian/copyright}
	COPYRIGHT=$src/debian/copyright
	VERSION=${src#"$CACHE"/src-}
	VERSION=${VERSION%%/*}
	B=$CACHE/build-$( { echo "$VERSION"; cc --version; echo "variant directories"; } |
		sha256sum | cut -c1-16)
	for v in "${VARIANTS[@]}"; do
		if [ ! -d "$B/$v/stage" ] ||
		   ! tail -n 1 "$B/$v/build.log" 2>/dev/null | grep -q '^==> padpack: done'; then
			MISSING=$v
			return 1
		fi
	done
}

MISSING=
if ! find_cache; then
	what="source of OpenBLAS" && [ -z "$MISSING" ] ||
		what="complete staged tree of $MISSING"
	echo "Skipped: no $what in $CACHE"
	echo "(\`make openblas\` builds and caches the variants; this part does not"
	echo "compile them)."
	exit 0
fi

work=$(mktemp -d /var/tmp/padpack-bench-openblas.XXXXXX)
trap 'rm -rf "$work"' EXIT
# split writes beside the stages (BUILD_DIR/split): a build directory of
# hard links to the cached stages keeps the cache as it is
for v in "${VARIANTS[@]}"; do
	mkdir -p "$work/B/$v"
	cp -al "$B/$v/stage" "$work/B/$v/stage"
done
sed "s|^\trevision = \"1\";|&\n\tcopyright = \"$COPYRIGHT\";|" pkg/openblas.cfg \
	>"$work/openblas.cfg"
VARIANT_ARGS=()
for v in "${VARIANTS[@]}"; do VARIANT_ARGS+=(--variant "$v"); done

split_run() { # NAME THREADS [OPTION...]: into $work/pNAME
	local j=$1 n=$2
	shift 2
	rm -rf "$work/p$j"
	TMPDIR=$work ./padpack split -q --threads "$n" "$@" -c "$work/openblas.cfg" \
		-B "$work/B" -o "$work/p$j" 2>"$work/split-$j.err"
}

# debian/ for VARIANT from padpack's packages of it alone (DEBS_DIR)
write_debian() { # VARIANT DEBS_DIR SRC_DIR
	local v=$1 d=$3/debian deb pkg f
	mkdir -p "$d/source"
	echo "3.0 (native)" >"$d/source/format"
	printf '#!/usr/bin/make -f\n%%:\n\tdh $@\n%s\n%s\n' \
		'override_dh_auto_install override_dh_auto_build override_dh_auto_configure override_dh_auto_test:' \
		'override_dh_dwz override_dh_prep override_dh_missing:' >"$d/rules"
	chmod +x "$d/rules"
	printf '%s\n' "openblas (0.3.21-1) unstable; urgency=medium" "" "  * Bench." "" \
		" -- Padpack Bench <bench@example.org>  Tue, 14 Nov 2023 22:13:20 +0000" >"$d/changelog"
	cp "$COPYRIGHT" "$d/copyright"
	printf '%s\n' "Source: openblas" "Section: libs" "Priority: optional" \
		"Maintainer: Padpack Bench <bench@example.org>" \
		"Build-Depends: debhelper-compat (= 13)" "Standards-Version: 4.6.2" \
		"Rules-Requires-Root: no" >"$d/control"
	for deb in "$2"/*.deb; do
		pkg=$(dpkg-deb -f "$deb" Package)
		case $pkg in *-dbgsym) continue ;; esac
		printf '%s\n' "" "Package: $pkg" "Architecture: amd64" \
			"Section: $(dpkg-deb -f "$deb" Section)" "Multi-Arch: same" \
			"Depends: \${shlibs:Depends}, \${misc:Depends}" >>"$d/control"
		f=$(dpkg-deb -f "$deb" Provides)
		[ -z "$f" ] || echo "Provides: $f" >>"$d/control"
		printf '%s\n' "Description: $pkg" " $pkg, as padpack split made it." >>"$d/control"
		dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { p = $6; sub(/^\.\//, "", p); print p }' |
			grep -v '^usr/share/\(doc\|lintian\)/' | while read -r f; do
				[ -e "$work/B/$v/stage/$f" ] || [ -L "$work/B/$v/stage/$f" ] &&
					echo "$f"
			done | sed 's|\(.*\)/\([^/]*\)$|\1/\2 \1|' >"$d/$pkg.install"
		dpkg-deb -c "$deb" | awk '$1 ~ /^d/ { p = $6; sub(/^\.\//, "", p); sub(/\/$/, "", p);
			if (p != "" && p !~ /^usr\/share\/(doc|lintian)/) print p }' >"$d/$pkg.dirs"
		rm -rf "$work/ctl" && dpkg-deb -e "$deb" "$work/ctl"
		for f in preinst postinst prerm postrm; do
			[ -f "$work/ctl/$f" ] && cp "$work/ctl/$f" "$d/$pkg.$f"
		done
	done
	ln -s "$work/B/$v/stage" "$d/tmp"
}

dh_run() { # VARIANT
	rm -rf "$work/dh-$1/out" && mkdir -p "$work/dh-$1/out/src"
	cp -a "$work/debian-$1" "$work/dh-$1/out/src/debian"
	(cd "$work/dh-$1/out/src" && DEB_BUILD_OPTIONS='' dpkg-buildpackage -b -nc -us -uc --no-check-builddeps)
}

# LOG CMD...: runs CMD, appends "WALL CPU PEAK_MIB" to LOG.t (CPU: user
# plus system seconds of CMD and everything it waited for; peak: the
# largest process's resident set, which is what GNU time reports).
ratio() { echo "$1 / $2" | bc -l; }

export -f split_run dh_run
export work COPYRIGHT
for v in "${VARIANTS[@]}"; do
	split_run "plan-$v" 2 -Z none --variant "$v" >/dev/null
	mkdir -p "$work/gen-$v"
	write_debian "$v" "$work/pplan-$v" "$work/gen-$v"
	mv "$work/gen-$v/debian" "$work/debian-$v"
done
for _ in $(seq "$RUNS"); do
	for v in "${VARIANTS[@]}"; do
		timed "$work/dh-$v" dh_run "$v"
	done
	for j in $JOBS; do
		timed "$work/p$j" split_run "$j" "$j" "${VARIANT_ARGS[@]}"
	done
	# --threads 2 with the compressors held under the peak of this
	# run's largest debhelper process: the other side of the trade-off
	MEMLIMIT=$(for v in "${VARIANTS[@]}"; do tail -n 1 "$work/dh-$v.t"; done |
		awk '$3 > m { m = $3 } END { print m }')
	timed "$work/pmem" split_run mem 2 --memory-limit="${MEMLIMIT}MiB" "${VARIANT_ARGS[@]}"
done

ncpu=$(nproc)
dh_t=0 dh_c=0 dh_r=0 dh_b=0 dh_n=0
rows=()
for v in "${VARIANTS[@]}"; do
	t=$(col "$work/dh-$v.t" 1) c=$(col "$work/dh-$v.t" 2) r=$(col "$work/dh-$v.t" 3)
	files=("$work/dh-$v"/out/*.deb "$work/dh-$v"/out/*.ddeb)
	b=$(bytes "${files[@]}")
	rows+=("$(printf '| debhelper, %s | %d | %d | %.1f | %.1f | %.0f%% | %.1f |' \
		"$v" "${#files[@]}" "$b" "$t" "$c" "$(echo "100 * $c / ($t * $ncpu)" | bc -l)" "$r")")
	dh_t=$(echo "$dh_t + $t" | bc -l) dh_c=$(echo "$dh_c + $c" | bc -l)
	dh_b=$((dh_b + b)) dh_n=$((dh_n + ${#files[@]}))
	dh_r=$(echo "if ($r > $dh_r) $r else $dh_r" | bc -l)
done

echo "Variants: ${VARIANTS[*]} (OpenBLAS $VERSION's source, staged by"
echo "\`make openblas\`: $(du -scm --apparent-size "${VARIANTS[@]/#/$work/B/}" | tail -n 1 | cut -f1) MB in all)."
echo "debhelper: one \`dpkg-buildpackage -b\` per variant (dh 13), one after the other;"
echo "padpack: one \`padpack split\` of the whole set. Both xz -6. Median of $RUNS run(s);"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
echo "CPU: user + system seconds of the run and all it waited for; busy: CPU / (wall x $ncpu);"
echo "peak RSS: the largest process (for debhelper's sum, the largest of the runs)."
echo
echo "| run | packages | bytes | wall s | CPU s | busy | peak RSS MiB |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
printf '%s\n' "${rows[@]}"
printf '| debhelper, the sum | %d | %d | %.1f | %.1f | %.0f%% | %.1f |\n' \
	"$dh_n" "$dh_b" "$dh_t" "$dh_c" "$(echo "100 * $dh_c / ($dh_t * $ncpu)" | bc -l)" "$dh_r"
for j in $JOBS; do
	t=$(col "$work/p$j.t" 1) c=$(col "$work/p$j.t" 2) r=$(col "$work/p$j.t" 3)
	printf '| padpack split --threads %d, the set | %d | %d | %.1f | %.1f | %.0f%% | %.1f |\n' \
		"$j" "$(ls "$work/p$j"/*.deb | wc -l)" "$(bytes "$work/p$j"/*.deb)" "$t" "$c" \
		"$(echo "100 * $c / ($t * $ncpu)" | bc -l)" "$r"
done
t=$(col "$work/pmem.t" 1) c=$(col "$work/pmem.t" 2) r=$(col "$work/pmem.t" 3)
printf '| padpack split --threads 2 --memory-limit=%sMiB, the set | %d | %d | %.1f | %.1f | %.0f%% | %.1f |\n' \
	"$MEMLIMIT" "$(ls "$work/pmem"/*.deb | wc -l)" "$(bytes "$work/pmem"/*.deb)" "$t" "$c" \
	"$(echo "100 * $c / ($t * $ncpu)" | bc -l)" "$r"
echo
echo "| padpack / debhelper's sum | wall | CPU | bytes | peak RSS |"
echo "| --- | ---: | ---: | ---: | ---: |"
for j in $JOBS; do
	printf '| --threads %d | %.3f | %.3f | %.4f | %.3f |\n' "$j" \
		"$(ratio "$(col "$work/p$j.t" 1)" "$dh_t")" "$(ratio "$(col "$work/p$j.t" 2)" "$dh_c")" \
		"$(ratio "$(bytes "$work/p$j"/*.deb)" "$dh_b")" "$(ratio "$(col "$work/p$j.t" 3)" "$dh_r")"
done
printf '| --threads 2 --memory-limit=%sMiB | %.3f | %.3f | %.4f | %.3f |\n' "$MEMLIMIT" \
	"$(ratio "$(col "$work/pmem.t" 1)" "$dh_t")" "$(ratio "$(col "$work/pmem.t" 2)" "$dh_c")" \
	"$(ratio "$(bytes "$work/pmem"/*.deb)" "$dh_b")" "$(ratio "$(col "$work/pmem.t" 3)" "$dh_r")"
echo
first=${JOBS%% *}
threads_identical "$work" "$JOBS"
same=yes
for f in "$work/p$first"/*.deb; do
	cmp -s "$f" "$work/pmem/$(basename "$f")" || same="no ($(basename "$f"))"
done
echo "Packages byte-identical with --memory-limit: $same."
echo "Target: the set's wall time <= 0.5 x the sum of debhelper's; bytes and RSS ratios <= 1."
echo
bytes_table "$work/p$first" "$work"/dh-*/out
