"""The conformance protocol's loop, for any Python adapter (standard library only).

One JSON request per line on stdin: {"id", "suite", "op", "input"}; one JSON
answer per line on stdout: {"id", "output"} or {"id", "error": {"code", "message"}}.
The first request is the handshake, op "hello": answer the protocol version
and the suites this adapter implements. See docs/conformance.md.
"""
import json
import sys

PROTOCOL = 1


class InvalidInput(Exception):
    """The input is outside the operation's domain: answered as error "invalid-input"."""


def serve(name, handlers):
    """Answers requests until stdin closes. `handlers` maps a suite to f(op, input) -> output."""
    out = sys.stdout
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            request = {}
        rid = request.get("id") if isinstance(request, dict) else None
        suite = request.get("suite") if isinstance(request, dict) else None
        op = request.get("op") if isinstance(request, dict) else None
        try:
            if op == "hello":
                answer = {"output": {"protocol": PROTOCOL, "suites": list(handlers), "name": name}}
            elif suite in handlers:
                answer = {"output": handlers[suite](op, request.get("input"))}
            else:
                answer = {"error": {"code": "unsupported", "message": "suite %r" % (suite,)}}
        except InvalidInput as e:
            answer = {"error": {"code": "invalid-input", "message": str(e)}}
        except Exception as e:  # a bug here is an answer, not a dead pipe
            answer = {"error": {"code": "internal", "message": "%s: %s" % (type(e).__name__, e)}}
        answer["id"] = rid
        out.write(json.dumps(answer) + "\n")
        out.flush()
