#!/bin/bash
# padpack docker for real: Debian's Docker engine started by hand, a
# minimal Debian root (mmdebstrap) imported under the exact names the CPU
# FROMs use, then
# - the production image of each CPU variant, built from .debs of the
#   bundled core, run: paddle --version names the variant, paddle computes
#   the right product, as a user other than root, with no compiler; its
#   packages installed in dpkg's database (the default, records dpkg),
#   where dpkg-query lists them; cpu-avx also with --records status.d,
#   the packages recorded in /var/lib/dpkg/status.d (stanza and md5sums,
#   which match the files in the image), not in dpkg's database, with
#   what apt pulls in from the archive;
# - the GPU production image on a stand-in base (that root plus the CUDA
#   runtime library of this machine, as a cuda-cudart package): it builds,
#   and paddle --version runs where no GPU is;
# - a production image installed from padpack's signed apt repository,
#   served over HTTP on 127.0.0.1, through its Signed-By key;
# - an app image on a production image;
# - the development image: its tools, SSH keys only, and its default
#   command building the core mounted at /paddle, leaving the binaries,
#   the .debs and the production Dockerfiles on the host; padpack build
#   --in-image with it.
# Where the engine cannot start, this suite fails, saying why.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../lib-docker.sh"
cd "$TOP" || exit 1
T0=$(date +%s)
HTTP_PID=
cleanup() {
	[ -n "$HTTP_PID" ] && kill "$HTTP_PID" 2>/dev/null
	stop_engine
	rm -rf "$WORK"
}
trap cleanup EXIT

if start_engine >"$WORK/engine.out" 2>&1; then
	ok "the Docker engine starts ($("$DOCKER" version -f '{{.Server.Version}}'))"
else
	not_ok "the Docker engine starts" "$(cat "$WORK/engine.out")"
	exit 1
fi

# docker_ok NAME CMD...: like check, with the end of the output on failure.
docker_ok() {
	local name=$1 out; shift
	if out=$("$@" 2>&1); then ok "$name"; else
		not_ok "$name" "command failed: $*" "$(printf '%s' "$out" | tail -n 25)"
		return 1
	fi
}
# out_has NAME PATTERN CMD...: CMD succeeds and prints a line matching.
out_has() {
	check_fails "$1" 0 "$2" "${@:3}"
}

tar=$(base_tar) && ok "a minimal Debian root (mmdebstrap, cached)" ||
	{ not_ok "a minimal Debian root (mmdebstrap)"; exit 1; }
if import_base debian:bookworm-slim "$tar" && import_base debian:bookworm "$tar"; then
	ok "the root imported as debian:bookworm-slim and debian:bookworm"
else
	not_ok "the root imported as debian:bookworm-slim and debian:bookworm"
fi

# The packages: padpack split of the core's stage trees.
B=$WORK/build
stages=$(core_stages) || { not_ok "the core's stage trees"; exit 1; }
variants="cpu-avx cpu-noavx"
[ -d "$stages/gpu-avx" ] && variants="$variants gpu-avx"
# shellcheck disable=SC2086
docker_ok "padpack split of the core" runtime_debs "$stages" "$B" $variants
REV=$(git -C "$TOP" rev-parse HEAD)

build_image() { # NAME CONTEXT TAG [OPTIONS...]
	docker_ok "$1: docker build" "$DOCKER" build -t "$3" "${@:4}" "$2"
}

