from django.apps import AppConfig
from django.core.checks import register

from accounts.checks import email_delivery_check, warn_at_start_up


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        register(email_delivery_check, "email", deploy=True)
        warn_at_start_up()
