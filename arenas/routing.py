from django.urls import path

from hearts_site import converters  # noqa: F401  (registers <id:…>)

from . import consumers

websocket_urlpatterns = [
    path("ws/arena/<id:arena_id>/", consumers.ArenaConsumer.as_asgi()),
]
