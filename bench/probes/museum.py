"""Made-up art museums of the country of Valdoria: typed Turtle KG + blind test questions.
Every gold answer is computed from the emitted triples (stdlib only)."""
import datetime as dt, json, os, re, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "."  # the folder to write into
os.makedirs(OUT, exist_ok=True)
BASE = "http://example.org/museum/"
D = dt.date.fromisoformat


class N(str):
    """An IRI node (local name, or a prefixed name such as rdfs:Class)."""


class Year(int):
    """An xsd:gYear literal."""


# ----------------------------------------------------------------- schema
CLASSES = [("Museum", "museum"), ("Artwork", "artwork"), ("Artist", "artist"),
           ("ArtMovement", "art movement"), ("City", "city"), ("Curator", "curator"),
           ("Exhibition", "exhibition"), ("Donor", "donor")]
# local name: (label, domain, range)
PROPS = [
    ("locatedIn", "located in", "Museum", "City"),
    ("foundedIn", "founded in", "Museum", "xsd:gYear"),
    ("annualVisitors", "annual visitors", "Museum", "xsd:integer"),
    ("directedBy", "directed by", "Museum", "Curator"),
    ("freeAdmission", "free admission", "Museum", "xsd:boolean"),
    ("worksAt", "works at", "Curator", "Museum"),
    ("createdBy", "created by", "Artwork", "Artist"),
    ("housedIn", "housed in", "Artwork", "Museum"),
    ("yearCompleted", "year completed", "Artwork", "xsd:integer"),
    ("heightCm", "height in cm", "Artwork", "xsd:integer"),
    ("onDisplay", "on display", "Artwork", "xsd:boolean"),
    ("estimatedValue", "estimated value", "Artwork", "xsd:integer"),
    ("donatedBy", "donated by", "Artwork", "Donor"),
    ("memberOfMovement", "member of movement", "Artist", "ArtMovement"),
    ("birthYear", "birth year", "Artist", "xsd:integer"),
    ("birthPlace", "birth place", "Artist", "City"),
    ("emergedIn", "emerged in", "ArtMovement", "City"),
    ("hostedBy", "hosted by", "Exhibition", "Museum"),
    ("openingDate", "opening date", "Exhibition", "xsd:date"),
    ("curatedBy", "curated by", "Exhibition", "Curator"),
    ("features", "features", "Exhibition", "Artwork"),
    ("livesIn", "lives in", "Donor", "City"),
]

# ----------------------------------------------------------------- data
CITIES = ["Arvena", "Tolsk", "Mirelle", "Haventon", "Brenmoor", "Cassaro"]
# name: (city, founded, visitors per year, director, free admission)
MUSEUMS = {
    "Arvena National Gallery": ("Arvena", 1861, 1240000, "Agnes Mollberg", False),
    "Arvena Museum of Modern Art": ("Arvena", 1968, 615000, "Viktor Lenz", False),
    "Tolsk Harbour Museum": ("Tolsk", 1904, 182000, "Clara Vinterholm", True),
    "Mirelle Fine Arts Museum": ("Mirelle", 1854, 437000, "Jasper Quill", False),
    "Haventon Sculpture House": ("Haventon", 1997, 96000, "Noor Halabi", True),
    "Brenmoor Municipal Gallery": ("Brenmoor", 1932, 143000, "Frida Castell", True),
}
# curator: museum they work at (directors included)
CURATORS = {"Agnes Mollberg": "Arvena National Gallery", "Marek Dunn": "Arvena National Gallery",
            "Viktor Lenz": "Arvena Museum of Modern Art", "Clara Vinterholm": "Tolsk Harbour Museum",
            "Jasper Quill": "Mirelle Fine Arts Museum", "Selma Ritter": "Mirelle Fine Arts Museum",
            "Noor Halabi": "Haventon Sculpture House", "Frida Castell": "Brenmoor Municipal Gallery"}
# movement: city where it emerged
MOVEMENTS = {"Tidal Luminism": "Tolsk", "Ashen Realism": "Brenmoor",
             "Lattice Abstraction": "Arvena", "New Pastoralism": "Mirelle"}
