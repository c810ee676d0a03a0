#!/bin/bash
# Crash safety: `repo publish` killed with SIGKILL at many moments; after
# each kill the repository still verifies and apt-get update still works,
# and a later publish completes.
source "$(dirname "$0")/../lib.sh"
APT=$TOP/tests/tools/apt-private.sh
R=$WORK/repo
N=${CRASH_PACKAGES:-300}
KILLS=${CRASH_KILLS:-24}

mkdir -p "$WORK/debs"
for i in $(seq -f %04g 1 "$N"); do
	t=$WORK/t
	rm -rf "$t"
	mkdir -p "$t/DEBIAN" "$t/usr/share/crash"
	printf 'Package: crash%s\nVersion: 1.0\nArchitecture: all\nMaintainer: T <t@example.org>\nDescription: crash test %s\n some text to make the index larger\n' \
		"$i" "$i" > "$t/DEBIAN/control"
	echo "$i" > "$t/usr/share/crash/$i"
	"$PADPACK" pack -q -Z gzip "$t" "$WORK/debs/crash$i.deb"
done
"$PADPACK" key generate --uid "Crash Test <crash@example.org>" --out "$WORK/key" > /dev/null
"$PADPACK" repo init "$R" --architectures amd64,arm64,i386 --key "$WORK/key" > /dev/null
"$PADPACK" repo add "$R" "$WORK"/debs/*.deb > /dev/null
check "first publish" "$PADPACK" repo publish "$R"
src="deb [signed-by=$WORK/key/public.gpg] file:$R stable main"

start=$(date +%s%N)
"$PADPACK" repo publish "$R" --full > /dev/null
took=$(( ($(date +%s%N) - start) / 1000 ))   # microseconds
echo "# a full publish of $N packages takes $((took / 1000)) ms"

bad=0 killed=0
for k in $(seq 1 "$KILLS"); do
	delay=$(( took * k / (KILLS + 1) ))   # spread over the whole publish
	"$PADPACK" repo publish "$R" --full > /dev/null 2>&1 &
	pid=$!
	sleep "$(printf '0.%06d' "$delay")"
	kill -KILL $pid 2>/dev/null && killed=$((killed + 1))
	wait $pid 2>/dev/null
	if ! out=$("$PADPACK" repo verify "$R" --keyring "$WORK/key/public.gpg" 2>&1); then
		not_ok "kill $k after ${delay}us: repo verify" "$out"; bad=1; continue
	fi
	rm -rf "$WORK/apt"
	if ! out=$("$APT" "$WORK/apt" "$src" update 2>&1); then
		not_ok "kill $k after ${delay}us: apt-get update" "$out"; bad=1
	fi
done
[ $bad = 0 ] && ok "$KILLS publishes killed with SIGKILL ($killed mid-run): verify and apt-get update pass after each"
check "a publish after the kills completes" "$PADPACK" repo publish "$R"
check "and verifies" "$PADPACK" repo verify "$R" --keyring "$WORK/key/public.gpg"
check "no temporary suite directory is left" bash -c "! ls -A '$R/dists' | grep -q '^\.'"
