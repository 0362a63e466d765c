"""The real Claude Code expands braces in `paths:` (its bundled cli, 2.1.332), as jitctx's claude-code
dialect does: a rule scoped `src/ui/**/*.{ts,tsx}` arrives once on a Read of a .tsx file, from the client
itself, and one scoped to other extensions does not arrive at all."""

from __future__ import annotations

import pytest

from tests.e2e.fake_api import Call, Script
from tests.e2e.harness import ClaudeHarness

pytestmark = pytest.mark.e2e

RULES = {
    "braces.md": ('---\npaths:\n  - "src/ui/**/*.{ts,tsx}"\n---\n\nJX-RULE-BRACES: props are typed.\n'),
    "scripts.md": ('---\npaths:\n  - "src/ui/**/*.{js,jsx}"\n---\n\nJX-RULE-SCRIPTS: no default exports.\n'),
}


def _add_rules(claude: ClaudeHarness) -> None:
    for name, text in RULES.items():
        (claude.root / ".claude/rules" / name).write_text(text, encoding="utf-8")


def test_a_read_brings_the_brace_rule_from_the_client_itself(claude: ClaudeHarness) -> None:
    _add_rules(claude)
    footer = claude.root / "src/ui/Footer.tsx"
    outcome = claude.run("Read the footer.", [Script([[Call("Read", {"file_path": str(footer)})]])])
    outcome.expect("JX-RULE-BRACES", "client")
    outcome.expect("JX-RULE-SCRIPTS", times=0)


def test_a_shell_write_brings_the_brace_rule_once(claude: ClaudeHarness) -> None:
    """A file a shell wrote: whichever of the client and jitctx loads the rule, it arrives once."""
    _add_rules(claude)
    write = Call("Bash", {"command": "printf 'export const N = 1;\\n' > src/ui/New.tsx"})
    outcome = claude.run("Add a component.", [Script([[write]])])
    outcome.expect("JX-RULE-BRACES")
    outcome.expect("JX-RULE-SCRIPTS", times=0)
