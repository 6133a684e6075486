"""Natural questions on our own geography KG (the app's default), written in session 46 the way a visitor asks them,
none of them from `tests/fixtures` or the dev 55: the image of issue 27's hidden set "natural questions on our own
default geography KG". Each gold answer is what its gold program returns on the embedded KG:

    python bench/probes/geography.py DIR     # DIR/geography_q.jsonl
    python -m engine evaluate --questions DIR/geography_q.jsonl --fresh --cache-dir C    # the shipped corpus

Unlike the other probes it needs the engine (to run the gold programs). First run: 94.9 (BENCHMARKS.md, session 46),
read row by row since, so tuned-on from then.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.config import ScoutConfig  # noqa: E402
from engine.programs.kg import KnowledgeGraph  # noqa: E402

Q = [
 ("What is the capital of Kenya?", '(JOIN (R capital) "Kenya")'),
 ("Which country is Lyon in?", '(JOIN (R country) "Lyon")'),
 ("What currency do they use in Japan?", '(JOIN (R currency) "Japan")'),
 ("What languages are spoken in Switzerland?", '(JOIN (R language) "Switzerland")'),
 ("Which countries border Germany?", '(JOIN (R neighbour) "Germany")'),
 ("How many people live in Brazil?", '(JOIN (R population) "Brazil")'),
 ("How big is Australia?", '(JOIN (R area) "Australia")'),
 ("What continent is Peru on?", '(JOIN (R continent) "Peru")'),
 ("Which is the largest country in Africa?", '(ARGMAX (JOIN continent "Africa") area)'),
 ("What is the most populous city in Canada?", '(ARGMAX (JOIN country "Canada") population)'),
 ("How many countries are there in South America?", '(COUNT (JOIN continent "South America"))'),
 ("Which countries use the euro?", '(JOIN currency "Euro")'),
 ("What time zone is Denver in?", '(JOIN (R timezone) "Denver")'),
 ("What is the main language of Brazil?", '(JOIN (R main_language) "Brazil")'),
 ("How many neighbours does France have?", '(COUNT (JOIN (R neighbour) "France"))'),
 ("What's the capital of the country Porto is in?", '(JOIN (R capital) (JOIN (R country) "Porto"))'),
 ("Which of Spain's neighbours speak Portuguese?", '(AND (JOIN (R neighbour) "Spain") (JOIN language "Portuguese"))'),
 ("How many people live in the capital of Egypt?", '(JOIN (R population) (JOIN (R capital) "Egypt"))'),
 ("Which languages are spoken in the countries that border Thailand?", '(JOIN (R language) (JOIN (R neighbour) "Thailand"))'),
 ("Is Vienna the capital of Austria?", '(IN "Vienna" (JOIN (R capital) "Austria"))'),
 ("Which European countries have more than 50 million people?", '(AND (JOIN continent "Europe") (gt population 50000000))'),
 ("Which is smaller, Belgium or the Netherlands?", '(ARGMIN (OR "Belgium" "The Netherlands") area)'),
 ("What's Norway's country code?", '(JOIN (R iso_code) "Norway")'),
 ("Which Italian cities have over a million inhabitants?", '(AND (JOIN country "Italy") (gt population 1000000))'),
 ("In which countries is Spanish the main language?", '(JOIN main_language "Spanish")'),
 ("What is the northernmost city in Norway?", '(ARGMAX (JOIN country "Norway") latitude)'),
 ("What is the total population of the countries bordering Chile?", '(SUM (JOIN (R neighbour) "Chile") population)'),
 ("What currency is used in the country whose capital is Nairobi?", '(JOIN (R currency) (JOIN capital "Nairobi"))'),
 ("Which countries have Arabic as a language?", '(JOIN language "Arabic")'),
 ("What is the capital of the smallest country in South America?", '(JOIN (R capital) (ARGMIN (JOIN continent "South America") area))'),
 ("Which countries border both France and Germany?", '(AND (JOIN (R neighbour) "France") (JOIN (R neighbour) "Germany"))'),
 ("Which is the most populous country in Oceania?", '(ARGMAX (JOIN continent "Oceania") population)'),
 ("What is the average population of the countries in Europe?", '(AVG (JOIN continent "Europe") population)'),
 ("How many countries speak French?", '(COUNT (JOIN language "French"))'),
 ("Which Asian country has the largest population?", '(ARGMAX (JOIN continent "Asia") population)'),
 ("What's the population of Lagos?", '(JOIN (R population) "Lagos")'),
 ("Which continent is Mongolia part of?", '(JOIN (R continent) "Mongolia")'),
 ("Which cities are in the same time zone as Lisbon?", '(JOIN timezone (JOIN (R timezone) "Lisbon"))'),
 ("What is the currency code of the Swiss franc?", '(JOIN (R currency_code) "Franc (CHF)")'),
]


def gold(kg: KnowledgeGraph, program: str) -> list[str]:
    """The answers' labels, as `engine evaluate` compares them (a count, yes/no or total is one label)."""
    return [a.label for a in kg.executor.execute(program).answers]


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    out.mkdir(parents=True, exist_ok=True)
    kg = KnowledgeGraph.open(None, ScoutConfig(cache_dir=str(out / "cache")))
    with (out / "geography_q.jsonl").open("w") as f:
        for i, (question, program) in enumerate(Q):
            f.write(json.dumps({"id": f"geography-{i}", "question": question, "answers": gold(kg, program),
                                "program": program}) + "\n")
    print("questions:", len(Q))


if __name__ == "__main__":
    main()
