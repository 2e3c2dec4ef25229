from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from accounts.views import admin_sign_in

from . import views

urlpatterns = [
    # The admin's sign-in with the site's second step (two-factor), before the admin's own.
    path("admin/login/", admin_sign_in, name="admin_sign_in"),
    path("admin/", admin.site.urls),
    path("", include("accounts.urls")),
    path("", include("games.urls")),
    path("", include("live.urls")),
    path("ratings/", include("ratings.urls")),
    path("queue/", include("pairing.urls")),
    path("reports/", include("reports.urls")),
    path("chat/", include("chat.urls")),
    path("arenas/", include("arenas.urls")),
    path("staff/collusion/", include("collusion.urls")),
    path("learn/", include("learn.urls")),
    path("api/", include("api.urls")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("service-worker.js", views.service_worker, name="service_worker"),
]
