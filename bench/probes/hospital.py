"""Made-up regional hospital network KG + blind test questions.
All gold answers are computed from the emitted triples (stdlib only)."""
import datetime as dt, json, os, re

import sys

OUT = sys.argv[1] if len(sys.argv) > 1 else "."  # the folder to write into
os.makedirs(OUT, exist_ok=True)
BASE = "http://example.org/hosp/"
D = dt.date.fromisoformat

# ----------------------------------------------------------------- schema
CLASSES = [("Hospital", "hospital"), ("Department", "department"), ("Doctor", "doctor"),
           ("Nurse", "nurse"), ("Patient", "patient"), ("City", "city"),
           ("Condition", "condition"), ("Medication", "medication"),
           ("Insurer", "insurer"), ("University", "university")]
PROPS = [("worksAt", "works at"), ("belongsToDepartment", "belongs to department"),
         ("partOf", "part of"), ("specialty", "specialty"),
         ("yearsOfExperience", "years of experience"), ("onCall", "on call"),
         ("trainedAt", "trained at"), ("supervises", "supervises"),
         ("headOfDepartment", "head of department"), ("locatedIn", "located in"),
         ("capacity", "capacity"), ("founded", "founded"),
         ("acceptsWalkIns", "accepts walk-ins"), ("born", "born"),
         ("treatedBy", "treated by"), ("diagnosedWith", "diagnosed with"),
         ("admittedOn", "admitted on"), ("admittedTo", "admitted to"),
         ("insuredBy", "insured by"), ("prescribed", "prescribed"),
         ("treats", "treats"), ("assignedTo", "assigned to")]

# ----------------------------------------------------------------- data
CITIES = ["Norrby", "Kessel", "Valmont", "Brisk", "Osterhavn"]
UNIVERSITIES = {"Kessel Medical School": "Kessel", "Valmont University": "Valmont",
                "Royal College of Osterhavn": "Osterhavn"}
# name: (city, beds, founded, walk-ins)
HOSPITALS = {
    "St Ann Hospital": ("Norrby", 350, 1921, True),
    "Kessel General Hospital": ("Kessel", 420, 1898, True),
    "Riverside Clinic": ("Kessel", 120, 1975, False),
    "Valmont University Hospital": ("Valmont", 510, 1952, True),
    "Norrby Children's Hospital": ("Norrby", 180, 1963, False),
    "Brisk Community Hospital": ("Brisk", 90, 2004, True),
}
DEPARTMENTS = {
    "St Ann Cardiology": "St Ann Hospital",
    "St Ann Emergency": "St Ann Hospital",
    "Kessel General Oncology": "Kessel General Hospital",
    "Kessel General Orthopedics": "Kessel General Hospital",
    "Kessel General Emergency": "Kessel General Hospital",
    "Riverside Dermatology": "Riverside Clinic",
    "Valmont Neurology": "Valmont University Hospital",
    "Valmont Cardiology": "Valmont University Hospital",
    "Norrby Pediatrics": "Norrby Children's Hospital",
    "Brisk General Medicine": "Brisk Community Hospital",
}
# name: (department, specialty, years, on call, trained at, supervisor)
DOCTORS = {
    "Maria Chen": ("St Ann Cardiology", "cardiology", 22, True, "Valmont University", None),
    "Tomas Ruiz": ("St Ann Cardiology", "cardiology", 8, False, "Kessel Medical School", "Maria Chen"),
    "Ingrid Holm": ("St Ann Emergency", "emergency medicine", 15, True, "Royal College of Osterhavn", None),
    "Pavel Novak": ("Kessel General Oncology", "oncology", 27, False, "Valmont University", None),
    "Leila Haddad": ("Kessel General Oncology", "oncology", 6, True, "Kessel Medical School", "Pavel Novak"),
    "Oscar Lindqvist": ("Kessel General Orthopedics", "orthopedics", 19, False, "Kessel Medical School", None),
    "Amara Okafor": ("Kessel General Emergency", "emergency medicine", 11, True, "Royal College of Osterhavn", None),
    "Felix Brandt": ("Riverside Dermatology", "dermatology", 14, False, "Valmont University", None),
    "Sofia Marin": ("Valmont Neurology", "neurology", 31, False, "Valmont University", None),
    "Kenji Watanabe": ("Valmont Neurology", "neurology", 4, True, "Valmont University", "Sofia Marin"),
    "Elena Petrova": ("Valmont Cardiology", "cardiology", 17, True, "Royal College of Osterhavn", "Sofia Marin"),
    "Hugo Dahl": ("Norrby Pediatrics", "pediatrics", 24, False, "Kessel Medical School", None),
    "Nadia Farouk": ("Brisk General Medicine", "general medicine", 9, True, "Royal College of Osterhavn", None),
}
HEADS = {"St Ann Cardiology": "Maria Chen", "St Ann Emergency": "Ingrid Holm",
         "Kessel General Oncology": "Pavel Novak", "Kessel General Orthopedics": "Oscar Lindqvist",
         "Kessel General Emergency": "Amara Okafor", "Riverside Dermatology": "Felix Brandt",
         "Valmont Neurology": "Sofia Marin", "Valmont Cardiology": "Elena Petrova",
         "Norrby Pediatrics": "Hugo Dahl", "Brisk General Medicine": "Nadia Farouk"}
