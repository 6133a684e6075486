"""Enumeration: the programs one search step may build (method.md step 3, "enumerate").

Step 1 starts from the anchors, one rule per kind of node (`START_RULES`): an entity is joined over
every relation it really has, a literal is matched and compared over the numeric relations it fits.
When the question names only classes, the classes themselves start the search.

Each later step extends the members of the best set that were not extended yet, one rule per
operator (`EXTENSION_RULES`), like the compiler's `RULES`: a new operator is one entry. The rules run
in table order for each member, and that build order is kept as the tie-break of pruning, so their
order is part of the behaviour. Every program is typed by `validate`; ill-typed ones are dropped.
The module is longer than 400 lines because the rules are one table, read in one place, like the compiler's.
"""

from __future__ import annotations

import re
from functools import reduce
from typing import Callable, Iterable

from engine.config import ScoutConfig
from engine.programs.kg import KnowledgeGraph
from engine.programs.sexpr import (
    BOOLEANS,
    Aggregate,
    And,
    Chain,
    Class,
    Compare,
    Count,
    Degree,
    Entity,
    In,
    Join,
    Literal,
    Node,
    Not,
    Or,
    Program,
    ProgramError,
    Relation,
    Reverse,
    Superlative,
    calendar_year,
    is_set,
    relation_name,
    relations,
    to_text,
    walk,
)
from engine.programs.validate import NUMERIC_KINDS, TIME_KINDS, validate
from kg_adapters.readable import relation_label
from kg_adapters.schema import RelationInfo, Schema

from .asked import counted_classes
from .degree import comparatives, counted_comparisons, in_time, lasting, ranks_by_count
from .question import Anchor, Question
from .search import ProgramCandidate
from .usual import UsualTies, incident

AND_POOL = 24  # kept candidates that new beam members may be ANDed with
JOIN_MAX_ANSWERS = 10_000  # larger sets are still counted, ranked and intersected, but not joined further
# A set reached over two or more relations is joined further only when it is this small. "Films that share a
# genre with X" has thousands of members, and joins from it ran up to the 20 s query deadline (MoviesKG:
# "what is the genre for [Mystic River]" took 43 s, 25 s of it executing such candidates). Chains that
# questions follow pass through a few people or films (the films of X's director or actors), far below it.
CHAIN_JOIN_MAX_ANSWERS = 1_000
# A set of at most this many entities is joined over the relations its members really have (one query),
# not over the relations the schema types to its class. Induced classes are not disjoint: a PathQuestion
# country is the object of `nationality` (one class) and the subject of `events` (another), and "what is
# X 's nationality 's events" was never built. The same bound as chains, so every joinable chain qualifies.
OBSERVED_JOIN_MAX_ANSWERS = CHAIN_JOIN_MAX_ANSWERS
_INTEGER_KINDS = frozenset({"year", "integer", "decimal"})

Built = Iterable[ProgramCandidate | None]


