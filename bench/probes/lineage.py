#!/usr/bin/env python3
"""Blind probe: a made-up royal lineage written as a Wikidata-style N-Triples extract.

Three invented, intermarrying dynasties (Valdmar, Orsenne, Kethwyn) over six
generations, with regnal numbers and shared first names.  Like Wikidata, the
extract is imperfect: father/mother are always stated, but `child` is stated for
only about 70% of parent-child pairs, `spouse` is sometimes stated in one
direction only, and `sibling` is stated for only some sibling pairs.

It also writes 50 questions phrased with everyday kinship words (mom, hubby,
missus, kids, grandpa, in-laws, ...).  Every gold answer is computed here from
the full family truth tables below, never from the imperfect stated triples.

Usage: python bench/probes/lineage.py OUTDIR
Writes OUTDIR/lineage.nt and OUTDIR/lineage_q.jsonl.  Standard library only;
deterministic (the imperfections are chosen by hashing, not at random).
"""

import hashlib
import json
import os
import sys

NS = "http://example.org/lineage/"
ENT = NS + "entity/"
PROP = NS + "prop/"
CLS = NS + "class/"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
XSD_DATE = "http://www.w3.org/2001/XMLSchema#date"

# ---------------------------------------------------------------------------
# Ground truth
# ---------------------------------------------------------------------------

CLASSES = [("Human", "human"), ("Place", "place"), ("Title", "noble title"),
           ("Dynasty", "dynasty"), ("Gender", "gender")]

PROPERTIES = [("father", "father"), ("mother", "mother"), ("spouse", "spouse"),
              ("child", "child"), ("sibling", "sibling"),
              ("sexOrGender", "sex or gender"), ("placeOfBirth", "place of birth"),
              ("dateOfBirth", "date of birth"), ("nobleTitle", "noble title"),
              ("memberOfDynasty", "member of dynasty")]

GENDERS = [("m", "male"), ("f", "female")]

DYNASTIES = [("V", "House of Valdmar"), ("O", "House of Orsenne"),
             ("K", "House of Kethwyn")]

PLACES = [("valdmar", "Castle Valdmar"), ("orsenne", "Orsenne Keep"),
          ("kethwick", "Kethwick Hall"), ("tollerby", "Tollerby"),
          ("marrowgate", "Marrowgate"), ("lisk", "Lisk"),
          ("brenhollow", "Brenhollow"), ("ivo", "Saint Ivo's Abbey")]

TITLES = [("king", "King of Valdmar"), ("queen", "Queen of Valdmar"),
          ("prince", "Prince of Valdmar"), ("princess", "Princess of Valdmar"),
          ("duke", "Duke of Orsenne"), ("duchess", "Duchess of Orsenne"),
          ("count", "Count of Kethwyn"), ("countess", "Countess of Kethwyn"),
          ("lord_bren", "Lord of Brenhollow"), ("lady_bren", "Lady of Brenhollow"),
          ("lord_marrow", "Lord of Marrowgate"),
          ("lady_marrow", "Lady of Marrowgate")]

