"""A small reference of span-ledger's decisions in Python, standard library only.

Suites: lines, fingerprint, plan (planFile's five gates with reason codes) and
scenario (contexts, edits, compactions, rewinds, refreshes, parallel calls
through a ledger of what each context was sent). What a Python harness would
write to decide when it may send a pointer instead of lines it sent before.

    /usr/bin/python3 examples/conform/python/reference_adapter.py
"""
import hashlib
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from protocol import InvalidInput, serve  # noqa: E402

MAX_SAFE = 2**53 - 1
MAX_PATH_CHARS = 4096
DEFAULTS = {"minCoveredLines": 8, "minDeltaChars": 160, "maxSpansInPointer": 4, "maxSymbolsInPointer": 5}
VIEW_CALLS = 4  # the records of a context a call is planned against: its last four
GATES = ["switch", "session", "content", "size", "delta"]
PASSED = ["enabled", "has-history", "fingerprint-match", "covered"]
TRIVIAL = re.compile(r"[\s)\]};,]*")

# ---- spans: sorted, disjoint, non-touching lists of (start, end) -------------


def _line(x):
    return isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= MAX_SAFE


def merge(ranges):
    if not isinstance(ranges, list):
        return []
    pairs = sorted(
        (r["start"], r["end"])
        for r in ranges
        if isinstance(r, dict) and _line(r.get("start")) and _line(r.get("end")) and r["start"] <= r["end"]
    )
    out = []
    for s, e in pairs:
        if out and s <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def minus(a, b):
    out = []
    for s, e in a:
        for bs, be in b:
            if be < s or bs > e:
                continue
            if bs > s:
                out.append((s, bs - 1))
            s = be + 1
            if s > e:
                break
        if s <= e:
            out.append((s, e))
    return out


def share_a_line(a, b):
    return any(s <= be and bs <= e for s, e in a for bs, be in b)


def as_json(spans):
    return [{"start": s, "end": e} for s, e in spans]


def spans_text(spans, limit):
    shown = spans[:limit]
    parts = ["L%d" % s if s == e else "L%d-%d" % (s, e) for s, e in shown]
    rest = len(spans) - len(shown)
    if rest > 0:
        parts.append("+%d more %s" % (rest, "span" if rest == 1 else "spans"))
    return ", ".join(parts)


# ---- text: POSIX lines, lengths in UTF-16 code units ------------------------


def u16(text):
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def posix_lines(content):
    """Each line with its terminator: a final newline ends the last line."""
    parts = content.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1] != "":
        lines.append(parts[-1])
    return lines


class Text:
    def __init__(self, content):
        self.lines = posix_lines(content)
        self.offsets = [0]
        for line in self.lines:
            self.offsets.append(self.offsets[-1] + u16(line))

    def chars(self, spans):
        return sum(self.offsets[e] - self.offsets[s - 1] for s, e in spans)

    def clip(self, spans):
        n = len(self.lines)
        return [(s, min(e, n)) for s, e in spans if s <= n]

    def trivial(self, spans):
        return all(TRIVIAL.fullmatch("".join(self.lines[s - 1 : e])) for s, e in spans)


def fingerprint(content):
    """`${UTF-16 length}:${first 16 hex of SHA-1 of the UTF-8 bytes}`, a lone surrogate as U+FFFD."""
    utf8 = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in content).encode("utf-8")
    return "%d:%s" % (u16(content), hashlib.sha1(utf8).hexdigest()[:16])


# ---- the five gates ----------------------------------------------------------


def gates_at(at, verdict, reason):
    out = []
    for i, gate in enumerate(GATES):
        if i < at:
            out.append({"gate": gate, "verdict": "pass", "reason": PASSED[i]})
        elif i == at:
            out.append({"gate": gate, "verdict": verdict, "reason": reason})
        else:
            out.append({"gate": gate, "verdict": "skip", "reason": "nothing-covered" if gate == "delta" else "not-reached"})
    return out


def numbers(calls):
    shown = ["#%d" % n for n in calls[:4]]
    rest = len(calls) - len(shown)
    if rest > 0:
        shown.append("%d earlier %s" % (rest, "one" if rest == 1 else "ones"))
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def citing(served, covered):
    out = []
    for index, spans in served:
        if covered and index not in out and share_a_line(spans, covered):
            out.append(index)
    return out


