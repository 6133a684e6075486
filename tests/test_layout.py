"""The engine's shape: its sub-packages follow the pipeline, and data flows one way.

    config -> programs -> lm -> bootstrap -> answer -> scout / __main__

A module may import from its own part and from earlier parts, never from a later one, and the engine
never imports the UI. Read by `ast`, so nothing is imported to check it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[1] / "engine"
ORDER = ["config", "programs", "lm", "bootstrap", "answer", "scout", "__main__"]
MAX_LINES = 400
# Modules allowed past MAX_LINES; each says why in its docstring.
LONG_ENOUGH_TO_SAY_WHY = "longer than 400 lines"


def _part(module: str) -> str | None:
    """'engine.answer.rank' -> 'answer'; 'engine' itself and foreign modules -> None."""
    names = module.split(".")
    if names[0] != "engine" or len(names) < 2:
        return None
    return names[1]


def _module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[str]:
    """Absolute names of every engine or ui module the file imports, wherever the import sits."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found.append(name)
            found += [f"{name}.{alias.name}" for alias in node.names if name == "engine"]
    return found


MODULES = sorted(p for p in ENGINE.rglob("*.py"))


def test_the_engine_has_the_four_parts_of_the_pipeline():
    parts = {p.name for p in ENGINE.iterdir() if (p / "__init__.py").is_file()}
    assert parts == {"programs", "lm", "bootstrap", "answer"}
    flat = {p.stem for p in ENGINE.glob("*.py")}
    assert flat == {"__init__", "__main__", "config", "scout"}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_imports_flow_one_way(path: Path):
    own = _part(_module_name(path))
    own_rank = ORDER.index(own) if own in ORDER else len(ORDER)
    for name in _imports(path):
        assert not name.startswith("ui") and "gradio" not in name, f"{path.name} imports {name}"
        part = _part(name)
        if part is None or part not in ORDER:
            continue
        assert ORDER.index(part) <= own_rank, f"{_module_name(path)} imports {name}, a later part of the pipeline"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_modules_stay_short_or_say_why(path: Path):
    lines = len(path.read_text().splitlines())
    if lines > MAX_LINES:
        doc = ast.get_docstring(ast.parse(path.read_text())) or ""
        assert LONG_ENOUGH_TO_SAY_WHY in doc, f"{path.name} has {lines} lines and its docstring does not say why"


def test_the_check_sees_a_backward_import(tmp_path: Path):
    """The import reader resolves relative imports, so the order test cannot pass vacuously."""
    sub = ENGINE / "programs" / "sexpr.py"
    assert "engine.config" not in _imports(sub)
    assert any(name.startswith("engine.programs") for name in _imports(ENGINE / "answer" / "reasoner.py"))
    assert "engine.programs.sexpr" in _imports(ENGINE / "programs" / "validate.py")


def test_the_readme_layout_names_every_module():
    readme = (ENGINE.parent / "README.md").read_text(encoding="utf-8")
    layout = readme[readme.index("## Layout"):]
    for path in MODULES:
        if path.name in ("__init__.py", "__main__.py"):
            continue
        assert f"`{path.name}`" in layout or f"`engine/{path.name}`" in layout, f"README's layout lacks {path.name}"


# Words of particular domains (films, people in films, geography). The engine may use them in prose and in
# a prompt's worked example, but never as a list of words to match: those come from a KG's own schema.
DOMAIN_WORDS = frozenset(
    "film films movie movies actor actors actress actresses director directors screenwriter screenwriters "
    "costar costarred country countries city cities nation nations town towns capital capitals".split()
)


def _word_lists(path: Path):
    """(line, domain words) for each assignment whose string constants name two or more domain words."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Assign, ast.AnnAssign)):
            continue
        words = set()
        for const in ast.walk(node):
            if isinstance(const, ast.Constant) and isinstance(const.value, str):
                words |= DOMAIN_WORDS & set(re.findall(r"[a-z]+", const.value.lower()))
        if len(words) >= 2:
            yield node.lineno, sorted(words)


# The adapters that read a KG's schema are held to the same rule; geography.py builds the default KG, whose
# own data its words are.
ADAPTERS = sorted(p for p in (ENGINE.parent / "kg_adapters").glob("*.py") if p.name != "geography.py")


@pytest.mark.parametrize("path", MODULES + ADAPTERS, ids=lambda p: str(p.relative_to(ENGINE.parent)))
def test_the_engine_holds_no_domain_word_list(path: Path):
    assert list(_word_lists(path)) == [], f"{path.name} matches words of one domain; derive them from the schema"


def test_the_domain_word_check_sees_a_word_list(tmp_path: Path):
    sample = tmp_path / "sample.py"
    sample.write_text('_NOUNS = ("one", "movie", "film")\nDOC = "the country"\n')
    assert list(_word_lists(sample)) == [(1, ["film", "movie"])]
