#!/bin/bash
# A bounded run of every libFuzzer target (tests/fuzz/fuzz-*.c: one per
# parser of outside input, built with ASan and UBSan by make fuzz-build)
# for FUZZ_SECONDS each (default 10), from the committed corpora
# tests/fuzz/corpus-NAME (which hold every input that once failed) and
# the seeds of tests/fuzz/make-seeds.sh. `make fuzz` runs them longer.
source "$(dirname "$0")/../lib.sh"
secs=${FUZZ_SECONDS:-10}

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

# What the fuzzers once failed on, through the commands: a clear error.
# deb_around TAR OUT: a .deb with TAR as both control.tar and data.tar,
# as fuzz-tar makes it.
deb_around() {
	mkdir -p "$WORK/around"
	printf '2.0\n' > "$WORK/around/debian-binary"
	cp "$1" "$WORK/around/control.tar"
	cp "$1" "$WORK/around/data.tar"
	(cd "$WORK/around" && rm -f "$2" && ar qc "$2" debian-binary control.tar data.tar)
}
deb_around "$TOP/tests/fuzz/corpus-tar/crash-negative-size" "$WORK/negative.deb"
for cmd in info field; do
	check_fails "$cmd: a control file declaring a negative size is refused" 3 \
		"control file 'postrm' declares a negative size \(-9223372036854775808\)" \
		"$PADPACK" $cmd "$WORK/negative.deb"
done

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
