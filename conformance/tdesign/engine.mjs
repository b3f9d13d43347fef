// engine: drives TDesign Chat's own framework-free ChatEngine (tdesign-web-components,
// `protocol: 'agui'`) the way a TDesign Chatbot does, and reads back the message model it
// ends with. Nothing here interprets AG-UI: every event goes through TDesign's SSE client,
// SSE parser, AG-UI adapter, message processor and store, unchanged.
//
// The engine fetches with the global `fetch`; `conversation()` installs a fetch that hands
// TDesign either converted bytes (one recorded run per request) or a real HTTP response (from
// `aguify serve`), re-cut into odd-sized chunks so that frames, lines, JSON and UTF-8 sequences
// arrive split.

/** The two TDesign Chat packages' engines (npm aliases pinned in package.json). */
export const PACKAGES = [
  { name: "@tdesign-vue-next/chat 0.5.2", module: "twc-vue", version: "1.3.1-alpha.11" },
  { name: "@tdesign-react/chat 1.0.2", module: "twc-react", version: "1.3.0-alpha.2" },
];

/** The platform's fetch. TDesign fetches with the global one, which is replaced once, here, by
 * one that serves the turn being sent (`conversation().send`); a request from anything else
 * (none is expected) fails. */
export const realFetch = globalThis.fetch;
let activeFetch = null;
globalThis.fetch = (url, init) =>
  activeFetch ? activeFetch(url, init) : Promise.reject(new Error(`unexpected request to ${url} outside a turn`));

export async function loadEngine(pkg) {
  const mod = await import(`${pkg.module}/lib/chat-engine/index.js`);
  return mod.default;
}

/** Chunk sizes, cycled: small primes (odd), one large read. */
const CHUNK_SIZES = [1, 3, 7, 13, 2, 29, 5, 61, 11, 127, 17, 4099];

/** A body stream that yields `bytes` in CHUNK_SIZES pieces; `done` resolves once it is drained. */
function choppedStream(source) {
  let resolveDone;
  const done = new Promise((r) => (resolveDone = r));
  let buf = new Uint8Array(0);
  let ended = false;
  let turn = 0;
  const reader = source.getReader();
  const stream = new ReadableStream({
    async pull(controller) {
      for (;;) {
        const want = CHUNK_SIZES[turn % CHUNK_SIZES.length];
        if (buf.length >= want || (ended && buf.length > 0)) {
          const n = Math.min(want, buf.length);
          controller.enqueue(buf.slice(0, n));
          buf = buf.slice(n);
          turn++;
          return;
        }
        if (ended) {
          controller.close();
          resolveDone();
          return;
        }
        const { done: end, value } = await reader.read();
        if (end) ended = true;
        else {
          const joined = new Uint8Array(buf.length + value.length);
          joined.set(buf);
          joined.set(value, buf.length);
          buf = joined;
        }
      }
    },
    cancel() {
      resolveDone();
      return reader.cancel();
    },
  });
  return { stream, done };
}

function bytesStream(bytes) {
  return new ReadableStream({
    start(c) {
      c.enqueue(bytes);
      c.close();
    },
  });
}

const settle = () => new Promise((r) => setTimeout(r, 5));

/**
 * A ChatEngine conversation.
 *
 * - `respond(request, turn)`: returns a Response for TDesign's nth request (`turn` from 0):
 *   e.g. `sseResponse(bytes)` or the real `fetch(...)` of a server.
 * - `onRequest`, `onComplete`: the app's ChatServiceConfig hooks (docs/replay.md's recipe).
 *
 * `send(prompt)` sends one user message and resolves when the response is fully read and
 * processed, with the TDesign messages and what was seen on the way.
 */
