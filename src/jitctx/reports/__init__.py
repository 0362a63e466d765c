"""Reports shared by the command line and the MCP server: plain tables, loads and explanations as JSON and
text. Below both edges, so that neither imports the other."""
