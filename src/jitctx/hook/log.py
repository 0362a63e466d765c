"""The hook log: `<state dir>/hook.log`, one line per problem, never a reason to fail an event."""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

from jitctx.safe_open import open_state_file

if TYPE_CHECKING:
    from pathlib import Path


def log_problem(state_dir: Path | str, agent: str, message: str) -> None:
    """Append one line to `<state dir>/hook.log`; a log that cannot be written is given up silently."""
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
    line = f"{stamp}Z {agent}: {' '.join(message[:2000].split())}\n"

    directory = str(state_dir)
    try:
        # The state dir holds session state and logs of this user alone: private from its first creation,
        # whichever call creates it (doctor checks the mode).
        os.makedirs(directory, mode=0o700, exist_ok=True)
        # A FIFO or a device planted as the log would block every call: regular files of ours only.
        fd = open_state_file(os.path.join(directory, "hook.log"), os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            os.write(fd, line.encode("utf-8", "backslashreplace"))
        finally:
            os.close(fd)
    except OSError:
        pass
