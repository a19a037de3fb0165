from django.apps import AppConfig


class McpGatewayConfig(AppConfig):
    name = "mcp_gateway"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from mcp_gateway import checks  # noqa: F401  (registers the system check)
