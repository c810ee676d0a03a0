#!/bin/bash
# The end of `make demo`: the container images of the variants built in
# build/. Writes every Dockerfile (padpack docker all), prints the docker
# build commands, and where Debian's Docker engine is installed, starts it
# by hand and builds and runs the CPU production image.
# scripts/demo.sh runs it after padpack split.
set -eu
cd "$(dirname "$0")/.."
TOP=$PWD
PADPACK=$TOP/padpack
source tests/lib-docker.sh

# The .debs are padpack split's, made by demo.sh just before.
echo "\$ ./padpack docker all"
"$PADPACK" docker all
echo
echo "\$ build/build-images.sh --dry-run"
build/build-images.sh --dry-run
echo
echo "\$ build/run.sh --dry-run gpu-base --version"
build/run.sh --dry-run gpu-base --version

if [ ! -x /usr/sbin/dockerd ]; then
	echo
	echo "(no Docker engine here: apt-get install docker.io to build the images)"
	exit 0
fi
trap stop_engine EXIT
echo
echo "Building the CPU production image with Debian's Docker engine, started by hand:"
start_engine
import_base debian:bookworm-slim "$(base_tar)"
tag=$(grep -A1 '^image cpu-base ' build/build-images.sh | sed -n "s/^\t-t '\{0,1\}\([^' ]*\).*/\1/p")
echo "\$ docker build -t $tag build/cpu-base/image"
"$DOCKER" build -q -t "$tag" build/cpu-base/image
echo "\$ docker run --rm $tag --version"
"$DOCKER" run --rm "$tag" --version
echo "\$ docker run --rm $tag"
"$DOCKER" run --rm "$tag"
# one image for every x86-64 CPU: the loader takes a lower build where
# the CPU has no higher level, as a mask shows here
echo "\$ docker run --rm --entrypoint /lib64/ld-linux-x86-64.so.2 $tag --glibc-hwcaps-mask x86-64-v2 /usr/bin/paddle --version"
"$DOCKER" run --rm --entrypoint /lib64/ld-linux-x86-64.so.2 "$tag" \
	--glibc-hwcaps-mask x86-64-v2 /usr/bin/paddle --version
echo "\$ docker history $tag"
"$DOCKER" history --format 'table {{.Size}}\t{{.CreatedBy}}' "$tag" | cut -c1-100
