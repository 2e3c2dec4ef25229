from django.urls import path, register_converter

from accounts import challenge_views, resets, security, views
from hearts_site.converters import UsernameConverter

register_converter(UsernameConverter, "username")

urlpatterns = [
    path("accounts/register/", views.register, name="register"),
    path("accounts/login/", views.sign_in, name="login"),
    path("accounts/login/code/", views.sign_in_code, name="login_code"),
    path("accounts/two-factor/", security.two_factor_page, name="two_factor"),
    path("accounts/signed-in/", security.sign_ins_page, name="sign_ins"),
    path("accounts/following/", security.following_page, name="following"),
    path("u/<username:username>/follow/", security.follow_page, name="follow"),
    path("u/<username:username>/block/", security.block_page, name="block"),
    path("u/<username:username>/invite/", challenge_views.challenge_page, name="challenge"),
    path("invitations/<int:challenge_id>/accept/", challenge_views.accept, name="challenge_accept"),
    path(
        "invitations/<int:challenge_id>/decline/", challenge_views.decline, name="challenge_decline"
    ),
    path(
        "invitations/<int:challenge_id>/withdraw/",
        challenge_views.withdraw,
        name="challenge_withdraw",
    ),
    path("accounts/logout/", views.sign_out, name="logout"),
    path("accounts/password/", views.password_change, name="password_change"),
    path("accounts/password/forgot/", resets.AskForReset.as_view(), name="password_reset"),
    path("accounts/password/forgot/sent/", resets.ResetAsked.as_view(), name="password_reset_done"),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        resets.SetNewPassword.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        resets.PasswordSet.as_view(),
        name="password_reset_complete",
    ),
    path("accounts/email/", views.address, name="address"),
    path("accounts/email/confirm/<str:signed>/", views.confirm_address, name="confirm_address"),
    path("u/<username:username>/", views.profile, name="profile"),
    path("language/", views.choose_language, name="choose_language"),
]