# name: (department, years)
NURSES = {"Greta Sund": ("St Ann Cardiology", 12), "Jonas Eklund": ("St Ann Emergency", 5),
          "Priya Nair": ("Kessel General Oncology", 9), "Lucas Moreau": ("Kessel General Emergency", 3),
          "Hanna Kowalski": ("Valmont Neurology", 20), "Rafael Costa": ("Norrby Pediatrics", 7)}
CONDITIONS = ["Atrial fibrillation", "Hypertension", "Lung cancer", "Breast cancer",
              "Fractured femur", "Osteoarthritis", "Asthma", "Parkinson's disease",
              "Migraine", "Psoriasis", "Type 2 diabetes"]
MEDICATIONS = {"Apixaban": ["Atrial fibrillation"], "Lisinopril": ["Hypertension"],
               "Cisplatin": ["Lung cancer"], "Tamoxifen": ["Breast cancer"],
               "Ibuprofen": ["Fractured femur", "Osteoarthritis"], "Salbutamol": ["Asthma"],
               "Levodopa": ["Parkinson's disease"], "Sumatriptan": ["Migraine"],
               "Methotrexate": ["Psoriasis"], "Metformin": ["Type 2 diabetes"]}
INSURERS = ["Nordic Mutual", "Careline Health", "Brightway Insurance"]
# name: (born, doctor, condition, admitted on, insurer, medication)
PATIENTS = {
    "Tom Berg": ("1958-06-12", "Tomas Ruiz", "Atrial fibrillation", "2024-02-10", "Nordic Mutual", "Apixaban"),
    "Alice Ferreira": ("1990-11-03", "Maria Chen", "Hypertension", "2023-09-21", "Careline Health", "Lisinopril"),
    "Bruno Sato": ("1972-01-29", "Pavel Novak", "Lung cancer", "2023-05-14", "Nordic Mutual", "Cisplatin"),
    "Clara Jensen": ("1985-07-07", "Leila Haddad", "Breast cancer", "2024-03-02", "Careline Health", "Tamoxifen"),
    "David Olsen": ("2001-04-18", "Oscar Lindqvist", "Fractured femur", "2024-01-15", "Brightway Insurance", "Ibuprofen"),
    "Eva Lund": ("1949-12-25", "Oscar Lindqvist", "Osteoarthritis", "2023-11-30", "Nordic Mutual", "Ibuprofen"),
    "Farid Aziz": ("1995-08-08", "Amara Okafor", "Asthma", "2024-04-22", "Brightway Insurance", "Salbutamol"),
    "Helga Moen": ("1938-03-14", "Sofia Marin", "Parkinson's disease", "2023-02-08", "Careline Health", "Levodopa"),
    "Ivo Klein": ("1966-10-10", "Kenji Watanabe", "Migraine", "2024-05-05", "Brightway Insurance", "Sumatriptan"),
    "Julia Weiss": ("1979-02-17", "Elena Petrova", "Hypertension", "2023-12-12", "Nordic Mutual", "Lisinopril"),
    "Karl Nyberg": ("2015-09-09", "Hugo Dahl", "Asthma", "2024-01-03", "Careline Health", "Salbutamol"),
    "Lina Vogel": ("2018-06-30", "Hugo Dahl", "Asthma", "2023-10-19", "Nordic Mutual", "Salbutamol"),
    "Mateo Rossi": ("1988-05-01", "Felix Brandt", "Psoriasis", "2023-07-25", "Brightway Insurance", "Methotrexate"),
    "Nora Hall": ("1961-03-23", "Maria Chen", "Atrial fibrillation", "2024-02-28", "Careline Health", "Apixaban"),
    "Otto Grimm": ("1953-08-16", "Nadia Farouk", "Type 2 diabetes", "2023-08-03", "Nordic Mutual", "Metformin"),
    "Pia Sorensen": ("1999-01-11", "Ingrid Holm", "Migraine", "2024-06-01", "Brightway Insurance", "Sumatriptan"),
}