export async function conversation(ChatEngine, { respond, onRequest, onComplete, endpoint = "http://aguify.test/" }) {
  const engine = new ChatEngine();
  const requests = [];
  const problems = []; // console.warn / console.error lines and exceptions from TDesign
  const trace = []; // per processed chunk: the assistant message's blocks after it
  let pendingBody = null;
  engine.init(() => ({
    endpoint,
    protocol: "agui",
    stream: true,
    onRequest,
    onComplete,
    // RUN_ERROR reaches the app's onError: expected for a failed run, judged from the model.
    onError: () => {},
  }));
  engine.eventBus.on("request:stream", ({ messageId, chunk }) => {
    const m = engine.messages.find((x) => x.id === messageId);
    trace.push({ event: chunk?.data?.type, blocks: structuredClone(m?.content ?? []) });
  });

  async function fetchHook(url, init) {
    const turn = requests.length;
    requests.push({ url: String(url), body: init?.body ? JSON.parse(init.body) : null });
    const res = await respond(url, init, turn);
    if (!res.body) return res;
    const { stream, done } = choppedStream(res.body);
    pendingBody = done;
    return new Response(stream, { status: res.status, statusText: res.statusText, headers: res.headers });
  }

  async function send(prompt) {
    const saved = { warn: console.warn, error: console.error };
    console.warn = (...a) => problems.push(a.map(String).join(" "));
    console.error = (...a) => problems.push(a.map(String).join(" "));
    activeFetch = fetchHook;
    trace.length = 0;
    const before = requests.length;
    pendingBody = null;
    try {
      await engine.sendUserMessage({ prompt });
      // sendUserMessage does not wait for the stream: wait for the request, then its body.
      for (let i = 0; i < 2000 && requests.length === before; i++) await settle();
      for (let i = 0; i < 2000 && pendingBody === null; i++) await settle();
      if (pendingBody === null) throw new Error("TDesign made no request");
      await withTimeout(pendingBody, 20_000, "TDesign did not read the response to its end");
      // The reader sees the end one read later; let the engine finish its bookkeeping: a few
      // ticks, then (on a loaded machine) until the answer leaves pending/streaming, at most ~2 s.
      for (let i = 0; i < 4; i++) await settle();
      for (let i = 0; i < 400 && ["pending", "streaming"].includes(engine.messages.at(-1)?.status); i++) await settle();
    } catch (e) {
      problems.push(`exception: ${e?.stack ?? e}`);
    } finally {
      activeFetch = null;
      console.warn = saved.warn;
      console.error = saved.error;
    }
    const messages = structuredClone(engine.messages);
    return {
      request: requests[before] ?? null,
      messages,
      answer: messages.at(-1),
      trace: trace.slice(),
      problems: problems.splice(0),
    };
  }

  return { engine, send, requests, destroy: () => engine.destroy() };
}

/** A 200 text/event-stream Response of the given bytes. */
export function sseResponse(bytes) {
  return new Response(bytesStream(bytes), { status: 200, headers: { "content-type": "text/event-stream" } });
}

function withTimeout(p, ms, what) {
  let t;
  return Promise.race([
    p,
    new Promise((_, rej) => {
      t = setTimeout(() => rej(new Error(`${what} (${ms} ms)`)), ms);
    }),
  ]).finally(() => clearTimeout(t));
}

/**
 * The assistant message TDesign ends with, flattened: `blocks` in order, each
 * `{kind, status, ...}`:
 *   markdown {text} · text {text} (RUN_ERROR's) · reasoning {items: [{kind:'text', text} |
 *   {kind:'toolcall', id, name, args, result}]} · toolcall {id, name, args, result} ·
 *   custom {name, value} · other {type}.
 */
export function view(message) {
  const blocks = (message?.content ?? []).map(block);
  return { status: message?.status, blocks };
}

function block(c) {
  const t = c.type ?? "";
  if (t === "markdown" || t === "text") return { kind: t, status: c.status, text: c.data ?? "" };
  if (t === "reasoning")
    return {
      kind: "reasoning",
      status: c.status,
      items: (c.data ?? []).map((i) => (i.type === "text" ? { kind: "text", text: i.data ?? "", status: i.status } : { ...toolcall(i), kind: "toolcall" })),
    };
  if (t === "thinking") return { kind: "thinking", status: c.status, text: c.data?.text ?? "", title: c.data?.title };
  if (t.startsWith("toolcall")) return { ...toolcall(c), kind: "toolcall" };
  if (t === "custom") return { kind: "custom", status: c.status, name: c.data?.name, value: c.data?.value };
  return { kind: "other", type: t, status: c.status };
}

function toolcall(c) {
  const d = c.data ?? {};
  return { status: c.status, id: d.toolCallId, name: d.toolCallName, args: d.args ?? "", result: d.result };
}
