#!/bin/bash
# padpack split on a real upstream project no one here wrote: jansson,
# from its Debian source (apt-get source), built with Debian's build flags
# and installed with make install DESTDIR, split with a minimal spec, and
# compared file by file and dependency by dependency with Debian's own
# libjansson4 and libjansson-dev of the same version (apt-get download).
#
# The source, Debian's packages and the build are kept in
# /var/tmp/padpack-jansson/KEY (KEY: this recipe, the compiler, the
# version), refreshed after a week; everything comes from the Debian
# mirror through a private apt configuration (tests/tools/apt-private.sh).
source "$(dirname "$0")/../lib.sh"

export SOURCE_DATE_EPOCH=1700000000
CACHE=/var/tmp/padpack-jansson
MIRROR="[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main"
# The files Debian's packages have that make install does not give:
# dh_installdocs (debian/docs), dh_installexamples, dh_installchangelogs.
DH_ONLY='^/usr/share/doc/[^/]+/(README\.rst|changelog\.gz|examples/.*)$'

apt_private() { # ARGS...: apt-get with the private configuration
	"$TOP/tests/tools/apt-private.sh" "$CACHE/apt" "deb $MIRROR
deb-src $MIRROR" "$@"
}

# The version bookworm has now, its source and its binary packages.
fetch() {
	local d ver
	mkdir -p "$CACHE"
	if [ -z "$(find "$CACHE/fetched" -mtime -7 2>/dev/null)" ]; then
		apt_private update >"$CACHE/apt.log" 2>&1 || return 1
		rm -rf "$CACHE/src" "$CACHE/debian" && mkdir -p "$CACHE/src" "$CACHE/debian"
		ver=$(APT_CONFIG=$CACHE/apt/apt.conf apt-cache showsrc jansson |
			awk '/^Version:/ { print $2; exit }')
		[ -n "$ver" ] || return 1
		(cd "$CACHE/src" && apt_private source "jansson=$ver") >>"$CACHE/apt.log" 2>&1 &&
		(cd "$CACHE/debian" && apt_private download "libjansson4=$ver" \
			"libjansson-dev=$ver") >>"$CACHE/apt.log" 2>&1 || return 1
		echo "$ver" >"$CACHE/fetched"
	fi
	VERSION=$(cat "$CACHE/fetched")
	SRC=$(ls -d "$CACHE"/src/jansson-*/ | head -n 1)
}

# autoreconf, configure, make, make install DESTDIR, as Debian's dh does
# it (with dpkg-buildflags), into BUILD/default/stage.
build() {
	local key
	key=$( { sed -n '/^build()/,/^}/p' "$0"; cc --version; echo "$VERSION"; } |
		sha256sum | cut -c1-16)
	BUILD=$CACHE/build-$key
	[ -f "$BUILD/complete" ] && return 0
	rm -rf "$CACHE"/build-* "$CACHE/work" && cp -a "$SRC" "$CACHE/work"
	(cd "$CACHE/work" && eval "$(dpkg-buildflags --export=sh)" &&
	 autoreconf -fi && ./configure --prefix=/usr \
		--libdir=/usr/lib/x86_64-linux-gnu && make -j2 &&
	 make install DESTDIR="$BUILD/default/stage") >"$CACHE/build.log" 2>&1 &&
	touch "$BUILD/complete"
}

write_spec() { # the minimal spec: what jansson is, and its Debian files
	local up=${VERSION%-*}
	cat >"$WORK/jansson.cfg" <<-EOF
	name = "jansson";
	version = "$up";
	maintainer = "Alessandro Ghedini <ghedo@debian.org>";
	summary = "C library for encoding, decoding and manipulating JSON data";
	packages = {
		revision = "${VERSION##*-}";
		copyright = "$SRC/debian/copyright";
		changelog = "$SRC/debian/changelog";
	};
	EOF
}

if ! fetch; then
	not_ok "jansson: its Debian source and packages from the mirror" \
		"$(tail -n 5 "$CACHE/apt.log" 2>/dev/null)"
	exit 0
fi
ok "jansson $VERSION: its Debian source and Debian's packages (cached in $CACHE)"
if ! build; then
	not_ok "jansson: autoreconf, configure, make install DESTDIR" "$(tail -n 20 "$CACHE/build.log")"
	exit 0
fi
ok "jansson built from its source with Debian's build flags, make install DESTDIR"
write_spec
D=$WORK/debs
check_fails "padpack split with a minimal spec: libjansson4, libjansson-dev, -dbgsym" 0 \
	'libjansson-dev .*libjansson4 .*libjansson4-dbgsym ' bash -c \
	"'$PADPACK' split -c '$WORK/jansson.cfg' -B '$BUILD' -o '$D' | tr '\n' ' '"
check_fails "--explain: the libtool archive dropped, as Debian does" 0 \
	'libjansson\.la +libtool archive -> \(dropped\)' bash -c \
	"'$PADPACK' split -c '$WORK/jansson.cfg' -B '$BUILD' --explain | tr '\n' ' '"
"$TOP/tests/tools/compare-debs.py" "$D" "$CACHE/debian" --allow-missing "$DH_ONLY" \
	>"$WORK/report.md"
rc=$?
if [ "$rc" = 0 ]; then
	ok "same files, Depends, sections, Multi-Arch, shlibs, symbols and triggers as Debian's (but dh_installdocs' files)"
else
	not_ok "same files, Depends, sections, Multi-Arch, shlibs, symbols and triggers as Debian's" \
		"$(cat "$WORK/report.md")"
fi
check_fails "the same libc6 dependency as Debian's, from libc6's symbols file" 0 \
	"^$(dpkg-deb -f "$CACHE/debian/libjansson4_${VERSION}_amd64.deb" Depends | sed 's/[().]/\\&/g')\$" \
	dpkg-deb -f "$D/libjansson4_${VERSION}_amd64.deb" Depends
check_fails "the default synopsis: the summary, as Debian's" 0 \
	'^C library for encoding, decoding and manipulating JSON data - shared library$' \
	bash -c "dpkg-deb -f '$D/libjansson4_${VERSION}_amd64.deb' Description | head -n 1"
check "lintian: no error" bash -c "cd '$D' && lintian --fail-on error jansson_${VERSION}_amd64.changes >'$WORK/lintian.log' 2>&1 || { cat '$WORK/lintian.log'; exit 1; }"
# The report goes into README.md by hand; keep it for whoever runs this.
cp "$WORK/report.md" "$CACHE/report.md"
