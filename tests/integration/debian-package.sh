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
for page in man1/padpack.1 man1/padpack-repo.1 man1/padpack-split.1 man5/padpack-spec.5; do
	check "the package ships the man page $page" bash -c "dpkg-deb --contents '$deb' | grep -q './usr/share/man/$page.gz$'"
done
check "the package ships a man page per command" bash -c "
	n=\$('$TOP/padpack' --help | sed -n '/^Commands:/,/^\$/p' | awk 'NF > 1' | wc -l)
	[ \$(dpkg-deb --contents '$deb' | grep -c './usr/share/man/man1/padpack-.*\\.1\\.gz$') = \$n ]"
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
check "man padpack-repo shows the installed page" bash -c "
	MANPATH='$R/usr/share/man' MANPAGER=cat MANWIDTH=80 man padpack-repo 2>&1 | grep -q 'padpack-repo - publish'"
check "padpack help repo opens the installed page" bash -c "
	MANPATH='$R/usr/share/man' MANPAGER=cat MANWIDTH=80 '$R/usr/bin/padpack' help repo 2>&1 | grep -q 'padpack-repo - publish'"
