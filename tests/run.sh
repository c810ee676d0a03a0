#!/bin/bash
# Runs every test of padpack and ends with "N passed, N failed".
#   tests/run.sh [SUITE...]   (SUITE: a tests/integration/*.sh name)
# The unit tests run twice (plain and sanitized builds); the integration
# suites named in tests/asan-suites run again with the sanitized padpack.
# PADPACK and UNIT_TESTS choose the binaries; SANITIZED_ONLY=1 (what
# `make check SANITIZE=1` sets) runs each suite once, with them.
# TEST_JOBS suites run at once (default: one per CPU), the longest first
# (tests/suite-seconds); each one's lines are printed whole when it ends.
# Suites that share a cache or the container engine are kept apart
# (tests/suite-groups). TEST_JOBS=1 prints every line as it comes.
set -u
cd "$(dirname "$0")/.."
TOP=$PWD
PADPACK=${PADPACK:-$TOP/padpack}
UNIT_TESTS=${UNIT_TESTS:-build/unit-tests}
SANITIZED_ONLY=${SANITIZED_ONLY:-}
JOBS=${TEST_JOBS:-$(nproc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Runs one suite; a suite that exits non-zero without reporting a failed
# test is itself reported as a failure. The last line: its seconds.
suite() { # NAME PREFIX CMD...
	local name=$1 prefix=$2 rc start=$SECONDS cur; shift 2
	cur=$(mktemp "$tmp/cur.XXXXXX")
	"$@" 2>&1 | sed "s/^\(\(not \)\?ok - \)/\1$prefix/" | tee "$cur"
	rc=${PIPESTATUS[0]}
	if [ "$rc" != 0 ] && ! grep -q '^not ok - ' "$cur"; then
		echo "not ok - $prefix$name: exited with status $rc"
	fi
	rm -f "$cur"
	echo "# ${prefix}$name: $((SECONDS - start)) s"
}

# One task: a suite, or the unit tests, plain ("") or sanitized ("asan ").
run_task() { # PREFIX NAME
	local padpack=$PADPACK unit=$UNIT_TESTS
	if [ "$1" = "asan " ]; then
		padpack=$TOP/build-asan/padpack unit=build-asan/unit-tests
	fi
	if [ "$2" = unit ]; then
		suite unit "$1" "$unit"
	else
		suite "$2" "$1" env PADPACK="$padpack" bash "tests/integration/$2.sh"
	fi
}

# The tasks, "PREFIX|NAME" each, in the order they are listed.
list_tasks() { # SUITE...
	local s all=$#
	[ $# -eq 0 ] && set -- $(cd tests/integration && ls ./*.sh | sed 's|^\./||; s/\.sh$//')
	if [ "$all" = 0 ]; then
		echo "|unit"
		[ -z "$SANITIZED_ONLY" ] && [ -x build-asan/unit-tests ] && echo "asan |unit"
	fi
	for s in "$@"; do
		echo "|$s"
		if [ "$all" = 0 ] && [ -z "$SANITIZED_ONLY" ] && [ -x build-asan/padpack ] &&
		   grep -qx "$s" tests/asan-suites; then
			echo "asan |$s"
		fi
	done
}

# The tasks, longest first by tests/suite-seconds (30 s when not there).
by_length() {
	awk -F'|' 'NR == FNR { if ($0 !~ /^#/) { t = $0; sub(/^[0-9]+ /, "", t); s[t] = $0 + 0 }; next }
		{ k = $1 $2; print (k in s ? s[k] : 30) "\t" FNR "\t" $0 }' \
		tests/suite-seconds - | sort -k1,1nr -k2,2n | cut -f3
}

# Runs the tasks TEST_JOBS at a time; prints each one's output when it
# ends. A task holds, while it runs, its suite's name and its groups'
# (tests/suite-groups, read once): no other task holding one starts.
run_parallel() { # TASK...
	local -a pending=("$@")
	local -A running=() held=() holds=()
	local i t g free pid grp s
	for t in "$@"; do holds[${t#*|}]=${t#*|}; done
	while read -r grp s; do
		[ -n "${holds[$s]+x}" ] && holds[$s]+=" group:$grp"
	done <<<"$(awk '!/^#/ && NF { for (i = 2; i <= NF; i++) print $1, $i }' \
		tests/suite-groups)"
	while [ ${#pending[@]} -gt 0 ] || [ ${#running[@]} -gt 0 ]; do
		while [ ${#running[@]} -lt "$JOBS" ]; do
			free=
			for i in "${!pending[@]}"; do
				t=${pending[$i]} free=$i
				for g in ${holds[${t#*|}]}; do
					[ -n "${held[$g]:-}" ] && free= && break
				done
				[ -n "$free" ] && break
			done
			[ -n "$free" ] || break
			t=${pending[$free]}
			unset "pending[$free]"
			for g in ${holds[${t#*|}]}; do held[$g]=1; done
			run_task "${t%%|*}" "${t#*|}" >"$tmp/out.$free" 2>&1 &
			running[$!]="$free|$t"
		done
		wait -n -p pid
		t=${running[$pid]}
		unset "running[$pid]"
		cat "$tmp/out.${t%%|*}"
		t=${t#*|}
		for g in ${holds[${t#*|}]}; do unset "held[$g]"; done
	done
}

main() {
	local -a tasks
	mapfile -t tasks < <(list_tasks "$@" | by_length)
	if [ "$JOBS" -le 1 ] || [ ${#tasks[@]} -le 1 ]; then
		for t in "${tasks[@]}"; do run_task "${t%%|*}" "${t#*|}"; done
	else
		run_parallel "${tasks[@]}"
	fi
}

main "$@" | tee "$tmp/log"
if [ $# -eq 0 ] && mkdir -p build; then
	sed -n 's/^# \(\(asan \)\?[a-z0-9-]*\): \([0-9]*\) s$/\3 \1/p' "$tmp/log" | sort -rn >build/suite-seconds
fi
passed=$(grep -c '^ok - ' "$tmp/log")
failed=$(grep -c '^not ok - ' "$tmp/log")
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
