"""Made-up parliament of a small country: a JSON-LD export (as an app would write it) plus blind test questions.
All gold answers are computed from the Python tables below (stdlib only; rdflib, if installed, checks the file)."""
import json, os, re, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "."  # the folder to write into
os.makedirs(OUT, exist_ok=True)
BASE = "http://example.org/parl/"

# ---------------- tables ----------------
REGIONS = ["Harrowdale", "Fenmoor", "Corrin Highlands", "Saltreach Coast"]
CONSTITUENCIES = {  # name: (region, population)
    "Eastbrook": ("Harrowdale", 84210),
    "Harrow Cross": ("Harrowdale", 91550),
    "Milnthorpe Vale": ("Harrowdale", 72340),
    "Kestering": ("Harrowdale", 78900),
    "Oldcastle North": ("Harrowdale", 102480),
    "Brackwater": ("Harrowdale", 69310),
    "Thornleigh": ("Harrowdale", 88120),
    "Ravensgill": ("Harrowdale", 75660),
    "Fenwick Marsh": ("Fenmoor", 64870),
    "Lowbridge": ("Fenmoor", 81030),
    "Saxby Fen": ("Fenmoor", 58240),
    "Cranmere": ("Fenmoor", 70415),
    "Dunholt": ("Fenmoor", 95760),
    "Wetherstow": ("Fenmoor", 66980),
    "Ashcombe": ("Fenmoor", 73125),
    "Corrin Glen": ("Corrin Highlands", 52310),
    "Ardvellan": ("Corrin Highlands", 61470),
    "Strathmoy": ("Corrin Highlands", 49880),
    "Glenardle": ("Corrin Highlands", 55090),
    "Kilbarra": ("Corrin Highlands", 63720),
    "Inverlorn": ("Corrin Highlands", 68450),
    "Drumveagh": ("Corrin Highlands", 57605),
    "Saltreach": ("Saltreach Coast", 108930),
    "Port Amberley": ("Saltreach Coast", 87440),
    "Gullhaven": ("Saltreach Coast", 62150),
    "Westerly Sands": ("Saltreach Coast", 79310),
    "Carrow Bay": ("Saltreach Coast", 71880),
    "Penwithy": ("Saltreach Coast", 59940),
    "Marlowe Head": ("Saltreach Coast", 83570),
    "Tidesend": ("Saltreach Coast", 67720),
}
PARTIES = {  # name: (leader, founded)
    "Civic Alliance": ("Desmond Fairweather", 1921),
    "Progressive Labour Party": ("Joan Parrish", 1904),
    "Green Hearth Party": ("Winifred Ashgrove", 1988),
    "National Reform League": ("Torquil Mearns", 1967),
    "Saltreach First": ("Tamsin Polgrean", 2009),
}
MEMBERS = {  # name: (party, constituency, date first elected, majority at the last election)
    "Hal Whitcombe": ("Civic Alliance", "Eastbrook", "2015-05-07", 8421),
    "Joan Parrish": ("Progressive Labour Party", "Harrow Cross", "2010-05-06", 3107),
    "Ottoline Brisk": ("Civic Alliance", "Milnthorpe Vale", "2019-12-12", 12840),
    "Desmond Fairweather": ("Civic Alliance", "Kestering", "2005-05-05", 15392),
    "Priscilla Vane": ("Progressive Labour Party", "Oldcastle North", "2017-06-08", 1204),
    "Rufus Tallow": ("National Reform League", "Brackwater", "2019-12-12", 2876),
    "Imogen Stroud": ("Green Hearth Party", "Thornleigh", "2022-03-24", 967),
    "Barnaby Quell": ("Civic Alliance", "Ravensgill", "2012-09-20", 6650),
    "Winifred Ashgrove": ("Green Hearth Party", "Fenwick Marsh", "2010-05-06", 4518),
    "Cedric Mollan": ("Progressive Labour Party", "Lowbridge", "2015-05-07", 7233),
    "Harriet Penhallow": ("Civic Alliance", "Saxby Fen", "2019-12-12", 9870),
    "Lionel Dacre": ("National Reform League", "Cranmere", "2017-06-08", 3390),
    "Agatha Rimmer": ("Progressive Labour Party", "Dunholt", "2008-10-16", 11205),
    "Evander Slade": ("Civic Alliance", "Wetherstow", "2022-03-24", 412),
    "Marguerite Hollins": ("Green Hearth Party", "Ashcombe", "2019-12-12", 2051),
    "Fergus Achnacree": ("National Reform League", "Corrin Glen", "2012-09-20", 5104),
    "Isla Drummond-Fyfe": ("Progressive Labour Party", "Ardvellan", "2019-12-12", 6012),
    "Torquil Mearns": ("National Reform League", "Strathmoy", "2008-10-16", 13478),
    "Morag Kinloss": ("Green Hearth Party", "Glenardle", "2017-06-08", 1733),
    "Angus Rathmore": ("Civic Alliance", "Kilbarra", "2015-05-07", 4890),
    "Elspeth Gowrie": ("Progressive Labour Party", "Inverlorn", "2010-05-06", 8105),
    "Callan Muirhouse": ("Green Hearth Party", "Drumveagh", "2022-03-24", 2299),
    "Tamsin Polgrean": ("Saltreach First", "Saltreach", "2012-09-20", 10366),
    "Jory Trevanion": ("Saltreach First", "Port Amberley", "2017-06-08", 3725),
    "Demelza Kitto": ("Civic Alliance", "Gullhaven", "2010-05-06", 7750),
    "Loveday Carnsew": ("Progressive Labour Party", "Westerly Sands", "2019-12-12", 1489),
    "Bartholomew Nance": ("Saltreach First", "Carrow Bay", "2022-03-24", 2604),
    "Wenna Tregarthen": ("Progressive Labour Party", "Penwithy", "2015-05-07", 5560),
    "Silas Odgers": ("Civic Alliance", "Marlowe Head", "2008-10-16", 16904),
    "Yvette Morcombe": ("Saltreach First", "Tidesend", "2019-12-12", 3012),
}
COMMITTEES = {  # name: (chair, ordinary members; the chair is stored with `chairs`, the others with `sitsOn`)
    "Finance Committee": ("Agatha Rimmer", ["Barnaby Quell", "Jory Trevanion", "Lionel Dacre", "Elspeth Gowrie"]),
    "Health and Social Care Committee": ("Harriet Penhallow", ["Priscilla Vane", "Morag Kinloss", "Yvette Morcombe"]),
    "Justice Committee": ("Fergus Achnacree", ["Loveday Carnsew", "Cedric Mollan", "Angus Rathmore"]),
    "Transport and Infrastructure Committee": ("Wenna Tregarthen",
                                               ["Rufus Tallow", "Bartholomew Nance", "Callan Muirhouse"]),
    "Environment Committee": ("Marguerite Hollins", ["Imogen Stroud", "Isla Drummond-Fyfe"]),
    "Education Committee": ("Silas Odgers", ["Evander Slade", "Isla Drummond-Fyfe", "Cedric Mollan"]),
}
OFFICES = {  # office: holder
    "Prime Minister": "Desmond Fairweather",
    "Minister of Finance": "Hal Whitcombe",
    "Minister of Health": "Ottoline Brisk",
    "Minister of Justice": "Demelza Kitto",
    "Minister for the Environment": "Winifred Ashgrove",
}
BILLS = {  # name: (sponsor, introduced on, passed, committee it was referred to)
    "Coastal Flood Defence Bill": ("Tamsin Polgrean", "2022-02-14", True, "Environment Committee"),
    "Rural Bus Services Bill": ("Wenna Tregarthen", "2023-05-09", False, "Transport and Infrastructure Committee"),
    "Fair Rents Bill": ("Joan Parrish", "2021-10-04", False, "Finance Committee"),
    "Free School Meals Bill": ("Joan Parrish", "2023-09-18", True, "Education Committee"),
    "Peatland Restoration Bill": ("Winifred Ashgrove", "2020-06-22", True, "Environment Committee"),
    "Digital Ledger Tax Bill": ("Hal Whitcombe", "2024-01-30", True, "Finance Committee"),
    "Sentencing Reform Bill": ("Demelza Kitto", "2022-11-07", False, "Justice Committee"),
    "Community Hospitals Bill": ("Ottoline Brisk", "2023-03-13", True, "Health and Social Care Committee"),
    "Highland Rail Link Bill": ("Torquil Mearns", "2024-04-25", False, "Transport and Infrastructure Committee"),
}

