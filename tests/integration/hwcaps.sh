#!/bin/bash
# The glibc-hwcaps form of the Paddle core, the bundled default
# (pkg/paddle.cfg, used here as padpack build and split default to it): its CPU
# builds (baseline, x86-64-v3, x86-64-v4) split into one libpaddle1 whose
# higher builds sit under glibc-hwcaps/LEVEL/, judged by dpkg-deb and
# lintian, then installed with apt from a padpack repository in a clean
# Debian 12 root, where the loader picks the build: the best this CPU runs,
# or a lower one when ld.so's --glibc-hwcaps-mask or GLIBC_TUNABLES hides
# the higher. Then what the split refuses: an instruction above a build's
# level, a v3 build without AVX2/FMA, builds exporting different symbols,
# and the spec's errors.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../tools/debian-root.sh"
source "$(dirname "$0")/../lib-docker.sh"
trap 'stop_engine; rm -rf "$WORK"' EXIT

export SOURCE_DATE_EPOCH=1700000000
V=0.11.0-1
LIBDIR=usr/lib/x86_64-linux-gnu
SPEC=$TOP/pkg/paddle.cfg
D=$WORK/debs
LEVELS="x86-64-v3 x86-64-v4"

# The CPU builds, cached as tests/core-cache.sh caches the core: keyed by
# everything they depend on, rebuilt from clean when stale.
cache_key() {
	{
		(cd "$TOP" && find pkg/paddle pkg/paddle.cfg src/lib/build*.c \
			src/lib/spec*.c src/cmd/build* src/lib/variant.c src/lib/proc.c \
			-type f | sort | xargs sha256sum)
		cc --version; cmake --version; command -v ccache ninja
		echo "$TOP"
		(cd "$TOP" && find pkg/paddle -type f -printf '%T@ %p\n' | sort)
	} 2>&1 | sha256sum | cut -c1-16
}
CACHE_ROOT=/var/tmp/padpack-hwcaps
OUT=$CACHE_ROOT/core-$(cache_key)
B=$OUT/build
mkdir -p "$CACHE_ROOT"
exec 9>"$CACHE_ROOT/lock"
flock 9

build_cpu() {
	local rc
	if [ -z "${PADPACK_TEST_NO_CACHE:-}" ] && [ -f "$OUT/complete" ]; then
		ok "the three CPU builds (cached in $OUT)"
		return
	fi
	# only this checkout's stale builds: others' are keyed by their own TOP
	grep -lxF "$TOP" "$CACHE_ROOT"/core-*/top 2>/dev/null |
		while read -r t; do rm -rf "$(dirname "$t")"; done
	rm -rf "$OUT" && mkdir -p "$OUT" && echo "$TOP" >"$OUT/top"
	# no -c: the default spec
	(cd "$TOP" && nice -n 10 "$PADPACK" build -j2 -B "$B" \
		--variant 'cpu-*' -q) >"$OUT/build.log" 2>&1
	rc=$?
	if [ "$rc" = 0 ]; then
		touch "$OUT/complete"
		ok "the three CPU builds (cpu-base, cpu-v3, cpu-v4) from clean"
	else
		not_ok "the three CPU builds from clean" "exit $rc" "$(tail -n 30 "$OUT/build.log")"
	fi
}

deb() { echo "$D/${1}_${V}_amd64.deb"; }

split_to() { # DIR BUILD-DIR [ARGS...]: the CPU variants' split, by the default spec
	local dir=$1 b=$2; shift 2
	(cd "$TOP" && "$PADPACK" split -B "$b" -o "$dir" --variant 'cpu-*' -q "$@")
}

