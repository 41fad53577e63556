"""Forms 3/4/5: parse an SEC ownershipDocument (bare XML, full .txt or feed .nc) into typed records.

``parse_ownership(body, document=..., accession=...)`` is a pure function from bytes to an
``OwnershipFiling``: the filing, every reporting owner, every transaction and holding line of both
tables (document order kept), every footnote and every link from a footnoted value to its footnote.

Values are kept exactly: numbers as ``Decimal`` parsed from the text (never float), dates as
``date``, booleans from ``0/1/true/false``. A value carried only by a footnote is ``None`` with its
footnote link recorded. XML is parsed with defusedxml: DTDs, entity declarations (billion laughs)
and external entities (XXE) are refused, and the document is rejected.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import ClassVar
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring as safe_fromstring

from pipelines.errors import RejectedDocument
from pipelines.ownership_header import Container, find_container
from pipelines.sec_formats import (
    OWNERSHIP_FORMS,
    accession_from_filename,
    accession_no_dashes,
    date_problem,
    normalize_accession,
    normalize_cik,
)

__all__ = [
    "FootnoteRef",
    "Footnote",
    "Holding",
    "Owner",
    "OwnershipFiling",
    "Transaction",
    "accession_from_filename",
    "accession_no_dashes",
    "normalize_accession",
    "ownership_archive_path",
    "parse_ownership",
    "submission_txt_url",
    "OWNERSHIP_FORMS",
]

MAX_BODY = 50_000_000
_MAX_INT_DIGITS = 28  # DECIMAL(38, 10)
_MAX_SCALE = 10
_WEIGHTED = re.compile(r"weighted[\s-]*average", re.IGNORECASE)
_RANGE = re.compile(
    r"(?:rang\w*|from)\s+(?:from\s+)?(?:of\s+)?\$?\s?([\d,]+(?:\.\d+)?)\s*(?:to|-|and)\s*\$?\s?([\d,]+(?:\.\d+)?)",
    re.IGNORECASE,
)


def ownership_archive_path(cik: int | str, accession: str) -> str:
    """Archives path of the full submission text (``edgar/data/{cik}/{acc no dashes}/{accession}.txt``).

    The full .txt always embeds the ownership XML and carries the SEC header (acceptance time,
    filing date), so it is the one document the refresh flow needs per Form 3/4/5. Any CIK of the
    filing (issuer or reporting owner) works: EDGAR files it under each.
    """
    acc = normalize_accession(accession)
    if acc is None:
        raise ValueError(f"not an accession number: {accession!r}")
    return f"edgar/data/{int(cik)}/{acc.replace('-', '')}/{acc}.txt"


def submission_txt_url(accession: str, cik: int | str) -> str:
    """Full URL of ``ownership_archive_path``."""
    return "https://www.sec.gov/Archives/" + ownership_archive_path(cik, accession)


@dataclass(frozen=True)
class Owner:
    """One reporting owner (document order in ``owner_number``)."""

    owner_number: int
    owner_cik: int | None
    owner_name: str | None
    street1: str | None
    street2: str | None
    city: str | None
    state: str | None
    zip_code: str | None
    state_description: str | None
    non_us_address: bool | None
    is_director: bool | None
    is_officer: bool | None
    officer_title: str | None
    is_ten_percent_owner: bool | None
    is_other: bool | None
    other_text: str | None


@dataclass(frozen=True)
class _Line:
    """What a transaction line and a holding line of either table both carry (``_common`` reads most)."""

    table_kind: str  # 'non_derivative' | 'derivative'
    line_number: int
    security_title: str | None
    transaction_form_type: str | None
    shares_owned_following: Decimal | None
    value_owned_following: Decimal | None
    direct_indirect: str | None
    nature_of_ownership: str | None
    conversion_or_exercise_price: Decimal | None
    exercise_date: date | None
    expiration_date: date | None
    underlying_security_title: str | None
    underlying_shares: Decimal | None
    underlying_value: Decimal | None
    footnote_ids: tuple[str, ...]


@dataclass(frozen=True)
class Transaction(_Line):
    """One transaction line of the non-derivative (Table I) or derivative (Table II) table."""

    transaction_date: date | None
    deemed_execution_date: date | None
    transaction_code: str | None
    equity_swap_involved: bool | None
    transaction_timeliness: str | None
    shares: Decimal | None
    total_value: Decimal | None
    price_per_share: Decimal | None
    acquired_disposed: str | None
    price_is_weighted_average: bool
    price_range_low: Decimal | None
    price_range_high: Decimal | None


@dataclass(frozen=True)
class Holding(_Line):
    """One holding line (nonDerivativeHolding / derivativeHolding): a position, no transaction."""


@dataclass(frozen=True)
class Footnote:
    footnote_id: str
    text: str


@dataclass(frozen=True)
class FootnoteRef:
    """A footnoted value: (table, kind, line, field) -> footnote id. Filing-level refs have no line."""

    table_name: str  # 'insider_transactions' | 'insider_holdings' | 'insider_filings'
    table_kind: str | None
    line_number: int | None
    field: str
    xml_element: str
    footnote_id: str


@dataclass(frozen=True)
class OwnershipFiling:
    """One Form 3/4/5 (or /A) ownership document with all of its tables."""

    kind: ClassVar[str] = "ownership"

    accession: str
    accession_is_derived: bool
    accession_source: str  # 'argument' | 'sec_header' | 'file_name'
    container: str  # 'xml' | 'sec_txt' | 'feed_nc'
    document_type: str
    submission_type: str | None
    schema_version: str | None
    period_of_report: date | None
    date_of_original_submission: date | None
    no_securities_owned: bool | None
    not_subject_to_section16: bool | None
    form3_holdings_reported: bool | None
    form4_transactions_reported: bool | None
    aff10b5one: bool | None
    issuer_cik: int
    issuer_name: str | None
    issuer_ticker: str | None
    issuer_foreign_ticker: str | None
    remarks: str | None
    signatures: tuple[tuple[str | None, date | None], ...]
    filed: date | None
    acceptance_time: datetime | None
    acceptance_time_raw: str | None
    xml_sha256: str
    owners: tuple[Owner, ...] = field(default_factory=tuple)
    transactions: tuple[Transaction, ...] = field(default_factory=tuple)
    holdings: tuple[Holding, ...] = field(default_factory=tuple)
    footnotes: tuple[Footnote, ...] = field(default_factory=tuple)
    footnote_refs: tuple[FootnoteRef, ...] = field(default_factory=tuple)

    @property
    def cik(self) -> int:
        """The issuer's CIK (what source_documents.cik records)."""
        return self.issuer_cik

    @property
    def is_amendment(self) -> bool:
        return self.document_type.endswith("/A")


