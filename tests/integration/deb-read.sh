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
	# dpkg-deb keeps set-id bits; padpack does when asked (deb-hostile).
	"$PADPACK" extract --preserve-special "$deb" "$WORK/xb" 2>/dev/null
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
	# Real packages pass the limits and checks extract adds.
	rm -rf "$WORK/xa" "$WORK/xb"
	dpkg-deb --extract "$deb" "$WORK/xa"
	"$PADPACK" extract --preserve-special "$deb" "$WORK/xb"
	same_tree "$(basename "$deb"): extract" "$WORK/xa" "$WORK/xb"
done

# Unusual packages dpkg-deb reads (made by tests/tools/craft-deb.py).
craft() { python3 "$TOP/tests/tools/craft-deb.py" "$1" "$WORK/$1.deb" "$WORK/outside"; }
same_stdout() { # NAME -- CMD-A... -- CMD-B...: stdout and status alike
	local name=$1 a=() b=(); shift 2
	while [ "$1" != -- ]; do a+=("$1"); shift; done; shift
	b=("$@")
	"${a[@]}" > "$WORK/out.a" 2>/dev/null; echo "rc=$?" >> "$WORK/out.a"
	"${b[@]}" > "$WORK/out.b" 2>"$WORK/err.b"; echo "rc=$?" >> "$WORK/out.b"
	same "$name" "$WORK/out.a" "$WORK/out.b"
}
for c in folded revision revision-only control-subdir no-control \
	 no-final-newline malformed hardlink-chain fifo owners; do craft $c; done

# Relationship fields come out unfolded, in dpkg's canonical form; a zero
# epoch goes; "no" values are left out of a multi-field listing.
deb=$WORK/folded.deb
for f in Depends Pre-Depends Version Essential Multi-Arch X-Custom \
	 "Depends Pre-Depends Version Essential Multi-Arch Description X-Custom Conffiles Nothere"; do
	same_stdout "folded: field $f" -- dpkg-deb --field "$deb" $f -- "$PADPACK" field "$deb" $f
done
# Names in any case, obsolete '<' and '>', values dpkg knows by name in
# another case, Essential: Yes.
craft odd-fields
deb=$WORK/odd-fields.deb
for f in Version Depends Priority Multi-Arch Essential Protected \
	 "Package Version Depends Conflicts Breaks Priority Multi-Arch Essential Protected Section Installed-Size Description"; do
	same_stdout "odd-fields: field $f" -- dpkg-deb --field "$deb" $f -- "$PADPACK" field "$deb" $f
done
check_fails "odd-fields: the obsolete '<' is warned about, as dpkg does" 0 \
	"'depends' field: '<' is obsolete, use '<=' or '<<' instead" \
	"$PADPACK" field "$deb" Depends
craft odd-lines
deb=$WORK/odd-lines.deb
for f in Description X-Tab Version "Package Description X-Tab Version"; do
	same_stdout "odd-lines: field $f" -- dpkg-deb --field "$deb" $f -- "$PADPACK" field "$deb" $f
done
deb=$WORK/folded.deb
check "folded: field Depends is one line" \
	test "$("$PADPACK" field "$deb" Depends)" = "libc6 (>= 2.34), libfoo (>= 1.2) | libbar, libbaz:any, libqux (<< 3~)"

# The obsolete Revision field is folded into Version, as dpkg does it
# (1.0-1 with Revision 5 is 1.0-1-5), with dpkg's warning.
for c in revision revision-only; do
	same_stdout "$c: field Version" -- dpkg-deb --field "$WORK/$c.deb" Version -- "$PADPACK" field "$WORK/$c.deb" Version
	same_stdout "$c: field Package Version Revision" -- \
		dpkg-deb --field "$WORK/$c.deb" Package Version Revision -- "$PADPACK" field "$WORK/$c.deb" Package Version Revision
	check "$c: the obsolete field is warned about" grep -q "obsolete '.*Revision' field used" "$WORK/err.b"
done
check "revision: 1.0-1 with Revision 5 is 1.0-1-5" \
	test "$("$PADPACK" field "$WORK/revision.deb" Version 2>/dev/null)" = 1.0-1-5

# A control archive with a subdirectory and read-only directories: info
# lists them as "not a plain file", as dpkg-deb does.
deb=$WORK/control-subdir.deb
same_output "control-subdir: info" -- dpkg-deb --info "$deb" -- "$PADPACK" info "$deb"
same_output "control-subdir: field" -- dpkg-deb --field "$deb" -- "$PADPACK" field "$deb"
rm -rf "$WORK/ea" "$WORK/eb"
dpkg-deb --control "$deb" "$WORK/ea"
"$PADPACK" control "$deb" "$WORK/eb"
same_tree "control-subdir: control" "$WORK/ea" "$WORK/eb"
# No control file: dpkg-deb --info warns and shows the rest.
same_stdout "no-control: info" -- dpkg-deb --info "$WORK/no-control.deb" -- "$PADPACK" info "$WORK/no-control.deb"
check "no-control: info warns" grep -q "has no 'control' file" "$WORK/err.b"

# dpkg-deb --field refuses a control file without a final newline or with
# a line that is no field; padpack warns, and shows what it can read.
for c in no-final-newline malformed; do
	same_output "$c: field (the file as it is)" -- dpkg-deb --field "$WORK/$c.deb" -- "$PADPACK" field "$WORK/$c.deb"
	check_fails "$c: dpkg-deb --field Version refuses it" 2 "" dpkg-deb --field "$WORK/$c.deb" Version
