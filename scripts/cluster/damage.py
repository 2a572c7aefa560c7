#!/usr/bin/env python3
"""Damages some of the generated games in place, the same way every run, so
that a check of them has something to report: a wrong move number, a
spurious check mark, a piece letter changed, a Cyrillic look-alike letter in
a square, a move left out.

    damage.py FILE.pgn...
"""

import random
import re
import sys

MOVE = re.compile(r"(?<![\w.])([KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](?:=[QRBN])?|O-O(?:-O)?)([+#]?)(?=\s)")
NUMBER = re.compile(r"(?<!\S)(\d+)\.(?=\s|\S)")


def damage_game(text, rng):
    kind = rng.randrange(5)
    moves = list(MOVE.finditer(text))
    if len(moves) < 6:
        return text
    if kind == 0:
        numbers = list(NUMBER.finditer(text))
        if not numbers:
            return text
        n = numbers[rng.randrange(1, len(numbers))] if len(numbers) > 1 else numbers[0]
        return text[: n.start(1)] + str(int(n.group(1)) + 1) + text[n.end(1) :]
    move = moves[rng.randrange(2, len(moves))]
    if kind == 1 and not move.group(2):
        return text[: move.end(1)] + "+" + text[move.end(1) :]
    if kind == 2 and move.group(1)[0] in "KQRBN":
        letter = "QRBN"[rng.randrange(4)]
        return text[: move.start(1)] + letter + text[move.start(1) + 1 :]
    if kind == 3 and "e" in move.group(1):
        token = move.group(1).replace("e", "\u0435", 1)
        return text[: move.start(1)] + token + text[move.end(1) :]
    return text[: move.start()] + text[move.end() :].lstrip(" ")


def main(paths):
    for path in paths:
        with open(path, encoding="utf-8") as file:
            text = file.read()
        games = text.split("\n\n[")
        rng = random.Random(path.rsplit("/", 1)[-1])
        for i in range(0, len(games), 4):
            header_end = games[i].find("\n\n")
            if header_end == -1:
                continue
            games[i] = games[i][:header_end] + damage_game(games[i][header_end:], rng)
        with open(path, "w", encoding="utf-8") as file:
            file.write("\n\n[".join(games))


if __name__ == "__main__":
    main(sys.argv[1:])
