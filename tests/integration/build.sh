#!/bin/bash
# padpack build on the bundled Paddle core: all variants from a clean
# tree, then what each stage tree holds and does, a no-change rebuild, the
# version from a git tag with --source, and a variant that fails.
#
# The four-variant build is kept in /var/tmp/padpack-tests (see
# tests/core-cache.sh), so a second `make check` on an unchanged tree
# reuses it; a stale or missing one is rebuilt from clean.
source "$(dirname "$0")/../lib.sh"

source "$(dirname "$0")/../core-cache.sh"

stage_files() { # VARIANT: the files every stage tree must hold
	local s=$B/$1/stage
	local missing=
	for f in usr/bin/paddle usr/include/paddle/paddle.h \
		$LIBDIR/libpaddle.so.1.0.0 $LIBDIR/libpaddle.so.1 $LIBDIR/libpaddle.so \
		$LIBDIR/pkgconfig/paddle.pc $LIBDIR/cmake/Paddle/PaddleConfig.cmake \
		$LIBDIR/cmake/Paddle/PaddleConfigVersion.cmake \
		$LIBDIR/cmake/Paddle/PaddleTargets.cmake \
		usr/lib/python3/dist-packages/paddle/__init__.py \
		usr/share/doc/paddle/README.md usr/share/doc/paddle/api.md \
		usr/share/man/man1/paddle.1; do
		[ -e "$s/$f" ] || missing="$missing $f"
	done
	ls "$s"/usr/lib/python3/dist-packages/paddle/_paddle.cpython-*.so \
		>/dev/null 2>&1 || missing="$missing _paddle.cpython-*.so"
	[ -z "$missing" ] || { echo "missing:$missing"; return 1; }
}

soname_is() { # LIB SONAME
	objdump -p "$1" | awk '$1 == "SONAME" { print $2 }' | grep -qx "$2"
}

# AVX instructions: anything on ymm/zmm registers, and VEX-encoded (v...)
# instructions on xmm registers, which the SSE forms never are.
avx_count() {
	objdump -d --no-show-raw-insn "$@" |
		grep -cE '%[yz]mm[0-9]|^ +[0-9a-f]+:[[:space:]]+v[a-z0-9]+[[:space:]].*%xmm'
}

run_paddle() { # VARIANT ARGS...: the staged program with the staged library
	local v=$1; shift
	LD_LIBRARY_PATH=$B/$v/stage/$LIBDIR "$B/$v/stage/usr/bin/paddle" "$@"
}

check_stages() {
	local v s lib
	for v in $VARIANTS; do
		s=$B/$v/stage lib=$B/$v/stage/$LIBDIR/libpaddle.so.1.0.0
		check "$v: stage holds library, program, headers, pc, cmake, python, docs" \
			stage_files "$v"
		check "$v: libpaddle has SONAME libpaddle.so.1" soname_is "$lib" libpaddle.so.1
		check "$v: libpaddle.so.1 and libpaddle.so link to the real file" \
			test "$(readlink "$s/$LIBDIR/libpaddle.so.1")" = libpaddle.so.1.0.0 \
			-a "$(readlink "$s/$LIBDIR/libpaddle.so")" = libpaddle.so.1
		check "$v: only paddle_* symbols exported, version PADDLE_1" \
			bash -c "objdump -T '$lib' | awk '/ DF .text/ { print \$(NF-1), \$NF }' |
				grep -v '^PADDLE_1 paddle_' | grep -q . && exit 1; exit 0"
		check "$v: build log has every phase" grep -q '==> padpack: install:' \
			"$B/$v/build.log"
	done
}

check_cpu() {
	local v out
	for v in cpu-avx cpu-noavx; do
		out=$(run_paddle "$v" --version 2>&1)
		if printf '%s' "$out" | grep -q "^paddle 0.11.0$" &&
		   printf '%s' "$out" | grep -q "^variant: $v (device: cpu, isa: "; then
			ok "$v: paddle --version runs and names its variant"
		else
			not_ok "$v: paddle --version runs and names its variant" "$out"
		fi
		check_fails "$v: paddle computes the right product" 0 \
			'sgemm 96x96x96 on cpu .*max error 0: ok' run_paddle "$v"
		check "$v: the Python module computes from the stage" env \
			PYTHONPATH="$B/$v/stage/usr/lib/python3/dist-packages" \
			LD_LIBRARY_PATH="$B/$v/stage/$LIBDIR" /usr/bin/python3 -c "
import paddle
assert paddle.matmul([[1, 2]], [[3], [4]]) == [[11.0]]
assert paddle.build_info()['variant'] == '$v'"
	done
	check_fails "cpu-avx: names its ISA" 0 'isa: avx2\+fma' run_paddle cpu-avx --version
	check_fails "cpu-noavx: names its ISA" 0 'isa: portable' run_paddle cpu-noavx --version
}

