# SPDX-License-Identifier: MIT
# test_needs_two_cores fails only with one core. os.cpu_count() is the
# machine's unless flakesweep's CPU-count shim is preloaded; the cores the
# run is pinned to (sched_getaffinity) say the same without it.
import os
import time


def cores():
    return min(os.cpu_count() or 1, len(os.sched_getaffinity(0)))


def test_needs_two_cores():
    assert cores() >= 2, "needs two cores, has %d" % cores()


def test_reads_the_clock():
    assert time.time() > 0
