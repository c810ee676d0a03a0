#!/bin/bash
# Several versions of a package in a suite: repo add keeps the suite's
# --keep newest (the one added always among them), repo remove takes out
# one version or all, repo list shows every version, and apt installs an
# older one (a rollback).
source "$(dirname "$0")/../lib.sh"
APT=$TOP/tests/tools/apt-private.sh

make_deb() { # NAME VERSION [ARCH]
	local t=$WORK/mk/$1-$2 arch=${3:-all}
	mkdir -p "$t/DEBIAN" "$t/usr/share/$1"
	printf 'Package: %s\nVersion: %s\nArchitecture: %s\nMaintainer: T <t@example.org>\nDescription: versions test\n' \
		"$1" "$2" "$arch" > "$t/DEBIAN/control"
	echo "$1 $2" > "$t/usr/share/$1/version"
	SOURCE_DATE_EPOCH=1700000000 "$PADPACK" pack -q "$t" "$WORK/debs/$1_${2#*:}_$arch.deb"
}
mkdir -p "$WORK/debs"
for v in 0.9.0-1 0.10.0-1 0.11.0-1 0.12.0-1 0.8.0-1 1:0.1-1; do make_deb paddle "$v"; done
make_deb other 1.0

versions() { # REPO: the versions of paddle the suite lists, in order
	"$PADPACK" repo list "$1" | awk '$1 == "paddle" {print $2}' | sort -V | tr '\n' ' '
}

R=$WORK/repo
check "init (default --keep 3)" "$PADPACK" repo init "$R"
for v in 0.9.0-1 0.10.0-1 0.11.0-1 0.12.0-1; do
	"$PADPACK" repo add "$R" --publish --unsigned "$WORK/debs/paddle_${v}_all.deb" "$WORK/debs/other_1.0_all.deb" > /dev/null
done
check "list shows the 3 newest versions" bash -c "[ '$(versions "$R")' = '0.10.0-1 0.11.0-1 0.12.0-1 ' ]"
check "Packages lists the 3" bash -c "grep -A1 -x 'Package: paddle' '$R/dists/stable/main/binary-amd64/Packages' | grep '^Version:' | sort | tr '\n' ' ' | grep -qx 'Version: 0.10.0-1 Version: 0.11.0-1 Version: 0.12.0-1 '"
check "the oldest's pool file went at the publish" \
	test ! -e "$R/pool/main/p/paddle/paddle_0.9.0-1_all.deb"
check "the kept versions' pool files are there" bash -c "ls '$R'/pool/main/p/paddle/ | tr '\n' ' ' | grep -qx 'paddle_0.10.0-1_all.deb paddle_0.11.0-1_all.deb paddle_0.12.0-1_all.deb '"
check "the package added again is listed once" bash -c "[ \$('$PADPACK' repo list '$R' | grep -c '^other ') = 1 ]"
check "the same file added again says it changes nothing" bash -c "
	'$PADPACK' repo add '$R' '$WORK/debs/other_1.0_all.deb' | grep -qx 'unchanged pool/main/o/other/other_1.0_all.deb (the suite holds it already)'"
check "repo verify" "$PADPACK" repo verify "$R"
check_json "list --json has every version" \
	'sorted(p["version"] for p in d["packages"] if p["package"] == "paddle") == ["0.10.0-1", "0.11.0-1", "0.12.0-1"] and len(d["packages"]) == 4' \
	"$PADPACK" repo list "$R" --json

# apt installs the newest, then rolls back to an older one by version.
A=$WORK/apt ROOT=$WORK/root
mkdir -p "$ROOT/var/lib/dpkg/info" "$ROOT/var/lib/dpkg/updates"
: > "$ROOT/var/lib/dpkg/status"
apt_root() { # APT-GET-ARGS...
	APT_CONFIG=$A/apt.conf apt-get -q -y -o Dpkg::Options::=--root="$ROOT" \
		-o DPkg::Options::=--force-script-chrootless -o DPkg::Options::=--log=/dev/null \
		-o Dir::State::status="$ROOT/var/lib/dpkg/status" "$@"
}
installed() { # VERSION: paddle VERSION is installed in the root
	grep -qx "paddle $1" "$ROOT/usr/share/paddle/version" &&
		dpkg-query --admindir="$ROOT/var/lib/dpkg" -W -f '${Version}' paddle | grep -qx "$1"
}
check "apt-get update" "$APT" "$A" "deb [trusted=yes] file:$R stable main" update
check "apt-cache policy sees the 3 versions" bash -c "APT_CONFIG='$A/apt.conf' apt-cache policy paddle | grep -cE '^ +(\*\*\* )?0\.1[012]\.0-1 ' | grep -qx 3"
check "apt-get install paddle installs the newest" bash -c "$(declare -f apt_root installed); A='$A' ROOT='$ROOT'
	apt_root install paddle && installed 0.12.0-1"
check "apt-get install paddle=0.10.0-1 rolls back" bash -c "$(declare -f apt_root installed); A='$A' ROOT='$ROOT'
	apt_root install --allow-downgrades paddle=0.10.0-1 && installed 0.10.0-1"

# An older version added: kept (it was asked for), the oldest other goes.
check "add an older version, which says what it drops" bash -c "'$PADPACK' repo add '$R' '$WORK/debs/paddle_0.8.0-1_all.deb' |
	grep -qx 'dropped paddle 0.10.0-1 all (the suite keeps 3 versions of each package; --keep)'"
