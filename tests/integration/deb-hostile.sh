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
hostile fifo "entry '\./fifo' is a FIFO"

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

# Broken compressed data: the readers of the data member refuse it.
for c in bad-compression truncated-stream; do
	craft $c
	check_fails "$c: contents refuses it" 3 "member 'data\.tar\.xz'" "$PADPACK" contents "$WORK/$c.deb"
	check_fails "$c: extract refuses it" 3 "member 'data\.tar\.xz'" "$PADPACK" extract "$WORK/$c.deb" "$WORK/t-$c"
done

check_fails "a file that is not there" 4 "cannot open '.*/nothere.deb'" "$PADPACK" info "$WORK/nothere.deb"
check_fails "a directory given as package" 3 "is not a regular file" "$PADPACK" info "$WORK"
nothing_outside "all cases"
