// jitctx-plugin for OpenCode, written by `jitctx install opencode`; `jitctx uninstall opencode` removes it.
//
// OpenCode has no command hooks: this plugin hands each finished tool call, and each session's first
// model request, to `jitctx hook opencode` (one JSON object on its stdin) and adds what jitctx answers:
// after a tool call to the tool's output, at session start to the system prompt (kept for every later
// request of the session, since OpenCode rebuilds the system prompt each time). It must never break
// OpenCode: a hook that fails, answers nonsense or takes longer than TIMEOUT_MS leaves everything as it
// was. No dependencies: node's child_process, which Bun (OpenCode's runtime) provides.
import { spawn } from "node:child_process";

const COMMAND = __JITCTX_COMMAND__;
const TIMEOUT_MS = 10000;
// Once the hook has exited, all it wrote is in the pipe: reading it takes milliseconds, this at most.
const AFTER_EXIT_MS = 1000;
const MAX_ANSWER = 4 * 1024 * 1024;

// The answer's additionalContext, or "" when there is none or anything went wrong.
//
// The answer is what the hook wrote before it exited. A process the hook started may have inherited its
// stdout and hold the pipe open long after (a daemon it launched): the end of the pipe ("close") would
// then come late or never, so the answer is taken once the hook itself has exited ("exit") and its
// output is one whole JSON document. Output still arriving is waited for (up to AFTER_EXIT_MS); output
// that is not one JSON document by then, or by the end of the pipe, is no answer.
function ask(payload, cwd) {
  return new Promise((resolve) => {
    let done = false;
    let exited = false;
    let ended = false;
    let chunks = [];
    let size = 0;
    let child;
    let grace;
    const finish = (text) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(grace);
      try {
        child?.stdout?.destroy(); // stop reading a pipe that something else may still hold
      } catch {}
      resolve(text);
    };
    // Once the hook exited: its answer when the output is one whole JSON document; "" when it cannot
    // become one any more (`final`: nothing more will arrive); otherwise wait for the rest.
    const settle = (final) => {
      if (!exited) return;
      const text = Buffer.concat(chunks).toString("utf8");
      if (!text.trim()) {
        if (final) finish("");
        return;
      }
      let answer;
      try {
        answer = JSON.parse(text);
      } catch {
        if (final) finish(""); // a partial document parses as none: only the whole one is taken
        return;
      }
      const context = answer?.hookSpecificOutput?.additionalContext;
      finish(typeof context === "string" ? context : "");
    };
    const timer = setTimeout(() => {
      try {
        child?.kill("SIGKILL");
      } catch {}
      finish("");
    }, TIMEOUT_MS);
    let input;
    try {
      input = JSON.stringify(payload); // before the child exists: a payload that cannot be sent starts none
      child = spawn(COMMAND[0], COMMAND.slice(1), { cwd, stdio: ["pipe", "pipe", "ignore"] });
      child.on("error", () => finish(""));
      child.stdout.on("data", (chunk) => {
        size += chunk.length;
        if (size > MAX_ANSWER) {
          try {
            child.kill("SIGKILL");
          } catch {}
          finish("");
          return;
        }
        chunks.push(chunk);
        settle(false);
      });
      child.stdout.on("error", () => {});
      child.stdout.on("end", () => {
        ended = true;
        settle(true);
      });
      child.on("exit", (code) => {
        if (code !== 0) return finish(""); // failed, or killed by a signal (code null)
        exited = true;
        grace = setTimeout(() => settle(true), AFTER_EXIT_MS);
        settle(ended);
      });
      child.on("close", () => settle(true));
      child.stdin.on("error", () => {});
      child.stdin.end(input);
    } catch {
      finish("");
    }
  });
}

export const JitctxPlugin = async ({ directory }) => {
  const startContext = new Map(); // session id -> Promise of what jitctx sent at its start
  const created = new Set(); // sessions this process created (others are resumed ones)

  const start = (sessionID, source) =>
    ask({ hook_event_name: "session.start", session_id: sessionID, cwd: directory, source }, directory);

  return {
    event: async ({ event }) => {
      try {
        const id = event?.properties?.sessionID ?? event?.properties?.info?.id;
        if (typeof id !== "string") return;
        if (event.type === "session.created") created.add(id);
        if (event.type === "session.compacted") {
          // Compaction drops what jitctx added to tool outputs: it comes back with the system prompt. The
          // answer holds everything the session held, start files included, so it replaces the start
          // text (kept only when the hook could not answer).
          const before = startContext.get(id) ?? Promise.resolve("");
          const again = start(id, "compact");
          startContext.set(id, Promise.all([before, again]).then(([old, fresh]) => fresh || old));
        }
      } catch {}
    },
    "experimental.chat.system.transform": async (input, output) => {
      try {
        const id = input?.sessionID;
        if (typeof id !== "string" || !Array.isArray(output?.system)) return;
        if (!startContext.has(id)) startContext.set(id, start(id, created.has(id) ? "startup" : "resume"));
        const text = await startContext.get(id);
        if (text) output.system.push(text);
      } catch {}
    },
    "tool.execute.after": async (input, output) => {
      try {
        if (typeof output?.output !== "string" || typeof input?.sessionID !== "string") return;
        const args = input.args && typeof input.args === "object" ? input.args : {};
        const loaded = output.metadata?.loaded;
        const payload = {
          hook_event_name: "tool.execute.after",
          session_id: input.sessionID,
          // Relative paths of the call are OpenCode's directory's; a shell `workdir` stays in the args.
          cwd: directory,
          tool_name: input.tool,
          tool_input: args,
          tool_use_id: input.callID,
          tool_response: Array.isArray(loaded) ? { loaded } : {},
        };
        const text = await ask(payload, directory);
        if (text) output.output += `\n\n<system-reminder>\n${text}\n</system-reminder>`;
      } catch {}
    },
  };
};
