"""The hook's transports: how one event reaches the one pipeline (`hook.pipeline.respond`) and how its
answer goes back. `process` reads an event on stdin and writes the answer on stdout (one process per
event); `warm` hands the event to a daemon of the user's that keeps the engine loaded; `mcp` answers it
inside a `jitctx mcp` server the client keeps. None decides anything: each is thin around `respond`."""
