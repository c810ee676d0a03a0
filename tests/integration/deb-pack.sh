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

# xz's x86 BCJ filter (--x86-filter auto; pack's default is off, dpkg-deb's
# bytes): a package of x86-64 programs gets it in its data member, one of
# text does not, nor any control member; the bytes do not depend on the
# threads; dpkg-deb, dpkg and padpack's own readers (contents, extract,
# verify's md5sums check, a repository's Contents index) read it.
chain() { # DEB MEMBER: the member's xz filter chains, as xz --robot -lvv says
	ar p "$1" "$2" > "$WORK/chain.xz" &&
		xz --robot -lvv "$WORK/chain.xz" | awk -F'\t' '$1 == "block" {print $NF}' | sort -u
}
X=$WORK/x86
mkdir -p "$X/DEBIAN" "$X/usr/bin" "$X/usr/share/doc/fx-x86"
printf 'Package: fx-x86\nVersion: 1.0\nArchitecture: amd64\nMaintainer: T <t@example.org>\nDescription: x86-64 code\n Programs of this machine.\n' \
	> "$X/DEBIAN/control"
cp /usr/bin/dpkg /usr/bin/dpkg-deb /usr/bin/xz "$X/usr/bin/"
seq 1 2000 > "$X/usr/share/doc/fx-x86/README"
freeze "$X" # md5sums and Installed-Size given, as dpkg-deb needs them
for t in 1 2 3; do
	"$PADPACK" pack -q --x86-filter=auto --threads $t "$X" "$WORK/x86-$t.deb"
done
"$PADPACK" pack -q "$X" "$WORK/x86-off.deb"
"$PADPACK" pack -q --x86-filter off "$X" "$WORK/x86-off2.deb"
check_fails "x86-64 programs: the data member's chain is x86 BCJ, LZMA2" 0 \
	'^--x86 --lzma2=dict=8MiB$' chain "$WORK/x86-1.deb" data.tar.xz
check_fails "x86-64 programs: the control member's is LZMA2 alone" 0 \
	'^--lzma2=dict=8MiB$' chain "$WORK/x86-1.deb" control.tar.xz
check "x86 filter: same bytes with --threads 1, 2 and 3" \
	bash -c "cmp '$WORK/x86-1.deb' '$WORK/x86-2.deb' && cmp '$WORK/x86-1.deb' '$WORK/x86-3.deb'"
same "pack's default is --x86-filter off" "$WORK/x86-off.deb" "$WORK/x86-off2.deb"
check_fails "--x86-filter off: LZMA2 alone" 0 '^--lzma2=dict=8MiB$' \
	chain "$WORK/x86-off.deb" data.tar.xz
dpkg-deb --root-owner-group -Zxz -b "$X" "$WORK/x86-dpkg.deb" >/dev/null
same "--x86-filter off: byte-identical to dpkg-deb" "$WORK/x86-dpkg.deb" "$WORK/x86-off.deb"
a=$(stat -c %s "$WORK/x86-1.deb") b=$(stat -c %s "$WORK/x86-off.deb")
if [ "$a" -lt $((b * 95 / 100)) ]; then ok "x86 filter: over 5% smaller ($a bytes, $b without)"
else not_ok "x86 filter: over 5% smaller" "$a bytes, $b without"; fi
dpkg-deb --contents "$WORK/x86-1.deb" > "$WORK/xc.1"
dpkg-deb --contents "$WORK/x86-off.deb" > "$WORK/xc.off"
same "x86 filter: dpkg-deb --contents as without" "$WORK/xc.off" "$WORK/xc.1"
"$PADPACK" contents "$WORK/x86-1.deb" > "$WORK/xc.p"
same "x86 filter: padpack contents as dpkg-deb --contents" "$WORK/xc.off" "$WORK/xc.p"
rm -rf "$WORK/xx.d" "$WORK/xx.p"
dpkg-deb -x "$WORK/x86-1.deb" "$WORK/xx.d"
"$PADPACK" extract "$WORK/x86-1.deb" "$WORK/xx.p"
check "x86 filter: dpkg-deb -x gives the files packed" \
	bash -c "diff -r --no-dereference '$X/usr' '$WORK/xx.d/usr'"
check "x86 filter: padpack extract gives the files packed" \
	bash -c "diff -r --no-dereference '$X/usr' '$WORK/xx.p/usr'"
