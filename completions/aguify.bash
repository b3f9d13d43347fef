_aguify() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="aguify"
                ;;
            aguify,check)
                cmd="aguify__subcmd__check"
                ;;
            aguify,completions)
                cmd="aguify__subcmd__completions"
                ;;
            aguify,convert)
                cmd="aguify__subcmd__convert"
                ;;
            aguify,diff)
                cmd="aguify__subcmd__diff"
                ;;
            aguify,explain)
                cmd="aguify__subcmd__explain"
                ;;
            aguify,help)
                cmd="aguify__subcmd__help"
                ;;
            aguify,redact)
                cmd="aguify__subcmd__redact"
                ;;
            aguify,report)
                cmd="aguify__subcmd__report"
                ;;
            aguify,serve)
                cmd="aguify__subcmd__serve"
                ;;
            aguify,snapshot)
                cmd="aguify__subcmd__snapshot"
                ;;
            aguify,timeline)
                cmd="aguify__subcmd__timeline"
                ;;
            aguify__subcmd__help,check)
                cmd="aguify__subcmd__help__subcmd__check"
                ;;
            aguify__subcmd__help,completions)
                cmd="aguify__subcmd__help__subcmd__completions"
                ;;
            aguify__subcmd__help,convert)
                cmd="aguify__subcmd__help__subcmd__convert"
                ;;
            aguify__subcmd__help,diff)
                cmd="aguify__subcmd__help__subcmd__diff"
                ;;
            aguify__subcmd__help,explain)
                cmd="aguify__subcmd__help__subcmd__explain"
                ;;
            aguify__subcmd__help,help)
                cmd="aguify__subcmd__help__subcmd__help"
                ;;
            aguify__subcmd__help,redact)
                cmd="aguify__subcmd__help__subcmd__redact"
                ;;
            aguify__subcmd__help,report)
                cmd="aguify__subcmd__help__subcmd__report"
                ;;
            aguify__subcmd__help,serve)
                cmd="aguify__subcmd__help__subcmd__serve"
                ;;
            aguify__subcmd__help,snapshot)
                cmd="aguify__subcmd__help__subcmd__snapshot"
                ;;
            aguify__subcmd__help,timeline)
                cmd="aguify__subcmd__help__subcmd__timeline"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        aguify)
            opts="-h -V --help --version convert check serve timeline explain diff snapshot report redact completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__check)
            opts="-L -v -q -j -h --from --max-line-bytes --strict --threads --stdin-filename --thread-id --run-id --text --tool-steps --compat --target --format --fail-on --max-warnings --allow --deny --max-per-rule --explain --files-from --follow-links --verbose --quiet --statistics --color --jobs --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --from)
                    COMPREPLY=($(compgen -W "auto v2 v3 sse agui" -- "${cur}"))
                    return 0
                    ;;
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stdin-filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --thread-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --run-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --text)
                    COMPREPLY=($(compgen -W "stream final" -- "${cur}"))
                    return 0
                    ;;
                --tool-steps)
                    COMPREPLY=($(compgen -W "none reasoning" -- "${cur}"))
                    return 0
                    ;;
                --compat)
                    COMPREPLY=($(compgen -W "none thinking" -- "${cur}"))
                    return 0
                    ;;
                --target)
                    COMPREPLY=($(compgen -W "agui-1.0 agui-0.0" -- "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json github junit sarif markdown" -- "${cur}"))
                    return 0
                    ;;
                --fail-on)
                    COMPREPLY=($(compgen -W "error warning none" -- "${cur}"))
                    return 0
                    ;;
                --max-warnings)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --allow)
                    COMPREPLY=($(compgen -W "AGX101 AGX102 AGX103 AGX104 AGX105 AGX106 AGX107 AGX108 AGX109 AGX110 AGX111 AGX112 AGX113 AGX114 AGX115 AGX116 AGX117 AGX118 AGX119 AGX120 AGX121 AGX122 AGX123 AGX124 AGX130 AGX131 AGX132 AGX133 AGX201 AGX202 AGX203 AGX204 AGX205 AGX206 AGX207 AGX208 AGX209 AGX210 AGX211 AGX301 AGX302 AGX303 AGX304 AGX305 AGX306 AGX307 AGX308 AGX309 AGX310 AGX311 AGX312 AGX313 AGX314 AGX315 AGX401 AGX402 AGX403 AGX404 AGX405 AGX406 AGX501 AGX502 AGX503 AGX504 AGX505 AGX601 AGX602 AGX603 AGX604 AGX605 AGX606 AGX607 AGX608 AGX609 AGX610 AGX611 AGX612 AGX613 AGX701 AGX702" -- "${cur}"))
                    return 0
                    ;;
                --deny)
                    COMPREPLY=($(compgen -W "AGX101 AGX102 AGX103 AGX104 AGX105 AGX106 AGX107 AGX108 AGX109 AGX110 AGX111 AGX112 AGX113 AGX114 AGX115 AGX116 AGX117 AGX118 AGX119 AGX120 AGX121 AGX122 AGX123 AGX124 AGX130 AGX131 AGX132 AGX133 AGX201 AGX202 AGX203 AGX204 AGX205 AGX206 AGX207 AGX208 AGX209 AGX210 AGX211 AGX301 AGX302 AGX303 AGX304 AGX305 AGX306 AGX307 AGX308 AGX309 AGX310 AGX311 AGX312 AGX313 AGX314 AGX315 AGX401 AGX402 AGX403 AGX404 AGX405 AGX406 AGX501 AGX502 AGX503 AGX504 AGX505 AGX601 AGX602 AGX603 AGX604 AGX605 AGX606 AGX607 AGX608 AGX609 AGX610 AGX611 AGX612 AGX613 AGX701 AGX702" -- "${cur}"))
                    return 0
                    ;;
                --max-per-rule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --explain)
                    COMPREPLY=($(compgen -W "AGX101 AGX102 AGX103 AGX104 AGX105 AGX106 AGX107 AGX108 AGX109 AGX110 AGX111 AGX112 AGX113 AGX114 AGX115 AGX116 AGX117 AGX118 AGX119 AGX120 AGX121 AGX122 AGX123 AGX124 AGX130 AGX131 AGX132 AGX133 AGX201 AGX202 AGX203 AGX204 AGX205 AGX206 AGX207 AGX208 AGX209 AGX210 AGX211 AGX301 AGX302 AGX303 AGX304 AGX305 AGX306 AGX307 AGX308 AGX309 AGX310 AGX311 AGX312 AGX313 AGX314 AGX315 AGX401 AGX402 AGX403 AGX404 AGX405 AGX406 AGX501 AGX502 AGX503 AGX504 AGX505 AGX601 AGX602 AGX603 AGX604 AGX605 AGX606 AGX607 AGX608 AGX609 AGX610 AGX611 AGX612 AGX613 AGX701 AGX702 all" -- "${cur}"))
                    return 0
                    ;;
                --files-from)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --jobs)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -j)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__completions)
            opts="-h --help bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__convert)
            opts="-q -h --from --max-line-bytes --strict --threads --stdin-filename --thread-id --run-id --text --tool-steps --compat --target --to --stats --fail-on --allow --deny --max-per-rule --quiet --color --pace --speed --max-gap --interval --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --from)
                    COMPREPLY=($(compgen -W "auto v2 v3 sse agui" -- "${cur}"))
                    return 0
                    ;;
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stdin-filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --thread-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --run-id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --text)
                    COMPREPLY=($(compgen -W "stream final" -- "${cur}"))
                    return 0
                    ;;
                --tool-steps)
                    COMPREPLY=($(compgen -W "none reasoning" -- "${cur}"))
                    return 0
                    ;;
                --compat)
                    COMPREPLY=($(compgen -W "none thinking" -- "${cur}"))
                    return 0
                    ;;
                --target)
                    COMPREPLY=($(compgen -W "agui-1.0 agui-0.0" -- "${cur}"))
                    return 0
                    ;;
                --to)
                    COMPREPLY=($(compgen -W "sse ndjson" -- "${cur}"))
                    return 0
                    ;;
                --fail-on)
                    COMPREPLY=($(compgen -W "error warning none" -- "${cur}"))
                    return 0
                    ;;
                --allow)
                    COMPREPLY=($(compgen -W "AGX101 AGX102 AGX103 AGX104 AGX105 AGX106 AGX107 AGX108 AGX109 AGX110 AGX111 AGX112 AGX113 AGX114 AGX115 AGX116 AGX117 AGX118 AGX119 AGX120 AGX121 AGX122 AGX123 AGX124 AGX130 AGX131 AGX132 AGX133 AGX201 AGX202 AGX203 AGX204 AGX205 AGX206 AGX207 AGX208 AGX209 AGX210 AGX211 AGX301 AGX302 AGX303 AGX304 AGX305 AGX306 AGX307 AGX308 AGX309 AGX310 AGX311 AGX312 AGX313 AGX314 AGX315 AGX401 AGX402 AGX403 AGX404 AGX405 AGX406 AGX501 AGX502 AGX503 AGX504 AGX505 AGX601 AGX602 AGX603 AGX604 AGX605 AGX606 AGX607 AGX608 AGX609 AGX610 AGX611 AGX612 AGX613 AGX701 AGX702" -- "${cur}"))
                    return 0
                    ;;
                --deny)
                    COMPREPLY=($(compgen -W "AGX101 AGX102 AGX103 AGX104 AGX105 AGX106 AGX107 AGX108 AGX109 AGX110 AGX111 AGX112 AGX113 AGX114 AGX115 AGX116 AGX117 AGX118 AGX119 AGX120 AGX121 AGX122 AGX123 AGX124 AGX130 AGX131 AGX132 AGX133 AGX201 AGX202 AGX203 AGX204 AGX205 AGX206 AGX207 AGX208 AGX209 AGX210 AGX211 AGX301 AGX302 AGX303 AGX304 AGX305 AGX306 AGX307 AGX308 AGX309 AGX310 AGX311 AGX312 AGX313 AGX314 AGX315 AGX401 AGX402 AGX403 AGX404 AGX405 AGX406 AGX501 AGX502 AGX503 AGX504 AGX505 AGX601 AGX602 AGX603 AGX604 AGX605 AGX606 AGX607 AGX608 AGX609 AGX610 AGX611 AGX612 AGX613 AGX701 AGX702" -- "${cur}"))
                    return 0
                    ;;
                --max-per-rule)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --speed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-gap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__diff)
            opts="-h --old --new --exact --ignore --ignore-text --format --color --from --threads --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --old)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --new)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --ignore)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json github" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --from)
                    COMPREPLY=($(compgen -W "auto v2 v3 sse agui" -- "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__explain)
            opts="-n -h --from --max-line-bytes --strict --threads --stdin-filename --format --color --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --from)
                    COMPREPLY=($(compgen -W "auto v2 v3 sse agui" -- "${cur}"))
                    return 0
                    ;;
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stdin-filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -n)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__help)
            opts="convert check serve timeline explain diff snapshot report redact completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__help__subcmd__check)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__help__subcmd__convert)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__help__subcmd__diff)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__help__subcmd__explain)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__help__subcmd__redact)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__help__subcmd__report)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__help__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__help__subcmd__snapshot)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__help__subcmd__timeline)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__redact)
            opts="-o -h --output --keep --slim --shift-time --stdin-filename --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --keep)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shift-time)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stdin-filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__report)
            opts="-o -h --from --max-line-bytes --strict --threads --output --no-check --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --from)
                    COMPREPLY=($(compgen -W "auto v2 v3 sse agui" -- "${cur}"))
                    return 0
                    ;;
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__serve)
            opts="-q -h --conversation --listen --speed --max-gap --interval --cors --allow-host --max-body --header-timeout --body-timeout --max-connections --max-threads --shutdown-grace --from --text --tool-steps --compat --target --quiet --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --conversation)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --listen)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --speed)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-gap)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --interval)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cors)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --allow-host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-body)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --header-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --body-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-connections)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --shutdown-grace)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --from)
                    COMPREPLY=($(compgen -W "auto v2 v3 sse agui" -- "${cur}"))
                    return 0
                    ;;
                --text)
                    COMPREPLY=($(compgen -W "stream final" -- "${cur}"))
                    return 0
                    ;;
                --tool-steps)
                    COMPREPLY=($(compgen -W "none reasoning" -- "${cur}"))
                    return 0
                    ;;
                --compat)
                    COMPREPLY=($(compgen -W "none thinking" -- "${cur}"))
                    return 0
                    ;;
                --target)
                    COMPREPLY=($(compgen -W "agui-1.0 agui-0.0" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__snapshot)
            opts="-h --from --max-line-bytes --strict --threads --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --from)
                    COMPREPLY=($(compgen -W "auto v2 v3 sse agui" -- "${cur}"))
                    return 0
                    ;;
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        aguify__subcmd__timeline)
            opts="-h --from --max-line-bytes --strict --threads --stdin-filename --color --full --follow --exit-on-end --no-check --width --help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --from)
                    COMPREPLY=($(compgen -W "auto v2 v3 sse agui" -- "${cur}"))
                    return 0
                    ;;
                --max-line-bytes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threads)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --stdin-filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --width)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _aguify -o nosort -o bashdefault -o default aguify
else
    complete -F _aguify -o bashdefault -o default aguify
fi
