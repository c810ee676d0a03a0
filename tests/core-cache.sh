# The bundled Paddle core built in every variant, shared by the suites that
# need it (build, split): kept in /var/tmp/padpack-tests, keyed by a hash
# of everything it depends on (the core, the spec, padpack's build code,
# the compilers), so a second `make check` on an unchanged tree reuses it;
# a stale or missing one is rebuilt from clean. PADPACK_TEST_NO_CACHE=1
# always rebuilds. A lock keeps two runs from sharing it at once.
# Sourced after tests/lib.sh; sets LIBDIR, NVCC, VARIANTS, CORE_SPEC, OUT,
# B and defines build_all.
LIBDIR=usr/lib/x86_64-linux-gnu
# The separate-package form (cpu-avx, cpu-noavx ...), which these suites'
# expectations are written against; the default pkg/paddle.cfg (its
# glibc-hwcaps form) is the hwcaps suite's.
CORE_SPEC=$TOP/pkg/paddle-separate.cfg
# nvcc where the spec looks for it; without it the GPU variants are skipped.
NVCC=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || true)
if [ -n "$NVCC" ]; then
	VARIANTS="cpu-avx cpu-noavx gpu-avx gpu-noavx"
else
	VARIANTS="cpu-avx cpu-noavx"
fi

cache_key() {
	{
		# the core's files only (pkg/paddle*): an edit to another spec
		# in pkg/ (openblas.cfg) does not rebuild the core
		(cd "$TOP" && { find pkg -path 'pkg/paddle*' -type f
			find src/lib/build*.c src/lib/spec*.c src/cmd/build* \
				src/lib/variant.c src/lib/proc.c -type f; } | sort |
			xargs sha256sum)
		cc --version; c++ --version; cmake --version
		[ -n "$NVCC" ] && "$NVCC" --version
		command -v ccache ninja
		# CMake's build trees hold the source path, and ninja compares
		# the sources' mtimes: a checkout elsewhere, or the same content
		# checked out again, would rebuild everything on the no-change
		# rebuild.
		echo "$TOP"
		(cd "$TOP" && find pkg -path 'pkg/paddle*' -type f -printf '%T@ %p\n' | sort)
	} 2>&1 | sha256sum | cut -c1-16
}

CACHE_ROOT=/var/tmp/padpack-tests
KEY=$(cache_key)
OUT=$CACHE_ROOT/core-$KEY
B=$OUT/build
# One suite at a time uses the cache (another checkout may run make check).
mkdir -p "$CACHE_ROOT"
exec 9>"$CACHE_ROOT/lock"
flock 9

# build_all: the four variants from a clean tree into $B (or the cache).
build_all() {
	local rc
	if [ -z "${PADPACK_TEST_NO_CACHE:-}" ] && [ -f "$OUT/complete" ]; then
		ok "all variants built from clean (cached in $OUT)"
		return
	fi
	# only this checkout's stale builds: others' are keyed by their own TOP
	grep -lxF "$TOP" "$CACHE_ROOT"/core-*/top 2>/dev/null |
		while read -r t; do rm -rf "$(dirname "$t")"; done
	rm -rf "$OUT" && mkdir -p "$OUT" && echo "$TOP" >"$OUT/top"
	(cd "$TOP" && "$PADPACK" build -c "$CORE_SPEC" -j2 -B "$B" --json) >"$OUT/build.json" \
		2>"$OUT/build.err"
	rc=$?
	if [ "$rc" = 0 ]; then
		touch "$OUT/complete"
		ok "all variants built from clean with -j2 ($VARIANTS)"
	else
		not_ok "all variants built from clean with -j2" "exit $rc" \
			"$(tail -n 30 "$OUT/build.err")"
	fi
}

