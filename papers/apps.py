from django.apps import AppConfig


class PapersConfig(AppConfig):
    name = "papers"

    def ready(self) -> None:
        from papers import checks  # noqa: F401  (registers the system checks)
