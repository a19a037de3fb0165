from django.contrib import admin
from django.urls import include, path

import billing.views
import memory.views
from knownbase import health

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("exports/<str:token>", memory.views.download_export, name="export-download"),
    path("billing/webhook/", billing.views.stripe_webhook, name="stripe-webhook"),
    path("billing/", include("billing_web.urls")),
    path("", health.home, name="home"),
]
