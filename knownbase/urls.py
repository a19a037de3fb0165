from django.contrib import admin
from django.urls import include, path

import memory.views
from knownbase import health

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("exports/<str:token>", memory.views.download_export, name="export-download"),
    path("", include("api.urls")),
    path("", health.home, name="home"),
]
