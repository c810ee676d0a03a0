#!/bin/bash
# Part of `make bench`: padpack split of the bundled Paddle core's four
# variants (classify, share, strip, dependencies, control files, pack,
# .changes) against packing the very package trees it made with
# dpkg-deb --build alone (target: padpack's analysis under 20% on top of
# the bare packing); and the bytes of the package set against one
# monolithic .deb per variant (each stage tree packed whole, as Paddle's
# 2017 CPack flow did). Prints Markdown.
set -eu
cd "$(dirname "$0")/../.."
work=$(mktemp -d /var/tmp/padpack-bench-split.XXXXXX)
trap 'rm -rf "$work"' EXIT
export SOURCE_DATE_EPOCH=1700000000
RUNS=5

# The stage trees: copies of the test suites' cached build when there is
# one (split writes beside them), else a build of our own.
build=$work/build
cached=$(ls -d /var/tmp/padpack-tests/core-*/build 2>/dev/null | head -n 1)
if [ -n "$cached" ] && [ -f "$cached/../complete" ]; then
	for s in "$cached"/*/stage; do
		mkdir -p "$build/$(basename "$(dirname "$s")")"
		cp -a "$s" "$build/$(basename "$(dirname "$s")")/"
	done
else
	./padpack build -q -j2 -B "$build" --no-test
fi

seconds() { # CMD...: wall seconds of CMD (which must succeed)
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >"$work/out" 2>&1 || { cat "$work/out" >&2; return 1; }
	t1=$(date +%s.%N)
	echo "$t1 - $t0" | bc
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

split() { ./padpack split -q -B "$build" -o "$work/debs"; }

# dpkg-deb --build of every tree split left in BUILD/split, one at a time
# as padpack packs them, same compressor (xz) and ownership.
dpkg_pack() {
	rm -rf "$work/dpkg" && mkdir -p "$work/dpkg"
	for t in "$build"/split/*/; do
		dpkg-deb --root-owner-group -Zxz --build "$t" "$work/dpkg" >/dev/null
	done
}

split >/dev/null 2>&1 # warm the page cache and the dpkg database
dpkg_pack
for i in $(seq $RUNS); do
	seconds split >>"$work/t-split"
	seconds dpkg_pack >>"$work/t-dpkg"
done
sp=$(median <"$work/t-split")
dp=$(median <"$work/t-dpkg")
pct=$(echo "scale=1; 100 * ($sp - $dp) / $dp" | bc)

# One .deb per variant: the stage tree as it is, one control file.
mono=0
for s in "$build"/*/stage; do
	v=$(basename "$(dirname "$s")")
	t=$work/mono-$v
	cp -a "$s" "$t"
	mkdir -p "$t/DEBIAN"
	printf '%s\n' "Package: paddle-$v" "Version: 0.11.0-1" "Architecture: amd64" \
		"Maintainer: PaddlePaddle Dev <paddle-dev@baidu.com>" \
		"Description: the Paddle core, $v, in one package" >"$t/DEBIAN/control"
	dpkg-deb --root-owner-group -Zxz --build "$t" "$work/mono-$v.deb" >/dev/null
	mono=$((mono + $(stat -c %s "$work/mono-$v.deb")))
done
set_all=$(cat "$work"/debs/*.deb | wc -c)
set_nodbg=$(ls "$work"/debs/*.deb | grep -v dbgsym | xargs cat | wc -c)
n_all=$(ls "$work"/debs/*.deb | wc -l)
n_nodbg=$(ls "$work"/debs/*.deb | grep -vc dbgsym)
variants=$(ls -d "$build"/*/stage | wc -l)

echo "## padpack split: the bundled Paddle core, $variants variants"
echo
echo "Median of $RUNS runs, alternating; xz; SOURCE_DATE_EPOCH set."
echo
echo "| run | wall time |"
echo "| --- | ---: |"
printf '| padpack split (classify, share, strip, dependencies, pack, .changes) | %.2f s |\n' "$sp"
printf '| dpkg-deb --build of the same %d package trees, one by one | %.2f s |\n' "$n_all" "$dp"
printf '| padpack'"'"'s analysis on top of the packing | %s%% (target < 20%%) |\n' "$pct"
echo
echo "| package set | packages | bytes |"
echo "| --- | ---: | ---: |"
printf '| split, without -dbgsym | %d | %d |\n' "$n_nodbg" "$set_nodbg"
printf '| split, with -dbgsym | %d | %d |\n' "$n_all" "$set_all"
printf '| one monolithic .deb per variant (unstripped, as staged) | %d | %d |\n' "$variants" "$mono"
