"""Made-up Kestleford city public library network: a catalogue export as typed Turtle + blind test questions.
Stdlib only; every gold answer is computed from the emitted triples (rdflib, when installed, only checks the file
parses back to the same number of triples)."""
import datetime as dt, json, os, sys
from decimal import Decimal

OUT = sys.argv[1] if len(sys.argv) > 1 else "."  # the folder to write into
os.makedirs(OUT, exist_ok=True)
BASE = "http://example.org/kestleford-libraries/"
D = dt.date.fromisoformat


class N(str):
    """An IRI node: a local name in the library namespace, or a prefixed name such as owl:Class."""


# ----------------------------------------------------------------- schema
CLASSES = [("Branch", "Branch"), ("Book", "Book"), ("Author", "Author"), ("Publisher", "Publisher"),
           ("Genre", "Genre"), ("Member", "Member"), ("Loan", "Loan"), ("Event", "Event")]
# local name, kind, domain, range   (no rdfs:label on properties, as the catalogue tool exports them)
PROPS = [
    ("writtenBy", "object", "Book", "Author"),
    ("publishedBy", "object", "Book", "Publisher"),
    ("hasGenre", "object", "Book", "Genre"),
    ("heldAt", "object", "Book", "Branch"),
    ("publicationDate", "data", "Book", "xsd:date"),
    ("pageCount", "data", "Book", "xsd:integer"),
    ("isReferenceOnly", "data", "Book", "xsd:boolean"),
    ("birthYear", "data", "Author", "xsd:integer"),
    ("isOpenOnSunday", "data", "Branch", "xsd:boolean"),
    ("hasWheelchairAccess", "data", "Branch", "xsd:boolean"),
    ("openedYear", "data", "Branch", "xsd:integer"),
    ("registeredAt", "object", "Member", "Branch"),
    ("joinedOn", "data", "Member", "xsd:date"),
    ("outstandingFines", "data", "Member", "xsd:decimal"),
    ("borrowedBy", "object", "Loan", "Member"),
    ("loanOf", "object", "Loan", "Book"),
    ("dueDate", "data", "Loan", "xsd:date"),
    ("hostedAt", "object", "Event", "Branch"),
    ("eventDate", "data", "Event", "xsd:date"),
    ("featuresAuthor", "object", "Event", "Author"),
]

# ----------------------------------------------------------------- data
# branch: (id, open on Sunday, wheelchair access, year opened)
BRANCHES = {
    "Central Library": ("branch-central", True, True, 1962),
    "Millbrook Branch": ("branch-millbrook", False, True, 1987),
    "Harbourside Branch": ("branch-harbourside", True, False, 1974),
    "Elmwood Hill Branch": ("branch-elmwood", False, False, 1951),
    "Fernley Green Branch": ("branch-fernley", False, True, 2009),
}
# author: birth year (two Ellsworths share a surname)
AUTHORS = {
    "Marguerite Ellsworth": 1948, "Tobias Ellsworth": 1979, "Priya Ramaswell": 1983, "Jonah Featherby": 1961,
    "Ines Calder-Voss": 1970, "Oskar Lindqvell": 1955, "Rufus Penhallow": 1990, "Amara Quist": 1974,
    "Hollis Tregarthen": 1966, "Saoirse Mulcahey": 1987, "Wendell Ashcombe": 1939,
}
PUBLISHERS = ["Lanternfield Press", "Corbel & Finch", "Northgate House", "Bramblewick Books"]
GENRES = {"Crime": "genre-crime", "Science Fiction": "genre-scifi", "Historical Fiction": "genre-historical",
          "Poetry": "genre-poetry", "Local History": "genre-localhistory", "Children's Fiction": "genre-children"}
