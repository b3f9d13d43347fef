"""Offline scripted chat model and chunk helpers for the aguify recorders.

`ScriptedChatModel` is a real `BaseChatModel` subclass: LangGraph and
langchain-core drive it exactly like a provider integration (callbacks,
`astream_events`, v3 message handlers), but every chunk it streams is
scripted here. No network, no API keys.

A script is a list of *turns*; each model invocation consumes the next
turn. A turn is a list of items, each either a dict of `AIMessageChunk`
keyword arguments or an exception instance (raised at that point, so an
exception after some chunks is a mid-stream failure).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, AsyncIterator, Iterator

from langchain_core.callbacks import (
    AsyncCallbackManagerForLLMRun,
    CallbackManagerForLLMRun,
)
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import PrivateAttr


# --- provider-like exceptions (names mirror the openai SDK's) -------------


class RateLimitError(Exception):
    status_code = 429


class AuthenticationError(Exception):
    status_code = 401


class APIConnectionError(Exception):
    pass


class APITimeoutError(APIConnectionError):
    pass


# --- the model -------------------------------------------------------------


class ScriptedChatModel(BaseChatModel):
    """A chat model that streams pre-scripted chunks, one turn per call."""

    turns: list[list[Any]]
    model_name: str = "fake-model"
    repeat_last: bool = False
    # Seconds to sleep before each streamed chunk (lets a caller cancel mid-stream).
    delay: float = 0.0
    # Non-streaming path (`disable_streaming=True`): report only the first N chunks as
    # `on_llm_new_token` callbacks, then return the complete message (0: none stream).
    stream_first: int = 0
    _calls: int = PrivateAttr(default=0)

    @property
    def _llm_type(self) -> str:
        return "scripted-chat-model"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name}

    def bind_tools(self, tools: Any, **kwargs: Any):  # type: ignore[override]
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

    def _next_turn(self) -> list[Any]:
        i = self._calls
        self._calls += 1
        if i >= len(self.turns):
            if not self.repeat_last:
                raise RuntimeError(f"ScriptedChatModel: no turn #{i} scripted")
            i = len(self.turns) - 1
        return self.turns[i]

    def _iter_chunks(self) -> Iterator[ChatGenerationChunk]:
        for item in self._next_turn():
            if isinstance(item, BaseException):
                raise item
            yield ChatGenerationChunk(message=AIMessageChunk(**item))

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        yield from self._iter_chunks()

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        for chunk in self._iter_chunks():
            if self.delay:
                await asyncio.sleep(self.delay)
            yield chunk

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        acc: ChatGenerationChunk | None = None
        for chunk in self._iter_chunks():
            acc = chunk if acc is None else acc + chunk
        assert acc is not None
        return ChatResult(generations=[ChatGeneration(message=acc.message)])

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        acc: ChatGenerationChunk | None = None
        for n, chunk in enumerate(self._iter_chunks()):
            if run_manager is not None and n < self.stream_first:
                await run_manager.on_llm_new_token(chunk.text, chunk=chunk)
            acc = chunk if acc is None else acc + chunk
        assert acc is not None
        return ChatResult(generations=[ChatGeneration(message=acc.message)])


# --- chunk helpers ------------------------------------------------------------

OPENAI_META = {"model_provider": "openai", "model_name": "fake-gpt-4o"}


def words(text: str) -> list[str]:
    """Split text into word-ish pieces that concatenate back to `text`."""
    out: list[str] = []
    cur = ""
    for ch in text:
        if ch == " " and cur:
            out.append(cur)
            cur = ""
        cur += ch
    if cur:
        out.append(cur)
    return out


def usage(inp: int, out: int, **extra: Any) -> dict[str, Any]:
    u: dict[str, Any] = {"input_tokens": inp, "output_tokens": out, "total_tokens": inp + out}
    u.update(extra)
    return u


def final(meta: dict[str, Any], use: dict[str, Any], content: Any = "") -> dict[str, Any]:
    """The closing chunk: empty content, usage, chunk_position=last."""
    return {
        "content": content,
        "response_metadata": meta,
        "usage_metadata": use,
        "chunk_position": "last",
    }


def text_turn(text: str, *, meta: dict[str, Any] | None = None, use: dict[str, Any] | None = None) -> list[Any]:
    """OpenAI chat-completions style: string content pieces."""
    chunks: list[Any] = [{"content": w} for w in words(text)]
    chunks.append(final({**OPENAI_META, "finish_reason": "stop", **(meta or {})}, use or usage(12, 9)))
    return chunks


def split_args(args: dict[str, Any], parts: int = 3) -> list[str]:
    s = json.dumps(args)
    step = max(1, -(-len(s) // parts))
    return [s[i : i + step] for i in range(0, len(s), step)]


def tool_calls_turn(
    calls: list[tuple[str, dict[str, Any], str]],
    *,
    lead_text: str | None = None,
) -> list[Any]:
    """OpenAI style tool calling: per call a header chunk (name, id, args "")
    then argument fragments with name/id null. Calls get indexes 0, 1, ..."""
    chunks: list[Any] = []
    if lead_text:
        chunks += [{"content": w} for w in words(lead_text)]
    for index, (name, args, call_id) in enumerate(calls):
        chunks.append(
            {"content": "", "tool_call_chunks": [{"name": name, "args": "", "id": call_id, "index": index}]}
        )
        for frag in split_args(args):
            chunks.append(
                {"content": "", "tool_call_chunks": [{"name": None, "args": frag, "id": None, "index": index}]}
            )
    chunks.append(final({**OPENAI_META, "finish_reason": "tool_calls"}, usage(40, 22)))
    return chunks


def openai_responses_reasoning_turn(summary: str, text: str) -> list[Any]:
    meta = {"model_provider": "openai"}
    chunks: list[Any] = [
        {"content": [{"type": "reasoning", "id": "rs_0a1b2c3d", "summary": [], "index": 0}], "response_metadata": meta}
    ]
    for w in words(summary):
        chunks.append(
            {
                "content": [{"type": "reasoning", "summary": [{"index": 0, "type": "summary_text", "text": w}], "index": 0}],
                "response_metadata": meta,
            }
        )
    for w in words(text):
        chunks.append(
            {"content": [{"type": "text", "text": w, "index": 1, "id": "msg_0a1b2c3d"}], "response_metadata": meta}
        )
    chunks.append(
        final(
            {"model_provider": "openai", "model_name": "fake-o4-mini", "id": "resp_0a1b2c3d", "status": "completed"},
            usage(20, 40, output_token_details={"reasoning": 24}),
            content=[],
        )
    )
    return chunks


ANTHROPIC_FINAL = {"model_provider": "anthropic", "model_name": "fake-claude-sonnet", "stop_reason": "end_turn", "stop_sequence": None}


def anthropic_thinking_turn(thinking: str, text: str) -> list[Any]:
    meta = {"model_provider": "anthropic"}
    chunks: list[Any] = []
    for w in words(thinking):
        chunks.append({"content": [{"type": "thinking", "thinking": w, "index": 0}], "response_metadata": meta})
    chunks.append(
        {"content": [{"type": "thinking", "signature": "EqQBCkYIBxgCKkBfakeSignature==", "index": 0}], "response_metadata": meta}
    )
    for w in words(text):
        chunks.append({"content": [{"type": "text", "text": w, "index": 1}], "response_metadata": meta})
    chunks.append(final(ANTHROPIC_FINAL, usage(20, 35), content=[]))
    return chunks


def anthropic_redacted_turn(text: str) -> list[Any]:
    meta = {"model_provider": "anthropic"}
    chunks: list[Any] = [
        {
            "content": [{"type": "redacted_thinking", "data": "EmwKAhgBEgy3fakeRedactedPayload==", "index": 0}],
            "response_metadata": meta,
        }
    ]
    for w in words(text):
        chunks.append({"content": [{"type": "text", "text": w, "index": 1}], "response_metadata": meta})
    chunks.append(final(ANTHROPIC_FINAL, usage(20, 18), content=[]))
    return chunks


def deepseek_reasoning_turn(reasoning: str, text: str) -> list[Any]:
    meta = {"model_provider": "deepseek"}
    chunks: list[Any] = []
    for w in words(reasoning):
        chunks.append({"content": "", "additional_kwargs": {"reasoning_content": w}, "response_metadata": meta})
    for w in words(text):
        chunks.append({"content": w, "response_metadata": meta})
    chunks.append(
        final({"model_provider": "deepseek", "model_name": "fake-deepseek-reasoner", "finish_reason": "stop"}, usage(15, 30))
    )
    return chunks


def v1_reasoning_turn(reasoning: str, text: str) -> list[Any]:
    meta = {"model_provider": "openai", "output_version": "v1"}
    chunks: list[Any] = []
    for w in words(reasoning):
        chunks.append({"content": [{"type": "reasoning", "reasoning": w, "index": 0}], "response_metadata": meta})
    for w in words(text):
        chunks.append({"content": [{"type": "text", "text": w, "index": 1}], "response_metadata": meta})
    chunks.append(
        final({"model_provider": "openai", "model_name": "fake-v1-model", "finish_reason": "stop", "output_version": "v1"}, usage(20, 30), content=[])
    )
    return chunks


def openai_responses_two_parts_turn(parts: list[str], text: str) -> list[Any]:
    """Responses reasoning item whose summary has several parts (summary index 0, 1, ...)."""
    meta = {"model_provider": "openai"}
    chunks: list[Any] = [
        {"content": [{"type": "reasoning", "id": "rs_0a1b2c3d", "summary": [], "index": 0}], "response_metadata": meta}
    ]
    for k, part in enumerate(parts):
        for w in words(part):
            chunks.append(
                {
                    "content": [{"type": "reasoning", "summary": [{"index": k, "type": "summary_text", "text": w}], "index": 0}],
                    "response_metadata": meta,
                }
            )
    for w in words(text):
        chunks.append(
            {"content": [{"type": "text", "text": w, "index": 1, "id": "msg_0a1b2c3d"}], "response_metadata": meta}
        )
    chunks.append(
        final(
            {"model_provider": "openai", "model_name": "fake-o4-mini", "id": "resp_0a1b2c3d", "status": "completed"},
            usage(20, 48, output_token_details={"reasoning": 30}),
            content=[],
        )
    )
    return chunks


BEDROCK_FINAL = {"model_provider": "bedrock_converse", "model_name": "fake.anthropic.claude-sonnet", "stopReason": "end_turn"}


def bedrock_reasoning_turn(reasoning: str, text: str) -> list[Any]:
    """Bedrock Converse (langchain-aws ChatBedrockConverse) reasoning: `reasoning_content` blocks,
    a separate signature delta, then text at index 1."""
    meta = {"model_provider": "bedrock_converse"}
    chunks: list[Any] = []
    for w in words(reasoning):
        chunks.append(
            {"content": [{"type": "reasoning_content", "reasoning_content": {"text": w}, "index": 0}], "response_metadata": meta}
        )
    chunks.append(
        {
            "content": [{"type": "reasoning_content", "reasoning_content": {"signature": "EqQBCkYIBxgCKkBfakeBedrockSig=="}, "index": 0}],
            "response_metadata": meta,
        }
    )
    for w in words(text):
        chunks.append({"content": [{"type": "text", "text": w, "index": 1}], "response_metadata": meta})
    chunks.append(final(BEDROCK_FINAL, usage(20, 35), content=[]))
    return chunks


def gemini_tool_call_turn(calls: list[tuple[str, dict[str, Any], str]]) -> list[Any]:
    """Gemini style: each call arrives whole in one chunk (id, name, complete args, index None)."""
    meta = {"model_provider": "google_genai"}
    chunks: list[Any] = [
        {
            "content": "",
            "tool_call_chunks": [{"name": name, "args": json.dumps(args), "id": call_id, "index": None}],
            "response_metadata": meta,
        }
        for name, args, call_id in calls
    ]
    chunks.append(
        final({"model_provider": "google_genai", "model_name": "fake-gemini-2.5-flash", "finish_reason": "STOP"}, usage(30, 12))
    )
    return chunks


def gemini_one_chunk_calls_turn(calls: list[tuple[str, dict[str, Any], str]]) -> list[Any]:
    """langchain-google-genai <= 4.3.6 streaming parallel calls: every call whole in ONE chunk,
    each `tool_call_chunk` with its own id and `index: None` (the integration never sets an
    index; its ids are uuid4s, fixed here), `additional_kwargs.function_call` = the last call."""
    meta = {"model_provider": "google_genai"}
    last_name, last_args, _ = calls[-1]
    chunks: list[Any] = [
        {
            "content": "",
            "additional_kwargs": {"function_call": {"name": last_name, "arguments": json.dumps(last_args)}},
            "tool_call_chunks": [{"name": name, "args": json.dumps(args), "id": call_id, "index": None} for name, args, call_id in calls],
            "response_metadata": meta,
        }
    ]
    chunks.append(
        final({"model_provider": "google_genai", "model_name": "fake-gemini-2.5-flash", "finish_reason": "STOP"}, usage(30, 12))
    )
    return chunks


# --- sweep shapes (new scenarios `n_*`) ------------------------------------------


def interleaved_tool_calls_turn(calls: list[tuple[str, dict[str, Any], str]]) -> list[Any]:
    """Parallel calls whose chunks alternate by index: both headers, then fragment k of every call."""
    chunks: list[Any] = [
        {"content": "", "tool_call_chunks": [{"name": name, "args": "", "id": call_id, "index": i}]}
        for i, (name, _, call_id) in enumerate(calls)
    ]
    frags = [split_args(args) for _, args, _ in calls]
    for k in range(max(len(f) for f in frags)):
        for i, f in enumerate(frags):
            if k < len(f):
                chunks.append({"content": "", "tool_call_chunks": [{"name": None, "args": f[k], "id": None, "index": i}]})
    chunks.append(final({**OPENAI_META, "finish_reason": "tool_calls"}, usage(40, 30)))
    return chunks


def anthropic_thinking_tool_turn(thinking: str, text: str, call: tuple[str, dict[str, Any], str]) -> list[Any]:
    """langchain-anthropic v0 streaming: thinking (index 0) + signature, text (index 1), then a
    tool_use block (index 2, `input: {}`) whose arguments come as input_json_delta blocks, each
    with the matching tool_call_chunk."""
    meta = {"model_provider": "anthropic"}
    name, args, call_id = call
    chunks: list[Any] = [
        {"content": [{"type": "thinking", "thinking": w, "index": 0}], "response_metadata": meta} for w in words(thinking)
    ]
    chunks.append({"content": [{"type": "thinking", "signature": "EqQBCkYIBxgCKkBfakeSignature==", "index": 0}], "response_metadata": meta})
    chunks += [{"content": [{"type": "text", "text": w, "index": 1}], "response_metadata": meta} for w in words(text)]
    chunks.append(
        {
            "content": [{"type": "tool_use", "id": call_id, "name": name, "input": {}, "index": 2}],
            "tool_call_chunks": [{"name": name, "args": "", "id": call_id, "index": 2}],
            "response_metadata": meta,
        }
    )
    for frag in split_args(args):
        chunks.append(
            {
                "content": [{"type": "input_json_delta", "partial_json": frag, "index": 2}],
                "tool_call_chunks": [{"name": None, "args": frag, "id": None, "index": 2}],
                "response_metadata": meta,
            }
        )
    chunks.append(final({**ANTHROPIC_FINAL, "stop_reason": "tool_use"}, usage(60, 40), content=[]))
    return chunks


def deepseek_reasoning_tool_turn(reasoning: str, call: tuple[str, dict[str, Any], str]) -> list[Any]:
    """DeepSeek/Qwen style: reasoning in additional_kwargs.reasoning_content, then an OpenAI-style call."""
    meta = {"model_provider": "deepseek"}
    name, args, call_id = call
    chunks: list[Any] = [
        {"content": "", "additional_kwargs": {"reasoning_content": w}, "response_metadata": meta} for w in words(reasoning)
    ]
    chunks.append({"content": "", "tool_call_chunks": [{"name": name, "args": "", "id": call_id, "index": 0}], "response_metadata": meta})
    for frag in split_args(args):
        chunks.append({"content": "", "tool_call_chunks": [{"name": None, "args": frag, "id": None, "index": 0}], "response_metadata": meta})
    chunks.append(
        final({"model_provider": "deepseek", "model_name": "fake-deepseek-reasoner", "finish_reason": "tool_calls"}, usage(25, 30))
    )
    return chunks


def pieces_turn(pieces: list[str]) -> list[Any]:
    """Text in exactly these string pieces (e.g. an emoji sequence split across chunks)."""
    chunks: list[Any] = [{"content": p} for p in pieces]
    chunks.append(final({**OPENAI_META, "finish_reason": "stop"}, usage(12, 9)))
    return chunks


def v1_reasoning_tool_turn(reasoning: str, text: str, call: tuple[str, dict[str, Any], str]) -> list[Any]:
    """output_version v1 standard blocks: reasoning (index 0), text (1), then a `tool_call_chunk`
    block (2) with the matching `tool_call_chunks` entry."""
    meta = {"model_provider": "openai", "output_version": "v1"}
    name, args, call_id = call
    chunks: list[Any] = [{"content": [{"type": "reasoning", "reasoning": w, "index": 0}], "response_metadata": meta} for w in words(reasoning)]
    chunks += [{"content": [{"type": "text", "text": w, "index": 1}], "response_metadata": meta} for w in words(text)]
    for k, frag in enumerate([""] + split_args(args)):
        head = {"name": name, "id": call_id} if k == 0 else {"name": None, "id": None}
        block = {"type": "tool_call_chunk", **head, "args": frag, "index": 2}
        tcc = {**head, "args": frag, "index": 2}
        chunks.append({"content": [block], "tool_call_chunks": [tcc], "response_metadata": meta})
    chunks.append(
        final({"model_provider": "openai", "model_name": "fake-v1-model", "finish_reason": "tool_calls", "output_version": "v1"}, usage(25, 30), content=[])
    )
    return chunks
