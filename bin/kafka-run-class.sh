#!/usr/bin/env bash
# Runs a kafka-port entry point, as Kafka's kafka-run-class.sh runs a class:
#   kafka-run-class.sh [-daemon] [-name servicename] [-loggc] kafka.tools.DumpLogSegments --files ...
# A dotted Kafka class name is mapped to our module (CamelCase -> snake_case) and its main().
# The interpreter is $KAFKA_PYTHON if set, else the checkout's .venv/bin/python, else python3.
# With -daemon the process runs detached, its console output in $LOG_DIR/<name>.out.
# KAFKA_LOG4J_OPTS and LOG_DIR choose the logging set-up as in Kafka (see below).
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "USAGE: $0 [-daemon] [-name servicename] [-loggc] classname [opts]" >&2
  exit 1
fi

base_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

if [ -n "${KAFKA_PYTHON:-}" ]; then
  python_bin=$KAFKA_PYTHON
elif [ -x "$base_dir/.venv/bin/python" ]; then
  python_bin=$base_dir/.venv/bin/python
else
  python_bin=python3
fi

export PYTHONPATH="$base_dir/core:$base_dir/clients${PYTHONPATH:+:$PYTHONPATH}"
export LOG_DIR="${LOG_DIR:-$base_dir/logs}"

# Logging, as Kafka's script sets up log4j: a tool logs as config/tools-log4j.properties says (WARN and above on
# stderr) unless KAFKA_LOG4J_OPTS names another file (-Dlog4j.configuration=file:...; kafka-server-start.sh names
# config/log4j.properties); -Dkafka.logs.dir is LOG_DIR. Python reads these options from the environment.
if [ -z "${KAFKA_LOG4J_OPTS:-}" ]; then
  KAFKA_LOG4J_OPTS="-Dlog4j.configuration=file:$base_dir/config/tools-log4j.properties"
else
  mkdir -p "$LOG_DIR"
fi
export KAFKA_LOG4J_OPTS="-Dkafka.logs.dir=$LOG_DIR $KAFKA_LOG4J_OPTS"

daemon_mode=false
daemon_name=""
while [ $# -gt 0 ]; do
  case "$1" in
    -daemon) daemon_mode=true; shift ;;
    -name) daemon_name=$2; shift 2 ;;
    -loggc) shift ;;  # JVM garbage-collection logging has no Python counterpart
    *) break ;;
  esac
done

class_name=$1
shift
launcher='
import importlib, re, sys
name = sys.argv[1]
package, _, cls = name.rpartition(".")
module = package + "." + re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", cls).lower()
sys.argv = [name] + sys.argv[2:]
sys.exit(importlib.import_module(module).main())
'

if [ "$daemon_mode" = true ]; then
  mkdir -p "$LOG_DIR"
  out="$LOG_DIR/${daemon_name:-$class_name}.out"
  nohup "$python_bin" -c "$launcher" "$class_name" "$@" > "$out" 2>&1 < /dev/null &
else
  exec "$python_bin" -c "$launcher" "$class_name" "$@"
fi
