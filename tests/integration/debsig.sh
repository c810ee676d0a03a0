#!/bin/bash
# padpack sign / verify: debsigs origin signatures, both ways with
# debsigs and debsig-verify, and the md5sums check of padpack verify.
source "$(dirname "$0")/../lib.sh"
source "$TOP/tests/lib-pgp.sh"
cd "$WORK"

origins() { ar t "$1" | grep -c '^_gpgorigin$'; }
members() { ar t "$1" | tr '\n' ' '; }

make_pkg hello.deb
"$PADPACK" key generate --uid "Paddle Ed <ed@example.org>" --out ed >/dev/null
"$PADPACK" key generate --algo rsa3072 --uid "Paddle Rsa <rsa@example.org>" \
	--out rsa >/dev/null

# ---- padpack signs, debsig-verify checks -------------------------------------

for k in ed rsa; do
	cp hello.deb $k.deb
	check_fails "$k: sign" 0 "signed '$k.deb' with key" \
		"$PADPACK" sign $k.deb --key $k
	m=$(members $k.deb)
	[ "$m" = "debian-binary control.tar.xz data.tar.xz _gpgorigin " ] &&
		ok "$k: _gpgorigin follows data.tar, as debsigs puts it" ||
		not_ok "$k: _gpgorigin follows data.tar, as debsigs puts it" "$m"
	debsig_root root.$k "$(key_id $k)" $k/public.gpg
	check_fails "$k: debsig-verify accepts the package" 0 "Verified package" \
		debsig-verify --root "$WORK/root.$k" $k.deb
	check_fails "$k: padpack verify accepts it" 0 \
		"good origin signature.*signed by   Paddle .*content     2 of 2 files checked against md5sums" \
		bash -c "'$PADPACK' verify $k.deb --keyring $k/public.gpg | tr '\n' ' '"
	check "$k: dpkg-deb still reads the package" dpkg-deb --info $k.deb
done
for m in debian-binary control.tar.xz data.tar.xz; do
	cmp -s <(ar p hello.deb $m) <(ar p ed.deb $m) ||
		{ not_ok "signing leaves the members as they were" "$m differs"; break; }
done && ok "signing leaves the members as they were"

cp ed.deb resigned.deb
"$PADPACK" sign resigned.deb --key ed -q
"$PADPACK" sign resigned.deb --key ed -q
[ "$(origins resigned.deb)" = 1 ] && ok "signing again replaces the signature, never stacks" ||
	not_ok "signing again replaces the signature, never stacks" "$(members resigned.deb)"
check "debsig-verify accepts the re-signed package" \
	debsig-verify --root "$WORK/root.ed" resigned.deb
"$PADPACK" sign resigned.deb --key rsa -q
check_fails "re-signing by another key replaces the old key's signature" 12 "not in the keyring" \
	"$PADPACK" verify resigned.deb --keyring ed/public.gpg

cp hello.deb orig.deb
check "sign -o writes another file" "$PADPACK" sign hello.deb --key ed -o out.deb -q
same "sign -o leaves the input alone" orig.deb hello.deb
check "the -o output verifies" "$PADPACK" verify out.deb --keyring ed/public.gpg
check_fails "signing a non-package fails (3)" 3 "not a Debian package" \
	"$PADPACK" sign ed/public.asc --key ed
check_fails "signing with a missing key fails" 4 "cannot open" \
	"$PADPACK" sign hello.deb --key nokey
same "a failed sign leaves the package alone" orig.deb hello.deb
left=$(ls -A | grep '^\.' || true)
[ -z "$left" ] && ok "a failed sign leaves no temporary file" ||
	not_ok "a failed sign leaves no temporary file" "$left"

# ---- debsigs signs, padpack checks -------------------------------------------

gpg_key "Gpg Ed" ed25519 >/dev/null
gpg_key "Gpg Rsa" rsa3072 >/dev/null
gpg --export "Gpg Ed" > gpg-ed.gpg
gpg --export "Gpg Rsa" > gpg-rsa.gpg
cp hello.deb ds-ed.deb
debsigs --sign=origin -k "Gpg Ed" ds-ed.deb 2>/dev/null
check_fails "padpack verify accepts debsigs --sign=origin (Ed25519)" 0 \
	"signed by   Gpg Ed <gpg-ed@example.org>" \
	"$PADPACK" verify ds-ed.deb --keyring gpg-ed.gpg
