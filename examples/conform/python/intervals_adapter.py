"""The range-algebra suite over `intervals` (Debian's python3-intervals).

A 1-based inclusive line span {start, end} is the closed integer interval
[start, end] (intervals.IntInterval). The library holds one interval at a
time: this adapter keeps a set of them sorted and disjoint, and asks the
library for every intersection, hull and containment test; adjacency (two
intervals with no integer between them) is the one rule lines add.

    /usr/bin/python3 examples/conform/python/intervals_adapter.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from intervals import IntInterval  # noqa: E402

from protocol import serve  # noqa: E402

MAX_SAFE = 2**53 - 1


def _line(x):
    return isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= MAX_SAFE


def interval_of(r):
    """The closed interval of a valid span, or None for anything else."""
    if not isinstance(r, dict) or not _line(r.get("start")) or not _line(r.get("end")):
        return None
    if r["start"] > r["end"]:
        return None
    return IntInterval([r["start"], r["end"]])


def intervals_of(ranges):
    if not isinstance(ranges, list):
        return []
    return [i for i in (interval_of(r) for r in ranges) if i is not None]


def normalize(items):
    """Sorted, disjoint, with touching intervals joined: the hull of connected or adjacent ones."""
    out = []
    for i in sorted(items, key=lambda i: (i.lower, i.upper)):
        if out and (out[-1].is_connected(i) or out[-1].upper + 1 == i.lower):
            out[-1] = IntInterval([out[-1].lower, max(out[-1].upper, i.upper)])
        else:
            out.append(i)
    return out


def spans(items):
    return [{"start": i.lower, "end": i.upper} for i in items]


def intersect(a, b):
    out = []
    for x in normalize(a):
        for y in normalize(b):
            if x.is_connected(y):
                out.append(x & y)
    return normalize(out)


def subtract_one(x, y):
    """x minus y, as 0 to 2 intervals."""
    if not x.is_connected(y):
        return [x]
    pieces = []
    if x.lower < y.lower:
        pieces.append(IntInterval([x.lower, y.lower - 1]))
    if y.upper < x.upper:
        pieces.append(IntInterval([y.upper + 1, x.upper]))
    return pieces


def subtract(a, b):
    rest = normalize(a)
    for y in normalize(b):
        rest = [p for x in rest for p in subtract_one(x, y)]
    return normalize(rest)


def covers(items, line):
    return _line(line) and any(line in i for i in items)


def size(i):
    return i.upper - i.lower + 1


def format_spans(items, limit):
    shown = items[:limit]
    parts = ["L%d" % i.lower if i.lower == i.upper else "L%d-%d" % (i.lower, i.upper) for i in shown]
    rest = len(items) - len(shown)
    if rest > 0:
        parts.append("+%d more %s" % (rest, "span" if rest == 1 else "spans"))
    return ", ".join(parts)


def _number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def algebra(op, inp):
    g = inp.get if isinstance(inp, dict) else (lambda k: None)
    if op == "isLineRange":
        return interval_of(g("range")) is not None
    if op == "merge":
        return spans(normalize(intervals_of(g("ranges"))))
    if op == "intersect":
        return spans(intersect(intervals_of(g("a")), intervals_of(g("b"))))
    if op == "intersectRange":
        return spans(intersect(intervals_of([g("range")]), intervals_of(g("set"))))
    if op == "subtract":
        return spans(subtract(intervals_of(g("a")), intervals_of(g("b"))))
    if op == "subtractRange":
        return spans(subtract(intervals_of([g("range")]), intervals_of(g("set"))))
    if op == "dedupe":
        one = intervals_of([g("range")])
        if not one:
            return {"emit": [], "covered": []}
        m = g("minCovered")
        if m is None:
            m = 8
        covered = [i for i in intersect(one, intervals_of(g("served"))) if _number(m) and size(i) >= max(m, 1)]
        return {"emit": spans(subtract(one, covered)), "covered": spans(covered)}
    if op == "coalesce":
        runs = normalize(intervals_of(g("ranges")))
        m = g("max")
        if m is None:
            m = 24
        keep = m if _line(m) or m == 0 and not isinstance(m, bool) else 0
        if len(runs) <= keep:
            return {"ranges": spans(runs), "truncated": False}
        kept = sorted(sorted(runs, key=lambda i: (-size(i), i.lower))[:keep], key=lambda i: i.lower)
        return {"ranges": spans(kept), "truncated": True}
    if op == "cover":
        return bool(covers(intervals_of(g("ranges")), g("line")))
    if op == "count":
        return sum(size(i) for i in normalize(intervals_of(g("ranges"))))
    if op == "formatSpans":
        m = g("max")
        limit = m if (_line(m) or m == 0) and not isinstance(m, bool) else 4
        return format_spans(normalize(intervals_of(g("ranges"))), limit)
    raise LookupError("unknown op %r" % (op,))


if __name__ == "__main__":
    serve("intervals (python3-intervals)", {"algebra": algebra})