class Enumerator:
    """Builds candidates over one KG's schema; each entity's incident relations come from its counted ties
    (engine.answer.usual), which the pruner shares, so one query per entity serves both."""

    def __init__(self, kg: KnowledgeGraph, config: ScoutConfig):
        self.schema, self.executor, self.config = kg.schema, kg.executor, config
        self.numeric = [r for r in self.schema.relations if self.schema.literal_kind(r) in NUMERIC_KINDS]
        self.numeric_names = frozenset(r.name for r in self.numeric)
        self.yes_no = [r for r in self.schema.relations if self.schema.literal_kind(r) == "boolean"]
        self.ties = UsualTies(kg.schema, kg.executor)

    # ------------------------------------------------------------------ step 1
    def first(self, question: Question) -> list[ProgramCandidate]:
        out: list[ProgramCandidate | None] = []
        for anchor in question.anchors:
            out += START_RULES[type(anchor.node)](self, question, anchor)
        if not question.anchors:  # only class words: the classes themselves start the search
            for name in question.classes:
                out += [self.typed(Class(name), frozenset()), *_class_rankings(self, question, name)]
        out += _choices(self, question)
        out += _asked_class_rankings(self, question)
        out = [c for c in out if c is not None]
        if self.yes_no:
            out += self._first_flags(question, out)
        return [c for c in out if c is not None]

    def _first_flags(self, question: Question, built: list[ProgramCandidate]) -> Built:
        """The yes/no filters the question names: alone where no name anchors it or it asks yes/no ("which projects
        are active?", "is X active?"), and ANDed with the sets built from its names ("which active projects does X
        work on": built now, as a step later the walks from X outnumber the ones kept)."""
        if not question.anchors or question.asks_yes_no:
            yield from (self.typed(flag, frozenset()) for flag in self.flags(question))
        for cand in built:
            yield from _flagged(self, question, cand, [])

    def flags(self, question: Question) -> list[Join]:
        """(JOIN r true) or (JOIN r false) for each yes/no relation the question's words name, by whether they
        deny it (`_value`): no anchor stands for the value in "which projects are active?" or "how many are not
        listed?"."""
        return [Join(Relation(info.name), Literal(_value(info, question), "boolean")) for info in self.yes_no
                if info.name in question.named_relations or _denied(info, question.text)]

    def prefetch(self, question: Question) -> None:
        """Read the anchors' incident relations, which step 1 and the prompt's schema lines need."""
        for anchor in question.anchors:
            if isinstance(anchor.node, Entity):
                self.incident_relations(anchor.node.iri)

    # ------------------------------------------------------------------ later steps
    def expand(self, question: Question, todo: list[ProgramCandidate],
               pool: list[ProgramCandidate]) -> list[ProgramCandidate]:
        partners = sorted(pool, key=lambda c: (-(c.forward if c.forward is not None else -1e9), c.order))
        partners = partners[:AND_POOL]  # the best-scored kept candidates
        out: list[ProgramCandidate | None] = []
        for cand in todo:
            for rule in EXTENSION_RULES:
                out += rule(self, question, cand, partners)
        return [c for c in out if c is not None]

    def joinable(self, program: Program, size: int) -> bool:
        """Joined further only below the explorer's length and while its answer set is small enough.

        No exemplar is longer than `max_relations` (exploration stops there), so the scorer has never seen a
        longer program, and question generation never voiced one."""
        n = len(relations(program))
        if n >= self.config.max_relations:
            return False
        return size <= (JOIN_MAX_ANSWERS if n <= 1 else CHAIN_JOIN_MAX_ANSWERS)

    def join_ends(self, cand: ProgramCandidate) -> list[tuple[RelationInfo, str]]:
        """(relation, side) pairs a set may be joined over, in schema order: the side its members fill.

        Observed on the members where the set is small enough (`OBSERVED_JOIN_MAX_ANSWERS`), else read off
        the schema's typing of its classes."""
        observed = self._observed_relations(cand)
        if observed is not None:
            return [(info, side) for info in self.schema.relations for side in ("object", "subject")
                    if (info.name, side) in observed]
        return [(info, side) for info in self.schema.relations
                for side, ends in (("object", info.range), ("subject", info.domain)) if _overlaps(ends, cand.types)]

    def _observed_relations(self, cand: ProgramCandidate) -> set[tuple[str, str]] | None:
        """(relation name, side) the set's members take part in; None where they are not all entities or
        the set is too large to ask about."""
        answers = cand.execution.answers if cand.execution is not None and cand.execution.count is None else ()
        if not answers or len(answers) > OBSERVED_JOIN_MAX_ANSWERS or any(a.iri is None for a in answers):
            return None
        return self.relations_taken_part_in([a.iri for a in answers])

    def numeric_paths(self, types: frozenset[str] | None) -> list[Relation | Chain]:
        """One- and two-hop paths from the answers' classes to a number or date, for superlatives."""
        direct, chains = [], []
        for info in self.schema.relations:
            if not _overlaps(info.domain, types):
                continue
            kind = self.schema.literal_kind(info)
            if kind in NUMERIC_KINDS:
                direct.append(Relation(info.name))
            elif kind == "entity" and info.range:
                for second in self.numeric:
                    if set(info.range) & set(second.domain):
                        chains.append(Chain(Relation(info.name), Relation(second.name)))
        return direct + chains

    def degree_paths(self, types: frozenset[str] | None) -> list[Degree]:
        """(COUNT r) and (COUNT (R r)) over the entity relations the answers' classes take part in: how many
        neighbours each has, for "the country with the most neighbours"."""
        return [Degree(path) for info in self.schema.relations if self.schema.literal_kind(info) == "entity"
                for path, ends in ((Relation(info.name), info.domain), (Reverse(Relation(info.name)), info.range))
                if _overlaps(ends, types)]

    def typed(self, program: Program, anchors: frozenset[int],
              parent: ProgramCandidate | None = None) -> ProgramCandidate | None:
        """A candidate with its answer classes, or None when ill-typed or longer than exploration builds."""
        if len(relations(program)) > self.config.max_relations:
            return None  # no exemplar is longer, and no generated question voiced one
        try:
            types = validate(program, self.schema)
        except ProgramError:
            return None
        return ProgramCandidate(program, to_text(program), anchors, types, parent=parent)

    def incident_relations(self, iri: str) -> tuple[tuple[str, str], ...]:
        """(relation name, side) for every schema relation the entity takes part in; empty on a timeout (the
        schema's typing then stands in)."""
        return tuple(sorted(self.ties.ties(iri)))

    def relations_taken_part_in(self, iris: list[str]) -> set[tuple[str, str]] | None:
        """(relation name, side) for every schema relation one of the entities takes part in, in one query;
        None when the store could not answer (a timeout)."""
        found = incident(self.executor, self.schema, iris)
        return None if found is None else set(found)


