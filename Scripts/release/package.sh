#!/usr/bin/env bash
# Builds a release of launchprof and packages it for machines without Swift:
#
#   <out>/launchprof-VERSION-x86_64-linux.tar.gz   bin/, libexec/launchprof/, share/ (man pages, completions)
#   <out>/launchprof_VERSION_amd64.deb             the same under /usr, dependencies from dpkg-shlibdeps
#
# <out> is .build-dist/ (gitignored) unless LAUNCHPROF_DIST names another
# folder. The version is launchprofVersion in the sources; the commit is
# git's (with -dirty when tracked files differ from it), passed to the build
# as LAUNCHPROF_COMMIT (Plugins/BuildCommit), and `launchprof --version` is
# checked to say both.
#
# The CLI links the Swift runtime and Foundation statically, lp-spawn is a
# static C program, and the preload library links the C library and libunwind
# alone: the script fails if any of them needs a shared library of the Swift
# toolchain (readelf's NEEDED entries, and ldd's resolved paths), or one that
# cannot be found. Man pages come from swift-argument-parser's generate-manual
# plugin (one page per subcommand), completions from
# `launchprof --generate-completion-script`.
#
# Usage: Scripts/release/package.sh     (then Scripts/checks/check-package.sh tests what it made)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
. Scripts/checks/swiftpm-crash-retry.sh
out=${LAUNCHPROF_DIST:-$root/.build-dist}

Scripts/install-deps.sh
for tool in dpkg-deb dpkg-shlibdeps readelf gzip; do
    if ! command -v "$tool" >/dev/null; then
        echo "package: $tool is missing (apt-get install -y dpkg-dev binutils gzip)" >&2
        exit 1
    fi
done

version=$(sed -n 's/^public let launchprofVersion = "\([0-9A-Za-z.+~-]*\)"$/\1/p' Sources/Benchmark/LaunchEngine/Model/BenchmarkResult.swift)
if [ -z "$version" ]; then
    echo "package: cannot read launchprofVersion from Sources/Benchmark/LaunchEngine/Model/BenchmarkResult.swift" >&2
    exit 1
fi
commit=$(git rev-parse --short=12 HEAD)
git diff --quiet HEAD -- || commit="$commit-dirty"
export LAUNCHPROF_COMMIT=$commit
# Dates in the packages are the commit's, so that the same commit packs the same files.
epoch=$(git log -1 --format=%ct HEAD)
day=$(date -u -d "@$epoch" +%Y-%m-%d)
name="launchprof-$version-x86_64-linux"
echo "== launchprof $version (commit $commit) into $out"

echo "== release build, and man pages (generate-manual builds every product in release first)"
# The plugin writes into .build/plugins/GenerateManual/outputs/<target>;
# emptied first, so that a page of a removed subcommand is not packed.
manuals="$root/.build/plugins/GenerateManual/outputs/launchprof"
rm -rf "$manuals"
swiftpm_crash_retry swift package plugin generate-manual --multi-page --date "$day" \
    --authors "launchprof contributors" >/dev/null
swift build -c release --product launchprof >/dev/null
swift build -c release --product lp-spawn >/dev/null
bin=$(swift build -c release --show-bin-path)
launchprof="$bin/launchprof"
spawner="$bin/lp-spawn"
preload="$bin/launchprof_launchprof.resources/liblaunchprof-preload.so"
audit="$bin/launchprof_launchprof.resources/liblaunchprof-audit.so"
for file in "$launchprof" "$spawner" "$preload" "$audit" "$manuals/launchprof.1" "$manuals/launchprof.run.1"; do
    [ -f "$file" ] || { echo "package: the build did not make $file" >&2; exit 1; }
done

echo "== checks: --version, and no shared library of the Swift toolchain"
said=$("$launchprof" --version)
case "$said" in
    *"$version"*"$commit"*) echo "$said" ;;
    *) echo "package: launchprof --version says '$said', not version $version and commit $commit" >&2; exit 1 ;;
