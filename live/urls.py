from django.urls import path

from . import views

urlpatterns = [
    path("t/<int:table_id>/", views.table, name="table"),
]
