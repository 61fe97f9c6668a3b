# A detection report (text or JSON) without what differs from run to run
# whatever the clocks: the time messages took, the trace's name.
/^report written/d
s/[0-9.e+-]+ ms in messages/X ms in messages/
s/"seconds_in_messages": [0-9.e+-]+/"seconds_in_messages": X/
s#"trace": "[^"]*"#"trace": X#
s#^trace [^:]*:#trace X:#
