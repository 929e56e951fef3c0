#!/usr/bin/env bash
# Installs what Scripts/release/package.sh made into a clean Debian root without any
# Swift toolchain, and checks that it works there:
#
#   1. the .deb, with `apt-get install ./launchprof_VERSION_amd64.deb` (apt
#      fetches the declared dependencies from the mirror);
#   2. the tarball, unpacked under /opt, with libunwind8 (what docs/install.md says
#      it needs) — in a second clean root, so that nothing of the .deb helps.
#
# In each: --version, ldd of the installed binaries, `launchprof run -r 5 --
# /bin/true`, a cold run, `--ready port:` on a small static C server, `launchprof
# profile` of a C program built with -g (the kernel's sampling, then the
# preload library's), `man
# launchprof-run`, and the bash completion sourced (`complete -p launchprof`);
# the zsh and fish files checked for what they declare
# (Scripts/checks/package-check/inside.sh). No process of the root may outlive the
# checks. Prints the time from a clean root to a first result.
#
# The root is made once by debootstrap (--variant=minbase, plus man-db) for
# the host's suite from the host's apt mirror, and cached in .build-package/
# (gitignored); each check runs on a throwaway overlay of it, so the cached
# root stays clean and reruns take seconds. Needs root (debootstrap, mounts,
# chroot); everything mounted is unmounted on exit, whatever the exit.
#
# Usage: Scripts/checks/check-package.sh      (after Scripts/release/package.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
project=$PWD
dist=${LAUNCHPROF_DIST:-$project/.build-dist}
cache=$project/.build-package

if [ "$(id -u)" -ne 0 ]; then
    echo "check-package: needs root (debootstrap, mount, chroot); run it with sudo" >&2
    exit 1
fi
version=$(sed -n 's/^public let launchprofVersion = "\([0-9A-Za-z.+~-]*\)"$/\1/p' Sources/Benchmark/LaunchEngine/Model/BenchmarkResult.swift)
deb="$dist/launchprof_${version}_amd64.deb"
name="launchprof-$version-x86_64-linux"
tarball="$dist/$name.tar.gz"
for file in "$deb" "$tarball"; do
    [ -f "$file" ] || { echo "check-package: $file is missing; run Scripts/release/package.sh first" >&2; exit 1; }
done
commit=$(dpkg-deb -f "$deb" Description | sed -n 's/.*Built \([0-9a-f]*\(-dirty\)\{0,1\}\)\..*/\1/p')
[ -n "$commit" ] || { echo "check-package: $deb's description names no commit" >&2; exit 1; }
missing=()
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v cc >/dev/null || missing+=(gcc)
[ -f /usr/lib/x86_64-linux-gnu/libc.a ] || missing+=(libc6-dev)
if [ ${#missing[@]} -gt 0 ]; then
    echo "check-package: installing ${missing[*]}" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The host's suite, and the mirror its apt uses for it.
. /etc/os-release
suite=${VERSION_CODENAME:?check-package: /etc/os-release names no VERSION_CODENAME}
mirror=$(
    cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v suite="$suite" '
        /^URIs:/ { uri = $2 } /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == suite) found = uri }
        /^$/ { uri = "" } END { print found }'
)
if [ -z "$mirror" ]; then
    mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        awk -v suite="$suite" '$1 == "deb" { sub(/\[[^]]*\] */, ""); if ($3 == suite) { print $2; exit } }')