# ==================================================================== step 1: one rule per anchor kind
def _joins_from_entity(en: Enumerator, q: Question, anchor: Anchor) -> Built:
    """(JOIN r X) or (JOIN (R r) X) over each relation the entity takes part in, on its side."""
    node, anchors = anchor.node, frozenset({anchor.mention})
    for name, side in en.incident_relations(node.iri):
        rel = Relation(name)
        joined = en.typed(Join(rel, node) if side == "object" else Join(Reverse(rel), node), anchors)
        yield joined
        yield from _count_of_counted(en, q, joined)
        if anchor.mention in q.compared and side == "subject" and name in en.numeric_names:
            # "larger than France": France's own value; both ways where no word says which ("further north than")
            for op in [op for op in _compared_ways(q, anchor.mention) or ("lt", "gt") if op in ("gt", "lt")]:
                compare = en.typed(Compare(op, rel, node), anchors)
                yield compare
                if compare is not None:  # "is Brazil bigger than Canada": asked now, as the scorer ranks it low
                    yield from _membership(en, q, compare, [])


def _compared_ways(q: Question, mention: int) -> tuple[str, ...]:
    """The ways a comparison with one name may go: by the words of degree of its own clause, from the name compared
    before it (or the start) to it, where they say one way, else by the question's: "heavier than X but lighter
    than Y" is (gt mass X) and (lt mass Y) (a made-up science KG had compared both one way)."""
    mentions = q.linking.mentions
    start = max((mentions[i].end for i in q.compared if mentions[i].end <= mentions[mention].start), default=0)
    own = comparatives(q.text[start:mentions[mention].start])
    return own if own and len({op[0] for op in own}) == 1 else q.comparatives


def _comparisons_from_literal(en: Enumerator, q: Question, anchor: Anchor) -> Built:
    """Things whose numeric relation equals, or compares with, the literal; compared in time ("before 1700") over
    a year or a date only, where one fits (`degree.in_time`); a number with a unit only with the relations of its
    dimension, in their units (`quantities`)."""
    node, anchors = anchor.node, frozenset({anchor.mention})
    measured = q.measures.get(anchor.mention)  # "taller than 2 metres": the relations of lengths, in their units
    fitting = [info for info in en.numeric if _literal_fits(node, en.schema.literal_kind(info))
               and (measured is None or info.name in measured)]
    timed = in_time(q.text) and any(en.schema.literal_kind(info) in TIME_KINDS for info in fitting)
    for info in fitting:
        rel, value = Relation(info.name), measured[info.name] if measured else node
        if anchor.mention not in q.bounds:
            yield en.typed(Join(rel, value), anchors)
        for op in q.comparatives if not timed or en.schema.literal_kind(info) in TIME_KINDS else ():
            yield en.typed(Compare(op, rel, value), anchors)
    yield from _count_comparisons(en, q, anchor)


