"""The Python adapters with one bug planted, each a bug a real harness shipped:

    stub-by-path           a pointer for a path whatever its content (the stub after an outside edit)
    compaction-keeps-map   the read map is not cleared when the harness says the context lost responses
    shared-scope           subagents share their parent's scope
    fingerprint-no-length  the fingerprint leaves out the length
    subtract-off-by-one    subtract keeps the last line of what it removes

    /usr/bin/python3 examples/conform/python/planted.py BUG

`span-ledger conform` must catch each one; test/conformance.planted.test.ts shows it does.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import intervals_adapter  # noqa: E402
import reference_adapter as ref  # noqa: E402
from intervals import IntInterval  # noqa: E402
from protocol import serve  # noqa: E402


class StubByPath(ref.Scenario):
    def served_for(self, records, path, fp):
        return [ref.Record(r.index, [(p, s, fp) for p, s, _f in r.files]) for r in records]


class CompactionKeepsMap(ref.Scenario):
    def forget(self, context, dropped):
        pass


class SharedScope(ref.Scenario):
    def bucket(self, context):
        return "shared"


def fingerprint_no_length(content):
    return ref.fingerprint(content).split(":", 1)[1]


def subtract_one_off_by_one(x, y):
    if not x.is_connected(y):
        return [x]
    pieces = []
    if x.lower < y.lower:
        pieces.append(IntInterval([x.lower, y.lower - 1]))
    if y.upper <= x.upper:
        pieces.append(IntInterval([y.upper, x.upper]))
    return pieces


BUGS = {
    "stub-by-path": lambda: ref.handlers(scenario_class=StubByPath),
    "compaction-keeps-map": lambda: ref.handlers(scenario_class=CompactionKeepsMap),
    "shared-scope": lambda: ref.handlers(scenario_class=SharedScope),
    "fingerprint-no-length": lambda: ref.handlers(fp=fingerprint_no_length),
    "subtract-off-by-one": lambda: ref.handlers(),
}

if __name__ == "__main__":
    bug = sys.argv[1] if len(sys.argv) > 1 else ""
    if bug not in BUGS:
        sys.exit("usage: planted.py {%s}" % "|".join(BUGS))
    if bug == "subtract-off-by-one":
        intervals_adapter.subtract_one = subtract_one_off_by_one
    handlers = {"algebra": intervals_adapter.algebra, **BUGS[bug]()}
    serve("planted bug: " + bug, handlers)
