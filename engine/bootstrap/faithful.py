"""Does a generated question say every step of its program? And a plain question where none does.

The 0.5B question writer drops steps: "the department of the adviser of Noah Osei" came back as "who is
Noah Osei advised by?", a count lost its COUNT, a denial its "not" (bench/qgen_eye_<kg>.md: 36 of the 240
judged questions dropped a step, the largest class). Such a question is an exemplar that teaches the scorer a
wrong pairing, and inverse consistency does not catch it: the reading it scores shares most words with the
question either way. So a beam candidate is kept only where its words carry every part of the program:

* each entity's name and each literal's value;
* each relation walked, by a word of its own (a content word of its label, reverse label, object noun, objects'
  class or lexicon words, in any inflection: `word_forms`), one distinct word per relation. A relation that
  only filters by a named value ("jazz albums", "students from Bergen", "born in 2005") is carried by that value;
* each operator by a word of plain English grammar: COUNT "how many", a superlative "-est"/"most", a comparison
  "than"/"at least", NOT "not"/"without", IN an auxiliary first, SUM "total", AVG "average";
* and a verb of its own: "which films directed by X?" is a noun phrase, not a question.

Where no candidate passes, the question is the program's reading put as a question ("what is the department of
the adviser of the student Noah Osei?"): clumsy but true, which is what an exemplar must be first. The words
here are English function words and affixes, not any domain's.
"""

from __future__ import annotations

import re
from collections import Counter

from engine.programs.matching import unmatched
from engine.programs.sexpr import (
    Aggregate,
    And,
    Chain,
    Compare,
    Count,
    Degree,
    Entity,
    In,
    Join,
    Literal,
    Not,
    Or,
    Program,
    Relation,
    Reverse,
    Superlative,
    walk,
)
from lemminflect import getAllLemmas

from kg_adapters.person_nouns import head_phrase, names_someone
from kg_adapters.readable import is_noun, object_noun, reading_noun, relation_label, singular, word_forms
from kg_adapters.schema import Schema

_FUNCTION = frozenset(
    "a an the of in on at by to for from with as and or is are was were be been has have had its their "
    "this that these those into about through than".split()
)
_COUNT = frozenset({"how many", "number", "count"})
_SUPERLATIVE = frozenset({"most", "least", "fewest", "first", "last", "top", "maximum", "minimum"})
_COMPARE = frozenset({"than", "least", "most", "over", "under", "above", "below", "after", "before", "since",
                      "until", "exceed", "exceeds", "exceeding", "beyond", "within"})
_NOT = frozenset({"not", "no", "never", "without", "except", "excluding", "neither", "nor", "none", "other"})
_SAME = frozenset({"same", "shared", "share", "shares", "also"})
_COPULA = frozenset({"is", "are", "was", "were"})
_YES_NO = frozenset({"is", "are", "was", "were", "does", "do", "did", "has", "have", "had", "can", "could"})
_AUXILIARY = frozenset({"be", "been", "will", "would", "should", "may", "might", "must"})
_RELATIVE = frozenset({"whose", "that", "which", "who", "where"})
_PREPOSITIONS = frozenset({"by", "in", "on", "at", "from", "for", "during", "with", "of", "to", "into", "under",
                           "over", "about", "as"})
_AGGREGATE = {"SUM": frozenset({"total", "sum", "combined", "altogether", "overall"}),
              "AVG": frozenset({"average", "mean"})}


def says_every_step(program: Program, question: str, schema: Schema) -> bool:
    """True where the question's words carry each entity, literal, walked relation and operator."""
    return not missing(program, question, schema)


