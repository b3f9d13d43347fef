
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'aguify' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'aguify'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'aguify' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('convert', 'convert', [CompletionResultType]::ParameterValue, 'Convert LangGraph logs to AG-UI events (SSE or NDJSON)')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check AG-UI streams and LangGraph logs (official client rules, schema, interrupts, …)')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve recorded runs as a live AG-UI endpoint (POST a RunAgentInput, get SSE)')
            [CompletionResult]::new('timeline', 'timeline', [CompletionResultType]::ParameterValue, 'Show runs at a glance: one line per message, reasoning block, tool call, step')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain runs that ended in RUN_ERROR or stopped without a terminal event')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare two streams run by run as a front end shows them (exit 0 equal, 1 different)')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Write the golden snapshot of runs: what a front end shows, one value a line, stable ids')
            [CompletionResult]::new('report', 'report', [CompletionResultType]::ParameterValue, 'Write a self-contained HTML report of runs: lanes, transcript, findings, states')
            [CompletionResult]::new('redact', 'redact', [CompletionResultType]::ParameterValue, 'Write a recording with its text replaced, to share (same form out as in)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Generate shell completions')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aguify;convert' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Input form: detected per file by default')
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Skip (and report) lines, and SSE frames whose data, longer than this many bytes (at least 1)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more threads while the main thread maps (default: the number of cores, at most 2). The output does not depend on it')
            [CompletionResult]::new('--stdin-filename', '--stdin-filename', [CompletionResultType]::ParameterName, 'The name stdin is reported under (in findings, diagnostics and timelines)')
            [CompletionResult]::new('--thread-id', '--thread-id', [CompletionResultType]::ParameterName, 'threadId when the log has none')
            [CompletionResult]::new('--run-id', '--run-id', [CompletionResultType]::ParameterName, 'runId when the log has none (later runs get `-2`, `-3`…)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Stream every model message, or only the final state''s answer')
            [CompletionResult]::new('--tool-steps', '--tool-steps', [CompletionResultType]::ParameterName, 'Also narrate tool calls as short reasoning lines')
            [CompletionResult]::new('--compat', '--compat', [CompletionResultType]::ParameterName, 'Rename REASONING_* to 0.x THINKING_* (TDesign Chat 0.5.2)')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'The client generation: agui-0.0 writes what @ag-ui/client 0.0.x accepts (a cancelled run as RUN_ERROR CANCELLED, no pendingToolCallIds)')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Exit 1 when a check finding reaches this severity (findings go to stderr either way)')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Silence rules (repeatable, or a comma list: AGX301,AGX303)')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Make rules errors (repeatable, or a comma list)')
            [CompletionResult]::new('--max-per-rule', '--max-per-rule', [CompletionResultType]::ParameterName, 'Findings shown per file and rule; the rest are counted in one line (0: all)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the diagnostics on stderr; `auto` colours a terminal only and honours NO_COLOR, CLICOLOR_FORCE and TERM=dumb')
            [CompletionResult]::new('--speed', '--speed', [CompletionResultType]::ParameterName, 'Playback speed: 2 replays twice as fast as recorded, 0.5 half as fast')
            [CompletionResult]::new('--max-gap', '--max-gap', [CompletionResultType]::ParameterName, 'Cap on any single gap after scaling, in ms (0: no cap)')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Gap before events without a timestamp (v2 logs), in ms, scaled by --speed')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Exit 2 at the first bad input line instead of reporting it and going on')
            [CompletionResult]::new('--stats', '--stats', [CompletionResultType]::ParameterName, 'Print where every input line went (mapped / ignored with reason / bad) to stderr')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print no check findings on stderr (the exit code still follows --fail-on)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print no check findings on stderr (the exit code still follows --fail-on)')
            [CompletionResult]::new('--pace', '--pace', [CompletionResultType]::ParameterName, 'Write each event after its recorded gap (see --speed, --max-gap, --interval), flushing every frame')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'aguify;check' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Input form: detected per file by default')
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Skip (and report) lines, and SSE frames whose data, longer than this many bytes (at least 1)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more threads while the main thread maps (default: the number of cores, at most 2). The output does not depend on it')
            [CompletionResult]::new('--stdin-filename', '--stdin-filename', [CompletionResultType]::ParameterName, 'The name stdin is reported under (in findings, diagnostics and timelines)')
            [CompletionResult]::new('--thread-id', '--thread-id', [CompletionResultType]::ParameterName, 'threadId when the log has none')
            [CompletionResult]::new('--run-id', '--run-id', [CompletionResultType]::ParameterName, 'runId when the log has none (later runs get `-2`, `-3`…)')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Stream every model message, or only the final state''s answer')
            [CompletionResult]::new('--tool-steps', '--tool-steps', [CompletionResultType]::ParameterName, 'Also narrate tool calls as short reasoning lines')
            [CompletionResult]::new('--compat', '--compat', [CompletionResultType]::ParameterName, 'Rename REASONING_* to 0.x THINKING_* (TDesign Chat 0.5.2)')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'The client generation: agui-0.0 writes what @ag-ui/client 0.0.x accepts (a cancelled run as RUN_ERROR CANCELLED, no pendingToolCallIds)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Report format')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Exit 1 when a finding reaches this severity')
            [CompletionResult]::new('--max-warnings', '--max-warnings', [CompletionResultType]::ParameterName, 'Exit 1 when there are more than N warnings (the report says so)')
            [CompletionResult]::new('--allow', '--allow', [CompletionResultType]::ParameterName, 'Silence rules (repeatable, or a comma list: AGX301,AGX303)')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Make rules errors (repeatable, or a comma list)')
            [CompletionResult]::new('--max-per-rule', '--max-per-rule', [CompletionResultType]::ParameterName, 'Findings shown per file and rule; the rest are counted in one line (0: all)')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Explain a rule and exit (`all` lists every rule)')
            [CompletionResult]::new('--files-from', '--files-from', [CompletionResultType]::ParameterName, 'Also check the paths listed in FILE, one a line (`-`: read the list from stdin)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the text report')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Check this many files at once (default: the number of cores); the report keeps the input order')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Check this many files at once (default: the number of cores); the report keeps the input order')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Exit 2 at the first bad input line instead of reporting it and going on')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Follow symbolic links when walking a directory (a link back to a folder being walked is told and not walked again)')
            [CompletionResult]::new('--follow-links', '--follow-links', [CompletionResultType]::ParameterName, 'Follow symbolic links when walking a directory (a link back to a folder being walked is told and not walked again)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'List clean files too (the text report shows only files with findings)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'List clean files too (the text report shows only files with findings)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing: the exit code alone says whether the check passed')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing: the exit code alone says whether the check passed')
            [CompletionResult]::new('--statistics', '--statistics', [CompletionResultType]::ParameterName, 'Print only the findings counted by rule and the summary line (text)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'aguify;serve' {
            [CompletionResult]::new('--conversation', '--conversation', [CompletionResultType]::ParameterName, 'A further conversation: the *.ndjson/*.jsonl/*.sse files of DIR in name order, served at POST /<name> (the folder''s name unless given as NAME=DIR); repeatable')
            [CompletionResult]::new('--listen', '--listen', [CompletionResultType]::ParameterName, 'Address to listen on, HOST:PORT, or PORT on loopback (127.0.0.1)')
            [CompletionResult]::new('--speed', '--speed', [CompletionResultType]::ParameterName, 'Playback speed: 2 replays twice as fast as recorded, 0.5 half as fast')
            [CompletionResult]::new('--max-gap', '--max-gap', [CompletionResultType]::ParameterName, 'Cap on any single gap after scaling, in ms (0: no cap)')
            [CompletionResult]::new('--interval', '--interval', [CompletionResultType]::ParameterName, 'Gap before events without a timestamp (v2 logs), in ms, scaled by --speed')
            [CompletionResult]::new('--cors', '--cors', [CompletionResultType]::ParameterName, 'Allow browser requests from this origin (e.g. http://localhost:3000, or * for any)')
            [CompletionResult]::new('--allow-host', '--allow-host', [CompletionResultType]::ParameterName, 'Also answer requests whose Host is HOST when bound to loopback (only localhost, 127.0.0.1, [::1] and the --listen host are by default, against DNS rebinding); `*` answers any; repeatable')
            [CompletionResult]::new('--max-body', '--max-body', [CompletionResultType]::ParameterName, 'Request bodies larger than this get 413')
            [CompletionResult]::new('--header-timeout', '--header-timeout', [CompletionResultType]::ParameterName, 'Close a connection whose request head (request line and headers) has not arrived within this many ms, an idle keep-alive connection included')
            [CompletionResult]::new('--body-timeout', '--body-timeout', [CompletionResultType]::ParameterName, 'Answer 408 when a request body has not arrived within this many ms')
            [CompletionResult]::new('--max-connections', '--max-connections', [CompletionResultType]::ParameterName, 'Connections served at once; more are answered 503')
            [CompletionResult]::new('--max-threads', '--max-threads', [CompletionResultType]::ParameterName, 'Threads remembered; past it the least recently used one with no stream in progress is forgotten (its next request starts the conversation over)')
            [CompletionResult]::new('--shutdown-grace', '--shutdown-grace', [CompletionResultType]::ParameterName, 'On Ctrl-C or SIGTERM, close connections still open after this many ms')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Input form: detected per file by default')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Stream every model message, or only the final state''s answer')
            [CompletionResult]::new('--tool-steps', '--tool-steps', [CompletionResultType]::ParameterName, 'Also narrate tool calls as short reasoning lines')
            [CompletionResult]::new('--compat', '--compat', [CompletionResultType]::ParameterName, 'Rename REASONING_* to 0.x THINKING_* (TDesign Chat 0.5.2)')
            [CompletionResult]::new('--target', '--target', [CompletionResultType]::ParameterName, 'The client generation: agui-0.0 writes what @ag-ui/client 0.0.x accepts (a cancelled run as RUN_ERROR CANCELLED, no pendingToolCallIds)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Don''t log one line per request to stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Don''t log one line per request to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'aguify;timeline' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Input form: detected per file by default')
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Skip (and report) lines, and SSE frames whose data, longer than this many bytes (at least 1)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more threads while the main thread maps (default: the number of cores, at most 2). The output does not depend on it')
            [CompletionResult]::new('--stdin-filename', '--stdin-filename', [CompletionResultType]::ParameterName, 'The name stdin is reported under (in findings, diagnostics and timelines)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour by kind; `auto` colours a terminal only and honours NO_COLOR / CLICOLOR_FORCE')
            [CompletionResult]::new('--width', '--width', [CompletionResultType]::ParameterName, 'Cut lines to this many columns, 0 for no limit (default: the terminal''s width; output to a pipe or a file is not cut)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Exit 2 at the first bad input line instead of reporting it and going on')
            [CompletionResult]::new('--full', '--full', [CompletionResultType]::ParameterName, 'Show previews and ids whole, never cut lines to the width')
            [CompletionResult]::new('--follow', '--follow', [CompletionResultType]::ParameterName, 'Keep reading the file as it grows (like `tail -f`) until Ctrl-C')
            [CompletionResult]::new('--exit-on-end', '--exit-on-end', [CompletionResultType]::ParameterName, 'With --follow: also stop once a run has ended and the file has no more data')
            [CompletionResult]::new('--no-check', '--no-check', [CompletionResultType]::ParameterName, 'Do not run the checker (its findings are shown inline by default)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'aguify;explain' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Input form: detected per file by default')
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Skip (and report) lines, and SSE frames whose data, longer than this many bytes (at least 1)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more threads while the main thread maps (default: the number of cores, at most 2). The output does not depend on it')
            [CompletionResult]::new('--stdin-filename', '--stdin-filename', [CompletionResultType]::ParameterName, 'The name stdin is reported under (in findings, diagnostics and timelines)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'How many raw input records before the error to show')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format (json: the documented object of docs/timeline.md)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the text report; `auto` colours a terminal only and honours NO_COLOR / CLICOLOR_FORCE')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Exit 2 at the first bad input line instead of reporting it and going on')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'aguify;diff' {
            [CompletionResult]::new('--old', '--old', [CompletionResultType]::ParameterName, 'The old side as several files, in order (consecutive runs of one thread)')
            [CompletionResult]::new('--new', '--new', [CompletionResultType]::ParameterName, 'The new side as several files, in order')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Do not compare the value at this JSON pointer (repeatable; `*` matches within a segment, e.g. /state/updatedAt, /toolCalls/*/args/requestId)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Report format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour the text report; `auto` colours a terminal only and honours NO_COLOR / CLICOLOR_FORCE')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Input form of both sides'' logs: detected per file by default')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Threads parsing each side''s NDJSON (the sides are read at once, on a thread each; default 1). The result does not depend on it')
            [CompletionResult]::new('--exact', '--exact', [CompletionResultType]::ParameterName, 'Compare event by event (ids, timestamps and chunks included) instead of what is shown')
            [CompletionResult]::new('--ignore-text', '--ignore-text', [CompletionResultType]::ParameterName, 'Compare the model''s text (assistant messages, reasoning) only as empty or not')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'aguify;snapshot' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Input form: detected per file by default')
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Skip (and report) lines, and SSE frames whose data, longer than this many bytes (at least 1)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more threads while the main thread maps (default: the number of cores, at most 2). The output does not depend on it')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Exit 2 at the first bad input line instead of reporting it and going on')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'aguify;report' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Input form: detected per file by default')
            [CompletionResult]::new('--max-line-bytes', '--max-line-bytes', [CompletionResultType]::ParameterName, 'Skip (and report) lines, and SSE frames whose data, longer than this many bytes (at least 1)')
            [CompletionResult]::new('--threads', '--threads', [CompletionResultType]::ParameterName, 'Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more threads while the main thread maps (default: the number of cores, at most 2). The output does not depend on it')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Where to write the HTML (`-`: stdout)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Where to write the HTML (`-`: stdout)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Exit 2 at the first bad input line instead of reporting it and going on')
            [CompletionResult]::new('--no-check', '--no-check', [CompletionResultType]::ParameterName, 'Do not run the checker (its findings are shown at their events by default)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'aguify;redact' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write here (through a temporary file renamed when done); an existing directory gets one file per input, by its name. Default: stdout')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write here (through a temporary file renamed when done); an existing directory gets one file per input, by its name. Default: stdout')
            [CompletionResult]::new('--keep', '--keep', [CompletionResultType]::ParameterName, 'Keep the values at this JSON pointer into each record (`*` matches within a segment, e.g. /data/input/city, /params/data/input/*); repeatable. Credentials are replaced even there')
            [CompletionResult]::new('--shift-time', '--shift-time', [CompletionResultType]::ParameterName, 'Move every timestamp by this many milliseconds (may be negative)')
            [CompletionResult]::new('--stdin-filename', '--stdin-filename', [CompletionResultType]::ParameterName, 'The name stdin is reported under (in findings, diagnostics and timelines)')
            [CompletionResult]::new('--slim', '--slim', [CompletionResultType]::ParameterName, 'Also drop what a bug report does not need: full states between a run''s first and last (those with interrupts stay), RAW events and rawEvent payloads')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'aguify;completions' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'aguify;help' {
            [CompletionResult]::new('convert', 'convert', [CompletionResultType]::ParameterValue, 'Convert LangGraph logs to AG-UI events (SSE or NDJSON)')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check AG-UI streams and LangGraph logs (official client rules, schema, interrupts, …)')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve recorded runs as a live AG-UI endpoint (POST a RunAgentInput, get SSE)')
            [CompletionResult]::new('timeline', 'timeline', [CompletionResultType]::ParameterValue, 'Show runs at a glance: one line per message, reasoning block, tool call, step')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain runs that ended in RUN_ERROR or stopped without a terminal event')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare two streams run by run as a front end shows them (exit 0 equal, 1 different)')
            [CompletionResult]::new('snapshot', 'snapshot', [CompletionResultType]::ParameterValue, 'Write the golden snapshot of runs: what a front end shows, one value a line, stable ids')
            [CompletionResult]::new('report', 'report', [CompletionResultType]::ParameterValue, 'Write a self-contained HTML report of runs: lanes, transcript, findings, states')
            [CompletionResult]::new('redact', 'redact', [CompletionResultType]::ParameterValue, 'Write a recording with its text replaced, to share (same form out as in)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Generate shell completions')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'aguify;help;convert' {
            break
        }
        'aguify;help;check' {
            break
        }
        'aguify;help;serve' {
            break
        }
        'aguify;help;timeline' {
            break
        }
        'aguify;help;explain' {
            break
        }
        'aguify;help;diff' {
            break
        }
        'aguify;help;snapshot' {
            break
        }
        'aguify;help;report' {
            break
        }
        'aguify;help;redact' {
            break
        }
        'aguify;help;completions' {
            break
        }
        'aguify;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
