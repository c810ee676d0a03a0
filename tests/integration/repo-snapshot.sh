#!/bin/bash
# Snapshots and promotion: repo snapshot freezes a suite's packages, repo
# publish --from-snapshot makes another suite serve exactly them, repo
# diff says what changed between suites and snapshots, and a snapshot's
# pool files stay while it exists.
source "$(dirname "$0")/../lib.sh"
APT=$TOP/tests/tools/apt-private.sh

make_deb() { # NAME VERSION [ARCH]
	local t=$WORK/mk/$1-$2 arch=${3:-all}
	mkdir -p "$t/DEBIAN" "$t/usr/share/$1"
	printf 'Package: %s\nVersion: %s\nArchitecture: %s\nMaintainer: T <t@example.org>\nDescription: snapshot test\n' \
		"$1" "$2" "$arch" > "$t/DEBIAN/control"
	echo "$1 $2" > "$t/usr/share/$1/version"
	SOURCE_DATE_EPOCH=1700000000 "$PADPACK" pack -q "$t" "$WORK/debs/$1_$2_$arch.deb"
}
mkdir -p "$WORK/debs"
make_deb paddle 0.11.0-1; make_deb paddle 0.12.0-1; make_deb paddle 0.10.0-1
make_deb other 1.0; make_deb newpkg 2.0; make_deb armonly 1.0 arm64

