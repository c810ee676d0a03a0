#!/bin/bash
# The packages padpack split makes of the bundled Paddle core, judged by
# Debian's tools: lintian on the whole set (through the .changes), then
# apt and dpkg in a clean Debian 12 root (mmdebstrap, cached, an overlay
# per test): one variant's packages install together and run, the -dev
# package builds a C program through pkg-config, the cpu-avx library is
# swapped for the cpu-noavx one through Conflicts/Replaces, and a GPU
# library warns, without failing, on a host without the driver.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/../core-cache.sh"
source "$(dirname "$0")/../tools/debian-root.sh"

export SOURCE_DATE_EPOCH=1700000000
V=0.11.0-1
D=$WORK/debs
# Warnings left on purpose, each with its reason in README.md.
ALLOWED_WARNINGS='initial-upload-closes-no-bugs'

check_lintian() {
	local out tags
	out=$(cd "$D" && lintian --display-level '>=warning' \
		"paddle_${V}_amd64.changes" 2>&1 | grep -v '^running with root')
	if printf '%s\n' "$out" | grep -q '^E: '; then
		not_ok "lintian: no error on any package" "$(printf '%s\n' "$out" | grep '^E: ' | head)"
	else
		ok "lintian: no error on any of the $(ls "$D"/*.deb | wc -l) packages"
	fi
	tags=$(printf '%s\n' "$out" | awk '/^W: / { print $3 }' | sort -u | tr '\n' ' ')
	if printf '%s\n' $tags | grep -vxE "${ALLOWED_WARNINGS}|" | grep -q .; then
		not_ok "lintian: no warning but the ones README.md explains" \
			"$(printf '%s\n' "$out" | grep '^W: ' | grep -vE "$ALLOWED_WARNINGS" | head)"
	else
		ok "lintian: no warning but the ones README.md explains (${tags:-none})"
	fi
}

# The cpu-avx variant's packages, and those every variant shares.
CPU_AVX="libpaddle1 paddle paddle-common python3-paddle python3-paddle-common
	libpaddle-dev libpaddle-common-dev"

# in_root SCRIPT: runs the shell script (a file written to the packages'
# directory, seen as /debs) in a fresh overlay of the clean root.
in_root() {
	local name
	name=t-$(date +%s%N).sh
	cat >"$D/$name"
	debian_root_run "$D" "sh -e /debs/$name"
}

# The apt-get line that installs the cpu-avx set from its files.
install_set() {
	local p f line="apt-get install -y -q --no-install-recommends"
	for p in $CPU_AVX; do
		for f in "$D/${p}_${V}"_*.deb; do
			[ -e "$f" ] && line="$line /debs/$(basename "$f")"
		done
	done
	echo "$line >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }"
}

check_install() {
	check_fails "apt installs the cpu-avx packages together; paddle runs" 0 \
		'variant: cpu-avx .*sgemm 96x96x96 on cpu .*: ok' in_root <<-EOF
		$(install_set)
		paddle --version | tr '\n' ' '; paddle
		EOF
	check_fails "the Python module works from the installed packages" 0 \
		"'variant': 'cpu-avx'" in_root <<-EOF
		$(install_set)
		python3 -c 'import paddle; print(paddle.build_info()); assert paddle.matmul([[1, 2]], [[3], [4]]) == [[11.0]]'
		EOF
	check_fails "the -dev package builds a C program through pkg-config" 0 \
		'^built with .*-lpaddle *: cpu-avx 6$' in_root <<-EOF
		$(install_set)
		cat >/tmp/use.c <<'C'
		#include <paddle/paddle.h>
		#include <stdio.h>
		int main(void) { float a = 2, b = 3, c = 0;
			int st = paddle_sgemm(PADDLE_DEVICE_CPU, 1, 1, 1, &a, &b, &c);
			printf("%s %g\\n", paddle_variant(), c); return st; }
		C
		flags=\$(pkg-config --cflags --libs paddle)
		gcc -o /tmp/use /tmp/use.c \$flags
		printf 'built with %s: ' "\$flags"; /tmp/use
		EOF
	check_fails "apt swaps libpaddle1 for libpaddle1-noavx (Conflicts/Replaces), dpkg back" 0 \
		'Removing libpaddle1:amd64 .*variant: cpu-noavx .*ii +libpaddle1-noavx:amd64 .*back: paddle 0\.11\.0 variant: cpu-avx ' \
		in_root <<-EOF
		$(install_set)
		apt-get install -y -q --no-install-recommends /debs/libpaddle1-noavx_${V}_amd64.deb 2>&1 | tr '\n' ' '
		paddle --version | tr '\n' ' '
		dpkg -l 'libpaddle1*' | grep '^ii' | tr '\n' ' '
		dpkg -i /debs/libpaddle1_${V}_amd64.deb >/dev/null 2>&1
		echo back: \$(paddle --version | tr '\n' ' ')
		EOF
}