# book: (author, publisher, genre, branch, publication date, pages, reference only)
BOOKS = {
    "The Quiet Ferryman": ("Marguerite Ellsworth", "Lanternfield Press", "Crime", "Central Library",
                           "1994-03-11", 312, False),
    "Ashes on Wexley Road": ("Marguerite Ellsworth", "Lanternfield Press", "Crime", "Harbourside Branch",
                             "2001-09-20", 388, False),
    "The Last Lamplighter": ("Marguerite Ellsworth", "Northgate House", "Historical Fiction", "Central Library",
                             "1987-05-02", 455, False),
    "Signal from Caldera Nine": ("Tobias Ellsworth", "Corbel & Finch", "Science Fiction", "Millbrook Branch",
                                 "2015-06-18", 502, False),
    "Twenty-Two Lanterns": ("Tobias Ellsworth", "Corbel & Finch", "Science Fiction", "Fernley Green Branch",
                            "2019-10-03", 276, False),
    "A Map of Small Rivers": ("Priya Ramaswell", "Bramblewick Books", "Poetry", "Elmwood Hill Branch",
                              "2012-02-14", 96, False),
    "The Pepper Thief": ("Priya Ramaswell", "Lanternfield Press", "Crime", "Millbrook Branch",
                         "2018-11-29", 341, False),
    "Harbourside Through the Ages": ("Jonah Featherby", "Northgate House", "Local History", "Harbourside Branch",
                                     "1999-07-07", 220, True),
    "Mills and Mudlarks: A Millbrook Chronicle": ("Jonah Featherby", "Northgate House", "Local History",
                                                  "Millbrook Branch", "2006-04-21", 264, True),
    "The Glass Orchard (Revised Edition)": ("Ines Calder-Voss", "Bramblewick Books", "Historical Fiction",
                                            "Central Library", "2011-08-30", 610, False),
    "Winter at Skellmoor": ("Ines Calder-Voss", "Northgate House", "Historical Fiction", "Elmwood Hill Branch",
                            "2004-01-15", 398, False),
    "The Brass Cartographer": ("Oskar Lindqvell", "Corbel & Finch", "Science Fiction", "Central Library",
                               "1982-10-09", 430, False),
    "Pip and the Paper Kite": ("Rufus Penhallow", "Bramblewick Books", "Children's Fiction", "Fernley Green Branch",
                               "2021-03-05", 48, False),
    "Pip Goes to Sea": ("Rufus Penhallow", "Bramblewick Books", "Children's Fiction", "Harbourside Branch",
                        "2022-06-17", 52, False),
    "A Knock at Number Nine": ("Amara Quist", "Lanternfield Press", "Crime", "Fernley Green Branch",
                               "2016-09-09", 295, False),
    "The Old Tram Lines of Kestleford": ("Hollis Tregarthen", "Northgate House", "Local History", "Central Library",
                                         "1978-12-01", 184, True),
    "Salt in the Lantern Light": ("Saoirse Mulcahey", "Bramblewick Books", "Poetry", "Harbourside Branch",
                                  "2020-04-23", 88, False),
    "The Orchard Keeper's Daughter": ("Wendell Ashcombe", "Northgate House", "Historical Fiction",
                                      "Elmwood Hill Branch", "1968-02-27", 520, False),
}
# member: (home branch, joined on, outstanding fines)
MEMBERS = {
    "Nadia Brightwell": ("Central Library", "2015-04-12", "0"),
    "Callum Ferris": ("Millbrook Branch", "2019-09-01", "3.25"),
    "Beatrix Holloway": ("Harbourside Branch", "2011-01-20", "7.8"),
    "Theo Marchbank": ("Central Library", "2021-06-14", "1.5"),
    "Yusuf Adeyemi-Clarke": ("Fernley Green Branch", "2010-03-03", "12.4"),
    "Greta Pennywhistle": ("Elmwood Hill Branch", "2018-11-30", "0.75"),
    "Marcus Ellery": ("Harbourside Branch", "2023-02-08", "0"),
}
# loan: (book, member, due date)
LOANS = {
    "Loan L-1001": ("The Quiet Ferryman", "Nadia Brightwell", "2024-05-10"),
    "Loan L-1002": ("Signal from Caldera Nine", "Callum Ferris", "2024-05-18"),
    "Loan L-1003": ("Pip Goes to Sea", "Beatrix Holloway", "2024-04-30"),
    "Loan L-1004": ("Winter at Skellmoor", "Nadia Brightwell", "2024-05-22"),
    "Loan L-1005": ("A Knock at Number Nine", "Yusuf Adeyemi-Clarke", "2024-04-12"),
    "Loan L-1006": ("Twenty-Two Lanterns", "Theo Marchbank", "2024-06-01"),
    "Loan L-1007": ("The Pepper Thief", "Callum Ferris", "2024-05-25"),
    "Loan L-1008": ("Salt in the Lantern Light", "Marcus Ellery", "2024-06-07"),
}
# event: (branch, date, featured authors)
EVENTS = {
    "Crime Writers' Evening": ("Central Library", "2024-06-20", ["Marguerite Ellsworth", "Amara Quist"]),
    "Poetry by the Harbour": ("Harbourside Branch", "2024-07-04", ["Saoirse Mulcahey", "Priya Ramaswell"]),
    "Pip's Storytime Morning": ("Fernley Green Branch", "2024-05-25", ["Rufus Penhallow"]),
    "Local History Walk and Talk": ("Millbrook Branch", "2024-08-10", ["Jonah Featherby"]),
}

