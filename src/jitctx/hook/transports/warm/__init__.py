"""The warm daemon of process hooks (`jitctx hook AGENT --warm`): one long-lived jitctx process per user
and environment answers the events that hook processes forward to it over a private unix socket.

`place` says where the daemon listens and which daemon a hook may ask, `client` is the hook's side,
`server` the daemon. Nothing here is imported unless --warm is given.
"""
