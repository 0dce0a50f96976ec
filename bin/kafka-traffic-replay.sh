#!/usr/bin/env bash
# Replays a recorded session against a broker and compares the responses with the recorded ones:
#   kafka-traffic-replay.sh FILE --bootstrap-server HOST:PORT [--verbose] [--json REPORT]
exec "$(dirname "$0")/kafka-run-class.sh" kafka.tools.conformance.TrafficReplayer "$@"
