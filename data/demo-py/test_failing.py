# SPDX-License-Identifier: MIT
# Fails every run.


def test_always_fails():
    assert 2 + 2 == 5
