from django.urls import path

from . import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("play/", views.play_now, name="play_now"),
    path("t/new/", views.table_create, name="table_create"),
    path("t/join/<str:code>/", views.invite, name="invite"),
    path("t/<int:table_id>/", views.table, name="table"),
    path("t/<int:table_id>/sit/<int:index>/", views.sit, name="sit"),
    path("t/<int:table_id>/leave/", views.leave, name="leave"),
    path("t/<int:table_id>/bot/<int:index>/", views.bot, name="bot"),
    path("t/<int:table_id>/fill/", views.fill, name="fill"),
    path("t/<int:table_id>/start/", views.start, name="start"),
    path("t/<int:table_id>/rematch/", views.rematch, name="rematch"),
]
