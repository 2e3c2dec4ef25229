from django.urls import path

from . import views

urlpatterns = [
    path("", views.pairs, name="collusion_pairs"),
]
