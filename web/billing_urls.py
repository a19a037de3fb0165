"""The billing pages, under their own URL namespace ("billing")."""

from django.urls import path

from web.views import billing

app_name = "billing"

urlpatterns = [
    path("", billing.billing_page, name="page"),
    path("checkout/", billing.start_checkout, name="checkout"),
    path("portal/", billing.open_portal, name="portal"),
]
