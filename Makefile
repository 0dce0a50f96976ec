# kafka-port: set-up, run and test. `make run` and `make test` each work alone on a fresh machine.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
STAMP := $(VENV)/.installed

.PHONY: install system-packages python-env run test lint typecheck pytest bench clean

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

python-env: $(STAMP)

$(STAMP): setup.cfg pyproject.toml
	[ -x $(PY) ] || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip "setuptools>=68" wheel
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

# The broker (KafkaServer) is not built yet: issue 4 brings it. Until then this says what it will do.
run: install
	@echo "kafka-port: set-up done (.venv, Debian zookeeper and kcat)."
	@echo "kafka-port: the broker is not built yet, so nothing is started."
	@echo "  When it is, 'make run' will start ZooKeeper with config/zookeeper.properties and one"
	@echo "  broker with config/server.properties, and stop both on Ctrl-C."
	@echo "  What works today: the wire protocol and record layers (kafka.common), see README.md."

lint: python-env
	$(VENV)/bin/ruff check core clients tests bin
	$(VENV)/bin/ruff format --check core clients tests bin

typecheck: python-env
	$(VENV)/bin/mypy core/kafka clients/kafka

pytest: install
	$(PY) -m pytest -q

test: lint typecheck pytest

bench: install
	$(PY) -m pytest -q tests/bench --benchmark-enable --benchmark-columns=min,median,mean,ops

clean:
	rm -rf $(VENV) build *.egg-info