check_prod() { # VARIANT TAG [NAME]
	local v=$1 tag=$2 n=${3:-$1} img
	out_has "$n: paddle --version names the variant" "^variant: $v \(" \
		"$DOCKER" run --rm "$tag" --version
	out_has "$n: paddle computes the right product" \
		'sgemm 96x96x96 on cpu .*max error 0: ok' "$DOCKER" run --rm "$tag"
	out_has "$n: runs as a user other than root" '^uid=1001\(paddle\) gid=1001\(paddle\)' \
		"$DOCKER" run --rm --entrypoint id "$tag"
	check_fails "$n: no compiler, no -dev package, no .deb, no apt list left" 0 '^$' \
		"$DOCKER" run --rm --user 0 --entrypoint sh "$tag" -c \
		'command -v gcc cc c++ clang; dpkg-query -W -f "\${Package}\n" | grep -- "-dev$";
		 ls /var/lib/dpkg/status.d 2>/dev/null | grep -- "-dev$";
		 find / -xdev -name "*.deb"; ls -A /mnt; ls /var/lib/apt/lists | grep -v "^lock$\|^partial$"; true'
	img=$("$DOCKER" image inspect -f '{{json .Config.Labels}}' "$tag")
	check "$n: OCI labels: version, variant, revision, source" bash -c "
		grep -q '\"org.opencontainers.image.version\":\"0.11.0\"' <<<'$img' &&
		grep -q '\"org.paddlepaddle.variant\":\"$v\"' <<<'$img' &&
		grep -q '\"org.opencontainers.image.revision\":\"$REV\"' <<<'$img' &&
		grep -q '\"org.opencontainers.image.source\":\"https://github.com/PaddlePaddle/Paddle\"' <<<'$img'"
}

# dpkg (the default): the packages installed, known to dpkg; no status.d.
check_dpkg() { # VARIANT TAG SUFFIX
	local v=$1 tag=$2 s=$3
	out_has "$v: dpkg: dpkg-query -W lists the packages, installed" \
		"^libpaddle1$s 0.11.0-1 install ok installed\$" "$DOCKER" run --rm \
		--entrypoint dpkg-query "$tag" -W -f '${Package} ${Version} ${Status}\n' \
		"libpaddle1$s" "paddle$s"
	check_fails "$v: dpkg: no status.d" 0 '^none$' "$DOCKER" run --rm \
		--entrypoint sh "$tag" -c 'ls /var/lib/dpkg/status.d 2>/dev/null || echo none'
}

# status.d (--records status.d): the packages' records as distroless has
# them, matching the files, and unknown to dpkg.
check_status_d() { # VARIANT TAG SUFFIX
	local v=$1 tag=$2 s=$3 p
	for p in "libpaddle1$s" "paddle$s"; do
		out_has "$v: status.d: $p's stanza and md5sums" "^Package: $p\$" \
			"$DOCKER" run --rm --entrypoint sh "$tag" -c \
			"test -s /var/lib/dpkg/status.d/$p.md5sums && cat /var/lib/dpkg/status.d/$p"
	done
	out_has "$v: status.d: md5sum -c of every package's md5sums in the image" \
		'^usr/bin/paddle: OK$' "$DOCKER" run --rm --entrypoint sh "$tag" -c \
		'cd / && md5sum -c --strict /var/lib/dpkg/status.d/*.md5sums'
	check_fails "$v: status.d: dpkg's own database does not list them" 0 '^$' \
		"$DOCKER" run --rm --entrypoint sh "$tag" -c \
		"dpkg-query -W 'libpaddle1*' 'paddle*' 2>/dev/null; true"
}

docker_ok "padpack docker prod writes the CPU variants" \
	"$PADPACK" docker prod -c "$CORE_SPEC" -q -B "$B" --variant 'cpu-*'
for v in cpu-avx cpu-noavx; do
	case $v in
	cpu-avx) tag=docker.io/paddlepaddle/paddle:0.11.0 s= ;;
	cpu-noavx) tag=docker.io/paddlepaddle/paddle:0.11.0-noavx s=-noavx ;;
	esac
	build_image "$v" "$B/$v/image" "$tag" && check_prod "$v" "$tag" &&
		check_dpkg "$v" "$tag" "$s"
done

# --records status.d: a build stage, the files and status.d records.
docker_ok "cpu-avx --records status.d: written" "$PADPACK" docker prod -c "$CORE_SPEC" -q -B "$B" \
	--variant cpu-avx --records status.d -o "$WORK/statusd-image"
if build_image "cpu-avx --records status.d" "$WORK/statusd-image" paddle-statusd:test; then
	check_prod cpu-avx paddle-statusd:test "cpu-avx --records status.d"
	check_status_d "cpu-avx --records status.d" paddle-statusd:test ""
