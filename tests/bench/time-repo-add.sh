#!/bin/bash
# Times "add one and publish" alone on a large repository, N times, each
# from the same state: usage
#   time-repo-add.sh BASE BIN [N] [DEB] [EXTRA]
# BASE: a published repository (e.g. one bench-repo100k.sh made, kept with
# REPO100K_WORK and the script's last line taken out); BIN: the padpack to
# time; DEB: the package to add (default bench99991 of the 100k cache);
# EXTRA: a command run in the copy ($W) before it, e.g.
#   'sed -i "/^Suite: /a Compression: xz" $W/conf/distributions'.
# Each run copies BASE's db/, dists/, conf/ and .sources back into
# BASE.time (the pool hard-linked once, so the stat keys hold), lets BIN
# publish once untimed (its own state), syncs, then times
# "repo add --publish" under nice -n 0 (everything else nice -n 10).
# Prints each run's wall and CPU seconds and the load.
set -eu
BASE=$1 BIN=$2 N=${3:-5}
DEB=${4:-$(ls -d /var/tmp/padpack-repo100k-*/extra | head -n 1)/bench99991_1.0-1_amd64.deb}
EXTRA=${5:-}
W=$BASE.time
[ -d "$W/pool" ] || { mkdir -p "$W"; nice -n 10 cp -al "$BASE/pool" "$W/pool"; }
for i in $(seq "$N"); do
	rm -rf "$W/db" "$W/dists" "$W/conf"
	find "$W/pool" -name "${DEB##*/}" -delete # added by the last run
	nice -n 10 cp -a "$BASE/db" "$BASE/dists" "$BASE/conf" "$W/"
	cp -a "$BASE"/*.sources "$W/" 2>/dev/null || true
	[ -z "$EXTRA" ] || eval "$EXTRA"
	nice -n 10 "$BIN" repo publish "$W" --unsigned > /dev/null
	sync
	/usr/bin/time -f "%e %U %S" -o "$W.t" nice -n 0 "$BIN" repo add "$W" \
		--suite testing --publish --unsigned "$DEB" > /dev/null
	read -r e u s < "$W.t"
	echo "run $i: wall $e cpu $(echo "$u + $s" | bc) load $(cut -d' ' -f1 /proc/loadavg) $(date -u +%H:%M:%S)"
done
