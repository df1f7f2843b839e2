# SPDX-License-Identifier: MIT
"""flakesweep_ledger: a pytest plugin that records which ambient inputs each
test reads, for `flakesweep gate` and `flakesweep quarantine` (man 5
flakesweep, AMBIENT LEDGER).

For every test it appends one JSON line to the ledger:

    {"test": "tests/test_x.py::test_y", "outcome": "passed", "channels": ["clock"]}

The channels are:

  clock     the wall clock: time.time(), time.time_ns(), datetime.now(),
            datetime.utcnow(), datetime.today(), date.today()
  rng       the shared random generator (the random module's functions) and
            the system's randomness (os.urandom, hence uuid4 and secrets)
  net       a connect, bind or send on an IPv4 or IPv6 socket, or a name lookup
  env:NAME  a read of the environment variable NAME through os.environ or
            os.getenv

Reads are seen through a profile hook (sys.setprofile, and threading.setprofile
for threads started during the test) while the test's setup, call and teardown
run, so aliases such as `from time import time` are seen too. Reads made by
pytest, pluggy, the logging module and this plugin are not counted. Not seen:
monotonic clocks, subprocesses, C extensions that read the clock or the
environment themselves, and threads started before the test.

Use it with the plugin's directory on PYTHONPATH (make install puts it in
$(pkgdatadir)):

    PYTHONPATH=/usr/local/share/flakesweep \\
        python3 -m pytest -p flakesweep_ledger --flakesweep-ledger=ledger.jsonl

or set FLAKESWEEP_LEDGER instead of the option. Lines are appended, so several
sessions into one file are several runs of each test; remove the file first
for a fresh ledger.

It is also the reporter of `flakesweep --driver pytest`. With
--flakesweep-report-fd=N (or FLAKESWEEP_REPORT_FD=N) it writes one JSON line
per event to the inherited file descriptor N, never to standard output:

    {"event": "collected", "seed": "42", "tests": 7}
    {"event": "start", "test": "t/test_x.py::test_y"}
    {"event": "result", "test": "t/test_x.py::test_y", "outcome": "failed",
     "channels": ["clock"], "ms": 12, "lines": "..."}

("ms": the test's setup, call and teardown times together, in ms.)
    {"event": "error", "lines": "..."}        (a collection error)
    {"event": "done", "exitstatus": 1}

A test's start is written before it runs, so a run that hangs names it; on
SIGTERM every thread's stack is dumped to the same descriptor (faulthandler),
as plain lines that are not JSON; without a report descriptor, to standard
error. --flakesweep-seed=N shuffles the collected
tests with random.Random(N), so a run's order can be replayed;
--flakesweep-run=RE and --flakesweep-skip=RE keep or drop tests whose node id
matches the Python regular expression RE, after the shuffle: the tests kept
run in the order the whole file ran in under that seed. Without a ledger path, a report
descriptor or a seed the plugin does nothing.
"""

import collections.abc
import datetime
import faulthandler
import json
import logging
import os
import random
import re
import signal
import socket
import sys
import threading
import time

import _socket

import pytest

_HERE = os.path.abspath(__file__)
if _HERE.endswith((".pyc", ".pyo")):
    _HERE = _HERE[:-1]

_CLOCK_TIME = {"time", "time_ns"}
_CLOCK_DATETIME = {"now", "utcnow", "today"}
_RNG_METHODS = {"random", "getrandbits"}
_RNG_OS = {"urandom", "getrandom"}
# os.urandom belongs to the native module os wraps (posix, nt).
_OS_NATIVE = sys.modules.get(os.name, os)
_NET_METHODS = {"connect", "connect_ex", "bind", "sendto", "sendmsg"}
_NET_LOOKUPS = {
    "getaddrinfo",
    "gethostbyname",
    "gethostbyname_ex",
    "gethostbyaddr",
    "getnameinfo",
}
_INET = {socket.AF_INET, getattr(socket, "AF_INET6", socket.AF_INET)}
_ENV_GETITEM = type(os.environ).__getitem__.__code__
# The files an environment read passes through on its way from the caller
# (os.getenv, Mapping.get, Mapping.__contains__). Code names are used, not
# __file__, because Python 3.11 freezes these modules.
_ENV_WRAPPERS = {
    os.getenv.__code__.co_filename,
    collections.abc.Mapping.get.__code__.co_filename,
}


