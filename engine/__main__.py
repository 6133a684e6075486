"""`python -m engine COMMAND`: the command-line face of the engine.

Each command is a small function over the engine's public API; argument parsing
and error reporting live here and nowhere else. A user error (a bad file, a bad
program, an unreachable endpoint) prints one clear line and exits with status 2,
never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Callable

from kg_adapters.base import KGError

from .config import ScoutConfig, add_config_flags, config_from_args
from .kg import KnowledgeGraph
from .sexpr import ProgramError

COMMANDS: dict[str, Callable[[argparse.Namespace, ScoutConfig], int]] = {}


def command(name: str, help_text: str, setup: Callable[[argparse.ArgumentParser], None]):
    def register(fn: Callable[[argparse.Namespace, ScoutConfig], int]):
        COMMANDS[name] = fn
        fn.help_text, fn.setup = help_text, setup
        return fn

    return register


def _kg_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kg", default=None, help="triples file or SPARQL endpoint URL (default: the geography KG)")


def _schema_args(p: argparse.ArgumentParser) -> None:
    _kg_flag(p)
    p.add_argument("--json", action="store_true", help="print the schema as JSON")


@command("schema", "print the KG's schema, read or induced", _schema_args)
def schema_command(args: argparse.Namespace, config: ScoutConfig) -> int:
    kg = KnowledgeGraph.open(args.kg, config)
    print(kg.schema.to_json() if args.json else kg.schema.describe())
    return 0


def _run_program_args(p: argparse.ArgumentParser) -> None:
    _kg_flag(p)
    p.add_argument("program", help='an s-expression, e.g. \'(JOIN (R directed_by) "Blade Runner")\'')
    p.add_argument("--json", action="store_true", help='print {"sparql": ..., "answers": [...]}')


@command("run-program", "compile a program to SPARQL, run it, print the answers", _run_program_args)
def run_program_command(args: argparse.Namespace, config: ScoutConfig) -> int:
    kg = KnowledgeGraph.open(args.kg, config)
    result = kg.executor.execute(args.program)
    if args.json:
        print(json.dumps({"sparql": result.sparql, "answers": result.to_json()["answers"]}, ensure_ascii=False))
        return 0
    print(result.sparql)
    print()
    if result.count is not None:
        print(f"count: {result.count}")
    else:
        print(f"{len(result.answers)} answer(s){' (truncated)' if result.truncated else ''}:")
        for answer in result.answers:
            print(f"  {answer.label}" + (f"  <{answer.iri}>" if answer.iri else ""))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="KG Scout engine")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, fn in COMMANDS.items():
        p = sub.add_parser(name, help=fn.help_text, description=fn.help_text)
        fn.setup(p)
        add_config_flags(p.add_argument_group("settings"))
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    config = config_from_args(args)
    try:
        return COMMANDS[args.command](args, config)
    except (KGError, ProgramError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
