"""A seeded synthetic KG of any size with the shape of a real one, for `bench.scale`.

Real KGs are not uniform, and the costs that grow with a graph depend on its shape: label lookups on how many
entities share a label, schema induction on how many relations and classes there are, walks on hubs. So the
generator keeps what matters: typed entities (rdf:type) with rdfs:label, ten classes and 34 relations
(`RELATIONS`) of which a third are numbers or dates, a power-law degree (objects are drawn by rank with a Zipf
exponent of 2/3, so a few hubs take most edges, as directors and countries do), and labels shared by several
entities (about 3% of entities copy an earlier label, and short names collide by themselves).

Names are built from a vocabulary: the words of MoviesKG's names when `vocabulary_from` finds that file (it is
read, never copied into the repository), else made-up syllables. The same seed and vocabulary give the same
file, byte for byte.
"""

from __future__ import annotations

import gzip
import io
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

NS = "http://scale.kgscout.example/"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
XSD = "http://www.w3.org/2001/XMLSchema#"
SHARED_LABEL_SHARE = 0.03  # entities that take an earlier entity's label (homonyms)
ZIPF_POWER = 3.0  # rank = n * u**3: degree of the k-th entity ~ k^(-2/3)

# Share of the entities in each class; tiny classes (genres, languages) have a fixed size instead.
CLASS_SHARES = {"film": 0.33, "person": 0.36, "book": 0.09, "city": 0.08, "company": 0.07, "band": 0.04,
                "award": 0.015, "country": 0.015}
FIXED_CLASSES = {"genre": 40, "language": 60}


@dataclass(frozen=True)
class Rel:
    """One relation: its subject class, its object (a class, or an XSD kind), and how many it has per subject."""

    name: str
    domain: str
    range: str  # a class name, or "integer" / "decimal" / "date"
    mean: float  # mean number of objects per subject (below 1: the chance it has one)


LITERAL_KINDS = ("integer", "decimal", "date")
RELATIONS = (
    Rel("directed_by", "film", "person", 1.1), Rel("written_by", "film", "person", 1.3),
    Rel("starred_actors", "film", "person", 3.5), Rel("has_genre", "film", "genre", 1.6),
    Rel("in_language", "film", "language", 1.1), Rel("produced_by", "film", "company", 0.8),
    Rel("filmed_in", "film", "city", 0.6), Rel("release_year", "film", "integer", 1.0),
    Rel("runtime", "film", "integer", 0.7), Rel("budget", "film", "decimal", 0.3),
    Rel("release_date", "film", "date", 0.5), Rel("won_award", "film", "award", 0.15),
    Rel("based_on", "film", "book", 0.1), Rel("sequel_of", "film", "film", 0.05),
    Rel("born_in", "person", "city", 0.7), Rel("nationality", "person", "country", 0.8),
    Rel("birth_date", "person", "date", 0.6), Rel("height", "person", "decimal", 0.2),
    Rel("spouse", "person", "person", 0.15), Rel("member_of", "person", "band", 0.08),
    Rel("award_received", "person", "award", 0.1),
    Rel("located_in", "city", "country", 1.0), Rel("population", "city", "integer", 0.9),
    Rel("capital", "country", "city", 1.0), Rel("area", "country", "decimal", 1.0),
    Rel("official_language", "country", "language", 1.2),
    Rel("headquartered_in", "company", "city", 0.9), Rel("founded_year", "company", "integer", 0.7),
    Rel("founded_by", "company", "person", 0.5), Rel("parent_company", "company", "company", 0.2),
    Rel("author", "book", "person", 1.1), Rel("publication_year", "book", "integer", 0.9),
    Rel("formed_in", "band", "city", 0.7), Rel("presented_by", "award", "company", 0.6),
)


@dataclass(frozen=True)
class GeneratedKG:
    """What was written: the file, its triples and entities, and a few labels to ask about."""

    path: Path
    triples: int
    entities: int
    relations: int
    shared_labels: int  # entities whose label another entity also has (by construction)


def mean_triples_per_entity() -> float:
    """Facts per entity, averaged over the classes, plus its type and label: what sizes the entity count."""
    facts = {cls: 2.0 for cls in CLASS_SHARES}
    for rel in RELATIONS:
        facts[rel.domain] = facts.get(rel.domain, 2.0) + rel.mean
    return sum(CLASS_SHARES[c] * facts[c] for c in CLASS_SHARES)


def class_sizes(triples: int) -> dict[str, int]:
    """Entities per class for a file of about `triples` triples."""
    entities = max(50, int(triples / mean_triples_per_entity()))
    sizes = {cls: max(5, int(entities * share)) for cls, share in CLASS_SHARES.items()}
    return {**sizes, **FIXED_CLASSES}


def vocabulary_from(path: str | Path | None) -> list[str] | None:
    """The capitalised words of a delimited KG's names (MoviesKG): names that read like real ones."""
    if path is None or not Path(path).is_file():
        return None
    words: set[str] = set()
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            for field in line.rstrip("\n").split("|")[::2]:
                words.update(w for w in field.split() if re.fullmatch(r"[A-Z][a-z]{2,12}", w))
    return sorted(words) or None


