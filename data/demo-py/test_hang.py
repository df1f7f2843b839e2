# SPDX-License-Identifier: MIT
# Hangs sometimes: waits for an event nobody sets. Under flakesweep it hangs
# in the sweep's third run only, so that a short sweep shows one hang and
# not many time limits' worth of them; run by hand, in one run in two.
import os
import threading


def test_sometimes_hangs():
    run = os.environ.get("FLAKESWEEP_RUN")
    if run == "3" if run is not None else os.urandom(1)[0] < 128:
        threading.Event().wait()
