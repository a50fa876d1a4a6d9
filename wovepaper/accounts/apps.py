from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "wovepaper.accounts"
    label = "accounts"
    verbose_name = "Accounts"