"$PADPACK" key generate --uid "T <t@example.org>" --out "$WORK/key" >/dev/null
cp "$WORK/x86-1.deb" "$WORK/x86-signed.deb"
"$PADPACK" sign -q "$WORK/x86-signed.deb" --key "$WORK/key"
check_fails "x86 filter: padpack verify checks every file against md5sums" 0 \
	"content     4 of 4 files checked against md5sums" \
	"$PADPACK" verify "$WORK/x86-signed.deb" --keyring "$WORK/key/public.gpg"
"$PADPACK" repo init "$WORK/xrepo" --contents --architectures amd64 >/dev/null
"$PADPACK" repo add "$WORK/xrepo" --publish --unsigned "$WORK/x86-1.deb" >/dev/null
check_fails "x86 filter: the repository's Contents index lists its files" 0 \
	'^usr/bin/xz +([a-z]+/)?fx-x86$' bash -c "zcat '$WORK/xrepo/dists/stable/main/Contents-amd64.gz'"
# the same programs in a static archive beside them: the filter would
# make the archive larger than it makes the programs smaller
A=$WORK/x86a
cp -a "$X" "$A"
rm -f "$A/DEBIAN/md5sums"
mkdir -p "$A/usr/lib"
ar rcS "$A/usr/lib/libfx.a" "$X"/usr/bin/*
"$PADPACK" pack -q --x86-filter=auto "$A" "$WORK/x86a.deb"
check_fails "programs beside a static archive as large: LZMA2 alone" 0 \
	'^--lzma2=dict=8MiB$' chain "$WORK/x86a.deb" data.tar.xz
# a library of one kernel compiled 300 times side by side (as OpenBLAS's
# DYNAMIC_ARCH builds do): each copy calls its own helper at the same
# relative distance, which the filter turns into 300 different numbers
K=$WORK/x86k
mkdir -p "$K/DEBIAN" "$K/usr/lib"
printf 'Package: fx-kernels\nVersion: 1.0\nArchitecture: amd64\nMaintainer: T <t@example.org>\nDescription: kernels\n One kernel, many times.\n' \
	> "$K/DEBIAN/control"
for i in $(seq 300); do
	echo "__attribute__((noinline)) static int h$i(int x) { return x * 3 + (x >> 2) - 7; }"
	echo "int f$i(int x) { int t = 0; for (int j = 0; j < x; j++) t += h$i(j) ^ h$i(t); return t + h$i(x); }"
done > "$WORK/kernels.c"
cc -O2 -fno-ipa-icf -fno-toplevel-reorder -shared -fPIC -o "$K/usr/lib/libfxk.so" "$WORK/kernels.c"
a=$(xz -6 -c "$K/usr/lib/libfxk.so" | wc -c) b=$(xz --x86 --lzma2=preset=6 -c "$K/usr/lib/libfxk.so" | wc -c)
"$PADPACK" pack -q --x86-filter=auto "$K" "$WORK/x86k.deb"
if [ "$b" -gt "$a" ] && [ "$(chain "$WORK/x86k.deb" data.tar.xz)" = "--lzma2=dict=8MiB" ]; then
	ok "a kernel compiled side by side: LZMA2 alone (xz --x86: $b bytes, xz -6: $a)"
else
	not_ok "a kernel compiled side by side: LZMA2 alone" "xz --x86: $b bytes, xz -6: $a; chain: $(chain "$WORK/x86k.deb" data.tar.xz)"
fi
# text: the filter is not used even when asked for
T=$WORK/text
mkdir -p "$T/DEBIAN" "$T/usr/share/doc/fx-text"
printf 'Package: fx-text\nVersion: 1.0\nArchitecture: all\nMaintainer: T <t@example.org>\nDescription: text\n Text only.\n' \
	> "$T/DEBIAN/control"
seq 1 200000 > "$T/usr/share/doc/fx-text/numbers"
"$PADPACK" pack -q --x86-filter=auto "$T" "$WORK/text.deb"
check_fails "text, --x86-filter auto: LZMA2 alone" 0 '^--lzma2=dict=8MiB$' \
	chain "$WORK/text.deb" data.tar.xz
# dpkg installs it
R=$WORK/root-x86
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$R/var/lib/dpkg/triggers"
touch "$R/var/lib/dpkg/status" "$R/var/lib/dpkg/available"
dp=(dpkg --root="$R" --force-script-chrootless --force-depends --log=/dev/null)
check "x86 filter: dpkg -i into a private root, dpkg --verify clean" \
	bash -c "$(printf '%q ' "${dp[@]}") -i '$WORK/x86-1.deb' >/dev/null && $(printf '%q ' "${dp[@]}") --verify fx-x86"
check_fails "--x86-filter with another word: a usage error" 2 "use auto or off" \
	"$PADPACK" pack --x86-filter=on "$X" "$WORK/bad.deb"
