"""Made-up open-source software KG + blind test questions. Gold answers are computed from the tables."""
import json, os
from datetime import date

import sys

HERE = sys.argv[1] if len(sys.argv) > 1 else "."  # the folder to write into
os.makedirs(HERE, exist_ok=True)

COUNTRIES = {"brazil": "Brazil", "germany": "Germany", "japan": "Japan", "canada": "Canada", "kenya": "Kenya"}
LICENSES = {"mit": "MIT", "apache2": "Apache-2.0", "gpl3": "GPL-3.0", "bsd3": "BSD-3-Clause"}
# id: (label, nationality or None)
PEOPLE = {
    "anaSouza": ("Ana Souza", "brazil"), "lukasBecker": ("Lukas Becker", "germany"),
    "yukiTanaka": ("Yuki Tanaka", "japan"), "chloeMartin": ("Chloe Martin", "canada"),
    "wanjiruKamau": ("Wanjiru Kamau", "kenya"), "mateusOliveira": ("Mateus Oliveira", "brazil"),
    "hannahVogel": ("Hannah Vogel", "germany"), "kenjiMori": ("Kenji Mori", "japan"),
    "owenFraser": ("Owen Fraser", "canada"), "amaniOtieno": ("Amani Otieno", "kenya"),
    "graydonHoare": ("Graydon Hoare", "canada"), "robertGriesemer": ("Robert Griesemer", None),
    "guidoVanRossum": ("Guido van Rossum", None), "robertoIerusalimschy": ("Roberto Ierusalimschy", "brazil"),
    "andersHejlsberg": ("Anders Hejlsberg", None), "dennisRitchie": ("Dennis Ritchie", None),
}
# id: (label, yearDesigned, designedBy)
LANGUAGES = {
    "rust": ("Rust", 2010, "graydonHoare"), "go": ("Go", 2009, "robertGriesemer"),
    "python": ("Python", 1991, "guidoVanRossum"), "lua": ("Lua", 1993, "robertoIerusalimschy"),
    "typescript": ("TypeScript", 2012, "andersHejlsberg"), "c": ("C", 1972, "dennisRitchie"),
}
# id: (label, basedIn, foundedBy)
ORGS = {
    "lumenLabs": ("Lumen Labs", "germany", "lukasBecker"),
    "kestrelSystems": ("Kestrel Systems", "canada", "chloeMartin"),
    "baobabFoundation": ("Baobab Foundation", "kenya", "wanjiruKamau"),
    "hoshiWorks": ("Hoshi Works", "japan", "yukiTanaka"),
    "ipeCollective": ("Ipe Collective", "brazil", "anaSouza"),
}
MEMBER_OF = [
    ("anaSouza", "ipeCollective"), ("mateusOliveira", "ipeCollective"),
    ("lukasBecker", "lumenLabs"), ("hannahVogel", "lumenLabs"), ("owenFraser", "lumenLabs"),
    ("yukiTanaka", "hoshiWorks"), ("kenjiMori", "hoshiWorks"),
    ("chloeMartin", "kestrelSystems"), ("owenFraser", "kestrelSystems"),
    ("wanjiruKamau", "baobabFoundation"), ("amaniOtieno", "baobabFoundation"),
]
# id: label, lang, license, maintainers, createdBy, dependsOn, stars, firstRelease, latestVersion, archived, contributors
P = ["label", "lang", "lic", "maint", "creator", "deps", "stars", "first", "ver", "archived", "contrib"]
PROJECTS = {k: dict(zip(P, v)) for k, v in {
    "tidewater":   ("Tidewater", "rust", "mit", ["anaSouza"], "anaSouza", ["ember"], 8200, "2017-05-14", "3.2.0", False, 145),
    "ember":       ("Ember", "rust", "apache2", ["lukasBecker", "hannahVogel"], "lukasBecker", ["quartzite"], 12400, "2015-09-02", "1.9.3", False, 310),
    "quartzite":   ("Quartzite", "c", "bsd3", ["hannahVogel"], "hannahVogel", [], 3100, "2011-03-20", "0.14.2", False, 48),
    "quill":       ("Quill", "go", "mit", ["yukiTanaka"], "kenjiMori", ["marrow"], 6700, "2018-11-07", "2.4.1", False, 92),
    "marrow":      ("Marrow", "go", "apache2", ["kenjiMori"], "kenjiMori", ["quartzite"], 2300, "2014-06-30", "1.1.0", True, 27),
    "pebblecast":  ("Pebblecast", "python", "mit", ["wanjiruKamau"], "wanjiruKamau", ["lanternfish"], 950, "2020-02-11", "0.6.0", False, 9),
    "lanternfish": ("Lanternfish", "python", "gpl3", ["amaniOtieno"], "amaniOtieno", ["quartzite"], 4100, "2013-08-19", "4.0.2", False, 76),
    "brindle":     ("Brindle", "typescript", "mit", ["chloeMartin"], "chloeMartin", ["wickerly"], 15300, "2019-04-03", "5.1.0", False, 420),
    "wickerly":    ("Wickerly", "typescript", "mit", ["owenFraser"], "owenFraser", [], 5400, "2016-01-25", "2.0.7", False, 130),
    "mosswood":    ("Mosswood", "lua", "mit", ["mateusOliveira"], "mateusOliveira", ["quartzite"], 1800, "2012-10-09", "1.4.5", True, 15),
    "saltmarsh":   ("Saltmarsh", "rust", "gpl3", ["hannahVogel"], "lukasBecker", ["tidewater"], 640, "2021-07-19", "0.3.1", False, 6),
    "cobblestone": ("Cobblestone", "go", "bsd3", ["chloeMartin"], "owenFraser", ["quill"], 3900, "2020-09-14", "1.0.2", False, 33),
    "driftwood":   ("Driftwood", "python", "apache2", ["anaSouza"], "mateusOliveira", ["pebblecast"], 270, "2022-03-01", "0.1.4", False, 4),
    "fernhollow":  ("Fernhollow", "c", "gpl3", ["amaniOtieno"], "hannahVogel", [], 7600, "2009-12-12", "6.3.0", True, 58),
    "glimmerjack": ("Glimmerjack", "lua", "mit", ["mateusOliveira"], "anaSouza", ["mosswood"], 420, "2016-05-05", "0.9.0", True, 7),
    "nettlebrook": ("Nettlebrook", "python", "mit", ["wanjiruKamau"], "amaniOtieno", ["lanternfish"], 2900, "2018-02-27", "2.2.2", True, 41),
    "ravenmoor":   ("Ravenmoor", "go", "apache2", ["kenjiMori"], "yukiTanaka", ["marrow", "quartzite"], 9800, "2019-10-21", "3.0.0", False, 187),
    "thistledown": ("Thistledown", "typescript", "bsd3", ["owenFraser"], "chloeMartin", ["brindle"], 1300, "2023-01-16", "0.2.0", False, 12),
}.items()}

