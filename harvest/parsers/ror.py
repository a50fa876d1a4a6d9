"""ROR (Research Organization Registry) schema v2 records parsed into institution records."""

from __future__ import annotations

from typing import Any

from harvest.parsers.jsonbody import Skipped, UpstreamPage, load_json, text_of
from harvest.parsers.text import HOMEPAGE_MAX_LENGTH, MAX_NAME_LENGTH, link
from harvest.records import InstitutionRecord, MalformedResponse, RecordError
from institutions.querysets import ror_id_from


def ror_institution(item: dict[str, Any]) -> InstitutionRecord:
    ror_id = ror_id_from(item.get("id") or "") if isinstance(item.get("id"), str) else None
    if not ror_id:
        raise RecordError(f"record without a ROR id: {item.get('id')!r}")
    names = [n for n in item.get("names") or () if isinstance(n, dict)]
    display = next((n for n in names if "ror_display" in (n.get("types") or ())), names[0] if names else {})
    name = text_of(display.get("value"), MAX_NAME_LENGTH)
    if not name:
        raise RecordError(f"{ror_id}: no name")
    locations = [
        location.get("geonames_details") or {}
        for location in item.get("locations") or ()
        if isinstance(location, dict)
    ]
    country = text_of(locations[0].get("country_code")).upper()[:2] if locations else ""
    websites = [link.get("value") for link in item.get("links") or () if isinstance(link, dict)
                and link.get("type") == "website"]  # fmt: skip
    types = [t for t in item.get("types") or () if isinstance(t, str)]
    return InstitutionRecord(
        name=name,
        ror_id=ror_id,
        country_code=country,
        type=types[0][:50] if types else "",
        homepage=link(websites[0], HOMEPAGE_MAX_LENGTH) if websites else "",
    )


def parse_ror_records(content: bytes) -> UpstreamPage[InstitutionRecord]:
    """A JSON array of ROR v2 records (as the ROR data dump and the API's `items` hold them)."""
    data = load_json(content)
    if isinstance(data, dict) and isinstance(data.get("items"), list):
        data = data["items"]
    if not isinstance(data, list):
        raise MalformedResponse("expected a JSON array of ROR records")
    page: UpstreamPage[InstitutionRecord] = UpstreamPage()
    for position, item in enumerate(data, start=1):
        try:
            if not isinstance(item, dict):
                raise RecordError("not a JSON object")
            page.items.append(ror_institution(item))
        except RecordError as error:
            page.skipped.append(Skipped(position, str(error)))
    return page
