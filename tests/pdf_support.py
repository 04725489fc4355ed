"""Reading a PDF's text back with poppler's pdftotext (poppler-utils, which `.ci/run` installs):
a whole booklet in a second, where pypdf's text extraction takes half a minute."""

from __future__ import annotations

import subprocess


def pdftotext(data: bytes, *, layout: bool = True) -> str:
    """The text of every page of a PDF, pages parted by a form feed; ``layout`` keeps each
    line's words where they stand on the page."""
    command = ["pdftotext", *(["-layout"] if layout else []), "-", "-"]
    return subprocess.run(command, input=data, capture_output=True, check=True,
                          timeout=60).stdout.decode()
