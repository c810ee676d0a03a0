#!/bin/bash
# A repository of 100,000 packages shaped like Debian's (names, versions,
# dependencies, sections and descriptions of this machine's bookworm
# Packages list, in turn; gen-debs-debian.py): padpack repo against
# apt-ftparchive, reprepro and aptly. Rows: index a pool from scratch,
# import and publish, add one and publish (median of 3), snapshot and
# switch a suite to it, verify the whole repository (against sha256sum
# over the same pool files), and the peak RSS of the import.
#   REPO100K_PACKAGES   how many (default 100000)
#   REPO100K_ANCHORS    0: padpack's rows only; 1: every anchor (default);
#                       or a list of some, e.g. "aptly" or "ftparchive,reprepro"
#   REPO100K_LIMIT      seconds an anchor may take for one row (default 1800;
#                       past it the row says so)
#   REPO100K_PADPACK    0: the anchors' rows only (default 1)
#   REPO100K_WORK       the scratch directory (default tests/bench/work/repo100k)
#   REPO100K_COMPRESSION  padpack's suites' --compression (default gz,xz;
#                       xz: Packages.xz alone, as Debian's archive serves)
#   REPO100K_KEEP       1: leave the scratch directory at the end (to profile
#                       verify or an add on the built repository)
set -eu
cd "$(dirname "$0")/../.."
TOP=$PWD
PP=$TOP/padpack
N=${REPO100K_PACKAGES:-100000}
ANCHORS=${REPO100K_ANCHORS:-1}
LIMIT=${REPO100K_LIMIT:-1800}
PADPACK=${REPO100K_PADPACK:-1}
W=${REPO100K_WORK:-$TOP/tests/bench/work/repo100k}
rm -rf "$W"
mkdir -p "$W"

