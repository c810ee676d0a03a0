# Helpers of the OpenPGP suites (sourced after lib.sh): a throwaway GnuPG
# home, small packages, debsig-verify policies.

export GNUPGHOME=$WORK/gnupg
mkdir -m 700 "$GNUPGHOME"
trap 'gpgconf --kill all >/dev/null 2>&1; rm -rf "$WORK"' EXIT

# gpg_key NAME ALGO [USAGE]: makes a throwaway gpg key "NAME <name@...>"
# (no passphrase) and prints its fingerprint.
gpg_key() {
	gpg --batch --passphrase '' --quick-gen-key \
		"$1 <$(echo "$1" | tr 'A-Z ' 'a-z-')@example.org>" "$2" \
		"${3:-default}" never 2>/dev/null
	gpg --with-colons --list-keys "$1" 2>/dev/null | awk -F: '/^fpr/ {print $10; exit}'
}

# make_tree DIR [NAME]: a package tree with a ~1 KB payload.
make_tree() {
	local d=$1 name=${2:-hello}
	mkdir -p "$d/DEBIAN" "$d/usr/share/doc/$name" "$d/usr/bin"
	cat > "$d/DEBIAN/control" <<-EOF
	Package: $name
	Version: 1.0-1
	Architecture: all
	Maintainer: Paddle Release <release@example.org>
	Description: a package to sign
	 It has a small payload.
	EOF
	seq 1 150 > "$d/usr/share/doc/$name/README"
	printf '#!/bin/sh\necho hello\n' > "$d/usr/bin/$name"
	chmod 755 "$d/usr/bin/$name"
}

# make_pkg OUT: a small package built by padpack pack (xz, as dpkg-deb).
make_pkg() {
	rm -rf "$WORK/tree.$$"
	make_tree "$WORK/tree.$$"
	SOURCE_DATE_EPOCH=1700000000 "$PADPACK" pack -q "$WORK/tree.$$" "$1"
}

# debsig_root ROOT KEYID KEYRING: a debsig-verify policy trusting KEYRING
# for origin signatures by KEYID (formats.md 6.2); use --root ROOT.
debsig_root() {
	local root=$1 id=$2
	mkdir -p "$root/etc/debsig/policies/$id" \
		"$root/usr/share/debsig/keyrings/$id"
	cp "$3" "$root/usr/share/debsig/keyrings/$id/origin.gpg"
	cat > "$root/etc/debsig/policies/$id/origin.pol" <<-EOF
	<?xml version="1.0"?>
	<!DOCTYPE Policy SYSTEM "https://www.debian.org/debsig/1.0/policy.dtd">
	<Policy xmlns="https://www.debian.org/debsig/1.0/">
	  <Origin Name="padpack-test" id="$id" Description="padpack test origin"/>
	  <Selection>
	    <Required Type="origin" File="origin.gpg" id="$id"/>
	  </Selection>
	  <Verification MinOptional="0">
	    <Required Type="origin" File="origin.gpg" id="$id"/>
	  </Verification>
	</Policy>
	EOF
}

# key_id DIR: the upper-case 16-hex key ID of DIR/public.gpg's key.
key_id() {
	"$PADPACK" key show "$1/public.gpg" | awk '/key ID/ {print $3; exit}'
}

# fpr_of KEYRING: the first fingerprint padpack shows.
fpr_of() {
	"$PADPACK" key show "$1" | awk '/fingerprint/ {print $2; exit}'
}
