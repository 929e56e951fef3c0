#!/bin/bash
# Runs inside the clean Debian root of Scripts/checks/check-package.sh, as root, with
# no Swift toolchain: every check of an installed launchprof.
#
# Usage: inside.sh LAUNCHPROF SHARE VERSION COMMIT PORT
#   LAUNCHPROF  the installed executable (/usr/bin/launchprof, or bin/ of the unpacked tarball)
#   SHARE       its share/ folder (man pages, completions)
#   PORT        a free TCP port for the --ready port: check
# The test programs are in /opt/lp-check (busy: C with -g, dynamic; server: static).
set -euo pipefail
launchprof=$1 share=$2 version=$3 commit=$4 port=$5
work=$(mktemp -d /tmp/lp-check.XXXXXX)
cd "$work"

fail() {
    echo "FAIL: $*" >&2
    exit 1
}
step() { echo "-- $*"; }

step "$launchprof --version"
said=$("$launchprof" --version)
echo "$said"
[[ $said == *"$version"*"$commit"* ]] || fail "--version says '$said', not $version and $commit"

step "shared libraries"
for file in "$launchprof" "$(dirname "$(dirname "$launchprof")")"/libexec/launchprof/*; do
    echo "$file:"
    ldd "$file" 2>&1 | sed 's/^/    /' || true
    ! ldd "$file" 2>&1 | grep -q 'not found' || fail "$file misses a shared library"
done

step "launchprof run -r 5 -- /bin/true"
"$launchprof" run -r 5 --export-json run.json -- /bin/true
grep -q '"mode" *: *"warm"' run.json || fail "run.json has no warm run: $(head -c 400 run.json)"
date +%s.%N >/tmp/lp-first-result

step "launchprof run --mode cold -r 3 -- /bin/true"
"$launchprof" run --mode cold -r 3 --export-json cold.json -- /bin/true
grep -q '"mode" *: *"cold"' cold.json || fail "cold.json has no cold run"

step "launchprof run -r 3 --ready port:$port -- /opt/lp-check/server $port"
"$launchprof" run -r 3 --ready "port:$port" --export-json port.json -- /opt/lp-check/server "$port"
grep -q "port:$port" port.json || fail "port.json does not name the probe port:$port"

# The kernel's sampling (the default; libunwind-x86_64.so.8 is opened to
# walk the stacks), then the program's own (the preload library).
for sampler in kernel in-process; do
    step "launchprof profile --sampler $sampler -- /opt/lp-check/busy"
    "$launchprof" profile --quiet --runs 1 --sampler "$sampler" --output-dir "profile-$sampler" -- /opt/lp-check/busy
    folded=profile-$sampler/busy.folded
    grep -q 'lp_check_busy' "$folded" || fail "the $sampler profile does not name lp_check_busy: $(head -c 400 "$folded")"
    echo "$(wc -l <"$folded") stacks; $(grep -c 'lp_check_inner' "$folded") through lp_check_inner"
done

step "man launchprof-run"
if [ "$share" = /usr/share ]; then
    MANPAGER=cat MANWIDTH=80 man launchprof-run >man.txt 2>man.err || fail "man launchprof-run: $(cat man.err)"
else
    MANPAGER=cat MANWIDTH=80 man -M "$share/man" launchprof-run >man.txt 2>man.err || fail "man -M $share/man launchprof-run: $(cat man.err)"
fi
grep -q 'launchprof run' man.txt || fail "the page does not show 'launchprof run'"
head -n 4 man.txt
for page in launchprof launchprof-compare launchprof-report launchprof-profile launchprof-record launchprof-export launchprof-explain; do
    [ -s "$share/man/man1/$page.1.gz" ] || fail "no man page $page"
done

step "completions: bash source + complete -p; zsh and fish files"
bash -c "source '$share/bash-completion/completions/launchprof' && complete -p launchprof" || fail "bash completion"
grep -q '^#compdef launchprof' "$share/zsh/vendor-completions/_launchprof" || fail "zsh completion"
grep -Eq "complete -c '?launchprof'? " "$share/fish/vendor_completions.d/launchprof.fish" || fail "fish completion"

cd /
rm -rf "$work"
echo "-- all checks passed for $launchprof"
