"""An independent, simple reader of inline XBRL's numeric facts (stdlib ElementTree), for tests to check
pipelines.inline_xbrl and filing_facts against: written apart from the parser, sharing nothing with it."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from decimal import Decimal

IX = "{http://www.xbrl.org/2013/inlineXBRL}"
XBRLI = "{http://www.xbrl.org/2003/instance}"
XBRLDI = "{http://xbrl.org/2006/xbrldi}"
NIL = "{http://www.w3.org/2001/XMLSchema-instance}nil"
SMALL_WORDS = {"no": 0, "none": 0, "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
               "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}


def reference_numeric_facts(body: bytes) -> list[tuple]:
    """An independent, simple reader: (concept, start, end, dims, unit, value, decimals) of every ix:nonFraction."""
    root = ET.fromstring(body)
    contexts = {}
    for ctx in root.iter(XBRLI + "context"):
        period = ctx.find(XBRLI + "period")
        instant = period.findtext(XBRLI + "instant")
        start = None if instant else period.findtext(XBRLI + "startDate")
        end = instant or period.findtext(XBRLI + "endDate")
        dims = {}
        for member in ctx.iter(XBRLDI + "explicitMember"):
            dims[member.get("dimension")] = member.text.strip()
        for member in ctx.iter(XBRLDI + "typedMember"):
            dims[member.get("dimension")] = "".join(member.itertext()).strip()
        contexts[ctx.get("id")] = (start and start.strip(), end and end.strip(), frozenset(dims.items()))
    units = {}
    for unit in root.iter(XBRLI + "unit"):
        num = [m.text.split(":")[-1] for m in unit.iter(XBRLI + "measure")]
        divide = unit.find(XBRLI + "divide")
        if divide is not None:
            num = [m.text.split(":")[-1] for m in divide.find(XBRLI + "unitNumerator").iter(XBRLI + "measure")]
            den = [m.text.split(":")[-1] for m in divide.find(XBRLI + "unitDenominator").iter(XBRLI + "measure")]
            units[unit.get("id")] = "/".join(("*".join(num), "*".join(den)))
        else:
            units[unit.get("id")] = "*".join(num)
    out = []
    for el in root.iter(IX + "nonFraction"):
        text = "".join(el.itertext()).strip()
        fmt = el.get("format", "")
        if el.get(NIL) == "true":
            value = None
        else:
            if fmt.endswith("fixed-zero"):
                value = Decimal(0)
            elif fmt.endswith("numwordsen"):
                value = Decimal(SMALL_WORDS[text.lower()])
            else:
                value = Decimal(text.replace(",", ""))
            value = value * Decimal(10) ** int(el.get("scale", "0"))
            if el.get("sign") == "-":
                value = -value
        start, end, dims = contexts[el.get("contextRef")]
        out.append((el.get("name"), start, end, dims, units[el.get("unitRef")], value, el.get("decimals")))
    return out


def disagreements(reference: list[tuple], stored: list[tuple]) -> list[str]:
    """What the stored facts miss of the reference's: ``stored`` rows are (concept, start, end, dims,
    unit, value, occurrences, inconsistent). Each fact's elements must all be counted; each element's
    value must be a stored value, or agree with the fact's kept value once rounded to the element's own
    decimals when the fact is not flagged inconsistent (duplicates kept once, as the most precise)."""
    rows: dict[tuple, list[tuple]] = {}
    for concept, start, end, dims, unit, value, occurrences, inconsistent in stored:
        rows.setdefault((concept, start, end, frozenset(dims), unit), []).append((value, occurrences, inconsistent))
    elements: dict[tuple, list[tuple]] = {}
    for concept, start, end, dims, unit, value, decimals in reference:
        elements.setdefault((concept, start, end, dims, unit), []).append((value, decimals))
    problems = [f"stored but not in the document: {k}" for k in rows.keys() - elements.keys()]
    for key, els in elements.items():
        kept = rows.get(key)
        if kept is None:
            problems.append(f"not stored: {key}")
            continue
        if sum(n for _, n, _ in kept) != len(els):
            problems.append(f"{key}: {len(els)} elements, counted {sum(n for _, n, _ in kept)}")
        for value, decimals in els:
            if any(v == value for v, _, _ in kept):
                continue
            ok = value is not None and decimals not in (None, "INF") and any(
                not bad and v is not None
                and v.quantize(Decimal(1).scaleb(-int(decimals))) == value.quantize(Decimal(1).scaleb(-int(decimals)))
                for v, _, bad in kept)
            if not ok:
                problems.append(f"{key}: element value {value} is not stored")
    return problems
