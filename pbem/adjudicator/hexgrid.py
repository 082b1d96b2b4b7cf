"""Hexagonal grids in axial coordinates (q, r); the third cube coordinate is -q-r.

Directions are listed in a fixed order so every loop over them is
deterministic. Opposite directions are three apart: DIRECTIONS[i] and
DIRECTIONS[i + 3] lie on the same axis.
"""

import math

DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
AXES = tuple(DIRECTIONS[:3])


def add(a, b):
    """The hex a moved by the vector b."""
    return (a[0] + b[0], a[1] + b[1])


def scale(v, k):
    """The vector v times k."""
    return (v[0] * k, v[1] * k)


def neg(v):
    """The opposite vector."""
    return (-v[0], -v[1])


def distance(a, b) -> int:
    """Steps between two hexes."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(h):
    """The six hexes around h, in DIRECTIONS order."""
    return [add(h, d) for d in DIRECTIONS]


def hexagon(radius: int):
    """Every hex within `radius` of the origin, row by row (r, then q)."""
    return [(q, r) for r in range(-radius, radius + 1)
            for q in range(-radius, radius + 1) if distance((q, r), (0, 0)) <= radius]


def corners(radius: int):
    """The six corners of a hexagon of this radius, in DIRECTIONS order."""
    return [scale(d, radius) for d in DIRECTIONS]


def pixel(h, size: float):
    """Centre of a pointy-top hex of circumradius `size`, in SVG units."""
    q, r = h
    return (size * math.sqrt(3) * (q + r / 2), size * 1.5 * r)


def polygon(h, size: float):
    """The six corner points of a pointy-top hex as an SVG points string."""
    cx, cy = pixel(h, size)
    points = []
    for i in range(6):
        angle = math.radians(60 * i - 30)
        points.append(f"{cx + size * math.cos(angle):.1f},{cy + size * math.sin(angle):.1f}")
    return " ".join(points)
