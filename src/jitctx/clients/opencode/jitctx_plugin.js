// jitctx-plugin for OpenCode, written by `jitctx install opencode`; `jitctx uninstall opencode` removes it.
//
// OpenCode has no command hooks: this plugin hands each finished tool call, each session's first model
// request, and each call that may write before it runs, to `jitctx hook opencode` (one JSON object on
// its stdin) and does what jitctx answers: after a tool call it adds the answer to the tool's output, at
// session start to the system prompt (kept for every later request of the session, since OpenCode
// rebuilds the system prompt each time); before a write whose rules the model has not seen, a deny stops
// the call with the rules as its result (the model writes again, and that call runs). It must never
// break OpenCode: a hook that fails, answers nonsense or takes longer than TIMEOUT_MS leaves everything
// as it was, and lets every call run. No dependencies: node's child_process, which Bun (OpenCode's
// runtime) provides.
import { spawn } from "node:child_process";

const COMMAND = __JITCTX_COMMAND__;
// The tools that may write, asked about before they run (the other calls are not held back).
const HOLD_TOOLS = __JITCTX_HOLD_TOOLS__;
const TIMEOUT_MS = 10000;
// Once the hook has exited, all it wrote is in the pipe: reading it takes milliseconds, this at most.
const AFTER_EXIT_MS = 1000;
const MAX_ANSWER = 4 * 1024 * 1024;

// The hook's answer (a parsed JSON document), or null when there is none or anything went wrong.
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
        if (final) finish(null);
        return;
      }
      let answer;
      try {
        answer = JSON.parse(text);
      } catch {
        if (final) finish(null); // a partial document parses as none: only the whole one is taken
        return;
      }
      finish(answer);
    };
    const timer = setTimeout(() => {
      try {
        child?.kill("SIGKILL");
      } catch {}
      finish(null);
    }, TIMEOUT_MS);
    let input;
    try {
      input = JSON.stringify(payload); // before the child exists: a payload that cannot be sent starts none
      child = spawn(COMMAND[0], COMMAND.slice(1), { cwd, stdio: ["pipe", "pipe", "ignore"] });
      child.on("error", () => finish(null));
      child.stdout.on("data", (chunk) => {
        size += chunk.length;
        if (size > MAX_ANSWER) {
          try {
            child.kill("SIGKILL");
          } catch {}
          finish(null);
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
        if (code !== 0) return finish(null); // failed, or killed by a signal (code null)
        exited = true;
        grace = setTimeout(() => settle(true), AFTER_EXIT_MS);
        settle(ended);
      });
      child.on("close", () => settle(true));
      child.stdin.on("error", () => {});
      child.stdin.end(input);
    } catch {
      finish(null);
    }
  });
}

// The additionalContext of an answer, "" when it has none.
const contextOf = (answer) => {
  const context = answer?.hookSpecificOutput?.additionalContext;
  return typeof context === "string" ? context : "";
};

// The reason of an answer that denies the call (`{"decision": "deny", "reason": R}`), "" otherwise.
const denialOf = (answer) =>
  answer?.decision === "deny" && typeof answer.reason === "string" ? answer.reason : "";

export const JitctxPlugin = async ({ directory }) => {
  const startContext = new Map(); // session id -> Promise of what jitctx sent at its start
  const created = new Set(); // sessions this process created (others are resumed ones)
  // A sub-agent (the `task` tool) runs in a child session, whose session.created names its parent: its
  // events go to jitctx as a sub-agent of the parent (the parent's session id, its own as `agent_id`),
  // a channel with a state of its own. After each compaction of the child a fresh channel stands for it
  // (`agent_id` CHILD#N): what it held is gone, and its start goes out again.
  const parents = new Map(); // child session id -> parent session id
  const compactions = new Map(); // child session id -> how often it was compacted

  const whose = (sessionID) => {
    if (!parents.has(sessionID)) return { session_id: sessionID };
    let top = parents.get(sessionID); // a child's child (1.18.33's children have no `task`) is the top's
    for (let hops = 0; parents.has(top) && hops < parents.size; hops++) top = parents.get(top);
    const times = compactions.get(sessionID) ?? 0;
    return { session_id: top, agent_id: times ? `${sessionID}#${times}` : sessionID };
  };

  const start = (sessionID, source) => {
    const payload = parents.has(sessionID)
      ? { hook_event_name: "subagent.start", ...whose(sessionID), cwd: directory }
      : { hook_event_name: "session.start", session_id: sessionID, cwd: directory, source };
    return ask(payload, directory).then(contextOf);
  };

  return {
    event: async ({ event }) => {
      try {
        const id = event?.properties?.sessionID ?? event?.properties?.info?.id;
        if (typeof id !== "string") return;
        if (event.type === "session.created") {
          created.add(id);
          const parent = event.properties?.info?.parentID;
          if (typeof parent === "string" && parent && parent !== id) parents.set(id, parent);
        }
        if (event.type === "session.compacted") {
          if (parents.has(id)) compactions.set(id, (compactions.get(id) ?? 0) + 1);
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
    "tool.execute.before": async (input, output) => {
      let denied = "";
      try {
        if (!HOLD_TOOLS.includes(input?.tool) || typeof input?.sessionID !== "string") return;
        const args = output?.args && typeof output.args === "object" ? output.args : {};
        const payload = {
          hook_event_name: "tool.execute.before",
          ...whose(input.sessionID),
          cwd: directory, // as after the call: relative paths are OpenCode's directory's
          tool_name: input.tool,
          tool_input: args,
          tool_use_id: input.callID,
        };
        denied = denialOf(await ask(payload, directory));
      } catch {}
      // Thrown only for jitctx's deny, outside the catch: OpenCode gives the model the message as the
      // call's result, and the call does not run.
      if (denied) throw new Error(denied);
    },
    "tool.execute.after": async (input, output) => {
      try {
        if (typeof output?.output !== "string" || typeof input?.sessionID !== "string") return;
        const args = input.args && typeof input.args === "object" ? input.args : {};
        const loaded = output.metadata?.loaded;
        const payload = {
          hook_event_name: "tool.execute.after",
          ...whose(input.sessionID),
          // Relative paths of the call are OpenCode's directory's; a shell `workdir` stays in the args.
          cwd: directory,
          tool_name: input.tool,
          tool_input: args,
          tool_use_id: input.callID,
          tool_response: Array.isArray(loaded) ? { loaded } : {},
        };
        const text = contextOf(await ask(payload, directory));
        if (text) output.output += `\n\n<system-reminder>\n${text}\n</system-reminder>`;
      } catch {}
    },
  };
};
