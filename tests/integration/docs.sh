#!/bin/bash
# The documentation kept in step with the code: a man page per command
# (doc/man/padpack-COMMAND.1.scd, made into roff by `make man`) naming
# every option its --help names; padpack(1) listing every command and exit
# code; padpack-spec(5) naming every setting of the spec schema; every
# page rendering without groff warnings and as HTML without mandoc's
# (make html); `padpack help COMMAND` opening
# the page; and the README's tour, run (tests/docs/tour.sh).
source "$(dirname "$0")/../lib.sh"
MAN=$TOP/build/man
make -C "$TOP" -s man >"$WORK/make.log" 2>&1 || not_ok "make man" "$(tail -n 5 "$WORK/make.log")"

# render PAGE: the page as plain text (ASCII hyphens), one long line a
# paragraph, so that a phrase is never cut by the line width.
render() {
	MANWIDTH=1000 LC_ALL=C man -l "$1" 2>/dev/null | col -b
}

# The options a command's --help names: in its usage lines and in the
# lines that start with an option.
help_options() {
	"$PADPACK" "$1" --help | awk '/^$/ {u = 0} NR == 1 {u = 1} u || /^ *-/' |
		grep -oE -- '(^|[^A-Za-z0-9_-])--?[A-Za-z][A-Za-z0-9-]*' |
		sed 's/^[^-]*//' | sort -u
}

