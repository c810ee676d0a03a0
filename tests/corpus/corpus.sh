#!/bin/bash
# The real-world corpus of padpack split: upstream projects no one here
# wrote, each built from its Debian 12 source with upstream's own build
# system and Debian's build flags, installed with `make install DESTDIR`
# (or CMake's), split by padpack with a minimal spec, and scored against
# Debian's own .debs of the same version (tests/tools/fidelity.py).
#
# usage: tests/corpus/corpus.sh [-o DIR] [--no-piuparts] [NAME...]
#   Fetches, builds and splits each project (default: every
#   tests/corpus/*.conf) into DIR/NAME/ (default: a temporary directory),
#   prints a line per project, then runs piuparts on each project's
#   packages but -dbgsym in the clean Debian 12 root (install, adequate,
#   purge: tests/tools/piuparts.sh; a line per project, its log
#   DIR/NAME/piuparts.log; --no-piuparts leaves it out), then prints
#   the fidelity table (and writes DIR/details.md, what differs);
#   PADPACK names the padpack to run (default: this tree's ./padpack).
#   Exits 0 when every project split and passed piuparts and the corpus
#   meets the thresholds of issue 13, 1 when a project failed (to fetch,
#   build, split with the minimal spec, or pass piuparts), 2 when only
#   the thresholds are not met.
# Sourced (by tests/integration/split-corpus.sh), it defines the
# corpus_* functions and runs nothing.
#
# A recipe, tests/corpus/NAME.conf (bash), sets:
#   SOURCE    Debian's source package name
#   DEBS      the binary packages of Debian that make install's files go
#             to (their -doc packages built by dh steps are left out)
#   SUMMARY   the spec's summary
#   TITLE     a packages.title and
#   SPEC_VERSION  a version, where padpack refuses upstream's, for the
#             spec tried when the minimal one fails (its packages are
#             scored; the minimal spec's failure is reported)
#   SUITE     "fidelity" for a project only `make fidelity` builds and
#             scores: tests/run.sh split-corpus (make check) leaves it out,
#             to keep within its time (corpus_suite_names)
#   and defines corpus_build, run in a copy of the unpacked source with
#   Debian's build flags exported and $STAGE the DESTDIR, using the
#   helpers autotools_build and cmake_build below or its own commands.
#
# Cache: /var/tmp/padpack-corpus (PADPACK_CORPUS_CACHE), shared by every
# project:  apt/ (the private apt state, refreshed after a week),
#   fetch/SOURCE_VERSION/{src,debian}  the source and Debian's .debs,
#   build/NAME-KEY/default/stage  the staged tree, KEY hashing the recipe,
#     this file's build functions, the compilers' versions and the source
#     version, so a change to any of them rebuilds.
# Nothing depends on the cache being there; builds run one at a time
# (a lock) under nice, on two jobs.
set -u
CORPUS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CORPUS_TOP=$(cd "$CORPUS_DIR/../.." && pwd)
CORPUS_CACHE=${PADPACK_CORPUS_CACHE:-/var/tmp/padpack-corpus}
CORPUS_PADPACK=${PADPACK:-$CORPUS_TOP/padpack}
CORPUS_MIRROR="[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main"
CORPUS_JOBS=${CORPUS_JOBS:-2}
source "$CORPUS_TOP/tests/tools/debian-root.sh"
source "$CORPUS_TOP/tests/tools/piuparts.sh"
source "$CORPUS_TOP/tests/tools/verdicts.sh"

corpus_apt() { # ARGS...: apt-get with the corpus' private configuration
	"$CORPUS_TOP/tests/tools/apt-private.sh" "$CORPUS_CACHE/apt" "deb $CORPUS_MIRROR
deb-src $CORPUS_MIRROR" "$@"
}

