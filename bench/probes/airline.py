"""Made-up airline/airport KG + questions. All gold answers computed from the tables."""
import json, os

import sys

HERE = sys.argv[1] if len(sys.argv) > 1 else "."  # the folder to write into
os.makedirs(HERE, exist_ok=True)

# ---------------- tables ----------------
COUNTRIES = {  # name: (continent, capital)
    "Norland": ("Europe", "Vellin"),
    "Vestmark": ("Europe", "Kessel"),
    "Calderon": ("South America", "Santa Ravel"),
    "Tavira": ("Asia", "Kanzu"),
    "Ombria": ("Africa", "Marabo"),
}
CITIES = {  # name: (country, population)
    "Vellin": ("Norland", 1840000),
    "Oster": ("Norland", 410000),
    "Kessel": ("Vestmark", 2250000),
    "Lunde": ("Vestmark", 380000),
    "Santa Ravel": ("Calderon", 3100000),
    "Puerto Mira": ("Calderon", 520000),
    "Kanzu": ("Tavira", 6700000),
    "Hoshida": ("Tavira", 930000),
    "Marabo": ("Ombria", 2900000),
    "Tesse": ("Ombria", 150000),
}
AIRPORTS = {  # name: (city, iata, opened, runways, passengers_per_year)
    "Vellin Central Airport": ("Vellin", "VLC", 1952, 3, 24500000),
    "Vellin North Field": ("Vellin", "VNF", 1998, 1, 3200000),
    "Oster Regional Airport": ("Oster", "OST", 1971, 2, 5100000),
    "Port Kessel International": ("Kessel", "PKI", 1960, 4, 31800000),
    "Lunde Airport": ("Lunde", "LUN", 1985, 2, 7400000),
    "Santa Ravel International": ("Santa Ravel", "SRV", 1949, 3, 18900000),
    "Puerto Mira Airport": ("Puerto Mira", "PMA", 2004, 1, 2600000),
    "Kanzu Bay International": ("Kanzu", "KBI", 1994, 5, 42300000),
    "Kanzu Domestic Airport": ("Kanzu", "KDA", 1958, 2, 11200000),
    "Hoshida Airport": ("Hoshida", "HSD", 1978, 2, 9800000),
    "Marabo International": ("Marabo", "MRB", 1966, 3, 12100000),
    "Tesse Airfield": ("Tesse", "TSF", 2011, 1, 1400000),
}
ALLIANCES = {"Star Union": 1997, "Sky Alliance": 2000, "Horizon Link": 2012}
AIRLINES = {  # name: (hq city, hub airport, founded, fleet, ceo, alliance or None, low cost)
    "Nordwind Air": ("Vellin", "Vellin Central Airport", 1958, 86, "Maren Holt", "Star Union", "no"),
    "Skylark": ("Oster", "Vellin North Field", 2003, 34, "Tomas Berg", "Horizon Link", "yes"),
    "Kessel Airways": ("Kessel", "Port Kessel International", 1947, 112, "Ingrid Vos", "Sky Alliance", "no"),
    "LundeJet": ("Lunde", "Lunde Airport", 1999, 41, "Pieter Dahl", "Sky Alliance", "yes"),
    "Aerocalder": ("Santa Ravel", "Santa Ravel International", 1962, 58, "Lucia Ferreyra", "Star Union", "no"),
    "Mira Express": ("Puerto Mira", "Puerto Mira Airport", 2008, 19, "Diego Saavedra", None, "yes"),
    "Tavira Airlines": ("Kanzu", "Kanzu Bay International", 1951, 140, "Kenji Morita", "Sky Alliance", "no"),
    "Ombria Sky": ("Marabo", "Marabo International", 1978, 27, "Amara Okoye", "Horizon Link", "no"),
}
ROUTES = [  # code, from, to, airline, distance_km, launch date
    ("NW101", "Vellin Central Airport", "Port Kessel International", "Nordwind Air", 780, "1961-04-02"),
    ("NW102", "Port Kessel International", "Vellin Central Airport", "Nordwind Air", 780, "1961-04-02"),
    ("NW210", "Vellin Central Airport", "Kanzu Bay International", "Nordwind Air", 8650, "1996-10-27"),
    ("NW305", "Vellin Central Airport", "Marabo International", "Nordwind Air", 5420, "1988-03-15"),
    ("NW412", "Vellin Central Airport", "Lunde Airport", "Nordwind Air", 950, "1972-06-01"),
    ("SK12", "Vellin North Field", "Tesse Airfield", "Skylark", 5600, "2012-05-19"),
    ("SK14", "Vellin North Field", "Oster Regional Airport", "Skylark", 420, "2004-01-12"),
    ("SK20", "Oster Regional Airport", "Port Kessel International", "Skylark", 1010, "2005-09-30"),
    ("SK31", "Oster Regional Airport", "Lunde Airport", "Skylark", 1180, "2009-03-29"),
    ("KA1", "Port Kessel International", "Kanzu Bay International", "Kessel Airways", 8480, "1995-11-04"),
    ("KA7", "Port Kessel International", "Santa Ravel International", "Kessel Airways", 10150, "1968-07-21"),
    ("KA15", "Port Kessel International", "Lunde Airport", "Kessel Airways", 530, "1986-02-10"),
    ("KA22", "Port Kessel International", "Vellin Central Airport", "Kessel Airways", 780, "1962-08-13"),
    ("KA40", "Port Kessel International", "Marabo International", "Kessel Airways", 5300, "1979-12-01"),
    ("LJ300", "Lunde Airport", "Vellin North Field", "LundeJet", 960, "2000-06-05"),
    ("LJ310", "Lunde Airport", "Oster Regional Airport", "LundeJet", 1180, "2001-04-22"),
    ("LJ320", "Lunde Airport", "Port Kessel International", "LundeJet", 530, "2000-06-05"),
    ("AC500", "Santa Ravel International", "Puerto Mira Airport", "Aerocalder", 880, "1963-02-18"),
    ("AC510", "Santa Ravel International", "Vellin Central Airport", "Aerocalder", 10320, "1999-09-09"),
    ("AC520", "Santa Ravel International", "Marabo International", "Aerocalder", 6700, "2007-11-11"),
    ("ME7", "Puerto Mira Airport", "Santa Ravel International", "Mira Express", 880, "2008-08-08"),
    ("ME8", "Santa Ravel International", "Puerto Mira Airport", "Mira Express", 880, "2008-08-08"),
    ("TA8", "Kanzu Bay International", "Hoshida Airport", "Tavira Airlines", 610, "1994-09-01"),
    ("TA9", "Kanzu Domestic Airport", "Hoshida Airport", "Tavira Airlines", 600, "1960-03-03"),
    ("TA60", "Kanzu Bay International", "Marabo International", "Tavira Airlines", 7900, "2003-07-14"),
    ("TA88", "Kanzu Bay International", "Port Kessel International", "Tavira Airlines", 8480, "1997-05-25"),
    ("OS3", "Marabo International", "Tesse Airfield", "Ombria Sky", 340, "2011-10-01"),
    ("OS11", "Marabo International", "Port Kessel International", "Ombria Sky", 5300, "1984-04-16"),
    ("OS21", "Marabo International", "Santa Ravel International", "Ombria Sky", 6700, "2010-01-20"),
]