# ---------------------------------------------------------------------------------------------------
# XML helpers


def _local(tag: object) -> str:
    t = str(tag)
    return t.rsplit("}", 1)[-1] if "}" in t else t


def _child(el: Element | None, name: str) -> Element | None:
    if el is None:
        return None
    for c in el:
        if _local(c.tag) == name:
            return c
    return None


def _children(el: Element | None, name: str) -> list[Element]:
    if el is None:
        return []
    return [c for c in el if _local(c.tag) == name]


def _path(el: Element | None, *names: str) -> Element | None:
    for n in names:
        el = _child(el, n)
    return el


def _text(el: Element | None) -> str | None:
    """Stripped text of ``el`` (all nested text), or None when absent/empty."""
    if el is None:
        return None
    t = "".join(el.itertext()).strip()
    return t or None


def _value_text(el: Element | None) -> str | None:
    """Text of a ``<x><value>..</value><footnoteId/></x>`` element, or of a plain ``<x>..</x>``."""
    if el is None:
        return None
    v = _child(el, "value")
    if v is not None:
        return _text(v)
    if any(_local(c.tag) == "footnoteId" for c in el):
        return None
    return _text(el)


class _Ctx:
    """Parsing context: names the document and accession in every rejection."""

    def __init__(self, document: str, accession: str | None):
        self.document = document
        self.accession = accession

    def reject(self, reason: str) -> RejectedDocument:
        who = f"accession {self.accession}: " if self.accession else ""
        return RejectedDocument(self.document, who + reason)

    def decimal(self, raw: str | None, where: str) -> Decimal | None:
        if raw is None:
            return None
        s = raw.replace(",", "").replace("$", "").strip()
        if not s:
            return None
        try:
            d = Decimal(s)
        except InvalidOperation:
            raise self.reject(f"{where}: {raw!r} is not a number") from None
        if not d.is_finite():
            raise self.reject(f"{where}: {raw!r} is not a finite number")
        sign, digits, exp = d.as_tuple()
        scale = -exp if isinstance(exp, int) and exp < 0 else 0
        if scale > _MAX_SCALE:
            if d != d.quantize(Decimal(1).scaleb(-_MAX_SCALE)):
                raise self.reject(f"{where}: {raw!r} has more than {_MAX_SCALE} decimal places")
            d = d.quantize(Decimal(1).scaleb(-_MAX_SCALE))
        if abs(d) >= Decimal(10) ** _MAX_INT_DIGITS:
            raise self.reject(f"{where}: {raw!r} is too large for DECIMAL(38,10)")
        return d

    def date(self, raw: str | None, where: str) -> date | None:
        if raw is None:
            return None
        m = re.match(r"^(\d{4})-(\d{2})-(\d{2})", raw.strip())
        if not m:
            raise self.reject(f"{where}: {raw!r} is not a YYYY-MM-DD date")
        try:
            d = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            raise self.reject(f"{where}: {raw!r} is not a valid date") from None
        problem = date_problem(d)
        if problem:
            raise self.reject(f"{where}: {raw!r} {problem}")
        return d

    def boolean(self, raw: str | None, where: str) -> bool | None:
        if raw is None:
            return None
        v = raw.strip().lower()
        if v in ("1", "true", "y", "yes"):
            return True
        if v in ("0", "false", "n", "no"):
            return False
        if not v:
            return None
        raise self.reject(f"{where}: {raw!r} is not a boolean (0/1/true/false)")


