#!/bin/bash
# piuparts on a project's packages, from the clean Debian 12 root
# (tests/tools/debian-root.sh): a copy of the root (piuparts'
# --existing-chroot; the cache itself is only read) gets the packages
# with dpkg and their dependencies from Debian's mirror with apt, then
# adequate (the host's, --root) runs on them, then they are purged; it
# fails on an error of a maintainer script, a file left after the purge
# or changed, a modified file (debsums), and on any adequate tag
# (--fail-if-inadequate), and on a broken symlink the root did not have.
# Only the install and purge test: no upgrade from the archive's
# packages of the same names (--no-upgrade-test).
# The root's sources.list is kept (--keep-sources-list): bookworm with
# its updates and security suites, from which the root was installed
# (with bookworm alone, apt cannot install libpython3.11 beside the
# root's newer libpython3.11-stdlib from bookworm-security).
#
# usage (sourced, after tests/tools/debian-root.sh; debian_root_prepare
# first, for DEBIAN_ROOT):
#   piuparts_clean LOG DEB...   runs it; 0 when piuparts says PASS,
#                               adequate said nothing and no symlink
#                               broke; its output in LOG
#   piuparts_why LOG            the lines of LOG that say why it failed
#   piuparts_debs DIR           DIR's .deb files but the -dbgsym ones, a
#                               line each
#   piuparts_in_root DEB        0 when the root has DEB's package at its
#                               version (left out: below)

piuparts_clean() { # LOG DEB...
	local log=$1
	shift
	command -v piuparts >/dev/null && command -v adequate >/dev/null || {
		echo "piuparts or adequate is not installed (scripts/install-deps.sh)" >"$log"
		return 1
	}
	# Its own mount namespace: what piuparts mounts in its copy (/proc,
	# /dev/pts) goes with it, even when it is killed; the copy is on a
	# tmpfs of that namespace (copying the 470 MB root to the disk and
	# removing it took a minute of the three piuparts took, with the
	# disk busy).
	unshare --mount sh -ec '
		mount --make-rprivate /
		tmp=$(mktemp -d "${TMPDIR:-/tmp}/padpack-piuparts.XXXXXX")
		mount -t tmpfs -o size=3g,mode=0700 tmpfs "$tmp"
		root=$1; shift
		rc=0
		nice piuparts --existing-chroot="$root" --tmpdir="$tmp" "$@" || rc=$?
		umount "$tmp"; rmdir "$tmp"
		exit $rc
	' sh "$DEBIAN_ROOT" -d bookworm --keep-sources-list \
		--no-upgrade-test --fail-if-inadequate "$@" >"$log" 2>&1 &&
	grep -q 'INFO: PASS: Installation and purging test\.$' "$log" &&
	grep -q 'Running adequate version' "$log" &&
	! grep -q 'Inadequate results' "$log" &&
	[ -z "$(piuparts_new_symlinks "$log")" ]
}

# piuparts only warns of broken symlinks; the root has four before any
# package is installed (base-files' FAQ, cpp's and python3.11's links
# into /usr/share/doc, which the root leaves out: debian-root.sh), so a
# broken symlink fails the test when the first list, the root's, lacks it.
# Links in /usr/share/doc whose target is not a copyright file are left
# out: the root's path-exclude drops their targets, whoever ships them
# (Debian's libxml2, which libarchive13 pulls in, brings NEWS.gz ->
# changelog.gz).
piuparts_new_symlinks() { # LOG: those, a line each
	awk '/Broken symlinks:$/ { n++; on = 1; next }
	     on && /^  / { sub(/ \(.*\)$/, "")
	                   if (n == 1) { root[$0] = 1; next }
	                   if ($0 in root) next
	                   if ($1 ~ "^/usr/share/doc/" && $3 !~ "(^|/)copyright$") next
	                   print; next }
	     { on = 0 }' "$1" | sort -u
}

piuparts_why() { # LOG
	piuparts_new_symlinks "$1" | sed 's/^/new broken symlink: /'
	grep -E -A12 'ERROR: (FAIL|Command failed)|^piuparts or adequate' "$1" |
		grep -v -e '^--$' -e ' DEBUG: ' -e '(Reading database' | head -n 30
}

piuparts_debs() { # DIR
	local f
	for f in "$1"/*.deb; do
		case $f in *-dbgsym_*) ;; *) echo "$f" ;; esac
	done
}

# A package the root has at the same version (libjansson4 2.14-2,
# libnettle8, libzstd1 ...: dpkg, grep, binutils need them) cannot be
# tested so: piuparts keeps it at the purge, being the root's, and
# finds the root's files changed (padpack's libjansson.so.4.14.0 is
# another build of Debian's; "After purging files have been modified").
# With another version it passes (expat: piuparts puts the root's
# libexpat1 2.5.0-1+deb12u5 back over padpack's deb12u2).
piuparts_in_root() { # DEB: 0 when the root has its package at its version
	local pv
	pv="$(dpkg-deb -f "$1" Package) $(dpkg-deb -f "$1" Version)" &&
	dpkg-query --admindir="$DEBIAN_ROOT/var/lib/dpkg" -W \
		-f='${Package} ${Version} ${db:Status-Status}\n' 2>/dev/null |
		grep -qx "$pv installed"
}
