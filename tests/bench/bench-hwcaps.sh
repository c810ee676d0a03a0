#!/bin/bash
# Part of `make bench`: the CPU packages of the bundled Paddle core in its
# two forms, from this tree: separate packages per ISA (pkg/paddle-separate.cfg:
# libpaddle1 for AVX2 CPUs, libpaddle1-noavx for the others, Conflicts and
# a CPU guard) against glibc-hwcaps builds in one package
# (pkg/paddle.cfg, the default: baseline, x86-64-v3, x86-64-v4). Prints the bytes
# of each package set (-dbgsym left out), and what one CPU installs
# (libpaddle1, paddle, python3-paddle, libpaddle-dev of its kind): .deb
# bytes and Installed-Size. Markdown.
set -eu
cd "$(dirname "$0")/../.."
work=$(mktemp -d /var/tmp/padpack-bench-hwcaps.XXXXXX)
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1700000000

# The hwcaps suite's cached builds when they are there, else our own.
cached=$(ls -d /var/tmp/padpack-hwcaps/core-*/build 2>/dev/null | head -n 1)
if [ -n "$cached" ] && [ -f "$cached/../complete" ]; then
	hw=$cached
else
	hw=$work/hw
	nice -n 10 ./padpack build -q -j2 -c pkg/paddle.cfg -B "$hw" \
		--variant 'cpu-*' --no-test
fi
nice -n 10 ./padpack build -q -j2 -c pkg/paddle-separate.cfg -B "$work/sep" \
	--variant 'cpu-*' --no-test
./padpack split -q -c pkg/paddle.cfg -B "$hw" -o "$work/d-hw" --variant 'cpu-*' 2>/dev/null
./padpack split -q -c pkg/paddle-separate.cfg -B "$work/sep" -o "$work/d-sep" --variant 'cpu-*' 2>/dev/null

set_bytes() { # DIR: bytes of its .debs but -dbgsym, and how many
	ls "$1"/*.deb | grep -v -- -dbgsym_ | xargs stat -c %s |
		awk '{ s += $1; n++ } END { printf "%d %d", s, n }'
}

# DIR SUFFIX: .deb bytes and Installed-Size (KiB) of one CPU's packages.
one_cpu() {
	local bytes=0 kib=0 p f
	for p in libpaddle1 paddle python3-paddle libpaddle-dev; do
		f=$(ls "$1/${p}${2}_"*.deb)
		bytes=$((bytes + $(stat -c %s "$f")))
		kib=$((kib + $(dpkg-deb -f "$f" Installed-Size)))
	done
	echo "$bytes $kib"
}

read -r sb sn <<<"$(set_bytes "$work/d-sep")"
read -r hb hn <<<"$(set_bytes "$work/d-hw")"
read -r ab ak <<<"$(one_cpu "$work/d-sep" "")"
read -r nb nk <<<"$(one_cpu "$work/d-sep" "-noavx")"
read -r wb wk <<<"$(one_cpu "$work/d-hw" "")"
lib_kib() { dpkg-deb -f "$1" Installed-Size; }

echo "## CPU variants: separate packages against glibc-hwcaps builds"
echo
echo "The CPU packages of the Paddle core from this tree (cpu variants only,"
echo "-dbgsym left out); \"one CPU\" is libpaddle1, paddle, python3-paddle and"
echo "libpaddle-dev of the kind that CPU installs."
echo
echo "| form | packages | bytes of the set | one CPU: .deb bytes | one CPU: Installed-Size | libpaddle1 Installed-Size |"
echo "|---|---:|---:|---:|---:|---:|"
echo "| separate (paddle-separate.cfg), AVX2 CPU | $sn | $sb | $ab | $ak KiB | $(lib_kib "$work"/d-sep/libpaddle1_*.deb) KiB |"
echo "| separate (paddle-separate.cfg), other CPU | | | $nb | $nk KiB | $(lib_kib "$work"/d-sep/libpaddle1-noavx_*.deb) KiB |"
echo "| glibc-hwcaps (paddle.cfg, the default), any CPU | $hn | $hb | $wb | $wk KiB | $(lib_kib "$work"/d-hw/libpaddle1_*.deb) KiB |"
