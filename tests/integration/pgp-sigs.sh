#!/bin/bash
# Detached and cleartext signatures, both ways: gpgv and sqv check what
# padpack signs; padpack checks what gpg signs; damage is refused.
source "$(dirname "$0")/../lib.sh"
source "$TOP/tests/lib-pgp.sh"
cd "$WORK"

cat > Release <<'EOF'
Origin: Paddle
Label: Paddle
Suite: stable
Codename: bookworm
Date: Tue, 14 Nov 2023 22:13:20 UTC
Description: a line with trailing blanks   
-----a line that starts with dashes
From the beginning of a line
SHA256:
 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855        0 main/binary-amd64/Packages
EOF
head -c 3000 /dev/urandom > blob
# what a cleartext signature covers: trailing blanks do not count (and
# gpgv -o leaves them out)
sed 's/[ \t]*$//' Release > Release.trimmed

"$PADPACK" key generate --uid "Paddle Ed <ed@example.org>" --out ed >/dev/null
"$PADPACK" key generate --algo rsa3072 --uid "Paddle Rsa <rsa@example.org>" \
	--out rsa >/dev/null

# ---- padpack signs, gpgv and sqv check ---------------------------------------

for k in ed rsa; do
	check "$k: detach-sign (binary)" "$PADPACK" detach-sign blob --key $k -o blob.$k.sig
	check "$k: detach-sign --armor --digest sha512" "$PADPACK" detach-sign \
		Release --key $k --armor --digest sha512 -o Release.$k.gpg
	check "$k: clearsign" "$PADPACK" clearsign Release --key $k -o InRelease.$k
	check "$k: gpgv checks the binary signature" \
		gpgv --keyring ./$k/public.gpg blob.$k.sig blob
	check "$k: gpgv checks the armored signature (Release.gpg)" \
		gpgv --keyring ./$k/public.gpg Release.$k.gpg Release
	check "$k: gpgv checks the cleartext signature (InRelease)" \
		gpgv --keyring ./$k/public.gpg -o gpgv.$k.out InRelease.$k
	same "$k: gpgv -o recovers the text" Release.trimmed gpgv.$k.out
	check "$k: sqv checks the binary signature" \
		sqv --keyring $k/public.gpg blob.$k.sig blob
	check "$k: sqv checks the armored signature" \
		sqv --keyring $k/public.asc Release.$k.gpg Release
	# sqv checks detached signatures only: cut the cleartext one out and
	# check it over the text without its last newline (formats.md 4.5)
	sed -n '/^-----BEGIN PGP SIGNATURE-----$/,$p' InRelease.$k > inr.$k.asc
	printf '%s' "$(cat Release.trimmed)" > Release.nonl
	check "$k: sqv checks the cleartext signature" \
		sqv --keyring $k/public.gpg inr.$k.asc Release.nonl
	check "$k: padpack verify-sig checks its own signatures" bash -c \
		"'$PADPACK' verify-sig blob blob.$k.sig --keyring $k/public.gpg &&
		 '$PADPACK' verify-sig Release Release.$k.gpg --keyring $k/public.asc &&
		 '$PADPACK' verify-sig InRelease.$k --keyring $k/public.gpg -o pp.$k.out"
	same "$k: verify-sig -o recovers the text" Release pp.$k.out
done
if grep -qx -- '- -----a line that starts with dashes' InRelease.ed &&
   grep -qx -- '- From the beginning of a line' InRelease.ed &&
   grep -qx 'Hash: SHA256' InRelease.ed; then
	ok "clearsign dash-escapes '-' and 'From ' lines under a Hash header"
else
	not_ok "clearsign dash-escapes '-' and 'From ' lines under a Hash header" \
		"$(head -12 InRelease.ed)"
fi
check_fails "the signed-by line names the signer" 0 \
	"signed by   Paddle Ed <ed@example.org>.*signed on   20..-..-.. ..:..:.. UTC \(SHA256\)" \
	bash -c "'$PADPACK' verify-sig blob blob.ed.sig --keyring ed/public.gpg | tr '\n' ' '"

# ---- gpg signs, padpack checks ------------------------------------------------

gpg_key "Gpg Ed" ed25519 >/dev/null
gpg_key "Gpg Rsa" rsa3072 >/dev/null
gpg --export "Gpg Ed" "Gpg Rsa" > gpg.gpg
for k in Ed Rsa; do
	u="Gpg $k"
	gpg -q --batch -u "$u" --detach-sign -o g$k.sig blob
	gpg -q --batch -u "$u" --armor --detach-sign -o g$k.asc Release
	gpg -q --batch -u "$u" --textmode --detach-sign -o g$k.txt.sig Release
	gpg -q --batch -u "$u" --clearsign -o g$k.inr Release
	gpg -q --batch -u "$u" --digest-algo SHA512 --clearsign -o g$k.512.inr Release
	check "$k: padpack checks gpg's binary detached signature" \
		"$PADPACK" verify-sig blob g$k.sig --keyring gpg.gpg
	check "$k: padpack checks gpg's armored detached signature" \
		"$PADPACK" verify-sig Release g$k.asc --keyring gpg.gpg
	check "$k: padpack checks gpg's text-mode signature" \
		"$PADPACK" verify-sig Release g$k.txt.sig --keyring gpg.gpg
	check "$k: padpack checks gpg's cleartext signature" \
		"$PADPACK" verify-sig g$k.inr --keyring gpg.gpg -o g$k.out
	same "$k: the recovered text is the original" Release g$k.out
	check "$k: padpack checks gpg's SHA-512 cleartext signature" \
		"$PADPACK" verify-sig g$k.512.inr --keyring gpg.gpg
