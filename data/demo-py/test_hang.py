# SPDX-License-Identifier: MIT
# Hangs in about one run in four: waits for an event nobody sets.
import os
import threading


def test_sometimes_hangs():
    if os.urandom(1)[0] < 64:
        threading.Event().wait()
