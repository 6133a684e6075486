"""What each step of the search extends, and when the search has reached an answer (method.md step 3).

The reasoner's loop (`reasoner.py`) extends the best set's members; these rules say which more are extended,
so that the 0.5B scorer's preferences do not end the search one hop short or leave a name of the question
unread, and when a step that changes nothing may end it.
"""

from __future__ import annotations

from engine.programs.sexpr import is_set, relations

from .asked import asks_operator, fits_asked
from .ends import GENERATION_PREFIX
from .question import Question
from .rank import best_order
from .search import ProgramCandidate, Search
from .walk_back import walks_chains, writes_chain


def to_extend(question: Question, search: Search, best: list[ProgramCandidate], fresh: list[ProgramCandidate],
              beam: int) -> list[ProgramCandidate]:
    """The best set's members not extended yet; where there are none and nothing built so far answers with
    what the question asks for, the last step's best new candidates. With either, the best reading of each
    name no step has extended (`unheard`).

    The 0.5B scorer gives a one-hop program a better mean log-prob than the two-hop program it leads to, so
    "what were the release dates of movies starred by actors in X" stopped at X's actors: the best set did
    not change in step 2, and the release years, three hops away, were never built, though no program
    built walked both "release" and "starred"."""
    todo = [c for c in best if c.program not in search.expanded and is_set(c.program)]
    names = unheard(question, search, best)
    names += unranked(question, search, todo + names)
    names += unfinished(question, search, todo + names)
    names += fuller(search, todo + names)
    if todo or reached(question, search):
        return todo + names
    return [c for c in sorted(fresh, key=best_order) if c.program not in search.expanded
            and is_set(c.program)][: max(1, beam)] + names


def unranked(question: Question, search: Search, chosen: list[ProgramCandidate]) -> list[ProgramCandidate]:
    """Where the question asks for things of a class under an operator (a ranking, a comparison, a negation ...)
    and nothing built yet answers so: the best kept reading that answers with those things and no step has
    extended, so that the operator is built over it.

    The 0.5B scorer prefers a one-hop reading that walks to a number of the named entity: "what is the largest
    <noun> of X" kept (JOIN <relation> X), the only reading answering with <noun>s, in step 1, but left it out of
    the best set, which held X's own numbers, so its ranking was never built."""
    asked = question.asked_types
    if not asked or not asks_operator(question) or question.asks_count or question.asks_yes_no:
        return []
    if any(fits_asked(question, c) for c in search.scored if c.execution is not None):
        return []
    taken = search.expanded | {c.program for c in chosen}
    within = [c for c in search.pool if c.types and c.types <= asked and is_set(c.program) and c.program not in taken]
    return [min(within, key=best_order)] if within else []


def unfinished(question: Question, search: Search, chosen: list[ProgramCandidate]) -> list[ProgramCandidate]:
    """Where the question writes a chain (a gloss, a word of "grand") and nothing that answers what it asks for walks
    all of it: the best kept set that does, extended once, so that what the question asks of it (a count, a step
    more) is built.

    With a corpus, the 0.5B scorer filled the best set with readings that walk on past X's children through a
    spouse, so "how many grandchildren did X have?" never counted (JOIN parent (JOIN parent X)), kept in step 2 (a
    blind royal probe)."""
    named = question.named_relations
    if not one_word_chain(question) or any(walks_chains(c.program, named) for c in search.scored
                                      if c.execution is not None and fits_asked(question, c)):
        return []
    taken = search.expanded | {c.program for c in chosen}
    whole = [c for c in search.pool if walks_chains(c.program, named) and c.program not in taken]
    return [min(whole, key=best_order)] if whole else []


def fuller(search: Search, chosen: list[ProgramCandidate]) -> list[ProgramCandidate]:
    """Where the question's words name steps between members of one class from its one name (`Search.kin_chain`): the
    best kept set whose steps spell more of them, in the question's order (`ProgramCandidate.named`), than any set
    extended so far or chosen now, extended once.

    With a corpus the 0.5B scorer kept "the son's dad" and other two-step walks in the best set, and "the dad of the
    missus of X's son" was never built: the son's missus, which spells one word more, scored 0.8 below them (a blind
    lineage probe)."""
    if not search.kin_chain:
        return []
    taken = search.expanded | {c.program for c in chosen}
    most = max((c.named for c in search.pool if c.program in taken), default=0)
    more = [c for c in search.pool if c.named > most and is_set(c.program) and c.program not in taken]
    return [min(more, key=best_order)] if more else []


def one_word_chain(question: Question) -> bool:
    """Whether one word of the question writes a chain of steps: read through its gloss as two or more ("grandson":
    a son of a son or daughter), or a word of "grand" ("grandkids"). Not a chain of several words: PathQuestion's
    "the <a> of <b>s of X's <b>_<c>" names relations that share words, and waiting for such a chain cost 3 of the 21
    PathQuestion-3H questions that write one (F1 summed; BENCHMARKS.md, session 66)."""
    steps: dict[int, list[str]] = {}  # per question word, the words of its steps
    said: dict[int, str] = {}
    for part in question.parts:
        steps.setdefault(part.at, []).append(part.word)
        said[part.at] = part.said
    glossed = any(len(words) > 1 and words != said[at].split("-") for at, words in steps.items())  # not "x-ray"
    grand = any(word.startswith(GENERATION_PREFIX) and word != GENERATION_PREFIX for word in said.values())
    return (glossed or grand) and writes_chain(question.named_relations)


def unheard(question: Question, search: Search, best: list[ProgramCandidate]) -> list[ProgramCandidate]:
    """For each name of a question that names two or more: its best kept one-hop reading, extended once where
    none of its one-hop readings is (or is about to be), so that its ANDs with the other names' readings are
    built.

    The 0.5B scorer may fill the best set with readings of one name: "dicaprio movies more recent than the
    departed" had only readings of The Departed there, so (AND (JOIN starred_actors "Leonardo DiCaprio")
    (gt release_year "The Departed")) was never built, though both halves were kept in step 1. "brad pitt films
    released after moneyball" had Brad Pitt's films' years in the best set, and ANDed those instead."""
    mentions = {a.mention for a in question.anchors}
    if len(mentions) < 2:
        return []
    one_hop = [c for c in search.pool if len(c.anchors) == 1 and len(relations(c.program)) <= 1]
    heard = {m for c in one_hop if c.program in search.expanded or c in best for m in c.anchors}
    out = []
    for mention in sorted(mentions - heard):
        own = [c for c in one_hop if c.anchors == {mention}]
        if own:
            out.append(min(own, key=best_order))
    return out


def reached(question: Question, search: Search) -> bool:
    """Whether a candidate built so far answers with what the question asks for (a class, a count, a ranking
    ...) where it asks for one, and one walks every relation the question's words name."""
    built = [c for c in search.scored if c.execution is not None]
    fitting = [c for c in built if fits_asked(question, c)]
    if (question.asked_types or asks_operator(question)) and not fitting:
        return False
    # where the question writes a chain, a fitting one walks all of it: "how many grandchildren did X have?" (a blind
    # royal probe with a corpus) had stopped on (COUNT (JOIN parent X)), one step short, its two-step set not extended
    if one_word_chain(question) and not any(walks_chains(c.program, question.named_relations) for c in fitting):
        return False
    named = set().union(*(s.words for s in question.named_relations.values()))
    named -= set().union(*question.class_words.values())  # a class word may name the answers instead (`share`)
    return any(c.named >= len(named) for c in built)
