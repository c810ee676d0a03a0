#!/bin/sh
# Installs every Debian package that building, running and testing padpack
# needs. It is the only way anything gets onto a machine: CI, `make demo` and
# `make check` all call it. Idempotent: when everything is present it only
# asks dpkg and returns.
#
# usage: scripts/install-deps.sh [build|test|bench|all]   (default: all:
# what building and testing need; bench adds the anchor tools)
set -eu

build_pkgs="gcc make pkg-config libarchive-dev zlib1g-dev liblzma-dev
 libssl-dev libconfig-dev libelf-dev libzstd-dev libzydis-dev cmake
 libjansson-dev scdoc"
# What `padpack build` needs to build the bundled Paddle core (pkg/).
build_pkgs="$build_pkgs g++ ninja-build ccache python3-dev git"

# Tools the tests compare padpack against, and what they need to run.
test_pkgs="dpkg-dev lintian fakeroot debhelper binutils elfutils file
 gpgv gnupg sqv debsigs debsig-verify apt-utils
 clang libclang-rt-14-dev python3 time xz-utils zstd gzip bc openssl
 mmdebstrap eatmydata gdb autoconf automake libtool strace"
# padpack docker's tests: a Docker engine started by hand, and shellcheck
# for the scripts it writes.
test_pkgs="$test_pkgs docker.io shellcheck"
# repo-byhash: a real web server that apt-get update reads from while
# the repository is published again and again.
test_pkgs="$test_pkgs lighttpd"
# repo-contents: apt-file searches the Contents indices.
test_pkgs="$test_pkgs apt-file"
# build-systems: padpack build drives meson, and copies plain-make trees
# with rsync.
test_pkgs="$test_pkgs meson rsync"
# docs: the man pages rendered and opened (man, groff, col).
test_pkgs="$test_pkgs man-db groff-base bsdextrautils"
# make html: the man pages as HTML for doc/ (mandoc -T html).
test_pkgs="$test_pkgs mandoc"
# What the projects of padpack split's corpus (tests/corpus/) build with.
test_pkgs="$test_pkgs nasm libgmp-dev libxml2-dev libogg-dev"
# libarchive: the compressors and ACLs Debian builds it with.
test_pkgs="$test_pkgs liblz4-dev libacl1-dev"
# libidn2: GNU libunistring, which it is built on.
test_pkgs="$test_pkgs libunistring-dev"
# protobuf-c: protoc and its C++ library (its protoc-gen-c plugin);
# libxml2 (pending): its Python C extension module.
test_pkgs="$test_pkgs libprotobuf-dev libprotoc-dev protobuf-compiler python3-dev python3-setuptools"
# The rest of the corpus projects' Build-Depends that change what they
# build and link (tiff: deflate, JBIG, LERC, WebP; libwebp's tools: GIF
# and TIFF; expat: libbsd) and the tools that make their manuals (man
# pages from --help, info manuals), so that they are built as Debian
# builds them (the documentation tools beyond these, pandoc, doxygen,
# sphinx and a JDK, are left out: hundreds of megabytes).
test_pkgs="$test_pkgs libdeflate-dev libjbig-dev liblerc-dev libwebp-dev
 libxi-dev libgif-dev libtiff-dev libbsd-dev libext2fs-dev help2man
 chrpath bison gengetopt texinfo sharutils"
# The projects added as a held-out check (2026-11-27, second round):
# libnl3's lexers (flex), wayland's libffi and expat, gdbm's readline.
test_pkgs="$test_pkgs flex libffi-dev libexpat1-dev libreadline-dev"
# make openblas and the corpus (make fidelity, split-corpus): piuparts
# installs and purges packages in the cached clean Debian 12 root, and
# runs adequate (from the host, --root) on them once installed.
test_pkgs="$test_pkgs piuparts adequate"

# The anchor tools `make bench` measures padpack against.
bench_pkgs="reprepro aptly"

case "${1:-all}" in
build) want=$build_pkgs ;;
test) want=$test_pkgs ;;
bench) want="$build_pkgs $test_pkgs $bench_pkgs" ;;
all) want="$build_pkgs $test_pkgs" ;;
*) echo "usage: $0 [build|test|bench|all]" >&2; exit 2 ;;
esac
# The Dockerfile linters come from npm (below); Debian's npm if none is here.
lint_lock=$(dirname "$0")/../tests/lint/package-lock.json
[ "${1:-all}" = build ] || command -v npm >/dev/null || want="$want npm"

# lint_tools: dockerfilelint and dockerfile-utils, the versions
# tests/lint/package-lock.json pins, in /var/tmp/padpack-lint (redone when
# the lock changes).
lint_tools() {
	[ "${1:-all}" != build ] && [ -f "$lint_lock" ] || return 0
	dir=${PADPACK_LINT_DIR:-/var/tmp/padpack-lint}
	key=$(sha256sum "$lint_lock" | cut -c1-16)
	[ "$(cat "$dir/key" 2>/dev/null)" = "$key" ] && return 0
	echo "install-deps: installing the Dockerfile linters into $dir"
	rm -rf "$dir" && mkdir -p "$dir"
	cp "$lint_lock" "$(dirname "$lint_lock")/package.json" "$dir/"
	(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) &&
		echo "$key" >"$dir/key"
}

missing=
for p in $want; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && { lint_tools "$@"; exit; }

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing packages:$missing" >&2
	echo "install-deps: run this script as root (or: sudo $0 $*)" >&2
	exit 1
fi
echo "install-deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing
lint_tools "$@"
