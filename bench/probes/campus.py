"""Campus probe: everyday questions over the university KG.

Usage: python bench/probes/campus.py OUTDIR [KG]

KG defaults to ../shared/data/kgs/university/kb.ttl (relative to the
current directory).  Writes OUTDIR/campus_q.jsonl with one object per line:
{"id": "campus-<i>", "question": ..., "answers": [...]}.

Every gold answer is computed from the parsed graph (SPARQL through rdflib
or plain Python over the triples); nothing is typed in by hand except the
names used to pick the entity a question is about.
"""

import collections
import json
import os
import sys

import rdflib
from rdflib import RDF, RDFS, Literal

U = rdflib.Namespace("http://example.org/uni/")
PREFIX = """
PREFIX u: <http://example.org/uni/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
"""


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: campus.py OUTDIR [KG]")
    outdir = sys.argv[1]
    kg = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        "..", "shared", "data", "kgs", "university", "kb.ttl")
    g = rdflib.Graph()
    g.parse(kg, format="turtle")

    # ------------------------------------------------------------ helpers
    def label(node):
        if isinstance(node, Literal):
            v = node.toPython()
            return str(v)
        labs = list(g.objects(node, RDFS.label))
        assert len(labs) == 1, (node, labs)
        return str(labs[0])

    def ent(lab, cls=None):
        hits = [s for s in g.subjects(RDFS.label, Literal(lab))
                if cls is None or (s, RDF.type, cls) in g]
        assert len(hits) == 1, (lab, hits)
        return hits[0]

    def instances(cls):
        return set(g.subjects(RDF.type, cls))

    def objs(s, p):
        return set(g.objects(s, p))

    def subjs(p, o):
        return set(g.subjects(p, o))

    def num(s, p):
        vals = list(g.objects(s, p))
        assert len(vals) == 1, (s, p, vals)
        return int(vals[0].toPython())

    def sparql(q, **bind):
        rows = g.query(PREFIX + q, initBindings=bind)
        return [r for r in rows]

    def sparql_col(q, **bind):
        return {r[0] for r in sparql(q, **bind)}

    def bare(lab):
        """A person's name without the 'Prof. ' title."""
        return lab[len("Prof. "):] if lab.startswith("Prof. ") else lab

    people = instances(U.Student) | instances(U.Professor)

    def unique_part(part, idx):
        """Assert that a first name (idx 0) / surname (idx -1) names exactly
        one person in the KG; return that person's label."""
        hits = [p for p in people
                if bare(label(p)).split()[idx].lower() == part.lower()]
        assert len(hits) == 1, (part, [label(h) for h in hits])
        return label(hits[0])

    questions = []

    def add(kinds, text, nodes):
        answers = []
        for n in nodes:
            a = label(n) if isinstance(n, rdflib.term.Node) else str(n)
            if a not in answers:
                answers.append(a)
        assert all(a and not a.startswith("http") for a in answers), answers
        assert 1 <= len(answers) <= 8, (text, answers)
        assert len(set(answers)) == len(answers)
        questions.append((kinds, text, sorted(answers)))

    STU, PROF, COURSE, DEPT, TOWN = (U.Student, U.Professor, U.Course,
                                     U.Department, U.Town)

    # -------------------------------------------------- simple look-ups
    # who teaches X
    add(["who-teaches"], "who teaches Genetics?",
        sparql_col("SELECT ?p WHERE { ?p u:teaches ?c }",
                   c=ent("Genetics", COURSE)))
    add(["who-teaches"], "Who's the lecturer for Optics this term",
        subjs(U.teaches, ent("Optics", COURSE)))

    # what does professor Y teach  (second one: surname only)
    add(["prof-teaches"], "what does professor Helen Achebe teach?",
        objs(ent("Prof. Helen Achebe", PROF), U.teaches))
    who = unique_part("Ibarra", -1)
    add(["prof-teaches", "surname-only"],
        "which courses is Ibarra responsible for?",
        sparql_col("SELECT ?c WHERE { ?p u:teaches ?c }",
                   p=ent(who, PROF)))

    # advisor of Z  (second: first name only, third: one typo)
    who = unique_part("Hana", 0)
    add(["advisor", "first-name-only"], "who is Hana's advisor?",
        objs(ent(who, STU), U.advised_by))
    add(["advisor", "typo"], "who supervises Oskar Eriksen",
        objs(ent("Oscar Eriksen", STU), U.advised_by))

    # advisees of Y
    add(["advisees"], "which students does Prof. Helen Achebe supervise?",
        subjs(U.advised_by, ent("Prof. Helen Achebe", PROF)))
    add(["advisees"], "who are Carmen Ibarra's advisees",
        sparql_col("SELECT ?s WHERE { ?s u:advised_by ?p }",
                   p=ent("Prof. Carmen Ibarra", PROF)))

    # courses Z takes
    add(["student-courses"], "What courses is Priya Mensah taking?",
        objs(ent("Priya Mensah", STU), U.enrolled_in))
    add(["student-courses"], "what's Viktor Sousa signed up for this semester",
        sparql_col("SELECT ?c WHERE { ?s u:enrolled_in ?c }",
                   s=ent("Viktor Sousa", STU)))

    # students of a course
    add(["course-students"], "who's in Ecology?",
        subjs(U.enrolled_in, ent("Ecology", COURSE)))
    add(["course-students"], "Which students are taking Databases",
        sparql_col("SELECT ?s WHERE { ?s a u:Student ; u:enrolled_in ?c }",
                   c=ent("Databases", COURSE)))

    # department of a course
    add(["course-dept"], "which department runs Cell Biology?",
        objs(ent("Cell Biology", COURSE), U.offered_by))
    add(["course-dept"], "Machine Learning belongs to which department?",
        objs(ent("Machine Learning", COURSE), U.offered_by))

    # building of a department
    add(["dept-building"], "where is the physics department?",
        objs(ent("Physics", DEPT), U.housed_in))
    add(["dept-building"], "What building is History in",
        objs(ent("History", DEPT), U.housed_in))

    # building of a course (course -> department -> building)
    add(["course-building"], "which building is Algorithms taught in?",
        sparql_col("SELECT ?b WHERE { ?c u:offered_by ?d . ?d u:housed_in ?b }",
                   c=ent("Algorithms", COURSE)))
    add(["course-building"], "where do I go for Genetics classes",
        {b for d in objs(ent("Genetics", COURSE), U.offered_by)
         for b in objs(d, U.housed_in)})

    # hometown  (second: all lowercase)
    add(["hometown"], "what's Leila Rahman's hometown?",
        objs(ent("Leila Rahman", STU), U.hometown))
    add(["hometown", "lowercase"], "where is sofia ivanova from",
        objs(ent("Sofia Ivanova", STU), U.hometown))

    # credits
    add(["credits"], "how many credits is Quantum Mechanics worth?",
        [str(num(ent("Quantum Mechanics", COURSE), U.credits))])
    add(["credits"], "How many credits do you get for Cell Biology",
        [str(num(ent("Cell Biology", COURSE), U.credits))])

    # year of study  (first name only)
    who = unique_part("Mateo", 0)
    add(["year-of-study", "first-name-only"], "what year is Mateo in?",
        [str(num(ent(who, STU), U.year_of_study))])

    # birth year
    add(["birth-year"], "when was Noah Osei born?",
        [str(num(ent("Noah Osei", STU), U.birth_year))])

    # ------------------------------------------------------------ counts
    add(["count"], "how many students are in Machine Learning?",
        [str(len(subjs(U.enrolled_in, ent("Machine Learning", COURSE))))])
    add(["count"], "How many courses does Prof. Bela Kertesz teach",
        [str(len(objs(ent("Prof. Bela Kertesz", PROF), U.teaches)))])
    rows = sparql("SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE "
                  "{ ?s u:advised_by ?p }",
                  p=ent("Prof. Farah Qureshi", PROF))
    add(["count"], "how many students does Farah Qureshi advise?",
        [str(int(rows[0][0]))])
    add(["count"], "how many of our students are from Bergen?",
        [str(len({s for s in subjs(U.hometown, ent("Bergen", TOWN))
                  if (s, RDF.type, STU) in g}))])

    # ------------------------------------------------------- superlatives
    def argbest(nodes, key, best=max):
        nodes = list(nodes)
        top = best(key(n) for n in nodes)
        return {n for n in nodes if key(n) == top}

    add(["superlative", "no-entity"], "which course has the most credits?",
        argbest(instances(COURSE), lambda c: num(c, U.credits)))
    add(["superlative", "no-entity"], "Who is the youngest student?",
        argbest(instances(STU), lambda s: num(s, U.birth_year)))
    add(["superlative"],
        "which of the students in Algorithms is furthest along in their degree?",
        argbest(subjs(U.enrolled_in, ent("Algorithms", COURSE)),
                lambda s: num(s, U.year_of_study)))
    add(["superlative"], "who's the oldest of Bela Kertesz's advisees",
        argbest(subjs(U.advised_by, ent("Prof. Bela Kertesz", PROF)),
                lambda s: num(s, U.birth_year), best=min))
    add(["superlative"], "Which History course has the most students?",
        argbest(subjs(U.offered_by, ent("History", DEPT)),
                lambda c: len(subjs(U.enrolled_in, c))))

    # -------------------------------------------------------- comparisons
    add(["comparison"], "which students were born after 2004?",
        sparql_col("SELECT ?s WHERE { ?s a u:Student ; u:birth_year ?y "
                   "FILTER(?y > 2004) }"))
    add(["comparison"], "courses worth more than 5 credits",
        {c for c in instances(COURSE) if num(c, U.credits) > 5})
    add(["comparison", "conjunction"],
        "Which of the students in Quantum Mechanics were born before 2000?",
        sparql_col("SELECT ?s WHERE { ?s u:enrolled_in ?c ; u:birth_year ?y "
                   "FILTER(?y < 2000) }",
                   c=ent("Quantum Mechanics", COURSE)))

    # -------------------------------------------------------- conjunctions
    add(["conjunction"], "which second-year students take Quantum Mechanics?",
        {s for s in subjs(U.enrolled_in, ent("Quantum Mechanics", COURSE))
         if num(s, U.year_of_study) == 2})
    add(["conjunction"], "students from Accra who are doing Medieval Europe",
        sparql_col("SELECT ?s WHERE { ?s u:hometown ?t ; u:enrolled_in ?c }",
                   t=ent("Accra", TOWN), c=ent("Medieval Europe", COURSE)))
    add(["conjunction"], "who takes both Genetics and Machine Learning",
        subjs(U.enrolled_in, ent("Genetics", COURSE))
        & subjs(U.enrolled_in, ent("Machine Learning", COURSE)))

    # ------------------------------------------------------------ negation
    add(["negation", "no-entity"], "Which professors aren't teaching anything?",
        sparql_col("SELECT ?p WHERE { ?p a u:Professor "
                   "FILTER NOT EXISTS { ?p u:teaches ?c } }"))
    add(["negation"], "which first-year students are not taking Databases?",
        {s for s in instances(STU)
         if num(s, U.year_of_study) == 1
         and ent("Databases", COURSE) not in objs(s, U.enrolled_in)})

    # ------------------------------------------------------ 2-3 hop chains
    add(["chain"], "who teaches the courses Tomas Kim takes?",
        sparql_col("SELECT ?p WHERE { ?s u:enrolled_in ?c . ?p u:teaches ?c }",
                   s=ent("Tomas Kim", STU)))
    add(["chain"],
        "which professors work in the building where Ecology is taught?",
        sparql_col("SELECT DISTINCT ?p WHERE { ?c u:offered_by ?d . "
                   "?d u:housed_in ?b . ?d2 u:housed_in ?b . "
                   "?p a u:Professor ; u:member_of ?d2 }",
                   c=ent("Ecology", COURSE)))
    who = unique_part("Lind", -1)
    add(["chain", "surname-only"],
        "which towns do Professor Lind's advisees come from?",
        {t for s in subjs(U.advised_by, ent(who, PROF))
         for t in objs(s, U.hometown)})
    who = unique_part("Emil", 0)
    add(["chain", "first-name-only"], "what departments are Emil's courses in",
        {d for c in objs(ent(who, STU), U.enrolled_in)
         for d in objs(c, U.offered_by)})

    # --------------------------------------------------------------- write
    assert len(questions) == 45, len(questions)
    texts = [q[1] for q in questions]
    assert len(set(texts)) == len(texts), "duplicate question text"
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, "campus_q.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        for i, (_kinds, text, answers) in enumerate(questions, 1):
            f.write(json.dumps({"id": "campus-%d" % i, "question": text,
                                "answers": answers},
                               ensure_ascii=False) + "\n")
    tally = collections.Counter(k for kinds, _, _ in questions for k in kinds)
    print("wrote %d questions to %s" % (len(questions), path))
    for k, n in sorted(tally.items()):
        print("  %-18s %d" % (k, n))


if __name__ == "__main__":
    main()
