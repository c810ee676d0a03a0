#!/bin/bash
# A clean Debian 12 root to install packages into, built once with
# mmdebstrap and cached; each use is a throw-away overlay on top of it.
#
# usage (sourced):  source tests/tools/debian-root.sh
#   debian_root_prepare          builds or reuses the cache; 0 when usable
#   debian_root_identity         what the prepared root holds, hashed
#   debian_root_run DEBDIR CMD   in a fresh overlay with DEBDIR bound at
#                                /debs, runs the shell command CMD as root
#                                (network only to the Debian mirror)
#
# The cache is /var/tmp/padpack-root/<key>/ where the key hashes this
# recipe and mmdebstrap's version: a change to either builds a new root.
# A root older than a week is rebuilt too (security updates). Building
# takes 20 to 60 s; nothing else depends on the cache being there.
# The base holds minbase plus what the -dev test compiles with (gcc,
# pkg-config); apt lists are fetched once into it, so installs in the
# overlay resolve dependencies from the mirror without an update.

DEBIAN_ROOT_CACHE=${DEBIAN_ROOT_CACHE:-/var/tmp/padpack-root}
DEBIAN_ROOT_EXTRA="gcc libc6-dev pkg-config python3"

debian_root_key() {
	{ sed -n '/^debian_root_build()/,/^}/p' "${BASH_SOURCE[0]}"
	  echo "$DEBIAN_ROOT_EXTRA"; mmdebstrap --version; } | sha256sum | cut -c1-16
}

debian_root_build() { # DIR: a fresh root in DIR/lower (tar kept as DIR/base.tar)
	local d=$1
	mmdebstrap --quiet --format=tar --variant=minbase \
		--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
		--hook-dir=/usr/share/mmdebstrap/hooks/eatmydata \
		--include="${DEBIAN_ROOT_EXTRA// /,}" \
		--dpkgopt='path-exclude=/usr/share/man/*' \
		--dpkgopt='path-exclude=/usr/share/locale/*' \
		--dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-include=/usr/share/doc/*/copyright' \
		--customize-hook='rm -f "$1"/var/cache/apt/*.bin' \
		bookworm "$d/base.tar.tmp" >"$d/mmdebstrap.log" 2>&1 || return 1
	mv "$d/base.tar.tmp" "$d/base.tar"
	mkdir -p "$d/lower"
	tar -C "$d/lower" -xf "$d/base.tar" || return 1
	cp /etc/resolv.conf "$d/lower/etc/resolv.conf"
	chroot "$d/lower" apt-get update -qq >>"$d/mmdebstrap.log" 2>&1
}

debian_root_prepare() {
	local key dir
	command -v mmdebstrap >/dev/null || return 1
	key=$(debian_root_key)
	dir=$DEBIAN_ROOT_CACHE/$key
	mkdir -p "$DEBIAN_ROOT_CACHE"
	exec 8>"$DEBIAN_ROOT_CACHE/lock"
	flock 8
	if [ -f "$dir/complete" ] && [ -z "$(find "$dir/complete" -mtime +7)" ]; then
		DEBIAN_ROOT=$dir/lower
		flock -u 8
		return 0
	fi
	rm -rf "${DEBIAN_ROOT_CACHE:?}"/*/
	mkdir -p "$dir"
	if debian_root_build "$dir"; then
		touch "$dir/complete"
		DEBIAN_ROOT=$dir/lower
		flock -u 8
		return 0
	fi
	tail -n 20 "$dir/mmdebstrap.log" >&2
	rm -rf "$dir"
	flock -u 8
	return 1
}

# What the prepared root holds (its packages, the apt lists it installs
# from): a root rebuilt under the same key prints another identity.
debian_root_identity() {
	{ cat "$DEBIAN_ROOT/var/lib/dpkg/status"
	  (cd "$DEBIAN_ROOT/var/lib/apt/lists" && ls -l --time-style=+%s); } | sha256sum | cut -c1-16
}

# Runs CMD in an overlay over the cached root: its changes are thrown away.
debian_root_run() { # DEBDIR CMD
	local debs=$1 cmd=$2 d rc=0
	d=$(mktemp -d "${TMPDIR:-/tmp}/padpack-root.XXXXXX")
	mkdir -p "$d/upper" "$d/work" "$d/root"
	unshare --mount --pid --fork sh -ec '
		mount --make-rprivate /
		mount -t overlay overlay -o "lowerdir=$1,upperdir=$2/upper,workdir=$2/work" "$2/root"
		mount -t proc proc "$2/root/proc"
		mount --rbind /dev "$2/root/dev"
		mkdir -p "$2/root/debs"
		mount --bind "$3" "$2/root/debs"
		chroot "$2/root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive sh -ec "$4"
	' sh "$DEBIAN_ROOT" "$d" "$debs" "$cmd" || rc=$?
	rm -rf "$d"
	return $rc
}
