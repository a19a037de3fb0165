from django.contrib import admin
from django.urls import path

from knownbase import health

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("", health.home, name="home"),
]
