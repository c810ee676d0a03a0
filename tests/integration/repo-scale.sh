#!/bin/bash
# What keeps a large suite's publish incremental, on a suite whose indices
# are many pieces: apt reads them; a publish after an add or a remove
# gives the very bytes a publish from scratch gives; db/cache is appended
# to, not written again; a suite switched to a snapshot links the indices
# published before; a Packages listed in Release but not written (what a
# suite over 16 MiB publishes) is read by apt and by verify; a suite
# set to publish .xz alone is read by apt; an add or a remove writes its
# changes to db/<suite>.list.log, not the whole list; added packages go
# after a sorted base, published from the served files' first bytes and
# the hash states kept after them, and a removal sorts the index whole.
source "$(dirname "$0")/../lib.sh"
APT=$TOP/tests/tools/apt-private.sh

mkdir -p "$WORK/debs" "$WORK/extra"
python3 "$TOP/tests/bench/gen-debs.py" "$WORK/debs" 1500 > /dev/null
python3 "$TOP/tests/bench/gen-debs.py" "$WORK/extra" 2 90001 > /dev/null
# one without dependencies, to install (the generated ones need libc6)
t=$WORK/mk/scale-hello
mkdir -p "$t/DEBIAN" "$t/usr/share/scale-hello"
printf 'Package: scale-hello\nVersion: 1.0\nArchitecture: all\nMaintainer: T <t@example.org>\nDescription: scale test\n' \
	> "$t/DEBIAN/control"
