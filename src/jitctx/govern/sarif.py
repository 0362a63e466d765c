"""Lint findings as SARIF 2.1.0, the format code-scanning UIs (GitHub, GitLab, IDEs) read.

Locations are relative URIs against the base id PROJECTROOT, so the file is portable between checkouts;
the absolute root is given once in `originalUriBaseIds`. Every rule of the catalogue is listed (with its
default level), so a UI can show the rule's help even for findings from earlier runs.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jitctx.govern.findings import RULES, Finding, Location, Severity
from jitctx.govern.lint import LintReport

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
ROOT_BASE_ID = "PROJECTROOT"
_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "note"}


def to_sarif(report: LintReport, *, tool_version: str) -> dict[str, Any]:
    rule_ids = list(RULES)
    rules = [
        {
            "id": rule.id,
            "name": _pascal(rule.id),
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": rule.help},
            "help": {"text": rule.help},
            "defaultConfiguration": {"level": _LEVELS[rule.severity]},
        }
        for rule in RULES.values()
    ]
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "jitctx",
                        "version": tool_version,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {ROOT_BASE_ID: {"uri": Path(report.root).as_uri().rstrip("/") + "/"}},
                "results": [_result(f, rule_ids.index(f.rule)) for f in report.findings],
                "properties": {"agent": report.agent},
            }
        ],
    }


def _result(finding: Finding, rule_index: int) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": finding.rule,
        "ruleIndex": rule_index,
        "level": _LEVELS[finding.severity],
        "message": {"text": f"{finding.message}. Fix: {finding.fix}"},
        "locations": [_location(Location(finding.file, finding.line), finding.end_line)],
        "properties": {"fix": finding.fix},
    }
    if finding.related:
        result["relatedLocations"] = [
            {**_location(place, None), "id": index} for index, place in enumerate(finding.related, start=1)
        ]
    return result


def _location(place: Location, end_line: int | None) -> dict[str, Any]:
    region: dict[str, Any] = {"startLine": max(1, place.line)}
    if end_line is not None and end_line > place.line:
        region["endLine"] = end_line
    # The name's own bytes, percent-encoded: a name that is not UTF-8 (`caf\xe9`) has no UTF-8 to quote.
    artifact: dict[str, Any] = {"uri": quote(os.fsencode(place.file), safe="/")}
    if not place.file.startswith("/"):
        artifact["uriBaseId"] = ROOT_BASE_ID
    else:
        artifact["uri"] = Path(place.file).as_uri()
    return {"physicalLocation": {"artifactLocation": artifact, "region": region}}


def _pascal(rule_id: str) -> str:
    return "".join(part.capitalize() for part in rule_id.split("-"))