done
fpr=$(gpg --with-colons --list-keys "Gpg Sub" 2>/dev/null | awk -F: '/^fpr/ {print $10; exit}')
gpg_key "Gpg Sub" ed25519 cert >/dev/null
fpr=$(gpg --with-colons --list-keys "Gpg Sub" 2>/dev/null | awk -F: '/^fpr/ {print $10; exit}')
gpg --batch --passphrase '' --quick-add-key "$fpr" ed25519 sign 2>/dev/null
gpg --export "Gpg Sub" > gsub.gpg
gpg -q --batch -u "Gpg Sub" --detach-sign -o gsub.sig blob
check_fails "a signature by a signing subkey (cross-certified) is good" 0 "primary key $fpr" \
	"$PADPACK" verify-sig blob gsub.sig --keyring gsub.gpg

# ---- refusals -----------------------------------------------------------------

check_fails "a signature by another key: unknown key (12)" 12 "not in the keyring" \
	"$PADPACK" verify-sig blob blob.ed.sig --keyring rsa/public.gpg
cp blob blob.changed && printf 'x' >> blob.changed
check_fails "changed data: bad signature (11)" 11 "BAD signature" \
	"$PADPACK" verify-sig blob.changed blob.ed.sig --keyring ed/public.gpg
head -c 60 blob.rsa.sig > blob.cut.sig
check_fails "a truncated signature is refused (11)" 11 "truncated" \
	"$PADPACK" verify-sig blob blob.cut.sig --keyring rsa/public.gpg
gpg -q --batch -u "Gpg Rsa" --digest-algo SHA1 --detach-sign -o sha1.sig blob
check_fails "a SHA-1 signature is refused (11), as sqv does" 11 "uses SHA-1" \
	"$PADPACK" verify-sig blob sha1.sig --keyring gpg.gpg
# the CRC line of an armored signature, changed in its last character
sed '/^=/ s/.$/A/; /^=/ s/AA$/AB/' Release.ed.gpg > crc.asc
if ! cmp -s crc.asc Release.ed.gpg; then
	check_fails "a broken armor checksum is refused (11)" 11 "checksum mismatch" \
		"$PADPACK" verify-sig Release crc.asc --keyring ed/public.gpg
else
	not_ok "a broken armor checksum is refused (11)" "could not damage the CRC"
fi
check_fails "gpgv refuses the broken checksum too" 2 "CRC error" \
	gpgv --keyring ./ed/public.gpg crc.asc Release
check_fails "an unsigned file without SIG: not signed (10)" 10 "not a cleartext-signed" \
	"$PADPACK" verify-sig Release --keyring ed/public.gpg
sed 's/^Suite: stable/Suite: testing/' InRelease.ed > tampered.inr
check_fails "a changed cleartext line: bad signature (11)" 11 "BAD signature" \
	"$PADPACK" verify-sig tampered.inr --keyring ed/public.gpg
{ cat InRelease.ed; echo "Suite: injected"; } > trailing.inr
check_fails "text after the END line is refused, as apt does" 3 "after the END" \
	"$PADPACK" verify-sig trailing.inr --keyring ed/public.gpg
{ echo "Suite: injected"; cat InRelease.ed; } > leading.inr
check_fails "text before the BEGIN line is refused, as apt does" 3 "before the BEGIN" \
	"$PADPACK" verify-sig leading.inr --keyring ed/public.gpg
sed 's/^Hash: SHA256/Hash: SHA512/' InRelease.ed > hash.inr
check_fails "a Hash header that does not match the signature is refused" 11 "digest conflict" \
	"$PADPACK" verify-sig hash.inr --keyring ed/public.gpg
sed 's/^- -----a line/-----a line/' InRelease.ed > undashed.inr
check_fails "an unescaped dash line is refused" 3 "not dash-escaped" \
	"$PADPACK" verify-sig undashed.inr --keyring ed/public.gpg
check_fails "a keyring that is not a keyring is refused (3)" 3 "OpenPGP" \
	"$PADPACK" verify-sig blob blob.ed.sig --keyring Release
check_fails "--keyring is required" 2 "keyring is required" \
	"$PADPACK" verify-sig blob blob.ed.sig

out=$("$PADPACK" verify-sig Release Release.ed.gpg --keyring ed/public.gpg --json)
if python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["status"]=="good" and d["exit"]==0 and len(d["signer"]["fingerprint"])==40 and d["signer"]["uid"]=="Paddle Ed <ed@example.org>" and d["hash"]=="SHA512"' "$out"; then
	ok "verify-sig --json reports the signer"
else
	not_ok "verify-sig --json reports the signer" "$out"
fi
out=$("$PADPACK" verify-sig blob.changed blob.ed.sig --keyring ed/public.gpg --json 2>/dev/null)
python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["status"]=="bad-signature" and d["exit"]==11' "$out" &&
	ok "verify-sig --json reports a bad signature" ||
	not_ok "verify-sig --json reports a bad signature" "$out"

# Debian's own InRelease files, where apt left them (not on every machine)
n=0
for f in /var/lib/apt/lists/*_InRelease; do
	[ -r "$f" ] && [ -r /usr/share/keyrings/debian-archive-keyring.gpg ] || continue
	"$PADPACK" verify-sig "$f" --keyring /usr/share/keyrings/debian-archive-keyring.gpg >/dev/null &&
		gpgv --keyring /usr/share/keyrings/debian-archive-keyring.gpg "$f" 2>/dev/null ||
		{ not_ok "Debian's InRelease files verify" "$f"; n=-1; break; }
	n=$((n + 1))
done
[ $n -gt 0 ] && ok "Debian's InRelease files verify ($n, as gpgv says)"
[ $n -eq 0 ] && ok "Debian's InRelease files verify # skip: none on this machine"
true
