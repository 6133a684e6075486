"""Language models as the engine uses them: named models shipped on PyPI, an LLM that
scores continuations and writes beams, and sentence embeddings.

Independent of the program language: callers hand it strings.
"""

from .memory import bound_native_memory

bound_native_memory()  # before torch runs a matmul: oneDNN reads its cache size once (engine.lm.memory)
