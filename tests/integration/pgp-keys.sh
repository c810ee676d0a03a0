#!/bin/bash
# padpack key generate / show / import, checked against gpg.
source "$(dirname "$0")/../lib.sh"
source "$TOP/tests/lib-pgp.sh"
cd "$WORK"

mode_of() { stat -c %a "$1"; }

# ---- generate --------------------------------------------------------------

check "generate ed25519" "$PADPACK" key generate \
	--uid "Paddle Release <release@example.org>" --out ed
if [ "$(mode_of ed/secret.pem)" = 600 ] && [ -s ed/public.gpg ] &&
   head -1 ed/public.asc | grep -qx -- '-----BEGIN PGP PUBLIC KEY BLOCK-----' &&
   head -1 ed/secret.pem | grep -qx -- '-----BEGIN PRIVATE KEY-----'; then
	ok "generate writes secret.pem 0600 (PKCS#8), public.gpg, public.asc"
else
	not_ok "generate writes secret.pem 0600 (PKCS#8), public.gpg, public.asc" \
		"$(ls -l ed)"
fi
check "openssl reads secret.pem as an Ed25519 key" \
	bash -c "openssl pkey -in ed/secret.pem -noout -text | grep -q ED25519"

fpr=$(fpr_of ed/public.gpg)
gpg --batch --import ed/public.asc 2>/dev/null
gfpr=$(gpg --with-colons --list-keys release@example.org | awk -F: '/^fpr/ {print $10; exit}')
if [ -n "$fpr" ] && [ "$fpr" = "$gfpr" ]; then
	ok "gpg imports public.asc with the fingerprint padpack shows"
else
	not_ok "gpg imports public.asc with the fingerprint padpack shows" \
		"padpack: $fpr" "gpg: $gfpr"
fi
if gpg --with-colons --list-keys release@example.org |
   grep -q '^pub:[^:]*:255:22:.*:scSC:'; then
	ok "gpg sees an EdDSA (22) key that can sign and certify"
else
	not_ok "gpg sees an EdDSA (22) key that can sign and certify" \
		"$(gpg --with-colons --list-keys release@example.org)"
fi
cmp -s ed/public.gpg <(gpg --dearmor < ed/public.asc) &&
	ok "public.asc is public.gpg armored" ||
	not_ok "public.asc is public.gpg armored"

out=$("$PADPACK" key show ed/public.gpg)
if grep -q '^pub  EdDSA ed25519 .*created 20..-..-.. ..:..:.. UTC \[certify, sign\]' <<<"$out" &&
   grep -q "key ID      ${fpr:24}" <<<"$out" &&
   grep -qx 'uid  Paddle Release <release@example.org>' <<<"$out"; then
	ok "key show: algorithm, curve, creation time, usage, key ID, user ID"
else
	not_ok "key show: algorithm, curve, creation time, usage, key ID, user ID" "$out"
fi

check_fails "generate never replaces a secret key" 3 "exists; padpack never replaces" \
	"$PADPACK" key generate --uid "X <x@example.org>" --out ed
check_fails "generate refuses an unknown algorithm" 2 "unknown key algorithm" \
	"$PADPACK" key generate --uid "X <x@example.org>" --algo dsa --out bad
check_fails "generate needs --uid" 2 "needs --uid" "$PADPACK" key generate --out bad

check "generate rsa4096" "$PADPACK" key generate --algo rsa4096 \
	--uid "RSA Release <rsa-release@example.org>" --out rsa
check_fails "key show: RSA 4096 bits" 0 "^pub  RSA 4096 " "$PADPACK" key show rsa/public.asc
gpg --batch --import rsa/public.gpg 2>/dev/null
if gpg --with-colons --list-keys rsa-release@example.org | grep -q '^pub:[^:]*:4096:1:'; then
	ok "gpg imports the RSA 4096 key"
else
	not_ok "gpg imports the RSA 4096 key"
fi

# ---- secret key protection ---------------------------------------------------

echo "correct horse battery" > pass
check "generate with --passphrase-file" "$PADPACK" key generate \
	--uid "Enc <enc@example.org>" --out enc --passphrase-file pass
head -1 enc/secret.pem | grep -qx -- '-----BEGIN ENCRYPTED PRIVATE KEY-----' &&
	ok "the secret key is encrypted (PKCS#8)" ||
	not_ok "the secret key is encrypted (PKCS#8)" "$(head -1 enc/secret.pem)"
echo data > data
check_fails "an encrypted key without its passphrase is refused" 3 \
	"encrypted and no passphrase" "$PADPACK" detach-sign data --key enc
echo wrong > wrong
check_fails "a wrong passphrase is refused" 3 "passphrase is wrong" \
	"$PADPACK" detach-sign data --key enc --passphrase-file wrong
check "the passphrase unlocks it" "$PADPACK" detach-sign data --key enc \
	--passphrase-file pass -o data.sig
check "gpgv checks the signature of the encrypted key" \
	gpgv --keyring ./enc/public.gpg data.sig data

chmod 644 ed/secret.pem
check_fails "a secret key others can read is refused (as ssh)" 3 \
	"accessible by others \(mode 0644\).*chmod 600" \
	"$PADPACK" detach-sign data --key ed
chmod 640 ed/secret.pem
check_fails "a secret key the group can read is refused" 3 "mode 0640" \
	"$PADPACK" sign whatever.deb --key ed/secret.pem
chmod 600 ed/secret.pem
cp ed/secret.pem lone.pem
mkdir other && cp rsa/public.gpg other/ && cp ed/secret.pem other/
check_fails "a secret key without its public.gpg is refused" 4 "public.gpg" \
	"$PADPACK" detach-sign data --key lone.pem
