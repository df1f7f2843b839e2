# SPDX-License-Identifier: MIT
# Fails about one run in four: it draws from the system's randomness.
import os


def test_coin_flip():
    assert os.urandom(1)[0] >= 64, "the coin came up tails"
