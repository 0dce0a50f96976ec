#!/usr/bin/env bash
# Measures the producer: sends records as fast as allowed and prints throughput and latency figures:
#   kafka-producer-perf-test.sh --topic TOPIC --num-records N --record-size S --throughput -1 \
#       --producer-props bootstrap.servers=HOST:PORT
exec "$(dirname "$0")/kafka-run-class.sh" kafka.tools.ProducerPerformance "$@"
