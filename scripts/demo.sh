#!/bin/sh
# The main job on the bundled default, run by `make demo`.
# Until the Paddle build pipeline lands, it packs the bundled example tree
# and shows what dpkg-deb says of the result.
set -eu
cd "$(dirname "$0")/.."
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
