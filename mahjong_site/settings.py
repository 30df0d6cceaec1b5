"""Settings for 麻将 online, read from the environment with safe development defaults.

See README.md ("Configuration") for every variable. Without any variable set you get a
development site: DEBUG on, SQLite beside the code, the in-memory channel layer.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from games.engine.bots import LEVELS as BOT_LEVELS  # the pure engine: no Django imports
from mahjong_site.env import (
    POSTGRES_ENGINE,
    channel_layers,
    database_config,
    env_bool,
    env_int,
    env_list,
    env_str,
    replica_config,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", True)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY (50+ random characters) when DEBUG=0.")
    SECRET_KEY = "dev-only-secret-key-do-not-use-in-production-0123456789abcdef"

DEV_HOSTS = ["localhost", "127.0.0.1", "[::1]", "testserver"]
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", DEV_HOSTS if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",  # first, so `runserver` serves the ASGI application
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "axes",
    "csp",
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "mahjong_site.nul_guard.RejectNulMiddleware",  # before anything reads the path or a query
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]

ROOT_URLCONF = "mahjong_site.urls"
ASGI_APPLICATION = "mahjong_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": database_config(env_str("DATABASE_URL"), BASE_DIR)}
# A streaming replica for the pages that only look back (history, leaderboards, replays, rules):
# mahjong_site/db_router.py sends their reads there while it is up and at most REPLICA_MAX_LAG
# seconds behind (checked every REPLICA_CHECK_SECONDS), else to the primary. Tables: primary only.
if env_str("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = replica_config(env_str("DATABASE_REPLICA_URL"), BASE_DIR)
DATABASE_ROUTERS = ["mahjong_site.db_router.ReplicaRouter"]
REPLICA_MAX_LAG = float(env_str("REPLICA_MAX_LAG", "5"))
REPLICA_CHECK_SECONDS = float(env_str("REPLICA_CHECK_SECONDS", "2"))
# Threads a socket process runs database work on (common/db_threads.py): several with
# PostgreSQL (round trips of different tables overlap), one with SQLite (one writer anyway).
_POSTGRES = DATABASES["default"]["ENGINE"] == POSTGRES_ENGINE
DB_THREADS = env_int("DB_THREADS", 4 if _POSTGRES else 1)
# … and for sockets arriving and leaving, apart (common/db_threads.py: a storm of handshakes must
# not queue in front of the hand actions); 0: the same threads.
ARRIVAL_DB_THREADS = env_int("ARRIVAL_DB_THREADS", 2 if _POSTGRES else 0)
# Asynchronous connections per socket process for a hand action's one statement, sent from the
# event loop without the hop to a play thread (common/loop_db.py, games/table/on_loop.py);
# 0: every hand action on a play thread.
LOOP_DB_CONNECTIONS = env_int("LOOP_DB_CONNECTIONS", 2 if _POSTGRES else 0)
# Admission control (games/sockets/admission.py): table-socket handshakes a process runs at once before
# it tells new sockets `busy` + retry_after and closes them with 1013 (0: no limit); the base
# of retry_after, seconds.
ADMIT_CONNECTING = env_int("ADMIT_CONNECTING", 32 if _POSTGRES else 0)
ADMIT_RETRY_AFTER = env_int("ADMIT_RETRY_AFTER", 2)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# REDIS_URL: one Redis, several comma-separated (sharded) or sentinel://s1,s2,s3/master (Redis
# Sentinel; mahjong_site/env.py `redis_hosts`). The channel layer is the site's only Redis user.
CHANNEL_LAYERS = channel_layers(env_str("REDIS_URL"))
# The table clock (timers, bots, 托管): inside the web server when the channel layer is
# in-memory (one process: `make run`), else a separate `manage.py run_clock` process.
CLOCK_IN_PROCESS = env_bool("CLOCK_IN_PROCESS", default=not env_str("REDIS_URL"))
# Reviews (复盘) are computed by the clock process when it runs apart from daphne, so that their
# CPU is never taken from the processes serving tables (games/review/services.py).
REVIEWS_ON_CLOCK = env_bool("REVIEWS_ON_CLOCK", default=not CLOCK_IN_PROCESS)

# --- accounts ---------------------------------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses locked-out credentials
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    {"NAME": "accounts.validators.UsernameInPasswordValidator"},  # `pwtest3pwtest3` for `pwtest3`
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

STARTING_BALANCE = env_int("STARTING_BALANCE", 1000)
# The level of the bots quick match seats when a player's wait for bots runs out
# (games.engine.bots.LEVELS: easy | normal | strong | expert); checked when a bot is seated.
QUICK_MATCH_BOT_LEVEL = env_str("QUICK_MATCH_BOT_LEVEL", "normal")
if QUICK_MATCH_BOT_LEVEL not in BOT_LEVELS:
    raise ImproperlyConfigured(f"QUICK_MATCH_BOT_LEVEL must be one of {', '.join(BOT_LEVELS)}")
# Seconds a player has after a settlement to press Continue before being stood up (games.table.timing).
CONTINUE_SECONDS = env_int("CONTINUE_SECONDS", 60)

# Per-address limits (docs/operations.md, "Limits"). Addresses: common/client_address.py.
SIGNUPS_PER_ADDRESS_PER_HOUR = env_int("SIGNUPS_PER_ADDRESS_PER_HOUR", 3)
SIGNUPS_PER_ADDRESS_PER_DAY = env_int("SIGNUPS_PER_ADDRESS_PER_DAY", 10)
TOKENS_PER_USER_PER_HOUR = env_int("TOKENS_PER_USER_PER_HOUR", 5)
TOKENS_PER_ADDRESS_PER_HOUR = env_int("TOKENS_PER_ADDRESS_PER_HOUR", 10)
ANONYMOUS_SOCKETS_PER_ADDRESS = env_int("ANONYMOUS_SOCKETS_PER_ADDRESS", 20)  # per server process
# One account cannot fill the lobby (docs/operations.md, "Security"): tables it owns with a person
# seated, tables it makes an hour, tables it sits at, and its tables the lobby lists.
OPEN_TABLES_PER_USER = env_int("OPEN_TABLES_PER_USER", 10)
TABLES_PER_USER_PER_HOUR = env_int("TABLES_PER_USER_PER_HOUR", 30)
SEATS_PER_USER = env_int("SEATS_PER_USER", 10)
LOBBY_TABLES_PER_OWNER = env_int("LOBBY_TABLES_PER_OWNER", 3)
# Clubs (docs/clubs.md): clubs one account may own and belong to, members a club holds, and the
# people a club's invite lets in (members and requests) in any hour.
CLUBS_OWNED_PER_USER = env_int("CLUBS_OWNED_PER_USER", 3)
CLUBS_JOINED_PER_USER = env_int("CLUBS_JOINED_PER_USER", 20)
MEMBERS_PER_CLUB = env_int("MEMBERS_PER_CLUB", 200)
CLUB_INVITES_PER_HOUR = env_int("CLUB_INVITES_PER_HOUR", 30)
# Opening an uploaded record (/replays/open/) replays every hand: signed-in people, hourly limits,
# hands per record, records opened at once per process (docs/operations.md, "Security").
RECORD_UPLOADS_PER_USER_PER_HOUR = env_int("RECORD_UPLOADS_PER_USER_PER_HOUR", 20)
RECORD_UPLOADS_PER_ADDRESS_PER_HOUR = env_int("RECORD_UPLOADS_PER_ADDRESS_PER_HOUR", 40)
RECORD_MAX_HANDS = env_int("RECORD_MAX_HANDS", 16)
RECORD_UPLOADS_AT_ONCE = env_int("RECORD_UPLOADS_AT_ONCE", 2)
# An opened record is kept for an hour so that its review links find it again
# (games/review/uploaded.py). The next request may reach another daphne process behind the proxy,
# so the record is kept in a table every process reads (made by a migration), not in a process's
# memory; at most OPENED_RECORDS_KEPT of them, the oldest third culled when full.
OPENED_RECORDS_KEPT = env_int("OPENED_RECORDS_KEPT", 500)
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "opened_records": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "opened_record_cache",
        "TIMEOUT": 60 * 60,
        "OPTIONS": {"MAX_ENTRIES": OPENED_RECORDS_KEPT, "CULL_FREQUENCY": 3},
    },
}
# Ranked play (docs/operations.md, "Security"): the widest rating gap a ranked queue pairs, and
# the hours within which rank gained again from the same opponents diminishes.
RANKED_MAX_GAP = env_int("RANKED_MAX_GAP", 10)
RANK_REPEAT_HOURS = env_int("RANK_REPEAT_HOURS", 24)
# Proxies in front that APPEND to X-Forwarded-For (0: the proxy SETS it, as docs/operations.md asks).
TRUSTED_PROXY_HOPS = env_int("TRUSTED_PROXY_HOPS", 0)
# Point flows between linked accounts (same signup address, or joined this close together)
# are flagged in the admin ("Flagged point flows").
LINKED_SIGNUP_MINUTES = env_int("LINKED_SIGNUP_MINUTES", 10)
REPEATED_LOSSES = env_int("REPEATED_LOSSES", 3)  # hands lost to the same linked player before a flag
FLAG_WINDOW_DAYS = env_int("FLAG_WINDOW_DAYS", 30)
# …and, whatever their addresses, new accounts (joined this many days before) pouring points into
# one receiver: this many of them, each paying it at least this many points.
NEW_ACCOUNT_DAYS = env_int("NEW_ACCOUNT_DAYS", 7)
NEW_ACCOUNT_FEEDERS = env_int("NEW_ACCOUNT_FEEDERS", 2)
NEW_ACCOUNT_POINTS = env_int("NEW_ACCOUNT_POINTS", 200)
# …and, whatever their addresses, two accounts that played this many ranked hands together within
# this many hours, one side taking at least this percentage of the points between them.
RANKED_PAIR_HANDS = env_int("RANKED_PAIR_HANDS", 6)
RANKED_PAIR_HOURS = env_int("RANKED_PAIR_HOURS", 24)
RANKED_PAIR_SHARE = env_int("RANKED_PAIR_SHARE", 90)

# django-axes: lock a username from one address after 5 failures, for 15 minutes.
# Behind a proxy set TRUSTED_PROXY_HOPS (1 for one proxy): the player's address is read from the
# X-Forwarded-For entry that proxy wrote (common/client_address.py); 0 ignores the header.
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
# the lockout keys on the same address as every other limit (X-Forwarded-For only via TRUSTED_PROXY_HOPS)
AXES_CLIENT_IP_CALLABLE = "common.client_address.of_axes_request"

# --- internationalisation ------------------------------------------------------------------
LANGUAGE_CODE = "zh-hans"  # also the fallback when Accept-Language matches nothing we have
LANGUAGES = [("zh-hans", _("Simplified Chinese")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "Asia/Shanghai")
USE_I18N = True
USE_TZ = True

# --- static files (whitenoise; no build step) ----------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# In development whitenoise serves straight from the app/static folders (no collectstatic).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# --- production hardening (DEBUG=0) --------------------------------------------------------
if not DEBUG:
    # Off only for a local production-shaped run whose TLS proxy already redirects.
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SECURE_REFERRER_POLICY = "same-origin"
    SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# --- Content-Security-Policy (django-csp) --------------------------------------------------------
# No inline script or style anywhere: every script is a static file (htmx, board.js, replay.js),
# htmx is told not to inject its indicator <style> nor run eval/script tags (templates/base.html,
# meta htmx-config). 'self' covers the same-origin ws:/wss: of the table sockets (CSP level 3).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redis_reconnect": {"()": "mahjong_site.log_filters.ReconnectWithoutTraceback"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"axes": {"level": "WARNING"}, "channels_redis.pubsub": {"filters": ["redis_reconnect"]}},
}
