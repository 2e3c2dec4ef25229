"""The site as an app that can be added to a home screen: its web app manifest, and the service
worker that shows a turn's notification where a page cannot (Chrome on Android). Both are
served from the site's root: a service worker's scope is at most the folder it is served from.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "js" / "service_worker.js"
# static/css/site.css's colours: the felt of the header (the app's title bar, and the
# theme-color of templates/_base.html) and the page (the splash screen while the app opens).
FELT = "#0d5a34"
PAGE = "#f8f9f6"


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    # Vector icons, for every size: the rounded one is the favicon; the maskable one fills its
    # square, for the shapes a phone cuts icons to, and keeps the heart inside their safe zone.
    icons = [
        {"src": static("favicon.svg"), "purpose": "any"},
        {"src": static("app_icon_maskable.svg"), "purpose": "maskable"},
    ]
    return JsonResponse(
        {
            "id": "/",
            "name": "Hearts",
            "short_name": "Hearts",
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "theme_color": FELT,
            "background_color": PAGE,
            "icons": [{**icon, "sizes": "any", "type": "image/svg+xml"} for icon in icons],
        },
        content_type="application/manifest+json",
    )


@require_safe
@cache_control(no_cache=True)  # an update to the worker reaches every browser on its next page
def service_worker(request: HttpRequest) -> HttpResponse:
    return HttpResponse(SERVICE_WORKER.read_bytes(), content_type="text/javascript; charset=utf-8")
