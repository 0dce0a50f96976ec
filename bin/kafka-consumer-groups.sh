#!/usr/bin/env bash
# Lists, describes, deletes consumer groups and resets their offsets:
#   kafka-consumer-groups.sh --bootstrap-server HOST:PORT --list | --describe | --delete | --reset-offsets | ...
exec "$(dirname "$0")/kafka-run-class.sh" kafka.admin.ConsumerGroupCommand "$@"
