#!/bin/bash
# A bounded run of every libFuzzer target (tests/fuzz/fuzz-*.c: one per
# parser of outside input, built with ASan and UBSan by make fuzz-build)
# for FUZZ_SECONDS each (default 14), from the committed corpora
# tests/fuzz/corpus-NAME (which hold every input that once failed) and
# the seeds of tests/fuzz/make-seeds.sh. `make fuzz` runs them longer.
source "$(dirname "$0")/../lib.sh"
secs=${FUZZ_SECONDS:-14}

if ! make -s -C "$TOP" fuzz-build >"$WORK/build.log" 2>&1; then
	not_ok "the fuzz targets build (clang, libFuzzer, ASan, UBSan)" \
		"$(tail -n 15 "$WORK/build.log")"
	exit 0
fi
ok "the fuzz targets build (clang, libFuzzer, ASan, UBSan)"
if ! PADPACK=$PADPACK "$TOP/tests/fuzz/make-seeds.sh" >"$WORK/seeds.log" 2>&1; then
	not_ok "the seeds are made from the fixtures" "$(tail -n 15 "$WORK/seeds.log")"
	exit 0
fi
ok "the seeds are made from the fixtures"

for bin in "$TOP"/build-fuzz/fuzz-*; do
	name=${bin##*/fuzz-}
	if out=$(FUZZ_LOG=$WORK/$name.log "$TOP/tests/fuzz/run.sh" "$name" \
		 "$secs" "$WORK/corpus-$name"); then
		ok "$(printf '%s' "$out" | head -n 1), no crash, leak or sanitizer report"
	else
		not_ok "fuzz-$name for ${secs}s: no crash, leak or sanitizer report" \
			"$(printf '%s' "$out" | tail -n +2)"
	fi
done