# debsigs runs gpg --openpgp, which signs with SHA-1 for RSA keys unless
# told otherwise; padpack refuses SHA-1, as sqv does
cp hello.deb ds-rsa1.deb
debsigs --sign=origin -k "Gpg Rsa" ds-rsa1.deb 2>/dev/null
check_fails "debsigs' default SHA-1 signature (RSA) is refused: unsupported hash" 11 \
	"uses SHA-1.*sign with SHA-256 or SHA-512" \
	"$PADPACK" verify ds-rsa1.deb --keyring gpg-rsa.gpg
echo "personal-digest-preferences SHA512" > "$GNUPGHOME/gpg.conf"
cp hello.deb ds-rsa.deb
debsigs --sign=origin -k "Gpg Rsa" ds-rsa.deb 2>/dev/null
rm "$GNUPGHOME/gpg.conf"
check_fails "padpack verify accepts debsigs --sign=origin (RSA, SHA-512)" 0 \
	"signed by   Gpg Rsa .*SHA512" \
	bash -c "'$PADPACK' verify ds-rsa.deb --keyring gpg-rsa.gpg | tr '\n' ' '"
cp ds-ed.deb ds-resigned.deb
"$PADPACK" sign ds-resigned.deb --key ed -q
[ "$(origins ds-resigned.deb)" = 1 ] &&
	check "padpack sign replaces a debsigs signature" \
		"$PADPACK" verify ds-resigned.deb --keyring ed/public.gpg ||
	not_ok "padpack sign replaces a debsigs signature" "$(members ds-resigned.deb)"

# ---- verdicts ---------------------------------------------------------------------

check_fails "an unsigned package: not signed (10)" 10 "is not signed" \
	"$PADPACK" verify hello.deb --keyring ed/public.gpg
check_fails "debsig-verify agrees: no origin signature (10)" 10 "" \
	debsig-verify --root "$WORK/root.ed" hello.deb
check_fails "a package signed by another key: unknown key (12)" 12 \
	"signed by key [0-9A-F]{40}, which is not in the keyring" \
	"$PADPACK" verify ed.deb --keyring rsa/public.gpg
check_json "verify --json: a package signed by another key: unknown-key, the signer's key ID" \
	'd["status"] == "unknown-key" and d["exit"] == 12 and len(d["signer"]["key_id"]) == 16 and "fingerprint" not in d["signer"] and "files" not in d' \
	"$PADPACK" verify ed.deb --keyring rsa/public.gpg --json
python3 - ed.deb bad.deb <<'EOF'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
at = d.index(b'data.tar.xz') + 60 + 200  # inside the data member
d[at] ^= 0x01
open(sys.argv[2], 'wb').write(d)
EOF
check_fails "a changed byte in data.tar: bad signature (11)" 11 "BAD signature" \
	"$PADPACK" verify bad.deb --keyring ed/public.gpg
check_fails "debsig-verify agrees: verification failed (13)" 13 "" \
	debsig-verify --root "$WORK/root.ed" bad.deb
head -c $(($(stat -c %s ed.deb) - 40)) ed.deb > cut.deb
check_fails "a truncated package: malformed (3)" 3 "truncated" \
	"$PADPACK" verify cut.deb --keyring ed/public.gpg

