-- reads: 
-- readable_member(member): an XBRL member QName made readable, the fallback name of a member the
-- document prints no label for: the local name without its Member/SegmentMember suffix, words split
-- at lower-to-upper case (aapl:GreaterChinaSegmentMember -> Greater China, country:US -> US,
-- us-gaap:CorporateNonSegmentMember -> Corporate Non Segment).
CREATE OR REPLACE MACRO readable_member(member) AS
    regexp_replace(
        coalesce(nullif(regexp_replace(regexp_extract(member, '[^:]*$'),
                                       CASE WHEN member LIKE '%NonSegmentMember' THEN 'Member$'
                                            ELSE '(Segment)?Member$' END, ''), ''),
                 regexp_extract(member, '[^:]*$')),
        '([a-z])([A-Z])', '\1 \2', 'g');
