"""A seat's chart of an opponent (knowledge.py) follows what later reports tell (R15-R17, R20).

An R.P.'s sighting is the strongest evidence of what stood on a square, but not the last
word: an aircraft a later shot finds gone has flown or been destroyed, and a bomb destroys
aircraft and guns and hits ships.
"""

from __future__ import annotations

from referee.naval_war.knowledge import knowledge_chart


def report(n: int, weapon: str, at: list[str], **fields) -> dict:
    base = {"n": n, "by": "red", "target": "blue", "weapon": weapon, "at": at,
            "shot_down": False, "hits": [], "destroyed": {}, "shots": None, "seen": None}
    return {**base, **fields}


def sighting(square: str, piece: str | None, terrain: str = "land") -> dict:
    return {"square": square, "terrain": terrain, "piece": piece, "hit": False,
            "spent": False, "aircraft": piece if piece in ("bomber", "recon") else None}


SAW = report(1, "recon", ["B 2"], seen=[sighting("B 2", "bomber"), sighting("C 2", "aa-gun"),
                                        sighting("D 2", "cruiser", terrain="sea")])


def test_r15_an_aircraft_a_later_shot_finds_gone_is_no_longer_charted():
    shots = [{"at": "B 2", "result": None, "new": False, "sunk": False},
             {"at": "D 2", "result": None, "new": False, "sunk": False},
             {"at": "U 21", "result": None, "new": False, "sunk": False}]
    chart = knowledge_chart({"reports": [SAW, report(2, "salvo", ["B 2", "D 2", "U 21"],
                                                     shots=shots)]}, "blue")
    assert chart["B 2"]["piece"] is None and chart["B 2"]["terrain"] == "land"
    assert chart["B 2"]["move"] == 2
    assert chart["D 2"]["piece"] == "cruiser"  # a ship seen stays; the shot is a mistake


def test_r16_a_bomb_destroys_what_an_rp_saw_and_hits_the_ships():
    bomb = report(2, "bomber", ["C 3"], hits=[{"ship": "cruiser", "new_hits": 1,
                                               "sunk": False}],
                  destroyed={"bomber": 1, "aa-gun": 1})
    chart = knowledge_chart({"reports": [SAW, bomb]}, "blue")
    assert chart["B 2"]["piece"] is None and chart["C 2"]["piece"] is None
    assert chart["D 2"]["piece"] == "cruiser" and chart["D 2"]["hit"]
    assert chart["C 4"]["mark"] == "bombed"


def test_r17_a_sighting_without_later_news_is_kept():
    chart = knowledge_chart({"reports": [SAW]}, "blue")
    assert chart["B 2"]["piece"] == "bomber" and chart["C 2"]["piece"] == "aa-gun"
