#!/bin/bash
# Several architectures in one repository: amd64, arm64 and `all`, an
# index per architecture with the `all` packages in each, a package of an
# architecture the suite does not list refused; apt in a clean root with
# arm64 added as a foreign architecture finds and downloads arm64 packages.
source "$(dirname "$0")/../lib.sh"
APT=$TOP/tests/tools/apt-private.sh

make_deb() { # NAME VERSION ARCH
	local t=$WORK/mk/$1-$3
	mkdir -p "$t/DEBIAN" "$t/usr/share/$1"
	printf 'Package: %s\nVersion: %s\nArchitecture: %s\nMaintainer: T <t@example.org>\nDescription: architectures test\n' \
		"$1" "$2" "$3" > "$t/DEBIAN/control"
	echo "$1 $3" > "$t/usr/share/$1/arch"
	SOURCE_DATE_EPOCH=1700000000 "$PADPACK" pack -q "$t" "$WORK/debs/$1_$2_$3.deb"
}
mkdir -p "$WORK/debs"
make_deb tool 1.0 amd64; make_deb tool 1.0 arm64; make_deb common 1.0 all
make_deb armonly 2.0 arm64; make_deb old 1.0 i386

R=$WORK/repo
"$PADPACK" repo init "$R" --architectures amd64,arm64 > /dev/null
check "add amd64, arm64 and all packages" "$PADPACK" repo add "$R" "$WORK"/debs/{tool_1.0_amd64,tool_1.0_arm64,common_1.0_all,armonly_2.0_arm64}.deb
check_fails "a package of an architecture the suite does not list is refused" 3 \
	"old_1.0_i386.deb: architecture 'i386' is not one of suite 'stable''s \(amd64, arm64\)" \
	"$PADPACK" repo add "$R" "$WORK/debs/old_1.0_i386.deb"
check "and it is not in the pool" test ! -e "$R/pool/main/o/old/old_1.0_i386.deb"
check "publish" "$PADPACK" repo publish "$R" --unsigned
pkgs() { # ARCH: "name/arch ..." of binary-ARCH/Packages
	awk '/^Package:/ {p = $2} /^Architecture:/ {printf "%s/%s ", p, $2}' \
		"$R/dists/stable/main/binary-$1/Packages"
}
check "binary-amd64 lists the amd64 and all packages" bash -c "[ '$(pkgs amd64)' = 'common/all tool/amd64 ' ]"
check "binary-arm64 lists the arm64 and all packages" bash -c "[ '$(pkgs arm64)' = 'armonly/arm64 common/all tool/arm64 ' ]"
check "Release names both architectures and every index" bash -c "grep -qx 'Architectures: amd64 arm64' '$R/dists/stable/Release' &&
	[ \$(grep -cE ' main/binary-(amd64|arm64)/Packages(\.gz|\.xz)?$' '$R/dists/stable/Release') = 6 ]"
check "repo verify" "$PADPACK" repo verify "$R"

# A clean root whose dpkg has arm64 added.
ROOT=$WORK/root
mkdir -p "$ROOT/var/lib/dpkg/info" "$ROOT/var/lib/dpkg/updates"
: > "$ROOT/var/lib/dpkg/status"
check "dpkg --add-architecture arm64 in the clean root" \
	dpkg --admindir="$ROOT/var/lib/dpkg" --add-architecture arm64
# apt asks the root's dpkg for its architectures.
A=$WORK/apt
mkdir -p "$A/etc/apt.conf.d"
printf 'Dir::State::status "%s";\nDPkg::Options:: "--admindir=%s";\n' \
	"$ROOT/var/lib/dpkg/status" "$ROOT/var/lib/dpkg" > "$A/etc/apt.conf.d/root.conf"
check "apt-get update fetches both architectures' indices" bash -c "
	'$APT' '$A' 'deb [trusted=yes] file:$R stable main' update > /dev/null &&
	APT_CONFIG='$A/apt.conf' apt-config dump | grep -q '^APT::Architectures:: \"arm64\"' &&
	ls '$A/lists' | grep -q 'binary-arm64_Packages' && ls '$A/lists' | grep -q 'binary-amd64_Packages'"
check "apt-cache policy tool:arm64 has a candidate" bash -c "APT_CONFIG='$A/apt.conf' apt-cache policy tool:arm64 | grep -q 'Candidate: 1.0'"
check "apt-cache policy armonly:arm64 too" bash -c "APT_CONFIG='$A/apt.conf' apt-cache policy armonly:arm64 | grep -q 'Candidate: 2.0'"
check "apt-cache policy common (all) has a candidate" bash -c "APT_CONFIG='$A/apt.conf' apt-cache policy common | grep -q 'Candidate: 1.0'"
check "apt-get download tool:arm64 gets the arm64 build" bash -c "cd '$WORK' && APT_CONFIG='$A/apt.conf' apt-get -q download tool:arm64 > /dev/null &&
	cmp tool_1.0_arm64.deb '$WORK/debs/tool_1.0_arm64.deb'"
check "apt-get download tool gets the amd64 build" bash -c "cd '$WORK' && APT_CONFIG='$A/apt.conf' apt-get -q download tool:amd64 > /dev/null &&
	cmp tool_1.0_amd64.deb '$WORK/debs/tool_1.0_amd64.deb'"

# An architecture no package has yet: its Packages is empty, and apt and
# repo verify accept it.
E=$WORK/empty
"$PADPACK" repo init "$E" --architectures amd64,arm64 > /dev/null
"$PADPACK" repo add "$E" --publish --unsigned "$WORK/debs/tool_1.0_amd64.deb" > /dev/null
check "an architecture without packages has an empty Packages" test ! -s "$E/dists/stable/main/binary-arm64/Packages"
check "and repo verify passes" "$PADPACK" repo verify "$E"

# A suite changed to list fewer architectures keeps the packages of the
# one dropped, unpublished, and init says so.
check "init dropping arm64 says what the suite still holds of it" bash -c "
	'$PADPACK' repo init '$R' --architectures amd64 2>&1 >/dev/null |
	grep -q \"suite 'stable' holds 2 packages of an architecture or component it no longer serves (armonly 2.0 arm64, component main, ...): kept in its list, not published; 'padpack repo remove $R armonly:arm64' takes one out\""
check "publish then serves amd64 alone" bash -c "'$PADPACK' repo publish '$R' --unsigned > /dev/null &&
	grep -qx 'Architectures: amd64' '$R/dists/stable/Release' && ! grep -q 'binary-arm64/Packages' '$R/dists/stable/Release' &&
	'$PADPACK' repo list '$R' | grep -q '^armonly 2.0 arm64 '"
check "listing arm64 again serves them again, with no note" bash -c "
	[ -z \"\$('$PADPACK' repo init '$R' --architectures amd64,arm64 2>&1 >/dev/null)\" ] &&
	'$PADPACK' repo publish '$R' --unsigned > /dev/null && grep -qx 'Package: armonly' '$R/dists/stable/main/binary-arm64/Packages' &&
	'$PADPACK' repo verify '$R'"
