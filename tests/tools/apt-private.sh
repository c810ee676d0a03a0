#!/bin/bash
# Runs apt against a repository with a private configuration that ignores
# the machine's own /etc/apt (so no system setting relaxes a check).
#
# usage: apt-private.sh DIR SOURCE-LINE APT-ARGS...
#   DIR          a scratch directory for apt's state (created)
#   SOURCE-LINE  e.g. "deb [signed-by=/k.gpg] file:/srv/repo stable main"
# Fails when apt fails or when `apt-get update` prints any W: or E: line.
set -u
W=$1 SRC=$2
shift 2
mkdir -p "$W/lists/partial" "$W/cache/archives/partial" "$W/etc/apt.conf.d" \
	"$W/etc/sources.list.d" "$W/etc/preferences.d" "$W/etc/trusted.gpg.d"
echo "$SRC" > "$W/etc/sources.list"
cat > "$W/apt.conf" <<EOC
Dir::Etc::Main "/dev/null";
Dir::Etc::Parts "$W/etc/apt.conf.d";
Dir::Etc::SourceList "$W/etc/sources.list";
Dir::Etc::SourceParts "$W/etc/sources.list.d";
Dir::Etc::Preferences "$W/etc/preferences";
Dir::Etc::PreferencesParts "$W/etc/preferences.d";
Dir::Etc::Trusted "$W/etc/trusted.gpg";
Dir::Etc::TrustedParts "$W/etc/trusted.gpg.d";
Dir::State "$W";
Dir::State::Lists "$W/lists";
Dir::State::status "$W/status";
Dir::Cache "$W/cache";
Dir::Log "$W";
APT::Sandbox::User "root";
Acquire::Languages "none";
EOC
[ -f "$W/status" ] || : > "$W/status"
export APT_CONFIG=$W/apt.conf
out=$(apt-get -q "$@" 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc = 0 ] || exit $rc
if [ "$1" = update ] && printf '%s\n' "$out" | grep -qE '^(W|E): '; then
	exit 1
fi
exit 0
