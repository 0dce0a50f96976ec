#!/usr/bin/env bash
# Prints topic:partition:offset for the matching partitions (latest, earliest, or by timestamp):
#   kafka-get-offsets.sh --bootstrap-server HOST:PORT --topic TOPIC [--partitions 0,1] [--time -1|-2|TIMESTAMP]
exec "$(dirname "$0")/kafka-run-class.sh" kafka.tools.GetOffsetShell "$@"
