from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/arena/<int:arena_id>/", consumers.ArenaConsumer.as_asgi()),
]
