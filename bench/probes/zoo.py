"""Made-up Harrowgate Wildlife Park: an OWL ontology exported as RDF/XML (Protege style) + blind test questions.
Every gold answer is computed from the emitted triples; the RDF/XML is checked to parse back with rdflib."""
import datetime as dt, json, os, re, sys
from xml.sax.saxutils import escape as xml_escape
from decimal import Decimal

from rdflib import OWL, RDF, RDFS, XSD, Graph, Literal, Namespace, URIRef

OUT = sys.argv[1] if len(sys.argv) > 1 else "."  # the folder to write into
os.makedirs(OUT, exist_ok=True)
ONTO = "http://example.org/zoo"
ZOO = Namespace(ONTO + "#")
D = dt.date.fromisoformat


class N(str):
    """An IRI node: a local name in the zoo namespace, or a prefixed name such as owl:Class."""


# ----------------------------------------------------------------- schema
CLASSES = [("Animal", "Animal"), ("Species", "Species"), ("Enclosure", "Enclosure"), ("Zone", "Zone"),
           ("Keeper", "Keeper"), ("FoodItem", "Food item"), ("Continent", "Continent")]
# local name: (kind, label, domain, range)
PROPS = [
    ("ofSpecies", "object", "species", "Animal", "Species"),
    ("livesIn", "object", "lives in", "Animal", "Enclosure"),
    ("caredForBy", "object", "cared for by", "Animal", "Keeper"),
    ("hasMother", "object", "mother", "Animal", "Animal"),
    ("birthDate", "data", "date of birth", "Animal", "xsd:date"),
    ("arrivalDate", "data", "arrival date", "Animal", "xsd:date"),
    ("weight_kg", "data", "weight (kg)", "Animal", "xsd:decimal"),
    ("hasDiet", "object", "diet", "Species", "FoodItem"),
    ("nativeTo", "object", "native to", "Species", "Continent"),
    ("endangered", "data", "endangered", "Species", "xsd:boolean"),
    ("partOfZone", "object", "part of zone", "Enclosure", "Zone"),
    ("area_sqm", "data", "area (square metres)", "Enclosure", "xsd:integer"),
    ("assignedTo", "object", "assigned to", "Keeper", "Zone"),
    ("hiredOn", "data", "hired on", "Keeper", "xsd:date"),
]

