#!/usr/bin/env bash
# Creates, lists, describes, alters and deletes topics:
#   kafka-topics.sh --bootstrap-server HOST:PORT --create | --list | --describe | --alter | --delete [--topic T] ...
exec "$(dirname "$0")/kafka-run-class.sh" kafka.admin.TopicCommand "$@"
