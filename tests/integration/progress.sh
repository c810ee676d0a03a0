#!/bin/bash
# Progress on long work: on a terminal (script -qec gives a pseudo-
# terminal) split, pack, verify, repo add and repo publish draw a line on
# stderr (what, how far, time) and end with a summary line; without a
# terminal, or with --quiet, their output is what it was.
# PADPACK_PROGRESS=always shows the line at once (work this small ends
# before the half second after which it otherwise appears).
source "$(dirname "$0")/../lib.sh"
source "$TOP/tests/lib-pgp.sh"
export SOURCE_DATE_EPOCH=1700000000 DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org
cd "$WORK" || exit 1

# on_tty CMD: CMD's output (stdout and stderr) on a pseudo-terminal.
on_tty() { script -qec "$*" /dev/null; }
q() { printf '%q' "$1"; }

if ! command -v script >/dev/null; then
	not_ok "script (bsdutils) is installed"
	exit 0
fi

# split: a program and its -dbgsym.
S=$WORK/stage
mkdir -p "$S/usr/bin" "$S/usr/share/doc/progdemo"
printf 'int main(void) { return 0; }\n' > main.c
cc -g -O1 -o "$S/usr/bin/progdemo" main.c
printf 'Copyright (c) 2024 Jane Upstream\n\nPermission is granted to use it.\n' \
	> "$S/usr/share/doc/progdemo/COPYING"
split_cmd="$(q "$PADPACK") split --stage $(q "$S") --name progdemo --version 1.0"
check_fails "split on a terminal: a line per task, redrawn, how far and the time" 0 \
	$'\r\e\\[Kpadpack split: building and packing [a-z-]* ?\\([0-9]/2 packages, [0-9]+%, [0-9]+ s' \
	on_tty "PADPACK_PROGRESS=always $split_cmd -o d1"
check_fails "split on a terminal: a summary line with the time taken" 0 \
	$'\r\e\\[Kpadpack split: 2 packages of progdemo 1.0-1 in [0-9]+\\.[0-9] s\r?$' \
	on_tty "PADPACK_PROGRESS=always $split_cmd -o d2"
check_fails "split on a terminal: the table still follows on stdout" 0 \
	'^padpack split: progdemo 1.0-1, 1 variant, 2 packages in d3' \
	on_tty "PADPACK_PROGRESS=always $split_cmd -o d3"
check_fails "split -q on a terminal: nothing at all" 0 '^$' \
	on_tty "PADPACK_PROGRESS=always $split_cmd -o d4 -q"
check_fails "split --json on a terminal: no progress" 0 '^\{' \
	on_tty "PADPACK_PROGRESS=always $split_cmd -o d5 --json 2>&1 | head -c 1"
check "split without a terminal: nothing on stderr" bash -c \
	"$split_cmd -o d6 2>err6 >out6 && test ! -s err6"
check "split without a terminal: stdout as before (the table only)" bash -c \
	"sed 's/ d6\$/ d3/' out6 | cmp - <(PADPACK_PROGRESS=never $split_cmd -o d3)"
check_fails "PADPACK_PROGRESS=always without a terminal: plain lines, no escapes" 0 \
	'^padpack split: building and packing .*packages' \
	bash -c "PADPACK_PROGRESS=always $split_cmd -o d7 2>&1 >/dev/null | grep -v $'\e'"
check_fails "PADPACK_PROGRESS=never on a terminal: no progress" 0 '^[^\r]*$' \
	on_tty "PADPACK_PROGRESS=never $split_cmd -o d8 2>&1 >/dev/null"

# pack: bytes of the payload.
mkdir -p tree/DEBIAN tree/usr/share/big
printf 'Package: big\nVersion: 1\nArchitecture: all\nMaintainer: A <a@example.org>\nDescription: big\n x\n' \
	> tree/DEBIAN/control
head -c 3000000 /dev/urandom > tree/usr/share/big/blob
check_fails "pack on a terminal: archiving and compressing, in bytes" 0 \
	'padpack pack: archiving and compressing \([0-9.]+ [km]?B/2\.9 MB, [0-9]+%' \
	on_tty "PADPACK_PROGRESS=always $(q "$PADPACK") pack -Z none tree big1.deb"
check_fails "pack on a terminal: the summary, packed in ... s" 0 \
	'padpack pack: packed in [0-9.]+ s' \
	on_tty "PADPACK_PROGRESS=always $(q "$PADPACK") pack -Z none tree big2.deb"
