"""Whom a question asks for with "who" or "which <word for a person>": the KG's classes of persons, and the groups
at the end of a relation the question spells by a verb that answers "who".

"who ...", and a wh-word before a word for a person ("which <role>s", "what <role>"), ask for a person: without it,
"the <work> [X] starred which <role>s" went to the works sharing X's persons (MetaQA). The words for a person are
language-level (PERSON_WORDS) plus the KG's own: what the ends of relations in a class of persons are called (the
agent noun of a "<verb>ed_by" relation; a "<noun> of" relation's noun names its subjects: `readable.subject_role`).

"who" asks for more than persons where its verb says so: "who <verb>ed X" may ask for a group, the one at the end of
the relation the verb spells that answers "who" (`names_someone`: groups and organizations): the end that holds
persons where one does ("who <verb>s for <name>" asks for the persons, not the groups they <verb> in), else an end
the question's names are not of. Made-up KGs' groups were no answer to "who" before reasoner v70.
"""

from __future__ import annotations

import re

from kg_adapters.person_nouns import names_people, names_someone
from kg_adapters.readable import object_noun, subject_role
from kg_adapters.schema import Schema

from .linker import Linking
from .named import Spelling
from .words import PERSON_WORDS

WHO_WORD = re.compile(r"^\s*(who|whom|whose)\b|\bwho\s*\??\s*$", re.IGNORECASE)


class Who:
    """The classes "who" and "which <word for a person>" ask for, in one schema."""

    def __init__(self, schema: Schema):
        self.schema = schema
        self.persons = frozenset(c.name for c in schema.classes if not c.is_literal and names_people(c.label))
        self._which_person = _which(PERSON_WORDS | self._role_nouns())

    def asked(self, text: str, linking: Linking, named: dict[str, Spelling]) -> set[str]:
        """The classes asked for; `named`: the relations the question spells (engine.answer.named)."""
        if WHO_WORD.search(text):
            return set(self.persons) | self._groups(linking, named)
        return set(self.persons) if self._which_person.search(text) else set()

    def _groups(self, linking: Linking, named: dict[str, Spelling]) -> set[str]:
        """The groups at the end of each verb's relation that answers "who": the end that holds persons where one
        does ("who <verb>s for <name>": the persons, not the groups they <verb> in), else an end the question's names
        are not of ("who <verb>ed <name>": the group at the other end)."""
        own = {c for m in linking.mentions if m.kind == "entity" for cand in m.candidates for c in cand.classes}
        groups: set[str] = set()
        for name, spelling in named.items():
            rel = self.schema.relation(name) if spelling.by_verb else None
            ends = [set(end) for end in (rel.domain, rel.range)] if rel else []
            with_persons = [end for end in ends if end & self.persons]
            groups |= set().union(*(with_persons or [end - own for end in ends]))
        return {c for c in groups - self.persons if (info := self.schema.class_(c)) and not info.is_literal
                and names_someone(info.label)}

    def _role_nouns(self) -> set[str]:
        """What the KG calls its persons by role: the nouns of relations' ends in a class of persons."""
        nouns = set()
        for rel in self.schema.relations:
            if set(rel.domain if subject_role(rel.name) else rel.range) & self.persons:
                nouns |= set(object_noun(rel.name).split()[-1:])
        return nouns


def _which(nouns: set[str]) -> re.Pattern:
    """ "which <noun>" / "what <noun>", the noun in the singular or plural."""
    alternatives = "|".join(sorted(map(re.escape, nouns))) or "(?!)"
    return re.compile(rf"\b(which|what) ({alternatives})(e?s)?\b", re.IGNORECASE)
