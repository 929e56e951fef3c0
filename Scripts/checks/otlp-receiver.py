#!/usr/bin/env python3
"""A minimal OTLP/HTTP receiver, for Scripts/checks/check-otel.sh.

Listens on 127.0.0.1 (an ephemeral port, written to PORT_FILE once bound),
accepts POST /v1/traces and /v1/metrics in binary protobuf, parses each body
strictly with the official definitions (opentelemetry-proto) into an
ExportTraceServiceRequest or ExportMetricsServiceRequest, answers as the
OTLP/HTTP spec asks (200 with an empty response message; 400 for a body that
does not parse, 404 for any other path), and appends every request to
OUT_FILE as one JSON line (protobuf's JSON mapping).

Usage: otlp-receiver.py PORT_FILE OUT_FILE
"""
import http.server
import json
import os
import sys

from google.protobuf import json_format
from opentelemetry.proto.collector.metrics.v1 import metrics_service_pb2
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2

SIGNALS = {
    "/v1/traces": (trace_service_pb2.ExportTraceServiceRequest, trace_service_pb2.ExportTraceServiceResponse),
    "/v1/metrics": (metrics_service_pb2.ExportMetricsServiceRequest, metrics_service_pb2.ExportMetricsServiceResponse),
}


class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        signal = SIGNALS.get(self.path)
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if signal is None:
            self.answer(404, b"")
            return
        request_type, response_type = signal
        request = request_type()
        try:
            request.ParseFromString(body)
        except Exception as error:  # a body that is not the message: the sender is wrong
            self.answer(400, str(error).encode())
            return
        with open(OUT_FILE, "a") as out:
            out.write(json.dumps({"path": self.path, "request": json_format.MessageToDict(request)}) + "\n")
        self.answer(200, response_type().SerializeToString())

    def answer(self, status, body):
        self.send_response(status)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    PORT_FILE, OUT_FILE = sys.argv[1], sys.argv[2]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    with open(PORT_FILE + ".tmp", "w") as port_file:
        port_file.write(str(server.server_address[1]))
    os.rename(PORT_FILE + ".tmp", PORT_FILE)
    server.serve_forever()
