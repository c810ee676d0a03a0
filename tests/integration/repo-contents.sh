#!/bin/bash
# Contents indices: <component>/Contents-<arch>.gz for a suite made with
# --contents, every file of its packages with the packages that ship it,
# kept incrementally (db/contents), and apt-file searching them from a
# private apt root.
source "$(dirname "$0")/../lib.sh"
APT=$TOP/tests/tools/apt-private.sh

make_deb() { # NAME ARCH SECTION FILE...
	local name=$1 arch=$2 section=$3 t=$WORK/mk/$1-$2 f; shift 3
	mkdir -p "$t/DEBIAN"
	printf 'Package: %s\nVersion: 1.0\nArchitecture: %s\nSection: %s\nMaintainer: T <t@example.org>\nDescription: contents test\n' \
		"$name" "$arch" "$section" > "$t/DEBIAN/control"
	for f in "$@"; do mkdir -p "$t/$(dirname "$f")"; echo "$name" > "$t/$f"; done
	SOURCE_DATE_EPOCH=1700000000 "$PADPACK" pack -q "$t" "$WORK/debs/${name}_1.0_$arch.deb"
}
mkdir -p "$WORK/debs"
make_deb tool amd64 devel usr/bin/tool usr/share/doc/tool/README
make_deb tool arm64 devel usr/bin/tool usr/share/doc/tool/README
make_deb common all utils usr/share/common/data usr/share/shared/file
make_deb other all misc usr/share/shared/file
make_deb late amd64 net usr/sbin/late

R=$WORK/repo
check "init --contents" "$PADPACK" repo init "$R" --contents --architectures amd64,arm64
check "conf/distributions records it" grep -qx 'Contents: yes' "$R/conf/distributions"
"$PADPACK" repo add "$R" --publish --unsigned "$WORK"/debs/{tool_1.0_amd64,tool_1.0_arm64,common_1.0_all,other_1.0_all}.deb > /dev/null
C=$R/dists/stable/main
cat > "$WORK/want" <<'EOF'
usr/bin/tool                                            devel/tool
usr/share/common/data                                   utils/common
usr/share/doc/tool/README                               devel/tool
usr/share/shared/file                                   utils/common,misc/other
EOF
check "Contents-amd64.gz: every file, sorted, with section/package" bash -c "zcat '$C/Contents-amd64.gz' | cmp - '$WORK/want'"
check "Contents-arm64.gz: the arm64 and all packages' files" bash -c "zcat '$C/Contents-arm64.gz' | cmp - '$WORK/want'"
check "Release lists them (plain and .gz), and by-hash has them" bash -c "
	sha=\$(sed -n '/^SHA256:/,\$p' '$R/dists/stable/Release' | awk '\$3 == \"main/Contents-amd64.gz\" {print \$1}') &&
	[ -n \"\$sha\" ] && zcat '$C/Contents-amd64.gz' | cmp - '$C/Contents-amd64' &&
	grep -q ' main/Contents-amd64\$' '$R/dists/stable/Release' && cmp '$C/Contents-amd64.gz' '$C/by-hash/SHA256/'\$sha"
check "repo verify" "$PADPACK" repo verify "$R"

# Incremental: the lists come from db/contents; only a new or changed pool
# file's data archive is listed again. A list changed by hand shows that.
sed -i 's|^usr/share/common/data$|usr/share/common/data-from-the-cache|' "$R/db/contents"
"$PADPACK" repo add "$R" --publish --unsigned "$WORK/debs/late_1.0_amd64.deb" > /dev/null
check "a publish takes unchanged packages' files from db/contents" bash -c "zcat '$C/Contents-amd64.gz' | grep -q '^usr/share/common/data-from-the-cache '"
check "and lists the added package's" bash -c "zcat '$C/Contents-amd64.gz' | grep -qE '^usr/sbin/late +net/late$'"
check "not in arm64's" bash -c "! zcat '$C/Contents-arm64.gz' | grep -q late"
# A publish does not stat the pool: a pool file changed on disk is read
# again (its files listed again) by publish --full.
touch "$R/pool/main/c/common/common_1.0_all.deb"
"$PADPACK" repo publish "$R" --unsigned --full > /dev/null
check "a pool file changed on disk is listed again after publish --full" bash -c "zcat '$C/Contents-amd64.gz' | grep -qE '^usr/share/common/data +utils/common$' &&
	! zcat '$C/Contents-amd64.gz' | grep -q from-the-cache"
"$PADPACK" repo remove "$R" other > /dev/null
"$PADPACK" repo publish "$R" --unsigned > /dev/null
check "a removed package leaves Contents and db/contents" bash -c "zcat '$C/Contents-amd64.gz' | grep -qE '^usr/share/shared/file +utils/common$' &&
	! grep -q 'other' '$R/db/contents'"
printf 'garbage\n' > "$R/db/contents"
"$PADPACK" repo publish "$R" --unsigned > /dev/null
check "a damaged db/contents is made again from the pool" bash -c "zcat '$C/Contents-amd64.gz' | grep -qE '^usr/sbin/late +net/late$' && grep -q '^pool/main/l/late/' '$R/db/contents'"

# Two versions of a package kept (--keep), or its "all" and amd64 builds,
# ship the same paths: each line names the package once.
sed 's/^Version: 1.0$/Version: 2.0/' "$WORK/mk/tool-amd64/DEBIAN/control" > "$WORK/control.2" &&
	cp "$WORK/control.2" "$WORK/mk/tool-amd64/DEBIAN/control" &&
	SOURCE_DATE_EPOCH=1700000000 "$PADPACK" pack -q "$WORK/mk/tool-amd64" "$WORK/debs/tool_2.0_amd64.deb"
make_deb late all net usr/sbin/late
"$PADPACK" repo add "$R" --publish --unsigned "$WORK/debs/tool_2.0_amd64.deb" "$WORK/debs/late_1.0_all.deb" > /dev/null
check "a path that two versions of a package ship names it once" bash -c "
	zcat '$C/Contents-amd64.gz' | grep -qE '^usr/bin/tool +devel/tool$' &&
	zcat '$C/Contents-amd64.gz' | grep -qE '^usr/sbin/late +net/late$'"

# apt-file, from a private root with apt-file's index targets.
A=$WORK/apt
mkdir -p "$A/etc/apt.conf.d"
cp /etc/apt/apt.conf.d/50apt-file.conf "$A/etc/apt.conf.d/"
check "apt-get update fetches Contents" bash -c "'$APT' '$A' 'deb [trusted=yes] file:$R stable main' update > /dev/null &&
	ls '$A/lists' | grep -q 'Contents-amd64'"
check "apt-file search finds the package of a file" bash -c "APT_CONFIG='$A/apt.conf' apt-file search usr/sbin/late | grep -qx 'late: /usr/sbin/late'"
check "apt-file list names a package's files" bash -c "APT_CONFIG='$A/apt.conf' apt-file list tool | tr '\n' ' ' | grep -qx 'tool: /usr/bin/tool tool: /usr/share/doc/tool/README '"
check "a suite without --contents has none" bash -c "'$PADPACK' repo init '$WORK/plain' > /dev/null && '$PADPACK' repo add '$WORK/plain' --publish --unsigned '$WORK/debs/late_1.0_amd64.deb' > /dev/null &&
	! ls '$WORK/plain/dists/stable/main' | grep -q Contents && ! grep -q Contents '$WORK/plain/dists/stable/Release'"