def _count_comparisons(en: Enumerator, q: Question, anchor: Anchor) -> Built:
    """ "clients with more than 2 projects", "students taking more than 3 courses": (gt (COUNT r) 2) over each
    relation whose far end the noun right after the number names, as a class or as the relation's own noun. Only
    a whole number right after a word of degree counts so (a made-up consultancy KG and the university KG's blind
    questions had compared the number with a budget or a credit value)."""
    if anchor.node.kind != "integer" or anchor.mention not in q.bounds or not q.comparatives:
        return
    classes, word = _named_after(q, anchor.mention)
    for path in en.degree_paths(None):
        rel = path.relation
        info = en.schema.relation(relation_name(rel))
        forward = isinstance(rel, Relation)
        spelling = q.named_relations.get(info.name)
        nouns = (spelling.by_noun if forward else spelling.by_back_noun) if spelling is not None else frozenset()
        if set(info.range if forward else info.domain) & classes or word in nouns:
            for op in counted_comparisons(q.text, q.comparatives):
                yield en.typed(Compare(op, path, anchor.node), frozenset({anchor.mention}))


def _named_after(q: Question, mention: int) -> tuple[set[str], str]:
    """The classes a class noun right after a mention names, and the word right after it: "2 projects"."""
    mentions, end = q.linking.mentions, q.linking.mentions[mention].end
    following = re.match(r"\s*([\w'-]+)", q.text[end:])
    after = mentions[mention + 1:mention + 2]
    classes = {c.label for m in after if m.kind == "class" and not q.text[end:m.start].strip()
               for c in m.candidates if c.kind == "class"}
    return classes, following.group(1).lower() if following else ""


def _choices(en: Enumerator, q: Question) -> Built:
    """Named entities taken together: "Brazil or Argentina, which is bigger" ranks their union
    (ARGMAX (OR A B) r); "the combined population of Spain and Portugal" sums it (SUM (OR A B) r)."""
    names = q.choice if len(q.choice) > 1 else q.listed if q.aggregate else ()
    for union in _unions(q, names):
        classes = frozenset(c for anchor in union for c in anchor.candidate.classes) or None
        for cand in _choice(en, q, frozenset(names), tuple(anchor.node for anchor in union)):
            if cand is not None and cand.types is None:
                cand.types = classes  # the union's own classes: "who directed more films, X or Y" asks a person
            yield cand


def _unions(q: Question, names: tuple[int, ...]) -> list[tuple[Anchor, ...]]:
    """The entities a choice may be between: each named mention's best-linked one; and, for each class of the
    first mention's entities, each mention's best entity of that class. "spielberg or scorsese" links each name
    to a tag first and to a person second; only the people directed films."""
    linked = [[a for a in q.anchors if a.mention == m and isinstance(a.node, Entity)] for m in names]
    linked = [anchors for anchors in linked if anchors]
    if len(linked) < 2:
        return []
    unions = [tuple(anchors[0] for anchors in linked)]
    for cls in dict.fromkeys(c for a in linked[0] for c in a.candidate.classes):
        union = tuple(next((a for a in anchors if cls in a.candidate.classes), None) for anchors in linked)
        if None not in union and union not in unions:
            unions.append(union)
    return unions


def _choice(en: Enumerator, q: Question, names: frozenset[int], union: tuple[Entity, ...]) -> Built:
    typed = en.typed(reduce(Or, union), names)
    if typed is None:
        return
    yield typed  # the bare union is a reading no scorer likes: its ranking or total is built now
    yield from _totals(en, q, typed)
    if len(q.choice) < 2:
        return
    # by a number ("which is bigger"), or by how many things each has over a relation ("who directed more films,
    # X or Y": (COUNT (R directed_by))); in the direction the degree word says ("smaller", "oldest": ARGMIN)
    observed = sorted({pair for node in union for pair in en.incident_relations(node.iri)})
    infos = [(en.schema.relation(name), side) for name, side in observed]
    paths = en.numeric_paths(typed.types) + [
        Degree(Relation(info.name) if side == "subject" else Reverse(Relation(info.name))) for info, side in infos
        if info is not None and en.schema.literal_kind(info) == "entity"]
    for path in paths:
        for op in _ways(en, q, path):
            yield en.typed(Superlative(op, typed.program, path), typed.anchors)


def _class_rankings(en: Enumerator, q: Question, name: str, less: Anchor | None = None) -> Built:
    """ "which country has the most neighbours": a whole class ranked, built with the class itself, as a
    question without names has no anchor for later steps to grow a ranking from. `less`: one member taken out
    first, a name the question negates ("apart from English, which language are the most movies in")."""
    if not q.asks_superlative:
        return
    types, ranked, anchors = frozenset({name}), Class(name), frozenset()
    if less is not None:
        ranked, anchors = And(ranked, Not(less.node)), frozenset({less.mention})
        yield en.typed(ranked, anchors)
    counts = en.degree_paths(types) if ranks_by_count(q.text, q.superlative_at) else []
    for path in _own_first(q, en.numeric_paths(types)) + counts:
        for op in _ways(en, q, path):
            yield en.typed(Superlative(op, ranked, path), anchors)


