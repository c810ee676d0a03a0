#!/bin/bash
# Part of `make bench`: padpack build of the bundled Paddle core, all
# variants at -j2 into a fresh build directory: a clean build (ccache off,
# so everything is compiled), a second run with nothing changed (target:
# under 10% of the clean build), and a clean build with a warm ccache.
# Prints Markdown.
set -eu
cd "$(dirname "$0")/../.."
work=$(mktemp -d /var/tmp/padpack-bench-build.XXXXXX)
trap 'rm -rf "$work"' EXIT

seconds() { # CMD...: wall seconds of CMD (which must succeed)
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >"$work/out" 2>&1 || { cat "$work/out" >&2; return 1; }
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc
}

build() { ./padpack build -q -j2 -B "$1" "${@:2}"; }

clean=$(CCACHE_DISABLE=1 seconds build "$work/a")
again=$(CCACHE_DISABLE=1 seconds build "$work/a")
build "$work/warmup" >/dev/null 2>&1 # fill ccache
warm=$(seconds build "$work/b")
variants=$(ls -d "$work"/a/*/stage | sed 's|.*/a/||; s|/stage||' | tr '\n' ' ')
pct=$(echo "scale=1; 100 * $again / $clean" | bc)

echo "## padpack build: the bundled Paddle core, all variants, -j2"
echo
echo "Variants built: $variants(nvcc: $(command -v nvcc || echo none))."
echo
echo "| run | wall time |"
echo "| --- | ---: |"
printf '| clean build (ccache off) | %.1f s |\n' "$clean"
printf '| second run, nothing changed | %.1f s (%s%% of clean; target < 10%%) |\n' \
	"$again" "$pct"
printf '| clean build, warm ccache | %.1f s |\n' "$warm"
