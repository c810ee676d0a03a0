#!/bin/bash
# Runs every test of padpack and ends with "N passed, N failed".
#   tests/run.sh [SUITE...]   (SUITE: a tests/integration/*.sh name)
# The unit tests run twice (plain and sanitized builds); the integration
# suites named in tests/asan-suites run again with the sanitized padpack.
# PADPACK and UNIT_TESTS choose the binaries; SANITIZED_ONLY=1 (what
# `make check SANITIZE=1` sets) runs each suite once, with them.
set -u
cd "$(dirname "$0")/.."
TOP=$PWD
PADPACK=${PADPACK:-$TOP/padpack}
UNIT_TESTS=${UNIT_TESTS:-build/unit-tests}
SANITIZED_ONLY=${SANITIZED_ONLY:-}
log=$(mktemp)
trap 'rm -f "$log" "$log".*' EXIT

# Runs one suite; a suite that exits non-zero without reporting a failed
# test is itself reported as a failure.
suite() { # NAME PREFIX CMD...
	local name=$1 prefix=$2 rc start=$SECONDS; shift 2
	"$@" 2>&1 | sed "s/^\(\(not \)\?ok - \)/\1$prefix/" | tee "$log.cur"
	rc=${PIPESTATUS[0]}
	if [ "$rc" != 0 ] && ! grep -q '^not ok - ' "$log.cur"; then
		echo "not ok - $prefix$name: exited with status $rc"
	fi
	echo "# ${prefix}$name: $((SECONDS - start)) s"
}

main() {
	local s suites=("$@")
	[ $# -eq 0 ] && suites=($(cd tests/integration && ls ./*.sh | sed 's|^\./||; s/\.sh$//'))
	if [ $# -eq 0 ]; then
		suite unit "" "$UNIT_TESTS"
		[ -z "$SANITIZED_ONLY" ] && [ -x build-asan/unit-tests ] &&
			suite unit "asan " build-asan/unit-tests
	fi
	for s in "${suites[@]}"; do
		suite "$s" "" env PADPACK="$PADPACK" bash "tests/integration/$s.sh"
		if [ $# -eq 0 ] && [ -z "$SANITIZED_ONLY" ] && [ -x build-asan/padpack ] &&
		   grep -qx "$s" tests/asan-suites; then
			suite "$s" "asan " env PADPACK="$TOP/build-asan/padpack" \
				bash "tests/integration/$s.sh"
		fi
	done
}

main "$@" | tee "$log"
passed=$(grep -c '^ok - ' "$log")
failed=$(grep -c '^not ok - ' "$log")
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
