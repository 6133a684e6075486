"""Made-up royal family (House of Aldmark, five generations) written as typed Turtle,
plus blind test questions whose gold answers are computed from the script's own tables."""

import json
import os
import sys

# --------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------

REALMS = {"varnland": "Varnland", "norholm": "Norholm", "sudria": "Sudria"}

PLACES = {  # id: (label, realm)
    "varnholm": ("Varnholm", "varnland"),
    "eastmere": ("Eastmere", "varnland"),
    "kellby": ("Kellby", "varnland"),
    "skarvik": ("Skarvik", "norholm"),
    "tromvik": ("Tromvik", "norholm"),
    "calvera": ("Calvera", "sudria"),
}

TITLES = {
    "king_varnland": "King of Varnland",
    "queen_varnland": "Queen of Varnland",
    "consort_varnland": "Queen Consort of Varnland",
    "prince_varnland": "Prince of Varnland",
    "princess_varnland": "Princess of Varnland",
    "duke_eastmere": "Duke of Eastmere",
    "earl_kellby": "Earl of Kellby",
    "count_brenn": "Count of Brenn",
    "prince_norholm": "Prince of Norholm",
}

HOUSES = {"aldmark": "House of Aldmark", "brenn": "House of Brenn", "skjold": "House of Skjold"}