# Column name for each footnoted XML element inside a line.
_FIELD_OF = {
    "securityTitle": "security_title",
    "transactionDate": "transaction_date",
    "deemedExecutionDate": "deemed_execution_date",
    "transactionCoding": "transaction_code",
    "transactionTimeliness": "transaction_timeliness",
    "transactionShares": "shares",
    "transactionTotalValue": "total_value",
    "transactionPricePerShare": "price_per_share",
    "transactionAcquiredDisposedCode": "acquired_disposed",
    "sharesOwnedFollowingTransaction": "shares_owned_following",
    "valueOwnedFollowingTransaction": "value_owned_following",
    "directOrIndirectOwnership": "direct_indirect",
    "natureOfOwnership": "nature_of_ownership",
    "conversionOrExercisePrice": "conversion_or_exercise_price",
    "exerciseDate": "exercise_date",
    "expirationDate": "expiration_date",
    "underlyingSecurityTitle": "underlying_security_title",
    "underlyingSecurityShares": "underlying_shares",
    "underlyingSecurityValue": "underlying_value",
    "transactionFormType": "transaction_form_type",
    "transactionCode": "transaction_code",
    "equitySwapInvolved": "equity_swap_involved",
}


def _footnote_refs(line: Element, table_name: str, table_kind: str, line_number: int) -> list[FootnoteRef]:
    refs: list[FootnoteRef] = []
    seen: set[tuple[str, str]] = set()

    def walk(el: Element) -> None:
        for c in el:
            if _local(c.tag) == "footnoteId":
                fid = (c.get("id") or "").strip()
                if fid:
                    xml_el = _local(el.tag)
                    key = (xml_el, fid)
                    if key not in seen:
                        seen.add(key)
                        refs.append(FootnoteRef(table_name, table_kind, line_number,
                                                _FIELD_OF.get(xml_el, xml_el), xml_el, fid))
            else:
                walk(c)

    walk(line)
    return refs


def _ids(refs: list[FootnoteRef]) -> tuple[str, ...]:
    out: list[str] = []
    for r in refs:
        if r.footnote_id not in out:
            out.append(r.footnote_id)
    return tuple(out)


