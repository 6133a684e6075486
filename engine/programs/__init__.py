"""The program language: s-expression trees, their validation, compilation to SPARQL,
execution on a KG (memoized) and their English reading.

Everything later in the pipeline (language models aside) speaks in these programs;
this package imports nothing else of the engine but `engine.config`.
"""
