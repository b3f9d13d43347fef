# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_aguify_global_optspecs
    string join \n h/help V/version
end

function __fish_aguify_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_aguify_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_aguify_using_subcommand
    set -l cmd (__fish_aguify_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c aguify -n "__fish_aguify_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aguify -n "__fish_aguify_needs_command" -s V -l version -d 'Print version'
complete -c aguify -n "__fish_aguify_needs_command" -f -a "convert" -d 'Convert LangGraph logs to AG-UI events (SSE or NDJSON)'
complete -c aguify -n "__fish_aguify_needs_command" -f -a "check" -d 'Check AG-UI streams and LangGraph logs (official client rules, schema, interrupts, …)'
complete -c aguify -n "__fish_aguify_needs_command" -f -a "serve" -d 'Serve recorded runs as a live AG-UI endpoint (POST a RunAgentInput, get SSE)'
complete -c aguify -n "__fish_aguify_needs_command" -f -a "timeline" -d 'Show runs at a glance: one line per message, reasoning block, tool call, step'
complete -c aguify -n "__fish_aguify_needs_command" -f -a "explain" -d 'Explain runs that ended in RUN_ERROR or stopped without a terminal event'
complete -c aguify -n "__fish_aguify_needs_command" -f -a "report" -d 'Write a self-contained HTML report of runs: lanes, transcript, findings, states'
complete -c aguify -n "__fish_aguify_needs_command" -f -a "completions" -d 'Generate shell completions'
complete -c aguify -n "__fish_aguify_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c aguify -n "__fish_aguify_using_subcommand convert" -l from -d 'Input form: detected per file by default' -r -f -a "auto\t''
v2\t''
v3\t''
sse\t''
agui\t''"
complete -c aguify -n "__fish_aguify_using_subcommand convert" -l max-line-bytes -d 'Skip (and report) lines longer than this many bytes' -r
complete -c aguify -n "__fish_aguify_using_subcommand convert" -l threads -d 'Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more threads while the main thread maps (default: the number of cores, at most 2). The output does not depend on it' -r
complete -c aguify -n "__fish_aguify_using_subcommand convert" -l thread-id -d 'threadId when the log has none' -r
complete -c aguify -n "__fish_aguify_using_subcommand convert" -l run-id -d 'runId when the log has none (later runs get `-2`, `-3`…)' -r
complete -c aguify -n "__fish_aguify_using_subcommand convert" -l text -d 'Stream every model message, or only the final state\'s answer' -r -f -a "stream\t''
final\t''"
complete -c aguify -n "__fish_aguify_using_subcommand convert" -l tool-steps -d 'Also narrate tool calls as short reasoning lines' -r -f -a "none\t''
reasoning\t''"
complete -c aguify -n "__fish_aguify_using_subcommand convert" -l compat -d 'Rename REASONING_* to 0.x THINKING_* (TDesign Chat 0.5.2)' -r -f -a "none\t''
thinking\t''"
complete -c aguify -n "__fish_aguify_using_subcommand convert" -l to -d 'Output format' -r -f -a "sse\t''
ndjson\t''"
complete -c aguify -n "__fish_aguify_using_subcommand convert" -l fail-on -d 'Exit 1 when a check finding reaches this severity (findings go to stderr either way)' -r -f -a "error\t''
warning\t''
none\t''"
complete -c aguify -n "__fish_aguify_using_subcommand convert" -l speed -d 'Playback speed: 2 replays twice as fast as recorded, 0.5 half as fast' -r
complete -c aguify -n "__fish_aguify_using_subcommand convert" -l max-gap -d 'Cap on any single gap after scaling, in ms (0: no cap)' -r
complete -c aguify -n "__fish_aguify_using_subcommand convert" -l interval -d 'Gap before events without a timestamp (v2 logs), in ms, scaled by --speed' -r
complete -c aguify -n "__fish_aguify_using_subcommand convert" -l strict -d 'Exit 2 at the first bad input line instead of reporting it and going on'
complete -c aguify -n "__fish_aguify_using_subcommand convert" -l stats -d 'Print where every input line went (mapped / ignored with reason / bad) to stderr'
complete -c aguify -n "__fish_aguify_using_subcommand convert" -l pace -d 'Write each event after its recorded gap (see --speed, --max-gap, --interval), flushing every frame'
complete -c aguify -n "__fish_aguify_using_subcommand convert" -s h -l help -d 'Print help'
complete -c aguify -n "__fish_aguify_using_subcommand check" -l from -d 'Input form: detected per file by default' -r -f -a "auto\t''
v2\t''
v3\t''
sse\t''
agui\t''"
complete -c aguify -n "__fish_aguify_using_subcommand check" -l max-line-bytes -d 'Skip (and report) lines longer than this many bytes' -r
complete -c aguify -n "__fish_aguify_using_subcommand check" -l threads -d 'Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more threads while the main thread maps (default: the number of cores, at most 2). The output does not depend on it' -r
complete -c aguify -n "__fish_aguify_using_subcommand check" -l thread-id -d 'threadId when the log has none' -r
complete -c aguify -n "__fish_aguify_using_subcommand check" -l run-id -d 'runId when the log has none (later runs get `-2`, `-3`…)' -r
complete -c aguify -n "__fish_aguify_using_subcommand check" -l text -d 'Stream every model message, or only the final state\'s answer' -r -f -a "stream\t''
final\t''"
complete -c aguify -n "__fish_aguify_using_subcommand check" -l tool-steps -d 'Also narrate tool calls as short reasoning lines' -r -f -a "none\t''
reasoning\t''"
complete -c aguify -n "__fish_aguify_using_subcommand check" -l compat -d 'Rename REASONING_* to 0.x THINKING_* (TDesign Chat 0.5.2)' -r -f -a "none\t''
thinking\t''"
complete -c aguify -n "__fish_aguify_using_subcommand check" -l format -d 'Report format' -r -f -a "text\t''
json\t''
github\t''
junit\t''
sarif\t''
markdown\t'A summary for a CI job page (`$GITHUB_STEP_SUMMARY`); see docs/check.md'"
complete -c aguify -n "__fish_aguify_using_subcommand check" -l fail-on -d 'Exit 1 when a finding reaches this severity' -r -f -a "error\t''
warning\t''
none\t''"
complete -c aguify -n "__fish_aguify_using_subcommand check" -l max-warnings -d 'Exit 1 when there are more than N warnings' -r
complete -c aguify -n "__fish_aguify_using_subcommand check" -l allow -d 'Silence a rule (repeatable)' -r
complete -c aguify -n "__fish_aguify_using_subcommand check" -l deny -d 'Make a rule an error (repeatable)' -r
complete -c aguify -n "__fish_aguify_using_subcommand check" -l explain -d 'Explain a rule and exit (`all` lists every rule)' -r
complete -c aguify -n "__fish_aguify_using_subcommand check" -l color -d 'Colour the text report' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aguify -n "__fish_aguify_using_subcommand check" -s j -l jobs -d 'Check this many files at once (default: the number of cores); the report keeps the input order' -r
complete -c aguify -n "__fish_aguify_using_subcommand check" -l strict -d 'Exit 2 at the first bad input line instead of reporting it and going on'
complete -c aguify -n "__fish_aguify_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aguify -n "__fish_aguify_using_subcommand serve" -l conversation -d 'A further conversation: the *.ndjson/*.jsonl/*.sse files of DIR in name order, served at POST /<name> (the folder\'s name unless given as NAME=DIR); repeatable' -r
complete -c aguify -n "__fish_aguify_using_subcommand serve" -l listen -d 'Address to listen on, HOST:PORT (loopback by default)' -r
complete -c aguify -n "__fish_aguify_using_subcommand serve" -l speed -d 'Playback speed: 2 replays twice as fast as recorded, 0.5 half as fast' -r
complete -c aguify -n "__fish_aguify_using_subcommand serve" -l max-gap -d 'Cap on any single gap after scaling, in ms (0: no cap)' -r
complete -c aguify -n "__fish_aguify_using_subcommand serve" -l interval -d 'Gap before events without a timestamp (v2 logs), in ms, scaled by --speed' -r
complete -c aguify -n "__fish_aguify_using_subcommand serve" -l cors -d 'Allow browser requests from this origin (e.g. http://localhost:3000, or * for any)' -r
complete -c aguify -n "__fish_aguify_using_subcommand serve" -l allow-host -d 'Also answer requests whose Host is HOST when bound to loopback (only localhost, 127.0.0.1, [::1] and the --listen host are by default, against DNS rebinding); `*` answers any; repeatable' -r
complete -c aguify -n "__fish_aguify_using_subcommand serve" -l max-body -d 'Request bodies larger than this get 413' -r
complete -c aguify -n "__fish_aguify_using_subcommand serve" -l header-timeout -d 'Close a connection whose request head (request line and headers) has not arrived within this many ms, an idle keep-alive connection included' -r
complete -c aguify -n "__fish_aguify_using_subcommand serve" -l body-timeout -d 'Answer 408 when a request body has not arrived within this many ms' -r
complete -c aguify -n "__fish_aguify_using_subcommand serve" -l max-connections -d 'Connections served at once; more are answered 503' -r
complete -c aguify -n "__fish_aguify_using_subcommand serve" -l max-threads -d 'Threads remembered; past it the least recently used one with no stream in progress is forgotten (its next request starts the conversation over)' -r
complete -c aguify -n "__fish_aguify_using_subcommand serve" -l shutdown-grace -d 'On Ctrl-C or SIGTERM, close connections still open after this many ms' -r
complete -c aguify -n "__fish_aguify_using_subcommand serve" -l from -d 'Input form: detected per file by default' -r -f -a "auto\t''
v2\t''
v3\t''
sse\t''
agui\t''"
complete -c aguify -n "__fish_aguify_using_subcommand serve" -l text -d 'Stream every model message, or only the final state\'s answer' -r -f -a "stream\t''
final\t''"
complete -c aguify -n "__fish_aguify_using_subcommand serve" -l tool-steps -d 'Also narrate tool calls as short reasoning lines' -r -f -a "none\t''
reasoning\t''"
complete -c aguify -n "__fish_aguify_using_subcommand serve" -l compat -d 'Rename REASONING_* to 0.x THINKING_* (TDesign Chat 0.5.2)' -r -f -a "none\t''
thinking\t''"
complete -c aguify -n "__fish_aguify_using_subcommand serve" -s q -l quiet -d 'Don\'t log one line per request to stderr'
complete -c aguify -n "__fish_aguify_using_subcommand serve" -s h -l help -d 'Print help'
complete -c aguify -n "__fish_aguify_using_subcommand timeline" -l from -d 'Input form: detected per file by default' -r -f -a "auto\t''
v2\t''
v3\t''
sse\t''
agui\t''"
complete -c aguify -n "__fish_aguify_using_subcommand timeline" -l max-line-bytes -d 'Skip (and report) lines longer than this many bytes' -r
complete -c aguify -n "__fish_aguify_using_subcommand timeline" -l threads -d 'Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more threads while the main thread maps (default: the number of cores, at most 2). The output does not depend on it' -r
complete -c aguify -n "__fish_aguify_using_subcommand timeline" -l color -d 'Colour by kind; `auto` colours a terminal only and honours NO_COLOR / CLICOLOR_FORCE' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aguify -n "__fish_aguify_using_subcommand timeline" -l width -d 'Cut lines to this many columns (default: the terminal width, COLUMNS, or 120 in a pipe)' -r
complete -c aguify -n "__fish_aguify_using_subcommand timeline" -l strict -d 'Exit 2 at the first bad input line instead of reporting it and going on'
complete -c aguify -n "__fish_aguify_using_subcommand timeline" -l full -d 'Show previews and ids whole, never cut lines to the width'
complete -c aguify -n "__fish_aguify_using_subcommand timeline" -l follow -d 'Keep reading the file as it grows (like `tail -f`) until Ctrl-C'
complete -c aguify -n "__fish_aguify_using_subcommand timeline" -l exit-on-end -d 'With --follow: also stop once a run has ended and the file has no more data'
complete -c aguify -n "__fish_aguify_using_subcommand timeline" -l no-check -d 'Do not run the checker (its findings are shown inline by default)'
complete -c aguify -n "__fish_aguify_using_subcommand timeline" -s h -l help -d 'Print help'
complete -c aguify -n "__fish_aguify_using_subcommand explain" -l from -d 'Input form: detected per file by default' -r -f -a "auto\t''
v2\t''
v3\t''
sse\t''
agui\t''"
complete -c aguify -n "__fish_aguify_using_subcommand explain" -l max-line-bytes -d 'Skip (and report) lines longer than this many bytes' -r
complete -c aguify -n "__fish_aguify_using_subcommand explain" -l threads -d 'Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more threads while the main thread maps (default: the number of cores, at most 2). The output does not depend on it' -r
complete -c aguify -n "__fish_aguify_using_subcommand explain" -s n -d 'How many raw input records before the error to show' -r
complete -c aguify -n "__fish_aguify_using_subcommand explain" -l format -d 'Output format (json: the documented object of docs/timeline.md)' -r -f -a "text\t''
json\t''"
complete -c aguify -n "__fish_aguify_using_subcommand explain" -l color -d 'Colour the text report; `auto` colours a terminal only and honours NO_COLOR / CLICOLOR_FORCE' -r -f -a "auto\t''
always\t''
never\t''"
complete -c aguify -n "__fish_aguify_using_subcommand explain" -l strict -d 'Exit 2 at the first bad input line instead of reporting it and going on'
complete -c aguify -n "__fish_aguify_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aguify -n "__fish_aguify_using_subcommand report" -l from -d 'Input form: detected per file by default' -r -f -a "auto\t''
v2\t''
v3\t''
sse\t''
agui\t''"
complete -c aguify -n "__fish_aguify_using_subcommand report" -l max-line-bytes -d 'Skip (and report) lines longer than this many bytes' -r
complete -c aguify -n "__fish_aguify_using_subcommand report" -l threads -d 'Threads for NDJSON input: 1 parses on the main thread; N > 1 parses on N - 1 more threads while the main thread maps (default: the number of cores, at most 2). The output does not depend on it' -r
complete -c aguify -n "__fish_aguify_using_subcommand report" -s o -l output -d 'Where to write the HTML (`-`: stdout)' -r
complete -c aguify -n "__fish_aguify_using_subcommand report" -l strict -d 'Exit 2 at the first bad input line instead of reporting it and going on'
complete -c aguify -n "__fish_aguify_using_subcommand report" -l no-check -d 'Do not run the checker (its findings are shown at their events by default)'
complete -c aguify -n "__fish_aguify_using_subcommand report" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c aguify -n "__fish_aguify_using_subcommand completions" -s h -l help -d 'Print help'
complete -c aguify -n "__fish_aguify_using_subcommand help; and not __fish_seen_subcommand_from convert check serve timeline explain report completions help" -f -a "convert" -d 'Convert LangGraph logs to AG-UI events (SSE or NDJSON)'
complete -c aguify -n "__fish_aguify_using_subcommand help; and not __fish_seen_subcommand_from convert check serve timeline explain report completions help" -f -a "check" -d 'Check AG-UI streams and LangGraph logs (official client rules, schema, interrupts, …)'
complete -c aguify -n "__fish_aguify_using_subcommand help; and not __fish_seen_subcommand_from convert check serve timeline explain report completions help" -f -a "serve" -d 'Serve recorded runs as a live AG-UI endpoint (POST a RunAgentInput, get SSE)'
complete -c aguify -n "__fish_aguify_using_subcommand help; and not __fish_seen_subcommand_from convert check serve timeline explain report completions help" -f -a "timeline" -d 'Show runs at a glance: one line per message, reasoning block, tool call, step'
complete -c aguify -n "__fish_aguify_using_subcommand help; and not __fish_seen_subcommand_from convert check serve timeline explain report completions help" -f -a "explain" -d 'Explain runs that ended in RUN_ERROR or stopped without a terminal event'
complete -c aguify -n "__fish_aguify_using_subcommand help; and not __fish_seen_subcommand_from convert check serve timeline explain report completions help" -f -a "report" -d 'Write a self-contained HTML report of runs: lanes, transcript, findings, states'
complete -c aguify -n "__fish_aguify_using_subcommand help; and not __fish_seen_subcommand_from convert check serve timeline explain report completions help" -f -a "completions" -d 'Generate shell completions'
complete -c aguify -n "__fish_aguify_using_subcommand help; and not __fish_seen_subcommand_from convert check serve timeline explain report completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
