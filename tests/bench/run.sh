#!/bin/bash
# make bench: times padpack against the anchor tools on the same inputs, in
# one run, and prints ratios (padpack / anchor) and peak RSS. Each part is a
# tests/bench/bench-*.sh script; all of them run, in name order, and their
# output (Markdown) is printed and saved to tests/bench/work/RESULTS.md.
# Commit that file to tests/bench/RESULTS.md when an issue asks for figures.
#   tests/bench/run.sh [PART...]   (PART: pack, repo, ... for bench-PART.sh)
set -eu
cd "$(dirname "$0")/../.."
mkdir -p tests/bench/work
out=tests/bench/work/RESULTS.md
{
	echo "# padpack benchmark results"
	echo
	echo "Machine: $(nproc) CPUs, $(free -g | awk '/^Mem:/ {print $2}') GiB," \
		"$(. /etc/os-release && echo "$PRETTY_NAME"); $(date -u +%Y-%m-%d)."
	echo
	parts=(tests/bench/bench-*.sh)
	[ $# -gt 0 ] && parts=("${@/#/tests/bench/bench-}") && parts=("${parts[@]/%/.sh}")
	for part in "${parts[@]}"; do
		[ -e "$part" ] || { echo "no such part: $part" >&2; exit 2; }
		bash "$part"
		echo
	done
} | tee "$out"
echo "(saved to $out)"