# ---------------- schema (as uneven as a real export: only some properties say domain/range) ----------------
CLASSES = {"Member": "Member of Parliament", "Party": "Political Party", "Constituency": "Constituency",
           "Region": "Region", "Committee": "Committee", "Bill": "Bill", "Office": "Ministerial Office"}
PROPS = {  # term: (label, domain or None, range or None, object property?)
    "memberOf": ("member of", "Member", "Party", True),
    "represents": ("represents", "Member", "Constituency", True),
    "inRegion": ("in region", None, None, True),
    "population": ("population", "Constituency", "xsd:integer", False),
    "majority": ("majority", None, None, False),
    "elected": ("first elected", "Member", "xsd:date", False),
    "leader": ("leader", "Party", "Member", True),
    "founded": ("founded", None, None, False),
    "chairs": ("chairs", "Member", "Committee", True),
    "sitsOn": ("sits on", None, None, True),
    "sponsoredBy": ("sponsored by", "Bill", "Member", True),
    "introducedOn": ("introduced on", None, "xsd:date", False),
    "passed": ("passed", None, None, False),
    "referredTo": ("referred to", "Bill", None, True),
    "heldBy": ("held by", None, None, True),
}

# ---------------- sanity over the tables ----------------
people = list(MEMBERS)
assert len(people) == 30 and len(CONSTITUENCIES) == 30
assert sorted(c for _, c, _, _ in MEMBERS.values()) == sorted(CONSTITUENCIES)  # one MP per seat
assert len({p.split()[0] for p in people}) == 30 and len({p.split()[-1] for p in people}) == 30
assert all(MEMBERS[l][0] == p for p, (l, _) in PARTIES.items())  # leaders belong to their party
assert all(r in REGIONS for r, _ in CONSTITUENCIES.values())
for c, (chair, ms) in COMMITTEES.items():
    assert chair in MEMBERS and all(m in MEMBERS for m in ms) and chair not in ms
