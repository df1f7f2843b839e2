# SPDX-License-Identifier: MIT
# own.py FILE SECS JOURNAL CMD...: runs CMD (for SECS seconds, then SIGINT;
# "-": until it ends) and writes to FILE its own CPU time in ms, every
# thread of it but without its children's (read from its zombie before it
# is reaped), less what it had used when JOURNAL (unless "-") first held
# the sweep's phase line (the builds before it are no dispatch), and its
# peak RSS in KiB (polled).
import os, signal, sys, time
secs = float(sys.argv[2]) if sys.argv[2] != "-" else None
journal = sys.argv[3] if sys.argv[3] != "-" else None
pid = os.fork()
if pid == 0:
    os.execvp(sys.argv[4], sys.argv[4:])
t0 = time.monotonic()
hwm = 0
base = 0.0

def cpu_ms():
    f = open("/proc/%d/stat" % pid).read()
    fields = f[f.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")

while True:
    if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
        break
    if journal is not None:
        try:
            if '"phase":"sweep"' in open(journal).read():
                base = cpu_ms()
                journal = None
        except OSError:
            pass
    try:
        for line in open("/proc/%d/status" % pid):
            if line.startswith("VmHWM:"):
                hwm = max(hwm, int(line.split()[1]))
    except OSError:
        pass
    if secs is not None and time.monotonic() - t0 >= secs:
        os.kill(pid, signal.SIGINT)
        secs = None
    time.sleep(0.05)
ms = cpu_ms() - base
os.waitpid(pid, 0)
open(sys.argv[1], "w").write("%.1f %d\n" % (ms, hwm))