check "it stays beside the 2 newest" bash -c "[ '$(versions "$R")' = '0.8.0-1 0.11.0-1 0.12.0-1 ' ]"
check "list shows them in Debian's order (0.8 before 0.11), not as text" bash -c "
	[ \"\$('$PADPACK' repo list '$R' | awk '\$1 == \"paddle\" {print \$2}' | tr '\n' ' ')\" = '0.8.0-1 0.11.0-1 0.12.0-1 ' ]"

# remove NAME=VERSION, NAME=EPOCH:VERSION:ARCH, NAME.
check_fails "several removed, one not there: nothing removed" 1 \
	"suite 'stable' has no package 'nothere'; nothing removed" \
	"$PADPACK" repo remove "$R" paddle=0.11.0-1 nothere
check "the suite is as it was" bash -c "[ '$(versions "$R")' = '0.8.0-1 0.11.0-1 0.12.0-1 ' ]"
for bad in =0.11.0-1 paddle= paddle: 'paddle=0.11.0-1:' ''; do
	check_fails "remove '$bad' is a usage error" 2 "expected NAME\[=VERSION\]\[:ARCH\]" \
		"$PADPACK" repo remove "$R" "$bad"
done
check "remove paddle=0.11.0-1 says what it removed" bash -c "'$PADPACK' repo remove '$R' paddle=0.11.0-1 |
	grep -qx 'removed paddle 0.11.0-1 all'"
check "takes out that version only" bash -c "[ '$(versions "$R")' = '0.8.0-1 0.12.0-1 ' ]"
check_fails "removing a version not there says which, and what there is" 1 \
	"suite 'stable' has no package 'paddle' version 0.11.0-1 \(it has 0.12.0-1 all, 0.8.0-1 all\)" \
	"$PADPACK" repo remove "$R" paddle=0.11.0-1
"$PADPACK" repo add "$R" "$WORK/debs/paddle_0.1-1_all.deb" > /dev/null
check "a version with an epoch is kept as the newest" bash -c "'$PADPACK' repo list '$R' | grep -q '^paddle 1:0.1-1 all main pool/main/p/paddle/paddle_0.1-1_all.deb$'"
check "remove paddle=1:0.1-1:all (epoch and architecture)" "$PADPACK" repo remove "$R" paddle=1:0.1-1:all
check_fails "remove with another architecture finds nothing" 1 \
	"has no package 'paddle' version 0.8.0-1 for amd64" \
	"$PADPACK" repo remove "$R" paddle=0.8.0-1:amd64
check "publish" "$PADPACK" repo publish "$R" --unsigned
check "the removed versions' pool files are gone, the others stay" bash -c "ls '$R'/pool/main/p/paddle/ | tr '\n' ' ' | grep -qx 'paddle_0.12.0-1_all.deb paddle_0.8.0-1_all.deb '"
check "remove paddle takes out every version" "$PADPACK" repo remove "$R" paddle
check "none left" bash -c "[ -z '$(versions "$R")' ] && '$PADPACK' repo list '$R' | grep -q '^other '"
check "repo verify" bash -c "'$PADPACK' repo publish '$R' --unsigned > /dev/null && '$PADPACK' repo verify '$R'"

# --keep 1: a new version replaces the old one.
K=$WORK/keep1
check "init --keep 1" "$PADPACK" repo init "$K" --keep 1
check "conf/distributions records it" grep -qx 'Keep-Versions: 1' "$K/conf/distributions"
"$PADPACK" repo add "$K" "$WORK/debs/paddle_0.9.0-1_all.deb" > /dev/null
"$PADPACK" repo add "$K" "$WORK/debs/paddle_0.10.0-1_all.deb" > /dev/null
check "--keep 1 keeps the version added only" bash -c "[ '$(versions "$K")' = '0.10.0-1 ' ]"
check "--keep 1: an older version added replaces the newer, and says so" bash -c "
	'$PADPACK' repo add '$K' '$WORK/debs/paddle_0.9.0-1_all.deb' | grep -qx 'dropped paddle 0.10.0-1 all (the suite keeps 1 version of each package; --keep)'"
check "... and the suite holds it alone" bash -c "[ '$(versions "$K")' = '0.9.0-1 ' ]"
# A pool file's name leaves the epoch out: 0.1-1 and 1:0.1-1 share it.
mkdir -p "$WORK/noepoch" && cp -r "$WORK/mk/paddle-1:0.1-1" "$WORK/noepoch/t" &&
	sed -i 's/^Version: 1:0.1-1/Version: 0.1-1/' "$WORK/noepoch/t/DEBIAN/control" &&
	SOURCE_DATE_EPOCH=1700000000 "$PADPACK" pack -q "$WORK/noepoch/t" "$WORK/noepoch/paddle_0.1-1_all.deb"
"$PADPACK" repo add "$K" "$WORK/debs/paddle_0.1-1_all.deb" > /dev/null
check_fails "a version that differs by its epoch alone is refused, saying so" 3 \
	"paddle_0.1-1_all.deb \(version 1:0.1-1 there, 0.1-1 here: pool file names leave the epoch out\)" \
	"$PADPACK" repo add "$K" "$WORK/noepoch/paddle_0.1-1_all.deb"
check_fails "--keep 0 is refused" 2 "--keep takes a count of versions, 1 to" \
	"$PADPACK" repo init "$WORK/bad" --keep 0
check_fails "Keep-Versions: 0 in conf/distributions is refused with its line" 3 \
	"conf/distributions:1: suite 'stable': Keep-Versions must be at least 1" \
	bash -c "sed -i 's/^Keep-Versions: 1/Keep-Versions: 0/' '$K/conf/distributions' && '$PADPACK' repo list '$K'"