# ---------------------------------------------------------------- triples
X = "xsd:"
triples = []  # (subject, predicate, object-as-turtle)
def lit(s): return json.dumps(s)
def add(s, p, o): triples.append((":" + s, p, o))

CLASSES = {"Project": "project", "Person": "person", "Organization": "organization",
           "Language": "programming language", "License": "license", "Country": "country"}
for c, lab in CLASSES.items():
    add(c, "a", "rdfs:Class"); add(c, "rdfs:label", lit(lab))
for k, lab in COUNTRIES.items():
    add(k, "a", ":Country"); add(k, "rdfs:label", lit(lab))
for k, lab in LICENSES.items():
    add(k, "a", ":License"); add(k, "rdfs:label", lit(lab))
for k, (lab, nat) in PEOPLE.items():
    add(k, "a", ":Person"); add(k, "rdfs:label", lit(lab))
    if nat: add(k, ":nationality", ":" + nat)
    for m, o in MEMBER_OF:
        if m == k: add(k, ":memberOf", ":" + o)
for k, (lab, yr, des) in LANGUAGES.items():
    add(k, "a", ":Language"); add(k, "rdfs:label", lit(lab))
    add(k, ":yearDesigned", str(yr)); add(k, ":designedBy", ":" + des)
for k, (lab, base, founder) in ORGS.items():
    add(k, "a", ":Organization"); add(k, "rdfs:label", lit(lab))
    add(k, ":basedIn", ":" + base); add(k, ":foundedBy", ":" + founder)
for k, p in PROJECTS.items():
    add(k, "a", ":Project"); add(k, "rdfs:label", lit(p["label"]))
    add(k, ":writtenIn", ":" + p["lang"]); add(k, ":license", ":" + p["lic"])
    for m in p["maint"]: add(k, ":maintainer", ":" + m)
    add(k, ":createdBy", ":" + p["creator"])
    for d in p["deps"]: add(k, ":dependsOn", ":" + d)
    add(k, ":stars", str(p["stars"]))
    add(k, ":firstRelease", lit(p["first"]) + "^^xsd:date")
    add(k, ":latestVersion", lit(p["ver"]))
    add(k, ":archived", "true" if p["archived"] else "false")
    add(k, ":contributors", str(p["contrib"]))

