#!/bin/bash
# padpack docker without an engine: every Dockerfile it writes (the
# development image, the four production variants from .debs and from an
# apt repository, with dpkg records (the default) and with --records
# status.d, the app
# images) passes dockerfilelint and dockerfile-utils with no finding; the
# production Dockerfiles' stages; the scripts pass shellcheck; what build-images.sh,
# run.sh, container.sh and the development image's default command do,
# with stand-ins for docker and padpack; and the errors.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../lib-docker.sh"
cd "$TOP" || exit 1

# Packages named as padpack split names them, for padpack docker to find
# (nothing in them runs here).
fake_debs() { # DIR
	local v p t
	for v in "" -noavx -gpu -gpu-noavx; do
		for p in libpaddle1 paddle; do
			t=$WORK/tree-$p$v
			mkdir -p "$t/DEBIAN" "$t/usr/share/doc/$p$v"
			echo x >"$t/usr/share/doc/$p$v/README"
			printf '%s\n' "Package: $p$v" "Version: 0.11.0-1" \
				"Architecture: amd64" "Maintainer: T <t@example.org>" \
				"Depends: libc6" "Description: test" " test" \
				>"$t/DEBIAN/control"
			[ $p = paddle ] && sed -i "s/^Depends: .*/Depends: libpaddle1$v (= 0.11.0-1), libc6/" \
				"$t/DEBIAN/control"
			"$PADPACK" pack "$t" "$1" >/dev/null || return 1
		done
	done
	# an older build of one package: the newest is taken
	sed -i 's/^Version: .*/Version: 0.10.0-1/' "$WORK/tree-libpaddle1/DEBIAN/control"
	"$PADPACK" pack "$WORK/tree-libpaddle1" "$1" >/dev/null
}

B=$WORK/build
mkdir -p "$B/debs"
check "stand-in packages made" fake_debs "$B/debs"
check "padpack docker all writes every image and script" \
	"$PADPACK" docker all -c "$CORE_SPEC" -q -B "$B" --revision 0123abc

# The dev image builds padpack itself: it installs every package of the
# build part of scripts/install-deps.sh that padpack's own build needs.
dev_has_build_deps() {
	local p missing=
	for p in $(sed -n '/^build_pkgs="gcc/,/"$/p' "$TOP/scripts/install-deps.sh" |
		tr -d '"' | sed 's/^build_pkgs=//'); do
		grep -Eq "(^| )$p( |$)" "$B/image-dev/Dockerfile" || missing="$missing $p"
	done
	[ -z "$missing" ] || { echo "not in the dev Dockerfile:$missing"; return 1; }
}
check "dev: installs every package padpack's build needs (install-deps.sh)" \
	dev_has_build_deps

lint_all() {
	local f
	for f in "$B/image-dev/Dockerfile" "$B"/*/image/Dockerfile \
		"$B"/*/app-*/Dockerfile "$@"; do
		check "lint: ${f#"$B"/}" lint_dockerfile "$f"
	done
}

# Repository mode: the .sources and key that padpack repo publish writes.
repo=$WORK/repo
mkdir -p "$repo"
printf '%s\n' "Types: deb" "URIs: https://example.org/paddle" "Suites: stable" \
	"Components: main" "Signed-By: /usr/share/keyrings/paddle-archive-keyring.gpg" \
	>"$repo/stable.sources"
echo key >"$repo/paddle-archive-keyring.gpg"
check "prod from an apt repository" "$PADPACK" docker prod -c "$CORE_SPEC" -q -B "$B" \
	--apt-sources "$repo/stable.sources" --variant gpu-noavx -o "$B/repo-image" \
	--apt-mirror 's|deb.debian.org|mirror.example.org|' --records status.d
check "prod from an apt repository, records dpkg (the default)" "$PADPACK" \
	docker prod -c "$CORE_SPEC" -q -B "$B" --apt-sources "$repo/stable.sources" \
	--variant cpu-avx -o "$B/repo-dpkg"