def _internal_prefixes():
    """Directories whose reads belong to the test runner, not to the test."""
    import _pytest
    import pluggy

    dirs = [
        os.path.dirname(os.path.abspath(_pytest.__file__)),
        os.path.dirname(os.path.abspath(pluggy.__file__)),
        os.path.dirname(logging.Logger.info.__code__.co_filename),
    ]
    return tuple(d + os.sep for d in dirs)


class _Recorder:
    """Collects the channels of the test that is running, if any."""

    def __init__(self):
        self.channels = None
        self.internal = _internal_prefixes()

    def _internal(self, frame):
        name = frame.f_code.co_filename
        return name == _HERE or name.startswith(self.internal)

    def _mark(self, channel):
        channels = self.channels
        if channels is not None:
            channels.add(channel)

    def profile(self, frame, event, arg):
        if self.channels is None:
            return
        if event == "c_call":
            # Identity tests only: the owner may be any object, even one
            # that cannot be hashed or compared.
            owner = getattr(arg, "__self__", None)
            name = getattr(arg, "__name__", None)
            if owner is None or name is None:
                return
            if owner is time:
                hit = "clock" if name in _CLOCK_TIME else None
            elif owner is datetime.datetime:
                hit = "clock" if name in _CLOCK_DATETIME else None
            elif owner is datetime.date:
                hit = "clock" if name == "today" else None
            elif owner is _OS_NATIVE:
                hit = "rng" if name in _RNG_OS else None
            elif owner is getattr(random, "_inst", None):
                hit = "rng" if name in _RNG_METHODS else None
            elif owner is _socket:
                hit = "net" if name in _NET_LOOKUPS else None
            elif isinstance(owner, _socket.socket):
                hit = "net" if name in _NET_METHODS and owner.family in _INET else None
            else:
                return
            if hit is not None and not self._internal(frame):
                self._mark(hit)
        elif event == "call" and frame.f_code is _ENV_GETITEM:
            key = frame.f_locals.get("key")
            caller = frame.f_back
            while caller is not None and caller.f_code.co_filename in _ENV_WRAPPERS:
                caller = caller.f_back
            if isinstance(key, str) and (caller is None or not self._internal(caller)):
                self._mark("env:" + key)

    def start(self, channels):
        self.channels = channels
        threading.setprofile(self.profile)
        sys.setprofile(self.profile)

    def stop(self):
        sys.setprofile(None)
        threading.setprofile(None)
        self.channels = None


_RANK = {"passed": 0, "skipped": 1, "error": 2, "failed": 3}
_LINES_CAP = 8192


class _Tracker:
    """Each running test's channels, worst outcome and failure text, for the
    ledger and the report alike."""

    def __init__(self):
        self.recorder = _Recorder()
        self.channels = {}
        self.outcomes = {}
        self.lines = {}
        self.durations = {}

    def phase(self, item):
        channels = self.channels.setdefault(item.nodeid, set())
        self.recorder.start(channels)

    def report(self, item, report):
        self.durations[item.nodeid] = self.durations.get(item.nodeid, 0.0) + report.duration
        if report.failed:
            outcome = "failed" if report.when == "call" else "error"
            text = report.longreprtext
            for name, content in report.sections:
                text += "\n----- %s -----\n%s" % (name, content)
            old = self.lines.get(item.nodeid, "")
            self.lines[item.nodeid] = (old + text)[:_LINES_CAP]
        elif report.skipped:
            outcome = "skipped"
        else:
            outcome = "passed"
        old = self.outcomes.get(item.nodeid, "passed")
        if _RANK[outcome] > _RANK[old]:
            old = outcome
        self.outcomes[item.nodeid] = old

    def take(self, item):
        """The finished test's (outcome, sorted channels, failure text, ms)."""
        return (
            self.outcomes.pop(item.nodeid, "passed"),
            sorted(self.channels.pop(item.nodeid, set())),
            self.lines.pop(item.nodeid, None),
            int(round(self.durations.pop(item.nodeid, 0.0) * 1000)),
        )


