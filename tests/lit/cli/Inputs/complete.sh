# complete.sh SCRIPT LINE: sources the bash completion SCRIPT and prints, one per
# line and sorted, what it offers for the last word of LINE (a LINE ending in
# a blank completes a new, empty word), as bash would on <TAB>.
source "$1"
read -r -a COMP_WORDS <<< "$2"
[[ $2 == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_collectivize
((${#COMPREPLY[@]} == 0)) || printf "%s\n" "${COMPREPLY[@]}" | LC_ALL=C sort