def write_ttl(path):
    out = ["@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .",
           "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .",
           "@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .",
           "@prefix : <http://example.org/oss/> .", ""]
    order, by = [], {}
    for s, p, o in triples:
        if s not in by: order.append(s); by[s] = []
        by[s].append((p, o))
    sections = [("Classes", lambda s: s[1:] in CLASSES), ("Countries", lambda s: s[1:] in COUNTRIES),
                ("Licenses", lambda s: s[1:] in LICENSES), ("People", lambda s: s[1:] in PEOPLE),
                ("Languages", lambda s: s[1:] in LANGUAGES), ("Organizations", lambda s: s[1:] in ORGS),
                ("Projects", lambda s: s[1:] in PROJECTS)]
    for title, f in sections:
        out.append("# ---- " + title)
        for s in order:
            if not f(s): continue
            po = by[s]
            lines = [f"{s} {po[0][0]} {po[0][1]}"]
            # merge repeated predicates with commas
            i = 1
            while i < len(po):
                p, o = po[i]
                if p == po[i - 1][0]: lines[-1] += f", {o}"
                else: lines.append(f"    {p} {o}")
                i += 1
            out.append(" ;\n".join(lines) + " .")
            if title != "Classes": out.append("")
        out.append("")
    with open(path, "w") as fh: fh.write("\n".join(out))

# ---------------------------------------------------------------- gold answers
def lab(k):
    for t in (PROJECTS,):
        if k in t: return t[k]["label"]
    for t in (COUNTRIES, LICENSES):
        if k in t: return t[k]
    for t in (PEOPLE, LANGUAGES, ORGS):
        if k in t: return t[k][0]
    raise KeyError(k)
def pid(label): return next(k for k, p in PROJECTS.items() if p["label"] == label)
def person(label): return next(k for k, v in PEOPLE.items() if v[0] == label)
def org(label): return next(k for k, v in ORGS.items() if v[0] == label)
def maintained_by(pk): return [k for k, p in PROJECTS.items() if pk in p["maint"]]
def dependents(k): return [j for j, p in PROJECTS.items() if k in p["deps"]]
def members(o): return [m for m, oo in MEMBER_OF if oo == o]
def orgs_of(m): return [oo for mm, oo in MEMBER_OF if mm == m]
def uniq(xs):
    seen = []
    for x in xs:
        if x not in seen: seen.append(x)
    return seen
def L(keys): return [lab(k) for k in uniq(keys)]
def proj(**cond): return [k for k, p in PROJECTS.items() if all(p[a] == v for a, v in cond.items())]
def year(k): return date.fromisoformat(PROJECTS[k]["first"]).year
def argbest(keys, f, maximize=True):
    vals = [f(k) for k in keys]
    best = max(vals) if maximize else min(vals)
    return [k for k, v in zip(keys, vals) if v == best]
ALL = list(PROJECTS)
pr = PROJECTS

