"""Start the command line: python -m jitctx."""

from jitctx.cli.main import entry

entry()
