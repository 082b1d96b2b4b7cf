"""Expectations of Seigneurs rule cases.

    [expect]
    stage = "market"                       # the open phase; round = its round; turn
    asked = ["ann", "zed"]                 # the seats the open phase asks
    goods = {C3 = {wood = 2}, ann = {}}    # what lies on these places (a lord: its village,
                                           #   its farms' goods and what lies besides them)
    farm_goods = {ann = [{wood = 1}, {}]}  # each farm of a lord's village holds
    famine = {ann = [2]}                   # the village farms in famine, by number
    stocks = {ann = {wood = 1}}            # these seats' stocks; exact
    bag = {wood = 3}                       # the resource bag, every resource; exact
    jacquerie = {ann = {neutral = 5, jacquerie = 1}}
    tokens = {ann = 2}                     # tokens received this turn
    farms = {C3 = "ann", D4 = "free", E5 = "none"}
    village_farms = {ann = 3}
    warriors = {C3 = {ann = 2}}            # every warrior on these places, fit or not
    out = {C3 = {bob = 1}}                 # those out of action
    armed = {ann = 1}                      # armed warriors of a seat
    loads = {ann = {wood = 2}}             # what a seat's warriors carry
    off_board = 3                          # the barbarian's warriors off the board
    prices = {wood = 2}
    buildings = {ann = ["church"]}         # finished buildings; exact
    paid = {ann = {keep = {stone = 2}}}    # what lies on projects
    churches = {ann = {coins = 3}}
    heads = {ann = "bob"}
    relations = {"ann|bob" = "peace"}
    agreements = ["parley"]                # the kinds of the agreements, in order
    broken = [1]                           # the agreements marked broken
    offers = {1 = "accepted"}
    seen = ["ann"]                         # who saw the event card
    bonuses = {C3 = {ann = [3, 3]}}        # modifiers in the last roll of a fight there
    kills = 1                              # warriors killed (hard conflicts)
    freeing = {ann = 3}                    # revolts waiting for the barbarian's choice
    winners = ["ann"]                      # omit while the game goes on; reason too
"""

RESOURCES = ("wood", "stone", "food", "metal")


def place(game, word):
    """A place named in an expectation: a tile, or a lord's village."""
    if word in game["villages"]:
        return game["villages"][word][0]
    for tiles in game["villages"].values():
        if word in tiles:
            return tiles[0]
    return word


def check(state, expect) -> list[str]:
    """Differences between the game state and the expectations."""
    game = state["game"]
    problems = []
    for checker in (phase_problems, valley_problems, seat_problems, war_problems,
                    result_problems):
        problems += checker(state, game, expect)
    return problems


def differ(problems, what, want, got):
    if want != got:
        problems.append(f"{what}: expected {want!r}, got {got!r}")


def phase_problems(state, game, expect):
    problems = []
    for key in ("stage", "turn"):
        if key in expect:
            differ(problems, key, expect[key], game[key])
    if "round" in expect:
        differ(problems, "round", expect["round"], (game["round"] or {}).get("number"))
    if "asked" in expect:
        differ(problems, "asked", sorted(expect["asked"]), sorted(state["engine"]["requests"]))
    if "card" in expect:
        differ(problems, "card", expect["card"], game["card"])
    if "seen" in expect:
        differ(problems, "seen", sorted(expect["seen"]), sorted(game["seen"]))
    if "offers" in expect:
        got = {str(o["id"]): o["status"] for o in game["offers"]}
        differ(problems, "offers", {str(k): v for k, v in expect["offers"].items()}, got)
    if "taxed" in expect:
        differ(problems, "taxed", expect["taxed"], game["taxed"])
    if "freeing" in expect:
        differ(problems, "freeing", expect["freeing"],
               {x["lord"]: x["count"] for x in game["freeing"]})
    return problems


def valley_problems(state, game, expect):
    problems = []
    for word, goods in expect.get("goods", {}).items():
        differ(problems, f"goods on {word}", goods, goods_on(game, place(game, word)))
    for lord, farms in expect.get("farm_goods", {}).items():
        differ(problems, f"goods of {lord}'s village farms", farms,
               [f["goods"] for f in game["village_farms"][lord]])
    for lord, numbers in expect.get("famine", {}).items():
        differ(problems, f"{lord}'s village farms in famine", numbers,
               [i for i, f in enumerate(game["village_farms"][lord], start=1) if f["famine"]])
    if "bag" in expect:
        differ(problems, "bag", {g: expect["bag"].get(g, 0) for g in RESOURCES},
               {g: game["bag"].get(g, 0) for g in RESOURCES})
    for tile, owner in expect.get("farms", {}).items():
        got = game["farms"].get(tile, "none") if tile in game["farms"] else "none"
        differ(problems, f"farm on {tile}", owner, "free" if got is None else got)
    for lord, n in expect.get("village_farms", {}).items():
        differ(problems, f"village farms of {lord}", n, len(game["village_farms"][lord]))
    if "prices" in expect:
        got = {g: game["prices"][g] for g in expect["prices"]}
        differ(problems, "prices", expect["prices"], got)
    return problems


