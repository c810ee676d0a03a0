#!/bin/bash
# The command line: --help for every command, --version, usage errors.
# The man pages are kept in step with the commands by docs.sh.
source "$(dirname "$0")/../lib.sh"

check "padpack --version" bash -c "'$PADPACK' --version | grep -Eq '^padpack [0-9]+\.[0-9]+\.[0-9]+$'"
check "padpack --help lists the exit codes" bash -c "'$PADPACK' --help | grep -q '^Exit codes:'"
check_fails "no command is a usage error" 2 "usage: padpack COMMAND" "$PADPACK"
check_fails "an unknown command is a usage error" 2 "'frobnicate' is not a command" "$PADPACK" frobnicate

commands=$("$PADPACK" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 {print $1}')
[ -n "$commands" ] || not_ok "padpack --help lists commands"
for c in $commands; do
	check "$c --help prints its usage" bash -c "'$PADPACK' $c --help | grep -q '^usage: padpack $c'"
done
