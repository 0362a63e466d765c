"""What a tool call touched: the paths that JIT discovery should look at after it (DESIGN §2.5).

A tool's name is looked up in `tools`, the calling client's own table (`Client.tools()`); without one,
in every name jitctx knows (`tools.REGISTRY`: the generic names, then each live client's).

The calls are read in `touched.calls`; the declarations are `touched.tools`.
"""
