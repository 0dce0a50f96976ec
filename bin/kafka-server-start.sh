#!/usr/bin/env bash
# Starts a kafka-port broker: kafka-server-start.sh [-daemon] server.properties [--override property=value]*
if [ $# -lt 1 ]; then
  echo "USAGE: $0 [-daemon] server.properties [--override property=value]*"
  exit 1
fi
base_dir=$(dirname "$0")

EXTRA_ARGS=${EXTRA_ARGS-'-name kafkaServer -loggc'}

COMMAND=$1
case $COMMAND in
  -daemon)
    EXTRA_ARGS="-daemon "$EXTRA_ARGS
    shift
    ;;
  *)
    ;;
esac

# shellcheck disable=SC2086
exec "$base_dir/kafka-run-class.sh" $EXTRA_ARGS kafka.Kafka "$@"
