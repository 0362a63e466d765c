"""What the views (`explain`, `touch`, `startup`) need to show a live client with jitctx's hook: which
client `--agent` names, and the hook's own verdicts for a previewed session (`hook.preview`)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping, Sequence

from jitctx.cli.state import user_home
from jitctx.clients import all_clients
from jitctx.clients.base import Client
from jitctx.hook.decide import NONE
from jitctx.hook.preview import Moment, preview
from jitctx.reports.explain import BY, Reached


def add_without_hook(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--without-hook",
        action="store_true",
        help="for a live client: what it loads by itself, as if jitctx's hook were not installed",
    )


def hooked_client(args: argparse.Namespace) -> Client | None:
    """The live client `--agent` names, unless --without-hook asks for the client alone."""
    if getattr(args, "without_hook", False) or not args.agent:
        return None
    name = all_clients.canonical(args.agent)
    return None if name is None else all_clients.get(name)


def moments(client: Client, cwd: str, touches: Sequence[tuple[str, str]], use_git: bool) -> list[Moment]:
    """The hook's verdicts for a start in `cwd` and each (kind, absolute path) touch."""
    return preview(client, cwd, touches, home=user_home(), use_git=use_git, environ=os.environ)


def rule_routes(
    client: Client, root: str, examples: Mapping[str, str], use_git: bool = False
) -> dict[str, tuple[tuple[str, str], ...]]:
    """Per file (display), who brings it with the hook: at the start of a session in the root, and
    after a read and a shell read of a file it applies to (`examples`, from `rules_table`): the first
    moment of each previewed session that decides the file."""
    routes: dict[str, list[tuple[str, str]]] = {}
    paths = sorted({os.path.join(root, *rel.split("/")) for rel in examples.values()})
    read = "read" if client.sample_call("read", root) is not None else "shell_read"
    for kind in dict.fromkeys((read, "shell_read")):
        played = moments(client, root, [(kind, path) for path in paths], use_git)
        decided: set[str] = set()
        for moment in played:
            label = "start" if moment.kind == "start" else kind
            for verdict in moment.verdicts:
                if verdict.display in decided:
                    continue
                decided.add(verdict.display)
                pair = (label, verdict.route)
                if pair not in routes.setdefault(verdict.display, []):
                    routes[verdict.display].append(pair)
    return {display: tuple(pairs) for display, pairs in routes.items()}


def reached(client: Client, cwd: str, touches: Sequence[tuple[str, str]], use_git: bool) -> list[Reached]:
    """Every file the hook decided in a previewed session, in order, as `reports.explain` shows them."""
    found: list[Reached] = []
    for moment in moments(client, cwd, touches, use_git):
        when = "startup" if moment.kind == "start" else "touch"
        for verdict in moment.verdicts:
            load = verdict.load
            found.append(
                Reached(
                    load.file.display,
                    verdict.route,
                    when,
                    verdict.why,
                    load.reason.value,
                    load.globs,
                    load.trigger,
                )
            )
    return found


__all__ = ["BY", "NONE", "add_without_hook", "hooked_client", "moments", "reached", "rule_routes"]
