from django.urls import path

from accounts import views

urlpatterns = [
    path("accounts/register/", views.register, name="register"),
    path("accounts/login/", views.sign_in, name="login"),
    path("accounts/logout/", views.sign_out, name="logout"),
    path("accounts/password/", views.password_change, name="password_change"),
    path("u/<str:username>/", views.profile, name="profile"),
]
