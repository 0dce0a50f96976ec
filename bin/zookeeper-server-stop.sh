#!/usr/bin/env bash
# Stops ZooKeeper servers, as Kafka's bin/zookeeper-server-stop.sh does: every java process running
# QuorumPeerMain gets SIGTERM (or $SIGNAL).
#   zookeeper-server-stop.sh [zookeeper.properties]
# PORT: with a properties file as argument, only the servers started with that file are stopped, so that one of
# several servers on a machine (e.g. those of concurrent test runs) can be stopped alone. `ps -ww` keeps the long
# java command line whole (ps may cut it to the terminal width otherwise).
set -euo pipefail

SIGNAL=${SIGNAL:-TERM}
config=${1:-}

pids=$(ps ax -ww -o pid=,args= | grep java | grep -i QuorumPeerMain | grep -v grep |
  { if [ -n "$config" ]; then grep -F -- " $config"; else cat; fi; } | awk '{print $1}') || true

if [ -z "$pids" ]; then
  echo "No zookeeper server to stop"
  exit 1
fi
# shellcheck disable=SC2086
kill -s "$SIGNAL" $pids
