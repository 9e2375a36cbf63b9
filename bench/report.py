#!/usr/bin/env python3
"""Write report.md and the plots of a make bench run.

Reads RESULTS/{patched,baseline,halt}.txt (the "bench:" lines of the
guests, see guest/bench.sh) and writes RESULTS/report.md, RESULTS/*.png
(gnuplot) and the plots' data files.
"""
import argparse
import os
import re
import statistics
import subprocess

MECHS = ["kidled-lazy", "kidled-eager", "idle_inject", "cpu.max"]
WAKE = ["none", "kidled-interactive", "kidled-batch", "idle_inject", "cpu.max"]


def records(path, kind):
    out = []
    if not os.path.exists(path):
        return out
    for line in open(path):
        m = re.match(r"^bench: (\w+) (.*)$", line.strip())
        if m and m.group(1) == kind:
            out.append(dict(kv.split("=", 1) for kv in m.group(2).split() if "=" in kv))
    return out


def table(head, rows):
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def gnuplot(script):
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"report: gnuplot failed ({e}); plots missing")


def accuracy(res, recs, md, verdict):
    md.append("## 1. Accuracy: achieved idle vs target\n")
    md.append("Achieved idle = 1 - the CPU share a pinned always-running task got over a "
              "window of whole intervals starting when the mechanism was switched on "
              "(3 s; 4 s at 500 ms). kidled-lazy: the task is in a power-interactive group "
              "(injection at the end of the interval); kidled-eager: in a batch group; "
              "idle_inject: idle = target x interval every interval; cpu.max: the task's "
              "group gets quota (1 - target) x interval per interval.\n")
    worst = {}
    for iv in ("10", "100", "500"):
        rows = []
        for t in range(10, 100, 10):
            row = [f"{t}%"]
            for m in MECHS:
                r = [x for x in recs if x["mech"] == m and x["interval"] == iv
                     and x["target"] == str(t)]
                if not r:
                    row.append("-")
                    continue
                idle = 100 * (1 - float(r[0]["share"]))
                worst[m] = max(worst.get(m, 0), abs(idle - t))
                row.append(f"{idle:.2f}")
            rows.append(row)
        md.append(f"**Interval {iv} ms** (achieved idle %)\n\n" + table(["target"] + MECHS, rows))
        with open(os.path.join(res, f"accuracy-{iv}.dat"), "w") as f:
            f.write("# target " + " ".join(MECHS) + "\n")
            for row in rows:
                f.write(" ".join(c.rstrip("%") if c != "-" else "NaN" for c in row) + "\n")
    md.append("Largest error (points): " + ", ".join(f"{m} {worst[m]:.2f}" for m in MECHS
                                                    if m in worst) + "\n")
    k = max(worst.get("kidled-lazy", 99), worst.get("kidled-eager", 99))
    verdict.append(("accuracy within 0.5 points (kidled, all targets and intervals)",
                    f"{k:.2f} points", k <= 0.5))
    plots = []
    for i, iv in enumerate(("10", "100", "500")):
        dat = os.path.join(res, f"accuracy-{iv}.dat")
        lines = ", ".join(f"'{dat}' using 1:{j + 2} with linespoints title '{m}'"
                          for j, m in enumerate(MECHS))
        plots.append(f"set title 'interval {iv} ms'\nplot x with lines dt 2 lc 'black' "
                     f"title 'ideal', {lines}\n")
    gnuplot("set terminal pngcairo size 1500,500 noenhanced\n"
            f"set output '{os.path.join(res, 'accuracy.png')}'\n"
            "set multiplot layout 1,3\nset xlabel 'target idle %'\nset ylabel 'achieved idle %'\n"
            "set xrange [0:100]\nset yrange [0:100]\nset key top left\nset grid\n"
            + "".join(plots) + "unset multiplot\n")