R=$WORK/repo
"$PADPACK" repo init "$R" --suite testing > /dev/null
"$PADPACK" repo init "$R" --suite stable > /dev/null
"$PADPACK" repo add "$R" --suite testing "$WORK/debs/paddle_0.11.0-1_all.deb" "$WORK/debs/other_1.0_all.deb" > /dev/null
"$PADPACK" repo publish "$R" --unsigned > /dev/null
check "snapshot a suite" bash -c "'$PADPACK' repo snapshot '$R' soak-1 --suite testing | grep -qx 'snapshot soak-1: suite testing, 2 packages'"
check "it is a list of names, versions and pool files, no copies" bash -c "
	[ \"\$(cat '$R/db/snapshots/soak-1.list')\" = 'other 1.0 all main pool/main/o/other/other_1.0_all.deb
paddle 0.11.0-1 all main pool/main/p/paddle/paddle_0.11.0-1_all.deb' ] && [ \$(find '$R/pool' -name '*.deb' | wc -l) = 2 ]"
cp "$R/db/snapshots/soak-1.list" "$WORK/soak-1.before"
check_fails "a snapshot never changes" 2 "snapshot 'soak-1' exists and never changes" \
	"$PADPACK" repo snapshot "$R" soak-1 --suite testing
check_fails "a snapshot is not named like a suite" 2 "a suite is named 'stable'" \
	"$PADPACK" repo snapshot "$R" stable --suite testing
check_fails "a snapshot's name is checked" 3 "snapshot 'a/b' has character '/'" \
	"$PADPACK" repo snapshot "$R" a/b --suite testing
# A name is a file name under db/snapshots/ (and a suite's under dists/):
# ".", ".." or a hidden name is refused. A hidden snapshot was not seen
# by the publish that keeps its pool files: they went.
for n in . .. .hidden; do
	check_fails "snapshot '$n' is refused" 3 "snapshot '\\$n' starts with '\\.'" \
		"$PADPACK" repo snapshot "$R" "$n" --suite testing
done
check_fails "a suite named '..' is refused" 3 "suite '\.\.' starts with '\.'" \
	"$PADPACK" repo init "$R" --suite ..
check_fails "a byte not ASCII is named by its value" 3 "snapshot '.*' has byte 0xc3" \
	"$PADPACK" repo snapshot "$R" "é" --suite testing
check_fails "a suite is not named like a snapshot" 2 "suite 'soak-1': a snapshot is named 'soak-1'" \
	"$PADPACK" repo init "$R" --suite soak-1
check_fails "nor like another suite's codename" 2 \
	"suite 'bookworm': 'bookworm' is already suite 'edge0''s codename" \
	bash -c "'$PADPACK' repo init '$R' --suite edge0 --codename bookworm > /dev/null && '$PADPACK' repo init '$R' --suite bookworm"
check_fails "and a codename is not another suite's name" 2 \
	"suite 'edge1': 'stable' is already suite 'stable''s name" \
	"$PADPACK" repo init "$R" --suite edge1 --codename stable
check "a suite changed keeps its own name and codename" "$PADPACK" repo init "$R" --suite edge0 --codename bookworm --origin X

# testing moves on.
"$PADPACK" repo add "$R" --suite testing "$WORK/debs/paddle_0.12.0-1_all.deb" "$WORK/debs/newpkg_2.0_all.deb" > /dev/null
"$PADPACK" repo remove "$R" --suite testing other > /dev/null
"$PADPACK" repo publish "$R" --unsigned > /dev/null
same "the snapshot did not change with its suite" "$R/db/snapshots/soak-1.list" "$WORK/soak-1.before"
check "list --snapshot shows it" bash -c "'$PADPACK' repo list '$R' --snapshot soak-1 | grep -q '^other 1.0 all main '"
check_json "list --snapshot --json: the snapshot's packages, not the suite's" \
	'd["snapshot"] == "soak-1" and d["suite"] is None and [(p["package"], p["version"]) for p in d["packages"]] == [("other", "1.0"), ("paddle", "0.11.0-1")]' \
	"$PADPACK" repo list "$R" --snapshot soak-1 --json
check_json "list --suite --json: the suite moved on" \
	'd["suite"] == "testing" and sorted((p["package"], p["version"]) for p in d["packages"]) == [("newpkg", "2.0"), ("paddle", "0.11.0-1"), ("paddle", "0.12.0-1")]' \
	"$PADPACK" repo list "$R" --suite testing --json
check "the snapshot keeps the pool file its suite dropped" test -f "$R/pool/main/o/other/other_1.0_all.deb"
"$PADPACK" repo diff "$R" soak-1 testing > "$WORK/diff" 2>&1
cat > "$WORK/diff.want" <<'EOF'
added      newpkg all 2.0
removed    other all 1.0
upgraded   paddle all 0.11.0-1 -> 0.12.0-1
(1 added, 1 removed, 1 upgraded, 0 downgraded)
EOF
same "diff snapshot suite: added, removed, upgraded with versions" "$WORK/diff" "$WORK/diff.want"
check "diff the other way: downgraded" bash -c "'$PADPACK' repo diff '$R' testing soak-1 | grep -qx 'downgraded paddle all 0.12.0-1 -> 0.11.0-1'"

# Promotion: stable serves the snapshot, in one publish.
check "publish --suite stable --from-snapshot soak-1" "$PADPACK" repo publish "$R" --suite stable --from-snapshot soak-1 --unsigned
check "stable lists exactly the snapshot's packages" bash -c "
	[ \"\$(grep -E '^(Package|Version):' '$R/dists/stable/main/binary-amd64/Packages' | tr '\n' ' ')\" = 'Package: other Version: 1.0 Package: paddle Version: 0.11.0-1 ' ]"
check "and testing is untouched" bash -c "grep -qx 'Version: 0.12.0-1' '$R/dists/testing/main/binary-amd64/Packages'"
check "diff of the suites is the snapshot's" bash -c "'$PADPACK' repo diff '$R' stable testing | cmp - '$WORK/diff.want'"
check "diff of a snapshot and the suite serving it: nothing" bash -c "'$PADPACK' repo diff '$R' soak-1 stable | grep -qx '(0 added, 0 removed, 0 upgraded, 0 downgraded)'"
check "apt sees the snapshot's version in stable" bash -c "'$APT' '$WORK/apt' 'deb [trusted=yes] file:$R stable main' update > /dev/null &&
	APT_CONFIG='$WORK/apt/apt.conf' apt-cache policy paddle | grep -q 'Candidate: 0.11.0-1'"
check "repo verify" "$PADPACK" repo verify "$R"

# A pool file held by a snapshot alone stays; once no snapshot holds it
# either (the snapshot file deleted), it goes at the next publish.
"$PADPACK" repo remove "$R" --suite stable other > /dev/null
"$PADPACK" repo publish "$R" --unsigned > /dev/null
check "a pool file only a snapshot holds stays" test -f "$R/pool/main/o/other/other_1.0_all.deb"
check "and stable can serve the snapshot again" bash -c "'$PADPACK' repo publish '$R' --suite stable --from-snapshot soak-1 --unsigned > /dev/null &&
	grep -qx 'Package: other' '$R/dists/stable/main/binary-amd64/Packages' && '$PADPACK' repo verify '$R'"
"$PADPACK" repo remove "$R" --suite stable other > /dev/null
rm "$R/db/snapshots/soak-1.list"
"$PADPACK" repo publish "$R" --unsigned > /dev/null
check "without the snapshot the file goes" test ! -e "$R/pool/main/o/other/other_1.0_all.deb"

# add --publish publishes the suite added to: a suite left out still
# serves what it served, so a pool file it names stays (its list dropped
# it since), until a publish of every suite.
make_deb late 1.0
"$PADPACK" repo add "$R" --suite stable "$WORK/debs/other_1.0_all.deb" --publish --unsigned > /dev/null
"$PADPACK" repo remove "$R" --suite stable other > /dev/null
"$PADPACK" repo add "$R" --suite testing "$WORK/debs/late_1.0_all.deb" --publish --unsigned > "$WORK/late.out"
check "add --publish publishes testing alone" bash -c "
	grep -qx 'published $R/dists/testing' '$WORK/late.out' && ! grep -q dists/stable '$WORK/late.out'"
check "... and keeps the pool file stable still serves, which verify finds" bash -c "
	grep -qx 'Package: other' '$R/dists/stable/main/binary-amd64/Packages' &&
	test -f '$R/pool/main/o/other/other_1.0_all.deb' && '$PADPACK' repo verify '$R'"
"$PADPACK" repo publish "$R" --unsigned > /dev/null
check "the next publish of every suite drops it" test ! -e "$R/pool/main/o/other/other_1.0_all.deb"

# Refusals leave the served suite as it was.
"$PADPACK" repo init "$R" --suite edge --architectures amd64,arm64 > /dev/null
"$PADPACK" repo add "$R" --suite edge "$WORK/debs/armonly_1.0_arm64.deb" > /dev/null
"$PADPACK" repo snapshot "$R" arm --suite edge > /dev/null
cp "$R/dists/stable/Release" "$WORK/Release.before"
cp "$R/db/stable.list" "$WORK/list.before"
check_fails "a snapshot the suite cannot serve is refused" 3 \
	"snapshot 'arm' holds armonly 1.0 \(arm64, component main\), which suite 'stable' cannot serve" \
	"$PADPACK" repo publish "$R" --suite stable --from-snapshot arm --unsigned
same "and stable's Release is unchanged" "$R/dists/stable/Release" "$WORK/Release.before"
same "and its members too" "$R/db/stable.list" "$WORK/list.before"
check_fails "an unknown snapshot: the known ones are named" 2 \
	"no snapshot 'nope' in .* \(it has: arm\)" \
	"$PADPACK" repo publish "$R" --suite stable --from-snapshot nope --unsigned
check_fails "--from-snapshot needs --suite" 2 "say which suite serves it with --suite" \
	"$PADPACK" repo publish "$R" --from-snapshot arm --unsigned
check_fails "diff of an unknown name" 2 "neither a suite nor a snapshot: no snapshot 'nope'" \
	"$PADPACK" repo diff "$R" stable nope

# Promotion publishes the suite promoted alone: what testing has staged
# (added, not yet published) is not served by it.
P=$WORK/promote
"$PADPACK" repo init "$P" --suite testing > /dev/null
"$PADPACK" repo init "$P" --suite stable --codename bookworm > /dev/null
"$PADPACK" repo add "$P" --suite testing --publish --unsigned "$WORK/debs/paddle_0.11.0-1_all.deb" > /dev/null
"$PADPACK" repo publish "$P" --unsigned > /dev/null
"$PADPACK" repo snapshot "$P" soak --suite testing > /dev/null
"$PADPACK" repo add "$P" --suite testing "$WORK/debs/paddle_0.12.0-1_all.deb" > /dev/null
cp "$P/dists/testing/Release" "$WORK/testing.Release"
check "publish --suite stable --from-snapshot says it published stable alone" bash -c "
	'$PADPACK' repo publish '$P' --suite stable --from-snapshot soak --unsigned > '$WORK/promote.out' &&
	grep -qx 'published $P/dists/stable' '$WORK/promote.out' && ! grep -q dists/testing '$WORK/promote.out'"
check "... testing's staged version is not served" bash -c "
	cmp -s '$P/dists/testing/Release' '$WORK/testing.Release' &&
	! grep -qx 'Version: 0.12.0-1' '$P/dists/testing/main/binary-amd64/Packages'"
check "... stable serves the snapshot" grep -qx 'Version: 0.11.0-1' "$P/dists/stable/main/binary-amd64/Packages"
check "... and the pool file testing staged stays" test -f "$P/pool/main/p/paddle/paddle_0.12.0-1_all.deb"
check "publish --suite testing publishes testing alone" bash -c "
	'$PADPACK' repo publish '$P' --suite testing --unsigned | grep -c '^published ' | grep -qx 1 &&
	grep -qx 'Version: 0.12.0-1' '$P/dists/testing/main/binary-amd64/Packages'"
check "add --suite CODENAME --publish publishes that suite" bash -c "
	'$PADPACK' repo add '$P' --suite bookworm --publish --unsigned '$WORK/debs/newpkg_2.0_all.deb' | grep -qx 'published $P/dists/stable' &&
	grep -qx 'Package: newpkg' '$P/dists/stable/main/binary-amd64/Packages'"
check_fails "publish --suite with --full is refused (a full publish is of every suite)" 2 \
	"--full reads every pool file again and publishes every suite: give it without --suite" \
	"$PADPACK" repo publish "$P" --suite testing --full --unsigned
check_fails "and so is add --publish --full, before adding anything" 2 \
	"--full is an option of 'repo publish' \(of every suite\), not of add --publish" \
	"$PADPACK" repo add "$P" --suite testing --publish --full --unsigned "$WORK/debs/other_1.0_all.deb"
check "nothing added" bash -c "! '$PADPACK' repo list '$P' --suite testing | grep -q '^other '"
check_fails "publish --suite of no suite" 2 "no suite 'nope'" "$PADPACK" repo publish "$P" --suite nope --unsigned
check_fails "publish takes no other argument" 2 "publish takes no argument after the directory, not 'stable'" \
	"$PADPACK" repo publish "$P" stable --unsigned
check "repo verify" "$PADPACK" repo verify "$P"

# Copying one package between suites (reprepro's copy, aptly's repo
# copy): its pool file added to the other suite, in place.
f=$P/pool/main/p/paddle/paddle_0.12.0-1_all.deb
ino=$(stat -c %i "$f")
check "a pool file added to another suite" bash -c "
	'$PADPACK' repo add '$P' --suite stable --publish --unsigned '$f' | grep -qx 'added pool/main/p/paddle/paddle_0.12.0-1_all.deb'"
check "... stays the same file, whole" bash -c "[ \$(stat -c %i '$f') = $ino ] && cmp -s '$f' '$WORK/debs/paddle_0.12.0-1_all.deb'"
check "... and stable serves it" bash -c "grep -qx 'Version: 0.12.0-1' '$P/dists/stable/main/binary-amd64/Packages' && '$PADPACK' repo verify '$P'"
