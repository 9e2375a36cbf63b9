#!/usr/bin/env python3
"""Count test results in a guest console log.

KUnit: leaf cases of the expected suites (indented "ok N name" lines of
the kernel log). kselftest: top-level "ok N" / "not ok N" lines printed by
the guest after a "# selftest: NAME" marker; a selftest that ends without
its "# Totals:" line counts as one failure. A missing KUnit suite or
selftest, a splat, or a run that did not end in PASS count as failures.
Prints the failures and a final "N passed, N failed" line.
"""
import re
import sys

TS = re.compile(r"^\[\s*\d+\.\d+\] ")
RESULT = re.compile(r"^(not ok|ok) (\d+) (.*)$")


def summarize(lines, kunit_suites, selftests, run_result):
    passed = failed = 0
    problems = []
    seen_suites, seen_tests, totals = set(), [], set()
    suite = None
    current = None
    for raw in lines:
        kernel = bool(TS.match(raw))
        line = TS.sub("", raw)
        if kernel:
            m = re.match(r"^\s+# Subtest: (\S+)", line)
            if m:
                suite = m.group(1)
                seen_suites.add(suite)
                continue
            m = re.match(r"^    (not ok|ok) \d+ (\S+)", line)
            if m and suite in kunit_suites:
                if m.group(1) == "ok":
                    passed += 1
                else:
                    failed += 1
                    problems.append(f"kunit {suite}: {m.group(2)}")
            continue
        m = re.match(r"^# selftest: (\S+)", line)
        if m:
            current = m.group(1)
            seen_tests.append(current)
            continue
        if current and line.startswith("# Totals:"):
            totals.add(current)
            continue
        m = RESULT.match(line)
        if current and m:
            skip = "# SKIP" in m.group(3)
            if skip:
                problems.append(f"skipped: {current}: {m.group(3)}")
            elif m.group(1) == "ok":
                passed += 1
            else:
                failed += 1
                problems.append(f"{current}: {m.group(3)}")
    for s in kunit_suites:
        if s not in seen_suites:
            failed += 1
            problems.append(f"kunit suite {s} did not run")
    for t in selftests:
        if t not in seen_tests:
            failed += 1
            problems.append(f"selftest {t} did not run")
        elif t not in totals:
            failed += 1
            problems.append(f"selftest {t} ended early")
    if run_result != "PASS":
        failed += 1
        problems.append(f"guest run: {run_result}")
    return passed, failed, problems


def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--kunit", default="kidled", help="comma-separated suites")
    ap.add_argument("--selftests", default="", help="comma-separated kselftest names")
    ap.add_argument("--result", default="PASS", help="QEMU classification")
    a = ap.parse_args()
    with open(a.log, errors="replace") as f:
        lines = [l.rstrip("\n") for l in f]
    kunit = [s for s in a.kunit.split(",") if s]
    tests = [s for s in a.selftests.split(",") if s]
    passed, failed, problems = summarize(lines, kunit, tests, a.result)
    for p in problems:
        print(p if p.startswith("skipped: ") else "FAILED: " + p)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
