#!/bin/bash
# Part of `make bench`: the size of the images padpack docker writes, built
# with Debian's Docker engine as tests/integration/docker-images.sh builds
# them, of the separate-package form (pkg/paddle-separate.cfg, CORE_SPEC):
# each production image (records dpkg, the default; cpu-avx also
# with --records status.d), its layers on top of the base, and what those
# layers hold, against the installed size of the packages they added; next
# to the development image. Target of the status.d form: a CPU production
# image's layers no larger than the installed size of its packages plus
# 10%; the dpkg form adds dpkg's database, a fixed cost.
# Prints Markdown.
set -u
cd "$(dirname "$0")/../.."
TOP=$PWD
PADPACK=$TOP/padpack
source tests/lib-docker.sh
WORK=$(mktemp -d /var/tmp/padpack-bench-docker.XXXXXX)
trap 'stop_engine; rm -rf "$WORK"' EXIT

echo "## padpack docker: image sizes"
echo
if ! start_engine >"$WORK/engine.out" 2>&1; then
	echo "No Docker engine: $(cat "$WORK/engine.out")"
	exit 1
fi
tar=$(base_tar) || exit 1
import_base debian:bookworm-slim "$tar" && import_base debian:bookworm "$tar" || exit 1
stages=$(core_stages) || exit 1
B=$WORK/build
mkdir -p "$B"
variants="cpu-avx cpu-noavx"
[ -d "$stages/gpu-avx" ] && have_gpu_standin && variants="$variants gpu-avx"
runtime_debs "$stages" "$B" $variants >"$WORK/debs.log" 2>&1 ||
	{ cat "$WORK/debs.log"; exit 1; }
# shellcheck disable=SC2046
"$PADPACK" docker prod -c "$CORE_SPEC" -q -B "$B" $(printf -- '--variant %s ' $variants) || exit 1
case $variants in *gpu-avx*)
	gpu_standin "$WORK/standin" "$(sed -n 's/^FROM \([^ ]*\).*/\1/p' "$B/gpu-avx/image/Dockerfile" | head -n 1)" ||
		exit 1 ;;
esac

# bytes BYTES: in kB (1000), as docker prints sizes
kb() { echo "scale=1; $1 / 1000" | bc; }

