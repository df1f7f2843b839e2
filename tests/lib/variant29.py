# SPDX-License-Identifier: MIT
# The journal tail the variant29 episode scripts write as a sweep would:
# spawn and run lines in time order, every run overlapping the next (after
# 16 run lines that say so, a defaults line makes it the default), then the
# confirm phase, the end and the done phase.


def write_events(w, events, finished, confirm_after, done_after):
    events.sort(key=lambda e: (e[0], e[1]))
    said = 0
    for _, kind, o in events:
        if kind == 1:
            if said < 16:
                o["overlapped"] = True
            said += 1
        w(o)
        if kind == 1 and said == 16:
            w({"type": "defaults", "overlapped": True})
    end = events[-1][0]
    w({"type": "phase", "phase": "confirm", "at_ms": end + confirm_after})
    w({"type": "end", "status": "complete", "finished": finished})
    w({"type": "phase", "phase": "done", "at_ms": end + done_after})
