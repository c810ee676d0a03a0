#!/bin/bash
# The bash completion (completion/padpack) through bash's own machinery:
# a fresh bash sources the script, `complete -p padpack` names its
# function, and that function is called with COMP_WORDS, COMP_CWORD,
# COMP_LINE and COMP_POINT set as bash sets them; COMPREPLY is checked.
source "$(dirname "$0")/../lib.sh"
COMPLETION=$TOP/completion/padpack

# complete WORD...: what the completion offers for the command line WORD...
# (the last word is the one being completed), one per line, sorted.
complete_words() {
	bash -c '
		source "$1"; shift
		spec=$(complete -p padpack) || exit 1
		fn=${spec#*-F }; fn=${fn%% *}
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		"$fn" padpack "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$COMPLETION" "$@"
}

# offers NAME WANTED WORD...: passes when the completion of WORD... is
# exactly WANTED (words separated by blanks).
offers() {
	local name=$1 want=$2 got; shift 2
	got=$(complete_words "$@" | tr '\n' ' ' | sed 's/ $//')
	if [ "$got" = "$want" ]; then ok "$name"; else
		not_ok "$name" "completing: $*" "got:    $got" "wanted: $want"
	fi
}

check "bash reads it without errors, and it registers a function" \
	bash -c "source '$COMPLETION' && complete -p padpack | grep -q -- '-F _padpack padpack$'"
check "bash -n: the script parses" bash -n "$COMPLETION"
check "shellcheck finds nothing in it" shellcheck -s bash "$COMPLETION"

cd "$WORK" || exit 1
commands=$("$PADPACK" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 {print $1}' | sort | tr '\n' ' ' | sed 's/ $//')
offers "every command of padpack --help, and help" \
	"$(printf '%s\n' $commands help | sort | tr '\n' ' ' | sed 's/ $//')" "$PADPACK" ""
offers "help: every command's page, and spec" \
	"$(printf '%s\n' $commands spec | sort | tr '\n' ' ' | sed 's/ $//')" "$PADPACK" help ""
offers "help r: repo" "repo" "$PADPACK" help r
offers "help s: the commands, and spec" "sign spec split" "$PADPACK" help s
offers "help COMMAND: nothing more" "" "$PADPACK" help repo ""
offers "a command from its first letters" "verify verify-sig" "$PADPACK" veri
offers "repo's subcommands" "add diff init list publish remove snapshot verify" "$PADPACK" repo ""
offers "an option of repo list" "--snapshot" "$PADPACK" repo list "$WORK/r" --sn
offers "the options of repo list, and no other subcommand's" "--json --snapshot --suite" \
	"$PADPACK" repo list "$WORK/r" --
offers "the options of isa" "--dispatcher --exempt --ifunc --json --list-exempt --max" "$PADPACK" isa --
offers "docker prod: its options and the COMMON ones" \
	"--apt-mirror --apt-sources --build-dir --debs --output --quiet --records --registry --revision --source --spec --variant" \
	"$PADPACK" docker prod --

# Every long option a command's getopt table knows is offered (the
# completion reads --help: this finds an option --help leaves out).
for f in "$TOP"/src/cmd/*.c; do
	c=$(basename "$f" .c | tr _ -)
	grep -qx "$c" <<< "${commands// /$'\n'}" || continue
	want=$(grep -o '{ *"[a-z0-9-]*", *\(no\|required\|optional\)_argument' "$f" |
		sed 's/{ *"\([^"]*\)".*/--\1/' | sort -u)
	[ -n "$want" ] || continue
	got=$( (complete_words "$PADPACK" "$c" --
		for s in $(complete_words "$PADPACK" "$c" ""); do
			case $s in [a-z]*) complete_words "$PADPACK" "$c" "$s" --;; esac
		done) | sort -u)
	missing=$(comm -13 <(echo "$got") <(echo "$want") | tr '\n' ' ')
	if [ -z "$missing" ]; then ok "$c: every option of its getopt table is offered"
	else not_ok "$c: every option of its getopt table is offered" "missing: $missing"; fi
done

# Variants: asked of padpack (build --dry-run) for the spec given.
spec=$TOP/pkg/paddle.cfg
variants=$("$PADPACK" build --dry-run -c "$spec" | sed -n 's/^# //p' | sort | tr '\n' ' ' | sed 's/ $//')
check "the bundled spec has cpu-base, cpu-v3 and cpu-v4" bash -c "grep -qw cpu-base <<< '$variants' && grep -qw cpu-v3 <<< '$variants' && grep -qw cpu-v4 <<< '$variants'"
offers "build --variant: the bundled spec's variants" "$variants" "$PADPACK" build -c "$spec" --variant ""
offers "build --variant cpu: the cpu ones" "cpu-base cpu-v3 cpu-v4" "$PADPACK" build -c "$spec" --variant cpu
offers "split --spec=SPEC --variant=g (bash splits at =)" "gpu-base gpu-v3 gpu-v4" \
	"$PADPACK" split --spec = "$spec" --variant = g
mkdir -p one
cat > one/one.cfg <<'EOF'
name = "one";
version = "1.0";
maintainer = "T <t@example.org>";
homepage = "https://example.org/one";
summary = "a spec of one's own";
description = "A spec written for the completion test.";
axes = ( { name = "flavour"; values = ( { name = "vanilla"; suffix = ""; },
                                        { name = "mint"; suffix = "mint"; } ); } );
EOF
touch one/CMakeLists.txt
check "that spec is valid" "$PADPACK" build --dry-run -c one/one.cfg
offers "a spec of one's own: its variants" "mint vanilla" "$PADPACK" build -c one/one.cfg --variant ""
check "asking for them wrote nothing" test ! -e build

# Suites and snapshots: read from the repository named on the line.
"$PADPACK" repo init r --suite stable > /dev/null
"$PADPACK" repo init r --suite testing --codename trixie > /dev/null
offers "repo add DIR --suite: the repository's suites and codenames" "stable testing trixie" \
	"$PADPACK" repo add r --suite ""
offers "repo add DIR --suite t" "testing trixie" "$PADPACK" repo add r --suite t
"$PADPACK" repo snapshot r before --suite stable > /dev/null
offers "repo list DIR --snapshot: its snapshots" "before" "$PADPACK" repo list r --snapshot ""
offers "repo diff DIR: suites, codenames and snapshots" "before stable testing trixie" \
	"$PADPACK" repo diff r ""
offers "no suites where there is no repository" "" "$PADPACK" repo add nothere --suite ""

# Anything else: file names.
touch pkg_1.0_all.deb
offers "file names for operands" "pkg_1.0_all.deb" "$PADPACK" info pkg_
