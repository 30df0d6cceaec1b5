# make run · make test · make lint · make bench · make loadtest · make fuzz · make ha-test
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8000
PYTEST_ARGS ?=

.PHONY: run test lint install

install: $(STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when a requirements file is newer than the stamp.
$(STAMP): requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py ensure_demo_user
	@echo "Serving on http://127.0.0.1:$(PORT)/ (with the table clock: timers, bots, auto-play)"
	@# Without REDIS_URL the clock runs inside daphne (games/clock/task.py: the in-memory channel
	@# layer is one process); with Redis it runs beside daphne and is stopped with it.
	@if [ -n "$$REDIS_URL" ]; then \
	  $(BIN)/python manage.py run_clock & clock=$$!; \
	  trap 'kill $$clock 2>/dev/null; wait $$clock 2>/dev/null' EXIT INT TERM; \
	fi; \
	(sleep 2; curl -s -o /dev/null http://127.0.0.1:$(PORT)/ || true) & \
	$(BIN)/daphne -b 127.0.0.1 -p $(PORT) mahjong_site.asgi:application

# The browser tests and the rest side by side (scripts/run_tests.py); PYTEST_ARGS=… runs just those.
test: $(STAMP)
	$(BIN)/python scripts/run_tests.py $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .

# Engine micro-benchmarks and simulated hands/s (docs/benchmarks.md, "Engine").
.PHONY: bench
bench: $(STAMP)
	$(BIN)/python -m games.engine bench

# --- load test and socket fuzzer (docs/benchmarks.md; need PostgreSQL and redis-server here) ---
# make loadtest TABLES=100 SECONDS=60 KILL=1 PROCS=2   (also RATE=0.25 RAMP=30 SPREAD=seat RESTART_REDIS=1 RESET_PG=1 ECHO=1)
# KILL=n: kill -9 and restart a daphne n times (the processes in turn); RATE: actions/s per table;
# RAMP: seconds over which the tables arrive.
TABLES ?= 10
SECONDS ?= 30
KILL ?= 0
PROCS ?= 2
RATE ?= 1
RAMP ?= 5
RESTART_REDIS ?= 0
RESET_PG ?= 0
ECHO ?= 0
LOADTEST_FLAGS = --kills $(KILL) --rate $(RATE) --ramp $(RAMP) $(if $(filter 1,$(RESTART_REDIS)),--restart-redis) \
	$(if $(filter 1,$(RESET_PG)),--reset-pg) $(if $(filter 1,$(ECHO)),--echo)

.PHONY: loadtest fuzz

loadtest: $(STAMP)
	$(BIN)/python scripts/loadtest.py --tables $(TABLES) --seconds $(SECONDS) --procs $(PROCS) $(LOADTEST_FLAGS)

fuzz: $(STAMP)
	$(BIN)/python scripts/fuzz.py --procs $(PROCS)

# Failover test of the high-availability shape on loopback (docs/operations.md "High availability"):
# Redis primary + replica + 3 Sentinels, PostgreSQL primary + streaming replica, 3 daphne, the
# clock; kills the Redis primary, makes the replica lag then stops it, kills a daphne.
# make ha-test TABLES=6 SECONDS=90
# (TABLES/SECONDS/RATE only when given here; the script's defaults otherwise).
HA_FLAGS = $(foreach v,TABLES SECONDS RATE,$(if $(filter command line environment,$(origin $(v))),--$(shell echo $(v) | tr A-Z a-z) $($(v))))
.PHONY: ha-test
ha-test: $(STAMP)
	$(BIN)/python scripts/ha_test.py $(HA_FLAGS)

# CPU per hand action and per viewer frame, one thread (docs/benchmarks.md, "Live play"); PROFILE=1 for a tree.
.PHONY: bench-service
bench-service: $(STAMP)
	$(BIN)/python scripts/service_bench.py
