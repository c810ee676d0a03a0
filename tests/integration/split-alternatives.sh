#!/bin/bash
# Co-installable variants (packages.variants = "coinstallable") and the
# links update-alternatives manages for them (packages.alternatives), on a
# small library built by padpack build with a Makefile in two variants,
# each installed under a directory of its own; its after_build and
# after_install lines add a file made with the variant's make variables.
# Judged by the real tools: the spec's errors, the generated maintainer
# scripts (sh -n, shellcheck), lintian, and in a clean Debian 12 root: both
# variants installed at once, the higher priority chosen, update-alternatives
# --set switching what a program loads, removal falling back, an upgrade
# keeping the administrator's choice, purge leaving nothing.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../tools/debian-root.sh"

export SOURCE_DATE_EPOCH=1700000000
S=$WORK/src
D=$WORK/debs
LIBDIR=usr/lib/x86_64-linux-gnu
mkdir -p "$S"

cat >"$S/demo.c" <<'EOF'
/* which variant this is */
int demo_flavour(void) { return FLAVOUR; }
EOF
cat >"$S/Makefile" <<'EOF'
# a library whose every variant goes to $(LIBDIR)
all: libdemo.so.1
libdemo.so.1: demo.c
	$(CC) $(CFLAGS) -fPIC -DFLAVOUR=$(FLAVOUR) -shared -Wl,-soname,libdemo.so.1 $(LDFLAGS) -o $@ demo.c -lc
flavour.txt:
	echo "built with FLAVOUR=$(FLAVOUR)" >$@
install:
	install -d $(DESTDIR)$(LIBDIR)
	install -m 0644 libdemo.so.1 $(DESTDIR)$(LIBDIR)/
EOF
cat >"$S/copyright" <<'EOF'
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: altdemo
Source: https://example.org/altdemo

Files: *
Copyright: 2026 Padpack Tests
License: MIT
 Permission is hereby granted, free of charge, to any person obtaining a
 copy of this software, to deal in it without restriction.
EOF

# spec REVISION [MORE]: the spec, with MORE lines added to packages
spec() {
	cat <<EOF
name = "altdemo";
version = "1.0";
maintainer = "Padpack Tests <tests@example.org>";
summary = "demonstrates co-installable variants";
description = "A library built in two flavours that can be installed together.";
build = {
	system = "make";
	buildflags = true;
	make_target = "all";
	make_vars = [ "LIBDIR=/$LIBDIR/altdemo-@suffix@" ];
	after_build = [ "make \"\$@\" flavour.txt" ];
	after_install = [ "cp flavour.txt \"\$DESTDIR/$LIBDIR/altdemo-@suffix@/\"" ];
};
axes = ( { name = "flavour"; values = (
	{ name = "one"; suffix = "one"; priority = 50; make_vars = [ "FLAVOUR=1" ]; },
	{ name = "two"; suffix = "two"; priority = 40; make_vars = [ "FLAVOUR=2" ]; }
); } );
packages = {
	revision = "$1";
	copyright = "$S/copyright";
	variants = "coinstallable";
	alternatives = (
		{ name = "libdemo.so.1-x86_64-linux-gnu";
		  link = "/$LIBDIR/libdemo.so.1";
		  path = "/$LIBDIR/altdemo-@suffix@/libdemo.so.1";
		  provides = "libdemo.so.1";
		  slaves = ( { name = "altdemo-flavour.txt";
			       link = "/$LIBDIR/altdemo/flavour.txt";
			       path = "/$LIBDIR/altdemo-@suffix@/flavour.txt"; } ); }
	);
	control = ( { package = "libdemo*"; lintian_overrides = [
		"# @name@ is not uploaded to Debian: no ITP bug to close",
		"initial-upload-closes-no-bugs" ]; } );
	${2:-}
};
EOF
}

spec 1 >"$WORK/altdemo.cfg"
check "padpack build: two variants, after_build and after_install with the make variables" bash -c "
	'$PADPACK' build -c '$WORK/altdemo.cfg' --source '$S' -B '$WORK/b' -q &&
	grep -qx 'built with FLAVOUR=2' '$WORK/b/two/stage/$LIBDIR/altdemo-two/flavour.txt' &&
	test -f '$WORK/b/one/stage/$LIBDIR/altdemo-one/libdemo.so.1'"
check "a second build runs make again, and the after steps, compiling nothing" bash -c "
	'$PADPACK' build -c '$WORK/altdemo.cfg' --source '$S' -B '$WORK/b' -q &&
	grep -q 'flavour.txt' '$WORK/b/one/build.log' &&
	! grep -q -- '-shared' '$WORK/b/one/build.log' &&
	test -f '$WORK/b/one/stage/$LIBDIR/altdemo-one/flavour.txt'"

