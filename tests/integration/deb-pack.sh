#!/bin/bash
# padpack pack against dpkg-deb --build --root-owner-group on fixture trees:
# byte-identical packages for every compressor; what dpkg-deb --info,
# --contents and --extract say of them; the generated md5sums and
# Installed-Size against dh_md5sums' and dpkg-gencontrol's way; lintian;
# installation into a private root; reproducibility.
source "$(dirname "$0")/../lib.sh"
source "$TOP/tests/deb-fixtures.sh"
export SOURCE_DATE_EPOCH=1700000000

tree_listing() { # DIR: every path with type, mode, size and link target
	(cd "$1" && find . -printf '%p %y %m %s %l\n' | LC_ALL=C sort)
}

compare_with_dpkg() { # FIXTURE
	local f=$1 t=$WORK/$1 z
	make_fixture "$f" "$t"
	freeze "$t" || { not_ok "$f: freeze"; return; }
	for z in xz gzip zstd none; do
		dpkg-deb --root-owner-group -Z$z -b "$t" "$WORK/d-$f-$z.deb" >/dev/null
		"$PADPACK" pack -q -Z $z "$t" "$WORK/p-$f-$z.deb"
		same "$f/$z: byte-identical to dpkg-deb" "$WORK/d-$f-$z.deb" "$WORK/p-$f-$z.deb"
	done
	dpkg-deb --info "$WORK/d-$f-xz.deb" > "$WORK/i.d"
	dpkg-deb --info "$WORK/p-$f-xz.deb" > "$WORK/i.p"
	same "$f: dpkg-deb --info agrees" "$WORK/i.d" "$WORK/i.p"
	dpkg-deb --contents "$WORK/d-$f-xz.deb" > "$WORK/c.d"
	dpkg-deb --contents "$WORK/p-$f-xz.deb" > "$WORK/c.p"
	same "$f: dpkg-deb --contents agrees" "$WORK/c.d" "$WORK/c.p"
	rm -rf "$WORK/x.d" "$WORK/x.p"
	dpkg-deb --extract "$WORK/d-$f-xz.deb" "$WORK/x.d"
	dpkg-deb --extract "$WORK/p-$f-xz.deb" "$WORK/x.p"
	tree_listing "$WORK/x.d" > "$WORK/l.d"
	tree_listing "$WORK/x.p" > "$WORK/l.p"
	if same "$f: dpkg-deb --extract gives the same tree" "$WORK/l.d" "$WORK/l.p" >/dev/null &&
	   diff -r --no-dereference "$WORK/x.d" "$WORK/x.p" >/dev/null; then
		ok "$f: dpkg-deb --extract gives the same tree"
	else
		not_ok "$f: dpkg-deb --extract gives the same tree" "$(diff "$WORK/l.d" "$WORK/l.p" | head)"
	fi
}

for f in $FIXTURES; do compare_with_dpkg "$f"; done

# md5sums as dh_md5sums writes them: every regular file, sorted by path.
check_md5sums() { # FIXTURE
	local t=$WORK/g-$1
	make_fixture "$1" "$t"
	"$PADPACK" pack -q "$t" "$WORK/g.deb"
	dpkg-deb --ctrl-tarfile "$WORK/g.deb" | tar -xO ./md5sums > "$WORK/m.p" 2>/dev/null
	(cd "$t" && find . -path ./DEBIAN -prune -o -type f -printf '%P\n' |
		LC_ALL=C sort | while IFS= read -r p; do
			printf '%s  %s\n' "$(md5sum < "$p" | cut -d' ' -f1)" "$p"; done) > "$WORK/m.r"
	same "$1: generated md5sums list every file, as dh_md5sums" "$WORK/m.r" "$WORK/m.p"
}
for f in longnames nonascii links full; do check_md5sums "$f"; done

# Installed-Size as dpkg-gencontrol computes it over the same tree.
check_installed_size() { # FIXTURE
	local t=$WORK/s-$1 src=$WORK/src-$1 want got
	make_fixture "$1" "$t"
	"$PADPACK" pack -q "$t" "$WORK/s.deb"
	got=$(dpkg-deb --field "$WORK/s.deb" Installed-Size)
	mkdir -p "$src/debian"
	printf 'Source: fx\nMaintainer: T <t@example.org>\n\nPackage: %s\nArchitecture: all\nDescription: x\n x\n' \
		"$(dpkg-deb --field "$WORK/s.deb" Package)" > "$src/debian/control"
	printf 'fx (1.2-3) unstable; urgency=medium\n\n  * x\n\n -- T <t@example.org>  Tue, 14 Nov 2023 22:13:20 +0000\n' \
		> "$src/debian/changelog"
	rm -f "$t/DEBIAN/control"
	want=$(cd "$src" && dpkg-gencontrol -P"$t" -O 2>/dev/null | sed -n 's/^Installed-Size: //p')
	if [ -n "$want" ] && [ "$want" = "$got" ]; then ok "$1: Installed-Size $got, as dpkg-gencontrol"
	else not_ok "$1: Installed-Size as dpkg-gencontrol" "padpack: $got, dpkg-gencontrol: $want"; fi
}
for f in empty longnames links setuid full; do check_installed_size "$f"; done