def missing(program: Program, question: str, schema: Schema) -> list[str]:
    """What the question leaves out, for a note: `"relation teaches"`, `"operator COUNT"`, ..."""
    text = question.lower()
    tokens = re.findall(r"[a-z0-9]+", text)
    out = [f"entity {n.ref}" for n in walk(program) if isinstance(n, Entity) and not n.is_iri
           and not _names(n.ref, text, tokens)]
    out += [f"value {n.value}" for n in walk(program) if isinstance(n, Literal) and not _has_value(n, text)]
    out += [f"operator {op}" for op in _operators(program) if not _says_operator(op, text, tokens)]
    out += [f"relation {name}" for name in _unspelt(_spoken_relations(program, schema), tokens, schema)]
    if not _has_main_verb(tokens) or _ends_in_copula(tokens):
        out.append("a verb")
    elif _verb_on_the_of_noun(tokens):
        out.append("a verb of its own noun")
    elif _copula_on_inner_step(program, tokens, schema):
        out.append("an answer of its own (the copula names an inner step)")
    elif _possessor_of_its_own_kind(program, text, schema):
        out.append("a name made the owner of its own kind")
    elif tokens[:1] == ["who"] and _answers_with_things(program, schema):
        out.append("'who' for things")
    elif _last_step_by_asked_noun(program, tokens, schema):
        out.append(f"relation {_answer_relation(program)} (said only by the asked noun)")
    return out


def as_question(program: Program, reading: str) -> str:
    """The reading put as a question: "how many X are there?", "what is the X of Y?", "what are the X whose ...?"."""
    reading = reading.strip()
    if isinstance(program, In) or reading.endswith("?"):
        return reading
    if isinstance(program, Superlative) and " with the " in reading:
        members, ranked = reading.rsplit(" with the ", 1)  # the ranking is read last
        members = members.removeprefix("the one of ") if isinstance(program.arg, Or) else members
        head = members.split()[1] if members.startswith("the ") and len(members.split()) > 1 else ""
        if head and is_noun(head) and singular(head) == head:  # "which <noun> of X has", not "which of the <noun>"
            return f"which {members[len('the '):]} has the {ranked}?"
        return f"which of {members} has the {ranked}?"
    if isinstance(program, Count) and reading.startswith("the number of "):
        return f"how many {reading[len('the number of '):]} are there?"
    if reading.startswith("the "):
        return f"what is {reading}?"
    return f"what are the {reading}?"


# ------------------------------------------------------------------ entities, values, operators
def _names(label: str, text: str, tokens: list[str]) -> bool:
    """The whole name, or most of its words ("prof gustav lind" for "Prof. Gustav Lind")."""
    if label.lower() in text:
        return True
    words = [w for w in re.findall(r"[a-z0-9]+", label.lower()) if len(w) > 1 or w.isdigit()]
    present = set(tokens)
    return bool(words) and sum(w in present for w in words) * 2 > len(words)


def _has_value(literal: Literal, text: str) -> bool:
    plain = text.replace(",", "")
    value = literal.value.lower()
    if value in plain:
        return True
    if literal.kind == "date":
        return value[:4] in plain  # "in 1998" for 1998-05-02
    if literal.kind == "decimal" and value.endswith(".0"):
        return value[:-2] in plain
    return False


def _operators(program: Program) -> list[str]:
    """The operators a question must say, once each."""
    ops = []
    for node in walk(program):
        op = {Count: "COUNT", Superlative: "SUPERLATIVE", Compare: "COMPARE", Not: "NOT"}.get(type(node))
        if isinstance(node, Aggregate):
            op = node.op
        if op and op not in ops:
            ops.append(op)
    if isinstance(program, In):
        ops.append("IN")
    return ops


def _says_operator(op: str, text: str, tokens: list[str]) -> bool:
    if op == "COUNT":
        return any(w in text for w in _COUNT)
    if op == "SUPERLATIVE":
        return any(t in _SUPERLATIVE or (len(t) > 4 and t.endswith("est")) for t in tokens)
    if op == "COMPARE":
        return any(t in _COMPARE or (len(t) > 3 and t.endswith("er")) for t in tokens)
    if op == "NOT":
        return any(t in _NOT for t in tokens) or "n't" in text
    if op == "IN":
        return bool(tokens) and tokens[0] in _YES_NO
    return any(t in _AGGREGATE[op] for t in tokens)