Q = [
    # one-step
    ("Who maintains Tidewater?", L(pr[pid("Tidewater")]["maint"])),
    ("What language is Quill written in?", L([pr[pid("Quill")]["lang"]])),
    ("Which projects does Ana look after?", L(maintained_by(person("Ana Souza")))),
    ("What licence does Ember use?", L([pr[pid("Ember")]["lic"]])),
    ("What does Ravenmoor depend on?", L(pr[pid("Ravenmoor")]["deps"])),
    ("Which projects use Quartzite?", L(dependents(pid("Quartzite")))),
    ("Who originally wrote Cobblestone?", L([pr[pid("Cobblestone")]["creator"]])),
    ("Where is Kestrel Systems based?", L([ORGS[org("Kestrel Systems")][1]])),
    ("What's the latest version of Brindle?", [pr[pid("Brindle")]["ver"]]),
    ("When did Lanternfish first come out?", [pr[pid("Lanternfish")]["first"]]),
    # two-step
    ("What language is the library Tidewater depends on written in?",
     L([pr[d]["lang"] for d in pr[pid("Tidewater")]["deps"]])),
    ("Which country is the maintainer of Quill from?",
     L([PEOPLE[m][1] for m in pr[pid("Quill")]["maint"] if PEOPLE[m][1]])),
    ("Who founded the company Kenji Mori works at?", L([ORGS[o][2] for o in orgs_of(person("Kenji Mori"))])),
    ("Which projects are maintained by developers from Kenya?",
     L([k for k in ALL if any(PEOPLE[m][1] == "kenya" for m in pr[k]["maint"])])),
    ("Who looks after the projects that depend on Pebblecast?",
     L([m for d in dependents(pid("Pebblecast")) for m in pr[d]["maint"]])),
    ("Which projects are maintained by people at Lumen Labs?",
     L([k for k in ALL if any(m in members(org("Lumen Labs")) for m in pr[k]["maint"])])),
    # three-step
    ("Who designed the languages of the projects Ana Souza maintains?",
     L([LANGUAGES[pr[k]["lang"]][2] for k in maintained_by(person("Ana Souza"))])),
    ("What licence does the library that Tidewater's dependency is built on use?",
     L([pr[d2]["lic"] for d in pr[pid("Tidewater")]["deps"] for d2 in pr[d]["deps"]])),
    ("Where are the organizations based that Wickerly's maintainer belongs to?",
     L([ORGS[o][1] for m in pr[pid("Wickerly")]["maint"] for o in orgs_of(m)])),
    ("Which country is the author of the library Cobblestone depends on from?",
     L([PEOPLE[pr[d]["creator"]][1] for d in pr[pid("Cobblestone")]["deps"] if PEOPLE[pr[d]["creator"]][1]])),
    # counts / values
    ("How many stars does Quill have?", [str(pr[pid("Quill")]["stars"])]),
    ("How many projects are written in Rust?", [str(len(proj(lang="rust")))]),
    ("How many people work for Lumen Labs?", [str(len(set(members(org("Lumen Labs")))))]),
    ("How many projects are under the MIT licence?", [str(len(proj(lic="mit")))]),
    # superlatives
    ("Which project has the most stars?", L(argbest(ALL, lambda k: pr[k]["stars"]))),
    ("What is the oldest project?", L(argbest(ALL, lambda k: pr[k]["first"], maximize=False))),
    ("What's the newest Rust project?", L(argbest(proj(lang="rust"), lambda k: pr[k]["first"]))),
    ("Who created the most popular Go project?",
     L([pr[k]["creator"] for k in argbest(proj(lang="go"), lambda k: pr[k]["stars"])])),
    ("Which project has the fewest contributors?", L(argbest(ALL, lambda k: pr[k]["contrib"], maximize=False))),
    # comparisons / filters
    ("Which projects have more than 9000 stars?", L([k for k in ALL if pr[k]["stars"] > 9000])),
    ("Which projects were first released before 2013?", L([k for k in ALL if year(k) < 2013])),
    ("Which projects have fewer than 10 contributors?", L([k for k in ALL if pr[k]["contrib"] < 10])),
    ("Which programming languages were designed before 1995?", L([k for k, v in LANGUAGES.items() if v[1] < 1995])),
    # boolean
    ("Which projects are archived?", L(proj(archived=True))),
    ("Which Python projects are still maintained?", L(proj(lang="python", archived=False))),
    ("Which Go projects are still actively developed?", L(proj(lang="go", archived=False))),
    # conjunctions
    ("Which projects are written in Go and licensed under MIT?", L(proj(lang="go", lic="mit"))),
    ("Which TypeScript projects use the MIT licence?", L(proj(lang="typescript", lic="mit"))),
    # surname only / typo
    ("What does Tanaka maintain?", L(maintained_by(person("Yuki Tanaka")))),
    ("Who maintains Lanternfsh?", L(pr[pid("Lanternfish")]["maint"])),
]

def main():
    assert len(Q) == 40
    firsts = [v[0].split()[0] for v in PEOPLE.values()]
    assert len(firsts) == len(set(firsts))
    labels = [lab(k) for t in (PROJECTS, COUNTRIES, LICENSES, PEOPLE, LANGUAGES, ORGS) for k in t]
    assert len(labels) == len(set(labels))
    write_ttl(os.path.join(HERE, "software.ttl"))
    with open(os.path.join(HERE, "software_q.jsonl"), "w") as fh:
        for i, (q, a) in enumerate(Q):
            assert a and 1 <= len(a) <= 8, (q, a)
            fh.write(json.dumps({"id": f"software-{i}", "question": q, "answers": a}) + "\n")
    print("triples:", len(triples))

if __name__ == "__main__":
    main()
