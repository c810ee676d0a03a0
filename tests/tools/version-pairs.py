#!/usr/bin/env python3
"""Prints N pairs of valid Debian versions, one 'A B' pair per line, with
epochs, tildes, pluses, revisions and near-equal pairs (fixed seed)."""
import random
import sys

ALNUM = "0123456789abcxyzABZ"
PUNCT = ".+~"


def part(rng, first_digit, extra):
    n = rng.randint(1, 7)
    s = [rng.choice("0123456789")] if first_digit else []
    for _ in range(n):
        r = rng.random()
        if r < 0.45:
            s.append(rng.choice("0123456789"))
        elif r < 0.75:
            s.append(rng.choice(ALNUM))
        else:
            s.append(rng.choice(PUNCT + extra))
    return "".join(s) or "0"


def version(rng):
    v = ""
    if rng.random() < 0.2:
        v += "%d:" % rng.choice([0, 1, 2, 10])
    up = part(rng, True, "")
    if rng.random() < 0.5:
        v += up + "-" + part(rng, False, "")
    else:
        v += up
    return v


def mutate(rng, v):
    """A version close to v, so that the comparison is interesting."""
    ops = [lambda s: s + "~", lambda s: s + "+b1", lambda s: s + "0",
           lambda s: s.replace("0", "00", 1), lambda s: s + "a",
           lambda s: s + ".0", lambda s: "0:" + s if ":" not in s else s,
           lambda s: s[:-1] if len(s) > 1 and s[-2] not in ":-" else s]
    return rng.choice(ops)(v)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1200
    rng = random.Random(20261125)
    for i in range(n):
        a = version(rng)
        b = mutate(rng, a) if i % 2 else version(rng)
        print(a, b)


if __name__ == "__main__":
    main()
