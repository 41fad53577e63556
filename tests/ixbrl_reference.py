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
    """An independent, simple reader: (concept, start, end, dims, unit, value) of every ix:nonFraction."""
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
        out.append((el.get("name"), start, end, dims, units[el.get("unitRef")], value))
    return out
