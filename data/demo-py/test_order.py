# SPDX-License-Identifier: MIT
# An order-dependent pair: test_set_verbose changes module state and never
# restores it; test_output_quiet_by_default fails when it runs after it.
state = {"verbose": False}


def test_output_quiet_by_default():  # the victim
    assert state["verbose"] is False


def test_set_verbose():  # the polluter
    state["verbose"] = True
