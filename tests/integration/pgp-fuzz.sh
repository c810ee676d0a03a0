#!/bin/bash
# A bounded run of the libFuzzer target over the OpenPGP parsers (packets,
# keyrings, signatures, armor, cleartext, secret-key import): builds it
# (make fuzz-build) and runs it for FUZZ_SECONDS (default 60) from the
# committed seeds in tests/fuzz/corpus. `make fuzz` runs it longer.
source "$(dirname "$0")/../lib.sh"
secs=${FUZZ_SECONDS:-60}

if ! make -s -C "$TOP" fuzz-build >"$WORK/build.log" 2>&1; then
	not_ok "the fuzz target builds (clang, libFuzzer, ASan, UBSan)" \
		"$(tail -n 15 "$WORK/build.log")"
	exit 0
fi
ok "the fuzz target builds (clang, libFuzzer, ASan, UBSan)"

mkdir "$WORK/corpus"
"$TOP/build-fuzz/fuzz-pgp" -max_total_time="$secs" -max_len=4096 \
	-dict="$TOP/tests/fuzz/pgp.dict" -artifact_prefix="$TOP/build-fuzz/" \
	"$WORK/corpus" "$TOP/tests/fuzz/corpus" >"$WORK/fuzz.log" 2>&1
rc=$?
runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$WORK/fuzz.log")
if [ "$rc" = 0 ] && [ -n "$runs" ]; then
	ok "fuzzing for ${secs}s: $runs inputs, no crash, leak or sanitizer report"
else
	not_ok "fuzzing for ${secs}s: no crash, leak or sanitizer report" \
		"exit $rc; the input that failed is saved in build-fuzz/" \
		"$(grep -E 'ERROR|SUMMARY|artifact|Test unit' "$WORK/fuzz.log" | head -n 10)"
fi
