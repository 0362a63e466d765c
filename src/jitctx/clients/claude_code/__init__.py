"""Claude Code (npm `@anthropic-ai/claude-code`): hooks in `.claude/settings*.json` and
`~/.claude/settings.json`; loads nested CLAUDE.md files and `.claude/rules` by itself after the calls its
release follows (`release`), reports its own loads through InstructionsLoaded, forks sessions.

The modules of this folder: `dialect` (its events, tools and answers: all the fast lane loads), `tools`;
`client` (the whole client, for the engine and the views), `profile` (what it reads), `release` and
`transcript` (what the release in use follows, read from the transcript), `evidence`, `drift`,
`skill_use` (Skill tool telemetry); and for install and doctor only, `setup` (its `Setup`), `hooks`
(install entries, settings places), `doctor`.
"""
