"""The version moves with the changelog: CHANGELOG.md's newest section is pyproject.toml's version."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_newest_changelog_section_is_the_project_version():
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    sections = re.findall(r"^## (\d+\.\d+\.\d+)\b", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.M)
    assert sections and sections[0] == version, (sections[:1], version)
    as_tuples = [tuple(map(int, s.split("."))) for s in sections]
    assert as_tuples == sorted(as_tuples, reverse=True) and len(set(as_tuples)) == len(as_tuples), sections
