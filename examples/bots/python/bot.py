#!/usr/bin/env python3
"""A bot for every shedkit game in plain Python: the bot protocol on stdin/stdout, no shedkit.

It plays the lowest legal play: the first move of the engine's list that is not
"pass" (the engine lists pass first, then each kind of play from low to high),
and passes only when nothing else is legal.

    shedkit arena president --agents "cmd:python3 examples/bots/python/bot.py",greedy \
        --option players=5 --deals 200
"""

import json
import sys


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            answer = {"type": "ready", "name": "lowest (python)"}
        elif kind == "act":
            plays = [m for m in message["moves"] if m != "pass"]
            move = plays[0] if plays else "pass"
            answer = {"type": "move", "id": message["id"], "move": move}
        elif kind == "match_end":
            return
        else:
            continue  # deal_end, and any message a later protocol version adds
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
