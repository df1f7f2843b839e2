#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages flakesweep needs to build and run; with
# the argument "test", also what its test suite needs (Go 1.23 from
# bookworm-backports, mandoc, tmux, clang-format, pytest, Node.js, CMake and
# GoogleTest for the C demo suite, a single-node Slurm with munge for the
# sharded sweep's array job, PyYAML for the Kubernetes and GitHub Actions
# examples, docker.io for container levels). libxml2-dev: the ctest driver reads
# ctest's JUnit reports with libxml2; man-db: `man flakesweep` after make
# install. Run as root.
set -e
pkgs="build-essential autoconf automake autopoint gettext pkg-config git ca-certificates
libuv1-dev libcjson-dev libcurl4-openssl-dev libxml2-dev libncurses-dev golang-go man-db"
if [ "${1:-}" = test ]; then
	if ! grep -rqs bookworm-backports /etc/apt/sources.list /etc/apt/sources.list.d; then
		cat >/etc/apt/sources.list.d/flakesweep-backports.sources <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	fi
	pkgs="$pkgs golang-1.23-go mandoc groff-base clang clang-format tmux python3 python3-pytest
valgrind golang-golang-x-tools procps tzdata cmake libgtest-dev slurm-wlm munge python3-yaml
docker.io"
	command -v node >/dev/null || pkgs="$pkgs nodejs"
	command -v npm >/dev/null || pkgs="$pkgs npm"
fi
apt-get update
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $pkgs
if [ "${1:-}" = test ]; then
	# The tests' stand-in for GitHub's GraphQL endpoint validates every
	# request against GitHub's published schema (@octokit/graphql-schema).
	(cd "$(dirname "$0")/tests/server" && npm ci --no-audit --no-fund)
fi
