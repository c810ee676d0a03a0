#!/bin/bash
# padpack split on the real-world corpus (tests/corpus/*.conf): upstream
# projects no one here wrote, each built from its Debian 12 source with
# upstream's build system and Debian's build flags, split with a minimal
# spec. Asserts that every project builds and splits (a project that
# splits only with the recipe's fallback spec fails that test, and its
# packages are checked and scored all the same), that lintian finds
# no error in any package, that each project's packages install and
# purge together in a clean Debian 12 root and adequate finds nothing in
# them there, and that one project's pass piuparts; prints the fidelity table
# (tests/tools/fidelity.py) against Debian's own packages. The table's
# thresholds (issue 13) are `make fidelity`'s exit status, not asserted
# here.
# Sources, Debian's .debs and the staged trees are cached in
# /var/tmp/padpack-corpus (see tests/corpus/corpus.sh): a cold run builds
# every project (tens of minutes on two cores), a warm one only splits.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../corpus/corpus.sh"
source "$(dirname "$0")/../tools/debian-root.sh"

export SOURCE_DATE_EPOCH=1700000000
OUT=$WORK/out
mkdir -p "$OUT"
SPLIT=()

for name in $(corpus_suite_names); do
	line=$(corpus_one "$name" "$OUT")
	case $? in
	0) ok "$line"; SPLIT+=("$name") ;;
	4) not_ok "$name: split with a minimal spec" "$line"; SPLIT+=("$name") ;;
	*) not_ok "$name: fetched, built and split with a minimal spec" "$line" ;;
	esac
done

