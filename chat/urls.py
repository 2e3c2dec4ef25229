from django.urls import path

from chat import views

urlpatterns = [
    path("mute/<username:username>/", views.mute, name="chat_mute"),
    path("unmute/<username:username>/", views.unmute, name="chat_unmute"),
    path("turn/", views.turn, name="chat_turn"),
    path("report/<int:message_id>/", views.report, name="chat_report"),
]
