#!/bin/sh
# Installs the Debian packages the picture and browser tests use (Graphviz's `dot` and
# Chromium), only where they are missing; as root directly, otherwise through sudo. Where
# there is no apt-get it says what to install and exits 0: those tests then skip, saying why
# (unless AUTOCONV_REQUIRE_SYSTEM_TOOLS=1, as .ci/run sets, makes them fail).
set -e
missing=""
command -v dot >/dev/null 2>&1 || missing="graphviz"
browser=""
for name in chromium chromium-browser google-chrome; do
    command -v "$name" >/dev/null 2>&1 && browser="$name" && break
done
[ -n "$browser" ] || missing="$missing chromium"
missing="${missing# }"
if [ -z "$missing" ]; then
    echo "system_packages.sh: graphviz and chromium are installed"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "system_packages.sh: no apt-get here; install $missing with your system's package" \
        "manager for the picture and browser tests (without them those tests skip)"
    exit 0
fi
if [ "$(id -u)" = 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
else
    echo "system_packages.sh: not root and no sudo; install $missing as root" \
        "(apt-get install $missing) for the picture and browser tests (without them those" \
        "tests skip)"
    exit 0
fi
echo "system_packages.sh: installing $missing with apt-get (for the picture and browser tests; this can take minutes)"
echo "system_packages.sh: apt-get update"
$sudo apt-get update -qq
echo "system_packages.sh: apt-get install $missing"
# shellcheck disable=SC2086  # $missing is a list of package names
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
echo "system_packages.sh: installed $missing"
