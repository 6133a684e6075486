"""Three made-up KGs whose questions were written blind to the engine (session 44), for trying a change zero-shot:

    python bench/probes/hospital.py DIR     # DIR/hospital.ttl (typed Turtle) and DIR/hospital_q.jsonl
    python bench/probes/airline.py DIR      # DIR/airline.tsv (bare triples from a spreadsheet, no classes)
    python bench/probes/software.py DIR     # DIR/software.ttl (camelCase properties with no labels)
    python -m engine evaluate --kg DIR/hospital.ttl --questions DIR/hospital_q.jsonl --fresh --cache-dir DIR/cache

Each was written by a helper session that saw none of the engine, the tests or the benchmarks, from a one-page
brief (the domain, the file's form, the kinds of question: everyday words instead of the labels, chains, counts,
rankings, filters, yes/no properties, conjunctions, partial names, a typo). Every gold answer is computed from the
script's own tables. Their first zero-shot figures (BENCHMARKS.md, session 44) were blind; the rules they led to
make them tuned-on from then on, as `bench.made_up`'s are. Kept as scripts, stdlib only, as their writers left them.
"""
