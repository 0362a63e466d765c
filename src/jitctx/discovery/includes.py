"""`@imports` of a loaded file, loaded as blocks of their own (reason `include`)."""

from __future__ import annotations

from jitctx.discovery.state import ChannelState, LoadedEntry, Pass
from jitctx.imports import expand
from jitctx.model import InstructionFile, Load, LoadReason, Tier
from jitctx.project import Project


def include_imports(project: Project, file: InstructionFile, state: ChannelState, work: Pass) -> None:
    """Load what `file` imports with `@path`, each as its own block (reason `include`)."""
    if not project.profile.imports or "@" not in file.text:
        return  # most files import nothing: spare the Markdown parser
    config = project.config
    # A user-level file imports from the user's own folders; a project file, from the project.
    user_level = file.tier in (Tier.USER, Tier.MANAGED) and project.home is not None
    expansion = expand(
        file.text,
        file.path,
        root=project.home if user_level and project.home else project.root,
        max_depth=config.import_depth,
        allow_outside=config.allow_outside_imports,
        home=project.home,
        first_line=file.body_line,
        display=project.display,
    )
    work.warnings.extend(expansion.warnings)
    for result in expansion.included:
        if result.path is None or result.path in state.loaded:
            continue
        identity = state.new_identity(result.path)
        if identity is None:
            continue
        tier = file.tier  # an import belongs to the tier of the file that asked for it
        included = InstructionFile(
            path=result.path,
            display=result.display or result.path,
            tier=tier,
            text=result.text or "",
            size=result.size or 0,
            mtime_ns=result.mtime_ns or 0,
        )
        # Filed under the importing file's directory: a touch there notices the import's edits too.
        directory = state.loaded[file.path].directory if file.path in state.loaded else None
        entry = LoadedEntry(
            included.display,
            included.mtime_ns,
            included.size,
            LoadReason.INCLUDE.value,
            tier.value,
            directory,
            included.body_bytes,
        )
        state.add(result.path, entry, identity, included)
        work.loads.append(Load(included, LoadReason.INCLUDE, trigger=file.display, parent=result.parent))
