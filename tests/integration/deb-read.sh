#!/bin/bash
# padpack's readers (info, contents, field, extract, control) against
# dpkg-deb's on packages dpkg-deb built, for every compression.
source "$(dirname "$0")/../lib.sh"
source "$TOP/tests/deb-fixtures.sh"
export SOURCE_DATE_EPOCH=1700000000

# Paths, types, modes, sizes, link targets and file times. Directory
# times are left out: GNU tar (so dpkg-deb) restores them before the
# symbolic links dpkg-deb stores last are created inside them.
tree_listing() {
	(cd "$1" && find . \( -type d -printf '%p %y %m\n' \) -o \
		-printf '%p %y %m %s %l %T@\n' | LC_ALL=C sort)
}

same_output() { # NAME -- CMD-A... -- CMD-B...
	local name=$1 a=() b=(); shift 2
	while [ "$1" != -- ]; do a+=("$1"); shift; done; shift
	b=("$@")
	"${a[@]}" > "$WORK/out.a" 2>&1; echo "rc=$?" >> "$WORK/out.a"
	"${b[@]}" > "$WORK/out.b" 2>&1; echo "rc=$?" >> "$WORK/out.b"
	same "$name" "$WORK/out.a" "$WORK/out.b"
}

same_tree() { # NAME DIR-A DIR-B
	tree_listing "$2" > "$WORK/ta"
	tree_listing "$3" > "$WORK/tb"
	if cmp -s "$WORK/ta" "$WORK/tb" && diff -r --no-dereference "$2" "$3" >/dev/null; then
		ok "$1"
	else
		not_ok "$1" "$(diff "$WORK/ta" "$WORK/tb" | head -n 10)"
	fi
}

read_checks() { # FIXTURE COMPRESSOR
	local f=$1 z=$2 t=$WORK/t-$1 deb=$WORK/$1-$2.deb
	[ -d "$t" ] || make_fixture "$f" "$t"
	dpkg-deb --root-owner-group -Z"$z" -b "$t" "$deb" >/dev/null 2>&1
	same_output "$f/$z: info" -- dpkg-deb --info "$deb" -- "$PADPACK" info "$deb"
	same_output "$f/$z: contents" -- dpkg-deb --contents "$deb" -- "$PADPACK" contents "$deb"
	same_output "$f/$z: field" -- dpkg-deb --field "$deb" -- "$PADPACK" field "$deb"
	same_output "$f/$z: field Package Version Foo" -- \
		dpkg-deb --field "$deb" Package Version Foo -- "$PADPACK" field "$deb" Package Version Foo
	same_output "$f/$z: field Description" -- \
		dpkg-deb --field "$deb" description -- "$PADPACK" field "$deb" description
	rm -rf "$WORK/xa" "$WORK/xb" "$WORK/ea" "$WORK/eb"
	dpkg-deb --extract "$deb" "$WORK/xa"
	"$PADPACK" extract "$deb" "$WORK/xb"
	same_tree "$f/$z: extract" "$WORK/xa" "$WORK/xb"
	dpkg-deb --control "$deb" "$WORK/ea"
	"$PADPACK" control "$deb" "$WORK/eb"
	same_tree "$f/$z: control" "$WORK/ea" "$WORK/eb"
}

for f in $FIXTURES; do
	for z in xz gzip zstd none; do read_checks "$f" "$z"; done
done

# Control files by name, and a missing one.
deb=$WORK/scripts-xz.deb
same_output "info NAME prints that control file" -- \
	dpkg-deb --info "$deb" postinst triggers -- "$PADPACK" info "$deb" postinst triggers
check_fails "info of a missing control file fails and says which" 1 \
	"contains no control file 'nothere'" "$PADPACK" info "$deb" nothere

# Names in the C locale: unprintable bytes escaped as tar does.
deb=$WORK/nonascii-xz.deb
LC_ALL=C dpkg-deb --contents "$deb" > "$WORK/ca"
LC_ALL=C "$PADPACK" contents "$deb" > "$WORK/cb"
same "contents in the C locale escapes as tar" "$WORK/ca" "$WORK/cb"

# Real packages from the system's apt cache, when there are some (copied
# first: apt may clean its cache while the suite runs).
n=0
mkdir -p "$WORK/apt-cache"
for src in /var/cache/apt/archives/*.deb; do
	[ $n -ge 5 ] && break
	cp "$src" "$WORK/apt-cache/" 2>/dev/null || continue
	deb=$WORK/apt-cache/$(basename "$src")
	n=$((n + 1))
	same_output "$(basename "$deb"): contents" -- dpkg-deb --contents "$deb" -- "$PADPACK" contents "$deb"
	same_output "$(basename "$deb"): info" -- dpkg-deb --info "$deb" -- "$PADPACK" info "$deb"
done
