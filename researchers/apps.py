from django.apps import AppConfig


class ResearchersConfig(AppConfig):
    name = "researchers"
