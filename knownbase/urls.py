from django.contrib import admin
from django.contrib.auth.views import LoginView
from django.urls import include, path

import memory.views
from knownbase import health
from knownbase.oauth import views as oauth_views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("exports/<str:token>", memory.views.download_export, name="export-download"),
    # A minimal login until the web accounts pages replace it (same field names and ?next=).
    path("login/", LoginView.as_view(template_name="web/login.html"), name="login"),
    path("", include("knownbase.oauth.urls")),
    path("apps/", oauth_views.connected_apps, name="oauth-apps"),
    path("apps/<str:public_id>/revoke/", oauth_views.revoke_app, name="oauth-app-revoke"),
    path("", health.home, name="home"),
]
