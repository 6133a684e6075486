"""Made-up KGs whose questions were written blind to the engine (session 44), for trying a change zero-shot:

    python bench/probes/hospital.py DIR     # DIR/hospital.ttl (typed Turtle) and DIR/hospital_q.jsonl
    python bench/probes/airline.py DIR      # DIR/airline.tsv (bare triples from a spreadsheet, no classes)
    python bench/probes/software.py DIR     # DIR/software.ttl (camelCase properties with no labels)
    python bench/probes/transit.py DIR      # DIR/transit.nt (N-Triples, typed, properties with no labels)
    python bench/probes/recipes.py DIR      # DIR/recipes.csv (bare 3-column CSV, yes/no columns)
    python -m engine evaluate --kg DIR/hospital.ttl --questions DIR/hospital_q.jsonl --fresh --cache-dir DIR/cache
    python -m bench.probes.run --out DIR [--budget 150]   # all five in turn (run.py), with a corpus or without
    python bench/probes/geography.py DIR    # natural questions on our own geography KG (session 46, not blind)
    python bench/probes/library.py DIR      # DIR/library.ttl (typed Turtle, camelCase properties, no labels)
    python bench/probes/atlas.py DIR        # DIR/atlas.nt (N-Triples; `borders` stored once per pair)
    python bench/probes/dynasty.py DIR      # DIR/dynasty.tsv (bare genealogy triples: father, mother, spouse)
    python bench/probes/campus.py DIR       # DIR/campus_q.jsonl: 45 questions on the university dev KG (its kb.ttl)
    python bench/probes/helpdesk.py DIR     # DIR/helpdesk.ttl (typed Turtle; statuses, priorities, titles as strings)
    python bench/probes/royals.py DIR       # DIR/royals.ttl (typed Turtle; kinship through parent, spouse, gender)

Each was written by a helper session that saw none of the engine, the tests or the benchmarks, from a one-page
brief (the domain, the file's form, the kinds of question: everyday words instead of the labels, chains, counts,
rankings, filters, yes/no properties, conjunctions, partial names, a typo). Every gold answer is computed from the
script's own tables. The first three were run in session 44 (BENCHMARKS.md): those figures were blind, and the rules
their misses led to make them tuned-on from then on, as `bench.made_up`'s are (transit and recipes too, first run
later). Kept as scripts, stdlib only, as their writers left them.

library, atlas, dynasty and campus were written blind in session 57 by helpers that saw none of the engine (campus
from the university dev KG's Turtle, never its questions file); their first runs (BENCHMARKS.md, "Session 57") are
blind figures. helpdesk and royals were written blind in session 58 the same way (BENCHMARKS.md, "Session 58").
"""