esac
toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")
for file in "$launchprof" "$spawner" "$preload" "$audit"; do
    needed=$(readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
    echo "$(basename "$file") needs: ${needed:-nothing (static)}"
    if printf '%s\n' $needed | grep -E '^lib(swift|Foundation|_Foundation|dispatch|BlocksRuntime|icu|XCTest)' >/dev/null; then
        echo "package: $file needs a Swift toolchain library ($needed)" >&2
        exit 1
    fi
    libraries=$(ldd "$file" 2>&1 || true)
    if grep -q 'not found' <<<"$libraries" || grep -qF "$toolchain" <<<"$libraries"; then
        echo "package: $file loads from the toolchain or misses a library:" >&2
        echo "$libraries" >&2
        exit 1
    fi
done

echo "== staging"
stage="$out/stage"
rm -rf "$stage" "$out/$name.tar.gz" "$out"/launchprof_*_amd64.deb
tree="$stage/$name"
mkdir -p "$tree/bin" "$tree/libexec/launchprof" "$tree/share/man/man1" "$tree/share/doc/launchprof" \
    "$tree/share/bash-completion/completions" "$tree/share/zsh/vendor-completions" "$tree/share/fish/vendor_completions.d"
install -m 755 -s "$launchprof" "$tree/bin/launchprof"
install -m 755 -s "$spawner" "$tree/libexec/launchprof/lp-spawn"
# The preload library keeps its symbols: profiles of it name its functions.
install -m 644 "$preload" "$tree/libexec/launchprof/liblaunchprof-preload.so"
install -m 644 "$audit" "$tree/libexec/launchprof/liblaunchprof-audit.so"
# generate-manual names subcommand pages launchprof.run.1 (title LAUNCHPROF.RUN);
# `man launchprof-run` wants launchprof-run.1, as git's and systemd's pages are named.
for page in "$manuals"/*.1; do
    file=$(basename "$page" .1 | tr . -)
    awk '$1 == ".Dt" { gsub(/\./, "-", $2) } { print }' "$page" | gzip -9n >"$tree/share/man/man1/$file.1.gz"
done
"$launchprof" --generate-completion-script bash >"$tree/share/bash-completion/completions/launchprof"
"$launchprof" --generate-completion-script zsh >"$tree/share/zsh/vendor-completions/_launchprof"
"$launchprof" --generate-completion-script fish >"$tree/share/fish/vendor_completions.d/launchprof.fish"
cp README.md "$tree/share/doc/launchprof/README.md"
find "$tree" -exec touch -h -d "@$epoch" {} +

echo "== $name.tar.gz"
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -cf - "$name" |
    gzip -9n >"$out/$name.tar.gz.tmp"
mv "$out/$name.tar.gz.tmp" "$out/$name.tar.gz"

echo "== launchprof_${version}_amd64.deb"
deb="$stage/deb"
mkdir -p "$deb/DEBIAN" "$deb/usr"
cp -a "$tree/." "$deb/usr/"
gzip -9n "$deb/usr/share/doc/launchprof/README.md"
# dpkg-shlibdeps reads the packages that provide each NEEDED library from
# dpkg's database; it wants a debian/control to read, which is all it gets.
shlibs=$(
    cd "$stage" && mkdir -p debian && printf 'Source: launchprof\n\nPackage: launchprof\nArchitecture: amd64\n' >debian/control &&
        dpkg-shlibdeps -O -e"deb/usr/bin/launchprof" -e"deb/usr/libexec/launchprof/lp-spawn" \
            -e"deb/usr/libexec/launchprof/liblaunchprof-preload.so" \
            -e"deb/usr/libexec/launchprof/liblaunchprof-audit.so" 2>/dev/null
)
depends=${shlibs#shlibs:Depends=}
if [ -z "$depends" ] || grep -qiE 'swift|foundation' <<<"$depends"; then
    echo "package: dpkg-shlibdeps gave '$shlibs'" >&2
    exit 1
fi
echo "Depends: $depends"
# The Maintainer field: LAUNCHPROF_MAINTAINER, or the author of the commit packaged.
maintainer=${LAUNCHPROF_MAINTAINER:-$(git log -1 --format='%an <%ae>' HEAD)}
installed=$(du -sk --apparent-size "$deb/usr" | cut -f1)
cat >"$deb/DEBIAN/control" <<EOF
Package: launchprof
Version: $version
Architecture: amd64
Maintainer: $maintainer
Installed-Size: $installed
Depends: $depends
Suggests: man-db, bash-completion
Section: devel
Priority: optional
Description: launch-performance profiler and launch benchmark for Linux executables
 launchprof run measures cold and warm launches of any executable (C, Rust,
 Python, a server) to exit or to ready: sd_notify, a TCP port, an output line
 or LaunchProf's tracer, with CPU, memory and page faults and honest
 statistics, budgets and baselines for CI. launchprof profile samples a
 launch's call stacks from process entry, through a preload library for any
 dynamically linked program. Built $commit.
EOF
(cd "$deb" && find usr -type f -exec md5sum {} + | sort -k 2 >DEBIAN/md5sums)
find "$deb" -exec touch -h -d "@$epoch" {} +
SOURCE_DATE_EPOCH=$epoch dpkg-deb --root-owner-group -Zxz --build "$deb" "$out/launchprof_${version}_amd64.deb.tmp" >/dev/null
mv "$out/launchprof_${version}_amd64.deb.tmp" "$out/launchprof_${version}_amd64.deb"
rm -rf "$stage"

echo "== made"
ls -l "$out/$name.tar.gz" "$out/launchprof_${version}_amd64.deb"