done
check "no-final-newline: field shows the last field" \
	test "$("$PADPACK" field "$WORK/no-final-newline.deb" Homepage 2>/dev/null)" = h
check_fails "no-final-newline: field warns" 0 "control:6: no newline at the end of the file" \
	"$PADPACK" field "$WORK/no-final-newline.deb" Homepage
check "malformed: field reads past the bad line" \
	test "$("$PADPACK" field "$WORK/malformed.deb" Package Architecture 2>/dev/null)" = "$(printf 'Package: hostile\nArchitecture: all')"
check_fails "malformed: field warns naming the line" 0 \
	"control:3: not a 'Name: value' line; skipped: 'this line is no field'" \
	"$PADPACK" field "$WORK/malformed.deb" Package

# ar headers with blank owner fields and a mode of letters: dpkg-deb reads
# only names, sizes and end magics; padpack warns once and reads on.
craft lax-ar-header
deb=$WORK/lax-ar-header.deb
same_stdout "lax-ar-header: info" -- dpkg-deb --info "$deb" -- "$PADPACK" info "$deb"
check_fails "lax-ar-header: one warning names the field" 0 \
	"warning: '.*': ar member 'debian-binary' has a malformed owner field '      '; ignored, as dpkg does" \
	"$PADPACK" contents "$deb"
same_stdout "lax-ar-header: contents" -- dpkg-deb --contents "$deb" -- "$PADPACK" contents "$deb"

# Control files whose lines and interpreter dpkg-deb --info counts in its
# own way: no final newline, empty, "#! " with a space, a binary, an
# interpreter past 200 bytes; a control file without a final newline.
craft odd-scripts
same_output "odd-scripts: info" -- dpkg-deb --info "$WORK/odd-scripts.deb" -- "$PADPACK" info "$WORK/odd-scripts.deb"

# Unusual listings: dates before 1970 and in 3000, owners by number,
# long owner names widening the column, set-id and sticky modes, escapes.
craft odd-listing
for loc in C.UTF-8 C; do
	same_output "odd-listing: contents ($loc)" -- \
		env LC_ALL=$loc dpkg-deb --contents "$WORK/odd-listing.deb" -- \
		env LC_ALL=$loc "$PADPACK" contents "$WORK/odd-listing.deb"
done

# data.tar.bz2 and data.tar.lzma, which dpkg-deb reads but no longer
# writes.
for c in data-bz2 data-lzma; do
	craft $c
	same_output "$c: contents" -- dpkg-deb --contents "$WORK/$c.deb" -- "$PADPACK" contents "$WORK/$c.deb"
	rm -rf "$WORK/xa" "$WORK/xb"
	dpkg-deb --extract "$WORK/$c.deb" "$WORK/xa"
	"$PADPACK" extract "$WORK/$c.deb" "$WORK/xb"
	same_tree "$c: extract" "$WORK/xa" "$WORK/xb"
done

# Extraction as dpkg-deb -x does it: a hard link to a hard link, a FIFO,
# and files given to the caller whatever owners the archive names.
# (Listings only: diff would open the FIFO.)
for c in hardlink-chain fifo owners; do
	rm -rf "$WORK/x-$c" "$WORK/y-$c"
	dpkg-deb --extract "$WORK/$c.deb" "$WORK/x-$c"
	"$PADPACK" extract "$WORK/$c.deb" "$WORK/y-$c"
	tree_listing "$WORK/x-$c" > "$WORK/ta"
	tree_listing "$WORK/y-$c" > "$WORK/tb"
	same "$c: extract" "$WORK/ta" "$WORK/tb"
done
check "hardlink-chain: a, b and c are one file" \
	test "$(stat -c %i "$WORK"/y-hardlink-chain/{a,b,c} | sort -u | wc -l)" = 1
check "fifo: extracted as a FIFO" test -p "$WORK/y-fifo/usr/fifo"
if [ "$(id -u)" = 0 ]; then
	"$PADPACK" extract "$WORK/owners.deb" "$WORK/xo"
	check "owners: as root, the files are root's, as with dpkg-deb -x" \
		test "$(stat -c %u "$WORK/xo/usr/f")" = 0
	"$PADPACK" extract --same-owner "$WORK/owners.deb" "$WORK/xs"
	check "owners: --same-owner gives them the archive's owner" \
		test "$(stat -c %u:%g "$WORK/xs/usr/f")" = 1234:1234
else
	ok "owners as root # skip: not root"
fi

# The old format (0.939000): dpkg-deb still reads it; padpack says what
# it is and refuses it (deb-hostile).
craft old-format
check "old-format: dpkg-deb reads it" dpkg-deb --info "$WORK/old-format.deb"
check_fails "old-format: padpack says what it is" 3 \
	"is an old-format Debian package \(format 0\.939000" "$PADPACK" contents "$WORK/old-format.deb"

# contents lists what extract refuses, as dpkg-deb --contents (tar -tv)
# does: names with a newline, too long or too deep, a pax name with a NUL,
# paths given twice, set-id files, devices, '..' (tar's note about the
# stripped prefix goes to stderr).
for c in newline-name long-name deep pax-nul dup-file-symlink setid \
	 device dotdot absolute symlink-absolute; do
	craft $c
	same_stdout "$c: contents" -- dpkg-deb --contents "$WORK/$c.deb" -- "$PADPACK" contents "$WORK/$c.deb"
done
