#!/bin/bash
# padpack repo: publish a repository that apt uses (file: and HTTP), keep
# the pool honest, publish incrementally and atomically, and verify it.
source "$(dirname "$0")/../lib.sh"
APT=$TOP/tests/tools/apt-private.sh

# N small packages named pkgNNN (version V), made with padpack pack.
make_debs() { # DIR N VERSION [CONTENT]
	local i t
	mkdir -p "$1"
	for i in $(seq -f %03g 1 "$2"); do
		t=$WORK/mk/pkg$i
		mkdir -p "$t/DEBIAN" "$t/usr/share/pkg$i"
		printf 'Package: pkg%s\nVersion: %s\nArchitecture: all\nMaintainer: T <t@example.org>\nDescription: test package %s\n' \
			"$i" "$3" "$i" > "$t/DEBIAN/control"
		echo "data $i $3 ${4:-}" > "$t/usr/share/pkg$i/data"
		SOURCE_DATE_EPOCH=1700000000 "$PADPACK" pack -q "$t" "$1/pkg${i}_$3_all.deb" || return 1
	done
	rm -rf "$WORK/mk"
}

R=$WORK/repo
"$TOP/scripts/make-example-tree.sh" "$WORK/ex"
"$PADPACK" pack -q "$WORK/ex" "$WORK/ex.deb"
make_debs "$WORK/debs" 3 1.0

# --keep 1: a new version replaces the old one here (repo-versions.sh
# tests keeping several).
check "init" "$PADPACK" repo init "$R" --origin Test --label "Test Repo" \
	--architectures amd64,arm64 --valid-for 7 --keep 1