# ----------------------------------------------------------------- triples
T = []      # (subject, predicate, object): subject/predicate N, object N or a Python value
LAB = {}    # node -> label
NODE = {}   # label -> node
def ent(node, cls, label):
    node = N(node)
    assert label not in NODE, label
    LAB[node], NODE[label] = label, node
    T.append((node, N("rdf:type"), N(cls)))
    T.append((node, N("rdfs:label"), label))
    return node
def add(s, p, o): T.append((s, N(p), o))

for local, label in CLASSES:
    T.append((N(local), N("rdf:type"), N("owl:Class")))
    T.append((N(local), N("rdfs:label"), label))
for local, kind, _dom, _rng in PROPS:
    T.append((N(local), N("rdf:type"), N("owl:ObjectProperty" if kind == "object" else "owl:DatatypeProperty")))

for label, (i, sunday, wheel, year) in BRANCHES.items():
    b = ent(i, "Branch", label)
    add(b, "isOpenOnSunday", sunday); add(b, "hasWheelchairAccess", wheel); add(b, "openedYear", year)
for n, (label, year) in enumerate(AUTHORS.items(), 1):
    a = ent("au%04d" % n, "Author", label)
    add(a, "birthYear", year)
for n, label in enumerate(PUBLISHERS, 1):
    ent("pub%02d" % n, "Publisher", label)
for label, i in GENRES.items():
    ent(i, "Genre", label)
for n, (label, (au, pub, gen, br, date, pages, ref)) in enumerate(BOOKS.items(), 1):
    b = ent("bk%05d" % (n * 37 + 1000), "Book", label)
    add(b, "writtenBy", NODE[au]); add(b, "publishedBy", NODE[pub]); add(b, "hasGenre", NODE[gen])
    add(b, "heldAt", NODE[br]); add(b, "publicationDate", D(date)); add(b, "pageCount", pages)
    add(b, "isReferenceOnly", ref)
for n, (label, (br, joined, fines)) in enumerate(MEMBERS.items(), 1):
    m = ent("mem%06d" % (n * 113 + 200000), "Member", label)
    add(m, "registeredAt", NODE[br]); add(m, "joinedOn", D(joined)); add(m, "outstandingFines", Decimal(fines))
for label, (book, member, due) in LOANS.items():
    assert not BOOKS[book][6], book  # reference-only books are never lent
    l = ent("loan" + label.split("-")[1], "Loan", label)
    add(l, "loanOf", NODE[book]); add(l, "borrowedBy", NODE[member]); add(l, "dueDate", D(due))
for n, (label, (br, date, authors)) in enumerate(EVENTS.items(), 1):
    e = ent("ev%03d" % n, "Event", label)
    add(e, "hostedAt", NODE[br]); add(e, "eventDate", D(date))
    for au in authors:
        add(e, "featuresAuthor", NODE[au])
assert len(T) == len(set(T))

# ----------------------------------------------------------------- Turtle
def term(o):
    if isinstance(o, N): return o if ":" in o else "lib:" + o
    if isinstance(o, bool): return "true" if o else "false"
    if isinstance(o, int): return str(o)
    if isinstance(o, Decimal): return '"%s"^^xsd:decimal' % o
    if isinstance(o, dt.date): return '"%s"^^xsd:date' % o.isoformat()
    return '"%s"' % o.replace("\\", "\\\\").replace('"', '\\"')

lines = ["@prefix lib: <%s> ." % BASE, "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .",
         "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .", "@prefix owl: <http://www.w3.org/2002/07/owl#> .",
         "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .", "",
         "<%s> a owl:Ontology ; rdfs:comment \"Kestleford Public Libraries - catalogue export\" ." % BASE.rstrip("/"), ""]
subjects = []
for s, _, _ in T:
    if s not in subjects: subjects.append(s)