assert all(h in MEMBERS for h in OFFICES.values())
assert all(s in MEMBERS and c in COMMITTEES for s, _, _, c in BILLS.values())
all_labels = REGIONS + list(CONSTITUENCIES) + list(PARTIES) + people + list(COMMITTEES) + list(OFFICES) + list(BILLS)
assert len(all_labels) == len(set(all_labels))

# ---------------- triples (labels for entities, Python values for literals) ----------------
T = []
for r in REGIONS:
    T += [(r, "type", "Region")]
for c, (r, pop) in CONSTITUENCIES.items():
    T += [(c, "type", "Constituency"), (c, "inRegion", r), (c, "population", pop)]
for p, (leader, founded) in PARTIES.items():
    T += [(p, "type", "Party"), (p, "leader", leader), (p, "founded", founded)]
for m, (party, seat, elected, majority) in MEMBERS.items():
    T += [(m, "type", "Member"), (m, "memberOf", party), (m, "represents", seat),
          (m, "elected", elected), (m, "majority", majority)]
for c, (chair, ms) in COMMITTEES.items():
    T += [(c, "type", "Committee"), (chair, "chairs", c)] + [(m, "sitsOn", c) for m in ms]
for o, h in OFFICES.items():
    T += [(o, "type", "Office"), (o, "heldBy", h)]
for b, (sponsor, day, passed, committee) in BILLS.items():
    T += [(b, "type", "Bill"), (b, "sponsoredBy", sponsor), (b, "introducedOn", day),
          (b, "passed", passed), (b, "referredTo", committee)]
assert len(set(T)) == len(T)

# ---------------- JSON-LD ----------------
def slug(label):
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")

KIND = {"Member": "member", "Party": "party", "Constituency": "constituency", "Region": "region",
        "Committee": "committee", "Bill": "bill", "Office": "office"}
TYPE = {s: o for s, p, o in T if p == "type"}
IDS = {lab: "%s/%s" % (KIND[TYPE[lab]], slug(lab)) for lab in TYPE}  # relative to @base, as apps export them
assert len(set(IDS.values())) == len(IDS)

context = {
    "@base": BASE,
    "parl": BASE,
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "name": "rdfs:label",
    "domain": {"@id": "rdfs:domain", "@type": "@id"},
    "range": {"@id": "rdfs:range", "@type": "@id"},
}
for c in CLASSES:
    context[c] = "parl:" + c
for p, (_, _, _, is_obj) in PROPS.items():
    if is_obj:
        context[p] = {"@id": "parl:" + p, "@type": "@id"}
    elif p == "introducedOn":  # coerced in the context, written as plain strings below
        context[p] = {"@id": "parl:" + p, "@type": "xsd:date"}
    else:
        context[p] = "parl:" + p

graph = []
for c, label in CLASSES.items():
    graph.append({"@id": "parl:" + c, "@type": "rdfs:Class", "name": label})
for p, (label, dom, rng, _) in PROPS.items():
    node = {"@id": "parl:" + p, "@type": "rdf:Property", "name": label}
    if dom:
        node["domain"] = "parl:" + dom
    if rng:
        node["range"] = rng if rng.startswith("xsd:") else "parl:" + rng
    graph.append(node)