list=$(ls /var/lib/apt/lists/*_dists_bookworm_main_binary-amd64_Packages* 2>/dev/null | head -n 1)
if [ -z "$list" ]; then
	echo "bench-repo100k: no bookworm Packages list in /var/lib/apt/lists (run apt-get update)" >&2
	exit 1
fi
/usr/lib/apt/apt-helper cat-file "$list" > "$W/Packages"
key=$( (sha256sum < "$W/Packages"; cat "$TOP/tests/bench/gen-debs.py" \
	"$TOP/tests/bench/gen-debs-debian.py"; echo "$N") | sha256sum | cut -c1-16)
DEBS=${PADPACK_CACHE:-/var/tmp}/padpack-repo100k-$key
if [ ! -f "$DEBS/done" ]; then
	rm -rf "$DEBS"
	python3 "$TOP/tests/bench/gen-debs-debian.py" "$W/Packages" "$DEBS/in" "$N"
	python3 "$TOP/tests/bench/gen-debs.py" "$DEBS/extra" 3 99991
	touch "$DEBS/done"
fi

secs() { printf '%.3f' "$(echo "scale=3; (${2//[.,]/} - ${1//[.,]/}) / 1000000" | bc)"; }
timeit() { # VAR CMD...: VAR gets the seconds, "nan" on failure, "timeout"
	local var=$1 t0 t1 rc=0; shift
	# through bash, so that CMD may be one of the functions below
	t0=$EPOCHREALTIME; timeout "$LIMIT" bash -c '"$@"' bash "$@" > "$W/log" 2>&1 || rc=$?
	t1=$EPOCHREALTIME
	if [ $rc = 124 ]; then printf -v "$var" '> %s' "$LIMIT"; return 0; fi
	if [ $rc != 0 ]; then
		echo "$var: failed (exit $rc): $(tail -n 3 "$W/log")" >&2
		printf -v "$var" 'nan'; return 0
	fi
	printf -v "$var" '%s' "$(secs "$t0" "$t1")"
}
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
measure() { # SECONDS-VAR RSS-VAR CMD...: wall seconds and peak RSS (MiB)
	local tv=$1 rv=$2 out; shift 2
	out=$(timeout "$LIMIT" python3 "$TOP/tests/bench/peak-rss.py" "$@" 2>&1 >/dev/null | tail -n 1)
	case "$out" in
	[0-9]*\ [0-9]*) printf -v "$tv" '%.3f' "${out% *}"
		printf -v "$rv" '%d' "$((${out#* } / 1024))" ;;
	*) printf -v "$tv" '> %s' "$LIMIT"; printf -v "$rv" '-'
		echo "$tv: $out" >&2 ;;
	esac
}
# The .debs, a few thousand per command (one command line cannot hold
# 100,000 names).
in_chunks() { # CMD...: runs CMD with the .debs appended, 5,000 at a time
	(cd "$DEBS/in" && ls | xargs -n 5000 "$@")
}
pp_import() {
	in_chunks "$PP" repo add "$W/pp" --suite testing > /dev/null &&
		"$PP" repo publish "$W/pp" --unsigned
}
pp_snapshot_switch() { # NAME
	"$PP" repo snapshot "$W/pp" "$1" --suite testing &&
		"$PP" repo publish "$W/pp" --suite stable --from-snapshot "$1" --unsigned
}
pool_sha256() { find "$W/pp/pool" -name '*.deb' -print0 | xargs -0 sha256sum > /dev/null; }
export PP W DEBS LIMIT
export -f in_chunks pp_import pp_snapshot_switch pool_sha256

# ---- padpack ---------------------------------------------------------------
pp_full=- pp_import_t=- rss_pp=- pp_add=- pp_snap=- pp_verify=- sha_pool=-
if [ "$PADPACK" != 0 ]; then
COMP=${REPO100K_COMPRESSION:-gz,xz}
"$PP" repo init "$W/pp" --suite testing --compression "$COMP" > /dev/null
"$PP" repo init "$W/pp" --suite stable --compression "$COMP" > /dev/null
measure pp_import_t rss_pp bash -c pp_import
timeit pp_full "$PP" repo publish "$W/pp" --full --unsigned
adds=()
for i in 1 2 3; do
	timeit t "$PP" repo add "$W/pp" --suite testing --publish --unsigned \
		"$DEBS/extra/bench9999${i}_1.0-1_amd64.deb"
	adds+=("$t")
done
pp_add=$(median "${adds[@]}")
timeit pp_snap pp_snapshot_switch soak-1
timeit pp_verify "$PP" repo verify "$W/pp"
timeit sha_pool pool_sha256
fi

# ---- anchors ---------------------------------------------------------------
ftp_full=- rr_import=- rr_add=- aptly_import=- aptly_add=- aptly_snap=- rss_aptly=-
anchor() { # NAME: whether REPO100K_ANCHORS runs that anchor
	[ "$ANCHORS" = 1 ] || [[ ",$ANCHORS," == *",$1,"* ]]
}
if anchor ftparchive; then
	mkdir -p "$W/ftp/dists/stable/main/binary-amd64"
	if [ -d "$W/pp/pool" ]; then
		cp -al "$W/pp/pool" "$W/ftp/pool"
	else # the same .debs, in a pool of one directory
		mkdir -p "$W/ftp/pool/main" && cp -al "$DEBS/in/." "$W/ftp/pool/main/"
	fi
	ftparchive() (
		cd "$W/ftp" && apt-ftparchive --db "$W/ftp.db" packages pool \
			> dists/stable/main/binary-amd64/Packages &&
		gzip -9nkf dists/stable/main/binary-amd64/Packages &&
		xz -6kf dists/stable/main/binary-amd64/Packages
	)
	export -f ftparchive
	timeit ftp_full ftparchive
fi
if anchor reprepro; then
	mkdir -p "$W/rr/conf"
	printf 'Codename: stable\nSuite: stable\nComponents: main\nArchitectures: amd64\nDebIndices: Packages Release . .gz .xz\n' \
		> "$W/rr/conf/distributions"
	timeit rr_import in_chunks reprepro -b "$W/rr" --silent includedeb stable
	timeit rr_add reprepro -b "$W/rr" --silent includedeb stable "$DEBS/extra/bench99991_1.0-1_amd64.deb"
fi
if anchor aptly; then
	printf '{"rootDir": "%s", "architectures": ["amd64", "all"], "gpgDisableSign": true, "gpgDisableVerify": true}\n' \
		"$W/aptly" > "$W/aptly.conf"
	A="aptly -config=$W/aptly.conf"
	export A
	$A repo create -distribution=stable -component=main bench > /dev/null
	aptly_import_run() { $A repo add bench "$DEBS/in" && $A publish repo -skip-signing bench; }
	export -f aptly_import_run
	measure aptly_import rss_aptly bash -c aptly_import_run
	timeit aptly_add bash -c "$A repo add bench '$DEBS/extra/bench99991_1.0-1_amd64.deb' && $A publish update -skip-signing stable"
	# aptly switches a snapshot publish: prod serves soak-1 first (not
	# timed), then the timed run makes soak-2 and switches prod to it.
	$A snapshot create soak-1 from repo bench > /dev/null &&
		$A publish snapshot -skip-signing -distribution=prod soak-1 > /dev/null
	aptly_snap_run() { $A snapshot create soak-2 from repo bench && $A publish switch -skip-signing prod soak-2; }
	export -f aptly_snap_run
	timeit aptly_snap aptly_snap_run
fi

echo "## repo at $N packages shaped like Debian's"
echo
echo "Packages made from this machine's bookworm Packages list (names, versions,"
echo "dependencies, sections, descriptions), one small file each. Wall seconds,"
echo "unsigned; an anchor that took longer than $LIMIT s for a row says so."
echo "padpack's import adds 5,000 .debs a command, then publishes once;"
echo "its suites publish Packages (over 16 MiB: listed only) and ${COMP:-gz,xz}."
echo
echo "| run | padpack | apt-ftparchive | reprepro | aptly | sha256sum |"
echo "|---|---|---|---|---|---|"
echo "| index a pool from scratch (publish --full) | $pp_full | $ftp_full | - | - | - |"
echo "| import and publish | $pp_import_t | - | $rr_import | $aptly_import | - |"
echo "| add one and publish (median of 3) | $pp_add | - | $rr_add | $aptly_add | - |"
echo "| snapshot and switch a suite to it | $pp_snap | - | - | $aptly_snap | - |"
echo "| verify the repository / hash the pool | $pp_verify | - | - | - | $sha_pool |"
echo "| peak RSS of the import (MiB) | $rss_pp | - | - | $rss_aptly | - |"
[ -n "${REPO100K_KEEP:-}" ] || rm -rf "$W"
