#!/bin/sh
# with-input.sh FILE COMMAND [ARGS...]: COMMAND with FILE as its standard
# input. The IPP programs read their input on rank 0's stdin; under
# `collectivize verify` each copy's runs get it this way (mpirun forwards
# rank 0's stdin).
f=$1
shift
exec "$@" < "$f"
