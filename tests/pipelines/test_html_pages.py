"""Issue #27.8: an HTML page served where an SEC document was asked for is rejected as an HTML page.

An Archives fetch names its kind (ownership), so content detection was skipped and the ownership
parser refused SEC's "File Not Found" page as "unsafe XML" (it has a DOCTYPE), which sent a person
looking for an XML attack instead of a missing filing.
"""

from __future__ import annotations

import pytest

from helpers import FIXTURES
from pipelines.documents import Document
from pipelines.errors import RejectedDocument
from pipelines.parse import parse_document

PAGE = (FIXTURES / "malformed" / "cf_html_error_page.json").read_bytes()  # SEC's HTML error page
FORM4 = "https://www.sec.gov/Archives/edgar/data/320193/000032019322000061/0000320193-22-000061.txt"


@pytest.mark.parametrize(("uri", "kind"), [(FORM4, "ownership"), (FORM4, None),
                                           ("https://data.sec.gov/submissions/CIK0000320193.json", "submissions")])
def test_an_html_page_is_rejected_as_an_html_page_whatever_kind_was_asked_for(uri, kind):
    with pytest.raises(RejectedDocument) as exc:
        parse_document(Document(uri=uri, origin="http", body=PAGE, kind=kind))
    assert exc.value.document == uri
    assert exc.value.reason.startswith("an HTML page, not an SEC data payload"), exc.value.reason
