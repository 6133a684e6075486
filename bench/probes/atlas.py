"""Made-up country Valdoria, published by an open-data portal as N-Triples (snake_case property IRIs, no property
labels, province `borders` stored once per pair) + blind test questions.
Every gold answer is computed from the tables below, which are also what the triples are written from.

    python bench/probes/atlas.py OUTDIR     # writes OUTDIR/atlas.nt and OUTDIR/atlas_q.jsonl
"""
import json, os, re, sys
from decimal import Decimal

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
os.makedirs(OUT, exist_ok=True)

BASE = "http://data.example.gov/atlas/"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
RDFS_CLASS = "http://www.w3.org/2000/01/rdf-schema#Class"
XSD = "http://www.w3.org/2001/XMLSchema#"

# ----------------------------------------------------------------- schema
CLASSES = {"Country": "Country", "Province": "Province", "City": "City", "River": "River", "Lake": "Lake",
           "Mountain": "Mountain", "NationalPark": "National park"}

# ----------------------------------------------------------------- data
COUNTRY = "Valdoria"
# province: (capital city, area km2, population, coastal)
PROVINCES = {
    "Pellinor":   ("Port Ellory",   14820,  612000, True),
    "Zarevo":     ("Kalmsford",     22310,  301500, False),
    "Hathermoor": ("Thornbury",     18940,  402300, False),
    "Kestrelle":  ("New Kestrel",   12760,  998400, True),
    "Brenmoor":   ("Saint Albery",  16450,  710800, True),
    "Valdane":    ("Ardenholm",     19870, 1702500, False),
    "Tarnhollow": ("Greystone",     24580,  214900, False),
    "Ilvarra":    ("Lindenford",    17330,  455200, False),
    "Saltmere":   ("Brackenport",   11290,  854700, True),
    "Corvenna":   ("Alder Quay",     9640,  389100, True),
}
NATIONAL_CAPITAL = "Ardenholm"
# borders, stored ONE way only (as the portal publishes it); the direction is arbitrary
BORDERS = [
    ("Pellinor", "Zarevo"), ("Brenmoor", "Pellinor"), ("Zarevo", "Hathermoor"), ("Valdane", "Zarevo"),
    ("Zarevo", "Brenmoor"), ("Kestrelle", "Hathermoor"), ("Hathermoor", "Tarnhollow"), ("Valdane", "Hathermoor"),
    ("Tarnhollow", "Kestrelle"), ("Brenmoor", "Valdane"), ("Saltmere", "Brenmoor"), ("Tarnhollow", "Valdane"),
    ("Valdane", "Ilvarra"), ("Saltmere", "Valdane"), ("Ilvarra", "Tarnhollow"), ("Corvenna", "Ilvarra"),
    ("Saltmere", "Corvenna"), ("Ilvarra", "Saltmere"), ("Kestrelle", "Ilvarra"), ("Corvenna", "Kestrelle"),
]
# city: (province, population, founded year, has airport)
CITIES = {
    "Port Ellory":        ("Pellinor",    412000, 1388, True),
    "Gullhaven":          ("Pellinor",     58000, 1602, False),
    "Wrenfield":          ("Pellinor",     23400, 1791, False),
    "Kalmsford":          ("Zarevo",      186000, 1244, True),
    "Highcairn":          ("Zarevo",       31200, 1530, False),
    "Thornbury":          ("Hathermoor",  248500, 1310, True),
    "Mossbridge":         ("Hathermoor",   44800, 1655, False),
    "Ebbetstown":         ("Hathermoor",   12900, 1822, False),
    "New Kestrel":        ("Kestrelle",   733000, 1721, True),
    "Seabright":          ("Kestrelle",    96300, 1498, False),
    "Corran Bay":         ("Kestrelle",    27500, 1810, False),
    "Saint Albery":       ("Brenmoor",    523400, 1119, True),
    "Dunmarrow":          ("Brenmoor",     71200, 1456, False),
    "Ardenholm":          ("Valdane",    1284000, 1042, True),
    "Oakhurst":           ("Valdane",      88100, 1577, False),
    "Millbrook Junction": ("Valdane",      19800, 1869, False),
    "Greystone":          ("Tarnhollow",  152700, 1403, False),
    "Pinecrest":          ("Tarnhollow",   15300, 1703, False),
    "Lindenford":         ("Ilvarra",     305600, 1265, True),
    "Ashcombe":           ("Ilvarra",      62400, 1512, False),
    "Brackenport":        ("Saltmere",    611000, 1342, True),
    "Tidewell":           ("Saltmere",     39900, 1688, False),
    "Cresthaven":         ("Saltmere",     88800, 1599, False),
    "Alder Quay":         ("Corvenna",    274300, 1455, True),
    "Fenwick":            ("Corvenna",     47600, 1748, False),
}
# river: (length km, provinces it flows through, lake it flows into or None for the sea)
RIVERS = {
    "Silverrun River": (612, ["Zarevo", "Valdane", "Ilvarra", "Corvenna"], None),
    "Ember River":     (348, ["Hathermoor", "Tarnhollow", "Kestrelle"], None),
    "Greywater River": (187, ["Pellinor", "Brenmoor"], None),
    "Morrow River":    (233, ["Valdane", "Saltmere"], "Blackwater Lake"),
    "Thistle River":   (154, ["Tarnhollow", "Ilvarra"], "Lake Orlen"),
    "Kellan River":    (129, ["Zarevo", "Hathermoor"], "Lake Tamsin"),
}
# lake: (province, area km2)
LAKES = {
    "Lake Orlen":      ("Ilvarra",    Decimal("84.5")),
    "Lake Vessa":      ("Valdane",    Decimal("212.3")),
    "Mirrow Lake":     ("Hathermoor", Decimal("41.7")),
    "Lake Tamsin":     ("Zarevo",     Decimal("19.2")),
    "Blackwater Lake": ("Saltmere",   Decimal("63.4")),
}
# mountain: (province, elevation m)
MOUNTAINS = {
    "Mount Harrow":  ("Zarevo",     3412),
    "Mount Cindral": ("Zarevo",     2987),
    "Skarn Peak":    ("Hathermoor", 3105),
    "Mount Ebbet":   ("Hathermoor", 2450),
    "Graymantle":    ("Tarnhollow", 2210),
    "Wolfstooth":    ("Tarnhollow", 2655),
    "Mount Veil":    ("Pellinor",   1876),
    "Mount Auren":   ("Valdane",    1520),
}
# national park: (province, area km2, established year, features it includes)
PARKS = {
    "Harrow Peaks National Park":         ("Zarevo",     1240, 1962, ["Mount Harrow", "Mount Cindral"]),
    "Silverrun Delta National Park":      ("Corvenna",    530, 1985, []),
    "Mirrow Woods National Park":         ("Hathermoor",  860, 1971, ["Mirrow Lake"]),
    "Saltmere Dunes National Park":       ("Saltmere",    310, 1994, []),
    "Wolfstooth Wilderness National Park": ("Tarnhollow", 975, 2003, ["Wolfstooth"]),
}

