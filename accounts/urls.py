from django.urls import path, register_converter

from accounts import views
from hearts_site.converters import UsernameConverter

register_converter(UsernameConverter, "username")

urlpatterns = [
    path("accounts/register/", views.register, name="register"),
    path("accounts/login/", views.sign_in, name="login"),
    path("accounts/logout/", views.sign_out, name="logout"),
    path("accounts/password/", views.password_change, name="password_change"),
    path("u/<username:username>/", views.profile, name="profile"),
    path("language/", views.choose_language, name="choose_language"),
]
