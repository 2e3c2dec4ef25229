from django.urls import path

from reports import views

urlpatterns = [
    path("mine/", views.my_reports, name="my_reports"),
    path("u/<username:username>/", views.report_player, name="report_player"),
    path("g/<int:game_id>/<int:index>/", views.report_game_player, name="report_game_player"),
]
