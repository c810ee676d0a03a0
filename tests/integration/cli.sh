#!/bin/bash
# The command line: --help for every command, --version, usage errors, and
# the man page kept in step with the commands and exit codes.
source "$(dirname "$0")/../lib.sh"
man=$TOP/doc/padpack.1

check "padpack --version" bash -c "'$PADPACK' --version | grep -Eq '^padpack [0-9]+\.[0-9]+\.[0-9]+$'"
check "padpack --help lists the exit codes" bash -c "'$PADPACK' --help | grep -q '^Exit codes:'"
check_fails "no command is a usage error" 2 "usage: padpack COMMAND" "$PADPACK"
check_fails "an unknown command is a usage error" 2 "'frobnicate' is not a command" "$PADPACK" frobnicate

commands=$("$PADPACK" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 {print $1}')
[ -n "$commands" ] || not_ok "padpack --help lists commands"
for c in $commands; do
	check "$c --help prints its usage" bash -c "'$PADPACK' $c --help | grep -q '^usage: padpack $c'"
	check "$c is documented in padpack(1)" \
		bash -c "sed 's/\\\\-/-/g' '$man' | grep -q '^\.SS \"$c[ \"]'"
done
for code in $("$PADPACK" --help | sed -n '/^Exit codes:/,$p' | awk '$1 ~ /^[0-9]+$/ {print $1}'); do
	check "exit code $code is documented in padpack(1)" \
		bash -c "sed -n '/^\.SH \"EXIT STATUS\"/,/^\.SH /p' '$man' | grep -qx '\.B $code'"
done
check "padpack(1) renders without groff warnings" bash -c "groff -man -ww -z '$man' 2>&1 | (! grep .)"