def _ways(en: Enumerator, q: Question, path: Node) -> tuple[str, ...]:
    """The ways a path may rank: the question's, turned round where it grades a length (`degree.lasting`) and the
    path ends in a date or year, as a length of time since then: "who has been with the company the longest" was
    hired first (a made-up company KG had ranked by the latest hire date)."""
    last = path.second if isinstance(path, Chain) else path
    info = en.schema.relation(last.name) if isinstance(last, Relation) else None
    if info is None or not lasting(q.text) or en.schema.literal_kind(info) not in TIME_KINDS:
        return q.rankings
    return tuple("ARGMIN" if op == "ARGMAX" else "ARGMAX" for op in q.rankings)


def _own_first(q: Question, paths: list[Relation | Chain]) -> list[Relation | Chain]:
    """The paths less each chain to a value the ranked things hold themselves over a first step no word spells:
    "who was hired most recently" ranks people by their own hire date, not their managers' (`reports_to`, then
    `hired`), and "the hive with the most honey" by its own honey, not its apiary's."""
    own = {path.name for path in paths if isinstance(path, Relation)}
    return [path for path in paths if not (isinstance(path, Chain) and relation_name(path.second) in own
                                           and not _spelt(q, path.first))]


def _asked_class_rankings(en: Enumerator, q: Question) -> Built:
    """The class asked for, less a member the question negates, ranked: the names of such a question only take
    out ("which country other than China has the most neighbours")."""
    for anchor in q.anchors:
        if anchor.mention in q.negated and isinstance(anchor.node, Entity):
            for name in sorted(q.asked_types & set(anchor.candidate.classes)):
                yield from _class_rankings(en, q, name, less=anchor)


START_RULES: dict[type, Callable[[Enumerator, Question, Anchor], Built]] = {
    Entity: _joins_from_entity,
    Literal: _comparisons_from_literal,
}


# ==================================================================== later steps: one rule per operator
def _joins(en: Enumerator, q: Question, cand: ProgramCandidate, partners: list[ProgramCandidate]) -> Built:
    """JOIN forward and reverse over relations whose ends fit the answers' classes."""
    if not en.joinable(cand.program, cand.size):
        return
    for info, side in en.join_ends(cand):
        kind = en.schema.literal_kind(info)
        if kind == "boolean":  # a set's yes/no values, or all things that share a yes or a no, answer nothing
            continue
        rel = Relation(info.name)
        if side == "object":
            yield en.typed(Join(rel, cand.program), cand.anchors)
        elif kind != "text":
            yield en.typed(Join(Reverse(rel), cand.program), cand.anchors)


def _count_of_counted(en: Enumerator, q: Question, joined: ProgramCandidate | None) -> Built:
    """The COUNT of a join from a name whose answers are the class "how many" names, in the first step: "how many
    <noun> are in X" counts X's <noun>, and where no word spells the relation that reaches them, the join scored
    too low for the best set, so a step later only counts of other things were built. Only from a name: built in
    later steps too, a count over a longer walk became a step's leader, hence a finalist, and won where the
    inverse score alone decides (a KG with no corpus: "how many people are in the X department" counted the
    department's city's natives)."""
    counted = counted_classes(q) if q.asks_count else frozenset()
    if joined is not None and counted and joined.types and joined.types <= counted:
        yield from _count(en, q, joined, [])


def _and_class(en: Enumerator, q: Question, cand: ProgramCandidate, partners: list[ProgramCandidate]) -> Built:
    """AND with a class the question names, where the answers are of several classes; and, where the question
    asks for a count, its COUNT in the same step: "how many <noun> have fewer than ..." is that count, and a
    step later the search has stopped on a count of something else."""
    for name in q.classes:
        if cand.types is None or (name in cand.types and cand.types != frozenset({name})):
            narrowed = en.typed(And(Class(name), cand.program), cand.anchors, parent=cand)
            yield narrowed
            if narrowed is not None:
                yield from _count(en, q, narrowed, partners)


