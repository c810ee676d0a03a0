# Helpers for the suites, bench and demo that build images (sourced, bash):
# a Docker engine from Debian's docker.io started by hand, a minimal Debian
# root made by mmdebstrap and imported under the exact name a FROM uses,
# and the Dockerfile linters installed by scripts/install-deps.sh.
#
# Caches, all under /var/tmp/padpack-docker and rebuilt when their key
# changes, never needed: base-KEY.tar (the root; KEY hashes the recipe
# below and mmdebstrap's version) and data/ (the engine's images and
# layer cache; keyed by the engine's version). A lock keeps two users of
# the data-root apart.

DOCKER=/usr/bin/docker   # Debian's client; /usr/local/bin/docker lacks buildx
DOCKER_CACHE=${PADPACK_DOCKER_CACHE:-/var/tmp/padpack-docker}
LINT_DIR=${PADPACK_LINT_DIR:-/var/tmp/padpack-lint}
BASE_SUITE=bookworm
# The spec of the docker suites (relative to the checkout): the
# separate-package form, whose variant and tag names (cpu-avx, -noavx)
# they check; the default's (glibc-hwcaps) image is the hwcaps suite's.
CORE_SPEC=pkg/paddle-separate.cfg

# The recipe of the slim root, as the official debian:bookworm-slim is
# made: merged /usr, no documentation or locales, apt tuned for images.
BASE_SLIM_OPTS=(--variant=minbase --format=tar
	--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr
	--hook-dir=/usr/share/mmdebstrap/hooks/eatmydata
	--dpkgopt='path-exclude=/usr/share/man/*'
	--dpkgopt='path-exclude=/usr/share/locale/*'
	--dpkgopt='path-include=/usr/share/locale/locale.alias'
	--dpkgopt='path-exclude=/usr/share/doc/*'
	--dpkgopt='path-include=/usr/share/doc/*/copyright'
	--dpkgopt='path-exclude=/usr/share/info/*')
BASE_HOOK='set -e; r=$1
printf "%s\n" "DPkg::Post-Invoke { \"rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true\"; };" \
  "APT::Update::Post-Invoke { \"rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true\"; };" \
  "Dir::Cache::pkgcache \"\";" "Dir::Cache::srcpkgcache \"\";" >"$r/etc/apt/apt.conf.d/docker-clean"
