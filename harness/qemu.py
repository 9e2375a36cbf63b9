#!/usr/bin/env python3
"""Boot a kernel + initramfs in QEMU (TCG) and classify the run.

PASS     guest reported rc=0 through isa-debug-exit, no splat on the console
FAIL     guest reported a non-zero rc, or the console shows a splat
CRASH    QEMU exited without a guest report (panic=-1 + -no-reboot: panic)
TIMEOUT  the host-side timeout expired; QEMU is killed

Prints the exact command line, streams the console to --log (and to stdout
with --echo) and prints a final line "qemu: RESULT <class>".
Exit status: 0 PASS, 1 FAIL, 2 CRASH, 3 TIMEOUT.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import threading
import time

SPLAT = re.compile(
    r"(WARNING: |BUG: |BUG kernel|Oops|Kernel panic|kernel BUG at|"
    r"rcu: INFO|INFO: rcu|rcu_.*detected stall|soft lockup|hard LOCKUP|"
    r"blocked for more than|possible circular locking|possible recursive locking|"
    r"inconsistent lock state|suspicious RCU usage|DEBUG_LOCKS_WARN_ON|"
    r"lockdep is turned off|UBSAN:|KASAN:|"
    r"scheduling while atomic|sleeping function called from invalid context|"
    r"Call Trace:|list_add corruption|list_del corruption|ODEBUG|"
    r"NOHZ tick-stop error)")


def cpu_seconds(pid):
    """User + system CPU time of a process so far (all its threads)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def splats(lines):
    return [l for l in lines if SPLAT.search(l)]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--initrd", required=True)
    ap.add_argument("--append", default="")
    ap.add_argument("--smp", type=int, default=2)
    ap.add_argument("--topology", default="",
                    help="appended to -smp N, e.g. sockets=1,cores=2,threads=2")
    ap.add_argument("--mem", default="512M")
    # -cx16: QEMU 7.2's TCG (Debian 12) now and then leaves a guest with
    # EFLAGS = the low half of RDI (reserved bits 22-31 set, which no x86
    # CPU can hold) right after SLUB's per-CPU cmpxchg16b fast path in
    # kmem_cache_alloc_noprof(): a #DB (TF) or a double fault, on a CPU
    # that kidled does not touch. Without CX16, SLUB takes its other path.
    ap.add_argument("--cpu", default="max,-cx16")
    ap.add_argument("--timeout", type=int, default=1200, help="host seconds")
    ap.add_argument("--no-icount", action="store_true",
                    help="wall-clock guest time (default: -icount shift=0,sleep=off)")
    ap.add_argument("--log", required=True)
    ap.add_argument("--echo", action="store_true", help="copy the console to stdout")
    ap.add_argument("--echo-filter", default=None,
                    help="with --echo, print only lines matching this regex")
    ap.add_argument("--marks", action="store_true",
                    help="after each console line 'kidled-mark ...', log the CPU "
                         "time QEMU has used so far ('qemu: mark ... host_cpu=S')")
    a = ap.parse_args()
    if a.smp < 2:
        ap.error("kidled tests need at least 2 CPUs")

    cmdline = ("console=ttyS0 panic=-1 oops=panic softlockup_panic=0 "
               "printk.devkmsg=on " + a.append).strip()
    cmd = ["qemu-system-x86_64", "-accel", "tcg", "-cpu", a.cpu, "-smp",
           ",".join([str(a.smp)] + ([a.topology] if a.topology else [])), "-m", a.mem,
           "-nodefaults", "-no-reboot", "-nographic", "-serial", "stdio",
           "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
           "-kernel", a.kernel, "-initrd", a.initrd, "-append", cmdline]
    if not a.no_icount:
        cmd[5:5] = ["-icount", "shift=0,sleep=off"]
    print("qemu: " + " ".join(shlex.quote(c) for c in cmd), flush=True)

    flt = re.compile(a.echo_filter) if a.echo_filter else None
    lines = []
    start = time.time()
    with open(a.log, "w", errors="replace") as log:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        timed_out = threading.Event()

        def watchdog():
            try:
                proc.wait(timeout=a.timeout)
            except subprocess.TimeoutExpired:
                timed_out.set()
                proc.kill()
        threading.Thread(target=watchdog, daemon=True).start()
        for raw in proc.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            lines.append(line)
            if a.marks and line.startswith("kidled-mark "):
                line += f"\nqemu: mark {line[12:]} host_cpu={cpu_seconds(proc.pid):.3f}"
            log.write(line + "\n")
            log.flush()
            if a.echo and (flt is None or flt.search(line)):
                print(line, flush=True)
        rc = proc.wait()
    elapsed = time.time() - start
    bad = splats(lines)
    if timed_out.is_set():
        result, code = "TIMEOUT", 3
    elif rc & 1 and rc >= 1:
        guest_rc = rc >> 1
        result, code = ("PASS", 0) if guest_rc == 0 else ("FAIL", 1)
    else:
        result, code = "CRASH", 2
    if bad and result == "PASS":
        result, code = "FAIL", 1
    for l in bad[:20]:
        print("qemu: splat: " + l, flush=True)
    print(f"qemu: RESULT {result} (qemu exit {rc}, {elapsed:.0f}s host time, log {a.log})",
          flush=True)
    with open(a.log + ".result", "w") as f:
        f.write(f"RESULT {result}\n")
    return code


if __name__ == "__main__":
    sys.exit(main())
