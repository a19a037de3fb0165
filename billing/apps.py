from django.apps import AppConfig


class BillingConfig(AppConfig):
    name = "billing"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts import recent
        from billing.models import Plan, Subscription

        # A resolved credential carries its team plan's rate: a team's new subscription applies to
        # its credentials at once here, and a plan's edit to every team on it.
        recent.forget_on_change(Subscription)
        recent.forget_on_change(Plan, everything=True)