def protection(res, recs, cdfs, md, verdict):
    md.append("## 2. Interactive protection\n")
    md.append("A task sleeping 1 ms in a loop (timer slack 1 ns) shares the CPU with an "
              "always-running task for 10 s, 100 ms interval. Lost wakeups: fewer completed "
              "sleeps than with no capping. Latency: how late each wakeup came. A spike is a "
              "wakeup late by 1 ms or more (a missed period); 'by injection' counts the spikes "
              "an injection held up: one was in progress halfway through the delay, "
              "according to the trace (kidled_inject_begin/end events for kidled, "
              "sched_switch to and from idle_inject/N for idle_inject). 'wake cost' is the "
              "part of 'lost' that the higher p50 alone explains (extra latency per wakeup "
              "x wakeups / 1 ms): under -icount every instruction of the path out of forced "
              "idle is a nanosecond. 'idle': the sleeper alone, waking from natural idle; "
              "kidled-interactive runs untraced, kidled-interactive-traced is the same run "
              "with the kidled trace events on, for 'by injection'. "
              "kidled-interactive: the sleeper is in a power-interactive group, the hog in a "
              "batch group; kidled-batch: both batch. cpu.max caps the hog's group.\n")
    base = [r for r in recs if r["mech"] == "none"]
    base_n = int(base[0]["count"]) if base else 0
    base_p99 = float(base[0]["p99_us"]) if base else 0
    nat = [r for r in recs if r["mech"] == "idle"]
    traced = {r["target"]: r for r in recs if r["mech"] == "kidled-interactive-traced"}
    rows = []
    for r in recs:
        n = int(r["count"])
        lost = max(0, base_n - n)
        base_p50 = float(base[0]["p50_us"]) if base else 0
        wake_cost = max(0, (float(r["p50_us"]) - base_p50) * n / 1000)
        rows.append([r["mech"], r["target"] + "%", n, lost, f"{100 * lost / base_n:.3f}%" if base_n else "-",
                     f"{wake_cost:.0f}", r["p50_us"], r["p99_us"], r["max_us"], r["spikes"],
                     r.get("spikes_in_injection", "-")])
        if r["mech"] == "kidled-interactive" and r["target"] == "80":
            pct = 100 * lost / base_n if base_n else 100
            tr = traced.get("80", {})
            for bound in (0.02, 0.05):  # issue 5's target, then issue 16's
                verdict.append((f"interactive lost wakeups <= {bound}% at 80%",
                                f"{lost} of {base_n} ({pct:.3f}%); the wake cost explains "
                                f"{wake_cost:.0f}, injections held up "
                                f"{tr.get('spikes_in_injection', '?')} of "
                                f"{tr.get('spikes', '?')} spikes (traced run)",
                                pct <= bound))
            for q in ("p50", "p99"):
                if not nat:
                    break
                v, b = float(r[q + "_us"]), float(nat[0][q + "_us"])
                verdict.append((f"interactive {q} out of eager injection within 10% of natural "
                                "idle at 80%", f"{v:.1f} us vs {b:.1f} us ({100 * (v - b) / b:+.0f}%)",
                                v <= 1.1 * b))
            p99 = float(r["p99_us"])
            verdict.append(("interactive p99 latency within 2x of uncapped at 80%",
                            f"{p99:.1f} us vs {base_p99:.1f} us", p99 <= 2 * base_p99))
    md.append(table(["mechanism", "target", "wakeups", "lost", "lost %", "wake cost", "p50 us",
                     "p99 us", "max us", "spikes", "by injection"], rows))
    for t in ("50", "80"):
        cur = [c for c in cdfs if c["target"] in (t, "0")]
        if len(cur) < 2:
            continue
        dat = os.path.join(res, f"latency-{t}.dat")
        with open(dat, "w") as f:
            f.write("# fraction-later-than latency-us, per mechanism: " +
                    " ".join(c["mech"] for c in cur) + "\n")
            for c in cur:
                f.write(f"# {c['mech']}\n")
                for q, us in zip(c["q"].split(","), c["us"].split(",")):
                    later = max(1 - float(q) / 100, 1e-5)
                    f.write(f"{later:.5f} {max(float(us), 0.1)}\n")
                f.write("\n\n")
        lines = ", ".join(f"'{dat}' index {j} using 2:1 with steps title '{c['mech']}'"
                          for j, c in enumerate(cur))
        gnuplot("set terminal pngcairo size 900,550 noenhanced\n"
                f"set output '{os.path.join(res, f'latency-{t}.png')}'\n"
                f"set title 'wakeup latency of a 1 ms sleeper next to a hog, {t}% target'\n"
                "set logscale xy\nset format y '%g'\nset xlabel 'latency (us)'\n"
                "set ylabel 'fraction of wakeups later than that'\n"
                "set key top right\nset grid\nset yrange [1e-5:1.2]\n"
                f"plot {lines}\n")


