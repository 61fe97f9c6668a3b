#!/bin/bash
# fetch-sources.sh [NAME...]: clone the suite's programs (SOURCES.tsv:
# name, repository, commit) into $REALCODE_SRC (default
# ~/.cache/collectivize-realcode), each checked out at its recorded commit.
# Existing clones are left as they are. Needs network access to github.com.
set -u
here=$(cd "$(dirname "$0")" && pwd)
dest_root=${REALCODE_SRC:-${XDG_CACHE_HOME:-$HOME/.cache}/collectivize-realcode}
mkdir -p "$dest_root"
status=0
while IFS=$'\t' read -r name repo commit date; do
  [ "$name" = name ] && continue
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  dest=$dest_root/$name
  if [ -d "$dest" ]; then echo "$name: $dest exists, kept"; continue; fi
  if git clone -q "https://github.com/$repo" "$dest" && git -C "$dest" checkout -q "$commit"; then
    echo "$name: $repo @ ${commit:0:10} ($date) -> $dest"
  else
    echo "$name: could not clone https://github.com/$repo at $commit (network? moved repository?)" >&2
    rm -rf "$dest"; status=1
  fi
done < "$here/SOURCES.tsv"
exit $status