echo "Acquire::Languages \"none\";" >"$r/etc/apt/apt.conf.d/docker-no-languages"
echo "Acquire::GzipIndexes \"true\";" >"$r/etc/apt/apt.conf.d/docker-gzip-indexes"
echo "Apt::AutoRemove::SuggestsImportant \"false\";" >"$r/etc/apt/apt.conf.d/docker-autoremove-suggests"
echo force-unsafe-io >"$r/etc/dpkg/dpkg.cfg.d/docker-apt-speedup"
printf "#!/bin/sh\nexit 101\n" >"$r/usr/sbin/policy-rc.d"; chmod 755 "$r/usr/sbin/policy-rc.d"
rm -f "$r/etc/apt/sources.list" "$r"/var/cache/apt/*.bin "$r"/var/log/*.log "$r"/var/log/apt/*
printf "%s\n" "Types: deb" "URIs: http://deb.debian.org/debian" "Suites: bookworm bookworm-updates" \
  "Components: main" "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" "" \
  "Types: deb" "URIs: http://deb.debian.org/debian-security" "Suites: bookworm-security" \
  "Components: main" "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" \
  >"$r/etc/apt/sources.list.d/debian.sources"'

base_key() {
	{ printf '%s\n' "${BASE_SLIM_OPTS[@]}" "$BASE_HOOK" "$BASE_SUITE"
	  dpkg-query -W -f='${Version}\n' mmdebstrap; } | sha256sum | cut -c1-16
}

# base_tar: prints the path of the cached slim root, making it if needed
# (17-50 s here).
base_tar() {
	local tar tmp
	tar=$DOCKER_CACHE/base-$(base_key).tar
	if [ ! -s "$tar" ]; then
		mkdir -p "$DOCKER_CACHE"
		rm -f "$DOCKER_CACHE"/base-*.tar
		tmp=$(mktemp "$DOCKER_CACHE/tmp-base.XXXXXX.tar")
		mmdebstrap --quiet "${BASE_SLIM_OPTS[@]}" \
			--customize-hook="$BASE_HOOK" "$BASE_SUITE" "$tmp" \
			>"$DOCKER_CACHE/mmdebstrap.log" 2>&1 ||
			{ tail -n 20 "$DOCKER_CACHE/mmdebstrap.log" >&2; rm -f "$tmp"; return 1; }
		mv "$tmp" "$tar"
	fi
	printf '%s\n' "$tar"
}

# start_engine: dockerd with its own data-root, exec-root and socket, the
# locks taken; exports DOCKER_HOST. Prints why and fails when it cannot.
start_engine() {
	local data i
	[ -x /usr/sbin/dockerd ] && [ -x "$DOCKER" ] ||
		{ echo "docker.io is not installed (scripts/install-deps.sh installs it)"; return 1; }
	data=$DOCKER_CACHE/data-$(dpkg-query -W -f='${Version}' docker.io | tr -c 'A-Za-z0-9.\n' _)
	mkdir -p "$DOCKER_CACHE"
	exec 8>"$DOCKER_CACHE/lock"
	flock 8
	# an engine of another version leaves a data-root of no use
	for i in "$DOCKER_CACHE"/data-*; do [ "$i" = "$data" ] || rm -rf "$i"; done
	ENGINE_RUN=$(mktemp -d /tmp/dk.XXXXXX) # a unix socket path is short
	ENGINE_LOG=$DOCKER_CACHE/dockerd.log
	/usr/sbin/dockerd --data-root "$data" --exec-root "$ENGINE_RUN/x" \
		--pidfile "$ENGINE_RUN/pid" -H "unix://$ENGINE_RUN/sock" \
		>"$ENGINE_LOG" 2>&1 8>&- &
	ENGINE_PID=$!
	export DOCKER_HOST=unix://$ENGINE_RUN/sock DOCKER_BUILDKIT=1
	for i in $(seq 1 120); do
		"$DOCKER" info >/dev/null 2>&1 && return 0
		kill -0 "$ENGINE_PID" 2>/dev/null || break
		sleep 0.5
	done
	echo "dockerd did not start; the end of $ENGINE_LOG:"
	tail -n 15 "$ENGINE_LOG"
	stop_engine
	return 1
}

stop_engine() {
	[ -n "${ENGINE_PID:-}" ] || return 0
	kill "$ENGINE_PID" 2>/dev/null
	wait "$ENGINE_PID" 2>/dev/null
	rm -rf "$ENGINE_RUN"
	ENGINE_PID=
	exec 8>&-
}

# import_base NAME TAR [KEY]: the root as image NAME (exactly the FROM
# name), unless the image there was imported from the same KEY already;
# keeping the image keeps the layer cache of everything built on it.
import_base() {
	local name=$1 tar=$2 key=${3:-$(basename "$2" .tar)} have
	have=$("$DOCKER" image inspect -f '{{index .Config.Labels "padpack.base"}}' \
		"$name" 2>/dev/null || true)
	[ "$have" = "$key" ] && return 0
	"$DOCKER" import --change 'CMD ["bash"]' \
		--change "LABEL padpack.base=$key" "$tar" "$name" >/dev/null
}

# lint_dockerfile FILE: no finding from dockerfilelint nor from
# dockerfile-utils (which exits 0 on warnings, so any output fails).
lint_dockerfile() {
	local out
	out=$("$LINT_DIR/node_modules/.bin/dockerfilelint" "$1" 2>&1) ||
		{ printf '%s\n' "dockerfilelint:" "$out"; return 1; }
	out=$("$LINT_DIR/node_modules/.bin/dockerfile-utils" lint "$1" 2>&1)
	[ $? = 0 ] && [ -z "$out" ] ||
		{ printf '%s\n' "dockerfile-utils lint:" "$out"; return 1; }
}

# core_stages: prints the build directory holding the stage trees of the
# bundled core's cpu-avx, cpu-noavx and (where nvcc is) gpu-avx variants,
# built once (--no-test) into $DOCKER_CACHE/stages-KEY, KEY a hash of what
# they depend on. The build suite's cache is not used: another checkout
# running make check may replace it at any time.
core_stages() {
	local key dir nvcc variants=(--variant cpu-avx --variant cpu-noavx)
	nvcc=$(command -v nvcc || ls /usr/local/cuda/bin/nvcc 2>/dev/null || true)
	[ -n "$nvcc" ] && variants+=(--variant gpu-avx)
	key=$( { (cd "$TOP" && find pkg/paddle "$CORE_SPEC" src/lib/build*.c \
			src/lib/spec*.c src/lib/variant.c src/lib/proc.c -type f |
			sort | xargs sha256sum)
		cc --version; cmake --version; [ -n "$nvcc" ] && "$nvcc" --version
		echo "${variants[*]}"; } 2>&1 | sha256sum | cut -c1-16)
	dir=$DOCKER_CACHE/stages-$key
	mkdir -p "$DOCKER_CACHE"
	(
		flock 7
		[ -f "$dir/complete" ] && exit 0
		rm -rf "$DOCKER_CACHE"/stages-*
		(cd "$TOP" && "$PADPACK" build -c "$CORE_SPEC" -q -j2 --no-test -B "$dir" \
			"${variants[@]}") >&2 && touch "$dir/complete"
	) 7>"$DOCKER_CACHE/stages.lock" || return 1
	printf '%s\n' "$dir"
}

# runtime_debs STAGES BUILD VARIANT...: padpack split of the variants'
# stage trees (copied into BUILD first) into BUILD/debs.
runtime_debs() {
	local stages=$1 b=$2 v
	shift 2
	mkdir -p "$b"
	for v in "$@"; do cp -a "$stages/$v" "$b/" || return 1; done
	(cd "$TOP" && "$PADPACK" split -c "$CORE_SPEC" -q -B "$b")
}

have_gpu_standin() {
	[ -e /usr/local/cuda/lib64/libcudart.so.13 ]
}

# gpu_standin DIR NAME: builds image NAME (the GPU FROM, a CUDA runtime
# base) as a stand-in: the slim Debian root plus this machine's libcudart
# as the cuda-cudart-13-0 package NVIDIA's base has.
gpu_standin() {
	local d=$1 name=$2
	rm -rf "$d" && mkdir -p "$d/pkg/DEBIAN" "$d/pkg/usr/local/cuda/lib64" \
		"$d/pkg/etc/ld.so.conf.d" "$d/ctx"
	cp -a /usr/local/cuda/lib64/libcudart.so.13* "$d/pkg/usr/local/cuda/lib64/" || return 1
	echo /usr/local/cuda/lib64 >"$d/pkg/etc/ld.so.conf.d/cuda.conf"
	printf '%s\n' "Package: cuda-cudart-13-0" "Version: 13.0.0-1" "Architecture: amd64" \
		"Maintainer: padpack tests <tests@example.org>" \
		"Description: stand-in: the CUDA runtime library of the build machine" \
		" For padpack's docker tests." >"$d/pkg/DEBIAN/control"
	printf '%s\n' '#!/bin/sh' 'ldconfig' >"$d/pkg/DEBIAN/postinst"
	chmod 755 "$d/pkg/DEBIAN/postinst"
	"$PADPACK" pack "$d/pkg" "$d/ctx/cudart.deb" >/dev/null || return 1
	printf '%s\n' "FROM debian:bookworm-slim" \
		"RUN --mount=type=bind,source=.,target=/ctx apt-get update && apt-get install -y --no-install-recommends /ctx/cudart.deb && rm -rf /var/lib/apt/lists/*" \
		"ENV NVIDIA_VISIBLE_DEVICES=all" >"$d/ctx/Dockerfile"
	"$DOCKER" build -q -t "$name" "$d/ctx" >"$d/build.log" 2>&1 ||
		{ cat "$d/build.log"; return 1; }
}