# artist: (movement, birth year, birth place)
ARTISTS = {
    "Ottilie Varga": ("Tidal Luminism", 1841, "Tolsk"),
    "Rasmus Kellby": ("Tidal Luminism", 1856, "Haventon"),
    "Ines Corvane": ("Ashen Realism", 1872, "Brenmoor"),
    "Teodor Blask": ("Ashen Realism", 1865, "Cassaro"),
    "Sabine Ferrow": ("Ashen Realism", 1890, "Arvena"),
    "Maud Andros": ("Lattice Abstraction", 1911, "Arvena"),
    "Halvard Strom": ("Lattice Abstraction", 1923, "Tolsk"),
    "Emil Saarto": ("Lattice Abstraction", 1948, "Haventon"),
    "Lucan Drey": ("New Pastoralism", 1879, "Mirelle"),
    "Beatrix Olander": ("New Pastoralism", 1884, "Cassaro"),
}
# donor: city they live in
DONORS = {"Edvin Larkspur": "Arvena", "Henrietta Bloomquist": "Mirelle", "Cosimo Arden": "Cassaro",
          "Ysolde Marr": "Tolsk", "Pell Family Foundation": "Arvena"}
# title: (artist, year, museum, height cm, on display, estimated value or None, donor or None)
ARTWORKS = {
    "The Salt Harbour": ("Ottilie Varga", 1872, "Tolsk Harbour Museum", 94, True, 3200000, None),
    "Evening at Tolsk Quay": ("Ottilie Varga", 1879, "Arvena National Gallery", 120, True, 4100000, "Edvin Larkspur"),
    "Quiet Tide": ("Ottilie Varga", 1885, "Tolsk Harbour Museum", 61, False, None, "Ysolde Marr"),
    "Lighthouse Keeper's Daughter": ("Rasmus Kellby", 1888, "Tolsk Harbour Museum", 145, True, 2750000, None),
    "Blue Weir": ("Rasmus Kellby", 1894, "Mirelle Fine Arts Museum", 73, True, None, None),
    "The Ashen Field": ("Ines Corvane", 1901, "Brenmoor Municipal Gallery", 210, True, 5600000, None),
    "Portrait of a Ferryman": ("Ines Corvane", 1907, "Arvena National Gallery", 88, False, 1900000,
                               "Henrietta Bloomquist"),
    "Grey Pilgrims": ("Teodor Blask", 1893, "Brenmoor Municipal Gallery", 162, True, None, "Cosimo Arden"),
    "The Miller's Wife": ("Teodor Blask", 1899, "Arvena National Gallery", 102, True, 2300000, None),
    "Lattice No. 7": ("Maud Andros", 1938, "Arvena Museum of Modern Art", 180, True, 6800000, None),
    "Composition with Three Reds": ("Maud Andros", 1946, "Arvena Museum of Modern Art", 130, False, 4900000,
                                    "Pell Family Foundation"),
    "Fractured Sun": ("Halvard Strom", 1952, "Arvena Museum of Modern Art", 240, True, 3600000, None),
    "Iron Garden": ("Halvard Strom", 1961, "Haventon Sculpture House", 305, True, None, "Pell Family Foundation"),
    "Harvest Procession": ("Lucan Drey", 1912, "Mirelle Fine Arts Museum", 198, True, 3900000, None),
    "Shepherd Boy Asleep": ("Lucan Drey", 1908, "Mirelle Fine Arts Museum", 66, False, None, "Edvin Larkspur"),
    "Winter Orchard": ("Beatrix Olander", 1915, "Mirelle Fine Arts Museum", 110, True, 2100000,
                       "Henrietta Bloomquist"),
    "Morning Fog over Brenmoor": ("Beatrix Olander", 1921, "Brenmoor Municipal Gallery", 84, False, None, None),
    "Seated Heron": ("Emil Saarto", 1979, "Haventon Sculpture House", 156, True, 1200000, None),
    "The Glass Bell": ("Emil Saarto", 1985, "Haventon Sculpture House", 92, False, None, "Cosimo Arden"),
    "Twin Pylons": ("Emil Saarto", 1991, "Arvena Museum of Modern Art", 410, True, 2600000,
                    "Pell Family Foundation"),
    "Study in Ochre": ("Sabine Ferrow", 1919, "Brenmoor Municipal Gallery", 55, True, None, "Ysolde Marr"),
    "Woman with a Green Lantern": ("Sabine Ferrow", 1924, "Arvena National Gallery", 138, True, 5100000, None),
}
# exhibition: (museum, opening date, curator, featured works)
EXHIBITIONS = {
    "Light on the Water": ("Tolsk Harbour Museum", "2023-05-12", "Clara Vinterholm",
                           ["The Salt Harbour", "Quiet Tide", "Lighthouse Keeper's Daughter", "Blue Weir"]),
    "Ash and Iron": ("Brenmoor Municipal Gallery", "2024-02-03", "Frida Castell",
                     ["The Ashen Field", "Grey Pilgrims", "Study in Ochre"]),
    "Grids and Colour": ("Arvena Museum of Modern Art", "2022-10-20", "Viktor Lenz",
                         ["Lattice No. 7", "Composition with Three Reds", "Fractured Sun"]),
    "Fields and Folk": ("Mirelle Fine Arts Museum", "2024-09-14", "Selma Ritter",
                        ["Harvest Procession", "Shepherd Boy Asleep", "Winter Orchard"]),
    "Masters of the Nation": ("Arvena National Gallery", "2023-11-25", "Marek Dunn",
                              ["Evening at Tolsk Quay", "Portrait of a Ferryman", "The Miller's Wife",
                               "Woman with a Green Lantern"]),
    "Open Air Forms": ("Haventon Sculpture House", "2025-04-05", "Noor Halabi",
                       ["Iron Garden", "Seated Heron", "The Glass Bell"]),
}