# id: (label, gender, born, died, birthplace, parents, titles, house, reign_start)
PEOPLE = {
    # generation 1
    "osric1": ("King Osric I", "m", 1842, 1910, "varnholm", (), ("king_varnland",), "aldmark", 1868),
    "hedvig": ("Queen Hedvig", "f", 1846, 1921, "skarvik", (), ("consort_varnland",), None, None),
    # generation 2
    "aldric2": ("King Aldric II", "m", 1867, 1931, "varnholm", ("osric1", "hedvig"), ("king_varnland",), "aldmark", 1910),
    "margit": ("Queen Margit", "f", 1870, 1939, "calvera", (), ("consort_varnland",), None, None),
    "edmund": ("Prince Edmund, Duke of Eastmere", "m", 1870, 1940, "eastmere", ("osric1", "hedvig"), ("duke_eastmere",), "aldmark", None),
    "clara": ("Clara Vance", "f", 1874, 1951, "kellby", (), (), None, None),
    "sophia": ("Princess Sophia of Varnland", "f", 1873, 1950, "varnholm", ("osric1", "hedvig"), ("princess_varnland",), "aldmark", None),
    "lothar": ("Count Lothar Brenn", "m", 1868, 1929, "skarvik", (), ("count_brenn",), "brenn", None),
    # generation 3
    "adela2": ("Queen Adela II", "f", 1895, 1970, "varnholm", ("aldric2", "margit"), ("queen_varnland",), "aldmark", 1931),
    "henrik": ("Prince Henrik of Norholm", "m", 1892, 1964, "tromvik", (), ("prince_norholm",), "skjold", None),
    "casimir": ("Prince Casimir of Varnland", "m", 1898, 1944, "eastmere", ("aldric2", "margit"), ("prince_varnland",), "aldmark", None),
    "ingrid": ("Ingrid Dahl", "f", 1902, 1980, "kellby", (), (), None, None),
    "beatrix": ("Princess Beatrix of Varnland", "f", 1901, 1985, "kellby", ("aldric2", "margit"), ("princess_varnland",), "aldmark", None),
    "julian": ("Julian Marsh", "m", 1899, 1970, "kellby", (), (), None, None),
    "rupert": ("Rupert, Duke of Eastmere", "m", 1897, 1962, "eastmere", ("edmund", "clara"), ("duke_eastmere",), "aldmark", None),
    "rosalind": ("Rosalind Grey", "f", 1899, 1975, "calvera", (), (), None, None),
    "vivienne": ("Lady Vivienne of Eastmere", "f", 1900, 1988, "eastmere", ("edmund", "clara"), (), "aldmark", None),
    "hugo": ("Hugo Falk", "m", 1897, 1958, "calvera", (), (), None, None),
    "ottilie": ("Countess Ottilie Brenn", "f", 1896, 1971, "skarvik", ("sophia", "lothar"), (), "brenn", None),
    # generation 4
    "osric2": ("King Osric II", "m", 1920, 1995, "varnholm", ("adela2", "henrik"), ("king_varnland",), "aldmark", 1970),
    "marguerite": ("Marguerite Olsen", "f", 1923, 2008, "tromvik", (), ("consort_varnland",), None, None),
    "frederik": ("Prince Frederik of Varnland", "m", 1923, 1988, "eastmere", ("adela2", "henrik"), ("earl_kellby",), "aldmark", None),
    "annika": ("Annika Holm", "f", 1926, None, "kellby", (), (), None, None),
    "cordelia": ("Princess Cordelia of Varnland", "f", 1926, None, "varnholm", ("adela2", "henrik"), ("princess_varnland",), "aldmark", None),
    "tomas": ("Tomas Arvid", "m", 1924, 2001, "varnholm", (), (), None, None),
    "anselm": ("Prince Anselm of Varnland", "m", 1928, 1990, "eastmere", ("casimir", "ingrid"), ("prince_varnland",), "aldmark", None),
    "edith": ("Edith Marsh", "f", 1927, None, "kellby", ("beatrix", "julian"), (), None, None),
    "philip": ("Philip Marsh", "m", 1930, None, "kellby", ("beatrix", "julian"), (), None, None),
    "imogen": ("Lady Imogen of Eastmere", "f", 1925, None, "eastmere", ("rupert", "rosalind"), (), None, None),
    "percival": ("Percival, Duke of Eastmere", "m", 1928, 2003, "eastmere", ("rupert", "rosalind"), ("duke_eastmere",), None, None),
    "helena": ("Helena Strand", "f", 1931, None, "tromvik", (), (), None, None),
    "clarissa": ("Clarissa Falk", "f", 1924, None, "calvera", ("vivienne", "hugo"), (), None, None),
    # generation 5
    "tobias": ("King Tobias", "m", 1948, None, "varnholm", ("osric2", "marguerite"), ("king_varnland",), "aldmark", 1995),
    "greta": ("Greta Lindqvist", "f", 1950, None, "skarvik", (), ("consort_varnland",), None, None),
    "lena": ("Princess Lena of Varnland", "f", 1951, None, "varnholm", ("osric2", "marguerite"), ("princess_varnland",), "aldmark", None),
    "pieter": ("Pieter Voss", "m", 1949, None, "calvera", (), (), None, None),
    "nils": ("Prince Nils of Varnland", "m", 1955, None, "eastmere", ("osric2", "marguerite"), ("prince_varnland",), "aldmark", None),
    "sigrid": ("Princess Sigrid of Varnland", "f", 1950, None, "eastmere", ("frederik", "annika"), ("princess_varnland",), "aldmark", None),
    "konrad": ("Prince Konrad of Varnland", "m", 1953, None, "kellby", ("frederik", "annika"), ("prince_varnland",), "aldmark", None),
    "astrid": ("Astrid Arvid", "f", 1952, None, "varnholm", ("cordelia", "tomas"), (), None, None),
    "alaric": ("Lord Alaric of Eastmere", "m", 1956, None, "eastmere", ("percival", "helena"), (), None, None),
    "rose": ("Lady Rose of Eastmere", "f", 1959, None, "eastmere", ("percival", "helena"), (), None, None),
}

# spouse triples, stored once per couple: (subject, object)
MARRIAGES = [
    ("osric1", "hedvig"),
    ("margit", "aldric2"),
    ("edmund", "clara"),
    ("sophia", "lothar"),
    ("adela2", "henrik"),
    ("ingrid", "casimir"),
    ("beatrix", "julian"),
    ("rupert", "rosalind"),
    ("hugo", "vivienne"),
    ("osric2", "marguerite"),
    ("annika", "frederik"),
    ("cordelia", "tomas"),
    ("percival", "helena"),
    ("tobias", "greta"),
    ("pieter", "lena"),
]