def _count(en: Enumerator, q: Question, cand: ProgramCandidate, partners: list[ProgramCandidate]) -> Built:
    """COUNT, when the question asks for a number; never of one value of a literal ("how many people live in
    Canada" is Canada's population, not (COUNT (JOIN (R population) "Canada")) = 1)."""
    one_value = cand.size == 1 and cand.types and all(_is_literal_class(en.schema, t) for t in cand.types)
    if q.asks_count and not one_value:
        count = en.typed(Count(cand.program), cand.anchors)
        if count is not None:
            count.counted = cand.types
        yield count


def _superlatives(en: Enumerator, q: Question, cand: ProgramCandidate, partners: list[ProgramCandidate]) -> Built:
    """ARGMAX and ARGMIN over one- and two-hop numeric paths, for sets of more than one, where the question has a
    superlative ("capitals of the countries that border Spain" had the capital of the smallest)."""
    if not q.asks_superlative or cand.size <= 1 or _ranked_enough(q, cand.program):
        return
    paths = _own_first(q, en.numeric_paths(cand.types))
    own = any(not isinstance(path, Chain) for path in paths)
    for path in paths:
        if own and isinstance(path, Chain) and not _spelt(q, path.second):
            continue  # the things' own value ranks them: the largest <noun> is no <noun> of the largest <other>
        for op in _ways(en, q, path):
            ranked = en.typed(Superlative(op, cand.program, path), cand.anchors, parent=cand)
            yield ranked
            yield from _ranked_value(en, q, ranked, path)


def _ranked_value(en: Enumerator, q: Question, ranked: ProgramCandidate | None, path: Node) -> Built:
    """The ranked member's own value of what ranks it, where the question asks for a value of that kind: "when did
    the first <noun> <verb>?" is the date of the earliest by that date. Built with the ranking: a step later the
    ranking, which answers with the members, was no longer among the best (a made-up KG)."""
    info = en.schema.relation(path.name) if ranked is not None and isinstance(path, Relation) else None
    if info is not None and en.schema.literal_kind(info) in q.asked_types:
        yield en.typed(Join(Reverse(path), ranked.program), ranked.anchors, parent=ranked)


def _spelt(q: Question, rel: Node) -> bool:
    """Whether the question's own words (not an adjective of dimension alone) spell the relation."""
    spelling = q.named_relations.get(relation_name(rel)) if isinstance(rel, (Relation, Reverse)) else None
    return spelling is not None and bool(spelling.by_verb | spelling.by_noun)


def _degree_superlatives(en: Enumerator, q: Question, cand: ProgramCandidate,
                         partners: list[ProgramCandidate]) -> Built:
    """ "the country with the most neighbours": ARGMAX/ARGMIN of the number of neighbours over a relation,
    only where the question asks for a ranking that may count (`degree.ranks_by_count`: "the longest river" does
    not; a made-up US-geography KG had answered "which states does the longest river run through?" with the
    states through which the most rivers run)."""
    if (not q.asks_superlative or cand.size <= 1 or _ranked_enough(q, cand.program)
            or not ranks_by_count(q.text, q.superlative_at)):
        return
    if isinstance(cand.program, Join) and is_set(cand.program.arg) and not isinstance(cand.program.arg, (Entity, Literal)):
        # "the most common currency in Africa": ranked by how many of the set it came from each has,
        # (ARGMAX (JOIN (R currency) S) (COUNT (R currency) S))
        step = cand.program.relation
        if isinstance(step, (Relation, Reverse)):
            for op in q.rankings:
                yield en.typed(Superlative(op, cand.program, Degree(step, cand.program.arg)), cand.anchors, parent=cand)
            if _counted(q, cand):
                return  # "the actor in the most horror movies" counts horror movies, not all of an actor's films
    for path in en.degree_paths(cand.types):
        for op in q.rankings:
            yield en.typed(Superlative(op, cand.program, path), cand.anchors, parent=cand)


def _ranked_enough(q: Question, program: Program) -> bool:
    """Whether the program already ranks as often as the question has superlative words (at least once): "which
    actor has starred in the most films" is no ranking of the cast of the film with the largest cast."""
    rankings = sum(isinstance(node, Superlative) for node in walk(program))
    return rankings > 0 and rankings >= len(q.superlative_at)


