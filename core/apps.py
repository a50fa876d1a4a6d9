from django.apps import AppConfig

from core import lookups


class CoreConfig(AppConfig):
    name = "core"

    def ready(self) -> None:
        lookups.register()