# --------------------------------------------------------------------------
# Helpers over the tables
# --------------------------------------------------------------------------


def label(p):
    return PEOPLE[p][0]


def gender(p):
    return PEOPLE[p][1]


def born(p):
    return PEOPLE[p][2]


def died(p):
    return PEOPLE[p][3]


def birthplace(p):
    return PEOPLE[p][4]


def realm_of_birth(p):
    return PLACES[birthplace(p)][1]


def titles(p):
    return PEOPLE[p][6]


def house(p):
    return PEOPLE[p][7]


def reign(p):
    return PEOPLE[p][8]


def parents(p):
    return set(PEOPLE[p][5])


def children(p):
    return {c for c in PEOPLE if p in PEOPLE[c][5]}


def spouses(p):
    return {b for a, b in MARRIAGES if a == p} | {a for a, b in MARRIAGES if b == p}


def siblings(p):
    out = set()
    for par in parents(p):
        out |= children(par)
    return out - {p}


def grandparents(p):
    return {g for par in parents(p) for g in parents(par)}


def great_grandparents(p):
    return {g for gp in grandparents(p) for g in parents(gp)}


def grandchildren(p):
    return {g for c in children(p) for g in children(c)}


def parents_in_law(p):
    return {g for s in spouses(p) for g in parents(s)}


def males(s):
    return {p for p in s if gender(p) == "m"}


def females(s):
    return {p for p in s if gender(p) == "f"}


def the(s):
    s = set(s)
    assert len(s) == 1, s
    return next(iter(s))


def father(p):
    return the(males(parents(p)))


def mother(p):
    return the(females(parents(p)))


def uncles_aunts(p):
    return {s for par in parents(p) for s in siblings(par)}


def first_cousins(p):
    return {c for ua in uncles_aunts(p) for c in children(ua)}


def oldest(s):
    s = sorted(s, key=born)
    assert len(s) >= 2 and born(s[0]) < born(s[1])
    return s[0]


def youngest(s):
    s = sorted(s, key=born)
    assert len(s) >= 2 and born(s[-1]) > born(s[-2])
    return s[-1]


def labels(s):
    return [label(p) for p in sorted(s, key=lambda p: (born(p), label(p)))]


def count(s):
    return [str(len(s))]


def yesno(b):
    return ["true" if b else "false"]


def holders(title_id):
    return {p for p in PEOPLE if title_id in titles(p)}


# --------------------------------------------------------------------------
# Turtle
# --------------------------------------------------------------------------


