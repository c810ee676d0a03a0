#!/bin/bash
# Part of `make bench` (PARTS=bigtree): padpack split of a large staged
# tree of real ELF code against debhelper making the same packages from
# the same tree (issue 15, "Large trees: at least as fast as debhelper").
#
# The tree: Debian 12's LLVM 14, clang-cpp 14 and z3 shared libraries,
# LLVM's and z3's headers, six of LLVM's static archives and five of its
# programs (apt-get download, unpacked), plus two programs built here with
# -g from generated C so that stripping and the -dbgsym packages have
# debug information to move. Cached in /var/tmp/padpack-bigtree/KEY (KEY:
# the package versions, the compiler and this recipe).
#
# The packages padpack makes are then made again by debhelper: a debian/
# directory generated from padpack's own package set (one binary package
# each, dh_install lists of the very files padpack put in it), built with
# dpkg-buildpackage -b (dh: dh_strip with automatic -dbgsym packages,
# dh_makeshlibs, dh_shlibdeps, dh_builddeb). Both use xz -6, run one after
# the other, RUNS times; medians, the peak RSS of padpack and of
# debhelper's largest process (/usr/bin/time -v), the bytes of each set.
#   RUNS=3 JOBS="1 2" make bench PARTS=bigtree
set -eu
shopt -s nullglob
cd "$(dirname "$0")/../.."
. tests/bench/lib-debhelper.sh
TOP=$PWD
RUNS=${RUNS:-3}
JOBS=${JOBS:-"1 $(nproc)"}
export SOURCE_DATE_EPOCH=1700000000
CACHE=/var/tmp/padpack-bigtree
DEBS=(libllvm14 libclang-cpp14 libz3-4 libz3-dev llvm-14 llvm-14-dev)
ARCHIVES="libLLVMCodeGen libLLVMAnalysis libLLVMX86CodeGen libLLVMScalarOpts libLLVMCore libLLVMSupport"
PROGRAMS="llc opt llvm-objdump llvm-nm llvm-ar"
ML=x86_64-linux-gnu

versions() {
	apt-cache show --no-all-versions "${DEBS[@]}" | awk '/^Version:/ { print $2 }'
}

# A C file of N functions with some state, so -g gives real DWARF.
gen_c() { # SEED N
	local i
	echo '#include <stdio.h>'
	echo '#include <stdlib.h>'
	for i in $(seq "$2"); do
		echo "struct s$i { int a[$((i % 7 + 1))]; double d; const char *n; };"
		echo "__attribute__((noinline)) double f$i(struct s$i *p, int k)"
		echo "{ double t = p->d; for (int j = 0; j < k; j++) t += p->a[j % $((i % 7 + 1))] * $1.$i; return t; }"
	done
	echo 'int main(int argc, char **argv) { double t = 0; (void)argv;'
	for i in $(seq "$2"); do
		echo "{ struct s$i v = { {0}, $i, \"s$i\" }; t += f$i(&v, argc); }"
	done
	echo 'printf("%g\n", t); return 0; }'
}

