"""The one hook pipeline (`pipeline.respond`) and what it is made of: the canonical event, the engine, its
fast lane, the record of each decision, and the MCP server that is one of its transports."""

# One hook event is kilobytes (a Write's content at most a few megabytes); past this it is not an event
# but a stream such as /dev/zero, which must not be read into memory to find that out.
MAX_INPUT = 8 * 1024 * 1024

# What one hook call may spend on the engine's decision before it answers `{}` instead (hook.deadline).
DEADLINE_S = 1.0