# ----------------------------------------------------------------- data
CONTINENTS = ["Africa", "Asia", "South America", "Oceania", "Antarctica"]
FOODS = ["Beef", "Chicken", "Bamboo", "Hay", "Herring", "Krill", "Eucalyptus Leaves", "Fruit Mix", "Acacia Browse"]
ZONES = ["Amberveld Savanna", "Stonecrest Highlands", "Mossglade Forest", "Tidewater Coast"]
# species: (native continent, endangered, diet)
SPECIES = {
    "African Lion": ("Africa", False, ["Beef", "Chicken"]),
    "Reticulated Giraffe": ("Africa", True, ["Acacia Browse", "Hay"]),
    "Plains Zebra": ("Africa", False, ["Hay"]),
    "Ring-tailed Lemur": ("Africa", True, ["Fruit Mix"]),
    "Sumatran Tiger": ("Asia", True, ["Beef", "Chicken"]),
    "Snow Leopard": ("Asia", False, ["Beef"]),
    "Red Panda": ("Asia", True, ["Bamboo", "Fruit Mix"]),
    "Capybara": ("South America", False, ["Hay", "Fruit Mix"]),
    "Humboldt Penguin": ("South America", False, ["Herring"]),
    "Gentoo Penguin": ("Antarctica", False, ["Herring", "Krill"]),
    "Red Kangaroo": ("Oceania", False, ["Hay"]),
    "Koala": ("Oceania", False, ["Eucalyptus Leaves"]),
}
# enclosure: (zone, area in square metres)
ENCLOSURES = {
    "Lion Kopje": ("Amberveld Savanna", 2400),
    "Open Plains Paddock": ("Amberveld Savanna", 5200),
    "Tiger Ravine": ("Stonecrest Highlands", 3100),
    "Snow Leopard Crag": ("Stonecrest Highlands", 1800),
    "Bamboo Hollow": ("Stonecrest Highlands", 650),
    "Mossglade Walkthrough": ("Mossglade Forest", 950),
    "Eucalypt Grove": ("Mossglade Forest", 1500),
    "Penguin Cove": ("Tidewater Coast", 1300),
}
# keeper: (zone, hired on)
KEEPERS = {
    "Odette Marchetti": ("Amberveld Savanna", "2011-04-18"),
    "Bram Huxtable": ("Amberveld Savanna", "2019-09-02"),
    "Yusuf Adeyemi": ("Stonecrest Highlands", "2015-06-01"),
    "Greta Lindqvist": ("Stonecrest Highlands", "2021-03-15"),
    "Tamsin Rourke": ("Mossglade Forest", "2008-10-06"),
    "Pavel Okonkwo": ("Mossglade Forest", "2022-08-01"),
    "Niamh Castellano": ("Tidewater Coast", "2013-05-20"),
}
# animal: (species, enclosure, keeper, born, arrived (None: born here), weight kg, mother (None: unknown))
ANIMALS = {
    "Kesho": ("African Lion", "Lion Kopje", "Odette Marchetti", "2012-05-14", "2014-08-20", "189.5", None),
    "Amara": ("African Lion", "Lion Kopje", "Odette Marchetti", "2013-02-02", "2014-08-20", "131.2", None),
    "Zuri": ("African Lion", "Lion Kopje", "Bram Huxtable", "2020-11-09", None, "118.4", "Amara"),
    "Moto": ("African Lion", "Lion Kopje", "Bram Huxtable", "2020-11-09", None, "162.7", "Amara"),
    "Juniper": ("Reticulated Giraffe", "Open Plains Paddock", "Odette Marchetti", "2010-07-21", "2012-04-03",
                "780.5", None),
    "Marigold": ("Reticulated Giraffe", "Open Plains Paddock", "Bram Huxtable", "2016-09-14", "2019-05-10",
                 "702.5", None),
    "Obi": ("Reticulated Giraffe", "Open Plains Paddock", "Bram Huxtable", "2022-06-01", None, "410.3", "Juniper"),
    "Domino": ("Plains Zebra", "Open Plains Paddock", "Odette Marchetti", "2014-03-03", "2016-10-11", "322.4", None),
    "Pepper": ("Plains Zebra", "Open Plains Paddock", "Bram Huxtable", "2017-08-19", "2021-02-24", "298.5", None),
    "Rajani": ("Sumatran Tiger", "Tiger Ravine", "Yusuf Adeyemi", "2010-09-30", "2011-12-01", "112.6", None),
    "Kiran": ("Sumatran Tiger", "Tiger Ravine", "Yusuf Adeyemi", "2015-12-05", "2018-01-22", "138.5", None),
    "Ember": ("Sumatran Tiger", "Tiger Ravine", "Greta Lindqvist", "2021-07-07", None, "96.8", "Rajani"),
    "Sable": ("Snow Leopard", "Snow Leopard Crag", "Greta Lindqvist", "2016-04-12", "2017-11-03", "38.2", None),
    "Tashi": ("Snow Leopard", "Snow Leopard Crag", "Yusuf Adeyemi", "2018-05-25", "2020-09-14", "46.7", None),
    "Bramble": ("Red Panda", "Bamboo Hollow", "Greta Lindqvist", "2019-06-18", "2020-03-09", "5.4", None),
    "Hazel": ("Red Panda", "Bamboo Hollow", "Greta Lindqvist", "2017-06-30", "2018-10-02", "4.9", None),
    "Pip": ("Red Panda", "Bamboo Hollow", "Greta Lindqvist", "2023-07-04", None, "3.1", "Hazel"),
    "Clementine": ("Ring-tailed Lemur", "Mossglade Walkthrough", "Tamsin Rourke", "2012-03-27", "2015-07-14",
                   "2.3", None),
    "Biscuit": ("Ring-tailed Lemur", "Mossglade Walkthrough", "Pavel Okonkwo", "2016-04-02", "2016-11-29",
                "2.6", None),
    "Figaro": ("Ring-tailed Lemur", "Mossglade Walkthrough", "Pavel Okonkwo", "2020-03-18", None, "2.4",
               "Clementine"),
    "Luna": ("Capybara", "Mossglade Walkthrough", "Tamsin Rourke", "2018-01-11", "2019-08-26", "49.1", None),
    "Barnaby": ("Capybara", "Mossglade Walkthrough", "Pavel Okonkwo", "2017-10-05", "2019-08-26", "55.5", None),
    "Wattle": ("Koala", "Eucalypt Grove", "Tamsin Rourke", "2015-11-20", "2018-06-06", "7.8", None),
    "Gumnut": ("Koala", "Eucalypt Grove", "Pavel Okonkwo", "2019-02-14", "2022-09-30", "9.1", None),
    "Skipper": ("Red Kangaroo", "Eucalypt Grove", "Tamsin Rourke", "2013-08-08", "2015-05-05", "84.3", None),
    "Matilda": ("Red Kangaroo", "Eucalypt Grove", "Pavel Okonkwo", "2016-12-12", "2017-09-18", "33.5", None),
    "Pebble": ("Humboldt Penguin", "Penguin Cove", "Niamh Castellano", "2014-05-01", "2016-03-21", "4.4", None),
    "Captain": ("Humboldt Penguin", "Penguin Cove", "Niamh Castellano", "2013-11-11", "2016-03-21", "4.9", None),
    "Squid": ("Humboldt Penguin", "Penguin Cove", "Niamh Castellano", "2022-04-15", None, "4.1", "Pebble"),
    "Marlowe": ("Gentoo Penguin", "Penguin Cove", "Niamh Castellano", "2015-02-28", "2019-12-02", "6.2", None),
    "Iris": ("Gentoo Penguin", "Penguin Cove", "Niamh Castellano", "2017-09-09", "2019-12-02", "5.7", None),
}