def _owner(el: Element, number: int, cx: _Ctx) -> Owner:
    oid = _child(el, "reportingOwnerId")
    addr = _child(el, "reportingOwnerAddress")
    rel = _child(el, "reportingOwnerRelationship")
    where = f"reportingOwner {number}"
    cik_raw = _text(_child(oid, "rptOwnerCik"))
    owner_cik = None
    if cik_raw is not None:
        owner_cik = normalize_cik(cik_raw)
        if owner_cik is None:
            raise cx.reject(f"{where}: rptOwnerCik {cik_raw!r} is not a CIK")
    return Owner(
        owner_number=number,
        owner_cik=owner_cik,
        owner_name=_text(_child(oid, "rptOwnerName")),
        street1=_text(_child(addr, "rptOwnerStreet1")),
        street2=_text(_child(addr, "rptOwnerStreet2")),
        city=_text(_child(addr, "rptOwnerCity")),
        state=_text(_child(addr, "rptOwnerState")),
        zip_code=_text(_child(addr, "rptOwnerZipCode")),
        state_description=_text(_child(addr, "rptOwnerStateDescription")),
        non_us_address=cx.boolean(_text(_child(addr, "rptOwnerNonUSAddressFlag")), f"{where} address flag"),
        is_director=cx.boolean(_text(_child(rel, "isDirector")), f"{where} isDirector"),
        is_officer=cx.boolean(_text(_child(rel, "isOfficer")), f"{where} isOfficer"),
        officer_title=_text(_child(rel, "officerTitle")),
        is_ten_percent_owner=cx.boolean(_text(_child(rel, "isTenPercentOwner")), f"{where} isTenPercentOwner"),
        is_other=cx.boolean(_text(_child(rel, "isOther")), f"{where} isOther"),
        other_text=_text(_child(rel, "otherText")),
    )


def _common(line: Element, where: str, cx: _Ctx) -> dict:
    """Fields shared by transaction and holding lines of both tables."""
    post = _child(line, "postTransactionAmounts")
    nature = _child(line, "ownershipNature")
    under = _child(line, "underlyingSecurity")
    return {
        "security_title": _value_text(_child(line, "securityTitle")),
        "shares_owned_following": cx.decimal(
            _value_text(_child(post, "sharesOwnedFollowingTransaction")), f"{where} sharesOwnedFollowingTransaction"),
        "value_owned_following": cx.decimal(
            _value_text(_child(post, "valueOwnedFollowingTransaction")), f"{where} valueOwnedFollowingTransaction"),
        "direct_indirect": _value_text(_child(nature, "directOrIndirectOwnership")),
        "nature_of_ownership": _value_text(_child(nature, "natureOfOwnership")),
        "conversion_or_exercise_price": cx.decimal(
            _value_text(_child(line, "conversionOrExercisePrice")), f"{where} conversionOrExercisePrice"),
        "exercise_date": cx.date(_value_text(_child(line, "exerciseDate")), f"{where} exerciseDate"),
        "expiration_date": cx.date(_value_text(_child(line, "expirationDate")), f"{where} expirationDate"),
        "underlying_security_title": _value_text(_child(under, "underlyingSecurityTitle")),
        "underlying_shares": cx.decimal(
            _value_text(_child(under, "underlyingSecurityShares")), f"{where} underlyingSecurityShares"),
        "underlying_value": cx.decimal(
            _value_text(_child(under, "underlyingSecurityValue")), f"{where} underlyingSecurityValue"),
    }


def _transaction(line: Element, kind: str, n: int, refs: list[FootnoteRef], notes: dict[str, str],
                 cx: _Ctx) -> Transaction:
    where = f"{kind} transaction line {n}"
    coding = _child(line, "transactionCoding")
    amounts = _child(line, "transactionAmounts")
    price_notes = [notes.get(r.footnote_id, "") for r in refs if r.field == "price_per_share"]
    weighted = any(_WEIGHTED.search(t) for t in price_notes)
    low = high = None
    for t in price_notes:
        m = _RANGE.search(t)
        if m:
            low, high = cx.decimal(m.group(1), f"{where} price range"), cx.decimal(m.group(2), f"{where} price range")
            break
    code_raw = _text(_child(coding, "transactionCode"))
    return Transaction(
        table_kind=kind,
        line_number=n,
        transaction_date=cx.date(_value_text(_child(line, "transactionDate")), f"{where} transactionDate"),
        deemed_execution_date=cx.date(
            _value_text(_child(line, "deemedExecutionDate")), f"{where} deemedExecutionDate"),
        transaction_form_type=_text(_child(coding, "transactionFormType")),
        transaction_code=code_raw.upper() if code_raw else None,
        equity_swap_involved=cx.boolean(_text(_child(coding, "equitySwapInvolved")), f"{where} equitySwapInvolved"),
        transaction_timeliness=_value_text(_child(line, "transactionTimeliness")),
        shares=cx.decimal(_value_text(_child(amounts, "transactionShares")), f"{where} transactionShares"),
        total_value=cx.decimal(_value_text(_child(amounts, "transactionTotalValue")), f"{where} transactionTotalValue"),
        price_per_share=cx.decimal(
            _value_text(_child(amounts, "transactionPricePerShare")), f"{where} transactionPricePerShare"),
        acquired_disposed=_value_text(_child(amounts, "transactionAcquiredDisposedCode")),
        price_is_weighted_average=weighted,
        price_range_low=low,
        price_range_high=high,
        footnote_ids=_ids(refs),
        **_common(line, where, cx),
    )


