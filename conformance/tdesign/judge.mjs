// judge: compares the message model TDesign ended a run with (engine.mjs `view`) with what the
// user should see (facts.mjs `plainFacts` of the same run) and what aguify sent (the variant's
// own events). Returns a list of problems (empty: the run renders right).

import { isDeepStrictEqual } from "node:util";
import { view } from "./engine.mjs";
import { sentThinking } from "./facts.mjs";

/** The visible text aguify gives an interrupt under `--compat thinking` (its question, or what
 * it waits for). */
export function interruptText(i) {
  return i.message ?? `Waiting for your input (${i.reason}).`;
}

/** Tool calls anywhere in a view (top level or inside a reasoning block). */
function toolcalls(blocks) {
  const out = [];
  for (const b of blocks) {
    if (b.kind === "toolcall") out.push(b);
    if (b.kind === "reasoning") for (const i of b.items) if (i.kind === "toolcall") out.push(i);
  }
  return out;
}

function reasoningTexts(blocks) {
  return blocks.flatMap((b) => (b.kind === "reasoning" ? b.items.filter((i) => i.kind === "text").map((i) => i.text) : []));
}

function sameArgs(a, b) {
  if (a === b) return true;
  try {
    return isDeepStrictEqual(JSON.parse(a || "{}"), JSON.parse(b || "{}"));
  } catch {
    return false;
  }
}

/**
 * The block RUN_ERROR replaced (TDesign's store matches the error's content block by an `id`
 * both lack, so it lands on the first block): from the trace, the first block before the
 * RUN_ERROR chunk was processed. `null` when the run did not fail or had no block yet.
 */
export function lostToRunError(trace) {
  const at = trace.findIndex((t) => t.event === "RUN_ERROR");
  if (at <= 0) return null;
  const before = trace[at - 1].blocks;
  return before.length ? view({ content: [before[0]] }).blocks[0] : null;
}

/**
 * Problems of one turn.
 * - `turn`: conversation().send()'s result · `plain`: plainFacts of the run · `sent`: the
 *   variant's events for the run · `opts`: {final, toolSteps} of the variant ·
 *   `answeredBefore`: final answers already shown by earlier turns (for `--text final`).
 */
export function judge(turn, plain, sent, opts, answeredBefore = new Set()) {
  const problems = [];
  const say = (m) => problems.push(m);
  for (const p of turn.problems) say(`TDesign reported: ${p.split("\n")[0]}`);
  const v = view(turn.answer);
  const lost = plain.error !== null ? lostToRunError(turn.trace) : null;
  const lostTools = new Set(lost ? toolcalls([lost]).map((t) => t.id) : []);
  const lostTexts = lost ? [...(lost.kind === "markdown" ? [lost.text] : []), ...reasoningTexts([lost])] : [];
  const excused = (text) => {
    const i = lostTexts.indexOf(text);
    if (i < 0) return false;
    lostTexts.splice(i, 1);
    return true;
  };

  // The run's ending.
  if (plain.error !== null) {
    if (v.status !== "error") say(`message status ${v.status}, want error`);
    const first = v.blocks[0];
    if (!(first?.kind === "text" && first.status === "error" && first.text === plain.error))
      say(`RUN_ERROR ${JSON.stringify(plain.error)} is not the first block (${JSON.stringify(first)})`);
  } else if (v.status !== "complete") say(`message status ${v.status}, want complete`);
  const body = plain.error !== null ? v.blocks.slice(1) : v.blocks;

  // Every tool call, with its result.
  const calls = toolcalls(body);
  for (const [id, t] of plain.tools) {
    if (lostTools.has(id)) continue;
    const got = calls.filter((c) => c.id === id);
    if (got.length === 0) {
      say(`tool call ${t.name} ${id} missing`);
      continue;
    }
    if (got.length > 1) say(`tool call ${id} shown ${got.length} times`);
    const c = got[got.length - 1];
    if (t.name !== undefined && c.name !== t.name) say(`tool call ${id}: name ${c.name}, want ${t.name}`);
    if (!sameArgs(c.args, t.args)) say(`tool call ${id}: args ${JSON.stringify(c.args)}, want ${JSON.stringify(t.args)}`);
    if (t.result !== undefined && c.result !== t.result)
      say(`tool call ${t.name} ${id}: result ${c.result === undefined ? "lost" : JSON.stringify(c.result)}, want ${JSON.stringify(t.result)}`);
  }

  // Thinking: every model reasoning text, and all thinking text aguify sent, kept.
  const kept = reasoningTexts(body);
  for (const r of plain.reasoning) if (!kept.includes(r) && !excused(r)) say(`reasoning text lost: ${JSON.stringify(r.slice(0, 60))}`);
  const sentText = sentThinking(sent);
  const keptText = reasoningTexts(v.blocks).join("");
  if (keptText !== sentText && !(lost && sentText.includes(keptText)))
    say(`thinking text kept ${JSON.stringify(keptText.slice(0, 200))}, sent ${JSON.stringify(sentText.slice(0, 200))}`);
  if (opts.toolSteps) {
    for (const [id, t] of plain.tools) {
      if (t.result === undefined || lostTools.has(id)) continue;
      const line = `Tool ${t.name} ${t.failed ? "failed" : "returned"}.`;
      if (!keptText.includes(line)) say(`narration ${JSON.stringify(line)} not shown`);
    }
  }

  // The answer (every streamed text message, or only the final one), then the interrupts.
  const shown = body.filter((b) => b.kind === "markdown").map((b) => b.text);
  let want = plain.texts;
  if (opts.final) {
    // Only the final answer, at the end; text messages the graph itself emitted as AG-UI
    // events (passed through as recorded) may stand before it.
    const final = plain.finalAnswer !== null && !answeredBefore.has(plain.finalId) ? [plain.finalAnswer] : [];
    const interrupts = new Set(plain.interrupts.map((i) => `interrupt-${i.id}`));
    const sentTexts = new Map();
    for (const e of sent)
      if (e.type === "TEXT_MESSAGE_CONTENT" && !interrupts.has(e.messageId)) sentTexts.set(e.messageId, (sentTexts.get(e.messageId) ?? "") + e.delta);
    want = [...sentTexts.values()];
    if (!isDeepStrictEqual(want.slice(want.length - final.length), final)) say(`aguify's --text final sent ${JSON.stringify(want)}, not ending with the final answer ${JSON.stringify(final)}`);
    for (const t of want.slice(0, want.length - final.length))
      if (!plain.texts.includes(t)) say(`--text final sent the non-final text ${JSON.stringify(t)} that the plain output lacks`);
  }
  want = want.filter((t) => !excused(t));
  want = [...want, ...plain.interrupts.map(interruptText)];
  if (!isDeepStrictEqual(shown, want)) say(`text blocks ${JSON.stringify(shown).slice(0, 300)}, want ${JSON.stringify(want).slice(0, 300)}`);

  // Nothing left spinning, and no thinking spinner while an answer streams.
  for (const b of v.blocks) if (b.status === "streaming" || b.status === "pending") say(`${b.kind} block left ${b.status}`);
  for (const step of turn.trace) {
    const blocks = view({ content: step.blocks }).blocks;
    const open = blocks.findIndex((b) => b.kind === "reasoning" && b.status === "streaming");
    if (open >= 0 && blocks.slice(open + 1).some((b) => b.kind === "markdown" && b.text !== "")) {
      say(`thinking block still open (spinner) while the answer streams (at ${step.event})`);
      break;
    }
  }
  return problems;
}