# ---- the spec's errors name the line ----------------------------------
err_spec() { # NAME PATTERN SED...: the spec changed by sed must fail split
	local name=$1 pat=$2; shift 2
	spec 1 | sed "$@" >"$WORK/bad.cfg"
	check_fails "$name" 3 "$pat" "$PADPACK" split -c "$WORK/bad.cfg" -B "$WORK/b" -o "$WORK/bad"
}
err_spec "alternatives without co-installable variants: an error naming the line" \
	'bad\.cfg:[0-9]+: .*alternatives.*needs co-installable variants' \
	-e 's/variants = "coinstallable";//'
err_spec "an unknown kind of variant set: said with what is allowed" \
	'bad\.cfg:[0-9]+: .*variants.*"exclusive" \(the default\) or "coinstallable"' \
	-e 's/"coinstallable"/"together"/'
err_spec "an alternative's name with a '/': refused at its line" \
	"bad\\.cfg:[0-9]+: .*has a '/'" -e 's|name = "libdemo.so.1-x86_64-linux-gnu"|name = "x/y"|'
err_spec "a relative link: refused at its line" \
	'bad\.cfg:[0-9]+: .*not an absolute path' -e 's|link = "/usr/lib/x86_64-linux-gnu/libdemo.so.1"|link = "libdemo.so.1"|'
err_spec "one link in two alternatives: refused, naming the first" \
	'bad\.cfg:[0-9]+: .*linked at line [0-9]+ already' \
	-e 's|link = "/usr/lib/x86_64-linux-gnu/altdemo/flavour.txt"|link = "/usr/lib/x86_64-linux-gnu/libdemo.so.1"|'
err_spec "a path no package holds: the spec's line, the variant and the path" \
	'bad\.cfg:[0-9]+: alternative .libdemo\.so\.1-x86_64-linux-gnu.: no package of variant one holds /usr/lib/x86_64-linux-gnu/altdemo-one/libdemo\.so\.9' \
	-e 's|altdemo-@suffix@/libdemo.so.1|altdemo-@suffix@/libdemo.so.9|'
err_spec "a lintian override that is no override line: refused at its line, saying the form" \
	'bad\.cfg:[0-9]+: .*not a lintian override line: write "TAG \[CONTEXT\]"' \
	-e 's/"initial-upload-closes-no-bugs"/"Initial upload"/'
err_spec "a priority out of range: refused at its line" \
	'bad\.cfg:[0-9]+: .*priority.*out of range' -e 's/priority = 40/priority = -4/'
err_spec "a priority on exclusive variants (nothing to choose): refused at its line, saying why" \
	"bad\\.cfg:1[0-9]: setting 'axes\\[flavour\\]\\.values\\[one\\]\\.priority': orders the update-alternatives of co-installable variants, but these are exclusive \\(packages\\.variants\\)" \
	-e 's/variants = "coinstallable";//' -e '/^\talternatives = (/,/^\t);$/d'
cp -a "$WORK/b" "$WORK/b-same"
sed -i 's/FLAVOUR=1/FLAVOUR=X/' "$WORK/b-same/one/stage/$LIBDIR/altdemo-one/flavour.txt"
mkdir -p "$WORK/b-same/one/stage/usr/share/altdemo" "$WORK/b-same/two/stage/usr/share/altdemo"
echo one >"$WORK/b-same/one/stage/usr/share/altdemo/which"
echo two >"$WORK/b-same/two/stage/usr/share/altdemo/which"
check_fails "co-installable variants with one path of different contents: refused, naming both" 3 \
	'co-installable .*/usr/share/altdemo/which differs in .* \(one\) and .* \(two\)' \
	"$PADPACK" split -c "$WORK/altdemo.cfg" -B "$WORK/b-same" -o "$WORK/bad"

# ---- the packages ------------------------------------------------------
split_rev() { # REVISION OUTDIR
	spec "$1" >"$WORK/altdemo-$1.cfg"
	"$PADPACK" split -c "$WORK/altdemo-$1.cfg" -B "$WORK/b" -o "$2" -q
}
check "padpack split of the co-installable set" split_rev 1 "$D"
deb() { ls "$D"/"$1"_*.deb; }
check_fails "each variant's library: Provides the generic name, no Conflicts or Replaces" 0 \
	'^Provides: libdemo1 \(= 1\.0-1\), libdemo\.so\.1 NONE$' bash -c "
	dpkg-deb -f '$(deb libdemo1-one)' Provides Conflicts Replaces | tr '\n' ' ';
	dpkg-deb -f '$(deb libdemo1-one)' Conflicts Replaces | grep -q . || echo NONE" 2>/dev/null