# set_origin IN OUT FILE: IN with its _gpgorigin member's content replaced
set_origin() {
	python3 - "$@" <<'EOF'
import sys
d = open(sys.argv[1], 'rb').read()
sig = open(sys.argv[3], 'rb').read()
pos, out = 8, [d[:8]]
while pos < len(d):
    hdr = d[pos:pos + 60]
    size = int(hdr[48:58])
    body = d[pos + 60:pos + 60 + size]
    if hdr[:16].rstrip() == b'_gpgorigin':
        hdr = hdr[:48] + b'%-10d' % len(sig) + hdr[58:]
        body = sig
    out += [hdr, body, b'\n' if len(body) & 1 else b'']
    pos += 60 + size + (size & 1)
open(sys.argv[2], 'wb').write(b''.join(out))
EOF
}
ar p ed.deb _gpgorigin > origin.sig
head -c $(($(stat -c %s origin.sig) - 20)) origin.sig > origin.cut
set_origin ed.deb cutsig.deb origin.cut
check_fails "a package whose signature is truncated: bad signature (11)" 11 \
	"origin signature: malformed signature.*truncated" \
	"$PADPACK" verify cutsig.deb --keyring ed/public.gpg
python3 - origin.sig origin.asc <<'EOF'
import base64, sys
sig = open(sys.argv[1], 'rb').read()
crc = 0xB704CE
for b in sig:
    crc ^= b << 16
    for _ in range(8):
        crc <<= 1
        if crc & 0x1000000:
            crc ^= 0x1864CFB
crc &= 0xFFFFFF
b64 = base64.b64encode(sig).decode()
lines = [b64[i:i + 64] for i in range(0, len(b64), 64)]
good = '=' + base64.b64encode(crc.to_bytes(3, 'big')).decode()
bad = '=' + base64.b64encode((crc ^ 1).to_bytes(3, 'big')).decode()
for name, c in ((sys.argv[2], good), (sys.argv[2] + '.bad', bad)):
    open(name, 'w').write('-----BEGIN PGP SIGNATURE-----\n\n' + '\n'.join(lines) +
                          '\n' + c + '\n-----END PGP SIGNATURE-----\n')
EOF
set_origin ed.deb armored.deb origin.asc
check "an armored origin signature is accepted (as debsig-verify does)" \
	"$PADPACK" verify armored.deb --keyring ed/public.gpg
set_origin ed.deb crc.deb origin.asc.bad
check_fails "an armored origin signature with a broken checksum: bad signature (11)" 11 \
	"checksum mismatch" "$PADPACK" verify crc.deb --keyring ed/public.gpg

# dpkg-deb writes no md5sums of its own
make_tree nosums
dpkg-deb --root-owner-group -b nosums nosums.deb >/dev/null
"$PADPACK" sign nosums.deb --key ed -q
check_fails "a package without md5sums verifies on its signature alone" 0 \
	"no md5sums in the package: verified by its signature alone" \
	"$PADPACK" verify nosums.deb --keyring ed/public.gpg
make_tree wrongsums
(cd wrongsums && find usr -type f | sort | xargs md5sum) > wrongsums/DEBIAN/md5sums
sed -i 's/^[0-9a-f]\{4\}\(.*README\)$/0000\1/' wrongsums/DEBIAN/md5sums
dpkg-deb --root-owner-group -b wrongsums wrongsums.deb >/dev/null
"$PADPACK" sign wrongsums.deb --key ed -q
check_fails "signed, but a file differs from md5sums: mismatch (13)" 13 \
	"differs     usr/share/doc/hello/README" \
	"$PADPACK" verify wrongsums.deb --keyring ed/public.gpg
# members of 1 MiB and more are hashed on two more threads (smaller ones on
# the reading thread): the same checks
make_tree big
mkdir -p big/usr/share/big
for i in $(seq 1 24); do head -c 65536 /dev/urandom > big/usr/share/big/f$i; done
(cd big && find usr -type f | sort | xargs md5sum) > big/DEBIAN/md5sums
dpkg-deb --root-owner-group -Znone -b big big.deb >/dev/null
"$PADPACK" sign big.deb --key ed -q
check_fails "a 1.5 MiB package: every file checked against md5sums" 0 \
	"content     26 of 26 files checked against md5sums" \
	"$PADPACK" verify big.deb --keyring ed/public.gpg
