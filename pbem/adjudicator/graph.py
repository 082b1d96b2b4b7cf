"""Graph helpers shared by games: connected groups in a fixed, sorted order."""


def components(nodes, linked):
    """Maximal connected groups of `nodes`, where linked(a, b) says two nodes touch.

    Each group is a sorted list; groups are sorted by their first member, so the
    result never depends on set or dict order.
    """
    remaining = sorted(nodes)
    pending = set(remaining)
    groups = []
    for start in remaining:
        if start not in pending:
            continue
        pending.discard(start)
        group, frontier = [start], [start]
        while frontier:
            node = frontier.pop()
            for other in sorted(pending):
                if linked(node, other):
                    pending.discard(other)
                    group.append(other)
                    frontier.append(other)
        groups.append(sorted(group))
    return groups


def symmetric(adjacency: dict) -> dict:
    """The adjacency with every link made two-way, each list sorted."""
    out = {node: set(links) for node, links in adjacency.items()}
    for node, links in adjacency.items():
        for other in links:
            out.setdefault(other, set()).add(node)
    return {node: sorted(links) for node, links in sorted(out.items())}
