"""Games as files and the club's records: export (signed when the game counts), check and
import, the content hash that finds one game however its file was edited, whether a game
counts (played here, or signed by this referee or a trusted one), and each finished game's
summary for the club.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import secrets
from collections.abc import Callable, Collection
from typing import TypeVar

from .. import rulesets, signing
from .. import store as store_module
from ..common.problems import RuleViolation
from ..common.ruleset import Game, RuleSet
from ..costly import run as run_costly
from ..errors import ApiError
from ..signing import SigningKey
from ..states import replayed, states_of
from ..store import Store
from . import clock, engine, seats

log = logging.getLogger("referee")
T = TypeVar("T")

EXPORT_VERSION = 1


def export_format(rules: str) -> str:
    """What a game file of these rules calls its format: its rule set's ``file_format``
    (``<rules>-game`` unless the rule set keeps a name of its own)."""
    return rulesets.named(rules).file_format


def content_hash(game: Game) -> str:
    """The hash of what makes a game the game it is (its rule set's ``game_content``: each
    seat's disposition and the moves, seats by their place in the order of play), without
    names, ids, times, options, salts or fingerprints, nor the order of the events before
    play: the same game, however its file was edited, re-salted or re-ordered, has the same
    hash."""
    rule_set = rulesets.of(game)
    canonical = {"rules": rule_set.rules, **rule_set.game_content(game)}
    return hashlib.sha256(json.dumps(canonical, sort_keys=True, separators=(",", ":"),
                                     ensure_ascii=True).encode()).hexdigest()


def fill_content_hashes(store: Store) -> None:
    """Give every finished game without a content hash its own (a game stored before the
    hash was of the game's content; see migration 0009), so that a file of it is found as
    the game already here. Each is replayed outside the write lock, once."""
    states = states_of(store)
    for game_id in store.finished_without_content_hash():
        with states.lock(game_id):
            stamp = content_hash(states.current(store, game_id))
        with store.write(game_id):
            store.claim_content_hash(game_id, stamp)


def counts_in_records(imported: bool, signer: str | None, trusted: Collection[str]) -> bool:
    """Whether a finished game counts in the club's records (its tables, players and
    totals): every game played here; an imported one only if its file carried a valid
    signature of this referee or of a referee the organiser trusts (``trusted``: their
    public keys, ``trusted_keys``). Any other import is listed as unverified and counted
    nowhere: anyone can make a file whose fingerprints verify."""
    return not imported or (signer is not None and signer in trusted)


def trusted_keys(store: Store, own: str) -> frozenset[str]:
    """The public keys whose signed files count here: this referee's own (``own``) and
    those the organiser trusts (``referee trust add``)."""
    return frozenset({own, *store.trusted_keys()})


def export_game(store: Store, game_id: str, key: SigningKey) -> dict:
    """A finished game as one file, like a chess PGN: its whole event log, with every
    disposition, and the fingerprints and salts that prove no fleet moved. A game that
    counts in this referee's records (played here, or imported from a trusted referee's
    signed file) is signed with this referee's key; an unverified import is not, so no file
    is ever vouched for here that was not. The caller must not change the file it is given:
    it is kept for the next caller."""
    imported, signer = store.import_signer(game_id)
    signed = counts_in_records(imported, signer, trusted_keys(store, key.public))

    def made(game: Game) -> dict:
        rule_set = rulesets.of(game)
        if rule_set.status_view(game)["phase"] != "over":
            rule = rule_set.secrecy_rule
            raise ApiError(409, f"Only a finished game can be exported ({rule})", rule=rule)
        shown = rule_set.game_file_view(game)
        document = {"format": export_format(rule_set.rules), "version": EXPORT_VERSION,
                    "rules": rule_set.rules, "id": game_id, "exported_at": clock.now(),
                    "fingerprints": shown["fingerprints"], "salts": shown["salts"],
                    **({"dice": shown["dice"]} if "dice" in shown else {}),
                    "result": shown["result"], "events": shown["events"]}
        return key.sign(document) if signed else document

    # made once and kept (its exported_at the first time): asked again, it costs nothing
    return engine.derived(store, game_id, ("export", signed, key.public), made,
                          lambda document: 4 * len(document["events"]) * 64)


def _refuse_file(message: str, field: str = "file") -> ApiError:
    return ApiError(422, f"This game file cannot be imported: {message}. Nothing was stored.",
                    field=field)


def check_export(document: object) -> Game:
    """Replay an exported game and check every claim it makes; the replayed game or a refusal."""
    if not isinstance(document, dict):
        raise _refuse_file("it is not a game file (a JSON object)")
    rules = document.get("rules")
    if not isinstance(rules, str) or rules not in rulesets.RULE_SETS:
        raise _refuse_file(f"it is for the rules {str(rules)[:40]!r}, which this referee "
                           f"does not play ({', '.join(rulesets.RULE_SETS)})", "rules")
    rule_set = rulesets.RULE_SETS[rules]
    expected = export_format(rules)
    if (document.get("format"), document.get("version")) != (expected, EXPORT_VERSION):
        raise _refuse_file(f"it is not a {expected} file of version {EXPORT_VERSION}",
                           "format")
    events = document.get("events")
    if not isinstance(events, list) or not events:
        raise _refuse_file("its events are missing", "events")
    if len(events) > engine.MAX_LOG:
        raise _refuse_file(f"it has {len(events):,} events; a game here has at most "
                           f"{engine.MAX_LOG:,}", "events")
    _check_levels(events, rule_set)
    game = rule_set.empty()
    for n, event in enumerate(events, start=1):
        try:
            game.apply(event)
        except RuleViolation as err:
            raise _refuse_file(f"event {n} breaks the rules: {err}", "events") from None
        except (TypeError, KeyError, ValueError, AttributeError) as err:
            raise _refuse_file(f"event {n} is malformed ({err.__class__.__name__})",
                               "events") from None
    if rule_set.status_view(game)["phase"] != "over":
        raise _refuse_file("the game in it is not finished", "events")
    shown = rule_set.game_file_view(game)
    if document.get("fingerprints") != shown["fingerprints"]:
        raise _refuse_file("its fingerprints do not match its dispositions", "fingerprints")
    if document.get("salts") != shown["salts"]:
        raise _refuse_file("its salts do not match its lock-ins", "salts")
    if document.get("result") != shown["result"]:
        raise _refuse_file("the result it states is not the one its moves give", "result")
    if "dice" in shown:  # BB24: every roll was checked against the revealed seed as it replayed
        if shown["dice"]["secret"] is None:
            raise _refuse_file("its dice cannot be checked: the referee's secret seed is not "
                               "revealed in it (BB24)", "events")
        if document.get("dice") != shown["dice"]:
            raise _refuse_file("the dice it states (commitment, seeds, secret seed, rolls) are "
                               "not those of its events (BB24)", "dice")
    return game


def _check_levels(events: list, rule_set: RuleSet) -> None:
    """A file's computers play known levels, as when a game is created here (R23), and so
    does the stand-in the host chose (R25)."""
    created = events[0]
    bots = created.get("bots") if isinstance(created, dict) else None
    for seat, level in (bots.items() if isinstance(bots, dict) else ()):
        if not isinstance(level, str) or level not in rule_set.levels:
            raise _refuse_file(f"the {str(seat)[:10]!r} computer's level is not one of "
                               f"{', '.join(rule_set.levels)}",
                               f"events[0].bots.{str(seat)[:10]}")
    for n, event in enumerate(events):
        if isinstance(event, dict) and event.get("type") == "stand_in_level" \
                and event.get("level") not in rule_set.levels:
            raise _refuse_file(f"event {n + 1} chooses a stand-in level that is not one of "
                               f"{', '.join(rule_set.levels)} (R25)", f"events[{n}].level")


def _duplicate(found: str) -> ApiError:
    return ApiError(409, f"This game is already on this referee (game {found}), perhaps with "
                         "other names; a game is imported once", field="file")


IMPORTS_PER_MINUTE = 10  # game files one client may send a minute (REFEREE_IMPORTS_PER_MINUTE)
IMPORT_WINDOW_S = 60


def admit_import(store: Store, client: str, limit: int = IMPORTS_PER_MINUTE) -> None:
    """Count a game file from this client (its remote address, as the server sees it behind
    any trusted proxy) before it is read or replayed: past ``limit`` a minute, 429 with
    Retry-After. Every worker process counts in the one database."""
    wait = store.take_turn(f"import:{client}", limit, IMPORT_WINDOW_S, clock.now())
    if wait:
        retry = max(1, math.ceil(wait))
        log.warning("imports from one client refused for %d s: over %d a minute", retry, limit)
        raise ApiError(429, f"This referee takes at most {limit} game file"
                            f"{'' if limit == 1 else 's'} a minute from one address; try again "
                            f"in {seats.seconds(retry)}", field="file",
                       headers={"Retry-After": str(retry)})


def file_signer(document: object) -> str | None:
    """The public key whose valid signature a game file carries (None: it has none); a
    signature that cannot be read or does not match the file is refused, naming its field."""
    if not isinstance(document, dict):
        return None  # check_export refuses it
    try:
        return signing.signer(document)
    except signing.SignatureRefused as refused:
        raise _refuse_file(refused.message, refused.field) from None


def import_game(store: Store, document: object, own: str) -> dict:
    """Store a checked game file under a new id; every seat gets a token to read it. The same
    game twice, even re-salted or re-ordered, is refused (409), except that a file that counts
    replaces an unverified copy of its game (else whoever imported a stripped copy first would
    keep the signed file out), and takes the place in the records of a game played here after
    it was played elsewhere (a player who saw both fleets at its end could replay it here
    first, under names of his choosing, to keep the signed file out). The key that signed
    the file is kept: the game counts in the club's records only if it is this referee's
    (``own``) or a trusted one's
    (``counts_in_records``); otherwise it is listed as unverified. Replaying a file is costly
    work, done in a slot of the pool for it (``costly``)."""
    game = run_costly("importing game files", check_export, document)  # its faults first
    signer = file_signer(document)
    stamp = content_hash(game)
    fill_content_hashes(store)
    game_id = secrets.token_hex(5)
    # the log as the core's replay gives it: each event in its normal form, nothing more
    events = rulesets.of(game).game_file_view(game)["events"]
    events[0]["id"] = game_id
    seat_names = events[0]["seats"]
    tokens = {seat: seats.new_secret(seats.TOKEN_BYTES) for seat in seat_names}
    created = clock.now()
    entry = club_entry(game)
    with store.write():
        trusted = trusted_keys(store, own)
        counted = counts_in_records(True, signer, trusted)
        found = store.game_with_content(stamp)
        replaced = copied = None
        if found and counted and not counts_in_records(*store.import_signer(found), trusted):
            store.remove_game(found)  # an unverified copy gives way to the signed file
            replaced = found
        elif found and counted and not store.import_signer(found)[0] \
                and played_first(events, store.created_at(found)):
            store.give_up_content(found)  # a replay here of a game played elsewhere first
            copied = found
        elif found:
            raise _duplicate(found)
        store.add_game(game_id, seats.new_secret(seats.TOKEN_BYTES), seat_names,
                       rulesets.of(game).rules, created)
        store.append(game_id, 1, events, created)
        for seat, token in tokens.items():
            store.claim(game_id, seat, token)
        store.mark_finished(game_id, created)
        store.mark_imported(game_id, stamp, signer)
        keep_club_entry(store, game_id, game, entry, trusted)
    if replaced:
        states_of(store).forget(replaced)
        log.warning("game %s, an unverified copy of the signed game file imported as %s, "
                    "is removed", replaced, game_id)
    if copied:
        log.warning("game %s, played here after the signed game imported as %s was played "
                    "elsewhere, is a copy of it: it counts in no record", copied, game_id)
    log.info("game %s imported with %d events (%s)", game_id, len(events),
             "counted" if counted else "unverified")
    return {"id": game_id, "seats": {seat: {"token": t} for seat, t in tokens.items()},
            "signer": signer, "counted": counted}


def played_first(events: list[dict], here_since: float | None) -> bool:
    """Whether a game file's game (its ``events``) was created before the game here that
    plays the same moves (created at ``here_since``): then the one here is the copy."""
    created = events[0].get("at") if events else None
    return isinstance(created, int | float) and here_since is not None and created < here_since


def club_entry(game: Game) -> dict | None:
    """A finished game's summary for the club, from its rule set; None (and a log line) if
    the rule set fails to make one: the game is summarised again when the club's page is next
    asked for, and the move that ended it stands."""
    try:
        return rulesets.of(game).club_entry(game)
    except Exception:
        log.exception("the club's summary of a finished %s game failed", rulesets.of(game).rules)
        return None


def keep_club_entry(store: Store, game_id: str, game: Game, entry: dict | None,
                     trusted: Collection[str] = ()) -> None:
    """Inside the write that finishes (or imports) the game: keep its summary and whether it
    counts (``counts_in_records``; ``trusted``: the keys whose signed files count, which a
    game played here does not need), and whether a move was made in it: a game decided
    before any move counts in no record, whoever played it (anyone can make one against
    himself)."""
    if entry is not None:
        imported, signer = store.import_signer(game_id)
        rule_set = rulesets.of(game)
        played = bool(rule_set.record_for(game, rule_set.creator_seat)["moves"])
        store.keep_club_entry(game_id, rule_set.rules,
                              counts_in_records(imported, signer, trusted), entry, played)


def recount_imports(store: Store, own: str) -> None:
    """Whether each imported game counts, again, once the trusted referees change (``referee
    trust``): trusting a key counts the games its files brought from then on, distrusting it
    counts them no more. The club's sections are made again as the set they sum changes."""
    trusted = trusted_keys(store, own)
    with store.write():
        for game_id, signer in store.import_signers().items():
            store.count_club_entry(game_id, counts_in_records(True, signer, trusted))


