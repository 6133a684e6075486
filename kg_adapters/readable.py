"""Readable English for schema items that arrive as bare names.

Prompts, embeddings and generated questions read relation and class names as English, so
a name has to become words a person would use: `plays_in_club` has objects called "club",
`__people__person__place_of_birth` reads "place of birth" and its subjects are persons,
the subjects of `plays_for_country`, `plays_in_club` and `plays_position` are "players".

Everything here is morphology and naming convention (lemminflect's English lemmas, the
Freebase `__domain__type__property` path), so it works on a KG nobody tuned for.
"""

from __future__ import annotations

import re
from collections import Counter

from lemminflect import getAllInflections, getAllLemmas, getInflection, getLemma

from .naming import local_name

# "<verb>ed_by": the objects are the verb's agents. Irregular agent nouns only; the rest add -er.
_AGENTS = {"authored": "author", "sung": "singer", "written": "writer"}
_FUNCTION_WORDS = {"has", "have", "had", "in", "is", "are", "was", "of", "the", "a", "an", "to", "for", "at", "on"}
_PREPOSITIONS = {"in", "of", "for", "at", "on", "from", "to", "with", "by", "into", "about", "through"}
_DETERMINERS = {"this", "that", "these", "those", "the", "a", "an", "its", "their"}
# Words of the people themselves, not roles: a class of such objects is a class of persons.
_PERSON_WORDS = {"person", "people", "human", "man", "woman", "spouse", "parent", "child", "member"}


