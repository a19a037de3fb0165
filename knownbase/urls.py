from django.contrib import admin
from django.urls import include, path

from web import converters, health
from web.oauth import views as oauth_views
from web.views import account as web_account
from web.views import billing as web_billing
from web.views import exports

converters.register()

urlpatterns = [
    # The admin's sign-in goes through the login door (edge.doors) before the admin's own view.
    path("admin/login/", web_account.admin_login, name="admin-login"),
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("exports/<token:token>", exports.download_export, name="export-download"),
    path("", include("api.urls")),
    path("billing/webhook/", web_billing.stripe_webhook, name="stripe-webhook"),
    path("billing/", include("web.billing_urls")),
    path("", include("web.oauth.urls")),
    path("apps/", oauth_views.connected_apps, name="oauth-apps"),
    path("apps/<pid:public_id>/revoke/", oauth_views.revoke_app, name="oauth-app-revoke"),
    path("", include("web.urls")),
]

handler403 = "web.views.errors.permission_denied"
handler404 = "web.views.errors.page_not_found"
# A 503 when the database is down (the error met outside a view), else the plain 500 page.
handler500 = "edge.outage.server_error"