# lintian on each project's .changes. Through lib.sh's lintian (a
# verdict kept for the same bytes), a project whose packages did not
# change since the last run costs no lintian run.
check_lintian() {
	local name out rc errs
	for name in "${SPLIT[@]}"; do
		out=$(cd "$OUT/$name/debs" && lintian --display-level '>=error' ./*.changes 2>&1)
		rc=$?
		errs=$(printf '%s\n' "$out" | grep '^E: ')
		if [ -n "$errs" ] || [ "$rc" -gt 1 ]; then
			not_ok "$name: lintian: no error" "${errs:-lintian exited $rc: $(printf '%s\n' "$out" | tail -n 5)}"
		else
			ok "$name: lintian: no error in its $(ls "$OUT/$name"/debs/*.deb | wc -l) packages"
		fi
	done
}

# The script check_install runs in the root: each /debs/*/install.list.
install_script() {
	cat <<-'EOS'
	apt-get install -y -q --no-install-recommends adequate >/tmp/adequate.log 2>&1 ||
		{ echo "adequate: not installed"; tail -n 8 /tmp/adequate.log; }
	for list in /debs/*/install.list; do
		name=${list#/debs/}; name=${name%%/*}
		new=$(while read -r f p; do
			dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null |
				grep -qx installed || echo "$p"; done <"$list")
		if apt-get install -y -q --no-install-recommends --allow-downgrades \
			$(cut -d' ' -f1 "$list") >/tmp/apt.log 2>&1; then
			a=$(adequate $(cut -d' ' -f2 "$list") 2>&1) || a="$a (adequate exited $?)"
			echo "$name: adequate: ${a:-clean}" | sed "2,\$s/^/$name:   /"
			if [ -z "$new" ] || apt-get purge -y -q --autoremove $new >>/tmp/apt.log 2>&1; then
				echo "$name: installed and purged"; continue
			fi
		fi
		echo "$name: failed"; tail -n 8 /tmp/apt.log | sed "s/^/$name:   /"
	done
	EOS
}

# Each project's packages (but -dbgsym) installed together with apt in
# one clean root, then adequate run on them, then purged, one project
# after another. A package the root already has at the same version
# (libjansson4, libnettle8, libpcre2-8-0: apt, gcc and grep need them)
# is replaced by padpack's (apt calls that a downgrade) and kept at the
# purge. adequate (and the perl it needs) is installed into the root
# from the mirror first, so it stays for every project.
# A project whose packages, root and script are those of a run that
# passed takes that run's verdict (tests/tools/verdicts.sh); the others
# install.
check_install() {
	local name f out= key v kept=0
	local -A keys=()
	for name in "${SPLIT[@]}"; do
		for f in "$OUT/$name"/debs/*.deb; do
			case $f in *-dbgsym_*) continue ;; esac
			echo "/debs/${f#"$OUT"/} $(dpkg-deb -f "$f" Package)"
		done >"$OUT/$name/install.list"
	done
	install_script >"$OUT/install.sh"
	for name in "${SPLIT[@]}"; do
		key=$({ debian_root_identity; cat "$OUT/install.sh"
			while read -r f _; do sha256sum <"$OUT/${f#/debs/}"; done <"$OUT/$name/install.list"
			} | verdict_key)
		if v=$(verdict_get corpus-install "$key"); then
			out+="$v"$'\n'; kept=$((kept + 1))
			rm "$OUT/$name/install.list"
		else
			keys[$name]=$key
		fi
	done
	[ "$kept" = 0 ] || echo "# $kept projects: the verdict of a run on the same packages in the same root"
	if [ ${#keys[@]} -gt 0 ]; then
		v=$(debian_root_run "$OUT" "sh /debs/install.sh" 2>&1)
		out+="$v"
		for name in "${!keys[@]}"; do
			printf '%s\n' "$v" | grep -qx "$name: installed and purged" &&
			printf '%s\n' "$v" | grep -qx "$name: adequate: clean" &&
				printf '%s\n' "$name: adequate: clean" "$name: installed and purged" |
					verdict_put corpus-install "${keys[$name]}"
		done
	fi
	for name in "${SPLIT[@]}"; do
		if printf '%s\n' "$out" | grep -qx "$name: installed and purged"; then
			ok "$name: apt installs its packages together in a clean Debian 12 root, and purges them"
		else
			not_ok "$name: apt installs its packages in a clean Debian 12 root" \
				"$(printf '%s\n' "$out" | grep "^$name:" | head -n 10)"
		fi
		if printf '%s\n' "$out" | grep -qx "$name: adequate: clean"; then
			ok "$name: adequate finds nothing in its installed packages"
		else
			not_ok "$name: adequate finds nothing in its installed packages" \
				"$(printf '%s\n' "$out" | grep -E "^(adequate|$name: (adequate|  ))" | head -n 20)"
		fi
	done
}

# piuparts (tests/tools/piuparts.sh: install, adequate, purge, what is
# left, in a copy of the clean root) on the packages of PIUPARTS_HERE;
# make fidelity runs it on every project (tests/corpus/corpus.sh); here
# each would cost a minute or more (copying the root, apt-get update,
# installing, debsums, purging: doc/split-corpus.md), so one project,
# the one of most kinds of package: libxml2, programs, a library and its
# -dev, a Python extension module, an arch-all -doc.
PIUPARTS_HERE="libxml2"
check_piuparts() {
	local name line
	for name in $PIUPARTS_HERE; do
		case " ${SPLIT[*]} " in *" $name "*) ;; *) continue ;; esac
		if line=$(corpus_piuparts "$OUT" "$name"); then
			ok "$name: piuparts installs, runs adequate on and purges its packages in a copy of the clean Debian 12 root: ${line#"$name: piuparts "}"
		else
			not_ok "$name: piuparts installs, runs adequate on and purges its packages in a copy of the clean Debian 12 root" "$line"
		fi
	done
}

if [ ${#SPLIT[@]} -gt 0 ]; then
	check_lintian
	if debian_root_prepare; then
		check_install
		check_piuparts
	else
		not_ok "a clean Debian 12 root (mmdebstrap)"
	fi
fi

# Two defaults on real projects: a -dev package depends on the -dev
# packages its .pc files require and its headers include (as Debian's
# maintainers write by hand), and the programs' Section comes from the
# summary's words.
field_of() { # PROJECT PACKAGE FIELD
	local f
	for f in "$OUT/$1"/debs/"$2"_*.deb; do
		[ -f "$f" ] && dpkg-deb -f "$f" "$3"
	done
}
check_field() { # PROJECT PACKAGE FIELD REGEX WHY
	local v
	case " ${SPLIT[*]} " in *" $1 "*) ;; *) return 0 ;; esac
	v=$(field_of "$1" "$2" "$3")
	if printf '%s\n' "$v" | grep -Eq "$4"; then
		ok "$1: $2 $3: $5"
	else
		not_ok "$1: $2 $3: $5" "$3: $v"
	fi
}
check_field flac libflac-dev Depends '(^|, )libogg-dev(,|$)' \
	"libogg-dev (flac.pc: Requires.private: ogg), as Debian's"
check_field nettle libnettle-dev Depends '(^|, )libgmp-dev(,|$)' \
	"libgmp-dev (nettle/bignum.h includes <gmp.h>), as Debian's"
check_field libxslt libxslt-dev Depends '(^|, )libxml2-dev(,|$)' \
	"libxml2-dev (libxslt.pc: Requires: libxml-2.0), as Debian's"
check_field libevent libevent-dev Depends '^libevent[^,]*(, libevent[^,]*)*$' \
	"only the project's own libraries (event2/bufferevent_ssl.h declares OpenSSL's types, includes none of its headers), as Debian's"
check_field flac flac Section '^sound$' "sound (\"Free Lossless Audio Codec\"), as Debian's"
check_field lmdb lmdb Section '^database$' "database (\"... Database\"), as Debian's lmdb-utils"
check_field pcre2 pcre2 Section '^utils$' "utils (no word of the summary names a section), as Debian's pcre2-utils"

# Rules learned from the corpus (issue 13), each on the project that
# showed it.
files_of() { # PROJECT PACKAGE: its files
	local f
	for f in "$OUT/$1"/debs/"$2"_*.deb; do
		[ -f "$f" ] && dpkg-deb -c "$f" | awk '{ print $6 }'
	done
}
check_files() { # PROJECT PACKAGE REGEX WHY
	case " ${SPLIT[*]} " in *" $1 "*) ;; *) return 0 ;; esac
	if files_of "$1" "$2" | grep -Eq "$3"; then
		ok "$1: $2 ships $4"
	else
		not_ok "$1: $2 ships $4" "$(files_of "$1" "$2" | head -n 20)"
	fi
}
check_files libxslt libxslt1 '/libexslt\.so\.0$' \
	"libexslt.so.0 beside libxslt.so.1 (xsltproc needs both: one family), as Debian's libxslt1.1"
check_field nettle libhogweed6 Package '^libhogweed6$' \
	"its own package (nettle-hash needs libnettle alone: used apart), as Debian's"
check_files libxml2 python3-libxml2 '/dist-packages/libxml2mod\.cpython-[0-9]+-x86_64-linux-gnu\.so$' \
	"the extension module libxml2mod (it has a SONAME; a Python module all the same), as Debian's"
check_field libxml2 python3-libxml2 Multi-Arch '^same$' \
	"same (its module's name carries the triplet), as Debian's"
check_field libxml2 python3-libxml2 Depends 'python3 \(<< 3\.[0-9]+\), python3 \(>= 3\.[0-9]+~\), python3:any' \
	"dh_python3's range for the extension and python3:any for libxml2.py, as Debian's"
# adequate's py-file-not-bytecompiled (piuparts failed on it, 2026-11-27):
# a package of Python modules compiles them at install and removes
# the byte-code before them, as dh_python3's scripts do.
if case " ${SPLIT[*]} " in *" libxml2 "*) true ;; *) false ;; esac; then
	check_fails "libxml2: python3-libxml2's postinst runs py3compile on its modules, its prerm py3clean, named with the architecture (Multi-Arch: same), as Debian's" 0 \
		'^py3compile -p python3-libxml2:amd64 py3clean -p python3-libxml2:amd64 $' \
		bash -c "f=\$(ls '$OUT'/libxml2/debs/python3-libxml2_*.deb) && for s in postinst prerm; do dpkg-deb -I \"\$f\" \$s | grep -E '^\s+py3(compile|clean) ' | tr -d '\t' | tr '\n' ' '; done"
fi
check_field libxml2 libxml2-doc Depends '^$' \
	"nothing (its example scripts are documents, shipped 0644), as Debian's"
if case " ${SPLIT[*]} " in *" sqlite3 "*) true ;; *) false ;; esac; then
	mkdir -p "$WORK/sqlite3" && dpkg-deb -x "$OUT"/sqlite3/debs/sqlite3_*.deb "$WORK/sqlite3"
	check_fails "sqlite3: the shell's RUNPATH of the default library directory is dropped (chrpath -d, as Debian's rules)" 1 '' \
		bash -c "readelf -d '$WORK/sqlite3/usr/bin/sqlite3' | grep -E 'RUNPATH|RPATH'"
fi
# A loadable module's static twin is dropped, as the libtool archive
# beside it: libnl3's make install stages cli/cls/basic.so and basic.a
# (libtool's -module); Debian's libnl-cli-3-200 ships the ten plugins,
# none of the archives.
if case " ${SPLIT[*]} " in *" libnl3 "*) true ;; *) false ;; esac; then
	plugins() { # KIND: the plugins' files of that extension, counted
		for f in "$OUT"/libnl3/debs/*.deb; do dpkg-deb -c "$f"; done |
			awk '{ print $6 }' | grep -c "/libnl-3/cli/[a-z]*/[a-z_]*\\.$1\$"
	}
	check_fails "libnl3: its ten plugins shipped (cli/cls/basic.so ...), as Debian's" 0 '^10$' plugins so
	check_fails "libnl3: none of their static twins (cli/cls/basic.a ...), as Debian's" 1 '^0$' plugins a
fi
# packages.dev = "auto", the default: a C++ library beside C ones gets
# its own -dev (flac, as Debian splits it); "one", the other choice,
# keeps one -dev for the source.
if case " ${SPLIT[*]} " in *" flac "*) true ;; *) false ;; esac; then
	devfiles() { # DIR: each -dev package and its headers, .so, .a, .pc, .m4
		(cd "$1" && for f in libflac*-dev_*.deb; do echo -n "${f%%_*}: "; dpkg-deb -c "$f" | awk '{ print $6 }' | grep -v '/$' | grep -E 'include/|\.(so|a|pc|m4)$' | sed -E 's|.*/include/||; t; s|.*/||' | LC_ALL=C sort | tr '\n' ' '; done)
	}
	check_fails "flac, by default: libflac-dev and libflac++-dev (a C++ library beside a C one), each with its headers, .so, .a, .pc and .m4, as Debian's" 0 \
		'^libflac\+\+-dev: FLAC\+\+/all\.h FLAC\+\+/decoder\.h FLAC\+\+/encoder\.h FLAC\+\+/export\.h FLAC\+\+/metadata\.h flac\+\+\.pc libFLAC\+\+\.a libFLAC\+\+\.m4 libFLAC\+\+\.so libflac-dev: FLAC/all\.h .*FLAC/stream_encoder\.h flac\.pc libFLAC\.a libFLAC\.m4 libFLAC\.so $' \
		devfiles "$OUT/flac/debs"
	check_fails "flac, by default: libflac++-dev depends on libflac-dev (libFLAC++ needs libFLAC), as Debian's" 0 \
		'(^|, )libflac-dev \(= ' dpkg-deb -f "$(ls "$OUT"/flac/debs/libflac++-dev_*.deb)" Depends
	sed 's/^packages = {$/packages = {\n\tdev = "one";/' "$OUT/flac/spec.cfg" >"$WORK/flac-one.cfg"
	"$PADPACK" split -q -c "$WORK/flac-one.cfg" -B "$(cat "$OUT/flac/build")" -o "$WORK/flac-one" >/dev/null 2>&1
	check_fails "flac, packages.dev = \"one\": one libflac-dev with both libraries' files" 0 \
		'^libflac-dev: FLAC\+\+/all\.h .*FLAC/stream_encoder\.h flac\+\+\.pc flac\.pc libFLAC\+\+\.a libFLAC\+\+\.m4 libFLAC\+\+\.so libFLAC\.a libFLAC\.m4 libFLAC\.so $' \
		devfiles "$WORK/flac-one"
