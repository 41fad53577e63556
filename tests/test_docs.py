"""The manual stays true to the tree: every link of README.md, CHANGELOG.md and docs/*.md resolves
(file and heading), and every repository path they name in backticks exists (so a moved module or
a renamed file fails here, naming the page and the path, instead of leaving the docs stale)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
TOP = ("pipelines", "warehouse", "flows", "schema", "tests", "scripts", "docs")
# Paths the docs name that are not in the checkout on purpose: where a wheel carries schema/.
NOT_IN_CHECKOUT = {"warehouse/schema/"}
_LINK = re.compile(r"\]\(([^)#\s]*)(#[^)\s]*)?\)")
_PATH = re.compile(r"`((?:" + "|".join(TOP) + r")/[A-Za-z0-9_./*-]+)`")


def anchors(page: Path) -> set[str]:
    """GitHub's heading anchors of a markdown page (lower case, punctuation dropped, spaces to -)."""
    heads = re.findall(r"^#+ (.*)$", page.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_links_and_paths_of_the_docs_exist(page):
    text = page.read_text(encoding="utf-8")
    broken = []
    for m in _LINK.finditer(text):
        target, anchor = m.group(1), m.group(2)
        if target.startswith(("http://", "https://")):
            continue
        dest = (page.parent / target) if target else page
        if not dest.exists():
            broken.append(f"link to {target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor[1:] not in anchors(dest):
            broken.append(f"link to {target}{anchor}: no such heading")
    for m in _PATH.finditer(text):
        path = m.group(1).rstrip(".")
        if path in NOT_IN_CHECKOUT or "NNNN" in path:
            continue
        found = list(ROOT.glob(path)) if "*" in path else [ROOT / path] if (ROOT / path).exists() else []
        if not found:
            broken.append(f"`{path}`: not in the repository")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)
