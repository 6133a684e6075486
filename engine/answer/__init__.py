"""Answering a question (BYOKG step 3), one stage per module, in the order they run:

    linker     the entities, literals and class words a question names (words, labels, mentions,
               synonyms: the words of a schema, read by embedding)
    question   what the question asks for (a class, a count, things sharing something)
    retrieve   exemplars: the nearest corpus questions
    candidates enumeration: the programs one step may build, one rule per operator
    prune      execute the new programs most similar to the question, drop empty ones
    rank       the LLM's forward score, the best set, and the inverse-consistency re-rank
    memo       whole answers kept on disk
    reasoner   the driver that runs the stages
    followup   "what else did he direct?" read as a standalone question
    metrics    F1, Hits@1 and exact match, for evaluation
"""
