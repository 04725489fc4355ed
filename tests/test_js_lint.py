"""JavaScript: `make lint` lints the scripts with Biome, pinned and installed by the Makefile into
the project like the venv."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_biome_is_pinned_to_one_version():
    wanted = json.loads((ROOT / "package.json").read_text())["devDependencies"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", wanted["@biomejs/biome"]), wanted


def test_make_lint_runs_ruff_and_biome():
    makefile = (ROOT / "Makefile").read_text()
    lint = re.search(r"^lint:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert "ruff check" in lint and "$(BIOME) lint" in lint
    assert "npm install --no-audit --no-fund" in makefile
    assert "node_modules/" in (ROOT / ".gitignore").read_text().split()


@pytest.mark.skipif(not (ROOT / "node_modules" / ".bin" / "biome").exists()
                    or shutil.which("node") is None, reason="make lint installs Biome")
def test_the_scripts_pass_biome():
    done = subprocess.run([str(ROOT / "node_modules" / ".bin" / "biome"), "lint"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
