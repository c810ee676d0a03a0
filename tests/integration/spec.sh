#!/bin/bash
# padpack build's spec and command line: a spec with a syntax error, an
# unknown key, a wrong type, an unknown variant, ... each gives exit status
# 3 (2 for the command line) and a message naming file, line and setting.
# Nothing is compiled here (dry runs), so it also runs under the sanitizers.
source "$(dirname "$0")/../lib.sh"

# The separate-package form: its variant names (cpu-avx, cpu-noavx ...)
# are what these checks are written against; the default (pkg/paddle.cfg)
# is checked in build.sh and hwcaps.sh.
SPEC=pkg/paddle-separate.cfg
cd "$TOP" || exit 1

# spec_with NAME SED-EXPRESSION: a copy of the Paddle spec, edited.
spec_with() {
	sed "$2" "$SPEC" >"$WORK/$1.cfg"
	echo "$WORK/$1.cfg"
}

line_of() { # PATTERN FILE: the number of the first line matching
	grep -n -m1 -- "$1" "$2" | cut -d: -f1
}

check "the Paddle spec loads: four variants, dry run" bash -c \
	"'$PADPACK' build -n -c '$SPEC' | grep -c '^# ' | grep -qx 4"

# The spec's examples marked "#>": a third axis (Python) and another
# vendor's device, both spec only; together, 3 x 2 x 2 variants.
f=$(spec_with examples 's/^#>//')
check_fails "the spec's examples are valid: Python axis and a new device kind" 0 \
	'^12 # musa-noavx-py3.12: skipped: needs mcc \(the MUSA toolkit\)' \
	bash -c "'$PADPACK' build -n -c '$f' --source '$TOP/pkg/paddle' |
		grep '^# ' | { n=0; while read -r l; do n=\$((n + 1)); last=\$l; done
		echo \"\$n \$last\"; }"

f=$(spec_with syntax 's/^name = "paddle";/name = = "paddle";/')
check_fails "syntax error: file and line" 3 \
	"^padpack build: $f:$(line_of '^name = ' "$f"): syntax error; a spec is libconfig" \
	"$PADPACK" build -n -c "$f"

f=$(spec_with unknown 's/^\t\t\t\tsuffix = "gpu";/\t\t\t\tsufix = "gpu";/')
check_fails "unknown key: file, line, setting, what is allowed" 3 \
	"$f:$(line_of 'sufix' "$f"): setting 'axes\[device\]\.values\[gpu\]\.sufix': unknown setting; allowed here: name, suffix, cmake, cflags, env, needs, forbid_isa, isa, isa_require, accelerator, container" \
	"$PADPACK" build -n -c "$f"

f=$(spec_with type 's/^version = "0.11.0";/version = 0.11;/')
check_fails "wrong type: says what it must be" 3 \
	"$f:$(line_of '^version = ' "$f"): setting 'version': is a decimal number; must be an upstream version" \
	"$PADPACK" build -n -c "$f"

f=$(spec_with exclude 's/^exclude = \[ \];/exclude = [ "gpu-sse" ];/')
check_fails "unknown variant in the spec: file, line, the variants there are" 3 \
	"$f:$(line_of '^exclude' "$f"): setting 'exclude\[0\]': 'gpu-sse' matches no variant; variants: cpu-avx, cpu-noavx, gpu-avx, gpu-noavx" \
	"$PADPACK" build -n -c "$f"

check_fails "unknown --variant: names the spec and its variants" 2 \
	"--variant 'cpu-sse': no such variant in pkg/paddle-separate.cfg; its variants are: cpu-avx, cpu-noavx, gpu-avx, gpu-noavx" \
	"$PADPACK" build -c "$SPEC" -n --variant cpu-sse

check_fails "--variant globs select" 0 '^# gpu-noavx$' \
	bash -c "'$PADPACK' build -n -c '$SPEC' --variant 'gpu-*' --variant cpu-noavx |
		grep '^# ' | tr '\n' ' ' | grep -q '^# cpu-noavx # gpu-avx # gpu-noavx \$' &&
		echo '# gpu-noavx'"

f=$(spec_with placeholder 's/-DPADDLE_VARIANT=@variant@/-DPADDLE_VARIANT=@varient@/')
check_fails "unknown placeholder: the ones there are" 3 \
	"$f:$(line_of '@varient@' "$f"): setting 'build\.cmake\[4\]': unknown placeholder @varient@; known: @name@, @version@, @variant@" \
	"$PADPACK" build -n -c "$f"

f=$(spec_with isa 's/"avx", "avx2", "avx512", "fma", "f16c",/"avx", "avx3",/')
check_fails "unknown instruction set in forbid_isa" 3 \
	"setting 'axes\[isa\]\.values\[noavx\]\.forbid_isa\[1\]': unknown instruction set 'avx3'; known: avx, avx2" \
	"$PADPACK" build -n -c "$f"

f=$(spec_with suffix 's/^\t\t\t\tsuffix = "noavx";/\t\t\t\tsuffix = "";/')
check_fails "two variants with one suffix" 3 \
	"variants 'cpu-avx' and 'cpu-noavx' have the same suffix ''" \
	"$PADPACK" build -n -c "$f"

f=$(spec_with missing '/^name = /d')
check_fails "missing required setting" 3 \
	"$f: setting 'name' is missing; it must be a Debian package name" \
	"$PADPACK" build -n -c "$f"

# issue 13: the maintainer has a default, as dch finds it, with a warning
f=$(spec_with nomaint '/^maintainer = /d')
check_fails "no maintainer: guessed as dch does, warned, no error" 0 \
	"padpack: no maintainer given; guessed '[^']+ <[^']+@[^']+>'" \
	env -u DEBEMAIL -u DEBFULLNAME -u EMAIL -u NAME "$PADPACK" build -n -c "$f" --source "$(dirname "$SPEC")/paddle"

check_fails "no spec file: I/O error" 4 "cannot read spec '$WORK/none.cfg'" \
	"$PADPACK" build -n -c "$WORK/none.cfg"

check_fails "source tree without CMakeLists.txt" 3 "has no CMakeLists.txt" \
	"$PADPACK" build -c "$SPEC" -n --source "$WORK"

# build.system: the kinds there are, what each reads, what it needs.
mini_spec() { # NAME BUILD-SETTINGS VALUE-SETTINGS: a small spec
	cat >"$WORK/$1.cfg" <<-EOF
	name = "mini";
	maintainer = "Padpack Tests <tests@example.org>";
	homepage = "https://example.org/mini";
	summary = "a small spec";
	description = "For the tests of build.system.";
	source = "$WORK";
	build = {
		$2
	};
	axes = ( { name = "flavor"; values = ( { name = "plain"; suffix = "";
		${3:-} } ); } );
	EOF
	echo "$WORK/$1.cfg"
}
f=$(mini_spec system 'system = "scons";')
check_fails "unknown build system: file, line, the systems there are" 3 \
	"$f:$(line_of 'system = "scons"' "$f"): setting 'build\.system': unknown build system 'scons'; known: cmake, make, autotools, meson, commands" \
	"$PADPACK" build -n -c "$f"
f=$(mini_spec makecmake 'system = "make";
	cmake = [ "-DX=1" ];')
check_fails "a setting the build system does not read: where, and for which it is" 3 \
	"$f:$(line_of 'cmake = ' "$f"): setting 'build\.cmake': the make build system \(build\.system\) does not read it; it is for cmake" \
	"$PADPACK" build -n -c "$f"
f=$(mini_spec makevars '' 'make_vars = [ "NOAVX=1" ];')
check_fails "... in an axis value too" 3 \
	"$f:$(line_of 'NOAVX=1' "$f"): setting 'axes\[flavor\]\.values\[plain\]\.make_vars': the cmake build system \(build\.system\) does not read it; it is for make and autotools" \
	"$PADPACK" build -n -c "$f"
f=$(mini_spec nocommands 'system = "commands";')
check_fails "commands without build.commands" 3 \
	"$f:$(line_of 'system = "commands"' "$f"): setting 'build\.system': is \"commands\", which needs build\.commands" \
	"$PADPACK" build -n -c "$f"
f=$(mini_spec noinstall 'system = "commands";
	commands = { build = [ "make" ]; };')
check_fails "commands without an install command" 3 \
	"$f:$(line_of 'commands = ' "$f"): setting 'build\.commands': lacks 'install', which must be shell command lines" \
	"$PADPACK" build -n -c "$f"
f=$(mini_spec meson 'system = "meson";')
check_fails "source tree without meson.build (build.system meson)" 3 \
	"has no meson\.build; build\.system is \"meson\"" \
	"$PADPACK" build -n -c "$f"
f=$(mini_spec commands 'system = "commands";
	commands = { build = [ "make -j@jobs@" ]; install = [ "make install" ]; };')
check_fails "commands: a dry run shows sh -ec with SRC, BUILD, JOBS, DESTDIR" 0 \
	"^cd $WORK/b/plain/obj && env 'CFLAGS=-ffile-prefix-map=$WORK=. -ffile-prefix-map=$WORK/b/plain/obj=./obj-plain' 'CXXFLAGS=[^']*' SRC=$WORK BUILD=$WORK/b/plain/obj JOBS=[0-9]+ DESTDIR=$WORK/b/plain/stage sh -ec 'make install'\$" \
	"$PADPACK" build -n -c "$f" -B "$WORK/b"

check_fails "-j 0 is a usage error" 2 "-j '0' is not a number from 1 to 1024" \
	"$PADPACK" build -c "$SPEC" -n -j 0
check_fails "--quiet and --json together" 2 "exclude each other" \
	"$PADPACK" build -c "$SPEC" -n -q --json
check_fails "--engine without --in-image" 2 "--engine needs --in-image" \
	"$PADPACK" build -c "$SPEC" -n --engine podman
check_fails "a stray argument" 2 "unexpected argument 'x'" "$PADPACK" build x
check_fails "padpack build --help" 0 "usage: padpack build" "$PADPACK" build --help
check_fails "padpack --help lists build" 0 "build +compile every variant" \
	"$PADPACK" --help

# The container command, as Paddle's design runs the development image:
# docker run -v $PWD:/paddle -e WITH_GPU=OFF -e WITH_AVX=ON ... paddle:dev
# ("docker" here is tests/data/fake-engine, first in PATH).
mkdir -p "$WORK/bin" && ln -s "$TOP/tests/data/fake-engine" "$WORK/bin/docker"
check_fails "--in-image --dry-run prints the exact container command" 0 \
	"^$WORK/bin/docker run --rm --user=$(id -u):$(id -g) -v $TOP/pkg/paddle:/paddle -v $TOP/build/cpu-avx:$TOP/build/cpu-avx --workdir=$TOP/build/cpu-avx -e PADDLE_VERSION=0\.11\.0 -e WITH_TESTING=ON -e RUN_TEST=ON -e WITH_GPU=OFF -e WITH_AVX=ON -e 'CFLAGS=-ffile-prefix-map=/paddle=. -ffile-prefix-map=$TOP/build/cpu-avx/obj-image=./obj-cpu-avx -g -O2' -e 'CXXFLAGS=-ffile-prefix-map=/paddle=. -ffile-prefix-map=$TOP/build/cpu-avx/obj-image=./obj-cpu-avx -g -O2' paddle:0\.11\.0-dev cmake -S /paddle -B $TOP/build/cpu-avx/obj-image " \
	env PATH="$WORK/bin:$PATH" "$PADPACK" build -c "$SPEC" -n --in-image --variant cpu-avx
check_fails "--in-image=IMAGE names the image; GPU flags from the spec" 0 \
	" -e WITH_GPU=ON -e WITH_AVX=OFF -e 'CFLAGS=-ffile-prefix-map=/paddle=. -ffile-prefix-map=[^ ]*=./obj-gpu-noavx -g -O2 -mno-avx .* paddle:dev cmake -S /paddle .* -DCMAKE_CUDA_COMPILER=nvcc " \
	env PATH="$WORK/bin:$PATH" "$PADPACK" build -c "$SPEC" -n --in-image=paddle:dev \
	--variant gpu-noavx
check_fails "--in-image IMAGE (a separate word) works too" 0 \
	"^[^ ]*docker run .* paddle:dev ctest --output-on-failure" \
	env PATH="$WORK/bin:$PATH" "$PADPACK" build -c "$SPEC" -n --in-image paddle:dev \
	--variant cpu-avx
check_fails "--engine chooses the engine" 0 "^/bin/true run --rm " \
	"$PADPACK" build -c "$SPEC" -n --in-image=x --engine /bin/true --variant cpu-avx

mkdir -p "$WORK/nobin"
# padpack asks dpkg-architecture for the libdir CMake installs to
ln -s "$(command -v dpkg-architecture)" "$(command -v dpkg)" "$WORK/nobin/"
check_fails "no container engine installed: says so and stops" 5 \
	"no container engine is installed: neither docker nor podman is in PATH" \
	env PATH="$WORK/nobin" "$PADPACK" build -c "$SPEC" --in-image=paddle:dev
check_fails "a dry run without engine still prints the command" 0 \
	"^docker run --rm .* paddle:dev cmake -S /paddle" \
	env PATH="$WORK/nobin" "$PADPACK" build -c "$SPEC" -n --in-image=paddle:dev --variant cpu-avx

# With a real docker client (no daemon needed): it accepts the command line
# padpack writes, and a daemon that is not there fails the variant, saying so.
if docker=$(command -v docker) && "$docker" --version >/dev/null 2>&1; then
	cmd=$("$PADPACK" build -c "$SPEC" -n --in-image=paddle:dev --variant gpu-noavx | sed -n 2p)
	check_fails "the docker client parses the command padpack writes" 125 \
		"Cannot connect to the Docker daemon" \
		env DOCKER_HOST="unix://$WORK/no-daemon.sock" bash -c "$cmd"
	check_fails "no docker daemon: the variant fails, saying so" 5 \
		"variant cpu-avx: configure failed .*Cannot connect to the Docker daemon" \
		bash -c "DOCKER_HOST='unix://$WORK/no-daemon.sock' '$PADPACK' build -c '$SPEC' -q \
			--in-image=paddle:dev --variant cpu-avx -B '$WORK/d' 2>&1 | tr '\n' ' '; \
			exit \${PIPESTATUS[0]}"
fi
