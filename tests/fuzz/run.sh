#!/bin/bash
# Runs one fuzz target for SECONDS over its corpora: CORPUS (the one it
# adds to; default build-fuzz/corpus/NAME), the committed minimized corpus
# tests/fuzz/corpus-NAME and the seeds of make-seeds.sh; with
# tests/fuzz/NAME.dict when there is one. Prints
#   NAME: N runs in S s (R/s), corpus C inputs
# and exits non-zero on a crash, leak, timeout or sanitizer report, the
# input that failed saved as build-fuzz/crash-NAME-* (its path printed).
# The full log is build-fuzz/NAME.log (or FUZZ_LOG).
#   tests/fuzz/run.sh NAME SECONDS [CORPUS]
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
name=$1 secs=$2
corpus=${3:-$TOP/build-fuzz/corpus/$name}
bin=$TOP/build-fuzz/fuzz-$name
log=${FUZZ_LOG:-$TOP/build-fuzz/$name.log}

case $name in
	deb|tar|ar|elf|isa) max_len=65536 ;;
	release|spec|repo-db) max_len=16384 ;;
	*) max_len=4096 ;;
esac
dirs=("$corpus")
for d in "$TOP/tests/fuzz/corpus-$name" "$TOP/build-fuzz/seeds/$name"; do
	[ -d "$d" ] && dirs+=("$d")
done
opts=(-max_total_time="$secs" -max_len="$max_len" -timeout=20
      -rss_limit_mb=2048 -print_final_stats=1
      -artifact_prefix="$TOP/build-fuzz/crash-$name-")
[ -f "$TOP/tests/fuzz/$name.dict" ] && opts+=(-dict="$TOP/tests/fuzz/$name.dict")
mkdir -p "$corpus"
# the target's scratch files, removed however the fuzzer ends
scratch=$(mktemp -d /dev/shm/padpack-fuzz-run.XXXXXX 2>/dev/null || mktemp -d)
trap 'chmod -R u+rwx "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
export FUZZ_SCRATCH=$scratch
start=$SECONDS
LSAN_OPTIONS=suppressions=$TOP/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS} \
	"$bin" "${opts[@]}" "${dirs[@]}" >"$log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
size=$(find "$corpus" -type f | wc -l)
took=$((SECONDS - start))
echo "$name: ${runs:-0} runs in $took s ($(( ${runs:-0} / (took ? took : 1) ))/s), corpus $size inputs"
if [ "$rc" != 0 ]; then
	echo "$name: failed (exit $rc); log $log"
	grep -E '^==[0-9]+==ERROR|SUMMARY|runtime error|Test unit written|ERROR: libFuzzer' "$log" | head -n 8
	exit 1
fi
