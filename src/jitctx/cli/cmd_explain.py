"""`jitctx explain PATH`: which instruction files reach an agent touching PATH, and why the others don't."""

from __future__ import annotations

import argparse
import os
from dataclasses import replace

from jitctx.cli.common import add_agent, add_json, path_argument, print_json, root_for_path, table
from jitctx.cli.routes import add_without_hook, hooked_client, reached
from jitctx.cli.state import user_config_path, user_home
from jitctx.discovery.explain import explain
from jitctx.errors import UsageError
from jitctx.profiles import DEFAULT_PROFILE, ROOT_MARKERS, get_profile
from jitctx.project import Project
from jitctx.reports.explain import to_json, to_text, with_routes

HELP = """\
Answers "why did (or didn't) my rule reach the agent?" in the order you would check by hand:
  1. was the file's directory touched at all? (nested files load only when a path under them is)
  2. does its scope match the actual path? (globs and path shown side by side)
  3. is the path inside the project? is the frontmatter readable? is the file readable?

With --agent naming a live client (claude-code, codex, gemini-cli, ...), the answer is for that client
with jitctx's hook installed: each file says who brings it (the client itself, jitctx's hook, or nobody)
and why, exactly as the hook decides it for a session start and a read of PATH (a shell `cat` for a
client without a read tool). --without-hook shows
what the client loads by itself instead.

A relative PATH is taken from --cwd, else from --root when given, else from the current directory (as in
`jitctx touch`). The root defaults to the nearest ancestor of PATH with a root marker (.git,
.jitctx.toml); the agent's cwd defaults to the root.

examples:
  jitctx explain examples/monorepo/src/ui/Footer.tsx
  jitctx explain src/api/users.ts --agent codex --json
  jitctx explain src/api/users.ts --agent codex --without-hook
"""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = HELP
    parser.add_argument("path", metavar="PATH", help="the file or directory an agent touches")
    parser.add_argument("--root", metavar="DIR", help="project root (default: found from PATH)")
    parser.add_argument("--cwd", metavar="DIR", help="the agent's working directory (default: the root)")
    add_agent(parser)
    add_json(parser)
    parser.add_argument("--no-git", action="store_true", help="do not ask git for changed files")
    add_without_hook(parser)


def run(args: argparse.Namespace) -> int:
    target = path_argument(args.path, args.root, args.cwd)
    root = root_for_path(target, args.root, ROOT_MARKERS)
    # The user tier and the user's own config, as the hook reads them.
    project = Project(root, profile=args.agent, home=user_home(), user_config=user_config_path())
    cwd = os.path.join(project.root, args.cwd) if args.cwd else project.root
    if not os.path.isdir(cwd):
        raise UsageError(f"--cwd {args.cwd!r} is not a directory under {project.root}")
    client = hooked_client(args)
    if client is None:
        result = explain(project, target, cwd=cwd, use_git=not args.no_git)
    else:
        # What the hook finds (it reads every format, as this client reads its own files), with each
        # file's route as the hook decides it for a start and a read of PATH.
        hooked = Project(
            project.root,
            profile=client.discovery_profile(
                get_profile(DEFAULT_PROFILE), project.root, os.environ, user_home()
            ),
            home=user_home(),
            user_config=user_config_path(),
        )
        absolute = os.path.abspath(os.path.join(cwd, target))
        found = explain(hooked, target, cwd=cwd, use_git=not args.no_git)
        # A read with the client's own read tool; a client without one (Codex) reads through its shell.
        kind = "read" if client.sample_call("read", absolute) is not None else "shell_read"
        routes = reached(client, cwd, [(kind, absolute)], use_git=not args.no_git)
        own = explain(project, target, cwd=cwd, use_git=not args.no_git)
        result = replace(with_routes(found, routes), blocks=own.blocks)
    if args.json:
        print_json(to_json(result, project))
    else:
        print(to_text(result, project, table))
    return 0
