# Sourced by the bench parts that set padpack split against debhelper
# (bench-bigtree.sh, bench-openblas.sh): timing, medians, and the two
# tables both print. padpack's packages of `--threads N` are in $WORK/pN.

# Runs a command under GNU time, appending "wall CPU peak-RSS-MiB" to LOG.t.
timed() { # LOG COMMAND...
	local log=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$log.one" bash -c '"$@"' - "$@" >"$log.out" 2>&1 ||
		{ tail -n 30 "$log.out" >&2; return 1; }
	awk '{ printf "%s %.2f %.1f\n", $1, $2 + $3, $4 / 1024 }' "$log.one" >>"$log.t"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
col() { awk -v c="$2" '{ print $c }' "$1" | median; }
bytes() { cat "$@" | wc -c; }

# Whether every --threads in JOBS made the same bytes as the first.
threads_identical() { # WORK JOBS
	local work=$1 first=${2%% *} same=yes j f
	for j in $2; do
		for f in "$work/p$first"/*.deb; do
			cmp -s "$f" "$work/p$j/$(basename "$f")" ||
				same="no ($(basename "$f"), --threads $j)"
		done
	done
	echo "Packages byte-identical whatever --threads: $same."
}

# Each of padpack's packages beside debhelper's of the same name.
bytes_table() { # PADPACK_DIR DEBHELPER_DIR...
	local pdir=$1 f p d dir c
	shift
	echo "| package | debhelper bytes | padpack bytes |"
	echo "| --- | ---: | ---: |"
	for f in "$pdir"/*.deb; do
		p=$(dpkg-deb -f "$f" Package)
		d=
		for dir in "$@"; do
			for c in "$dir/${p}"_*.deb "$dir/${p}"_*.ddeb; do
				[ -e "$c" ] && d=$c
			done
		done
		printf '| %s | %s | %d |\n' "$p" "$( [ -n "$d" ] && stat -c %s "$d" || echo -)" \
			"$(stat -c %s "$f")"
	done
}
