from django.urls import path

from billing_web import views

app_name = "billing"

urlpatterns = [
    path("", views.billing_page, name="page"),
    path("checkout/", views.start_checkout, name="checkout"),
    path("portal/", views.open_portal, name="portal"),
]