check "prod --records status.d, every variant" "$PADPACK" docker prod -c "$CORE_SPEC" -q \
	-B "$WORK/statusd" --debs "$B/debs" --records status.d --revision 0123abc
check "app from the command line" "$PADPACK" docker app -c "$CORE_SPEC" -q -B "$B" \
	--from example.org/paddle:0.11.0-noavx --name calc --apt python3-numpy \
	--pip numpy --copy pkg/paddle/python:/app --expose 8000/tcp \
	--env APP_MODE=demo -o "$B/calc" -- python3 -m http.server 8000
[ -x "$LINT_DIR/node_modules/.bin/dockerfilelint" ] ||
	not_ok "the linters are installed" "run scripts/install-deps.sh"
lint_all "$B/repo-image/Dockerfile" "$B/calc/Dockerfile" \
	"$B/repo-dpkg/Dockerfile" "$WORK"/statusd/*/image/Dockerfile

same_text() { # NAME FILE WANT-REGEX: FILE has a line matching
	check "$1" grep -Eq -- "$3" "$2"
}

# The stages: dpkg (the default) installs in the image; status.d installs
# in "install" and the image is the base with what it collected.
instructions() { # FILE: the instructions, one a line, comments left out
	grep -Eo '^[A-Z]+( [^ ]+)?' "$1"
}
status_d_stages() { # FILE BASE: its instructions, ENV lines aside
	local want got
	want=$(printf '%s\n' "FROM $2" ARG RUN "FROM $2" "COPY --from=install" RUN USER \
		WORKDIR ENTRYPOINT LABEL)
	got=$(instructions "$1" | grep -v '^ENV ' |
		sed -E 's/^(FROM [^ ]+|COPY --from=[^ ]+|[A-Z]+).*/\1/')
	[ "$got" = "$want" ] || { printf 'got:\n%s\n' "$got"; return 1; }
	grep -q "^FROM $2 AS install\$" "$1" &&
	grep -q '^COPY --from=install /staging/ /$' "$1" &&
	# the final stage has no apt, no mount, and runs the smoke test
	sed -n '/^COPY --from=install/,$p' "$1" | grep -q '&& paddle --version$' &&
	! sed -n '/^COPY --from=install/,$p' "$1" | grep -Eq 'apt-get|--mount|dpkg'
}
check "status.d: cpu-avx: install stage, then the base with /staging" \
	status_d_stages "$WORK/statusd/cpu-avx/image/Dockerfile" debian:bookworm-slim
check "status.d: gpu-noavx: the same on the CUDA base" \
	status_d_stages "$WORK/statusd/gpu-noavx/image/Dockerfile" nvidia/cuda:13.0.0-runtime-ubuntu24.04
same_text "status.d: each added package's stanza and md5sums into status.d" \
	"$WORK/statusd/cpu-avx/image/Dockerfile" 'dpkg-query -s "\$p" >"/staging/var/lib/dpkg/status.d/\$n"'
same_text "status.d: what apt added: the package lists before and after" \
	"$WORK/statusd/cpu-avx/image/Dockerfile" 'comm -13 /tmp/pkgs-before - '
same_text "status.d: the repository's source and key go into the image" \
	"$B/repo-image/Dockerfile" "printf '%s\\\\n' etc/apt/sources.list.d/paddle.sources usr/share/keyrings/paddle-archive-keyring.gpg >>/tmp/files"
dpkg_stage() { # FILE
	[ "$(grep -c '^FROM ' "$1")" = 1 ] && ! grep -q -- '--from=\|status.d' "$1" &&
	grep -q '^RUN --mount=type=bind,source=.,target=/mnt' "$1" &&
	grep -q '&& paddle --version$' "$1"
}
for f in "$B"/{cpu-avx,cpu-noavx,gpu-avx,gpu-noavx}/image/Dockerfile "$B/repo-dpkg/Dockerfile"; do
	check "records dpkg, the default: one stage: ${f#"$WORK"/}" dpkg_stage "$f"
done
same_text "records dpkg: the apt lists removed in the same RUN as the install" \
	"$B/cpu-avx/image/Dockerfile" '^    && rm -rf /var/lib/apt/lists/\* '

