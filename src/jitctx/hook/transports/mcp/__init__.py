"""The MCP transport: `jitctx mcp`, a stdio MCP server whose tools answer hook events (`hook_event`) and
questions of any MCP client (`context_for_paths`, `explain`, `stats`)."""