def thresholds_of(raw):
    t = dict(DEFAULTS)
    if isinstance(raw, dict):
        for name in t:
            v = raw.get(name)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                t[name] = max(1 if name == "minCoveredLines" else 0, int(v // 1))
    return t


class Record:
    """What one earlier response sent: its number, and per path the spans and fingerprint."""

    def __init__(self, index, files):
        self.index = index
        self.files = files  # [(path, spans, fingerprint or None)]


def served_records(records, path, fp):
    """(index, spans) of each record that sent `path` from content `fp`, most recent first."""
    out = []
    for record in reversed(records):
        spans = [sp for p, s, f in record.files if p == path and f == fp for sp in s]
        if any(p == path and f == fp for p, s, f in record.files):
            out.append((record.index, merge(as_json(spans))))
    return out


def unmatched(records, path):
    seen = False
    for record in records:
        for p, _s, f in record.files:
            if p == path:
                if f is not None:
                    return "fingerprint-changed"
                seen = True
    return "no-fingerprint" if seen else "never-served"


def compact_pointer_earned(run, path, text, served, t):
    chars = text.chars([run])
    if 2 * (u16(path) + 27) > chars:
        return False
    what = ("`%s`" % path) if path != "" else "this file"
    listed = spans_text([run], t["maxSpansInPointer"])
    if listed:
        what += " " + listed
    calls = citing(served, [run])
    where = "sent earlier in this conversation" if not calls else "sent in " + numbers(calls)
    return 2 * u16("%s: unchanged, %s." % (what, where)) <= chars


def plan_file(path, content, intended, records, enabled=True, thresholds=None, fp_of=None):
    """planFile: `records` is None when nobody tracks the call, else the retained records, oldest first."""
    fp_of = fp_of or fingerprint
    t = thresholds_of(thresholds)
    ok_path = isinstance(path, str) and path != ""
    path = path if isinstance(path, str) else ""
    unusable = not ok_path or (u16(path) > MAX_PATH_CHARS or "\0" in path or re.search(r"(^|[\\/])\.\.([\\/]|$)", path))
    content = content if isinstance(content, str) else None
    fp = "" if content is None else fp_of(content)
    text = Text(content or "")
    intended = text.clip(merge(intended))
    served = []
    emit, covered, folded = intended, [], []

    def decide():
        nonlocal served, emit, covered, folded
        if not enabled:
            return "full", gates_at(0, "stop", "disabled")
        if records is None:
            return "full", gates_at(1, "stop", "untracked")
        if not records:
            return "full", gates_at(1, "stop", "first-call")
        if content is None:
            return "full", gates_at(2, "stop", "no-content")
        if unusable:
            return "full", gates_at(2, "stop", "unusable-path")
        served = served_records(records, path, fp)
        if not served:
            return "full", gates_at(2, "stop", unmatched(records, path))
        union = merge(as_json([sp for _i, s in served for sp in s]))
        held, runs = False, []
        for s, e in intended:
            for us, ue in union:
                if ue < s or us > e:
                    continue
                held = True
                run = (max(us, s), min(ue, e))
                whole = run == (s, e)
                if run[1] - run[0] + 1 >= t["minCoveredLines"] or (
                    whole and compact_pointer_earned(run, path, text, served, t)
                ):
                    runs.append(run)
        if not held:
            return "full", gates_at(3, "stop", "no-overlap")
        if not runs:
            return "full", gates_at(3, "stop", "below-min-covered")
        covered = runs
        rest = minus(intended, runs)
        if not rest:
            emit = []
            return "pointer", gates_at(4, "pass", "all-covered")
        if text.chars(rest) < t["minDeltaChars"] and text.trivial(rest):
            emit, folded = [], rest
            return "pointer", gates_at(4, "fold", "folded-small-delta")
        emit = rest
        return "partial", gates_at(4, "pass", "delta-kept")

    render, gates = decide()
    if content is None or not ok_path or not intended:
        render, emit, covered, folded = "skipped", [], [], []
    return {
        "render": render,
        "fingerprint": fp,
        "emit": as_json(emit),
        "covered": as_json(covered),
        "coveredBy": citing(served, covered),
        "folded": as_json(folded),
        "newChars": text.chars(emit),
        "coveredChars": text.chars(covered),
        "foldedChars": text.chars(folded),
        "gates": gates,
    }


def records_of(served, path):
    """The protocol's `served` as records (None when it is not a list), as a ledger would read them."""
    if not isinstance(served, list):
        return None
    out = []
    for r in served:
        index = r.get("index") if isinstance(r, dict) else None
        if not _line(index):
            continue
        files = []
        for f in r.get("files") if isinstance(r.get("files"), list) else []:
            if not isinstance(f, dict) or f.get("path") != path or not isinstance(path, str) or path == "":
                continue
            fp = f.get("fingerprint")
            fp = fp if isinstance(fp, str) and 0 < u16(fp) <= 256 else None
            files.append((path, merge(f.get("ranges")), fp))
        out.append(Record(index, files))
    return out


# ---- scenarios: a ledger per context ----------------------------------------


class Ledger:
    """Each context's retained records and its count of numbers taken."""

    def __init__(self):
        self.records = {}
        self.count = {}

    def view(self, context):
        return self.records.get(context, [])[-VIEW_CALLS:]

    def prune(self, context, numbers):
        self.records[context] = [r for r in self.records.get(context, []) if r.index not in numbers]

    def take(self, context):
        self.count[context] = self.count.get(context, 0) + 1
        return self.count[context]

    def record(self, context, number, decisions):
        files = {}
        for path, d in decisions:
            if d["emit"]:
                spans, fp = files.get(path, ([], d["fingerprint"]))
                files[path] = (spans + [(r["start"], r["end"]) for r in d["emit"]], fp)
        rec = Record(number, [(p, merge(as_json(s)), fp) for p, (s, fp) in files.items()])
        self.records.setdefault(context, []).append(rec)
        self.records[context] = self.records[context][-8:]


def read_scenario(inp):
    if not isinstance(inp, dict) or not isinstance(inp.get("files"), dict) or not isinstance(inp.get("steps"), list):
        raise InvalidInput("files and steps")
    files = inp["files"]
    if not all(isinstance(c, str) for c in files.values()):
        raise InvalidInput("file contents are strings")

    def context(s):
        return isinstance(s.get("context"), str) and s["context"] != ""

    def asks(x):
        return isinstance(x, list) and all(isinstance(a, dict) and a.get("path") in files and "intended" in a for a in x)

    for s in inp["steps"]:
        kind = s.get("do") if isinstance(s, dict) else None
        ok = (
            (kind == "call" and context(s) and asks(s.get("files")) and ("refresh" not in s or (isinstance(s["refresh"], list) and all(_line(n) for n in s["refresh"]))))
            or (kind == "parallel" and context(s) and isinstance(s.get("calls"), list) and all(asks(c) for c in s["calls"]))
            or (kind == "edit" and s.get("path") in files and isinstance(s.get("content"), str))
            or (kind == "compact" and context(s) and isinstance(s.get("told"), bool))
            or (kind == "rewind" and context(s) and isinstance(s.get("to"), int) and not isinstance(s.get("to"), bool) and 0 <= s["to"] <= MAX_SAFE and isinstance(s.get("told"), bool))
        )
        if not ok:
            raise InvalidInput("step %r" % (s,))
    return files, inp["steps"]


class Scenario:
    """One scenario's play. The planted-bug variants override the parts they break."""

    def __init__(self):
        self.ledger = Ledger()

    def bucket(self, context):
        return context

    def fingerprint(self, content):
        return fingerprint(content)

    def forget(self, context, dropped):
        self.ledger.prune(self.bucket(context), dropped)

    def served_for(self, records, path, fp):
        return records

    def run(self, inp):
        contents, steps = read_scenario(inp)
        contents = dict(contents)
        held, out = {}, []

        def plan(context, asks, number):
            records = self.ledger.view(self.bucket(context))
            decisions = []
            for a in asks:
                content = contents[a["path"]]
                recs = self.served_for(records, a["path"], self.fingerprint(content))
                decisions.append((a["path"], plan_file(a["path"], content, a["intended"], records_of_ledger(recs, a["path"]), fp_of=self.fingerprint)))
            out.append({
                "context": context,
                "number": number,
                "files": [
                    {k: d[k] for k in ("render", "emit", "covered", "coveredBy")} | {"path": p}
                    for p, d in decisions
                ],
            })
            return decisions

        def drop(context, kept, told):
            mine = held.get(context, [])
            if told and len(kept) < len(mine):
                self.forget(context, [n for n in mine if n not in kept])
            held[context] = kept

        for s in steps:
            kind = s["do"]
            if kind == "edit":
                contents[s["path"]] = s["content"]
            elif kind == "compact":
                drop(s["context"], held.get(s["context"], [])[-1:], s["told"])
            elif kind == "rewind":
                drop(s["context"], [n for n in held.get(s["context"], []) if n <= s["to"]], s["told"])
            elif kind == "call":
                ctx, b = s["context"], self.bucket(s["context"])
                if s.get("refresh"):
                    self.ledger.prune(b, s["refresh"])
                number = self.ledger.take(b)
                self.ledger.record(b, number, plan(ctx, s["files"], number))
                held.setdefault(ctx, []).append(number)
            else:
                ctx, b = s["context"], self.bucket(s["context"])
                nums = [self.ledger.take(b) for _ in s["calls"]]
                planned = [plan(ctx, asks, n) for asks, n in zip(s["calls"], nums)]
                for n, d in zip(nums, planned):
                    self.ledger.record(b, n, d)
                held.setdefault(ctx, []).extend(nums)
        return {"responses": out}


def records_of_ledger(records, path):
    return [Record(r.index, [f for f in r.files if f[0] == path]) for r in records]


def handlers(scenario_class=Scenario, fp=fingerprint):
    def lines(op, inp):
        content = inp.get("content") if isinstance(inp, dict) else None
        if not isinstance(content, str):
            raise InvalidInput("content must be a string")
        text = Text(content)
        if op == "lines":
            return [line[:-1] if line.endswith("\n") else line for line in text.lines]
        return text.chars(text.clip(merge(inp.get("ranges"))))

    def fingerprint_suite(op, inp):
        content = inp.get("content") if isinstance(inp, dict) else None
        if not isinstance(content, str):
            raise InvalidInput("content must be a string")
        return fp(content)

    def plan(op, inp):
        g = inp.get if isinstance(inp, dict) else (lambda k: None)
        return plan_file(g("path"), g("content"), g("intended"), records_of(g("served"), g("path")), g("enabled") is not False, g("thresholds"), fp_of=fp)

    def scenario(op, inp):
        return scenario_class().run(inp)

    return {"lines": lines, "fingerprint": fingerprint_suite, "plan": plan, "scenario": scenario}


if __name__ == "__main__":
    serve("span-ledger reference (Python)", handlers())