# On a CPU without AVX (a /proc/cpuinfo without the flags, bound over the
# real one), the AVX library refuses to install, saying what to install
# instead; IGNORE_ISA=1 overrides; the no-AVX one installs.
check_isa_preinst() {
	awk '/^flags/ { s = $0; n = split(s, w, " "); s = "";
		for (i = 1; i <= n; i++) if (w[i] !~ /^(avx.*|fma|f16c)$/) s = s " " w[i];
		print substr(s, 2); next } { print }' /proc/cpuinfo >"$D/t-cpuinfo"
	check_fails "a CPU without AVX: libpaddle1's preinst refuses, naming the alternative" 0 \
		'E: libpaddle1 needs a CPU with AVX and FMA \(x86-64-v3\), .*lacks: avx fma .*Install libpaddle1-noavx .*refused: [1-9].*IGNORE_ISA: 0 .*noavx: 0' \
		in_root <<-EOF
		mount --bind /debs/t-cpuinfo /proc/cpuinfo
		rc=0; dpkg -i /debs/libpaddle1_${V}_amd64.deb >/tmp/out 2>&1 || rc=\$?
		tr '\n' ' ' </tmp/out; printf 'refused: %s ' \$rc
		dpkg --purge libpaddle1 >/dev/null 2>&1 || true
		rc=0; IGNORE_ISA=1 dpkg -i /debs/libpaddle1_${V}_amd64.deb >/dev/null 2>&1 || rc=\$?
		printf 'IGNORE_ISA: %s ' \$rc
		dpkg --purge libpaddle1 >/dev/null
		rc=0; dpkg -i /debs/libpaddle1-noavx_${V}_amd64.deb >/dev/null 2>&1 || rc=\$?
		echo noavx: \$rc
		EOF
}

# A GPU library on a host without the NVIDIA driver: installed anyway, with
# a warning that says what is missing.
check_gpu_warning() {
	check_fails "a GPU library installs without the driver, warning what is missing" 0 \
		'W: libpaddle1-gpu: the NVIDIA driver is not installed here \(none of: libcuda\.so\.1\).*status: 0 ii' \
		in_root <<-EOF
		rc=0; dpkg --force-depends -i /debs/libpaddle1-gpu_${V}_amd64.deb >/tmp/out 2>&1 || rc=\$?
		tr '\n' ' ' </tmp/out; echo status: \$rc \$(dpkg-query -W -f='\${db:Status-Abbrev}' libpaddle1-gpu)
		EOF
}

# The whole set published by padpack repo, signed, and installed by name
# from it in the clean root: apt verifies the InRelease against the key
# named by Signed-By, resolves the set's dependencies itself, and swaps a
# variant for another by name.
check_repo() {
	local key=$WORK/key repo=$D/repo
	if ! { "$PADPACK" key generate --uid "Paddle Release <release@example.org>" \
			--out "$key" &&
		"$PADPACK" repo init "$repo" --origin Paddle --label Paddle \
			--key "$key/secret.pem" --uri file:/debs/repo &&
		"$PADPACK" repo add --publish "$repo" "$D"/*.deb &&
		"$PADPACK" repo verify "$repo" --keyring "$key/public.gpg"; } >"$WORK/repo.log" 2>&1; then
		not_ok "the set published in a signed repository and verified" "$(cat "$WORK/repo.log")"
		return
	fi
	ok "the set published in a signed repository and verified ($(ls "$D"/*.deb | wc -l) packages)"
	check_fails "apt-get update && apt-get install paddle from the signed repository" 0 \
		'Get:[0-9]+ file:/debs/repo stable InRelease.*variant: cpu-avx .*sgemm .*: ok .*swapped: .*variant: cpu-noavx .*ii +libpaddle1-noavx:amd64' \
		in_root <<-EOF
		install -m 0644 /debs/repo/paddle-archive-keyring.gpg /usr/share/keyrings/
		cp /debs/repo/stable.sources /etc/apt/sources.list.d/paddle.sources
		# only the new source: the clean root's Debian lists are kept as they are
		apt-get update -o Dir::Etc::SourceList=/dev/null -o APT::Get::List-Cleanup=0 2>&1 | tr '\n' ' '
		apt-get install -y -q --no-install-recommends paddle >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
		paddle --version | tr '\n' ' '; paddle | tr '\n' ' '
		apt-get install -y -q --no-install-recommends paddle-noavx >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
		printf 'swapped: %s ' "\$(paddle --version | tr '\n' ' ')"
		dpkg -l 'libpaddle1*' | grep '^ii' | tr '\n' ' '
		EOF
	check_fails "apt refuses the repository when its InRelease was changed" 0 \
		'(BADSIG|signatures were invalid).*refused: [1-9]' in_root <<-EOF
		install -m 0644 /debs/repo/paddle-archive-keyring.gpg /usr/share/keyrings/
		cp /debs/repo/stable.sources /etc/apt/sources.list.d/paddle.sources
		mkdir /tmp/r && cp -a /debs/repo/. /tmp/r/
		sed -i 's|/debs/repo|/tmp/r|' /etc/apt/sources.list.d/paddle.sources
		sed -i 's/^Label: .*/Label: Evil/' /tmp/r/dists/stable/InRelease
		rc=0; apt-get update -o Dir::Etc::SourceList=/dev/null -o APT::Get::List-Cleanup=0 2>&1 | tr '\n' ' '
		apt-get install -y -q paddle >/dev/null 2>&1 || rc=\$?
		echo refused: \$rc
		EOF
}

build_all
if [ -f "$OUT/complete" ]; then
	if "$PADPACK" split -B "$B" -o "$D" -c "$CORE_SPEC" -q >"$WORK/split.log" 2>&1; then
		check_lintian
		if debian_root_prepare; then
			ok "a clean Debian 12 root (mmdebstrap, cached in $DEBIAN_ROOT_CACHE)"
			check_install
			check_repo
			check_isa_preinst
			[ -n "$NVCC" ] && check_gpu_warning
		else
			not_ok "a clean Debian 12 root (mmdebstrap)" "see above"
		fi
	else
		not_ok "padpack split of the core" "$(cat "$WORK/split.log")"
	fi
fi
