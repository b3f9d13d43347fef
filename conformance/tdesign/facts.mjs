// facts: what a TDesign user should end up seeing for one recorded run, read from aguify's
// plain AG-UI 1.0 output of the same recording (no front-end policy), and what aguify sent in
// a policy variant. The TDesign message model is judged against these.

import { spawnSync } from "node:child_process";

/** `aguify convert ARGS FILES` → stdout text (throws on a non-zero exit). */
export function convert(bin, args, files) {
  const r = spawnSync(bin, ["convert", ...args, ...files], { encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`aguify convert ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** SSE text → its frames (`data: …\n\n`) grouped by run (a run starts at RUN_STARTED). */
export function sseRuns(text) {
  const runs = [];
  for (const frame of text.split("\n\n")) {
    if (!frame.trim()) continue;
    const data = frame
      .split("\n")
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).replace(/^ /, ""))
      .join("\n");
    const ev = JSON.parse(data);
    if (ev.type === "RUN_STARTED" || runs.length === 0) runs.push({ text: "", events: [] });
    const run = runs[runs.length - 1];
    run.text += `${frame}\n\n`;
    run.events.push(ev);
  }
  return runs;
}

/** NDJSON text → events grouped by run. */
export function ndjsonRuns(text) {
  const runs = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const ev = JSON.parse(line);
    if (ev.type === "RUN_STARTED" || runs.length === 0) runs.push([]);
    runs[runs.length - 1].push(ev);
  }
  return runs;
}

/**
 * One run of plain AG-UI 1.0 events → what a user should see:
 *   tools: Map id → {name, args, result?} · reasoning: [text] per reasoning message ·
 *   texts: [text] per text message · finalAnswer: the run's last assistant message text (from
 *   MESSAGES_SNAPSHOT) · interrupts: RUN_FINISHED.outcome.interrupts · error: RUN_ERROR message.
 */
export function plainFacts(events) {
  const tools = new Map();
  const reasoning = new Map();
  const texts = new Map();
  let finalAnswer = null;
  let finalId = null;
  let interrupts = [];
  let error = null;
  let custom = 0;
  for (const e of events) {
    switch (e.type) {
      case "TOOL_CALL_START":
        tools.set(e.toolCallId, { name: e.toolCallName, args: "", result: undefined });
        break;
      case "TOOL_CALL_ARGS":
        tools.get(e.toolCallId).args += e.delta;
        break;
      case "TOOL_CALL_RESULT":
        if (!tools.has(e.toolCallId)) tools.set(e.toolCallId, { name: undefined, args: "", result: undefined });
        tools.get(e.toolCallId).result = e.content;
        tools.get(e.toolCallId).failed = e.metadata?.status === "error";
        break;
      case "REASONING_MESSAGE_CONTENT":
        reasoning.set(e.messageId, (reasoning.get(e.messageId) ?? "") + e.delta);
        break;
      case "TEXT_MESSAGE_CONTENT":
        texts.set(e.messageId, (texts.get(e.messageId) ?? "") + e.delta);
        break;
      case "MESSAGES_SNAPSHOT": {
        const last = e.messages.at(-1);
        finalAnswer = last?.role === "assistant" && typeof last.content === "string" && last.content !== "" ? last.content : null;
        finalId = finalAnswer === null ? null : last.id;
        break;
      }
      case "CUSTOM":
        custom++;
        break;
      case "RUN_FINISHED":
        interrupts = e.outcome?.type === "interrupt" ? e.outcome.interrupts : [];
        break;
      case "RUN_ERROR":
        error = e.message;
        break;
    }
  }
  return {
    tools,
    reasoning: [...reasoning.values()].filter((t) => t !== ""),
    texts: [...texts.values()].filter((t) => t !== ""),
    finalAnswer,
    finalId,
    interrupts,
    error,
    custom,
  };
}

/** What aguify sent TDesign in a variant's run: all THINKING text, in order. */
export function sentThinking(events) {
  return events
    .filter((e) => e.type === "THINKING_TEXT_MESSAGE_CONTENT")
    .map((e) => e.delta)
    .join("");
}
