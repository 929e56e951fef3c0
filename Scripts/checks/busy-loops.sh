# Sourced, not run: busy loops for the scripts that measure under load
# (gate-power.sh, gate-resolution.sh, compare/budget-ratios-under-load.sh).
# Each loop's pid goes into `busy`; stop_busy stops and reaps them all, and
# the caller's EXIT trap calls it, so no loop outlives the script.
busy=()
# One more busy loop: one more core kept busy.
start_busy() {
    sh -c 'while :; do :; done' &
    busy+=("$!")
}
stop_busy() {
    for pid in "${busy[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    busy=()
}