# ----------------------------------------------------------------- triples
def node(label):
    local = re.sub(r"[ .]+", "_", label.replace("'", "")).strip("_")
    assert re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", local), local
    return N(local)


T = []  # (subject N, predicate local name or 'rdf:type'/'rdfs:label'/..., object)
def add(s, p, o): T.append((s, p, o))

for c, l in CLASSES:
    add(N(c), "rdf:type", N("rdfs:Class")); add(N(c), "rdfs:label", l)
for p, l, dom, rng in PROPS:
    add(N(p), "rdf:type", N("rdf:Property")); add(N(p), "rdfs:label", l)
    add(N(p), "rdfs:domain", N(dom)); add(N(p), "rdfs:range", N(rng))

def ent(label, cls):
    n = node(label); add(n, "rdf:type", N(cls)); add(n, "rdfs:label", label); return n

for c in CITIES: ent(c, "City")
for c in CURATORS: ent(c, "Curator")
for m, (city, year, visitors, director, free) in MUSEUMS.items():
    n = ent(m, "Museum")
    add(n, "locatedIn", node(city)); add(n, "foundedIn", Year(year)); add(n, "annualVisitors", visitors)
    add(n, "directedBy", node(director)); add(n, "freeAdmission", free)
for c, m in CURATORS.items(): add(node(c), "worksAt", node(m))
for mv, city in MOVEMENTS.items(): add(ent(mv, "ArtMovement"), "emergedIn", node(city))
for a, (mv, born, place) in ARTISTS.items():
    n = ent(a, "Artist")
    add(n, "memberOfMovement", node(mv)); add(n, "birthYear", born); add(n, "birthPlace", node(place))
for d, city in DONORS.items(): add(ent(d, "Donor"), "livesIn", node(city))
for w, (artist, year, museum, height, shown, value, donor) in ARTWORKS.items():
    n = ent(w, "Artwork")
    add(n, "createdBy", node(artist)); add(n, "housedIn", node(museum)); add(n, "yearCompleted", year)
    add(n, "heightCm", height); add(n, "onDisplay", shown)
    if value is not None: add(n, "estimatedValue", value)
    if donor is not None: add(n, "donatedBy", node(donor))
for e, (museum, opens, curator, works) in EXHIBITIONS.items():
    n = ent(e, "Exhibition")
    add(n, "hostedBy", node(museum)); add(n, "openingDate", D(opens)); add(n, "curatedBy", node(curator))
    for w in works: add(n, "features", node(w))

# sanity: every IRI object is declared, no duplicate triples, unique labels and first names
assert len(set(T)) == len(T)
subjects = {s for s, _, _ in T}
for s, p, o in T:
    if isinstance(o, N) and not o.startswith(("rdf:", "rdfs:", "xsd:")):
        assert o in subjects, o
schema = {N(c) for c, _ in CLASSES} | {N(p[0]) for p in PROPS}
labels = [o for s, p, o in T if p == "rdfs:label" and s not in schema]
assert len(labels) == len(set(labels))
people = list(ARTISTS) + list(CURATORS) + list(DONORS)
firsts = [x.split()[0] for x in people]
assert len(firsts) == len(set(firsts)), firsts