check_isa() {
	local v n files
	for v in cpu-noavx gpu-noavx; do
		[ -d "$B/$v/stage" ] || continue
		files="$B/$v/stage/$LIBDIR/libpaddle.so.1.0.0 $B/$v/stage/usr/bin/paddle
			$(ls "$B/$v"/stage/usr/lib/python3/dist-packages/paddle/*.so)"
		# shellcheck disable=SC2086
		n=$(avx_count $files)
		if [ "$n" = 0 ]; then
			ok "$v: library, program and module have no AVX instruction"
		else
			not_ok "$v: library, program and module have no AVX instruction" \
				"$n AVX instructions (objdump -d)"
		fi
	done
	# the scan finds them where they are, so its silence above means something
	n=$(avx_count "$B/cpu-avx/stage/$LIBDIR/libpaddle.so.1.0.0")
	check "cpu-avx: the scan finds the AVX2/FMA kernel ($n instructions)" test "$n" -gt 0
}

check_gpu() {
	local v lib
	if [ -z "$NVCC" ]; then
		check "no nvcc: GPU variants skipped, saying nvcc is missing" \
			/usr/bin/python3 -c "
import json
d = json.load(open('$OUT/build.json'))
v = {x['name']: x for x in d['variants']}
for n in ('gpu-avx', 'gpu-noavx'):
    assert v[n]['status'] == 'skipped' and 'needs nvcc' in v[n]['message'], v"
		return
	fi
	for v in gpu-avx gpu-noavx; do
		lib=$B/$v/stage/$LIBDIR/libpaddle.so.1.0.0
		check "$v: libpaddle has device code (.nv_fatbin)" \
			bash -c "objdump -h '$lib' | grep -qw .nv_fatbin"
		check "$v: libpaddle needs libcudart.so.N" \
			bash -c "objdump -p '$lib' | grep -qE 'NEEDED +libcudart\\.so\\.[0-9]+$'"
	done
	check "cpu-avx: libpaddle has no device code and no libcudart" bash -c "
		! objdump -h '$B/cpu-avx/stage/$LIBDIR/libpaddle.so.1.0.0' | grep -q nv_fatbin &&
		! objdump -p '$B/cpu-avx/stage/$LIBDIR/libpaddle.so.1.0.0' | grep -q libcudart"
}

# Consumers build against the stage through pkg-config and CMake.
check_consumers() {
	local s=$B/cpu-noavx/stage c=$WORK/consumer
	mkdir -p "$c"
	cat >"$c/use.c" <<-'EOF'
	#include <paddle/paddle.h>
	#include <stdio.h>
	int main(void) { float a = 2, b = 3, c = 0;
		int st = paddle_sgemm(PADDLE_DEVICE_CPU, 1, 1, 1, &a, &b, &c);
		printf("%s %g\n", paddle_variant(), c); return st; }
	EOF
	check_fails "pkg-config file builds a program against the stage" 0 \
		'^cpu-noavx 6$' bash -c "
		flags=\$(PKG_CONFIG_SYSROOT_DIR='$s' \
			PKG_CONFIG_PATH='$s/$LIBDIR/pkgconfig' pkg-config --cflags --libs paddle) &&
		cc -o '$c/use' '$c/use.c' \$flags && LD_LIBRARY_PATH='$s/$LIBDIR' '$c/use'"
	cat >"$c/CMakeLists.txt" <<-'EOF'
	cmake_minimum_required(VERSION 3.18)
	project(use C)
	find_package(Paddle 0.11 REQUIRED)
	add_executable(use use.c)
	target_link_libraries(use Paddle::paddle)
	EOF
	check_fails "CMake package finds Paddle::paddle in the stage" 0 '^cpu-noavx 6$' \
		bash -c "cmake -S '$c' -B '$c/b' -DCMAKE_PREFIX_PATH='$s/usr' >'$c/log' 2>&1 &&
		cmake --build '$c/b' >>'$c/log' 2>&1 && LD_LIBRARY_PATH='$s/$LIBDIR' '$c/b/use' ||
		{ cat '$c/log'; exit 1; }"
}

# A second run with nothing changed configures nothing, compiles nothing.
check_rebuild() {
	local t0 t1 out rc
	t0=$(date +%s.%N)
	out=$(cd "$TOP" && "$PADPACK" build -c "$CORE_SPEC" -j2 -B "$B" 2>&1)
	rc=$?
	t1=$(date +%s.%N)
	if [ "$rc" = 0 ] && ! grep -qE ' -c [^ ]+\.(c|cc|cpp|cxx|cu)( |$)' "$B"/*/build.log &&
	   [ "$(grep -c 'configure (up to date, skipped)' "$B"/*/build.log |
		grep -c ':1$')" = "$(echo $VARIANTS | wc -w)" ]; then
		ok "no-change rebuild compiles nothing ($(printf "%.1f" "$(echo "$t1 - $t0" | bc)") s)"
	else
		not_ok "no-change rebuild compiles nothing" "$out"
	fi
	check "no-change rebuild still ran the tests" grep -q '100% tests passed' \
		"$B/cpu-avx/build.log"
}

check_json() {
	check "--json reports the variants done, with stage and log" \
		/usr/bin/python3 -c "
import json, sys
d = json.load(open('$OUT/build.json'))
v = {x['name']: x for x in d['variants']}
assert sorted(v) == ['cpu-avx', 'cpu-noavx', 'gpu-avx', 'gpu-noavx'], v
assert all(v[n]['status'] == 'done' and v[n]['stage'] and v[n]['log']
           for n in '$VARIANTS'.split()), v
assert d['version'] == '0.11.0' and d['version_from'] == 'spec', d
assert [s['phase'] for s in v['cpu-avx']['steps']] == ['configure', 'build', 'test', 'install']"
}

# --source: another tree (as a real Paddle checkout would be) with the
# same spec; with no version in the spec, the nearest vX.Y.Z tag names it.
check_source() {
	local src=$WORK/checkout spec=$WORK/noversion.cfg
	cp -r "$TOP/pkg/paddle" "$src"
	git -C "$src" init -q && git -C "$src" add . &&
	git -C "$src" -c user.name=t -c user.email=t@t commit -qm import &&
	git -C "$src" tag v9.8.7 && git -C "$src" commit -q --allow-empty \
		-m later -c user.name=t -c user.email=t@t 2>/dev/null
	sed '/^version = /d' "$CORE_SPEC" >"$spec"
	check_fails "--source builds another tree; version from its git tag" 0 \
		'version from git tag' "$PADPACK" build -c "$spec" --source "$src" \
		-B "$WORK/b" --variant cpu-noavx --no-test
	check_fails "the program built from the tag says 9.8.7" 0 '^paddle 9\.8\.7$' \
		env LD_LIBRARY_PATH="$WORK/b/cpu-noavx/stage/$LIBDIR" \
		"$WORK/b/cpu-noavx/stage/usr/bin/paddle" --version
	check_fails "PADDLE_VERSION overrides the tag" 0 '-DPADDLE_VERSION=9\.9\.9 ' \
		env PADDLE_VERSION=9.9.9 "$PADPACK" build -n -c "$spec" \
		--source "$src" -B "$WORK/b" --variant cpu-noavx
	check_fails "a PADDLE_VERSION that is not a version is an error" 3 \
		"PADDLE_VERSION='9.x' is not a version" env PADDLE_VERSION=9.x \
		"$PADPACK" build -n -c "$spec" --source "$src" --variant cpu-noavx
}

# One variant fails to compile: it is reported with the end of its log and
# the command that reproduces it; the other finishes; exit status 5.
check_failure() {
	local src=$WORK/broken out rc cmd
	cp -r "$TOP/pkg/paddle" "$src"
	sed -i 's/crow\[j\] = 0.0f;/crow[j] = 0.0f +;/' "$src/src/gemm_portable.c"
	out=$("$PADPACK" build -c "$CORE_SPEC" --source "$src" \
		-B "$WORK/bb" --variant 'cpu-*' --no-test 2>&1)
	rc=$?
	if [ "$rc" = 5 ] &&
	   printf '%s' "$out" | grep -q 'variant cpu-noavx: build failed (exit status 1)' &&
	   printf '%s' "$out" | grep -q 'last lines of .*bb/cpu-noavx/build.log' &&
	   printf '%s' "$out" | grep -q "gemm_portable.c:[0-9]*:[0-9]*: error" &&
	   printf '%s' "$out" | grep -q '1 of 2 variants failed: cpu-noavx'; then
		ok "a failing variant: exit 5, end of its log, what failed"
	else
		not_ok "a failing variant: exit 5, end of its log, what failed" \
			"exit $rc" "$out"
	fi
	check "the other variant finished" test -x "$WORK/bb/cpu-avx/stage/usr/bin/paddle"
	cmd=$(printf '%s\n' "$out" | grep -A1 '^  to reproduce:' | tail -n 1)
	check_fails "the reproduce command fails the same way" 1 \
		"gemm_portable.c:[0-9]*:[0-9]*: error" bash -c "cd / && $cmd"
}

# The bundled default (pkg/paddle.cfg, what -c defaults to) is the
# glibc-hwcaps form: per device the three x86-64 levels, no -noavx
# variant. Its builds are the hwcaps suite's (their cache is its).
check_default_spec() {
	check_fails "the default spec builds the CPU levels of its glibc-hwcaps form" 0 \
		"^# cpu-base # cpu-v3 # cpu-v4 (# gpu-base # gpu-v3 # gpu-v4 )?\$" \
		bash -c "cd '$TOP' && '$PADPACK' build -n 2>&1 | grep '^# ' | tr '\n' ' '"
	check_fails "the separate form is pkg/paddle-separate.cfg" 0 \
		"^# cpu-avx # cpu-noavx (# gpu-avx # gpu-noavx )?\$" \
		bash -c "cd '$TOP' && '$PADPACK' build -n -c '$CORE_SPEC' 2>&1 | grep '^# ' | tr '\n' ' '"
}

check_default_spec
build_all
if [ -f "$OUT/complete" ]; then
	check_stages
	check_cpu
	check_isa
	check_gpu
	check_consumers
	check_json
	check_rebuild
fi
check_source
check_failure
