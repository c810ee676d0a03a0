#!/bin/bash
# Writes the seed inputs of the fuzz targets to build-fuzz/seeds/NAME (or
# OUT/NAME): small .debs and tar archives of the test fixtures in every
# compression, control files, versions, a published repository's Release,
# Packages, member list and cache, the test specs, and small ELF files
# (programs, libraries, objects, an archive) from this machine. Made at
# run time, not committed; kept until the inputs they come from change
# (make clean, or rm -r build-fuzz/seeds, makes them again).
#   tests/fuzz/make-seeds.sh [OUT]
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:-$TOP/build-fuzz/seeds}
PADPACK=${PADPACK:-$TOP/padpack}
stamp=$OUT/.made
[ -f "$stamp" ] && [ "$stamp" -nt "$0" ] && [ "$stamp" -nt "$TOP/tests/deb-fixtures.sh" ] && exit 0
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
rm -rf "$OUT"
mkdir -p "$OUT"/{ar,deb,tar,control,version,release,repo-db,spec,elf,isa}
source "$TOP/tests/deb-fixtures.sh"

# .debs and tar archives of the fixture trees (fx_full's random file
# made small: seeds stay under the targets' -max_len).
for fx in $FIXTURES; do
	make_fixture "$fx" "$WORK/$fx"
	[ "$fx" = full ] && head -c 300 /dev/urandom > "$WORK/full/usr/share/fx-full/random.bin"
	# xz at level 0: a 256 KiB dictionary, which every read allocates
	# (8 MiB at the default level, most of a run's time under ASan)
	for z in none gzip xz zstd; do
		dpkg-deb --root-owner-group -Z"$z" $([ $z = xz ] && echo -z0) \
			-b "$WORK/$fx" \
			"$OUT/deb/$fx-$z.deb" >/dev/null
	done
	cp "$OUT/deb/$fx-none.deb" "$OUT/ar/$fx.deb"
	for f in gnu ustar pax; do
		tar -b 1 --format=$f -C "$WORK/$fx" -cf "$OUT/tar/$fx-$f.tar" \
			--exclude=./DEBIAN . 2>/dev/null || true
	done
	tar -b 1 -C "$WORK/$fx/DEBIAN" -cf "$OUT/tar/$fx-control.tar" .
	cp "$WORK/$fx/DEBIAN/control" "$OUT/control/$fx"
done
# padpack's own packages: with md5sums, which verify compares with the data
if [ -x "$PADPACK" ]; then
	for fx in $FIXTURES; do
		for z in none xz; do
			"$PADPACK" pack -q -Z $z $([ $z = xz ] && echo -z0) "$WORK/$fx" \
				"$OUT/deb/$fx-padpack-$z.deb" 2>/dev/null || true
		done
	done
	# signed with the fuzzers' key (fuzz-deb verifies with it): verify
	# reads them through to comparing md5sums, one of which is wrong
	mkdir -p "$WORK/badsum"
	cp -a "$WORK/full/." "$WORK/badsum/"
	find "$WORK/badsum" -path '*/DEBIAN' -prune -o -type f -printf '%P\n' |
		sort | sed 's/^/00000000000000000000000000000000  /' \
		> "$WORK/badsum/DEBIAN/md5sums"
	dpkg-deb --root-owner-group -Znone -b "$WORK/badsum" \
		"$WORK/badsum.deb" >/dev/null
	# (a copy: git keeps secret.pem readable by others, which sign refuses)
	cp -r "$TOP/tests/fuzz/deb-key" "$WORK/key"
	chmod 600 "$WORK/key/secret.pem"
	for f in "$OUT"/deb/*-padpack-*.deb "$WORK/badsum.deb"; do
		[ -f "$f" ] || continue
		b=${f##*/}
		"$PADPACK" sign -q "$f" --key "$WORK/key" \
			-o "$OUT/deb/signed-$b"
	done
fi
# an ar archive that is not a .deb: a static library
printf 'int f(void) { return 1; }\n' > "$WORK/f.c"
cc -c -o "$WORK/f.o" "$WORK/f.c"
ar rcs "$OUT/ar/libf.a" "$WORK/f.o"

# control data: package stanzas as dpkg keeps them, and relationship fields
awk -v RS= 'NR <= 20 { printf "%s\n", $0 > (out "/status-" NR) }' \
	out="$OUT/control" /var/lib/dpkg/status
printf 'libc6 (>= 2.34) | libc6.1, dpkg (>= 1.19), foo:any (<< 2~rc1) [amd64] <!nocheck>\n' \
	> "$OUT/control/depends"

# versions: pairs, one a line
i=0
while read -r a b; do
	i=$((i + 1))
	printf '%s\n%s\n' "$a" "$b" > "$OUT/version/v$i"
done <<'VERSIONS'
1.0 1.0-1
1:2.3~rc1-0ubuntu1 1:2.3
2.34-0ubuntu3.2 2.34-0ubuntu3.10
0~20240101+git.abc 0.0.1
1.2.3+dfsg-1~bpo12+1 1.2.3+dfsg-1
VERSIONS

# a published repository: Release, Packages (plain and compressed),
# conf/distributions, the member list and the cache
if [ -x "$PADPACK" ]; then
	R=$WORK/repo
	"$PADPACK" repo init "$R" --origin Fuzz --label Fuzz \
		--architectures amd64,arm64 --valid-for 7 >/dev/null
	"$PADPACK" repo add "$R" $(for fx in $FIXTURES; do echo "$OUT/deb/$fx-xz.deb"; done) >/dev/null
	"$PADPACK" repo publish "$R" --unsigned >/dev/null
	for d in "$R"/dists/*/; do
		s=$(basename "$d")
		for p in "$d"main/binary-amd64/Packages*; do
			{ cat "$d/Release"; printf '\0'; cat "$p"; } \
				> "$OUT/release/$s-$(basename "$p")"
		done
	done
	cp "$R/conf/distributions" "$OUT/repo-db/distributions"
	cp "$R"/db/*.list "$OUT/repo-db/" 2>/dev/null || true
	cp "$R/db/cache" "$OUT/repo-db/cache"
fi

# specs
cp "$TOP/tests/data/tiny.cfg" "$OUT/spec/"
cp "$TOP/pkg/paddle.cfg" "$TOP/pkg/paddle-separate.cfg" "$OUT/spec/"
for f in "$TOP"/pkg/example/*.cfg; do [ -f "$f" ] && cp "$f" "$OUT/spec/"; done

# ELF files: a few small programs and libraries, an object, an archive
for f in /usr/bin/true /usr/bin/env /usr/lib/x86_64-linux-gnu/libdl.so.2 \
	 /usr/lib/x86_64-linux-gnu/librt.so.1 /usr/lib/x86_64-linux-gnu/libutil.so.1 \
	 "$WORK/f.o" "$OUT/ar/libf.a"; do
	[ -f "$f" ] || continue
	[ "$(stat -Lc %s "$f")" -le 65536 ] || continue
	cp -L "$f" "$OUT/elf/"
	cp -L "$f" "$OUT/isa/"
done
printf '#include <immintrin.h>\n__attribute__((target("avx2"))) void k(float *a) { _mm256_storeu_ps(a, _mm256_setzero_ps()); }\n' > "$WORK/avx.c"
cc -O2 -c -o "$OUT/isa/avx.o" "$WORK/avx.c" && cp "$OUT/isa/avx.o" "$OUT/elf/"
touch "$stamp"
