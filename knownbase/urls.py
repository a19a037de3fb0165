from django.contrib import admin
from django.urls import include, path

import billing.views
import memory.views
from knownbase import health
from knownbase.oauth import views as oauth_views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("exports/<str:token>", memory.views.download_export, name="export-download"),
    path("", include("api.urls")),
    path("billing/webhook/", billing.views.stripe_webhook, name="stripe-webhook"),
    path("billing/", include("billing_web.urls")),
    path("", include("knownbase.oauth.urls")),
    path("apps/", oauth_views.connected_apps, name="oauth-apps"),
    path("apps/<str:public_id>/revoke/", oauth_views.revoke_app, name="oauth-app-revoke"),
    path("", include("web.urls")),
]

handler403 = "web.views.errors.permission_denied"
handler404 = "web.views.errors.page_not_found"