# ----------------------------------------------------------------- turtle
def term(o):
    if isinstance(o, N): return o if ":" in o else ":" + o
    if isinstance(o, bool): return '"%s"^^xsd:boolean' % ("true" if o else "false")
    if isinstance(o, Year): return '"%04d"^^xsd:gYear' % o
    if isinstance(o, int): return '"%d"^^xsd:integer' % o
    if isinstance(o, dt.date): return '"%s"^^xsd:date' % o.isoformat()
    assert '"' not in o and "\\" not in o, o
    return '"%s"' % o

def pred(p):
    return "a" if p == "rdf:type" else (p if ":" in p else ":" + p)

lines = ["@prefix : <%s> ." % BASE,
         "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .",
         "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
         "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .", ""]
order = []
for s, _, _ in T:
    if s not in order: order.append(s)
for s in order:
    body = " ;\n    ".join("%s %s" % (pred(p), term(o)) for ss, p, o in T if ss == s)
    lines.append("%s %s .\n" % (term(s), body))
with open(os.path.join(OUT, "museum.ttl"), "w") as f:
    f.write("\n".join(lines))

# ----------------------------------------------------------------- queries over T
LAB = {s: o for s, p, o in T if p == "rdfs:label"}
BYLAB = {v: k for k, v in LAB.items() if k not in schema}
def E(label): return BYLAB[label]
def objs(s, p): return [o for ss, pp, o in T if ss == s and pp == p]
def one(s, p):
    v = objs(s, p); assert len(v) == 1, (s, p, v); return v[0]
def subs(p, o): return [s for s, pp, oo in T if pp == p and oo == o]
def typed(c): return subs("rdf:type", N(c))
def uniq(xs):
    out = []
    for x in xs:
        if x not in out: out.append(x)
    return out
def hop(xs, p): return uniq(o for x in xs for o in objs(x, p))        # forwards along p
def back(xs, p): return uniq(s for x in xs for s in subs(p, x))       # backwards along p
def arg(ents, p, best):
    ents = [e for e in ents if objs(e, p)]
    vals = {e: one(e, p) for e in ents}
    b = best(vals.values())
    return [e for e in ents if vals[e] == b]
def fmt(v):
    if isinstance(v, N): return LAB[v]
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, Year): return "%04d" % v
    if isinstance(v, dt.date): return v.isoformat()
    return str(v)

museums, artworks, artists, exhibitions = typed("Museum"), typed("Artwork"), typed("Artist"), typed("Exhibition")
def works_in(m): return subs("housedIn", E(m))

