"""How well the class namer (engine.bootstrap.namer) names what a KG's data leaves unnamed.

Two sets:
- made-up sketches: ten kinds of thing, each shown as the namer would see it (a few members, one fact each,
  the relations), with the nouns that count as right;
- the dev KGs' provisional classes (only MoviesKG has one), sketched from the store as the engine does.
For each, the top beam alone (step 1) and the namer's choice (step 2). Writes bench/namer_sample.md.

    python -m bench.namer_sample
"""

from __future__ import annotations

import time
from datetime import date
from pathlib import Path

from engine.bootstrap.namer import Sketch, name_sketch, sketch_class
from engine.config import ScoutConfig
from engine.lm.llm import LLM
from kg_adapters.readable import object_noun
from kg_adapters.registry import StoreLimits, open_store
from kg_adapters.schema import read_schema

from .kgs import SPECS

OUT = Path(__file__).with_name("namer_sample.md")

# name: (relations, [(member, fact)], right nouns)
SKETCHES = {
    "films": (["directed by", "written by", "starred actors", "release year", "has genre"],
              [("Frankenstein", "directed by James Whale"), ("Romeo and Juliet", "directed by Franco Zeffirelli"),
               ("Les Misérables", "directed by Bille August"), ("8½", "directed by Federico Fellini")],
              {"movie", "film"}),
    "books": (["written by", "published in", "has isbn", "publisher"],
              [("Emma", "written by Jane Austen"), ("Dune", "written by Frank Herbert"), ("Ulysses", "written by James Joyce")],
              {"book", "novel"}),
    "companies": (["founded in", "headquartered in", "has ceo", "industry"],
                  [("Siemens", "headquartered in Munich"), ("Nestle", "headquartered in Vevey"),
                   ("Toyota", "headquartered in Toyota City")], {"company", "corporation"}),
    "songs": (["performed by", "on album", "release date", "composed by"],
              [("Yesterday", "performed by The Beatles"), ("Imagine", "performed by John Lennon"),
               ("Halo", "performed by Beyonce")], {"song"}),
    "drugs": (["treats", "has side effect", "dosage form", "manufactured by"],
              [("Aspirin", "treats headache"), ("Metformin", "treats diabetes"), ("Lisinopril", "treats hypertension")],
              {"drug", "medicine", "medication"}),
    "rivers": (["flows through", "length", "mouth", "source"],
               [("Danube", "flows through Vienna"), ("Nile", "flows through Cairo"), ("Rhine", "flows through Basel")],
               {"river"}),
    "teams": (["home stadium", "coached by", "league"],
              [("Arsenal", "home stadium Emirates Stadium"), ("Real Madrid", "home stadium Santiago Bernabeu"),
               ("Bayern Munich", "league Bundesliga")],
              {"team", "club", "football club", "soccer club", "soccer team", "football team"}),
    "papers": (["cites", "has author", "published at"],
               [("Attention Is All You Need", "published at NeurIPS"),
                ("Deep Residual Learning for Image Recognition", "published at CVPR")],
               {"paper", "article", "publication"}),
    "albums": (["recorded by", "has track", "released in"],
               [("Abbey Road", "recorded by The Beatles"), ("Thriller", "recorded by Michael Jackson"),
                ("Blue", "recorded by Joni Mitchell")], {"album", "record"}),
    "buildings": (["architect", "located in", "height"],
                  [("Empire State Building", "located in New York"), ("Burj Khalifa", "located in Dubai"),
                   ("Chrysler Building", "located in New York")], {"building", "skyscraper", "tower"}),
}
DEV_RIGHT = {"metaqa": {"movie", "film"}}  # what the dev KGs' provisional classes are


def made_up(relations: list[str], members: list[tuple[str, str]]) -> Sketch:
    elsewhere = {r.lower() for r in relations} | {object_noun(r.replace(" ", "_")) for r in relations}
    return Sketch(tuple(m for m, _ in members), tuple(f for _, f in members), tuple(relations), frozenset(elsewhere))


def dev_sketches(config: ScoutConfig) -> dict[str, tuple[Sketch, set[str]]]:
    out = {}
    for kg in ("worldcup", "pathquestion-large", "pathquestion-large-3h", "metaqa"):
        limits = StoreLimits(config.max_upload_bytes, timeout_s=60, retries=0, allow_private_endpoints=True)
        store = open_store(SPECS[kg].kg, config.cache_dir, limits)
        schema = read_schema(store)
        for info in schema.classes:
            sketch = sketch_class(store, schema, info) if info.provisional else None
            if sketch is not None:
                out[f"{kg}: {info.name}"] = (sketch, DEV_RIGHT.get(kg, set()))
        store.close()
    return out


def main() -> None:
    llm = LLM.load("qwen2.5-coder-0.5b")
    cases = {name: (made_up(rels, members), right) for name, (rels, members, right) in SKETCHES.items()}
    cases.update(dev_sketches(ScoutConfig()))
    rows, beam_right, chosen_right = [], 0, 0
    for name, (sketch, right) in cases.items():
        start = time.perf_counter()
        naming = name_sketch(sketch, llm)
        seconds = time.perf_counter() - start
        first = naming.in_beam_order[0] if naming.in_beam_order else "-"
        beam_right += first in right
        chosen_right += naming.noun in right
        proposals = ", ".join(f"{n} ({s:.2f})" for n, s in naming.proposals)
        rows.append(f"| {name} | {', '.join(sketch.members[:3])} | {first} | **{naming.noun}** | "
                    f"{'yes' if naming.noun in right else 'no'} | {proposals} | {seconds:.1f} |")
    text = "\n".join([
        "# Class namer sample", "",
        f"{date.today()}, `python -m bench.namer_sample`, qwen2.5-coder-0.5b on the CPU, alone on the machine.",
        f"Right: top beam alone {beam_right}/{len(cases)}, the namer's choice {chosen_right}/{len(cases)}.", "",
        "| class | members shown | top beam | chosen | right | proposals (plausibility) | s |",
        "|---|---|---|---|---|---|---|", *rows, "",
    ])
    OUT.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
