#!/usr/bin/env bash
# Deletes the records of partitions below the offsets a JSON file gives:
#   kafka-delete-records.sh --bootstrap-server HOST:PORT --offset-json-file FILE
exec "$(dirname "$0")/kafka-run-class.sh" kafka.admin.DeleteRecordsCommand "$@"
