"""Bootstrapping a KG (BYOKG steps 1-2): explore it with random walks (`explorer`),
write a question for each program (`qgen`), and keep the pairs as the exploration
corpus (`corpus`). `build.bootstrap` runs the three, resumably.
"""

from .build import BootstrapResult, NothingToExplore, Progress, bootstrap

__all__ = ["BootstrapResult", "NothingToExplore", "Progress", "bootstrap"]
