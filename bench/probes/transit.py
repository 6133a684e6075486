"""Made-up city transit knowledge graph + blind test questions (stdlib only)."""
import json, os, re, sys

BASE = "http://example.org/transit/"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
XSD = "http://www.w3.org/2001/XMLSchema#"

# ---------------------------------------------------------------- tables
PEOPLE = ["Amara Okafor", "Bruno Castell", "Chiara Lindqvist",
          "Dmitri Halloran", "Esther Nakamura", "Farah Mendez"]

NEIGHBOURHOODS = {  # name: population
    "Harbourside": 18400, "Old Town": 26300, "Millbrook": 32100,
    "Eastfield": 41700, "Northgate": 22800, "Westhaven": 15900,
    "Riverside": 28600, "Southmoor": 35200,
}
ADJACENT = [("Harbourside", "Old Town"), ("Harbourside", "Riverside"),
            ("Harbourside", "Westhaven"), ("Old Town", "Millbrook"),
            ("Old Town", "Northgate"), ("Old Town", "Eastfield"),
            ("Old Town", "Westhaven"), ("Millbrook", "Westhaven"),
            ("Eastfield", "Northgate"), ("Riverside", "Southmoor"),
            ("Riverside", "Old Town"), ("Southmoor", "Eastfield")]

OPERATORS = {  # name: (manager, hq neighbourhood, founded)
    "Metroline": ("Amara Okafor", "Old Town", "1975-09-01"),
    "CityBus": ("Bruno Castell", "Southmoor", "1968-04-22"),
    "Riverlink Transit": ("Chiara Lindqvist", "Riverside", "1987-06-14"),
}

DEPOTS = {  # name: (neighbourhood, manager)
    "North Yard": ("Northgate", "Dmitri Halloran"),
    "Quayside Depot": ("Harbourside", "Esther Nakamura"),
    "Elm Street Depot": ("Southmoor", "Farah Mendez"),
}

STATIONS = {  # name: (neighbourhood, daily riders, step-free)
    "Harbour Gate": ("Harbourside", 31200, True),
    "Fishers Wharf": ("Harbourside", 8400, False),
    "Lighthouse Point": ("Harbourside", 3800, False),
    "Market Street": ("Old Town", 27500, True),
    "Central Square": ("Old Town", 48900, True),
    "Cathedral": ("Old Town", 19800, False),
    "Kings Hill": ("Northgate", 12600, False),
    "North Cross": ("Northgate", 15300, True),
    "Airport": ("Northgate", 22100, True),
    "West Pier": ("Westhaven", 9700, False),
    "Copper Street": ("Westhaven", 14200, True),
    "Sunset Park": ("Westhaven", 4600, False),
    "University": ("Eastfield", 25800, True),
    "Eastfield Road": ("Eastfield", 11900, False),
    "Stadium": ("Eastfield", 17400, True),
    "Old Mill": ("Millbrook", 13800, False),
    "Weaver Lane": ("Millbrook", 6100, False),
    "Millbrook Park": ("Millbrook", 7300, True),
    "Glass Works": ("Millbrook", 5900, True),
    "River Bend": ("Riverside", 10500, True),
    "Willow Bridge": ("Riverside", 9100, False),
    "Tanners Quay": ("Riverside", 7700, False),
    "Southmoor Common": ("Southmoor", 8800, True),
    "Foundry Row": ("Southmoor", 5200, False),
    "Orchard Hill": ("Southmoor", 6900, True),
}

