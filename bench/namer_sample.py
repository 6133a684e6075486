"""How well the class namer (engine.bootstrap.namer) names what a KG's data leaves unnamed.

Three sets:
- made-up sketches of famous things: ten kinds of thing, each shown as the namer would see it (a few members and
  the relations), with the nouns that count as right;
- made-up sketches whose members say nothing (codes and made-up names, as in a KG its owner made up): sixteen
  kinds of thing that only their relations can name;
- the dev KGs' classes the namer is asked about (MoviesKG's provisional class, PathQuestion's mixed one),
  sketched from the store as the engine does.
For each, the top beam alone (step 1) and the namer's choice (step 2), counted per set. Writes
bench/namer_sample.md.

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

# name: (relations, members, right nouns)
SKETCHES = {
    "films": (["directed by", "written by", "starred actors", "release year", "has genre"],
        ["Frankenstein", "Romeo and Juliet", "Les Misérables", "8½"], ["film", "movie"]),
    "books": (["written by", "published in", "has isbn", "publisher"],
        ["Emma", "Dune", "Ulysses"], ["book", "novel"]),
    "companies": (["founded in", "headquartered in", "has ceo", "industry"],
        ["Siemens", "Nestle", "Toyota"], ["company", "corporation"]),
    "songs": (["performed by", "on album", "release date", "composed by"],
        ["Yesterday", "Imagine", "Halo"], ["song"]),
    "drugs": (["treats", "has side effect", "dosage form", "manufactured by"],
        ["Aspirin", "Metformin", "Lisinopril"], ["drug", "medication", "medicine"]),
    "rivers": (["flows through", "length", "mouth", "source"],
        ["Danube", "Nile", "Rhine"], ["river"]),
    "teams": (["home stadium", "coached by", "league"],
        ["Arsenal", "Real Madrid", "Bayern Munich"],
        ["club", "football club", "football team", "soccer club", "soccer team", "team"]),
    "papers": (["cites", "has author", "published at"],
        ["Attention Is All You Need", "Deep Residual Learning for Image Recognition"],
        ["article", "paper", "publication"]),
    "albums": (["recorded by", "has track", "released in"],
        ["Abbey Road", "Thriller", "Blue"], ["album", "record"]),
    "buildings": (["architect", "located in", "height"],
        ["Empire State Building", "Burj Khalifa", "Chrysler Building"], ["building", "skyscraper", "tower"]),
}
# Members that say nothing of what they are (codes, made-up names), as in a KG its owner made up: only the
# relations can name these. Domains unlike those of the dev KGs and of bench/probes.
UNKNOWN = {
    "shipments": (["shipped from", "delivered to", "weight kg", "carrier", "ship date"],
        ["SHP-0192", "SHP-0201", "SHP-0377"], ["consignment", "delivery", "package", "parcel", "shipment"]),
    "invoices": (["issued to", "amount", "due date", "paid"],
        ["INV-2231", "INV-2232", "INV-2240"], ["bill", "invoice"]),
    "samples": (["collected by", "collected on", "depth m", "ph", "site"],
        ["S-0041", "S-0042", "S-0107"], ["sample", "specimen"]),
    "bookings": (["guest", "room", "check in date", "nights"],
        ["BK5521", "BK5522", "BK5530"], ["booking", "reservation"]),
    "rivers": (["flows into", "length km", "source", "basin area"],
        ["Vessa", "Orlin", "Tarn Water"], ["river", "stream"]),
    "cars": (["manufacturer", "engine size", "top speed", "launch year", "body style"],
        ["Kestra GT", "Volna 3", "Pell Roadster"], ["automobile", "car", "car model", "model", "vehicle"]),
    "ships": (["flag state", "gross tonnage", "built by", "home port"],
        ["MV Tessaly", "MV Coral Dawn", "SS Harrow"], ["boat", "ship", "vessel"]),
    "concerts": (["venue", "performer", "ticket price", "concert date"],
        ["C-2019-07", "C-2019-11", "C-2020-02"], ["concert", "event", "gig", "performance", "show"]),
    "novels": (["written by", "published by", "pages", "isbn"],
        ["The Glass Orchard", "Winter of Salt", "Lanternfall"], ["book", "novel"]),
    "patents": (["inventor", "filed on", "assigned to", "granted"],
        ["US-4412-B", "EP-0093-A", "US-5120-C"], ["invention", "patent"]),
    "orders": (["customer", "order date", "total", "contains product", "shipped"],
        ["ORD-88812", "ORD-88813", "ORD-88901"], ["order", "purchase"]),
    "sensors": (["installed in", "reading", "battery level", "last calibrated"],
        ["TMP-07", "TMP-08", "HUM-02"], ["device", "meter", "sensor"]),
    "mountains": (["elevation m", "in range", "first ascent", "prominence m"],
        ["Mount Keldra", "Sarn Peak", "Bald Tor"], ["mountain", "peak", "summit"]),
    "loans": (["borrower", "principal", "interest rate", "start date", "term months"],
        ["L-30071", "L-30072", "L-30090"], ["credit", "loan", "mortgage"]),
    "trials": (["sponsor", "phase", "enrolment", "start date", "condition studied"],
        ["NCT-0411", "NCT-0512", "NCT-0630"], ["clinical trial", "study", "trial"]),
    "tickets": (["opened by", "assigned to", "priority", "status", "opened on"],
        ["TCK-1190", "TCK-1191", "TCK-1204"], ["incident", "issue", "request", "support ticket", "ticket"]),
}
DEV_RIGHT = {"metaqa": {"movie", "film"}, "pathquestion-large": {"country"}, "pathquestion-large-3h": {"country"}}


def made_up(relations: list[str], members: list[str]) -> Sketch:
    elsewhere = {r.lower() for r in relations} | {object_noun(r.replace(" ", "_")) for r in relations}
    return Sketch(tuple(members), tuple(relations), frozenset(elsewhere))


def dev_sketches(config: ScoutConfig) -> dict[str, tuple[str, Sketch, set[str]]]:
    out = {}
    for kg in ("worldcup", "pathquestion-large", "pathquestion-large-3h", "metaqa"):
        limits = StoreLimits(config.max_upload_bytes, timeout_s=60, retries=0, allow_private_endpoints=True)
        store = open_store(SPECS[kg].kg, config.cache_dir, limits)
        schema = read_schema(store)
        for info in schema.classes:
            sketch = sketch_class(store, schema, info) if info.provisional or info.mixed else None
            if sketch is not None:
                out[f"{kg}: {info.name}"] = ("dev", sketch, DEV_RIGHT.get(kg, set()))
        store.close()
    return out


def main() -> None:
    llm = LLM.load("qwen2.5-coder-0.5b")
    cases = {name: ("famous", made_up(rels, members), right) for name, (rels, members, right) in SKETCHES.items()}
    cases.update({f"unknown: {name}": ("unknown", made_up(rels, members), right)
                  for name, (rels, members, right) in UNKNOWN.items()})
    cases.update(dev_sketches(ScoutConfig()))
    rows, tally = [], {}
    for name, (group, sketch, right) in cases.items():
        start = time.perf_counter()
        naming = name_sketch(sketch, llm)
        seconds = time.perf_counter() - start
        first = naming.in_beam_order[0] if naming.in_beam_order else "-"
        beam, chosen, n = tally.get(group, (0, 0, 0))
        tally[group] = (beam + (first in right), chosen + (naming.noun in right), n + 1)
        proposals = ", ".join(f"{noun} ({score:.2f})" for noun, score in naming.proposals)
        rows.append(f"| {name} | {', '.join(sketch.members[:3])} | {first} | **{naming.noun}** | "
                    f"{'yes' if naming.noun in right else 'no'} | {proposals} | {seconds:.1f} |")
    text = "\n".join([
        "# Class namer sample", "",
        f"{date.today()}, `python -m bench.namer_sample`, qwen2.5-coder-0.5b on the CPU, alone on the machine.",
        "Right, top beam alone / the namer's choice: " + "; ".join(
            f"{group} {beam}/{n} / {chosen}/{n}" for group, (beam, chosen, n) in tally.items()) + ".", "",
        "| class | members shown | top beam | chosen | right | proposals (plausibility) | s |",
        "|---|---|---|---|---|---|---|", *rows, "",
    ])
    OUT.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
