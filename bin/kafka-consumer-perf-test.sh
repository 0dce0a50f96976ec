#!/usr/bin/env bash
# Measures the consumer: consumes N records in a group and prints throughput figures:
#   kafka-consumer-perf-test.sh --bootstrap-server HOST:PORT --topic TOPIC --messages N [--show-detailed-stats]
exec "$(dirname "$0")/kafka-run-class.sh" kafka.tools.ConsumerPerformance "$@"