LINES = {  # name: dict
    "Red Line": dict(colour="red", op="Metroline", opened=1978, km="14.2", freq=4,
                     depot="North Yard", built="Dmitri Halloran",
                     stops=["Harbour Gate", "Fishers Wharf", "Market Street", "Central Square",
                            "Cathedral", "Kings Hill", "North Cross", "Airport"]),
    "Blue Line": dict(colour="blue", op="Metroline", opened=1985, km="11.6", freq=5,
                      depot="North Yard", built="Esther Nakamura",
                      stops=["West Pier", "Copper Street", "Central Square", "Market Street",
                             "University", "Eastfield Road", "Stadium"]),
    "Green Line": dict(colour="green", op="Metroline", opened=1996, km="9.8", freq=6,
                       depot="Quayside Depot", built="Dmitri Halloran",
                       stops=["Old Mill", "Weaver Lane", "Millbrook Park", "Cathedral",
                              "Central Square", "River Bend", "Willow Bridge"]),
    "Yellow Line": dict(colour="yellow", op="CityBus", opened=2004, km="17.5", freq=10,
                        depot="Elm Street Depot", built="Farah Mendez",
                        stops=["Southmoor Common", "Foundry Row", "Orchard Hill",
                               "Willow Bridge", "Tanners Quay", "Harbour Gate"]),
    "Orange Line": dict(colour="orange", op="CityBus", opened=2011, km="12.3", freq=8,
                        depot="Elm Street Depot", built="Farah Mendez",
                        stops=["Sunset Park", "Copper Street", "Glass Works", "Old Mill", "Stadium"]),
    "Purple Line": dict(colour="purple", op="Riverlink Transit", opened=1989, km="8.4", freq=12,
                        depot="Quayside Depot", built="Chiara Lindqvist",
                        stops=["Lighthouse Point", "Fishers Wharf", "Tanners Quay", "River Bend"]),
    "Silver Line": dict(colour="silver", op="Riverlink Transit", opened=2019, km="21.0", freq=15,
                        depot="Quayside Depot", built="Esther Nakamura",
                        stops=["Airport", "Kings Hill", "University", "Orchard Hill",
                               "Southmoor Common"]),
    "Teal Line": dict(colour="teal", op="CityBus", opened=1992, km="6.7", freq=7,
                      depot="Elm Street Depot", built="Farah Mendez",
                      stops=["North Cross", "University", "Glass Works", "Sunset Park"]),
}

# ---------------------------------------------------------------- triples
def slug(kind, name):
    return BASE + kind + "_" + re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")

def iri(x):
    return "<" + x + ">"

def lit(value, dtype=None):
    s = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return '"%s"' % s if dtype is None else '"%s"^^<%s%s>' % (s, XSD, dtype)

def P(name):
    return BASE + name

triples = []
def add(s, p, o):
    triples.append("%s %s %s ." % (iri(s), iri(p), o))

CLASSES = ["Line", "Station", "Neighbourhood", "Operator", "Depot", "Person"]
for c in CLASSES:
    add(BASE + c, RDFS_LABEL, lit(c.lower()))

def entity(kind, name):
    s = slug(kind.lower(), name)
    add(s, RDF_TYPE, iri(BASE + kind))
    add(s, RDFS_LABEL, lit(name))
    return s

P_ = lambda kind, name: iri(slug(kind.lower(), name))

for p in PEOPLE:
    entity("Person", p)
for n, pop in NEIGHBOURHOODS.items():
    s = entity("Neighbourhood", n)
    add(s, P("population"), lit(pop, "integer"))
for a, b in ADJACENT:
    add(slug("neighbourhood", a), P("adjacentTo"), P_("Neighbourhood", b))
    add(slug("neighbourhood", b), P("adjacentTo"), P_("Neighbourhood", a))
for o, (mgr, hq, founded) in OPERATORS.items():
    s = entity("Operator", o)
    add(s, P("managedBy"), P_("Person", mgr))
    add(s, P("headquarteredIn"), P_("Neighbourhood", hq))
    add(s, P("foundedOn"), lit(founded, "date"))
for d, (nb, mgr) in DEPOTS.items():
    s = entity("Depot", d)
    add(s, P("locatedIn"), P_("Neighbourhood", nb))
    add(s, P("managedBy"), P_("Person", mgr))
for st, (nb, riders, sf) in STATIONS.items():
    s = entity("Station", st)
    add(s, P("locatedIn"), P_("Neighbourhood", nb))
    add(s, P("dailyRiders"), lit(riders, "integer"))
    add(s, P("stepFreeAccess"), lit("true" if sf else "false", "boolean"))