def seat_problems(state, game, expect):
    problems = []
    for seat, goods in expect.get("stocks", {}).items():
        differ(problems, f"stock of {seat}", goods, game["stocks"].get(seat, {}))
    for lord, bag in expect.get("jacquerie", {}).items():
        differ(problems, f"jacquerie bag of {lord}", bag, game["jacquerie"][lord])
    if "tokens" in expect:
        differ(problems, "tokens", expect["tokens"], game["tokens"])
    for lord, names in expect.get("buildings", {}).items():
        got = sorted(b for b, e in game["buildings"][lord].items() if e["done"] is not None)
        differ(problems, f"buildings of {lord}", sorted(names), got)
    for lord, row in expect.get("paid", {}).items():
        for building, goods in row.items():
            entry = game["buildings"][lord].get(building) or {}
            differ(problems, f"paid on {lord}'s {building}", goods, entry.get("paid", {}))
    for lord, goods in expect.get("churches", {}).items():
        differ(problems, f"church of {lord}", goods, game["churches"].get(lord, {}))
    return problems


def goods_on(game, where):
    """Every resource on a place: what lies there, and on a village its farms' goods."""
    total = dict(game["goods"].get(where, {}))
    for lord, tiles in game["villages"].items():
        if tiles[0] == where:
            for farm in game["village_farms"][lord]:
                for good, n in farm["goods"].items():
                    total[good] = total.get(good, 0) + n
    return {g: total[g] for g in RESOURCES if total.get(g)}


def count_at(game, word, out=None):
    rows = {}
    for w in game["warriors"]:
        if w["at"] == place(game, word) and (out is None or w["out"] == out):
            rows[w["seat"]] = rows.get(w["seat"], 0) + 1
    return rows


def war_problems(state, game, expect):
    problems = []
    for word, row in expect.get("warriors", {}).items():
        differ(problems, f"warriors on {word}", row, count_at(game, word))
    for word, row in expect.get("out", {}).items():
        differ(problems, f"warriors out of action on {word}", row, count_at(game, word, True))
    for seat, n in expect.get("armed", {}).items():
        differ(problems, f"armed warriors of {seat}", n,
               sum(1 for w in game["warriors"] if w["seat"] == seat and w["armed"]))
    for seat, goods in expect.get("loads", {}).items():
        got = {}
        for w in game["warriors"]:
            if w["seat"] == seat:
                for good, n in w["load"].items():
                    got[good] = got.get(good, 0) + n
        differ(problems, f"loads of {seat}", goods, got)
    if "off_board" in expect:
        differ(problems, "off the board", expect["off_board"],
               sum(1 for w in game["warriors"] if w["at"] is None))
    for lord, head in expect.get("heads", {}).items():
        differ(problems, f"head of {lord}'s domain", head, game["heads"][lord])
    for key, relation in expect.get("relations", {}).items():
        differ(problems, f"relation {key}", relation, game["relations"].get(key))
    if "agreements" in expect:
        differ(problems, "agreements", expect["agreements"],
               [a["kind"] for a in game["agreements"]])
    if "broken" in expect:
        differ(problems, "broken agreements", expect["broken"],
               [a["id"] for a in game["agreements"] if a.get("broken")])
    for word, row in expect.get("bonuses", {}).items():
        rolls = game["last_rolls"].get(place(game, word), [])
        got = {}
        for r in rolls:
            got.setdefault(r["seat"], []).append(r["bonus"])
        differ(problems, f"bonuses on {word}", row, got)
    if "kills" in expect:
        differ(problems, "killed", expect["kills"], sum(k["count"] for k in game["kills"]))
    return problems


def result_problems(state, game, expect):
    result = game["result"]
    if "winners" not in expect:
        return [f"the game ended unexpectedly: {result}"] if result else []
    if result is None:
        return [f"the game should be over with winners {expect['winners']}, but it goes on"]
    problems = []
    differ(problems, "winners", sorted(expect["winners"]), sorted(result["winners"]))
    if "reason" in expect:
        differ(problems, "reason", expect["reason"], result["reason"])
    return problems
