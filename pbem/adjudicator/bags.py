"""Bags of tokens: draws without replacement from a phase's fair random stream.

A bag is plain data, the count of each kind of token: ``{"wood": 12,
"stone": 12}``. Drawing lays the tokens out in sorted order of their kind
(so a bag's insertion order never matters) and picks positions with
``rng.below``, one token at a time. ``share`` deals a bag among claimants
fairly: when it cannot serve them all, chance, not their order, decides who
goes without.
"""


def size(bag: dict) -> int:
    """How many tokens are in the bag."""
    return sum(bag.values())


def put(bag: dict, kind: str, count: int = 1) -> dict:
    """A new bag with `count` more tokens of `kind`."""
    return {**bag, kind: bag.get(kind, 0) + count}


def take(bag: dict, kind: str, count: int = 1) -> dict:
    """A new bag with `count` fewer tokens of `kind`; ValueError if there are not so many."""
    if bag.get(kind, 0) < count:
        raise ValueError(f"the bag holds {bag.get(kind, 0)} {kind}, not {count}")
    out = {**bag, kind: bag[kind] - count}
    return {k: n for k, n in out.items() if n}


def draw(bag: dict, count: int, rng) -> tuple[list[str], dict]:
    """(tokens drawn in order, the bag after); fewer than `count` when the bag runs dry."""
    drawn = []
    for _ in range(min(count, size(bag))):
        index = rng.below(size(bag))
        for kind in sorted(bag):
            if index < bag[kind]:
                drawn.append(kind)
                bag = take(bag, kind)
                break
            index -= bag[kind]
    return drawn, bag


def draw_until(bag: dict, stop: str, rng) -> tuple[list[str], dict]:
    """Draw one token at a time until a `stop` token comes out (or the bag is empty)."""
    drawn = []
    while size(bag):
        [token], bag = draw(bag, 1, rng)
        drawn.append(token)
        if token == stop:
            break
    return drawn, bag


def share(bag: dict, wants: list[int], rng) -> tuple[list[list[str]], dict]:
    """(each claimant's tokens, the bag after), claimant i wanting ``wants[i]`` tokens.

    The claimants are put in an order drawn from the stream; each draws one token a round,
    in that order, round after round, until every one has what it wants or the bag is
    empty. A bag that cannot serve everyone gives each claimant one token before any gets
    a second, and leaves out those the drawn order puts last, not those listed last.
    """
    order = rng.shuffle(range(len(wants)))
    dealt = [[] for _ in wants]
    for round_ in range(max(wants, default=0)):
        for claimant in order:
            if wants[claimant] > round_ and size(bag):
                [token], bag = draw(bag, 1, rng)
                dealt[claimant].append(token)
    return dealt, bag