check_fails "a public.gpg for another key is refused" 3 "no public key matching" \
	"$PADPACK" detach-sign data --key other

# ---- show: keys gpg made ------------------------------------------------------

gfpr=$(gpg_key "Gpg Default" future-default)
gpg --export "Gpg Default" > gdef.gpg
out=$("$PADPACK" key show gdef.gpg)
if grep -q "fingerprint $gfpr" <<<"$out" &&
   grep -q '^sub  ECDH cv25519 .*\[encrypt\]' <<<"$out" &&
   grep -q '^uid  Gpg Default <gpg-default@example.org>' <<<"$out"; then
	ok "key show: gpg's default key (ed25519 + cv25519 subkey)"
else
	not_ok "key show: gpg's default key (ed25519 + cv25519 subkey)" "$out"
fi
subfpr=$(gpg --with-colons --list-keys "Gpg Default" | awk -F: '/^fpr/ {print $10}' | sed -n 2p)
grep -q "fingerprint $subfpr" <<<"$out" && ok "key show: the subkey's fingerprint is gpg's" ||
	not_ok "key show: the subkey's fingerprint is gpg's" "$out" "gpg: $subfpr"

grfpr=$(gpg_key "Gpg Rsa" rsa3072)
gpg --armor --export "Gpg Rsa" > grsa.asc
check_fails "key show: gpg's RSA 3072 key, armored" 0 "RSA 3072 .*fingerprint $grfpr|fingerprint $grfpr" \
	bash -c "'$PADPACK' key show grsa.asc | tr '\n' ' '"
cat gdef.gpg <(gpg --dearmor < grsa.asc) > ring.gpg
n=$("$PADPACK" key show ring.gpg | grep -c '^pub ')
[ "$n" = 2 ] && ok "key show: a keyring of two keys" || not_ok "key show: a keyring of two keys" "got $n"

if [ -r /usr/share/keyrings/debian-archive-keyring.gpg ]; then
	check_fails "key show: Debian's archive keyring" 0 "ftpmaster@debian.org" \
		"$PADPACK" key show /usr/share/keyrings/debian-archive-keyring.gpg
fi
check_fails "key show refuses gpg's keybox" 3 "keybox" \
	"$PADPACK" key show "$GNUPGHOME/pubring.kbx"
check_fails "key show refuses a non-key file" 3 "not start an OpenPGP packet|no OpenPGP" \
	"$PADPACK" key show data

# ---- show: keys padpack does not read ------------------------------------------

for v in 3 5 6; do
	python3 "$TOP/tests/tools/craft-key.py" version $v ed/public.gpg v$v.gpg
	check_fails "key show refuses a version $v key, saying why" 3 \
		"packet at offset 0: key version $v is not supported \(only v4\): " \
		"$PADPACK" key show v$v.gpg
done
cat gdef.gpg v5.gpg > ring-v5.gpg
check_fails "key show refuses a keyring holding a version 5 key after good ones" 3 \
	"ring-v5.gpg: packet at offset [1-9][0-9]*: key version 5 is not supported" \
	"$PADPACK" key show ring-v5.gpg
python3 "$TOP/tests/tools/craft-key.py" empty-mpi ed/public.gpg empty-mpi.gpg
check_fails "key show refuses an RSA key whose modulus is an MPI of zero length" 3 \
	"MPI of zero length in the RSA key material" \
	"$PADPACK" key show empty-mpi.gpg
check_fails "verify-sig refuses a keyring holding a version 6 key" 3 \
	"key version 6 is not supported" \
	"$PADPACK" verify-sig data data --keyring v6.gpg

# ---- import -------------------------------------------------------------------

gefpr=$(gpg_key "Gpg Ed" ed25519)
gpg --batch --passphrase '' --export-secret-keys "Gpg Ed" > ged.sec
gpg --export "Gpg Ed" > ged.gpg
check_fails "import an Ed25519 key from gpg" 0 "imported signing key $gefpr" \
	"$PADPACK" key import ged.sec --out imp-ed
gpg --batch --passphrase '' --armor --export-secret-keys "Gpg Rsa" > grsa.sec.asc
gpg --export "Gpg Rsa" > grsa.gpg
check_fails "import an armored RSA key from gpg" 0 "imported signing key $grfpr" \
	"$PADPACK" key import grsa.sec.asc --out imp-rsa
[ "$(mode_of imp-rsa/secret.pem)" = 600 ] && ok "import writes secret.pem 0600" ||
	not_ok "import writes secret.pem 0600" "$(ls -l imp-rsa)"
for k in ed rsa; do
	ring=$([ $k = ed ] && echo ged.gpg || echo grsa.gpg)
	"$PADPACK" detach-sign data --key imp-$k -o data.$k.sig -q
	check "gpgv checks a signature by the imported $k key with gpg's public key" \
		gpgv --keyring "./$ring" data.$k.sig data
done
cmp -s imp-ed/public.gpg <(gpg --export "Gpg Ed") &&
	ok "import keeps gpg's public key packets as they are" ||
	not_ok "import keeps gpg's public key packets as they are"

gpg --batch --passphrase pw --quick-gen-key "Gpg Locked <locked@example.org>" ed25519 default never 2>/dev/null
gpg --batch --pinentry-mode loopback --passphrase pw --export-secret-keys "Gpg Locked" > locked.sec 2>/dev/null
check_fails "import refuses a passphrase-protected export, saying why" 3 \
	"protected by a passphrase" "$PADPACK" key import locked.sec --out imp-locked
check_fails "import refuses a public key" 3 "public key, no secret key" \
	"$PADPACK" key import ged.gpg --out imp-pub
head -c 100 ged.sec > cut.sec
check_fails "import refuses a truncated export" 3 "truncated" \
	"$PADPACK" key import cut.sec --out imp-cut
