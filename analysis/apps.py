from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    name = "analysis"
    verbose_name = "Paper analysis"

    def ready(self) -> None:
        # needs Django configured: the receivers' tasks import models, which load after this module.
        from analysis import receivers  # noqa: F401
