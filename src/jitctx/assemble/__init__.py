"""Prompt assembly: cache zones, the re-injection invariant, render styles, budgets with visible truncation.

    from jitctx.assemble import PromptAssembler, fit_profile, cache_cost

Everything here is pure (no I/O) and imports only the standard library and jitctx.
"""

from __future__ import annotations

from jitctx.assemble.assembler import PromptAssembler
from jitctx.assemble.budget import NOTICE, BudgetResult, FileBudget, fit_budget, fit_profile
from jitctx.assemble.cache import CacheCost, cache_cost, serialize
from jitctx.assemble.render import (
    STYLES,
    RenderInput,
    RenderItem,
    RenderStyle,
    as_items,
    get_style,
    render_block,
    render_overhead,
    render_payload,
    rendered_size,
)
from jitctx.assemble.wire import (
    BOUNDARY,
    FORMATS,
    AssembledPrompt,
    Block,
    render_anthropic,
    render_openai,
    render_prompt,
    render_text,
)

__all__ = [
    "BOUNDARY",
    "FORMATS",
    "NOTICE",
    "STYLES",
    "AssembledPrompt",
    "Block",
    "BudgetResult",
    "CacheCost",
    "FileBudget",
    "PromptAssembler",
    "RenderInput",
    "RenderItem",
    "RenderStyle",
    "as_items",
    "cache_cost",
    "fit_budget",
    "fit_profile",
    "get_style",
    "render_anthropic",
    "render_block",
    "render_openai",
    "render_overhead",
    "render_payload",
    "render_prompt",
    "render_text",
    "rendered_size",
    "serialize",
]
