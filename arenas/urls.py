from django.urls import path

from . import views

urlpatterns = [
    path("", views.arena_list, name="arena_list"),
    path("<int:arena_id>/", views.arena_detail, name="arena"),
    path("<int:arena_id>/join/", views.join, name="arena_join"),
    path("<int:arena_id>/pause/", views.pause, name="arena_pause"),
]