fi

# status.d with a package apt pulls from the base's archive (libgomp1,
# not in the minimal root) and one that ships a file in /lib, which the
# merged-/usr base makes a link to usr/lib: both are staged, the file
# under usr/lib, /lib stays a link.
extra_deb() { # DIR: padpack-extra, Depends: libgomp1, a file in /lib/...
	local t=$WORK/tree-extra
	mkdir -p "$t/DEBIAN" "$t/lib/x86_64-linux-gnu" "$1"
	echo "padpack test" >"$t/lib/x86_64-linux-gnu/padpack-extra.txt"
	printf '%s\n' "Package: padpack-extra" "Version: 1.0-1" "Architecture: amd64" \
		"Maintainer: padpack tests <t@example.org>" "Depends: libgomp1" \
		"Description: padpack test package" " For padpack's docker tests." \
		>"$t/DEBIAN/control"
	"$PADPACK" pack "$t" "$1" >/dev/null && cp "$B"/debs/*.deb "$1/" &&
	mkdir -p "$WORK/spec-extra" && cp "$CORE_SPEC" "$WORK/spec-extra/paddle.cfg" && cp -r pkg/paddle "$WORK/spec-extra/" &&
	sed -i 's|^\(\truntime = \[ "lib@name@1", "@name@"\) \];|\1, "padpack-extra" ];|' \
		"$WORK/spec-extra/paddle.cfg" &&
	grep -q '"padpack-extra" \];' "$WORK/spec-extra/paddle.cfg"
}
docker_ok "status.d, a dependency from the archive: written" bash -c \
	"$(declare -f extra_deb); WORK='$WORK' B='$B' PADPACK='$PADPACK' CORE_SPEC='$CORE_SPEC' extra_deb '$WORK/debs-extra' &&
	'$PADPACK' docker prod -q -c '$WORK/spec-extra/paddle.cfg' -B '$B' --variant cpu-avx \
		--debs '$WORK/debs-extra' -o '$WORK/extra-image' --revision '$REV' \
		--records status.d"
if build_image "status.d, a dependency from the archive" "$WORK/extra-image" paddle-extra:test; then
	out_has "status.d: the archive's libgomp1 and padpack-extra recorded, md5sums right" \
		'^usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0: OK$' "$DOCKER" run --rm \
		--entrypoint sh paddle-extra:test -c 'cd / &&
		test -s /var/lib/dpkg/status.d/libgomp1 && test -s /var/lib/dpkg/status.d/padpack-extra &&
		md5sum -c --strict /var/lib/dpkg/status.d/libgomp1.md5sums \
			/var/lib/dpkg/status.d/padpack-extra.md5sums'
	out_has "status.d: a file of /lib lands in usr/lib, /lib stays a link" '^ok$' \
		"$DOCKER" run --rm --entrypoint sh paddle-extra:test -c \
		'test -L /lib && test "$(cat /usr/lib/x86_64-linux-gnu/padpack-extra.txt)" = "padpack test" && echo ok'
	out_has "status.d: paddle runs beside them" '^variant: cpu-avx \(' \
		"$DOCKER" run --rm paddle-extra:test --version
fi

# The GPU image on a stand-in for the CUDA runtime base: the Debian root
# plus this machine's libcudart as the cuda-cudart package NVIDIA's base
# has, under the exact name the GPU FROM uses.
if ! have_gpu_standin || [ ! -d "$stages/gpu-avx" ]; then
	ok "gpu-avx: image # SKIP no CUDA toolkit on this machine"
else
	docker_ok "padpack docker prod writes gpu-avx" \
		"$PADPACK" docker prod -c "$CORE_SPEC" -q -B "$B" --variant gpu-avx
	gpu_base=$(sed -n 's/^FROM \([^ ]*\).*/\1/p' "$B/gpu-avx/image/Dockerfile" | head -n 1)
	docker_ok "a stand-in $gpu_base: Debian and this machine's libcudart" \
		gpu_standin "$WORK/standin" "$gpu_base"
	tag=docker.io/paddlepaddle/paddle:0.11.0-gpu
	if build_image gpu-avx "$B/gpu-avx/image" "$tag"; then
		out_has "gpu-avx: paddle --version runs where no GPU is" \
			'^variant: gpu-avx \(device: gpu' "$DOCKER" run --rm "$tag" --version
		check_fails "gpu-avx: paddle says there is no GPU" 3 'no such device' \
			"$DOCKER" run --rm "$tag"
		check_dpkg gpu-avx "$tag" -gpu
	fi
fi

# From padpack's signed apt repository, over HTTP on 127.0.0.1 (the build
# on the host's network), through its Signed-By key.
port=$((20000 + $$ % 10000))
repo=$WORK/repo
if "$PADPACK" key generate --uid "padpack tests <t@example.org>" --out "$WORK/key" >/dev/null &&
   "$PADPACK" repo init "$repo" --origin "Paddle" --key "$WORK/key/secret.pem" \
	--uri "http://127.0.0.1:$port/" >/dev/null &&
   "$PADPACK" repo add "$repo" "$B"/debs/*.deb >/dev/null &&
   "$PADPACK" repo publish "$repo" >/dev/null; then
	ok "a signed repository of the packages"
else
	not_ok "a signed repository of the packages"
fi
python3 -m http.server --bind 127.0.0.1 --directory "$repo" "$port" >/dev/null 2>&1 &
HTTP_PID=$!
for _ in $(seq 1 100); do # until it listens
	(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
	sleep 0.1
done
docker_ok "prod from the repository: written" "$PADPACK" docker prod -c "$CORE_SPEC" -q -B "$B" \
	--variant cpu-noavx --apt-sources "$repo/stable.sources" -o "$WORK/repo-image"
if build_image "cpu-noavx from the repository" "$WORK/repo-image" paddle-repo:test --network host; then
	out_has "cpu-noavx from the repository: paddle --version" '^variant: cpu-noavx \(' \
		"$DOCKER" run --rm paddle-repo:test --version
	out_has "cpu-noavx from the repository: its source has Signed-By" \
		'^Signed-By: /usr/share/keyrings/paddle-archive-keyring.gpg$' \
		"$DOCKER" run --rm --entrypoint cat paddle-repo:test /etc/apt/sources.list.d/paddle.sources
	check_fails "cpu-noavx from the repository: its key is there" 0 '' "$DOCKER" run --rm \
		--entrypoint test paddle-repo:test -s /usr/share/keyrings/paddle-archive-keyring.gpg
	check_dpkg "cpu-noavx from the repository" paddle-repo:test -noavx
fi
kill "$HTTP_PID" 2>/dev/null
HTTP_PID=

# An application on the cpu-avx production image.
mkdir -p "$WORK/app"
printf '%s\n' 'import os, subprocess' \
	'print(os.environ["GREETING"], "from the app, as uid", os.getuid())' \
	'print(subprocess.run(["paddle", "--version"], capture_output=True, text=True).stdout)' \
	>"$WORK/app/hello.py"
docker_ok "app: written" "$PADPACK" docker app -c "$CORE_SPEC" -q --from docker.io/paddlepaddle/paddle:0.11.0 \
	--name hello --apt python3-minimal --copy "$WORK/app:/app" --expose 8888 \
	--env GREETING=hello -o "$WORK/app-image" -- python3 /app/hello.py
if build_image app "$WORK/app-image" docker.io/paddlepaddle/hello:0.11.0; then
	out_has "app: its command runs on the production image" \
		'^variant: cpu-avx' "$DOCKER" run --rm docker.io/paddlepaddle/hello:0.11.0
	out_has "app: as the production image's user, port 8888 exposed" '^hello from the app, as uid 1001$' \
		"$DOCKER" run --rm docker.io/paddlepaddle/hello:0.11.0
	out_has "app: port 8888 exposed" '8888/tcp' \
		"$DOCKER" image inspect -f '{{json .Config.ExposedPorts}}' docker.io/paddlepaddle/hello:0.11.0
	out_has "app: the production image's packages are known to dpkg in the derived image" \
		'^paddle 0.11.0-1 install ok installed$' "$DOCKER" run --rm --entrypoint dpkg-query \
		docker.io/paddlepaddle/hello:0.11.0 -W -f '${Package} ${Version} ${Status}\n' paddle
fi

# The development image (on debian:bookworm: no CUDA devel base here).
dev=paddle:0.11.0-dev
docker_ok "dev: written" "$PADPACK" docker dev -c "$CORE_SPEC" -q --device cpu -o "$WORK/dev"
if build_image dev "$WORK/dev" "$dev"; then
	docker_ok "dev: gcc, g++, clang, cmake, python3 -m pip, sphinx-build, ccache, gdb, padpack" \
		"$DOCKER" run --rm "$dev" sh -ec 'gcc --version; g++ --version; clang --version
			cmake --version; python3 -m pip --version; sphinx-build --version
			ccache --version; gdb --version; padpack --version'
	out_has "dev: SSH takes keys only" '^passwordauthentication no$' \
		"$DOCKER" run --rm "$dev" padpack-sshd -T
	out_has "dev: root logs in by key only" '^permitrootlogin without-password$' \
		"$DOCKER" run --rm "$dev" padpack-sshd -T
	check_fails "dev: no SSH host key baked in" 0 '^none$' \
		"$DOCKER" run --rm "$dev" sh -c 'ls /etc/ssh/ssh_host_* 2>/dev/null || echo none'
	# its default command, on a copy of the core owned by someone else
	src=$WORK/src
	cp -a pkg/paddle "$src"
	chown -R nobody:nogroup "$src"
	docker_ok "dev: docker run -v SRC:/paddle -e GPU=OFF -e AVX=ON -e TEST=ON" \
		"$DOCKER" run --rm -v "$src:/paddle" -e GPU=OFF -e AVX=ON -e TEST=ON "$dev"
	out_has "dev: the binaries are on the host and run" '^variant: cpu-avx ' env \
		LD_LIBRARY_PATH="$src/build/cpu-avx/stage/usr/lib/x86_64-linux-gnu" \
		"$src/build/cpu-avx/stage/usr/bin/paddle" --version
	check "dev: only the variant asked for was built" test ! -e "$src/build/cpu-noavx"
	check "dev: what it wrote belongs to the source tree's owner" \
		test "$(find "$src/build" ! -user nobody | wc -l)" = 0
	check "dev: the .debs are on the host" bash -c "ls '$src'/build/debs/*.deb"
	check "dev: the production Dockerfile is on the host" \
		test -s "$src/build/cpu-avx/image/Dockerfile"
	# container.sh: a development container that stays, entered twice
	ctr=padpack-test-$$
	docker_ok "dev: padpack docker all writes container.sh" "$PADPACK" docker all -c "$CORE_SPEC" -q \
		-B "$B" --device cpu
	docker_ok "dev: container.sh start (as root: --with-root)" env DOCKER="$DOCKER" \
		"$B/container.sh" --with-root --name "$ctr" --source "$src" start
	out_has "dev: container.sh into runs in it, the source at /paddle" \
		'^/paddle/CMakeLists.txt$' env DOCKER="$DOCKER" "$B/container.sh" \
		--with-root --name "$ctr" into ls /paddle/CMakeLists.txt
	docker_ok "dev: container.sh stop" env DOCKER="$DOCKER" "$B/container.sh" \
		--with-root --name "$ctr" stop
	docker_ok "dev: padpack build --in-image builds with it" \
		"$PADPACK" build -c "$CORE_SPEC" -q --in-image "$dev" --engine "$DOCKER" --variant cpu-noavx \
		--no-test -B "$WORK/inimg"
	out_has "dev: --in-image's program runs" '^variant: cpu-noavx ' env \
		LD_LIBRARY_PATH="$WORK/inimg/cpu-noavx/stage/usr/lib/x86_64-linux-gnu" \
		"$WORK/inimg/cpu-noavx/stage/usr/bin/paddle" --version
fi
echo "# docker-images took $(($(date +%s) - T0)) s"