stage_tree() { # the cached stage tree: $TREE/default/stage
	local key dl x st
	key=$( { versions; cc --version | head -n 1; sed -n '/^gen_c()/,/^}/p;/^stage_tree()/,/^}/p' "$0";
		echo "$ARCHIVES $PROGRAMS"; } | sha256sum | cut -c1-16)
	TREE=$CACHE/$key
	[ -f "$TREE/complete" ] && return 0
	mkdir -p "$CACHE" && rm -rf "$TREE" && mkdir -p "$TREE/dl"
	dl=$TREE/dl x=$TREE/x st=$TREE/default/stage
	(cd "$dl" && apt-get download "${DEBS[@]}") >"$TREE/log" 2>&1 || {
		cat "$TREE/log" >&2; return 1; }
	for d in "$dl"/*.deb; do dpkg-deb -x "$d" "$x"; done
	mkdir -p "$st/usr/lib/$ML" "$st/usr/include" "$st/usr/bin"
	cp -a "$x/usr/lib/$ML/libLLVM-14.so.1" "$x/usr/lib/$ML/libz3.so.4" "$st/usr/lib/$ML/"
	cp -a "$x/usr/lib/llvm-14/lib/libclang-cpp.so.14" "$st/usr/lib/$ML/"
	ln -s libLLVM-14.so.1 "$st/usr/lib/$ML/libLLVM-14.so"
	ln -s libclang-cpp.so.14 "$st/usr/lib/$ML/libclang-cpp.so"
	ln -s libz3.so.4 "$st/usr/lib/$ML/libz3.so"
	for a in $ARCHIVES; do cp -a "$x/usr/lib/llvm-14/lib/$a.a" "$st/usr/lib/$ML/"; done
	cp -a "$x/usr/include/llvm-14/llvm" "$x/usr/include/llvm-c-14/llvm-c" "$st/usr/include/"
	cp -a "$x"/usr/include/z3*.h "$st/usr/include/"
	for p in $PROGRAMS; do cp -a "$x/usr/lib/llvm-14/bin/$p" "$st/usr/bin/"; done
	for n in 1 2; do
		gen_c "$n" 3000 >"$TREE/probe$n.c"
		cc -g -O2 -o "$st/usr/bin/bigtree-probe$n" "$TREE/probe$n.c" || return 1
	done
	rm -rf "$x" "$dl"
	touch "$TREE/complete"
}

# The spec: the minimal one, as for a project padpack has never seen.
write_spec() {
	cat >"$work/bigtree.cfg" <<-EOF
	name = "bigtree";
	version = "14.0.6";
	maintainer = "Padpack Bench <bench@example.org>";
	summary = "LLVM 14, clang-cpp 14 and z3, staged";
	packages = {
		revision = "1";
		copyright = "$work/copyright";
	};
	EOF
	printf '%s\n' "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" \
		"Upstream-Name: bigtree" "" "Files: *" "Copyright: LLVM and z3 authors" \
		"License: Apache-2.0" " See /usr/share/common-licenses/Apache-2.0." >"$work/copyright"
}

# debian/ for the package set padpack made (DIR of .debs): one stanza
# per package but -dbgsym (dh_strip makes those), and PKG.install with
# the files of padpack's package, as they are in the stage tree.
write_debian() { # DEBS_DIR SRC_DIR
	local d=$2/debian deb pkg arch sect
	mkdir -p "$d/source"
	echo "3.0 (native)" >"$d/source/format"
	printf '%s\n' '#!/usr/bin/make -f' '%:' '	dh $@' \
		'override_dh_auto_install override_dh_auto_build override_dh_auto_configure override_dh_auto_test:' \
		'override_dh_dwz override_dh_prep override_dh_missing:' >"$d/rules"
	sed -i 's/^	/\t/' "$d/rules" && chmod +x "$d/rules"
	printf '%s\n' "bigtree (14.0.6-1) unstable; urgency=medium" "" "  * Bench." "" \
		" -- Padpack Bench <bench@example.org>  Tue, 14 Nov 2023 22:13:20 +0000" >"$d/changelog"
	cp "$work/copyright" "$d/copyright"
	printf '%s\n' "Source: bigtree" "Section: libs" "Priority: optional" \
		"Maintainer: Padpack Bench <bench@example.org>" \
		"Build-Depends: debhelper-compat (= 13)" "Standards-Version: 4.6.2" \
		"Rules-Requires-Root: no" >"$d/control"
	for deb in "$1"/*.deb; do
		pkg=$(dpkg-deb -f "$deb" Package)
		case $pkg in *-dbgsym) continue ;; esac
		arch=$(dpkg-deb -f "$deb" Architecture)
		sect=$(dpkg-deb -f "$deb" Section)
		printf '%s\n' "" "Package: $pkg" "Architecture: $arch" "Section: ${sect:-libs}" \
			"Depends: \${shlibs:Depends}, \${misc:Depends}" \
			"Description: $pkg" " $pkg, as padpack split made it." >>"$d/control"
		dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { p = $6; sub(/^\.\//, "", p); print p }' |
			grep -v '^usr/share/doc/' | while read -r f; do
				[ -e "$TREE/default/stage/$f" ] || [ -L "$TREE/default/stage/$f" ] &&
					echo "$f"
			done | sed 's|\(.*\)/\([^/]*\)$|\1/\2 \1|' >"$d/$pkg.install"
	done
	ln -s "$TREE/default/stage" "$2/debian/tmp"
}

# LOG CMD...: runs CMD, appends "WALL CPU PEAK_MIB" to LOG.t (CPU: user
# plus system seconds of CMD and everything it waited for; peak: the
# largest process's resident set, which is what GNU time reports).

split_run() { # NAME THREADS [OPTION...]: into $work/pNAME
	local j=$1 n=$2
	shift 2
	rm -rf "$work/p$j"
	TMPDIR=$work ./padpack split -q --threads "$n" "$@" -c "$work/bigtree.cfg" \
		--stage "$TREE/default/stage" -o "$work/p$j"
}

dh_run() {
	rm -rf "$work/dh" && mkdir -p "$work/dh/src"
	cp -a "$work/debian" "$work/dh/src/"
	(cd "$work/dh/src" && DEB_BUILD_OPTIONS= dpkg-buildpackage -b -nc -us -uc --no-check-builddeps)
}


export -f split_run dh_run
stage_tree
export TREE
export work=$(mktemp -d /var/tmp/padpack-bench-bigtree.XXXXXX)
trap 'rm -rf "$work"' EXIT
write_spec
tree_mb=$(du -sm --apparent-size "$TREE/default/stage" | cut -f1)
elf_mb=$(find "$TREE/default/stage" -type f -exec file {} + | grep -E 'ELF|current ar archive' |
	cut -d: -f1 | xargs du -cm --apparent-size | tail -n 1 | cut -f1)
# one split, uncompressed, to learn the package set debian/ describes
split_run plan 2 -Z none >/dev/null
mkdir -p "$work/gen"
write_debian "$work/pplan" "$work/gen"
mv "$work/gen/debian" "$work/debian"
rm -f "$work/debian/tmp" && ln -s "$TREE/default/stage" "$work/debian/tmp"
for i in $(seq "$RUNS"); do
	timed "$work/dh" dh_run
	for j in $JOBS; do
		timed "$work/p$j" split_run "$j" "$j"
	done
done
dh_bytes=$(bytes "$work"/dh/*.deb "$work"/dh/*.ddeb)
dh_n=$(ls "$work"/dh/*.deb "$work"/dh/*.ddeb | wc -l)
dh_t=$(col "$work/dh.t" 1)
dh_rss=$(col "$work/dh.t" 3)
ncpu=$(nproc)

echo "## padpack split of a large tree against debhelper"
echo
echo "Tree: ${tree_mb} MB staged, ${elf_mb} MB of it ELF code and static archives"
echo "(LLVM 14, clang-cpp 14, z3 from Debian 12: $(versions | sort -u | tr '\n' ' ')),"
echo "two programs with DWARF; one variant. Both xz -6. Median of $RUNS run(s),"
echo "alternating; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
echo "CPU: user + system seconds of the run and all it waited for; busy: CPU / (wall x $ncpu)."
echo
echo "| run | packages | bytes | wall s | CPU s | busy | peak RSS MiB | wall ratio | bytes ratio | RSS ratio |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
printf '| debhelper (dpkg-buildpackage -b, dh 13) | %d | %d | %.1f | %.1f | %.0f%% | %.1f | 1 | 1 | 1 |\n' \
	"$dh_n" "$dh_bytes" "$dh_t" "$(col "$work/dh.t" 2)" \
	"$(echo "100 * $(col "$work/dh.t" 2) / ($dh_t * $ncpu)" | bc -l)" "$dh_rss"
for j in $JOBS; do
	t=$(col "$work/p$j.t" 1) c=$(col "$work/p$j.t" 2) r=$(col "$work/p$j.t" 3)
	b=$(bytes "$work/p$j"/*.deb)
	printf '| padpack split --threads %d | %d | %d | %.1f | %.1f | %.0f%% | %.1f | %.3f | %.4f | %.3f |\n' \
		"$j" "$(ls "$work/p$j"/*.deb | wc -l)" "$b" "$t" "$c" \
		"$(echo "100 * $c / ($t * $ncpu)" | bc -l)" "$r" \
		"$(echo "$t / $dh_t" | bc -l)" "$(echo "$b / $dh_bytes" | bc -l)" \
		"$(echo "$r / $dh_rss" | bc -l)"
done
echo
first=${JOBS%% *}
threads_identical "$work" "$JOBS"
echo "Targets: wall ratio <= 0.85, bytes and RSS ratios <= 1."
echo
bytes_table "$work/p$first" "$work/dh"
