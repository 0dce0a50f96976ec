#!/usr/bin/env bash
# Elects the preferred (or, unclean, any live) replica as leader of partitions:
#   kafka-leader-election.sh --bootstrap-server HOST:PORT --election-type preferred|unclean (--topic T --partition P | --all-topic-partitions | --path-to-json-file FILE)
exec "$(dirname "$0")/kafka-run-class.sh" kafka.admin.LeaderElectionCommand "$@"