# ----------------------------------------------------------------- triples
def node(label):
    local = re.sub(r"[ \-]+", "_", label)
    assert re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", local), local
    return N(local)


T = []  # (subject N, predicate local name or prefixed name, object N / literal)
def add(s, p, o): T.append((s, p, o))

add(N("owl:Ontology:" + ONTO), "rdf:type", N("owl:Ontology"))
for c, l in CLASSES:
    add(N(c), "rdf:type", N("owl:Class")); add(N(c), "rdfs:label", l)
for p, kind, l, dom, rng in PROPS:
    add(N(p), "rdf:type", N("owl:ObjectProperty" if kind == "object" else "owl:DatatypeProperty"))
    add(N(p), "rdfs:label", l); add(N(p), "rdfs:domain", N(dom)); add(N(p), "rdfs:range", N(rng))

def ent(label, cls):
    n = node(label); add(n, "rdf:type", N(cls)); add(n, "rdfs:label", label); return n

for c in CONTINENTS: ent(c, "Continent")
for f in FOODS: ent(f, "FoodItem")
for z in ZONES: ent(z, "Zone")
for s, (cont, endangered, diet) in SPECIES.items():
    n = ent(s, "Species")
    add(n, "nativeTo", node(cont)); add(n, "endangered", endangered)
    for f in diet: add(n, "hasDiet", node(f))
for e, (zone, area) in ENCLOSURES.items():
    n = ent(e, "Enclosure"); add(n, "partOfZone", node(zone)); add(n, "area_sqm", area)
for k, (zone, hired) in KEEPERS.items():
    n = ent(k, "Keeper"); add(n, "assignedTo", node(zone)); add(n, "hiredOn", D(hired))
for a, (sp, enc, keeper, born, arrived, kg, mother) in ANIMALS.items():
    n = ent(a, "Animal")
    add(n, "ofSpecies", node(sp)); add(n, "livesIn", node(enc)); add(n, "caredForBy", node(keeper))
    add(n, "birthDate", D(born)); add(n, "weight_kg", Decimal(kg))
    if arrived is not None: add(n, "arrivalDate", D(arrived))
    if mother is not None: add(n, "hasMother", node(mother))

# sanity: no duplicate triples, every IRI object declared, unique labels and keeper first names, plausible data
assert len(set(T)) == len(T)
subjects = {s for s, _, _ in T}
for s, p, o in T:
    if isinstance(o, N) and ":" not in o:
        assert o in subjects, o
schema = {N(c) for c, _ in CLASSES} | {N(p[0]) for p in PROPS}
labels = [o for s, p, o in T if p == "rdfs:label" and s not in schema]
assert len(labels) == len(set(labels)), labels
firsts = [k.split()[0] for k in KEEPERS]
assert len(firsts) == len(set(firsts)), firsts
for a, (sp, enc, keeper, born, arrived, kg, mother) in ANIMALS.items():
    assert KEEPERS[keeper][0] == ENCLOSURES[enc][0], a  # keepers work in the zone of their animals
    assert arrived is None or arrived > born, a
    assert (arrived is None) == (mother is not None), a  # born here exactly when the mother is known
    if mother is not None:
        assert ANIMALS[mother][0] == sp and ANIMALS[mother][3] < born and ANIMALS[mother][1] == enc, a
assert 250 <= len(T) <= 500, len(T)

# ----------------------------------------------------------------- RDF/XML (rdflib)
PREFIX = {"rdf": RDF, "rdfs": RDFS, "owl": OWL, "xsd": XSD}
def iri(n):
    if n.startswith("owl:Ontology:"): return URIRef(n[len("owl:Ontology:"):])
    if ":" in n:
        pre, local = n.split(":", 1); return PREFIX[pre][local]
    return ZOO[n]