# ------------------------------------------------------------------ a sentence
def _has_main_verb(tokens: list[str]) -> bool:
    """Whether the question has a verb outside its relative clauses: "which films directed by X?" and "how many
    languages of films whose genre is Y?" have none (the judged tables' commonest grammar fault, "no verb"). The
    first verb after a relative word is that clause's own. Of the 480 judged rows of bench/qgen_eye_<kg>.md and
    _faithful.md it flags 46 of the 181 judged wrong (36 of the 40 noted "no verb") and 1 of the 299 judged right."""
    in_clause = False
    for at, token in enumerate(tokens):
        if at > 0 and token in _RELATIVE:
            in_clause = True
        elif _is_verb(tokens, at):
            if not in_clause:
                return True
            in_clause = False
    return False


def _verb_on_the_of_noun(tokens: list[str]) -> bool:
    """ "how many currencies of countries have a neighbour in X?", "which club of players plays for Y?": the verb
    is meant for the noun after "of" but belongs to the asked one, so the question asks something else (the
    judged tables' commonest "garbled"). A question put with "do" ("how many X of Y does Z have?") or "are there"
    is fine. Of the 480 judged rows it flags 24 of the 181 judged wrong and 2 of the 299 judged right."""
    start = 2 if tokens[:2] == ["how", "many"] else 1 if tokens[:1] in (["which"], ["what"]) else 0
    if not start:
        return False
    for at in range(start, len(tokens)):
        if tokens[at] in _RELATIVE:
            return False
        if _is_verb(tokens, at):
            before, after = tokens[at - 1], tokens[at + 1: at + 2]
            return ("of" in tokens[start:at] and tokens[at] not in ("do", "does", "did") and after != ["there"]
                    and before.endswith("s") and "NOUN" in getAllLemmas(before))
    return False


def _ends_in_copula(tokens: list[str]) -> bool:
    """ "what sequel of the computer videogame dark cloud is?": a wh-question that ends in its copula has its
    words in the order of a statement. Of the 606 distinct judged rows of bench/qgen_eye_*.md it flags 3, all
    judged wrong."""
    return len(tokens) > 2 and tokens[0] in ("what", "which", "who") and tokens[-1] in _COPULA


def _copula_on_inner_step(program: Program, tokens: list[str], schema: Schema) -> bool:
    """ "which department is the adviser of Noah Osei?" for the department of Noah Osei's adviser: a copula
    equates the asked noun with the phrase after it, so that phrase must name the answer (the program's last
    relation, as in "which city is the capital of France?"), not a step on the way to it (the judged tables'
    commonest wrong wording in readable questions). The phrase is the words between the copula and "of"."""
    last = _answer_relation(program)
    if last is None or tokens[:1] not in (["which"], ["what"]):
        return False
    at = next((i for i, t in enumerate(tokens[:5]) if t in _COPULA), None)
    if at is None or at < 2:  # "what is the X of Y?" asks no noun of its own
        return False
    rest = tokens[at + 1:]
    rest = rest[1:] if rest[:1] in (["the"], ["a"], ["an"]) else rest
    if "of" not in rest[:4] or rest[0] == "of":
        return False
    phrase = rest[: rest.index("of")]
    inner = {n.name for n in walk(program) if isinstance(n, Relation)} - {last}
    return not _spelt_at(last, phrase, schema) and any(_spelt_at(name, phrase, schema) for name in inner)


def _last_step_by_asked_noun(program: Program, tokens: list[str], schema: Schema) -> bool:
    """ "which course does Prof. Lind advise?" for the course of the students Prof. Lind advises: the asked noun
    names the answer's kind, so where it is the only word for the last step of a longer walk and the object of
    the verb that follows, that verb skips the steps between (the judged tables: "which department does X
    teach?" for the department of X's course). A question that ends in a preposition carries the step there
    ("which department does X's adviser belong to?"). The verb must spell an inner step: "which currencies do
    European countries use?" is right. Of the 606 distinct judged rows it flags 2, both judged wrong."""
    last = _answer_relation(program)
    if last is None or tokens[:1] not in (["which"], ["what"]) or tokens[-1] in _PREPOSITIONS:
        return False
    do = next((at for at in (2, 3) if at < len(tokens) and tokens[at] in ("do", "does", "did")), None)
    inner = {n.name for n in walk(program) if isinstance(n, Relation)} - {last}
    if do is None or not inner:
        return False

    said = _spelt_at(last, tokens, schema)
    # after "do", a word of an inner step (the verb), not of the last one (see the docstring)
    return bool(said) and all(at < do for at in said) and any(_spelt_at(n, tokens[do + 1:], schema) for n in inner)


