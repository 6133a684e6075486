"""Made-up 40-person consultancy (Ellingsen Dalgaard Advisory) as its HR/staffing system exports it: typed Turtle
with opaque record ids (E1001, PRJ-2023-04, ...), classes and properties labelled, a few properties commented,
yes/no flags written out for everyone (true and false). The questions are what staff type into a chat box: first
names only, everyday words instead of property labels, a few typos. Every gold answer is computed from the emitted
triples, and the Turtle is checked to parse back (rdflib) to exactly those triples."""
import datetime as dt, json, os, re, sys

from rdflib import RDF, RDFS, XSD, Graph, Literal, Namespace

OUT = sys.argv[1] if len(sys.argv) > 1 else "."  # the folder to write into
os.makedirs(OUT, exist_ok=True)
BASE = "http://example.org/edadvisory/"
EX = Namespace(BASE)
D = dt.date.fromisoformat


class N(str):
    """An IRI node: a local name in the firm's namespace, or a prefixed name such as rdfs:Class."""


# ----------------------------------------------------------------- schema
CLASSES = [("Employee", "Employee"), ("Practice", "Practice"), ("City", "City"), ("Client", "Client"),
           ("Project", "Project"), ("Skill", "Skill"), ("Certification", "Certification")]
# local name: (label, comment or None)
PROPS = [
    ("jobTitle", "job title", None),
    ("practice", "practice", "The practice (team) the employee belongs to."),
    ("office", "office location", "City of the office the employee is contracted to, also for remote workers."),
    ("reportsTo", "reports to", "The employee's direct line manager."),
    ("annualSalary", "annual salary (EUR)", "Gross annual base salary in euros, before bonus."),
    ("hireDate", "hire date", None),
    ("isRemote", "remote worker", "True when the employee works fully remotely."),
    ("isPartner", "partner", "True when the employee is an equity partner of the firm."),
    ("hasSkill", "skill", None),
    ("holdsCertification", "certification", None),
    ("client", "client", None),
    ("projectLead", "project lead", None),
    ("teamMember", "team member", "Everyone staffed on the project, the project lead included."),
    ("startDate", "start date", None),
    ("budget", "budget (EUR)", "Approved budget in euros."),
    ("status", "status", None),
]

# ----------------------------------------------------------------- data
CITIES = ["Brennhaven", "Solvara", "Marrowick", "Tellisport"]
PRACTICES = ["Strategy", "Data & Analytics", "Technology", "People & Change", "Operations", "Business Services"]
SKILLS = ["Python", "SQL", "Power BI", "Financial Modelling", "Change Management", "Cloud Architecture",
          "Agile Delivery", "Java", "Process Improvement"]
CERTS = ["AWS Certified Solutions Architect", "Certified Scrum Master", "PRINCE2 Practitioner",
         "Lean Six Sigma Black Belt", "Chartered Accountant"]
CLIENTS = ["Halvorsen Shipping", "Brightmoor Bank", "Quillfeather Retail", "Tamsworth Energy",
           "Norlund Health Trust", "Pellinore Insurance"]