fi

# The scorer itself: Debian's packages scored against themselves meet
# every threshold, at 100%.
mkdir -p "$WORK/self"
for name in "${SPLIT[@]}"; do
	mkdir -p "$WORK/self/$name"
	ln -s "$(readlink -f "$OUT/$name/debian")" "$WORK/self/$name/debian"
	ln -s "$(readlink -f "$OUT/$name/debian")" "$WORK/self/$name/debs"
	cp "$OUT/$name/version" "$WORK/self/$name/"
done
check_fails "fidelity.py: Debian's packages against themselves score 100% on every measure" 0 \
	'^\| \*\*mean of [0-9]+\*\* \| \| \| \| (\*\*100\.0%\*\* \| ){4}\*\*100\.0%\*\* \|$' \
	"$TOP/tests/tools/fidelity.py" --thresholds "$WORK/self"

# The scorer keeps its reading of a .deb, keyed by the .deb's bytes: a
# .deb replaced by other bytes under its name is read again. One of
# Debian's .debs of a project, overwritten by another of them, scores
# as a package fewer (a reading kept by name would find the old one).
name=${SPLIT[0]}
debs=("$OUT/$name"/debian/*.deb)
mkdir -p "$WORK/swap/$name/debs"
cp "$OUT/$name/version" "$WORK/swap/$name/"
ln -s "$(readlink -f "$OUT/$name/debian")" "$WORK/swap/$name/debian"
cp "${debs[@]}" "$WORK/swap/$name/debs/"
cp "${debs[-1]}" "$WORK/swap/$name/debs/$(basename "${debs[0]}")"
check_fails "fidelity.py: a .deb overwritten by another is read again, not taken from what was kept" 0 \
	"^\| $(printf '%s' "$name" | sed 's/[.+]/\\&/g') \| [^|]* \| ${#debs[@]} / $((${#debs[@]} - 1)) \|" \
	"$TOP/tests/tools/fidelity.py" "$WORK/swap"

# The table, for whoever reads the log; the scorer must give a row for
# every project that split.
"$TOP/tests/tools/fidelity.py" "$OUT" >"$WORK/table.md" 2>&1
sed 's/^/# /' "$WORK/table.md"
rows=$(sed '/^$/q' "$WORK/table.md" | grep -c '^| [^*-].* | .*%')
if [ "$rows" = "${#SPLIT[@]}" ]; then
	ok "fidelity.py scores the $rows projects that split against Debian's packages"
else
	not_ok "fidelity.py scores every project that split" "$(tail -n 5 "$WORK/table.md")"
fi

# The means do not fall below what the rules reached (doc/split-corpus.md,
# 2026-11-27: the 24 projects of this suite): a rule that makes the
# corpus worse fails here.
# Issue 13's own bar (make fidelity's exit status) is higher still.
# Relations went from 79.7 to 79.3 with the C++ library's own -dev:
# flac's libflac++-dev depends on libflac-dev exactly, as 610 of the
# 1,130 such relations of Debian 12 are; Debian's flac has no version.
# 2026-11-27: libpng joined the suite (23 projects; the other five
# projects added then are only in make fidelity, SUITE=fidelity): its
# programs depend on libpng16-16 (>=), Debian's exactly, so relations
# 79.3 -> 76.9 with no rule changed for the 22.
# 2026-11-27 (second round): libnl3 joined (24 projects; gflags, gdbm
# and wayland, added with it, are only in make fidelity): seven
# libraries Debian packages with a -dev each, and exact relations
# written by hand, 94.8 / 87.9 / 27.8 / 86.7 / 40.0, so the means fall
# with no row of the 23 changed (doc/split-corpus.md).
FLOOR="role=96.6 grouping=97.1 relations=74.9 fields=93.9 names=75.0"
if [ "${#SPLIT[@]}" = "$(corpus_suite_names | wc -l)" ]; then
	means=$(grep '^| \*\*mean of' "$WORK/table.md" | tr -d '*%' |
		awk -F' *[|] *' '{ print "role=" $6, "grouping=" $7, "relations=" $8, "fields=" $9, "names=" $10 }')
	low=$(for m in $FLOOR; do
		got=$(printf '%s\n' "$means" | tr ' ' '\n' | grep "^${m%=*}=" | cut -d= -f2)
		awk -v g="${got:-0}" -v f="${m#*=}" 'BEGIN { exit !(g + 0.05 < f) }' &&
			echo "${m%=*} ${got:-none} < ${m#*=}"
	done)
	if [ -n "$means" ] && [ -z "$low" ]; then
		ok "fidelity means at or above the floor ($means)"
	else
		not_ok "fidelity means at or above the floor ($FLOOR)" "${low:-no mean row}"
	fi
else
	not_ok "fidelity means: every project of the corpus split" "${#SPLIT[@]} of $(corpus_suite_names | wc -l)"
fi
