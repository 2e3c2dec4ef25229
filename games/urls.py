from django.urls import path

from . import history, verification

urlpatterns = [
    path("g/<int:game_id>/", history.game_detail, name="game_detail"),
    path("g/<int:game_id>/review/", history.game_review, name="game_review"),
    path("g/<int:game_id>/record.json", history.game_record, name="game_record"),
    path("games/", history.game_list, name="game_list"),
    path("g/<int:game_id>/verify/", verification.game_verify, name="game_verify"),
    path("verify/", verification.verify_form, name="verify_form"),
    path("verify/check_record.py", verification.checker_script, name="checker_script"),
]
