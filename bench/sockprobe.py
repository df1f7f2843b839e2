# SPDX-License-Identifier: MIT
# sockprobe.py SOCKET SECS: for SECS seconds, every 10 ms, one command
# to a sweep's control socket (a command it does not know: the reply is
# an error, and nothing changes) and one line to a trivial echo server on
# a unix socket that this script starts in a process of its own, probed
# in turn, each first every other time; prints "CONTROL_P50 CONTROL_P99
# ECHO_P50 ECHO_P99 PROBES", in ms of reply latency.
import os, socket, sys, tempfile, time

path, secs = sys.argv[1], float(sys.argv[2])
echo_path = os.path.join(tempfile.mkdtemp(), "echo.sock")
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(echo_path)
srv.listen(1)
pid = os.fork()
if pid == 0:
    c, _ = srv.accept()
    while True:
        data = c.recv(65536)
        if not data:
            os._exit(0)
        c.sendall(data)
srv.close()
echo = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
echo.connect(echo_path)
ctl = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
ctl.connect(path)
ctl_in = ctl.makefile("rb")
echo_in = echo.makefile("rb")

def ask_control(n):
    t = time.monotonic()
    ctl.sendall(b'{"cmd":"probe","id":%d}\n' % n)
    while True:
        line = ctl_in.readline()
        if not line:
            raise SystemExit("the control socket closed")
        if b'"reply"' in line and b'"id":%d' % n in line:
            return (time.monotonic() - t) * 1000

def ask_echo(n):
    t = time.monotonic()
    echo.sendall(b'{"cmd":"probe","id":%d}\n' % n)
    echo_in.readline()
    return (time.monotonic() - t) * 1000

def pct(v, q):
    v = sorted(v)
    return v[min(len(v) - 1, int(q * len(v)))]

ctl_ms, echo_ms = [], []
end = time.monotonic() + secs
n = 0
while time.monotonic() < end:
    n += 1
    # Each goes first every other time: the first after the sleep is
    # slower (by 1.5-2x at the p99 on a loaded machine), whichever it is.
    if n % 2:
        ctl_ms.append(ask_control(n))
        echo_ms.append(ask_echo(n))
    else:
        echo_ms.append(ask_echo(n))
        ctl_ms.append(ask_control(n))
    time.sleep(0.01)
ctl.sendall(b'{"cmd":"stop"}\n')
echo.shutdown(socket.SHUT_RDWR)
os.waitpid(pid, 0)
print("%.2f %.2f %.2f %.2f %d" % (pct(ctl_ms, 0.5), pct(ctl_ms, 0.99), pct(echo_ms, 0.5),
                                  pct(echo_ms, 0.99), n))
