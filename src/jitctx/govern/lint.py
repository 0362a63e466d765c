"""`lint`: everything that keeps instruction files from reaching an agent as written, in one report.

Rules live in `lint_rules` (files, scopes, sizes, config), `duplicates` and `lint_imports`; this module
reads the project once, runs them, and decides the outcome: errors fail, warnings fail only when strict.
"""

from __future__ import annotations

from dataclasses import dataclass

from jitctx.govern.duplicate_sources import duplicate_texts
from jitctx.govern.duplicates import duplicate_findings
from jitctx.govern.findings import Finding, Severity
from jitctx.govern.inventory import take_inventory
from jitctx.govern.lint_cursor import cursor_glob_findings, misplaced_rule_findings, reads_cursor_rules
from jitctx.govern.lint_imports import ImportSource, import_findings
from jitctx.govern.lint_links import InstructionPaths, link_findings, linked_instruction_files
from jitctx.govern.lint_rules import (
    config_findings,
    frontmatter_findings,
    ignored_rule_findings,
    ignored_scope_findings,
    scope_findings,
    shadow_findings,
    size_findings,
    skipped_findings,
)
from jitctx.govern.lint_scope_keys import ignored_key_findings
from jitctx.govern.readers import imports_expanded
from jitctx.govern.repo_files import RepoFiles, list_repo_files
from jitctx.govern.skills import skill_document_findings, skill_findings
from jitctx.govern.source import SourceLayout, layout_of
from jitctx.model import InstructionFile
from jitctx.project import Project


@dataclass(frozen=True)
class LintReport:
    root: str
    agent: str
    findings: tuple[Finding, ...]
    files_checked: int
    repo_files: int
    listing: str  # how repository files were listed: "git" or "walk"
    notes: tuple[str, ...] = ()
    checked: str = ""  # what `files_checked` counts, for people ("10 files (9 instruction files, ...)")

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity is severity)

    def failed(self, *, strict: bool = False) -> bool:
        """Errors always fail; warnings fail only when `strict`."""
        failing = {Severity.ERROR, Severity.WARNING} if strict else {Severity.ERROR}
        return any(f.severity in failing for f in self.findings)


def lint_project(
    project: Project, *, repo_files: RepoFiles | None = None, use_git: bool = True
) -> LintReport:
    repo = repo_files if repo_files is not None else list_repo_files(project.root, use_git=use_git)
    inventory = take_inventory(project, repo.paths)  # the same list `provenance` locks
    files, skips = inventory.files, inventory.skips
    found: list[Finding] = skipped_findings(skips)
    laid_out: list[tuple[InstructionFile, SourceLayout]] = []
    sources: list[ImportSource] = []
    limit = project.profile.startup_limit(project.max_bytes, configured=project.config.max_bytes is not None)
    for file in files:
        layout = layout_of(file)
        found.extend(frontmatter_findings(file, layout))
        found.extend(ignored_scope_findings(file, layout, project.profile))
        found.extend(cursor_glob_findings(file, layout))
        found.extend(ignored_key_findings(file, layout, project.profile, project.root))
        found.extend(scope_findings(file, layout, repo))
        found.extend(size_findings(file, limit, project.profile))
        laid_out.append((file, layout))
        if imports_expanded(project.profile, file.display, project.root):
            sources.append(ImportSource(file.path, file.display, file.text, layout.body_line))
    found.extend(duplicate_findings(duplicate_texts(project, laid_out)))
    found.extend(shadow_findings(files, project.profile, project.root))
    found.extend(config_findings(project.config, project.root))
    found.extend(ignored_rule_findings(project))
    found.extend(skill_findings(inventory.skills))
    found.extend(skill_document_findings(inventory.skill_documents))
    if reads_cursor_rules(project.profile):
        found.extend(misplaced_rule_findings(repo.paths))
    linked = linked_instruction_files(project.root, repo.paths, InstructionPaths([project.profile]))
    found.extend(link_findings(linked, already=(skip.path for skip in skips)))
    if sources:
        found.extend(
            import_findings(
                sources,
                project.root,
                max_depth=project.config.import_depth,
                allow_outside=project.config.allow_outside_imports,
                home=project.home,
            )
        )
    notes = (repo.note,) if repo.note else ()
    return LintReport(
        project.root,
        project.profile.name,
        tuple(sorted(found, key=lambda f: f.sort_key)),
        len(inventory.sources),
        len(repo.paths),
        repo.method,
        notes,
        inventory.describe(),
    )
