#!/bin/bash
# Repository indexing: padpack repo against apt-ftparchive,
# dpkg-scanpackages, reprepro and aptly on the same generated packages
# (500 and 5,000), in one run. Every tool writes Packages, Packages.gz and
# Packages.xz (and, where it can, Release); none signs (signing is a
# constant few milliseconds for each). Cold: index a pool in place, and
# import every package into an empty repository. Then incremental: add one
# package and publish again.
set -eu
cd "$(dirname "$0")/../.."
TOP=$PWD
W=$TOP/tests/bench/work/repo
PP=$TOP/padpack
rm -rf "$W"
mkdir -p "$W"

# Bash's own clock: no process is started inside the timed interval (a
# $(date) there costs milliseconds on a small VM, next to an add-one of
# tens of them).
secs() { echo "scale=3; (${2//[.,]/} - ${1//[.,]/}) / 1000000" | bc; }
timeit() { # VAR CMD...: runs CMD (output to a log), VAR gets seconds
	local var=$1 t0 t1 rc=0; shift
	t0=$EPOCHREALTIME; "$@" > "$W/log" 2>&1 || rc=$?; t1=$EPOCHREALTIME
	if [ $rc != 0 ]; then
		echo "$var: failed (exit $rc): $(tail -n 3 "$W/log")" >&2
		printf -v "$var" 'nan'
		return 0
	fi
	printf -v "$var" '%s' "$(secs "$t0" "$t1")"
}

compress_indices() { # DIR with Packages
	gzip -9nkf "$1/Packages" && xz -6kf "$1/Packages"
}

median() { # VALUE...: the median (nan when any run failed)
	case " $* " in *nan*) echo nan; return ;; esac
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

ratio() { # A B: A / B, or "-" when either is missing
	case "$1$2" in *nan*|*-*) echo "-" ;; *) printf '%.3f' "$(echo "$1 / $2" | bc -l)" ;; esac
}

pp_add_publish() { # REPO DEB...
	local r=$1; shift
	"$PP" repo add "$r" --publish --unsigned "$@"
}

aptly_add_publish() { # CONF DIR-OR-DEB
	aptly -config="$1" repo add bench "$2" && aptly -config="$1" publish repo -skip-signing bench
}

aptly_add_update() { # CONF DEB
	aptly -config="$1" repo add bench "$2" && aptly -config="$1" publish update -skip-signing stable
}

ftparchive_cold() { # POOLROOT
	mkdir -p "$1/dists/stable/main/binary-amd64"
	(cd "$1" && apt-ftparchive --db "$1/ftp.db" packages pool > dists/stable/main/binary-amd64/Packages &&
	 compress_indices dists/stable/main/binary-amd64 &&
	 apt-ftparchive -o APT::FTPArchive::Release::Suite=stable release dists/stable > "$1/Release.tmp" &&
	 mv "$1/Release.tmp" dists/stable/Release)
}

scanpackages_run() { # POOLROOT
	mkdir -p "$1/dists/stable/main/binary-amd64"
	(cd "$1" && dpkg-scanpackages pool > dists/stable/main/binary-amd64/Packages 2>/dev/null &&
	 rm -f dists/stable/main/binary-amd64/Packages.* && compress_indices dists/stable/main/binary-amd64)
}

reprepro_init() { # DIR
	mkdir -p "$1/conf"
	printf 'Codename: stable\nSuite: stable\nComponents: main\nArchitectures: amd64\nDebIndices: Packages Release . .gz .xz\n' \
		> "$1/conf/distributions"
}

aptly_conf() { # DIR
	printf '{"rootDir": "%s", "architectures": ["amd64"], "gpgDisableSign": true, "gpgDisableVerify": true}\n' "$1" > "$1.conf"
}