same_text "the key and the source are copied in repository mode" \
	"$B/repo-image/Dockerfile" '^COPY paddle-archive-keyring.gpg /usr/share/keyrings/paddle-archive-keyring.gpg$'
check "the repository context holds the key and the source" test -s \
	"$B/repo-image/paddle-archive-keyring.gpg" -a -s "$B/repo-image/paddle.sources"
check "the newest build of a package goes in" test -f \
	"$B/cpu-avx/image/debs/libpaddle1_0.11.0-1_amd64.deb" -a ! -e \
	"$B/cpu-avx/image/debs/libpaddle1_0.10.0-1_amd64.deb"
check "the program's package brings the library it depends on" test -f \
	"$B/gpu-noavx/image/debs/libpaddle1-gpu-noavx_0.11.0-1_amd64.deb"
check "the app's copy is in its context" test -f "$B/calc/copy1/python/CMakeLists.txt"

# No heredoc, no syntax line, no secrets anywhere in what was written
# (image-dev/padpack/ is padpack's own source, copied: its man pages
# are named padpack-*).
check "no heredoc, # syntax= line, password or proxy in any file" bash -c \
	"! grep -rlE '<<|^# *syntax=|chpasswd|_proxy|PermitRootLogin yes' \
		'$B' --include=Dockerfile --include='*.sh' --include='padpack-*' \
		--exclude-dir=padpack"
if command -v shellcheck >/dev/null; then
	for s in build-images.sh run.sh container.sh image-dev/padpack-dev-build \
		image-dev/padpack-sshd; do
		check "shellcheck: $s" shellcheck -s sh -e SC2086,SC2016 "$B/$s"
	done
else
	not_ok "shellcheck is installed" "run scripts/install-deps.sh"
fi

# build-images.sh: the order, and the first failure stops it.
cat >"$WORK/fake-docker" <<'EOF'
#!/bin/sh
echo "$*" >>"$FAKE_LOG"
case "$*" in *"${FAIL_ON:-none}"*) exit 7 ;; esac
EOF
chmod +x "$WORK/fake-docker"
order=$("$B/build-images.sh" --dry-run | sed -n 's/^+ docker build -t \([^ ]*\) .*/\1/p' | tr '\n' ' ')
want="docker.io/paddlepaddle/paddle:0.11.0-dev docker.io/paddlepaddle/paddle:0.11.0 \
docker.io/paddlepaddle/paddle:0.11.0-noavx docker.io/paddlepaddle/paddle:0.11.0-gpu \
docker.io/paddlepaddle/paddle:0.11.0-gpu-noavx docker.io/paddlepaddle/book:0.11.0 \
docker.io/paddlepaddle/book:0.11.0-gpu "
check "build-images.sh: dev, the variants, then the apps" test "$order" = "$want"
check_fails "build-images.sh stops at the first failure, naming the command" 7 \
	'the cpu-noavx image failed \(exit 7\): .*fake-docker build -t docker.io/paddlepaddle/paddle:0.11.0-noavx' \
	env DOCKER="$WORK/fake-docker" FAKE_LOG="$WORK/log" FAIL_ON=0.11.0-noavx "$B/build-images.sh"
check "build-images.sh built nothing after the failure" test "$(wc -l <"$WORK/log")" = 3

# run.sh: each device kind's flags.
check_fails "run.sh gpu-avx adds --gpus all" 0 \
	'^docker run --rm --gpus all docker.io/paddlepaddle/paddle:0.11.0-gpu --version$' \
	"$B/run.sh" --dry-run gpu-avx --version
check_fails "run.sh cpu-noavx adds nothing" 0 \
	'^docker run --rm docker.io/paddlepaddle/paddle:0.11.0-noavx$' \
	"$B/run.sh" --dry-run cpu-noavx
check_fails "run.sh --help lists the device kinds' flags" 0 'gpu +--gpus all' "$B/run.sh" --help
check_fails "run.sh: an unknown variant" 2 "no variant 'tpu'" "$B/run.sh" tpu

