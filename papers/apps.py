from django.apps import AppConfig

from papers import checks


class PapersConfig(AppConfig):
    name = "papers"

    def ready(self) -> None:
        checks.register()
