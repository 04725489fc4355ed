"""waitress, with one fix for phones that poll: keep the connection open after a 304.

waitress closes the connection after any response without a Content-Length, 304 Not Modified
included, although a 304 never has a body and its end is known (RFC 9112, 6.3). Every phone
polls every two seconds and nearly always gets a 304, so each poll would cost a new TCP
connection. ``serve`` runs waitress with a task that keeps such connections alive, unless the
client asked to close or the response was already closing for another reason.
"""

from __future__ import annotations

import logging

import waitress
from waitress.channel import HTTPChannel
from waitress.task import WSGITask

BODILESS = ("204", "304")


class KeepAliveTask(WSGITask):
    def build_response_header(self) -> bytes:
        closing_already = self.close_on_finish
        header = super().build_response_header()
        asked_to_close = self.request.headers.get("CONNECTION", "").lower() == "close"
        if (self.status.startswith(BODILESS) and self.version == "1.1"
                and not closing_already and not asked_to_close):
            self.close_on_finish = False
            header = header.replace(b"\r\nConnection: close", b"")
        return header


class KeepAliveChannel(HTTPChannel):
    task_class = KeepAliveTask


CONNECTION_LIMIT = 1000  # kept-alive phones hold a connection each; waitress's default is 100


def serve(app, **options) -> None:
    """waitress.serve, with 304s that keep the connection alive and room for every phone."""
    options.setdefault("connection_limit", CONNECTION_LIMIT)
    logging.basicConfig()
    server = waitress.create_server(app, **options)
    server.channel_class = KeepAliveChannel
    server.print_listen("Serving on http://{}:{}")
    server.run()