fi
mirror=${mirror:-http://deb.debian.org/debian}

processes_under() { # pids of processes whose root is $1 or below it
    local entry root
    for entry in /proc/[0-9]*; do
        root=$(readlink "$entry/root" 2>/dev/null) || continue
        if [ "$root" = "$1" ] || [[ $root == "$1"/* ]]; then echo "${entry#/proc/}"; fi
    done
    return 0
}
unmount_under() { # every mount at or below $1, deepest first
    findmnt -rn -o TARGET | awk -v top="$1" '$0 == top || index($0, top "/") == 1' | sort -r |
        while read -r target; do umount "$target" 2>/dev/null || umount -l "$target"; done
}

since() { awk -v from="$1" -v to="$2" 'BEGIN { printf "%.1f", to - from }'; }

mkdir -p "$cache"
# One check at a time per clone; then what a killed check left (its overlay
# still mounted) is unmounted and removed.
exec 9>"$cache/lock"
if ! flock -n 9; then
    echo "check-package: another check-package is running on $cache; waiting for it" >&2
    flock 9
fi
for stale in "$cache"/run.*; do
    [ -d "$stale" ] || continue
    for pid in $(processes_under "$stale"); do kill -KILL "$pid" 2>/dev/null || true; done
    unmount_under "$stale"
    rm -rf --one-file-system "$stale"
done
base="$cache/root-$suite"
if [ ! -d "$base" ]; then
    echo "== debootstrap --variant=minbase --include=man-db $suite from $mirror into $base (once; cached)"
    unmount_under "$base.tmp"
    rm -rf --one-file-system "$base.tmp"
    started=$(date +%s.%N)
    if ! debootstrap --variant=minbase --include=man-db "$suite" "$base.tmp" "$mirror" >"$cache/debootstrap.log" 2>&1; then
        unmount_under "$base.tmp"
        tail -n 20 "$cache/debootstrap.log" >&2
        echo "check-package: debootstrap failed (the whole log: $cache/debootstrap.log)" >&2
        exit 1
    fi
    unmount_under "$base.tmp"
    rm -rf "$base.tmp/var/cache/apt/archives/"*.deb
    mv "$base.tmp" "$base"
    echo "debootstrap: $(since "$started" "$(date +%s.%N)") s"
fi

run=$(mktemp -d "$cache/run.XXXXXX")
merged=""
leftovers() { processes_under "$merged"; }
cleanup() {
    if [ -n "$merged" ]; then
        for pid in $(leftovers); do kill -KILL "$pid" 2>/dev/null || true; done
        unmount_under "$merged"
    fi
    rm -rf --one-file-system "$run"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== test programs: busy (C, -g, dynamic) and server (static)"
mkdir -p "$run/programs"
cc -g -O1 -fno-omit-frame-pointer -o "$run/programs/busy" Scripts/checks/package-check/busy.c
cc -static -O2 -o "$run/programs/server" Scripts/checks/package-check/server.c
cp Scripts/checks/package-check/inside.sh "$run/programs/inside.sh"

# A clean root: a fresh overlay over the cached one, with /proc, /sys and
# /dev (cold runs read /proc and evict through the page cache) and the
# host's resolv.conf (apt fetches dependencies from the mirror).
fresh_root() {
    local layer=$run/$1
    mkdir -p "$layer/upper" "$layer/work" "$layer/merged"
    merged=$layer/merged
    mount -t overlay overlay -o "lowerdir=$base,upperdir=$layer/upper,workdir=$layer/work" "$merged"
    mount -t proc proc "$merged/proc"
    mount -t sysfs sysfs "$merged/sys"
    mount --bind /dev "$merged/dev"
    cp /etc/resolv.conf "$merged/etc/resolv.conf"
    mkdir -p "$merged/opt/lp-check"
    cp "$run/programs/"* "$merged/opt/lp-check/"
    if chroot "$merged" /bin/sh -c 'command -v swift swiftc' >/dev/null ||
        [ -n "$(find "$merged" -xdev -name 'libswiftCore.so*' -print -quit)" ]; then
        echo "check-package: the root has a Swift toolchain" >&2
        exit 1
    fi
}
inside() { chroot "$merged" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
apt_install() { # from the cached lists; once more after an update when the mirror moved on
    inside apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>"$run/apt.err" ||
        { inside apt-get update -qq && inside apt-get install -y -qq --no-install-recommends "$@" >/dev/null; }
}
finish_root() {
    sleep 0.2
    local left
    left=$(leftovers | tr '\n' ' ')
    if [ -n "$left" ]; then
        ps -o pid,args -p "${left// /,}" >&2 || true
        echo "check-package: processes left behind in the root: $left" >&2
        exit 1
    fi
    unmount_under "$merged"
    merged=""
}
elapsed() { since "$1" "$(cat "$merged/tmp/lp-first-result")"; }
port=$((20000 + RANDOM % 20000))

echo "== 1. the .deb in a clean $suite root: apt-get install ./$(basename "$deb")"
fresh_root deb
started=$(date +%s.%N)
cp "$deb" "$merged/tmp/"
apt_install "/tmp/$(basename "$deb")"
installed=$(date +%s.%N)
inside dpkg-query -W -f='installed ${Package} ${Version}; Depends: ${Depends}\n' launchprof
inside /opt/lp-check/inside.sh /usr/bin/launchprof /usr/share "$version" "$commit" "$port"
deb_time="$(elapsed "$started") s from a clean root to a first result (install $(since "$started" "$installed") s)"
inside dpkg -L launchprof | grep -E '^/usr/(bin|libexec/launchprof|share/(man/man1|bash-completion|zsh|fish))/.' | sort
finish_root

echo "== 2. the tarball in a clean $suite root: unpacked in /opt, with libunwind8"
fresh_root tarball
started=$(date +%s.%N)
tar -C "$merged/opt" -xzf "$tarball"
apt_install libunwind8
inside /opt/lp-check/inside.sh "/opt/$name/bin/launchprof" "/opt/$name/share" "$version" "$commit" "$port"
tar_time="$(elapsed "$started") s from a clean root to a first result"
finish_root

echo "== sizes"
ls -l "$deb" "$tarball" | awk '{ printf "%8.1f MiB  %s\n", $5 / 1048576, $9 }'
echo "== check-package: passed; .deb: $deb_time; tarball: $tar_time"
