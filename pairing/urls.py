from django.urls import path

from . import views

urlpatterns = [
    path("", views.queue, name="queue"),
    path("join/", views.join, name="queue_join"),
    path("leave/", views.leave, name="queue_leave"),
]
