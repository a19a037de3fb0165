from django.contrib import admin

from billing.models import Plan


@admin.register(Plan)
class PlanAdmin(admin.ModelAdmin[Plan]):
    list_display = ["code", "name", "price_cents_monthly", "max_projects", "max_notes", "requests_per_minute"]