S, DA, TE, PC, OP, BS = PRACTICES
# name: (title, practice, office, manager, salary, hired, remote, partner, skills, certifications)
PEOPLE = {
    "Margit Ellingsen": ("Managing Partner", S, "Brennhaven", None, 310000, "2006-03-01", False, True,
                         [], []),
    "Henrik Dalgaard": ("Partner", S, "Brennhaven", "Margit Ellingsen", 245000, "2009-09-14", False, True,
                        [], []),
    "Bruno Castellanos": ("Principal", S, "Brennhaven", "Henrik Dalgaard", 168000, "2013-05-06", False, False,
                          ["Financial Modelling"], ["PRINCE2 Practitioner"]),
    "Kim Sorvik": ("Manager", S, "Brennhaven", "Bruno Castellanos", 128000, "2016-08-22", False, False,
                   ["Financial Modelling"], []),
    "Esther Wakeling": ("Senior Consultant", S, "Solvara", "Kim Sorvik", 96000, "2019-01-14", False, False,
                        ["Power BI"], []),
    "Felix Ardenne": ("Consultant", S, "Marrowick", "Kim Sorvik", 78000, "2021-09-06", True, False, [], []),
    "Nadia Qureshi": ("Analyst", S, "Brennhaven", "Bruno Castellanos", 61000, "2023-09-11", False, False,
                      ["SQL"], []),
    "Ottilie Brandvold": ("Partner", DA, "Solvara", "Margit Ellingsen", 238000, "2011-01-10", False, True,
                          [], []),
    "Tom Achterberg": ("Principal", DA, "Solvara", "Ottilie Brandvold", 171000, "2014-04-07", False, False,
                       ["Python"], ["AWS Certified Solutions Architect"]),
    "Alice Verhoeven": ("Manager", DA, "Solvara", "Tom Achterberg", 131000, "2017-03-13", False, False,
                        ["Power BI"], []),
    "Priya Ramaswell": ("Senior Consultant", DA, "Solvara", "Alice Verhoeven", 98000, "2018-10-01", False, False,
                        ["Python"], []),
    "Jonas Kettleby": ("Consultant", DA, "Solvara", "Alice Verhoeven", 76000, "2021-02-15", True, False,
                       ["Python"], []),
    "Mei Lindahl": ("Data Scientist", DA, "Brennhaven", "Tom Achterberg", 112000, "2019-06-03", True, False,
                    ["Python", "SQL"], []),
    "Rafael Quintero": ("Data Engineer", DA, "Marrowick", "Alice Verhoeven", 104000, "2020-01-20", True, False,
                        ["Python"], ["AWS Certified Solutions Architect"]),
    "Yusra Benhali": ("Analyst", DA, "Solvara", "Priya Ramaswell", 62000, "2023-02-06", False, False, ["SQL"], []),
    "Dmitri Havlik": ("Senior Data Engineer", DA, "Brennhaven", "Tom Achterberg", 118000, "2018-04-16", False, False,
                      ["SQL"], []),
    "Desmond Pryce": ("Analyst", DA, "Solvara", "Mei Lindahl", 58000, "2024-09-02", False, False, [], []),
    "Lucius Farrant": ("Partner", TE, "Brennhaven", "Margit Ellingsen", 241000, "2010-05-03", False, True,
                       [], ["AWS Certified Solutions Architect"]),
    "Gideon Strand": ("Principal", TE, "Marrowick", "Lucius Farrant", 165000, "2012-11-19", False, False,
                      ["Java"], ["Certified Scrum Master"]),
    "Hana Kowalczyk": ("Manager", TE, "Marrowick", "Gideon Strand", 127000, "2015-09-28", False, False,
                       ["Agile Delivery"], ["Certified Scrum Master"]),
    "Oscar Penhallow": ("Senior Consultant", TE, "Marrowick", "Hana Kowalczyk", 99000, "2018-02-05", False, False,
                        ["Python", "Java", "Cloud Architecture"], []),
    "Leona Fairweather": ("Consultant", TE, "Marrowick", "Hana Kowalczyk", 79000, "2020-10-12", True, False,
                          ["Agile Delivery"], ["Certified Scrum Master"]),
    "Viktor Almqvist": ("Solution Architect", TE, "Brennhaven", "Lucius Farrant", 152000, "2011-06-27", False, False,
                        ["Cloud Architecture"], ["AWS Certified Solutions Architect"]),
    "Zara Mbeki": ("Consultant", TE, "Brennhaven", "Viktor Almqvist", 81000, "2020-03-09", False, False,
                   ["Cloud Architecture"], []),
    "Matteo Greaves": ("Consultant", TE, "Tellisport", "Viktor Almqvist", 77000, "2022-05-16", True, False,
                       ["Java"], []),
    "Wren Castellane": ("Partner", PC, "Marrowick", "Margit Ellingsen", 229000, "2012-02-20", False, True,
                        [], []),
    "Ingrid Sallow": ("Principal", PC, "Marrowick", "Wren Castellane", 158000, "2014-10-13", False, False,
                      ["Change Management"], ["PRINCE2 Practitioner"]),
    "Theo Marchbank": ("Manager", PC, "Marrowick", "Ingrid Sallow", 124000, "2017-07-03", False, False,
                       ["Change Management", "Agile Delivery"], []),
    "Clara Dunmore": ("Senior Consultant", PC, "Brennhaven", "Theo Marchbank", 94000, "2019-04-23", True, False,
                      ["Change Management"], []),
    "Samir Haddou": ("Consultant", PC, "Marrowick", "Theo Marchbank", 74000, "2022-01-10", False, False,
                     ["Change Management"], []),
    "Elin Ravensworth": ("Analyst", PC, "Tellisport", "Ingrid Sallow", 60000, "2024-03-04", False, False,
                         ["Power BI"], []),
    "Sabine Okoro": ("Partner", OP, "Tellisport", "Margit Ellingsen", 226000, "2013-07-01", False, True,
                     [], ["Lean Six Sigma Black Belt"]),
    "Marcus Thorne": ("Principal", OP, "Tellisport", "Sabine Okoro", 155000, "2015-03-16", False, False,
                      ["Process Improvement"], ["Lean Six Sigma Black Belt"]),
    "Greta Vallin": ("Manager", OP, "Tellisport", "Marcus Thorne", 122000, "2016-11-07", False, False,
                     ["Process Improvement", "Power BI"], ["PRINCE2 Practitioner"]),
    "Kofi Aldana": ("Senior Consultant", OP, "Tellisport", "Greta Vallin", 92000, "2019-08-19", False, False,
                    ["Process Improvement"], []),
    "Lena Brightwater": ("Consultant", OP, "Tellisport", "Greta Vallin", 73000, "2021-06-07", True, False,
                         ["SQL"], []),
    "Paulo Serrano": ("Analyst", OP, "Solvara", "Marcus Thorne", 59000, "2023-05-22", False, False, [], []),
    "Ruth Ashcombe": ("Head of Business Services", BS, "Brennhaven", "Margit Ellingsen", 149000, "2008-02-11",
                      False, False, [], []),
    "Nils Faraday": ("HR Business Partner", BS, "Brennhaven", "Ruth Ashcombe", 88000, "2017-01-09", False, False,
                     [], []),
    "Annika Lowe": ("Finance Controller", BS, "Solvara", "Ruth Ashcombe", 101000, "2015-01-19", False, False,
                    [], ["Chartered Accountant"]),
}
# project: (record id, client, lead, other members, start date, budget, status)
PROJECTS = {
    "Halvorsen Route Optimisation": ("PRJ-2024-01", "Halvorsen Shipping", "Tom Achterberg",
                                     ["Mei Lindahl", "Jonas Kettleby", "Rafael Quintero"], "2024-02-05", 420000,
                                     "Active"),
    "Brightmoor Risk Dashboard": ("PRJ-2023-03", "Brightmoor Bank", "Alice Verhoeven",
                                  ["Priya Ramaswell", "Yusra Benhali", "Jonas Kettleby"], "2023-06-12", 280000,
                                  "Completed"),
    "Brightmoor Core Banking Review": ("PRJ-2024-03", "Brightmoor Bank", "Gideon Strand",
                                       ["Hana Kowalczyk", "Oscar Penhallow"], "2024-04-15", 610000, "Active"),
    "Brightmoor Branch Restructure": ("PRJ-2022-05", "Brightmoor Bank", "Bruno Castellanos",
                                      ["Kim Sorvik", "Esther Wakeling"], "2022-10-03", 350000, "Completed"),
    "Quillfeather Loyalty Analytics": ("PRJ-2024-05", "Quillfeather Retail", "Tom Achterberg",
                                       ["Dmitri Havlik", "Desmond Pryce"], "2024-09-16", 190000, "Active"),
    "Quillfeather Store Operations": ("PRJ-2023-06", "Quillfeather Retail", "Marcus Thorne",
                                      ["Greta Vallin", "Kofi Aldana", "Lena Brightwater"], "2023-11-06", 240000,
                                      "On hold"),
    "Tamsworth Grid Strategy": ("PRJ-2024-02", "Tamsworth Energy", "Henrik Dalgaard",
                                ["Kim Sorvik", "Felix Ardenne", "Nadia Qureshi"], "2024-01-08", 520000, "Active"),
    "Tamsworth Cloud Migration": ("PRJ-2023-01", "Tamsworth Energy", "Viktor Almqvist",
                                  ["Zara Mbeki", "Matteo Greaves"], "2023-03-20", 760000, "Completed"),
    "Norlund Patient Flow": ("PRJ-2024-04", "Norlund Health Trust", "Ingrid Sallow",
                             ["Theo Marchbank", "Clara Dunmore", "Paulo Serrano"], "2024-05-27", 310000, "Active"),
    "Pellinore Claims Automation": ("PRJ-2022-02", "Pellinore Insurance", "Theo Marchbank",
                                    ["Samir Haddou", "Leona Fairweather", "Mei Lindahl"], "2022-03-14", 450000,
                                    "Completed"),
}

