#!/bin/bash
# padpack repo verify on hostile repositories, each crafted from a good
# one: paths out of the tree (.., absolute, symbolic links) in Release, in
# Packages and in the pool, compressed indices that expand past what
# Release lists, and files that are no regular files. Each is refused with
# a problem naming the file; nothing outside the repository is read.
source "$(dirname "$0")/../lib.sh"
REHASH=$TOP/tests/tools/rehash-release.py

G=$WORK/good
mkdir -p "$WORK/debs" "$WORK/outside"
for i in 1 2; do
	t=$WORK/mk/pkg$i
	mkdir -p "$t/DEBIAN" "$t/usr/share/pkg$i"
	printf 'Package: pkg%s\nVersion: 1.0\nArchitecture: all\nMaintainer: T <t@example.org>\nDescription: test package %s\n' \
		"$i" "$i" > "$t/DEBIAN/control"
	echo "data $i" > "$t/usr/share/pkg$i/data"
	SOURCE_DATE_EPOCH=1700000000 "$PADPACK" pack -q "$t" "$WORK/debs/pkg${i}_1.0_all.deb"
done
"$PADPACK" repo init "$G" --architectures amd64 >/dev/null &&
	"$PADPACK" repo add "$G" "$WORK"/debs/*.deb >/dev/null &&
	"$PADPACK" repo publish "$G" --unsigned >/dev/null
check "the good repository verifies" "$PADPACK" repo verify "$G"

POOL1=pool/main/p/pkg1/pkg1_1.0_all.deb
IDX=main/binary-amd64
# A file outside the repository, identical to what is named inside: read,
# it would pass every hash.
cp "$G/$POOL1" "$WORK/outside/pkg1.deb"
cp "$G/dists/stable/$IDX/Packages" "$WORK/outside/Packages"
sha() { sha256sum "$1" | cut -d' ' -f1; }
size() { stat -c %s "$1"; }

# hostile NAME: a fresh copy of the good repository in $H.
hostile() { H=$WORK/$1; rm -rf "$H"; cp -a "$G" "$H"; S=$H/dists/stable; }
# refused NAME PATTERN: repo verify finds a problem matching PATTERN.
refused() { check_fails "$1" 1 "$2" timeout 60 "$PADPACK" repo verify "$H"; }

# ---- Release names a path out of the suite --------------------------------

hostile dotdot
out=$WORK/outside/Packages
python3 "$REHASH" "$S" "../../../outside/Packages=$(size "$out"):$(sha "$out")"
refused "a Release entry with '..' is refused, not read" \
	"dists/stable/\.\./\.\./\.\./outside/Packages: listed in Release, but the path has a '\.\.' component; not read"

hostile absolute
python3 "$REHASH" "$S" "$out=$(size "$out"):$(sha "$out")"
refused "an absolute Release entry is refused, not read" \
	"listed in Release, but the path is absolute; not read"

# ---- symbolic links leading out ---------------------------------------------

hostile pool-link
ln -sf "$WORK/outside/pkg1.deb" "$H/$POOL1"
refused "a pool file that is a symbolic link out of the repository" \
	"$POOL1: refused: the path is a symbolic link leading out of the repository"

hostile pool-rel-link
ln -sf ../../../../../outside/pkg1.deb "$H/$POOL1"
refused "a pool file that is a relative symbolic link out" \
	"$POOL1: refused: the path is a symbolic link leading out of the repository"

hostile pool-dir-link
mv "$H/pool/main/p/pkg1" "$WORK/outside/pkg1-dir"
ln -s "$WORK/outside/pkg1-dir" "$H/pool/main/p/pkg1"
refused "a pool directory that is a symbolic link out" \
	"$POOL1: refused: the path is a symbolic link leading out"

hostile index-link
ln -sf "$WORK/outside/Packages" "$S/$IDX/Packages"
refused "an index that is a symbolic link out of the repository" \
	"$IDX/Packages: refused: the path is a symbolic link leading out"

hostile release-link
cp "$S/Release" "$WORK/outside/Release"
ln -sf "$WORK/outside/Release" "$S/Release"
refused "a Release that is a symbolic link out of the repository" \
	"dists/stable/Release: refused: the path is a symbolic link leading out"

hostile inside-link
mkdir -p "$H/elsewhere"
mv "$H/$POOL1" "$H/elsewhere/pkg1.deb"
ln -s ../../../../elsewhere/pkg1.deb "$H/$POOL1"
check "a symbolic link that stays inside the repository is followed" \
	"$PADPACK" repo verify "$H"

hostile dists-link
mv "$H/dists" "$WORK/outside/dists"
ln -s "$WORK/outside/dists" "$H/dists"
check_fails "dists/ as a symbolic link is refused" 3 "dists' is a symbolic link" \
	"$PADPACK" repo verify "$H"

hostile huge-release
truncate -s 65M "$S/Release"
refused "a Release larger than padpack reads is refused unread" \
	"dists/stable/Release: larger than padpack reads \(67108864 bytes\)"

hostile fifo
rm "$H/$POOL1" && mkfifo "$H/$POOL1"
refused "a pool file that is a FIFO is refused, without waiting on it" \
	"$POOL1: refused: the path is not a regular file"

# ---- Packages names a file out of the repository ----------------------------

# rewrite_filename TO: pkg1's Filename set to TO, the indices and Release
# made to agree.
rewrite_filename() {
	sed -i "s|^Filename: $POOL1\$|Filename: $1|" "$S/$IDX/Packages"
	gzip -9n < "$S/$IDX/Packages" > "$S/$IDX/Packages.gz"
	xz -6 < "$S/$IDX/Packages" > "$S/$IDX/Packages.xz"
	python3 "$REHASH" "$S"
}
hostile filename-dotdot
rewrite_filename ../outside/pkg1.deb
refused "a Filename with '..' is refused, not read" \
	"Packages: stanza at line [0-9]+: Filename '\.\./outside/pkg1\.deb' points outside the repository \(the path has a '\.\.' component\); not read"

hostile filename-absolute
rewrite_filename "$WORK/outside/pkg1.deb"
refused "an absolute Filename is refused, not read" \
	"Filename '/.*' points outside the repository \(the path is absolute\)"

hostile filename-dots
mv "$H/$POOL1" "$H/pool/main/p/pkg1/pkg1..1.0_all.deb"
rewrite_filename pool/main/p/pkg1/pkg1..1.0_all.deb
check "a Filename with '..' inside a name (not a component) is read" \
	"$PADPACK" repo verify "$H"

# ---- Packages stanzas padpack does not write --------------------------------

# rewrite_packages PYTHON: the Packages text t edited by PYTHON, the
# indices and Release made to agree.
rewrite_packages() {
	python3 -c "import sys; p = sys.argv[1]; t = open(p).read(); $1; open(p, 'w').write(t)" \
		"$S/$IDX/Packages"
	gzip -9n < "$S/$IDX/Packages" > "$S/$IDX/Packages.gz"
	xz -6 < "$S/$IDX/Packages" > "$S/$IDX/Packages.xz"
	python3 "$REHASH" "$S"
}
hostile odd-fields
rewrite_packages "t = t.replace('Filename:', 'fILENAME:').replace('SHA256:', 'sha256:').replace('\nSize: ', '\nX-Note: a\n b\n c\nsize:', 1)"
check "Packages fields in another case and order, a continuation line between them: verified" \
	"$PADPACK" repo verify "$H"

hostile no-sha256
rewrite_packages "t = t.replace('SHA256:', 'X-Sum:', 1)"
refused "a stanza without SHA256 is named by its line" \
	"$IDX/Packages: stanza at line 1 lacks Filename, Size or SHA256"

hostile duplicate-size
rewrite_packages "t = t.replace('\nSize: ', '\nsize: 1\nSize: ', 1)"
refused "a stanza with a field twice (in another case) is named by its line" \
	"$IDX/Packages: line [0-9]+: duplicate field 'Size' \(first given on line [0-9]+\); the file is damaged"

# once PATH: verify's output names PATH once (a parse error named the
# index twice: "PATH: PATH:7: ...").
once() {
	local n
	n=$("$PADPACK" repo verify "$H" 2>/dev/null | grep -oF -- "$1" | wc -l)
	[ "$n" = 1 ] || { echo "named $n times: $1"; "$PADPACK" repo verify "$H"; return 1; }
}
hostile no-colon
rewrite_packages "t = t.replace('\nSize: ', '\nSize ', 1)"
refused "a Packages line that does not parse: the index, the line, the field, what to do" \
	"^$H/dists/stable/$IDX/Packages: line 7: field name 'Size' must be followed by a colon; the file is damaged: publish the repository again \('padpack repo publish $H'\)\$"
check "... naming the index once" once "$H/dists/stable/$IDX/Packages"
check_fails "... in --json too: the path once, the problem its line" 1 \
	"\"path\": \"$H/dists/stable/$IDX/Packages\", \"problem\": \"line 7: field name 'Size'" \
	bash -c "'$PADPACK' repo verify --json '$H' | tr -s '\n ' ' '; exit \${PIPESTATUS[0]}"
hostile release-no-colon
sed -i 's/^Suite: /Suite /' "$S/Release"
refused "a Release line that does not parse: the Release file (not the suite), the line, what to do" \
	"^$S/Release: line 1: field name 'Suite' must be followed by a colon; the file is damaged: publish the repository again"
check "... naming it once" once "$S/Release"
# worded for the index, not for a control file people write
hostile release-empty
: >"$S/Release"
refused "an empty Release: a Release file needs its SHA256 list" \
	"^$S/Release: no fields at all; a Release file needs at least the SHA256 list of its indices; the file is damaged: publish the repository again"
hostile release-two
printf '\nSuite: other\n' >>"$S/Release"
refused "a Release of two stanzas: a Release file holds one" \
	"^$S/Release: line [0-9]+: a second stanza starts here; a Release file holds exactly one; the file is damaged"
hostile packages-comment
rewrite_packages "t = '# a comment\\n' + t"
refused "a comment in Packages: not allowed in a Packages file" \
	"^$S/$IDX/Packages: line 1: comment lines are not allowed in a Packages file; the file is damaged"
check "... no control-file advice in any of these" bash -c "
	for h in no-colon release-no-colon duplicate-size release-empty release-two packages-comment; do
		'$PADPACK' repo verify '$WORK/'\$h 2>&1; done | (! grep -E \"control file|Name: value|keep only one|remove the\")"

# Two suites serving the same index (linked, as a snapshot's): the second
# is not hashed nor read again when the first was clean, and a damaged
# index or pool file is still named under each.
# two_suites NAME: $H with the suite other, its index linked to stable's.
two_suites() {
	hostile "$1"
	mkdir "$H/dists/other"
	cp -al "$S/main" "$H/dists/other/"
	sed 's/^Suite: stable$/Suite: other/; s/^Codename: stable$/Codename: other/' \
		"$S/Release" > "$H/dists/other/Release"
}
# both PATTERN: verify names PATTERN twice (one problem a suite).
both() {
	bash -c "set -o pipefail; '$PADPACK' repo verify '$H' 2>&1 | tr '\n' ' '" |
		grep -Eq "$1.*$1.*2 problems"
}
two_suites two-suites
check_fails "two suites with the same index verify" 0 "verified, 8 files checked" \
	"$PADPACK" repo verify "$H"
echo x >> "$H/$POOL1"
check "a damaged pool file both list is named under each" \
	both "$POOL1: size [0-9]+, expected [0-9]+"
two_suites two-suites-index
printf 'x' | dd of="$S/$IDX/Packages.gz" bs=1 seek=100 conv=notrunc 2>/dev/null
check "a damaged index both link is named under each" \
	both "$IDX/Packages\.gz: SHA256 [0-9a-f]+, expected [0-9a-f]+"

# ---- a served index damaged in place: publish makes it anew ----------------

# db/indices/files links the very files a suite serves, for publish to
# link them again (a suite nothing changed in, a snapshot): an index
# edited in place (its inode kept) is edited there too. publish checks a
# stored file's size, inode and mtime before linking it, and makes the
# index anew when they differ.
republish() { "$PADPACK" repo publish "$H" --unsigned; }
# repaired NAME FILE EDIT: in a copy of the good repository published
# twice, FILE of $IDX edited in place by the shell code EDIT (given the
# path as $1); verify names it, publish then repairs it.
repaired() {
	local f ino out
	hostile "$1"
	f=$S/$IDX/$2
	republish >/dev/null
	check_fails "$1: an unchanged suite published again links its index from the store" 0 \
		"^\(1 Packages index as published before, linked\)\$" republish
	ino=$(stat -c %i "$f")
	bash -c "$3" _ "$f"
	check "$1: the index edited in place (same inode)" test "$(stat -c %i "$f")" = "$ino"
	refused "$1: repo verify names the index" "$IDX/$2: (size|SHA256) [0-9a-f]+, expected"
	if out=$(republish 2>&1) && ! grep -qF 'as published before' <<<"$out"; then
		ok "$1: publish makes the index anew (not linked from the store)"
	else
		not_ok "$1: publish makes the index anew (not linked from the store)" "$out"
	fi
	check "$1: repo verify passes after it" "$PADPACK" repo verify "$H"
	check "$1: zcat reads Packages.gz, the same text as Packages" \
		bash -c "zcat '$S/$IDX/Packages.gz' | cmp - '$S/$IDX/Packages' && cmp '$S/$IDX/Packages' '$G/dists/stable/$IDX/Packages'"
	check_fails "$1: published again, the new index is linked from the store" 0 \
		"^\(1 Packages index as published before, linked\)\$" republish
}
repaired in-place-same-size Packages.gz \
	"printf 'xy' | dd of=\"\$1\" bs=1 seek=30 conv=notrunc 2>/dev/null"
repaired in-place-longer Packages \
	"truncate -s -1 \"\$1\" && printf '\nX-Extra: 1\n' >>\"\$1\""
repaired in-place-shorter Packages.xz "truncate -s 100 \"\$1\""

# ---- compressed indices: checked before, and bounded while, inflating -------

# 1 GiB of zeros as 64 xz streams of 16 MiB (made in a moment).
head -c 16M /dev/zero | xz -0 > "$WORK/z16.xz"
for i in $(seq 64); do cat "$WORK/z16.xz"; done > "$WORK/bomb.xz"
# peak_kib: the peak RSS of repo verify on $H, in KiB.
peak_kib() { /usr/bin/time -f '%M' -o "$WORK/rss" "$PADPACK" repo verify "$H" >/dev/null 2>&1; tail -n 1 "$WORK/rss"; }

hostile bomb-unlisted
cp "$WORK/bomb.xz" "$S/$IDX/Packages.xz"
rm "$S/$IDX/Packages"
refused "a Packages.xz that differs from Release is refused by its size, not inflated" \
	"$IDX/Packages\.xz: size [0-9]+, expected [0-9]+"
check "... and nothing is decompressed" \
	bash -c "! '$PADPACK' repo verify '$H' 2>&1 | grep -q expands"
kib=$(peak_kib)
[ "$kib" -lt 200000 ] && ok "... in little memory (peak $kib KiB)" ||
	not_ok "... in little memory" "peak RSS $kib KiB"

# only_xz: the uncompressed and gzip indices gone, Release still listing
# the uncompressed one (as Debian's archive does).
only_xz() {
	rm "$S/$IDX/Packages" "$S/$IDX/Packages.gz"
	sed -i "\| $IDX/Packages.gz\$|d" "$S/Release"
}
hostile bomb-listed
cp "$WORK/bomb.xz" "$S/$IDX/Packages.xz"
only_xz
python3 "$REHASH" "$S"
refused "a Packages.xz Release lists that expands past the Packages size Release lists is stopped there" \
	"$IDX/Packages\.xz: expands past the [0-9]+ bytes Release lists for $IDX/Packages; not decompressed further"
kib=$(peak_kib)
[ "$kib" -lt 200000 ] && ok "... in little memory (peak $kib KiB)" ||
	not_ok "... in little memory" "peak RSS $kib KiB"

hostile bomb-huge-size
cp "$WORK/bomb.xz" "$S/$IDX/Packages.xz"
only_xz
python3 "$REHASH" "$S" "$IDX/Packages=68719476736:$(printf '0%.0s' $(seq 64))"
refused "an uncompressed size past what padpack reads is refused before inflating" \
	"Release lists 68719476736 bytes for $IDX/Packages, more than padpack reads"

hostile no-text-size
rm "$S/$IDX/Packages"
sed -i "\| $IDX/Packages\$|d" "$S/Release"
refused "a Packages.xz without the uncompressed size in Release is not inflated" \
	"$IDX/Packages\.gz: Release lists no uncompressed Packages beside it"

hostile other-text
only_xz
printf 'Package: other\n' | xz > "$S/$IDX/Packages.xz"
python3 "$REHASH" "$S"
refused "a Packages.xz whose text is not the Packages Release lists is refused" \
	"$IDX/Packages\.xz: expands to [0-9]+ bytes with SHA256 [0-9a-f]+; Release lists [0-9]+ bytes"
