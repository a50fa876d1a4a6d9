import redis
from django.conf import settings


def queue_length(name: str) -> int:
    """Messages waiting in a Celery queue (the Redis list of that name)."""
    return int(redis.Redis.from_url(settings.CELERY_BROKER_URL).llen(name))