def lit(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def build_ttl():
    out = [
        "@prefix : <http://example.org/royals/> .",
        "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .",
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
        "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .",
        "",
        "# classes",
    ]
    for cid, lab in [("Person", "Person"), ("Gender", "Gender"), ("Place", "Place"),
                     ("Realm", "Realm"), ("Title", "Title"), ("House", "House")]:
        out.append(f":{cid} a rdfs:Class ; rdfs:label {lit(lab)} .")
    out += ["", "# properties"]
    props = [
        ("parent", "parent", "Person", "Person"),
        ("spouse", "spouse", "Person", "Person"),
        ("gender", "gender", "Person", "Gender"),
        ("birthYear", "birth year", "Person", None),
        ("deathYear", "death year", "Person", None),
        ("birthPlace", "place of birth", "Person", "Place"),
        ("locatedIn", "located in", "Place", "Realm"),
        ("holdsTitle", "title held", "Person", "Title"),
        ("memberOfHouse", "member of house", "Person", "House"),
        ("reignStart", "reign start year", "Person", None),
    ]
    for pid, lab, dom, rng in props:
        line = f":{pid} a rdf:Property ; rdfs:label {lit(lab)} ; rdfs:domain :{dom}"
        line += f" ; rdfs:range :{rng} ." if rng else " ; rdfs:range xsd:integer ."
        out.append(line)
    out += ["", "# genders", ':male a :Gender ; rdfs:label "male" .',
            ':female a :Gender ; rdfs:label "female" .', "", "# realms and places"]
    for rid, lab in REALMS.items():
        out.append(f":{rid} a :Realm ; rdfs:label {lit(lab)} .")
    for pid, (lab, realm) in PLACES.items():
        out.append(f":{pid} a :Place ; rdfs:label {lit(lab)} ; :locatedIn :{realm} .")
    out += ["", "# titles"]
    for tid, lab in TITLES.items():
        out.append(f":{tid} a :Title ; rdfs:label {lit(lab)} .")
    out += ["", "# houses"]
    for hid, lab in HOUSES.items():
        out.append(f":{hid} a :House ; rdfs:label {lit(lab)} .")
    out += ["", "# people"]
    spouse_of = {}
    for a, b in MARRIAGES:
        spouse_of.setdefault(a, []).append(b)
    for p, (lab, g, b, d, place, pars, tits, hs, rs) in PEOPLE.items():
        lines = [f":{p} a :Person", f"rdfs:label {lit(lab)}",
                 f":gender :{'male' if g == 'm' else 'female'}",
                 f':birthYear "{b}"^^xsd:integer']
        if d is not None:
            lines.append(f':deathYear "{d}"^^xsd:integer')
        lines.append(f":birthPlace :{place}")
        for par in pars:
            lines.append(f":parent :{par}")
        for s in spouse_of.get(p, []):
            lines.append(f":spouse :{s}")
        for t in tits:
            lines.append(f":holdsTitle :{t}")
        if hs:
            lines.append(f":memberOfHouse :{hs}")
        if rs is not None:
            lines.append(f':reignStart "{rs}"^^xsd:integer')
        out.append(" ;\n    ".join(lines) + " .")
        out.append("")
    return "\n".join(out) + "\n"


def count_triples():
    n = 6 * 2  # classes
    n += 10 * 4  # properties: type, label, domain, range
    n += 2 * 2  # genders
    n += len(REALMS) * 2 + len(PLACES) * 3 + len(TITLES) * 2 + len(HOUSES) * 2
    for p, (lab, g, b, d, place, pars, tits, hs, rs) in PEOPLE.items():
        n += 5 + (d is not None) + len(pars) + len(tits) + (hs is not None) + (rs is not None)
    n += len(MARRIAGES)
    return n


# --------------------------------------------------------------------------
# Questions
# --------------------------------------------------------------------------


def build_questions():
    P = PEOPLE
    aldmark = {p for p in P if house(p) == "aldmark"}
    qs = []

    def q(text, answers):
        assert answers and all(isinstance(a, str) and a for a in answers), text
        qs.append((text, answers))

    # kinship, 1-3 hops through parent / spouse / gender
    q("Who was King Tobias's dad?", [label(father("tobias"))])
    q("Who was Marguerite Olsen's mother-in-law?", labels(females(parents_in_law("marguerite"))))
    q("Name the grandchildren of King Osric I.", labels(grandchildren("osric1")))
    q("Who are Princess Lena's siblings?", labels(siblings("lena")))
    q("How many children did Queen Adela have?", count(children("adela2")))
    q("Who is the husband of Marguerite Olsen?", labels(spouses("marguerite")))
    q("Who is Tobias's paternal grandfather?", [label(father(father("tobias")))])
    q("Which of King Osric I's granddaughters were born in Eastmere?",
      labels({g for g in females(grandchildren("osric1")) if birthplace(g) == "eastmere"}))
    q("Who was the great-grandmother of Lady Rose of Eastmere?", labels(females(great_grandparents("rose"))))
    q("Which of King Osric II's kids were born after 1950?",
      labels({c for c in children("osric2") if born(c) > 1950}))
    q("Where was King Tobias's mother born?", [PLACES[birthplace(mother("tobias"))][0]])
    q("Who are the sons of Queen Adela II?", labels(males(children("adela2"))))
    q("Whose wife was born in Norholm?",
      labels({p for p in males(P) if any(realm_of_birth(s) == "norholm" for s in females(spouses(p)))}))
    q("Who was the oldest child of King Aldric II?", [label(oldest(children("aldric2")))])
    q("Is Tobias Lena's brother?", yesno("tobias" in males(siblings("lena"))))
    q("Is Sigrid Lena's sister?", yesno("sigrid" in females(siblings("lena"))))
    q("Who was Princess Sigrid's mother?", [label(mother("sigrid"))])
    q("Which uncle of Queen Adela held the title Duke of Eastmere?",
      labels({u for u in males(uncles_aunts("adela2")) if "duke_eastmere" in titles(u)}))
    q("Who are Princess Lena's first cousins?", labels(first_cousins("lena")))
    q("How many grandchildren did Queen Adela II have?", count(grandchildren("adela2")))
    q("Who is Pieter Voss's father-in-law?", labels(males(parents_in_law("pieter"))))
    q("Who is Prince Konrad's sister?", labels(females(siblings("konrad"))))
    q("Who did Princess Cordelia marry?", labels(spouses("cordelia")))
    q("Who were the daughters of King Osric I?", labels(females(children("osric1"))))
    q("How many grandsons did King Aldric II have?", count(males(grandchildren("aldric2"))))
    q("Who was the maternal grandmother of Astrid Arvid?", [label(mother(mother("astrid")))])
    q("Who was Lady Rose of Eastmere's paternal grandmother?", [label(mother(father("rose")))])
    q("In what year was Prince Nils's grandmother on his father's side born?",
      [str(born(mother(father("nils"))))])
    q("Name Prince Edmund's granddaughters.", labels(females(grandchildren("edmund"))))
    q("Who was Lady Vivienne's brother?", labels(males(siblings("vivienne"))))
    q("Which of Queen Margit's grandchildren were born in Eastmere?",
      labels({g for g in grandchildren("margit") if birthplace(g) == "eastmere"}))
    q("Where was the wife of King Aldric II born?",
      [PLACES[birthplace(the(females(spouses("aldric2"))))][0]])
    q("Who was the youngest child of King Osric II?", [label(youngest(children("osric2")))])
    q("Did Princess Beatrix have any sons?", yesno(bool(males(children("beatrix")))))
    q("Is Count Lothar Brenn Queen Adela's grandfather?", yesno("lothar" in males(grandparents("adela2"))))
    q("Who are King Osric II's nieces and nephews?",
      labels({c for s in siblings("osric2") for c in children(s)}))
    q("Which of King Osric I's children-in-law came from Norholm?",
      labels({s for c in children("osric1") for s in spouses(c) if realm_of_birth(s) == "norholm"}))
    q("Who married a member of the House of Aldmark and came from Sudria?",
      labels({s for m in aldmark for s in spouses(m) if s not in aldmark and realm_of_birth(s) == "sudria"}))
    q("Who were the parents-in-law of Annika Holm?", labels(parents_in_law("annika")))
    q("Which of Queen Adela's grandchildren were born in the 1950s?",
      labels({g for g in grandchildren("adela2") if 1950 <= born(g) <= 1959}))
    # non-kinship
    q("Who has held the title Duke of Eastmere?", labels(holders("duke_eastmere")))
    q("When did King Osric I start his reign?", [str(reign("osric1"))])
    q("Which monarchs were born before 1900?",
      labels({p for p in P if reign(p) is not None and born(p) < 1900}))
    q("Who held the title Earl of Kellby?", labels(holders("earl_kellby")))
    q("In which country was Prince Henrik of Norholm born?", [REALMS[realm_of_birth("henrik")]])
    return [{"id": f"royals-{i}", "question": t, "answers": a} for i, (t, a) in enumerate(qs, 1)]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: python royals.py DIR")
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "royals.ttl"), "w", encoding="utf-8") as f:
        f.write(build_ttl())
    qs = build_questions()
    with open(os.path.join(d, "royals_q.jsonl"), "w", encoding="utf-8") as f:
        for row in qs:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{len(PEOPLE)} people, {count_triples()} triples, {len(qs)} questions -> {d}")


if __name__ == "__main__":
    main()
