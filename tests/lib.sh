# Shared helpers of the integration tests (sourced, bash).
# Each test prints one line: "ok - NAME" or "not ok - NAME", with "# ..."
# lines before a failure saying why; tests/run.sh counts them.
set -u

PADPACK=${PADPACK:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/padpack}
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export TZ=UTC LC_ALL=C.UTF-8
# make check's own variables would reach the builds the suites run and
# the .buildinfo's Environment: a suite sees the same environment from
# make and from a shell, so its packages are the same bytes.
unset MAKEFLAGS MFLAGS MAKELEVEL
SUITE=$(basename "$0" .sh)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/padpack-$SUITE.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
# What the tools a suite runs leave behind in TMPDIR goes with $WORK:
# lintian 2.116 leaves two mldbm-elf files a run, and a dpkg-deb that a
# closed pipe kills leaves its dpkg-deb.* directory.
mkdir "$WORK/tmp" && export TMPDIR=$WORK/tmp

source "$TOP/tests/tools/verdicts.sh"

# lintian gives the verdict it gave before on the same bytes
# (tests/tools/lintian-cached says how it knows); exported, so the
# commands of check and bash -c take it too.
lintian() { "$TOP/tests/tools/lintian-cached" "$@"; }
export -f lintian
export TOP

# The C fixtures a suite compiles itself name no $WORK (a new directory
# each run) in their debug information, so that they are the same bytes
# run after run, and so are the packages made of them.
cc() { command cc -ffile-prefix-map="$WORK"=/work "$@"; }
gcc() { command gcc -ffile-prefix-map="$WORK"=/work "$@"; }

# noise BYTES [SEED]: incompressible bytes, the same each run.
noise() {
	head -c "$1" /dev/zero | openssl enc -aes-128-ctr -nosalt -K "$(printf '%032x' "${2:-1}")" -iv "$(printf '%032d' 0)"
}

ok() { echo "ok - $SUITE: $1"; }
not_ok() {
	local name=$1; shift
	[ $# -gt 0 ] && printf '# %s\n' "$@"
	echo "not ok - $SUITE: $name"
}

# check NAME CMD...: passes when CMD exits 0; shows its output otherwise.
check() {
	local name=$1 out; shift
	if out=$("$@" 2>&1); then ok "$name"; else
		not_ok "$name" "command failed: $*" "$(printf '%s' "$out" | tail -n 15)"
	fi
}

# check_fails NAME EXPECTED-RC PATTERN CMD...: passes when CMD exits with
# EXPECTED-RC and its stderr/stdout matches the grep -E PATTERN.
check_fails() {
	local name=$1 want=$2 pat=$3 out rc; shift 3
	out=$("$@" 2>&1); rc=$?
	if [ "$rc" = "$want" ] && { [ -z "$pat" ] || printf '%s\n' "$out" | grep -Eq -- "$pat"; }; then
		ok "$name"
	else
		not_ok "$name" "command: $*" "exit $rc (want $want), output:" \
			"$(printf '%s' "$out" | tail -n 10)" "wanted pattern: $pat"
	fi
}

# same NAME FILE-A FILE-B: passes when both files are identical.
same() {
	if cmp -s "$2" "$3"; then ok "$1"; else
		not_ok "$1" "differ: $2 $3" "$(diff -u "$2" "$3" | head -n 20)"
	fi
}

# check_json NAME PYTHON CMD...: passes when CMD's standard output goes
# through python3 -m json.tool and the python expression PYTHON holds
# for the document, named d. CMD's exit status is not looked at (a
# failed check prints its document too): assert d's status instead.
check_json() {
	local name=$1 expr=$2 out pretty why; shift 2
	out=$("$@" 2>/dev/null)
	if ! pretty=$(printf '%s' "$out" | python3 -m json.tool 2>&1); then
		not_ok "$name" "not JSON: $*" "$(printf '%s' "$pretty" | tail -n 1)" \
			"$(printf '%s' "$out" | tr -s '\n ' ' ' | cut -c1-800)"
	elif why=$(printf '%s' "$pretty" | python3 -c 'import json, sys
d = json.load(sys.stdin)
assert eval(sys.argv[1]), "false: " + sys.argv[1]' "$expr" 2>&1); then
		ok "$name"
	else
		not_ok "$name" "command: $*" "$(printf '%s' "$why" | tail -n 1)" \
			"$(printf '%s' "$out" | tr -s '\n ' ' ' | cut -c1-800)"
	fi
}
