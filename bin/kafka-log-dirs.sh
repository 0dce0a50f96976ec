#!/usr/bin/env bash
# Describes the log directories of brokers as JSON (Kafka 2.8's LogDirsCommand):
#   kafka-log-dirs.sh --describe --bootstrap-server HOST:PORT [--broker-list 0,1,2] [--topic-list t1,t2]
exec "$(dirname "$0")/kafka-run-class.sh" kafka.admin.LogDirsCommand "$@"
