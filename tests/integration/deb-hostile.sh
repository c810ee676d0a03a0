#!/bin/bash
# Hostile and broken packages: every reader refuses them with a clear
# error (exit 3) naming the member or entry, and nothing is ever written
# outside the target directory.
source "$(dirname "$0")/../lib.sh"
outside=$WORK/outside
mkdir -p "$outside"
craft() { python3 "$TOP/tests/tools/craft-deb.py" "$1" "$WORK/$1.deb" "$outside"; }

nothing_outside() { # NAME
	local left
	left=$(find "$outside" -mindepth 1; ls "$WORK" | grep -E 'evil' ; ls / | grep -E 'evil')
	if [ -z "$left" ] && [ "$(stat -c %s /etc/passwd)" = "$passwd_size" ]; then
		ok "$1: nothing written outside the target"
	else
		not_ok "$1: nothing written outside the target" "found: $left"
	fi
}
passwd_size=$(stat -c %s /etc/passwd)

# CASE PATTERN: extraction refused, the message names the entry.
hostile() {
	craft "$1"
	check_fails "$1: extract refused" 3 "$2" "$PADPACK" extract "$WORK/$1.deb" "$WORK/t-$1"
	nothing_outside "$1"
}
hostile dotdot "entry '\./\.\./dotdot-evil' has a '\.\.' component"
hostile dotdot-deep "entry '\./usr/\.\./\.\./dotdot-evil' has a '\.\.' component"
hostile absolute "entry '.*/outside/absolute-evil' is an absolute path"
hostile symlink-absolute "entry '\./link/through-absolute' would be written through a symbolic link"
hostile symlink-relative "entry '\./usr/link/through-relative' would be written through a symbolic link"
hostile hardlink-outside "entry '\./hl' is a hard link to a path that would lie outside"
hostile hardlink-absolute "entry '\./hl' is a hard link to a path that would lie outside"
hostile hardlink-unknown "entry '\./hl' is a hard link to something that is not a file extracted before it"
hostile device "entry '\./dev-null' is a device node"
hostile block-device "entry '\./dev-sda' is a device node"
# Ambiguous trees. GNU tar, so dpkg-deb -x, extracts the same path twice,
# the later entry replacing the earlier (a file then a symlink: exit 0,
# the link is left); a symlink then a directory leaves the directory and
# nearly always fails in tar ("Cannot unlink: Is a directory"). dpkg
# --install refuses names with a newline
# ("newline not allowed in archive object name") and pax headers at all.
hostile dup-file-symlink "entry '\./a' names a path given earlier in the archive \(first as a file, now as a symbolic link\)"
hostile dup-symlink-dir "entry '\./a/' names a path given earlier in the archive \(first as a symbolic link, now as a directory\)"
hostile dup-file-file "entry '\./a' names a path given earlier in the archive \(first as a file, now as a file\)"
hostile dup-spelled "entry '\.//usr/\./x' names a path given earlier in the archive \(first as a file, now as a symbolic link\)"
# tar fails on it: "./a/b: Cannot open: Not a directory".
hostile under-file "entry '\./a/b' lies under a path the archive gave as a file"
# The target itself given as a file would replace the (empty) target
# directory; as a symbolic link, lead outside. GNU tar fails on both.
hostile root-file "entry '\.' stands for the target directory itself but is not a directory"
hostile root-symlink "entry '\./' stands for the target directory itself but is not a directory"
check "root-file: the target is still a directory" test -d "$WORK/t-root-file"
hostile newline-name "entry '\./new\\\\nline' has a newline in its name"
# tar fails on it too ("File name too long"); the name is abridged.
hostile long-name "entry '\./d{98}\.\.\. \(4224 bytes\)' has a name longer than 4095 bytes"
hostile long-target "entry '\./l' is a symbolic link to a name longer than 4095 bytes"
# dpkg-deb -x extracts 300 levels; nothing needs them.
hostile deep "entry '\./d/d/.*' is nested more than 256 directories deep"
# A pax name "./a<NUL>b": libarchive, like GNU tar, reads it up to the NUL;
# the cut name is then one given before. dpkg-deb -x extracts './a' twice.
hostile pax-nul "entry '\./a' names a path given earlier"
check "a refused duplicate leaves the first entry as it was" \
	test "$(cat "$WORK/t-dup-file-symlink/a")" = x

