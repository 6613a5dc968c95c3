#!/bin/sh
# Installs the Debian packages the picture and browser tests use (Graphviz's `dot` and
# Chromium), only where they are missing; as root directly, otherwise through sudo.
set -e
command -v dot >/dev/null 2>&1 && command -v chromium >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq graphviz chromium >/dev/null