def fill_club_entries(store: Store, own: str) -> None:
    """Summarise every finished game the club has no summary of (finished before summaries
    were kept, or whose summary failed), each replayed once, privately: nothing kept in the
    states' cache is pushed out for it. One thread of a process at a time; a game whose
    summary fails is tried again only by another process (after a restart, say)."""
    kept = store_module.PER_FILE.of(store.path)
    waiting = [g for g in store.finished_without_entry() if g not in kept.unsummarised]
    if not waiting:
        return
    with kept.filling:
        for game_id in store.finished_without_entry():
            if game_id in kept.unsummarised:
                continue
            game = replayed(store, game_id)
            entry = club_entry(game)
            if entry is None:
                kept.unsummarised.add(game_id)
                continue
            with store.write(game_id):
                keep_club_entry(store, game_id, game, entry, trusted_keys(store, own))


def club_section(store: Store, rules: str, build: Callable[[list[dict]], T]) -> T:
    """What ``build`` (a rule set's club section) makes of the summaries of its games that
    count in the records, oldest first: made again only when another game is counted (and the
    section before it dropped)."""
    return states_of(store).latest(("club", rules), store.club_stamp(rules),
                                   lambda: build(store.counted_club_entries(rules)),
                                   lambda section: 4 * len(repr(section)))