# ----------------------------------------------------------------- triples
T = []  # (subject N, predicate local name or prefixed name, object N / literal)
def add(s, p, o): T.append((s, p, o))

for c, l in CLASSES:
    add(N(c), "rdf:type", N("rdfs:Class")); add(N(c), "rdfs:label", l)
for p, l, comment in PROPS:
    add(N(p), "rdf:type", N("rdf:Property")); add(N(p), "rdfs:label", l)
    if comment: add(N(p), "rdfs:comment", comment)

IDS = {}  # label -> record id, as the export numbers its records
def ent(rid, label, cls):
    n = N(rid); assert label not in IDS, label; IDS[label] = n
    add(n, "rdf:type", N(cls)); add(n, "rdfs:label", label); return n

for i, c in enumerate(CITIES, 1): ent("LOC%02d" % i, c, "City")
for i, p in enumerate(PRACTICES, 1): ent("PR%02d" % i, p, "Practice")
for i, s in enumerate(SKILLS, 1): ent("SK%02d" % i, s, "Skill")
for i, c in enumerate(CERTS, 1): ent("CERT%02d" % i, c, "Certification")
for i, c in enumerate(CLIENTS, 101): ent("C%d" % i, c, "Client")
# employee numbers go up with the hire date, as an HR system hands them out
for i, name in enumerate(sorted(PEOPLE, key=lambda x: PEOPLE[x][5]), 1001):
    ent("E%d" % i, name, "Employee")
