import redis
from django.conf import settings


def queue_length(name: str) -> int:
    """Messages waiting in a Celery queue (the Redis list of that name). A broker that does not answer
    within two seconds raises redis.RedisError rather than holding the caller."""
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=2, socket_connect_timeout=2)
    try:
        return int(client.llen(name))
    finally:
        client.close()