corpus_names() { (cd "$CORPUS_DIR" && ls ./*.conf | sed 's|^\./||; s/\.conf$//'); }
# The projects of tests/run.sh split-corpus: those without SUITE=fidelity.
corpus_suite_names() {
	local n
	for n in $(corpus_names); do
		grep -q '^SUITE=fidelity$' "$CORPUS_DIR/$n.conf" || echo "$n"
	done
}

# corpus_load NAME: reads the recipe (SOURCE, DEBS, SUMMARY, corpus_build).
corpus_load() {
	unset -f corpus_build
	SOURCE='' DEBS='' SUMMARY='' TITLE='' SPEC_VERSION='' SUITE=''
	# shellcheck source=/dev/null
	source "$CORPUS_DIR/$1.conf" || return 1
	[ -n "$SOURCE" ] && [ -n "$DEBS" ] && [ -n "$SUMMARY" ] &&
		declare -F corpus_build >/dev/null
}

# corpus_fetch NAME: sets VERSION (Debian's, with revision), SRC (the
# unpacked source) and DEBDIR (Debian's .debs); fetches what is missing.
corpus_fetch() {
	local name=$1 f log
	mkdir -p "$CORPUS_CACHE"
	log=$CORPUS_CACHE/apt-$name.log
	if [ -z "$(find "$CORPUS_CACHE/apt/updated" -mtime -7 2>/dev/null)" ]; then
		corpus_apt update >"$log" 2>&1 || return 1
		touch "$CORPUS_CACHE/apt/updated"
	fi
	VERSION=$(APT_CONFIG=$CORPUS_CACHE/apt/apt.conf apt-cache showsrc "$SOURCE" |
		awk -v s="$SOURCE" '/^Package:/ { p = $2 } /^Version:/ && p == s { print $2; exit }')
	[ -n "$VERSION" ] || { echo "no source $SOURCE on the mirror" >"$log"; return 1; }
	f=$CORPUS_CACHE/fetch/${SOURCE}_${VERSION#*:}
	SRC=$f/src DEBDIR=$f/debian
	[ -f "$f/complete" ] && return 0
	rm -rf "$f" && mkdir -p "$SRC" "$DEBDIR"
	(cd "$SRC" && { corpus_apt source "$SOURCE=$VERSION" || corpus_unsigned "$log"; }) >"$log" 2>&1 &&
	(cd "$DEBDIR" && corpus_apt download $(for p in $DEBS; do
		echo "$p=$(corpus_binary_version "$p")"; done)) >>"$log" 2>&1 ||
		return 1
	touch "$f/complete"
}

# corpus_unsigned LOG: in the source's directory, after apt-get source
# failed: unpacks the .dsc when every file the mirror did not give is an
# upstream signature (.asc: mpg123's answers 404); the files unpacked
# are the ones apt checked against the signed Sources index.
corpus_unsigned() {
	local d
	grep -q '^E: Failed to fetch http' "$1" &&
	! grep '^E: Failed to fetch http' "$1" | grep -qv '\.asc  *404' || return 1
	for d in ./*.dsc; do [ -f "$d" ] || return 1; done
	dpkg-source -x --no-check ./*.dsc
}

# corpus_binary_version PACKAGE: the version of PACKAGE built from
# $SOURCE $VERSION: VERSION itself, or VERSION+bN where Debian rebuilt
# the binaries without a source change (binNMU: protobuf-c, markupsafe).
corpus_binary_version() {
	APT_CONFIG=$CORPUS_CACHE/apt/apt.conf apt-cache madison "$1" |
		awk -F' *[|] *' -v v="$VERSION" '$2 == v || index($2, v "+b") == 1 { print $2; exit }'
}

corpus_srcdir() { ls -d "$SRC"/*/ | head -n 1; }

# The build helpers a recipe's corpus_build calls.
autotools_build() { # CONFIGURE-ARGS... (autoreconf first, as dh does)
	autoreconf -fi &&
	./configure --prefix=/usr --sysconfdir=/etc --localstatedir=/var \
		--libdir=/usr/lib/x86_64-linux-gnu --disable-silent-rules \
		--disable-dependency-tracking "$@" &&
	make -j"$CORPUS_JOBS" && make install DESTDIR="$STAGE"
}

# CMake reads no CPPFLAGS: dh_auto_configure appends them to CFLAGS and
# CXXFLAGS (-D_FORTIFY_SOURCE=2), and so does this.
cmake_build() { # CMAKE-ARGS...
	CFLAGS="$CFLAGS $CPPFLAGS" CXXFLAGS="$CXXFLAGS $CPPFLAGS" \
	cmake -S . -B obj-corpus -G Ninja -DCMAKE_INSTALL_PREFIX=/usr \
		-DCMAKE_INSTALL_LIBDIR=lib/x86_64-linux-gnu -DCMAKE_BUILD_TYPE=None \
		-DCMAKE_INSTALL_SYSCONFDIR=/etc -DCMAKE_INSTALL_LOCALSTATEDIR=/var "$@" &&
	ninja -C obj-corpus -j"$CORPUS_JOBS" && DESTDIR="$STAGE" ninja -C obj-corpus install
}

# corpus_build_deps: the installed versions of the packages the
# source's Build-Depends name (first of each alternative; those not
# installed left out), one "NAME VERSION" a line, sorted.
corpus_build_deps() {
	local control
	control=$(corpus_srcdir)debian/control
	[ -f "$control" ] || return 0
	awk '/^Build-Depends(-Arch|-Indep)?:/ { on = 1; sub(/^[^:]*:/, ""); print; next }
	     on && /^[ \t]/ { print; next } { on = 0 }' "$control" |
		tr ',' '\n' | sed -e 's/|.*//' -e 's/[[(<].*//' -e 's/:[a-z]*//' |
		awk 'NF { print $1 }' | sort -u |
		xargs -r dpkg-query -W -f '${Package} ${Version}\n' 2>/dev/null |
		awk 'NF == 2' | sort
}

corpus_key() { # NAME: what the staged tree of NAME depends on (the
	# recipe, the helpers it calls, the compilers, the source version,
	# the installed build dependencies)
	local h
	corpus_load "$1" || return 1
	{ declare -f corpus_build
	  for h in autotools_build cmake_build; do
		declare -f corpus_build | grep -q "$h" && declare -f "$h"
	  done
	  cc --version; c++ --version; echo "$VERSION"
	  corpus_build_deps; } | sha256sum | cut -c1-16
}

# corpus_build_cached NAME: sets BUILD (for padpack split -B), building
# into it when its cache is missing; the log is BUILD.log.
corpus_build_cached() {
	local name=$1 work
	BUILD=$CORPUS_CACHE/build/$name-$(corpus_key "$name")
	[ -f "$BUILD/complete" ] && return 0
	# The builds of older keys (16 hex digits: no other project's name).
	rm -rf "$CORPUS_CACHE/build/$name"-???????????????? \
		"$CORPUS_CACHE/build/$name"-????????????????.log && mkdir -p "$BUILD"
	work=$CORPUS_CACHE/work/$name
	rm -rf "$work" && mkdir -p "$(dirname "$work")" && cp -a "$(corpus_srcdir)" "$work"
	(cd "$work" && eval "$(dpkg-buildflags --export=sh)" &&
	 STAGE=$BUILD/default/stage && export STAGE && corpus_build) >"$BUILD.log" 2>&1 &&
	rm -rf "$work" && touch "$BUILD/complete"
}

# corpus_spec NAME FILE [fallback]: the minimal spec of issue 13 (name,
# version, maintainer, summary, revision, Debian's epoch if any, copyright file) and nothing
# else: padpack's defaults give the rest (description from the summary,
# one variant, no Homepage). The maintainer is the source's
# debian/control's. "fallback" adds the recipe's TITLE as packages.title
# and puts SPEC_VERSION for the version.
corpus_spec() {
	local name=$1 up=${VERSION#*:} src maint epoch=
	up=${up%-*}
	# Debian's epoch (libcap2's 1:), so the packages replace Debian's
	case $VERSION in *:*) epoch=${VERSION%%:*} ;; esac
	[ -n "${3:-}" ] && up=${SPEC_VERSION:-$up}
	src=$(corpus_srcdir)
	maint=$(sed -n 's/^Maintainer: *//p' "$src/debian/control" | head -n 1)
	cat >"$2" <<-EOC
	name = "$name";
	version = "$up";
	maintainer = "$maint";
	summary = "$SUMMARY";
	packages = {
		revision = "${VERSION##*-}";${epoch:+
		epoch = $epoch;}
		copyright = "${src}debian/copyright";${3:+
		title = \"$TITLE\";}
	};
	EOC
}

# corpus_one NAME OUT: fetch, build and split NAME into OUT/NAME/debs,
# Debian's .debs linked as OUT/NAME/debian; prints one line, returns
# 1 (fetch), 2 (build), 3 (split) on failure, and 4 when the minimal
# spec failed but the fallback one (TITLE, SPEC_VERSION) split:
# the packages are then there, to be scored.
corpus_one() {
	local name=$1 out=$2/$1 rc=0
	rm -rf "$out" && mkdir -p "$out"
	corpus_load "$name" || { echo "$name: bad recipe"; return 1; }
	(
		flock 9
		corpus_fetch "$name" || { echo "$name: fetch failed, see $CORPUS_CACHE/apt-$name.log"; exit 1; }
		ln -s "$DEBDIR" "$out/debian"
		echo "$VERSION" >"$out/version"
		renice -n 10 -p "$BASHPID" >/dev/null
		corpus_build_cached "$name" ||
			{ echo "$name $VERSION: build failed, see $BUILD.log"; exit 2; }
		echo "$BUILD" >"$out/build"
	) 9>"$CORPUS_CACHE/lock" || return $?
	VERSION=$(cat "$out/version") BUILD=$(cat "$out/build")
	corpus_fetch "$name" || return 1
	corpus_spec "$name" "$out/spec.cfg"
	if ! "$CORPUS_PADPACK" split -c "$out/spec.cfg" -B "$BUILD" -o "$out/debs" \
		>"$out/split.log" 2>&1; then
		rm -rf "$out/debs"
		echo -n "$name $VERSION: padpack split failed with the minimal spec: $(head -c 300 "$out/split.log")"
		rc=3
		[ -n "$TITLE" ] || { echo; return $rc; }
		corpus_spec "$name" "$out/spec-title.cfg" fallback
		"$CORPUS_PADPACK" split -c "$out/spec-title.cfg" -B "$BUILD" -o "$out/debs" \
			>"$out/split-title.log" 2>&1 || { echo; rm -rf "$out/debs"; return $rc; }
		echo -n " (split with packages.title${SPEC_VERSION:+ and version $SPEC_VERSION}: scored)"
		head -n 1 "$out/split.log" >"$out/fallback"
		echo
		return 4
	fi
	echo "$name $VERSION: $(ls "$out/debs"/*.deb | wc -l) packages (Debian: $(ls "$out/debian"/*.deb | wc -l))"
}

# The key of a piuparts verdict on DEB...: what it read (the packages'
# bytes, the prepared root, piuparts' and adequate's versions, the
# script that runs them).
corpus_piuparts_key() { # DEB...
	local f
	{ debian_root_identity
	  dpkg-query -W -f='${Package} ${Version}\n' piuparts adequate 2>&1
	  cat "$CORPUS_TOP/tests/tools/piuparts.sh"
	  for f in "$@"; do sha256sum <"$f"; done; } | verdict_key
}

# corpus_root_holder DEB: prints the package of the root that holds one
# of DEB's files at DEB's version, under another name, and returns 0;
# else 1. zlib's libz1 is Debian's zlib1g (priority required: in every
# root) under padpack's name: dpkg refuses to overwrite the root's
# /lib/x86_64-linux-gnu/libz.so.1.2.13 with it, and piuparts, like
# piuparts_in_root, would test the root's package, not the project's.
corpus_root_holder() {
	local admin=$DEBIAN_ROOT/var/lib/dpkg v p
	v=$(dpkg-deb -f "$1" Version) || return 1
	for p in $(dpkg-deb --fsys-tarfile "$1" | tar -t | sed -n 's|^\./|/|; /[^/]$/p' |
		grep -lFx -f - "$admin"/info/*.list | sed 's|.*/||; s/\.list$//'); do
		if [ "$(dpkg-query --admindir="$admin" -W -f='${Version} ${db:Status-Status}' "$p" 2>/dev/null)" = "$v installed" ]; then
			echo "${p%%:*}"
			return 0
		fi
	done
	return 1
}

# corpus_needs_one DEB NAME...: prints the first NAME that DEB's Depends
# or Pre-Depends names, and returns 0; else 1.
corpus_needs_one() {
	local deb=$1 n
	shift
	for n in "$@"; do
		dpkg-deb -f "$deb" Depends Pre-Depends | sed 's/^[A-Za-z-]*: //' |
			tr ',|' '\n\n' | awk '{ sub(/:.*/, "", $1); print $1 }' | grep -qx -- "$n" &&
			{ echo "$n"; return 0; }
	done
	return 1
}

# corpus_piuparts OUT NAME: piuparts on OUT/NAME/debs (but -dbgsym, and
# those whose package the root has at their version: piuparts_in_root,
# corpus_root_holder)
# in the clean root (debian_root_prepare first); prints "NAME: piuparts
# PASS (N s)", or FAIL and why; the log is OUT/NAME/piuparts.log. A PASS
# is kept (tests/tools/verdicts.sh): the same packages in the same root
# take it again, saying so, without a run.
corpus_piuparts() {
	local log=$1/$2/piuparts.log start=$SECONDS f debs=() root=() held=() rest=() key v
	for f in $(piuparts_debs "$1/$2/debs"); do
		if piuparts_in_root "$f"; then
			root+=("$(dpkg-deb -f "$f" Package)")
		elif v=$(corpus_root_holder "$f"); then
			held+=("$(dpkg-deb -f "$f" Package)")
			root+=("${held[-1]} (as $v)")
		else
			rest+=("$f")
		fi
	done
	# what needs a package held under another name cannot be installed
	# beside the root's (zlib's libz-dev needs libz1 (= 1:1.2.13.dfsg-1),
	# which zlib1g's unversioned Provides does not give)
	for f in "${rest[@]}"; do
		if v=$(corpus_needs_one "$f" "${held[@]}"); then
			root+=("$(dpkg-deb -f "$f" Package) (needs $v)")
		else
			debs+=("$f")
		fi
	done
	[ ${#root[@]} = 0 ] ||
		root=(", the root's own $(printf '%s, ' "${root[@]}" | sed 's/, $//') left out")
	[ ${#debs[@]} = 0 ] || key=$(corpus_piuparts_key "${debs[@]}")
	if [ ${#debs[@]} = 0 ]; then
		echo "$2: piuparts: nothing to test${root[*]}"
	elif v=$(verdict_get corpus-piuparts "$key"); then
		printf '%s\n' "$v" >"$log"
		echo "$2: piuparts PASS (kept: $v${root[*]})"
	elif piuparts_clean "$log" "${debs[@]}"; then
		echo "$2: piuparts PASS ($((SECONDS - start)) s${root[*]})"
		echo "the verdict of a run on the same packages in the same root, $(date -u +%FT%TZ)" |
			verdict_put corpus-piuparts "$key"
	else
		echo "$2: piuparts FAIL ($((SECONDS - start)) s${root[*]}), see $log"
		piuparts_why "$log" | sed 's/^/  /'
		return 1
	fi
}

corpus_main() {
	local out="" rc=0 n names piuparts=yes
	while [ $# -gt 0 ]; do
		case $1 in
		-o) out=$2; shift 2 ;;
		--no-piuparts) piuparts=''; shift ;;
		*) break ;;
		esac
	done
	if [ -z "$out" ]; then
		out=$(mktemp -d "${TMPDIR:-/tmp}/padpack-corpus.XXXXXX")
		trap 'rm -rf "$out"' EXIT
	fi
	mkdir -p "$out"
	mkdir -p "$CORPUS_CACHE"
	names=("$@")
	[ $# -eq 0 ] && names=($(corpus_names))
	for n in "${names[@]}"; do
		corpus_one "$n" "$out" || rc=1
	done
	if [ -n "$piuparts" ]; then
		echo
		if debian_root_prepare; then
			for n in "${names[@]}"; do
				[ -d "$out/$n/debs" ] || continue
				corpus_piuparts "$out" "$n" || rc=1
			done
		else
			echo "piuparts: no clean Debian 12 root (mmdebstrap)"; rc=1
		fi
	fi
	echo
	"$CORPUS_TOP/tests/tools/fidelity.py" --details "$out" >"$out/details.md"
	"$CORPUS_TOP/tests/tools/fidelity.py" --thresholds "$out" || { [ $rc = 0 ] && rc=2; }
	echo "what differs, project by project: $out/details.md"
	return $rc
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1700000000}
	corpus_main "$@"
	exit $?
fi
