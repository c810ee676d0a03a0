#!/bin/bash
# padpack repo add/publish are safe across a power cut: from an strace of
# each, every file reached the disk before a name or an index pointed at
# it, and the directories after (tests/tools/check-sync-order.py says the
# rules). --no-sync syncs nothing.
source "$(dirname "$0")/../lib.sh"
CHECK=$TOP/tests/tools/check-sync-order.py
# LeakSanitizer cannot run under ptrace (a sanitized padpack, make check
# SANITIZE=1); the other repo suites check for leaks.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
R=$WORK/repo
CALLS=fsync,fdatasync,syncfs,openat,rename,renameat,renameat2,link,linkat,symlink,symlinkat,mkdir,mkdirat
TRACE=(strace -f -y -qq -e "trace=$CALLS")

mkdir -p "$WORK/debs"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
	t=$WORK/mk/pkg$i
	mkdir -p "$t/DEBIAN" "$t/usr/share/pkg$i"
	printf 'Package: pkg%s\nVersion: 1.0\nArchitecture: all\nMaintainer: T <t@example.org>\nDescription: test package %s\n' \
		"$i" "$i" > "$t/DEBIAN/control"
	echo "data $i" > "$t/usr/share/pkg$i/data"
	SOURCE_DATE_EPOCH=1700000000 "$PADPACK" pack -q "$t" "$WORK/debs/pkg${i}_1.0_all.deb"
done
"$PADPACK" key generate --uid "Durable <d@example.org>" --out "$WORK/keys" >/dev/null
"$PADPACK" repo init "$R" --codename bookworm --key "$WORK/keys/secret.pem" >/dev/null

# traced NAME TRACE CMD...: runs CMD under strace; the checker passes it.
traced() {
	local name=$1 trace=$2; shift 2
	if ! "${TRACE[@]}" -o "$trace" "$@" >/dev/null 2>"$WORK/err"; then
		not_ok "$name" "command failed: $*" "$(cat "$WORK/err")"
		return
	fi
	check_fails "$name" 0 "checked: [1-9][0-9]* files renamed into place, .* [1-9][0-9]* index listings, [1-9][0-9]* suite exchanges" \
		python3 "$CHECK" "$trace" "$R"
}

traced "add --publish (the first publish: a rename) syncs in order" "$WORK/t1" \
	"$PADPACK" repo add "$R" "$WORK/debs/pkg1_1.0_all.deb" --publish
traced "add --publish of two more (an exchange) syncs in order" "$WORK/t2" \
	"$PADPACK" repo add "$R" "$WORK/debs/pkg2_1.0_all.deb" "$WORK/debs/pkg3_1.0_all.deb" --publish
check_fails "... the pool files were synced, then their directories, before the indices" 0 \
	"checked: .* 2 pool files" python3 "$CHECK" "$WORK/t2" "$R"
check "... InRelease and Release.gpg were synced before the exchange" bash -c "
	grep -q 'fsync([0-9]*<$R/dists/\.stable\.new/\.InRelease\.' '$WORK/t2' &&
	grep -q 'fsync([0-9]*<$R/dists/\.stable\.new/\.Release\.gpg\.' '$WORK/t2' &&
	grep -q 'renameat2(.*RENAME_EXCHANGE' '$WORK/t2'"
"$PADPACK" repo remove "$R" pkg2 > /dev/null
traced "publish after a remove syncs in order" "$WORK/t3" "$PADPACK" repo publish "$R"
traced "publish --full syncs in order" "$WORK/t4" "$PADPACK" repo publish "$R" --full
# Many at once: the pool files synced by one syncfs before their renames
# and one after, not by an fsync each (a flush of the disk's cache each).
traced "add --publish of 9 (a batch) syncs in order" "$WORK/t7" \
	"$PADPACK" repo add "$R" "$WORK"/debs/pkg{4,5,6,7,8,9,10,11,12}_1.0_all.deb --publish
check "... with two syncfs, not an fsync a pool file" bash -c "
	[ \$(grep -c 'syncfs(' '$WORK/t7') = 2 ] &&
	! grep -q 'fsync([0-9]*<$R/pool/main/p/pkg5' '$WORK/t7'"
check "the repository verifies" "$PADPACK" repo verify "$R" --keyring "$WORK/keys/public.gpg"

# The checker fails where the order is wrong: the trace of a real run with
# the fsync of Packages.xz moved after its rename, or a directory's fsync
# dropped.
python3 - "$WORK/t2" "$WORK/bad1" "$WORK/bad2" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines(True)
def done(k):  # the line where the call begun at line k completes
    if not lines[k].rstrip().endswith("<unfinished ...>"):
        return k
    pid = lines[k].split()[0]
    return next(n for n in range(k + 1, len(lines))
                if lines[n].split()[0] == pid and "resumed>" in lines[n])