# container.sh: as the caller, refusing root unless asked.
check_fails "container.sh refuses root" 2 "not as root" "$B/container.sh" --dry-run start
check_fails "container.sh --with-root start" 0 \
	"^docker run -d -i --name paddle-dev-root --hostname paddle-dev-root -v $TOP:/paddle -w /paddle paddle:0.11.0-dev sleep infinity" \
	"$B/container.sh" --dry-run --with-root start
if id -u nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	chmod 755 "$WORK" "$B"
	check_fails "container.sh start runs as the caller's UID and GID, with the device's flags" 0 \
		"^docker run -d -i --name x --hostname x -v /tmp:/paddle -w /paddle --gpus all -u $(id -u nobody):$(id -g nobody) -e USER=nobody .* paddle:0.11.0-dev sleep infinity" \
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		env HOME=/nonexistent "$B/container.sh" --dry-run --device gpu --name x --source /tmp start
	check_fails "container.sh into" 0 "^docker exec -i -u $(id -u nobody):$(id -g nobody) -e HOME=/nonexistent x ls /paddle" \
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		env HOME=/nonexistent "$B/container.sh" --dry-run --name x into ls /paddle
fi

# The development image's default command picks the variants, with a
# stand-in padpack that prints what it is asked.
mkdir -p "$WORK/bin" "$WORK/src"
printf '#!/bin/sh\necho "padpack $*"\n' >"$WORK/bin/padpack"
chmod +x "$WORK/bin/padpack"
devbuild() { # ENV...: run padpack-dev-build with these variables
	env -i PATH="$WORK/bin:/usr/bin:/bin" PADPACK_SOURCE="$WORK/src" "$@" \
		sh "$B/image-dev/padpack-dev-build" 2>&1
}
check_fails "dev image: GPU=OFF AVX=ON TEST=ON builds cpu-avx with its tests" 0 \
	"^padpack build -c /usr/local/share/padpack/spec/paddle-separate.cfg --source $WORK/src -B $WORK/src/build --variant=cpu-avx$" \
	devbuild GPU=OFF AVX=ON TEST=ON
check_fails "dev image: WITH_GPU=on WITH_TESTING=0 builds both GPU variants, no tests" 0 \
	"^padpack build .* --no-test --variant=gpu-avx --variant=gpu-noavx$" \
	devbuild WITH_GPU=on WITH_TESTING=0
check_fails "dev image: AVX=OFF builds both no-AVX variants" 0 \
	"--variant=cpu-noavx --variant=gpu-noavx$" devbuild AVX=OFF
check_fails "dev image: build, then split, then the production Dockerfiles" 0 \
	"^==> padpack build .*==> padpack split -c .* -B $WORK/src/build .*==> padpack docker prod -c .* -B $WORK/src/build --source $WORK/src" \
	bash -c "$(declare -f devbuild); WORK='$WORK' B='$B' devbuild GPU=OFF AVX=ON | tr '\n' ' '"
check_fails "dev image: an impossible choice names the variants" 2 \
	"no variant has these switches; variants: cpu-avx, cpu-noavx, gpu-avx, gpu-noavx" \
	devbuild WITH_GPU=maybe

# Errors.
check_fails "prod: a missing package names what is there" 3 \
	"variant cpu-avx: no package libpaddle1 in .*; it has: libpaddle1-gpu-noavx, paddle-gpu-noavx; run padpack split" \
	"$PADPACK" docker prod -c "$CORE_SPEC" -B "$B" --variant cpu-avx --debs "$B/gpu-noavx/image/debs"
mkdir -p "$WORK/some"
cp "$B"/debs/libpaddle1_0.11.0-1_amd64.deb "$B"/debs/paddle_0.11.0-1_amd64.deb \
	"$B"/debs/libpaddle1-noavx_0.11.0-1_amd64.deb "$WORK/some/"
