"""What R24/R25 add to a phone's requests: prints medians; not a test.

In-process (Flask's test client over a temporary database), for a game in play:
1. the 304 poll `GET /api/v1/games/{id}` with an ETag, answered by the WSGI shortcut, now
   noting the seat as seen (one write at most every 10 s per seat);
2. the full view `GET /api/v1/games/{id}`, now with the move clock;
3. a recovery (`POST .../seats/{seat}/recover`), right and wrong code.

Run with `.venv/bin/python bench/seats_bench.py`.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

from apiclient import Api, FlaskTransport  # noqa: E402
from core_bench import median_ms  # noqa: E402
from helpers import QUIET  # noqa: E402

from referee import create_app  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "bench.db"), "SECRET_KEY": "bench"})
        client = app.test_client()
        api = Api(FlaskTransport(client))
        _, created, _ = api.call("POST", "/api/v1/games", {"move_minutes": 5})
        game = created["id"]
        keys = {}
        for seat, info in created["seats"].items():
            keys[seat] = api.call("POST", f"/api/v1/games/{game}/seats/{seat}",
                                  {"join_code": info["join_code"], "name": seat})[1]
        for seat in keys:
            api.call("PUT", f"/api/v1/games/{game}/disposition", QUIET,
                     token=keys[seat]["token"])
            api.call("POST", f"/api/v1/games/{game}/ready", token=keys[seat]["token"])
        auth = {"Authorization": f"Bearer {keys['red']['token']}"}
        etag = client.get(f"/api/v1/games/{game}", headers=auth).headers["ETag"]
        poll = median_ms(lambda: client.get(f"/api/v1/games/{game}",
                                            headers={**auth, "If-None-Match": etag}), 2000)
        view = median_ms(lambda: client.get(f"/api/v1/games/{game}", headers=auth), 500)
        state = {"code": keys["blue"]["recovery_code"]}

        def recover() -> None:
            body = client.post(f"/api/v1/games/{game}/seats/blue/recover",
                               json={"recovery_code": state["code"]}).get_json()
            state["code"] = body["recovery_code"]

        right = median_ms(recover, 200)
        print(f"304 poll (shortcut, seat noted as seen): {poll:.3f} ms median")
        print(f"full view with move clock: {view:.3f} ms median")
        print(f"recovery with the right code: {right:.3f} ms median")


if __name__ == "__main__":
    main()