# key, label, sex, father, mother, date of birth, birthplace, titles, dynasty
PEOPLE = [
    # generation 1
    ("ulric1", "Ulric I of Valdmar", "m", None, None, "1381-04-12", "valdmar", ["king"], "V"),
    ("hedwig_t", "Hedwig of Tollerby", "f", None, None, "1384-09-03", "tollerby", ["queen"], None),
    ("aldric1", "Aldric I of Orsenne", "m", None, None, "1378-01-22", "orsenne", ["duke"], "O"),
    ("maud_l", "Maud of Lisk", "f", None, None, "1382-06-30", "lisk", ["duchess"], None),
    ("osric1", "Osric I of Kethwyn", "m", None, None, "1383-11-05", "kethwick", ["count"], "K"),
    ("edda_m", "Edda of Marrowgate", "f", None, None, "1386-02-17", "marrowgate", ["countess"], None),
    # generation 2
    ("ulric2", "Ulric II of Valdmar", "m", "ulric1", "hedwig_t", "1405-07-19", "valdmar", ["king"], "V"),
    ("ansel_v", "Ansel of Valdmar", "m", "ulric1", "hedwig_t", "1407-03-02", "valdmar", ["prince"], "V"),
    ("maud_v", "Maud of Valdmar", "f", "ulric1", "hedwig_t", "1409-10-28", "valdmar", ["princess", "duchess"], "V"),
    ("aldric2", "Aldric II of Orsenne", "m", "aldric1", "maud_l", "1404-05-09", "orsenne", ["duke"], "O"),
    ("isolde_o", "Isolde of Orsenne", "f", "aldric1", "maud_l", "1406-08-14", "orsenne", ["queen"], "O"),
    ("bertram_o", "Bertram of Orsenne", "m", "aldric1", "maud_l", "1410-12-01", "ivo", ["lord_bren"], "O"),
    ("osric2", "Osric II of Kethwyn", "m", "osric1", "edda_m", "1408-02-23", "kethwick", ["count"], "K"),
    ("edda_k", "Edda of Kethwyn", "f", "osric1", "edda_m", "1411-09-09", "kethwick", ["princess"], "K"),
    ("rowena_k", "Rowena of Kethwyn", "f", "osric1", "edda_m", "1413-04-04", "kethwick", ["lady_bren"], "K"),
    ("gisela_b", "Gisela of Brenhollow", "f", None, None, "1410-01-15", "brenhollow", ["countess"], None),
    # generation 3
    ("margit_l", "Margit of Lisk", "f", None, None, "1415-05-21", "lisk", ["queen"], None),
    ("ulric3", "Ulric III of Valdmar", "m", "ulric2", "isolde_o", "1428-03-11", "valdmar", ["king"], "V"),
    ("cecily_v", "Cecily of Valdmar", "f", "ulric2", "isolde_o", "1430-06-06", "valdmar", ["princess", "countess"], "V"),
    ("aldric_vl", "Aldric of Valdmar", "m", "ulric2", "isolde_o", "1432-09-19", "orsenne", ["prince"], "V"),
    ("hedwig_v", "Hedwig of Valdmar", "f", "ulric2", "margit_l", "1440-02-02", "valdmar", ["princess", "lady_bren"], "V"),
    ("osric_vl", "Osric of Valdmar", "m", "ansel_v", "edda_k", "1433-05-27", "kethwick", ["prince"], "V"),
    ("ida_v", "Ida of Valdmar", "f", "ansel_v", "edda_k", "1435-11-30", "valdmar", ["princess", "duchess"], "V"),
    ("aldric3", "Aldric III of Orsenne", "m", "aldric2", "maud_v", "1429-01-08", "orsenne", ["duke"], "O"),
    ("ulric_o", "Ulric of Orsenne", "m", "aldric2", "maud_v", "1431-07-21", "orsenne", [], "O"),
    ("maud_o", "Maud of Orsenne", "f", "aldric2", "maud_v", "1434-04-16", "orsenne", ["queen"], "O"),
    ("roderick_o", "Roderick of Orsenne", "m", "bertram_o", "rowena_k", "1436-10-10", "brenhollow", ["lord_bren"], "O"),
    ("edda_o", "Edda of Orsenne", "f", "bertram_o", "rowena_k", "1438-03-03", "brenhollow", [], "O"),
    ("osric3", "Osric III of Kethwyn", "m", "osric2", "gisela_b", "1430-12-12", "kethwick", ["count"], "K"),
    ("gunhild", "Gunhild of Kethwyn", "f", "osric2", "gisela_b", "1433-02-08", "kethwick", [], "K"),
    ("wendel_k", "Wendel of Kethwyn", "m", "osric2", "gisela_b", "1437-07-07", "marrowgate", [], "K"),
    ("agnes", "Agnes of Marrowgate", "f", None, None, "1439-08-30", "marrowgate", ["lady_marrow"], None),
    # generation 4
    ("ulric4", "Ulric IV of Valdmar", "m", "ulric3", "maud_o", "1452-08-08", "valdmar", ["king"], "V"),
    ("isolde_v", "Isolde of Valdmar", "f", "ulric3", "maud_o", "1454-05-05", "orsenne", ["princess", "countess"], "V"),
    ("bertram_v", "Bertram of Valdmar", "m", "ulric3", "maud_o", "1457-01-19", "valdmar", ["prince"], "V"),
    ("osric4", "Osric IV of Kethwyn", "m", "osric3", "cecily_v", "1451-03-29", "kethwick", ["count"], "K"),
    ("linnet", "Linnet of Kethwyn", "f", "osric3", "cecily_v", "1453-09-14", "kethwick", ["duchess"], "K"),
    ("aldric4", "Aldric IV of Orsenne", "m", "aldric3", "ida_v", "1455-06-02", "orsenne", ["duke"], "O"),
    ("sibyl_o", "Sibyl of Orsenne", "f", "aldric3", "ida_v", "1458-12-24", "orsenne", ["queen"], "O"),
    ("ansel_o", "Ansel of Orsenne", "m", "aldric3", "ida_v", "1461-04-30", "ivo", [], "O"),
    ("gisela_v", "Gisela of Valdmar", "f", "osric_vl", "edda_o", "1460-07-17", "brenhollow", ["lady_bren"], "V"),
    ("conrad", "Conrad of Valdmar", "m", "osric_vl", "edda_o", "1462-10-03", "valdmar", ["prince"], "V"),
    ("bertram_b", "Bertram of Brenhollow", "m", "roderick_o", "hedwig_v", "1459-02-14", "brenhollow", ["lord_bren"], "O"),
    ("margit_o", "Margit of Orsenne", "f", "roderick_o", "hedwig_v", "1463-08-21", "brenhollow", [], "O"),
    ("tancred_o", "Tancred of Orsenne", "m", "ulric_o", "gunhild", "1456-11-11", "kethwick", [], "O"),
    ("ida_k", "Ida of Kethwyn", "f", "wendel_k", "agnes", "1458-01-01", "marrowgate", [], "K"),
    ("lothar", "Lothar of Kethwyn", "m", "wendel_k", "agnes", "1461-06-15", "marrowgate", ["lord_marrow"], "K"),
    ("petra", "Petra of Lisk", "f", None, None, "1464-02-09", "lisk", [], None),
    # generation 5
    ("beatrix", "Beatrix of Tollerby", "f", None, None, "1468-10-13", "tollerby", ["duchess"], None),
    ("ulric5", "Ulric V of Valdmar", "m", "ulric4", "sibyl_o", "1477-04-09", "valdmar", ["king"], "V"),
    ("aveline", "Aveline of Valdmar", "f", "ulric4", "sibyl_o", "1479-09-25", "orsenne", ["princess", "countess"], "V"),
    ("hugo", "Hugo of Valdmar", "m", "ulric4", "sibyl_o", "1482-02-11", "valdmar", ["prince"], "V"),
    ("osric5", "Osric V of Kethwyn", "m", "osric4", "isolde_v", "1476-05-18", "kethwick", ["count"], "K"),
    ("cecily_k", "Cecily of Kethwyn", "f", "osric4", "isolde_v", "1478-10-02", "kethwick", ["queen"], "K"),
    ("elsbeth", "Elsbeth of Kethwyn", "f", "osric4", "isolde_v", "1481-03-19", "ivo", ["lady_bren"], "K"),
    ("aldric5", "Aldric V of Orsenne", "m", "aldric4", "linnet", "1478-07-07", "orsenne", ["duke"], "O"),
    ("rowena_o", "Rowena of Orsenne", "f", "aldric4", "linnet", "1480-12-30", "orsenne", ["princess"], "O"),
    ("wendel_o", "Wendel of Orsenne", "m", "aldric4", "beatrix", "1490-05-05", "tollerby", [], "O"),
    ("roderick_b", "Roderick of Brenhollow", "m", "bertram_b", "gisela_v", "1483-08-16", "brenhollow", ["lord_bren"], "O"),
    ("sibyl_v", "Sibyl of Valdmar", "f", "conrad", "petra", "1486-01-27", "lisk", ["duchess"], "V"),
    ("gisela_o", "Gisela of Orsenne", "f", "tancred_o", "ida_k", "1482-04-08", "kethwick", [], "O"),
    ("anselm", "Anselm of Kethwyn", "m", "lothar", "margit_o", "1485-09-12", "marrowgate", [], "K"),
    # generation 6
    ("ulric6", "Ulric VI of Valdmar", "m", "ulric5", "cecily_k", "1501-02-20", "valdmar", ["prince"], "V"),
    ("elinor", "Elinor of Valdmar", "f", "ulric5", "cecily_k", "1503-06-13", "valdmar", ["princess"], "V"),
    ("osric6", "Osric VI of Kethwyn", "m", "osric5", "aveline", "1500-11-04", "kethwick", [], "K"),
    ("maud_k", "Maud of Kethwyn", "f", "osric5", "aveline", "1504-03-08", "kethwick", [], "K"),
    ("aldric6", "Aldric VI of Orsenne", "m", "aldric5", "sibyl_v", "1505-07-30", "orsenne", [], "O"),
    ("ida_o", "Ida of Orsenne", "f", "aldric5", "sibyl_v", "1507-09-09", "orsenne", [], "O"),
    ("leopold", "Leopold of Valdmar", "m", "hugo", "rowena_o", "1506-12-12", "valdmar", [], "V"),
    ("edda_b", "Edda of Brenhollow", "f", "roderick_b", "elsbeth", "1508-05-01", "brenhollow", [], "O"),
    ("tancred_b", "Tancred of Brenhollow", "m", "roderick_b", "elsbeth", "1510-08-19", "brenhollow", [], "O"),
]

