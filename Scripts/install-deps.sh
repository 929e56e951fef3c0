#!/usr/bin/env bash
# Installs the system packages launchprof needs on a fresh Debian/Ubuntu machine:
#   libunwind-dev  the sampler's unwinder (pkg-config: libunwind)
#   pkg-config     how SwiftPM finds libunwind
#   hyperfine      Scripts/compare/compare-hyperfine.sh measures against it
#   systemd        provides systemd-notify, a real sd_notify client for tests
#   time           GNU time: tests compare max RSS with `/usr/bin/time -f %M`
#   curl           launchprof run --push-gateway sends with it; scripts query Prometheus with it
#   libxcb1-dev, libxcb-damage0-dev, libxcb-res0-dev
#                  headers for --ready window/frame (launchprof opens the libraries with dlopen)
#   xvfb, xterm, x11-apps, python3-tk, zenity
#                  the window tests: a private X display and real desktop programs (X, Tk, GTK)
#   golang-go      `go tool pprof`, the independent reader of the pprof profiles in the tests
# and, from PyPI, opentelemetry-proto (the end-to-end tests parse
# `export --format otlp` with its definitions).
# Does nothing when everything is there; never upgrades what is installed.
set -euo pipefail

if ! python3 -c 'import opentelemetry.proto.collector.trace.v1.trace_service_pb2' 2>/dev/null; then
    echo "install-deps: installing opentelemetry-proto (PyPI)" >&2
    python3 -m pip install --quiet --disable-pip-version-check opentelemetry-proto >&2
fi

packages=(libunwind-dev pkg-config hyperfine systemd time curl libxcb1-dev libxcb-damage0-dev libxcb-res0-dev xvfb xterm x11-apps python3-tk zenity golang-go)
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null; then
    echo "install-deps: missing ${missing[*]}, and this machine has no apt-get: install them with your package manager" >&2
    exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then sudo=(sudo); else
        echo "install-deps: missing ${missing[*]}; run as root: apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
fi
echo "install-deps: installing ${missing[*]}" >&2
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
