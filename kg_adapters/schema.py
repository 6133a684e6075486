"""The schema of a KG: classes, relations with domain and range, readable names.

Declared schemas (rdf:type, rdfs:domain/range, rdfs:label, rdfs:comment, skos) are
read as they are. Where the data says nothing, as with bare `subject|relation|object`
files, the schema is *induced*: every relation has two roles (its subjects and its
objects); roles filled by largely the same entities are merged into one class, so
the objects of `directed_by`, `written_by` and `starred_actors` become one class of
people. Literal roles become datatype classes (year, integer, decimal, date, text).

Some KGs store every edge in both directions (`plays_in_club` and
`plays_in_club_inverse`). Such a *mirror* adds no fact, yet it doubled every search
and split the exemplars between two spellings of one reading. A relation whose triples
are (nearly) all another's reversed is kept apart in `Schema.mirrors`: programs that
name it still validate and run, but the engine explores and enumerates only the
primary relation (and reads it backwards with `R`).

Everything is computed through `KGStore.select`, so an endpoint is described the
same way as the embedded store; role samples are capped so a large endpoint stays
affordable.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from lemminflect import getAllLemmas, getLemma

from .base import (
    ANNOTATION_PREDICATES,
    OWL_CLASS,
    RDF_TYPE,
    RDFS_CLASS,
    RDFS_COMMENT,
    RDFS_DOMAIN,
    RDFS_LABEL,
    RDFS_RANGE,
    SKOS_DEFINITION,
    SKOS_PREF_LABEL,
    XSD,
    KGError,
    KGStore,
    Term,
    is_vocabulary,
)
from .naming import class_iri, local_name
from .person_nouns import names_a_person
from .readable import (is_agent_noun, kind_noun, names_people, object_noun, relation_label, reverse_label,
                       shared_head, subject_noun, words)

SUBJECT, OBJECT = "subject", "object"
SCHEMA_VERSION = 14  # bump when reading or induction changes, so cached schemas are rebuilt (11: agent nouns; 12: no
# class or relation of RDF's own vocabulary, kg_adapters.base.is_vocabulary; 13: a mixed class's shared head noun;
# 14: an agent noun only where English has it, and objects called by several nouns for persons are persons)


@dataclass(frozen=True)
class Role:
    """One side of a relation: the entities that appear as its subjects or objects."""

    relation: str  # relation IRI
    side: str  # SUBJECT | OBJECT


@dataclass(frozen=True)
class ClassInfo:
    iri: str
    name: str  # the name programs use, unique within the schema
    label: str
    description: str = ""
    induced: bool = False
    roles: tuple[Role, ...] = ()  # induced classes: membership is filling one of these roles
    datatype: str | None = None  # literal classes: the XSD datatype IRI
    kind: str = "entity"  # "entity" | "year" | "integer" | "decimal" | "date" | "boolean" | "text"
    size: int = 0
    # A stand-in name ("thing with directed by"): nothing in the data says what these entities are, so the
    # engine asks a language model (engine.bootstrap.namer) and `rename_classes` puts its noun in.
    provisional: bool = False
    # Named by the nouns of several relations that call its members apart ("capital or headquartered or located"):
    # no one of them says what all members are, so the namer's noun for them ("city") is kept as one more word
    # for the class (`also`), read like its label wherever questions name classes; programs keep the name.
    mixed: bool = False
    also: tuple[str, ...] = ()

    @property
    def is_literal(self) -> bool:
        return self.kind != "entity"


@dataclass(frozen=True)
class RelationInfo:
    iri: str
    name: str  # the name programs use, unique within the schema
    label: str  # forward reading: "directed by"
    reverse_label: str  # reverse reading: "directed"
    description: str = ""
    domain: tuple[str, ...] = ()  # class names; several where rdfs:domain lists several
    range: tuple[str, ...] = ()
    count: int = 0
    mirror_of: str = ""  # for a mirror: the name of the relation whose triples it holds reversed
    # The words people use for its objects, seen from a subject ("dad", "mother" for `parent`), and for its
    # subjects, seen from an object ("kid", "son"): the KG's relation lexicon (engine.bootstrap.lexicon,
    # kept by kg_adapters.lexicon), read like the labels wherever a question's words are matched to relations.
    words: tuple[str, ...] = ()
    reverse_words: tuple[str, ...] = ()
    # Read both ways: the KG stores each pair once, in no order, though the relation holds both ways ("borders").
    # Found where the KG is opened (kg_adapters.both_ways) or set by the user; `to_sparql` walks it either way.
    both_ways: bool = False
    # The relations that hold its pairs reversed (`child` for `father`): found where the KG is opened
    # (kg_adapters.inverses); a walk out over one and back over the other comes back where it began.
    inverse_of: tuple[str, ...] = ()
    # A union's members (kg_adapters.unions): the relations it walks either of ("father", "mother" for a parent).
    # It has no triples of its own.
    either: tuple[str, ...] = ()

    @property
    def links_one_class(self) -> bool:
        """Between members of one class (`neighbour`, `parent`): its domain, given, is its range."""
        return bool(self.domain) and set(self.domain) == set(self.range)


@dataclass(frozen=True)
class Schema:
    classes: tuple[ClassInfo, ...]
    relations: tuple[RelationInfo, ...]  # the relations the engine reasons over
    induced: bool = False
    mirrors: tuple[RelationInfo, ...] = ()  # reversed copies of relations above; found by name only
    # Pairs of entity classes (names, in order) that share members. One entity fills roles of several
    # induced classes (a PathQuestion country is the object of `nationality` and the subject of `events`),
    # so two classes that differ by name may still meet: (JOIN (R events) (JOIN (R nationality) X)) is typed.
    shared_members: tuple[tuple[str, str], ...] = ()
    _by_name: dict = field(default_factory=dict, compare=False, repr=False)
    _met: set = field(default_factory=set, compare=False, repr=False)  # shared_members, both ways round

    def __post_init__(self) -> None:
        index: dict[object, ClassInfo | RelationInfo] = {}
        for item in (*self.classes, *self.relations, *self.mirrors):
            kind = "class" if isinstance(item, ClassInfo) else "relation"
            for key in (item.name, item.iri):
                index.setdefault(key, item)
                index.setdefault((kind, key), item)
        self._by_name.update(index)
        self._met.update({*self.shared_members, *((b, a) for a, b in self.shared_members)})

    def meets(self, expected: frozenset[str] | None, actual: frozenset[str] | None) -> bool:
        """Whether a set of one of the `actual` classes may hold a member of one of the `expected` ones:
        unknown types always may; named classes may where they are the same or share members."""
        if expected is None or actual is None or expected & actual:
            return True
        return any((a, b) in self._met for a in expected for b in actual)

    def lookup(self, name_or_iri: str) -> ClassInfo | RelationInfo | None:
        return self._by_name.get(name_or_iri)

    def relation(self, name_or_iri: str) -> RelationInfo | None:
        """By name or IRI. Induced classes may share a relation's name (the objects of `continent` are
        a class `continent`), so relations and classes are looked up apart."""
        item = self._by_name.get(("relation", name_or_iri))
        return item if isinstance(item, RelationInfo) else None

    def class_(self, name_or_iri: str) -> ClassInfo | None:
        item = self._by_name.get(("class", name_or_iri))
        return item if isinstance(item, ClassInfo) else None

    def literal_kind(self, relation: RelationInfo) -> str:
        """"entity" for relations to entities, else the kind of literal they hold."""
        target = self.class_(relation.range[0]) if relation.range else None
        return target.kind if target else "entity"

    def holds_points_in_time(self, relation: RelationInfo) -> bool:
        """Whether the relation holds dates or years: a whole number there names a year ("hired after 2020"), which
        no date or xsd:gYear value equals as a number does. One class of years may hold xsd:gYear values and whole
        numbers alike (its datatype is the first role's), so every year relation is read so (to_sparql._YEAR)."""
        target = self.class_(relation.range[0]) if relation.range else None
        return target is not None and target.kind in ("date", "year")

    # ------------------------------------------------------------ persistence
    def to_json(self) -> str:
        return json.dumps(
            {
                "induced": self.induced,
                "classes": [asdict(c) for c in self.classes],
                "relations": [asdict(r) for r in self.relations],
                "mirrors": [asdict(r) for r in self.mirrors],
                "shared_members": [list(pair) for pair in self.shared_members],
            },
            indent=1,
        )

    @classmethod
    def from_json(cls, text: str) -> "Schema":
        data = json.loads(text)
        classes = tuple(
            ClassInfo(**{**c, "roles": tuple(Role(**r) for r in c["roles"]), "also": tuple(c.get("also", ()))})
            for c in data["classes"]
        )
        relations, mirrors = (
            tuple(RelationInfo(**{**r, **{k: tuple(r.get(k, ()))
                                          for k in ("domain", "range", "words", "reverse_words", "inverse_of",
                                                    "either")}})
                  for r in data[key])
            for key in ("relations", "mirrors")
        )
        shared = tuple(tuple(pair) for pair in data.get("shared_members", ()))
        return cls(classes, relations, data["induced"], mirrors, shared)

    def describe(self) -> str:
        """A plain-text listing, for the CLI and for LLM prompts."""
        lines = ["Classes:"]
        for c in sorted(self.classes, key=lambda c: (-c.size, c.name)):
            origin = "literal" if c.is_literal else "induced" if c.induced else "declared"
            origin += ", a stand-in name until the first question or bootstrap" if c.provisional else ""
            kind = f", {c.kind} literals" if c.is_literal else ""
            desc = f" - {c.description}" if c.description else ""
            lines.append(f"  {c.name:<16} {c.size:>8} members ({origin}{kind}){desc}")
        lines.append("Relations (domain -> relation -> range):")
        for r in sorted(self.relations, key=lambda r: r.name):
            lines.append(
                f"  {'|'.join(r.domain) or '?'} -> {r.name} -> {'|'.join(r.range) or '?'}    "
                f'"{r.label}" / reverse "{r.reverse_label}", {r.count} triples'
            )
        if self.mirrors:
            lines.append("Mirrors (the same triples reversed; read as (R relation)):")
            lines += [f"  {m.name} = (R {m.mirror_of})" for m in sorted(self.mirrors, key=lambda m: m.name)]
        return "\n".join(lines)


# ====================================================================== reading
# Share of the larger relation's triples that the reversed other must hold for the two to be mirrors.
# WorldCup2014 stores four relations twice, at 100%; no pair of PathQuestion's 411 relations passes 10%.
MIRROR_SHARE = 0.95


@dataclass(frozen=True)
class InductionConfig:
    sample: int = 50_000  # distinct fillers fetched per role
    min_overlap_share: float = 0.05  # of the smaller role, for two roles to be one class
    min_overlap_count: int = 20  # shared fillers, scaled down for tiny graphs
    timeout_s: float = 60.0


def read_schema(store: KGStore, config: InductionConfig = InductionConfig()) -> Schema:
    """The declared schema where there is one, induced wherever it is missing."""
    return _SchemaReader(store, config).read()


def cached_schema(store: KGStore, cache_dir: str | Path, config: InductionConfig = InductionConfig()) -> Schema:
    """Schema induction costs seconds; keep it next to the store, keyed by fingerprint."""
    path = schema_file(cache_dir, store.info.fingerprint, f"v{SCHEMA_VERSION}")
    if path.is_file():
        return Schema.from_json(path.read_text())
    schema = read_schema(store, config)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(schema.to_json())
    tmp.replace(path)
    return schema


@dataclass(frozen=True)
class SchemaEdit:
    """A user's wording for one class or relation.

    Programs keep naming it by `name`; the label and description are what prompts,
    readings and the UI show, so a user who knows the data can fix an induced
    "thing_2" into "award" before bootstrapping. None leaves a field as it was.
    """

    name: str
    label: str | None = None
    description: str | None = None
    words: tuple[str, ...] | None = None  # a relation's lexicon (RelationInfo.words); None: as it was
    reverse_words: tuple[str, ...] | None = None
    both_ways: bool | None = None  # a relation read both ways (RelationInfo.both_ways); None: as it was


class SchemaEditError(KGError):
    """An edit names no class or relation of the schema, or blanks a label."""


def apply_edits(schema: Schema, edits: list[SchemaEdit] | tuple[SchemaEdit, ...]) -> Schema:
    by_name = {e.name: e for e in edits}
    unknown = sorted(n for n in by_name if schema.class_(n) is None and schema.relation(n) is None)
    if unknown:
        raise SchemaEditError(f"the schema has no class or relation named {', '.join(map(repr, unknown))}")
    blank = sorted(n for n, e in by_name.items() if e.label is not None and not e.label.strip())
    if blank:
        raise SchemaEditError(f"a label cannot be empty ({', '.join(map(repr, blank))})")

    def edited(item):
        edit = by_name.get(item.name)
        if edit is None:
            return item
        item = replace(
            item,
            label=" ".join(edit.label.split()) if edit.label is not None else item.label,
            description=" ".join(edit.description.split()) if edit.description is not None else item.description,
        )
        if isinstance(item, RelationInfo):
            item = replace(item,
                           words=item.words if edit.words is None else clean_words(edit.words),
                           reverse_words=item.reverse_words if edit.reverse_words is None
                           else clean_words(edit.reverse_words),
                           both_ways=item.both_ways if edit.both_ways is None else bool(edit.both_ways))
        return item

    return Schema(
        tuple(map(edited, schema.classes)), tuple(map(edited, schema.relations)), schema.induced,
        tuple(map(edited, schema.mirrors)), schema.shared_members,
    )


def clean_words(given) -> tuple[str, ...]:
    """Words for a relation (RelationInfo.words) as the schema holds them: strings only, lower case, spaces
    folded, empties and repeats dropped. Whatever is not a list or tuple of them counts as none."""
    if not isinstance(given, (list, tuple)):
        return ()
    return tuple(dict.fromkeys(w for w in (" ".join(x.lower().split()) for x in given if isinstance(x, str)) if w))


def edits_path(cache_dir: str | Path, fingerprint: str) -> Path:
    return schema_file(cache_dir, fingerprint, "edits")


def schema_file(cache_dir: str | Path, fingerprint: str, kind: str) -> Path:
    """cache_dir/schemas/<fingerprint as a file name>-<kind>.json: the read schema and the user's edits."""
    key = re.sub(r"[^A-Za-z0-9]+", "_", fingerprint)[-80:]
    return Path(cache_dir) / "schemas" / f"{key}-{kind}.json"


def read_edits(path: Path) -> tuple[SchemaEdit, ...]:
    """The saved edits; an unreadable file counts as none (the induced schema still works)."""
    try:
        return tuple(SchemaEdit(**{**item, **{k: tuple(item[k]) for k in ("words", "reverse_words")
                                              if isinstance(item.get(k), list)},
                                   "both_ways": item.get("both_ways") if isinstance(item.get("both_ways"), bool)
                                   else None})
                     for item in json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError):
        return ()


def write_edits(path: Path, edits: list[SchemaEdit] | tuple[SchemaEdit, ...]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps([asdict(e) for e in edits], ensure_ascii=False, indent=1), encoding="utf-8")
    tmp.replace(path)


def rename_classes(schema: Schema, names: dict[str, str]) -> Schema:
    """Put nouns in for provisional class names ({"thing_with_directed_by": "movie"}), and add them to mixed
    classes as their one more word (`ClassInfo.also`), where no other class is called so.

    Unlike a SchemaEdit this changes the name programs use, which is why it is only for provisional names:
    they are replaced once, when a KG is first opened, before any corpus names them. Names of classes that
    are gone or no longer provisional are ignored (a schema re-read after the data changed)."""
    taken = {c.name for c in schema.classes}
    called = {_program_name(text.lower()) for c in schema.classes for text in (c.name, c.label)}
    renamed: dict[str, str] = {}
    labels: dict[str, str] = {}
    also: dict[str, str] = {}
    nouns = {info.name: " ".join(names.get(info.name, "").split()) for info in schema.classes}
    for info in schema.classes:
        if info.provisional and nouns[info.name]:
            renamed[info.name] = _free_name(_program_name(nouns[info.name]), taken)
            labels[info.name] = nouns[info.name]
    called |= {_program_name(noun.lower()) for noun in labels.values()}
    for info in schema.classes:
        if info.mixed and nouns[info.name] and _program_name(nouns[info.name].lower()) not in called:
            also[info.name] = nouns[info.name]
    if not renamed and not also:
        return schema

    def cls(info: ClassInfo) -> ClassInfo:
        if info.name in also:
            return replace(info, also=(also[info.name],))
        if info.name not in renamed:
            return info
        new = renamed[info.name]
        return replace(info, iri=class_iri(new) if info.induced else info.iri, name=new, label=labels[info.name],
                       provisional=False)

    def rel(info: RelationInfo) -> RelationInfo:
        return replace(info, domain=tuple(renamed.get(c, c) for c in info.domain),
                       range=tuple(renamed.get(c, c) for c in info.range))

    shared = tuple(tuple(sorted(renamed.get(c, c) for c in pair)) for pair in schema.shared_members)
    return Schema(tuple(map(cls, schema.classes)), tuple(map(rel, schema.relations)), schema.induced,
                  tuple(map(rel, schema.mirrors)), tuple(sorted(shared)))


def names_path(cache_dir: str | Path, fingerprint: str) -> Path:
    return schema_file(cache_dir, fingerprint, "names")


def read_names(path: Path) -> dict[str, str]:
    """The saved nouns for provisional classes; an unreadable file counts as none (the stand-ins still work)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(data, dict) else {}


def write_names(path: Path, names: dict[str, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(names, ensure_ascii=False, indent=1), encoding="utf-8")
    tmp.replace(path)


class _SchemaReader:
    def __init__(self, store: KGStore, config: InductionConfig):
        self.store = store
        self.config = config

    def _rows(self, sparql: str) -> list[tuple[Term | None, ...]]:
        return list(self.store.select(sparql, timeout_s=self.config.timeout_s).rows)

    def read(self) -> Schema:
        relations = self._relations()
        mirrors = self._mirrors(relations)
        relations = {p: n for p, n in relations.items() if p not in mirrors}
        types = self._declared_types()
        items = [*relations, *types]
        labels = self._annotations(items, RDFS_LABEL, SKOS_PREF_LABEL)
        comments = self._annotations(items, RDFS_COMMENT, SKOS_DEFINITION)
        declared_ranges = self._declared(RDFS_RANGE)
        declared_domains = self._declared(RDFS_DOMAIN)

        fillers = {
            Role(p, side): self._fillers(p, side) for p in relations for side in (SUBJECT, OBJECT)
        }
        role_class: dict[Role, list[str]] = {}  # role -> class keys
        classes: dict[str, ClassInfo] = {}
        for iri, size in types.items():
            classes[iri] = ClassInfo(iri, "", labels.get(iri, ""), comments.get(iri, ""), size=size)
        for p in relations:
            for side, declared in ((SUBJECT, declared_domains), (OBJECT, declared_ranges)):
                role = Role(p, side)
                literal = _literal_kind(fillers[role], p)
                if literal is not None:
                    dt_iri, kind = literal
                    classes.setdefault(kind, ClassInfo(dt_iri, kind, kind, _KIND_TEXT[kind], datatype=dt_iri, kind=kind))
                    role_class[role] = [kind]
                elif any(c in classes for c in declared.get(p, ())):
                    role_class[role] = [c for c in declared[p] if c in classes]
                elif types:
                    common = self._common_types(p, side)
                    if common:
                        role_class[role] = common
        induced = [r for r in fillers if r not in role_class and fillers[r]]
        literal = {key for key, info in classes.items() if info.is_literal}
        groups, attached = _induced_groups(induced, fillers, role_class, literal, self.config)
        for group in groups:
            members = set().union(*(fillers[r] for r in group if r not in attached))
            name, provisional, mixed = _induced_name(group)
            iri = class_iri(name)
            own = tuple(sorted((r for r in group if r not in attached), key=_role_key))  # a shared attribute: no test
            classes[iri] = ClassInfo(iri, name, name, _induced_description(group), induced=True, roles=own,
                                     size=len(members), provisional=provisional, mixed=mixed)
            for role in group:
                role_class.setdefault(role, []).append(iri)
        for key, info in list(classes.items()):
            if info.is_literal:
                members = set().union(*(fillers[r] for r, cs in role_class.items() if key in cs))
                classes[key] = _replace(info, size=len(members))
        classes = _unique_names(classes)
        rels = tuple(
            _relation_info(p, n, labels, comments, classes, role_class) for p, n in sorted(relations.items())
        )
        used = {name for r in rels for name in (*r.domain, *r.range)}
        kept = tuple(c for c in classes.values() if c.name in used or not c.is_literal)
        by_iri = {r.iri: r for r in rels}
        mirrored = tuple(
            _mirror_info(p, by_iri[primary], labels, comments) for p, primary in sorted(mirrors.items())
        )
        return Schema(kept, rels, induced=any(c.induced for c in kept), mirrors=mirrored,
                      shared_members=_shared_members(
                          {r: cs for r, cs in role_class.items() if r not in attached}, fillers, classes))

    # ------------------------------------------------------------ queries
    def _relations(self) -> dict[str, int]:
        rows = self._rows("SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p")
        return {p.value: int(n.value) for p, n in rows
                if p and p.value not in ANNOTATION_PREDICATES and not is_vocabulary(p.value)}

    def _mirrors(self, relations: dict[str, int]) -> dict[str, str]:
        """Relations that hold another's triples reversed: mirror IRI -> primary IRI.

        One self-join over the store counts, for every pair of relations, the triples of the first
        whose reverse is a triple of the second. A pair is a mirror where that covers both relations
        up to `MIRROR_SHARE`. A store too large for the join within the deadline has no mirrors."""
        try:
            rows = self._rows(
                "SELECT ?a ?b (COUNT(*) AS ?n) WHERE { ?s ?a ?o . ?o ?b ?s FILTER(isIRI(?o) && ?a != ?b) } GROUP BY ?a ?b"
            )
        except KGError:
            return {}
        mirrors: dict[str, str] = {}
        for a, b, n in sorted(rows, key=lambda r: (r[0].value, r[1].value) if r[0] and r[1] else ("", "")):
            if not (a and b and n) or a.value not in relations or b.value not in relations:
                continue
            shared, larger = int(n.value), max(relations[a.value], relations[b.value])
            if shared < MIRROR_SHARE * larger or {a.value, b.value} & (set(mirrors) | set(mirrors.values())):
                continue
            primary, mirror = sorted((a.value, b.value), key=_primary_first)
            mirrors[mirror] = primary
        return mirrors

    def _declared_types(self) -> dict[str, int]:
        rows = self._rows(f"SELECT ?c (COUNT(?x) AS ?n) WHERE {{ ?x <{RDF_TYPE}> ?c }} GROUP BY ?c")
        types = {c.value: int(n.value) for c, n in rows if c and c.is_iri and not is_vocabulary(c.value)}
        declared = self._rows(
            f"SELECT DISTINCT ?c WHERE {{ {{ ?c <{RDF_TYPE}> <{RDFS_CLASS}> }} UNION {{ ?c <{RDF_TYPE}> <{OWL_CLASS}> }} }}"
        )
        for (c,) in declared:
            if c and c.is_iri and not is_vocabulary(c.value):
                types.setdefault(c.value, 0)
        return types

    def _annotations(self, items: list[str], *predicates: str) -> dict[str, str]:
        """One English (or untagged) annotation per schema item; the first predicate wins."""
        if not items:
            return {}
        values = " ".join(f"<{iri}>" for iri in items)
        best: dict[str, tuple[int, str]] = {}
        for rank, pred in enumerate(predicates):
            for x, text in self._rows(f"SELECT ?x ?l WHERE {{ VALUES ?x {{ {values} }} ?x <{pred}> ?l }}"):
                if not (x and text):
                    continue
                english = (text.lang or "en").startswith("en")
                score = rank * 10 + (0 if english else 5)
                if x.value not in best or score < best[x.value][0]:
                    best[x.value] = (score, text.value)
        return {k: v for k, (_, v) in best.items()}

    def _declared(self, predicate: str) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for p, c in self._rows(f"SELECT ?p ?c WHERE {{ ?p <{predicate}> ?c }} ORDER BY ?p ?c"):
            if p and c:
                found.setdefault(p.value, []).append(c.value)
        return found

    def _fillers(self, relation: str, side: str) -> set[Term]:
        var = "?s" if side == SUBJECT else "?o"
        rows = self._rows(f"SELECT DISTINCT {var} WHERE {{ ?s <{relation}> ?o }} LIMIT {self.config.sample}")
        return {row[0] for row in rows if row[0] is not None}

    def _common_types(self, relation: str, side: str) -> list[str]:
        """The classes of a role's fillers, the commonest first: each that holds SHARED_ROLE_SHARE of the commonest
        one's count or more. A relation two classes share ("population" of states and of cities) has both as its
        domain; with the commonest alone, a made-up US-geography KG could not rank its states by population."""
        pattern = f"?x <{relation}> [] ." if side == SUBJECT else f"[] <{relation}> ?x ."
        rows = self._rows(
            f"SELECT ?c (COUNT(DISTINCT ?x) AS ?n) WHERE {{ {pattern} ?x <{RDF_TYPE}> ?c }} GROUP BY ?c ORDER BY DESC(?n) "
            f"LIMIT {MAX_SHARED_ROLE_CLASSES}"
        )
        counted = [(row[0].value, int(row[1].value)) for row in rows if row[0] is not None and row[1] is not None]
        return [c for c, n in counted if n >= SHARED_ROLE_SHARE * counted[0][1]] if counted else []


# A class is one of a role's classes where it holds this share of the commonest class's fillers or more: 7 states
# beside 16 cities with a population (0.44) is a shared relation, a stray typed filler or two is not. Set by
# reading: the typed dev KGs (university, geography-demo) induce the same domains and ranges with it as with the
# commonest class alone (a one-off script, BENCHMARKS.md "Made-up KGs asked zero-shot ...").
SHARED_ROLE_SHARE = 0.25
MAX_SHARED_ROLE_CLASSES = 8


# ================================================================ literal typing
_KIND_TEXT = {
    "year": "A calendar year.",
    "integer": "A whole number.",
    "decimal": "A number with a fraction.",
    "date": "A calendar date.",
    "boolean": "Yes or no.",
    "text": "A piece of text.",
}
_KIND_DATATYPE = {
    "year": XSD + "integer",
    "integer": XSD + "integer",
    "decimal": XSD + "decimal",
    "date": XSD + "date",
    "boolean": XSD + "boolean",
    "text": XSD + "string",
}
_INTEGER_TYPES = {XSD + t for t in ("integer", "int", "long", "short", "nonNegativeInteger", "positiveInteger")}
_DECIMAL_TYPES = {XSD + t for t in ("decimal", "double", "float")}


def _literal_kind(fillers: set[Term], relation: str) -> tuple[str, str] | None:
    """(datatype IRI, kind) when the role holds literals, else None."""
    literals = [t for t in fillers if t.is_literal]
    if not literals or len(literals) < len(fillers) / 2:
        return None
    datatypes = Counter(t.datatype for t in literals)
    top = datatypes.most_common(1)[0][0]
    if top == XSD + "gYear":
        return top, "year"
    if top in _INTEGER_TYPES:
        values = [int(t.value) for t in literals if re.fullmatch(r"[+-]?\d+", t.value)]
        yearish = values and all(1000 <= v <= 2100 for v in values)
        if yearish and ("year" in local_name(relation).lower() or len(set(values)) >= 5):
            return top, "year"
        return top, "integer"
    if top in _DECIMAL_TYPES:
        return top, "decimal"
    if top in (XSD + "date", XSD + "dateTime"):
        return top, "date"
    if top == XSD + "boolean":
        return top, "boolean"
    return _KIND_DATATYPE["text"], "text"


# ================================================================ induction
def _shared_members(role_class: dict[Role, list[str]], fillers: dict[Role, set[Term]],
                    classes: dict[str, ClassInfo]) -> tuple[tuple[str, str], ...]:
    """The pairs of entity classes with a member in common (by the role samples), as ordered name pairs."""
    held: dict[Term, set[str]] = {}
    for role, keys in role_class.items():
        names = {classes[k].name for k in keys if k in classes and not classes[k].is_literal}
        for member in fillers.get(role, ()) if names else ():
            held.setdefault(member, set()).update(names)
    pairs = {(a, b) for names in held.values() if len(names) > 1 for a in names for b in names if a < b}
    return tuple(sorted(pairs))


def _role_key(role: Role) -> tuple[str, str]:
    return (local_name(role.relation), role.side)


def _merge_roles(roles: list[Role], fillers: dict[Role, set[Term]], config: InductionConfig,
                 min_count: int) -> list[list[Role]]:
    """Union roles whose fillers overlap well beyond name collisions.

    Entities of unrelated kinds share a few names by accident (a film and a tag both
    called "Crash"); roles of one kind share hundreds. So two roles merge when they
    share a real count of fillers *and* a share of the smaller role.
    """
    parent = {r: r for r in roles}

    def find(r: Role) -> Role:
        while parent[r] != r:
            parent[r] = parent[parent[r]]
            r = parent[r]
        return r

    ordered = sorted(roles, key=_role_key)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if _overlap(fillers[a], fillers[b], min_count, config):
                parent[find(a)] = find(b)
    groups: dict[Role, list[Role]] = {}
    for r in ordered:
        groups.setdefault(find(r), []).append(r)
    return list(groups.values())


def _min_count(roles: list[Role], fillers: dict[Role, set[Term]], config: InductionConfig) -> int:
    """The shared fillers two roles need to be one class, scaled down for tiny graphs."""
    universe = len(set().union(*(fillers[r] for r in roles))) if roles else 0
    return max(2, min(config.min_overlap_count, universe // 1000 + 2))


def _overlap(a: set[Term], b: set[Term], min_count: int, config: InductionConfig) -> bool:
    """Whether two roles' fillers overlap beyond name collisions: a real count and a share of the smaller."""
    shared = len(a & b)
    return shared >= min_count and shared >= config.min_overlap_share * min(len(a), len(b))


def _induced_groups(induced: list[Role], fillers: dict[Role, set[Term]], role_class: dict[Role, list[str]],
                    literal: set[str], config: InductionConfig) -> tuple[list[list[Role]], set[Role]]:
    """The induced classes as groups of roles, and the attribute roles attached to more than one of them.

    An attribute (the subjects of a relation to literals: "founded", "population") is shared by kinds of
    thing that nothing else joins: airlines and alliances both have a founding year, cities and states a
    population. Merged like the other roles, one such attribute glued those kinds into one class, which no
    noun names. So the classes are formed by the roles between entities alone, and an attribute joins each
    class its subjects overlap as roles merge (`_merge_roles`' test), as a relation of that domain but, where it
    joins two or more, not as a test of membership (`ClassInfo.roles`: a founding year says no airline); subjects
    that fill no other role (things known only by their attributes) still form a class of their own from those."""
    attributes = [r for r in induced if r.side == SUBJECT and
                  any(c in literal for c in role_class.get(Role(r.relation, OBJECT), ()))]
    min_count = _min_count(induced, fillers, config)
    groups = _merge_roles([r for r in induced if r not in attributes], fillers, config, min_count)
    members = [set().union(*(fillers[r] for r in g)) for g in groups]
    unplaced, attached = [], set()
    for attribute in attributes:
        owners = [g for g, held in zip(groups, members) if _overlap(fillers[attribute], held, min_count, config)]
        for group in owners:
            group.append(attribute)
        if len(owners) > 1:
            attached.add(attribute)
        if not owners:
            unplaced.append(attribute)
    groups = [sorted(g, key=_role_key) for g in groups + _merge_roles(unplaced, fillers, config, min_count)]
    return sorted(groups, key=lambda g: _role_key(g[0])), attached


def _induced_name(group: list[Role]) -> tuple[str, bool, bool]:
    """(name, provisional, mixed). Objects are named by what the relations call them (directed_by -> director;
    several agent nouns -> person); subjects by naming convention or a shared verb (`subject_noun`), else by a
    noun an object role's name holds (`kind_noun`: in_country -> country; "person" where several such nouns all name
    persons, as the objects of `father`, `mother` and `spouse` are), else by the one agent noun of its object
    roles (coached_by -> coach). Where none says, what the subjects are takes knowledge of the world, not of
    English: they get a stand-in name from their first relation, marked provisional for a namer to replace. Objects that relations call by several nouns are a mixed class:
    the nouns stay its name, and a namer adds one noun for them all (ClassInfo.also), unless most of the nouns
    share their head noun: a home club and an away club are clubs (`shared_head`)."""
    objects = [r for r in group if r.side == OBJECT]
    subjects = [r for r in group if r.side == SUBJECT]
    if objects and len(objects) >= len(subjects):
        nouns = sorted({_agent_name(r.relation) or object_noun(r.relation) for r in objects})
        if names_people(nouns):
            return "person", False, False
        if len(nouns) == 1:
            return nouns[0], False, False
        head = shared_head(nouns)
        return (head, False, False) if head else (" or ".join(nouns[:3]), False, True)
    named = subject_noun([r.relation for r in subjects])
    if named:
        return named, False, False
    kinds = Counter(kind for r in objects if (kind := kind_noun(r.relation)))
    if len(kinds) > 1 and all(names_a_person(kind) for kind in kinds):  # a father, a mother and a spouse: persons
        return "person", False, False
    if kinds:  # the objects of in_country are countries, whatever else they are the subjects of
        return min(kinds, key=lambda k: (-kinds[k], k)), False, False
    agents = {noun for r in objects if (noun := _agent_name(r.relation))}
    if len(agents) == 1:  # the objects of coached_by are coaches, whatever else they are the subjects of
        return agents.pop(), False, False
    return "thing with " + relation_label(sorted(subjects, key=_role_key)[0].relation), True, False


def _agent_name(relation: str) -> str | None:
    """The agent noun of a "<verb>ed by" relation's objects where English has one: "director" for directed_by, and
    the verb itself where it names a person and the -er form is no word ("coach" for coached_by, not "coacher");
    None for other relations, and for "treated by" (a treat is no person)."""
    ws = [w.lower() for w in words(relation)]
    noun = object_noun(relation)
    if len(ws) < 2 or ws[-1] != "by" or not is_agent_noun(noun.split()[-1]):
        return None
    if getAllLemmas(noun.split()[-1]).get("NOUN"):
        return noun
    verb = getLemma(ws[-2], upos="VERB")[0]
    return verb if names_a_person(verb) else None


def _induced_description(group: list[Role]) -> str:
    parts = [
        f"{'subject' if r.side == SUBJECT else 'object'} of {local_name(r.relation)}"
        for r in sorted(group, key=_role_key)
    ]
    return "Induced from the data: entities that are the " + ", ".join(parts) + "."


# ================================================================ assembly
def _replace(info: ClassInfo, **changes) -> ClassInfo:
    return ClassInfo(**{**asdict(info), "roles": info.roles, **changes})


def _unique_names(classes: dict[str, ClassInfo]) -> dict[str, ClassInfo]:
    """Give every class a program name: its label or local name, made unique."""
    taken: set[str] = set()
    out: dict[str, ClassInfo] = {}
    for key, info in sorted(classes.items(), key=lambda kv: (not kv[1].induced, -kv[1].size, kv[0])):
        name = _free_name(_program_name(info.name or local_name(info.iri)), taken)
        label = info.label or local_name(info.iri)
        out[key] = _replace(info, name=name, label=label)
    return out


def _free_name(base: str, taken: set[str]) -> str:
    """`base`, or `base_2`, `base_3`... whichever is not taken yet; it is taken from then on."""
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    taken.add(name)
    return name


def _program_name(text: str) -> str:
    return re.sub(r"\W+", "_", text.strip()).strip("_") or "thing"


def _relation_info(
    iri: str,
    count: int,
    labels: dict[str, str],
    comments: dict[str, str],
    classes: dict[str, ClassInfo],
    role_class: dict[Role, list[str]],
) -> RelationInfo:
    label = labels.get(iri, "")
    if not label or [w.lower() for w in words(label)] == [w.lower() for w in words(iri)]:
        label = relation_label(iri)  # a label that only spells the name (as loaders write them) says nothing more

    def names(side: str) -> tuple[str, ...]:
        return tuple(classes[k].name for k in role_class.get(Role(iri, side), []) if k in classes)

    return RelationInfo(
        iri=iri,
        name=_program_name(local_name(iri)),
        label=label,
        reverse_label=reverse_label(label),
        description=comments.get(iri, ""),
        domain=names(SUBJECT),
        range=names(OBJECT),
        count=count,
    )


# A mirror reversal word ("plays_in_club_inverse", "reverse_of_capital") marks the copy, not the primary.
_REVERSAL_WORDS = {"inverse", "inv", "reverse", "reversed", "rev"}


def _primary_first(relation: str) -> tuple[bool, int, str]:
    """Sort key that puts the relation to keep first: no reversal word, then the shorter name."""
    return (bool({w.lower() for w in words(relation)} & _REVERSAL_WORDS), len(local_name(relation)), relation)


def _mirror_info(iri: str, primary: RelationInfo, labels: dict[str, str], comments: dict[str, str]) -> RelationInfo:
    label = labels.get(iri) or primary.reverse_label
    return RelationInfo(
        iri=iri,
        name=_program_name(local_name(iri)),
        label=label,
        reverse_label=primary.label,
        description=comments.get(iri, ""),
        domain=primary.range,
        range=primary.domain,
        count=primary.count,
        mirror_of=primary.name,
    )