# packages IMAGE: "NAME SIZE-KiB" per installed package: those in dpkg's
# database, and those recorded in /var/lib/dpkg/status.d (records status.d)
packages() {
	"$DOCKER" run --rm --user 0 --entrypoint sh "$1" -c '
		dpkg-query -W -f "\${Package} \${Installed-Size}\n"
		for f in /var/lib/dpkg/status.d/*; do
			case $f in *.md5sums) continue ;; esac
			[ -f "$f" ] && awk "/^Package:/ { p = \$2 } /^Installed-Size:/ { s = \$2 }
				END { print p, s }" "$f"
		done; true' | sort -k1,1
}

# owned IMAGE: the paths (no leading /) of the files of the packages added:
# dpkg's newest file lists, and the md5sums of status.d
owned() {
	"$DOCKER" run --rm --user 0 --entrypoint sh "$1" -c \
		'cat $(ls -t /var/lib/dpkg/info/*.list | head -n 40) 2>/dev/null
		 sed "s/^[0-9a-f]*  //" /var/lib/dpkg/status.d/*.md5sums 2>/dev/null; true' |
		sed 's|^/||' | sort -u
}

# layer_files IMAGE BASE: "SIZE PATH" of each file in IMAGE's layers above
# BASE's (docker save; the layers are in order).
layer_files() {
	local d=$WORK/save n
	rm -rf "$d" && mkdir -p "$d"
	"$DOCKER" save "$1" | tar -C "$d" -x
	n=$("$DOCKER" image inspect -f '{{len .RootFS.Layers}}' "$2")
	python3 - "$d" "$n" <<'EOF'
import json, sys, tarfile
d, n = sys.argv[1], int(sys.argv[2])
layers = json.load(open(d + "/manifest.json"))[0]["Layers"][n:]
for l in layers:
    for m in tarfile.open(d + "/" + l):
        if m.isfile():
            print(m.size, m.name)
EOF
}

report() { # NAME IMAGE BASE KEY
	local name=$1 img=$2 base=$3 key=$4 status statusd size bsize layer inst payload books users other
	size=$("$DOCKER" image inspect -f '{{.Size}}' "$img")
	bsize=$("$DOCKER" image inspect -f '{{.Size}}' "$base")
	layer=$((size - bsize))
	inst=$(join -v1 <(packages "$img") <(packages "$base") |
		awk '{ s += $2 } END { print s * 1024 + 0 }')
	# the new packages' own files, and the rest of the layers by kind
	owned "$img" >"$WORK/owned"
	layer_files "$img" "$base" | sort -k2 >"$WORK/files"
	payload=$(awk 'NR == FNR { own[$1] = 1; next } ($2 in own) { s += $1 } END { print s + 0 }' \
		"$WORK/owned" "$WORK/files")
	books=$(awk '$2 ~ /^var\/(lib\/(dpkg|apt)|cache\/debconf|log)\// { s += $1 } END { print s + 0 }' \
		"$WORK/files")
	users=$(awk '$2 ~ /^(etc\/(passwd|group|shadow|gshadow|subuid|subgid)|home\/)/ { s += $1 } END { print s + 0 }' \
		"$WORK/files")
	other=$((layer - payload - books - users))
	[ "$other" -lt 0 ] && other=0
	awk 'NR == FNR { own[$1] = 1; next }
	     $1 > 0 && !($2 in own) && $2 !~ /^var\/(lib\/(dpkg|apt)|cache\/debconf|log)\// &&
	     $2 !~ /^(etc\/(passwd|group|shadow|gshadow|subuid|subgid)|home\/)/ {
		printf "%s%s (%.1f kB)", n++ ? ", " : "", $2, $1 / 1000 }' \
		"$WORK/owned" "$WORK/files" >"$WORK/other-$key"
	printf '| %s | %s MB | %s kB | %s kB | %s kB | %s kB | %s kB | %s kB |\n' "$name" \
		"$(echo "scale=1; $size / 1000000" | bc)" "$(kb "$layer")" "$(kb "$inst")" \
		"$(kb "$payload")" "$(kb "$books")" "$(kb "$users")" "$(kb "$other")"
	status=$(awk '$2 == "var/lib/dpkg/status" { print $1 }' "$WORK/files")
	statusd=$(awk '$2 ~ /^var\/lib\/dpkg\/status\.d\// { s += $1 } END { print s + 0 }' \
		"$WORK/files")
	echo "$key $layer $inst $payload $books ${status:-0} $statusd $users" >>"$WORK/verdicts"
}

echo "Engine: Docker $("$DOCKER" version -f '{{.Server.Version}}'), BuildKit;" \
	"base: a minimal Debian 12 root (mmdebstrap, like debian:bookworm-slim)."
echo "Packages: $(ls "$B"/debs/*.deb | xargs -n1 basename | tr '\n' ' ')"
echo
echo "| image | size | layers on the base | installed size of the packages added |" \
	"of which the packages' files | package records (status.d or dpkg's), apt, debconf, logs | user | other |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for v in $variants; do
	case $v in
	cpu-avx) tag=docker.io/paddlepaddle/paddle:0.11.0 ;;
	cpu-noavx) tag=docker.io/paddlepaddle/paddle:0.11.0-noavx ;;
	gpu-avx) tag=docker.io/paddlepaddle/paddle:0.11.0-gpu ;;
	esac
	"$DOCKER" build -q -t "$tag" "$B/$v/image" >"$WORK/build.log" 2>&1 ||
		{ cat "$WORK/build.log"; exit 1; }
	report "$v (\`${tag#*/*/}\`)" "$tag" \
		"$(sed -n 's/^FROM \([^ ]*\).*/\1/p' "$B/$v/image/Dockerfile" | head -n 1)" "$v"
done
# the same cpu-avx packages as distroless images keep them (status.d)
"$PADPACK" docker prod -c "$CORE_SPEC" -q -B "$B" --variant cpu-avx --records status.d \
	-o "$WORK/statusd-image" || exit 1
"$DOCKER" build -q -t paddle-statusd:bench "$WORK/statusd-image" >"$WORK/build.log" 2>&1 ||
	{ cat "$WORK/build.log"; exit 1; }
report "cpu-avx, \`--records status.d\`" paddle-statusd:bench debian:bookworm-slim \
	statusd-cpu-avx
"$PADPACK" docker dev -c "$CORE_SPEC" -q --device cpu -o "$WORK/dev" || exit 1
"$DOCKER" build -q -t paddle:0.11.0-dev "$WORK/dev" >"$WORK/build.log" 2>&1 ||
	{ cat "$WORK/build.log"; exit 1; }
dsize=$("$DOCKER" image inspect -f '{{.Size}}' paddle:0.11.0-dev)
dbase=$("$DOCKER" image inspect -f '{{.Size}}' debian:bookworm)
printf '| development (`paddle:0.11.0-dev`, on debian:bookworm) | %s MB | %s MB | | | | | |\n' \
	"$(echo "scale=1; $dsize / 1000000" | bc)" "$(echo "scale=1; ($dsize - $dbase) / 1000000" | bc)"
echo
echo "Target of the status.d form: a CPU production image's layers on the base"
echo "no larger than the installed size of its packages + 10%; the dpkg form"
echo "(the default) adds dpkg's database, whatever the packages' size."
echo
# other KEY: ", other: ..." when the layers hold files of no other column
other() { [ -s "$WORK/other-$1" ] && printf '; other: %s' "$(cat "$WORK/other-$1")"; }
while read -r name layer inst payload books status statusd users; do
	case $name in cpu-*) ;; *) continue ;; esac
	limit=$((inst * 110 / 100))
	if [ "$layer" -le "$limit" ]; then verdict=within; else verdict=over; fi
	echo "- $name (records dpkg): layers $(kb "$layer") kB, $verdict the installed size" \
		"+ 10% ($(kb "$limit") kB); the packages' own files $(kb "$payload") kB," \
		"dpkg's records and logs $(kb "$books") kB, of which its status file, which" \
		"dpkg rewrites whole whatever it installs, is $(kb "${status:-0}") kB; the user" \
		"$(kb "$users") kB$(other "$name")."
done <"$WORK/verdicts"
while read -r name layer inst payload books status statusd users; do
	[ "$name" = statusd-cpu-avx ] || continue
	limit=$((inst * 110 / 100))
	if [ "$layer" -le "$limit" ]; then verdict=met; else verdict="NOT met"; fi
	echo "- cpu-avx with \`--records status.d\`: layers $(kb "$layer") kB against" \
		"$(kb "$limit") kB: $verdict; the packages' own files $(kb "$payload") kB," \
		"their records in /var/lib/dpkg/status.d (stanza and md5sums) $(kb "$statusd")" \
		"kB, the user $(kb "$users") kB, dpkg's, apt's and debconf's own" \
		"$(kb "$((books - statusd))") kB$(other "$name")."
done <"$WORK/verdicts"