def words(name: str) -> list[str]:
    """The words of a name: split at underscores, punctuation and camelCase."""
    return [w for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", local_name(name)) if w]


def path_segments(name: str) -> list[str]:
    """Freebase-style path names (`__film__film__genre`, `film.film.genre`, `/film/film/genre`):
    the segments, or [] for a plain name. The last is the property, the one before it the subject type."""
    tail = local_name(name)
    for sep in ("__", ".", "/"):
        parts = [p for p in tail.split(sep) if p]
        if len(parts) >= 3:
            return parts
    return []


def relation_label(name: str) -> str:
    """A label for a relation that has none: its words, or a path name's property words."""
    segments = path_segments(name)
    return " ".join(words(segments[-1] if segments else name)).lower()


def singular(word: str) -> str:
    lemmas = getAllLemmas(word).get("NOUN")
    return lemmas[0] if lemmas else word


def _is_inflected_verb(word: str) -> bool:
    """ "plays", "starred", "located", "is": a verb form other than the base ("place" stays a noun)."""
    lemmas = getAllLemmas(word)
    verbs = lemmas.get("VERB", ()) + lemmas.get("AUX", ())
    return any(v != word for v in verbs) and not lemmas.get("ADJ")


def agent_noun(verb_form: str) -> str:
    """The one who does it: "plays" -> "player", "directed" -> "director", "written" -> "writer"."""
    if verb_form in _AGENTS:
        return _AGENTS[verb_form]
    lemmas = getAllLemmas(verb_form).get("VERB") or (verb_form,)
    verb = lemmas[0]
    if verb.endswith("ate"):
        return verb[:-1] + "or"  # creator, narrator, illustrator
    if verb.endswith("e"):
        return verb + "r"
    if verb.endswith("ct") or verb.endswith("it"):
        return verb + "or"  # director, editor, visitor
    return verb + "er"


def object_noun(relation: str) -> str:
    """What the objects of a relation are called: directed_by -> director, plays_in_club -> club,
    has_tags -> tag, place_of_birth -> place."""
    segments = path_segments(relation)
    ws = [w.lower() for w in words(segments[-1] if segments else relation)]
    if len(ws) >= 2 and ws[-1] == "by":
        return agent_noun(ws[-2])
    if len(ws) > 1 and (_is_inflected_verb(ws[0]) or ws[0] in _PREPOSITIONS):
        # a verb phrase: the object is the noun phrase after its verb and last preposition
        # (plays_in_club -> club, starred_actors -> actors, has_imdb_votes -> imdb votes)
        rest = ws[1:]
        cut = max((i + 1 for i, w in enumerate(rest) if w in _PREPOSITIONS), default=0)
        ws = [w for w in rest[cut:] if w not in _FUNCTION_WORDS] or ws  # located_in: no noun, keep all
    elif any(w in _PREPOSITIONS for w in ws[1:]):
        ws = ws[: next(i for i, w in enumerate(ws) if i and w in _PREPOSITIONS)]  # place_of_birth -> place
    ws = [w for w in ws if w not in _FUNCTION_WORDS] or ws
    return " ".join(ws[:-1] + [singular(ws[-1])])


def verb_only(relation: str) -> bool:
    """A name that is a verb and its prepositions only (works_at, lives_in, depends_on): `object_noun` keeps the
    verb then ("work", "life"), for want of a noun, and that word names no objects. A made-up museum KG's
    "which works given by X are on display?" asked for the museums of `worksAt`."""
    ws = relation_label(relation).split()
    return len(ws) > 1 and _is_inflected_verb(ws[0]) and all(w in _PREPOSITIONS for w in ws[1:])


def kind_noun(relation: str) -> str | None:
    """The object noun where the relation's name itself holds it as a noun: in_country -> country, from_airport ->
    airport, hub -> hub. Such a noun says what kind of thing the objects are; an agent noun says what they do
    (operated_by -> operator), and a verb's or a preposition's cut is no noun at all (located_in -> "located",
    serves -> "serve", trained_under -> "under"): None for those."""
    noun = object_noun(relation)
    last = noun.split()[-1]
    ws = [w.lower() for w in words(relation)]
    if ws and _is_inflected_verb(ws[0]):
        ws = ws[1:]  # a name opens with its verb ("serves", "borders"): that word is not the objects' noun
    if last not in set(ws) | {singular(w) for w in ws} or last in _PREPOSITIONS or not is_noun(last):
        return None
    return noun


def subject_role(relation: str) -> str | None:
    """The noun a "<noun> of" name calls its subjects: X `member_of` Y reads "X is a member of Y", so
    "member" names X, not Y, and "the members of Y" walks toward the subjects. `object_noun` gives such a name's
    noun too, for the objects (it names roles for class induction). "place of birth" is no such name (its noun
    names the objects), nor is a verb's "made of". None for other names."""
    ws = relation_label(relation).split()
    if ws and ws[0] in {"is", "are", "was"}:
        ws = ws[1:]
    if len(ws) < 2 or ws[-1] != "of" or ws[-2] in _FUNCTION_WORDS | _OF_PARTICLES or _is_inflected_verb(ws[-2]):
        return None
    unknown = not getAllLemmas(ws[-2])  # a word the lemmatiser lacks ("subgenre") is most likely a noun
    return " ".join(ws[:-1]) if unknown or is_noun(ws[-2]) else None


# Words before "of" that are no noun of a role: "out of", "instead of" (English grammar).
_OF_PARTICLES = {"out", "instead", "because", "ahead", "inside", "outside", "full", "free", "short"}


def names_people(nouns: list[str]) -> bool:
    """Several role nouns that are all agent nouns (a verb + -er/-or: director, writer, actor) or words for
    people: the class is persons."""
    return len(nouns) > 1 and all(is_agent_noun(n.split()[-1]) or n in _PERSON_WORDS for n in nouns)


def shared_head(nouns: list[str]) -> str | None:
    """The head noun that more of a class's role nouns end with than any other, two at least: "club" for "home
    club", "away club", "champion", "runner up" and "play" (a made-up league KG's clubs); "ingredient" for
    "ingredient" and "main ingredient". English compounds name a kind of their head (a home club is a club), so
    the head names the objects, where a namer asked for one noun for all of them had called league clubs "soccer
    team" and recipe ingredients "vegetable" (bench/probes). None where no head is shared so."""
    heads = Counter(noun.split()[-1] for noun in nouns).most_common(2)
    if not heads or heads[0][1] < 2 or len(heads) > 1 and heads[1][1] == heads[0][1]:
        return None
    head = heads[0][0]
    return head if is_noun(head) and not is_function_word(head) else None


def is_agent_noun(noun: str) -> bool:
    """A verb plus -er/-or (director, writer, player, runner): morphology, so it also takes "computer"."""
    if len(noun) < 5 or not noun.endswith(("er", "or")):
        return False
    stem = noun[:-2]
    return any(getAllInflections(verb, upos="VERB") for verb in (stem, stem + "e", stem[:-1]))


def subject_noun(relations: list[str]) -> str | None:
    """What the subjects of these relations are called, where naming convention or grammar says it:
    the type segment of Freebase path names (`__people__person__gender` -> person), else the agent noun of
    a verb that two or more of them begin with (plays_in_club, plays_position -> player), where English has that
    noun: reigned_from and reigned_to make no "reigner", a name the language model then read as no person at all
    (a blind dynasty probe's lexicon gave `father` "ruler" and "leader" for both ends, session 65)."""
    types = Counter(segments[-2] for segments in map(path_segments, relations) if segments)
    if types:
        return " ".join(words(types.most_common(1)[0][0])).lower()
    verbs = Counter(ws[0] for ws in ([w.lower() for w in words(r)] for r in relations)
                    if len(ws) > 1 and _is_inflected_verb(ws[0]) and ws[0] not in _FUNCTION_WORDS)
    verb, n = verbs.most_common(1)[0] if verbs else ("", 0)
    return agent_noun(verb) if n >= 2 and is_noun(agent_noun(verb)) else None


def reverse_label(label: str) -> str:
    """Read a relation backwards, as English: "directed by" -> "directed", "has genre" -> "genre of",
    "moon of" -> "has moon", "borders" -> "bordered by", "uses currency" -> "currency used by",
    "flows through" -> "flowed through by", "located in" -> "what is located in it"."""
    ws = label.split()
    if len(ws) >= 2 and ws[0] in {"is", "are", "was"}:  # "is in country" reads as "in country"
        ws = ws[1:]
    if len(ws) >= 2 and ws[-1] == "by":
        return " ".join(ws[:-1])
    if len(ws) >= 2 and ws[-1] == "of":  # "moon of" -> "has moon"
        return "has " + " ".join(ws[:-1])
    if len(ws) >= 2 and ws[0] in {"has", "have", "in"}:
        return " ".join(ws[1:]) + " of"
    if ws and ws[0].lower() not in _FUNCTION_WORDS:
        verb = _verb_lemma(ws[0])
        if verb and ws[0].endswith("s") and ws[0] != verb:  # "borders", "uses": the passive reads it backwards
            rest = ws[1:]
            if rest and rest[0] not in _PREPOSITIONS and rest[-1] not in _PREPOSITIONS:
                return f"{' '.join(rest)} {_participle(verb)} by"  # "currency used by"
            return " ".join([_participle(verb), *rest, "by"])  # "bordered by", "flowed through by"
        if verb and ws[0] == _participle(verb) and len(ws) >= 2 and ws[-1] in _PREPOSITIONS:  # "located in"
            return f"what is {' '.join(ws)} it"
    return " ".join(ws) + " of"


def _verb_lemma(word: str) -> str | None:
    """The verb a word is a form of ("borders" -> "border"), or None when it is none."""
    lemmas = getAllLemmas(word.lower()).get("VERB")
    return lemmas[0] if lemmas and lemmas[0] not in {"be", "have"} else None


def _participle(verb: str) -> str:
    forms = getInflection(verb, "VBN")
    return forms[0] if forms else verb + "ed"


def is_noun(word: str) -> bool:
    return "NOUN" in getAllLemmas(word)


def is_function_word(word: str) -> bool:
    """A preposition, article or form of "be"/"have": never a word of a class's name."""
    return word in _FUNCTION_WORDS or word in _PREPOSITIONS or word in _DETERMINERS


def reading_noun(relation: str, range_label: str | None = None) -> str:
    """What a question would call a relation's objects, where `object_noun`'s cut gives a word no one says.

    `object_noun` names roles for linking and class induction and keeps its words short ("place" for
    place_of_birth). A question generator reads whole readings, and a 0.5B model copies what it reads: "the
    enrolled of the student X" became "how many enrolleds ...". So: the whole "<noun> of <noun>" (place of
    birth, year of study); the noun before a participle (awards_won -> award, instruments_played ->
    instrument: the words up to the first plural); the objects' class where the name ends in a preposition or its noun is no noun (member_of,
    enrolled_in, housed_in -> department, course, building; teaches -> course); else a verb's own noun
    (is_aged -> age)."""
    segments = path_segments(relation)
    ws = [w.lower() for w in words(segments[-1] if segments else relation) if len(w) > 1]
    noun = " ".join(w for w in object_noun(relation).split() if len(w) > 1) or object_noun(relation)
    ranged = range_label if range_label and is_noun(range_label.split()[-1]) else None
    if not ws:
        return noun
    if len(ws) >= 2 and ws[-1] == "by" and not is_noun(noun.split()[-1]) and (doer := _doer(ws[-2])):
        # film_art_direction_by: "directioner" is no word and "director" alone loses the kind of direction
        owners = {w.lower() for segment in segments[:-1] for w in words(segment)}
        kind = [ws[-3]] if len(ws) >= 3 and is_noun(ws[-3]) and ws[-3] not in owners else []
        return " ".join(kind + [doer])
    if len(ws) >= 2 and ws[-1] in _PREPOSITIONS and ws[-1] != "by" and ranged:
        return ranged  # member_of, enrolled_in: the objects are what the subject is in or of
    if len(ws) >= 3 and is_noun(ws[0]) and ws[1] == "of" and is_noun(ws[2]) and ws[2] not in _DETERMINERS:
        return " ".join(ws)  # place of birth, type of place of worship
    plural = next((i for i, w in enumerate(ws[:-1]) if is_noun(w) and singular(w) != w), None)
    if plural is not None and not is_noun(ws[-1]) and getAllLemmas(ws[-1]).get("VERB"):
        return " ".join(ws[:plural] + [singular(ws[plural])])  # awards_won, olympic_games_contested
    last = noun.split()[-1]
    if is_noun(last):
        return noun
    if ranged:
        return ranged  # teaches -> course, offered_by's "offerer" -> department
    verbs = getAllLemmas(last).get("VERB", ())
    return verbs[0] if len(noun.split()) == 1 and verbs and is_noun(verbs[0]) else noun  # is_aged -> age


def _doer(action: str) -> str | None:
    """The agent noun of an action noun's verb: direction -> director, production -> producer, narration ->
    narrator; None where the noun comes from no verb lemminflect knows."""
    if not action.endswith("ion"):
        return None
    stems = ([action[:-5] + "e"] if action.endswith("tion") else []) + [action[:-3] + "e", action[:-3]]
    verb = next((v for v in stems if v in getAllLemmas(v).get("VERB", ())), None)
    return agent_noun(verb) if verb else None


def plural(word: str) -> str:
    forms = getInflection(word, "NNS")
    if forms:
        return forms[0]
    if word.endswith("y") and len(word) > 2 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


def word_forms(word: str) -> set[str]:
    """A schema word and its inflections, by lemminflect: written -> write, writes, wrote, writing, writer.

    Agent nouns (director, writer) are not inflections, so each verb lemma also gives lemma + "er"/"r"/"or"
    where the result is a word lemminflect knows as a noun."""
    forms = {word, plural(word)}
    for pos in ("VERB", "NOUN"):
        for lemma in getLemma(word, upos=pos):
            forms.add(lemma)
            forms |= {f for fs in getAllInflections(lemma).values() for f in fs}
            if pos == "VERB":
                stem = lemma[:-1] if lemma.endswith("e") else lemma
                for agent in {lemma + "r", stem + "er", stem + "or"}:
                    if getAllInflections(agent, upos="NOUN"):
                        forms |= {agent, plural(agent)}
    if word.endswith("s") and len(word) > 3:
        forms.add(word[:-1])
    forms |= _adverbs(word)
    return {f.lower() for f in forms}


def _adverbs(word: str) -> set[str]:
    """The adverb of an adjective, where English has one: remote -> remotely ("who works remotely?" spells
    `isRemote`), main -> mainly, official -> officially, simple -> simply, happy -> happily, basic -> basically."""
    if not getAllLemmas(word, upos="ADJ"):
        return set()
    if word.endswith("le"):
        adverb = word[:-1] + "y"
    elif word.endswith("y"):
        adverb = word[:-1] + "ily"
    elif word.endswith("ic"):
        adverb = word + "ally"
    elif word.endswith("ll"):
        adverb = word + "y"
    else:
        adverb = word + "ly"
    return {adverb} if getAllLemmas(adverb, upos="ADV") else set()