# Set-id bits: dropped unless asked, each drop said. dpkg-deb -x run as
# root keeps them (tar -p), on files the caller then owns.
craft setid
"$PADPACK" extract "$WORK/setid.deb" "$WORK/t-setid" 2> "$WORK/setid.err"
check "setid: the files lose their set-id bits" \
	test "$(stat -c %a "$WORK"/t-setid/usr/{suid,sgid,both} | tr '\n' ' ')" = "755 755 711 "
check "setid: each drop is said on stderr" grep -qz \
	"dropped the setuid bit of './usr/suid' (mode 4755, extracted as 0755); --preserve-special keeps them.*dropped the setgid bit of './usr/sgid' (mode 2755, extracted as 0755).*dropped the setuid and setgid bits of './usr/both' (mode 6711, extracted as 0711)" \
	"$WORK/setid.err"
"$PADPACK" extract --preserve-special "$WORK/setid.deb" "$WORK/t-setid-kept" 2> "$WORK/setid.err"
check "setid: --preserve-special keeps them, silently" \
	test "$(stat -c %a "$WORK"/t-setid-kept/usr/{suid,sgid,both} | tr '\n' ' ')$(cat "$WORK/setid.err")" = "4755 2755 6711 "

# Size limits and bombs. dpkg-deb -x inflates the 1 GiB bomb (1 MiB on
# disk) whole, and under `ulimit -f` tar dies of SIGXFSZ.
craft_sized() { python3 "$TOP/tests/tools/craft-deb.py" "$1" "$WORK/$1.deb" "$outside"; }
for c in bomb bomb-xz bomb-nosize huge huge-nosize fits; do craft_sized $c; done
check_fails "bomb: refused at the package's Installed-Size, before writing" 3 \
	"entry '\./zeros' declares 1073741824 bytes, which brings the files to 1073741824 bytes, past the limit of 16793600 \(twice the package's Installed-Size, plus 16 MiB\)" \
	"$PADPACK" extract "$WORK/bomb.deb" "$WORK/t-bomb"
check "bomb: nothing was written" test ! -e "$WORK/t-bomb/zeros"
check_fails "xz bomb: refused at the package's Installed-Size" 3 \
	"member 'data\.tar\.xz': entry '\./zeros' declares 1073741824 bytes" \
	"$PADPACK" extract "$WORK/bomb-xz.deb" "$WORK/t-bomb-xz"
check_fails "8 GiB entry: refused at the Installed-Size" 3 \
	"entry '\./huge' declares 8589934592 bytes" \
	"$PADPACK" extract "$WORK/huge.deb" "$WORK/t-huge"
check_fails "--max-size lowers the limit" 3 \
	"entry '\./two-mib' declares 2097152 bytes, which brings the files to 2097152 bytes, past the limit of 1048576 \(--max-size\)" \
	"$PADPACK" extract --max-size=1M "$WORK/fits.deb" "$WORK/t-max"
check_fails "--max-size takes a size or 'none'" 2 "--max-size '12Q' is not a size" \
	"$PADPACK" extract --max-size=12Q "$WORK/fits.deb" "$WORK/t-bad"
check "--max-size=3M lets the 2 MiB file through" \
	"$PADPACK" extract --max-size=3M "$WORK/fits.deb" "$WORK/t-3m"
check "a package within its Installed-Size extracts" \
	"$PADPACK" extract "$WORK/fits.deb" "$WORK/t-fits"
# Under ulimit -f: EFBIG is an error naming the entry (exit 4, not death
# by SIGXFSZ, status 153) and the partial file is removed.
limited() { (ulimit -f "$1"; shift; exec "$@"); }
check_fails "bomb without Installed-Size under ulimit -f: EFBIG named" 4 \
	"entry '\./zeros' to '.*/t-ulimit/zeros': File too large \(the file size limit, ulimit -f, is 1048576 bytes\); the partly written file was removed" \
	limited 1024 "$PADPACK" extract "$WORK/bomb-nosize.deb" "$WORK/t-ulimit"
check "bomb under ulimit -f: the partial file is gone" test ! -e "$WORK/t-ulimit/zeros"
check_fails "8 GiB entry without Installed-Size under ulimit -f: EFBIG named" 4 \
	"entry '\./huge' to .*File too large" \
	limited 512 "$PADPACK" extract "$WORK/huge-nosize.deb" "$WORK/t-ulimit2"
check_fails "control under ulimit -f 0: EFBIG named, not SIGXFSZ" 4 \
	"entry '\./control' to .*File too large" \
	limited 0 "$PADPACK" control "$WORK/fits.deb" "$WORK/t-ulimit3"
