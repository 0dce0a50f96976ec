#!/usr/bin/env bash
# Records client traffic through a proxy (point the broker's advertised.listeners at --listen):
#   kafka-traffic-record.sh --listen HOST:PORT --target HOST:PORT --out FILE [--manifest FILE ...]
exec "$(dirname "$0")/kafka-run-class.sh" kafka.tools.conformance.TrafficRecorder "$@"