def duration_min(km):
    return int(round(km / 780 * 60 + 35))

# ---------------- triples ----------------
T = []
for c, (cont, cap) in COUNTRIES.items():
    T += [(c, "continent", cont), (c, "capital", cap)]
for c, (country, pop) in CITIES.items():
    T += [(c, "in_country", country), (c, "population", str(pop))]
for a, (city, iata, opened, rw, pax) in AIRPORTS.items():
    T += [(a, "located_in", city), (a, "iata_code", iata), (a, "opened", str(opened)),
          (a, "runways", str(rw)), (a, "passengers_per_year", str(pax))]
for al, yr in ALLIANCES.items():
    T.append((al, "founded", str(yr)))
for n, (hq, hub, fy, fleet, ceo, alli, lc) in AIRLINES.items():
    T += [(n, "headquartered_in", hq), (n, "hub", hub), (n, "founded", str(fy)),
          (n, "fleet_size", str(fleet)), (n, "ceo", ceo), (n, "is_low_cost", lc)]
    if alli:
        T.append((n, "alliance", alli))
for code, f, t, op, km, d in ROUTES:
    T += [(code, "from_airport", f), (code, "to_airport", t), (code, "operated_by", op),
          (code, "distance_km", str(km)), (code, "duration_min", str(duration_min(km))),
          (code, "launch_date", d)]

assert len(set(T)) == len(T)

# ---------------- query helpers over the triples ----------------
def obj(s, r):
    return {o for (a, b, o) in T if a == s and b == r}
def subj(r, o):
    return {a for (a, b, x) in T if b == r and x == o}
def objs(ss, r):
    return set().union(*[obj(s, r) for s in ss]) if ss else set()
def subjs(r, oo):
    return set().union(*[subj(r, o) for o in oo]) if oo else set()
def with_rel(r):
    return {a for (a, b, o) in T if b == r}
def num(s, r):
    (v,) = obj(s, r)
    return int(v)
def argmax(ss, r, sign=1):
    best = max(sign * num(s, r) for s in ss)
    return {s for s in ss if sign * num(s, r) == best}
def one(x):
    (v,) = x
    return v

airlines = with_rel("fleet_size")
airports = with_rel("runways")
routes = with_rel("operated_by")
def airports_in_city(c): return subj("located_in", c)
def airports_in_country(k): return subjs("located_in", subj("in_country", k))
def country_of_airport(a): return objs(obj(a, "located_in"), "in_country")

LABELS = {x for t in T for x in (t[0], t[2])}
Q = []
def q(text, ans, count=False):
    ans = sorted(str(a) for a in ans)
    if not count:  # every non-count answer must be a string of the KG
        assert all(a in LABELS for a in ans), (text, ans)
    assert ans, text
    assert len(ans) <= 8, (text, ans)
    Q.append({"id": "airline-%d" % len(Q), "question": text, "answers": ans})