# (husband, wife); Ulric II and Aldric IV each married twice.
MARRIAGES = [
    ("ulric1", "hedwig_t"), ("aldric1", "maud_l"), ("osric1", "edda_m"),
    ("ulric2", "isolde_o"), ("ulric2", "margit_l"), ("aldric2", "maud_v"),
    ("ansel_v", "edda_k"), ("bertram_o", "rowena_k"), ("osric2", "gisela_b"),
    ("ulric3", "maud_o"), ("osric3", "cecily_v"), ("aldric3", "ida_v"),
    ("osric_vl", "edda_o"), ("roderick_o", "hedwig_v"), ("ulric_o", "gunhild"),
    ("wendel_k", "agnes"),
    ("ulric4", "sibyl_o"), ("osric4", "isolde_v"), ("aldric4", "linnet"),
    ("aldric4", "beatrix"), ("conrad", "petra"), ("bertram_b", "gisela_v"),
    ("tancred_o", "ida_k"), ("lothar", "margit_o"),
    ("ulric5", "cecily_k"), ("osric5", "aveline"), ("aldric5", "sibyl_v"),
    ("hugo", "rowena_o"), ("roderick_b", "elsbeth"),
]

# ---------------------------------------------------------------------------
# Questions.  {a} is replaced by the anchor mention, which must be a name that
# picks out exactly that one person (checked below).  Steps are applied to the
# full truth; a singular relation word ("son", "wife") must yield exactly one
# person at that point, a plural one ("sons", "wives") at least one overall.
# ---------------------------------------------------------------------------