check_fails "8 GiB entry cut short: corrupt, the partial file removed" 3 \
	"entry '\./huge': .*the package is corrupt \(the partly written file was removed\)" \
	"$PADPACK" extract --max-size=none "$WORK/huge-nosize.deb" "$WORK/t-short"
check "the cut-short file is gone" test ! -e "$WORK/t-short/huge"
# The free space of the target: a 4 MiB tmpfs, in a private mount
# namespace (root only; elsewhere the case is said to be skipped).
if unshare -m true 2>/dev/null; then
	mkdir -p "$WORK/small"
	check_fails "8 GiB entry: refused for the free space of the target" 3 \
		"entry '\./huge' declares 8589934592 bytes but the filesystem of the target has [0-9]+ free" \
		unshare -m sh -c 'mount -t tmpfs -o size=4m small "$1" && exec "$2" extract --max-size=none "$3" "$1/t"' \
		sh "$WORK/small" "$PADPACK" "$WORK/huge-nosize.deb"
	# Out of inodes: ENOSPC when a file is created, named, exit 4.
	check_fails "ENOSPC on a full filesystem: named, exit 4" 4 \
		"cannot write entry '\./usr/sgid' to '.*/usr/sgid': No space left on device; the partly written file was removed" \
		unshare -m sh -c 'mount -t tmpfs -o size=4m,nr_inodes=4 small "$1" && exec "$2" extract "$3" "$1/t"' \
		sh "$WORK/small" "$PADPACK" "$WORK/setid.deb"
else
	ok "free space limit # skip: needs root for a private tmpfs"
fi

# A symlink pointing outside is fine in itself; only writing through it
# is refused: the link exists, pointing where the package says.
check "a symbolic link pointing outside is extracted as a link" \
	test -L "$WORK/t-symlink-absolute/link"

# CASE PATTERN: every reader refuses the broken package the same way.
broken() {
	local cmd
	craft "$1"
	for cmd in info contents field extract control; do
		case $cmd in
		extract|control) set -- "$1" "$2" "$WORK/t-$cmd-$1" ;;
		*) set -- "$1" "$2" ;;
		esac
		check_fails "$1: $cmd refuses it" 3 "$2" "$PADPACK" $cmd "$WORK/$1.deb" ${3:+"$3"}
	done
}
broken truncated "member 'data\.tar' declares 10240 bytes but only [0-9]+ remain"
broken oversize "member 'data\.tar' declares 110240 bytes but only 10240 remain"
broken no-debian-binary "its first member is 'control\.tar', not 'debian-binary'"
broken version-3 "is format version 3\.x"
broken no-newline "debian-binary has no newline"
broken unknown-member "premature member 'junk' before 'control\.tar'"
broken data-first "premature member 'data\.tar' before 'control\.tar'"
broken no-data "has no data\.tar member"
broken bad-magic "does not start with the ar magic"
broken bad-end-magic "ar member header at offset 8: bad end magic"
broken bad-padding "member 'data\.tar\.xz' has a padding byte 0x58"
broken unknown-compression "member 'data\.tar\.rar' uses a compression"
broken bad-size-field "offset 8 \('debian-binary'\): bad size"
# dpkg-deb skips the padding byte unread (see the end of this file).
broken no-final-pad "member 'data\.tar\.gz' lacks its padding byte"
# deb(5) says to ignore members after data.tar, and dpkg-deb reads the
# first data.tar; a second one means two tools may see two packages.
broken two-data "has a second 'data\.tar' member, 'data\.tar\.xz', after 'data\.tar'"
broken control-after-data "has a second 'control\.tar' member, 'control\.tar', after 'data\.tar'"
# The control archive is read into memory: two files called 'control'
# (dpkg-deb shows the later one), more than 10,000 entries or more than
# 64 MiB of files are refused.
# (extract and control write them to disk like any member: 'control'
# twice is refused as a path given twice.)
in_memory() { # CASE PATTERN
	craft "$1"
	check_fails "$1: info refuses it" 3 "$2" "$PADPACK" info "$WORK/$1.deb"
	check_fails "$1: field refuses it" 3 "$2" "$PADPACK" field "$WORK/$1.deb" Package
}
in_memory control-twice "the control archive names 'control' twice"
in_memory control-entries "member 'control\.tar' has more than 10000 entries"
in_memory control-big "control file 'big1' brings the control files past 64 MiB"
# dpkg-deb still reads the format of 1995 (test deb-read shows it).
broken old-format "is an old-format Debian package \(format 0\.939000, which dpkg replaced in 1995\)"