for s in subjects:
    po = [(p, o) for s2, p, o in T if s2 == s]
    body = " ;\n    ".join("%s %s" % ("a" if p == "rdf:type" else term(p), term(o)) for p, o in po)
    lines.append("%s %s .\n" % (term(s), body))
path = os.path.join(OUT, "library.ttl")
with open(path, "w", encoding="utf-8") as f:
    f.write("\n".join(lines))

try:  # optional check: the file parses back with the same triples (+1 for the ontology header's two)
    import rdflib
    g = rdflib.Graph(); g.parse(path, format="turtle")
    assert len(g) == len(T) + 2, (len(g), len(T))
except ImportError:
    pass

# ----------------------------------------------------------------- query helpers over T
def objs(s, p): return [o for s2, p2, o in T if s2 == s and p2 == p]
def subs(p, o): return [s for s, p2, o2 in T if p2 == p and o2 == o]
def one(s, p):
    v = objs(s, p); assert len(v) == 1, (s, p, v); return v[0]
def uniq(xs):
    out = []
    for x in xs:
        if x not in out: out.append(x)
    return out
def hop(nodes, p): return uniq(o for s in nodes for o in objs(s, p))
def back(nodes, p): return uniq(s for o in nodes for s in subs(p, o))
def typed(cls): return [s for s, p, o in T if p == "rdf:type" and o == cls]
def E(label): return NODE[label]
def arg(ents, p, best):
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

books, authors, branches, members = typed("Book"), typed("Author"), typed("Branch"), typed("Member")
def books_by(a): return subs("writtenBy", E(a))
def in_genre(g): return subs("hasGenre", E(g))
def at_branch(b): return subs("heldAt", E(b))
def lendable(b): return one(b, "isReferenceOnly") is False
def loans_of(m): return subs("borrowedBy", E(m))
def year(b): return one(b, "publicationDate").year