QUESTIONS = [
    # three-hop chains
    ("chain3", "Who is the mom of the wife of {a}'s son?", "osric3", "Osric III", ["son", "wife", "mother"]),
    ("chain3", "Where was the dad of {a}'s husband born?", "maud_o", "Queen Maud", ["husband", "father", "birthplace"]),
    ("chain3", "What title did the father of {a}'s grandson hold?", "petra", "Petra", ["grandson", "father", "title"]),
    ("chain3", "Where was the husband of {a}'s daughter born?", "ulric1", "Ulric I", ["daughter", "husband", "birthplace"]),
    ("chain3", "When was the wife of {a}'s son born?", "ansel_v", "Prince Ansel", ["son", "wife", "birthdate"]),
    ("chain3", "Who are the brothers of the wife of {a}'s dad?", "hugo", "Hugo", ["father", "wife", "brothers"]),
    ("chain3", "What house was {a}'s mom's mom from?", "elinor", "Elinor", ["mother", "mother", "house"]),
    ("chain3", "Who's the dad of the missus of {a}'s son?", "roderick_o", "Roderick of Orsenne", ["son", "wife", "father"]),
    ("chain3", "Where were the grandmothers of {a}'s wife born?", "ulric4", "Ulric IV", ["wife", "grandmothers", "birthplace"]),
    ("chain3", "Who are the kids of the sister of {a}'s father?", "osric5", "Osric V", ["father", "sister", "children"]),
    ("chain3", "What title did the husband of {a}'s daughter hold?", "conrad", "Conrad", ["daughter", "husband", "title"]),
    ("chain3", "Who's the mom of {a}'s son's wife?", "linnet", "Linnet", ["son", "wife", "mother"]),
    ("chain3", "When was the brother of {a}'s husband born?", "isolde_o", "Queen Isolde", ["husband", "brother", "birthdate"]),
    ("chain3", "Who were the husbands of {a}'s husband's sisters?", "aveline", "Aveline", ["husband", "sisters", "husbands"]),
    ("chain3", "Where was {a}'s husband's mother born?", "beatrix", "Beatrix", ["husband", "mother", "birthplace"]),
    ("chain3", "When was the father of {a}'s mom born?", "leopold", "Leopold", ["mother", "father", "birthdate"]),
    ("chain3", "Where were the wives of {a}'s brothers born?", "isolde_v", "Isolde of Valdmar", ["brothers", "wives", "birthplace"]),
    ("chain3", "Who are the kids of {a}'s daughter's husband?", "sibyl_o", "Queen Sibyl", ["daughter", "husband", "children"]),
    ("chain3", "What title did the mother of {a}'s wife hold?", "tancred_o", "Tancred of Orsenne", ["wife", "mother", "title"]),
    ("chain3", "Where was {a}'s wife's father born?", "lothar", "Lothar", ["wife", "father", "birthplace"]),
    # two-hop
    ("chain2", "Who is {a}'s father-in-law?", "edda_k", "Edda of Kethwyn", ["father_in_law"]),
    ("chain2", "Who are the grandchildren of {a}?", "osric3", "Osric III", ["grandchildren"]),
    ("chain2", "When was the wife of {a} born?", "ulric3", "Ulric III", ["wife", "birthdate"]),
    ("chain2", "Who is the mother-in-law of {a}?", "aldric3", "Aldric III", ["mother_in_law"]),
    ("chain2", "Who is {a}'s granddad on his mom's side?", "ulric5", "Ulric V", ["mother", "father"]),
    ("chain2", "Who are the granddaughters of {a}?", "ulric1", "King Ulric I", ["granddaughters"]),
    ("chain2", "Where was {a}'s mom born?", "bertram_v", "Prince Bertram", ["mother", "birthplace"]),
    ("chain2", "Who is the son-in-law of {a}?", "osric2", "Osric II", ["son_in_law"]),
    ("chain2", "What title did {a}'s husband hold?", "gisela_b", "Gisela of Brenhollow", ["husband", "title"]),
    ("chain2", "Who are the brothers of {a}'s husband?", "cecily_k", "Queen Cecily", ["husband", "brothers"]),
    ("chain2", "Who are the grandparents of {a}?", "anselm", "Anselm", ["grandparents"]),
    ("chain2", "Which house does {a}'s husband belong to?", "sibyl_v", "Sibyl of Valdmar", ["husband", "house"]),
    # one-hop
    ("hop1", "Who is {a}'s hubby?", "maud_o", "Queen Maud", ["husband"]),
    ("hop1", "Who are {a}'s kids?", "ulric3", "Ulric III", ["children"]),
    ("hop1", "Who is {a}'s dad?", "gunhild", "Gunhild", ["father"]),
    ("hop1", "Who's the missus of {a}?", "conrad", "Conrad", ["wife"]),
    ("hop1", "Who are the sons of {a}?", "aldric4", "Aldric IV", ["sons"]),
    ("hop1", "Who are {a}'s brothers?", "hedwig_v", "Hedwig of Valdmar", ["brothers"]),
    ("hop1", "Who is {a}'s mom?", "lothar", "Lord Lothar", ["mother"]),
    ("hop1", "Who are the daughters of {a}?", "osric4", "Osric IV", ["daughters"]),
    # others: counts, oldest/youngest, filters, siblings, aunt/uncle
    ("other", "How many children did {a} have?", "ulric2", "Ulric II", ["children", "count"]),
    ("other", "How many grandkids does {a} have?", "ulric3", "King Ulric III", ["grandchildren", "count"]),
    ("other", "Who is the oldest child of {a}?", "aldric3", "Aldric III", ["children", "oldest"]),
    ("other", "Who is {a}'s youngest kid?", "osric2", "Osric II", ["children", "youngest"]),
    ("other", "Which of {a}'s grandchildren were born at Kethwick Hall?", "maud_o", "Queen Maud", ["grandchildren", "born_at:kethwick"]),
    ("other", "Which of {a}'s grandchildren were born in Orsenne Keep?", "aldric3", "Duke Aldric III", ["grandchildren", "born_at:orsenne"]),
    ("other", "How many siblings did {a} have?", "cecily_v", "Cecily of Valdmar", ["siblings", "count"]),
    ("other", "Who are the siblings of {a}?", "ansel_o", "Ansel of Orsenne", ["siblings"]),
    ("other", "Who is {a}'s aunt?", "sibyl_v", "Sibyl of Valdmar", ["aunt"]),
    ("other", "Who is {a}'s uncle?", "gisela_o", "Gisela of Orsenne", ["uncle"]),
]

