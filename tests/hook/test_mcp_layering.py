"""The MCP server is an edge like the command line: it imports nothing from `jitctx.cli`."""

from __future__ import annotations

import subprocess
import sys


def test_the_mcp_server_and_the_hook_never_import_the_cli() -> None:
    """Import both edges' modules (and call the explain report) with `jitctx.cli` made unimportable."""
    code = "\n".join(
        [
            "import sys",
            "class Block:",
            "    def find_spec(self, name, path=None, target=None):",
            "        if name == 'jitctx.cli' or name.startswith('jitctx.cli.'):",
            "            raise ImportError('blocked: ' + name)",
            "sys.meta_path.insert(0, Block())",
            "import jitctx.hook.transports.mcp.server, jitctx.hook.engine, jitctx.reports.explain",
            "import jitctx.reports.loads",
            "print('ok')",
        ]
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


def test_no_module_below_the_cli_imports_it_even_lazily() -> None:
    """Every import statement of the package, function bodies included: only `jitctx.cli` itself and
    `jitctx.__main__` may name `jitctx.cli`."""
    import ast
    from pathlib import Path

    import jitctx

    package = Path(jitctx.__file__).parent
    offenders = []
    for source in sorted(package.rglob("*.py")):
        rel = source.relative_to(package).as_posix()
        if rel.startswith("cli/") or rel == "__main__.py":
            continue
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            offenders += [
                f"{rel}:{node.lineno}" for n in names if n == "jitctx.cli" or n.startswith("jitctx.cli.")
            ]
    assert offenders == []
