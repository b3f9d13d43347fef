"""Graphs served by a local langgraph-api (inmem) server for the SSE captures.

Each graph is the same compiled graph record_py.py uses, with its
checkpointer removed (the server supplies its own). The scripted models keep their
turn counters in the server process, so every graph id serves exactly one
scenario (a HITL pair counts as one).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import record_py  # noqa: E402

_SCENARIOS = {s.name: s for s in record_py.scenarios()}


def _graph(name: str):
    graph = _SCENARIOS[name].build()
    graph.checkpointer = None  # the server attaches its own
    return graph


classic__a_plain_chat = _graph('a_plain_chat')
classic__b_react_one_tool = _graph('b_react_one_tool')
classic__b_react_parallel = _graph('b_react_parallel')
classic__b_react_text_and_tool = _graph('b_react_text_and_tool')
classic__c_reasoning_openai = _graph('c_reasoning_openai')
classic__c_reasoning_anthropic = _graph('c_reasoning_anthropic')
classic__c_reasoning_anthropic_redacted = _graph('c_reasoning_anthropic_redacted')
classic__c_reasoning_deepseek = _graph('c_reasoning_deepseek')
classic__c_reasoning_v1 = _graph('c_reasoning_v1')
classic__d_hitl = _graph('d_hitl')
classic__e_error_tool_raises = _graph('e_error_tool_raises')
classic__e_error_tool_handled = _graph('e_error_tool_handled')
classic__e_recursion_limit = _graph('e_recursion_limit')
classic__e_model_rate_limit = _graph('e_model_rate_limit')
classic__e_model_auth = _graph('e_model_auth')
classic__e_model_timeout = _graph('e_model_timeout')
classic__e_model_connection = _graph('e_model_connection')
classic__f_subgraph = _graph('f_subgraph')
classic__g_custom_events = _graph('g_custom_events')
classic__h_state = _graph('h_state')
classic__i_tool_output_delta = _graph('i_tool_output_delta')
classic__k_stream_cut = _graph('k_stream_cut')
v3__a_plain_chat = _graph('a_plain_chat')
v3__b_react_one_tool = _graph('b_react_one_tool')
v3__b_react_parallel = _graph('b_react_parallel')
v3__b_react_text_and_tool = _graph('b_react_text_and_tool')
v3__c_reasoning_openai = _graph('c_reasoning_openai')
v3__c_reasoning_anthropic = _graph('c_reasoning_anthropic')
v3__c_reasoning_anthropic_redacted = _graph('c_reasoning_anthropic_redacted')
v3__c_reasoning_deepseek = _graph('c_reasoning_deepseek')
v3__c_reasoning_v1 = _graph('c_reasoning_v1')
v3__d_hitl = _graph('d_hitl')
v3__e_error_tool_raises = _graph('e_error_tool_raises')
v3__e_error_tool_handled = _graph('e_error_tool_handled')
v3__e_recursion_limit = _graph('e_recursion_limit')
v3__e_model_rate_limit = _graph('e_model_rate_limit')
v3__e_model_auth = _graph('e_model_auth')
v3__e_model_timeout = _graph('e_model_timeout')
v3__e_model_connection = _graph('e_model_connection')
v3__f_subgraph = _graph('f_subgraph')
v3__g_custom_events = _graph('g_custom_events')
v3__h_state = _graph('h_state')
v3__i_tool_output_delta = _graph('i_tool_output_delta')
v3__k_stream_cut = _graph('k_stream_cut')
classic__o_send_map_reduce = _graph('o_send_map_reduce')
classic__o_subgraph_agent = _graph('o_subgraph_agent')
classic__o_subgraph_error = _graph('o_subgraph_error')
classic__o_subgraph_recursion = _graph('o_subgraph_recursion')
classic__o_tool_content_blocks = _graph('o_tool_content_blocks')
classic__o_v1_tool_call = _graph('o_v1_tool_call')
classic__o_remove_messages = _graph('o_remove_messages')
classic__o_frontend_tool = _graph('o_frontend_tool')
classic__o_parallel_interrupts = _graph('o_parallel_interrupts')
classic__o_remove_all = _graph('o_remove_all')
classic__o_structured_model = _graph('o_structured_model')
classic__p_subgraph_tool_raises = _graph('p_subgraph_tool_raises')
classic__p_multi_turn_hitl = _graph('p_multi_turn_hitl')
v3__o_send_map_reduce = _graph('o_send_map_reduce')
v3__o_subgraph_agent = _graph('o_subgraph_agent')
v3__o_subgraph_error = _graph('o_subgraph_error')
v3__o_subgraph_recursion = _graph('o_subgraph_recursion')
v3__o_tool_content_blocks = _graph('o_tool_content_blocks')
v3__o_v1_tool_call = _graph('o_v1_tool_call')
v3__o_remove_messages = _graph('o_remove_messages')
v3__o_frontend_tool = _graph('o_frontend_tool')
v3__o_parallel_interrupts = _graph('o_parallel_interrupts')
v3__o_remove_all = _graph('o_remove_all')
v3__o_structured_model = _graph('o_structured_model')
v3__p_subgraph_tool_raises = _graph('p_subgraph_tool_raises')
v3__p_multi_turn_hitl = _graph('p_multi_turn_hitl')
classic__m_supervisor = _graph('m_supervisor')
classic__m_supervisor_parallel = _graph('m_supervisor_parallel')
classic__m_supervisor_hitl = _graph('m_supervisor_hitl')
classic__n_hitl_middleware = _graph('n_hitl_middleware')
classic__n_two_interrupts = _graph('n_two_interrupts')
classic__n_handoff = _graph('n_handoff')
v3__m_supervisor = _graph('m_supervisor')
v3__m_supervisor_parallel = _graph('m_supervisor_parallel')
v3__m_supervisor_hitl = _graph('m_supervisor_hitl')
v3__n_hitl_middleware = _graph('n_hitl_middleware')
v3__n_two_interrupts = _graph('n_two_interrupts')
v3__n_handoff = _graph('n_handoff')
# pending (record_sse.py --pending): the platform cancels the run mid-stream
classic__l_cancelled = _graph('l_cancelled')
v3__l_cancelled = _graph('l_cancelled')
