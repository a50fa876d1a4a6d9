"""The readers of `make loadtest` (bench/loadtest.py runs locust headless on this file): a mix of what
people and machines ask for, weighted roughly as a scholarly site's logs read (search and papers first).
The addresses come from the corpus under test (LOADTEST_TARGETS, a JSON file the runner writes)."""

from __future__ import annotations

import json
import os
import random

from locust import HttpUser, between, task

TARGETS = json.loads(open(os.environ["LOADTEST_TARGETS"]).read())  # noqa: SIM115, PTH123 - read once
MODES = ("keyword", "semantic", "hybrid")
FILTERS = ("", "&cat=cs.LG", "&cat=cs.CV&from=2024", "&cited=1", "&from=2020&to=2025")
MARKDOWN = {"Accept": "text/markdown"}


class Reader(HttpUser):
    wait_time = between(0.5, 2.0)  # a person reading, not a crawler hammering

    def _get(self, path: str, name: str, **kwargs: object) -> None:
        with self.client.get(path, name=name, catch_response=True, **kwargs) as response:
            if response.status_code != 200:
                response.failure(f"HTTP {response.status_code}")

    @task(3)
    def home(self) -> None:
        self._get("/", "home")

    @task(10)
    def search(self) -> None:
        mode = random.choice(MODES)
        query = random.choice(TARGETS["queries"])
        self._get(f"/search?q={query}&mode={mode}{random.choice(FILTERS)}", f"search {mode}")

    @task(8)
    def paper(self) -> None:
        self._get(f"/papers/{random.choice(TARGETS['papers'])}", "paper", allow_redirects=True)

    @task(4)
    def researcher(self) -> None:
        self._get(f"/researchers/{random.choice(TARGETS['researchers'])}", "researcher", allow_redirects=True)

    @task(2)
    def institution(self) -> None:
        self._get(
            f"/institutions/{random.choice(TARGETS['institutions'])}", "institution", allow_redirects=True
        )

    @task(2)
    def markdown(self) -> None:
        self._get(
            f"/papers/{random.choice(TARGETS['papers'])}",
            "paper markdown",
            headers=MARKDOWN,
            allow_redirects=True,
        )

    @task(1)
    def rss(self) -> None:
        self._get(random.choice(("/rss/latest.xml", "/rss/category/cs.LG.xml")), "rss")

    @task(3)
    def api(self) -> None:
        choice = random.random()
        if choice < 0.4:
            self._get(f"/api/search?q={random.choice(TARGETS['queries'])}", "api search")
        elif choice < 0.7:
            self._get(f"/api/papers/{random.choice(TARGETS['papers'])}", "api paper")
        else:
            self._get(f"/api/researchers/{random.choice(TARGETS['researchers'])}", "api researcher")