check_fails "prod: a variant without its packages never takes another's" 3 \
	"variant gpu-noavx: no package libpaddle1-gpu-noavx in .*; it has: libpaddle1-noavx, libpaddle1, paddle;" \
	"$PADPACK" docker prod -c "$CORE_SPEC" -B "$B" --variant gpu-noavx --debs "$WORK/some"
check_fails "prod: a package no variant has its own of is shared" 0 \
	'^wrote .*/cpu-noavx/image/Dockerfile \(cpu-noavx\)' \
	"$PADPACK" docker prod -c "$CORE_SPEC" -B "$WORK/some-build" --variant cpu-noavx --debs "$WORK/some"
check "prod: ... the shared paddle with the variant's library" test -f \
	"$WORK/some-build/cpu-noavx/image/debs/paddle_0.11.0-1_amd64.deb" -a -f \
	"$WORK/some-build/cpu-noavx/image/debs/libpaddle1-noavx_0.11.0-1_amd64.deb"
check_fails "prod without --variant skips the variants without packages" 0 \
	"gpu-avx skipped: variant gpu-avx: no package libpaddle1-gpu in" \
	"$PADPACK" docker prod -c "$CORE_SPEC" -B "$WORK/some-build" --debs "$WORK/some"
check_fails "prod: --debs and --apt-sources exclude each other" 2 "exclude each other" \
	"$PADPACK" docker prod -c "$CORE_SPEC" -B "$B" --apt-sources "$repo/stable.sources" --debs "$B/debs"
printf 'Types: deb\nURIs: file:/r\nSuites: s\nComponents: main\n' >"$repo/x.sources"
check_fails "prod: a .sources file without Signed-By" 3 "no Signed-By naming a key file" \
	"$PADPACK" docker prod -c "$CORE_SPEC" -B "$B" --variant cpu-avx --apt-sources "$repo/x.sources"
check_fails "prod: no packages at all" 3 "no variant has its runtime packages" \
	"$PADPACK" docker prod -c "$CORE_SPEC" -B "$WORK/empty" --debs "$WORK/src"
check_fails "prod --records: only status.d or dpkg" 2 "--records 'rpm': say status.d or dpkg" \
	"$PADPACK" docker prod -c "$CORE_SPEC" -B "$B" --records rpm
check_fails "dev --records is refused" 2 "an option of 'padpack docker prod' and 'all'" \
	"$PADPACK" docker dev -c "$CORE_SPEC" --records dpkg -o "$WORK/d"
mkdir -p "$WORK/badspec"
cp "$CORE_SPEC" "$WORK/badspec/paddle.cfg" && cp -r pkg/paddle "$WORK/badspec/"
sed -i 's|^\t# records = "dpkg";|\trecords = "rpm";|' "$WORK/badspec/paddle.cfg"
line=$(grep -n '^	records = "rpm";' "$WORK/badspec/paddle.cfg" | cut -d: -f1)
check_fails "spec: image.records names file and line" 3 \
	"paddle.cfg:$line: setting 'image.records': 'rpm' is not valid; must be \"status.d\"" \
	"$PADPACK" docker prod -c "$WORK/badspec/paddle.cfg" -B "$B"
sed -i 's|^\trecords = "rpm";|\trecords = "status.d";|' "$WORK/badspec/paddle.cfg"
check "spec: image.records = \"status.d\" writes the install stage" bash -c \
	"'$PADPACK' docker prod -q -c '$WORK/badspec/paddle.cfg' -B '$B' --variant cpu-avx \
	-o '$WORK/spec-statusd' --revision x && $(declare -f instructions status_d_stages);
	status_d_stages '$WORK/spec-statusd/Dockerfile' debian:bookworm-slim"
check_fails "app needs --from" 2 "needs --from IMAGE:TAG" "$PADPACK" docker app --name x
check_fails "app --from without a tag" 2 "has no tag" \
	"$PADPACK" docker app --from example.org:5000/paddle --name x
check_fails "an unknown subcommand" 2 "say dev, prod, app or all" "$PADPACK" docker push
check_fails "dev: an unknown device" 2 "--device 'tpu'" "$PADPACK" docker dev --device tpu -o "$WORK/d"