# ----------------------------------------------------------------- table sanity
for p, (cap, *_rest) in PROVINCES.items():
    assert CITIES[cap][0] == p, (p, cap)
assert len({frozenset(b) for b in BORDERS}) == len(BORDERS)  # once per pair
assert all(a in PROVINCES and b in PROVINCES and a != b for a, b in BORDERS)
for r, (_, provs, lake) in RIVERS.items():
    assert all(p in PROVINCES for p in provs) and (lake is None or lake in LAKES)
    assert lake is None or LAKES[lake][0] in provs
for park, (p, _, _, feats) in PARKS.items():
    for f in feats:
        assert (MOUNTAINS.get(f) or LAKES.get(f))[0] == p
labels = [COUNTRY, *PROVINCES, *CITIES, *RIVERS, *LAKES, *MOUNTAINS, *PARKS]
assert len(labels) == len(set(labels))

# ----------------------------------------------------------------- triples
def slug(s): return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")
def cls(c): return BASE + "def/" + c
def prop(p): return BASE + "prop/" + p
IRI = {}
def ent(kind, label):
    IRI[label] = BASE + "id/" + kind.lower() + "/" + slug(label)
    return IRI[label]

T = []
def iri(s): return "<%s>" % s
def lit(v):
    if isinstance(v, bool): return '"%s"^^<%sboolean>' % ("true" if v else "false", XSD)
    if isinstance(v, int): return '"%d"^^<%sinteger>' % (v, XSD)
    if isinstance(v, Decimal): return '"%s"^^<%sdecimal>' % (v, XSD)
    if isinstance(v, tuple) and v[0] == "gYear": return '"%04d"^^<%sgYear>' % (v[1], XSD)
    return '"%s"' % v.replace("\\", "\\\\").replace('"', '\\"')
def add(s, p, o): T.append("%s %s %s ." % (iri(s), iri(p), o))
def node(kind, label):
    s = ent(kind, label)
    add(s, RDF_TYPE, iri(cls(kind)))
    add(s, RDFS_LABEL, lit(label))
    return s
def link(s, p, label): add(s, prop(p), iri(IRI[label]))
def val(s, p, v): add(s, prop(p), lit(v))

for c, l in CLASSES.items():
    add(cls(c), RDF_TYPE, iri(RDFS_CLASS))
    add(cls(c), RDFS_LABEL, lit(l))