for name, (title, prac, city, mgr, pay, hired, remote, partner, skills, certs) in PEOPLE.items():
    n = IDS[name]
    add(n, "jobTitle", title); add(n, "practice", IDS[prac]); add(n, "office", IDS[city])
    if mgr: add(n, "reportsTo", IDS[mgr])
    add(n, "annualSalary", pay); add(n, "hireDate", D(hired))
    add(n, "isRemote", remote); add(n, "isPartner", partner)
    for s in skills: add(n, "hasSkill", IDS[s])
    for c in certs: add(n, "holdsCertification", IDS[c])
for name, (rid, client, lead, others, start, budget, status) in sorted(PROJECTS.items(), key=lambda x: x[1][0]):
    n = ent(rid, name, "Project")
    add(n, "client", IDS[client]); add(n, "projectLead", IDS[lead])
    for m in [lead] + others: add(n, "teamMember", IDS[m])
    add(n, "startDate", D(start)); add(n, "budget", budget); add(n, "status", status)

# sanity: no duplicate triples, every IRI object declared, one boss, no cycles, unique first names, plausible data
assert len(set(T)) == len(T)
subjects = {s for s, _, _ in T}
for s, p, o in T:
    if isinstance(o, N) and ":" not in o:
        assert o in subjects, o
assert len(PEOPLE) == 40
firsts = [x.split()[0] for x in PEOPLE]
assert len(firsts) == len(set(firsts)), firsts
for name, row in PEOPLE.items():
    seen, m = {name}, row[3]
    while m:
        assert m not in seen, name; seen.add(m); m = PEOPLE[m][3]
    assert row[3] is None or D(PEOPLE[row[3]][5]) < D(row[5]), name
    assert row[7] == ("Partner" in row[0] and "Business" not in row[0]), name
for name, (rid, client, lead, others, start, budget, status) in PROJECTS.items():
    assert lead not in others and len(set(others)) == len(others), name
    assert rid[4:8] == start[:4] and name.split()[0] == client.split()[0], name

# ----------------------------------------------------------------- Turtle
def lit(o):
    if isinstance(o, N): return o if ":" in o else ":" + o
    if isinstance(o, bool): return "true" if o else "false"
    if isinstance(o, int): return str(o)
    if isinstance(o, dt.date): return '"%s"^^xsd:date' % o.isoformat()
    return '"%s"' % o.replace("\\", "\\\\").replace('"', '\\"')