connections = set()
for ln, d in LINES.items():
    s = entity("Line", ln)
    add(s, P("colour"), lit(d["colour"]))
    add(s, P("operatedBy"), P_("Operator", d["op"]))
    add(s, P("openedIn"), lit(d["opened"], "integer"))
    add(s, P("lengthKm"), lit(d["km"], "decimal"))
    add(s, P("frequencyMinutes"), lit(d["freq"], "integer"))
    add(s, P("depot"), P_("Depot", d["depot"]))
    add(s, P("builtBy"), P_("Person", d["built"]))
    for st in d["stops"]:
        assert st in STATIONS, st
        add(s, P("servesStation"), P_("Station", st))
    add(s, P("terminus"), P_("Station", d["stops"][0]))
    add(s, P("terminus"), P_("Station", d["stops"][-1]))
    for a, b in zip(d["stops"], d["stops"][1:]):
        connections.add((a, b)); connections.add((b, a))
for a, b in sorted(connections):
    add(slug("station", a), P("connectsTo"), P_("Station", b))

assert len(set(triples)) == len(triples), "duplicate triples"
assert all(s in STATIONS for d in LINES.values() for s in d["stops"])
assert all(any(s in d["stops"] for d in LINES.values()) for s in STATIONS), "unserved station"

# ---------------------------------------------------------------- helpers
def lines_at(st):
    return [l for l, d in LINES.items() if st in d["stops"]]
def stations_in(nb):
    return [s for s, v in STATIONS.items() if v[0] == nb]
def nb_of(st):
    return STATIONS[st][0]
def lines_of_op(op):
    return [l for l, d in LINES.items() if d["op"] == op]
def uniq(xs):
    out = []
    for x in xs:
        if x not in out:
            out.append(x)
    return out
def argmax(items, key):
    best = max(key(i) for i in items)
    return [i for i in items if key(i) == best]
def argmin(items, key):
    best = min(key(i) for i in items)
    return [i for i in items if key(i) == best]

# ---------------------------------------------------------------- questions
Q = []
def q(text, answers, count=False):
    answers = [str(a) for a in uniq(answers)]
    assert 1 <= len(answers) <= 8, (text, answers)
    Q.append((text, answers, count))

# one-step
q("which lines stop at Old Mill?", lines_at("Old Mill"))
q("who runs Metroline?", [OPERATORS["Metroline"][0]])
q("what part of town is Weaver Lane station in?", [nb_of("Weaver Lane")])
q("when did the Blue Line open?", [LINES["Blue Line"]["opened"]])
q("which company operates the Silver Line?", [LINES["Silver Line"]["op"]])
q("how many people use Central Square station every day?", [STATIONS["Central Square"][1]])
q("what stations are there in Riverside?", stations_in("Riverside"))
q("where does the Yellow Line start and end?",
  [LINES["Yellow Line"]["stops"][0], LINES["Yellow Line"]["stops"][-1]])
q("when was Riverlink Transit founded?", [OPERATORS["Riverlink Transit"][2]])

# two-step
q("which neighbourhoods does the Red Line go through?",
  uniq(nb_of(s) for s in LINES["Red Line"]["stops"]))
q("who is the boss of the company running the Orange Line?",
  [OPERATORS[LINES["Orange Line"]["op"]][0]])
q("which lines can I take from stations in Eastfield?",
  uniq(l for s in stations_in("Eastfield") for l in lines_at(s)))
q("how many people live in the area around Old Mill station?",
  [NEIGHBOURHOODS[nb_of("Old Mill")]])
q("which lines are kept at the depot in Northgate?",
  [l for l, d in LINES.items() if DEPOTS[d["depot"]][0] == "Northgate"])
q("who manages the depot the Green Line uses?", [DEPOTS[LINES["Green Line"]["depot"]][1]])

# three-step (and longer)
ends_old_mill = [l for l, d in LINES.items() if "Old Mill" in (d["stops"][0], d["stops"][-1])]
q("who is in charge of the company that operates the line ending at Old Mill?",
  uniq(OPERATORS[LINES[l]["op"]][0] for l in ends_old_mill))
