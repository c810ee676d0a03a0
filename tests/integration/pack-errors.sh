#!/bin/bash
# padpack pack refuses bad input before writing anything: each error names
# the file and line or field and says what to do; the output file is left
# as it was (absent, or its previous content), and no temporary file stays.
source "$(dirname "$0")/../lib.sh"
source "$TOP/tests/deb-fixtures.sh"

out=$WORK/out
mkdir -p "$out"
echo "previous package" > "$out/x.deb"

# CASE RC PATTERN SETUP-COMMAND: builds the 'full' fixture, breaks it with
# SETUP (run in the tree), packs, and checks the error and the output.
refused() {
	local name=$1 rc=$2 pat=$3 t=$WORK/t; shift 3
	make_fixture full "$t"
	(cd "$t" && eval "$1")
	check_fails "$name" "$rc" "$pat" "$PADPACK" pack "$t" "$out/x.deb"
	if [ "$(cat "$out/x.deb")" = "previous package" ] && [ "$(ls -A "$out")" = x.deb ]; then
		ok "$name: output untouched, no temporary file left"
	else
		not_ok "$name: output untouched, no temporary file left" "$(ls -lA "$out")"
	fi
}

C=DEBIAN/control
refused "no control area" 3 "has no control area: create .*/DEBIAN" 'rm -rf DEBIAN'
refused "control area mode 0700" 3 "DEBIAN: control directory has bad permissions 700; use chmod 0755" 'chmod 0700 DEBIAN'
refused "control area mode 0777" 3 "bad permissions 777" 'chmod 0777 DEBIAN'
refused "no control file" 3 "DEBIAN/control is missing" "rm $C"
refused "syntax error names the line" 3 "DEBIAN/control:3: field name 'Architecture' must be followed by a colon" \
	"sed -i 's/^Architecture:/Architecture/' $C"
refused "missing Version" 3 "missing 'Version' field" "sed -i '/^Version/d' $C"
refused "missing Maintainer" 3 "missing 'Maintainer' field" "sed -i '/^Maintainer/d' $C"
refused "missing Description" 3 "missing 'Description' field" "sed -i '/^Description/,\$d' $C"
refused "bad package name" 3 "DEBIAN/control:1: 'Package' field: package name 'Fx_full' must start with a lowercase letter" \
	"sed -i 's/^Package: .*/Package: Fx_full/' $C"
refused "underscore in package name" 3 "package name 'fx_full' has character '_'" \
	"sed -i 's/^Package: .*/Package: fx_full/' $C"
refused "bad version" 3 "DEBIAN/control:2: 'Version' field: revision number is empty" \
	"sed -i 's/^Version: .*/Version: 1.0-/' $C"
refused "bad architecture" 3 "'Architecture' field: architecture 'AMD64' has character 'A'" \
	"sed -i 's/^Architecture: .*/Architecture: AMD64/' $C"
refused "bad Depends" 3 "'Depends' field: reference to 'libc6': version unterminated" \
	"sed -i 's/^Depends: .*/Depends: libc6 (>= 2.34/' $C"
refused "duplicate field" 3 "duplicate field 'package' \(first given on line 1\)" "echo 'package: again' >> $C"
refused "script mode 0644" 3 "DEBIAN/postinst: maintainer script has bad permissions 644; use chmod 0755" \
	'chmod 0644 DEBIAN/postinst'
refused "script without #!" 3 "DEBIAN/postinst:1: maintainer script does not start with '#!'" \
	'printf "echo hi\n" > DEBIAN/postinst'
refused "relative conffile" 3 "DEBIAN/conffiles:2: conffile name 'etc/x.conf' is not an absolute path" \
	'echo etc/x.conf >> DEBIAN/conffiles'
refused "conffile not in the package" 3 "DEBIAN/conffiles:2: conffile '/etc/nothere' does not appear in the package" \
	'echo /etc/nothere >> DEBIAN/conffiles'
refused "remove-on-upgrade of a shipped file" 3 "conffiles:2: '/etc/fx-full/main.conf' is marked remove-on-upgrade" \
	'echo "remove-on-upgrade /etc/fx-full/main.conf" >> DEBIAN/conffiles'
refused "md5sums that do not match" 3 "DEBIAN/md5sums:1: 'usr/bin/fx-tool' has MD5 0{32}, the file's is" \
	'echo "00000000000000000000000000000000  usr/bin/fx-tool" > DEBIAN/md5sums'
refused "md5sums naming a missing file" 3 "DEBIAN/md5sums:1: 'usr/nothere' is not a file of the package" \
	'echo "00000000000000000000000000000000  usr/nothere" > DEBIAN/md5sums'
refused "a directory in the control area" 3 "DEBIAN/sub' is not a plain file" 'mkdir DEBIAN/sub'
refused "a newline in a file name" 3 "newline in a file name" 'touch "usr/bin/a
b"'
refused "Installed-Size not a number" 3 "'Installed-Size' must be a whole number" "echo 'Installed-Size: 12k' >> $C"

make_fixture full "$WORK/ok"
check_fails "SOURCE_DATE_EPOCH not a number" 2 "SOURCE_DATE_EPOCH='yesterday'" \
	env SOURCE_DATE_EPOCH=yesterday "$PADPACK" pack "$WORK/ok" "$out/y.deb"
check_fails "unknown compressor" 2 "unknown compression 'bzip2'" "$PADPACK" pack -Z bzip2 "$WORK/ok" "$out/y.deb"
check_fails "output directory missing" 4 "cannot create '.*/nodir/y\.deb': No such file or directory" "$PADPACK" pack "$WORK/ok" "$WORK/nodir/y.deb"
check_fails "no arguments" 2 "expected DIR" "$PADPACK" pack
check "a warning for an unknown control file, still built" \
	bash -c "cp -a '$WORK/ok' '$WORK/w' && echo x > '$WORK/w/DEBIAN/junk' &&
		'$PADPACK' pack -q '$WORK/w' '$WORK/w.deb' 2>&1 | grep -q 'DEBIAN/junk: unknown control file' &&
		test -f '$WORK/w.deb'"
