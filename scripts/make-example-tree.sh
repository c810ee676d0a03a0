#!/bin/sh
# Writes the bundled example package tree (a tiny "hello" tool with a
# conffile, a maintainer script and documentation) to DIR.
# usage: scripts/make-example-tree.sh DIR
set -eu
dir=$1
src=$(cd "$(dirname "$0")/../pkg/example" && pwd)
rm -rf "$dir"
mkdir -p "$dir/DEBIAN" "$dir/usr/bin" "$dir/etc/padpack-hello" \
	"$dir/usr/share/doc/padpack-hello" "$dir/usr/share/man/man1"
cp "$src/control" "$dir/DEBIAN/control"
cp "$src/conffiles" "$dir/DEBIAN/conffiles"
install -m 0755 "$src/postinst" "$dir/DEBIAN/postinst"
install -m 0755 "$src/padpack-hello" "$dir/usr/bin/padpack-hello"
install -m 0644 "$src/hello.conf" "$dir/etc/padpack-hello/hello.conf"
install -m 0644 "$src/copyright" "$dir/usr/share/doc/padpack-hello/copyright"
gzip -9n < "$src/changelog" > "$dir/usr/share/doc/padpack-hello/changelog.Debian.gz"
gzip -9n < "$src/padpack-hello.1" > "$dir/usr/share/man/man1/padpack-hello.1.gz"
chmod -R u=rwX,go=rX "$dir"
chmod 0755 "$dir/DEBIAN"