q("which neighbourhoods do Riverlink Transit lines pass through?",
  uniq(nb_of(s) for l in lines_of_op("Riverlink Transit") for s in LINES[l]["stops"]))
q("which transit companies have lines stopping in Millbrook?",
  uniq(LINES[l]["op"] for s in stations_in("Millbrook") for l in lines_at(s)))
hq_metro = OPERATORS["Metroline"][1]
q("who built the lines that stop in the neighbourhood where Metroline has its head office?",
  uniq(LINES[l]["built"] for s in stations_in(hq_metro) for l in lines_at(s)))

# counts
q("how many stations does the Green Line have?", [len(LINES["Green Line"]["stops"])], count=True)
q("how many lines does CityBus operate?", [len(lines_of_op("CityBus"))], count=True)
q("how many stations are there in Old Town?", [len(stations_in("Old Town"))], count=True)
q("how many different lines stop at Central Square?", [len(lines_at("Central Square"))], count=True)

# superlatives
q("which line is the longest?", argmax(list(LINES), lambda l: float(LINES[l]["km"])))
q("the busiest station", argmax(list(STATIONS), lambda s: STATIONS[s][1]))
q("the oldest line run by Metroline",
  argmin(lines_of_op("Metroline"), lambda l: LINES[l]["opened"]))
q("which neighbourhood has the most people?", argmax(list(NEIGHBOURHOODS), NEIGHBOURHOODS.get))
q("quietest stop on the Yellow Line",
  argmin(LINES["Yellow Line"]["stops"], lambda s: STATIONS[s][1]))

# comparisons
q("stations with more than 20000 riders a day", [s for s, v in STATIONS.items() if v[1] > 20000])
q("lines that opened before 1990", [l for l, d in LINES.items() if d["opened"] < 1990])
q("lines that run more often than every 6 minutes", [l for l, d in LINES.items() if d["freq"] < 6])
q("neighbourhoods with fewer than 20,000 residents",
  [n for n, p in NEIGHBOURHOODS.items() if p < 20000])

# boolean filter / negation
q("which Red Line stations have no step-free access?",
  [s for s in LINES["Red Line"]["stops"] if not STATIONS[s][2]])
q("step-free stations in Eastfield", [s for s in stations_in("Eastfield") if STATIONS[s][2]])
q("which stations on the Green Line can I use with a wheelchair?",
  [s for s in LINES["Green Line"]["stops"] if STATIONS[s][2]])

# conjunctions
q("which stations are on both the Red and the Blue line?",
  [s for s in LINES["Red Line"]["stops"] if s in LINES["Blue Line"]["stops"]])
q("where can I change between the Silver Line and the Teal Line?",
  [s for s in LINES["Silver Line"]["stops"] if s in LINES["Teal Line"]["stops"]])

# partial names and a typo
q("which lines stop at Harbour station?", lines_at("Harbour Gate"))
q("how many km is the Blue?", [LINES["Blue Line"]["km"]])
q("what area is Cathederal station in?", [nb_of("Cathedral")])

assert len(Q) == 40, len(Q)

# every answer must be a label or a literal present in the KG
kg_text = "\n".join(triples)
for text, answers, count in Q:
    for a in answers:
        if count:
            assert a.isdigit(), (text, a)
            continue
        assert ('"%s"' % a) in kg_text, (text, a)

# ---------------------------------------------------------------- write
def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "transit.nt"), "w", encoding="utf-8") as f:
        f.write("\n".join(triples) + "\n")
    with open(os.path.join(out, "transit_q.jsonl"), "w", encoding="utf-8") as f:
        for i, (text, answers, _) in enumerate(Q):
            f.write(json.dumps({"id": "transit-%d" % i, "question": text,
                                "answers": answers}) + "\n")
    print("%d triples, %d questions -> %s" % (len(triples), len(Q), out))

if __name__ == "__main__":
    main()