# ----------------------------------------------------------------- triples
class N(str):
    """An IRI node (local name); plain str/int/bool/date are literals."""

def node(label):
    local = label.replace(" ", "_").replace("'", "")
    assert re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", local), local
    return N(local)

T = []          # (subject N, predicate local-or-'rdf:type'/'rdfs:label', object)
def add(s, p, o): T.append((s, p, o))

for c, l in CLASSES:
    add(N(c), "rdf:type", N("rdfs:Class")); add(N(c), "rdfs:label", l)
for p, l in PROPS:
    add(N(p), "rdf:type", N("rdf:Property")); add(N(p), "rdfs:label", l)

def ent(label, cls):
    n = node(label); add(n, "rdf:type", N(cls)); add(n, "rdfs:label", label); return n

for c in CITIES: ent(c, "City")
for u, c in UNIVERSITIES.items():
    add(ent(u, "University"), "locatedIn", node(c))
for h, (c, beds, year, walk) in HOSPITALS.items():
    n = ent(h, "Hospital")
    add(n, "locatedIn", node(c)); add(n, "capacity", beds)
    add(n, "founded", year); add(n, "acceptsWalkIns", walk)
for d, h in DEPARTMENTS.items():
    add(ent(d, "Department"), "partOf", node(h))
for doc, (dep, spec, yrs, oncall, uni, sup) in DOCTORS.items():
    n = ent(doc, "Doctor")
    add(n, "worksAt", node(DEPARTMENTS[dep])); add(n, "belongsToDepartment", node(dep))
    add(n, "specialty", spec); add(n, "yearsOfExperience", yrs)
    add(n, "onCall", oncall); add(n, "trainedAt", node(uni))
for doc, (dep, spec, yrs, oncall, uni, sup) in DOCTORS.items():
    if sup: add(node(sup), "supervises", node(doc))
for dep, doc in HEADS.items():
    add(node(doc), "headOfDepartment", node(dep))
for nu, (dep, yrs) in NURSES.items():
    n = ent(nu, "Nurse"); add(n, "assignedTo", node(dep)); add(n, "yearsOfExperience", yrs)
for c in CONDITIONS: ent(c, "Condition")
for m, conds in MEDICATIONS.items():
    n = ent(m, "Medication")
    for c in conds: add(n, "treats", node(c))
for i in INSURERS: ent(i, "Insurer")
for p, (born, doc, cond, adm, ins, med) in PATIENTS.items():
    n = ent(p, "Patient")
    add(n, "born", D(born)); add(n, "treatedBy", node(doc)); add(n, "diagnosedWith", node(cond))
    add(n, "admittedOn", D(adm)); add(n, "admittedTo", node(DEPARTMENTS[DOCTORS[doc][0]]))
    add(n, "insuredBy", node(ins)); add(n, "prescribed", node(med))

# sanity: every IRI object is declared; unique labels; unique people first names
subjects = {s for s, _, _ in T}
for s, p, o in T:
    if isinstance(o, N) and not o.startswith(("rdf:", "rdfs:")):
        assert o in subjects, o
