#!/usr/bin/env bash
# End to end with swift-otel: Examples/OTelServer bootstraps swift-otel
# (OTLP/HTTP) and registers LaunchProfTracing and LaunchProfMetrics; this
# script starts a real OTLP/HTTP receiver on a loopback port
# (Scripts/checks/otlp-receiver.py: every request parsed strictly by the official
# opentelemetry-proto definitions), starts the server pointed at it
# (OTEL_EXPORTER_OTLP_ENDPOINT), sends it a request, stops it with SIGTERM,
# and checks what arrived:
#
#   - a `launch` span with service.name and process attributes on its
#     resource, milestones as its events, and the server's intervals (load
#     routes, build response cache, warm worker ×2) as its children;
#   - the launchprof_* metrics (time to launch complete, to each milestone).
#
# It prints the launch as received, and how long the first build took
# (swift-otel brings SwiftNIO, async-http-client and swift-protobuf: 7 to 10
# minutes on 2 cores). Nothing is left running, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/../.."
Scripts/install-deps.sh

started=$(date +%s)
if ! (cd Examples/OTelServer && swift build -c release >"${TMPDIR:-/tmp}/launchprof-otel-build.log" 2>&1); then
    grep -E "error:" -A3 "${TMPDIR:-/tmp}/launchprof-otel-build.log" >&2 || tail -30 "${TMPDIR:-/tmp}/launchprof-otel-build.log" >&2
    echo "check-otel: FAILED: Examples/OTelServer does not build (log: ${TMPDIR:-/tmp}/launchprof-otel-build.log)" >&2
    exit 1
fi
echo "check-otel: Examples/OTelServer built in $(( $(date +%s) - started )) s"
server_bin="$(cd Examples/OTelServer && swift build -c release --show-bin-path)/OTelServer"

work="$(mktemp -d "${TMPDIR:-/tmp}/launchprof-otel-XXXXXX")"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# wait_for SECONDS WHAT COMMAND...: polls COMMAND every 0.1 s.
wait_for() {
    local deadline=$(( $(date +%s) + $1 )) what=$2
    shift 2
    until "$@"; do
        if [ "$(date +%s)" -ge "$deadline" ]; then echo "check-otel: FAILED: no $what" >&2; return 1; fi
        sleep 0.1
    done
}

python3 Scripts/checks/otlp-receiver.py "$work/port" "$work/received.jsonl" 2>"$work/receiver.log" &
pids+=($!)
wait_for 10 "receiver port" test -s "$work/port"
endpoint="http://127.0.0.1:$(cat "$work/port")"

OTEL_EXPORTER_OTLP_ENDPOINT="$endpoint" "$server_bin" --port 0 >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
pids+=("$server_pid")
wait_for 30 "'listening on' line from the server" grep -q "listening on" "$work/server.out"
address=$(sed -n 's/^listening on //p' "$work/server.out")
answer=$(curl -s --max-time 5 "http://$address/")
[ "$answer" = "hello" ] || { echo "check-otel: FAILED: the server answered '$answer'" >&2; exit 1; }

received() { grep -q "\"$1\"" "$work/received.jsonl" 2>/dev/null; }
wait_for 30 "launch span at the receiver" received launch
wait_for 30 "launchprof_launch_complete metric at the receiver" received launchprof_launch_complete

kill -TERM "$server_pid"
for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$server_pid" 2>/dev/null; then echo "check-otel: FAILED: the server did not stop within 10 s of SIGTERM" >&2; exit 1; fi
wait "$server_pid" || { echo "check-otel: FAILED: the server exited with $? after SIGTERM" >&2; cat "$work/server.err" >&2; exit 1; }

python3 - "$work/received.jsonl" <<'PY'
import base64, json, sys
spans, resources, metrics = [], [], {}
for line in open(sys.argv[1]):
    entry = json.loads(line)
    request = entry["request"]
    if entry["path"] == "/v1/traces":
        for resource_spans in request.get("resourceSpans", []):
            resources.append({a["key"]: a["value"] for a in resource_spans.get("resource", {}).get("attributes", [])})
            for scope in resource_spans.get("scopeSpans", []):
                spans.extend(scope.get("spans", []))
    else:
        for resource_metrics in request.get("resourceMetrics", []):
            for scope in resource_metrics.get("scopeMetrics", []):
                for metric in scope.get("metrics", []):
                    metrics.setdefault(metric["name"], metric)

def fail(message):
    print(f"check-otel: FAILED: {message}", file=sys.stderr)
    sys.exit(1)

launch = [s for s in spans if s["name"] == "launch"]
if len(launch) != 1: fail(f"{len(launch)} launch spans, expected 1")
launch = launch[0]
if not any(r.get("service.name", {}).get("stringValue") == "launchprof-otel-server" for r in resources):
    fail(f"no resource with service.name launchprof-otel-server: {resources}")
attributes = {a["key"]: a["value"] for a in launch.get("attributes", [])}
for key in ("process.pid", "process.executable.name"):
    if key not in attributes: fail(f"the launch span has no {key}: {attributes}")
events = [e["name"] for e in launch.get("events", [])]
if events != ["process entry", "main", "routes loaded", "workers warm"]: fail(f"launch events {events}")
children = [s for s in spans if s.get("parentSpanId") == launch["spanId"]]
names = sorted(s["name"] for s in children)
if names != ["build response cache", "load routes", "warm worker", "warm worker"]: fail(f"launch children {names}")
if any(s["traceId"] != launch["traceId"] for s in children): fail("a child span in another trace")
start, end = int(launch["startTimeUnixNano"]), int(launch["endTimeUnixNano"])
for s in children:
    if not (start <= int(s["startTimeUnixNano"]) <= int(s["endTimeUnixNano"]) <= end): fail(f"{s['name']} outside the launch")
for name in ("launchprof_launch_complete", "launchprof_milestone", "launchprof_main"):
    if name not in metrics: fail(f"no metric {name}: got {sorted(metrics)}")

hex_id = lambda value: base64.b64decode(value).hex()  # bytes fields are base64 in protobuf's JSON mapping
ms = lambda a, b: (int(b) - int(a)) / 1e6
print(f"check-otel: received launch span (trace {hex_id(launch['traceId'])}) {ms(launch['startTimeUnixNano'], launch['endTimeUnixNano']):.2f} ms "
      f"(pid {attributes['process.pid'].get('intValue')}, {attributes['process.executable.name']['stringValue']})")
for e in launch.get("events", []):
    print(f"  event  {e['name']:22} +{ms(launch['startTimeUnixNano'], e['timeUnixNano']):8.2f} ms")
for s in sorted(children, key=lambda s: int(s["startTimeUnixNano"])):
    print(f"  span   {s['name']:22} +{ms(launch['startTimeUnixNano'], s['startTimeUnixNano']):8.2f} ms  {ms(s['startTimeUnixNano'], s['endTimeUnixNano']):7.2f} ms")
print("check-otel: received metrics " + ", ".join(sorted(n for n in metrics if n.startswith("launchprof_"))))
PY
echo "check-otel: OK"
