#!/usr/bin/env bash
# Checks docs/models/trace_ring.pml, the trace ring's claim / commit / release
# / snapshot protocol, with spin (every interleaving; what it covers is at the
# top of the model), then checks that the model has teeth: five broken
# protocols must each fail an assertion.
#
#   Scripts/checks/check-ring-model.sh          2 writers x 3 events, both policies (~10 s)
#   DEEP=1 Scripts/checks/check-ring-model.sh   also 3 writers (~2 min, 1.5 GiB)
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v spin >/dev/null; then
    echo "check-ring-model: installing spin (Debian)" >&2
    apt-get install -y spin >&2
fi
model=$PWD/docs/models/trace_ring.pml
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# verify NAME MODEL SPIN-FLAGS...: exhaustive safety search; prints its verdict.
verify() {
    local name=$1 file=$2
    shift 2
    spin "$@" -a "$file" >/dev/null
    gcc -O2 -w -DSAFETY -DCOLLAPSE -DMEMLIM=4096 -o pan pan.c
    ./pan -m200000 >result 2>&1 || true
    local errors states
    errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' result)
    states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' result)
    if grep -q "search not completed\|out of memory\|max search depth too small" result; then
        echo "$name: search incomplete" >&2
        cat result >&2
        return 2
    fi
    echo "$name: $states states, errors: $errors"
    [ "$errors" = 0 ]
}

status=0
verify "overwrite-oldest, 2 writers x 3 events" "$model" -DOVERWRITE=1 -DNW=2 -DE=3 || status=1
verify "drop-newest, 2 writers x 3 events" "$model" -DOVERWRITE=0 -DNW=2 -DE=3 || status=1
if [ -n "${DEEP:-}" ]; then
    verify "overwrite-oldest, 3 writers x 2 events" "$model" -DOVERWRITE=1 -DNW=3 -DE=2 || status=1
    verify "drop-newest, 3 writers x 3 events" "$model" -DOVERWRITE=0 -DNW=3 -DE=3 || status=1
fi

# Broken protocols the model must reject.
mutant() {  # name, sed expression
    sed "$2" "$model" >mutant.pml
    if cmp -s mutant.pml "$model"; then
        echo "check-ring-model: mutation '$1' changed nothing: the model no longer has that line" >&2
        status=1
    elif verify "broken: $1" mutant.pml -DOVERWRITE=1 >/dev/null; then
        echo "check-ring-model: broken protocol '$1' passed: the model misses it" >&2
        status=1
    else
        echo "broken: $1: rejected, as it must be"
    fi
}
mutant "a claimer takes a block its owner still writes into" 's/:: state\[idx\] != OWNED ->/:: true ->/'
mutant "a recycled block keeps its old epoch" 's/                    epoch\[idx\] = n;  \/\* then the release fence \*\//                    skip;/'
mutant "the reader does not re-check the epoch" 's/                    e2 = epoch\[blk\];/                    e2 = e1;/'
mutant "the reader keeps a marker of another epoch" 's/:: s1 != 0 \&\& (s1 - 1) \/ S == e1 ->/:: s1 != 0 ->/'
mutant "overwritten events are not counted" 's/d_step { overwritten = overwritten + count\[idx\] }/skip/'
exit $status