labels = [o for s, p, o in T if p == "rdfs:label" and s not in dict(PROPS) and s not in dict(CLASSES)]
assert len(labels) == len(set(labels))
people = list(DOCTORS) + list(NURSES) + list(PATIENTS)
firsts = [x.split()[0] for x in people]
assert len(firsts) == len(set(firsts)), firsts

# ----------------------------------------------------------------- turtle
def lit(o):
    if isinstance(o, N):
        return o if ":" in o else ":" + o
    if isinstance(o, bool): return "true" if o else "false"
    if isinstance(o, int): return str(o)
    if isinstance(o, dt.date): return '"%s"^^xsd:date' % o.isoformat()
    return '"%s"' % o.replace("\\", "\\\\").replace('"', '\\"')

def pred(p):
    return "a" if p == "rdf:type" else (p if ":" in p else ":" + p)

lines = ["@base <%s> ." % BASE,
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
with open(os.path.join(OUT, "hospital.ttl"), "w") as f:
    f.write("\n".join(lines))

# ----------------------------------------------------------------- queries over T
LAB = {s: o for s, p, o in T if p == "rdfs:label"}
BYLAB = {v: k for k, v in LAB.items()}
def E(label): return BYLAB[label]
def objs(s, p): return [o for ss, pp, o in T if ss == s and pp == p]
def one(s, p):
    v = objs(s, p); assert len(v) == 1, (s, p, v); return v[0]
def subs(p, o): return [s for s, pp, oo in T if pp == p and oo == o]
def typed(c): return subs("rdf:type", N(c))
def flat(xs): return [y for x in xs for y in x]
def uniq(xs):
    out = []
    for x in xs:
        if x not in out: out.append(x)
    return out
def arg(ents, p, best):
    vals = {e: one(e, p) for e in ents}
    b = best(vals.values())
    return [e for e in ents if vals[e] == b]
def fmt(v):
    if isinstance(v, N): return LAB[v]
    if isinstance(v, bool): return "true" if v else "false"
    if isinstance(v, dt.date): return v.isoformat()
    return str(v)

doctors, patients, hospitals = typed("Doctor"), typed("Patient"), typed("Hospital")
def hosp_city(h): return one(h, "locatedIn")

Q = [
  # ---- one-step
  ("Who is Alice Ferreira's doctor?", objs(E("Alice Ferreira"), "treatedBy")),
  ("where does dr chen work", objs(E("Maria Chen"), "worksAt")),
  ("What is Tom Berg sufering from?", objs(E("Tom Berg"), "diagnosedWith")),
  ("Which hospital is in Brisk?", [h for h in hospitals if hosp_city(h) == E("Brisk")]),
  ("Which patients does Dr. Hugo Dahl look after?", subs("treatedBy", E("Hugo Dahl"))),
  ("What drug was Bruno Sato put on?", objs(E("Bruno Sato"), "prescribed")),
  ("What medicine is used for asthma?", subs("treats", E("Asthma"))),
  ("When was Helga born?", objs(E("Helga Moen"), "born")),
  ("How many beds does Riverside Clinic have?", objs(E("Riverside Clinic"), "capacity")),
  ("Which insurance company covers Farid Aziz?", objs(E("Farid Aziz"), "insuredBy")),
  ("What kind of doctor is Felix Brandt?", objs(E("Felix Brandt"), "specialty")),
  ("Who has been diagnosed with migraine?", subs("diagnosedWith", E("Migraine"))),
  # ---- two-step
  ("Which city is the hospital where Alice Ferreira's doctor works in?",
     uniq(hosp_city(h) for d in objs(E("Alice Ferreira"), "treatedBy") for h in objs(d, "worksAt"))),
  ("Where did the doctor treating Eva Lund study medicine?",
     uniq(flat(objs(d, "trainedAt") for d in objs(E("Eva Lund"), "treatedBy")))),
  ("What conditions do Dr. Maria Chen's patients have?",
     uniq(flat(objs(p, "diagnosedWith") for p in subs("treatedBy", E("Maria Chen"))))),
  ("Who is the supervisor of Ivo Klein's doctor?",
     uniq(flat(subs("supervises", d) for d in objs(E("Ivo Klein"), "treatedBy")))),
  ("Which nurses work in the department run by Pavel Novack?",
     uniq(flat(subs("assignedTo", dep) for dep in objs(E("Pavel Novak"), "headOfDepartment")))),
  ("What medication could help with the illness Otto Grimm has?",
     uniq(flat(subs("treats", c) for c in objs(E("Otto Grimm"), "diagnosedWith")))),
  # ---- three-step
  ("Who heads the department of the doctor treating Tom Berg?",
     uniq(flat(subs("headOfDepartment", dep) for d in objs(E("Tom Berg"), "treatedBy")
               for dep in objs(d, "belongsToDepartment")))),
  ("In which city did Lina Vogel's doctor get their medical training?",
     uniq(one(u, "locatedIn") for d in objs(E("Lina Vogel"), "treatedBy") for u in objs(d, "trainedAt"))),
  ("What drugs have been prescribed to patients of the St Ann Cardiology doctors?",
     uniq(flat(objs(p, "prescribed") for d in subs("belongsToDepartment", E("St Ann Cardiology"))
               for p in subs("treatedBy", d)))),
  ("Which patients are seen by doctors who trained at a school in Osterhavn?",
     uniq(p for u in subs("locatedIn", E("Osterhavn")) if u in typed("University")
          for d in subs("trainedAt", u) for p in subs("treatedBy", d))),
  # ---- counts
  ("How many patients does Dr. Lindqvist have?", [len(subs("treatedBy", E("Oscar Lindqvist")))]),
  ("How many hospitals are there in the network?", [len(hospitals)]),
  ("How many doctors are on staff at Kessel General?",
     [len([d for d in subs("worksAt", E("Kessel General Hospital")) if d in doctors])]),
  ("how many people have asthma", [len(subs("diagnosedWith", E("Asthma")))]),
  # ---- superlatives
  ("Which hospital has the most beds?", arg(hospitals, "capacity", max)),
  ("Who is the most experienced doctor?", arg(doctors, "yearsOfExperience", max)),
  ("Who was admitted most recently?", arg(patients, "admittedOn", max)),
  ("What is the oldest hospital in Kessel?",
     arg([h for h in hospitals if hosp_city(h) == E("Kessel")], "founded", min)),
  ("Who is the oldest patient?", arg(patients, "born", min)),
  # ---- comparisons / filters
  ("Which hospitals have more than 300 beds?", [h for h in hospitals if one(h, "capacity") > 300]),
  ("patients admitted after 1 March 2024", [p for p in patients if one(p, "admittedOn") > D("2024-03-01")]),
  ("doctors with over 20 years of experience", [d for d in doctors if one(d, "yearsOfExperience") > 20]),
  ("Which patients were born before 1960?", [p for p in patients if one(p, "born") < D("1960-01-01")]),
  # ---- boolean filters / negation
  ("Which hospitals take walk-in patients?", [h for h in hospitals if one(h, "acceptsWalkIns") is True]),
  ("Which doctors are not on call?", [d for d in doctors if one(d, "onCall") is False]),
  ("Which doctors in Norrby are on call right now?",
     [d for d in doctors if one(d, "onCall") is True and hosp_city(one(d, "worksAt")) == E("Norrby")]),
  # ---- conjunctions
  ("Which doctors work at St Ann and specialise in cardiology?",
     [d for d in doctors if one(d, "worksAt") == E("St Ann Hospital") and one(d, "specialty") == "cardiology"]),
  ("Which Nordic Mutual customers have asthma?",
     [p for p in patients if one(p, "insuredBy") == E("Nordic Mutual") and E("Asthma") in objs(p, "diagnosedWith")]),
]
assert len(Q) == 40
with open(os.path.join(OUT, "hospital_q.jsonl"), "w") as f:
    for i, (q, ans) in enumerate(Q):
        ans = [fmt(a) for a in ans]
        assert 1 <= len(ans) <= 8, (q, ans)
        f.write(json.dumps({"id": "hospital-%d" % i, "question": q, "answers": ans}) + "\n")

assert 250 <= len(T) <= 500, len(T)
print("triples:", len(T))
print("classes:", ", ".join(l for _, l in CLASSES))
print("properties:", ", ".join(l for _, l in PROPS))
