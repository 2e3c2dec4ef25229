from django.urls import path
from ninja.openapi.views import openapi_view

from .v1 import api


def docs(request):  # type: ignore[no-untyped-def]
    """The docs page of the current version, drawn from its OpenAPI schema."""
    return openapi_view(request, api)


urlpatterns = [
    path("v1/", api.urls),
    path("docs", docs, name="api_docs"),
]
