# Fixture package trees for the .deb tests (sourced). Each function writes
# a complete tree (DEBIAN/control included) to the directory it is given.
# Names: empty longnames nonascii links setuid conffiles scripts full.

FIXTURES="empty longnames nonascii links setuid conffiles scripts full"

fx_control() { # DIR NAME [EXTRA-FIELDS]
	mkdir -p "$1/DEBIAN"
	chmod 0755 "$1/DEBIAN"
	{
		printf 'Package: %s\nVersion: 1.2-3\nArchitecture: all\n' "$2"
		printf 'Maintainer: Test Maint <test@example.org>\n'
		[ -n "${3:-}" ] && printf '%s\n' "$3"
		printf 'Description: padpack test fixture %s\n' "$2"
		printf ' A tree made by the padpack test suite.\n'
	} > "$1/DEBIAN/control"
}

fx_file() { # PATH CONTENT [MODE]
	mkdir -p "$(dirname "$1")"
	printf '%s\n' "$2" > "$1"
	chmod "${3:-0644}" "$1"
}

fx_empty() { fx_control "$1" fx-empty; }

fx_longnames() {
	local a100 a150 d
	fx_control "$1" fx-longnames
	a100=$(printf 'a%.0s' $(seq 1 100))
	a150=$(printf 'b%.0s' $(seq 1 150))
	d=$1/usr/share/$a150/$a100
	fx_file "$d/$a150.txt" "over 255 bytes of path"
	fx_file "$1/usr/share/$a100" "exactly 100 byte name"
	ln -s "../share/$a150/$a100/$a150.txt" "$1/usr/share/link-$a100"
}

fx_nonascii() {
	fx_control "$1" fx-nonascii
	fx_file "$1/usr/share/fx/café.txt" "latin"
	fx_file "$1/usr/share/fx/日本語/ファイル" "cjk"
	fx_file "$1/usr/share/fx/with space" "space"
	fx_file "$1/usr/share/fx/back\\slash" "backslash"
	fx_file "$1/usr/share/fx/a b/c" "sort order"
	fx_file "$1/usr/share/fx/a/c" "sort order"
}

fx_links() {
	fx_control "$1" fx-links
	fx_file "$1/usr/lib/fx/libfx.so.1.0.0" "not really a library"
	ln -s libfx.so.1.0.0 "$1/usr/lib/fx/libfx.so.1"
	ln -s /usr/lib/fx/libfx.so.1 "$1/usr/lib/fx/libfx.so"
	ln -s ../../does/not/exist "$1/usr/lib/fx/dangling"
	ln -s fx "$1/usr/lib/fx-dir-link"
	fx_file "$1/usr/share/fx/data" "hard linked"
	mkdir -p "$1/usr/share/fx/sub"
	ln "$1/usr/share/fx/data" "$1/usr/share/fx/data-2"
	ln "$1/usr/share/fx/data" "$1/usr/share/fx/sub/data-3"
}

fx_setuid() {
	fx_control "$1" fx-setuid
	fx_file "$1/usr/bin/fx-suid" "#!/bin/sh" 4755
	fx_file "$1/usr/bin/fx-sgid" "#!/bin/sh" 2755
	mkdir -p "$1/var/fx-sticky"
	chmod 1777 "$1/var/fx-sticky"
	fx_file "$1/usr/share/fx/private" "mode 0600" 0600
}

fx_conffiles() {
	fx_control "$1" fx-conffiles
	fx_file "$1/etc/fx/one.conf" "one=1"
	fx_file "$1/etc/fx/two.conf" "two=2"
	printf '/etc/fx/one.conf\n/etc/fx/two.conf\nremove-on-upgrade /etc/fx/old.conf\n' \
		> "$1/DEBIAN/conffiles"
}

fx_scripts() {
	local s
	fx_control "$1" fx-scripts
	for s in preinst postinst prerm postrm; do
		printf '#!/bin/sh\nset -e\necho "fx-scripts %s $1"\n' "$s" > "$1/DEBIAN/$s"
		chmod 0755 "$1/DEBIAN/$s"
	done
	printf 'activate-noawait ldconfig\n' > "$1/DEBIAN/triggers"
	fx_file "$1/usr/share/fx/scripted" "payload"
}

fx_full() {
	fx_control "$1" fx-full "Depends: libc6 (>= 2.34) | libc6.1, dpkg (>= 1.19)
Section: utils
Priority: optional
Homepage: https://example.org/fx"
	fx_conffiles_into "$1"
	fx_file "$1/usr/bin/fx-tool" "#!/bin/sh" 0755
	fx_file "$1/usr/share/doc/fx-full/copyright" "copyright"
	ln -s fx-tool "$1/usr/bin/fx"
	printf '#!/bin/sh\nset -e\nexit 0\n' > "$1/DEBIAN/postinst"
	chmod 0755 "$1/DEBIAN/postinst"
	mkdir -p "$1/usr/share/fx-full"
	head -c 300000 /dev/urandom > "$1/usr/share/fx-full/random.bin"
}

fx_conffiles_into() {
	fx_file "$1/etc/fx-full/main.conf" "key=value"
	printf '/etc/fx-full/main.conf\n' > "$1/DEBIAN/conffiles"
}

# make_fixture NAME DIR: writes fixture NAME into DIR with fixed mtimes.
make_fixture() {
	rm -rf "$2"
	mkdir -p "$2"
	"fx_$1" "$2"
	find "$2" -exec touch -h -d @1600000000 {} +
}

# freeze DIR: adds md5sums and Installed-Size as padpack computes them, so
# that dpkg-deb, which computes neither, packs the very same control data.
freeze() {
	local deb=$WORK/freeze.$$.deb
	"$PADPACK" pack -q "$1" "$deb" || return 1
	dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./md5sums > "$1/DEBIAN/md5sums" 2>/dev/null
	dpkg-deb --field "$deb" > "$1/DEBIAN/control"
	[ -s "$1/DEBIAN/md5sums" ] || rm -f "$1/DEBIAN/md5sums"
	touch -h -d @1600000000 "$1/DEBIAN" "$1/DEBIAN"/*
	rm -f "$deb"
}