check_package() {
	local x=$WORK/x lib v
	check_fails "libpaddle1: the baseline library, and one under glibc-hwcaps/ per level, each with its SONAME link" 0 \
		"^$LIBDIR/glibc-hwcaps/x86-64-v3/libpaddle.so.1 $LIBDIR/glibc-hwcaps/x86-64-v3/libpaddle.so.1.0.0 $LIBDIR/glibc-hwcaps/x86-64-v4/libpaddle.so.1 $LIBDIR/glibc-hwcaps/x86-64-v4/libpaddle.so.1.0.0 $LIBDIR/libpaddle.so.1 $LIBDIR/libpaddle.so.1.0.0 \$" \
		bash -c "dpkg-deb -c '$(deb libpaddle1)' | awk '{ print \$6 }' | grep '\.so' | sed 's|^\./||' | sort | tr '\n' ' '"
	mkdir -p "$x" && dpkg-deb -x "$(deb libpaddle1)" "$x"
	for lib in $x/$LIBDIR/libpaddle.so.1.0.0 $x/$LIBDIR/glibc-hwcaps/*/libpaddle.so.1.0.0; do
		v=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
		[ "$v" = libpaddle.so.1 ] || { not_ok "every build has SONAME libpaddle.so.1" "$lib: $v"; return; }
	done
	ok "every build has SONAME libpaddle.so.1"
	check_fails "one shlibs line and one symbols file, from the baseline" 0 \
		'^libpaddle 1 libpaddle1 \(>= 0\.11\.0\) 1 1 $' \
		bash -c "dpkg-deb -I '$(deb libpaddle1)' shlibs | tr '\n' ' '; dpkg-deb -I '$(deb libpaddle1)' symbols | grep -c '^libpaddle' | tr '\n' ' ';
			dpkg-deb -I '$(deb libpaddle1)' symbols | grep -c '^libpaddle.so.1 ' | tr '\n' ' '"
	check_fails "Isa-Level lists the levels carried; no preinst CPU guard" 0 \
		'^x86-64, x86-64-v3, x86-64-v4 \(glibc-hwcaps\) no-preinst$' \
		bash -c "dpkg-deb -f '$(deb libpaddle1)' Isa-Level | tr '\n' ' '
			dpkg-deb --ctrl-tarfile '$(deb libpaddle1)' | tar t | grep -q preinst && echo has-preinst || echo no-preinst"
	check_fails "each level's build uses its level: v4 AVX-512, v3 AVX/FMA, the baseline nothing above x86-64" 0 \
		'^x86-64 x86-64-v3 x86-64-v4 $' bash -c "for f in '$x/$LIBDIR/libpaddle.so.1.0.0' '$x/$LIBDIR'/glibc-hwcaps/x86-64-v[34]/libpaddle.so.1.0.0; do
			'$PADPACK' isa \"\$f\" | head -n 1 | sed 's/.*: \([^ ]*\) (.*/\1/'; done | tr '\n' ' '"
	check_fails "libpaddle1-dbgsym: a debug file per build, distinct build-ids" 0 '^3 3$' \
		bash -c "for f in '$x/$LIBDIR/libpaddle.so.1.0.0' '$x/$LIBDIR'/glibc-hwcaps/*/libpaddle.so.1.0.0; do
			readelf -n \"\$f\" | sed -n 's/.*Build ID: //p'; done | sort -u | wc -l | tr '\n' ' '
			dpkg-deb -c '$(deb libpaddle1-dbgsym)' | grep -c '\.debug$'"
	check_fails "programs, Python module and -dev come from the baseline build" 0 \
		'^paddle: x86-64 python: x86-64 dev: no-hwcaps$' bash -c "
			dpkg-deb -x '$(deb paddle)' '$WORK/p' && dpkg-deb -x '$(deb python3-paddle)' '$WORK/p'
			printf 'paddle: %s ' \$('$PADPACK' isa '$WORK/p/usr/bin/paddle' | head -n 1 | sed 's/.*: \([^ ]*\) (.*/\1/')
			printf 'python: %s ' \$('$PADPACK' isa '$WORK'/p/usr/lib/python3/dist-packages/paddle/*.so | head -n 1 | sed 's/.*: \([^ ]*\) (.*/\1/')
			dpkg-deb -c '$(deb libpaddle-dev)' | grep -q glibc-hwcaps && echo dev: has-hwcaps || echo dev: no-hwcaps"
	check_fails "--explain: a higher build's library goes with the baseline's" 0 \
		'glibc-hwcaps: the x86-64-v4 build \(cpu-v4\) of usr/lib/x86_64-linux-gnu/libpaddle.so.1.0.0, with it' \
		split_to "$WORK/explain" "$B" --explain
}

check_lintian() {
	local out
	out=$(cd "$D" && lintian --display-level '>=warning' "paddle_${V}_amd64.changes" 2>&1 |
		grep -v '^running with root')
	if printf '%s\n' "$out" | grep -q '^E: '; then
		not_ok "lintian: no error on any package" "$(printf '%s\n' "$out" | grep '^E: ' | head)"
	else
		ok "lintian: no error on any of the $(ls "$D"/*.deb | wc -l) packages"
	fi
	# doc/split.md's table says why each is left
	if printf '%s\n' "$out" | grep '^W: ' | grep -vE 'initial-upload-closes-no-bugs|python3-paddle: multi-arch-same-package-calls-pycompile' | grep -q .; then
		not_ok "lintian: no warning but the ones README.md explains" \
			"$(printf '%s\n' "$out" | grep '^W: ' | grep -vE 'initial-upload' | head)"
	else
		ok "lintian: no warning but the ones README.md explains"
	fi
}

# One run in the clean root, its findings written to $WORK/root.out as
# "TAG: ..." lines, each judged below (one apt install for them all).
root_run() {
	local key=$WORK/key repo=$D/repo name
	if ! { "$PADPACK" key generate --uid "Paddle Release <release@example.org>" \
			--out "$key" &&
		"$PADPACK" repo init "$repo" --origin Paddle --label Paddle \
			--key "$key/secret.pem" --uri file:/debs/repo &&
		"$PADPACK" repo add --publish "$repo" "$D"/*.deb; } >"$WORK/repo.log" 2>&1; then
		not_ok "the set published in a signed padpack repository" "$(cat "$WORK/repo.log")"
		return 1
	fi
	ok "the set published in a signed padpack repository"
	name=t-$(date +%s%N).sh
	cat >"$D/$name" <<-'EOF'
	install -m 0644 /debs/repo/paddle-archive-keyring.gpg /usr/share/keyrings/
	cp /debs/repo/stable.sources /etc/apt/sources.list.d/paddle.sources
	apt-get update -o Dir::Etc::SourceList=/dev/null -o APT::Get::List-Cleanup=0 >/tmp/apt.log 2>&1
	apt-get install -y -q --no-install-recommends paddle python3-paddle libpaddle-dev >>/tmp/apt.log 2>&1 ||
		{ cat /tmp/apt.log; exit 1; }
	grep -o 'Get:[0-9]* file:/debs/repo stable InRelease' /tmp/apt.log | sed 's/^/apt: /' | head -n 1
	ldso=/lib64/ld-linux-x86-64.so.2
	echo "best: $($ldso --help | sed -n 's/^ *\(x86-64-v[0-9]\) (supported, searched)$/\1/p' | head -n 1)"
	echo "cache: $(ldconfig -p | grep -c 'libpaddle.so.1 .*hwcap: "x86-64-v')"
	echo "plain: $(paddle --version | grep -E '^(library|variant):' | tr '\n' ' ') $(paddle)"
	for m in x86-64-v2 x86-64-v3; do
		echo "mask $m: $($ldso --glibc-hwcaps-mask $m "$(command -v paddle)" --version | grep '^library:') $($ldso --glibc-hwcaps-mask $m "$(command -v paddle)")"
	done
	for t in -AVX512F -AVX2; do
		echo "tunable $t: $(GLIBC_TUNABLES=glibc.cpu.hwcaps=$t paddle --version | grep '^library:') $(GLIBC_TUNABLES=glibc.cpu.hwcaps=$t paddle)"
	done
	echo "python: $(python3 -c 'import paddle; i = paddle.build_info(); print(i["level"], i["library"], paddle.matmul([[1, 2]], [[3], [4]]))')"
	echo "python masked: $($ldso --glibc-hwcaps-mask x86-64-v2 /usr/bin/python3 -c 'import paddle; i = paddle.build_info(); print(i["level"], i["library"], paddle.matmul([[1, 2]], [[3], [4]]))')"
	cat >/tmp/use.c <<'C'
	#include <paddle/paddle.h>
	#include <stdio.h>
	int main(void) { float a = 2, b = 3, c = 0;
		int st = paddle_sgemm(PADDLE_DEVICE_CPU, 1, 1, 1, &a, &b, &c);
		printf("%s %s %g\n", paddle_isa_level(), paddle_library_path(), c); return st; }
	C
	gcc -o /tmp/use /tmp/use.c $(pkg-config --cflags --libs paddle)
	echo "dev: $(/tmp/use) masked: $($ldso --glibc-hwcaps-mask x86-64-v2 /tmp/use)"
	EOF
	debian_root_run "$D" "sh -e /debs/$name" >"$WORK/root.out" 2>&1
}

# The level this CPU gets: the first the root's loader says it supports
# and searches, among the levels the package carries.
expected_level() {
	local best
	best=$(sed -n 's/^best: //p' "$WORK/root.out")
	case " $LEVELS " in
	*" $best "*) echo "$best" ;;
	*) [ "$best" = x86-64-v4 ] && echo x86-64-v4 || echo "" ;;
	esac
}

check_root() {
	local want path_re lib_re
	if ! root_run; then
		not_ok "apt installs paddle, python3-paddle and libpaddle-dev from the repository" \
			"$(tail -n 20 "$WORK/root.out")"
		return
	fi
	check_fails "apt installs paddle, python3-paddle and libpaddle-dev from the repository" 0 \
		'^apt: Get:[0-9]+ file:/debs/repo stable InRelease' cat "$WORK/root.out"
	want=$(expected_level)
	lib_re='/(usr/)?lib/x86_64-linux-gnu'
	# the file ld.so.cache names: the SONAME link, or for a glibc-hwcaps
	# build the file it reaches (ldconfig records that)
	so_re='libpaddle\.so\.1(\.0\.0)?'
	if [ -n "$want" ]; then
		path_re="$lib_re/glibc-hwcaps/$want/$so_re \(built for $want\)"
	else
		path_re="$lib_re/libpaddle\.so\.1 \(built for x86-64\)"
	fi
	check_fails "ldconfig records the glibc-hwcaps builds in ld.so.cache" 0 '^cache: 2$' cat "$WORK/root.out"
	check_fails "paddle loads the build of the best level this CPU supports (${want:-baseline}, from ld.so --help) and computes" 0 \
		"^plain: variant: cpu-.* library: $path_re .*max error 0: ok" cat "$WORK/root.out"
	check_fails "ld.so --glibc-hwcaps-mask x86-64-v2: the baseline build, which runs" 0 \
		"^mask x86-64-v2: library: $lib_re/libpaddle\.so\.1 \(built for x86-64\) paddle: sgemm .* \(portable\): max error 0: ok" \
		cat "$WORK/root.out"
	if [ -n "$want" ]; then
		check_fails "ld.so --glibc-hwcaps-mask x86-64-v3: the v3 build, which runs" 0 \
			"^mask x86-64-v3: library: $lib_re/glibc-hwcaps/x86-64-v3/$so_re \(built for x86-64-v3\) paddle: sgemm .* \(avx2\+fma\): max error 0: ok" \
			cat "$WORK/root.out"
	fi
	if [ "$want" = x86-64-v4 ]; then
		check_fails "GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F: the v3 build" 0 \
			"^tunable -AVX512F: library: $lib_re/glibc-hwcaps/x86-64-v3/$so_re \(built for x86-64-v3\) .*max error 0: ok" \
			cat "$WORK/root.out"
	fi
	check_fails "GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2: the baseline build" 0 \
		"^tunable -AVX2: library: $lib_re/libpaddle\.so\.1 \(built for x86-64\) .*max error 0: ok" \
		cat "$WORK/root.out"
	check_fails "the Python module loads the same build, and a masked interpreter the baseline" 0 \
		"python: ${want:-x86-64} $lib_re/.*\[\[11\.0\]\].*python masked: x86-64 $lib_re/libpaddle\.so\.1 \[\[11\.0\]\]" \
		bash -c "tr '\n' ' ' <'$WORK/root.out'"
	check_fails "a program built against libpaddle-dev links the SONAME and gets the same choice" 0 \
		"^dev: ${want:-x86-64} $lib_re/.*$so_re 6 masked: x86-64 $lib_re/libpaddle\.so\.1 6$" \
		cat "$WORK/root.out"
}

# A copy of the builds' stages to break one build of.
copy_builds() { # DIR
	rm -rf "$1" && mkdir -p "$1"
	for v in cpu-base cpu-v3 cpu-v4; do
		mkdir -p "$1/$v" && cp -a "$B/$v/stage" "$1/$v/"
	done
}

check_refusals() {
	local t=$WORK/bad
	copy_builds "$t"
	cp "$B/cpu-v4/stage/$LIBDIR/libpaddle.so.1.0.0" "$t/cpu-v3/stage/$LIBDIR/libpaddle.so.1.0.0"
	check_fails "an AVX-512 instruction in the v3 build fails the split, naming file, level, symbol and offset" 1 \
		"$t/cpu-v3/stage/$LIBDIR/libpaddle\.so\.1\.0\.0 \(shipped as $LIBDIR/glibc-hwcaps/x86-64-v3/libpaddle\.so\.1\.0\.0, the glibc-hwcaps build for x86-64-v3\): AVX-512[A-Z]* instruction at paddle_gemm_avx512\+0x[0-9a-f]+ \(address 0x[0-9a-f]+\) exceeds x86-64-v3" \
		split_to "$WORK/o1" "$t"
	check_fails "... and writes nothing" 0 '^0$' bash -c "find '$WORK/o1' -name '*.deb' 2>/dev/null | wc -l"

	copy_builds "$t"
	cp "$B/cpu-base/stage/$LIBDIR/libpaddle.so.1.0.0" "$t/cpu-v3/stage/$LIBDIR/libpaddle.so.1.0.0"
	check_fails "a v3 build without AVX2 or FMA is reported: it fell back" 1 \
		'variant cpu-v3: none of its 1 ELF files \(its glibc-hwcaps build for x86-64-v3\) has an instruction of avx2, fma .*fell back' \
		split_to "$WORK/o2" "$t"

	copy_builds "$t"
	cp "$B/cpu-v4/stage/$LIBDIR/libpaddle.so.1.0.0" "$t/cpu-base/stage/$LIBDIR/libpaddle.so.1.0.0"
	check_fails "an AVX instruction in the baseline build fails, naming file, symbol and offset" 1 \
		"$t/cpu-base/stage/$LIBDIR/libpaddle\.so\.1\.0\.0: AVX[-A-Z0-9]* instruction at [a-z_0-9]+\+0x[0-9a-f]+ \(address 0x[0-9a-f]+\) exceeds x86-64; the cpu-base variant allows no more" \
		split_to "$WORK/o3" "$t"

	# a v4 build exporting one more symbol than the baseline
	copy_builds "$t"
	cat >"$WORK/extra.c" <<-'EOF'
	const char *paddle_extra(void) { return "extra"; }
	EOF
	{ echo 'PADDLE_1 { global: paddle_*; local: *; };'; } >"$WORK/extra.map"
	(cd "$B/cpu-v4/obj" && gcc -shared -fPIC -o "$t/cpu-v4/stage/$LIBDIR/libpaddle.so.1.0.0" \
		-Wl,-soname,libpaddle.so.1 -Wl,--version-script="$WORK/extra.map" \
		$(find . -name 'core.c.o' -o -name 'gemm_avx512.c.o' | grep -v python) "$WORK/extra.c") 2>"$WORK/cc.log"
	check_fails "builds exporting different symbols fail the split, naming the symbol and the level" 1 \
		"$t/cpu-v4/stage/$LIBDIR/libpaddle\.so\.1\.0\.0: the x86-64-v4 build \(cpu-v4\) exports paddle_extra@PADDLE_1, which .*cpu-base/stage/$LIBDIR/libpaddle\.so\.1\.0\.0 \(the baseline build, cpu-base\) does not" \
		split_to "$WORK/o4" "$t"

	check_fails "a higher build without its baseline in the run: an error naming both" 3 \
		'variant cpu-v3 is the x86-64-v3 glibc-hwcaps build of cpu-base, which is not in this run' \
		"$PADPACK" split -c "$SPEC" -B "$B" -o "$WORK/o6" --variant cpu-v3 -q
	check_fails "a level left out by --variant: a warning, and Isa-Level without it" 0 \
		"cpu-v3, a glibc-hwcaps build of cpu-base, is not selected: cpu-base's packages carry no build of its level.* x86-64, x86-64-v4 \(glibc-hwcaps\)" \
		bash -c "'$PADPACK' split -c '$SPEC' -B '$B' -o '$WORK/o7' --variant cpu-base --variant cpu-v4 -q 2>&1 | tr '\n' ' '
			dpkg-deb -f '$WORK'/o7/libpaddle1_*.deb Isa-Level"

	copy_builds "$t"
	cp "$B/cpu-v3/stage/$LIBDIR/libpaddle.so.1.0.0" "$t/cpu-v3/stage/$LIBDIR/libother.so.1.0.0"
	check_fails "a library the baseline build lacks: an error naming it" 3 \
		"$t/cpu-v3/stage/$LIBDIR/libother\.so\.1\.0\.0: the x86-64-v3 build \(cpu-v3\) has this library, which the baseline build \(cpu-base\) lacks" \
		split_to "$WORK/o5" "$t"
}

# padpack docker prod: one CPU image, the baseline variant's, holding the
# one libpaddle1 with every build; a higher build named alone is refused.
check_docker() {
	local out=$WORK/img
	check_fails "docker prod writes one CPU image (paddle:0.11.0, no -noavx tag) from the hwcaps packages" 0 \
		"^wrote $out/cpu-base/image/Dockerfile \(cpu-base\) docker build -t docker.io/paddlepaddle/paddle:0\.11\.0 -t docker.io/paddlepaddle/paddle:latest $out/cpu-base/image libpaddle1_0\.11\.0-1_amd64\.deb paddle_0\.11\.0-1_amd64\.deb \$" \
		bash -c "'$PADPACK' docker prod -c '$SPEC' -B '$out' --debs '$D' --variant 'cpu-*' 2>&1 | tr -s ' \n' ' '
			ls '$out'/cpu-base/image/debs | tr '\n' ' '; ls -d '$out'/cpu-v* 2>/dev/null; true"
	check_fails "docker prod of every variant with only the CPU packages: the GPU image is skipped, not made of the CPU's" 0 \
		"wrote $WORK/img2/cpu-base/image/Dockerfile \(cpu-base\) .*gpu-base skipped: variant gpu-base: no package libpaddle1-gpu in $D " \
		bash -c "cd '$TOP' && '$PADPACK' docker prod -B '$WORK/img2' --debs '$D' 2>&1 | tr -s ' \n' ' '; test ! -e '$WORK/img2/gpu-base'"
	check_fails "docker prod --variant cpu-v3: a usage error naming the image to build" 2 \
		'variant cpu-v3 is a glibc-hwcaps build shipped in the packages of cpu-base: its image is that one' \
		"$PADPACK" docker prod -c "$SPEC" -B "$out" --debs "$D" --variant cpu-v3
}

# The production image for real (Debian's engine started by hand, the
# slim root imported as the FROM, as docker-images.sh does): one image,
# and inside it the loader picks the build of this CPU's best level, or
# the baseline when ld.so or GLIBC_TUNABLES hides the higher ones.
check_docker_image() {
	local img=docker.io/paddlepaddle/paddle:0.11.0 tar best want ldso=/lib64/ld-linux-x86-64.so.2
	if ! start_engine >"$WORK/engine.out" 2>&1; then
		not_ok "the Docker engine starts" "$(cat "$WORK/engine.out")"
		return
	fi
	if ! tar=$(base_tar) || ! import_base debian:bookworm-slim "$tar"; then
		not_ok "a minimal Debian root imported as debian:bookworm-slim"
		return
	fi
	if ! "$DOCKER" build -q -t "$img" "$WORK/img/cpu-base/image" >"$WORK/dbuild.log" 2>&1; then
		not_ok "docker build of the one CPU image" "$(tail -n 25 "$WORK/dbuild.log")"
		return
	fi
	ok "docker build of the one CPU image (its smoke test, paddle --version, passed)"
	best=$("$DOCKER" run --rm --entrypoint $ldso "$img" --help |
		sed -n 's/^ *\(x86-64-v[0-9]\) (supported, searched)$/\1/p' | head -n 1)
	case $best in x86-64-v4 | x86-64-v3) want=$best ;; *) want= ;; esac
	if [ -n "$want" ]; then
		check_fails "image: paddle loads the build of this CPU's best level ($want)" 0 \
			"^library: /(usr/)?lib/x86_64-linux-gnu/glibc-hwcaps/$want/libpaddle\.so\.1(\.0\.0)? \(built for $want\)" \
			"$DOCKER" run --rm "$img" --version
	else
		check_fails "image: paddle loads the baseline build (no higher level on this CPU)" 0 \
			"^library: /(usr/)?lib/x86_64-linux-gnu/libpaddle\.so\.1 \(built for x86-64\)" \
			"$DOCKER" run --rm "$img" --version
	fi
	check_fails "image: ld.so --glibc-hwcaps-mask x86-64-v2: the baseline build, which computes" 0 \
		"library: /(usr/)?lib/x86_64-linux-gnu/libpaddle\.so\.1 \(built for x86-64\) .*\(portable\): max error 0: ok" \
		bash -c "'$DOCKER' run --rm --entrypoint sh '$img' -c '$ldso --glibc-hwcaps-mask x86-64-v2 /usr/bin/paddle --version; $ldso --glibc-hwcaps-mask x86-64-v2 /usr/bin/paddle' | tr '\n' ' '"
	check_fails "image: GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2: the baseline build" 0 \
		"^library: /(usr/)?lib/x86_64-linux-gnu/libpaddle\.so\.1 \(built for x86-64\)" \
		"$DOCKER" run --rm -e GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2 "$img" --version
	check_fails "image: libpaddle1 (every build) and paddle, no -noavx package" 0 \
		'^libpaddle1 paddle $' bash -c "'$DOCKER' run --rm --entrypoint dpkg-query '$img' -W -f '\${Package}\n' 'libpaddle1*' 'paddle*' | sort | tr '\n' ' '"
	stop_engine
}

# pack = "packages", the one setting flipped: the separate-package form of
# the same builds, a package set per level named by the values' suffixes,
# exclusive, the higher ones refusing a CPU without their level.
check_flip() {
	local f=$WORK/flip/paddle.cfg d=$WORK/flip/debs
	mkdir -p "$WORK/flip" && cp "$TOP/pkg/paddle.copyright" "$WORK/flip/"
	sed 's/pack = "hwcaps";/pack = "packages";/' "$SPEC" >"$f"
	check_fails "pack = \"packages\": libpaddle1 (v3), -noavx (baseline), -avx512 (v4)" 0 \
		'^libpaddle1 libpaddle1-avx512 libpaddle1-noavx $' \
		bash -c "'$PADPACK' split -c '$f' -B '$B' -o '$d' --variant 'cpu-*' -q &&
			ls '$d' | sed -n 's/^\(libpaddle1[a-z0-9-]*\)_.*\.deb\$/\1/p' | grep -v dbgsym | sort | tr '\n' ' '"
	check_fails "... which conflict with each other; libpaddle1-avx512 has a preinst CPU guard, no glibc-hwcaps build" 0 \
		'^Conflicts: libpaddle1, libpaddle1-noavx preinst: yes hwcaps: 0 $' \
		bash -c "{ dpkg-deb -f '$d'/libpaddle1-avx512_*.deb Conflicts | sed 's/^/Conflicts: /'
			dpkg-deb --ctrl-tarfile '$d'/libpaddle1-avx512_*.deb | tar t | grep -q preinst && echo 'preinst: yes' || echo 'preinst: no'
			echo \"hwcaps: \$(dpkg-deb -c '$d'/libpaddle1-avx512_*.deb | grep -c glibc-hwcaps)\"; } | tr '\n' ' '"
}

# The spec's errors: each names the file and line.
check_spec_errors() {
	local bad=$WORK/bad.cfg line
	spec_error() { # NAME SED PATTERN
		sed "$2" "$SPEC" >"$bad"
		check_fails "$1" 3 "$3" "$PADPACK" build -n -c "$bad"
	}
	cp "$TOP/pkg/paddle.copyright" "$WORK/"
	line=$(grep -n 'isa = "x86-64-v4";' "$SPEC" | cut -d: -f1)
	spec_error "two values of one level: an error naming file:line and the other value" \
		's/isa = "x86-64-v4";/isa = "x86-64-v3";/' \
		"$bad:$line: setting 'axes\[isa\]\.values\[v4\]\.isa': 'x86-64-v3' is also the level of value 'v3' \(line [0-9]+\)"
	spec_error "a level with extensions is no glibc-hwcaps level" \
		's/isa = "x86-64-v4";/isa = "x86-64-v3+AES";/' \
		"$bad:$line: .*'x86-64-v3\+AES' is a level with extensions"
	spec_error "a value without isa" '/isa = "x86-64-v4";/d' \
		"$bad:[0-9]+: .*value 'v4' of axis 'isa' \(pack = \"hwcaps\"\) has no isa"
	spec_error "pack must be hwcaps or packages" 's/pack = "hwcaps";/pack = "fat";/' \
		"$bad:[0-9]+: setting 'axes\[isa\]\.pack': 'fat' is not valid"
	spec_error "pack = \"hwcaps\" on the device axis: its values have no isa" \
		's/name = "device";/name = "device"; pack = "hwcaps";/' \
		"$bad:[0-9]+: .*value 'cpu' of axis 'device' \(pack = \"hwcaps\"\) has no isa"
	cat >"$bad" <<-'EOF'
	name = "tt"; version = "1.0"; maintainer = "A <a@example.org>";
	axes = ( { name = "a"; pack = "hwcaps";
		   values = ( { name = "x"; suffix = ""; isa = "x86-64"; } ); },
		 { name = "b"; pack = "hwcaps";
		   values = ( { name = "y"; suffix = ""; isa = "x86-64"; } ); } );
	EOF
	check_fails "one hwcaps axis per spec" 3 \
		"$bad:4: setting 'axes\[b\]\.pack': axis 'a' is packed as hwcaps already" \
		"$PADPACK" build -n -c "$bad"
}

build_cpu
if [ -f "$OUT/complete" ]; then
	if split_to "$D" "$B" >"$WORK/split.log" 2>&1; then
		ok "padpack split of the three CPU builds"
		check_package
		check_lintian
		check_docker
		check_docker_image
		check_flip
		if debian_root_prepare; then
			ok "a clean Debian 12 root (mmdebstrap, cached in $DEBIAN_ROOT_CACHE)"
			check_root
		else
			not_ok "a clean Debian 12 root (mmdebstrap)" "see above"
		fi
	else
		not_ok "padpack split of the three CPU builds" "$(cat "$WORK/split.log")"
	fi
	check_refusals
fi
check_spec_errors
