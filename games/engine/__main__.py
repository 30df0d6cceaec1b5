"""Command line: `python -m games.engine score|simulate|bench|verify|replay`.

score     read one case (RULES §7) as JSON from stdin or --file; print the result.
simulate  bots play whole hands; print one JSON summary.
bench     micro-benchmarks of hand analysis and simulation.
verify    read a game record (docs/record-format.md); check its commitment and every draw.
replay    read a game record; re-play every action through the engine and check the result.
arena     bots of different levels play each other; points per hand per level.
review    read one hand record; print the 复盘 review of one seat's decisions (docs/review.md).
Bad input prints {"error": code, "message": …} and exits with status 2; a record that fails
verify or replay prints the first problem and exits with status 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from games.engine.errors import EngineError


def score_case(data: Any) -> dict[str, Any]:
    """Score one CLI case (a dict as in RULES §7); raises EngineError on bad input."""
    from games.engine.rulesets import get_ruleset
    from games.engine.scoring.context import WinContext

    ctx = WinContext.from_json(data)
    rules = get_ruleset(ctx.variant)
    unknown = set(ctx.options) - set(rules.default_options)
    if unknown:
        known = ", ".join(rules.default_options) or "none"
        raise EngineError(
            "bad_input", f"unknown options for {ctx.variant}: {', '.join(sorted(unknown))} (known: {known})"
        )
    return rules.score(ctx).to_json()


def _cmd_score(args: argparse.Namespace) -> int:
    try:
        raw = Path(args.file).read_text(encoding="utf-8") if args.file else sys.stdin.read()
    except OSError as e:
        return _fail("bad_input", f"cannot read {args.file}: {e.strerror}")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as e:
        return _fail("bad_json", f"input is not JSON: {e.msg} at line {e.lineno} column {e.colno}")
    try:
        print(json.dumps(score_case(data), ensure_ascii=False))
    except EngineError as e:
        return _fail(e.code, e.message)
    return 0


def _fail(code: str, message: str) -> int:
    print(json.dumps({"error": code, "message": message}, ensure_ascii=False))
    print(f"error: {message}", file=sys.stderr)
    return 2


def _cmd_simulate(args: argparse.Namespace) -> int:
    from games.engine.simulate import simulate

    try:
        print(json.dumps(simulate(args.variant, args.hands, args.seed, bot=args.bot)))
    except EngineError as e:
        return _fail(e.code, e.message)
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from games.engine.bench import run_bench

    run_bench(quick=args.quick)
    return 0


def _read_record(args: argparse.Namespace) -> dict[str, Any]:
    """The record on stdin or in --file, read as bytes so the 1 MB limit holds before parsing."""
    from games.engine.record import MAX_BYTES, parse_record

    if args.file:
        with open(args.file, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    else:
        raw = sys.stdin.buffer.read(MAX_BYTES + 1)
    return parse_record(raw)


def _check_records(args: argparse.Namespace, check: Any) -> int:
    """Run `check` on every hand of the record; print one JSON line; 0 if all pass, else 1."""
    from games.engine.record import hand_records

    try:
        record = _read_record(args)
        results = [check(hand) for hand in hand_records(record)]
    except OSError as e:
        return _fail("bad_input", f"cannot read {args.file}: {e.strerror}")
    except EngineError as e:
        print(json.dumps({"ok": False, "error": e.code, "message": e.message}, ensure_ascii=False))
        print(f"error: {e.message}", file=sys.stderr)
        return 1
    print(json.dumps({"ok": True, "hands": results}, ensure_ascii=False))
    return 0


def _cmd_verify(args: argparse.Namespace) -> int:
    from games.engine.record import verify_record

    return _check_records(args, verify_record)


def _cmd_replay(args: argparse.Namespace) -> int:
    from games.engine.record import replay_record

    def summary(hand: dict[str, Any]) -> dict[str, Any]:
        replayed = replay_record(hand)
        return {"ok": True, "actions": len(replayed.steps), "result": hand["result"]}

    return _check_records(args, summary)


def _cmd_review(args: argparse.Namespace) -> int:
    """The review of one seat of a hand record (a match record: of each hand), as one JSON
    document. Bad input — not a record, a record that does not replay, no such seat — prints
    {"error", "message"} and exits 2 like the other commands' bad input."""
    from games.engine.record import hand_records
    from games.engine.review import review_hand

    try:
        record = _read_record(args)
        reviews = [review_hand(hand, args.seat) for hand in hand_records(record)]
    except OSError as e:
        return _fail("bad_input", f"cannot read {args.file}: {e.strerror}")
    except EngineError as e:
        return _fail(e.code, e.message)
    print(json.dumps(reviews[0] if record["kind"] == "hand" else {"hands": reviews}, ensure_ascii=False))
    return 0