EXPECTED_MIX = {"chain3": 20, "chain2": 12, "hop1": 8, "other": 10}

# ---------------------------------------------------------------------------
# Truth model
# ---------------------------------------------------------------------------

P = {}
for row in PEOPLE:
    key, label, sex, father, mother, dob, place, titles, dyn = row
    assert key not in P, key
    P[key] = dict(key=key, label=label, sex=sex, father=father, mother=mother,
                  dob=dob, place=place, titles=titles, dyn=dyn)

PLACE_LABEL = dict(PLACES)
TITLE_LABEL = dict(TITLES)
DYN_LABEL = dict(DYNASTIES)


def _check_truth():
    labels = [p["label"] for p in P.values()]
    assert len(set(labels)) == len(labels), "person labels must be unique"
    for p in P.values():
        for par, sex in (("father", "m"), ("mother", "f")):
            k = p[par]
            if k is not None:
                assert k in P and P[k]["sex"] == sex, (p["key"], par)
                assert P[k]["dob"] < p["dob"], (p["key"], par)
        assert p["place"] in PLACE_LABEL and all(t in TITLE_LABEL for t in p["titles"])
        assert p["dyn"] is None or p["dyn"] in DYN_LABEL
    for h, w in MARRIAGES:
        assert P[h]["sex"] == "m" and P[w]["sex"] == "f", (h, w)
    for p in P.values():
        if p["father"] and p["mother"]:
            assert (p["father"], p["mother"]) in MARRIAGES, p["key"]


