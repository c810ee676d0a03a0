#!/bin/bash
# padpack's own Debian packaging: dpkg-buildpackage -us -uc -b on a copy of
# the checkout builds a padpack .deb (with its man page) that lintian
# passes, and that works once installed in a private root.
source "$(dirname "$0")/../lib.sh"

src=$WORK/padpack
mkdir -p "$src"
(cd "$TOP" && git ls-files -co --exclude-standard | tar -cf - -T -) | tar -xf - -C "$src"
if (cd "$src" && dpkg-buildpackage -us -uc -b > "$WORK/build.log" 2>&1); then
	ok "dpkg-buildpackage -us -uc -b builds padpack"
else
	not_ok "dpkg-buildpackage -us -uc -b builds padpack" "$(tail -n 20 "$WORK/build.log")"
	exit 0
fi
deb=$(ls "$WORK"/padpack_*_*.deb)
check "lintian: no error or warning" lintian --fail-on error,warning "$WORK"/padpack_*.changes
check "the package ships the man page" bash -c "dpkg-deb --contents '$deb' | grep -q './usr/share/man/man1/padpack.1.gz'"
check "the package ships /usr/bin/padpack" bash -c "dpkg-deb --contents '$deb' | grep -q './usr/bin/padpack$'"
check "the package ships the bash completion" bash -c "dpkg-deb --contents '$deb' | grep -q './usr/share/bash-completion/completions/padpack$'"
check "the package Build-Depends on libjansson-dev (--json)" grep -q 'libjansson-dev' "$src/debian/control"

R=$WORK/root
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates"
touch "$R/var/lib/dpkg/status"
dpkg --root="$R" --force-depends --force-script-chrootless --log=/dev/null -i "$deb" >/dev/null 2>&1
check "the installed padpack runs" bash -c "'$R/usr/bin/padpack' --version | grep -q '^padpack '"
check "the installed completion completes the installed padpack's commands" bash -c "
	source '$R/usr/share/bash-completion/completions/padpack' &&
	COMP_WORDS=('$R/usr/bin/padpack' rep) COMP_CWORD=1 && _padpack &&
	[ \"\${COMPREPLY[*]}\" = repo ]"
