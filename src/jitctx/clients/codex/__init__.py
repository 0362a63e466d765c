"""Codex (npm `@openai/codex`): hooks in `.codex/hooks.json` and `$CODEX_HOME/hooks.json`, each trusted by
the user with `/hooks`; reads AGENTS.override.md or AGENTS.md per directory from the root to the cwd at
start (and a sub-agent at its own start), and nothing while it works, so every nested file is jitctx's to
send. A sub-agent is a channel of its own in its parent's session (`hooks`); what reached the model is
read from the thread's rollout (`rollout`, `evidence`), and so is `stats --drift` (`drift`).

The modules of this folder: `dialect` (its events, tools and answers: all the fast lane loads), `tools`;
`client` (the whole client, for the engine and the views), `profile`, `config` (the user's
config.toml), `rollout` (its records read back), `evidence`, `drift`; and for install and doctor only,
`setup` (its `Setup`), `hooks` (payloads, install entries, settings places), `doctor` (config.toml,
`trust` records, the `plugin`).
"""