def _syllable_words(rng: random.Random, n: int = 4000) -> list[str]:
    """Made-up words when no vocabulary is at hand: consonant-vowel syllables."""
    onsets, vowels = "bdfgklmnprstvz", "aeiou"
    words = {"".join(rng.choice(onsets) + rng.choice(vowels) for _ in range(rng.randint(2, 3))).capitalize()
             for _ in range(n)}
    return sorted(words)


def generate(out: str | Path, triples: int, seed: int = 0, vocabulary: list[str] | None = None,
             compress: bool | None = None) -> GeneratedKG:
    """Write an N-Triples file of about `triples` triples (gzip when `compress`, or when `out` ends in .gz)."""
    out = Path(out)
    rng = random.Random(seed)
    words = vocabulary or _syllable_words(rng)
    sizes = class_sizes(triples)
    labels, shared = _labels(rng, sizes, words)
    compress = out.suffix == ".gz" if compress is None else compress
    raw = gzip.open(out, "wb", compresslevel=1) if compress else open(out, "wb")
    with raw, io.TextIOWrapper(raw, encoding="utf-8", newline="\n") as handle:
        count = _write(handle, rng, sizes, labels)
    return GeneratedKG(out, count, sum(sizes.values()), len(RELATIONS), shared)


def _labels(rng: random.Random, sizes: dict[str, int], words: list[str]) -> tuple[dict[str, list[str]], int]:
    """A label per entity; a share of them copied from an earlier entity (possibly of another class)."""
    labels: dict[str, list[str]] = {}
    pool: list[str] = []
    shared = 0
    for cls, n in sizes.items():
        made = []
        for _ in range(n):
            if pool and rng.random() < SHARED_LABEL_SHARE:
                made.append(rng.choice(pool))
                shared += 1
            else:
                made.append(_name(rng, cls, words))
        labels[cls] = made
        pool.extend(made[:1000])
    return labels, shared


def _name(rng: random.Random, cls: str, words: list[str]) -> str:
    """Names shaped per class: two words for people, one to three for titles, a word for places."""
    if cls == "person":
        return f"{rng.choice(words)} {rng.choice(words)}"
    if cls in ("film", "book", "band", "award"):
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, 3)))
    if cls == "company":
        return f"{rng.choice(words)} {rng.choice(('Pictures', 'Studios', 'Media', 'Group', 'Books'))}"
    return rng.choice(words) + rng.choice(("", "ia", "ton", "burg", "land", "ville", ""))


def _write(handle: TextIO, rng: random.Random, sizes: dict[str, int], labels: dict[str, list[str]]) -> int:
    """Every entity's type, label and facts, entity by entity; the number of lines written."""
    by_domain: dict[str, list[Rel]] = {}
    for rel in RELATIONS:
        by_domain.setdefault(rel.domain, []).append(rel)
    count = 0
    for cls, n in sizes.items():
        for i in range(n):
            subject = f"<{NS}{cls}/{i}>"
            lines = [f"{subject} <{RDF_TYPE}> <{NS}class/{cls}> .\n",
                     f"{subject} <{RDFS_LABEL}> {_string(labels[cls][i])} .\n"]
            for rel in by_domain.get(cls, ()):
                for _ in range(_how_many(rng, rel.mean)):
                    lines.append(f"{subject} <{NS}rel/{rel.name}> {_object(rng, rel, sizes)} .\n")
            handle.writelines(dict.fromkeys(lines))  # a repeated fact is one triple
            count += len(set(lines))
    return count


def _how_many(rng: random.Random, mean: float) -> int:
    """0 or 1 below a mean of 1; otherwise 1 plus a geometric count, so a few films have large casts."""
    if mean <= 1.0:
        return 1 if rng.random() < mean else 0
    extra = 0
    while rng.random() < (mean - 1) / mean and extra < 50:
        extra += 1
    return 1 + extra


def _object(rng: random.Random, rel: Rel, sizes: dict[str, int]) -> str:
    if rel.range in LITERAL_KINDS:
        return _literal(rng, rel)
    n = sizes[rel.range]
    return f"<{NS}{rel.range}/{min(n - 1, int(n * rng.random() ** ZIPF_POWER))}>"


def _literal(rng: random.Random, rel: Rel) -> str:
    """Years, counts, amounts and dates in the ranges their relations have in real KGs."""
    if rel.range == "date":
        value = f"{rng.randint(1900, 2023)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    elif rel.range == "decimal":
        value = f"{rng.uniform(1, 10_000):.2f}"
    elif rel.name.endswith("year"):
        value = str(rng.randint(1900, 2023))
    else:
        value = str(int(10 ** rng.uniform(1, 7)))
    return f'"{value}"^^<{XSD}{rel.range}>'


def _string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def label_sample(path: str | Path, n: int, seed: int = 0) -> list[str]:
    """`n` labels of the file, drawn at random (the questions of the linking benchmark name them)."""
    opener = gzip.open if str(path).endswith(".gz") else open
    found: list[str] = []
    marker = f"<{RDFS_LABEL}> \""
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            at = line.find(marker)
            if at >= 0:
                found.append(line[at + len(marker):line.rindex('"')].replace('\\"', '"').replace("\\\\", "\\"))
    rng = random.Random(seed)
    return rng.sample(found, min(n, len(found)))
