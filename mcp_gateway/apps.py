from django.apps import AppConfig


class McpGatewayConfig(AppConfig):
    name = "mcp_gateway"
    default_auto_field = "django.db.models.BigAutoField"