Q = [
  # ---- one-hop, forward (one with a typo in the title)
  ("one-hop", "who wrote The Pepper Thief?", objs(E("The Pepper Thief"), "writtenBy")),
  ("one-hop", "which branch has Winter at Skelmoor?", objs(E("Winter at Skellmoor"), "heldAt")),
  ("one-hop", "what kind of book is A Knock at Number Nine?", objs(E("A Knock at Number Nine"), "hasGenre")),
  ("one-hop", "which library is Beatrix Holloway a member of?", objs(E("Beatrix Holloway"), "registeredAt")),
  # ---- one-hop, inverse (one with a surname only, one with a first name only, one with a typo)
  ("one-hop-inverse", "books by Ines Calder-Voss", books_by("Ines Calder-Voss")),
  ("one-hop-inverse", "what books can I find at the Harbourside Branch?", at_branch("Harbourside Branch")),
  ("one-hop-inverse", "what has Bramblewick Books published?", subs("publishedBy", E("Bramblewick Books"))),
  ("one-hop-inverse", "who are the members signed up at Central Library?", subs("registeredAt", E("Central Library"))),
  ("partial-name", "what has Featherby written?", books_by("Jonah Featherby")),
  ("partial-name", "do you have anything by Saoirse?", books_by("Saoirse Mulcahey")),
  ("typo", "books by Oskar Lindqvel", books_by("Oskar Lindqvell")),
  # ---- attribute values (what / when / how many pages)
  ("attribute", "when was The Last Lamplighter published?", objs(E("The Last Lamplighter"), "publicationDate")),
  ("attribute", "how many pages does Signal from Caldera Nine have?",
     objs(E("Signal from Caldera Nine"), "pageCount")),
  ("attribute", "how much does Beatrix Holloway owe in fines?", objs(E("Beatrix Holloway"), "outstandingFines")),
  ("attribute", "when is the Crime Writers' Evening?", objs(E("Crime Writers' Evening"), "eventDate")),
  # ---- two-hop
  ("two-hop", "when is A Knock at Number Nine due back?",
     hop(subs("loanOf", E("A Knock at Number Nine")), "dueDate")),
  ("two-hop", "which books has Callum Ferris got out at the moment?", hop(loans_of("Callum Ferris"), "loanOf")),
  ("two-hop", "which branches have Tobias Ellsworth's books?", hop(books_by("Tobias Ellsworth"), "heldAt")),
  ("two-hop", "which authors are appearing at events at the Central Library?",
     hop(subs("hostedAt", E("Central Library")), "featuresAuthor")),
  ("two-hop", "where can I go to hear Jonah Featherby speak?",
     hop(subs("featuresAuthor", E("Jonah Featherby")), "hostedAt")),
  # ---- three-hop
  ("three-hop", "whose books has Nadia Brightwell borrowed?",
     hop(hop(loans_of("Nadia Brightwell"), "loanOf"), "writtenBy")),
  ("three-hop", "which branches stock books by the authors at the Crime Writers' Evening?",
     hop(back(objs(E("Crime Writers' Evening"), "featuresAuthor"), "writtenBy"), "heldAt")),
  ("three-hop", "who has crime novels out on loan?", hop(back(in_genre("Crime"), "loanOf"), "borrowedBy")),
  ("three-hop", "which books are Harbourside Branch members borrowing?",
     hop(back(subs("registeredAt", E("Harbourside Branch")), "borrowedBy"), "loanOf")),
  # ---- counts
  ("count", "how many books did Marguerite Ellsworth write?", [len(books_by("Marguerite Ellsworth"))]),
  ("count", "how many books are there at Central Library?", [len(at_branch("Central Library"))]),
  ("count", "how many crime novels do you have?", [len(in_genre("Crime"))]),
  ("count", "how many reference-only books are in the catalogue?", [len([b for b in books if not lendable(b)])]),
  # ---- superlatives: class only (no entity named), and over a named entity's set
  ("superlative-class", "which is the oldest book in the catalogue?", arg(books, "publicationDate", min)),
  ("superlative-class", "who is the oldest author?", arg(authors, "birthYear", min)),
  ("superlative-class", "which member owes the most in fines?", arg(members, "outstandingFines", max)),
  ("superlative-entity", "what's the longest book by Marguerite Ellsworth?",
     arg(books_by("Marguerite Ellsworth"), "pageCount", max)),
  ("superlative-entity", "what is the shortest crime novel?", arg(in_genre("Crime"), "pageCount", min)),
  ("superlative-entity", "what's the most recent book at the Elmwood Hill Branch?",
     arg(at_branch("Elmwood Hill Branch"), "publicationDate", max)),
  # ---- numeric / date comparisons
  ("comparison", "books published after 2015", [b for b in books if year(b) > 2015]),
  ("comparison", "which books are longer than 400 pages?", [b for b in books if one(b, "pageCount") > 400]),
  ("comparison", "which members joined before 2015?", [m for m in members if one(m, "joinedOn").year < 2015]),
  ("comparison", "which books are due back before 1 May 2024?",
     hop([l for l in typed("Loan") if one(l, "dueDate") < D("2024-05-01")], "loanOf")),
  # ---- booleans as filters, negation
  ("boolean", "which branches are open on Sundays?", [b for b in branches if one(b, "isOpenOnSunday")]),
  ("negation", "which branches don't have wheelchair access?",
     [b for b in branches if not one(b, "hasWheelchairAccess")]),
  ("negation", "which books can't be borrowed?", [b for b in books if not lendable(b)]),
  # ---- conjunctions
  ("conjunction", "crime novels by Marguerite Ellsworth",
     [b for b in books_by("Marguerite Ellsworth") if b in in_genre("Crime")]),
  ("conjunction", "which books at Central Library can I take home?",
     [b for b in at_branch("Central Library") if lendable(b)]),
  ("conjunction", "historical novels over 500 pages",
     [b for b in in_genre("Historical Fiction") if one(b, "pageCount") > 500]),
]
assert len({t for _, t, _ in Q}) == len(Q)
assert 40 <= len(Q) <= 45, len(Q)
with open(os.path.join(OUT, "library_q.jsonl"), "w", encoding="utf-8") as f:
    for i, (_kind, text, ans) in enumerate(Q):
        ans = [fmt(a) for a in ans]
        assert 1 <= len(ans) <= 8, (text, ans)
        assert len(ans) == len(set(ans)), (text, ans)
        f.write(json.dumps({"id": "library-%d" % i, "question": text, "answers": ans}) + "\n")

kinds = {}
for k, _, _ in Q: kinds[k] = kinds.get(k, 0) + 1
print("triples:", len(T) + 2, "questions:", len(Q))
print("classes:", ", ".join(l for _, l in CLASSES))
print("properties:", ", ".join(p[0] for p in PROPS))
print("kinds:", json.dumps(kinds))
