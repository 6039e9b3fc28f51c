"""A bot program for the tests: plays the lowest legal play, or misbehaves as told.

    python protocol_bot.py [--mode MODE] [--pids FILE] [--log FILE]

``--pids`` appends the process id at start; ``--log`` appends every line read
and written (``< `` and ``> ``). Modes: ``lowest`` (plays well), ``crash3``
(exits at its third move), ``sleep2`` (sleeps at its second move), ``garbage2``
(writes a line that is not JSON at its second move), ``illegal2`` (answers a
move that is not legal), ``flood2`` (floods its output at its second move),
``chatty`` (writes a line nobody asked for after each move), ``mute`` (never
answers hello).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="lowest")
    parser.add_argument("--pids")
    parser.add_argument("--log")
    args = parser.parse_args()
    if args.pids:
        with open(args.pids, "a") as f:
            f.write(f"{os.getpid()}\n")
    log = open(args.log, "a") if args.log else None  # noqa: SIM115
    acts = 0

    def say(message: dict[str, object]) -> None:
        text = json.dumps(message)
        if log:
            log.write("> " + text + "\n")
            log.flush()
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        if log:
            log.write("< " + line)
            log.flush()
        message = json.loads(line)
        if message["type"] == "hello":
            if args.mode == "mute":
                time.sleep(60)
            say({"type": "ready", "name": f"test-{args.mode}"})
        elif message["type"] == "act":
            acts += 1
            plays = [m for m in message["moves"] if m != "pass"]
            move = plays[0] if plays else "pass"
            if args.mode == "crash3" and acts == 3:
                sys.exit(3)
            if args.mode == "sleep2" and acts == 2:
                time.sleep(60)
            if args.mode == "garbage2" and acts == 2:
                sys.stdout.write("I think I will play a pair\n")
                sys.stdout.flush()
                continue
            if args.mode == "illegal2" and acts == 2:
                move = "not-a-move"
            if args.mode == "flood2" and acts == 2:
                while True:
                    sys.stdout.write("x" * 65536)
            say({"type": "move", "id": message["id"], "move": move})
            if args.mode == "chatty":
                say({"type": "note", "text": "unasked"})
        elif message["type"] == "match_end":
            break


if __name__ == "__main__":
    main()