def pred(p): return "a" if p == "rdf:type" else (p if ":" in p else ":" + p)

lines = ["# Ellingsen Dalgaard Advisory - staffing and HR export", "",
         "@prefix : <%s> ." % BASE,
         "@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .",
         "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
         "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .", ""]
order = []
for s, _, _ in T:
    if s not in order: order.append(s)
for s in order:
    po = [(p, o) for ss, p, o in T if ss == s]
    body = " ;\n    ".join("%s %s" % (pred(p), lit(o)) for p, o in po)
    lines.append("%s %s .\n" % (lit(s), body))
ttl_path = os.path.join(OUT, "consultancy.ttl")
with open(ttl_path, "w", encoding="utf-8") as f:
    f.write("\n".join(lines))

PREFIX = {"rdf": RDF, "rdfs": RDFS}
def iri(n):
    if ":" in n:
        pre, local = n.split(":", 1); return PREFIX[pre][local]
    return EX[n]
def rdf_obj(o):
    if isinstance(o, N): return iri(o)
    if isinstance(o, bool): return Literal(o, datatype=XSD.boolean)
    if isinstance(o, int): return Literal(o, datatype=XSD.integer)
    if isinstance(o, dt.date): return Literal(o.isoformat(), datatype=XSD.date)
    return Literal(o)
g = Graph()
for s, p, o in T: g.add((iri(s), iri(p), rdf_obj(o)))
back_g = Graph(); back_g.parse(ttl_path, format="turtle")
assert len(g) == len(T) == len(back_g), (len(g), len(T), len(back_g))
assert back_g.isomorphic(g)

# ----------------------------------------------------------------- queries over T
schema = {N(c) for c, _ in CLASSES} | {N(p[0]) for p in PROPS}
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
def arg(ents, key, best):
    vals = {e: key(e) for e in ents}
    b = best(vals.values())
    win = [e for e in ents if vals[e] == b]
    assert len(win) == 1, win  # superlatives must have one clear winner
    return win
def val(p): return lambda e: one(e, p)
def fmt(v):
    if isinstance(v, N): return LAB[v]
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, dt.date): return v.isoformat()
    return str(v)

staff, projects, practices = typed("Employee"), typed("Project"), typed("Practice")
def person(first):  # the one employee with that first name
    hits = [e for e in staff if LAB[e].split()[0] == first]
    assert len(hits) == 1, first; return hits[0]
def boss(xs): return hop(xs, "reportsTo")
def team(label): return subs("practice", E(label))
def remote(e): return one(e, "isRemote") is True
def partner(e): return one(e, "isPartner") is True
def led_by(first): return subs("projectLead", person(first))
def project_of(word):  # the one project whose name starts with the client's name
    hits = [p for p in projects if LAB[p].lower().startswith(word.lower())]
    assert len(hits) == 1, word; return hits[0]
def worked_on(e): return subs("teamMember", e)

