# help2man-layout.awk: a collectivize help text in the layout help2man reads.
# help2man takes a synopsis from "Usage:" and "  or: ..." lines only; the
# help texts say "usage:", put other forms on indented lines starting with
# a command, and wrap a long form onto further indented lines.
NR == 1 && sub(/^usage:/, "Usage:") { usage = $0; inUsage = 1; next }
inUsage && /^ +[a-z][a-z-]* / && !/^ +\[/ {        # another form of the command
  print usage; sub(/^ +/, ""); usage = "  or: " $0; next
}
inUsage && /^ +/ { sub(/^ +/, " "); usage = usage $0; next } # a wrapped form
inUsage { print usage; inUsage = 0 }
{ print }
END { if (inUsage) print usage }
