#!/usr/bin/env bash
# Runs a kafka-port entry point, as Kafka's kafka-run-class.sh runs a class:
#   kafka-run-class.sh kafka.tools.DumpLogSegments --files ...
# A dotted Kafka class name is mapped to our module (CamelCase -> snake_case) and its main().
# The interpreter is $KAFKA_PYTHON if set, else the checkout's .venv/bin/python, else python3.
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "USAGE: $0 [-daemon] [-name servicename] classname [opts]" >&2
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

class_name=$1
shift
exec "$python_bin" -c '
import importlib, re, sys
name = sys.argv[1]
package, _, cls = name.rpartition(".")
module = package + "." + re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", cls).lower()
sys.argv = [name] + sys.argv[2:]
sys.exit(importlib.import_module(module).main())
' "$class_name" "$@"