Q = [
  # ---- one hop, first names only, both directions
  ("who does Alice report to?", boss([person("Alice")])),
  ("Who manages Bruno?", boss([person("Bruno")])),
  ("whos on the Halvorson project", objs(project_of("Halvorsen"), "teamMember")),
  ("Who works in Tellisport?", subs("office", E("Tellisport"))),
  ("what's Kim's job title?", objs(person("Kim"), "jobTitle")),
  ("When did Esther join the company?", objs(person("Esther"), "hireDate")),
  ("is Kim a partner?", objs(person("Kim"), "isPartner")),
  ("Is Nils a partner?", objs(person("Nils"), "isPartner")),
  ("does Rafael work remotely?", objs(person("Rafael"), "isRemote")),
  ("what skils does Oscar have?", objs(person("Oscar"), "hasSkill")),
  ("which team is Samir in", objs(person("Samir"), "practice")),
  ("Who reports to Hana?", subs("reportsTo", person("Hana"))),
  ("what's the budget for the Tamsworth cloud migration?", objs(E("Tamsworth Cloud Migration"), "budget")),
  ("Which projects does Tom leed?", led_by("Tom")),
  ("Which projects are on hold at the moment?", subs("status", "On hold")),
  # ---- two hops
  ("Who's Priya's boss's boss?", boss(boss([person("Priya")]))),
  ("which office is Mei's manager based in?", hop(boss([person("Mei")]), "office")),
  ("Who leads the projects Kim is working on?", hop(worked_on(person("Kim")), "projectLead")),
  ("Which clients has Jonas done work for?", hop(worked_on(person("Jonas")), "client")),
  ("What skills does the Norlund project team have?", hop(objs(project_of("Norlund"), "teamMember"), "hasSkill")),
  ("who else reports to Gideon's manager?",
     [e for e in back(boss([person("Gideon")]), "reportsTo") if e != person("Gideon")]),
  ("Who on the Halvorsen project has an AWS certification?",
     [e for e in objs(project_of("Halvorsen"), "teamMember")
      if E("AWS Certified Solutions Architect") in objs(e, "holdsCertification")]),
  # ---- three hops
  ("Who is Desmond's boss's boss's boss?", boss(boss(boss([person("Desmond")])))),
  ("Which cities are the people on Tom's projects based in?",
     hop(hop(led_by("Tom"), "teamMember"), "office")),
  ("which clients has the people and change team worked with?",
     hop(back(team("People & Change"), "teamMember"), "client")),
  # ---- counts
  ("How many people are in the data team?", [len(team("Data & Analytics"))]),
  ("How many people report directly to Margit?", [len(subs("reportsTo", person("Margit")))]),
  ("how many projects have we done for Brightmoor Bank?", [len(subs("client", E("Brightmoor Bank")))]),
  ("How many staff work remotely?", [len([e for e in staff if remote(e)])]),
  # ---- superlatives
  ("Who earns the most?", arg(staff, val("annualSalary"), max)),
  ("who joined most recently", arg(staff, val("hireDate"), max)),
  ("Which project has the biggest budget?", arg(projects, val("budget"), max)),
  ("Who has been in the Technology practice the longest?", arg(team("Technology"), val("hireDate"), min)),
  ("Who's the lowest paid person in Operations?", arg(team("Operations"), val("annualSalary"), min)),
  ("Which team is the biggest?", arg(practices, lambda p: len(subs("practice", p)), max)),
  ("Who is the best paid person who isn't a partner?",
     arg([e for e in staff if not partner(e)], val("annualSalary"), max)),
  # ---- comparisons with numbers and dates
  ("Who was hired before 2010?", [e for e in staff if one(e, "hireDate") < D("2010-01-01")]),
  ("which projects started in 2024?", [p for p in projects if one(p, "startDate").year == 2024]),
  ("Which active projects have a budget over 400k?",
     [p for p in projects if one(p, "status") == "Active" and one(p, "budget") > 400000]),
  # ---- flags, negation and two conditions
  ("Which remote staff know Python?", [e for e in staff if remote(e) and E("Python") in objs(e, "hasSkill")]),
  ("people in Solvara who don't have anyone reporting to them",
     [e for e in subs("office", E("Solvara")) if not subs("reportsTo", e)]),
  ("Which partners are based in Brennhaven?", [e for e in subs("office", E("Brennhaven")) if partner(e)]),
  ("which clients have more than two projects", [c for c in typed("Client") if len(subs("client", c)) > 2]),
  ("who in strategy joined after 2018?", [e for e in team("Strategy") if one(e, "hireDate") > D("2018-12-31")]),
  ("Who earns over 150k but isn't a partner?",
     [e for e in staff if one(e, "annualSalary") > 150000 and not partner(e)]),
]
assert len(Q) == 45, len(Q)
# 40 people with ten fields each are ~400 triples on their own, so the file is larger than the other probes
assert 250 <= len(T) <= 700, len(T)
with open(os.path.join(OUT, "consultancy_q.jsonl"), "w", encoding="utf-8") as f:
    for i, (text, ans) in enumerate(Q):
        ans = [fmt(a) for a in ans]
        assert 1 <= len(ans) <= 10, (text, ans)
        assert len(ans) == len(set(ans)), (text, ans)
        f.write(json.dumps({"id": "consultancy-%d" % i, "question": text, "answers": ans}) + "\n")

print("triples:", len(T), "questions:", len(Q))
print("classes:", ", ".join(l for _, l in CLASSES))
print("properties:", ", ".join(p[1] for p in PROPS))
