from django.urls import path, register_converter

from hearts_site.converters import InviteCodeConverter

from . import views

register_converter(InviteCodeConverter, "invite_code")

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("play/", views.play_now, name="play_now"),
    path("t/new/", views.table_create, name="table_create"),
    path("t/join/<invite_code:code>/", views.invite, name="invite"),
    path("t/<int:table_id>/", views.table, name="table"),
    path("t/<int:table_id>/sit/<int:index>/", views.seat_action, {"action": "sit"}, name="sit"),
    path("t/<int:table_id>/leave/", views.seat_action, {"action": "leave"}, name="leave"),
    path("t/<int:table_id>/bot/<int:index>/", views.seat_action, {"action": "bot"}, name="bot"),
    path("t/<int:table_id>/fill/", views.seat_action, {"action": "fill"}, name="fill"),
    path("t/<int:table_id>/start/", views.seat_action, {"action": "start"}, name="start"),
    path("t/<int:table_id>/rematch/", views.seat_action, {"action": "rematch"}, name="rematch"),
    path("t/<int:table_id>/close/", views.seat_action, {"action": "close"}, name="close_table"),
    path("t/<int:table_id>/invite/", views.seat_action, {"action": "invite"}, name="new_invite"),
    path("t/<int:table_id>/seed/", views.add_seed, name="add_seed"),
]
