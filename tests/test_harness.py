#!/usr/bin/env python3
"""Unit tests of the harness's log handling, against golden logs."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "harness"))
import qemu  # noqa: E402
import summary  # noqa: E402


def golden(name):
    with open(os.path.join(HERE, "golden", name)) as f:
        return f.read().splitlines()


class SummaryTest(unittest.TestCase):
    def test_pass_with_skip(self):
        p, f, probs = summary.summarize(golden("pass.log"), ["kidled"],
                                        ["kidled:kidled_abi"], "PASS")
        self.assertEqual((p, f), (3, 0))
        self.assertEqual(probs, ["skipped: kidled:kidled_abi: bad input rejected # SKIP no hotplug"])

    def test_failures_counted(self):
        p, f, probs = summary.summarize(golden("fail.log"), ["kidled"],
                                        ["kidled:kidled_abi"], "FAIL")
        self.assertEqual((p, f), (2, 3))
        self.assertIn("kunit kidled: kidled_b_test", probs)

    def test_panic_midway(self):
        p, f, probs = summary.summarize(golden("panic.log"), ["kidled"],
                                        ["kidled:kidled_abi", "kidled:kidled_dormant"],
                                        "CRASH")
        self.assertEqual(p, 2)
        self.assertIn("selftest kidled:kidled_abi ended early", probs)
        self.assertIn("selftest kidled:kidled_dormant did not run", probs)
        self.assertIn("guest run: CRASH", probs)

    def test_missing_suite(self):
        p, f, probs = summary.summarize([], ["kidled"], [], "PASS")
        self.assertEqual((p, f), (0, 1))


class SplatTest(unittest.TestCase):
    def test_splats_found(self):
        self.assertEqual(len(qemu.splats(golden("panic.log"))), 3)

    def test_no_false_positive(self):
        self.assertEqual(qemu.splats(golden("pass.log") + [
            "[    0.031347] rcu: \tRCU lockdep checking is enabled.",
            "[    0.1] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc."]), [])


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=1).result
    failed = len(result.failures) + len(result.errors)
    print(f"{result.testsRun - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