def locks(recs, md):
    if not recs:
        return
    md.append("## 2b. A lock holder preempted by injection\n")
    md.append("A batch task on CPU 1 holds a process-shared mutex for 500 us of every 1 ms it "
              "runs; an interactive task (on CPU 1, or on the uncapped CPU 0) sleeps 1 ms and "
              "takes the lock, for 3 s. Wait: from the lock call to owning the lock. kidled: "
              "50% at the interval given; the waiter blocked on the lock is not runnable, so "
              "eager injection does not yield to it.\n")
    rows = [[r["name"], r["wcpu"], r["count"], r["p50_us"], r["p99_us"], r["max_us"], r["over_1ms"]]
            for r in recs]
    md.append(table(["run", "waiter CPU", "waits", "p50 us", "p99 us", "max us", ">= 1 ms"], rows))


def pays(recs, md, verdict):
    md.append("## 3. Who pays\n")
    md.append("Two always-running tasks on the CPU, in groups of power capping priority 14 "
              "(hi) and 0 (lo), both power-interactive (so kidled injects lazily and charges "
              "the groups), 50% target, 100 ms interval, 5 s. idle_inject has no notion of "
              "groups; cpu.max caps the parent of both groups at 50%.\n")
    rows = []
    for r in recs:
        hi, lo = float(r["hi"]), float(r["lo"])
        share = 100 * hi / (hi + lo) if hi + lo else 0
        rows.append([r["mech"], r["target"] + "%", f"{100 * hi:.1f}%", f"{100 * lo:.1f}%",
                     f"{share:.1f}%"])
        if r["mech"] == "kidled":
            verdict.append((">= 99% of the busy time to the higher priority", f"{share:.1f}%",
                            share >= 99))
    md.append(table(["mechanism", "target", "hi CPU", "lo CPU", "hi's part of busy"], rows))