commands=$("$PADPACK" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 {print $1}')
[ -n "$commands" ] || not_ok "padpack --help lists commands"
render "$MAN/man1/padpack.1" >"$WORK/padpack.txt"
for c in $commands; do
	page=$MAN/man1/padpack-$c.1
	if [ ! -f "$page" ]; then
		not_ok "padpack-$c(1) exists" "no doc/man/padpack-$c.1.scd"
		continue
	fi
	render "$page" >"$WORK/$c.txt"
	help_options "$c" >"$WORK/$c.help"
	missing=$(while read -r o; do
		grep -qE -- "(^|[^A-Za-z0-9-])$o([^A-Za-z0-9-]|$)" "$WORK/$c.txt" || echo "$o"
	done <"$WORK/$c.help")
	if [ -z "$missing" ]; then
		ok "padpack-$c(1) names every option of 'padpack $c --help'"
	else
		not_ok "padpack-$c(1) names every option of 'padpack $c --help'" \
			"missing from doc/man/padpack-$c.1.scd:" $missing
	fi
	check "padpack(1) lists $c" grep -qE "padpack-$c\(1\)" "$WORK/padpack.txt"
done

sed -n '/^EXIT STATUS/,/^[A-Z]/p' "$WORK/padpack.txt" >"$WORK/exit.txt"
for code in $("$PADPACK" --help | sed -n '/^Exit codes:/,$p' | awk '$1 ~ /^[0-9]+$/ {print $1}'); do
	check "exit code $code is documented in padpack(1)" grep -qE "^ +$code( |$)" "$WORK/exit.txt"
done

render "$MAN/man5/padpack-spec.5" >"$WORK/spec.txt"
python3 "$TOP/tests/docs/spec-settings.py" "$TOP/src/lib/spec_schema.c" | cut -f1 >"$WORK/settings"
[ -s "$WORK/settings" ] || not_ok "the spec schema's settings are read"
missing=$(while read -r s; do grep -qF -- "$s" "$WORK/spec.txt" || echo "$s"; done <"$WORK/settings")
if [ -z "$missing" ]; then
	ok "padpack-spec(5) names every setting of the spec schema ($(wc -l <"$WORK/settings"))"
else
	not_ok "padpack-spec(5) names every setting of the spec schema" \
		"missing from doc/man/padpack-spec.5.scd:" $missing
fi

missing=$(while read -r s; do grep -qF -- "\`$s\`" "$TOP/doc/spec.md" || echo "$s"; done <"$WORK/settings")
if [ -z "$missing" ]; then
	ok "doc/spec.md names every setting of the spec schema"
else
	not_ok "doc/spec.md names every setting of the spec schema" "missing:" $missing
fi
python3 "$TOP/tests/docs/spec-md.py" "$TOP/doc/man/padpack-spec.5.scd" >"$WORK/spec.md"
same "doc/spec.md is padpack-spec(5) in Markdown (tests/docs/spec-md.py makes it)" \
	"$WORK/spec.md" "$TOP/doc/spec.md"

check "README.md and doc/*.md: every link leads to a file and heading" \
	python3 "$TOP/tests/docs/links.py" "$TOP/README.md" "$TOP"/doc/*.md

for page in "$MAN"/man*/*.[15]; do
	check "$(basename "$page") renders without groff warnings" \
		bash -c "groff -man -ww -z '$page' 2>&1 | (! grep .)"
done

# make html: every page made into build/html/ by mandoc, with no warning
# (made afresh, -B, so a warning shows even when the pages were made
# before); scripts/scdoc-mandoc.awk, which drops the paragraph macros
# mandoc would skip, changes nothing mandoc renders.
if make -C "$TOP" -s -B html >"$WORK/html.log" 2>&1 && [ ! -s "$WORK/html.log" ]; then
	ok "make html builds every page without a warning"
else
	not_ok "make html builds every page without a warning" "$(head -n 5 "$WORK/html.log")"
fi
for scd in "$TOP"/doc/man/*.scd; do
	name=$(basename "$scd" .scd) # padpack-repo.1
	title="${name%.*}(${name##*.})" # padpack-repo(1)
	check "make html made $name.html" grep -qF "<title>$title</title>" "$TOP/build/html/$name.html"
done
for page in "$MAN"/man*/*.[15]; do
	mandoc -T html "$page" >"$WORK/raw.html" 2>/dev/null
	awk -f "$TOP/scripts/scdoc-mandoc.awk" "$page" | mandoc -T html >"$WORK/prep.html" 2>/dev/null
	same "$(basename "$page"): scdoc-mandoc.awk changes nothing in mandoc's HTML" \
		"$WORK/raw.html" "$WORK/prep.html"
done

check "padpack help repo opens padpack-repo(1)" bash -c "
	MANPATH='$MAN' MANPAGER=cat PAGER=cat MANWIDTH=80 '$PADPACK' help repo | grep -q 'padpack-repo - '"
check "padpack help spec opens padpack-spec(5)" bash -c "
	MANPATH='$MAN' MANPAGER=cat PAGER=cat MANWIDTH=80 '$PADPACK' help spec | grep -q 'padpack-spec - '"
check "padpack repo --help stays the short form" bash -c "'$PADPACK' repo --help | head -n 1 | grep -q '^usage: padpack repo'"
check_fails "padpack help of no command is a usage error" 2 "'frobnicate' is not a command" "$PADPACK" help frobnicate

# The README's tour (tests/docs/tour.py): each block's commands run in a
# scratch checkout (pkg/ in a git tree, ./padpack), those
# marked root in a clean Debian root (tests/tools/debian-root.sh) that
# sees the scratch checkout at its own path; each command's output is
# compared with the README's.
source "$TOP/tests/tools/debian-root.sh"
T=$WORK/tour
mkdir -p "$T/.tour"
ln -s "$PADPACK" "$T/padpack"
cp -a "$TOP/pkg" "$T/"
(cd "$T" && git init -q && git add pkg &&
	git -c user.name=tour -c user.email=tour@example.org commit -qm tour)
blocks=$(python3 "$TOP/tests/docs/tour.py" extract "$TOP/README.md" "$T/.tour") ||
	not_ok "the README's tour blocks are read" "$blocks"
for s in "$T"/.tour/*.sh; do
	[ -e "$s" ] || continue
	n=${s%.*.sh}; n=${n##*/}
	case $s in
	*.host.sh)
		# what a block exports (PATH ...) holds for the blocks after it
		(cd "$T" && env SOURCE_DATE_EPOCH=1700000000 bash -c \
			'[ -f .tour/env ] && source .tour/env; source "$1"; export -p >.tour/env' \
			tour "$s") >"$T/.tour/$n.out" 2>&1 ;;
	*.root.sh)
		if ! debian_root_prepare; then
			not_ok "README tour block $n: a clean Debian root" "mmdebstrap failed"
			continue
		fi
		{ printf 'mkdir -p %q && ln -s /debs %q && cd %q\n' "$(dirname "$T")" "$T" "$T"
		  echo 'sudo() { "$@"; }'
		  printf 'printf %s >/etc/apt/apt.conf.d/99tour\n' \
			"'Dir::Etc::SourceList \"/dev/null\";\nAPT::Get::List-Cleanup \"0\";\n'"
		  cat "$s"; } >"$T/.tour/$n.run"
		debian_root_run "$T" "bash /debs/.tour/$n.run" >"$T/.tour/$n.out" 2>&1 ;;
	esac
	if why=$(python3 "$TOP/tests/docs/tour.py" compare "$T/.tour/$n.expected" "$T/.tour/$n.out"); then
		ok "README tour block $n prints what the README shows"
	else
		not_ok "README tour block $n prints what the README shows" "$why"
	fi
done
[ "${blocks:-0}" -ge 5 ] || not_ok "the README has its tour (5 blocks or more)" "found ${blocks:-0}"