def _spelt_at(name: str, tokens: list[str], schema: Schema) -> list[int]:
    """Where the tokens spell a relation by a word of its own (`_relation_forms`), function words aside."""
    forms = _relation_forms(name, schema)
    return [at for at, t in enumerate(tokens) if t not in _FUNCTION and (word_forms(t) | {t}) & forms]


def _answers_with_things(program: Program, schema: Schema) -> bool:
    """Whether the schema says the answers are things, though a "who" asks for them: "who was X's place of
    birth?". The first of the answer's nouns (the reading's noun for the objects, then their classes' labels)
    whose head is an English noun decides, by whether it names someone a "who" may ask for (people, a group of
    them, a living thing: kg_adapters.person_nouns.names_someone). A label made of a relation's name ("current
    team head coached") and a bare KG's unknown classes say nothing. Of the 606 distinct judged rows it flags 4
    judged wrong and 2 judged right ("who is the film story credit of ...?", a film; "who is the runner up of
    ...?", read by its last word)."""
    node = program.arg if isinstance(program, Superlative) else program
    while isinstance(node, And):
        node = node.left
    if not isinstance(node, Join):
        return False
    back = isinstance(node.relation, Reverse)
    relation = node.relation.relation if back else node.relation
    info = schema.relation(relation.name) if isinstance(relation, Relation) else None
    if info is None:
        return False
    labels = [schema.class_(c).label for c in (info.range if back else info.domain) if schema.class_(c)]
    if back:
        labels.insert(0, reading_noun(info.iri, labels[0] if labels else None))
    for label in labels:
        words = head_phrase(label)
        if words and is_noun(words[-1]):
            return not names_someone(label)
    return False


def _possessor_of_its_own_kind(program: Program, text: str, schema: Schema) -> bool:
    """ "what country is Miiko Albornoz's player?" for the country of the player Miiko Albornoz: the possessive
    makes the named thing the owner of something of its own kind, so the question asks about another thing (two
    of worldcup's 40 judged rows at v78, bench/qgen_eye_worldcup_v78.md). A thing's kind here is the head noun of
    the class at its end of the relation it is joined by."""
    for node in walk(program):
        if not (isinstance(node, Join) and isinstance(node.arg, Entity) and not node.arg.is_iri):
            continue
        back = isinstance(node.relation, Reverse)
        relation = node.relation.relation if back else node.relation
        info = schema.relation(relation.name) if isinstance(relation, Relation) else None
        if info is None:
            continue
        kinds = {head[-1] for c in (info.domain if back else info.range) if schema.class_(c)
                 and (head := head_phrase(schema.class_(c).label))}
        last = re.findall(r"[a-z0-9]+", node.arg.ref.lower())[-1:]
        owned = re.findall(rf"\b{re.escape(last[0])}(?:'s|\u2019s|'|\u2019)\s+([a-z]+)", text) if last else []
        if any(singular(word) in kinds for word in owned):
            return True
    return False


def _answer_relation(program: Program) -> str | None:
    """The relation whose objects a program answers with ("the r of ..."), a ranking's members' too."""
    node = program.arg if isinstance(program, Superlative) else program
    if isinstance(node, Join) and isinstance(node.relation, Reverse) and isinstance(node.relation.relation, Relation):
        return node.relation.relation.name
    return None


