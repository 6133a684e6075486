"""bench.scale: its generator keeps the shape it promises, and its table states growth and extrapolation."""

from __future__ import annotations

import gzip
from collections import Counter
from pathlib import Path

import pytest

from bench import scale, scale_kg


def _triples(path: Path) -> list[tuple[str, str, str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [tuple(line.rstrip(" .\n").split(" ", 2)) for line in handle]


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> scale_kg.GeneratedKG:
    return scale_kg.generate(tmp_path_factory.mktemp("scale") / "kg.nt", 10_000, seed=3)


def test_the_generator_writes_about_the_size_asked_and_the_same_file_for_the_same_seed(small, tmp_path) -> None:
    assert 9_000 <= small.triples <= 11_000
    assert len(_triples(small.path)) == small.triples
    again = scale_kg.generate(tmp_path / "again.nt.gz", 10_000, seed=3)
    assert gzip.decompress(again.path.read_bytes()) == small.path.read_bytes()


def test_the_generated_kg_has_a_real_shape(small) -> None:
    """Typed, labelled entities; 20-50 relations with numbers and dates; hubs; shared labels."""
    triples = _triples(small.path)
    predicates = {p for _, p, _ in triples}
    relations = predicates - {f"<{scale_kg.RDF_TYPE}>", f"<{scale_kg.RDFS_LABEL}>"}
    assert 20 <= len(relations) <= 50
    typed = {s for s, p, _ in triples if p == f"<{scale_kg.RDF_TYPE}>"}
    labelled = {s for s, p, _ in triples if p == f"<{scale_kg.RDFS_LABEL}>"}
    assert typed == labelled and len(typed) == small.entities
    objects = [o for _, p, o in triples if p in relations]
    assert any(f"{scale_kg.XSD}integer" in o for o in objects) and any(f"{scale_kg.XSD}date" in o for o in objects)
    degree = Counter(o for o in objects if o.startswith("<"))
    top = sum(n for _, n in degree.most_common(len(degree) // 100 or 1))
    assert top > 0.1 * sum(degree.values())  # the top 1% of entities hold over a tenth of the edges
    labels = Counter(o for _, p, o in triples if p == f"<{scale_kg.RDFS_LABEL}>")
    assert sum(n for n in labels.values() if n > 1) >= 0.01 * small.entities


def test_link_questions_name_labels_of_the_file(small) -> None:
    questions = scale.link_questions(small.path, n=10)
    assert len(questions) == 10
    assert all("{}" not in q and q.strip() for q in questions)


def _result(triples: int, factor: float) -> scale.SizeResult:
    return scale.SizeResult(triples=triples, file_mb=factor, load_s=factor, load_peak_rss_mb=100.0,
                            schema_s=factor**2, classes=10, relations=34, labels_s=factor, labels_disk_mb=factor,
                            labels_rss_mb=factor, link_median_ms=1.0, link_p90_ms=2.0, explore_programs_per_s=5.0)


def test_the_table_gives_each_cost_its_exponent_and_an_extrapolation_said_as_such() -> None:
    header, rows = scale.table([_result(10_000, 1.0), _result(100_000, 10.0)])
    assert header[1:3] == ("10^4 triples", "10^5 triples")
    assert header[-2:] == ("extrapolated to 10^8", "extrapolated to 10^9")
    by_cost = {row[0]: row for row in rows}
    assert by_cost["load into the embedded store"][3] == "1.00"  # linear
    assert by_cost["schema induction"][3] == "2.00"  # quadratic
    assert by_cost["linking, median"][3] == "0.00"  # flat
    assert by_cost["load into the embedded store"][4] == "~10,000 s"  # 10 s at 10^5, linear, to 10^8
    assert by_cost["`ask`, cold (fresh session)"][1:] == ("—",) * 5  # not measured: said, not guessed
    assert len(rows) == len(scale.COSTS)


def test_one_size_is_measured_end_to_end_without_models(tmp_path: Path) -> None:
    """What the child process of each size runs, on a tiny KG, `ask` left out (no models loaded)."""
    path = scale_kg.generate(tmp_path / "kg.nt", 3_000, seed=1).path
    result = scale.measure(path, tmp_path / "cache", ask=False, model="smollm2-135m", explore_s=1.0)
    assert result.triples > 2_000 and result.classes >= 10 and result.relations >= 20
    assert result.load_s > 0 and result.labels_disk_mb > 0 and result.link_median_ms > 0
    assert result.ask_cold_s is None


def test_a_kept_size_has_what_follows_its_label_index_measured_again(tmp_path: Path) -> None:
    """--remeasure (bench.scale_again): over the store, schema and label index a first measurement kept, linking
    and exploration are measured again, the load, schema and index build figures stay, and the rest of the
    cache (here a stale execution cache) is removed first; a kept index this code would not open stops it."""
    import dataclasses
    import json

    from bench import scale_again

    path = scale_kg.generate(tmp_path / "kg.nt", 3_000, seed=1).path
    cache, kept = tmp_path / "cache", tmp_path / "result.json"
    first = scale.measure(path, cache, ask=False, model="smollm2-135m", explore_s=1.0)
    assert first.measured_at and first.remeasured_at is None
    kept.write_text(json.dumps(dataclasses.asdict(dataclasses.replace(first, link_median_ms=-1.0))))
    (cache / "executions").mkdir(exist_ok=True)
    (cache / "executions" / "stale").write_text("x")
    indexes = sorted((cache / "labels").iterdir())
    again = scale_again.remeasure(path, cache, kept, ask=False, model="smollm2-135m", explore_s=1.0)
    assert (again.load_s, again.schema_s, again.labels_s) == (first.load_s, first.schema_s, first.labels_s)
    assert again.link_median_ms > 0 and again.remeasured_at and again.measured_at == first.measured_at
    assert not (cache / "executions" / "stale").exists()
    assert sorted((cache / "labels").iterdir()) == indexes and again.labels_open_ms > 0  # opened, not built
    for index in (cache / "labels").iterdir():
        index.unlink()
    with pytest.raises(SystemExit, match="label index"):
        scale_again.remeasure(path, cache, kept, ask=False, model="smollm2-135m", explore_s=1.0)
