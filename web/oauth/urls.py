"""The authorization server's routes. DOT's views look each other up in the `oauth2_provider`
namespace (the metadata lists the endpoints by reversing these names)."""

from __future__ import annotations

from django.urls import path
from oauth2_provider.views import OAuthServerMetadataView, RevokeTokenView, TokenView

from web.oauth import views

app_name = "oauth2_provider"

urlpatterns = [
    # RFC 8414 at the origin's root: the issuer is SITE_URL itself.
    path(
        ".well-known/oauth-authorization-server",
        OAuthServerMetadataView.as_view(),
        name="oauth-server-metadata",
    ),
    path("oauth/authorize/", views.ConsentView.as_view(), name="authorize"),
    path("oauth/token/", TokenView.as_view(), name="token"),
    path("oauth/revoke/", RevokeTokenView.as_view(), name="revoke-token"),
    path("oauth/register/", views.RegistrationView.as_view(), name="dcr-register"),
    path(
        "oauth/register/<str:client_id>/",
        views.RegistrationManagementView.as_view(),
        name="dcr-register-management",
    ),
]