def value(p, o):
    if PROPS[p][3]:
        return IDS[o]
    if p == "elected":
        return {"@value": o, "@type": "xsd:date"}
    return o  # ints, booleans, and introducedOn (typed by the context)

nodes = {}
for s, p, o in T:
    if p == "type":
        nodes[s] = {"@id": IDS[s], "@type": o, "name": s}
        graph.append(nodes[s])
for s, p, o in T:
    if p == "type":
        continue
    n = nodes[s]
    if p in n:
        n[p] = n[p] if isinstance(n[p], list) else [n[p]]
        n[p].append(value(p, o))
    else:
        n[p] = value(p, o)

doc = {"@context": context, "@graph": graph}
path = os.path.join(OUT, "parliament.jsonld")
with open(path, "w", encoding="utf-8") as f:
    json.dump(doc, f, indent=2, ensure_ascii=False)

n_schema = sum(2 for _ in CLASSES) + sum(2 + bool(d) + bool(r) for _, d, r, _ in PROPS.values())
n_triples = n_schema + len(T) + len(TYPE)  # + one rdfs:label per entity
assert 250 <= n_triples <= 500, n_triples
try:  # the file must read as the triples we meant (checked where rdflib is installed)
    import rdflib
    g = rdflib.Graph().parse(path, format="json-ld")
    assert len(g) == n_triples, (len(g), n_triples)
    RDFS = rdflib.RDFS
    assert g.value(rdflib.URIRef(BASE + "member/hal-whitcombe"), RDFS.label) == rdflib.Literal("Hal Whitcombe")
    assert (rdflib.URIRef(BASE + "member/hal-whitcombe"), rdflib.URIRef(BASE + "memberOf"),
            rdflib.URIRef(BASE + "party/civic-alliance")) in g
    assert (rdflib.URIRef(BASE + "party/civic-alliance"), rdflib.RDF.type, rdflib.URIRef(BASE + "Party")) in g
    assert (rdflib.URIRef(BASE + "Party"), rdflib.RDF.type, RDFS.Class) in g
    assert all(o.datatype for o in g.objects(None, rdflib.URIRef(BASE + "introducedOn")))
    checked = "rdflib parsed %d triples" % len(g)
except ImportError:
    checked = "rdflib not installed, file not parsed"

# ---------------- query helpers over the triples ----------------
def obj(s, r):
    return {o for (a, b, o) in T if a == s and b == r}
def subj(r, o):
    return {a for (a, b, x) in T if b == r and x == o}
def objs(ss, r):
    return set().union(*[obj(s, r) for s in ss]) if ss else set()
def subjs(r, oo):
    return set().union(*[subj(r, o) for o in oo]) if oo else set()
def val(s, r):
    (v,) = obj(s, r)
    return v
def argbest(ss, key, pick=max):
    best = pick(key(s) for s in ss)
    win = {s for s in ss if key(s) == best}
    assert len(win) == 1, win  # superlatives must have one clear winner
    return win

members, bills, seats, parties = subj("type", "Member"), subj("type", "Bill"), subj("type", "Constituency"), \
    subj("type", "Party")
def mps_of(party):
    return subj("memberOf", party)
def mps_in_region(region):  # member -> constituency -> region
    return subjs("represents", subj("inRegion", region))
def region_of(mps):
    return objs(objs(mps, "represents"), "inRegion")
def committees_of(mp):  # chaired or sat on
    return obj(mp, "sitsOn") | obj(mp, "chairs")
def on_committee(c):  # chair included
    return subj("sitsOn", c) | subj("chairs", c)

LABELS = set(TYPE) | {str(o) for _, p, o in T if p != "type" and not isinstance(o, bool)}
Q = []
def q(text, ans, count=False):
    ans = sorted(str(a) for a in ans)
    if count:
        assert len(ans) == 1 and ans[0].isdigit(), (text, ans)
    else:  # entity labels, or literal values as they are written in the file
        assert all(a in LABELS for a in ans), (text, ans)
    assert 1 <= len(ans) <= 8, (text, ans)
    Q.append({"id": "parliament-%d" % len(Q), "question": text, "answers": ans})

# one-hop, both directions
q("who is the MP for Eastbrook?", subj("represents", "Eastbrook"))
q("which party does Rufus Tallow belong to?", obj("Rufus Tallow", "memberOf"))
q("who heads the Greens?", obj("Green Hearth Party", "leader"))
q("which bills did Joan Parrish put forward?", subj("sponsoredBy", "Joan Parrish"))
q("what seat does Morag Kinloss hold?", obj("Morag Kinloss", "represents"))
q("who is in charge of the finance committee?", subj("chairs", "Finance Committee"))
q("who is the health minister?", obj("Minister of Health", "heldBy"))
q("when was the Rural Bus Services Bill introduced?", obj("Rural Bus Services Bill", "introducedOn"))
q("what was Jory Trevanion's majority?", obj("Jory Trevanion", "majority"))
q("which constituencies are in Fenmoor?", subj("inRegion", "Fenmoor"))
q("who are the Saltreach First MPs?", mps_of("Saltreach First"))

