#!/usr/bin/env bash
# End to end with the real Prometheus server and Pushgateway (Debian's
# prometheus and prometheus-pushgateway packages), both on loopback ports
# of their own and stopped when this script ends, whatever happens:
#
#   1. `launchprof run --export-openmetrics` on the bundled samples, and
#      `promtool check metrics` on the file, and on one whose target and
#      label hold CR LF, quotes, backslashes and control characters;
#   2. two `launchprof run --push-gateway` runs with different commit labels,
#      each scraped by Prometheus before the next (a push replaces its group);
#   3. a PromQL query over Prometheus's HTTP API for each commit's median time
#      to ready, which must equal the JSON results' median of that run;
#   4. `launchprof history --prometheus` reads the two runs back as a
#      history: each target's series has both commits, the newest median
#      equal to the JSON's; a server that is not there is named in the error;
#   5. a push to a gateway that is not there fails with exit status 2, a
#      message naming the URL, and the JSON written anyway.
#
# Skips (exit 0, with a message) only where the packages cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v prometheus >/dev/null || ! command -v prometheus-pushgateway >/dev/null || ! command -v promtool >/dev/null; then
    if command -v apt-get >/dev/null; then
        sudo=(); [ "$(id -u)" -ne 0 ] && sudo=(sudo)
        "${sudo[@]}" apt-get install -y -qq prometheus prometheus-pushgateway >/dev/null 2>&1 \
            || { "${sudo[@]}" apt-get update -qq >/dev/null 2>&1 && "${sudo[@]}" apt-get install -y -qq prometheus prometheus-pushgateway >/dev/null 2>&1; } || true
    fi
    if ! command -v prometheus >/dev/null || ! command -v prometheus-pushgateway >/dev/null; then
        echo "check-prometheus: SKIPPED: the prometheus and prometheus-pushgateway packages cannot be installed here" >&2
        exit 0
    fi
fi

swift build >/dev/null
bin="$(swift build --show-bin-path)"
work="$(mktemp -d "${TMPDIR:-/tmp}/launchprof-prometheus-XXXXXX")"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
gateway_port="$(free_port)"
prometheus_port="$(free_port)"
gateway="http://127.0.0.1:$gateway_port"
server="http://127.0.0.1:$prometheus_port"

prometheus-pushgateway --web.listen-address="127.0.0.1:$gateway_port" --persistence.file="" \
    >"$work/pushgateway.log" 2>&1 &
pids+=($!)
cat >"$work/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: pushgateway
    honor_labels: true
    static_configs:
      - targets: ['127.0.0.1:$gateway_port']
YAML
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
    --web.listen-address="127.0.0.1:$prometheus_port" >"$work/prometheus.log" 2>&1 &
pids+=($!)

