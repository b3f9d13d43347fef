
use builtin;
use str;

set edit:completion:arg-completer[aguify] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'aguify'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'aguify'= {
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand convert 'Convert LangGraph logs to AG-UI events (SSE or NDJSON)'
            cand check 'Check AG-UI streams and LangGraph logs (official client rules, schema, interrupts, …)'
            cand serve 'Serve recorded runs as a live AG-UI endpoint (POST a RunAgentInput, get SSE)'
            cand timeline 'Show runs at a glance: one line per message, reasoning block, tool call, step'
            cand explain 'Explain runs that ended in RUN_ERROR or stopped without a terminal event'
            cand diff 'Compare two streams run by run as a front end shows them (exit 0 equal, 1 different)'
            cand snapshot 'Write the golden snapshot of runs: what a front end shows, one value a line, stable ids'
            cand report 'Write a self-contained HTML report of runs: lanes, transcript, findings, states'
            cand redact 'Write a recording with its text replaced, to share (same form out as in)'
            cand completions 'Generate shell completions'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aguify;convert'= {
            cand --from 'Input form: detected per file by default'
            cand --max-line-bytes 'Skip (and report) lines, and SSE frames whose data, longer than this many bytes (at least 1)'
            cand --threads 'Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more threads while the main thread maps (default: the number of cores, at most 2). The output does not depend on it'
            cand --stdin-filename 'The name stdin is reported under (in findings, diagnostics and timelines)'
            cand --thread-id 'threadId when the log has none'
            cand --run-id 'runId when the log has none (later runs get `-2`, `-3`…)'
            cand --text 'Stream every model message, or only the final state''s answer'
            cand --tool-steps 'Also narrate tool calls as short reasoning lines'
            cand --compat 'Rename REASONING_* to 0.x THINKING_* (TDesign Chat 0.5.2)'
            cand --target 'The client generation: agui-0.0 writes what @ag-ui/client 0.0.x accepts (a cancelled run as RUN_ERROR CANCELLED, no pendingToolCallIds)'
            cand --to 'Output format'
            cand --fail-on 'Exit 1 when a check finding reaches this severity (findings go to stderr either way)'
            cand --allow 'Silence rules (repeatable, or a comma list: AGX301,AGX303)'
            cand --deny 'Make rules errors (repeatable, or a comma list)'
            cand --max-per-rule 'Findings shown per file and rule; the rest are counted in one line (0: all)'
            cand --color 'Colour the diagnostics on stderr; `auto` colours a terminal only and honours NO_COLOR, CLICOLOR_FORCE and TERM=dumb'
            cand --speed 'Playback speed: 2 replays twice as fast as recorded, 0.5 half as fast'
            cand --max-gap 'Cap on any single gap after scaling, in ms (0: no cap)'
            cand --interval 'Gap before events without a timestamp (v2 logs), in ms, scaled by --speed'
            cand --strict 'Exit 2 at the first bad input line instead of reporting it and going on'
            cand --stats 'Print where every input line went (mapped / ignored with reason / bad) to stderr'
            cand -q 'Print no check findings on stderr (the exit code still follows --fail-on)'
            cand --quiet 'Print no check findings on stderr (the exit code still follows --fail-on)'
            cand --pace 'Write each event after its recorded gap (see --speed, --max-gap, --interval), flushing every frame'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'aguify;check'= {
            cand --from 'Input form: detected per file by default'
            cand --max-line-bytes 'Skip (and report) lines, and SSE frames whose data, longer than this many bytes (at least 1)'
            cand --threads 'Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more threads while the main thread maps (default: the number of cores, at most 2). The output does not depend on it'
            cand --stdin-filename 'The name stdin is reported under (in findings, diagnostics and timelines)'
            cand --thread-id 'threadId when the log has none'
            cand --run-id 'runId when the log has none (later runs get `-2`, `-3`…)'
            cand --text 'Stream every model message, or only the final state''s answer'
            cand --tool-steps 'Also narrate tool calls as short reasoning lines'
            cand --compat 'Rename REASONING_* to 0.x THINKING_* (TDesign Chat 0.5.2)'
            cand --target 'The client generation: agui-0.0 writes what @ag-ui/client 0.0.x accepts (a cancelled run as RUN_ERROR CANCELLED, no pendingToolCallIds)'
            cand --format 'Report format'
            cand --fail-on 'Exit 1 when a finding reaches this severity'
            cand --max-warnings 'Exit 1 when there are more than N warnings (the report says so)'
            cand --allow 'Silence rules (repeatable, or a comma list: AGX301,AGX303)'
            cand --deny 'Make rules errors (repeatable, or a comma list)'
            cand --max-per-rule 'Findings shown per file and rule; the rest are counted in one line (0: all)'
            cand --explain 'Explain a rule and exit (`all` lists every rule)'
            cand --files-from 'Also check the paths listed in FILE, one a line (`-`: read the list from stdin)'
            cand --color 'Colour the text report'
            cand -j 'Check this many files at once (default: the number of cores); the report keeps the input order'
            cand --jobs 'Check this many files at once (default: the number of cores); the report keeps the input order'
            cand --strict 'Exit 2 at the first bad input line instead of reporting it and going on'
            cand -L 'Follow symbolic links when walking a directory (a link back to a folder being walked is told and not walked again)'
            cand --follow-links 'Follow symbolic links when walking a directory (a link back to a folder being walked is told and not walked again)'
            cand -v 'List clean files too (the text report shows only files with findings)'
            cand --verbose 'List clean files too (the text report shows only files with findings)'
            cand -q 'Print nothing: the exit code alone says whether the check passed'
            cand --quiet 'Print nothing: the exit code alone says whether the check passed'
            cand --statistics 'Print only the findings counted by rule and the summary line (text)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'aguify;serve'= {
            cand --conversation 'A further conversation: the *.ndjson/*.jsonl/*.sse files of DIR in name order, served at POST /<name> (the folder''s name unless given as NAME=DIR); repeatable'
            cand --listen 'Address to listen on, HOST:PORT, or PORT on loopback (127.0.0.1)'
            cand --speed 'Playback speed: 2 replays twice as fast as recorded, 0.5 half as fast'
            cand --max-gap 'Cap on any single gap after scaling, in ms (0: no cap)'
            cand --interval 'Gap before events without a timestamp (v2 logs), in ms, scaled by --speed'
            cand --cors 'Allow browser requests from this origin (e.g. http://localhost:3000, or * for any)'
            cand --allow-host 'Also answer requests whose Host is HOST when bound to loopback (only localhost, 127.0.0.1, [::1] and the --listen host are by default, against DNS rebinding); `*` answers any; repeatable'
            cand --max-body 'Request bodies larger than this get 413'
            cand --header-timeout 'Close a connection whose request head (request line and headers) has not arrived within this many ms, an idle keep-alive connection included'
            cand --body-timeout 'Answer 408 when a request body has not arrived within this many ms'
            cand --max-connections 'Connections served at once; more are answered 503'
            cand --max-threads 'Threads remembered; past it the least recently used one with no stream in progress is forgotten (its next request starts the conversation over)'
            cand --shutdown-grace 'On Ctrl-C or SIGTERM, close connections still open after this many ms'
            cand --from 'Input form: detected per file by default'
            cand --text 'Stream every model message, or only the final state''s answer'
            cand --tool-steps 'Also narrate tool calls as short reasoning lines'
            cand --compat 'Rename REASONING_* to 0.x THINKING_* (TDesign Chat 0.5.2)'
            cand --target 'The client generation: agui-0.0 writes what @ag-ui/client 0.0.x accepts (a cancelled run as RUN_ERROR CANCELLED, no pendingToolCallIds)'
            cand -q 'Don''t log one line per request to stderr'
            cand --quiet 'Don''t log one line per request to stderr'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'aguify;timeline'= {
            cand --from 'Input form: detected per file by default'
            cand --max-line-bytes 'Skip (and report) lines, and SSE frames whose data, longer than this many bytes (at least 1)'
            cand --threads 'Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more threads while the main thread maps (default: the number of cores, at most 2). The output does not depend on it'
            cand --stdin-filename 'The name stdin is reported under (in findings, diagnostics and timelines)'
            cand --color 'Colour by kind; `auto` colours a terminal only and honours NO_COLOR / CLICOLOR_FORCE'
            cand --width 'Cut lines to this many columns, 0 for no limit (default: the terminal''s width; output to a pipe or a file is not cut)'
            cand --strict 'Exit 2 at the first bad input line instead of reporting it and going on'
            cand --full 'Show previews and ids whole, never cut lines to the width'
            cand --follow 'Keep reading the file as it grows (like `tail -f`) until Ctrl-C'
            cand --exit-on-end 'With --follow: also stop once a run has ended and the file has no more data'
            cand --no-check 'Do not run the checker (its findings are shown inline by default)'
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'aguify;explain'= {
            cand --from 'Input form: detected per file by default'
            cand --max-line-bytes 'Skip (and report) lines, and SSE frames whose data, longer than this many bytes (at least 1)'
            cand --threads 'Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more threads while the main thread maps (default: the number of cores, at most 2). The output does not depend on it'
            cand --stdin-filename 'The name stdin is reported under (in findings, diagnostics and timelines)'
            cand -n 'How many raw input records before the error to show'
            cand --format 'Output format (json: the documented object of docs/timeline.md)'
            cand --color 'Colour the text report; `auto` colours a terminal only and honours NO_COLOR / CLICOLOR_FORCE'
            cand --strict 'Exit 2 at the first bad input line instead of reporting it and going on'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'aguify;diff'= {
            cand --old 'The old side as several files, in order (consecutive runs of one thread)'
            cand --new 'The new side as several files, in order'
            cand --ignore 'Do not compare the value at this JSON pointer (repeatable; `*` matches within a segment, e.g. /state/updatedAt, /toolCalls/*/args/requestId)'
            cand --format 'Report format'
            cand --color 'Colour the text report; `auto` colours a terminal only and honours NO_COLOR / CLICOLOR_FORCE'
            cand --from 'Input form of both sides'' logs: detected per file by default'
            cand --threads 'Threads parsing each side''s NDJSON (the sides are read at once, on a thread each; default 1). The result does not depend on it'
            cand --exact 'Compare event by event (ids, timestamps and chunks included) instead of what is shown'
            cand --ignore-text 'Compare the model''s text (assistant messages, reasoning) only as empty or not'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'aguify;snapshot'= {
            cand --from 'Input form: detected per file by default'
            cand --max-line-bytes 'Skip (and report) lines, and SSE frames whose data, longer than this many bytes (at least 1)'
            cand --threads 'Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more threads while the main thread maps (default: the number of cores, at most 2). The output does not depend on it'
            cand --strict 'Exit 2 at the first bad input line instead of reporting it and going on'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'aguify;report'= {
            cand --from 'Input form: detected per file by default'
            cand --max-line-bytes 'Skip (and report) lines, and SSE frames whose data, longer than this many bytes (at least 1)'
            cand --threads 'Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more threads while the main thread maps (default: the number of cores, at most 2). The output does not depend on it'
            cand -o 'Where to write the HTML (`-`: stdout)'
            cand --output 'Where to write the HTML (`-`: stdout)'
            cand --strict 'Exit 2 at the first bad input line instead of reporting it and going on'
            cand --no-check 'Do not run the checker (its findings are shown at their events by default)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'aguify;redact'= {
            cand -o 'Write here (through a temporary file renamed when done); an existing directory gets one file per input, by its name. Default: stdout'
            cand --output 'Write here (through a temporary file renamed when done); an existing directory gets one file per input, by its name. Default: stdout'
            cand --keep 'Keep the values at this JSON pointer into each record (`*` matches within a segment, e.g. /data/input/city, /params/data/input/*); repeatable. Credentials are replaced even there'
            cand --shift-time 'Move every timestamp by this many milliseconds (may be negative)'
            cand --stdin-filename 'The name stdin is reported under (in findings, diagnostics and timelines)'
            cand --slim 'Also drop what a bug report does not need: full states between a run''s first and last (those with interrupts stay), RAW events and rawEvent payloads'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'aguify;completions'= {
            cand -h 'Print help'
            cand --help 'Print help'
        }
        &'aguify;help'= {
            cand convert 'Convert LangGraph logs to AG-UI events (SSE or NDJSON)'
            cand check 'Check AG-UI streams and LangGraph logs (official client rules, schema, interrupts, …)'
            cand serve 'Serve recorded runs as a live AG-UI endpoint (POST a RunAgentInput, get SSE)'
            cand timeline 'Show runs at a glance: one line per message, reasoning block, tool call, step'
            cand explain 'Explain runs that ended in RUN_ERROR or stopped without a terminal event'
            cand diff 'Compare two streams run by run as a front end shows them (exit 0 equal, 1 different)'
            cand snapshot 'Write the golden snapshot of runs: what a front end shows, one value a line, stable ids'
            cand report 'Write a self-contained HTML report of runs: lanes, transcript, findings, states'
            cand redact 'Write a recording with its text replaced, to share (same form out as in)'
            cand completions 'Generate shell completions'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'aguify;help;convert'= {
        }
        &'aguify;help;check'= {
        }
        &'aguify;help;serve'= {
        }
        &'aguify;help;timeline'= {
        }
        &'aguify;help;explain'= {
        }
        &'aguify;help;diff'= {
        }
        &'aguify;help;snapshot'= {
        }
        &'aguify;help;report'= {
        }
        &'aguify;help;redact'= {
        }
        &'aguify;help;completions'= {
        }
        &'aguify;help;help'= {
        }
    ]
    $completions[$command]
}
