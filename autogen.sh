#!/bin/sh
# SPDX-License-Identifier: MIT
# Generates configure and the Makefile templates from a git checkout.
set -e
cd "$(dirname "$0")"
autoreconf -fi