# Reproducible: same bytes twice, and whatever the thread count.
make_fixture full "$WORK/r"
for z in xz zstd gzip; do
	"$PADPACK" pack -q -Z $z "$WORK/r" "$WORK/r1.deb"
	"$PADPACK" pack -q -Z $z --threads 1 "$WORK/r" "$WORK/r2.deb"
	"$PADPACK" pack -q -Z $z --threads 2 "$WORK/r" "$WORK/r3.deb"
	if cmp -s "$WORK/r1.deb" "$WORK/r2.deb" && cmp -s "$WORK/r1.deb" "$WORK/r3.deb"; then
		ok "$z: same bytes with 1, 2 and all threads"
	else not_ok "$z: same bytes with 1, 2 and all threads"; fi
done
touch -d @1800000000 "$WORK/r/usr/bin/fx-tool"
"$PADPACK" pack -q "$WORK/r" "$WORK/r4.deb"
check "mtimes newer than SOURCE_DATE_EPOCH are clamped to it" \
	bash -c "dpkg-deb --contents '$WORK/r4.deb' | grep -q '2023-11-14 22:13 ./usr/bin/fx-tool'"

# Compression levels and member names.
"$PADPACK" pack -q -Z gzip -z 1 "$WORK/r" "$WORK/l1.deb"
dpkg-deb --root-owner-group -Zgzip -z1 -b "$WORK/r" "$WORK/l1d.deb" >/dev/null 2>&1
check "-z 1 gives a package dpkg-deb reads" dpkg-deb --info "$WORK/l1.deb"
check "member names follow the compressor" \
	bash -c "ar t '$WORK/l1.deb' | tr '\n' ' ' | grep -qx 'debian-binary control.tar.gz data.tar.gz '"
check_fails "a level out of range is a usage error" 2 "out of range for xz" \
	"$PADPACK" pack -z 12 "$WORK/r" "$WORK/bad.deb"

# An output directory names the package as dpkg-deb does.
mkdir -p "$WORK/outdir"
"$PADPACK" pack -q "$WORK/r" "$WORK/outdir"
check "OUT as a directory gives PACKAGE_VERSION_ARCH.deb" test -f "$WORK/outdir/fx-full_1.2-3_all.deb"

# lintian on the well-formed bundled example: no error and no warning
# caused by packing. Suppressed: two tags about the example's own content
# (its one changelog entry closes no bug; its postinst only prints).
"$TOP/scripts/make-example-tree.sh" "$WORK/ex"
"$PADPACK" pack -q "$WORK/ex" "$WORK/ex.deb"
check "lintian passes the example package" lintian --fail-on error,warning \
	--suppress-tags initial-upload-closes-no-bugs,maintainer-script-empty "$WORK/ex.deb"

# Installation into a private root with dpkg, then removal.
install_remove() { # FIXTURE
	local f=$1 R=$WORK/root-$1 deb=$WORK/p-$1-xz.deb name out
	name=$(dpkg-deb --field "$deb" Package)
	mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$R/var/lib/dpkg/triggers"
	touch "$R/var/lib/dpkg/status" "$R/var/lib/dpkg/available"
	local dp=(dpkg --root="$R" --force-script-chrootless --force-depends --log=/dev/null)
	if ! out=$("${dp[@]}" -i "$deb" 2>&1); then
		not_ok "$f: dpkg -i into a private root" "$out"; return
	fi
	if ! "${dp[@]}" --verify "$name" >/dev/null 2>&1; then
		not_ok "$f: dpkg -i into a private root" "dpkg --verify: $("${dp[@]}" --verify "$name" 2>&1)"; return
	fi
	ok "$f: dpkg -i into a private root, dpkg --verify clean"
	"${dp[@]}" --purge "$name" >/dev/null 2>&1
	left=$(cd "$R" && find . -path ./var -prune -o -mindepth 1 -print)
	if [ -z "$left" ]; then ok "$f: dpkg --purge removes every file"
	else not_ok "$f: dpkg --purge removes every file" "left: $left"; fi
}
for f in $FIXTURES; do install_remove "$f"; done