check_fails "pack on a terminal, quick work: no progress (under half a second)" 0 \
	$'^padpack: built .big3.deb.\r?$' \
	on_tty "$(q "$PADPACK") pack -Z none tree big3.deb"
check "pack without a terminal: only 'built' on stdout, nothing on stderr" bash -c \
	"'$PADPACK' pack -Z none tree big4.deb 2>err >out && test ! -s err &&
	 test \"\$(cat out)\" = \"padpack: built 'big4.deb'\""

# verify: bytes read.
"$PADPACK" key generate --uid "Paddle Ed <ed@example.org>" --out ed >/dev/null
"$PADPACK" sign big1.deb --key ed -q
check_fails "verify on a terminal: checking signature and files, then verified" 0 \
	$'padpack verify: checking signature and files .*\r\e\\[Kpadpack verify: verified in [0-9.]+ s' \
	on_tty "PADPACK_PROGRESS=always $(q "$PADPACK") verify big1.deb --keyring ed/public.gpg"
check "verify without a terminal: the report only" bash -c \
	"'$PADPACK' verify big1.deb --keyring ed/public.gpg 2>err >out && test ! -s err &&
	 head -n 1 out | grep -qx 'big1.deb: good origin signature'"

# repo add and publish of several packages.
mkdir -p debs
for i in 1 2 3 4 5; do
	t=$WORK/mk/pkg$i
	mkdir -p "$t/DEBIAN"
	printf 'Package: pkg%s\nVersion: 1.0\nArchitecture: all\nMaintainer: T <t@example.org>\nDescription: test package %s\n' \
		"$i" "$i" > "$t/DEBIAN/control"
	"$PADPACK" pack -q "$t" "debs/pkg${i}_1.0_all.deb"
done
"$PADPACK" repo init repo >/dev/null
on_tty "PADPACK_PROGRESS=always $(q "$PADPACK") repo add repo debs/*.deb" > add.out
check_fails "repo add on a terminal: the progress line, of the packages given" 0 \
	'padpack repo add: adding \(0/5 packages, 0%' cat add.out
# (a progress line drawn just before it is on the same line of the
# file, before the \r: the pattern is not anchored)
check_fails "repo add on a terminal: each 'added' line clears the progress line first" 0 \
	$'\r\e\\[Kadded pool/main/p/pkg5/pkg5_1.0_all.deb' cat add.out
check_fails "repo add on a terminal: the summary, with the time" 0 \
	'padpack repo add: 5 packages added in [0-9.]+ s' cat add.out
check_fails "repo publish on a terminal: pool files read, then published in" 0 \
	$'padpack repo publish: reading pool files.*padpack repo publish: published in [0-9.]+ s' \
	on_tty "PADPACK_PROGRESS=always $(q "$PADPACK") repo publish repo --unsigned --full"
check "repo publish without a terminal: nothing on stderr" bash -c \
	"'$PADPACK' repo publish repo --unsigned 2>err >/dev/null && test ! -s err"

# build: its line per variant (stdout) says which step of how many; the
# last line the outcome and the time.
build_cmd="$(q "$PADPACK") build -c $(q "$TOP/tests/data/tiny.cfg") -B $(q "$WORK/b") --variant plain-cpu"
on_tty "$build_cmd" > build.out
check_fails "build on a terminal: the variant's step of its steps" 0 \
	'plain-cpu +(configure|build|test|install) +[0-9.]+ s  step [1-4]/4  log: ' cat build.out
check_fails "build on a terminal: a summary line with the time taken" 0 \
	'^padpack build: 1 done, 0 failed, 0 skipped in [0-9.]+ s' cat build.out
check_fails "build without a terminal: plain lines, no steps, no summary line" 0 '^$' \
	bash -c "$build_cmd 2>&1 | grep 'step [0-9]\|padpack build: 1 done'; true"
check_fails "build on a terminal: how many variants ended" 0 \
	'  1 of 1 variants ended' cat build.out
# Two variants one after the other (-j 1): once the first is done, the
# time left is told from its time.
on_tty "$(q "$PADPACK") build -c $(q "$TOP/tests/data/tiny.cfg") -B $(q "$WORK/b2") -j 1 --variant plain-cpu --variant salty-cpu" > build2.out
check_fails "build on a terminal: the time left once a variant is done" 0 \
	'  1 of 2 variants ended, about [0-9]+ s left' cat build2.out
check_fails "build on a terminal: no time left before any variant is done" 0 \
	'  0 of 2 variants ended$' bash -c "tr '\\r' '\\n' < build2.out | sed 's/\\x1b\\[K//g'"
