"""The politeness limits live in Redis, so separate workers share them: here, separate threads with
their own limiter objects, as separate processes would have."""

from __future__ import annotations

import threading
import time

from harvest.ratelimit import RateLimiter


def run_workers(count: int, work) -> None:
    threads = [threading.Thread(target=work) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)


def test_workers_share_one_interval_between_requests():
    starts: list[float] = []

    def worker() -> None:
        limiter = RateLimiter("test-interval", interval_ms=200)
        for _ in range(2):
            with limiter.slot():
                starts.append(time.monotonic())

    run_workers(3, worker)

    starts.sort()
    assert len(starts) == 6
    gaps = [later - earlier for earlier, later in zip(starts, starts[1:], strict=False)]
    # Slots are reserved 200 ms apart on Redis's clock; a thread that wakes a little late can make the gap
    # after it look shorter, never the whole run: without the limiter all six would start at once.
    assert min(gaps) >= 0.15
    assert starts[-1] - starts[0] >= 5 * 0.2 - 0.02


def test_a_single_connection_source_never_has_two_requests_open():
    open_now, most_open = 0, 0
    guard = threading.Lock()

    def worker() -> None:
        nonlocal open_now, most_open
        limiter = RateLimiter("test-connection", interval_ms=0, single_connection=True)
        for _ in range(3):
            with limiter.slot():
                with guard:
                    open_now += 1
                    most_open = max(most_open, open_now)
                time.sleep(0.05)  # the request is open
                with guard:
                    open_now -= 1

    run_workers(3, worker)

    assert most_open == 1


def test_retry_after_holds_back_every_worker():
    RateLimiter("test-defer", interval_ms=0).defer(0.5)
    started = time.monotonic()

    with RateLimiter("test-defer", interval_ms=0).slot():  # another worker's limiter
        waited = time.monotonic() - started

    assert waited >= 0.45
