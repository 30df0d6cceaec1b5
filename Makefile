# make run · make test · make lint   (others add bench, loadtest)
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
	@# The clock runs beside daphne and is stopped with it (Ctrl-C, or daphne exiting).
	@$(BIN)/python manage.py run_clock & clock=$$!; \
	trap 'kill $$clock 2>/dev/null; wait $$clock 2>/dev/null' EXIT INT TERM; \
	$(BIN)/daphne -b 127.0.0.1 -p $(PORT) mahjong_site.asgi:application

test: $(STAMP)
	$(BIN)/pytest -q $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
