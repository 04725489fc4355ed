"""The referee's work on stored games: create, seat, authorise, and act inside one transaction.

Every change follows one path (``engine.act``): take the game's replayed state from this
process's cache (``states``), let the core check and apply the command, then open the store's
write transaction only to check that the game's version is unchanged and append the new events.
A refused command raises before anything is written, so nothing is ever half-applied. Every
computer is seeded from its game's server secret, never from anything a player sees; a seat's
join code is derived from the installation's secret key and stored nowhere.

The package, one job a module:

- ``engine``: the transaction engine (``act``, ``settle``, ``derived``): every change
  one transaction, every product of a version made once;
- ``commands``: a seat's and the host's commands, each one ``act``: create a game, drafts and
  lock-in, moves, agreeing, resigning, the disposition clock, forfeits;
- ``seats``: join codes, tokens, recovery codes (R24), hosting, and who a token is;
- ``clocks``: who is present, the move clock, the stand-in and when the computers are due (R25);
- ``computers``: the computers, seeded from the game's secret, and their moves (``play_bots``);
- ``views``: the views kept per version (a seat's, the host's, the public status, the record);
- ``files``: game files (export, check, import, signatures and trust, the content hash) and the
  club's summaries;
- ``clock``: the one reading of the time, ``clock.now()``, which every module calls so that a
  test moves the time everywhere by moving that one function.

Callers use the package (``service.act(...)``, ``service.seat_view(...)``): the public functions
are re-exported here. ``now()`` here reads ``clock.now()`` at each call, so it follows a moved
clock too.
"""

from __future__ import annotations

from . import clock, clocks, commands, computers, engine, files, seats, views
from .clocks import (
    PRESENT_S,
    RECHECK_S,
    SEEN_EVERY_S,
    choose_stand_in_level,
    computer_due_at,
    computer_to_move,
    computers_to_move,
    deadline_of,
    mark_present,
    mark_seen,
    move_clock,
    reschedule,
    stand_in,
    stand_in_level,
    wake_computers,
)
from .commands import (
    MoveMade,
    agree_to_end,
    create_game,
    extend_clock,
    forfeit,
    forfeit_seat,
    lock_in,
    lock_in_draft,
    make_move,
    play_on,
    resign,
    submit_and_lock_in,
    submit_draft,
)
from .computers import GAME_SECRET_BYTES, MAX_BOT_MOVES, computer, play_bots
from .engine import (
    ACT_ATTEMPTS,
    ENDING_ROOM,
    MAX_EVENTS,
    MAX_LOG,
    act,
    computers_waiting,
    derived,
    keep_move_lines,
    settle,
    write_kept_lines,
)
from .files import (
    EXPORT_VERSION,
    IMPORT_WINDOW_S,
    IMPORTS_PER_MINUTE,
    admit_import,
    check_export,
    club_section,
    content_hash,
    counts_in_records,
    export_format,
    export_game,
    file_signer,
    fill_club_entries,
    fill_content_hashes,
    import_game,
    recount_imports,
    trusted_keys,
)
from .seats import (
    DOUBLE_TAP_S,
    JOIN_CODE_BYTES,
    RECOVER_FORGIVEN_S,
    RECOVER_FREE_GUESSES,
    RECOVER_MAX_WAIT_S,
    RECOVERY_ALPHABET,
    RECOVERY_GROUP,
    RECOVERY_GROUPS,
    TOKEN_BYTES,
    SeatKeys,
    authorise,
    claim_seat,
    hand_over_hosting,
    is_host,
    join_code,
    join_codes,
    new_recovery_code,
    new_secret,
    recover_seat,
    recovery_hash,
    reissue_join_code,
    require_game,
    require_seat,
    seconds,
)
from .views import (
    SeatView,
    evening,
    host_status,
    kept_view,
    postmortem_document,
    public_status,
    record_body,
    seat_view,
    seating,
    status,
    view,
)


def now() -> float:
    """The service's time (``clock.now()``, read at each call)."""
    return clock.now()


__all__ = [
    "ACT_ATTEMPTS", "DOUBLE_TAP_S", "ENDING_ROOM", "EXPORT_VERSION",
    "GAME_SECRET_BYTES", "IMPORTS_PER_MINUTE", "IMPORT_WINDOW_S", "JOIN_CODE_BYTES",
    "MAX_BOT_MOVES", "MAX_EVENTS", "MAX_LOG", "PRESENT_S", "RECHECK_S", "RECOVERY_ALPHABET",
    "RECOVERY_GROUP", "RECOVERY_GROUPS", "RECOVER_FORGIVEN_S", "RECOVER_FREE_GUESSES",
    "RECOVER_MAX_WAIT_S", "SEEN_EVERY_S", "TOKEN_BYTES", "MoveMade", "SeatKeys", "SeatView", "act",
    "admit_import", "agree_to_end", "authorise", "check_export", "choose_stand_in_level",
    "claim_seat", "clock", "clocks", "club_section", "commands", "computer", "computer_due_at",
    "computer_to_move", "computers", "computers_to_move", "computers_waiting", "content_hash",
    "counts_in_records",
    "create_game", "deadline_of", "derived",
    "engine", "evening", "export_format", "export_game", "extend_clock", "file_signer", "files",
    "fill_club_entries", "fill_content_hashes", "forfeit", "forfeit_seat", "hand_over_hosting",
    "host_status", "import_game", "is_host", "join_code", "join_codes", "keep_move_lines",
    "kept_view", "lock_in", "lock_in_draft", "make_move", "mark_present", "mark_seen", "move_clock",
    "new_recovery_code", "new_secret", "now", "play_bots", "play_on", "postmortem_document",
    "public_status", "recount_imports", "record_body", "recover_seat", "recovery_hash",
    "reissue_join_code", "require_game", "require_seat", "reschedule", "resign", "seat_view",
    "seating", "seats", "seconds", "settle", "stand_in", "stand_in_level", "status",
    "submit_and_lock_in", "submit_draft", "trusted_keys", "view", "views", "wake_computers",
    "write_kept_lines",
]