def _holding(line: Element, kind: str, n: int, refs: list[FootnoteRef], cx: _Ctx) -> Holding:
    where = f"{kind} holding line {n}"
    return Holding(
        table_kind=kind,
        line_number=n,
        transaction_form_type=_text(_path(line, "transactionCoding", "transactionFormType")),
        footnote_ids=_ids(refs),
        **_common(line, where, cx),
    )


def _parse_xml(xml: bytes, cx: _Ctx) -> Element:
    try:
        root = safe_fromstring(xml, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise cx.reject(f"unsafe XML refused ({type(exc).__name__}: DTDs and entities are not allowed)") from None
    except ParseError as exc:
        raise cx.reject(f"malformed ownership XML ({exc})") from None
    if _local(root.tag) != "ownershipDocument":
        raise cx.reject(f"not an ownership document (root element <{_local(root.tag)}>)")
    return root


NO_ACCESSION = ("no accession: load the filing's .txt submission (it carries an SEC header) "
                "or name the file <accession>.xml")


def _resolve_accession(container: Container, document: str, given: str | None) -> tuple[str, bool, str]:
    if given is not None:
        acc = normalize_accession(given)
        if acc is None:
            raise RejectedDocument(document, f"accession {given!r} given for the document is malformed")
        hdr = container.header.accession
        if hdr is not None and hdr != acc:
            raise RejectedDocument(document, f"accession {acc} given, but the SEC header says {hdr}")
        return acc, False, "argument"
    if container.header.accession:
        return container.header.accession, False, "sec_header"
    from_name = accession_from_filename(document)
    if from_name:
        return from_name, False, "file_name"
    # A made-up key would store the filing twice once its .txt arrives: refuse instead.
    raise RejectedDocument(document, NO_ACCESSION)


def parse_ownership(body: bytes, *, document: str, accession: str | None = None) -> OwnershipFiling:
    """Parse one Form 3/4/5 payload into an ``OwnershipFiling`` or raise ``RejectedDocument``.

    ``accession`` (when the caller knows it) wins over the file name; it must agree with the SEC
    header of a full submission. A bare XML with neither an accession in its file name nor one
    given is refused (``NO_ACCESSION``): a made-up key would count the filing twice once its
    ``.txt`` is loaded. ``accession_is_derived`` is therefore always False (kept for the schema).
    """
    if len(body) > MAX_BODY:
        raise RejectedDocument(document, f"{len(body)} bytes is larger than any ownership filing ({MAX_BODY})")
    container = find_container(body, document=document)
    xml = container.xml
    try:
        acc, derived, source = _resolve_accession(container, document, accession)
    except RejectedDocument as no_accession:
        _parse_xml(xml, _Ctx(document, None))  # unsafe or malformed XML says so first
        raise no_accession from None
    cx = _Ctx(document, acc)
    root = _parse_xml(xml, cx)

    doc_type = (_text(_child(root, "documentType")) or "").upper().replace(" ", "")
    if doc_type not in OWNERSHIP_FORMS:
        raise cx.reject(f"documentType {doc_type or '(missing)'!r} is not a Form 3, 4 or 5")
    issuer = _child(root, "issuer")
    issuer_cik_raw = _text(_child(issuer, "issuerCik"))
    issuer_cik = normalize_cik(issuer_cik_raw)
    if issuer_cik is None:
        raise cx.reject(f"issuerCik {issuer_cik_raw!r} is missing or not a CIK")
    owners_el = _children(root, "reportingOwner")
    if not owners_el:
        raise cx.reject("no reportingOwner element")

    footnotes: list[Footnote] = []
    notes: dict[str, str] = {}
    for fn in _children(_child(root, "footnotes"), "footnote"):
        fid = (fn.get("id") or "").strip()
        if not fid:
            raise cx.reject("a <footnote> has no id attribute")
        if fid in notes:
            raise cx.reject(f"footnote id {fid} appears twice")
        text = _text(fn) or ""
        notes[fid] = text
        footnotes.append(Footnote(fid, text))

    transactions: list[Transaction] = []
    holdings: list[Holding] = []
    refs: list[FootnoteRef] = []
    tables = (("non_derivative", "nonDerivativeTable", "nonDerivativeTransaction", "nonDerivativeHolding"),
              ("derivative", "derivativeTable", "derivativeTransaction", "derivativeHolding"))
    for kind, table_tag, tx_tag, hold_tag in tables:
        for table in _children(root, table_tag):
            tx_n = len([t for t in transactions if t.table_kind == kind])
            hold_n = len([h for h in holdings if h.table_kind == kind])
            for line in table:
                tag = _local(line.tag)
                if tag == tx_tag:
                    tx_n += 1
                    line_refs = _footnote_refs(line, "insider_transactions", kind, tx_n)
                    transactions.append(_transaction(line, kind, tx_n, line_refs, notes, cx))
                    refs.extend(line_refs)
                elif tag == hold_tag:
                    hold_n += 1
                    line_refs = _footnote_refs(line, "insider_holdings", kind, hold_n)
                    holdings.append(_holding(line, kind, hold_n, line_refs, cx))
                    refs.extend(line_refs)

    # Footnote references outside the tables (issuer, owners, header fields) are kept filing-level.
    for el in root:
        if _local(el.tag) in ("nonDerivativeTable", "derivativeTable", "footnotes"):
            continue
        for r in _footnote_refs(el, "insider_filings", "", 0):
            refs.append(FootnoteRef("insider_filings", None, None, r.field, r.xml_element, r.footnote_id))

    signatures = tuple(
        (_text(_child(s, "signatureName")),
         cx.date(_text(_child(s, "signatureDate")), "ownerSignature signatureDate"))
        for s in _children(root, "ownerSignature")
    )
    header = container.header
    return OwnershipFiling(
        accession=acc,
        accession_is_derived=derived,
        accession_source=source,
        container=container.container,
        document_type=doc_type,
        submission_type=header.submission_type,
        schema_version=_text(_child(root, "schemaVersion")),
        period_of_report=cx.date(_text(_child(root, "periodOfReport")), "periodOfReport"),
        date_of_original_submission=cx.date(
            _text(_child(root, "dateOfOriginalSubmission")), "dateOfOriginalSubmission"),
        no_securities_owned=cx.boolean(_text(_child(root, "noSecuritiesOwned")), "noSecuritiesOwned"),
        not_subject_to_section16=cx.boolean(
            _text(_child(root, "notSubjectToSection16")), "notSubjectToSection16"),
        form3_holdings_reported=cx.boolean(
            _text(_child(root, "form3HoldingsReported")), "form3HoldingsReported"),
        form4_transactions_reported=cx.boolean(
            _text(_child(root, "form4TransactionsReported")), "form4TransactionsReported"),
        aff10b5one=cx.boolean(_text(_child(root, "aff10b5One")), "aff10b5One"),
        issuer_cik=issuer_cik,
        issuer_name=_text(_child(issuer, "issuerName")),
        issuer_ticker=_text(_child(issuer, "issuerTradingSymbol")),
        issuer_foreign_ticker=_text(_child(issuer, "issuerForeignTradingSymbol")),
        remarks=_text(_child(root, "remarks")),
        signatures=signatures,
        filed=header.filed,
        acceptance_time=header.acceptance_time_utc,
        acceptance_time_raw=header.acceptance_time_raw,
        xml_sha256=hashlib.sha256(xml).hexdigest(),
        owners=tuple(_owner(el, i, cx) for i, el in enumerate(owners_el, start=1)),
        transactions=tuple(transactions),
        holdings=tuple(holdings),
        footnotes=tuple(footnotes),
        footnote_refs=tuple(refs),
    )

