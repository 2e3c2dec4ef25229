from django.urls import path

from hearts_site import converters  # noqa: F401  (registers <id:…>)

from . import consumers, sockets

websocket_urlpatterns = [
    path("ws/table/<id:table_id>/", consumers.TableConsumer.as_asgi()),
    path("ws/lobby/", consumers.LobbyConsumer.as_asgi()),
    path("ws/account/", sockets.NoticeSocket.as_asgi()),
]
