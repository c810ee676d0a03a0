#!/bin/bash
# padpack pack against dpkg-deb --build --root-owner-group on a ~300 MB
# tree of real ELF files, headers and text from this machine's /usr, at the
# same compressor and level, interleaved, RUNS runs each (default 3).
# Prints per compressor the median wall-time ratio padpack/dpkg-deb, the
# output sizes and the peak RSS of each (the whole process tree).
set -eu
cd "$(dirname "$0")/../.."
TOP=$PWD
RUNS=${RUNS:-3}
W=$TOP/tests/bench/work/pack
PEAK="python3 $TOP/tests/bench/peak-rss.py"
export SOURCE_DATE_EPOCH=1700000000

make_tree() { # ~300 MB: binaries, shared libraries, headers, docs
	local t=$W/tree
	rm -rf "$t"
	mkdir -p "$t/DEBIAN"
	printf 'Package: bench-tree\nVersion: 1.0\nArchitecture: amd64\nMaintainer: Bench <bench@example.org>\nDescription: benchmark tree\n made of files from /usr\n' \
		> "$t/DEBIAN/control"
	# A share of each kind: ELF programs, ELF libraries, headers, text.
	: > "$W/files"
	for part in /usr/bin:90 /usr/lib/x86_64-linux-gnu:110 /usr/include:60 /usr/share/doc:40; do
		find "${part%:*}" -type f -size -20M -printf '%s\t%p\n' 2>/dev/null |
			LC_ALL=C sort -t"$(printf '\t')" -k2 | awk -F'\t' -v budget=$((${part#*:} * 1024 * 1024)) \
			'{ total += $1; if (total > budget) exit; print $2 }' >> "$W/files"
	done
	tar -cf - -T "$W/files" 2>/dev/null | tar -xf - -C "$t"
	chmod -R u+rwX,go+rX "$t"
	chmod 0755 "$t/DEBIAN"
	# The same inputs for both: dpkg-deb writes no md5sums and no
	# Installed-Size, padpack adds them when absent; given, padpack checks
	# the md5sums against the payload instead.
	(cd "$t" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' |
		LC_ALL=C sort -z | xargs -0 md5sum) > "$W/md5sums"
	mv "$W/md5sums" "$t/DEBIAN/md5sums"
	"$TOP/padpack" pack -Z none "$t" "$W/size.deb" >/dev/null
	echo "Installed-Size: $(dpkg-deb -f "$W/size.deb" Installed-Size)" >> "$t/DEBIAN/control"
	rm -f "$W/size.deb"
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

run() { # OUT-PREFIX CMD...: appends "wall rss" to OUT-PREFIX.times
	local prefix=$1; shift
	$PEAK "$@" 2>&1 >/dev/null | tail -n 1 >> "$prefix.times"
}

mkdir -p "$W"
make_tree
files=$(find "$W/tree" -type f | wc -l)
mb=$(du -sm --apparent-size "$W/tree" | cut -f1)
echo "## pack: padpack vs dpkg-deb --build --root-owner-group"
echo
echo "Tree: $mb MB, $files files from /usr (ELF binaries and libraries, headers, docs)."
echo "$RUNS runs each, interleaved; wall time median; peak RSS of the whole process tree."
echo
echo "| compressor | padpack s | dpkg-deb s | time ratio | padpack bytes | dpkg-deb bytes | size ratio | padpack RSS MiB | dpkg-deb RSS MiB | identical |"
echo "|---|---|---|---|---|---|---|---|---|---|"
# COMPRESSORS: which to run (default all three), e.g. COMPRESSORS=xz for
# more runs of the slowest comparison in the time the three take.
for spec in "xz 6" "zstd 19" "gzip 9"; do
	set -- $spec
	z=$1 lvl=$2
	case " ${COMPRESSORS:-xz zstd gzip} " in *" $z "*) ;; *) continue ;; esac
	rm -f "$W"/*.times
	for i in $(seq "$RUNS"); do
		run "$W/dpkg" dpkg-deb --root-owner-group -Z"$z" -z"$lvl" -b "$W/tree" "$W/d.deb"
		run "$W/padpack" "$TOP/padpack" pack -q -Z "$z" -z "$lvl" "$W/tree" "$W/p.deb"
	done
	pt=$(cut -d' ' -f1 "$W/padpack.times" | median)
	dt=$(cut -d' ' -f1 "$W/dpkg.times" | median)
	pr=$(cut -d' ' -f2 "$W/padpack.times" | sort -n | tail -n 1)
	dr=$(cut -d' ' -f2 "$W/dpkg.times" | sort -n | tail -n 1)
	ps=$(stat -c %s "$W/p.deb")
	ds=$(stat -c %s "$W/d.deb")
	same=no
	cmp -s "$W/p.deb" "$W/d.deb" && same=yes
	printf '| %s -%s | %.2f | %.2f | %.3f | %d | %d | %.4f | %.1f | %.1f | %s |\n' \
		"$z" "$lvl" "$pt" "$dt" "$(echo "$pt / $dt" | bc -l)" "$ps" "$ds" \
		"$(echo "$ps / $ds" | bc -l)" "$(echo "$pr / 1024" | bc -l)" \
		"$(echo "$dr / 1024" | bc -l)" "$same"
done
rm -rf "$W"
