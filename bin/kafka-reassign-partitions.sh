#!/usr/bin/env bash
# Moves partitions between brokers (Kafka 2.8's ReassignPartitionsCommand):
#   kafka-reassign-partitions.sh --bootstrap-server HOST:PORT (--generate --topics-to-move-json-file F --broker-list 0,1,2
#     | --execute --reassignment-json-file F [--throttle B] [--additional] | --verify --reassignment-json-file F
#     | --cancel --reassignment-json-file F | --list)
exec "$(dirname "$0")/kafka-run-class.sh" kafka.admin.ReassignPartitionsCommand "$@"