# Broken compressed data: the readers of the data member refuse it.
for c in bad-compression truncated-stream; do
	craft $c
	check_fails "$c: contents refuses it" 3 "member 'data\.tar\.xz'" "$PADPACK" contents "$WORK/$c.deb"
	check_fails "$c: extract refuses it" 3 "member 'data\.tar\.xz'" "$PADPACK" extract "$WORK/$c.deb" "$WORK/t-$c"
done

check_fails "a file that is not there" 4 "cannot open '.*/nothere.deb'" "$PADPACK" info "$WORK/nothere.deb"
check_fails "a directory given as package" 3 "is not a regular file" "$PADPACK" info "$WORK"
nothing_outside "all cases"

# What dpkg-deb does with the same packages, as README's list of intended
# differences says (if dpkg-deb changes, these say so).
#
# dpkg_does NAME CASE ok|fails [TEST...]: dpkg-deb -x of CASE succeeds or
# fails, and then TEST holds.
dpkg_does() {
	local name=$1 c=$2 want=$3 rc; shift 3
	rm -rf "$WORK/dx-$c"
	dpkg-deb -x "$WORK/$c.deb" "$WORK/dx-$c" 2>/dev/null; rc=$?
	if { [ "$want" = ok ] && [ $rc = 0 ]; } || [ "$want" = any ] ||
	   { [ "$want" = fails ] && [ $rc != 0 ]; }; then
		if [ $# -eq 0 ] || "$@"; then ok "$name"; return; fi
	fi
	not_ok "$name" "dpkg-deb -x exited $rc (wanted: $want, then: $*)"
}
dpkg_does "dpkg-deb -x: a file then a symlink at one path leaves the link" \
	dup-file-symlink ok test -L "$WORK/dx-dup-file-symlink/a"
# (its tar then says "Cannot unlink: Is a directory" and exits 2, but
# not always: 1 run in 40 here exited 0 with the same tree)
dpkg_does "dpkg-deb -x: a symlink then a directory: the directory wins, nothing outside" \
	dup-symlink-dir any bash -c "test -d '$WORK/dx-dup-symlink-dir/a' &&
		test ! -L '$WORK/dx-dup-symlink-dir/a' && test -f '$WORK/dx-dup-symlink-dir/a/f' &&
		test -z \"\$(ls -A '$outside')\""
dpkg_does "dpkg-deb -x: a name with a newline is extracted" \
	newline-name ok test -f "$WORK/dx-newline-name/new
line"
dpkg_does "dpkg-deb -x: 300 levels are extracted" deep ok
dpkg_does "dpkg-deb -x: '..' is refused (by tar)" dotdot fails
dpkg_does "dpkg-deb -x: an absolute name is stripped and extracted inside" \
	absolute ok test -f "$WORK/dx-absolute$outside/absolute-evil"
dpkg_does "dpkg-deb -x: a second data.tar is ignored" \
	two-data ok test -f "$WORK/dx-two-data/file"
dpkg_does "dpkg-deb -x: a padding byte that is not a newline is skipped" \
	bad-padding ok test -f "$WORK/dx-bad-padding/file"
dpkg_does "dpkg-deb -x: a last member without its padding byte is read" \
	no-final-pad ok test -f "$WORK/dx-no-final-pad/file"
check_fails "dpkg-deb -x under ulimit -f: its tar is killed by SIGXFSZ" 2 \
	"tar subprocess was killed by signal \(File size limit exceeded\)" \
	limited 1024 dpkg-deb -x "$WORK/fits.deb" "$WORK/dx-fits"
check "dpkg-deb -f: of two 'control' files, the later is read" \
	test "$(dpkg-deb -f "$WORK/control-twice.deb" Package)" = other
if [ "$(id -u)" = 0 ]; then
	mode_is() { test "$(stat -c %a "$1")" = "$2"; }
	dpkg_does "dpkg-deb -x as root: set-id bits kept" setid ok \
		mode_is "$WORK/dx-setid/usr/suid" 4755
	dpkg_does "dpkg-deb -x as root: device nodes made" device ok \
		test -c "$WORK/dx-device/dev-null"
fi
rm -rf "$WORK"/dx-*
nothing_outside "dpkg-deb's extractions"