wait_for() {  # URL, what
    for _ in $(seq 1 200); do
        curl -sf "$1" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    echo "check-prometheus: $2 did not come up; its log:" >&2
    cat "$work"/*.log >&2
    exit 1
}
wait_for "$gateway/-/ready" "the Pushgateway"
wait_for "$server/-/ready" "Prometheus"

config="$work/launchprof.yml"
cat >"$config" <<YAML
version: 1
reference: hello-c
defaults: {runs: 10, warmup: 1, modes: [warm]}
targets:
  - name: hello-c
    command: [$bin/lp-hello-c]
  - name: sample-app
    command: [$bin/lp-sample-app]
    ready: tracer
    budgets:
      - {metric: wall_to_ready, statistic: p50, limit: 1000x hello-c}
push:
  job: launchprof-check
  labels: {suite: check-prometheus}
YAML

echo "== exposition file, checked by promtool" >&2
"$bin/launchprof" run --config "$config" --export-openmetrics "$work/launch.prom" --label commit=file >/dev/null
promtool check metrics <"$work/launch.prom"

echo "== exposition with hostile names (CR LF, quotes, backslashes, control characters), checked by promtool" >&2
(cd "$work" && "$bin/launchprof" run -r 2 -w 0 -n "$(printf 'a\r\nb"c\\d\001e\177f\302\205g\nh\rend')" \
    --label "$(printf 'note=x\r\ny')" --export-openmetrics "$work/hostile.prom" -- /bin/true >/dev/null)
promtool check metrics <"$work/hostile.prom"

for commit in aaaaaaa bbbbbbb; do
    echo "== run $commit, pushed to $gateway" >&2
    "$bin/launchprof" run --config "$config" --push-gateway "$gateway" --label "commit=$commit" \
        --export-json "$work/$commit.json" >/dev/null
    # Wait until Prometheus has scraped this run, before the next push replaces it.
    query="launchprof_runs{commit=\"$commit\",target=\"sample-app\"}"
    for i in $(seq 1 100); do
        count="$(curl -sf --get "$server/api/v1/query" --data-urlencode "query=$query" \
            | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["data"]["result"]))')"
        [ "$count" -gt 0 ] && break
        [ "$i" -eq 100 ] && { echo "check-prometheus: Prometheus never scraped commit $commit" >&2; exit 1; }
        sleep 0.2
    done
done

echo "== PromQL: each commit's median time to ready equals the JSON's" >&2
for commit in aaaaaaa bbbbbbb; do
    for target in hello-c sample-app; do
        query="last_over_time(launchprof_time_to_ready_seconds{commit=\"$commit\",target=\"$target\",mode=\"warm\",quantile=\"0.5\",job=\"launchprof-check\",suite=\"check-prometheus\"}[10m])"
        curl -sf --get "$server/api/v1/query" --data-urlencode "query=$query" >"$work/answer.json"
        python3 - "$work/answer.json" "$work/$commit.json" "$target" "$commit" <<'PY'
import json, sys
answer, results, target, commit = sys.argv[1:]
series = json.load(open(answer))["data"]["result"]
if len(series) != 1:
    sys.exit(f"check-prometheus: expected one series for {target} at {commit}, got {len(series)}: {series}")
promql = float(series[0]["value"][1])
document = json.load(open(results))
median = next(r for r in document["results"] if r["target"]["name"] == target)["summaries"]["wall_to_ready"]["median"] / 1e9
if abs(promql - median) > 1e-12 * max(1.0, median):
    sys.exit(f"check-prometheus: {target} at {commit}: PromQL says {promql!r}, the JSON {median!r}")
print(f"  {commit} {target}: median time to ready {median * 1e3:.3f} ms in both", file=sys.stderr)
PY
    done
done

echo "== launchprof history --prometheus: the pushed runs read back as a history, each commit a point" >&2
"$bin/launchprof" history --prometheus "$server" --range 1h --metric wall_to_ready --export-json "$work/history.json" >"$work/history.txt"
python3 - "$work/history.json" "$work/aaaaaaa.json" "$work/bbbbbbb.json" <<'PY'
import json, sys
history, first, last = (json.load(open(path)) for path in sys.argv[1:])
for target in ("hello-c", "sample-app"):
    series = [s for s in history["series"] if s["key"]["target"] == target and s["key"]["mode"] == "warm"]
    if len(series) != 1:
        sys.exit(f"check-prometheus: history: expected one warm wall_to_ready series of {target}, got {len(series)}")
    s = series[0]
    if s["points"] != 2 or s["lastCommit"] != "bbbbbbb":
        sys.exit(f"check-prometheus: history: {target}: {s['points']} points, last commit {s['lastCommit']} (expected 2, bbbbbbb)")
    # Two points and no change point: the series' current median is the
    # median of both runs' medians, as each run's JSON has them.
    medians = [next(r for r in d["results"] if r["target"]["name"] == target)["summaries"]["wall_to_ready"]["median"]
               for d in (first, last)]
    expected = sum(medians) / 2
    if abs(s["currentMedian"] - expected) > 1e-9 * expected:
        sys.exit(f"check-prometheus: history: {target}: current median {s['currentMedian']} ns, the two JSONs' {expected} ns")
    print(f"  history {target}: 2 points (aaaaaaa, bbbbbbb), median {expected / 1e6:.3f} ms as pushed", file=sys.stderr)
PY
if "$bin/launchprof" history --prometheus "http://127.0.0.1:9/" --range 1h >/dev/null 2>"$work/history-error.txt"; then
    echo "check-prometheus: history --prometheus on a closed port succeeded" >&2; exit 1
fi
grep -q "prometheus 'http://127.0.0.1:9/'" "$work/history-error.txt" \
    || { echo "check-prometheus: history's error does not name the URL: $(cat "$work/history-error.txt")" >&2; exit 1; }

echo "== docs/prometheus-alerts.yml (promtool) and every query of docs/grafana-dashboard.json (Prometheus)" >&2
promtool check rules docs/prometheus-alerts.yml >/dev/null
python3 - "$server" <<'PY'
import json, sys, urllib.parse, urllib.request
server = sys.argv[1]
dashboard = json.load(open("docs/grafana-dashboard.json"))
queries = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
for variable in dashboard["templating"]["list"]:
    if variable["type"] == "query":  # label_values(METRIC, LABEL) as the query Grafana makes of it
        metric, label = variable["query"][len("label_values("):-1].split(", ")
        queries.append(f"count by ({label}) ({metric})")
for query in queries:
    text = query.replace("$target", ".*").replace("$mode", ".*").replace("$machine", ".*")
    url = server + "/api/v1/query?" + urllib.parse.urlencode({"query": text})
    try:
        answer = json.load(urllib.request.urlopen(url))
    except Exception as error:
        sys.exit(f"check-prometheus: the dashboard query {query!r} failed: {error}")
    if answer.get("status") != "success":
        sys.exit(f"check-prometheus: the dashboard query {query!r} failed: {answer}")
print(f"  {len(queries)} dashboard queries accepted", file=sys.stderr)
PY

echo "== a gateway that is not there: exit 2, the URL named, the results written first" >&2
dead="http://127.0.0.1:$(free_port)"
set +e
"$bin/launchprof" run -r 2 -w 0 "$bin/lp-hello-c" --push-gateway "$dead" --export-json "$work/dead.json" >/dev/null 2>"$work/dead.err"
status=$?
set -e
[ "$status" -eq 2 ] || { echo "check-prometheus: expected exit 2, got $status" >&2; cat "$work/dead.err" >&2; exit 1; }
grep -q "cannot push to $dead/metrics/job@base64/" "$work/dead.err" || { cat "$work/dead.err" >&2; exit 1; }
[ -s "$work/dead.json" ] || { echo "check-prometheus: the JSON was not written before the push" >&2; exit 1; }
echo "check-prometheus: passed" >&2