Q = [
  # ---- one-hop, both directions (one by first name, one with a typo)
  ("Who painted The Salt Harbour?", objs(E("The Salt Harbour"), "createdBy")),
  ("Where does Woman with a Green Lantern hang?", objs(E("Woman with a Green Lantern"), "housedIn")),
  ("How tall is Iron Garden?", objs(E("Iron Garden"), "heightCm")),
  ("What year was Harvest Procession painted?", objs(E("Harvest Procession"), "yearCompleted")),
  ("Which pieces did Cosimo Arden give to the museums?", subs("donatedBy", E("Cosimo Arden"))),
  ("Which painters were part of Tidal Luminism?", subs("memberOfMovement", E("Tidal Luminism"))),
  ("When does the Ash and Iron show open?", objs(E("Ash and Iron"), "openingDate")),
  ("What did Beatrix paint?", subs("createdBy", E("Beatrix Olander"))),
  ("How many people visit the Tolsk Harbour Musuem each year?", objs(E("Tolsk Harbour Museum"), "annualVisitors")),
  # ---- two-hop
  ("In which city is the museum that owns The Ashen Field?", hop(hop([E("The Ashen Field")], "housedIn"), "locatedIn")),
  ("What art movement did the painter of Blue Weir belong to?",
     hop(hop([E("Blue Weir")], "createdBy"), "memberOfMovement")),
  ("Who put together the exhibition that includes Seated Heron?",
     hop(back([E("Seated Heron")], "features"), "curatedBy")),
  ("Which artists have work in the Haventon Sculpture House?", hop(works_in("Haventon Sculpture House"), "createdBy")),
  ("Where was the artist of Grey Pilgrims born?", hop(hop([E("Grey Pilgrims")], "createdBy"), "birthPlace")),
  ("Where does the person who donated Quiet Tide live?", hop(hop([E("Quiet Tide")], "donatedBy"), "livesIn")),
  ("Which museums own works by Ashen Realism artists?",
     hop(back(back([E("Ashen Realism")], "memberOfMovement"), "createdBy"), "housedIn")),
  # ---- three-hop
  ("In which city did the art movement of the artist behind Fractured Sun get started?",
     hop(hop(hop([E("Fractured Sun")], "createdBy"), "memberOfMovement"), "emergedIn")),
  ("Who is the director of the museum showing the exhibition with The Salt Harbour in it?",
     hop(hop(back([E("The Salt Harbour")], "features"), "hostedBy"), "directedBy")),
  ("Which towns were the painters in the Fields and Folk exhibition born in?",
     hop(hop(hop([E("Fields and Folk")], "features"), "createdBy"), "birthPlace")),
  # ---- counts
  ("How many works by Emil Saarto are there?", [len(subs("createdBy", E("Emil Saarto")))]),
  ("How many artworks does the Arvena National Gallery have?", [len(works_in("Arvena National Gallery"))]),
  ("How many museums are there in Arvena?", [len([m for m in museums if one(m, "locatedIn") == E("Arvena")])]),
  ("How many pieces are in the Light on the Water exhibition?", [len(objs(E("Light on the Water"), "features"))]),
  ("How many of the Brenmoor Municipal Gallery's works can you currently see on the walls?",
     [len([w for w in works_in("Brenmoor Municipal Gallery") if one(w, "onDisplay") is True])]),
  # ---- superlatives (three over a filtered set)
  ("What is the most valuable artwork?", arg(artworks, "estimatedValue", max)),
  ("What is the tallest piece at the Arvena Museum of Modern Art?",
     arg(works_in("Arvena Museum of Modern Art"), "heightCm", max)),
  ("Which is the oldest museum?", arg(museums, "foundedIn", min)),
  ("Who is the youngest of the Ashen Realism artists?",
     arg(subs("memberOfMovement", E("Ashen Realism")), "birthYear", max)),
  ("What is the earliest painting by Rasmus Kellby?", arg(subs("createdBy", E("Rasmus Kellby")), "yearCompleted", min)),
  # ---- no entity named
  ("Which museum gets the most visitors?", arg(museums, "annualVisitors", max)),
  # ---- numeric / date comparisons
  ("Which artworks are taller than two metres?", [w for w in artworks if one(w, "heightCm") > 200]),
  ("Which exhibitions opened after the start of 2024?",
     [e for e in exhibitions if one(e, "openingDate") > D("2024-01-01")]),
  ("Which museums were founded before 1900?", [m for m in museums if one(m, "foundedIn") < 1900]),
  ("Which artists were born after 1900?", [a for a in artists if one(a, "birthYear") > 1900]),
  # ---- yes/no filters and negation
  ("Which museums can you get into for free?", [m for m in museums if one(m, "freeAdmission") is True]),
  ("Which museums charge an entrance fee?", [m for m in museums if one(m, "freeAdmission") is False]),
  ("Which of Ottilie Varga's paintings are not on view at the moment?",
     [w for w in subs("createdBy", E("Ottilie Varga")) if one(w, "onDisplay") is False]),
  # ---- conjunctions
  ("Which paintings from before 1900 are on show at the Arvena National Gallery?",
     [w for w in works_in("Arvena National Gallery") if one(w, "yearCompleted") < 1900 and one(w, "onDisplay")]),
  ("Which works given by the Pell Family Foundation are on display?",
     [w for w in subs("donatedBy", E("Pell Family Foundation")) if one(w, "onDisplay") is True]),
  ("Which artists have works in both the Arvena National Gallery and the Brenmoor Municipal Gallery?",
     [a for a in hop(works_in("Arvena National Gallery"), "createdBy")
      if a in hop(works_in("Brenmoor Municipal Gallery"), "createdBy")]),
]
assert len(Q) == 40, len(Q)
with open(os.path.join(OUT, "museum_q.jsonl"), "w") as f:
    for i, (q, ans) in enumerate(Q):
        ans = [fmt(a) for a in ans]
        assert 1 <= len(ans) <= 8, (q, ans)
        assert len(ans) == len(set(ans)), (q, ans)
        f.write(json.dumps({"id": "museum-%d" % i, "question": q, "answers": ans}) + "\n")

assert 250 <= len(T) <= 500, len(T)
print("triples:", len(T))
print("classes:", ", ".join(l for _, l in CLASSES))
print("properties:", ", ".join(p[1] for p in PROPS))