node("Country", COUNTRY)
for p in PROVINCES: node("Province", p)
for c in CITIES: node("City", c)
for l in LAKES: node("Lake", l)
for m in MOUNTAINS: node("Mountain", m)
for c, (p, pop, year, airport) in CITIES.items():
    s = IRI[c]
    link(s, "located_in", p); val(s, "population", pop); val(s, "founded_year", ("gYear", year))
    val(s, "has_airport", airport)
link(IRI[NATIONAL_CAPITAL], "capital_of", COUNTRY)
for p, (cap, area, pop, coastal) in PROVINCES.items():
    s = IRI[p]
    link(s, "located_in", COUNTRY); link(s, "capital", cap); val(s, "area_km2", area); val(s, "population", pop)
    val(s, "is_coastal", coastal)
for a, b in BORDERS: link(IRI[a], "borders", b)
for r, (length, provs, lake) in RIVERS.items():
    s = node("River", r)
    val(s, "length_km", length)
    for p in provs: link(s, "flows_through", p)
    if lake: link(s, "flows_into", lake)
for l, (p, area) in LAKES.items():
    link(IRI[l], "located_in", p); val(IRI[l], "area_km2", area)
for m, (p, elev) in MOUNTAINS.items():
    link(IRI[m], "located_in", p); val(IRI[m], "elevation_m", elev)
for park, (p, area, year, feats) in PARKS.items():
    s = node("NationalPark", park)
    link(s, "located_in", p); val(s, "area_km2", area); val(s, "established_year", ("gYear", year))
    for f in feats: link(s, "includes", f)
assert len(T) == len(set(T))
with open(os.path.join(OUT, "atlas.nt"), "w", encoding="utf-8") as f:
    f.write("\n".join(T) + "\n")

# ----------------------------------------------------------------- gold helpers (over the tables)
def neighbours(p):  # both directions of the one-way table
    return [b for a, b in BORDERS if a == p] + [a for a, b in BORDERS if b == p]
def capital(p): return PROVINCES[p][0]
def cities_in(p): return [c for c, v in CITIES.items() if v[0] == p]
def rivers_through(p): return [r for r, v in RIVERS.items() if p in v[1]]
def coastal(p): return PROVINCES[p][3]
def arg(items, key, best):
    vals = {i: key(i) for i in items}
    b = best(vals.values())
    win = [i for i in items if vals[i] == b]
    assert len(win) == 1, win  # superlatives must have one clear winner
    return win
def province_of(x):
    for table in (CITIES, LAKES, MOUNTAINS, PARKS):
        if x in table: return table[x][0]
    raise KeyError(x)
def uniq(xs):
    out = []
    for x in xs:
        if x not in out: out.append(x)
    return out