def cost(patched, base, ptimer, btimer, md, verdict, phb=(), bhb=()):
    md.append("## 4. Cost\n")
    md.append("Pipe ping-pong between two tasks pinned to one CPU (two wakeups, two sleeps, "
              "two context switches per round trip), guest ns per round trip under -icount "
              "(instructions), median of 3 runs of 20000. 'root'/'group': tasks in the root "
              "cgroup / a child group. 'fresh': kidled never used since boot (all its static "
              "keys off); 'on0': every CPU had a target and is back at 0%, the tasks' group "
              "is power-interactive (keys on, interactive tasks counted).\n")

    def med(recs, state):
        v = [float(r["ns"]) for r in recs if r["state"] == state]
        return statistics.median(v) if v else None
    rows = []
    for st, bst in (("root-fresh", "root-fresh"), ("group-fresh", "group-fresh"),
                    ("root-on0", "root-fresh"), ("group-on0", "group-fresh")):
        p, b = med(patched, st), med(base, bst)
        if p is None or b is None:
            continue
        ratio = p / b
        rows.append([st, f"{b:.1f}", f"{p:.1f}", f"{100 * (ratio - 1):+.2f}%"])
        if st == "root-fresh":
            verdict.append(("hot-path overhead <= 1% with kidled off",
                            f"{100 * (ratio - 1):+.2f}%", ratio <= 1.01))
    md.append(table(["state", "baseline ns", "patched ns", "overhead"], rows))
    rows = []
    for st, bst in (("root-fresh", "root-fresh"), ("group-fresh", "group-fresh"),
                    ("root-on0", "root-fresh"), ("group-on0", "group-fresh")):
        p = [float(r["ms"]) for r in phb if r["state"] == st and "ms" in r]
        b = [float(r["ms"]) for r in bhb if r["state"] == bst and "ms" in r]
        if not p or not b:
            continue
        pm, bm = statistics.median(p), statistics.median(b)
        rows.append([st, f"{bm:.1f} ({min(b):.0f}-{max(b):.0f})",
                     f"{pm:.1f} ({min(p):.0f}-{max(p):.0f})", f"{100 * (pm / bm - 1):+.1f}%"])
    if rows:
        md.append("hackbench (4 groups of 10 senders and 10 receivers over pipes, unpinned, "
                  "400 rounds of a 100-byte message to every receiver; in 'group' states "
                  "each group in its own child cgroup, two levels of group entities), "
                  "elapsed guest ms, median (range) of 5. Where the tasks land moves one "
                  "run by 10% and more under TCG (the CPU time per switch, also printed, "
                  "moves as much), so this resolves a few percent, not 1%: the 1% bound "
                  "is judged on the ping-pong above.\n\n" +
                  table(["state", "baseline ms", "patched ms", "median vs baseline"], rows))
    rows = []
    for recs, kern in ((btimer, "baseline"), (ptimer, "patched")):
        for r in recs:
            rows.append([kern, r["state"], r["cpu"], r["loc"], r["seconds"]])
    md.append("Local timer interrupts of the idle CPU over 10 s of guest time:\n\n" +
              table(["kernel", "state", "cpu", "interrupts", "seconds"], rows))
    b = [int(r["loc"]) for r in btimer if r["state"] == "root-fresh"]
    p = [int(r["loc"]) for r in ptimer if r["state"] == "root-on0"]
    if b and p:
        verdict.append(("0 extra timer interrupts on a dormant CPU",
                        f"{p[0] - b[0]:+d} ({p[0]} vs {b[0]})", p[0] <= b[0]))


def marked_rates(path):
    """host CPU seconds per guest second between each pair of kidled-marks"""
    marks = {}
    for line in open(path) if os.path.exists(path) else []:
        m = re.match(r"^kidled-mark (begin|end) (\S+) ([\d.]+)$", line.strip())
        if m:
            marks.setdefault(m.group(2), {})[m.group(1) + "_guest"] = float(m.group(3))
        m = re.match(r"^qemu: mark (begin|end) (\S+) \S+ host_cpu=([\d.]+)$", line.strip())
        if m:
            marks.setdefault(m.group(2), {})[m.group(1) + "_host"] = float(m.group(3))
    return {k: (v["end_host"] - v["begin_host"]) / (v["end_guest"] - v["begin_guest"])
            for k, v in marks.items() if len(v) == 4}


def halt(path, md, verdict):
    md.append("## 5. Real halting\n")
    md.append("QEMU without -icount (a halted vCPU sleeps on the host), one always-running "
              "task on the CPU for 10 s: host CPU seconds QEMU used per guest second. 'net' "
              "subtracts the idle guest's figure (both vCPUs idle). Ideal for the capped "
              "CPU: 1 - target.\n")
    rate = marked_rates(path)
    idle = rate.get("idle@0", 0)
    rows = []
    for k, r in rate.items():
        mech, pct = k.split("@")
        ideal = 1 - int(pct) / 100 if mech != "idle" else 0
        net = r - idle
        rows.append([mech, pct + "%", f"{r:.3f}", f"{net:.3f}", f"{ideal:.2f}",
                     f"{100 * (net - ideal):+.1f}"])
        if mech == "kidled":
            verdict.append((f"host CPU within 2 points of 1 - target ({pct}%)",
                            f"{net:.3f} vs {ideal:.2f}", abs(net - ideal) <= 0.02))
    md.append(table(["mechanism", "target", "host s / guest s", "net", "ideal", "diff (points)"],
                    rows))