dpkg-deb -e "$(deb libdemo1-one)" "$WORK/ctl-one"
check_fails "postinst registers the library with its slave at priority 50, prerm removes it" 0 \
	'update-alternatives --install /usr/lib/x86_64-linux-gnu/libdemo.so.1 libdemo.so.1-x86_64-linux-gnu /usr/lib/x86_64-linux-gnu/altdemo-one/libdemo.so.1 50 .*--slave /usr/lib/x86_64-linux-gnu/altdemo/flavour.txt altdemo-flavour.txt .*remove\|deconfigure\) update-alternatives --remove libdemo.so.1-x86_64-linux-gnu /usr/lib/x86_64-linux-gnu/altdemo-one/libdemo.so.1' \
	bash -c "cat '$WORK/ctl-one/postinst' '$WORK/ctl-one/prerm' | tr -s '\n\t\\\\' '   '"
check "the maintainer scripts: set -e, sh -n and shellcheck clean, with the ldconfig trigger" bash -c "
	cd '$WORK/ctl-one' && head -n 2 postinst | grep -qx 'set -e' && head -n 2 prerm | grep -qx 'set -e' &&
	sh -n postinst && sh -n prerm && shellcheck -s sh postinst prerm &&
	grep -qx 'activate-noawait ldconfig' triggers"
check_fails "a library reached through an alternative: shlibs naming the role's package or any provider of the generic name, no symbols file (as Debian's libblas3, libopenblas0-*: libblas3 | libblas.so.3)" 0 \
	'^libdemo 1 libdemo1 \(>= 1\.0\) \| libdemo\.so\.1 NOSYMBOLS$' bash -c "
	grep -v '^#' '$WORK/ctl-one/shlibs' | tr '\n' ' '; test -e '$WORK/ctl-one/symbols' || echo NOSYMBOLS"
check "the package ships the directory of a link that update-alternatives makes (usr/lib/.../altdemo/)" bash -c "
	dpkg-deb -c '$(deb libdemo1-one)' | awk '{ print \$6 }' | grep -qx './$LIBDIR/altdemo/'"
check "each package's files have paths of their own (no file in both)" bash -c "
	comm -12 <(dpkg-deb -c '$(deb libdemo1-one)' | awk '!/\/\$/ { print \$6 }' | sort) \
		 <(dpkg-deb -c '$(deb libdemo1-two)' | awk '!/\/\$/ { print \$6 }' | sort) |
	grep -v '^./usr/share/doc/' | grep -q . && exit 1 || exit 0"
