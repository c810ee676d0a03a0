#!/bin/bash
# padpack split on the Paddle core in its separate-package form
# (pkg/paddle-separate.cfg, CORE_SPEC): the package set of the four
# variants, where each staged file went, what is shared, the relations
# between the packages, stripping and -dbgsym, shlibs, symbols and
# triggers, the .changes, .buildinfo and SHA256SUMS, reproducibility, and
# the errors (an unresolvable NEEDED library, missing stages, spec rules).
# lintian and installing into a clean root are in split-install.sh.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../core-cache.sh"
source "$(dirname "$0")/../tools/debian-root.sh"

export SOURCE_DATE_EPOCH=1700000000
V=0.11.0-1
D=$WORK/debs

split_core() { # extra args: padpack split of the cached build into $D
	"$PADPACK" split -c "$CORE_SPEC" -B "$B" -o "$D" "$@"
}

contents() { # DEB: the paths it ships, without ./
	dpkg-deb --fsys-tarfile "$1" | tar -t | sed 's|^\./||; /\/$/d; /^$/d'
}

deb() { # PACKAGE [ARCH]: its file in $D
	echo "$D/${1}_${V}_${2:-amd64}.deb"
}

field() { # PACKAGE FIELD [ARCH]
	dpkg-deb -f "$(deb "$1" "${3:-amd64}")" "$2"
}

suffix_of() { # VARIANT: the suffix the spec gives its packages
	case $1 in
	cpu-avx) echo "" ;;
	cpu-noavx) echo "-noavx" ;;
	gpu-avx) echo "-gpu" ;;
	gpu-noavx) echo "-gpu-noavx" ;;
	esac
}

check_set() {
	local got missing= v p
	got=" $(cd "$D" && ls ./*.deb | sed 's|^\./||; s/_.*//' | tr '\n' ' ')"
	[ -n "$ALL" ] && for p in libpaddle-common-dev paddle-common \
				  python3-paddle-common; do
		case "$got" in *" $p "*) ;; *) missing="$missing $p" ;; esac
	done
	for v in $VARIANTS; do
		for p in libpaddle1 libpaddle-dev paddle python3-paddle \
			 libpaddle1 paddle python3-paddle; do
			p=$p$(suffix_of "$v")
			case "$got" in *" $p "*) ;; *) missing="$missing $p" ;; esac
		done
		for p in libpaddle1 paddle python3-paddle; do
			p=$p$(suffix_of "$v")-dbgsym
			case "$got" in *" $p "*) ;; *) missing="$missing $p" ;; esac
		done
	done
	if [ -z "$missing" ]; then
		ok "the package set: runtime, -dev, programs, Python, docs, -dbgsym, per variant where files differ"
	else
		not_ok "the package set" "missing:$missing" "got:$got"
	fi
}