pool_of() { # N DIR: a pool/ of the first N generated packages
	mkdir -p "$2/pool/main"
	cp "$W"/debs/bench0*.deb "$2/pool/main/" 2>/dev/null || true
	ls "$2/pool/main"/*.deb | tail -n +$(($1 + 1)) | xargs -r rm -f
}

run_size() { # N
	local n=$1 d extra t debs
	d=$W/n$n
	mkdir -p "$d"
	mkdir -p "$d/in"
	ls "$W"/debs/bench0*.deb | head -n "$n" | xargs cp -t "$d/in"
	debs=("$d"/in/*.deb)
	pool_of "$n" "$d/ftp"; pool_of "$n" "$d/scan"

	"$PP" repo init "$d/pp" > /dev/null
	timeit pp_cold pp_add_publish "$d/pp" "${debs[@]}"
	# Indexing a pool already there, as apt-ftparchive and
	# dpkg-scanpackages do: every pool file read again.
	timeit pp_full "$PP" repo publish "$d/pp" --full --unsigned
	timeit ftp_cold ftparchive_cold "$d/ftp"
	timeit scan_cold scanpackages_run "$d/scan"
	reprepro_init "$d/rr"
	timeit rr_cold reprepro -b "$d/rr" --silent includedeb stable "${debs[@]}"
	aptly_conf "$d/aptly"
	aptly -config="$d/aptly.conf" repo create -distribution=stable -component=main bench > /dev/null
	timeit aptly_cold aptly_add_publish "$d/aptly.conf" "$d/in"

	# Incremental: five packages added one after the other, each tool in
	# turn (interleaved), the median of the five times.
	local r pp_i=() ftp_i=() rr_i=() aptly_i=()
	for r in 1 2 3 4 5; do
		extra=$W/debs/bench9999${r}_1.0-1_amd64.deb
		timeit t "$PP" repo add "$d/pp" --publish --unsigned "$extra"; pp_i+=("$t")
		cp "$extra" "$d/ftp/pool/main/"; cp "$extra" "$d/scan/pool/main/"
		timeit t ftparchive_cold "$d/ftp"; ftp_i+=("$t")
		timeit t reprepro -b "$d/rr" --silent includedeb stable "$extra"; rr_i+=("$t")
		timeit t aptly_add_update "$d/aptly.conf" "$extra"; aptly_i+=("$t")
	done
	pp_inc=$(median "${pp_i[@]}"); ftp_inc=$(median "${ftp_i[@]}")
	rr_inc=$(median "${rr_i[@]}"); aptly_inc=$(median "${aptly_i[@]}")
	# dpkg-scanpackages has no incremental mode: a second run is a full
	# run, as slow as the cold one; it is run again (once) only for the
	# small set.
	if [ "$n" -le 500 ]; then timeit scan_inc scanpackages_run "$d/scan"; else scan_inc=$scan_cold; fi

	printf '| %s | index a pool (publish --full) | %s | %s | %s | - | - | %s |\n' "$n" \
		"$pp_full" "$ftp_cold" "$scan_cold" "$(ratio "$pp_full" "$ftp_cold")"
	fastest=$(printf '%s\n' "$rr_cold" "$aptly_cold" | grep -v nan | sort -n | head -n 1)
	printf '| %s | import into an empty repository and publish | %s | - | - | %s | %s | %s |\n' \
		"$n" "$pp_cold" "$rr_cold" "$aptly_cold" "$(ratio "$pp_cold" "${fastest:-nan}")"
	fastest=$(printf '%s\n' "$ftp_inc" "$scan_inc" "$rr_inc" "$aptly_inc" | grep -v nan | sort -n | head -n 1)
	printf '| %s | add one, publish | %s | %s | %s%s | %s | %s | %s |\n' "$n" "$pp_inc" "$ftp_inc" \
		"$scan_inc" "$([ "$n" -le 500 ] || echo ' (cold figure)')" "$rr_inc" "$aptly_inc" \
		"$(ratio "$pp_inc" "${fastest:-nan}")"
	if ! "$PP" repo verify "$d/pp" > /dev/null; then echo "padpack repo verify FAILED for $n"; fi
}

python3 "$TOP/tests/bench/gen-debs.py" "$W/debs" 5000
for r in 1 2 3 4 5; do python3 "$TOP/tests/bench/gen-debs.py" "$W/debs" 1 9999$r; done
echo "## repo: padpack repo against apt-ftparchive, dpkg-scanpackages, reprepro, aptly"
echo
echo "Generated packages (one small file each, gzip members). Wall seconds; every tool"
echo "writes Packages, .gz and .xz; unsigned. apt-ftparchive uses its --db cache (its"
echo "incremental mode); dpkg-scanpackages has none and indexes everything again."
echo "Rows: indexing a pool already in place (padpack: publish --full, every pool"
echo "file read again, its cache ignored); importing the packages into an empty"
echo "repository and publishing (padpack: add --publish, which copies them into"
echo "the pool as reprepro and aptly do); adding one package and publishing again"
echo "(five packages in turn, each tool after the other: the median of five)."
echo "Ratio: padpack / apt-ftparchive (index), padpack / the faster of reprepro and"
echo "aptly (import), padpack / the fastest anchor (add one)."
echo
echo "| packages | run | padpack | apt-ftparchive | dpkg-scanpackages | reprepro | aptly | ratio |"
echo "|---|---|---|---|---|---|---|---|"
run_size 500
run_size 5000
rm -rf "$W"
