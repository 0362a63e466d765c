"""Lint findings and the catalogue of rules that produce them (shared by the text, JSON and SARIF output)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"  # the agent gets wrong or no instructions: `lint` exits 1
    WARNING = "warning"  # works, but fragile or wasteful: exit 1 only with --strict
    NOTE = "note"


@dataclass(frozen=True)
class Rule:
    id: str
    severity: Severity
    summary: str  # one line, for the rule list and SARIF's shortDescription
    help: str  # why it matters and what to do, for SARIF's help text


@dataclass(frozen=True)
class Location:
    file: str  # display path: POSIX relative to the root
    line: int  # 1-based


@dataclass(frozen=True)
class Finding:
    file: str
    line: int  # 1-based; 1 when the whole file is meant
    rule: str
    severity: Severity
    message: str
    fix: str
    end_line: int | None = None
    related: tuple[Location, ...] = ()  # the other places of a duplicate, the importer of a cycle…

    @property
    def sort_key(self) -> tuple[str, int, str, str]:
        return self.file, self.line, self.rule, self.message


_RULES = (
    Rule(
        "rule-ignored",
        Severity.WARNING,
        "a file in a rules folder that the agent never reads (a plain .md in .cursor/rules)",
        "Cursor's documentation (cursor.com/docs/rules) says project rules must use the .mdc extension "
        "and a plain .md file in .cursor/rules is ignored by its rules system; the file is dead text there. "
        "Rename it to .mdc with `globs:` or `alwaysApply:` frontmatter, or move it out of the rules folder.",
    ),
    Rule(
        "rule-misplaced",
        Severity.WARNING,
        "a rule file outside the rules folder its agent reads (docs/.cursor/rules.mdc)",
        "Cursor reads .mdc rules only from a .cursor/rules/ folder; a .cursor/rules.mdc file, or an .mdc "
        "file elsewhere under .cursor/, is never read. Move it into .cursor/rules/.",
    ),
    Rule(
        "cursor-globs-list",
        Severity.WARNING,
        "a Cursor rule writes 'globs' as a YAML list, which Cursor reads as one literal pattern",
        "Cursor splits the raw 'globs' value on commas and does not parse YAML, so globs: [\"src/**\"] "
        "matches nothing there. Write globs: src/**, lib/** (unquoted, comma-separated).",
    ),
    Rule(
        "skill-frontmatter",
        Severity.ERROR,
        "a SKILL.md without readable frontmatter, so agents cannot list the skill",
        "A skill is listed by the name and description in its frontmatter. Start SKILL.md with ---, "
        "name:, description:, ---.",
    ),
    Rule(
        "skill-yaml",
        Severity.WARNING,
        "a SKILL.md frontmatter that is not valid YAML, which the agent lists by a recovery of its own",
        "A value holding ': ' or '#' (description: Use this when: the user asks) is not valid YAML. "
        "Claude Code, Gemini CLI, OpenCode and Qwen Code read such lines anyway; Codex and Copilot CLI "
        "skip the skill. Quote the value.",
    ),
    Rule(
        "skill-document",
        Severity.NOTE,
        "an instruction-named file in a skill's folder: a document of the skill, not an instruction file",
        "An AGENTS.md or CLAUDE.md beside a SKILL.md is read with the skill, so jitctx does not send it "
        "and applies no instruction-file limit to it. Some clients load such a file by themselves when "
        "a file of that folder is read; rename it (REFERENCE.md) to keep them from it.",
    ),
    Rule(
        "skill-name",
        Severity.ERROR,
        "a skill's name is missing, too long, not lowercase-and-hyphens, or not its folder's name",
        "The Agent Skills spec requires name: 1-64 lowercase letters, digits and single hyphens, equal to "
        "the skill's folder name.",
    ),
    Rule(
        "skill-name-missing",
        Severity.WARNING,
        "a SKILL.md without a name",
        "Claude Code names such a skill after its folder, but the Agent Skills spec requires name:, and "
        "other agents may skip the skill. Add name: <folder name>.",
    ),
    Rule(
        "skill-description",
        Severity.ERROR,
        "a skill's description is missing or longer than 1,024 characters",
        "Agents choose a skill by its description; the spec requires one of 1-1,024 characters.",
    ),
    Rule(
        "skill-unknown-field",
        Severity.WARNING,
        "a SKILL.md frontmatter field that neither the spec nor Claude Code knows",
        "Unknown fields are ignored, so a typo silently disables a setting. Fix it, or move custom data "
        "under metadata:.",
    ),
    Rule(
        "skill-listing-cut",
        Severity.WARNING,
        "a skill's listing (name and description) is over the 1,536 characters Claude Code shows",
        "Claude Code lists each skill with at most 1,536 characters of name and description; the rest "
        "is cut. Say when to use the skill first, and keep the description short.",
    ),
    Rule(
        "import-missing",
        Severity.ERROR,
        "an @import names a file that does not exist",
        "The agent keeps the '@path' text and gets nothing from it. Fix the path (it is relative to the "
        "importing file) or remove the import.",
    ),
    Rule(
        "import-unreadable",
        Severity.ERROR,
        "an @import names a directory, binary, oversized or unreadable file",
        "Only regular UTF-8 text files under 4 MiB are imported. Point the import at such a file.",
    ),
    Rule(
        "import-not-a-path",
        Severity.WARNING,
        "an @ token that is not a path (a decorator, a CSS at-rule, a handle)",
        "Tokens like @Component or @media are read as imports, fail to resolve and log a warning on every "
        "load. Wrap them in backticks (`@Component`) so they stay text.",
    ),
    Rule(
        "import-outside",
        Severity.WARNING,
        "an @import points outside the project and is not read",
        "Targets outside the project root are not read unless [imports] allow_outside = true is set in "
        "your user config (~/.config/jitctx/config.toml); a repository's .jitctx.toml cannot set it. Move "
        "the file into the project or allow it in your user config.",
    ),
    Rule(
        "import-cycle",
        Severity.WARNING,
        "@imports form a cycle",
        "The cycle is cut where it closes; the repeated file is not included again. Remove one import.",
    ),
    Rule(
        "import-too-deep",
        Severity.WARNING,
        "an @import chain is deeper than the limit and is not followed",
        "Imports are followed to a depth of 5 (imports.max_depth). Flatten the chain.",
    ),
    Rule(
        "unquoted-glob",
        Severity.WARNING,
        "an unquoted glob in frontmatter is invalid YAML",
        "'paths: **/*.ts' is not valid YAML ('*' starts an alias). jitctx recovers it line by line, other "
        'tools may not. Quote it: paths: ["**/*.ts"].',
    ),
    Rule(
        "frontmatter-unreadable",
        Severity.ERROR,
        "frontmatter cannot be read, so the rule is never injected",
        "A rule whose frontmatter cannot be read is conditional on nothing (the safe side) and never "
        "reaches the agent. Fix the YAML between the '---' lines.",
    ),
    Rule(
        "scope-ignored",
        Severity.WARNING,
        "the agent ignores the scope in this file's frontmatter",
        "Claude Code honours `paths:` only in rules folders: it loads a nested CLAUDE.md on any touch of "
        "its folder whatever the frontmatter says, so the scope narrows nothing. Move the text to "
        ".claude/rules/NAME.md with the same paths:, or drop paths:.",
    ),
    Rule(
        "scope-key-ignored",
        Severity.WARNING,
        "a rule is scoped only by a key the agent does not read, so it loads at every session start",
        "Each format has its own scope key: Claude Code reads paths: in .claude/rules, Cursor globs:, "
        "Copilot applyTo:. A rule scoped only by another tool's key is unconditional for the agent: it "
        "loads in every session. Add the agent's own key with the same globs.",
    ),
    Rule(
        "scope-matches-nothing",
        Severity.WARNING,
        "a scope pattern matches no file in the repository",
        "A pattern that matches no file never loads its rule: a typo, a renamed folder or code not written "
        "yet. Fix or remove the pattern.",
    ),
    Rule(
        "duplicate-rule",
        Severity.WARNING,
        "two unconditional instruction files that load together have the same text",
        "One agent loads both in one session (one directory chain), imports expanded, so it pays for the "
        "same text twice. Delete the deeper copy; files in one folder can import one from the other.",
    ),
    Rule(
        "duplicate-text",
        Severity.WARNING,
        "the same lines appear in unconditional instruction files that load together",
        "Repeated lines cost bytes on every turn and drift apart when only one copy is edited. Files that "
        "never load together (sibling packages) are not compared. Keep the lines in the file nearer the "
        "root, which loads wherever the deeper one does.",
    ),
    Rule(
        "shadowed-file",
        Severity.WARNING,
        "the agent reads only the first instruction file of a folder, so this one is never read",
        "Codex reads AGENTS.override.md instead of AGENTS.md in the same folder. Merge the files or "
        "delete the one that is never read.",
    ),
    Rule(
        "over-limit",
        Severity.ERROR,
        "an instruction file is larger than a byte limit at which its agent (or the config) cuts",
        "Over the limit, the agent drops or truncates instructions. Move task material and history out "
        "of the file (layers L2/L3) or split it by scope.",
    ),
    Rule(
        "near-limit",
        Severity.WARNING,
        "an instruction file uses 90% or more of the agent's byte limit",
        "Headers and other files share the same budget; leave headroom.",
    ),
    Rule(
        "size-warning",
        Severity.WARNING,
        "an instruction file is past a size at which its agent warns (it still loads whole)",
        "Claude Code warns that a CLAUDE.md over 40,000 characters will impact performance, and still "
        "loads it whole. Move task material and history to files read on demand.",
    ),
    Rule(
        "route-target-missing",
        Severity.ERROR,
        "a routing entry (task trigger -> reference file) names a file that does not exist",
        "The agent is told to read a file that is not there. Fix [[routes]] file in the config.",
    ),
    Rule(
        "pin-missing",
        Severity.ERROR,
        "[pin] paths names a file that does not exist",
        "A pinned file is meant to stay in every agent's context; a wrong path pins nothing. Fix [pin] "
        "paths in the config.",
    ),
    Rule(
        "config-unknown-key",
        Severity.WARNING,
        "the config has a key jitctx does not know",
        "Unknown keys are ignored; a typo silently disables a setting. Fix or remove the key.",
    ),
    Rule(
        "file-skipped",
        Severity.WARNING,
        "an instruction file is not read (binary, over 4 MiB, unreadable, or a link outside the project)",
        "The agent never sees a skipped file. Fix or remove it.",
    ),
    Rule(
        "instruction-link-outside",
        Severity.WARNING,
        "a symbolic link in the project leads to an instruction file outside it",
        "jitctx reads nothing outside the project, but a client that follows links loads the "
        "file behind the link as an instruction file of the project. Copy what applies into the project "
        "and remove the link, or point the link inside the project.",
    ),
    Rule(
        "file-warning",
        Severity.WARNING,
        "an instruction file was read with a problem (e.g. not valid UTF-8)",
        "The text reached the agent altered. Save the file as UTF-8.",
    ),
)
RULES: dict[str, Rule] = {rule.id: rule for rule in _RULES}


def finding(
    rule: str,
    file: str,
    line: int,
    message: str,
    fix: str,
    *,
    end_line: int | None = None,
    related: tuple[Location, ...] = (),
) -> Finding:
    """A finding with its rule's default severity; `rule` must be in RULES."""
    return Finding(file, max(1, line), rule, RULES[rule].severity, message, fix, end_line, related)
