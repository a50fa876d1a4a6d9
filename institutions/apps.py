from django.apps import AppConfig


class InstitutionsConfig(AppConfig):
    name = "institutions"
