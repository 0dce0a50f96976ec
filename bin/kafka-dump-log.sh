#!/usr/bin/env bash
# Dumps segment, index, time index, transaction index and producer snapshot files:
#   kafka-dump-log.sh --files 00000000000000000000.log[,...] [--print-data-log] [--deep-iteration] ...
exec "$(dirname "$0")/kafka-run-class.sh" kafka.tools.DumpLogSegments "$@"