def rdf_obj(o):
    if isinstance(o, N): return iri(o)
    if isinstance(o, bool): return Literal(o, datatype=XSD.boolean)
    if isinstance(o, int): return Literal(o, datatype=XSD.integer)
    if isinstance(o, Decimal): return Literal(str(o), datatype=XSD.decimal)
    if isinstance(o, dt.date): return Literal(o.isoformat(), datatype=XSD.date)
    return Literal(o)  # plain label, as Protege writes rdfs:label without a language tag by default

g = Graph()
for s, p, o in T:
    g.add((iri(s), iri(p), rdf_obj(o)))
assert len(g) == len(T)


def qname(n):  # element name for a class or property
    return n if ":" in n else "zoo:" + n


def write_rdfxml(path):
    """Flat RDF/XML laid out the way Protege exports an ontology: one typed node per resource, rdf:resource links."""
    order = []
    for s, _, _ in T:
        if s not in order: order.append(s)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<rdf:RDF xmlns="%s"' % ZOO, '     xml:base="%s"' % ONTO,
           '     xmlns:zoo="%s"' % ZOO, '     xmlns:owl="%s"' % OWL, '     xmlns:rdf="%s"' % RDF,
           '     xmlns:xml="http://www.w3.org/XML/1998/namespace"', '     xmlns:xsd="%s"' % XSD,
           '     xmlns:rdfs="%s">' % RDFS]
    for s in order:
        rows = [(p, o) for ss, p, o in T if ss == s]
        types = [o for p, o in rows if p == "rdf:type"]
        assert len(types) == 1, (s, types)
        out.append("")
        about = xml_escape(str(iri(s)), {'"': "&quot;"})
        if len(rows) == 1:
            out.append('    <%s rdf:about="%s"/>' % (qname(types[0]), about))
            continue
        out.append('    <%s rdf:about="%s">' % (qname(types[0]), about))
        for p, o in rows:
            if p == "rdf:type": continue
            if isinstance(o, N):
                out.append('        <%s rdf:resource="%s"/>' % (qname(p), iri(o)))
                continue
            lit = rdf_obj(o)
            dtype = ' rdf:datatype="%s"' % lit.datatype if lit.datatype is not None else ""
            out.append('        <%s%s>%s</%s>' % (qname(p), dtype, xml_escape(str(lit)), qname(p)))
        out.append('    </%s>' % qname(types[0]))
    out.append("</rdf:RDF>")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


rdf_path = os.path.join(OUT, "zoo.rdf")
write_rdfxml(rdf_path)
back_g = Graph(); back_g.parse(rdf_path, format="xml")
assert len(back_g) == len(T), (len(back_g), len(T))
assert back_g.isomorphic(g)

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
    win = [e for e in ents if vals[e] == b]
    assert len(win) == 1, win  # superlatives must have one clear winner
    return win
def fmt(v):
    if isinstance(v, N): return LAB[v]
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, dt.date): return v.isoformat()
    return str(v)

animals, species, enclosures, keepers = typed("Animal"), typed("Species"), typed("Enclosure"), typed("Keeper")
def of_species(s): return subs("ofSpecies", E(s))
def in_zone(z): return back(back([E(z)], "partOfZone"), "livesIn")   # animals: zone <- enclosure <- animal
def is_endangered(sp): return one(sp, "endangered") is True
penguins = [a for a in animals if "Penguin" in LAB[one(a, "ofSpecies")]]