i = next(k for k, l in enumerate(lines) if re.search(r"fsync\(\d+<[^>]*/\.Packages\.xz\.", l))
j = done(next(k for k in range(i, len(lines)) if re.search(r"rename\(.*/Packages\.xz\"", lines[k])))
# the fsync (both halves of it, when strace split it: the file is synced
# on its own thread) moved after the rename completes
sync = [i] + ([done(i)] if done(i) != i else [])
moved = [l for k, l in enumerate(lines[:j + 1]) if k not in sync] + \
    [lines[k] for k in sync] + lines[j + 1:]
open(sys.argv[2], "w").writelines(moved)
dropped = [l for l in lines if not re.search(r"fsync\(\d+<[^>]*/pool/main/p/pkg2>\)", l)]
open(sys.argv[3], "w").writelines(dropped)
PY
check_fails "the checker fails when an index is renamed before it is synced" 1 \
	"not synced in order: 1: .*/\.Packages\.xz\..* renamed to .*/Packages\.xz unsynced" \
	python3 "$CHECK" "$WORK/bad1" "$R"
check_fails "the checker fails when a pool directory is not synced before an index names it" 1 \
	"not synced in order: 3: .*pool/main/p/pkg2/pkg2_1\.0_all\.deb is named by an index or list" \
	python3 "$CHECK" "$WORK/bad2" "$R"

# One name twice in one add: the first copy is in place (its batch
# committed) before the second is compared with it.
t=$WORK/mk/pkg1
echo changed > "$t/usr/share/pkg1/data"
SOURCE_DATE_EPOCH=1700000000 "$PADPACK" pack -q "$t" "$WORK/pkg1-other.deb"
"$PADPACK" repo init "$WORK/twice" >/dev/null
check_fails "the same name twice in one add, different: the second refused" 3 \
	"pkg1-other\.deb: refused: the pool already has a different pool/main/p/pkg1/pkg1_1\.0_all\.deb" \
	"$PADPACK" repo add "$WORK/twice" "$WORK/debs/pkg1_1.0_all.deb" "$WORK/pkg1-other.deb"
same "... the first one stays in the pool" "$WORK/debs/pkg1_1.0_all.deb" \
	"$WORK/twice/pool/main/p/pkg1/pkg1_1.0_all.deb"
check "the same file twice in one add is added once" bash -c "
	'$PADPACK' repo add '$WORK/twice' '$WORK/debs/pkg2_1.0_all.deb' '$WORK/debs/pkg2_1.0_all.deb' >/dev/null &&
	[ \$('$PADPACK' repo list '$WORK/twice' | wc -l) = 2 ]"

# --no-sync: nothing synced (and so the checker refuses the trace).
"${TRACE[@]}" -o "$WORK/t5" "$PADPACK" repo add "$R" "$WORK/debs/pkg2_1.0_all.deb" --publish --no-sync >/dev/null
check "add --publish --no-sync calls no fsync" bash -c "! grep -Eq '(fsync|fdatasync|syncfs)\(' '$WORK/t5'"
check_fails "... which the checker refuses" 1 "not synced in order: 1: " python3 "$CHECK" "$WORK/t5" "$R"
"${TRACE[@]}" -o "$WORK/t6" "$PADPACK" repo publish "$R" --no-sync >/dev/null
check "publish --no-sync calls no fsync" bash -c "! grep -Eq '(fsync|fdatasync|syncfs)\(' '$WORK/t6'"
check "the repository published without sync verifies" \
	"$PADPACK" repo verify "$R" --keyring "$WORK/keys/public.gpg"

# The files issue 17's features write: Contents indices and db/contents,
# the by-hash record of past generations, a snapshot and its promotion.
"$PADPACK" repo init "$R" --suite testing --codename trixie --contents \
	--key "$WORK/keys/secret.pem" >/dev/null
traced "add --publish to a suite with Contents syncs in order" "$WORK/t8" \
	"$PADPACK" repo add "$R" --suite testing "$WORK/debs/pkg1_1.0_all.deb" --publish
check "... Contents-amd64 and db/contents were synced" bash -c "
	grep -q 'fsync([0-9]*<$R/dists/\.testing\.new/main/\.Contents-amd64\.gz\.' '$WORK/t8' &&
	grep -q 'fsync([0-9]*<$R/db/\.contents\.' '$WORK/t8'"
"$PADPACK" repo snapshot "$R" s1 --suite testing >/dev/null
traced "publish --from-snapshot syncs in order" "$WORK/t9" \
	"$PADPACK" repo publish "$R" --suite stable --from-snapshot s1