def align(recs, results, halt_path, md, verdict):
    md.append("## 6. Aligned injection (kernel/kidled/align)\n")
    md.append("kidled_align's figures: QEMU `-smp 4,sockets=1,cores=2,threads=2` under "
              "-icount, a task busy on every CPU (a pause every 4096 rounds, see the "
              "selftest), target 30% of 50 ms on every CPU (the unequal row: 20/30/40/20%), "
              "2 s per row. Overlap: the time all CPUs of a domain are in forced idle "
              "together (kidled_inject_begin to _end) over the idle time the smallest "
              "target asks; 'placed': the same with each injection's planned end. SMT: the "
              "worse of the two cores; all: the four CPUs. Eager: the tasks in the root "
              "group; lazy: in a power-interactive group.\n")
    rows = []
    for r in recs:
        idle = " ".join(f"{x.split(':')[1]}" for x in r.get("idle", "").split(","))
        rows.append([r["level"], r["mode"], r["targets"], r["smt"] + "%",
                     r["smt_placed"] + "%", r["all"] + "%", r["all_placed"] + "%", idle])
        if r["targets"] == "equal" and r["level"] in ("smt", "all"):
            key = "smt" if r["level"] == "smt" else "all"
            v = float(r[key])
            verdict.append((f"overlap >= 95% ({r['level']}, {r['mode']})", f"{v:.1f}%",
                            v >= 95))
    md.append(table(["align", "injection", "targets", "SMT", "SMT placed", "all",
                     "all placed", "idle % per CPU"], rows))
    if results:
        md.append("Selftest results: " + "; ".join(r.strip() for r in results) + "\n")
    rate = marked_rates(halt_path)
    if rate:
        md.append("Host CPU per guest second, QEMU without -icount, the same 4 vCPUs, a "
                  "hog on every CPU, 60% of 50 ms on every CPU, 10 s per level (QEMU has "
                  "no package C-states: alignment moves the halts, it should not change "
                  "their sum; ideal 4 x 0.4 = 1.6):\n")
        md.append(table(["align", "host s / guest s"],
                        [[k.split("=", 1)[1], f"{v:.3f}"] for k, v in rate.items()]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--qemu", default="")
    a = ap.parse_args()
    res = a.results
    pt, bt, ht = (os.path.join(res, n + ".txt") for n in ("patched", "baseline", "halt"))
    md, verdict = [], []
    md.append("# make bench: kidled vs idle_inject vs cpu.max\n")
    md.append(f"- series commit: `{a.commit}`\n- QEMU: {a.qemu}, TCG, `-cpu max -smp 2 -m 512M`; "
              "sections 1-4 under `-icount shift=0,sleep=off` (guest time = instructions), "
              "section 5 without it\n- kernel: tinyconfig + `config/kidled.config` "
              "(full .config: `kernel.config`); the baseline is the same config on the "
              "pristine tree without the series\n- all workloads on CPU 1; plots: "
              "`accuracy.png`, `latency-50.png`, `latency-80.png`\n")
    body = []
    accuracy(res, records(pt, "accuracy"), body, verdict)
    protection(res, records(pt, "wake"), records(pt, "cdf"), body, verdict)
    locks(records(pt, "lock"), body)
    pays(records(pt, "pays"), body, verdict)
    cost(records(pt, "pingpong"), records(bt, "pingpong"), records(pt, "timer"),
         records(bt, "timer"), body, verdict, records(pt, "hackbench"),
         records(bt, "hackbench"))
    halt(ht, body, verdict)
    at = os.path.join(res, "align.txt")
    align(records(at, "align"),
          [l[len("bench: align-result "):] for l in open(at) if l.startswith("bench: align-result ")]
          if os.path.exists(at) else [], os.path.join(res, "halt_align.txt"), body, verdict)
    md.append("## Targets\n")
    md.append(table(["target", "measured", "met"],
                    [(t, m, "yes" if ok else "**no**") for t, m, ok in verdict]))
    md.append("A target missed is explained in its section; 'wake cost' and 'by injection' "
              "in section 2 split lost wakeups into the cost of each wakeup out of forced "
              "idle and delays an injection caused.\n")
    md += body
    with open(os.path.join(res, "report.md"), "w") as f:
        f.write("\n".join(md))
    print(f"report: {len(verdict)} targets, {sum(1 for v in verdict if v[2])} met")


if __name__ == "__main__":
    main()