lint=$(cd "$D" && lintian --display-level '>=info' ./*.changes 2>&1 | grep -v '^running with root')
if printf '%s\n' "$lint" | grep -q '^E: '; then
	not_ok "lintian: no error on the co-installable set" "$(printf '%s\n' "$lint" | grep '^E: ')"
else
	ok "lintian: no error on the co-installable set ($(printf '%s\n' "$lint" | grep -c '^W: ') warnings)"
fi
check_fails "the spec's lintian overrides (packages.control[].lintian_overrides): after padpack's own, placeholders expanded, and lintian takes them" 0 \
	'^NOTAG ldconfig-trigger # altdemo is not uploaded to Debian: no ITP bug to close initial-upload-closes-no-bugs $' bash -c "
	printf '%s\n' \"\$1\" | grep -q 'initial-upload-closes-no-bugs' || printf 'NOTAG ';
	dpkg-deb --fsys-tarfile '$(deb libdemo1-one)' | tar -xO ./usr/share/lintian/overrides/libdemo1-one |
	sed -n '/^package-has/,\$p' | sed 's/^package-has-unnecessary-activation-of-//' | tr '\n' ' '" _ "$lint"
check_fails "the ldconfig trigger of a library behind an alternative: overridden, with why (lintian does not see the generic link)" 0 \
	'^NOTAG package-has-unnecessary-activation-of-ldconfig-trigger$' bash -c "
	printf '%s\n' \"\$1\" | grep -q 'unnecessary-activation-of-ldconfig' || printf 'NOTAG ';
	dpkg-deb --fsys-tarfile '$(deb libdemo1-one)' | tar -xO ./usr/share/lintian/overrides/libdemo1-one | grep -v '^#' | grep ldconfig" _ "$lint"

# lintian names a package from the SONAMEs in the linker's directories
# only: a library behind an alternative has no package-name tag to override
check_fails "a library behind an alternative: no package-name-doesnt-match-sonames override, which lintian would call unused" 0 \
	'^NOUNUSED NOOVERRIDE$' bash -c "
	printf '%s\n' \"\$1\" | grep -q '^I: libdemo1-[a-z]*: unused-override' || printf 'NOUNUSED ';
	dpkg-deb --fsys-tarfile '$(deb libdemo1-one)' | tar -xO ./usr/share/lintian/overrides/libdemo1-one |
	grep -q '^package-name-doesnt-match-sonames' || echo NOOVERRIDE" _ "$lint"

# ---- in a clean Debian 12 root ----------------------------------------
in_root() { # SCRIPT on stdin, in a fresh overlay with $D as /debs
	local name
	name=t-$(date +%s%N).sh
	cat >"$D/$name"
	debian_root_run "$D" "sh -e /debs/$name"
}
USE='cat >/tmp/use.c <<C
int demo_flavour(void);
#include <stdio.h>
int main(void) { printf("flavour %d\\n", demo_flavour()); return 0; }
C
gcc -o /tmp/use /tmp/use.c /usr/lib/x86_64-linux-gnu/libdemo.so.1
show() { printf "%s: %s %s | " "$1" "$(/tmp/use)" "$(cat /usr/lib/x86_64-linux-gnu/altdemo/flavour.txt)"; }'
if ! debian_root_prepare; then
	not_ok "a clean Debian 12 root (mmdebstrap)" "see above"
	exit 0
fi
check_fails "both variants together: the higher priority first, --set switches, removal falls back, purge leaves nothing" 0 \
	'^both: flavour 1 built with FLAVOUR=1 \| set two: flavour 2 built with FLAVOUR=2 \| removed two: flavour 1 built with FLAVOUR=1 \| purged: nothing left$' \
	in_root <<-EOF
	apt-get install -y -q /debs/$(basename "$(deb libdemo1-one)") /debs/$(basename "$(deb libdemo1-two)") >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
	$USE
	show both
	update-alternatives --set libdemo.so.1-x86_64-linux-gnu /usr/lib/x86_64-linux-gnu/altdemo-two/libdemo.so.1 >/dev/null
	show "set two"
	dpkg -r libdemo1-two >/dev/null
	show "removed two"
	dpkg -P libdemo1-one libdemo1-two >/dev/null 2>&1
	left=\$(ls /etc/alternatives/ /var/lib/dpkg/alternatives/ /usr/lib/x86_64-linux-gnu/ | grep -e demo -e flavour || true)
	left="\$left\$(dpkg -l 'libdemo*' 2>/dev/null | grep '^[a-z][a-z] ' || true)"
	echo "purged: \${left:-nothing left}"
	EOF
check_fails "dpkg -i twice and dpkg-reconfigure-like reruns of postinst change nothing" 0 \
	'^once: .*libdemo\.so\.1-x86_64-linux-gnu - auto mode.* again: same$' \
	in_root <<-EOF
	dpkg -i /debs/$(basename "$(deb libdemo1-one)") >/dev/null
	a=\$(update-alternatives --query libdemo.so.1-x86_64-linux-gnu)
	printf 'once: %s ' "\$(update-alternatives --display libdemo.so.1-x86_64-linux-gnu | head -n 1)"
	dpkg -i /debs/$(basename "$(deb libdemo1-one)") >/dev/null
	/var/lib/dpkg/info/libdemo1-one:amd64.postinst configure 1.0-1 || /var/lib/dpkg/info/libdemo1-one.postinst configure 1.0-1
	[ "\$a" = "\$(update-alternatives --query libdemo.so.1-x86_64-linux-gnu)" ] && echo "again: same"
	EOF

# The next revision through a padpack repository: apt-get upgrade keeps
# the administrator's choice (manual mode, the lower-priority variant).
if split_rev 2 "$WORK/debs2" >"$WORK/split2.log" 2>&1 &&
   "$PADPACK" key generate --uid "Demo <demo@example.org>" --out "$WORK/key" >/dev/null 2>&1 &&
   "$PADPACK" repo init "$D/repo" --origin Demo --label Demo --key "$WORK/key/secret.pem" --uri file:/debs/repo >/dev/null 2>&1 &&
   "$PADPACK" repo add --publish "$D/repo" "$D"/libdemo1-*.deb >/dev/null 2>&1 &&
   "$PADPACK" repo init "$D/repo2" --origin Demo --label Demo --key "$WORK/key/secret.pem" --uri file:/debs/repo2 >/dev/null 2>&1 &&
   "$PADPACK" repo add --publish "$D/repo2" "$D"/libdemo1-*.deb "$WORK/debs2"/libdemo1-*.deb >/dev/null 2>&1; then
	ok "revisions 1 and 2 published in padpack repositories"
	check_fails "apt-get upgrade from revision 1 to 2 keeps the alternatives and the choice" 0 \
		'^before: flavour 2 .*\| after: flavour 2 built with FLAVOUR=2 \| .*1\.0-2 .*1\.0-2 .*manual mode' \
		in_root <<-EOF
		install -m 0644 /debs/repo/*-archive-keyring.gpg /usr/share/keyrings/
		cp /debs/repo/stable.sources /etc/apt/sources.list.d/demo.sources
		apt-get update -o Dir::Etc::SourceList=/dev/null -o APT::Get::List-Cleanup=0 >/dev/null 2>&1
		apt-get install -y -q libdemo1-one libdemo1-two >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
		update-alternatives --set libdemo.so.1-x86_64-linux-gnu /usr/lib/x86_64-linux-gnu/altdemo-two/libdemo.so.1 >/dev/null
		$USE
		show before
		sed -i 's|/debs/repo\$|/debs/repo2|; s|/debs/repo |/debs/repo2 |' /etc/apt/sources.list.d/demo.sources
		apt-get update -o Dir::Etc::SourceList=/dev/null -o APT::Get::List-Cleanup=0 >/dev/null 2>&1
		apt-get upgrade -y -q >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
		show after
		dpkg-query -W libdemo1-one libdemo1-two | tr '\n' ' '
		update-alternatives --display libdemo.so.1-x86_64-linux-gnu | head -n 1
		EOF
else
	not_ok "revisions 1 and 2 published in padpack repositories" "$(cat "$WORK/split2.log")"
fi

# ---- three variants, one of them AVX2 code, and a program ---------------
# A second project, written from the documentation alone: libzap.so.2 and
# its program zapinfo (linked with the generic SONAME) in three variants
# (generic, an -O3 -march=x86-64-v3 "haswell" that must carry the CPU
# check, a small -Os one), alternatives for the library, its .so link
# (a -dev without headers) and the program, with a slave in a directory
# nothing else of the package creates.
Z=$WORK/zap
mkdir -p "$Z/src"
cat >"$Z/src/zap.c" <<'EOF'
int zap_flavour(void) { return FLAVOUR; }
void zap_scale(float *x, const float *y, float a, int n)
{
	for (int i = 0; i < n; i++)
		x[i] = x[i] * a + y[i];
}
EOF
cat >"$Z/src/zapinfo.c" <<'EOF'
#include <stdio.h>
int zap_flavour(void);
int main(void) { printf("zap flavour %d\n", zap_flavour()); return 0; }
EOF
cat >"$Z/src/Makefile" <<'EOF'
all: libzap.so.2.0.0 zapinfo
libzap.so.2.0.0: zap.c
	$(CC) $(CFLAGS) -fPIC -DFLAVOUR=$(FLAVOUR) -shared -Wl,-soname,libzap.so.2 $(LDFLAGS) -o $@ zap.c -Wl,--no-as-needed -lc
zapinfo: zapinfo.c libzap.so.2.0.0
	ln -sf libzap.so.2.0.0 libzap.so.2
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ zapinfo.c -L. -l:libzap.so.2
install:
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGDIR) $(DESTDIR)/usr/share/zap-$(SFX)
	install -m 0644 libzap.so.2.0.0 $(DESTDIR)$(LIBDIR)/
	ln -sf libzap.so.2.0.0 $(DESTDIR)$(LIBDIR)/libzap.so.2
	ln -sf libzap.so.2 $(DESTDIR)$(LIBDIR)/libzap.so
	install -m 0755 zapinfo $(DESTDIR)$(PKGDIR)/
	echo "zap $(SFX)" >$(DESTDIR)/usr/share/zap-$(SFX)/flavour
EOF
zap_spec() { # REVISION
	cat <<EOF
name = "zap";
version = "2.1";
maintainer = "Padpack Tests <tests@example.org>";
summary = "scales vectors of floats";
description = "A small library that scales vectors, built for several CPUs.";
build = {
	system = "make";
	buildflags = true;
	make_vars = [ "LIBDIR=/$LIBDIR/zap-@suffix@", "PKGDIR=/usr/lib/zap-@suffix@", "SFX=@suffix@" ];
};
axes = ( { name = "cpu"; values = (
	{ name = "generic"; suffix = "generic"; priority = 10; isa = "x86-64"; make_vars = [ "FLAVOUR=1" ]; },
	{ name = "haswell"; suffix = "haswell"; priority = 30; isa = "x86-64-v3"; isa_require = [ "avx2" ];
	  cflags = [ "-O3", "-march=x86-64-v3" ]; make_vars = [ "FLAVOUR=2" ]; },
	{ name = "small"; suffix = "small"; priority = 20; isa = "x86-64"; cflags = [ "-Os" ]; make_vars = [ "FLAVOUR=3" ]; }
); } );
packages = {
	revision = "$1";
	copyright = "$S/copyright";
	variants = "coinstallable";
	alternatives = (
		{ name = "libzap.so.2-x86_64-linux-gnu";
		  link = "/$LIBDIR/libzap.so.2";
		  path = "/$LIBDIR/zap-@suffix@/libzap.so.2";
		  provides = "libzap.so.2"; },
		{ name = "libzap.so-x86_64-linux-gnu";
		  link = "/$LIBDIR/libzap.so";
		  path = "/$LIBDIR/zap-@suffix@/libzap.so"; },
		{ name = "zapinfo";
		  link = "/usr/bin/zapinfo";
		  path = "/usr/lib/zap-@suffix@/zapinfo";
		  slaves = ( { name = "zap-flavour"; link = "/usr/share/zap/flavour";
			       path = "/usr/share/zap-@suffix@/flavour"; } ); }
	);
};
EOF
}
zap_spec 1 >"$Z/zap.cfg"
ZD=$Z/debs
check "a program linked with the generic SONAME, which only the alternative provides: split resolves it to its variant's library" bash -c "
	'$PADPACK' build -q -c '$Z/zap.cfg' --source '$Z/src' -B '$Z/b' &&
	'$PADPACK' split -q -c '$Z/zap.cfg' -B '$Z/b' -o '$ZD'"
zdeb() { ls "$ZD"/"$1"_*.deb; }
check_fails "the runtime package with the program in /usr/lib/zap-VARIANT/ is not Multi-Arch: same (another architecture's would ship that path)" 0 \
	'^no$' dpkg-deb -f "$(zdeb libzap2-generic)" Multi-Arch
check_fails "the haswell variant's -dev package, which has no code, gets its library's CPU check" 0 \
	'E: libzap-dev-haswell needs a CPU with AVX, AVX2 and FMA \(x86-64-v3\).*Install libzap-dev-generic \(the generic variant\)' \
	bash -c "dpkg-deb -I '$(zdeb libzap-dev-haswell)' preinst | tr '\n' ' '"
zap_lint=$(cd "$ZD" && if ls ./*.changes >/dev/null 2>&1; then lintian ./*.changes 2>&1 | grep '^E: '; else echo "E: no .changes"; fi)
if [ -n "$zap_lint" ]; then not_ok "lintian: no error on the three-variant set" "$zap_lint"
else ok "lintian: no error on the three-variant set"; fi

zap_err() { # NAME PATTERN SED...: the zap spec changed by sed must fail split
	local name=$1 pat=$2; shift 2
	zap_spec 1 | sed "$@" >"$Z/bad.cfg"
	check_fails "$name" 3 "$pat" "$PADPACK" split -c "$Z/bad.cfg" -B "$Z/b" -o "$Z/bad"
}
zap_err "two variants of one priority: refused, naming the values and their lines" \
	'bad\.cfg:[0-9]+: variants generic and small both have the update-alternatives priority 10.*\(here generic, line [0-9]+, and small, line [0-9]+\)' \
	-e 's/priority = 20/priority = 10/'
zap_err "a link outside /usr: refused at its line" \
	"bad\\.cfg:[0-9]+: setting 'packages.alternatives\\[zapinfo\\].link': '/opt/bin/zapinfo' is not under /usr" \
	-e 's|link = "/usr/bin/zapinfo"|link = "/opt/bin/zapinfo"|'
zap_err "a link in /bin (merged /usr makes it a link): refused at its line" \
	"bad\\.cfg:[0-9]+: .*'/bin/zapinfo' is not under /usr" -e 's|link = "/usr/bin/zapinfo"|link = "/bin/zapinfo"|'
zap_err "a link that is also the path: refused at its line" \
	"bad\\.cfg:[0-9]+: .*is both the link and the path" \
	-e 's|link = "/usr/bin/zapinfo"|link = "/usr/lib/zap-@suffix@/zapinfo"|'
zap_err "a link where a package ships a file: refused, naming the package" \
	"bad\\.cfg:[0-9]+: alternative 'zapinfo': /usr/share/zap-generic/flavour is its link, but libzap2-generic ships a file there" \
	-e 's|link = "/usr/bin/zapinfo"|link = "/usr/share/zap-generic/flavour"|'
zap_err "a slave whose file no package ships: said so (not 'not in the master's package')" \
	"bad\\.cfg:[0-9]+: alternative 'zap-flavour': no package of variant generic holds /usr/share/zap-generic/flavor" \
	-e 's|/usr/share/zap-@suffix@/flavour|/usr/share/zap-@suffix@/flavor|'

ZUSE='cat >/tmp/use.c <<C
#include <stdio.h>
#include <string.h>
int zap_flavour(void);
int main(void) { char l[512]; FILE *m = fopen("/proc/self/maps", "r");
	printf("flavour %d", zap_flavour());
	while (fgets(l, sizeof l, m)) if (strstr(l, "libzap")) { printf(" from %s", strchr(l, 47)); break; }
	return 0; }
C
gcc -o /tmp/use /tmp/use.c /usr/lib/x86_64-linux-gnu/libzap.so.2'
zap_root() { # SCRIPT on stdin, in a fresh overlay with $ZD as /debs
	cat >"$ZD/t.sh"
	debian_root_run "$ZD" "sh -e /debs/t.sh"
}
if grep -qw avx2 /proc/cpuinfo; then
	check_fails "three variants: auto mode takes the highest priority; --set switches what a program linked with libzap.so.2 loads (/proc/self/maps); the program's own alternative and its slave" 0 \
		'^generic: flavour 1 from /usr/lib/x86_64-linux-gnu/zap-generic/libzap.so.2.0.0 \| all: .*zap-haswell/libzap.so.2 - priority 30.*zap-small/libzap.so.2 - priority 20 .*flavour 2 from /usr/lib/x86_64-linux-gnu/zap-haswell/libzap.so.2.0.0 \| set small: flavour 3 from /usr/lib/x86_64-linux-gnu/zap-small/libzap.so.2.0.0 zap flavour 3 zap small \| removed small: auto flavour 2 \| purged: nothing left$' \
		zap_root <<-EOF
		apt-get install -y -q /debs/$(basename "$(zdeb libzap2-generic)") >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
		$ZUSE
		printf 'generic: %s | ' "\$(/tmp/use)"
		apt-get install -y -q /debs/$(basename "$(zdeb libzap2-small)") /debs/$(basename "$(zdeb libzap-dev-small)") /debs/$(basename "$(zdeb libzap2-haswell)") >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
		printf 'all: %s %s | ' "\$(update-alternatives --display libzap.so.2-x86_64-linux-gnu | tr '\n' ' ')" "\$(/tmp/use)"
		update-alternatives --set libzap.so.2-x86_64-linux-gnu /usr/lib/x86_64-linux-gnu/zap-small/libzap.so.2 >/dev/null
		update-alternatives --set zapinfo /usr/lib/zap-small/zapinfo >/dev/null
		printf 'set small: %s %s %s | ' "\$(/tmp/use)" "\$(zapinfo)" "\$(cat /usr/share/zap/flavour)"
		dpkg -r libzap-dev-small libzap2-small >/dev/null 2>&1
		printf 'removed small: %s %s | ' "\$(update-alternatives --query libzap.so.2-x86_64-linux-gnu | sed -n 's/^Status: //p')" "\$(/tmp/use | cut -d' ' -f1,2)"
		dpkg -P libzap2-generic libzap2-haswell libzap2-small libzap-dev-small >/dev/null 2>&1
		left=\$(ls /etc/alternatives/ /var/lib/dpkg/alternatives/ /usr/lib/x86_64-linux-gnu/ /usr/bin /usr/share /usr/lib | grep zap || true)
		for a in libzap.so.2-x86_64-linux-gnu libzap.so-x86_64-linux-gnu zapinfo; do
			update-alternatives --query \$a >/dev/null 2>&1 && left="\$left \$a"
		done
		echo "purged: \${left:-nothing left}"
		EOF
fi
awk '/^flags/ { s = $0; n = split(s, w, " "); s = "";
	for (i = 1; i <= n; i++) if (w[i] !~ /^(avx.*|fma|f16c)$/) s = s " " w[i];
	print substr(s, 2); next } { print }' /proc/cpuinfo >"$ZD/cpuinfo"
check_fails "a CPU without AVX2: apt installing the haswell library and its -dev refuses both, naming the generic variant, and leaves nothing unpacked (dpkg --audit)" 0 \
	'E: libzap2-haswell needs a CPU with AVX, AVX2 and FMA .*Install libzap2-generic \(the generic variant\).* apt: 100 \| audit: clean \| unpacked: none$' \
	zap_root <<-EOF
	mount --bind /debs/cpuinfo /proc/cpuinfo
	rc=0; apt-get install -y -q /debs/$(basename "$(zdeb libzap2-haswell)") /debs/$(basename "$(zdeb libzap-dev-haswell)") >/tmp/out 2>&1 || rc=\$?
	grep '^E: ' /tmp/out | tr '\n' ' '; printf 'apt: %s | ' "\$rc"
	a=\$(dpkg --audit 2>&1 | grep -i zap || true); printf 'audit: %s | ' "\${a:-clean}"
	u=\$(dpkg-query -W -f '\${db:Status-Abbrev} \${Package}\n' 'libzap*' 2>/dev/null | grep -v '^.n' || true); echo "unpacked: \${u:-none}"
	EOF

# A variant with no alternatives beside ones with (packages.alternatives[].variants):
# small registers none; its program finds its library by its run path.
zap_spec 1 | sed -e 's|provides = "libzap.so.2"; },|provides = "libzap.so.2"; variants = [ "generic", "has*" ]; },|' \
	-e 's|zap-@suffix@/libzap.so"; },|zap-@suffix@/libzap.so"; variants = [ "generic", "haswell" ]; },|' \
	-e 's|path = "/usr/lib/zap-@suffix@/zapinfo";|& variants = [ "generic", "haswell" ];|' \
	-e "s|cflags = \\[ \"-Os\" \\];|cflags = [ \"-Os\" ]; ldflags = [ \"-Wl,-rpath,/$LIBDIR/zap-small\" ];|" >"$Z/nv.cfg"
check_fails "a variant with no alternatives beside ones with: no update-alternatives line, no generic Provides; the others keep theirs" 0 \
	'^small: Provides: libzap2 \(= 2\.1-1\) scripts: 0 \| haswell: Provides: libzap2 \(= 2\.1-1\), libzap\.so\.2 scripts: 3$' bash -c "
	'$PADPACK' build -q -c '$Z/nv.cfg' --source '$Z/src' -B '$Z/bnv' &&
	'$PADPACK' split -q -c '$Z/nv.cfg' -B '$Z/bnv' -o '$Z/nv' || exit 1
	for v in small haswell; do
		printf '%s: Provides: %s scripts: %s' \$v \"\$(dpkg-deb -f '$Z'/nv/libzap2-\${v}_*.deb Provides)\" \
			\"\$(for p in libzap2 libzap-dev; do dpkg-deb -I '$Z'/nv/\$p-\${v}_*.deb postinst 2>/dev/null; done | grep -c 'update-alternatives --install')\"
		[ \$v = small ] && printf ' | '
	done; echo"
# ... nor the rest of what the alternative gives: its library's shlibs
# name its package alone (no "| libzap.so.2": a provider of the generic
# name is not what its programs load), and no ldconfig trigger (no link
# in the linker's directory to cache), nor lintian's override of one.
for v in small haswell; do dpkg-deb -e "$(ls "$Z"/nv/libzap2-${v}_*.deb)" "$Z/nvctl-$v"; done
check_fails "a variant with no alternatives: shlibs without the generic name's provider, no ldconfig trigger; the others keep both" 0 \
	'^small: libzap 2 libzap2 \(>= 2\.1\) trigger: none override: none \| haswell: libzap 2 libzap2 \(>= 2\.1\) \| libzap\.so\.2 trigger: activate-noawait ldconfig override: package-has-unnecessary-activation-of-ldconfig-trigger$' bash -c "
	for v in small haswell; do
		printf '%s: %s trigger: %s override: %s' \$v \"\$(grep -v '^#' '$Z'/nvctl-\$v/shlibs)\" \
			\"\$(grep -v '^#' '$Z'/nvctl-\$v/triggers 2>/dev/null || echo none)\" \
			\"\$(dpkg-deb --fsys-tarfile '$Z'/nv/libzap2-\${v}_*.deb | tar -xO ./usr/share/lintian/overrides/libzap2-\$v 2>/dev/null | grep '^package-has.*ldconfig' || echo none)\"
		[ \$v = small ] && printf ' | '
	done; echo"
nv_lint=$(lintian "$Z"/nv/libzap2-small_*.deb 2>&1 | grep -E '^(E: |W: .*ldconfig|I: .*unused-override)')
if [ -n "$nv_lint" ]; then not_ok "lintian: the variant with no alternatives' library: no error, nothing of ldconfig" "$nv_lint"
else ok "lintian: the variant with no alternatives' library: no error, nothing of ldconfig"; fi
sed 's/"has\*"/"hasswell"/' "$Z/nv.cfg" >"$Z/bad.cfg"
check_fails "an alternative's variants glob that names no variant: refused at its line, listing the variants" 3 \
	"bad\\.cfg:[0-9]+: alternative 'libzap\\.so\\.2-x86_64-linux-gnu': 'hasswell' names no variant; the variants are generic, haswell, small" \
	"$PADPACK" split -c "$Z/bad.cfg" -B "$Z/bnv" -o "$Z/bad"
check_fails "a variant left out of the library's alternative whose program needs the generic SONAME: the error says so, at the variants line" 3 \
	"zapinfo: NEEDED libzap\\.so\\.2 is the generic name of alternative 'libzap\\.so\\.2-x86_64-linux-gnu', which variant small does not register \\(.*nv\\.cfg:[0-9]+, its variants\\): give the variant's programs a run path" \
	"$PADPACK" split -c "$Z/nv.cfg" -B "$Z/b" -o "$Z/bad"
