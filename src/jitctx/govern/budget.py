"""Byte budgets per layer (L0 every turn, L1 scoped, L2 task material, L3 history) and for the host.

A layer's budget is compared with the body bytes of its files, as people size the text they write; the
host's limit is compared with the rendered payload (headers, wrappers, blank lines), which is what the
agent actually receives. Without layers in the config, the budget is the host's limit on everything that
loads at startup from the root.
"""

from __future__ import annotations

from dataclasses import dataclass

from jitctx.assemble.render import rendered_size
from jitctx.config import Layer
from jitctx.discovery.session import Session
from jitctx.errors import ConfigError
from jitctx.model import InstructionFile
from jitctx.project import Project
from jitctx.scope import compile_scope, scope_matches


@dataclass(frozen=True)
class LayerUsage:
    name: str
    files: tuple[str, ...]
    body_bytes: int
    payload_bytes: int
    limit: int | None
    inject: bool = True

    @property
    def headroom(self) -> int | None:
        return None if self.limit is None else self.limit - self.body_bytes

    @property
    def over(self) -> bool:
        return self.limit is not None and self.body_bytes > self.limit


@dataclass(frozen=True)
class BudgetReport:
    layers: tuple[LayerUsage, ...]  # configured layers, then combined budgets, then unlayered files
    injected_body: int  # body bytes of every injected layer together
    injected_payload: int  # their rendered payload
    host_limit: int
    style: str
    configured: bool

    @property
    def host_headroom(self) -> int:
        return self.host_limit - self.injected_payload

    @property
    def over(self) -> bool:
        return self.injected_payload > self.host_limit or any(layer.over for layer in self.layers)


def measure(project: Project) -> BudgetReport:
    style = project.profile.render
    limit = project.max_bytes
    config = project.config
    if not config.layers:
        session = Session(project, use_git=False)
        session.startup()
        files = session.blocks()
        body = sum(f.body_bytes for f in files)
        payload = rendered_size(files, style)
        usage = LayerUsage("startup", tuple(f.display for f in files), body, payload, None)
        return BudgetReport((usage,), body, payload, limit, style, configured=False)

    files, _ = project.all_instruction_files()
    members = assign_layers(files, config.layers, config.source or "config")
    usages = [
        _usage(layer.name, members[layer.name], layer.max_bytes, style, layer.inject)
        for layer in config.layers
    ]
    for names, combined_limit in config.combined_budgets:
        unknown = [n for n in names if n not in members]
        if unknown:
            raise ConfigError(
                f"{config.source}: budgets name unknown layer(s) {unknown}; define [layers.{unknown[0]}]"
            )
        chosen = [f for n in names for f in members[n]]
        usages.append(_usage("+".join(names), chosen, combined_limit, style, True))
    layered = {f.path for group in members.values() for f in group}
    rest = [f for f in files if f.path not in layered]
    if rest:
        usages.append(_usage("(no layer)", rest, None, style, False))
    injected = [f for layer in config.layers if layer.inject for f in members[layer.name]]
    body = sum(f.body_bytes for f in injected)
    return BudgetReport(tuple(usages), body, rendered_size(injected, style), limit, style, configured=True)


def assign_layers(
    files: list[InstructionFile], layers: tuple[Layer, ...], source: str
) -> dict[str, list[InstructionFile]]:
    """Each file goes to the one layer whose globs match its path; two layers claiming it is an error."""
    compiled = {layer.name: compile_scope(layer.globs) for layer in layers}
    members: dict[str, list[InstructionFile]] = {layer.name: [] for layer in layers}
    for file in files:
        owners = [name for name, regex in compiled.items() if scope_matches(regex, file.display)]
        if len(owners) > 1:
            raise ConfigError(
                f"{source}: layers {owners} overlap on {file.display}; a file belongs to one layer, "
                "so narrow the globs of all but one"
            )
        if owners:
            members[owners[0]].append(file)
    return members


def _usage(
    name: str, files: list[InstructionFile], limit: int | None, style: str, inject: bool
) -> LayerUsage:
    return LayerUsage(
        name,
        tuple(f.display for f in files),
        sum(f.body_bytes for f in files),
        rendered_size(files, style),
        limit,
        inject,
    )
