#!/bin/bash
# padpack verify against debsig-verify, and padpack sign against debsigs
# --sign=origin, on a signed ~200 MB .deb made from this machine's /usr,
# with the same Ed25519 key (made by gpg, imported into padpack), RUNS
# runs each (default 3), interleaved. Prints Markdown: median wall times,
# the ratio padpack/anchor, and the peak RSS of each (whole process tree:
# debsig-verify and debsigs run gpg and ar; tests/bench/peak-rss.py).
#
# The main case stores data.tar uncompressed (-Z none): verifying is then
# bound by hashing, SHA-256 for the signature and, for padpack only, MD5 of
# every file for the md5sums check. A zstd package of the same tree shows
# what decompression adds (debsig-verify never decompresses).
set -eu
cd "$(dirname "$0")/../.."
TOP=$PWD
RUNS=${RUNS:-3}
W=$TOP/tests/bench/work/sign
PEAK="python3 $TOP/tests/bench/peak-rss.py"
export SOURCE_DATE_EPOCH=1700000000
export GNUPGHOME=$W/gnupg

make_tree() { # ~200 MB: binaries, shared libraries, headers, docs
	local t=$W/tree
	rm -rf "$t"
	mkdir -p "$t/DEBIAN"
	printf 'Package: bench-sign\nVersion: 1.0\nArchitecture: amd64\nMaintainer: Bench <bench@example.org>\nDescription: benchmark package\n made of files from /usr\n' \
		> "$t/DEBIAN/control"
	find /usr/bin /usr/lib/x86_64-linux-gnu /usr/include /usr/share/doc \
		-type f -size -20M -printf '%s %p\n' 2>/dev/null | LC_ALL=C sort -k2 |
		awk -v budget=$((200 * 1024 * 1024)) '{ total += $1; if (total > budget) exit; print $2 }' \
		> "$W/files"
	tar -cf - -T "$W/files" 2>/dev/null | tar -xf - -C "$t"
	chmod -R u+rwX,go+rX "$t"
	chmod 0755 "$t/DEBIAN"
}

# One key for both tools: gpg makes it, padpack imports it.
make_key() {
	mkdir -m 700 "$GNUPGHOME"
	gpg --batch --passphrase '' --quick-gen-key "Bench <bench@example.org>" \
		ed25519 default never 2>/dev/null
	gpg --batch --passphrase '' --export-secret-keys Bench > "$W/secret.gpg"
	"$TOP/padpack" key import "$W/secret.gpg" --out "$W/key" >/dev/null
	id=$("$TOP/padpack" key show "$W/key/public.gpg" | awk '/key ID/ {print $3}')
	mkdir -p "$W/root/etc/debsig/policies/$id" "$W/root/usr/share/debsig/keyrings/$id"
	cp "$W/key/public.gpg" "$W/root/usr/share/debsig/keyrings/$id/origin.gpg"
	cat > "$W/root/etc/debsig/policies/$id/origin.pol" <<-EOF
	<?xml version="1.0"?>
	<!DOCTYPE Policy SYSTEM "https://www.debian.org/debsig/1.0/policy.dtd">
	<Policy xmlns="https://www.debian.org/debsig/1.0/">
	  <Origin Name="bench" id="$id" Description="bench"/>
	  <Selection><Required Type="origin" File="origin.gpg" id="$id"/></Selection>
	  <Verification MinOptional="0"><Required Type="origin" File="origin.gpg" id="$id"/></Verification>
	</Policy>
	EOF
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

run() { # NAME CMD...: appends "wall rss" to NAME.times; stops if CMD fails
	local name=$1 out; shift
	if ! out=$($PEAK "$@" 2>&1 >/dev/null); then
		echo "bench-sign: failed: $*" >&2
		exit 1
	fi
	tail -n 1 <<<"$out" >> "$W/$name.times"
}

row() { # LABEL PADPACK-NAME ANCHOR-NAME
	local pt at pr ar
	pt=$(cut -d' ' -f1 "$W/$2.times" | median)
	at=$(cut -d' ' -f1 "$W/$3.times" | median)
	pr=$(cut -d' ' -f2 "$W/$2.times" | sort -n | tail -n 1)
	ar=$(cut -d' ' -f2 "$W/$3.times" | sort -n | tail -n 1)
	printf '| %s | %.2f | %.2f | %.2f | %.1f | %.1f |\n' "$1" "$pt" "$at" \
		"$(echo "$pt / $at" | bc -l)" "$(echo "$pr / 1024" | bc -l)" \
		"$(echo "$ar / 1024" | bc -l)"
}

rm -rf "$W"
mkdir -p "$W"
make_tree
make_key
"$TOP/padpack" pack -q -Z none "$W/tree" "$W/none.deb"
"$TOP/padpack" pack -q -Z zstd "$W/tree" "$W/zstd.deb"
files=$(find "$W/tree" -type f | wc -l)
echo "## sign and verify: padpack vs debsigs / debsig-verify"
echo
echo "Package: $files files from /usr; data.tar uncompressed, $(($(stat -c %s "$W/none.deb") / 1000000)) MB" \
	"(and zstd, $(($(stat -c %s "$W/zstd.deb") / 1000000)) MB). Ed25519 key, SHA-256."
echo "$RUNS runs each, interleaved; wall time median; peak RSS of the whole process tree."
echo "padpack verify also checks every file against md5sums; debsig-verify checks the signature only."
echo
echo "| operation | padpack s | anchor s | time ratio | padpack RSS MiB | anchor RSS MiB |"
echo "|---|---|---|---|---|---|"
for z in none zstd; do
	cp "$W/$z.deb" "$W/signed-$z.deb"
	"$TOP/padpack" sign -q "$W/signed-$z.deb" --key "$W/key"
	cat "$W/signed-$z.deb" > /dev/null # into the page cache, for both
	for i in $(seq "$RUNS"); do
		run dsv-$z debsig-verify --root "$W/root" "$W/signed-$z.deb"
		run ppv-$z "$TOP/padpack" verify "$W/signed-$z.deb" --keyring "$W/key/public.gpg"
	done
done
row "verify, data.tar uncompressed: padpack verify / debsig-verify" ppv-none dsv-none
row "verify, data.tar.zst: padpack verify / debsig-verify" ppv-zstd dsv-zstd
for i in $(seq "$RUNS"); do
	cp "$W/none.deb" "$W/a.deb"
	run dss debsigs --sign=origin -k Bench "$W/a.deb"
	cp "$W/none.deb" "$W/b.deb"
	run pps "$TOP/padpack" sign -q "$W/b.deb" --key "$W/key"
done
row "sign, data.tar uncompressed: padpack sign / debsigs --sign=origin" pps dss
"$TOP/padpack" verify "$W/a.deb" --keyring "$W/key/public.gpg" >/dev/null ||
	{ echo "bench-sign: padpack cannot verify debsigs' package" >&2; exit 1; }
gpgconf --kill all >/dev/null 2>&1 || true
rm -rf "$W"
