#!/bin/bash
# By-hash retention: the indices of past generations stay under by-hash/
# for the time and count the suite sets, so that apt-get update against a
# real web server never fails while the repository is published again and
# again, back to back.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../tools/lighttpd.sh"
APT=$TOP/tests/tools/apt-private.sh
N=${BYHASH_PACKAGES:-2000}
PUBLISHES=${BYHASH_PUBLISHES:-100}

# Generated packages, cached under /var/tmp keyed by the generator and the
# count (remade when either changes).
key=$( (cat "$TOP/tests/bench/gen-debs.py"; echo "$N $PUBLISHES") | sha256sum | cut -c1-16)
CACHE=${PADPACK_CACHE:-/var/tmp}/padpack-repo-byhash-$key
if [ ! -f "$CACHE/done" ]; then
	rm -rf "$CACHE"
	python3 "$TOP/tests/bench/gen-debs.py" "$CACHE/base" "$N" &&
		python3 "$TOP/tests/bench/gen-debs.py" "$CACHE/extra" "$PUBLISHES" 90001 &&
		touch "$CACHE/done"
fi
extra=("$CACHE"/extra/*.deb)

by_hash_count() { # REPO
	find "$1/dists/stable/main/binary-amd64/by-hash/SHA256" -type f | wc -l
}

# Every index each saved InRelease names is there under by-hash/.
all_named_present() { # REPO INRELEASE...
	local r=$1 f hex path; shift
	for f in "$@"; do
		sed -n '/^SHA256:/,/^[^ ]/p' "$f" | awk 'NF == 3 {print $1, $3}' |
		while read -r hex path; do
			[ -f "$r/dists/stable/$(dirname "$path")/by-hash/SHA256/$hex" ] ||
				{ echo "$f: $path: by-hash/SHA256/$hex is gone"; exit 1; }
		done || return 1
	done
}

# ---- retention by count and time -----------------------------------------
R=$WORK/count
check "init with a by-hash retention" "$PADPACK" repo init "$R" \
	--by-hash-keep 0 --by-hash-generations 2
check "conf/distributions records it" bash -c "grep -qx 'By-Hash-Keep: 0' '$R/conf/distributions' &&
	grep -qx 'By-Hash-Generations: 2' '$R/conf/distributions'"
for i in 0 1 2 3 4; do
	"$PADPACK" repo add "$R" --publish --unsigned "${extra[$i]}" > /dev/null
	cp "$R/dists/stable/Release" "$WORK/count-Release.$i"
done
check "kept: the served generation and the last 2 replaced (3 x 3 indices)" \
	bash -c "[ \$(find '$R/dists/stable/main/binary-amd64/by-hash/SHA256' -type f | wc -l) = 9 ]"
check "every index the last three Releases name is there" all_named_present "$R" \
	"$WORK"/count-Release.[234]
check_fails "and the older ones are gone" 1 "count-Release.1: .*is gone" \
	all_named_present "$R" "$WORK/count-Release.1"
check "db/stable.byhash lists the two replaced generations" \
	bash -c "[ \$(wc -l < '$R/db/stable.byhash') = 2 ]"

D=$WORK/default
"$PADPACK" repo init "$D" > /dev/null
for i in 0 1 2 3 4 5; do
	"$PADPACK" repo add "$D" --publish --unsigned "${extra[$i]}" > /dev/null
	cp "$D/dists/stable/Release" "$WORK/default-Release.$i"
done
check "default: within the hour every generation's indices are kept" \
	all_named_present "$D" "$WORK"/default-Release.*
check "default settings are not written to conf/distributions" \
	bash -c "! grep -q '^By-Hash' '$D/conf/distributions'"
# An hour later (the record's times moved back): only the last 3 replaced
# generations' stay.
awk '{ $1 -= 7200; print }' "$D/db/stable.byhash" > "$WORK/byhash.old"
cp "$WORK/byhash.old" "$D/db/stable.byhash"
"$PADPACK" repo add "$D" --publish --unsigned "${extra[6]}" > /dev/null
check "past the hour, the last 3 replaced generations stay" all_named_present "$D" \
	"$WORK"/default-Release.[345] "$D/dists/stable/Release"
check_fails "and the older ones go" 1 "default-Release.2: .*is gone" \
	all_named_present "$D" "$WORK/default-Release.2"
check "repo verify passes" "$PADPACK" repo verify "$D"

check_fails "--by-hash-keep refuses a time it cannot read" 2 \
	"--by-hash-keep takes a time" "$PADPACK" repo init "$WORK/bad" --by-hash-keep 5x
check_fails "--by-hash-generations refuses a negative count" 2 \
	"--by-hash-generations takes a count" "$PADPACK" repo init "$WORK/bad" --by-hash-generations -1
echo "12 garbage" >> "$D/db/stable.byhash"
check_fails "a damaged db/stable.byhash names its line and what to do" 3 \
	"db/stable.byhash:[0-9]+: not 'RETIRED RELEASE-SHA256 DIR/HEX...'.*delete the file" \
	"$PADPACK" repo publish "$D" --unsigned

# ---- a real server, apt-get update while publishing back to back ---------
S=$WORK/served
"$PADPACK" key generate --uid "By-Hash Test <byhash@example.org>" --out "$WORK/key" > /dev/null
"$PADPACK" repo init "$S" --key "$WORK/key/secret.pem" > /dev/null
"$PADPACK" repo add "$S" --publish "$CACHE"/base/*.deb > /dev/null

if ! lighttpd_start "$S" "$WORK"; then
	not_ok "lighttpd serves the repository on 127.0.0.1" "$(cat "$WORK/lighttpd.out" "$WORK/lighttpd.err" 2>/dev/null)"
	exit 1
fi
port=$LIGHTTPD_PORT
src="deb [signed-by=$WORK/key/public.gpg] http://127.0.0.1:$port stable main"
check "apt-get update from lighttpd on 127.0.0.1" "$APT" "$WORK/apt" "$src" update

# The publisher adds one package and publishes, $PUBLISHES times back to
# back; apt-get update loops until it is done (bounded).
(for f in "${extra[@]}"; do
	"$PADPACK" repo add "$S" --publish "$f" > /dev/null || { echo "publish of $f failed" >&2; exit 1; }
done) 2> "$WORK/publisher.err" &
publisher=$!
updates=0 failed=0 first=
while kill -0 $publisher 2>/dev/null && [ $updates -lt 1000 ]; do
	rm -rf "$WORK/apt/lists"
	updates=$((updates + 1))
	if ! out=$("$APT" "$WORK/apt" "$src" update 2>&1); then
		failed=$((failed + 1))
		[ -n "$first" ] || first=$out
	fi
done
wait $publisher; published=$?
echo "# $updates apt-get update runs during $PUBLISHES publishes of $N packages"
check "the $PUBLISHES publishes succeed" test "$published" = 0 -a ! -s "$WORK/publisher.err"
if [ $updates -ge 3 ] && [ $failed = 0 ]; then
	ok "no apt-get update fails while the suite is published back to back ($updates runs)"
else
	not_ok "no apt-get update fails while the suite is published back to back" \
		"$failed of $updates failed; the first:" "$(printf '%s' "$first" | grep -E '^(E|W):' | head -n 5)"
fi
# A fresh client: one that fetched the last-but-one InRelease in the same
# second as the last publish is told "not modified" (HTTP dates count
# seconds).
rm -rf "$WORK/apt/lists"
check "the last publish is what apt sees" "$APT" "$WORK/apt" "$src" update
check "and it lists every package" bash -c "APT_CONFIG='$WORK/apt/apt.conf' apt-cache show bench$((90000 + PUBLISHES)) | grep -q '^Version: 1.0-1'"
lighttpd_stop
check "repo verify passes" "$PADPACK" repo verify "$S" --keyring "$WORK/key/public.gpg"
