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
echo "\$ build/run.sh --dry-run gpu-avx --version"
build/run.sh --dry-run gpu-avx --version

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
tag=$(grep -A1 '^image cpu-avx ' build/build-images.sh | sed -n "s/^\t-t '\{0,1\}\([^' ]*\).*/\1/p")
echo "\$ docker build -t $tag build/cpu-avx/image"
"$DOCKER" build -q -t "$tag" build/cpu-avx/image
echo "\$ docker run --rm $tag --version"
"$DOCKER" run --rm "$tag" --version
echo "\$ docker run --rm $tag"
"$DOCKER" run --rm "$tag"
echo "\$ docker history $tag"
"$DOCKER" history --format 'table {{.Size}}\t{{.CreatedBy}}' "$tag" | cut -c1-100