# two-hop (one with a first name only, one with a surname only, one with a typo)
q("which party is the member for Lowbridge in?", objs(subj("represents", "Lowbridge"), "memberOf"))
q("what party is the justice minister from?", objs(obj("Minister of Justice", "heldBy"), "memberOf"))
q("who chairs the committee the Highland Rail Link Bill was sent to?",
  subjs("chairs", obj("Highland Rail Link Bill", "referredTo")))
q("which bills has the leader of the Green Hearth Party sponsored?",
  subjs("sponsoredBy", obj("Green Hearth Party", "leader")))
q("which parties have MPs on the transport committee?",
  objs(on_committee("Transport and Infrastructure Committee"), "memberOf"))
q("what committees is Cedric on?", committees_of("Cedric Mollan"))
q("which committee is Gowrie on?", committees_of("Elspeth Gowrie"))
q("what does Harriet Penhalow chair?", obj("Harriet Penhallow", "chairs"))

# three-hop
q("which region does the finance committee chair represent?", region_of(subj("chairs", "Finance Committee")))
q("what region is the Prime Minister's constituency in?", region_of(obj("Prime Minister", "heldBy")))
q("which regions do the MPs behind bills that passed come from?",
  region_of(objs({b for b in bills if val(b, "passed") is True}, "sponsoredBy")))

# a value of a thing reached by a relation
q("how many people live in the constituency of the Saltreach First leader?",
  objs(objs(obj("Saltreach First", "leader"), "represents"), "population"))

# counts
q("how many MPs does the Progressive Labour Party have?", [len(mps_of("Progressive Labour Party"))], count=True)
q("how many constituencies are there in the Corrin Highlands?", [len(subj("inRegion", "Corrin Highlands"))],
  count=True)
q("how many bills have been passed?", [len({b for b in bills if val(b, "passed") is True})], count=True)
q("how many Green Hearth MPs are there in Fenmoor?",
  [len(mps_of("Green Hearth Party") & mps_in_region("Fenmoor"))], count=True)

# superlatives (no entity named, and over a filtered set)
q("who won their seat by the largest majority?", argbest(members, lambda m: val(m, "majority")))
q("which is the least populated constituency?", argbest(seats, lambda c: val(c, "population"), min))
q("who has been an MP the longest?", argbest(members, lambda m: val(m, "elected"), min))
q("which party has the most MPs?", argbest(parties, lambda p: len(mps_of(p))))
q("which Progressive Labour MP had the narrowest win?",
  argbest(mps_of("Progressive Labour Party"), lambda m: val(m, "majority"), min))
q("what is the biggest constituency in Fenmoor?",
  argbest(subj("inRegion", "Fenmoor"), lambda c: val(c, "population")))
q("what's the newest bill?", argbest(bills, lambda b: val(b, "introducedOn")))

# numeric / date comparisons
q("which bills were introduced before 2022?", {b for b in bills if val(b, "introducedOn") < "2022-01-01"})
q("which MPs have a majority of less than 1500?", {m for m in members if val(m, "majority") < 1500})
q("which MPs were first elected in 2022?", {m for m in members if val(m, "elected").startswith("2022")})
q("which constituencies on the Saltreach Coast have more than 80,000 residents?",
  {c for c in subj("inRegion", "Saltreach Coast") if val(c, "population") > 80000})

# booleans as filters and negation
q("which bills have not passed?", {b for b in bills if val(b, "passed") is False})
q("which of Joan Parrish's bills became law?", {b for b in subj("sponsoredBy", "Joan Parrish") if val(b, "passed")})

# conjunctions
q("which Civic Alliance MPs were first elected before 2012?",
  {m for m in mps_of("Civic Alliance") if val(m, "elected") < "2012-01-01"})
q("which ministers also lead a party?", set(OFFICES.values()) & objs(parties, "leader"))

assert 38 <= len(Q) <= 45, len(Q)
with open(os.path.join(OUT, "parliament_q.jsonl"), "w", encoding="utf-8") as f:
    for item in Q:
        f.write(json.dumps(item) + "\n")
print("triples:", n_triples, "(%s)" % checked, "questions:", len(Q))
print("properties:", ", ".join(l for l, _, _, _ in PROPS.values()))