# Each file of each stage lands in exactly one of the packages that
# variant installs (its own and the shared ones), as the same path, or
# compressed (manual pages); nothing else comes from the stage.
check_every_file() {
	local v pk list bad=
	for v in $VARIANTS; do
		list=$WORK/ship-$v
		: >"$list"
		for pk in $(cd "$D" && ls ./*.deb); do
			local a
			a=$(dpkg-deb -f "$D/$pk" Package)
			case "$a" in *-dbgsym) continue ;; esac
			# the variant's own packages (their synopsis names
			# it) and the shared ones (whose synopsis names none)
			if dpkg-deb -f "$D/$pk" Description | head -1 | grep -q "($v)$" ||
			   ! dpkg-deb -f "$D/$pk" Description | head -1 |
			   grep -qE '\((cpu|gpu)-(no)?avx\)$'; then
				contents "$D/$pk" >>"$list"
			fi
		done
		(cd "$B/$v/stage" && find . ! -type d | sed 's|^\./||') | sort >"$WORK/stage-$v"
		sed 's/\.gz$//' "$list" | sort >"$WORK/ship-sorted-$v"
		# shipped twice within one variant's set?
		if sort "$list" | uniq -d | grep -q .; then
			bad="$bad $v: twice: $(sort "$list" | uniq -d | head -3 | tr '\n' ' ')"
		fi
		if comm -23 "$WORK/stage-$v" "$WORK/ship-sorted-$v" | grep -q .; then
			bad="$bad $v: missing: $(comm -23 "$WORK/stage-$v" "$WORK/ship-sorted-$v" | head -3 | tr '\n' ' ')"
		fi
		if comm -13 "$WORK/stage-$v" "$WORK/ship-sorted-$v" |
		   grep -vE '^usr/share/(doc/[^/]+/(copyright|changelog\.Debian)|lintian/overrides/.*)$' | grep -q .; then
			bad="$bad $v: extra: $(comm -13 "$WORK/stage-$v" "$WORK/ship-sorted-$v" | head -3 | tr '\n' ' ')"
		fi
	done
	if [ -z "$bad" ]; then
		ok "every staged file of every variant is in exactly one of its packages"
	else
		not_ok "every staged file of every variant is in exactly one of its packages" "$bad"
	fi
}

check_shared() {
	check "the header is shipped once, in libpaddle-common-dev" bash -c "
		n=0; for f in '$D'/*.deb; do
			dpkg-deb -c \"\$f\" | grep -q 'usr/include/paddle/paddle.h' && n=\$((n + 1))
		done; [ \$n = 1 ] && dpkg-deb -c '$(deb libpaddle-common-dev)' | grep -q paddle.h"
	check "python3-paddle-common is Architecture: all" bash -c "
		[ \"\$(dpkg-deb -f '$(deb python3-paddle-common all)' Architecture)\" = all ]"
	check "two documents (under 512 KiB) stay in the -dev package: no -doc package" bash -c "
		dpkg-deb -c '$(deb libpaddle-common-dev)' | grep -q 'usr/share/doc/paddle/api.md' &&
		! ls '$D' | grep -q -- -doc_"
	check "the manual page is compressed, in paddle-common, for every variant" bash -c "
		dpkg-deb -c '$(deb paddle-common all)' | grep -q 'usr/share/man/man1/paddle.1.gz' &&
		dpkg-deb --fsys-tarfile '$(deb paddle-common all)' |
			tar -xO ./usr/share/man/man1/paddle.1.gz | gzip -t"
	check "the pkg-config file differs per variant: in libpaddle-dev-noavx" bash -c "
		dpkg-deb --fsys-tarfile '$(deb libpaddle-dev-noavx)' |
			tar -xO ./usr/lib/x86_64-linux-gnu/pkgconfig/paddle.pc | grep -q 'variant=cpu-noavx'"
}

check_relations() {
	check_fails "libpaddle1-noavx provides, conflicts with and replaces the others" 0 \
		'^Conflicts: libpaddle1, .*libpaddle1-gpu.*Replaces: libpaddle1, .*Provides: libpaddle1 \(= 0\.11\.0-1\)$' \
		bash -c "dpkg-deb -f '$(deb libpaddle1-noavx)' Conflicts Replaces Provides | tr '\n' ' ' | sed 's/ $//'"
	check_fails "paddle: libpaddle1 (>= upstream) from its shlibs, its shared part exactly, libc by symbols" 0 \
		'^libc6 \(>= 2\.[0-9]+\), libpaddle1 \(>= 0\.11\.0\), paddle-common \(= 0\.11\.0-1\)$' \
		field paddle Depends
	check_fails "paddle-noavx depends on libpaddle1-noavx (>= upstream version), as dpkg-shlibdeps" 0 \
		'libpaddle1-noavx \(>= 0\.11\.0\)' field paddle-noavx Depends
	check_fails "the -dev of a variant depends on its runtime and the shared -dev" 0 \
		'^libpaddle-common-dev \(= 0\.11\.0-1\), libpaddle1-noavx \(= 0\.11\.0-1\)$' \
		field libpaddle-dev-noavx Depends
	check_fails "libpaddle-common-dev depends on what every variant provides" 0 \
		'^libpaddle1 \(= 0\.11\.0-1\)$' field libpaddle-common-dev Depends
	check_fails "python3-paddle: Python 3.11 as dh_python3 writes it" 0 \
		'python3 \(<< 3\.12\), python3 \(>= 3\.11~\)' field python3-paddle Depends
	# dh_python3's scripts: for a package of .py modules (named without
	# the architecture when it is arch-all; libxml2 of split-corpus has
	# the arch-dependent form), none for one of extensions alone
	check_fails "python3-paddle-common: its postinst byte-compiles its modules, its prerm removes the byte-code (py3compile/py3clean -p python3-paddle-common)" 0 \
		'^py3compile -p python3-paddle-common py3clean -p python3-paddle-common $' \
		bash -c "for s in postinst prerm; do dpkg-deb -I '$(deb python3-paddle-common all)' \$s | grep -E '^\s+py3(compile|clean) ' | tr -d '\t' | tr '\n' ' '; done"
	check "python3-paddle (an extension module, no .py): no py3compile" bash -c "
		dpkg-deb -f '$(deb python3-paddle)' Package >/dev/null &&
		! dpkg-deb -I '$(deb python3-paddle)' postinst 2>/dev/null | grep -q py3compile"
	if [ -n "$NVCC" ]; then
		check_fails "libpaddle1-gpu: libcudart from the spec's mapping" 0 \
			'libcudart13 \| cuda-cudart-13-0' field libpaddle1-gpu Depends
		check_fails "libpaddle1-gpu warns at install time when no driver is there" 0 \
			'the NVIDIA driver is not installed here' \
			dpkg-deb -I "$(deb libpaddle1-gpu)" postinst
		check "the CPU packages have no driver check" bash -c \
			"! dpkg-deb -I '$(deb libpaddle1)' postinst 2>/dev/null"
	fi
	check_fails "libpaddle1 sections and Multi-Arch" 0 \
		'^Section: libs Priority: optional Multi-Arch: same$' \
		bash -c "dpkg-deb -f '$(deb libpaddle1)' Section Priority Multi-Arch | tr '\n' ' ' | sed 's/ $//'"
}

check_library_files() {
	check_fails "shlibs: the name every variant provides, upstream version" 0 \
		'^libpaddle 1 libpaddle1 \(>= 0\.11\.0\)$' \
		dpkg-deb -I "$(deb libpaddle1-noavx)" shlibs
	check_fails "symbols: every exported symbol, Build-Depends-Package" 0 \
		'libpaddle\.so\.1 libpaddle1 #MINVER#.\* Build-Depends-Package: libpaddle-dev.* paddle_sgemm@PADDLE_1 0\.11\.0' \
		bash -c "dpkg-deb -I '$(deb libpaddle1)' symbols | tr '\n' '.'"
	check_fails "triggers: activate-noawait ldconfig" 0 '^activate-noawait ldconfig$' \
		dpkg-deb -I "$(deb libpaddle1)" triggers
	check_fails "a variant's library says why its name differs from the SONAME" 0 \
		'^package-name-doesnt-match-sonames libpaddle1$' bash -c \
		"dpkg-deb --fsys-tarfile '$(deb libpaddle1-noavx)' | tar -xO ./usr/share/lintian/overrides/libpaddle1-noavx"
	check_fails "a package with code says why it has an Isa-Level field (lintian's unknown-field)" 0 \
		'^unknown-field Isa-Level$' bash -c \
		"dpkg-deb --fsys-tarfile '$(deb libpaddle1)' | tar -xO ./usr/share/lintian/overrides/libpaddle1"
}

# The shipped binaries are stripped and point at their debug file, which
# the -dbgsym package holds under the build-id, as its Build-Ids says.
check_dbgsym() {
	local x=$WORK/x-dbg id lib
	mkdir -p "$x"
	dpkg-deb -x "$(deb libpaddle1-noavx)" "$x"
	dpkg-deb -x "$(deb libpaddle1-noavx-dbgsym)" "$x"
	lib=$x/usr/lib/x86_64-linux-gnu/libpaddle.so.1.0.0
	id=$(eu-readelf -n "$lib" | awk '/Build ID:/ { print $3 }')
	check "the shipped library is stripped (no .symtab) and has a debuglink" bash -c \
		"! eu-readelf -S '$lib' | grep -q ' .symtab ' && eu-readelf -S '$lib' | grep -q .gnu_debuglink"
	check_fails "Build-Ids names the library's build-id" 0 "^$id\$" \
		field libpaddle1-noavx-dbgsym Build-Ids
	check "the debug file is at .build-id/xx/rest.debug with the same build-id" bash -c "
		f='$x/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug' &&
		[ \"\$(eu-readelf -n \"\$f\" | awk '/Build ID:/ { print \$3 }')\" = '$id' ] &&
		eu-readelf -S \"\$f\" | grep -q debug_info"
	check_fails "gdb finds paddle_sgemm's source line through the debug file" 0 \
		'gemm_portable\.c|core\.c' gdb -batch -nx \
		-ex "set debug-file-directory $x/usr/lib/debug" \
		-ex "file $lib" -ex 'info line paddle_sgemm' -ex 'info line paddle_gemm_portable'
	check_fails "-dbgsym: control as debhelper writes it" 0 \
		'^Depends: libpaddle1-noavx \(= 0\.11\.0-1\) Auto-Built-Package: debug-symbols Section: debug$' \
		bash -c "dpkg-deb -f '$(deb libpaddle1-noavx-dbgsym)' Depends Auto-Built-Package Section | tr '\n' ' ' | sed 's/ $//'"
}

check_run_files() {
	check "SHA256SUMS holds for every file of the run" bash -c \
		"cd '$D' && sha256sum --quiet -c SHA256SUMS && [ \$(wc -l < SHA256SUMS) = \$(ls | grep -vc SHA256SUMS) ]"
	check ".changes: fields, checksums, Binary, Description, Architecture" \
		python3 "$TOP/tests/tools/check-changes.py" "$D/paddle_${V}_amd64.changes"
	check_fails ".changes: dated SOURCE_DATE_EPOCH, the changelog's entry" 0 \
		'Date: Tue, 14 Nov 2023 22:13:20 \+0000.*Changes:. paddle \(0\.11\.0-1\) unstable; urgency=medium' \
		bash -c "tr '\n' '.' < '$D/paddle_${V}_amd64.changes'"
	check_fails ".buildinfo: the packages' checksums, what built them" 0 \
		'^Format: 1\.0.*Checksums-Sha256:.*libpaddle1_0\.11\.0-1_amd64\.deb.*Installed-Build-Depends:. [a-z].*cmake \(= .*Environment:.*SOURCE_DATE_EPOCH="1700000000"' \
		bash -c "tr '\n' '.' < '$D/paddle_${V}_amd64.buildinfo'"
}

# The same stage trees and SOURCE_DATE_EPOCH give the same bytes, however
# the packages are packed: a second run into the same directory packs
# them one after the other (--threads 1) while a third, at once, packs
# them side by side (--threads 3: more workers than this machine may have
# CPUs). Two splits of one build directory at once share its work
# directory (BUILD/split): the second waits for the first's lock, and
# neither packs the other's files. The .changes differs only in the
# .buildinfo's lines (its Build-Date is the real time, as
# dpkg-genbuildinfo's).
check_reproducible() {
	local d1=$WORK/first t3=$WORK/threads-3 bad= pid f
	local what="a second run (--threads 1) and one at once beside it (--threads 3): byte-identical .debs"
	cp -a "$D" "$d1"
	sleep 1
	split_core -q --threads 3 -o "$t3" >"$WORK/threads-3.log" 2>&1 &
	pid=$!
	split_core -q --threads 1 >"$WORK/second.log" 2>&1 ||
		bad=" second run: $(cat "$WORK/second.log")"
	wait $pid || bad="$bad --threads 3: $(cat "$WORK/threads-3.log")"
	for f in "$d1"/*.deb; do
		cmp -s "$f" "$D/$(basename "$f")" || bad="$bad 1:$(basename "$f")"
		cmp -s "$f" "$t3/$(basename "$f")" || bad="$bad 3:$(basename "$f")"
	done
	if [ -z "$bad" ]; then ok "$what"; else not_ok "$what" "differ:$bad"; fi
	check ".changes of both identical but for the .buildinfo's checksums" bash -c "
		diff <(grep -v buildinfo '$d1/paddle_${V}_amd64.changes') \
		     <(grep -v buildinfo '$D/paddle_${V}_amd64.changes') &&
		diff <(grep -v buildinfo '$d1/paddle_${V}_amd64.changes') \
		     <(grep -v buildinfo '$t3/paddle_${V}_amd64.changes')"
	check_fails "--threads 0: a usage error" 2 "--threads '0' is not a number" \
		split_core -q --threads 0 -o "$WORK/threads-0"
	check_memory_limit
}

# --memory-limit: the packs' xz encoders (93 MiB each at -6) together stay
# under it; fewer packed at once, the same bytes. Under 93 MiB each
# package packs alone, with one note saying so.
check_memory_limit() {
	local lim bad=
	for lim in 200MiB 1MiB; do
		split_core --threads 3 --memory-limit=$lim -o "$WORK/mem-$lim" \
			>/dev/null 2>"$WORK/mem-$lim.err" ||
			{ not_ok "--memory-limit=$lim" "$(cat "$WORK/mem-$lim.err")"; return; }
		for f in "$D"/*.deb; do
			cmp -s "$f" "$WORK/mem-$lim/$(basename "$f")" || bad="$bad $lim:$(basename "$f")"
		done
	done
	check "packed, then renamed into place: no packing directory left" \
		test ! -e "$WORK/mem-1MiB/.padpack-split.tmp"
	if [ -z "$bad" ]; then
		ok "--memory-limit 200MiB and 1MiB: the same .debs as without"
	else
		not_ok "--memory-limit 200MiB and 1MiB: the same .debs as without" "differ:$bad"
	fi
	check "--memory-limit under one encoder: one note, each package packed alone" \
		grep -qx 'padpack split: the compressor of [0-9]* packages takes [0-9.]* MiB, over the memory limit of 1.0 MiB: each was packed with no other beside it' \
		"$WORK/mem-1MiB.err"
	check "--memory-limit over the encoders: no note" \
		bash -c "! grep -q 'memory limit' '$WORK/mem-200MiB.err'"
	check_fails "--memory-limit=12XB: a usage error naming the value and the units" 2 \
		"--memory-limit '12XB' is not a size: give bytes, or a number with KiB, MiB or GiB" \
		split_core -q --memory-limit=12XB -o "$WORK/mem-bad"
	check_fails "--memory-limit=0: a usage error" 2 "--memory-limit '0' is not a size" \
		split_core -q --memory-limit=0 -o "$WORK/mem-bad"
}

# xz's x86 BCJ filter (--x86-filter, default auto): in the data member of
# the packages mostly of x86 code (the library, the program), not in
# -dev (headers), the docs, nor -dbgsym (DWARF); never in a control
# member. check_reproducible compared these bytes for --threads 1 and 3.
# --x86-filter off: none, and the same files.
xz_chain() { # DEB [MEMBER]: the member's filter chains, as xz --robot -lvv says
	ar p "$1" "${2:-data.tar.xz}" >"$WORK/chain.xz" &&
		xz --robot -lvv "$WORK/chain.xz" | awk -F'\t' '$1 == "block" {print $NF}' | sort -u
}
check_x86_filter() {
	local f p got bad= nox86=$WORK/nox86
	for f in "$D"/*.deb; do
		p=$(basename "$f"); p=${p%%_*}
		got=$(xz_chain "$f")
		case $p:$(dpkg-deb -f "$f" Architecture) in
		libpaddle1:*|paddle:*)
			[ "$got" = "--x86 --lzma2=dict=8MiB" ] || bad="$bad $p:$got" ;;
		*-dev:*|*-dbgsym:*|*:all)
			[ "$got" = "--lzma2=dict=8MiB" ] || bad="$bad $p:$got" ;;
		esac
		got=$(xz_chain "$f" control.tar.xz)
		[ "$got" = "--lzma2=dict=8MiB" ] || bad="$bad $p(control):$got"
	done
	if [ -z "$bad" ]; then
		ok "x86 filter: in the library's and the program's data, not in -dev (headers, docs), -dbgsym, Architecture: all nor control"
	else
		not_ok "x86 filter: in the library's and the program's data, not in -dev (headers, docs), -dbgsym, Architecture: all nor control" "$bad"
	fi
	split_core -q --x86-filter off -o "$nox86" >"$WORK/nox86.log" 2>&1 ||
		{ not_ok "--x86-filter off" "$(cat "$WORK/nox86.log")"; return; }
	bad=
	for f in "$nox86"/*.deb; do
		got=$(xz_chain "$f")
		[ "$got" = "--lzma2=dict=8MiB" ] || bad="$bad $(basename "$f"):$got"
		cmp -s <(dpkg-deb --contents "$f") <(dpkg-deb --contents "$D/$(basename "$f")") ||
			bad="$bad $(basename "$f"):contents"
	done
	if [ -z "$bad" ]; then
		ok "--x86-filter off: no package has it; the same files"
	else
		not_ok "--x86-filter off: no package has it; the same files" "$bad"
	fi
	check_fails "--x86-filter with another word: a usage error" 2 "use auto or off" \
		split_core -q --x86-filter always -o "$WORK/x86-bad"
}

check_explain() {
	local out
	out=$(split_core --explain 2>&1)
	check_fails "--explain: each file, its class, the package and the rule" 0 \
		'usr/lib/x86_64-linux-gnu/libpaddle.so.1.0.0.*shared library -> libpaddle1-noavx.*rule: default: shared library with SONAME libpaddle.so.1' \
		bash -c "printf '%s' \"\$1\" | tr '\n' ' '" sh "$out"
	check_fails "--explain: a file the same everywhere is listed once, as (all)" 0 \
		'^\(all\) +usr/include/paddle/paddle.h$' printf '%s\n' "$out"
	check "--explain writes nothing" bash -c "! ls '$WORK/explain-out' 2>/dev/null &&
		'$PADPACK' split -c '$CORE_SPEC' -B '$B' -o '$WORK/explain-out' --explain >/dev/null &&
		! ls '$WORK/explain-out' 2>/dev/null"
}

# A spec whose rules send files elsewhere, drop some, name packages per
# variant, and override a field; on one variant.
check_rules() {
	local spec=$WORK/rules.cfg out=$WORK/rules
	sed '/^packages = {/,$d' "$CORE_SPEC" >"$spec"
	cat >>"$spec" <<-EOF
	packages = {
		title = "PaddlePaddle core";
		copyright = "$TOP/pkg/paddle.copyright";
		needed = ( { soname = "libcudart.so.*"; depends = "libcudart13"; } );
		files = (
			{ path = "usr/share/doc/*"; drop = "docs are online"; },
			{ path = "usr/lib/*/cmake/*"; package = "paddle-cmake-@variant@"; role = "dev"; }
		);
		control = (
			{ package = "libpaddle1*"; fields = { Section = "science"; Homepage = ""; };
			  postinst = "$WORK/lib.postinst"; }
		);
	};
	EOF
	printf '%s\n' '#!/bin/sh' 'set -e' 'echo "configuring @package@ @version@"' \
		'#PADPACK#' 'exit 0' >"$WORK/lib.postinst"
	check_fails "spec rules: drop and a package per variant, said by --explain" 0 \
		'dropped: docs are online.*paddle-cmake-cpu-noavx' bash -c \
		"'$PADPACK' split -c '$spec' -B '$B' -o '$out' --variant cpu-noavx --explain 2>&1 | tr '\n' ' '"
	check_fails "spec rules: the packages follow them" 0 'paddle-cmake-cpu-noavx_' \
		bash -c "'$PADPACK' split -c '$spec' -B '$B' -o '$out' --variant cpu-noavx -q && ls '$out'"
	check "spec rules: no -doc package; the field override holds" bash -c "
		! ls '$out' | grep -q doc &&
		[ \"\$(dpkg-deb -f '$out/libpaddle1-noavx_${V}_amd64.deb' Section)\" = science ] &&
		[ -z \"\$(dpkg-deb -f '$out/libpaddle1-noavx_${V}_amd64.deb' Homepage)\" ]"
	check "one variant of four: all its files in packages named for it" bash -c "
		dpkg-deb -f '$out/libpaddle1-noavx_${V}_amd64.deb' Description | head -1 |
		grep -qx 'PaddlePaddle core - shared library (cpu-noavx)' &&
		dpkg-deb -c '$out/libpaddle-dev-noavx_${V}_amd64.deb' | grep -q paddle.h &&
		! ls '$out' | grep -q common"
	check_fails "spec scripts: the template, its placeholders filled" 0 \
		'^echo "configuring libpaddle1-noavx 0\.11\.0-1"$' \
		dpkg-deb -I "$out/libpaddle1-noavx_${V}_amd64.deb" postinst
	[ -n "$NVCC" ] || return 0
	check_fails "spec scripts: padpack's driver check goes at #PADPACK#" 0 \
		'configuring libpaddle1-gpu-noavx .*the NVIDIA driver is not installed here.*exit 0' \
		bash -c "'$PADPACK' split -c '$spec' -B '$B' -o '$out' --variant gpu-noavx -q &&
		dpkg-deb -I '$out/libpaddle1-gpu-noavx_${V}_amd64.deb' postinst | tr '\n' ' '"
}

# The ISA proof: what each package records, a no-AVX variant with one
# file compiled with -mavx2, an AVX variant without AVX, and runtime
# dispatch exempted by the spec.
check_isa() {
	local bad=$WORK/isabuild spec=$WORK/isa.cfg
	check_fails "Isa-Level: libpaddle1 needs x86-64-v3 (AVX, FMA)" 0 \
		'^x86-64-v3 \(AVX, FMA\)$' field libpaddle1 Isa-Level
	check_fails "Isa-Level: libpaddle1-noavx, the baseline" 0 '^x86-64$' \
		field libpaddle1-noavx Isa-Level
	check_fails "libpaddle1's preinst checks the CPU for AVX and FMA" 0 \
		'for padpack_flag in avx fma; do' dpkg-deb -I "$(deb libpaddle1)" preinst
	check "the no-AVX packages have no CPU check; the AVX variant's programs have their library's (apt unpacks them together: one left unpacked beside a refused library would stay half-installed)" bash -c "
		! dpkg-deb -I '$(deb libpaddle1-noavx)' preinst 2>/dev/null &&
		! dpkg-deb -I '$(deb paddle-noavx)' preinst 2>/dev/null &&
		dpkg-deb -I '$(deb paddle)' preinst | grep -q '^E: paddle needs a CPU with AVX and FMA (x86-64-v3),\$'"
	# the same objects with and without -mavx2, scanned by padpack isa
	printf '%s\n' 'void add8(float *a, const float *b) {' \
		'  for (int i = 0; i < 8; i++) a[i] += b[i] * a[i]; }' >"$WORK/k.c"
	cc -O3 -mavx2 -mfma -c -o "$WORK/k-avx2.o" "$WORK/k.c" &&
	cc -O3 -c -o "$WORK/k-plain.o" "$WORK/k.c"
	check_fails "padpack isa: the object built with -mavx2 needs x86-64-v3" 0 \
		'x86-64-v3' "$PADPACK" isa "$WORK/k-avx2.o"
	check_fails "padpack isa: the same object without it stays at the baseline" 0 \
		': x86-64 \(' bash -c "'$PADPACK' isa '$WORK/k-plain.o' | head -n 1"
	# a no-AVX stage with one library built with -mavx2
	mkdir -p "$bad/cpu-noavx" "$bad/cpu-avx"
	cp -a "$B/cpu-noavx/stage" "$bad/cpu-noavx/"
	cc -O3 -mavx2 -mfma -shared -fPIC -Wl,-soname,libkern.so.0 \
		-o "$bad/cpu-noavx/stage/$LIBDIR/libkern.so.0" "$WORK/k.c"
	check_fails "a no-AVX variant with a file built with -mavx2: exit 1, file, symbol, offset" 1 \
		'the ISA proof failed: .*cpu-noavx/stage/usr/lib/x86_64-linux-gnu/libkern\.so\.0: (AVX2|FMA|AVX) instruction at add8\+0x[0-9a-f]+ .*exceeds x86-64-v2.*; the cpu-noavx variant allows no more' \
		bash -c "'$PADPACK' split -c '$CORE_SPEC' -B '$bad' -o '$WORK/isa-out' --variant cpu-noavx 2>&1 | tr '\n' ' '; exit \${PIPESTATUS[0]}"
	check "nothing was written" bash -c "! ls '$WORK/isa-out' 2>/dev/null"
	# the same file, its kernel declared as runtime-dispatched
	sed 's|^\tisa_dispatch = (|\tisa_dispatch = ( { path = "usr/lib/*/libkern.so.*"; symbols = [ "add8" ]; }|' \
		"$CORE_SPEC" >"$spec"
	sed -i "s|copyright = \"paddle.copyright\"|copyright = \"$TOP/pkg/paddle.copyright\"|" "$spec"
	check_fails "isa_dispatch exempts it: the split goes on, --explain says exempt and lists the exempt function with its extensions" 0 \
		'libkern\.so\.0 .*isa: x86-64 .*(AVX|FMA)\(exempt\).* exempt functions that need AVX[^(]*FMA[^(]* \(1\): +add8 ' bash -c "
		'$PADPACK' split -c '$spec' -B '$bad' -o '$WORK/isa-out' --variant cpu-noavx -q &&
		'$PADPACK' split -c '$spec' -B '$bad' --variant cpu-noavx --explain 2>&1 | tr '\n' ' '"
	# an AVX variant whose build fell back to the portable kernel
	cp -a "$B/cpu-noavx/stage" "$bad/cpu-avx/"
	check_fails "an AVX variant without one AVX instruction: exit 1, saying the build fell back" 1 \
		'variant cpu-avx: none of its 3 ELF files has an instruction of avx .*fell back' \
		"$PADPACK" split -c "$CORE_SPEC" -B "$bad" -o "$WORK/isa-out2" --variant cpu-avx
}

# A program needing a library nobody provides: an error naming both.
check_errors() {
	local bad=$WORK/badbuild spec=$WORK/bad.cfg
	mkdir -p "$bad/cpu-noavx"
	cp -a "$B/cpu-noavx/stage" "$bad/cpu-noavx/"
	printf 'int nothere(void);\nint main(void) { return nothere(); }\n' >"$WORK/m.c"
	printf 'int nothere(void) { return 0; }\n' >"$WORK/n.c"
	cc -shared -fPIC -Wl,-soname,libnothere.so.7 -o "$WORK/libnothere.so.7" "$WORK/n.c" &&
	cc -o "$bad/cpu-noavx/stage/usr/bin/needy" "$WORK/m.c" "$WORK/libnothere.so.7"
	check_fails "an unresolvable NEEDED: exit 3, the file and the SONAME" 3 \
		'stage/usr/bin/needy: NEEDED libnothere\.so\.7 cannot be resolved to a package.*packages\.needed' \
		"$PADPACK" split -c "$CORE_SPEC" -B "$bad" -o "$WORK/bad-out" --variant cpu-noavx
	check "a failed split leaves no package behind" bash -c "! ls '$WORK/bad-out'/*.deb 2>/dev/null"
	check "a failed split leaves no packing directory behind" \
		test ! -e "$WORK/bad-out/.padpack-split.tmp"
	mkdir -p "$WORK/nodb/info" "$WORK/nodb/updates" && : >"$WORK/nodb/status"
	check_fails "a system library no installed package owns: says so (dpkg-query)" 3 \
		'NEEDED libc\.so\.6 cannot be resolved to a package: .*libc\.so\.6 has it, but no installed package owns that file \(dpkg-query --search\)' \
		"$PADPACK" split -c "$CORE_SPEC" -B "$B" -o "$WORK/bad-out" \
		--variant cpu-noavx --admindir "$WORK/nodb"
	check_fails "no stage tree for an explicit variant: exit 3, what to do" 3 \
		"no stage tree .*badbuild/cpu-avx/stage; run 'padpack build' first" \
		"$PADPACK" split -c "$CORE_SPEC" -B "$bad" -o "$WORK/bad-out" --variant cpu-avx
	check_fails "variants not built are skipped, saying so" 3 \
		'cpu-avx/stage is missing \(the variant was not built here\)' \
		"$PADPACK" split -c "$CORE_SPEC" -B "$bad" -o "$WORK/bad-out"
	sed 's|^\tcopyright = .*||' "$CORE_SPEC" >"$spec"
	check_fails "no copyright file nor license anywhere: a warning naming the setting" 0 \
		"no license file in the staged tree .*packages\.copyright" \
		bash -c "cd '$WORK' && '$PADPACK' split -c '$spec' -B '$B' --variant cpu-noavx --explain 2>&1 >/dev/null"
	sed 's|^\ttitle = .*|\ttitle = "paddle and friends";|' "$CORE_SPEC" >"$spec"
	sed -i "s|copyright = \"paddle.copyright\"|copyright = \"$TOP/pkg/paddle.copyright\"|" "$spec"
	check_fails "a synopsis lintian would reject: names template and package" 3 \
		'tools.control: the synopsis of paddle starts with the package.s name' \
		"$PADPACK" split -c "$spec" -B "$B" -o "$WORK/bad-out" --variant cpu-avx
	check_fails "a bad files rule: file, line and setting" 3 \
		"setting 'packages.files\[0\]': needs either package .* or drop" bash -c "
		sed 's|^\tfiles = (|\tfiles = ( { path = \"x\"; }|' '$CORE_SPEC' > '$spec' &&
		'$PADPACK' split -c '$spec' -B '$B' --explain"
}

# A file under /etc is a conffile: listed in conffiles, left out of
# md5sums as dh_md5sums does (dpkg keeps a conffile's sum itself).
check_conffiles() {
	local cb=$WORK/confbuild out=$WORK/conf-out
	mkdir -p "$cb/cpu-noavx"
	cp -a "$B/cpu-noavx/stage" "$cb/cpu-noavx/"
	mkdir -p "$cb/cpu-noavx/stage/etc/paddle"
	echo 'threads = 4' >"$cb/cpu-noavx/stage/etc/paddle/paddle.conf"
	if ! "$PADPACK" split -c "$CORE_SPEC" -B "$cb" -o "$out" \
		--variant cpu-noavx -q >"$WORK/conf.log" 2>&1; then
		not_ok "a file under /etc: split" "$(cat "$WORK/conf.log")"
		return
	fi
	local pkg
	pkg=$(for d in "$out"/*.deb; do
		dpkg-deb -c "$d" | grep -q 'etc/paddle/paddle.conf$' && echo "$d"; done | head -1)
	check "a file under /etc is a conffile, not in md5sums" bash -c "
		[ -n '$pkg' ] &&
		dpkg-deb -I '$pkg' conffiles | grep -qx /etc/paddle/paddle.conf &&
		! dpkg-deb -I '$pkg' md5sums | grep -q etc/paddle &&
		dpkg-deb -I '$pkg' md5sums | grep -q ."
}

# A project no one described: a staged tree of two libraries of one
# version, their static archives, a *-config script, one program and a
# handful of documents, split with nothing but a name and a version.
make_minimal_stage() { # DIR (also README.md's example)
	local S=$1 L=usr/lib/x86_64-linux-gnu c=$WORK/mini-src
	mkdir -p "$c" "$S/$L/pkgconfig" "$S/usr/include" "$S/usr/bin" \
		"$S/usr/share/man/man1" "$S/usr/share/man/man3" "$S/usr/share/doc/libdemo"
	printf '#include <string.h>\nint demo(const char *s) { return (int)strlen(s); }\n' >"$c/a.c"
	printf '#include <string.h>\nint demox(const char *s) { return (int)strlen(s) + 1; }\n' >"$c/b.c"
	printf 'int demo(const char *);\nint main(int c, char **v) { return demo(v[0]) > c ? 0 : 1; }\n' >"$c/m.c"
	local f=(-g -O2 -fPIC -D_FORTIFY_SOURCE=2 -fstack-protector-strong)
	cc "${f[@]}" -shared -Wl,-z,relro,-z,now -Wl,-soname,libdemo.so.1 -o "$S/$L/libdemo.so.1.0.0" "$c/a.c" &&
	cc "${f[@]}" -shared -Wl,-z,relro,-z,now -Wl,-soname,libdemox.so.2 -o "$S/$L/libdemox.so.2.0.0" "$c/b.c" &&
	cc "${f[@]}" -c -o "$c/a.o" "$c/a.c" && cc "${f[@]}" -c -o "$c/b.o" "$c/b.c" &&
	ar rcs "$S/$L/libdemo.a" "$c/a.o" && ar rcs "$S/$L/libdemox.a" "$c/b.o" &&
	ln -s libdemo.so.1.0.0 "$S/$L/libdemo.so.1" && ln -s libdemo.so.1 "$S/$L/libdemo.so" &&
	ln -s libdemox.so.2.0.0 "$S/$L/libdemox.so.2" && ln -s libdemox.so.2 "$S/$L/libdemox.so" &&
	cc "${f[@]}" -fPIE -pie -Wl,-z,relro,-z,now -o "$S/usr/bin/demotool" "$c/m.c" \
		-L"$S/$L" -ldemo || return 1
	echo 'int demo(const char *s);' >"$S/usr/include/demo.h"
	printf 'prefix=/usr\nName: demo\nDescription: demo\nVersion: 1.0\nLibs: -ldemo\n' \
		>"$S/$L/pkgconfig/demo.pc"
	printf '#!/bin/sh\necho -ldemo\n' >"$S/usr/bin/demo-config"
	chmod 755 "$S/usr/bin/demo-config"
	printf '.TH DEMOTOOL 1\n.SH NAME\ndemotool \\- counts\n' >"$S/usr/share/man/man1/demotool.1"
	printf '.TH DEMO-CONFIG 1\n.SH NAME\ndemo-config \\- flags\n' >"$S/usr/share/man/man1/demo-config.1"
	printf '.TH DEMO 3\n.SH NAME\ndemo \\- counts\n' >"$S/usr/share/man/man3/demo.3"
	echo 'libdemo counts characters.' >"$S/usr/share/doc/libdemo/README"
	mkdir -p "$S/usr/share/aclocal" "$S/usr/share/locale/de/LC_MESSAGES" "$S/usr/share/info"
	printf 'This is the info directory.\n' >"$S/usr/share/info/dir"
	echo 'AC_DEFUN([DEMO_CHECK], [])' >"$S/usr/share/aclocal/demo.m4"
	printf 'not really a catalog\n' >"$S/usr/share/locale/de/LC_MESSAGES/libdemo.mo"
	printf 'Copyright (c) 2024 Jane Upstream\n\nPermission is hereby granted, free of charge, to use it.\n' \
		>"$S/usr/share/doc/libdemo/COPYING"
}

minimal_stage_or_fail() { # DIR LABEL: make_minimal_stage, or a failed check
	make_minimal_stage "$1" && return 0
	not_ok "$2: a staged tree built with cc"
	return 1
}

check_minimal() {
	local S=$WORK/mini/stage out=$WORK/mini/debs pkgs L=usr/lib/x86_64-linux-gnu
	local -x DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org
	minimal_stage_or_fail "$S" "minimal" || return
	check "minimal: padpack split --stage DIR --name N --version V, nothing else" \
		"$PADPACK" split --stage "$S" --name libdemo --version 1.0 -o "$out" -q
	pkgs=$(cd "$out" && ls ./*.deb | sed 's|^\./||; s/_.*//' | LC_ALL=C sort | tr '\n' ' ')
	check_fails "minimal: a runtime package per SONAME, one -dev, the program's own, -dbgsym" 0 \
		'^demotool demotool-dbgsym libdemo-dev libdemo1 libdemo1-dbgsym libdemox2 libdemox2-dbgsym $' \
		echo "$pkgs"
	check "minimal: both static archives, .so links, *-config and its page, section 3, README in the one -dev" bash -c "
		dpkg-deb -c '$out/libdemo-dev_1.0-1_amd64.deb' | sed 's|.* \./||; s| -> .*||' >'$WORK/mini/dev.list' &&
		for f in $L/libdemo.a $L/libdemox.a $L/libdemo.so $L/libdemox.so usr/include/demo.h \
			$L/pkgconfig/demo.pc usr/bin/demo-config usr/share/man/man1/demo-config.1.gz \
			usr/share/man/man3/demo.3.gz usr/share/doc/libdemo/README \
			usr/share/aclocal/demo.m4; do
			grep -qx \"\$f\" '$WORK/mini/dev.list' || { echo \"missing \$f\"; exit 1; }
		done"
	check "minimal: a locale of a lib* source goes with its library, as libidn2-0's and libpopt0's" bash -c "
		dpkg-deb -c '$out/libdemo1_1.0-1_amd64.deb' | grep -q 'usr/share/locale/de/LC_MESSAGES/libdemo.mo'"
	check_fails "minimal: the program depends on its library (>= upstream), as dpkg-shlibdeps from shlibs" 0 \
		'^libc6 \(>= 2\.[0-9]+\), libdemo1 \(>= 1\.0\)$' \
		dpkg-deb -f "$out/demotool_1.0-1_amd64.deb" Depends
	check_fails "minimal: -dev depends on each runtime package exactly" 0 \
		'^libdemo1 \(= 1\.0-1\), libdemox2 \(= 1\.0-1\)$' \
		dpkg-deb -f "$out/libdemo-dev_1.0-1_amd64.deb" Depends
	check_fails "minimal: maintainer from DEBFULLNAME/DEBEMAIL, a default synopsis" 0 \
		'^Jane Doe <jane@example.org> software of the libdemo project - programs$' \
		bash -c "{ dpkg-deb -f '$out/demotool_1.0-1_amd64.deb' Maintainer; dpkg-deb -f '$out/demotool_1.0-1_amd64.deb' Description | head -n 1; } | tr '\n' ' ' | sed 's/ $//'"
	check_fails "minimal: a DEP-5 copyright made from the tree's license" 0 \
		'Copyright: Copyright \(c\) 2024 Jane Upstream.*Permission is hereby granted' \
		bash -c "dpkg-deb --fsys-tarfile '$out/libdemo1_1.0-1_amd64.deb' |
			tar -xO ./usr/share/doc/libdemo1/copyright | tr '\n' ' '"
	check "minimal: a spec that says nothing of ISA: no Isa-Level field, no CPU check" bash -c "
		[ -z \"\$(dpkg-deb -f '$out/libdemo1_1.0-1_amd64.deb' Isa-Level)\" ] &&
		! dpkg-deb -I '$out/libdemo1_1.0-1_amd64.deb' preinst >/dev/null 2>&1"
	check "minimal: lintian, no error" bash -c "cd '$out' && lintian --fail-on error \
		libdemo_1.0-1_amd64.changes >'$WORK/mini/lintian.log' 2>&1 || { cat '$WORK/mini/lintian.log'; exit 1; }"
	# The tests' lintian keeps a verdict for the same bytes: a .deb
	# changed after its .changes is other bytes, and lintian runs again.
	check "minimal: a .deb swapped after its .changes was written: the tests' lintian runs lintian again, which finds the mismatch" bash -c "
		cp -r '$out' '$WORK/mini/swapped' && cd '$WORK/mini/swapped' &&
		cp demotool_1.0-1_amd64.deb libdemo1_1.0-1_amd64.deb &&
		! lint=\$(lintian --fail-on error libdemo_1.0-1_amd64.changes 2>&1) &&
		printf '%s\n' \"\$lint\" | grep -q 'checksum-mismatch-in-changes-file .*libdemo1_1\.0-1_amd64\.deb'"
	check_fails "minimal: --explain names each rule" 0 \
		'usr/bin/demotool +ELF program -> demotool +rule: default: ELF program -> the one program of a lib\* source.*libdemox\.a +static library -> libdemo-dev +rule: default: static library -> the -dev package of the headers.*COPYING +documentation -> \(dropped\) +rule: default: a license file.*usr/share/info/dir +documentation -> \(dropped\) +rule: default: the info directory' \
		bash -c "'$PADPACK' split --stage '$S' --name libdemo --version 1.0 --explain 2>&1 | tr '\n' ' '"
	check_fails "minimal: --explain says why each relation is exact or not" 0 \
		'demotool -> libdemo1 \(>= 1\.0\): .*shlibs.*libdemo-dev -> libdemo1 \(= 1\.0-1\): ' \
		bash -c "'$PADPACK' split --stage '$S' --name libdemo --version 1.0 --explain 2>&1 | tr '\n' ' '"
	check_fails "minimal: --scaffold writes the spec and copyright, dh_make-style" 0 \
		"wrote $WORK/mini/spec/libdemo.cfg and $WORK/mini/spec/libdemo.copyright \\(7 packages\\)" \
		bash -c "mkdir -p '$WORK/mini/spec' && '$PADPACK' split --stage '$S' --name libdemo --version 1.0 --scaffold '$WORK/mini/spec/libdemo.cfg'"
	check_fails "minimal: the scaffolded spec gives the same packages" 0 \
		'^demotool demotool-dbgsym libdemo-dev libdemo1 libdemo1-dbgsym libdemox2 libdemox2-dbgsym $' \
		bash -c "env -u DEBEMAIL '$PADPACK' split -c '$WORK/mini/spec/libdemo.cfg' --stage '$S' -o '$WORK/mini/again' -q &&
			cd '$WORK/mini/again' && ls ./*.deb | sed 's|^\./||; s/_.*//' | LC_ALL=C sort | tr '\n' ' '"
	check_fails "minimal: --scaffold overwrites no spec" 3 "is there already" \
		"$PADPACK" split --stage "$S" --name libdemo --version 1.0 --scaffold "$WORK/mini/spec/libdemo.cfg"
	printf 'name = "libdemo";\nversion = "1.0";\npackages = { runtime = "one"; };\n' >"$WORK/mini/one.cfg"
	check_fails "minimal: packages.runtime = \"one\": both libraries in one runtime package" 0 \
		'libdemo\.so\.2?.*shared library -> libdemo1 .*libdemox\.so\.2\.0\.0 +shared library -> libdemo1 ' \
		bash -c "'$PADPACK' split -c '$WORK/mini/one.cfg' --stage '$S' --explain 2>&1 | tr '\n' ' '"
	# issue 13: no maintainer anywhere is no error: guessed as dch does
	# (passwd entry, login, mail name), warned, and never one lintian
	# rejects (root, a host such as "vm" or "x.localdomain")
	check_fails "minimal: no maintainer anywhere: guessed as dch does, with a warning saying from what" 0 \
		"no maintainer given; guessed '[^']+ <[^']+@[^']+>', the name from (the passwd entry|the login), the address from the login and .*DEBFULLNAME and DEBEMAIL" \
		env -u DEBEMAIL -u DEBFULLNAME -u EMAIL -u NAME "$PADPACK" split --stage "$S" --name libdemo --version 1.0 -o "$WORK/mini/guess" -q
	check "minimal: ... a Maintainer lintian finds no error in" bash -c "cd '$WORK/mini/guess' &&
		lintian --fail-on error libdemo_1.0-1_amd64.changes >'$WORK/mini/lintian3.log' 2>&1 &&
		! grep -E 'root-in-contact|bogus-mail-host|no-phrase|malformed-contact' '$WORK/mini/lintian3.log' ||
		{ dpkg-deb -f '$WORK/mini/guess/libdemo1_1.0-1_amd64.deb' Maintainer; cat '$WORK/mini/lintian3.log'; exit 1; }"
	ln -s ../../lib/nowhere/libplug.so "$S/$L/libdemo-plugin.so"
	check_fails "minimal: a dangling symbolic link: exit 3, the link and its target" 3 \
		"stage/$L/libdemo-plugin\.so: symbolic link to '\.\./\.\./lib/nowhere/libplug\.so', which is in no package of this run and not on this system" \
		"$PADPACK" split --stage "$S" --name libdemo --version 1.0 -o "$WORK/mini/bad"
	printf 'name = "libdemo";\nversion = "1.0";\npackages = { files = ( { path = "%s"; drop = "a plugin built elsewhere"; } ); };\n' \
		"$L/libdemo-plugin.so" >"$WORK/mini/drop.cfg"
	check_fails "minimal: ... or follows a files rule" 0 'libdemo-plugin\.so +symbolic link -> \(dropped\)' \
		bash -c "'$PADPACK' split -c '$WORK/mini/drop.cfg' --stage '$S' --explain 2>&1 | tr '\n' ' '"
	rm "$S/usr/share/doc/libdemo/COPYING" "$S/$L/libdemo-plugin.so"
	mkdir -p "$WORK/mini/src"
	printf 'Copyright 2024 Jane Upstream\n\nUse it freely.\n' >"$WORK/mini/src/LICENSE"
	check_fails "minimal: no license in the tree: the one of the directory split runs in (the source tree)" 0 \
		'Comment: made by padpack split from LICENSE.*Copyright: Copyright 2024 Jane Upstream' \
		bash -c "cd '$WORK/mini/src' && '$PADPACK' split --stage '$S' --name libdemo --version 1.0 -o '$WORK/mini/cwd' -q &&
			dpkg-deb --fsys-tarfile '$WORK/mini/cwd/libdemo1_1.0-1_amd64.deb' |
			tar -xO ./usr/share/doc/libdemo1/copyright | tr '\n' ' '"
	check_fails "minimal: no license anywhere: a copyright saying so, and a warning what to give" 0 \
		'no license file in the staged tree .*--copyright FILE.*License: not-known' \
		bash -c "cd '$WORK/mini' && { '$PADPACK' split --stage '$S' --name libdemo --version 1.0 -o '$WORK/mini/nolic' -q 2>&1 &&
			dpkg-deb --fsys-tarfile '$WORK/mini/nolic/libdemo1_1.0-1_amd64.deb' |
			tar -xO ./usr/share/doc/libdemo1/copyright; } | tr '\n' ' '"
	check "minimal: ... which lintian finds no error in" bash -c "cd '$WORK/mini/nolic' && lintian --fail-on error \
		libdemo_1.0-1_amd64.changes >'$WORK/mini/lintian2.log' 2>&1 || { cat '$WORK/mini/lintian2.log'; exit 1; }"
}

# Three defaults the projects outside the corpus showed (issue 13,
# doc/split-corpus.md 2026-11-27): libpng's libpng.la -> libpng16.la
# (a link to a dropped libtool archive is dropped too, not an error),
# libidn2's info manual (gzipped, as dh_compress) and gtk-doc book (a
# -doc package, whatever its size).
check_minimal_docs() {
	local S=$WORK/mdoc/stage out=$WORK/mdoc/debs L=usr/lib/x86_64-linux-gnu
	local -x DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org
	minimal_stage_or_fail "$S" "minimal docs" || return
	printf "# libdemo.la - a libtool library file\n# Generated by libtool (GNU libtool) 2.4.7\n" >"$S/$L/libdemo.la"
	ln -s libdemo.la "$S/$L/libdemo1.la"
	printf 'This is demo.info, produced by makeinfo.\n' >"$S/usr/share/info/demo.info"
	mkdir -p "$S/usr/share/gtk-doc/html/demo"
	printf '<html><body>demo</body></html>\n' >"$S/usr/share/gtk-doc/html/demo/index.html"
	# libnl3's plugins (second round): libtool's -module stages
	# NAME.so (SONAME NAME.so) and its static twin NAME.a
	mkdir -p "$S/$L/demo" && printf 'int plug(void) { return 1; }\n' >"$WORK/mdoc/plug.c" &&
	cc -shared -fPIC -Wl,-soname,plug.so -o "$S/$L/demo/plug.so" "$WORK/mdoc/plug.c" &&
	cc -c -o "$WORK/mdoc/plug.o" "$WORK/mdoc/plug.c" && ar rc "$S/$L/demo/plug.a" "$WORK/mdoc/plug.o"
	# giflib's giflib.1 (an overview of the programs) and gifecho.1 (a
	# program not installed): section-1 pages of no staged program
	printf '.TH DEMOLIB 1\n.SH NAME\ndemolib \\- the demo programs\n' >"$S/usr/share/man/man1/demolib.1"
	mkdir -p "$S/usr/share/man/man5" && printf '.TH DEMO.CONF 5\n' >"$S/usr/share/man/man5/demo.conf.5"
	# openjpeg2's CMake package files in TRIPLET/openjpeg-2.5/ (no cmake/)
	mkdir -p "$S/$L/demo-1.0" && echo 'set(DEMO_FOUND 1)' >"$S/$L/demo-1.0/DemoConfig.cmake"
	# giflib's rules link libgif.pc to libgif7.pc by its absolute path
	ln -s "/$L/pkgconfig/demo.pc" "$S/$L/pkgconfig/demo-abs.pc"
	# faketime's make install gzips its manual page itself (gzip -nf)
	printf '.TH DEMOTOOL 1\n.SH NAME\ndemotool \\- a demo\n' | gzip -n -1 >"$S/usr/share/man/man1/demotool-gz.1.gz"
	check_fails "minimal docs: a link named *.la to a libtool archive is dropped with it" 0 \
		'libdemo1\.la +libtool archive -> \(dropped\)' \
		bash -c "'$PADPACK' split --stage '$S' --name libdemo --version 1.0 --explain 2>&1 | tr '\n' ' '"
	check_fails "minimal docs: a plugin's static twin (demo/plug.a beside plug.so) is dropped, the plugin kept" 0 \
		'demo/plug\.a +static library -> \(dropped\) +rule: default: static archive beside a loadable module .*/demo/plug\.so +shared library -> demotool ' \
		bash -c "'$PADPACK' split --stage '$S' --name libdemo --version 1.0 --explain 2>&1 | tr '\n' ' '"
	check_fails "minimal docs: a section-1 page of no staged program goes with the programs (giflib-tools' giflib.1), a section-5 one to -dev" 0 \
		'usr/share/man/man1/demolib\.1 +manual page -> demotool +rule: default: manual page of section 1 \(commands\) of no program staged .*usr/share/man/man5/demo\.conf\.5 +manual page -> libdemo-dev ' \
		bash -c "'$PADPACK' split --stage '$S' --name libdemo --version 1.0 --explain 2>&1 | tr '\n' ' '"
	check_fails "minimal docs: CMake files in TRIPLET/NAME-VERSION/ (openjpeg2's): the -dev package" 0 \
		"$L/demo-1\\.0/DemoConfig\\.cmake +CMake file -> libdemo-dev " \
		bash -c "'$PADPACK' split --stage '$S' --name libdemo --version 1.0 --explain 2>&1 | tr '\n' ' '"
	check_fails "minimal docs: a source named *lib (giflib) names its programs as a lib* source does: not demolib" 0 \
		'usr/bin/demotool +ELF program -> demotool +rule: default: ELF program -> the one program of a \*lib source' \
		bash -c "'$PADPACK' split --stage '$S' --name demolib --version 1.0 --explain 2>&1 | tr '\n' ' '"
	check "minimal docs: split" "$PADPACK" split --stage "$S" --name libdemo --version 1.0 -o "$out" -q
	check_fails "minimal docs: an absolute link within usr/ is shipped relative, as dh_link writes it (policy 10.5)" 0 \
		"^lrwxrwxrwx .* \\./$L/pkgconfig/demo-abs\\.pc -> demo\\.pc\$" \
		bash -c "dpkg-deb -c '$out'/libdemo-dev_1.0-1_amd64.deb | grep demo-abs"
	check_fails "minimal docs: a manual page the build gzipped (gzip -1) is gzipped again at -9, the text kept" 0 \
		'^[^ ]*: gzip compressed data, max compression, from Unix \.TH DEMOTOOL 1 $' \
		bash -c "cd '$WORK/mdoc' && rm -rf gz && mkdir gz && for d in '$out'/*.deb; do dpkg-deb -x \"\$d\" gz; done &&
			file gz/usr/share/man/man1/demotool-gz.1.gz | sed 's/, original size.*//' | tr '\n' ' ' &&
			zcat gz/usr/share/man/man1/demotool-gz.1.gz | head -n 1 | tr '\n' ' '"
	check_fails "minimal docs: a gtk-doc book of 31 bytes: a -doc package with the documents, the info manual gzipped" 0 \
		'^usr/share/doc/libdemo/README usr/share/gtk-doc/html/demo/index\.html usr/share/info/demo\.info\.gz $' \
		bash -c "dpkg-deb -c '$out'/libdemo-doc_1.0-1_all.deb | sed 's|.* \./||' | grep -E '(README|html|info)\$|\.gz\$' |
			grep -v changelog | LC_ALL=C sort | tr '\n' ' '"
	# packages.doc = "none": the manual stays in -dev, as Debian's
	# libvorbis-dev and libxslt1-dev keep theirs; one spec line.
	check "minimal docs: --scaffold writes packages.doc" bash -c "'$PADPACK' split --stage '$S' --name libdemo \
		--version 1.0 --scaffold '$WORK/mdoc/demo.cfg' -q && grep -q '^	doc = \"auto\";' '$WORK/mdoc/demo.cfg' &&
		sed -i 's/^	doc = \"auto\";/	doc = \"none\";/' '$WORK/mdoc/demo.cfg'"
	check_fails "minimal docs: packages.doc = \"none\": --explain says so" 0 \
		'index\.html documentation -> libdemo-dev rule: packages\.doc = "none": documentation, [0-9]+ KiB in all -> the dev package' \
		bash -c "cd '$WORK/mdoc' && '$PADPACK' split -c demo.cfg --stage '$S' --explain 2>&1 | tr '\n' ' ' | tr -s ' '"
	check_fails "minimal docs: packages.doc = \"none\": no -doc package, the book in -dev" 0 \
		'^no-doc usr/share/gtk-doc/html/demo/index\.html $' \
		bash -c "cd '$WORK/mdoc' && '$PADPACK' split -c demo.cfg --stage '$S' -o '$WORK/mdoc/none' -q &&
			{ ls '$WORK/mdoc/none' | grep -q -- -doc_ || echo no-doc; dpkg-deb -c '$WORK/mdoc/none'/libdemo-dev_1.0-1_amd64.deb |
			sed 's|.* \./||' | grep 'html\$'; } | tr '\n' ' '"
	check_fails "minimal docs: packages.doc = \"many\" is refused, naming the values" 3 \
		'doc.*"auto".*"package".*"none"' \
		bash -c "cd '$WORK/mdoc' && sed 's/^	doc = \"none\";/	doc = \"many\";/' demo.cfg >bad.cfg &&
			'$PADPACK' split -c bad.cfg --stage '$S' --explain"
}

# The fifth round (doc/split-corpus.md, 2026-11-28): bzip2's make
# install stages bzip2, bunzip2 and bzcat as hard links of one file,
# which Debian's bzip2 ships as one file and two hard links (padpack
# shipped three copies); keyutils' program key.dns_resolver has the
# pages key.dns_resolver.8 and key.dns_resolver.conf.5, whose names were
# read up to their first dot ("key": no program's); acl's acl.5 and
# keyutils' keyutils.7, pages of no program, went to the -dev, where
# Debian keeps them with the programs (of a source not named lib*); keyutils' keyctl_pkey_decrypt.3,
# one line ".so keyctl_pkey_encrypt.3", shipped as a file (lintian's
# error bad-so-link-within-manual-page), where dh_installman makes a link.
check_fifth_round() {
	local S=$WORK/r5/stage out=$WORK/r5/debs
	local -x DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org
	minimal_stage_or_fail "$S" "fifth round" || return
	ln "$S/usr/bin/demotool" "$S/usr/bin/demotool-again" &&
	printf '.so man1/demotool.1\n' >"$S/usr/share/man/man1/demotool-again.1" &&
	mkdir -p "$S/usr/sbin" "$S/usr/share/man/man5" "$S/usr/share/man/man7" "$S/usr/share/man/man8" &&
	printf '#!/bin/sh\necho resolved\n' >"$S/usr/sbin/demo.resolver" &&
	chmod 755 "$S/usr/sbin/demo.resolver" &&
	printf '.TH DEMO.RESOLVER 8\n.SH NAME\ndemo.resolver \\- resolves\n' >"$S/usr/share/man/man8/demo.resolver.8" &&
	printf '.TH DEMO.RESOLVER.CONF 5\n.SH NAME\ndemo.resolver.conf \\- its file\n' >"$S/usr/share/man/man5/demo.resolver.conf.5" &&
	printf '.TH DEMO 7\n.SH NAME\ndemo \\- an overview\n' >"$S/usr/share/man/man7/demo.7" &&
	printf '.so demo.3\n' >"$S/usr/share/man/man3/demo_alias.3" &&
	printf 'name = "libdemo";\nversion = "1.0";\npackages = { files = ( { path = "usr/sbin/demo.resolver"; package = "demo-resolver"; } ); };\n' \
		>"$WORK/r5/spec.cfg"
	check_fails "fifth round: a program's name with a dot: its pages, .8 and .conf.5, go with it (keyutils' key.dns_resolver)" 0 \
		'usr/share/man/man5/demo\.resolver\.conf\.5 +manual page -> demo-resolver +rule: default: manual page -> the package of its program \(usr/sbin/demo\.resolver\).*usr/share/man/man8/demo\.resolver\.8 +manual page -> demo-resolver ' \
		bash -c "'$PADPACK' split -c '$WORK/r5/spec.cfg' --stage '$S' --explain 2>&1 | tr '\n' ' '"
	printf 'name = "demo";\nversion = "1.0";\n' >"$WORK/r5/demo.cfg"
	check_fails "fifth round: a section-7 page of no program goes with the programs of a source not named lib* (keyutils' keyutils.7)" 0 \
		'usr/share/man/man7/demo\.7 +manual page -> demo +rule: default: manual page of section 7 \(file formats, overviews\) of no program, in a source not named lib\* with programs' \
		bash -c "'$PADPACK' split -c '$WORK/r5/demo.cfg' --stage '$S' --explain 2>&1 | tr '\n' ' '"
	check_fails "fifth round: ... and to -dev in a source named lib* (libarchive-dev's tar.5)" 0 \
		'usr/share/man/man7/demo\.7 +manual page -> libdemo-dev ' \
		bash -c "'$PADPACK' split -c '$WORK/r5/spec.cfg' --stage '$S' --explain 2>&1 | tr '\n' ' '"
	check "fifth round: split" "$PADPACK" split -c "$WORK/r5/spec.cfg" --stage "$S" -o "$out" -q
	check_fails "fifth round: a hard link of the stage is a hard link in the package, the file stripped once (bzip2's bzcat)" 0 \
		'^hrwxr-xr-x root/root 0 [-0-9]+ [:0-9]+ \./usr/bin/demotool-again link to \./usr/bin/demotool $' \
		bash -c "dpkg-deb -c '$out'/libdemo-tools_1.0-1_amd64.deb | grep 'demotool-again ' | tr -s ' ' | tr '\n' ' '"
	check_fails "fifth round: ... installed as one file, with one debug file" 0 \
		'^same 1 $' \
		bash -c "cd '$WORK/r5' && rm -rf x && mkdir x && dpkg-deb -x '$out'/libdemo-tools_1.0-1_amd64.deb x &&
			[ x/usr/bin/demotool -ef x/usr/bin/demotool-again ] && echo -n 'same ' &&
			dpkg-deb -c '$out'/libdemo-tools-dbgsym_1.0-1_amd64.deb | grep -c '\.debug\$' | tr '\n' ' '"
	check_fails "fifth round: a page that is one .so request is a link to the page it names, as dh_installman makes it (keyutils' keyctl_pkey_decrypt.3)" 0 \
		'^lrwxrwxrwx root/root 0 [-0-9]+ [:0-9]+ \./usr/share/man/man3/demo_alias\.3\.gz -> demo\.3\.gz $' \
		bash -c "dpkg-deb -c '$out'/libdemo-dev_1.0-1_amd64.deb | grep 'demo_alias' | tr -s ' ' | tr '\n' ' '"
	check "fifth round: lintian, no error (bad-so-link-within-manual-page)" bash -c "cd '$out' && lintian --fail-on error \
		libdemo_1.0-1_amd64.changes >'$WORK/r5/lintian.log' 2>&1 || { cat '$WORK/r5/lintian.log'; exit 1; }"
}

# The sixth round (doc/split-corpus.md, 2026-11-28): libbsd's libbsd.so
# is a GNU ld script, "GROUP(/usr/lib/TRIPLET/libbsd.so.0.11.7
# AS_NEEDED(-lmd))", which padpack shipped in the runtime package as
# data; only ld reads it, for -lbsd, and Debian's libbsd-dev ships it and
# depends on libmd-dev, which ld needs for -lmd (as libc6-dev ships
# libc.so, libncurses-dev libncurses.so: "INPUT(libncurses.so.6 -ltinfo)").
check_sixth_round() {
	local S=$WORK/r6/stage out=$WORK/r6/debs L=usr/lib/x86_64-linux-gnu
	local -x DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org
	minimal_stage_or_fail "$S" "sixth round" || return
	rm "$S/$L/libdemo.so" &&
	printf '/* GNU ld script */\nOUTPUT_FORMAT(elf64-x86-64)\nGROUP(/%s/libdemo.so.1.0.0 AS_NEEDED(-lz))\n' \
		"$L" >"$S/$L/libdemo.so"
	"$PADPACK" split --stage "$S" --name libdemo --version 1.0 --explain >"$WORK/r6/explain" 2>&1
	check_fails "sixth round: a libNAME.so that is a GNU ld script goes to -dev, for the library it names (libbsd-dev's libbsd.so)" 0 \
		"$L/libdemo\\.so +GNU ld script -> libdemo-dev +rule: default: GNU ld script for linking with libdemo\\.so\\.1: " \
		tr '\n' ' ' <"$WORK/r6/explain"
	check_fails "sixth round: ... and --explain says why -dev depends on what it names (libbsd-dev -> libmd-dev)" 0 \
		"libdemo-dev -> zlib1g-dev: $L/libdemo\\.so names -lz \\(ld fails without it\\), shipped by zlib1g-dev" \
		tr '\n' ' ' <"$WORK/r6/explain"
	check "sixth round: split" "$PADPACK" split --stage "$S" --name libdemo --version 1.0 -o "$out" -q
	check_fails "sixth round: the script is a file of libdemo-dev, which depends on zlib1g-dev for -lz" 0 \
		"^-rw-r--r-- [0-9]+ \\./$L/libdemo\\.so Depends: libdemo1 \\(= 1\\.0-1\\), libdemox2 \\(= 1\\.0-1\\), zlib1g-dev \$" \
		bash -c "dpkg-deb -c '$out'/libdemo-dev_1.0-1_amd64.deb | grep ' \\./$L/libdemo\\.so\$' | awk '{ print \$1, \$3, \$6 }' | tr '\n' ' ' &&
			echo \"Depends: \$(dpkg-deb -f '$out'/libdemo-dev_1.0-1_amd64.deb Depends) \""
	check "sixth round: ... which no runtime package ships" bash -c "
		! dpkg-deb -c '$out'/libdemo1_1.0-1_amd64.deb | grep -q ' \\./$L/libdemo\\.so\$' &&
		! dpkg-deb -c '$out'/demotool_1.0-1_amd64.deb | grep -q 'libdemo\\.so\$'"
	check "sixth round: lintian, no error" bash -c "cd '$out' && lintian --fail-on error \
		libdemo_1.0-1_amd64.changes >'$WORK/r6/lintian.log' 2>&1 || { cat '$WORK/r6/lintian.log'; exit 1; }"
	if ! debian_root_prepare; then
		not_ok "sixth round: a clean Debian 12 root (mmdebstrap)" "see above"
		return
	fi
	(cd "$out" && dpkg-scanpackages -m . /dev/null 2>/dev/null >Packages) || {
		not_ok "sixth round: a Packages file of the packages (dpkg-scanpackages)"; return; }
	printf 'int demo(const char *);\nint main(void) { return demo("four") == 4 ? 0 : 1; }\n' >"$out/use-demo.c"
	check_fails "sixth round: apt installs libdemo-dev (and zlib1g-dev from Debian); cc -ldemo links through the script and the program runs" 0 \
		'^installed: libdemo-dev libdemo1 libdemox2 zlib1g-dev \| linked: libdemo\.so\.1 \| ran: 0$' \
		debian_root_run "$out" "echo 'deb [trusted=yes] file:/debs ./' >/etc/apt/sources.list.d/local.list &&
			apt-get -q -o Dir::Etc::SourceList=/etc/apt/sources.list.d/local.list -o Dir::Etc::SourceParts=- \\
				-o APT::Get::List-Cleanup=0 update >/tmp/apt.log 2>&1 &&
			apt-get install -y -q --no-install-recommends libdemo-dev >>/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
			printf 'installed: %s | ' \"\$(dpkg-query -W -f '\${db:Status-Abbrev} \${Package}\n' libdemo-dev 'libdemo*' zlib1g-dev |
				awk '\$1 == \"ii\" { print \$2 }' | LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ \$//')\"
			gcc -o /tmp/use-demo /debs/use-demo.c -ldemo >/tmp/cc.log 2>&1 || { cat /tmp/cc.log; exit 1; }
			printf 'linked: %s | ' \"\$(readelf -d /tmp/use-demo | sed -n 's/.*Shared library: \\[\\(libdemo[^]]*\\)\\]/\\1/p')\"
			rc=0; /tmp/use-demo || rc=\$?; echo ran: \$rc"
}

# The seventh round (lzo2): C sources and headers a library source
# without programs installs under usr/share, to be built into one's own
# program (liblzo2-dev's /usr/share/lzo/minilzo: minilzo.c, its headers,
# README.LZO), go to -dev with what is beside them; other data stays with
# the library, and with programs in the source they stay data (the
# programs' input, as lemon's lempar.c).
check_seventh_round() {
	local S=$WORK/r7/stage P=$WORK/r7/stage-programs out=$WORK/r7/debs
	local L=usr/lib/x86_64-linux-gnu E=usr/share/libdemo/embed
	local -x DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org
	minimal_stage_or_fail "$P" "seventh round" || return
	mkdir -p "$P/$E" &&
	printf 'int demo_embed(void) { return 1; }\n' >"$P/$E/demo-embed.c" &&
	echo 'int demo_embed(void);' >"$P/$E/demo-embed.h" &&
	echo 'Copy demo-embed.c into your program.' >"$P/$E/README.embed" &&
	echo 'data' >"$P/usr/share/libdemo/other.dat" &&
	cp -a "$P" "$S" &&
	rm "$S/usr/bin/demotool" "$S/usr/share/man/man1/demotool.1"
	check_fails "seventh round: a C source under usr/share of a library source without programs goes to -dev (liblzo2-dev's minilzo.c)" 0 \
		"$E/demo-embed\\.c +data -> libdemo-dev +rule: default: C or C\\+\\+ source or header under usr/share, in a library source without programs: source to build into one's own program -> the -dev package" \
		bash -c "'$PADPACK' split --stage '$S' --name libdemo --version 1.0 --explain 2>&1 | tr '\n' ' '"
	check_fails "seventh round: ... and a file beside it too (README.LZO)" 0 \
		"$E/README\\.embed +data -> libdemo-dev +rule: default: a file beside C or C\\+\\+ sources or headers" \
		bash -c "'$PADPACK' split --stage '$S' --name libdemo --version 1.0 --explain 2>&1 | tr '\n' ' '"
	check "seventh round: split" "$PADPACK" split --stage "$S" --name libdemo --version 1.0 -o "$out" -q
	check_fails "seventh round: the three are files of libdemo-dev, other data stays in libdemo1" 0 \
		"^\\./$E/README\\.embed \\./$E/demo-embed\\.c \\./$E/demo-embed\\.h \\| \\./usr/share/libdemo/other\\.dat \$" \
		bash -c "dpkg-deb -c '$out'/libdemo-dev_1.0-1_amd64.deb | awk '{ print \$6 }' | grep '^\\./usr/share/libdemo/.*[^/]$' | sort | tr '\n' ' ' &&
			echo -n '| ' && dpkg-deb -c '$out'/libdemo1_1.0-1_amd64.deb | awk '{ print \$6 }' | grep '^\\./usr/share/libdemo/.*[^/]$' | tr '\n' ' '"
	check "seventh round: lintian, no error" bash -c "cd '$out' && lintian --fail-on error \
		libdemo_1.0-1_amd64.changes >'$WORK/r7/lintian.log' 2>&1 || { cat '$WORK/r7/lintian.log'; exit 1; }"
	check_fails "seventh round: with programs in the source they stay data (lemon's lempar.c, the programs' input)" 0 \
		"$E/demo-embed\\.c +data -> libdemo1 +rule: default: architecture-independent data" \
		bash -c "'$PADPACK' split --stage '$P' --name libdemo --version 1.0 --explain 2>&1 | tr '\n' ' '"
}

# pcre3's shape (eighth round): a C library and a C++ one that needs
# it, whose .pc lists both ("-lpcre -lpcrecpp"): the C++ library gets its
# own -dev (libpcrecpp-dev) and its .pc goes there too, with its .so
# link, not with the first -l's library (padpack put libpcrecpp.pc in
# libpcre3-dev): a .pc is in the package of the .so its name names 715
# times in the Debian 12 sources with two -dev packages or more, 9 not.
check_eighth_round() {
	local W=$WORK/r8 S=$WORK/r8/stage out=$WORK/r8/debs L=usr/lib/x86_64-linux-gnu
	local -x DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org
	mkdir -p "$S/$L/pkgconfig" "$S/usr/include" "$out" &&
	printf 'int pat_match(const char *, const char *);\n' >"$S/usr/include/pat.h" &&
	printf '#include <string>\nnamespace pat {\nclass RE {\npublic:\n  bool match(const std::string &) const;\n};\n}\n' \
		>"$S/usr/include/patcpp.h" &&
	printf '#include <string.h>\nint pat_match(const char *p, const char *s) { return strstr(s, p) != 0; }\n' >"$W/c.c" &&
	printf '#include <string>\nextern "C" int pat_match(const char *, const char *);\nnamespace pat { class RE { public: bool match(const std::string &) const; };\n' >"$W/x.cc" &&
	printf '#include <cstdlib>\nbool RE::match(const std::string &s) const { return pat_match(std::getenv("PAT"), s.c_str()) != 0; } }\n' >>"$W/x.cc" &&
	cc -shared -fPIC -Wl,-soname,libpat.so.3 -o "$S/$L/libpat.so.3.1.0" "$W/c.c" &&
	ln -s libpat.so.3.1.0 "$S/$L/libpat.so.3" && ln -s libpat.so.3 "$S/$L/libpat.so" &&
	c++ -shared -fPIC -Wl,-soname,libpatcpp.so.0 -o "$S/$L/libpatcpp.so.0.0.1" "$W/x.cc" -L"$S/$L" -lpat &&
	ln -s libpatcpp.so.0.0.1 "$S/$L/libpatcpp.so.0" && ln -s libpatcpp.so.0 "$S/$L/libpatcpp.so" &&
	printf 'libdir=/%s\nName: libpat\nDescription: pat\nVersion: 1.0\nLibs: -L${libdir} -lpat\n' "$L" >"$S/$L/pkgconfig/libpat.pc" &&
	printf 'libdir=/%s\nName: libpatcpp\nDescription: C++ pat\nVersion: 1.0\nLibs: -L${libdir} -lpat -lpatcpp\n' "$L" >"$S/$L/pkgconfig/libpatcpp.pc" || {
		not_ok "eighth round: a staged tree built with cc and c++"
		return
	}
	"$PADPACK" split --stage "$S" --name libpat --version 1.0 --explain >"$W/explain" 2>&1
	check_fails "eighth round: a .pc whose Libs lists two libraries goes with the one its name names (libpcrecpp.pc: -lpcre -lpcrecpp)" 0 \
		"$L/pkgconfig/libpatcpp\\.pc +pkg-config file -> libpatcpp-dev +rule: default: pkg-config file -> one -dev package per source, but a C\\+\\+ library beside C ones gets its own \\(its \\.so link, \\.a, the -l of a \\.pc that its name names, else its first, " \
		bash -c "tr '\n' ' ' <'$W/explain' | tr -s ' '"
	check_fails "eighth round: ... and the C library's .pc stays with it" 0 \
		"$L/pkgconfig/libpat\\.pc +pkg-config file -> libpat-dev " \
		bash -c "tr '\n' ' ' <'$W/explain' | tr -s ' '"
	check "eighth round: split" "$PADPACK" split --stage "$S" --name libpat --version 1.0 -o "$out" -q
	check_fails "eighth round: libpatcpp-dev ships libpatcpp.pc beside libpatcpp.so, libpat-dev neither" 0 \
		"^libpat-dev: \\./$L/libpat\\.so \\./$L/pkgconfig/libpat\\.pc \\| libpatcpp-dev: \\./$L/libpatcpp\\.so \\./$L/pkgconfig/libpatcpp\\.pc \$" \
		bash -c "cd '$out' && for p in libpat-dev libpatcpp-dev; do
			printf '%s: %s' \$p \"\$(dpkg-deb -c \${p}_1.0-1_amd64.deb | awk '{ print \$6 }' | grep -E '\\.(pc|so)\$' | LC_ALL=C sort | tr '\n' ' ')\"
			[ \$p = libpat-dev ] && printf '| '; done; true"
	check "eighth round: lintian, no error" bash -c "cd '$out' && lintian --fail-on error \
		libpat_1.0-1_amd64.changes >'$W/lintian.log' 2>&1 || { cat '$W/lintian.log'; exit 1; }"
	rm -rf "$W"
}

# A library's data (the library data rule): libtiny.so.1 reads
# /usr/share/tiny/x.conf, which the data rule alone would put with the
# program (package "tiny"); it goes to libtiny1-data (arch all), which
# libtiny1 depends on. Installed alone with apt in a clean Debian 12
# root, the library finds its file (alsa-lib's libasound2-data).
check_library_data() {
	local S=$WORK/ldata/stage out=$WORK/ldata/debs L=usr/lib/x86_64-linux-gnu c=$WORK/ldata
	local -x DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org
	mkdir -p "$S/$L" "$S/usr/bin" "$S/usr/include" "$S/usr/share/tiny/extra" "$out"
	cat >"$c/t.c" <<-'C'
	#include <stdio.h>
	#include <string.h>
	static char line[80];
	const char *tiny_setting(void)
	{
		FILE *f = fopen("/usr/share/tiny/x.conf", "r");
		FILE *e = fopen("/etc/tiny/site.conf", "r");
		if (e)
			fclose(e);
		if (!f || !fgets(line, sizeof(line), f))
			strcpy(line, "no configuration\n");
		if (f)
			fclose(f);
		return line;
	}
	C
	printf '#include <stdio.h>\nconst char *tiny_setting(void);\nint main(void) { fputs(tiny_setting(), stdout); return 0; }\n' >"$c/m.c"
	if ! { cc -O2 -fPIC -shared -Wl,-soname,libtiny.so.1 -o "$S/$L/libtiny.so.1.0.0" "$c/t.c" &&
		ln -s libtiny.so.1.0.0 "$S/$L/libtiny.so.1" && ln -s libtiny.so.1 "$S/$L/libtiny.so" &&
		cc -O2 -o "$S/usr/bin/tinytool" "$c/m.c" -L"$S/$L" -ltiny &&
		cc -O2 -o "$out/use-tiny" "$c/m.c" "$S/$L/libtiny.so.1"; }; then
		not_ok "library data: a staged tree built with cc"
		return
	fi
	echo 'const char *tiny_setting(void);' >"$S/usr/include/tiny.h"
	echo 'setting from x.conf' >"$S/usr/share/tiny/x.conf"
	echo 'more' >"$S/usr/share/tiny/extra/y.conf"
	mkdir -p "$S/etc/tiny" && echo 'site' >"$S/etc/tiny/site.conf"
	check_fails "library data: --explain names the rule, the library and the string" 0 \
		'usr/share/tiny/x\.conf data -> libtiny1-data rule: default: library data: the library libtiny\.so\.1 names "/usr/share/tiny/x\.conf" .*libtiny1 -> libtiny1-data \(>= 1\.0-1\): its library libtiny\.so\.1 reads "/usr/share/tiny/x\.conf"' \
		bash -c "'$PADPACK' split --stage '$S' --name tiny --version 1.0 --explain 2>&1 | tr '\n' ' ' | tr -s ' '"
	check "library data: split" "$PADPACK" split --stage "$S" --name tiny --version 1.0 -o "$out" -q
	check_fails "library data: configuration it names (/etc/tiny/site.conf) goes with the library, a conffile" 0 \
		'^etc/tiny/site\.conf \| /etc/tiny/site\.conf$' \
		bash -c "cd '$out' && printf '%s | ' \"\$(dpkg-deb -c libtiny1_1.0-1_amd64.deb | grep -o 'etc/tiny/.*')\" &&
			dpkg-deb -I libtiny1_1.0-1_amd64.deb conffiles"
	check_fails "library data: libtiny1 depends on libtiny1-data (arch all), which holds x.conf; y.conf, which it does not name, stays with the program" 0 \
		'^libc6 \(>= [0-9.]+\), libtiny1-data \(>= 1\.0-1\) \| all foreign \| usr/share/tiny/x\.conf \| tiny: usr/share/tiny/extra/y\.conf$' \
		bash -c "cd '$out' && printf '%s | ' \"\$(dpkg-deb -f libtiny1_1.0-1_amd64.deb Depends)\" \
			\"\$(dpkg-deb -f libtiny1-data_1.0-1_all.deb Architecture Multi-Arch | sed 's/^[^:]*: //' | tr '\n' ' ' | sed 's/ \$//')\" \
			\"\$(dpkg-deb -c libtiny1-data_1.0-1_all.deb | sed 's|.* \./||' | grep '^usr/share/tiny/.*conf\$' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ \$//')\" &&
			printf 'tiny: %s\n' \"\$(dpkg-deb -c tiny_1.0-1_amd64.deb | grep -o 'usr/share/tiny/[^ ]*conf')\""
	if ! debian_root_prepare; then
		not_ok "library data: a clean Debian 12 root (mmdebstrap)" "see above"
		return
	fi
	(cd "$out" && dpkg-scanpackages -m . /dev/null 2>/dev/null >Packages) || {
		not_ok "library data: a Packages file of the packages (dpkg-scanpackages)"; return; }
	check_fails "library data: apt installs libtiny1 alone (and what it depends on, libtiny1-data), not the program; its configuration is there and a program using it reads x.conf" 0 \
		'^installed: libtiny1 libtiny1-data \| no tiny \| site setting from x\.conf $' \
		debian_root_run "$out" "echo 'deb [trusted=yes] file:/debs ./' >/etc/apt/sources.list.d/local.list &&
			apt-get -q -o Dir::Etc::SourceList=/etc/apt/sources.list.d/local.list -o Dir::Etc::SourceParts=- \\
				-o APT::Get::List-Cleanup=0 update >/tmp/apt.log 2>&1 &&
			apt-get install -y -q --no-install-recommends libtiny1 >>/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
			printf 'installed: %s | ' \"\$(dpkg-query -W -f '\${Package} ' 'libtiny*' | sed 's/ \$//')\"
			dpkg -s tiny >/dev/null 2>&1 && printf 'tiny | ' || printf 'no tiny | '
			cat /etc/tiny/site.conf | tr '\n' ' '
			/debs/use-tiny | tr '\n' ' '"
}

# dh_compress in usr/share/doc: what is over 4 KiB and every changelog
# gzipped, a link to such a file renamed with it; web pages, examples
# and small files as they are (expat's upstream changelog was shipped
# uncompressed).
check_doc_compress() {
	local S=$WORK/dgz/stage out=$WORK/dgz/debs D=usr/share/doc/libdemo
	mkdir -p "$WORK/dgz" && cp -a "$WORK/mdoc/stage" "$S" || return
	rm -rf "$S/usr/share/gtk-doc" "$S/usr/share/info"
	mkdir -p "$S/$D/examples"
	printf '1.0: first release.\n' >"$S/$D/changelog"
	head -c 5000 /dev/zero | tr '\0' 'n' | fold -w 70 >"$S/$D/NOTES.txt"
	ln -s NOTES.txt "$S/$D/NOTES"
	cp "$S/$D/NOTES.txt" "$S/$D/index.html"
	cp "$S/$D/NOTES.txt" "$S/$D/examples/demo.c"
	head -c 4096 /dev/zero | tr '\0' 's' >"$S/$D/SMALL"
	check "doc compression: split" env DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org "$PADPACK" split --stage "$S" --name libdemo --version 1.0 -o "$out" -q
	check_fails "doc compression: changelog and the 5,000-byte NOTES.txt gzipped, the link to it renamed; index.html, examples and a 4,096-byte file as they are" 0 \
		"^\./$D/NOTES\.gz -> NOTES\.txt\.gz \./$D/NOTES\.txt\.gz \./$D/SMALL \./$D/changelog\.gz \./$D/examples/demo\.c \./$D/index\.html \$" \
		bash -c "for d in '$out'/*.deb; do dpkg-deb -c \"\$d\"; done | awk '{ print \$6, \$7, \$8 }' |
			grep '^\./$D/[^ ]*[^/ ] ' | grep -v 'copyright\|changelog.Debian\|README' | LC_ALL=C sort | tr '\n' ' ' | tr -s ' '"
	check "doc compression: lintian finds no error in the packages" bash -c "cd '$out' &&
		lintian --display-level '>=error' *.changes 2>&1 | grep -v '^running with root' | (! grep '^E:')"
}

# Static archives are stripped in /dev/shm/padpack-strip.PID.XXXXXX; a
# padpack killed meanwhile leaves its directory, which the next split
# removes when its process is gone, it is this user's and no one holds
# its lock (a PID of another PID namespace looks gone).
check_strip_scratch() {
	local S=$WORK/mini/stage dead live other held
	local -x DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org
	if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" != tmpfs ]; then
		ok "strip scratch: skipped, /dev/shm is no tmpfs here"
		return
	fi
	dead=$(bash -c 'echo $$')
	live=/dev/shm/padpack-strip.$$.live01 other=/dev/shm/padpack-strip.$dead.other
	held=/dev/shm/padpack-strip.$dead.held01
	# made whole elsewhere, then renamed into place: another suite's split
	# may clean the directories up at any moment
	local t=/dev/shm/padpack-test.$$
	mkdir -p "$t/dead" "$t/live" "$t/other" "$t/held" &&
		touch "$t/dead/libdemo.a" "$t/live/libdemo.a" && chown nobody "$t/other" &&
		mv "$t/dead" "/dev/shm/padpack-strip.$dead.dead01" && mv "$t/live" "$live" &&
		mv "$t/other" "$other" ||
		not_ok "strip scratch: the directories of a killed run, a live one, another user's"
	# the locked one is renamed into place under its lock
	check "strip scratch: a split that strips an archive, a killed run's directory left" \
		flock "$t/held" bash -c "mv '$t/held' '$held' && echo \$\$ >'$WORK/mini/scratch.pid' &&
			exec '$PADPACK' split --stage '$S' --name libdemo --version 1.0 -o '$WORK/mini/scratch' -q"
	rmdir "$t"
	check "strip scratch: the directory of a PID gone removed; a live PID's, another user's and a locked one's kept; none of the run's left" bash -c "
		! ls -d /dev/shm/padpack-strip.$dead.dead01 2>/dev/null && test -f '$live/libdemo.a' &&
		test -d '$other' && test -d '$held' &&
		! ls -d /dev/shm/padpack-strip.\$(cat '$WORK/mini/scratch.pid').* 2>/dev/null"
	check "strip scratch: the archive stripped there (no debug sections)" bash -c "
		dpkg-deb -x '$WORK/mini/scratch/libdemo-dev_1.0-1_amd64.deb' '$WORK/mini/scratch/x' &&
		! objdump -h '$WORK/mini/scratch/x/usr/lib/x86_64-linux-gnu/libdemo.a' | grep -q debug_info"
	rm -rf "$live" "$other" "$held" "/dev/shm/padpack-strip.$dead.dead01"
}

# A padpack killed (SIGKILL: no handler runs) while it strips takes its
# children with it (PR_SET_PDEATHSIG): a strip that sleeps (a fake one
# first in PATH, which execs sleep, one process as strip is) is gone
# within a second, not left to run on orphaned.
check_killed_strip() {
	local S=$WORK/mini/stage W=$WORK/killed pid p gone=
	local -x DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org
	mkdir -p "$W/bin"
	printf '#!/bin/sh\necho $$ >>"%s"\nexec sleep 60\n' "$W/pids" >"$W/bin/strip"
	chmod 755 "$W/bin/strip"
	PATH=$W/bin:$PATH "$PADPACK" split --stage "$S" --name libdemo --version 1.0 \
		-o "$W/out" -q >"$W/log" 2>&1 &
	pid=$!
	for _ in $(seq 200); do [ -s "$W/pids" ] && break; sleep 0.1; done
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	# gone: no such process, or a zombie its new parent has not reaped
	for _ in $(seq 10); do
		sleep 0.1
		gone=1
		for p in $(cat "$W/pids" 2>/dev/null); do
			[ -e "/proc/$p" ] && [ "$(awk '/^State:/ { print $2 }' "/proc/$p/status" 2>/dev/null)" != Z ] && gone=
		done
		[ -n "$gone" ] && break
	done
	if [ ! -s "$W/pids" ]; then
		not_ok "killed strip: the fake strip never ran" "$(cat "$W/log")"
	elif [ -n "$gone" ]; then
		ok "killed strip: padpack split killed (-9) while $(wc -l <"$W/pids") strip(s) ran: none left within a second"
	else
		not_ok "killed strip: padpack split killed (-9) while strip ran: none left within a second" \
			"still running: $(cat "$W/pids" | tr '\n' ' ')"
	fi
	for p in $(cat "$W/pids" 2>/dev/null); do # (a PID since reused is left alone)
		[ "$(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)" = "sleep 60 " ] && kill -9 "$p"
	done
	rm -rf "$W" /dev/shm/padpack-strip."$pid".*
}

# Large files: a document gzipped (dh_compress) and a python script whose
# "#!" line is rewritten (dh_python3) are read in pieces, so the peak
# RSS of split stays flat as they grow: 8 MiB and 64 MiB of each cost
# about the same memory (reading them whole cost 2 x 56 MiB more).
large_stage() { # DIR MIB: a document and a script of MIB MiB each
	mkdir -p "$1/usr/share/doc/bigdoc" "$1/usr/bin" &&
	yes 'a line of the manual, gzipped as dh_compress does 0123456789' |
		head -c "$2M" >"$1/usr/share/doc/bigdoc/manual.txt" &&
	{ echo '#!/usr/bin/env python'; yes 'print("a line of a large script")' |
		head -c "$2M"; } >"$1/usr/bin/bigscript" &&
	chmod 755 "$1/usr/bin/bigscript"
}
split_peak_kib() { # STAGE OUT: padpack split -Z gzip's peak RSS, in KiB
	/usr/bin/time -f '%M' -o "$2.rss" env DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org \
		"$PADPACK" split --stage "$1" --name bigdoc --version 1.0 -Z gzip -o "$2" -q \
		>"$2.log" 2>&1 && tail -n 1 "$2.rss"
}
check_large_files() {
	local W=$WORK/large small big
	mkdir -p "$W"
	if ! large_stage "$W/s8" 8 || ! large_stage "$W/s64" 64 ||
	   ! small=$(split_peak_kib "$W/s8" "$W/small") ||
	   ! big=$(split_peak_kib "$W/s64" "$W/big"); then
		not_ok "large files: split of a 64 MiB document and script" "$(cat "$W"/*.log)"
		return
	fi
	check "large files: the 64 MiB document gzipped, zcat gives it back" bash -c "
		for d in '$W'/big/*.deb; do dpkg-deb -x \"\$d\" '$W/x' || exit; done && gzip -t '$W/x/usr/share/doc/bigdoc/manual.txt.gz' &&
		zcat '$W/x/usr/share/doc/bigdoc/manual.txt.gz' | cmp - '$W/s64/usr/share/doc/bigdoc/manual.txt'"
	check "large files: the 64 MiB script's '#!' line is python3's, the rest the same" bash -c "
		[ \"\$(head -n 1 '$W/x/usr/bin/bigscript')\" = '#!/usr/bin/python3' ] &&
		cmp <(tail -n +2 '$W/x/usr/bin/bigscript') <(tail -n +2 '$W/s64/usr/bin/bigscript')"
	if [ $((big - small)) -lt 16384 ]; then
		ok "large files: peak RSS flat, $small KiB with 2 x 8 MiB, $big KiB with 2 x 64 MiB"
	else
		not_ok "large files: peak RSS flat" "$small KiB with 2 x 8 MiB, $big KiB with 2 x 64 MiB"
	fi
	rm -rf "$W"
}

# issue 13, held out: a tree and nothing but a name and a version. What
# dh_make and uscan would read is read so (My_Lib -> my-lib, v1.2 ->
# 1.2, with a warning; 1:2.0 an epoch); what cannot be (epoch 0, a version with no
# digit first, a tree with nothing to ship) is an error naming the
# option or the tree and the fix; a link to where the running system
# puts files (/run, /etc/alternatives) is shipped as dh ships it.
check_nothing_but_name() {
	local W=$WORK/nbn S=$WORK/nbn/stage
	local -x DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org
	mkdir -p "$S/usr/bin" "$W/empty" &&
	printf '#!/bin/sh\necho hi\n' >"$S/usr/bin/hello" && chmod 755 "$S/usr/bin/hello" &&
	ln -s /run/hello.sock "$S/usr/bin/hello-sock" && ln -s /etc/alternatives/hello-alt "$S/usr/bin/hello-alt"
	check_fails "name and version: --name My_Lib: the package name dh_make would want, with a warning" 0 \
		"padpack split: my-lib 1\.0-1, 1 variant, 1 packages .*--name 'My_Lib' is no Debian package name .*using 'my-lib'" \
		bash -c "'$PADPACK' split --stage '$S' --name My_Lib --version 1.0 -o '$W/a' 2>&1 | tr '\n' ' '"
	check_fails "name and version: --version v1.2: a tag's v dropped, with a warning" 0 \
		"hello 1\.2-1, .*--version 'v1\.2': a tag's 'v' is no part of the upstream version .*using '1\.2'" \
		bash -c "'$PADPACK' split --stage '$S' --name hello --version v1.2 -o '$W/b' 2>&1 | tr '\n' ' '"
	check_fails "name and version: --version 1:2.0: upstream 2.0, epoch 1 (Version 1:2.0-1), as dch -v takes it" 0 \
		'^1:2\.0-1$' \
		bash -c "'$PADPACK' split --stage '$S' --name hello --version 1:2.0 -o '$W/e' -q 2>/dev/null &&
			dpkg-deb -f '$W/e/hello_2.0-1_all.deb' Version"
	check_fails "name and version: --version 3:2.0 --scaffold: the spec has epoch = 3 and gives 3:2.0-1" 0 \
		'^	epoch = 3; 3:2\.0-1$' \
		bash -c "'$PADPACK' split --stage '$S' --name hello --version 3:2.0 --scaffold '$W/ep.cfg' -q 2>/dev/null &&
			'$PADPACK' split -c '$W/ep.cfg' --stage '$S' -o '$W/ep' -q 2>/dev/null &&
			echo \"\$(grep epoch '$W/ep.cfg') \$(dpkg-deb -f '$W/ep/hello_2.0-1_all.deb' Version)\""
	check_fails "name and version: --version 0:2.0: exit 3, no epoch, what to give" 3 \
		"--version '0:2\.0': '0' is no epoch \(a number from 1, as in 1:2\.0\); give --version 2\.0" \
		"$PADPACK" split --stage "$S" --name hello --version 0:2.0 -o "$W/c"
	check_fails "name and version: --version x1: exit 3, the option named, not a temporary spec" 3 \
		"^padpack split: --version 'x1' is not an upstream version: a digit first" \
		"$PADPACK" split --stage "$S" --name hello --version x1 -o "$W/c"
	check_fails "name and version: --name __: exit 3, the option named" 3 \
		"^padpack split: --name '__' is not a Debian package name" \
		"$PADPACK" split --stage "$S" --name __ --version 1.0 -o "$W/c"
	check_fails "name and version: links to /run and /etc/alternatives are shipped as they are" 0 \
		'usr/bin/hello-alt -> /etc/alternatives/hello-alt .*usr/bin/hello-sock -> /run/hello\.sock' \
		bash -c "dpkg-deb -c '$W/b/hello_1.2-1_all.deb' | tr '\n' ' '"
	check_fails "name and version: an empty tree: exit 3, nothing to package, no .changes" 3 \
		"nothing to package: $W/empty holds no file; stage the files first \(make install DESTDIR=" \
		bash -c "'$PADPACK' split --stage '$W/empty' --name empty --version 1.0 -o '$W/d'; rc=\$?; [ ! -e '$W/d' ] || echo 'wrote $W/d'; exit \$rc"
	mkdir -p "$W/fd/usr/share/foo-data" && echo 1 >"$W/fd/usr/share/foo-data/f1.txt"
	check_fails "name and version: only data files, source foo-data: one arch-all foo-data, not foo-data-data" 0 \
		'^foo-data_1\.0-1_all\.deb $' \
		bash -c "'$PADPACK' split --stage '$W/fd' --name foo-data --version 1.0 -o '$W/fd.debs' -q 2>/dev/null &&
			cd '$W/fd.debs' && ls ./*.deb | sed 's|^\./||' | tr '\n' ' '"
	check_fails "name and version: --version 1.0-beta: Debian version 1.0~beta-1, before 1.0-1 (1.0-beta-1 would sort after it)" 0 \
		'^1\.0~beta-1 before 1\.0-1$' \
		bash -c "'$PADPACK' split --stage '$W/fd' --name foo-data --version 1.0-beta -o '$W/fdb.debs' -q 2>/dev/null &&
			v=\$(dpkg-deb -f '$W/fdb.debs/foo-data_1.0~beta-1_all.deb' Version) &&
			dpkg --compare-versions \"\$v\" lt 1.0-1 && echo \"\$v before 1.0-1\""
	# packages.epoch: in every Version and relation, in no file name
	printf '%s\n' 'name = "foo-data";' 'version = "1.0";' \
		'packages = { epoch = 2; };' >"$W/epoch.cfg"
	check_fails "name and version: packages.epoch = 2: Version 2:1.0-1 in the package, the .changes and its changelog; the file names without it" 0 \
		'^2:1\.0-1 \| 2:1\.0-1 \| foo-data \(2:1\.0-1\) \| foo-data_1\.0-1_all\.changes foo-data_1\.0-1_all\.deb $' \
		bash -c "'$PADPACK' split -c '$W/epoch.cfg' --stage '$W/fd' -o '$W/fde.debs' -q 2>/dev/null && cd '$W/fde.debs' &&
			echo \"\$(dpkg-deb -f foo-data_1.0-1_all.deb Version) | \$(sed -n 's/^Version: //p' foo-data_1.0-1_all.changes) | \$(dpkg-deb --fsys-tarfile foo-data_1.0-1_all.deb | tar -xOf - ./usr/share/doc/foo-data/changelog.Debian.gz | gzip -dc | head -n 1 | cut -d' ' -f1-2) | \$(ls *.changes *.deb | tr '\n' ' ')\""
	check "name and version: packages.epoch = 2: lintian finds no error (changelog and file names agree with the epoch)" \
		bash -c "cd '$W/fde.debs' && lintian --fail-on error foo-data_1.0-1_all.changes >'$W/fde.lintian' 2>&1 ||
			{ cat '$W/fde.lintian'; exit 1; }"
	check_fails "name and version: packages.epoch = 0 is refused at its line" 3 \
		'epoch0\.cfg:3: .*0 is not an epoch: a number from 1' \
		bash -c "printf '%s\n' 'name = \"foo-data\";' 'version = \"1.0\";' 'packages = { epoch = 0; };' >'$W/epoch0.cfg' &&
			'$PADPACK' split -c '$W/epoch0.cfg' --stage '$W/fd' -o '$W/fde0.debs' -q"
	check_fails "name and version: only arch-all packages: the .changes and .buildinfo named _all, as dpkg-buildpackage -A names them" 0 \
		'^foo-data_1\.0-1_all\.buildinfo foo-data_1\.0-1_all\.changes $' \
		bash -c "cd '$W/fd.debs' && ls ./*.changes ./*.buildinfo | sed 's|^\./||' | LC_ALL=C sort | tr '\n' ' '"
	# a library CMake built without SOVERSION (SONAME libbaz.so) and one
	# linked without -soname (libqux.so), each with a program using it:
	# runtime packages named from them, not the program's package with
	# lintian's three errors (multiarch-foreign-shared-library ...)
	local L=usr/lib/x86_64-linux-gnu U=$W/unv/stage
	mkdir -p "$U/$L" "$U/usr/bin" "$U/usr/include" && echo 'int baz(void) { return 3; }' >"$W/unv/b.c" &&
	printf 'int baz(void);\nint main(void) { return baz() - 3; }\n' >"$W/unv/m.c" &&
	echo 'int baz(void);' >"$U/usr/include/baz.h" &&
	cc -g -shared -fPIC -Wl,-soname,libbaz.so -o "$U/$L/libbaz.so" "$W/unv/b.c" &&
	cc -g -shared -fPIC -o "$U/$L/libqux.so" "$W/unv/b.c" &&
	cc -g -o "$U/usr/bin/baz" "$W/unv/m.c" -L"$U/$L" -lbaz &&
	cc -g -o "$U/usr/bin/qux" "$W/unv/m.c" -L"$U/$L" -lqux &&
	"$PADPACK" split --stage "$U" --name baz --version 1.0 -o "$W/unv/debs" -q
	check_fails "name and version: unversioned SONAME and no SONAME: a runtime package each, named from the file" 0 \
		'^baz baz-dbgsym libbaz libbaz-dbgsym libbaz-dev libqux libqux-dbgsym $' \
		bash -c "cd '$W/unv/debs' && ls ./*.deb | sed 's|^\./||; s/_.*//' | LC_ALL=C sort | tr '\n' ' '"
	check_fails "name and version: ... the program depends on both, as on any library of the run" 0 \
		'^libbaz \(>= 1\.0\), libc6 \(>= 2\.[0-9]+\), libqux \(>= 1\.0\)$' \
		dpkg-deb -f "$W/unv/debs/baz_1.0-1_amd64.deb" Depends
	check "name and version: ... the ldconfig trigger for libbaz.so, an override saying why libqux.so has no SONAME" bash -c "
		dpkg-deb --ctrl-tarfile '$W/unv/debs/libbaz_1.0-1_amd64.deb' | tar -xO ./triggers | grep -qx 'activate-noawait ldconfig' &&
		dpkg-deb --fsys-tarfile '$W/unv/debs/libqux_1.0-1_amd64.deb' | tar -xO ./usr/share/lintian/overrides/libqux |
			grep -qx 'sharedobject-in-library-directory-missing-soname \[$L/libqux.so\]'"
	check "name and version: ... lintian finds no error in them" bash -c "cd '$W/unv/debs' &&
		lintian --fail-on error baz_1.0-1_amd64.changes >'$W/unv/lintian.log' 2>&1 || { cat '$W/unv/lintian.log'; exit 1; }"
	rm -rf "$W"
}

# libconfig's shape (third round): a C library and its C++ wrapper,
# which is built from the C sources too (it exports the C functions),
# each with its header and an info manual: the C header and the manual
# in the C library's -dev, the C++ header in the C++ one's, as Debian's
# libconfig-dev and libconfig++-dev (padpack swapped the headers).
check_cxx_beside_c() {
	local W=$WORK/cxx S=$WORK/cxx/stage L=usr/lib/x86_64-linux-gnu
	local -x DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org
	mkdir -p "$S/$L" "$S/usr/include" "$S/usr/share/info" &&
	printf '#ifdef __cplusplus\nextern "C" {\n#endif\nint conf_init(void);\nint conf_read(const char *);\n#ifdef __cplusplus\n}\n#endif\n' \
		>"$S/usr/include/libconf.h" &&
	printf '#include <string>\nnamespace libconf {\nclass Conf {\npublic:\n  int read(const std::string &);\n};\n}\n' \
		>"$S/usr/include/libconf.h++" &&
	printf 'int conf_init(void) { return 0; }\nint conf_read(const char *s) { return s != 0; }\n' >"$W/c.c" &&
	printf '#include <string>\nextern "C" int conf_read(const char *);\nnamespace libconf { class Conf { public: int read(const std::string &); };\n' >"$W/x.cc" &&
	printf 'int Conf::read(const std::string &s) { return conf_read(s.c_str()); } }\n' >>"$W/x.cc" &&
	cc -shared -fPIC -Wl,-soname,libconf.so.9 -o "$S/$L/libconf.so.9.0.0" "$W/c.c" &&
	c++ -shared -fPIC -Wl,-soname,libconf++.so.9 -o "$S/$L/libconf++.so.9.0.0" -x c "$W/c.c" -x c++ "$W/x.cc" &&
	ln -s libconf.so.9.0.0 "$S/$L/libconf.so.9" && ln -s libconf.so.9 "$S/$L/libconf.so" &&
	ln -s libconf++.so.9.0.0 "$S/$L/libconf++.so.9" && ln -s libconf++.so.9 "$S/$L/libconf++.so" &&
	printf 'This is libconf.info, produced by makeinfo.\n' >"$S/usr/share/info/libconf.info" || {
		not_ok "C++ beside C: a staged tree built with cc and c++"
		return
	}
	check_fails "C++ beside C: the C header and the manual in the C -dev, the C++ header in the C++ -dev" 0 \
		'usr/include/libconf\.h header -> libconf-dev .*usr/include/libconf\.h\+\+ header -> libconf\+\+-dev .*a C\+\+ header.s among the C\+\+ libraries.*usr/share/info/libconf\.info documentation -> libconf-dev ' \
		bash -c "'$PADPACK' split --stage '$S' --name libconf --version 1.0 --explain 2>&1 | tr '\n' ' ' | tr -s ' '"
	rm -rf "$W"
}

# libexif's shape (third round): 2.4 MB of translations and a library,
# no program: from 1 MiB they go to a -data package, which nothing
# depended on (apt installed the library without them); and a program
# with 1 MiB of data of its own, which it could not run without.
check_source_data() {
	local W=$WORK/sdata L=usr/lib/x86_64-linux-gnu
	local -x DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org
	mkdir -p "$W/lib/$L" "$W/lib/usr/share/locale/de/LC_MESSAGES" "$W/prog/usr/bin" "$W/prog/usr/share/tool" &&
	echo 'int f(void) { return 1; }' >"$W/f.c" &&
	cc -shared -fPIC -Wl,-soname,libbig.so.1 -o "$W/lib/$L/libbig.so.1.0" "$W/f.c" &&
	ln -s libbig.so.1.0 "$W/lib/$L/libbig.so.1" &&
	noise 1200000 1 >"$W/lib/usr/share/locale/de/LC_MESSAGES/libbig-1.mo" &&
	printf '#!/bin/sh\ncat /usr/share/tool/table.dat\n' >"$W/prog/usr/bin/tool" && chmod 755 "$W/prog/usr/bin/tool" &&
	noise 1200000 2 >"$W/prog/usr/share/tool/table.dat" || {
		not_ok "source data: staged trees"
		return
	}
	check_fails "source data: a library's 1.2 MB of translations in libbig-data, which libbig1 depends on" 0 \
		'^libbig-data_1\.0-1_all\.deb Depends: libbig-data \(>= 1\.0-1\)' \
		bash -c "'$PADPACK' split --stage '$W/lib' --name libbig --version 1.0 -o '$W/lib.debs' -q &&
			cd '$W/lib.debs' && ls libbig-data_*.deb | tr '\n' ' ' && dpkg-deb -f libbig1_1.0-1_amd64.deb Depends | sed 's/^/Depends: /'"
	check_fails "source data: a program's 1.2 MB of data in tool-data, which tool depends on" 0 \
		'^Depends: tool-data \(>= 1\.0-1\)$' \
		bash -c "'$PADPACK' split --stage '$W/prog' --name tool --version 1.0 -o '$W/prog.debs' -q &&
			dpkg-deb -f '$W/prog.debs/tool_1.0-1_all.deb' Depends | sed 's/^/Depends: /'"
	check_fails "source data: Section libs for the library's -data (Debian's libasound2-data), the programs' for tool-data (misc before)" 0 \
		'^libbig-data: libs \| tool-data: utils \| tool: utils$' \
		bash -c "echo \"libbig-data: \$(dpkg-deb -f '$W'/lib.debs/libbig-data_1.0-1_all.deb Section) | tool-data: \$(dpkg-deb -f '$W'/prog.debs/tool-data_1.0-1_all.deb Section) | tool: \$(dpkg-deb -f '$W'/prog.debs/tool_1.0-1_all.deb Section)\""
	# packages.name set: the relation reads the name the data rule reads
	# (a lib* one: the library would hold the data, so it depends)
	mkdir -p "$W/lib/usr/bin" && printf '#!/bin/sh\necho hi\n' >"$W/lib/usr/bin/big" &&
		chmod 755 "$W/lib/usr/bin/big" &&
		printf '%s\n' 'name = "big";' 'version = "1.0";' \
			'packages = { name = "libbig-tools"; };' >"$W/big.cfg"
	check_fails "source data: with packages.name libbig-tools, the library depends on the -data package, as the data rule would have put the data there" 0 \
		'^libbig1: libbig-tools-data \(>= 1\.0-1\) \| libbig-tools: $' \
		bash -c "'$PADPACK' split -c '$W/big.cfg' --stage '$W/lib' -o '$W/named.debs' -q 2>/dev/null &&
			cd '$W/named.debs' && echo \"libbig1: \$(dpkg-deb -f libbig1_1.0-1_amd64.deb Depends) | libbig-tools: \$(dpkg-deb -f libbig-tools_1.0-1_all.deb Depends)\""
	check_fails "source data: --explain says why" 0 \
		'tool -> tool-data \(>= 1\.0-1\): the source.s data, 1 MiB or more of usr/share' \
		bash -c "'$PADPACK' split --stage '$W/prog' --name tool --version 1.0 --explain 2>&1 | tr '\n' ' '"
	check "source data: lintian finds no error in them" bash -c "cd '$W/lib.debs' && lintian --fail-on error *.changes >'$W/l1.log' 2>&1 &&
		cd '$W/prog.debs' && lintian --fail-on error *.changes >'$W/l2.log' 2>&1 || { cat '$W/l1.log' '$W/l2.log'; exit 1; }"
	rm -rf "$W"
}

# gsl's shape (fourth round): a program needs libgsl, which needs
# libgslcblas; nothing of the build needs libgslcblas itself. padpack
# read "every program needs both" through libgsl's NEEDED and made one
# runtime package; Debian ships libgsl27 and libgslcblas0 (as 13 of
# bookworm's two-library sources whose programs need one library that
# needs the other). xsltproc's shape, a program that needs both
# libraries itself, stays one package (libxslt1.1).
check_reached_library() {
	local W=$WORK/reach L=usr/lib/x86_64-linux-gnu
	local -x DEBFULLNAME="Jane Doe" DEBEMAIL=jane@example.org
	mkdir -p "$W/s/$L" "$W/s/usr/bin" &&
	echo 'double blas_dot(double a, double b) { return a * b; }' >"$W/b.c" &&
	printf 'double blas_dot(double, double);\ndouble num_sq(double a) { return blas_dot(a, a); }\n' >"$W/n.c" &&
	printf 'double num_sq(double);\nint main(void) { return num_sq(1.0) != 1.0; }\n' >"$W/p.c" &&
	cc -shared -fPIC -Wl,-soname,libnumcblas.so.0 -o "$W/s/$L/libnumcblas.so.0.0.0" "$W/b.c" &&
	ln -s libnumcblas.so.0.0.0 "$W/s/$L/libnumcblas.so.0" &&
	cc -shared -fPIC -Wl,-soname,libnum.so.27 -o "$W/s/$L/libnum.so.27.0.0" "$W/n.c" -L"$W/s/$L" -l:libnumcblas.so.0 &&
	ln -s libnum.so.27.0.0 "$W/s/$L/libnum.so.27" &&
	cc -o "$W/s/usr/bin/num-tool" "$W/p.c" -L"$W/s/$L" -l:libnum.so.27 -Wl,-rpath-link,"$W/s/$L" || {
		not_ok "a library reached through another: a staged tree"
		return
	}
	check_fails "a library the program reaches only through another library keeps its own runtime package (gsl: libgsl27, libgslcblas0)" 0 \
		'^libnum27 libnumcblas0 num $' \
		bash -c "'$PADPACK' split --stage '$W/s' --name num --version 1.0 -o '$W/debs' -q &&
			cd '$W/debs' && ls *.deb | grep -v -e dbgsym -e -dev_ | sed 's/_.*//' | tr '\n' ' '"
	check_fails "a library reached through another: the library depends on it from its shlibs" 0 \
		'^Depends: .*libnumcblas0 \(>= 1\.0\)' \
		bash -c "dpkg-deb -f '$W/debs/libnum27_1.0-1_amd64.deb' Depends | sed 's/^/Depends: /'"
	rm -rf "$W"
}

check_minimal
check_cxx_beside_c
check_source_data
check_reached_library
check_nothing_but_name
check_strip_scratch
check_killed_strip
check_minimal_docs
check_fifth_round
check_sixth_round
check_seventh_round
check_eighth_round
check_doc_compress
check_large_files
check_library_data
build_all
# Files are shared only when every variant of the spec is there; without
# nvcc the GPU variants are not, and each CPU variant keeps all its files.
ALL=
[ "$(echo $VARIANTS | wc -w)" = 4 ] && ALL=1
if [ -f "$OUT/complete" ]; then
	if split_core >"$WORK/split.log" 2>&1; then
		ok "padpack split of the four variants ($(grep -c '\.deb$' "$WORK/split.log") packages)"
		check_set
		check_every_file
		if [ -n "$ALL" ]; then
			check_shared
			check_relations
		else
			check_fails "without the GPU variants nothing is shared, saying why" 0 \
				'2 of the 4 variants are here' cat "$WORK/split.log"
		fi
		check_library_files
		check_dbgsym
		check_run_files
		check_explain
		check_isa
		check_reproducible
		check_x86_filter
		check_rules
		check_conffiles
	else
		not_ok "padpack split of the four variants" "$(cat "$WORK/split.log")"
	fi
	check_errors
fi
