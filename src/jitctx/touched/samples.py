"""Sample tool calls a preview plays (`Client.sample_call`): for each kind (a read, a write, an edit, a
shell read, a shell write) the call a client's own tools would make on a path."""

from __future__ import annotations

import shlex
from collections.abc import Callable

SAMPLE_KINDS = ("read", "write", "edit", "shell_read", "shell_write")
_SHELL_SAMPLES = {"shell_read": "cat {}", "shell_write": "printf x > {}"}


def shell_sample(kind: str, path: str) -> str | None:
    """The command of a sample shell call of `kind` on `path` (quoted for the shell); None for a kind that
    is not a shell one."""
    template = _SHELL_SAMPLES.get(kind)
    if template is None:
        return None

    return template.format(shlex.quote(path))


SampleCall = Callable[[str, str], "tuple[str, dict[str, object]] | None"]


def file_path_samples(*, read: str, write: str, edit: str, shell: str) -> SampleCall:
    """The `sample_call` of a tool set whose file tools take `file_path` (a write also `content`, an edit
    `old_string` and `new_string`) and whose shell takes `command`, under the tool names given for each
    kind (see `SAMPLE_KINDS`)."""

    def sample_call(kind: str, path: str) -> tuple[str, dict[str, object]] | None:
        command = shell_sample(kind, path)
        if command is not None:
            return shell, {"command": command}
        if kind == "read":
            return read, {"file_path": path}
        if kind == "write":
            return write, {"file_path": path, "content": "x\n"}
        if kind == "edit":
            return edit, {"file_path": path, "old_string": "x", "new_string": "y"}
        return None

    return sample_call


# A call of the generic tool of `kind` on `path`.
sample_call = file_path_samples(read="read", write="write", edit="edit", shell="bash")