_check_truth()


def by_age(keys):
    return sorted(set(keys), key=lambda k: (P[k]["dob"], P[k]["label"]))


def parents(k):
    return [x for x in (P[k]["father"], P[k]["mother"]) if x]


def children(k):
    return by_age(c for c in P if k in parents(c))


def spouses(k):
    return by_age([w for h, w in MARRIAGES if h == k] + [h for h, w in MARRIAGES if w == k])


def siblings(k):
    mine = set(parents(k))
    return by_age(c for c in P if c != k and mine & set(parents(c)))


def _sex(keys, sex):
    return by_age(k for k in keys if P[k]["sex"] == sex)


def _flat(fn, keys):
    out = []
    for k in keys:
        out.extend(fn(k))
    return by_age(out)


def grandparents(k):
    return _flat(parents, parents(k))


def grandchildren(k):
    return _flat(children, children(k))


def aunts(k):
    blood = _sex(_flat(siblings, parents(k)), "f")
    by_marriage = _sex(_flat(spouses, _sex(_flat(siblings, parents(k)), "m")), "f")
    # only ask about aunts where "aunt" is unambiguous (no aunts by marriage)
    assert set(blood) == set(blood) | set(by_marriage), ("ambiguous aunt", k)
    return blood


def uncles(k):
    blood = _sex(_flat(siblings, parents(k)), "m")
    by_marriage = _sex(_flat(spouses, _sex(_flat(siblings, parents(k)), "f")), "m")
    assert set(blood) == set(blood) | set(by_marriage), ("ambiguous uncle", k)
    return blood


REL = {
    "father": lambda k: [P[k]["father"]] if P[k]["father"] else [],
    "mother": lambda k: [P[k]["mother"]] if P[k]["mother"] else [],
    "parents": parents,
    "children": children,
    "sons": lambda k: _sex(children(k), "m"),
    "daughters": lambda k: _sex(children(k), "f"),
    "spouses": spouses,
    "husbands": lambda k: _sex(spouses(k), "m"),
    "wives": lambda k: _sex(spouses(k), "f"),
    "siblings": siblings,
    "brothers": lambda k: _sex(siblings(k), "m"),
    "sisters": lambda k: _sex(siblings(k), "f"),
    "grandparents": grandparents,
    "grandfathers": lambda k: _sex(grandparents(k), "m"),
    "grandmothers": lambda k: _sex(grandparents(k), "f"),
    "grandchildren": grandchildren,
    "grandsons": lambda k: _sex(grandchildren(k), "m"),
    "granddaughters": lambda k: _sex(grandchildren(k), "f"),
    "fathers_in_law": lambda k: _flat(lambda s: [P[s]["father"]] if P[s]["father"] else [], spouses(k)),
    "mothers_in_law": lambda k: _flat(lambda s: [P[s]["mother"]] if P[s]["mother"] else [], spouses(k)),
    "sons_in_law": lambda k: _sex(_flat(spouses, _sex(children(k), "f")), "m"),
    "daughters_in_law": lambda k: _sex(_flat(spouses, _sex(children(k), "m")), "f"),
    "aunts": aunts,
    "uncles": uncles,
}

SINGULAR = {"son": "sons", "daughter": "daughters", "child": "children",
            "husband": "husbands", "wife": "wives", "spouse": "spouses",
            "brother": "brothers", "sister": "sisters",
            "grandfather": "grandfathers", "grandmother": "grandmothers",
            "grandson": "grandsons", "granddaughter": "granddaughters",
            "father_in_law": "fathers_in_law", "mother_in_law": "mothers_in_law",
            "son_in_law": "sons_in_law", "daughter_in_law": "daughters_in_law",
            "aunt": "aunts", "uncle": "uncles"}