class _Ledger:
    def __init__(self, path):
        self.path = path

    def write(self, nodeid, outcome, channels):
        line = json.dumps({"test": nodeid, "outcome": outcome, "channels": channels})
        parent = os.path.dirname(self.path)
        if parent:
            os.makedirs(parent, exist_ok=True)
        # One write of a whole line to a file opened for appending, so
        # concurrent sessions (pytest-xdist workers) do not tear lines.
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, (line + "\n").encode("utf-8"))
        finally:
            os.close(fd)


# The real standard error, taken before pytest captures descriptor 2 (None
# when the process has none).
try:
    _STDERR = os.dup(2)
except OSError:
    _STDERR = None


class _Report:
    """The event stream on an inherited descriptor (flakesweep --driver
    pytest). Lines are written whole, by one write each."""

    def __init__(self, fd):
        self.fd = fd
        # On the time limit flakesweep sends SIGTERM: every thread's stack
        # goes to the report, then the signal's default action ends the run.
        faulthandler.register(signal.SIGTERM, file=fd, all_threads=True, chain=True)

    def event(self, **fields):
        data = (json.dumps(fields) + "\n").encode("utf-8")
        while data:
            data = data[os.write(self.fd, data) :]

    def close(self):
        faulthandler.unregister(signal.SIGTERM)


_TRACKER = pytest.StashKey[_Tracker]()
_STASH = pytest.StashKey[_Ledger]()
_REPORT = pytest.StashKey[_Report]()


def pytest_addoption(parser):
    group = parser.getgroup("flakesweep")
    group.addoption(
        "--flakesweep-ledger",
        metavar="FILE",
        default=None,
        help="append each test's ambient channels to FILE (JSON lines); "
        "default: $FLAKESWEEP_LEDGER, or off",
    )
    group.addoption(
        "--flakesweep-tap",
        action="store_true",
        default=False,
        help="print one TAP 13 test point per test on standard output, each "
        "named by a '# Subtest: NODEID' line before it runs and followed by its "
        "failure as comments, so flakesweep --driver tap can sweep pytest tests "
        "(use with -p no:terminal)",
    )
    group.addoption(
        "--flakesweep-report-fd",
        metavar="N",
        type=int,
        default=None,
        help="write the run's events (JSON lines) to the inherited descriptor N; "
        "default: $FLAKESWEEP_REPORT_FD, or off",
    )
    group.addoption(
        "--flakesweep-seed",
        metavar="N",
        default=None,
        help="shuffle the collected tests with seed N",
    )
    group.addoption(
        "--flakesweep-run",
        metavar="RE",
        default=None,
        help="keep only tests whose node id matches the regular expression RE",
    )
    group.addoption(
        "--flakesweep-skip",
        metavar="RE",
        default=None,
        help="drop tests whose node id matches the regular expression RE",
    )
class _Tap:
    """TAP 13 on the process's standard output: one point per test, named by
    its node id, failing when any phase failed. "# Subtest: NODEID" names
    the test before it runs, so a run killed while it hangs charges the hang
    to it; the failure's text follows its "not ok" as comment lines."""

    def __init__(self):
        self.n = 0
        self.failed = {}
        self.skipped = {}
        os.write(1, b"TAP version 13\n")

    def announce(self, nodeid):
        os.write(1, ("# Subtest: %s\n" % nodeid).encode("utf-8", "replace"))

    def report(self, report):
        if report.failed:
            old = self.failed.get(report.nodeid, "")
            self.failed[report.nodeid] = (old + report.longreprtext + "\n")[:_LINES_CAP]
        elif report.skipped:
            self.skipped[report.nodeid] = True

    def point(self, nodeid):
        self.n += 1
        name = nodeid.replace("\\", "\\\\").replace("#", "\\#")
        failure = self.failed.pop(nodeid, None)
        if failure is not None:
            line = "not ok %d - %s" % (self.n, name)
            for text in failure.splitlines():
                line += "\n# " + text
        elif self.skipped.pop(nodeid, False):
            line = "ok %d - %s # SKIP" % (self.n, name)
        else:
            line = "ok %d - %s" % (self.n, name)
        os.write(1, (line + "\n").encode("utf-8"))

    def close(self):
        os.write(1, ("1..%d\n" % self.n).encode("utf-8"))