Q = [
  # ---- one-hop, both directions (one with a keeper's first name only, one with a typo)
  ("who looks after Bramble?", objs(E("Bramble"), "caredForBy")),
  ("what does a red panda eat?", objs(E("Red Panda"), "hasDiet")),
  ("what kind of animal is Domino?", objs(E("Domino"), "ofSpecies")),
  ("how much does Kesho weigh?", objs(E("Kesho"), "weight_kg")),
  ("when did Tashi come to the zoo?", objs(E("Tashi"), "arrivalDate")),
  ("who is Pip's mum?", objs(E("Pip"), "hasMother")),
  ("where do Humboldt penguins come from in the wild?", objs(E("Humboldt Penguin"), "nativeTo")),
  ("is the koala an endangered species?", objs(E("Koala"), "endangered")),
  ("which enclosure is Clementnie in?", objs(E("Clementine"), "livesIn")),
  ("which animals live in Penguin Cove?", subs("livesIn", E("Penguin Cove"))),
  ("which animals does Greta look after?", subs("caredForBy", E("Greta Lindqvist"))),
  ("which keeper works in the Tidewater Coast area?", subs("assignedTo", E("Tidewater Coast"))),
  # ---- two-hop
  ("where can I see the lions?", hop(of_species("African Lion"), "livesIn")),
  ("what does Gumnut eat?", hop(objs(E("Gumnut"), "ofSpecies"), "hasDiet")),
  ("which keepers look after the tigers?", hop(of_species("Sumatran Tiger"), "caredForBy")),
  ("who takes care of Zuri's mother?", hop(objs(E("Zuri"), "hasMother"), "caredForBy")),
  ("which part of the world is Tashi's species originally from?", hop(objs(E("Tashi"), "ofSpecies"), "nativeTo")),
  ("which animals get herring at feeding time?", back(subs("hasDiet", E("Herring")), "ofSpecies")),
  # ---- three-hop and longer
  ("which area of the zoo are the giraffes in?", hop(hop(of_species("Reticulated Giraffe"), "livesIn"), "partOfZone")),
  ("which keepers work with animals that come from Africa?",
     hop(back(subs("nativeTo", E("Africa")), "ofSpecies"), "caredForBy")),
  ("what food do we need to order for the animals in the Stonecrest Highlands?",
     hop(hop(in_zone("Stonecrest Highlands"), "ofSpecies"), "hasDiet")),
  # ---- counts
  ("how many penguins do you have?", [len(penguins)]),
  ("how many endangered species are there at the zoo?", [len([s for s in species if is_endangered(s)])]),
  ("how many animals live in the Amberveld Savanna?", [len(in_zone("Amberveld Savanna"))]),
  ("how many cubs has Amara had?", [len(subs("hasMother", E("Amara")))]),
  # ---- superlatives (no entity named, over a filtered set, and a property of the winner)
  ("which is the heaviest animal?", arg(animals, "weight_kg", max)),
  ("who is the youngest animal in the zoo?", arg(animals, "birthDate", max)),
  ("which keeper has worked here the longest?", arg(keepers, "hiredOn", min)),
  ("what's the lightest animal in the Mossglade Forest?", arg(in_zone("Mossglade Forest"), "weight_kg", min)),
  ("which animal has been at the zoo the longest?", arg(animals, "arrivalDate", min)),
  ("how heavy is the oldest lion?", hop(arg(of_species("African Lion"), "birthDate", min), "weight_kg")),
  ("when did Marigold's keeper start working here?", hop(objs(E("Marigold"), "caredForBy"), "hiredOn")),
  # ---- numeric / date comparisons
  ("which animals arrived after 2020?", [a for a in animals if objs(a, "arrivalDate")
                                        and one(a, "arrivalDate") > D("2020-12-31")]),
  ("which animals weigh more than 300 kg?", [a for a in animals if one(a, "weight_kg") > 300]),
  ("which keepers started before 2015?", [k for k in keepers if one(k, "hiredOn") < D("2015-01-01")]),
  ("which enclosures are smaller than 1000 square metres?", [e for e in enclosures if one(e, "area_sqm") < 1000]),
  # ---- booleans as filters, negation
  ("which species are not endangered?", [s for s in species if not is_endangered(s)]),
  ("which animals in Mossglade Forest belong to an endangered species?",
     [a for a in in_zone("Mossglade Forest") if is_endangered(one(a, "ofSpecies"))]),
  ("which zones have no endangered animals?",
     [z for z in typed("Zone") if not any(is_endangered(one(a, "ofSpecies")) for a in in_zone(LAB[z]))]),
  # ---- conjunctions
  ("which Asian species are endangered?", [s for s in subs("nativeTo", E("Asia")) if is_endangered(s)]),
  ("which species from Africa eat hay?", [s for s in subs("nativeTo", E("Africa")) if E("Hay") in objs(s, "hasDiet")]),
  ("which animals in the Open Plains Paddock does Bram Huxtable look after?",
     [a for a in subs("livesIn", E("Open Plains Paddock")) if one(a, "caredForBy") == E("Bram Huxtable")]),
]
assert len(penguins) == 5
with open(os.path.join(OUT, "zoo_q.jsonl"), "w", encoding="utf-8") as f:
    for i, (text, ans) in enumerate(Q):
        ans = [fmt(a) for a in ans]
        assert 1 <= len(ans) <= 8, (text, ans)
        assert len(ans) == len(set(ans)), (text, ans)
        f.write(json.dumps({"id": "zoo-%d" % i, "question": text, "answers": ans}) + "\n")

print("triples:", len(T), "questions:", len(Q))
print("classes:", ", ".join(l for _, l in CLASSES))
print("properties:", ", ".join(p[2] for p in PROPS))