# ---------------------------------------------------------------------------
# Names people would use: full label, unique first name, "Ulric II",
# "Queen Maud", "King Ulric III" -- each kept only if it picks out one person.
# ---------------------------------------------------------------------------

def _candidate_names(p):
    label = p["label"]
    head = label.split(" of ")[0].split()
    first = head[0]
    base = " ".join(head)  # "Ulric II" or just "Maud"
    names = {label, first, base}
    for t in p["titles"]:
        hon = TITLE_LABEL[t].split()[0]
        names.add(hon + " " + first)
        names.add(hon + " " + base)
    return names


def _aliases():
    owners = {}
    for k, p in P.items():
        for n in _candidate_names(p):
            owners.setdefault(n, set()).add(k)
    return {n: next(iter(ks)) for n, ks in owners.items() if len(ks) == 1}


ALIAS = _aliases()


# ---------------------------------------------------------------------------
# Answer computation
# ---------------------------------------------------------------------------

def answer(anchor, steps):
    cur = [anchor]
    for i, step in enumerate(steps):
        last = i == len(steps) - 1
        if step in ("father", "mother") or step in SINGULAR:
            base = SINGULAR.get(step, step)
            out = []
            for k in cur:
                r = REL[base](k)
                assert len(r) == 1, ("singular step not unique", anchor, steps, step, k, r)
                out.extend(r)
            cur = by_age(out)
            assert len(cur) == 1, ("singular step not unique", anchor, steps, step, cur)
        elif step in REL:
            cur = _flat(REL[step], cur)
            assert cur, ("empty step", anchor, steps, step)
        elif step.startswith("born_at:"):
            place = step.split(":", 1)[1]
            assert place in PLACE_LABEL
            cur = [k for k in cur if P[k]["place"] == place]
            assert cur, ("empty filter", anchor, steps)
        else:
            assert last, ("terminal step must be last", steps)
            if step == "count":
                return [str(len(cur))]
            if step in ("oldest", "youngest"):
                ordered = by_age(cur)
                return [P[ordered[0] if step == "oldest" else ordered[-1]]["label"]]
            if step == "birthplace":
                return sorted({PLACE_LABEL[P[k]["place"]] for k in cur})
            if step == "birthdate":
                return sorted({P[k]["dob"] for k in cur})
            if step == "title":
                return sorted({TITLE_LABEL[t] for k in cur for t in P[k]["titles"]})
            if step == "house":
                return sorted({DYN_LABEL[P[k]["dyn"]] for k in cur if P[k]["dyn"]})
            raise ValueError(step)
    return [P[k]["label"] for k in cur]


def build_questions():
    rows = []
    mix = {}
    for n, (kind, text, anchor, mention, steps) in enumerate(QUESTIONS, 1):
        assert anchor in P, anchor
        assert ALIAS.get(mention) == anchor, ("mention does not pick out anchor", mention, anchor)
        assert text.count("{a}") == 1, text
        ans = answer(anchor, steps)
        assert ans and all(a for a in ans), ("no answer", text)
        mix[kind] = mix.get(kind, 0) + 1
        rows.append({"id": "lineage-%02d" % n, "question": text.replace("{a}", mention),
                     "answers": ans})
    assert len(rows) == 50
    assert mix == EXPECTED_MIX, mix
    assert len({r["question"] for r in rows}) == len(rows), "duplicate question"
    return rows


# ---------------------------------------------------------------------------
# Imperfect Wikidata-style statements
# ---------------------------------------------------------------------------

def _h(*parts):
    return int(hashlib.sha256("|".join(parts).encode("utf-8")).hexdigest(), 16)


def stated_children():
    pairs = sorted((par, c) for c in P for par in parents(c))
    keep = round(0.7 * len(pairs))
    chosen = sorted(pairs, key=lambda pc: _h("child", *pc))[:keep]
    return sorted(chosen), len(pairs)


def stated_spouses():
    out = []
    modes = set()
    for h, w in MARRIAGES:
        mode = _h("spouse", h, w) % 3  # 0 both, 1 husband->wife, 2 wife->husband
        modes.add(mode)
        if mode in (0, 1):
            out.append((h, w))
        if mode in (0, 2):
            out.append((w, h))
    assert modes == {0, 1, 2}, modes
    return out