echo hello > "$t/usr/share/scale-hello/hello"
SOURCE_DATE_EPOCH=1700000000 "$PADPACK" pack -q "$t" "$WORK/debs/scale-hello_1.0_all.deb"
R=$WORK/repo
P=$R/dists/testing/main/binary-amd64
"$PADPACK" repo init "$R" --suite testing > /dev/null
"$PADPACK" repo init "$R" --suite stable > /dev/null
(cd "$WORK/debs" && "$PADPACK" repo add "$R" --suite testing ./*.deb > /dev/null)
"$PADPACK" repo publish "$R" --unsigned > /dev/null
check "Packages.xz is many blocks (one a piece)" bash -c "
	[ \$(xz --robot --list '$P/Packages.xz' | awk '\$1 == \"totals\" { print \$3 }') -ge 4 ]"

# db/cache: an add appends its entry; a publish that drops a pool file
# appends a record saying so; --full writes it whole again, sorted.
cp "$R/db/cache" "$WORK/cache.before"
cp "$R/db/testing.list" "$WORK/list.before"
"$PADPACK" repo add "$R" --suite testing "$WORK/extra/bench90001_1.0-1_amd64.deb" --publish --unsigned > "$WORK/add.out"
check "an add appends to db/cache (what was there is left as it was)" bash -c "
	cmp -n \$(stat -c %s '$WORK/cache.before') '$WORK/cache.before' '$R/db/cache' &&
	[ \$(stat -c %s '$R/db/cache') -gt \$(stat -c %s '$WORK/cache.before') ] &&
	tail -n 12 '$R/db/cache' | grep -q '^Filename: pool/main/b/bench90001/'"
"$PADPACK" repo remove "$R" --suite testing bench00007 > /dev/null
"$PADPACK" repo publish "$R" --unsigned > /dev/null
check "a dropped pool file gets a drop record" bash -c "
	tail -n 2 '$R/db/cache' | tr '\n' ' ' | grep -q '^Filename: pool/main/b/bench00007/bench00007_1.0-1_amd64.deb X-Padpack-Stat: - $'"
check "the appended cache reads back: nothing read again" bash -c "
	'$PADPACK' repo publish '$R' --unsigned | grep -qx '(0 package files read, the others from the cache)'"
# db/zcache/.cacheidx: db/cache's entries as it was written whole, with
# its size and mtime as padpack left it (each append records them); a
# load reads the appended records as text. One that does not fit is not
# used: the cache is read as text.
idx_stat() {
	python3 -c 'import os, struct, sys
h = open(sys.argv[1], "rb").read(56)
magic, covered, size, sec, nsec, nr, slen = struct.unpack("=8sQQqqQQ", h)
st = os.stat(sys.argv[2])
print(magic[:7] == b"PPCIDX1" and size == st.st_size and
      sec * 10**9 + nsec == st.st_mtime_ns and covered < size)' "$R/db/zcache/.cacheidx" "$R/db/cache"
}
check "db/cache's index holds its stat after the appends" bash -c "
	[ \"\$($(declare -f idx_stat); R='$R'; idx_stat)\" = True ]"
cp "$R/db/zcache/.cacheidx" "$WORK/cacheidx.good"
python3 - "$R/db/zcache/.cacheidx" <<'PY'
import sys
p = sys.argv[1]
s = bytearray(open(p, 'rb').read())
s[56:56 + 32 * 50] = b'\xff' * (32 * 50) # 50 entries (32 bytes each) garbled
open(p, 'wb').write(s)
PY
check "a damaged index is not used: the cache is read as text" bash -c "
	'$PADPACK' repo publish '$R' --unsigned | grep -qx '(0 package files read, the others from the cache)'"
cp "$WORK/cacheidx.good" "$R/db/zcache/.cacheidx"
touch "$R/db/cache"
check "nor one of another db/cache's stat" bash -c "
	'$PADPACK' repo publish '$R' --unsigned | grep -qx '(0 package files read, the others from the cache)' &&
	[ \"\$($(declare -f idx_stat); R='$R'; idx_stat)\" = False ]"
# db/testing.list: the add and the remove wrote their changes to
# db/testing.list.log, not the list's 1,500 lines again.
check "an add and a remove leave db/testing.list as it was" cmp "$WORK/list.before" "$R/db/testing.list"
check "... and write their changes to db/testing.list.log" bash -c "
	printf '+ bench90001 1.0-1 amd64 main pool/main/b/bench90001/bench90001_1.0-1_amd64.deb\n- bench00007 1.0-1 amd64 main pool/main/b/bench00007/bench00007_1.0-1_amd64.deb\n' |
		cmp - '$R/db/testing.list.log'"

# The same packages published from scratch in another repository: the
# same bytes, compressed and not.
S=$WORK/scratch
"$PADPACK" repo init "$S" --suite testing > /dev/null
(cd "$WORK/debs" && ls ./*.deb | grep -v bench00007 | xargs "$PADPACK" repo add "$S" --suite testing "$WORK/extra/bench90001_1.0-1_amd64.deb" > /dev/null)
"$PADPACK" repo publish "$S" --unsigned > /dev/null
Q=$S/dists/testing/main/binary-amd64
check "the list and its log read as the list written whole from scratch" bash -c "
	cmp <('$PADPACK' repo list '$R' --suite testing) <('$PADPACK' repo list '$S' --suite testing) &&
	[ ! -e '$S/db/testing.list.log' ]"
same "after an add and a remove: Packages as from scratch" "$P/Packages" "$Q/Packages"
check "... Packages.gz the same bytes" cmp "$P/Packages.gz" "$Q/Packages.gz"
check "... Packages.xz the same bytes" cmp "$P/Packages.xz" "$Q/Packages.xz"
check "... and each expands to that Packages" bash -c "
	zcat '$P/Packages.gz' | cmp - '$Q/Packages' && xzcat '$P/Packages.xz' | cmp - '$Q/Packages'"
"$PADPACK" repo publish "$R" --unsigned --full > /dev/null
check "publish --full writes db/cache whole again, without drop records" bash -c "
	! grep -q '^X-Padpack-Stat: -$' '$R/db/cache' && grep -c '^Package: ' '$R/db/cache' | grep -qx 1501"
check "... and the same Packages" cmp "$P/Packages.xz" "$Q/Packages.xz"

# apt reads the pieces: update over file: and HTTP, install.
check "apt-get update over file:" "$APT" "$WORK/apt1" "deb [trusted=yes] file:$R testing main" update
port=$((20000 + RANDOM % 20000))
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$R" > "$WORK/http.log" 2>&1 &
http=$!
for i in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
check "apt-get update over HTTP" "$APT" "$WORK/apt2" "deb [trusted=yes] http://127.0.0.1:$port testing main" update
check "apt-cache sees the package added last" bash -c "
	APT_CONFIG='$WORK/apt2/apt.conf' apt-cache policy bench90001 | grep -q 'Candidate: 1.0-1'"
install() { # APT-DIR PACKAGE
	mkdir -p "$WORK/root/var/lib/dpkg/info" "$WORK/root/var/lib/dpkg/updates"
	touch "$WORK/root/var/lib/dpkg/status"
	APT_CONFIG=$1/apt.conf apt-get -q -y -o Dpkg::Options::=--root="$WORK/root" \
		-o DPkg::Options::=--force-script-chrootless -o DPkg::Options::=--log=/dev/null \
		-o Dir::State::status="$WORK/root/var/lib/dpkg/status" install "$2"
}
check "apt-get install over HTTP into a private root" bash -c "
	$(declare -f install); WORK='$WORK'; install '$WORK/apt2' scale-hello > '$WORK/inst.log' 2>&1 &&
	test -f '$WORK/root/usr/share/scale-hello/hello'"

# A snapshot switch links what was published: testing is unchanged and
# stable gets testing's very files.
"$PADPACK" repo snapshot "$R" s1 --suite testing > /dev/null
"$PADPACK" repo publish "$R" --suite stable --from-snapshot s1 --unsigned > "$WORK/switch.out"
check "switching a suite to a snapshot links the index published before (stable alone published)" \
	bash -c "grep -qx '(1 Packages index as published before, linked)' '$WORK/switch.out' &&
	! grep -q dists/testing '$WORK/switch.out'"
check "... stable serves testing's very Packages.xz" bash -c "
	[ \$(stat -c %i '$R/dists/stable/main/binary-amd64/Packages.xz') = \$(stat -c %i '$P/Packages.xz') ]"
check "... which apt reads" "$APT" "$WORK/apt3" "deb [trusted=yes] file:$R stable main" update
check "... and verify passes" "$PADPACK" repo verify "$R"
cp "$R/dists/stable/Release" "$WORK/stable.Release"
"$PADPACK" repo add "$R" --suite testing "$WORK/extra/bench90002_1.0-1_amd64.deb" --publish --unsigned > "$WORK/add2.out"
check "the next add publishes testing alone, its index made again" bash -c "
	grep -qx 'published $R/dists/testing' '$WORK/add2.out' &&
	! grep -q 'dists/stable' '$WORK/add2.out' &&
	xzcat '$P/Packages.xz' | grep -q '^Package: bench90002$'"
check "... stable served as it was (its Release unchanged), which apt reads" bash -c "
	cmp -s '$R/dists/stable/Release' '$WORK/stable.Release' &&
	'$APT' '$WORK/apt3' 'deb [trusted=yes] file:$R stable main' update"
check "... from the pieces the linked publishes kept (none of the others made again)" bash -c "
	[ \$(ls '$R/db/zcache' | wc -l) -le \$((2 * \$(xz --robot --list '$P/Packages.xz' | awk '\$1 == \"totals\" { print \$3 }') + 6)) ]"

# Release lists SHA256 only (apt since 1.1 trusts no MD5; apt reads it
# over file: and HTTP above and below).
check "Release lists SHA256 only, no MD5Sum" bash -c "
	grep -qx 'SHA256:' '$R/dists/testing/Release' && ! grep -q '^MD5Sum:' '$R/dists/testing/Release'"
# Cached pieces are named by their pool files' names and stat keys, not
# by their text. A stanza of db/cache changed by hand (same length, same
# stat key) leaves a cached piece whose text is not the index's: the gzip
# CRC joined from the pieces' shows it, every piece is checked against
# its text and the stale ones are made again. A cached piece cut short
# (a crash while it was written) is made again too.
python3 - "$R/db/cache" <<'PY'
import sys
p = sys.argv[1]
s = open(p, 'rb').read()
i = s.index(b'Package: bench00100\n')
j = s.index(b'\nDescription: ', i) + len(b'\nDescription: ')
s = s[:j] + (b'Q' if s[j:j + 1] != b'Q' else b'R') + s[j + 1:]
open(p, 'wb').write(s)
PY
piece=$(ls "$R/db/zcache" | grep xz | head -n 1)
truncate -s 100 "$R/db/zcache/$piece"
"$PADPACK" repo remove "$R" --suite testing bench01400 > /dev/null
# db/zcache/.stamp holds db/cache's size and mtime as padpack wrote it:
# the edit above leaves it behind, so the publish checks every piece
# against its text; the stamp is written again once it has.
stamp_now() { echo "$(stat -c '%s %.9Y' "$R/db/cache") 0"; }
check "the stamp no longer matches the edited db/cache" bash -c "
	[ \"\$(cat '$R/db/zcache/.stamp')\" != '$(stamp_now)' ]"
check "a publish over a stale and a cut piece succeeds" "$PADPACK" repo publish "$R" --unsigned
check "... and stamps db/cache again, once every piece was checked" bash -c "
	[ \"\$(cat '$R/db/zcache/.stamp')\" = '$(stamp_now)' ]"
sha=$(awk 'length($1) == 64 && $3 == "main/binary-amd64/Packages" { print $1 }' "$R/dists/testing/Release")
check "... Packages.xz and .gz expand to the text Release lists" bash -c "
	[ \$(xzcat '$P/Packages.xz' | sha256sum | cut -c1-64) = '$sha' ] &&
	[ \$(zcat '$P/Packages.gz' | sha256sum | cut -c1-64) = '$sha' ]"
check "... which has the changed stanza and not the removed one" bash -c "
	xzcat '$P/Packages.xz' | grep -A20 '^Package: bench00100\$' | grep -q '^Description: [QR]' &&
	! xzcat '$P/Packages.xz' | grep -q '^Package: bench01400\$'"
check "... and the cut piece whole again" bash -c "[ \$(stat -c %s '$R/db/zcache/$piece') -gt 100 ] || [ ! -e '$R/db/zcache/$piece' ]"
check "... and apt reads it" "$APT" "$WORK/apt6" "deb [trusted=yes] http://127.0.0.1:$port testing main" update

# An uncompressed Packages listed but not there (a suite over 16 MiB):
# what Debian's archive does; apt and verify read the compressed one.
sha=$(awk 'length($1) == 64 && $3 == "main/binary-amd64/Packages" { print $1 }' "$R/dists/testing/Release")
[ -n "$sha" ] && rm -f "$P/Packages" "$P/by-hash/SHA256/$sha"
check "Release lists the Packages that is not there" grep -q " main/binary-amd64/Packages$" "$R/dists/testing/Release"
check "verify reads Packages.xz in its place" "$PADPACK" repo verify "$R"
check "apt-get update reads it" "$APT" "$WORK/apt4" "deb [trusted=yes] http://127.0.0.1:$port testing main" update
check "apt-get update over file: too" "$APT" "$WORK/apt5" "deb [trusted=yes] file:$R testing main" update
check "apt-cache sees the last package" bash -c "
	APT_CONFIG='$WORK/apt4/apt.conf' apt-cache policy bench90002 | grep -q 'Candidate: 1.0-1'"

# A suite set to publish .xz alone (what Debian's archive serves): no
# Packages.gz, none listed; the index is made again, not linked from the
# record of one with a .gz (stable's, unchanged, is linked); apt reads it, verify passes; set back, the
# .gz is published again.
check_fails "--compression takes gz, xz or both" 2 "--compression takes gz, xz or both" \
	"$PADPACK" repo init "$R" --suite testing --compression bz2
"$PADPACK" repo init "$R" --suite testing --compression xz > /dev/null
check "conf/distributions keeps it" grep -qx 'Compression: xz' "$R/conf/distributions"
"$PADPACK" repo publish "$R" --unsigned > "$WORK/xz-only.out"
check "with --compression xz: no Packages.gz, none listed in Release" bash -c "
	[ ! -e '$P/Packages.gz' ] && ! grep -q 'Packages.gz' '$R/dists/testing/Release' &&
	grep -q ' main/binary-amd64/Packages.xz$' '$R/dists/testing/Release' &&
	grep -qx '(1 Packages index as published before, linked)' '$WORK/xz-only.out'"
check "... Packages.xz expands to Packages" bash -c "xzcat '$P/Packages.xz' | cmp - '$P/Packages'"
check "... apt-get update reads it over HTTP" "$APT" "$WORK/apt7" "deb [trusted=yes] http://127.0.0.1:$port testing main" update
check "... and apt-cache sees the last package" bash -c "
	APT_CONFIG='$WORK/apt7/apt.conf' apt-cache policy bench90002 | grep -q 'Candidate: 1.0-1'"
check "... apt-get install from it into a private root" bash -c "
	$(declare -f install); WORK='$WORK'; rm -rf '$WORK/root'; install '$WORK/apt7' scale-hello > '$WORK/inst7.log' 2>&1 &&
	test -f '$WORK/root/usr/share/scale-hello/hello'"
check "... verify passes" "$PADPACK" repo verify "$R"
"$PADPACK" repo init "$R" --suite testing --compression gz,xz > /dev/null
"$PADPACK" repo publish "$R" --unsigned > /dev/null
check "set back to gz,xz: Packages.gz again" bash -c "
	zcat '$P/Packages.gz' | cmp - '$P/Packages' && grep -q ' main/binary-amd64/Packages.gz$' '$R/dists/testing/Release' &&
	! grep -q '^Compression:' '$R/conf/distributions'"
kill $http; wait $http 2>/dev/null
rm -f "$P/Packages.gz"
check_fails "verify still reports a missing compressed index" 1 "Packages.gz: missing or unreadable" \
	"$PADPACK" repo verify "$R"

# verify checks pool files in batches of 1,024 on several threads, the
# next batch parsed meanwhile: damaged files in the first batch, at a
# batch's end and in the second are each reported, in Packages' order
# (in the repository made from scratch above: one suite).
mapfile -t bad < <(awk '/^Filename:/ { print $2 }' "$Q/Packages" | sed -n '10p;1024p;1400p')
for f in "${bad[@]}"; do cp "$S/$f" "$WORK/$(basename "$f").good"; done
printf 'X' | dd of="$S/${bad[0]}" bs=1 seek=100 conv=notrunc status=none
truncate -s 100 "$S/${bad[1]}"
rm "$S/${bad[2]}"
"$PADPACK" repo verify "$S" > "$WORK/verify-bad.out" 2>&1; rc=$?
check "verify fails (exit 1) on damaged pool files" test "$rc" = 1
check "... and names each, in Packages' order" bash -c "
	grep -oE 'pool/[^:]*\.deb: (SHA256|size|missing)' '$WORK/verify-bad.out' > '$WORK/verify-bad.names' &&
	printf '%s: SHA256\n%s: size\n%s: missing\n' '${bad[0]}' '${bad[1]}' '${bad[2]}' |
		cmp - '$WORK/verify-bad.names'"
for f in "${bad[@]}"; do cp "$WORK/$(basename "$f").good" "$S/$f"; done
check "... and passes once they are put back" "$PADPACK" repo verify "$S"

# A list written whole (here: a suite switched to a snapshot of itself)
# takes its log in and removes it; a crash between the two leaves a log
# that changes nothing when read again. A damaged log is named.
"$PADPACK" repo list "$R" --suite testing > "$WORK/list.out"
cp "$R/db/testing.list.log" "$WORK/list.log"
"$PADPACK" repo snapshot "$R" self --suite testing > /dev/null
"$PADPACK" repo publish "$R" --suite testing --from-snapshot self --unsigned > /dev/null
check "a list written whole takes its log in, and the log goes" bash -c "
	[ ! -e '$R/db/testing.list.log' ] && grep -q '^bench90001 ' '$R/db/testing.list' &&
	! grep -q '^bench00007 ' '$R/db/testing.list' &&
	cmp <('$PADPACK' repo list '$R' --suite testing) '$WORK/list.out'"
cp "$WORK/list.log" "$R/db/testing.list.log"
check "... a log left by a crash before it went changes nothing" bash -c "
	cmp <('$PADPACK' repo list '$R' --suite testing) '$WORK/list.out'"
"$PADPACK" repo remove "$R" --suite testing bench00009 > /dev/null
check "... and the next change is written after it" bash -c "
	cmp <('$PADPACK' repo list '$R' --suite testing) <(grep -v '^bench00009 ' '$WORK/list.out') &&
	head -n \$(wc -l < '$WORK/list.log') '$R/db/testing.list.log' | cmp - '$WORK/list.log' &&
	tail -n 1 '$R/db/testing.list.log' | grep -q '^- bench00009 '"
n=$(wc -l < "$R/db/testing.list.log")
printf 'bench00001 1.0-1 amd64 main pool/main/b/bench00001/bench00001_1.0-1_amd64.deb\n' >> "$R/db/testing.list.log"
check_fails "a damaged log is named, with its line" 3 "db/testing.list.log:$((n + 1)): not '\\+ LINE' or '- LINE'" \
	"$PADPACK" repo list "$R" --suite testing
sed -i '$d' "$R/db/testing.list.log"

# A crash between the list written whole and its log removed (the
# removal made to fail): the log left, written before the list, takes the
# old list to the new members and changes nothing on the new list. Here
# testing goes back to a snapshot that holds bench00011, removed since
# (a stale log would drop it again).
"$PADPACK" repo snapshot "$R" before-rm --suite testing > /dev/null
"$PADPACK" repo remove "$R" --suite testing bench00011 > /dev/null
"$PADPACK" repo list "$R" --snapshot before-rm > "$WORK/before-rm.list"
strace -f -o /dev/null -e trace=unlink -e inject=unlink:error=EIO:when=1 \
	"$PADPACK" repo publish "$R" --suite testing --from-snapshot before-rm --unsigned > /dev/null 2>&1
check "a crash before the log went (its removal failed): log and whole list both there" bash -c "
	[ -e '$R/db/testing.list.log' ] && grep -q '^bench00011 ' '$R/db/testing.list'"
check "... and they read as the snapshot switched to" bash -c "
	cmp <('$PADPACK' repo list '$R' --suite testing) '$WORK/before-rm.list'"

# New stanzas go after a sorted base: an add whose changes are all new
# stanzas publishes the base's bytes copied from the served .gz and .xz,
# then a tail (a gzip member and xz blocks of its own), hashed from the
# SHA-256 states kept after the base (db/zcache/.base,SUITE,COMP,ARCH).
# Anything else (a removal, a record that does not match) makes the
# index whole again, sorted: as from scratch.
mkpkg() { # NAME: a package of its own name, sorting amid bench*
	local t=$WORK/mk/$1
	mkdir -p "$t/DEBIAN" "$t/usr/share/$1"
	printf 'Package: %s\nVersion: 1.0\nArchitecture: amd64\nMaintainer: T <t@example.org>\nDescription: tail test\n' \
		"$1" > "$t/DEBIAN/control"
	echo "$1" > "$t/usr/share/$1/$1"
	SOURCE_DATE_EPOCH=1700000000 "$PADPACK" pack -q "$t" "$WORK/extra/$1_1.0_amd64.deb"
}
for n in bench00100a bench00200a bench00300a bench00400a bench00500a; do mkpkg $n; done
T=$WORK/tailrepo
TP=$T/dists/testing/main/binary-amd64
"$PADPACK" repo init "$T" --suite testing > /dev/null
(cd "$WORK/debs" && "$PADPACK" repo add "$T" --suite testing ./*.deb > /dev/null)
"$PADPACK" repo publish "$T" --unsigned > /dev/null
check "a publish records its index's sorted base" test -s "$T/db/zcache/.base,testing,main,amd64"
xzcat "$TP/Packages.xz" > "$WORK/base.txt"
lists() { # FILE: whether Release lists the size and SHA-256 FILE's text has
	local f=$1 rel=$T/dists/testing/Release
	printf ' %s %16s main/binary-amd64/Packages\n' "$(sha256sum < "$f" | cut -c1-64)" "$(stat -c %s "$f")" |
		grep -qxFf - "$rel"
}
expands() { # whether Packages.gz and .xz expand to the text Release lists, and are listed
	zcat "$TP/Packages.gz" > "$WORK/gz.txt" && xzcat "$TP/Packages.xz" > "$WORK/xz.txt" &&
		cmp "$WORK/gz.txt" "$WORK/xz.txt" && lists "$WORK/xz.txt" &&
		"$PADPACK" repo verify "$T" > /dev/null
}
export -f lists expands
export T TP WORK PADPACK
"$PADPACK" repo add "$T" --suite testing "$WORK/extra/bench00100a_1.0_amd64.deb" --publish --unsigned > /dev/null
check "an added package goes after the base" bash -c "
	xzcat '$TP/Packages.xz' | grep '^Package: ' | tail -n 1 | grep -qx 'Package: bench00100a'"
check "... whose text is as it was, the new stanza after a blank line" bash -c "
	{ cat '$WORK/base.txt'; echo; } | cmp -n \$(( \$(stat -c %s '$WORK/base.txt') + 1 )) - <(xzcat '$TP/Packages.xz')"
check "... Packages.gz (two gzip members) and .xz expand to the text Release lists; verify passes" expands
check "... Packages.gz starts with the base's .gz, whole" bash -c "
	[ \$(gzip -l '$TP/Packages.gz' > /dev/null; zcat '$TP/Packages.gz' | wc -c) -gt 0 ] &&
	xz --robot --list '$TP/Packages.xz' | awk '\$1 == \"totals\" { exit !(\$3 >= 2) }'"
"$PADPACK" repo add "$T" --suite testing "$WORK/extra/bench00200a_1.0_amd64.deb" --publish --unsigned > /dev/null
check "a second add extends the tail (sorted among itself)" bash -c "
	xzcat '$TP/Packages.xz' | grep '^Package: ' | tail -n 2 | tr '\n' ' ' |
		grep -qx 'Package: bench00100a Package: bench00200a '"
check "... and it expands to the text Release lists" expands
check "apt-get update reads the index with a tail" "$APT" "$WORK/apt-tail" "deb [trusted=yes] file:$T testing main" update
check "... apt-cache sees the package in the tail" bash -c "
	APT_CONFIG='$WORK/apt-tail/apt.conf' apt-cache policy bench00200a | grep -q 'Candidate: 1.0'"
check "... and apt-get installs it" bash -c "
	$(declare -f install); WORK='$WORK'; rm -rf '$WORK/root'; install '$WORK/apt-tail' bench00200a > '$WORK/inst-tail.log' 2>&1 &&
	test -f '$WORK/root/usr/share/bench00200a/bench00200a'"
check "... and apt reads it from Packages.gz (two gzip members) too" bash -c "
	'$APT' '$WORK/apt-tailgz' 'deb [trusted=yes] file:$T testing main' -o Acquire::CompressionTypes::Order::=gz \
		-o Debug::pkgAcquire::Worker=1 update 2>&1 | grep -q 'binary-amd64_Packages.gz%0aExpected' &&
	APT_CONFIG='$WORK/apt-tailgz/apt.conf' apt-cache policy bench00200a | grep -q 'Candidate: 1.0'"
# A damaged record is not trusted: the index is made whole, sorted.
rec=$T/db/zcache/.base,testing,main,amd64
printf 'X' | dd of="$rec" bs=1 seek=200 conv=notrunc status=none
"$PADPACK" repo add "$T" --suite testing "$WORK/extra/bench00300a_1.0_amd64.deb" --publish --unsigned > /dev/null
check "a damaged base record is not trusted: the index made whole, sorted" bash -c "
	xzcat '$TP/Packages.xz' | grep '^Package: ' | LC_ALL=C sort -c &&
	xzcat '$TP/Packages.xz' | grep -q '^Package: bench00300a$'"
check "... and it expands to the text Release lists" expands
# A served index changed in place (the stored file is the same inode) is
# not copied from: its mtime is not the one recorded.
"$PADPACK" repo add "$T" --suite testing "$WORK/extra/bench00400a_1.0_amd64.deb" --publish --unsigned > /dev/null
check "(the next add has a tail again)" bash -c "
	xzcat '$TP/Packages.xz' | grep '^Package: ' | tail -n 1 | grep -qx 'Package: bench00400a'"
"$PADPACK" repo remove "$T" --suite testing bench00400a > /dev/null
"$PADPACK" repo publish "$T" --unsigned > /dev/null
check "a removal folds the tail back into a sorted base" bash -c "
	xzcat '$TP/Packages.xz' | grep '^Package: ' | LC_ALL=C sort -c"
S2=$WORK/tailscratch
"$PADPACK" repo init "$S2" --suite testing > /dev/null
(cd "$WORK/debs" && "$PADPACK" repo add "$S2" --suite testing ./*.deb "$WORK"/extra/bench00[123]00a_1.0_amd64.deb > /dev/null)
"$PADPACK" repo publish "$S2" --unsigned > /dev/null
check "... the same Packages.gz and .xz as a publish from scratch" bash -c "
	cmp '$TP/Packages.gz' '$S2/dists/testing/main/binary-amd64/Packages.gz' &&
	cmp '$TP/Packages.xz' '$S2/dists/testing/main/binary-amd64/Packages.xz'"
"$PADPACK" repo add "$T" --suite testing "$WORK/extra/bench00400a_1.0_amd64.deb" --publish --unsigned > /dev/null
touch -d '2001-01-01' "$T/db/indices/files/$(sha256sum < "$TP/Packages.xz" | cut -c1-64)"
"$PADPACK" repo add "$T" --suite testing "$WORK/extra/bench00500a_1.0_amd64.deb" --publish --unsigned > /dev/null
check "a served index changed in place (its mtime) is not copied from: made whole, sorted" bash -c "
	xzcat '$TP/Packages.xz' | grep '^Package: ' | LC_ALL=C sort -c &&
	xzcat '$TP/Packages.xz' | grep -q '^Package: bench00500a$'"
check "... and it expands to the text Release lists" expands
