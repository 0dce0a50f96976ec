#!/usr/bin/env bash
# Stops kafka-port brokers started by kafka-server-start.sh with SIGTERM (a clean shutdown).
# --process-role is not supported (ZooKeeper mode only); an optional SIGNAL_NAME env overrides TERM.
SIGNAL=${SIGNAL:-TERM}
PIDS=$(ps ax -o pid=,args= | grep ' kafka\.Kafka ' | grep -v grep | awk '{print $1}')

if [ -z "$PIDS" ]; then
  echo "No kafka server to stop"
  exit 1
else
  # shellcheck disable=SC2086
  kill -s "$SIGNAL" $PIDS
fi
