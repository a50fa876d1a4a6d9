from django.apps import AppConfig


class HarvestConfig(AppConfig):
    name = "harvest"

    def ready(self) -> None:
        # needs Django configured: the receivers import the tasks and papers.signals, loaded after this.
        from harvest import receivers  # noqa: F401