def _is_verb(tokens: list[str], at: int) -> bool:
    """A finite verb, by lemminflect and the words around it: an auxiliary; not a participle before a preposition
    ("directed by"), not an -ing form; a word that is also a noun only after a plural noun ("players play")."""
    token = tokens[at]
    if token in _YES_NO or token in _AUXILIARY or token.endswith("n't"):
        return True
    lemmas = getAllLemmas(token)
    if at == 0 or "VERB" not in lemmas or token.endswith("ing"):
        return False
    after = tokens[at + 1] if at + 1 < len(tokens) else ""
    if token.endswith(("ed", "en")) and after in _PREPOSITIONS:
        return False
    before = tokens[at - 1]
    if at == 1 and before in ("who", "what"):
        return True  # "who directed X?"
    if "NOUN" in lemmas or "ADJ" in lemmas:
        return before.endswith("s") and "NOUN" in getAllLemmas(before) and before not in _YES_NO
    return True


# ------------------------------------------------------------------ relations
def _spoken_relations(program: Program, schema: Schema) -> list[str]:
    """The relations a question must spell, once per time the program walks them. Left out: a forward filter
    by a named value (said by the value) where the program walks that relation only there and it joins two
    classes (naming a country does not say `neighbour`: "currencies in Myanmar" is Myanmar's), a comparison's
    and a ranking's own attribute (said by its value or its superlative: "after 1990", "the longest") and a
    ranking's count of neighbours."""
    silent: set[int] = set()
    walked = Counter(n.name for n in walk(program) if isinstance(n, Relation))
    for node in walk(program):
        if (isinstance(node, Join) and isinstance(node.relation, Relation) and isinstance(node.arg, (Entity, Literal))
                and walked[node.relation.name] == 1 and not _within_one_class(node.relation.name, schema)):
            silent.add(id(node.relation))
        elif isinstance(node, Compare):
            silent |= {id(n) for n in walk(node.relation)}
        elif isinstance(node, Superlative):
            last = {Chain: lambda p: p.second, Degree: lambda p: p.relation}.get(type(node.path), lambda p: p)
            silent |= {id(n) for n in walk(last(node.path))}
    return [n.name for n in walk(program) if isinstance(n, Relation) and id(n) not in silent]


def _unspelt(names: list[str], tokens: list[str], schema: Schema) -> list[str]:
    """The relation walks left without words of their own: each walk needs its own phrase of the question (a
    matching), a phrase being a run of words that spell one of the program's relations ("award nominations"
    is one). A relation walked twice may have its second walk said by "same" ("the same genre as X")."""
    forms = {name: _relation_forms(name, schema) for name in set(names)}
    phrases: list[set[str]] = []
    last = -2
    for at, token in enumerate(tokens):
        spelt = {name for name in forms if token not in _FUNCTION and (word_forms(token) | {token}) & forms[name]}
        if spelt and last == at - 1:
            phrases[-1] |= spelt
        elif spelt:
            phrases.append(spelt)
        last = at if spelt else last
    repeated = {name for name, n in Counter(names).items() if n > 1}
    if repeated and any(t in _SAME for t in tokens):
        phrases.append(repeated)
    return [names[at] for at in unmatched(names, phrases)]


def _within_one_class(name: str, schema: Schema) -> bool:
    """A relation between members of one class (`neighbour`, `parent`)."""
    info = schema.relation(name)
    return info is not None and info.links_one_class


def _relation_forms(name: str, schema: Schema) -> set[str]:
    """Every inflection of the content words a relation is called by; its objects' class too ("which course does
    X teach?"), unless that is its subjects' class as well: "country" does not say `neighbour`."""
    info = schema.relation(name)
    texts = [relation_label(info.iri if info else name)]
    if info:
        ranged = [] if _within_one_class(name, schema) else [
            schema.class_(c).label for c in info.range if schema.class_(c)]
        texts += [info.label, info.reverse_label, object_noun(info.iri), reading_noun(info.iri, None),
                  *ranged, *info.words, *info.reverse_words]
    forms: set[str] = set()
    for text in texts:
        for word in re.findall(r"[a-z0-9]+", text.lower()):
            if len(word) > 1 and word not in _FUNCTION:
                forms |= word_forms(word) | {word}
    return forms
