from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = "Paper analysis"

    def ready(self) -> None:
        # needs Django configured: the receivers import papers.signals, loaded after this module.
        from analysis import receivers  # noqa: F401