# one-step (both directions)
q("who runs Nordwind Air?", obj("Nordwind Air", "ceo"))
q("which city is Port Kessel airport in?", obj("Port Kessel International", "located_in"))
q("which airline has its head office in Vellin?", subj("headquartered_in", "Vellin"))
q("when was Skylark founded?", obj("Skylark", "founded"))
q("who is the chief executive of Ombria Sky?", obj("Ombria Sky", "ceo"))
q("which airline is Ingrid Vos in charge of?", subj("ceo", "Ingrid Vos"))
q("what is Aerocalder's main base airport?", obj("Aerocalder", "hub"))
q("what year did Kanzu Bay International open?", obj("Kanzu Bay International", "opened"))
q("which alliance is LundeJet part of?", obj("LundeJet", "alliance"))
q("what is the airport code for Hoshida Airport?", obj("Hoshida Airport", "iata_code"))

# two-step
q("who is the boss of the airline that flies SK20?", objs(obj("SK20", "operated_by"), "ceo"))
q("which city does flight TA88 land in?", objs(obj("TA88", "to_airport"), "located_in"))
q("which airlines have their headquarters in Norland?", subjs("headquartered_in", subj("in_country", "Norland")))
q("what city does flight AC520 leave from?", objs(obj("AC520", "from_airport"), "located_in"))
q("what are the hub airports of the Star Union airlines?", objs(subj("alliance", "Star Union"), "hub"))
q("which alliance does the airline headquartered in Marabo belong to?", objs(subj("headquartered_in", "Marabo"), "alliance"))

# three-step
q("which country is Nordwind's hub in?", objs(objs(obj("Nordwind Air", "hub"), "located_in"), "in_country"))
q("which continent is the destination of flight SK12 in?",
  objs(objs(objs(obj("SK12", "to_airport"), "located_in"), "in_country"), "continent"))
q("in which country is the hub of the airline run by Kenji Morita?",
  objs(objs(objs(subj("ceo", "Kenji Morita"), "hub"), "located_in"), "in_country"))
q("who are the CEOs of the airlines that fly to Marabo?",
  objs(objs(subjs("to_airport", airports_in_city("Marabo")), "operated_by"), "ceo"))

# counts
q("how many routes does Skylark fly?", [len(subj("operated_by", "Skylark"))], count=True)
q("how many airports are there in Norland?", [len(airports_in_country("Norland"))], count=True)
q("how many airlines are members of Sky Alliance?", [len(subj("alliance", "Sky Alliance"))], count=True)
q("how many flights depart from Port Kessel International?", [len(subj("from_airport", "Port Kessel International"))], count=True)

# superlatives
q("which airline has the biggest fleet?", argmax(airlines, "fleet_size"))
q("what is the longest route?", argmax(routes, "distance_km"))
q("which is the busiest airport?", argmax(airports, "passengers_per_year"))
q("what's the oldest airline in the Star Union group?", argmax(subj("alliance", "Star Union"), "founded", -1))
q("shortest flight from Vellin", argmax(subjs("from_airport", airports_in_city("Vellin")), "distance_km", -1))

# comparisons / filters
q("airports with more than 3 runways", {a for a in airports if num(a, "runways") > 3})
q("routes longer than 8000 km", {r for r in routes if num(r, "distance_km") > 8000})
q("airlines founded before 1960", {a for a in airlines if num(a, "founded") < 1960})
q("which airlines have fewer than 30 planes?", {a for a in airlines if num(a, "fleet_size") < 30})

# yes/no column as filter / negation
q("which airlines are low cost?", subj("is_low_cost", "yes"))
q("which airlines in Sky Alliance are not budget carriers?",
  subj("alliance", "Sky Alliance") - subj("is_low_cost", "yes"))
q("which budget airline has the most aircraft?", argmax(subj("is_low_cost", "yes"), "fleet_size"))

# conjunctions
q("which airlines fly out of Vellin and belong to Star Union?",
  objs(subjs("from_airport", airports_in_city("Vellin")), "operated_by") & subj("alliance", "Star Union"))
q("which airlines fly to both Port Kessel International and Marabo International?",
  objs(subj("to_airport", "Port Kessel International"), "operated_by")
  & objs(subj("to_airport", "Marabo International"), "operated_by"))

# partial name / typo
q("how many runways does Kessel airport have?", obj("Port Kessel International", "runways"))
q("when was Nordwnd Air founded?", obj("Nordwind Air", "founded"))

assert len(Q) == 40, len(Q)
with open(os.path.join(HERE, "airline.tsv"), "w") as f:
    for s, r, o in T:
        f.write("%s\t%s\t%s\n" % (s, r, o))
with open(os.path.join(HERE, "airline_q.jsonl"), "w") as f:
    for item in Q:
        f.write(json.dumps(item) + "\n")
print("triples:", len(T), "questions:", len(Q))
print("relations:", sorted({r for _, r, _ in T}))