# the kind of each question is recorded for the report only; it is not written to the questions file
Q = [
  # ---- lookups, one hop
  ("lookup", "what's the capital of Hathermoor?", [capital("Hathermoor")]),
  ("lookup", "what is the capital city of Valdoria?", [NATIONAL_CAPITAL]),
  ("lookup", "which province is Oakhurst in?", [CITIES["Oakhurst"][0]]),
  ("lookup", "in which province is Mount Ebbet?", [MOUNTAINS["Mount Ebbet"][0]]),
  ("lookup", "where is Lake Orlen?", [LAKES["Lake Orlen"][0]]),
  ("lookup", "when was Alder Quay founded?", [CITIES["Alder Quay"][2]]),
  ("lookup", "does Greystone have an airport?", [CITIES["Greystone"][3]]),
  ("lookup", "how big is Lake Vessa?", [LAKES["Lake Vessa"][1]]),
  ("lookup", "which lake does the Thistle river flow into?", [RIVERS["Thistle River"][2]]),
  ("lookup", "how long is the Ember river?", [RIVERS["Ember River"][0]]),
  ("lookup", "which national park is Mount Harrow in?", [k for k, v in PARKS.items() if "Mount Harrow" in v[3]]),
  # ---- rivers and provinces
  ("river", "which provinces does the Silverrun river run through?", RIVERS["Silverrun River"][1]),
  ("river", "which rivers flow through Hathermoor?", rivers_through("Hathermoor")),
  # ---- borders (one-way storage, both-way answers)
  ("borders", "which provinces border Valdane?", neighbours("Valdane")),
  ("borders", "what provinces are next to Kestrelle?", neighbours("Kestrelle")),
  ("borders", "how many provinces border Ilvarra?", [len(neighbours("Ilvarra"))]),
  ("borders", "which coastal provinces border Valdane?", [p for p in neighbours("Valdane") if coastal(p)]),
  # ---- superlatives
  ("superlative", "what is the highest mountain in Hathermoor?",
     arg([m for m, v in MOUNTAINS.items() if v[0] == "Hathermoor"], lambda m: MOUNTAINS[m][1], max)),
  ("superlative", "how tall is the highest mountain in Tarnhollow?",
     [MOUNTAINS[m][1] for m in arg([m for m, v in MOUNTAINS.items() if v[0] == "Tarnhollow"],
                                   lambda m: MOUNTAINS[m][1], max)]),
  ("superlative", "which is the largest province?", arg(list(PROVINCES), lambda p: PROVINCES[p][1], max)),
  ("superlative", "what's the most populous city in Saltmere?", arg(cities_in("Saltmere"), lambda c: CITIES[c][1], max)),
  ("superlative", "which river is the longest?", arg(list(RIVERS), lambda r: RIVERS[r][0], max)),
  ("superlative", "what's the tallest mountain in the whole country?", arg(list(MOUNTAINS), lambda m: MOUNTAINS[m][1], max)),
  ("superlative", "which is the oldest city?", arg(list(CITIES), lambda c: CITIES[c][2], min)),
  ("superlative", "which inland province has the most people?",
     arg([p for p in PROVINCES if not coastal(p)], lambda p: PROVINCES[p][2], max)),
  # ---- comparisons and filters
  ("filter", "which cities have more than 500,000 people?", [c for c, v in CITIES.items() if v[1] > 500000]),
  ("filter", "which cities in Saltmere have more than 50,000 inhabitants?",
     [c for c in cities_in("Saltmere") if CITIES[c][1] > 50000]),
  ("filter", "which cities were founded before 1200?", [c for c, v in CITIES.items() if v[2] < 1200]),
  ("filter", "which mountains are higher than 3000 metres?", [m for m, v in MOUNTAINS.items() if v[1] > 3000]),
  ("filter", "which provinces are not on the coast?", [p for p in PROVINCES if not coastal(p)]),
  ("filter", "which national parks were created after 1990?", [k for k, v in PARKS.items() if v[2] > 1990]),
  ("filter", "which cities in Valdane have an airport?", [c for c in cities_in("Valdane") if CITIES[c][3]]),
  # ---- counts
  ("count", "how many cities have an airport?", [sum(1 for v in CITIES.values() if v[3])]),
  ("count", "how many cities are there in Hathermoor?", [len(cities_in("Hathermoor"))]),
  ("count", "how many rivers run through Valdane?", [len(rivers_through("Valdane"))]),
  ("count", "how many cities in coastal provinces were founded before 1500?",
     [sum(1 for c, v in CITIES.items() if coastal(v[0]) and v[2] < 1500)]),
  # ---- partial names and typos
  ("partial name", "how many people live in Millbrook?", [CITIES["Millbrook Junction"][1]]),
  ("partial name", "what province is Albery in?", [CITIES["Saint Albery"][0]]),
  ("typo", "which rivers flow through Tarnholow?", rivers_through("Tarnhollow")),
  ("typo", "how high is Mount Cindrel?", [MOUNTAINS["Mount Cindral"][1]]),
  # ---- two hops
  ("2-hop", "which rivers flow through the province whose capital is Lindenford?",
     rivers_through([p for p in PROVINCES if capital(p) == "Lindenford"][0])),
  ("2-hop", "what's the capital of the province where Skarn Peak is?", [capital(MOUNTAINS["Skarn Peak"][0])]),
  ("2-hop", "which provinces border the one that Lake Orlen is in?", neighbours(LAKES["Lake Orlen"][0])),
  # ---- three hops
  ("3-hop", "what are the capitals of the provinces that the river feeding Lake Orlen passes through?",
     uniq(capital(p) for r, v in RIVERS.items() if v[2] == "Lake Orlen" for p in v[1])),
  ("3-hop", "which rivers run through the provinces next to the province whose capital is Alder Quay?",
     uniq(r for p in neighbours([p for p in PROVINCES if capital(p) == "Alder Quay"][0]) for r in rivers_through(p))),
]

def fmt(v):
    if isinstance(v, bool): return "true" if v else "false"
    return str(v)

assert 40 <= len(Q) <= 45, len(Q)
assert len({q for _, q, _ in Q}) == len(Q)
with open(os.path.join(OUT, "atlas_q.jsonl"), "w", encoding="utf-8") as f:
    for i, (_, text, ans) in enumerate(Q):
        ans = [fmt(a) for a in ans]
        assert 1 <= len(ans) <= 8, (text, ans)
        assert len(ans) == len(set(ans)), (text, ans)
        f.write(json.dumps({"id": "atlas-%d" % i, "question": text, "answers": ans}) + "\n")

kinds = {}
for k, _, _ in Q: kinds[k] = kinds.get(k, 0) + 1
print("triples:", len(T), "questions:", len(Q))
print("classes:", ", ".join(CLASSES.values()))
print("properties:", ", ".join(sorted({re.search(r"/prop/(\w+)>", t).group(1) for t in T if "/prop/" in t.split()[1]})))
print("kinds:", ", ".join("%s %d" % kv for kv in kinds.items()))
