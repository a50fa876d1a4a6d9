"""`manage.py` commands in a subprocess that stops itself at a chosen point: killed outright (SIGKILL, as
the kernel's OOM killer or a lost machine would), or paused until the test lets it go on. The point is a
module-level function, replaced in that process only: the command's code is untouched."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import BASE_DIR, _process_env

_SCRIPT = """
import importlib, os, signal, sys, time
import django
django.setup()
from django.core.management import call_command

module_name, name, action, nth, flags = sys.argv[1:6]
module = importlib.import_module(module_name)
original = getattr(module, name)
calls = 0


def at_the_point(*args, **kwargs):
    global calls
    calls += 1
    if calls == int(nth) and action == "kill-before":
        os.kill(os.getpid(), signal.SIGKILL)
    result = original(*args, **kwargs)
    if calls == int(nth) and action == "pause-after":
        open(os.path.join(flags, "paused"), "w").close()
        while not os.path.exists(os.path.join(flags, "go")):
            time.sleep(0.05)
    return result


setattr(module, name, at_the_point)
call_command(*sys.argv[6:])
"""


class Interrupted:
    """A command that stops at the `nth` call of `module.name`: `kill-before` it is called, or
    `pause-after` it returns (until go())."""

    def __init__(
        self,
        point: str,
        action: str,
        command: list[str],
        *,
        flags: Path,
        nth: int = 1,
        env: dict | None = None,
    ) -> None:
        module, _, name = point.rpartition(".")
        self.flags = flags
        flags.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [sys.executable, "-c", _SCRIPT, module, name, action, str(nth), str(flags), *command],
            cwd=BASE_DIR,
            env=env or _process_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def wait_until_paused(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while not (self.flags / "paused").exists():
            assert self.process.poll() is None, self.process.communicate()
            assert time.monotonic() < deadline, "the command never reached its pause"
            time.sleep(0.05)

    def go(self) -> None:
        (self.flags / "go").touch()

    def stop(self) -> None:
        """Whatever happened in the test, this process does not outlive it."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def wait(self, timeout: float = 120) -> tuple[int, str, str]:
        stdout, stderr = self.process.communicate(timeout=timeout)
        return self.process.returncode, stdout, stderr


def manage(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=env or _process_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
