
# The completing function; the tables above say what there is to offer.
# COMP_WORDS: collectivize VERB [SUBVERB] ... (`help VERB` and `help env` too).
_collectivize() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local verb=${COMP_WORDS[1]-} key value
  COMPREPLY=()
  if ((COMP_CWORD == 1)); then
    COMPREPLY=($(compgen -W "$_collectivize_verbs help $_collectivize_main_options" -- "$cur"))
    return
  fi
  if [[ $verb == help ]]; then
    ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "$_collectivize_verbs env" -- "$cur"))
    return
  fi
  [[ " $_collectivize_verbs " == *" $verb "* ]] || return
  key=$verb
  if [[ -n ${_collectivize_subverbs[$verb]+set} ]]; then
    if ((COMP_CWORD == 2)); then
      COMPREPLY=($(compgen -W "${_collectivize_subverbs[$verb]}" -- "$cur"))
      return
    fi
    # A subverb's own options (none is none: not the verb's others').
    [[ " ${_collectivize_subverbs[$verb]} " == *" ${COMP_WORDS[2]} "* ]] &&
      key="$verb ${COMP_WORDS[2]}"
  fi
  value=${_collectivize_values[$key.$prev]-}
  case $value in
    dir) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    words\ *) COMPREPLY=($(compgen -W "${value#words }" -- "$cur")); return ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "${_collectivize_options[$key]-} --help" -- "$cur"))
    return
  fi
  COMPREPLY=($(compgen -f -- "$cur")) # operands: traces, patches, reports, programs
}
complete -o filenames -F _collectivize collectivize
