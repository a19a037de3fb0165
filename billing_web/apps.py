from django.apps import AppConfig


class BillingWebConfig(AppConfig):
    name = "billing_web"
    default_auto_field = "django.db.models.BigAutoField"
