#!/bin/sh
# The main job on the bundled default, run by `make demo`.
# First it builds the bundled Paddle core in every variant (padpack build)
# and shows what each stage tree holds; then it packs the bundled example
# tree and shows what dpkg-deb says of the result.
set -eu
cd "$(dirname "$0")/.."

echo "\$ ./padpack build -j2"
./padpack build -j2
lib=usr/lib/x86_64-linux-gnu
for v in cpu-avx cpu-noavx gpu-avx gpu-noavx; do
	s=build/$v/stage
	[ -d "$s" ] || continue
	echo
	echo "== $v: $(find "$s" -type f | wc -l) files in $s"
	objdump -p "$s/$lib/libpaddle.so.1" | grep -E 'SONAME|NEEDED'
	if objdump -h "$s/$lib/libpaddle.so.1" | grep -q nv_fatbin; then
		echo "  device code: .nv_fatbin section present"
	else
		LD_LIBRARY_PATH=$s/$lib "$s/usr/bin/paddle" --version
		LD_LIBRARY_PATH=$s/$lib "$s/usr/bin/paddle"
	fi
done
echo
echo "\$ find build/cpu-avx/stage -type f -o -type l | sort"
(cd build/cpu-avx/stage && find . -type f -o -type l | sort)
echo
out=build/demo
rm -rf "$out"
mkdir -p "$out"
tree=$out/hello-tree
scripts/make-example-tree.sh "$tree"
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1700000000} ./padpack pack "$tree" "$out"
deb=$(ls "$out"/*.deb)
echo
echo "\$ dpkg-deb --info $deb"
dpkg-deb --info "$deb"
echo
echo "\$ dpkg-deb --contents $deb"
dpkg-deb --contents "$deb"