def _counted(q: Question, cand: ProgramCandidate) -> bool:
    """Whether every name the set stands on comes after the question's first superlative word, and so says what
    is counted: "who appears in the most Scorsese films", "the most screenplays for Spielberg's films"."""
    starts = [q.linking.mentions[i].start for i in cand.anchors]
    return bool(starts and q.superlative_at) and min(starts) > q.superlative_at[0]


def _aggregates(en: Enumerator, q: Question, cand: ProgramCandidate, partners: list[ProgramCandidate]) -> Built:
    """SUM or AVG of a numeric relation over the set, where the question asks for a total or an average."""
    if cand.size > 1:
        yield from _totals(en, q, cand)


def _totals(en: Enumerator, q: Question, cand: ProgramCandidate) -> Built:
    """(SUM S r) or (AVG S r) over each numeric relation S's classes have, as the question asks."""
    if q.aggregate is None:
        return
    for info in en.numeric:
        if _overlaps(info.domain, cand.types):
            yield en.typed(Aggregate(q.aggregate, cand.program, Relation(info.name)), cand.anchors)


def _membership(en: Enumerator, q: Question, cand: ProgramCandidate, partners: list[ProgramCandidate]) -> Built:
    """Yes/no: is an entity the question names, on another mention, among the set's members."""
    if not q.asks_yes_no:
        return
    for anchor in q.anchors:
        if anchor.mention not in cand.anchors and isinstance(anchor.node, Entity) and _may_hold(cand, anchor):
            yield en.typed(In(anchor.node, cand.program), cand.anchors | {anchor.mention})


def _may_hold(cand: ProgramCandidate, anchor: Anchor) -> bool:
    """Whether the entity may be one of the set's members: it has one of their classes, where both are known.
    An entity's classes are those of every role it fills, so a member of the set has the set's class; classes
    that merely share members are not enough ("Did Christopher Nolan write Inception" was asked as whether Nolan
    is one of the films Inception's writer wrote: MoviesKG's `person` and `movie` share an entity or two)."""
    classes = frozenset(anchor.candidate.classes)
    return not classes or cand.types is None or bool(classes & cand.types)


def _negations(en: Enumerator, q: Question, cand: ProgramCandidate, partners: list[ProgramCandidate]) -> Built:
    """(AND S (NOT T)) with T another kept candidate, where the question has a negation. Where names follow
    the negation word, T stands on them and S does not ("next to Brazil, not Spanish-speaking"); where none
    does, T may stand on S's own mention over another relation ("films X directed but did not act in" is
    (AND (JOIN directed_by X) (NOT (JOIN starred_actors X)))). Where no name follows it, the class asked for less
    the candidate's members too: "which <noun>s have never <verb>ed a <thing>" is (AND <Noun> (NOT (JOIN <verb>
    <Thing>))), and no kept partner stands for the class by then (a made-up KG had answered with the <thing>s): only
    for a reading one step to a class the question names (`_to_a_named_class`)."""
    if not q.asks_negation:
        return
    for other in partners:
        if other.program == cand.program or not (other.anchors and cand.anchors):
            continue
        if q.negated and not (other.anchors <= q.negated and not cand.anchors <= q.negated):
            continue
        if other.anchors & cand.anchors and relations(other.program) == relations(cand.program):
            continue  # the same relations from the same name remove nothing a reading would
        if cand.keys & other.keys and cand.keys - other.keys:
            yield en.typed(And(cand.program, Not(other.program)), cand.anchors | other.anchors, parent=cand)
    if _to_a_named_class(q, cand) or _all_denied(q, cand):  # "which <noun>s have never <verb>ed a <thing>"
        for name in sorted(q.asked_types & (cand.types or frozenset())):
            yield en.typed(And(Class(name), Not(cand.program)), cand.anchors)
    for anchor in q.anchors:  # "time zones of Spanish cities other than Europe/Madrid": one named member less
        node = anchor.node
        if anchor.mention in q.negated and isinstance(node, Entity) and node.iri in cand.keys and len(cand.keys) > 1:
            yield en.typed(And(cand.program, Not(node)), cand.anchors | {anchor.mention}, parent=cand)


def _all_denied(q: Question, cand: ProgramCandidate) -> bool:
    """Whether the candidate stands on names that all follow the negation word, as every name of the question does:
    "which students aren't taking any <department> course?" is the students less (JOIN enrolled_in (JOIN offered_by
    <department>)), and no reading stands on a name before the negation to take it from (a university KG of our own
    had answered with the department's courses)."""
    return (bool(cand.anchors) and cand.anchors <= q.negated and {a.mention for a in q.anchors} <= q.negated
            and not any(isinstance(node, Not) for node in walk(cand.program)))  # a denial denied is no reading