_TAP = pytest.StashKey[_Tap]()


def pytest_sessionstart(session):
    if session.config.getoption("--flakesweep-tap"):
        session.config.stash[_TAP] = _Tap()


def pytest_sessionfinish(session, exitstatus):
    tap = session.config.stash.get(_TAP, None)
    if tap is not None:
        tap.close()
    report = session.config.stash.get(_REPORT, None)
    if report is not None:
        report.event(event="done", exitstatus=int(exitstatus))
        report.close()


# pytest_collectreport gets no config: the session's is kept here.
_CONFIGS = []


def pytest_configure(config):
    _CONFIGS.append(config)
    if not hasattr(config.option, "verbose"):
        # -p no:terminal drops the option that assertion messages read.
        config.option.verbose = 0
    path = config.getoption("--flakesweep-ledger") or os.environ.get("FLAKESWEEP_LEDGER")
    fd = config.getoption("--flakesweep-report-fd")
    if fd is None and os.environ.get("FLAKESWEEP_REPORT_FD", "").isdigit():
        fd = int(os.environ["FLAKESWEEP_REPORT_FD"])
    if path:
        config.stash[_STASH] = _Ledger(os.path.abspath(path))
    if fd is not None:
        config.stash[_REPORT] = _Report(fd)
    elif _STDERR is not None:
        # A reproduce command under timeout(1) shows the stacks too.
        faulthandler.register(signal.SIGTERM, file=_STDERR, all_threads=True, chain=True)
    if path or fd is not None:
        config.stash[_TRACKER] = _Tracker()


def pytest_collectreport(report):
    if report.failed:
        for config in _CONFIGS:
            out = config.stash.get(_REPORT, None)
            if out is not None:
                out.event(event="error", lines=report.longreprtext[:_LINES_CAP])


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    # Shuffled before the filter: a subset keeps the whole run's order, so
    # a polluter search can replay a pair as it ran.
    seed = config.getoption("--flakesweep-seed")
    if seed is not None:
        random.Random(seed).shuffle(items)
    keep = config.getoption("--flakesweep-run")
    drop = config.getoption("--flakesweep-skip")
    if keep is not None or drop is not None:
        chosen, gone = [], []
        for item in items:
            if (keep is None or re.search(keep, item.nodeid)) and (
                drop is None or not re.search(drop, item.nodeid)
            ):
                chosen.append(item)
            else:
                gone.append(item)
        if gone:
            config.hook.pytest_deselected(items=gone)
            items[:] = chosen
    report = config.stash.get(_REPORT, None)
    if report is not None:
        report.event(event="collected", seed=seed, tests=len(items))


def _recorded(item):
    """The body of each phase's hook wrapper: record the phase's reads."""
    tracker = item.config.stash.get(_TRACKER, None)
    if tracker is not None:
        tracker.phase(item)
    try:
        yield
    finally:
        if tracker is not None:
            tracker.recorder.stop()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    yield from _recorded(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    yield from _recorded(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    yield from _recorded(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    tracker = item.config.stash.get(_TRACKER, None)
    if tracker is not None:
        tracker.report(item, outcome.get_result())
    tap = item.config.stash.get(_TAP, None)
    if tap is not None:
        tap.report(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    report = item.config.stash.get(_REPORT, None)
    if report is not None:
        report.event(event="start", test=item.nodeid)
    tap = item.config.stash.get(_TAP, None)
    if tap is not None:
        tap.announce(item.nodeid)
    yield
    tracker = item.config.stash.get(_TRACKER, None)
    if tracker is not None:
        outcome, channels, lines, ms = tracker.take(item)
        ledger = item.config.stash.get(_STASH, None)
        if ledger is not None:
            ledger.write(item.nodeid, outcome, channels)
        if report is not None:
            fields = {"outcome": outcome, "channels": channels, "ms": ms}
            if lines is not None:
                fields["lines"] = lines
            report.event(event="result", test=item.nodeid, **fields)
    if tap is not None:
        tap.point(item.nodeid)
