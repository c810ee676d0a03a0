#!/bin/sh
# The main job on the bundled default, run by `make demo`.
# First it builds the bundled Paddle core in every variant (padpack build)
# and shows what each stage tree holds, splits them into packages (padpack
# split) and shows the set; then it packs the bundled example tree and
# shows what dpkg-deb says of the result.
set -eu
cd "$(dirname "$0")/.."

echo "\$ ./padpack build -j2"
./padpack build -j2
lib=usr/lib/x86_64-linux-gnu
for v in cpu-base cpu-v3 cpu-v4 gpu-base gpu-v3 gpu-v4; do
	s=build/$v/stage
	[ -d "$s" ] || continue
	echo
	echo "== $v: $(find "$s" -type f | wc -l) files in $s"
	objdump -p "$s/$lib/libpaddle.so.1" | grep -E 'SONAME|NEEDED'
	if objdump -h "$s/$lib/libpaddle.so.1" | grep -q nv_fatbin; then
		echo "  device code: .nv_fatbin section present"
	else
		LD_LIBRARY_PATH=$s/$lib "$s/usr/bin/paddle" --version
		LD_LIBRARY_PATH=$s/$lib "$s/usr/bin/paddle"
	fi
done
echo
echo "\$ find build/cpu-base/stage -type f -o -type l | sort"
(cd build/cpu-base/stage && find . -type f -o -type l | sort)
echo

# The packages of every variant built, as a maintainer would split them.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1700000000}
echo "\$ ./padpack split"
./padpack split
# The default spec packs the CPU levels as glibc-hwcaps builds: one
# libpaddle1 for every x86-64 CPU (and libpaddle1-gpu likewise).
for p in libpaddle1 libpaddle1-gpu; do
	f=$(ls build/debs/${p}_*.deb 2>/dev/null) || continue
	echo
	echo "\$ dpkg-deb --field $f"
	dpkg-deb --field "$f"
done
echo
echo "\$ dpkg-deb --contents build/debs/libpaddle1_*.deb"
dpkg-deb --contents build/debs/libpaddle1_*.deb
echo
out=build/demo
rm -rf "$out"
mkdir -p "$out"
tree=$out/hello-tree
scripts/make-example-tree.sh "$tree"
./padpack pack "$tree" "$out"
deb=$(ls "$out"/*.deb)
echo
echo "\$ dpkg-deb --info $deb"
dpkg-deb --info "$deb"
echo
echo "\$ dpkg-deb --contents $deb"
dpkg-deb --contents "$deb"

# A signed apt repository holding the packages of this run.
key=build/demo-key
repo=build/repo
[ -f "$key/secret.pem" ] || ./padpack key generate \
	--uid "padpack demo <demo@example.org>" --out "$key"
rm -rf "$repo"
echo
echo "\$ ./padpack repo init $repo --origin 'padpack demo' --key $key/secret.pem"
./padpack repo init "$repo" --origin "padpack demo" --label "padpack demo" \
	--key "$key/secret.pem" --valid-for 30
debs=$(ls build/debs/*.deb 2>/dev/null || true)
echo "\$ ./padpack repo add $repo ..."
./padpack repo add "$repo" $debs "$deb"
echo "\$ ./padpack repo publish $repo"
./padpack repo publish "$repo"
echo "\$ ./padpack repo verify $repo --keyring $key/public.gpg"
./padpack repo verify "$repo" --keyring "$key/public.gpg"
keyring=$(ls "$repo"/*-archive-keyring.gpg)
echo
echo "To use this repository on a machine, as root:"
echo "  install -m 0644 $(realpath "$keyring") /usr/share/keyrings/"
echo "  cp $(realpath "$repo")/stable.sources /etc/apt/sources.list.d/padpack-demo.sources"
echo "  apt-get update"
echo "where stable.sources says:"
sed 's/^/  /' "$repo/stable.sources"

# The container images: every Dockerfile, the docker build commands, and
# the CPU production image built where an engine is installed.
echo
scripts/demo-docker.sh