# -- arena: bot levels played against each other ------------------------------------------
def _cmd_arena(args: argparse.Namespace) -> int:
    from games.engine.bots.arena import arena, parse_seats, table

    def progress(summary: dict[str, Any], detail: Any) -> None:
        # the figures of the deals played so far, as a run of that many hands would print them:
        # a long run that has to stop keeps what it measured
        paired = {f"{a} − {b}": v for (a, b), v in detail.paired.items()}
        print(json.dumps({**summary, "paired": paired}), file=sys.stderr, flush=True)

    try:
        summary, detail = arena(
            args.variant,
            args.hands,
            parse_seats(args.variant, args.seats),
            args.seed,
            args.duplicate,
            review=args.review,
            progress=progress if args.progress else None,
            every=args.progress or 25,
            first=args.first,
        )
    except EngineError as e:
        return _fail(e.code, e.message)
    print(table(summary, detail))
    print(json.dumps(summary))
    return 0


def _add_arena(sub: Any) -> None:
    p = sub.add_parser("arena", help="bot levels play each other (seats rotated)")
    p.add_argument("--variant", required=True)
    p.add_argument("--hands", type=int, default=200)
    p.add_argument("--seats", required=True, help="one level per seat, e.g. strong,easy,easy,easy")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--duplicate",
        action="store_true",
        help="play every deal once per seat rotation (duplicate format: the deal's luck cancels)",
    )
    p.add_argument(
        "--review",
        nargs="?",
        const="strong",
        choices=("strong", "value"),
        help="review every decision (docs/review.md) with this evaluator (default strong): adds"
        " review_loss per level, with its 95%% interval",
    )
    p.add_argument(
        "--progress",
        type=int,
        default=0,
        metavar="DEALS",
        help="print the figures so far (JSON, to stderr) every DEALS deals",
    )
    p.add_argument(
        "--first",
        type=int,
        default=0,
        metavar="DEAL",
        help="start at this deal (a long run continued elsewhere: the same deals and seating, the"
        " table started afresh)",
    )
    p.set_defaults(func=_cmd_arena)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engine", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("score", help="score one winning hand (RULES §7)")
    p.add_argument("--file", help="read the case from this file instead of stdin")
    p.set_defaults(func=_cmd_score)
    p = sub.add_parser("simulate", help="bots play whole hands")
    p.add_argument("--variant", required=True)
    p.add_argument("--hands", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--bot", default="easy", choices=("easy", "normal", "strong", "expert", "random", "baseline")
    )
    p.set_defaults(func=_cmd_simulate)
    p = sub.add_parser("bench", help="micro-benchmarks")
    p.add_argument("--quick", action="store_true", help="fewer repetitions")
    p.set_defaults(func=_cmd_bench)
    for command, func, text in (
        ("verify", _cmd_verify, "check a record's commitment and that every draw came from its wall"),
        ("replay", _cmd_replay, "re-play a record through the engine and check every action and the result"),
    ):
        p = sub.add_parser(command, help=text)
        p.add_argument("--file", help="read the record from this file instead of stdin")
        p.set_defaults(func=func)
    _add_arena(sub)
    p = sub.add_parser("review", help="review one seat's decisions in a finished hand's record")
    p.add_argument("--seat", type=int, default=0, help="the seat to review (default 0)")
    p.add_argument("--file", help="read the record from this file instead of stdin")
    p.set_defaults(func=_cmd_review)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
