"""The clairvoyant: the bench's reference player, who knows every opponent's real chart.

It is a yardstick, never an opponent: it is not one of ``LEVELS``, no form, page or API offers
it, and only the bench (``referee/match.py``) plays it, handing it, besides its own seat's view,
the views its opponents' own players see (their charts and what befell them). Against the same
fleets, what a level sinks as a fraction of what the clairvoyant sinks says how close the level
comes to the limit of what can be known.

It plays with the forces (the disposition) of the computer it stands for, and greedily:

- an atom bomber at the 5 x 5 holding the most ship squares not yet hit (R16);
- a bomber at the 3 x 3 holding the most, out of reach of every unspent gun (R18);
- a salvo at three ship squares not yet hit (R12);
- whichever of these hits the most ship squares now, aircraft first on a tie (an aircraft on
  the ground can be destroyed before it flies); an R.P. is flown at an unspent gun (to spend
  it, R18) when that gun alone keeps a bomber from its best target, and otherwise only when
  nothing can hit a ship square. Ties between squares break on the enemy's aircraft and guns
  destroyed, then on reading order.
"""

from __future__ import annotations

from referee.naval_war.catalogue import SHIP_LENGTH, ship_squares
from referee.naval_war.squares import parse_square

from .board import AREA, CELLS, SIZE, distance, index
from .seat import aircraft_move, read_seat, salvo_move

ATOM, BOMBER, RECON = "atom-bomber", "bomber", "recon"


class Chart:
    """An opponent's real chart, read from that opponent's own view."""

    def __init__(self, view: dict) -> None:
        own = view.get("disposition") or {}
        damage = view.get("damage") or {}
        hit = {index(s) for s in damage.get("hit", [])}
        gone = {index(s) for s in damage.get("destroyed", []) + damage.get("flown", [])}
        spent = {index(s) for s in damage.get("spent", [])}
        destroyed = {index(s) for s in damage.get("destroyed", [])}
        self.ships = [ship_cells(ship) for ship in own.get("ships", [])]
        self.lengths = [SHIP_LENGTH[ship["type"]] for ship in own.get("ships", [])]
        self.unhit = {sq for cells in self.ships for sq in cells} - hit
        self.planes = {index(p["at"]) for p in own.get("aircraft", [])} - gone
        guns = {index(g) for g in own.get("guns", [])} - destroyed
        self.guns = guns - spent  # unspent and intact: these still fire (R18)
        self.targets = guns | self.planes  # what a hit destroys besides ships (R15)

    def value(self, squares) -> tuple[int, int]:
        """(ship squares not yet hit, aircraft and guns destroyed) of a shot at these."""
        return (sum(1 for s in squares if s in self.unhit),
                sum(1 for s in squares if s in self.targets))

    def guarded(self, centre: int) -> list[int]:
        """The unspent guns that would shoot down a bomber or R.P. aimed here (R18)."""
        return [g for g in self.guns if distance(g, centre) <= 1]


def ship_cells(ship: dict) -> tuple[int, ...]:
    return tuple(s.row * SIZE + s.col
                 for s in ship_squares(ship["type"], parse_square(ship["at"]), ship.get("dir")))


def points_lost(view: dict) -> int:
    """The ship points (R22) a seat has lost, from its own view: the lengths of its sunk
    ships."""
    chart = Chart(view)
    return sum(length for cells, length in zip(chart.ships, chart.lengths, strict=True)
               if not any(sq in chart.unhit for sq in cells))


def best_area(chart: Chart, radius: int, guarded: bool) -> tuple[tuple[int, int], int]:
    """The best centre for an area of this radius: (value, centre); ``guarded`` False keeps
    out of reach of unspent guns."""
    best = ((-1, -1), 0)
    for centre in range(CELLS):
        if not guarded and chart.guarded(centre):
            continue
        value = chart.value(AREA[radius][centre])
        if value > best[0]:
            best = (value, centre)
    return best


def best_salvo(chart: Chart) -> tuple[tuple[int, int], list[int]]:
    """Three different squares: ship squares not yet hit first, then aircraft and guns."""
    order = sorted(chart.unhit) + sorted(chart.targets - chart.unhit)
    rest = [s for s in range(CELLS) if s not in set(order)]
    squares = (order + rest)[:3]
    return chart.value(squares), squares


def choose(seat, charts: dict[str, Chart]) -> dict:
    """The clairvoyant's move for ``seat`` (a ``Seat``) against the charts it knows."""
    candidates = []  # (value, preference, move)
    for target in seat.opponents:
        chart = charts[target]
        if seat.aircraft.get(ATOM):
            value, centre = best_area(chart, 2, True)
            candidates.append((value, 3, aircraft_move(ATOM, seat.aircraft[ATOM][0], centre,
                                                       target)))
        if seat.aircraft.get(BOMBER):
            value, centre = best_area(chart, 1, False)
            if value[0] >= 0:
                candidates.append((value, 2, aircraft_move(BOMBER, seat.aircraft[BOMBER][0],
                                                           centre, target)))
            if seat.aircraft.get(RECON):  # an R.P. to spend the gun that guards the best 3 x 3
                open_value = value if value[0] >= 0 else (-1, -1)
                value, centre = best_area(chart, 1, True)
                guns = chart.guarded(centre)
                if value > open_value and len(guns) == 1:
                    candidates.append(((value[0] - 1, 0), 0, aircraft_move(
                        RECON, seat.aircraft[RECON][0], guns[0], target)))
        if seat.salvoes:
            value, squares = best_salvo(chart)
            candidates.append((value, 1, salvo_move(squares, target)))
        if seat.aircraft.get(RECON):
            candidates.append(((0, 0), -1, aircraft_move(RECON, seat.aircraft[RECON][0],
                                                          index("K 11"), target)))
    if not candidates:  # no forces left: the rules pass such a seat over (R14)
        raise ValueError("the clairvoyant has nothing left to move")
    best = max(candidates, key=lambda c: (c[0][0] > 0, c[0][0], c[1] if c[0][0] > 0 else 0,
                                          c[0][1], c[1]))
    return best[2]


class Clairvoyant:
    """The reference player with the forces of ``computer`` (its disposition)."""

    level = "clairvoyant"

    def __init__(self, computer) -> None:
        self.computer = computer

    def disposition(self, view: dict | None = None) -> dict:
        return self.computer.disposition(view)

    def move(self, view: dict, others: dict[str, dict]) -> dict:
        """A move for the seat whose view this is, knowing the charts in ``others`` (each
        opponent's own view, handed over by the bench alone)."""
        seat = read_seat(view)
        return choose(seat, {target: Chart(others[target]) for target in seat.opponents})


class Bench:
    """The Naval War Game's part of the bench (``RuleSet.bench``)."""

    @staticmethod
    def clairvoyant(computer) -> Clairvoyant:
        return Clairvoyant(computer)

    @staticmethod
    def points_lost(view: dict) -> int:
        return points_lost(view)

    @staticmethod
    def fleet_points(view: dict) -> int:
        """The ship points (R22) of a seat's whole fleet, from its own view."""
        return sum(Chart(view).lengths)


BENCH = Bench()