sed -i 's/^[0-9a-f]\{4\}\(.*big\/f17\)$/0000\1/' big/DEBIAN/md5sums
dpkg-deb --root-owner-group -Znone -b big big.deb >/dev/null
"$PADPACK" sign big.deb --key ed -q
check_fails "a 1.5 MiB package whose file differs from md5sums: mismatch (13)" 13 \
	"differs     usr/share/big/f17" \
	"$PADPACK" verify big.deb --keyring ed/public.gpg
printf 'not an md5sums line\n' > wrongsums/DEBIAN/md5sums
dpkg-deb --root-owner-group -b wrongsums badsums.deb >/dev/null
"$PADPACK" sign badsums.deb --key ed -q
check_fails "a malformed md5sums: malformed (3)" 3 "md5sums line 1" \
	"$PADPACK" verify badsums.deb --keyring ed/public.gpg

json() { "$PADPACK" verify "$@" --json 2>/dev/null; }
out=$(json ed.deb --keyring ed/public.gpg)
python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["status"] == "good" and d["exit"] == 0 and d["signed"]
assert d["signer"]["uid"] == "Paddle Ed <ed@example.org>"
assert len(d["signer"]["fingerprint"]) == 40 and d["signed_at"].endswith("Z")
assert d["md5sums"] and d["files"] == 2 and d["files_checked"] == 2
assert d["mismatched"] == []' "$out" && ok "verify --json: a good package" ||
	not_ok "verify --json: a good package" "$out"
for case in "hello.deb unsigned 10" "bad.deb bad-signature 11" \
	    "wrongsums.deb content-mismatch 13" "cut.deb malformed 3"; do
	set -- $case
	out=$(json $1 --keyring ed/public.gpg)
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["status"] == sys.argv[2] and d["exit"] == int(sys.argv[3]), d
assert d["error"]' "$out" $2 $3 && ok "verify --json: $2 ($3)" ||
		not_ok "verify --json: $2 ($3)" "$out"
done
check_json "verify --json: a bad signature (through json.tool)" \
	'd["status"] == "bad-signature" and d["exit"] == 11 and d["signed"] is True and "bad" in d["file"] and d["error"]' \
	"$PADPACK" verify bad.deb --keyring ed/public.gpg --json
out=$(json nosums.deb --keyring ed/public.gpg)
python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["md5sums"] is False and d["status"] == "good"' "$out" &&
	ok "verify --json says when there are no md5sums" ||
	not_ok "verify --json says when there are no md5sums" "$out"

# other compressions
rm -rf ztree && make_tree ztree
SOURCE_DATE_EPOCH=1700000000 "$PADPACK" pack -q -Z zstd ztree z.deb
SOURCE_DATE_EPOCH=1700000000 "$PADPACK" pack -q -Z none ztree n.deb
"$PADPACK" sign z.deb --key ed -q && "$PADPACK" sign n.deb --key ed -q
check "zstd and uncompressed packages sign and verify" bash -c \
	"'$PADPACK' verify z.deb --keyring ed/public.gpg &&
	 '$PADPACK' verify n.deb --keyring ed/public.gpg"

# a sparse file (GNU tar --sparse): its holes are zeros for md5sums
mkdir -p sparse/root/usr/share sparse/ctl
truncate -s 100K sparse/root/usr/share/sparse
printf 'data' | dd of=sparse/root/usr/share/sparse bs=1 seek=50000 conv=notrunc 2>/dev/null
truncate -s 300K sparse/root/usr/share/sparse
(cd sparse/root && md5sum usr/share/sparse) > sparse/ctl/md5sums
printf 'Package: sparse\nVersion: 1\nArchitecture: all\nMaintainer: X <x@example.org>\nDescription: x\n' \
	> sparse/ctl/control
(cd sparse && tar -C ctl -cf control.tar ./control ./md5sums &&
 tar -C root --sparse --format=gnu -cf data.tar ./usr &&
 printf '2.0\n' > debian-binary && ar rc ../sparse.deb debian-binary control.tar data.tar)
"$PADPACK" sign sparse.deb --key ed -q
check_fails "a sparse file's holes count as zeros in the md5sums check" 0 \
	"1 of 1 file checked against md5sums" \
	"$PADPACK" verify sparse.deb --keyring ed/public.gpg
