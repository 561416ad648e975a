#!/bin/bash
# cli_conventions_test.sh BIN - the command line's conventions (issue 17
# item 7): one short option, one meaning, in every command.  Runs every
# command's --help (the commands as 'onnxcost --help' lists them), takes
# each "  -X, --long" line, and fails when one letter stands for two long
# options, naming both and their commands.  A letter that getopt accepts
# but --help does not show is caught too: each command is run with every
# letter its help does not list, and must refuse it as an unknown option
# (before doing anything else: getopt stops there).
BIN=${1:?usage: cli_conventions_test.sh BIN}
fail=0
cmds=$("$BIN" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
[ -n "$cmds" ] || { echo "FAIL: no commands in 'onnxcost --help'"; exit 1; }
declare -A meaning
for c in $cmds; do
    help=$("$BIN" "$c" --help) || { echo "FAIL: $c --help exits $?"; fail=1; continue; }
    shorts=""
    while read -r short long; do
        shorts+=${short#-}
        prev=${meaning[$short]}
        if [ -n "$prev" ] && [ "${prev%% *}" != "$long" ]; then
            echo "FAIL: $short means ${prev%% *} (${prev#* }) and $long ($c)"
            fail=1
        elif [ -z "$prev" ]; then
            meaning[$short]="$long $c"
        fi
    done < <(printf '%s\n' "$help" | sed -nE 's/^  (-[A-Za-z0-9]), (--[a-z0-9-]+).*/\1 \2/p')
    # no hidden short option: every letter --help does not show is refused
    for l in {a..z} {A..Z}; do
        case $shorts in *"$l"*) continue ;; esac
        err=$("$BIN" "$c" "-$l" x 2>&1 >/dev/null </dev/null)
        rc=$?
        if [ $rc -ne 1 ] || [[ $err != *"unknown option '-$l'"* ]]; then
            echo "FAIL: $c accepts -$l (exit $rc: $err) but its --help does not show it"
            fail=1
        fi
    done
done
for s in "${!meaning[@]}"; do n=$((n + 1)); done
echo "cli_conventions: ${n:-0} short options over $(echo $cmds | wc -w) commands, $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