check "add" "$PADPACK" repo add "$R" "$WORK/ex.deb" "$WORK"/debs/*.deb
check "list names every package" bash -c "'$PADPACK' repo list '$R' | awk '{print \$1}' | tr '\n' ' ' | grep -qx 'padpack-hello pkg001 pkg002 pkg003 '"
check "pool layout pool/<component>/<prefix>/<source>/" \
	test -f "$R/pool/main/p/padpack-hello/padpack-hello_1.0-1_all.deb"
check_fails "publish refuses a suite without a key unless --unsigned" 2 \
	"has no Signing-Key" "$PADPACK" repo publish "$R"
check "publish --unsigned" "$PADPACK" repo publish "$R" --unsigned
check "verify" "$PADPACK" repo verify "$R"
check_json "verify --json: verified, no problems, signatures not checked" \
	'd["status"] == "verified" and d["problems"] == [] and d["files_checked"] > 4 and d["signatures_checked"] is False and d["repository"].endswith("/repo")' \
	"$PADPACK" repo verify "$R" --json
check_json "list --json: one object a package, every field" \
	'd["suite"] == "stable" and d["snapshot"] is None and [p["package"] for p in d["packages"]] == ["padpack-hello", "pkg001", "pkg002", "pkg003"] and d["packages"][1] == {"package": "pkg001", "version": "1.0", "architecture": "all", "component": "main", "filename": "pool/main/p/pkg001/pkg001_1.0_all.deb"}' \
	"$PADPACK" repo list "$R" --json
check "stable.sources: the deb822 lines a client adds" bash -c "
	grep -qx 'Types: deb' '$R/stable.sources' && grep -qx 'URIs: file:$R' '$R/stable.sources' &&
	grep -qx 'Suites: stable' '$R/stable.sources' && grep -qx 'Components: main' '$R/stable.sources'"
for a in amd64 arm64; do
	check "$a: Packages, .gz and .xz agree" bash -c "cd '$R/dists/stable/main/binary-$a' &&
		zcat Packages.gz | cmp - Packages && xzcat Packages.xz | cmp - Packages"
done
check "Architecture: all packages are listed for every architecture" \
	bash -c "grep -c '^Package:' '$R/dists/stable/main/binary-arm64/Packages' | grep -qx 4"
check "Release has the fields apt uses" bash -c "grep -q '^Valid-Until: ' '$R/dists/stable/Release' &&
	grep -q '^Acquire-By-Hash: yes' '$R/dists/stable/Release' &&
	grep -q '^Architectures: amd64 arm64$' '$R/dists/stable/Release' &&
	grep -q '^SHA256:$' '$R/dists/stable/Release'"

# The same stanzas as dpkg-scanpackages and apt-ftparchive over the pool.
(cd "$R" && dpkg-scanpackages pool > "$WORK/scan" 2>/dev/null && apt-ftparchive packages pool > "$WORK/ftp" 2>/dev/null)
check "Packages agrees with dpkg-scanpackages field by field" python3 "$TOP/tests/tools/compare-stanzas.py" \
	"$R/dists/stable/main/binary-amd64/Packages" "$WORK/scan" SHA1
check "Packages agrees with apt-ftparchive field by field" python3 "$TOP/tests/tools/compare-stanzas.py" \
	"$R/dists/stable/main/binary-amd64/Packages" "$WORK/ftp" SHA1 SHA512

# apt reads it (trusted here; the signed path is tested with keys below).
check "apt-get update over file:" "$APT" "$WORK/apt1" "deb [trusted=yes] file:$R stable main" update
check "apt-get download over file:" bash -c "cd '$WORK/apt1' && APT_CONFIG='$WORK/apt1/apt.conf' apt-get -q download pkg002 padpack-hello >/dev/null && ls pkg002_1.0_all.deb padpack-hello_1.0-1_all.deb"

port=$((20000 + RANDOM % 20000))
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$R" > "$WORK/http.log" 2>&1 &
http=$!
for i in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
check "apt-get update over HTTP on 127.0.0.1" "$APT" "$WORK/apt2" "deb [trusted=yes] http://127.0.0.1:$port stable main" update
check "apt-get download over HTTP" bash -c "cd '$WORK/apt2' && APT_CONFIG='$WORK/apt2/apt.conf' apt-get -q download pkg003 >/dev/null && ls pkg003_1.0_all.deb"
kill $http; wait $http 2>/dev/null

# The pool never silently changes a file.
check "adding the same file again is fine" "$PADPACK" repo add "$R" "$WORK/debs/pkg001_1.0_all.deb"
make_debs "$WORK/other" 1 1.0 rebuilt
check_fails "a different file with the same name, version and arch is refused" 3 \
	"refused: the pool already has a different pool/main/p/pkg001/pkg001_1.0_all.deb" \
	"$PADPACK" repo add "$R" "$WORK/other/pkg001_1.0_all.deb"

# Incremental: one new package, one pool file read.
prev_sha=$(sed -n '/^SHA256:/,$p' "$R/dists/stable/Release" | awk '/binary-amd64\/Packages$/ {print $1}')
make_debs "$WORK/new" 1 2.0
check "add a newer version" "$PADPACK" repo add "$R" "$WORK/new/pkg001_2.0_all.deb"
check "publish reads no package: add already indexed the new one" \
	bash -c "'$PADPACK' repo publish '$R' --unsigned | grep -q '^(0 package files read'"
check "the suite holds the new version only" bash -c "grep -A1 '^Package: pkg001$' '$R/dists/stable/main/binary-amd64/Packages' | grep -qx 'Version: 2.0'"
check "the old version's pool file is gone" test ! -e "$R/pool/main/p/pkg001/pkg001_1.0_all.deb"
check "by-hash keeps the previous Packages for clients holding the old Release" \
	test -f "$R/dists/stable/main/binary-amd64/by-hash/SHA256/$prev_sha"
# A publish takes each pool file's entry from db/cache without a stat of
# the file (its cost would grow with the pool): a file touched or replaced
# behind the repository's back is not read again by a publish or an add,
# but 'repo verify' reports it and 'publish --full' reads it again.
touch "$R/pool/main/p/pkg003/pkg003_1.0_all.deb"
check "a publish does not stat the pool: a touched pool file is not read again" \
	bash -c "'$PADPACK' repo publish '$R' --unsigned | grep -q '^(0 package files read'"
# A pool file replaced by another build of the same package (other
# content): verify names it; publish --full reads it, and its Packages
# entry (Size, hashes) then describes the new file.
make_debs "$WORK/swap" 3 1.0 swapped
cp "$WORK/swap/pkg003_1.0_all.deb" "$R/pool/main/p/pkg003/pkg003_1.0_all.deb"
make_debs "$WORK/third" 4 1.0
check "add --publish with a pool file replaced on disk reads none (add read the new one)" \
	bash -c "'$PADPACK' repo add '$R' --publish --unsigned '$WORK/third/pkg004_1.0_all.deb' | grep -q '^(0 package files read'"
check_fails "verify names the replaced pool file" 1 \
	"pool/main/p/pkg003/pkg003_1.0_all.deb" "$PADPACK" repo verify "$R"
cp "$WORK/swap/pkg002_1.0_all.deb" "$R/pool/main/p/pkg002/pkg002_1.0_all.deb"
check "publish --full reads every package" bash -c "'$PADPACK' repo publish '$R' --unsigned --full | grep -q '^(5 package files read'"
check "and lists both replaced files' SHA256" bash -c "grep -A12 '^Package: pkg002$' '$R/dists/stable/main/binary-amd64/Packages' | grep -q \"^SHA256: \$(sha256sum '$WORK/swap/pkg002_1.0_all.deb' | cut -d' ' -f1)\$\" && grep -A12 '^Package: pkg003$' '$R/dists/stable/main/binary-amd64/Packages' | grep -q \"^SHA256: \$(sha256sum '$WORK/swap/pkg003_1.0_all.deb' | cut -d' ' -f1)\$\""
check "and Packages.xz says the same" bash -c "xz -dc '$R/dists/stable/main/binary-amd64/Packages.xz' | cmp - '$R/dists/stable/main/binary-amd64/Packages'"
check "and the repository verifies" "$PADPACK" repo verify "$R"
# A pool file gone from disk: verify names it; publish --full stops,
# naming it and what to do, and the served suite is the one before.
mv "$R/pool/main/p/pkg004/pkg004_1.0_all.deb" "$WORK/pkg004.away"
cp "$R/dists/stable/Release" "$WORK/Release.before"
check_fails "verify names a missing pool file" 1 \
	"pool/main/p/pkg004/pkg004_1.0_all.deb" "$PADPACK" repo verify "$R"
check_fails "publish --full names a missing pool file and what to do" 4 \
	"cannot stat pool file '.*pool/main/p/pkg004/pkg004_1.0_all.deb' \(No such file or directory\), which a suite lists: put it back, or drop its package with 'padpack repo remove'" \
	"$PADPACK" repo publish "$R" --unsigned --full
same "and the served Release is the one before" "$R/dists/stable/Release" "$WORK/Release.before"
check "and leaves no half-made suite directory behind (dists/.stable.new)" test ! -e "$R/dists/.stable.new"
mv "$WORK/pkg004.away" "$R/pool/main/p/pkg004/pkg004_1.0_all.deb"
# Nor when the exchange itself fails (the served directory made
# immutable: rename refuses it).
if chattr +i "$R/dists/stable" 2>/dev/null; then
	check_fails "a publish whose exchange fails says so" 4 "cannot exchange '.*dists/\.stable\.new' and" \
		"$PADPACK" repo publish "$R" --unsigned
	chattr -i "$R/dists/stable"
	check "and leaves no suite directory of its own behind" test ! -e "$R/dists/.stable.new"
fi
check "remove" bash -c "'$PADPACK' repo remove '$R' pkg002 > /dev/null"
"$PADPACK" repo publish "$R" --unsigned > /dev/null
check "a removed package leaves Packages and the pool" bash -c "! grep -q '^Package: pkg002$' '$R/dists/stable/main/binary-amd64/Packages' && test ! -e '$R/pool/main/p/pkg002'/pkg002_1.0_all.deb"
check_fails "removing what is not there" 1 "suite 'stable' has no package 'nothere'" "$PADPACK" repo remove "$R" nothere
check "verify after all that" "$PADPACK" repo verify "$R"

# Tampering is found, with the path.
cp "$R/dists/stable/main/binary-amd64/Packages" "$WORK/Packages.bak"
sed -i 's/^Version: 2.0$/Version: 2.1/' "$R/dists/stable/main/binary-amd64/Packages"
check_fails "verify finds a changed index" 1 "binary-amd64/Packages: SHA256 [0-9a-f]+, expected" "$PADPACK" repo verify "$R"
cp "$WORK/Packages.bak" "$R/dists/stable/main/binary-amd64/Packages"
echo junk >> "$R/pool/main/p/pkg003/pkg003_1.0_all.deb"
check_fails "verify finds a changed pool file" 1 "pool/main/p/pkg003/pkg003_1.0_all.deb: size [0-9]+, expected" "$PADPACK" repo verify "$R"
check_fails "verify --json exits 1 on a problem" 1 "" "$PADPACK" repo verify "$R" --json
check_json "verify --json names the changed pool file and what is wrong (in both architectures' Packages)" \
	'd["status"] == "problems" and len(d["problems"]) == 2 and all(p["path"] == d["repository"] + "/pool/main/p/pkg003/pkg003_1.0_all.deb" and p["problem"].startswith("size ") for p in d["problems"])' \
	"$PADPACK" repo verify "$R" --json
check_json "verify --json of what is not a repository: status error" \
	'd["status"] == "error" and d["error"] and d["problems"] == []' \
	"$PADPACK" repo verify "$WORK/nothere" --json
check_json "verify --json with a keyring that cannot be read: status error, naming it" \
	'd["status"] == "error" and "nokeyring.gpg" in d["error"] and d["signatures_checked"] is True' \
	"$PADPACK" repo verify "$R" --keyring "$WORK/nokeyring.gpg" --json

# ---- signed ------------------------------------------------------------
K=$WORK/keys
"$PADPACK" key generate --uid "Test Release <release@example.org>" --out "$K" > /dev/null
"$PADPACK" key generate --uid "Someone Else <else@example.org>" --out "$WORK/other-key" > /dev/null
S=$WORK/signed
"$PADPACK" sign "$WORK/ex.deb" --key "$K" -o "$WORK/ex-signed.deb" -q
check "init with a signing key" "$PADPACK" repo init "$S" --origin "Paddle Release" --key "$K/secret.pem" --valid-for 7
check "add a signed package" "$PADPACK" repo add "$S" "$WORK/ex-signed.deb" "$WORK"/debs/pkg003_1.0_all.deb
check "publish signs InRelease and Release.gpg" "$PADPACK" repo publish "$S"
check "gpgv accepts InRelease" gpgv --keyring "$K/public.gpg" "$S/dists/stable/InRelease"
check "gpgv accepts Release.gpg over Release" gpgv --keyring "$K/public.gpg" \
	"$S/dists/stable/Release.gpg" "$S/dists/stable/Release"
check "the public key is published beside the repository" cmp "$K/public.gpg" "$S/paddle-release-archive-keyring.gpg"
check "stable.sources names the key with Signed-By" \
	grep -qx 'Signed-By: /usr/share/keyrings/paddle-release-archive-keyring.gpg' "$S/stable.sources"
check "verify --keyring" "$PADPACK" repo verify "$S" --keyring "$K/public.gpg"
check_fails "verify --keyring with another key fails" 1 "InRelease: .*(not in the keyring|key)" \
	"$PADPACK" repo verify "$S" --keyring "$WORK/other-key/public.gpg"
check_fails "verify --packages finds the unsigned package" 1 "pkg003_1.0_all.deb: .*(not signed|no _gpgorigin|unsigned)" \
	"$PADPACK" repo verify "$S" --keyring "$K/public.gpg" --packages
src="deb [signed-by=$S/paddle-release-archive-keyring.gpg] file:$S stable main"
check "apt-get update with Signed-By" "$APT" "$WORK/apt3" "$src" update
check "apt-get install into a private root" bash -c "cd '$WORK/apt3' && APT_CONFIG='$WORK/apt3/apt.conf' \
	apt-get -q -y -o Dpkg::Options::=--root='$WORK/root' -o DPkg::Options::=--force-script-chrootless \
	-o DPkg::Options::=--log=/dev/null -o Dir::State::status='$WORK/root/var/lib/dpkg/status' \
	install padpack-hello > '$WORK/inst.log' 2>&1 || { mkdir -p '$WORK/root/var/lib/dpkg/info' '$WORK/root/var/lib/dpkg/updates'; touch '$WORK/root/var/lib/dpkg/status';
	APT_CONFIG='$WORK/apt3/apt.conf' apt-get -q -y -o Dpkg::Options::=--root='$WORK/root' \
	-o DPkg::Options::=--force-script-chrootless -o DPkg::Options::=--log=/dev/null \
	-o Dir::State::status='$WORK/root/var/lib/dpkg/status' install padpack-hello >> '$WORK/inst.log' 2>&1; } &&
	test -x '$WORK/root/usr/bin/padpack-hello'"
cp "$S/dists/stable/main/binary-amd64/Packages.xz" "$WORK/xz.bak"
echo junk >> "$S/dists/stable/main/binary-amd64/Packages.xz"
check_fails "apt-get update refuses a tampered index" 100 "Hash Sum mismatch|hash" \
	"$APT" "$WORK/apt4" "$src" update
cp "$WORK/xz.bak" "$S/dists/stable/main/binary-amd64/Packages.xz"
"$PADPACK" clearsign "$S/dists/stable/Release" --key "$WORK/other-key" -o "$S/dists/stable/InRelease" -q
check_fails "apt-get update refuses a Release signed by another key" 100 "NO_PUBKEY|not signed|signatures couldn't be verified" \
	"$APT" "$WORK/apt5" "$src" update

# ---- a damaged database ---------------------------------------------------
D=$WORK/damaged
"$PADPACK" repo init "$D" > /dev/null
"$PADPACK" repo add "$D" --publish --unsigned "$WORK"/debs/pkg00[12]_1.0_all.deb > /dev/null
cp "$D/dists/stable/Release" "$WORK/Release.before"
cp "$D/db/stable.list" "$WORK/list.bak"
printf 'pkg009 1.0 all main\n' >> "$D/db/stable.list"
check_fails "a member line with four words names the file and line" 3 \
	"db/stable.list:3: not 'PACKAGE VERSION ARCH COMPONENT FILENAME'; the repository database is damaged" \
	"$PADPACK" repo publish "$D" --unsigned
check "and the served suite is untouched" cmp "$WORK/Release.before" "$D/dists/stable/Release"
printf 'pkg001\t1.0  all\tmain  pool/main/p/pkg001/pkg001_1.0_all.deb\n' > "$D/db/stable.list"
sed -n 2p "$WORK/list.bak" >> "$D/db/stable.list"
check "tabs and runs of blanks between the words are read" \
	bash -c "'$PADPACK' repo publish '$D' --unsigned && grep -c '^Package: ' '$D/dists/stable/main/binary-amd64/Packages' | grep -qx 2"
head -c $(($(stat -c %s "$D/db/cache") / 2)) "$D/db/cache" > "$WORK/cache.cut"
cp "$WORK/cache.cut" "$D/db/cache"
check "a cache cut short: the entries lost are made again from the pool" \
	bash -c "'$PADPACK' repo publish '$D' --unsigned | grep -q '^([12] package files\\? read'"
check "and the repository verifies" "$PADPACK" repo verify "$D"
printf 'not a stanza\n\ngarbage: x\n' > "$D/db/cache"
check "a cache of garbage: every entry made again" \
	bash -c "'$PADPACK' repo publish '$D' --unsigned | grep -q '^(2 package files read'"
check "and Packages lists both, verified" bash -c "grep -c '^Package: ' '$D/dists/stable/main/binary-amd64/Packages' | grep -qx 2 && '$PADPACK' repo verify '$D'"

# ---- two publishes within one second, over HTTP ---------------------------
# A web server answers If-Modified-Since by the second: a client that
# fetched InRelease between two publishes in the same second was told
# "not modified" after the second one, and never saw it until a third.
# Each publish dates Release and InRelease after the served ones.
source "$TOP/tests/tools/lighttpd.sh"
H=$WORK/http
"$PADPACK" repo init "$H" --key "$K/secret.pem" > /dev/null
"$PADPACK" repo add "$H" --publish --no-sync "$WORK/debs/pkg001_1.0_all.deb" > /dev/null
mkdir -p "$WORK/lighttpd"
if lighttpd_start "$H" "$WORK/lighttpd"; then
	src="deb [signed-by=$K/public.gpg] http://127.0.0.1:$LIGHTTPD_PORT stable main"
	# at the start of a second: the three commands take a tenth of it
	python3 -c 'import time; time.sleep(1.05 - time.time() % 1)'
	"$PADPACK" repo add "$H" --publish --no-sync "$WORK/debs/pkg002_1.0_all.deb" > /dev/null
	t1=$(stat -c %Y "$H/dists/stable/InRelease")
	"$APT" "$WORK/apt-http" "$src" update > /dev/null
	"$PADPACK" repo add "$H" --publish --no-sync "$WORK/debs/pkg003_1.0_all.deb" > /dev/null
	t2=$(stat -c %Y "$H/dists/stable/InRelease")
	check "a publish in the second of the last dates InRelease a second later" test "$t2" -gt "$t1"
	check "so a client that updated in between sees it" bash -c "sleep 1; '$APT' '$WORK/apt-http' '$src' update > /dev/null &&
		APT_CONFIG='$WORK/apt-http/apt.conf' apt-cache policy pkg003 | grep -q 'Candidate: 1.0'"
	lighttpd_stop
else
	not_ok "lighttpd serves the repository on 127.0.0.1" "$(cat "$WORK/lighttpd/lighttpd.out" "$WORK/lighttpd/lighttpd.err" 2>/dev/null)"
fi
check "and it verifies" "$PADPACK" repo verify "$H" --keyring "$K/public.gpg"

# ---- two at once ------------------------------------------------------------
# A lock serialises add, remove and publish: one waits, and says so.
L=$WORK/locked
"$PADPACK" repo init "$L" > /dev/null
"$PADPACK" repo add "$L" --publish --unsigned --no-sync "$WORK/debs/pkg001_1.0_all.deb" > /dev/null
flock "$L/db/lock" sleep 1 &
holder=$!
sleep 0.2
check "an add while another holds the lock waits, saying so" bash -c "
	'$PADPACK' repo add '$L' --no-sync '$WORK/debs/pkg002_1.0_all.deb' 2>&1 >/dev/null |
	grep -qx 'padpack repo: waiting for $L/db/lock: another padpack repo add, remove, publish or snapshot holds it'"
wait $holder
for i in 1 2 3 4 5; do
	"$PADPACK" repo add "$L" --publish --unsigned --no-sync "$WORK/debs/pkg003_1.0_all.deb" > /dev/null 2>&1 &
	"$PADPACK" repo remove "$L" pkg001 > /dev/null 2>&1 &
	"$PADPACK" repo add "$L" --publish --unsigned --no-sync "$WORK/debs/pkg001_1.0_all.deb" > /dev/null 2>&1 &
	wait
done
check "adds, removes and publishes at once leave a repository that verifies" bash -c "
	'$PADPACK' repo publish '$L' --unsigned --no-sync > /dev/null && '$PADPACK' repo verify '$L' &&
	'$PADPACK' repo list '$L' | grep -q '^pkg002 ' && '$PADPACK' repo list '$L' | grep -q '^pkg003 '"

# ---- two suites of one Origin, signed by two keys ---------------------------
# They share the keyring file their .sources name: it holds both keys
# (as Debian's archive keyring holds several), not the last one written.
T=$WORK/twokeys
"$PADPACK" repo init "$T" --suite stable --origin "Paddle Release" --key "$K" > /dev/null
"$PADPACK" repo init "$T" --suite testing --origin "Paddle Release" --key "$WORK/other-key" > /dev/null
"$PADPACK" repo add "$T" --suite stable --no-sync "$WORK/debs/pkg001_1.0_all.deb" > /dev/null
"$PADPACK" repo add "$T" --suite testing --no-sync "$WORK/debs/pkg002_1.0_all.deb" > /dev/null
check "publish both" "$PADPACK" repo publish "$T" --no-sync
ring=$T/paddle-release-archive-keyring.gpg
check "the shared keyring holds both keys" bash -c "cat '$K/public.gpg' '$WORK/other-key/public.gpg' | cmp - '$ring'"
check "apt-get update of each suite with it" bash -c "
	'$APT' '$WORK/apt-k1' 'deb [signed-by=$ring] file:$T stable main' update > /dev/null &&
	'$APT' '$WORK/apt-k2' 'deb [signed-by=$ring] file:$T testing main' update > /dev/null"
check "publishing one suite keeps both keys in it" bash -c "
	'$PADPACK' repo add '$T' --suite testing --publish --no-sync '$WORK/debs/pkg003_1.0_all.deb' > /dev/null &&
	cat '$K/public.gpg' '$WORK/other-key/public.gpg' | cmp - '$ring'"
check "and verify passes with it" "$PADPACK" repo verify "$T" --keyring "$ring"