def _to_a_named_class(q: Question, cand: ProgramCandidate) -> bool:
    """Whether the candidate is one step to a class the question names, (JOIN r <Thing>): what "no <thing>" and "any
    <thing>" deny. A longer reading denied answered "which <noun>s have no <yes/no word>?" with a walk nobody asked
    for, and a yes/no value says its own denial ("without <word>" is (JOIN <word> false))."""
    program = cand.program
    return (not cand.anchors and isinstance(program, Join) and isinstance(program.arg, Class)
            and program.arg.name in q.classes)


def _flagged(en: Enumerator, q: Question, cand: ProgramCandidate, partners: list[ProgramCandidate]) -> Built:
    """AND with a yes/no value the question names, for the members of a set built on its names: "which active
    projects does X work on" (no partner stands for the value, which no name links)."""
    if not (en.yes_no and cand.anchors and cand.types):
        return
    taken = {rel.name for rel in relations(cand.program)}
    for flag in en.flags(q):
        info = en.schema.relation(flag.relation.name)
        if info is not None and _overlaps(info.domain, cand.types) and info.name not in taken:
            yield en.typed(And(cand.program, flag), cand.anchors, parent=cand)


def _and_partner(en: Enumerator, q: Question, cand: ProgramCandidate, partners: list[ProgramCandidate]) -> Built:
    """AND with a kept candidate built on other mentions whose answers intersect."""
    for other in partners:
        if not other.anchors or not cand.anchors or other.anchors & cand.anchors:
            continue  # only programs built on different mentions are intersected
        if not (cand.keys & other.keys):
            continue
        left, right = sorted((cand, other), key=lambda c: c.text)
        yield en.typed(And(left.program, right.program), cand.anchors | other.anchors)


ExtensionRule = Callable[[Enumerator, Question, ProgramCandidate, list[ProgramCandidate]], Built]
EXTENSION_RULES: tuple[ExtensionRule, ...] = (
    _joins, _and_class, _count, _superlatives, _and_partner, _flagged,
    # the operators of issue 13, each gated by its cue in the question
    _degree_superlatives, _aggregates, _membership, _negations,
)


def _value(info: RelationInfo, q: Question) -> str:
    """The yes/no value a question asks of a relation it names: false where it denies the relation's word, by a
    prefix (`_denied`) or by a negation a few words before it ("not gas giants", "without rings", "had no crew"),
    true otherwise. Both had been built, and a made-up science KG's "how many planets are not gas giants?"
    counted the gas giants."""
    spelling = q.named_relations.get(info.name)
    words = spelling.words if spelling is not None else frozenset()
    tokens = re.findall(r"[a-z']+", q.text.lower())
    negated = any(token in words and any(_NEGATING.fullmatch(t) for t in tokens[max(0, i - NEGATION_REACH):i])
                  for i, token in enumerate(tokens))
    return BOOLEANS[1] if negated or _denied(info, q.text) else BOOLEANS[0]


# A negation denies a word this many words after it at most: "not gas giants", "do not have rings", "had no crew".
NEGATION_REACH = 3
_NEGATING = re.compile(r"not|no|never|without|\w+n't")


def _denied(info: RelationInfo, text: str) -> bool:
    """Whether the question writes a yes/no relation's word with a prefix that denies it: "inactive",
    "unlisted", "non-profit" for `active`, `listed`, `is_profit`; no reading of the relation spells those."""
    word = relation_label(info.iri).split()[-1]
    return re.search(rf"\b(in|un|non-?){re.escape(word)}\b", text, re.IGNORECASE) is not None


def _is_literal_class(schema: Schema, name: str) -> bool:
    info = schema.class_(name)
    return info is not None and info.is_literal


def _overlaps(names: tuple[str, ...], types: frozenset[str] | None) -> bool:
    return types is None or not names or bool(set(names) & types)


def _literal_fits(literal: Literal, kind: str) -> bool:
    """A date matches dates; a whole number matches numbers, and dates where it names a year ("after 2020")."""
    if literal.kind == "date":
        return kind == "date"
    return kind in _INTEGER_KINDS or kind == "date" and calendar_year(literal) is not None
