"""The City Grid of BUS as a graph (BUS-GRID).

Four blocks in a 2×2 square: 3×3 intersections named like a chess board, columns ``a``–``c``
from west to east and rows ``1``–``3`` from north to south (``a1`` is the north-west corner).
The 12 street *slots* are the segments between neighbouring intersections: 6 horizontal
(``"a1-b1"``: row 1, from ``a1`` to ``b1``) and 6 vertical (``"a1-a2"``). One street card lies
on each slot.

A bus stands on a slot with a *heading*: ``0`` towards the slot's second end (east on a
horizontal slot, south on a vertical one) or ``1`` towards its first end (west or north). A
*node* is ``slot * 2 + heading`` (0–23). One step (BUS-MOVE) drives through the intersection
ahead onto any *other* street there, straight on or turning, never back the way it came (no
U-turn): 1 choice at a corner, 2 at the middle of a side, 3 at the centre.

Sides of a street card: on a horizontal slot side ``0`` is north and ``1`` south; on a vertical
slot ``0`` is west and ``1`` east. Buses drive on the right (BUS-CH-SIDE): heading east the
right-hand side is south, heading west it is north, heading south it is west, heading north it
is east.

Standard library only; everything here is fixed, so it is computed once at import.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

COLUMNS = "abc"
ROWS = "123"
#: Number of street slots (BUS-GRID).
NUM_SLOTS = 12
#: Number of (slot, heading) nodes.
NUM_NODES = 2 * NUM_SLOTS


@dataclass(frozen=True)
class Slot:
    """One street segment of the grid.

    Attributes:
        index (int): 0–11, in reading order (row 1's horizontals, then the verticals below them, …).
        name (str): e.g. ``"a1-b1"`` (horizontal) or ``"b2-b3"`` (vertical).
        kind (str): ``"h"`` (horizontal, west–east) or ``"v"`` (vertical, north–south).
        a (tuple[int, int]): first end (west or north) as (row, column), 0-based.
        b (tuple[int, int]): second end (east or south) as (row, column), 0-based.
    """

    index: int
    name: str
    kind: str
    a: tuple[int, int]
    b: tuple[int, int]

    def heading_name(self, heading: int) -> str:
        """``"E"``/``"W"`` on a horizontal slot, ``"S"``/``"N"`` on a vertical one (heading 0/1)."""
        return ("E", "W")[heading] if self.kind == "h" else ("S", "N")[heading]

    def side_name(self, side: int) -> str:
        """``"N"``/``"S"`` on a horizontal slot, ``"W"``/``"E"`` on a vertical one (side 0/1)."""
        return ("N", "S")[side] if self.kind == "h" else ("W", "E")[side]

    def right_side(self, heading: int) -> int:
        """The side on a bus's right when it drives along this slot with ``heading`` (BUS-CH-SIDE)."""
        return 1 - heading if self.kind == "h" else heading

    def ahead(self, heading: int) -> tuple[int, int]:
        """The intersection a bus with ``heading`` drives into next."""
        return self.b if heading == 0 else self.a


def node_name(point: tuple[int, int]) -> str:
    """``(0, 0)`` → ``"a1"``: an intersection's name."""
    return f"{COLUMNS[point[1]]}{ROWS[point[0]]}"


def _build_slots() -> tuple[Slot, ...]:
    slots = []
    for r in range(3):
        for c in range(2):
            a, b = (r, c), (r, c + 1)
            slots.append(Slot(len(slots), f"{node_name(a)}-{node_name(b)}", "h", a, b))
        if r < 2:
            for c in range(3):
                a, b = (r, c), (r + 1, c)
                slots.append(Slot(len(slots), f"{node_name(a)}-{node_name(b)}", "v", a, b))
    return tuple(slots)


#: The 12 slots in reading order.
SLOTS: tuple[Slot, ...] = _build_slots()
#: Slot index by name.
SLOT_INDEX: dict[str, int] = {s.name: s.index for s in SLOTS}
#: The slots meeting at each intersection.
INCIDENT: dict[tuple[int, int], tuple[int, ...]] = {
    (r, c): tuple(s.index for s in SLOTS if (r, c) in (s.a, s.b)) for r in range(3) for c in range(3)
}


def node(slot: int, heading: int) -> int:
    """The node of a bus on ``slot`` (0–11) with ``heading`` (0 or 1)."""
    return slot * 2 + heading


def node_label(n: int) -> str:
    """``"b1-b2 S"``: slot name and heading letter of node ``n``."""
    slot = SLOTS[n // 2]
    return f"{slot.name} {slot.heading_name(n % 2)}"


#: ``NODE_LABELS[n]`` is ``node_label(n)``.
NODE_LABELS: tuple[str, ...] = tuple(node_label(n) for n in range(NUM_NODES))


def _successors(n: int) -> tuple[int, ...]:
    slot = SLOTS[n // 2]
    point = slot.ahead(n % 2)
    out = []
    for t in INCIDENT[point]:
        if t == slot.index:
            continue  # no U-turn (BUS-MOVE)
        other = SLOTS[t]
        out.append(node(t, 0 if other.a == point else 1))
    return tuple(sorted(out))


#: ``SUCCESSORS[n]``: the nodes one step (BUS-MOVE) from node ``n``.
SUCCESSORS: tuple[tuple[int, ...], ...] = tuple(_successors(n) for n in range(NUM_NODES))


def _all_distances() -> tuple[tuple[int, ...], ...]:
    table = []
    for start in range(NUM_NODES):
        dist = [-1] * NUM_NODES
        dist[start] = 0
        queue = deque([start])
        while queue:
            u = queue.popleft()
            for v in SUCCESSORS[u]:
                if dist[v] < 0:
                    dist[v] = dist[u] + 1
                    queue.append(v)
        table.append(tuple(dist))
    return tuple(table)


#: ``DIST[u][v]``: the fewest steps from node ``u`` to node ``v`` (0 when equal); every node can
#: reach every other (checked in the tests).
DIST: tuple[tuple[int, ...], ...] = _all_distances()

#: Sides of the grid a player can take as their progress area (BUS-SETUP), in the order the
#: seats take them (a ruling: two players sit opposite), with the two slots along each side
#: as (left, right) seen by the player sitting there: left is "picked up", right "dropped off".
PROGRESS_SIDES: tuple[tuple[str, tuple[str, str]], ...] = (
    ("south", ("a3-b3", "b3-c3")),
    ("north", ("b1-c1", "a1-b1")),
    ("west", ("a1-a2", "a2-a3")),
    ("east", ("c2-c3", "c1-c2")),
)


def _enter_steps() -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple(1 + min(DIST[s][v] for s in SUCCESSORS[u]) for v in range(NUM_NODES)) for u in range(NUM_NODES)
    )


#: ``ENTER[u][v]``: the fewest steps (at least 1) from node ``u`` until the bus *enters* node
#: ``v``. Differs from ``DIST`` only when ``u == v``: a bus does not enter the card it stands
#: on without driving round a loop (BUS-DROPOFF).
ENTER: tuple[tuple[int, ...], ...] = _enter_steps()
