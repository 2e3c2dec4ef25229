"""ASGI entry point: HTTP through Django, websockets through Channels with origin and session
checks (the origin's scheme, host and port: see ``origins``)."""

import os
from http import HTTPStatus

from django.core.asgi import get_asgi_application
from twisted.web import http as twisted_http


def name_every_status() -> None:
    """daphne writes a status line's reason from Twisted's table, which lacks the newer
    statuses: the API's 422 and 429 would read "422 Unknown Status". Python's names fill the
    gaps, once, as daphne loads the site."""
    for status in HTTPStatus:
        twisted_http.RESPONSES.setdefault(status.value, status.phrase.encode("ascii"))


name_every_status()

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import re_path  # noqa: E402

from arenas.routing import websocket_urlpatterns as arena_sockets  # noqa: E402
from hearts_site.origins import SameOriginValidator  # noqa: E402
from live.routing import websocket_urlpatterns as games_sockets  # noqa: E402
from live.sockets import NoSuchSocket  # noqa: E402
from pairing.routing import websocket_urlpatterns as queue_sockets  # noqa: E402

# Last, whatever no route took (an unknown address, an id past any row's: hearts_site/
# converters.py): refused at the handshake rather than Channels' "No route found" error, a 500.
websocket_urlpatterns = [
    *games_sockets,
    *queue_sockets,
    *arena_sockets,
    re_path(r"^", NoSuchSocket.as_asgi()),
]

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": SameOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Python's cyclic garbage collector walks every object it tracks on each full collection,
# stopping the whole process meanwhile: the site's modules and templates alone are some 25 ms
# of it, at every full collection, for every table the process serves (40 to 80 ms in all,
# measured under bench/load.py's 200 tables). What the process loaded to start (and the
# board's templates, compiled here rather than at the first socket) is set aside for good;
# the collector walks only what came after.
import gc  # noqa: E402
import sys  # noqa: E402

from django.conf import settings  # noqa: E402
from django.template.loader import get_template  # noqa: E402

for _name in (
    "games/table.html",
    "games/_live.html",
    "games/_flash.html",
    "games/_notice.html",
    "games/lobby.html",
):
    get_template(_name)
gc.collect()
gc.freeze()
if settings.HEARTS_GC_YOUNG:
    gc.set_threshold(settings.HEARTS_GC_YOUNG, *gc.get_threshold()[1:])

from hearts_site import gc_pauses  # noqa: E402

# Under daphne, its event loop's lag too (daphne.server made the loop Twisted runs on).
_daphne = sys.modules.get("daphne.server")
gc_pauses.report_from_environment(getattr(_daphne, "twisted_loop", None))