def stated_siblings():
    pairs = sorted({tuple(sorted((a, b))) for a in P for b in siblings(a)})
    out = []
    modes = set()
    for a, b in pairs:
        mode = _h("sibling", a, b) % 4  # 0,1 none; 2 one direction; 3 both
        modes.add(min(mode, 1))
        if mode == 2:
            out.append((a, b) if _h("dir", a, b) % 2 else (b, a))
            modes.add(2)
        elif mode == 3:
            out += [(a, b), (b, a)]
            modes.add(3)
    assert modes == {0, 1, 2, 3} or modes == {1, 2, 3}, modes
    return out, len(pairs)


# ---------------------------------------------------------------------------
# N-Triples
# ---------------------------------------------------------------------------

def _lit(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def build_triples():
    ids = {}
    n = [1]

    def new(key):
        ids[key] = "<%sQ%d>" % (ENT, n[0])
        n[0] += 1

    for k, _ in GENDERS:
        new("gender:" + k)
    n[0] = 11
    for k, _ in DYNASTIES:
        new("dyn:" + k)
    n[0] = 21
    for k, _ in PLACES:
        new("place:" + k)
    n[0] = 41
    for k, _ in TITLES:
        new("title:" + k)
    n[0] = 101
    for k in P:
        new(k)

    t = []
    lab = "<%s>" % RDFS_LABEL
    typ = "<%s>" % RDF_TYPE

    def prop(name):
        return "<%s%s>" % (PROP, name)

    for c, l in CLASSES:
        t.append(("<%s%s>" % (CLS, c), lab, _lit(l)))
    for pname, l in PROPERTIES:
        t.append((prop(pname), lab, _lit(l)))
    for group, cls, table in (("gender", "Gender", GENDERS), ("dyn", "Dynasty", DYNASTIES),
                              ("place", "Place", PLACES), ("title", "Title", TITLES)):
        for k, l in table:
            s = ids[group + ":" + k]
            t.append((s, typ, "<%s%s>" % (CLS, cls)))
            t.append((s, lab, _lit(l)))

    for k, p in P.items():
        s = ids[k]
        t.append((s, typ, "<%sHuman>" % CLS))
        t.append((s, lab, _lit(p["label"])))
        t.append((s, prop("sexOrGender"), ids["gender:" + p["sex"]]))
        t.append((s, prop("dateOfBirth"), '%s^^<%s>' % (_lit(p["dob"]), XSD_DATE)))
        t.append((s, prop("placeOfBirth"), ids["place:" + p["place"]]))
        for ti in p["titles"]:
            t.append((s, prop("nobleTitle"), ids["title:" + ti]))
        if p["dyn"]:
            t.append((s, prop("memberOfDynasty"), ids["dyn:" + p["dyn"]]))
        if p["father"]:
            t.append((s, prop("father"), ids[p["father"]]))
        if p["mother"]:
            t.append((s, prop("mother"), ids[p["mother"]]))

    kids, n_pairs = stated_children()
    for par, c in kids:
        t.append((ids[par], prop("child"), ids[c]))
    for a, b in stated_spouses():
        t.append((ids[a], prop("spouse"), ids[b]))
    sibs, n_sib_pairs = stated_siblings()
    for a, b in sibs:
        t.append((ids[a], prop("sibling"), ids[b]))

    assert len(set(t)) == len(t), "duplicate triple"
    # every subject that is an entity or class has exactly one label
    subjects = {s for s, _, _ in t}
    labelled = [s for s, pr, _ in t if pr == lab]
    assert len(labelled) == len(set(labelled)) and set(labelled) == subjects
    stats = dict(child_stated=len(kids), child_pairs=n_pairs,
                 sibling_pairs=n_sib_pairs, sibling_statements=len(sibs))
    return t, stats


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: python bench/probes/lineage.py OUTDIR\n")
        return 2
    outdir = argv[1]
    os.makedirs(outdir, exist_ok=True)
    questions = build_questions()
    triples, stats = build_triples()
    with open(os.path.join(outdir, "lineage.nt"), "w", encoding="utf-8") as f:
        for s, p, o in triples:
            f.write("%s %s %s .\n" % (s, p, o))
    with open(os.path.join(outdir, "lineage_q.jsonl"), "w", encoding="utf-8") as f:
        for q in questions:
            f.write(json.dumps(q) + "\n")
    print("lineage: %d people, %d triples, %d questions -> %s"
          % (len(P), len(triples), len(questions), outdir))
    print("  child stated for %(child_stated)d of %(child_pairs)d parent-child pairs; "
          "%(sibling_statements)d sibling statements over %(sibling_pairs)d sibling pairs" % stats)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
